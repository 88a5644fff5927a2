//! A live engine as an [`Answerer`]: cases become request lines, and the engine's results
//! become [`Answer`]s. The engine's error text is read here, once, into a typed rejection.

use gdmarshal::float::FloatStyle;
use gdmarshal::json::to_json;
use gdmarshal::profile::Profile;

use super::engine::Engine;
use super::requests::{
    decode_line, decode_result, encode_line, encode_result, own_accepted, with_own_check,
};
use super::result::{DecodeResult, EncodeResult, EngineVerdict};
use crate::model::IncidentRecord;
use crate::model::answer::{Answer, Reencoded};
use crate::model::answerer::{Answerer, EngineAnswerer};
use crate::model::case::Case;
use crate::model::engine_rejection;
use crate::model::{RejectKind, Rejection};

impl Answerer for Engine {
    fn name(&self) -> &str {
        &self.spec().name
    }

    fn version(&self) -> &str {
        &self.info().version
    }

    fn profile(&self) -> Profile {
        self.info().profile
    }

    fn answer(&mut self, cases: &[Case]) -> Vec<Answer> {
        self.answer_lines(cases, false)
            .into_iter()
            .map(|(a, _)| a)
            .collect()
    }
}

impl EngineAnswerer for Engine {
    fn answer_checking_own(&mut self, cases: &[Case]) -> Vec<(Answer, Option<bool>)> {
        self.answer_lines(cases, true)
    }

    fn take_incidents(&mut self) -> Vec<IncidentRecord> {
        Engine::take_incidents(self)
    }

    fn refused(&self) -> usize {
        Engine::refused(self)
    }

    fn compare_object_ids_as_read(&mut self) {
        self.ids_as_read = true;
    }

    fn classes(&mut self) -> Option<std::sync::Arc<gdmarshal::classes::ClassList>> {
        if self.class_list.is_none() {
            self.class_list = Some(Engine::classes(self).ok().map(std::sync::Arc::new));
        }
        self.class_list.clone().flatten()
    }

    fn classes_with_defaults(
        &mut self,
        wanted: &crate::model::answerer::Wanted,
    ) -> Option<std::sync::Arc<gdmarshal::classes::ClassList>> {
        let list = EngineAnswerer::classes(self)?;
        let new: Vec<String> = wanted
            .classes
            .iter()
            .filter(|c| list.instantiable(c) && !self.defaults_asked.contains(*c))
            .cloned()
            .collect();
        // Only a 4.x engine's list names its project's scripts, which its decoder loads.
        let scripted: Vec<(String, String)> = wanted
            .scripted
            .iter()
            .filter(|(c, s)| {
                list.instantiable(c)
                    && list.scripts().is_some_and(|all| all.contains(s))
                    && !self.scripted_asked.contains(&(c.clone(), s.clone()))
            })
            .cloned()
            .collect();
        if new.is_empty() && scripted.is_empty() {
            return Some(list);
        }
        self.defaults_asked.extend(new.iter().cloned());
        self.scripted_asked.extend(scripted.iter().cloned());
        // A class the engine did not answer for stays without defaults: the codec then leaves
        // its objects as given.
        let mut more = (*list).clone();
        if !new.is_empty()
            && let Ok(defaults) = self.class_defaults(&new)
        {
            more = defaults
                .into_iter()
                .fold(more, |l, (c, d)| l.with_defaults(c, d));
        }
        if !scripted.is_empty()
            && let Ok(defaults) = self.scripted_defaults(&scripted)
        {
            more = defaults
                .into_iter()
                .fold(more, |l, (c, s, d)| l.with_scripted_defaults(c, s, d));
        }
        let more = std::sync::Arc::new(more);
        self.class_list = Some(Some(more.clone()));
        Some(more)
    }
}

