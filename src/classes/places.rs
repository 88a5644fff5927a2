//! Where the values a walk visits are, kept as one step from the parent's place each, and
//! written out as a path (`$`, `[i]`, `{key i}`, `{value i}`, `.property`) only for an error: a
//! value nested a million deep costs a million steps, not a million paths of growing length.

/// One step down from a container or an object.
#[derive(Clone, Debug)]
pub(super) enum Step {
    /// The value walked.
    Root,
    /// An Array's element.
    Index(usize),
    /// A Dictionary entry's key.
    Key(usize),
    /// A Dictionary entry's value.
    Value(usize),
    /// An object's property.
    Property(String),
}

/// The places visited so far; a place is its index.
#[derive(Debug)]
pub(super) struct Places {
    steps: Vec<(usize, Step)>,
}

impl Places {
    /// The root's place is 0.
    pub(super) fn new() -> Places {
        Places {
            steps: vec![(0, Step::Root)],
        }
    }

    /// The place one step below `parent`.
    pub(super) fn below(&mut self, parent: usize, step: Step) -> usize {
        self.steps.push((parent, step));
        self.steps.len() - 1
    }

    /// The place written out.
    pub(super) fn path(&self, mut at: usize) -> String {
        let mut steps = Vec::new();
        while at != 0 {
            let (parent, step) = &self.steps[at];
            steps.push(step);
            at = *parent;
        }
        let mut out = "$".to_string();
        for step in steps.into_iter().rev() {
            match step {
                Step::Root => {}
                Step::Index(i) => out.push_str(&format!("[{i}]")),
                Step::Key(i) => out.push_str(&format!("{{key {i}}}")),
                Step::Value(i) => out.push_str(&format!("{{value {i}}}")),
                Step::Property(name) => {
                    out.push('.');
                    out.push_str(name);
                }
            }
        }
        out
    }
}
