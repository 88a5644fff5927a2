//! The fields of the input as data rather than text: what the Python and npm packages return
//! from their `inspect`, from the same trace as the dump.

use std::fmt;

use crate::decode::{DecodeOptions, decode_traced};
use crate::error::DecodeError;
use crate::profile::Profile;
use crate::trace::Trace;

/// A field the decoder read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Where it starts in the input.
    pub start: usize,
    /// Where it ends (past the input's end for a field cut short).
    pub end: usize,
    /// The value it is read in, as encode errors name places: `$`, `$[3]`, `${key 0}`,
    /// `$.name`.
    pub path: String,
    /// The field's name: `header`, `length`, `x`, ….
    pub name: String,
    /// What its bytes mean.
    pub meaning: String,
}

/// Every field of a value and how decoding ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fields {
    /// The fields, in the order read.
    pub fields: Vec<Field>,
    /// The bytes consumed, or the error where decoding stopped.
    pub outcome: Result<usize, DecodeError>,
}

/// The fields of the value at the start of `bytes`, as the decoder reads them. Decoded values are
/// not kept: memory is that of the fields.
///
/// ```
/// use gdmarshal::inspect::fields;
/// use gdmarshal::{DecodeOptions, Profile};
///
/// let godot46: Profile = "4.6".parse().unwrap();
/// let found = fields(&[28, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0], godot46, DecodeOptions::default());
/// assert_eq!(found.outcome, Ok(16));
/// let last = found.fields.last().unwrap();
/// assert_eq!((last.start, last.path.as_str(), last.name.as_str(), last.meaning.as_str()), (12, "$[0]", "value", "7"));
/// ```
pub fn fields(bytes: &[u8], profile: Profile, opts: DecodeOptions) -> Fields {
    let mut trace = Collect {
        open: Vec::new(),
        path: String::new(),
        fields: Vec::new(),
    };
    let outcome = decode_traced(bytes, profile, opts, &mut trace).map(|d| d.consumed);
    Fields {
        fields: trace.fields,
        outcome,
    }
}

/// Collects the fields with the path of the value each is read in.
struct Collect {
    /// The length of `path` before each open value.
    open: Vec<usize>,
    path: String,
    fields: Vec<Field>,
}

impl Trace for Collect {
    const ACTIVE: bool = true;
    const KEEPS_VALUES: bool = false;

    fn open(&mut self, _: usize, label: fmt::Arguments<'_>) {
        use fmt::Write;
        self.open.push(self.path.len());
        let label = label.to_string();
        // Written as encode errors name places: `[3]`, `{key 0}`, `.name`.
        let _ = if label.starts_with('[') {
            write!(self.path, "{label}")
        } else if label.starts_with("key ") || label.starts_with("value ") {
            write!(self.path, "{{{label}}}")
        } else {
            write!(self.path, ".{label}")
        };
    }

    fn field(&mut self, start: usize, end: usize, name: &str, meaning: fmt::Arguments<'_>) {
        self.fields.push(Field {
            start,
            end,
            path: format!("${}", self.path),
            name: name.to_string(),
            meaning: meaning.to_string(),
        });
    }

    fn close(&mut self, _: usize) {
        if let Some(len) = self.open.pop() {
            self.path.truncate(len);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fields;
    use crate::DecodeOptions;

    #[test]
    fn paths_name_elements_entries_and_the_error_where_it_is() {
        let godot46 = "4.6".parse().unwrap();
        // {"k": [1]} as 4.6.3 writes it, cut inside the int.
        let bytes = [
            27, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, b'k', 0, 0, 0, 28, 0, 0, 0, 1, 0, 0,
            0, 2, 0, 0, 0, 1, 0,
        ];
        let found = fields(&bytes, godot46, DecodeOptions::default());
        let paths: Vec<(usize, &str, &str)> = found
            .fields
            .iter()
            .map(|f| (f.start, f.path.as_str(), f.name.as_str()))
            .collect();
        assert_eq!(paths[0], (0, "$", "header"));
        assert!(paths.contains(&(8, "${key 0}", "header")), "{paths:?}");
        assert!(paths.contains(&(20, "${value 0}", "header")), "{paths:?}");
        assert!(
            paths.contains(&(28, "${value 0}[0]", "header")),
            "{paths:?}"
        );
        assert_eq!(found.outcome.unwrap_err().offset, 32);
    }
}