impl Engine {
    /// Each case's answer, and with `own` the engine's verdict on decoding the bytes it wrote
    /// (asked in the same request, for cases without objects).
    fn answer_lines(&mut self, cases: &[Case], own: bool) -> Vec<(Answer, Option<bool>)> {
        let profile = self.info().profile;
        let lines: Vec<String> = cases
            .iter()
            .map(|c| {
                let line = match c {
                    Case::Decode {
                        input,
                        allow_objects,
                        ..
                    } => decode_line(input, *allow_objects),
                    Case::Encode { value, .. } => encode_line(value, profile, self.ids_as_read),
                };
                if own && !c.objects() {
                    with_own_check(&line)
                } else {
                    line
                }
            })
            .collect();
        let replies = self.exchange(&lines);
        cases
            .iter()
            .zip(replies)
            .map(|(c, reply)| {
                let own = own_accepted(&reply);
                let answer = match c {
                    Case::Decode { allow_objects, .. } => {
                        let mut r = decode_result(reply, profile);
                        if self.ids_as_read && !allow_objects {
                            restore_read_ids(&mut r, profile);
                        }
                        decoded(r, *allow_objects, profile)
                    }
                    Case::Encode { full_objects, .. } => {
                        let mut r = encode_result(reply, profile, *full_objects);
                        if self.ids_as_read
                            && let Some(bytes) = r.plain.as_mut()
                        {
                            super::placeholders::restore_read_ids(bytes, &r.placeholders, profile);
                        }
                        encoded(r, profile)
                    }
                };
                (answer, own)
            })
            .collect()
    }
}

/// The whole answer for a request that was not accepted; `None` for an accepted one.
fn not_accepted(verdict: &EngineVerdict, error_text: &str) -> Option<Answer> {
    Some(match verdict {
        EngineVerdict::Accepted => return None,
        EngineVerdict::Rejected => Answer::Rejected(Rejection {
            kind: engine_rejection(error_text).map(RejectKind::Engine),
            message: error_text.to_string(),
        }),
        EngineVerdict::Unsupported(why) => Answer::Unsupported(why.clone()),
        EngineVerdict::Crashed(i) => Answer::Crashed(i.clone()),
        EngineVerdict::Hung(i) => Answer::Hung(i.clone()),
        EngineVerdict::Unanswered(why) => Answer::Unanswered(why.clone()),
    })
}

/// Writes the ids read back over the placeholders' own ids in the re-encoding without objects.
fn restore_read_ids(r: &mut DecodeResult, profile: Profile) {
    if let Some(bytes) = r.reencoded.as_mut() {
        super::placeholders::restore_read_ids(bytes, &r.placeholders, profile);
    }
}

fn decoded(r: DecodeResult, objects: bool, profile: Profile) -> Answer {
    if let Some(answer) = not_accepted(&r.verdict, &r.error_text) {
        return answer;
    }
    // The value read from the engine's tree, in the codec's spelling; the raw tree when it
    // does not read as a value.
    let tree = match (&r.value, r.tree) {
        (Some(v), _) => Some(to_json(v, profile, FloatStyle::Shortest)),
        (None, t) => t,
    };
    let reencoded = if objects {
        r.reencoded_full
    } else {
        r.reencoded
    };
    Answer::Decoded {
        tree,
        consumed: r.consumed,
        reencoded: reencoded.map_or(Reencoded::Absent, Reencoded::Bytes),
        log: r.error_text,
    }
}

fn encoded(r: EncodeResult, profile: Profile) -> Answer {
    if let Some(answer) = not_accepted(&r.verdict, &r.error_text) {
        return answer;
    }
    let Some(bytes) = r.bytes().map(<[u8]>::to_vec) else {
        return Answer::Unanswered("the engine's answer holds no bytes".into());
    };
    Answer::Encoded {
        bytes,
        tree: r
            .value
            .as_ref()
            .map(|v| to_json(v, profile, FloatStyle::Shortest)),
        log: r.error_text,
    }
}
