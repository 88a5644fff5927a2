//! A case: one question for anything that answers them (an engine, this codec, a testee).

use std::fmt;

use serde::{Deserialize, Serialize};

use gdmarshal::value::Variant;

/// Which way a case goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Bytes to a value.
    Decode,
    /// A value to bytes.
    Encode,
}

impl Direction {
    /// `decode` or `encode`, as records, reproducers and the testee protocol spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Decode => "decode",
            Direction::Encode => "encode",
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One question for the engines.
#[derive(Clone, Debug, PartialEq)]
pub enum Case {
    /// Build this value and encode it.
    Encode {
        /// Stable name, e.g. `encode/int/2147483648`.
        name: String,
        /// The value.
        value: Variant,
        /// Write objects in full.
        full_objects: bool,
    },
    /// Decode these bytes.
    Decode {
        /// Stable name, e.g. `decode/truncated/String/abc/at_5`.
        name: String,
        /// The input.
        input: Vec<u8>,
        /// Allow full objects.
        allow_objects: bool,
    },
}

impl Case {
    /// The case's name.
    pub fn name(&self) -> &str {
        match self {
            Case::Encode { name, .. } | Case::Decode { name, .. } => name,
        }
    }

    /// Which way it goes.
    pub fn direction(&self) -> Direction {
        match self {
            Case::Encode { .. } => Direction::Encode,
            Case::Decode { .. } => Direction::Decode,
        }
    }

    /// Decode with objects allowed / encode with full objects.
    pub fn objects(&self) -> bool {
        match self {
            Case::Encode { full_objects, .. } => *full_objects,
            Case::Decode { allow_objects, .. } => *allow_objects,
        }
    }
}
