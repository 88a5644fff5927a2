//! The matrix's columns: which part of the format a case exercises.

use gdmarshal::types::{Shape, VariantType};

use crate::model::case::Direction;
use crate::model::{Record, Verdict};

/// A part of the format, as the matrix counts cases: each case falls in exactly one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Category {
    /// Nil, bool, int, float.
    Scalars,
    /// String, StringName, NodePath.
    Strings,
    /// The fixed rows of numbers: vectors, rectangles, transforms, Color, Plane, Quaternion, ….
    Math,
    /// Array and Dictionary without an element type.
    Containers,
    /// Arrays and Dictionaries with an element type (4.x), and the conversions into it.
    TypedContainers,
    /// The packed arrays (Pool arrays in 3.x).
    Packed,
    /// Object, RID, Callable, Signal, and everything decoded or encoded with objects allowed.
    Objects,
    /// Input the engine refuses: truncated, unknown type ids, malformed payloads.
    Errors,
    /// Nesting depth, hostile counts and large values.
    Limits,
}

impl Category {
    /// Every category, in the matrix's column order.
    pub(crate) const ALL: [Category; 9] = [
        Category::Scalars,
        Category::Strings,
        Category::Math,
        Category::Containers,
        Category::TypedContainers,
        Category::Packed,
        Category::Objects,
        Category::Errors,
        Category::Limits,
    ];

    /// Its place in [`Category::ALL`] (and in a row's cells).
    pub fn index(self) -> usize {
        self as usize
    }

    /// Its column heading.
    pub(crate) fn title(self) -> &'static str {
        match self {
            Category::Scalars => "scalars",
            Category::Strings => "strings",
            Category::Math => "math types",
            Category::Containers => "containers",
            Category::TypedContainers => "typed containers",
            Category::Packed => "packed arrays",
            Category::Objects => "objects",
            Category::Errors => "errors and truncation",
            Category::Limits => "limits",
        }
    }

    /// Its key in the JSON form of the matrix.
    pub fn key(self) -> &'static str {
        match self {
            Category::Scalars => "scalars",
            Category::Strings => "strings",
            Category::Math => "math",
            Category::Containers => "containers",
            Category::TypedContainers => "typed",
            Category::Packed => "packed",
            Category::Objects => "objects",
            Category::Errors => "errors",
            Category::Limits => "limits",
        }
    }

    /// The category of a case of `family` (its type family, [`crate::conform::family`]): its
    /// group (the name's second segment) decides first, then whether the engine refused the
    /// input, then the family's type.
    pub fn of(record: &Record, family: &str) -> Category {
        let mut segments = record.name.split('/').skip(1);
        let group = segments.next().unwrap_or("");
        match group {
            "stress" | "depth" | "hostile_count" => return Category::Limits,
            "truncated" | "unknown_type" => return Category::Errors,
            "objects" => return Category::Objects,
            _ => {}
        }
        if record.direction == Direction::Decode && record.verdict == Verdict::Rejected {
            return Category::Errors;
        }
        if std::iter::once(group)
            .chain(segments)
            .any(|s| s.starts_with("typed"))
        {
            return Category::TypedContainers;
        }
        VariantType::from_name(family).map_or(Category::Scalars, Category::of_type)
    }

    /// The category of a type's values.
    pub(crate) fn of_type(t: VariantType) -> Category {
        match t.shape() {
            Shape::Empty | Shape::Bool | Shape::Int | Shape::Float => Category::Scalars,
            Shape::String | Shape::NodePath => Category::Strings,
            Shape::Reals(_) | Shape::Ints(_) | Shape::Color => Category::Math,
            Shape::Dictionary | Shape::Array => Category::Containers,
            Shape::Packed(_) | Shape::PackedStrings => Category::Packed,
            Shape::Rid | Shape::Object | Shape::Callable | Shape::Signal => Category::Objects,
        }
    }
}

impl serde::Serialize for Category {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(name: &str, direction: &str, verdict: &str) -> Record {
        serde_json::from_value(serde_json::json!({
            "name": name, "direction": direction, "objects": false, "verdict": verdict,
        }))
        .expect("a record")
    }

    #[test]
    fn the_group_decides_before_the_type() {
        let accepted = |n| record(n, "decode", "accepted");
        let cases = [
            ("decode/stress/Array/100000_nils", "Array", Category::Limits),
            ("decode/depth/arrays_1025", "Array", Category::Limits),
            ("decode/truncated/int/1/at_3", "int", Category::Errors),
            ("decode/objects/full/Resource", "Object", Category::Objects),
            (
                "decode/valid/Array/typed_int",
                "Array",
                Category::TypedContainers,
            ),
            (
                "decode/typed_conversions/int_from_float",
                "int",
                Category::TypedContainers,
            ),
            ("decode/valid/Array/mixed", "Array", Category::Containers),
            ("decode/valid/Vector2i/all_zero", "Vector2i", Category::Math),
            ("decode/valid/Color/rgba", "Color", Category::Math),
            ("decode/valid/NodePath/empty", "NodePath", Category::Strings),
            (
                "decode/valid/PackedStringArray/empty",
                "PackedStringArray",
                Category::Packed,
            ),
            ("decode/valid/RID/zero", "RID", Category::Objects),
            ("decode/valid/Nil", "Nil", Category::Scalars),
        ];
        for (name, family, want) in cases {
            assert_eq!(Category::of(&accepted(name), family), want, "{name}");
        }
        let refused = record("decode/string_bytes/x", "decode", "rejected");
        assert_eq!(Category::of(&refused, "String"), Category::Errors);
        // An encode the engine refuses is about the value, not about broken input.
        let deep = record("encode/Array/depth_1023", "encode", "rejected");
        assert_eq!(Category::of(&deep, "Array"), Category::Containers);
    }

    #[test]
    fn each_category_is_at_its_index() {
        for (i, c) in Category::ALL.iter().enumerate() {
            assert_eq!(c.index(), i, "{c:?}");
        }
    }

    #[test]
    fn every_category_has_its_own_key_and_title() {
        let keys: std::collections::BTreeSet<_> = Category::ALL.iter().map(|c| c.key()).collect();
        let titles: std::collections::BTreeSet<_> =
            Category::ALL.iter().map(|c| c.title()).collect();
        assert_eq!((keys.len(), titles.len()), (9, 9));
    }
}
