//! [`Answerer`]: the one trait for anything that answers cases — a live engine (the lab's
//! `oracle::Engine`), the codec itself (the lab's `this_codec::ThisCodec`), a conformance testee
//! process (the lab's `conform::testee::Testee`); and [`EngineAnswerer`], what
//! only an engine has beside its answers (crashes and hangs, refused connections, its classes,
//! its own check of the bytes it wrote), which campaigns, corpus generation and drift checks use.
//!
//! Each answerer answers in one format profile, fixed when it is made: an engine is its version,
//! and this codec and a testee are bound to the profile of the corpus or engine they are set
//! against, so that an answer and the answer it is judged against are always of the same profile.

use std::collections::BTreeSet;
use std::sync::Arc;

use gdmarshal::classes::ClassList;
use gdmarshal::profile::Profile;

use crate::IncidentRecord;
use crate::answer::Answer;
use crate::case::Case;

/// The classes whose fresh objects' stored properties a batch of cases needs: classes alone, and
/// (4.x) classes given one of the project's scripts, as (class, script path).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wanted {
    /// Classes of full objects.
    pub classes: BTreeSet<String>,
    /// Classes of full objects whose `script` property names a script, with that script.
    pub scripted: BTreeSet<(String, String)>,
}

/// Something that answers cases the way one Godot version does (or claims to).
pub trait Answerer {
    /// A short name for messages (an engine's `4.6`, `gdmarshal`, a testee's own name).
    fn name(&self) -> &str;

    /// The version it reports: an engine's `4.6.3.stable` (what the engine globs of known
    /// differences match), this crate's version for the codec, a testee's name.
    fn version(&self) -> &str;

    /// The format profile it answers in.
    fn profile(&self) -> Profile;

    /// Answers a batch of cases: one answer per case, in order. A decode answer carries the
    /// answerer's re-encoding of what it decoded.
    fn answer(&mut self, cases: &[Case]) -> Vec<Answer>;
}

/// An answerer that runs a Godot engine (or stands in for one in a test): what only an engine
/// has, beside its answers. Campaigns, corpus generation and drift checks ask engines through
/// it; this codec and conformance testees are [`Answerer`]s only.
pub trait EngineAnswerer: Answerer {
    /// Answers as [`Answerer::answer`] does, each answer with the answerer's own verdict on
    /// decoding the bytes it holds (its encoding, or re-encoding), where it gives one in the same
    /// round trip: `Some(false)` when it refuses them. `None` where it was not told: the caller
    /// asks in a round of its own. Only an engine tells (and not for cases with objects).
    fn answer_checking_own(&mut self, cases: &[Case]) -> Vec<(Answer, Option<bool>)> {
        self.answer(cases).into_iter().map(|a| (a, None)).collect()
    }

    /// Takes the crashes and hangs seen since the last call, each with what became of the case
    /// that was running (an answerer that runs no engine has none).
    fn take_incidents(&mut self) -> Vec<IncidentRecord> {
        Vec::new()
    }

    /// Connections refused so far because they did not prove to be this answerer's engine
    /// (the lab's `oracle::Engine::refused`); none for an answerer that listens on nothing.
    fn refused(&self) -> usize {
        0
    }

    /// From now on, answer a decode without objects with the re-encoding in which every object
    /// read as an id carries the id read, not the own instance id of the placeholder object the
    /// engine made for it (fresh in every engine process: an artefact of re-encoding what was
    /// decoded). Campaigns and the differential fuzz target ask this; corpus records keep what
    /// the engine writes. Nothing to do for an answerer that makes no placeholders.
    fn compare_object_ids_as_read(&mut self) {}

    /// The classes the answerer's engine has, where it can tell (an engine asks its ClassDB
    /// once); `None` where it cannot, and the codec is then judged without class rules.
    fn classes(&mut self) -> Option<Arc<ClassList>> {
        None
    }

    /// The same classes, with the stored properties and defaults of those named in `wanted`
    /// that the engine can instantiate, alone or given a script (each asked once), so that the
    /// codec completes full objects as the engine holds them ([`ClassList::fill_stored`]).
    fn classes_with_defaults(&mut self, wanted: &Wanted) -> Option<Arc<ClassList>> {
        let _ = wanted;
        self.classes()
    }
}
