//! The bookkeeping of one [`Engine::exchange`](super::Engine): which requests are answered and
//! which are left, the request under suspicion after an incident, and the decisions taken after
//! each round, as a small state machine the engine drives. A batch goes out whole until a request
//! crashes or hangs the engine; that request (the suspect) then goes alone to fresh engines until
//! an incident repeats (an engine defect), a fresh engine answers it, or the tries run out.

use super::requests::Reply;
use super::result::EngineVerdict;
use crate::model::Resolution;

/// How many times a request that crashed or hung an engine is tried in all before it is
/// unanswered: enough to see a crash repeat past a few kills from outside.
pub const SUSPECT_TRIES: usize = 4;

/// How many times in a row an engine may fail to start, or die before serving anything, before
/// the requests left are unanswered.
pub(crate) const START_TRIES: usize = 3;

/// Where an exchange stands between rounds.
pub(super) struct Exchange {
    /// Each request's reply, once it has one.
    out: Vec<Option<Reply>>,
    /// The requests without a reply, in order.
    pending: Vec<usize>,
    /// The request being retried alone, if one crashed or hung an engine.
    suspect: Option<Suspect>,
    /// Engines in a row that died or stalled before serving any request.
    fruitless: usize,
}

impl Exchange {
    /// An exchange of `n` requests, none answered.
    pub(super) fn new(n: usize) -> Exchange {
        Exchange {
            out: (0..n).map(|_| None).collect(),
            pending: (0..n).collect(),
            suspect: None,
            fruitless: 0,
        }
    }

    /// Whether every request has its reply.
    pub(super) fn is_done(&self) -> bool {
        self.pending.is_empty()
    }

    /// The requests the next round sends: the suspect alone (so that nothing else can be
    /// blamed), else every request left.
    pub(super) fn batch(&self) -> Vec<usize> {
        match &self.suspect {
            Some(s) => vec![s.index],
            None => self.pending.clone(),
        }
    }

    /// A round answered `batch`: the replies are kept, and a suspect among them is cleared (it is
    /// returned, answered on a retry).
    pub(super) fn answered(&mut self, batch: &[usize], answers: Vec<Reply>) -> Option<Suspect> {
        for (&i, answer) in batch.iter().zip(answers) {
            self.out[i] = Some(answer);
        }
        let out = &self.out;
        self.pending.retain(|i| out[*i].is_none());
        self.fruitless = 0;
        self.suspect.take()
    }

    /// Request `index` crashed or hung its engine. Returns the suspect and how it is settled when
    /// this incident decides it (a repeat, or the last try); else the request becomes or stays
    /// the suspect and is tried again.
    pub(super) fn incident_on(
        &mut self,
        index: usize,
        verdict: EngineVerdict,
    ) -> Option<(Suspect, Resolution)> {
        self.fruitless = 0;
        match self.suspect.take() {
            None => {
                self.suspect = Some(Suspect::new(index, verdict));
                None
            }
            Some(s) if s.reproduced_by(&verdict) => Some((s, Resolution::Reproduced)),
            Some(s) if s.tries + 1 >= SUSPECT_TRIES => Some((s, Resolution::Unanswered)),
            Some(s) => {
                self.suspect = Some(s.again(verdict));
                None
            }
        }
    }

    /// An engine died or stalled before serving any request; true when that has happened
    /// [`START_TRIES`] times in a row and the requests left should be given up.
    pub(super) fn stalled(&mut self) -> bool {
        self.fruitless += 1;
        self.fruitless >= START_TRIES
    }

    /// Request `index` is settled with `reply`.
    pub(super) fn answer(&mut self, index: usize, reply: Reply) {
        self.out[index] = Some(reply);
        self.pending.retain(|&p| p != index);
    }

    /// Every request left is unanswered for `why`; returns the suspect, if one was being tried.
    pub(super) fn fail_all(&mut self, why: &str) -> Option<Suspect> {
        for i in self.pending.drain(..) {
            self.out[i] = Some(Reply::Verdict(EngineVerdict::Unanswered(why.to_string())));
        }
        self.suspect.take()
    }

    /// The replies, in the requests' order.
    pub(super) fn finish(self) -> Vec<Reply> {
        self.out
            .into_iter()
            .map(|a| a.expect("every request is answered"))
            .collect()
    }
}

/// A request that was running when its engine crashed or hung, being tried again.
pub(super) struct Suspect {
    /// The request's place in the exchange.
    pub(super) index: usize,
    /// The incident a retry must repeat to count as the input's doing.
    pub(super) first: EngineVerdict,
    tries: usize,
}

impl Suspect {
    fn new(index: usize, verdict: EngineVerdict) -> Suspect {
        Suspect {
            index,
            first: verdict,
            tries: 1,
        }
    }

    /// Whether a retry's incident repeats the first: a hang again, or a crash by the same signal
    /// (or exit) that came from inside the engine.
    fn reproduced_by(&self, again: &EngineVerdict) -> bool {
        match (&self.first, again) {
            (EngineVerdict::Hung(_), EngineVerdict::Hung(_)) => true,
            (EngineVerdict::Crashed(a), EngineVerdict::Crashed(b)) => {
                !a.from_outside() && !b.from_outside() && a.status == b.status
            }
            _ => false,
        }
    }

    /// Another try; a first incident from outside gives way to the new one as the one to repeat.
    fn again(mut self, verdict: EngineVerdict) -> Suspect {
        self.tries += 1;
        if let EngineVerdict::Crashed(i) = &self.first
            && i.from_outside()
        {
            self.first = verdict;
        }
        self
    }
}
