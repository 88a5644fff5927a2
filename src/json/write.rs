//! Writing: [`Tagged`], a [`Serialize`] view of a [`Variant`] in the tagged-JSON schema.
//!
//! Every node is a map whose first member is `type`; members follow in the order
//! docs/tagged-json.md lists them. Numbers that JSON cannot hold exactly (64-bit integers, floats)
//! are written with `collect_str` / `serialize_str`, so a streaming serializer writes them without
//! building a tree, and the hex of a `PackedByteArray` goes out in pieces (see [`Hex`]).

use std::fmt::Display;

use serde::ser::{Serialize, SerializeMap, SerializeSeq, SerializeTuple, Serializer};

use crate::float::{self, Float, FloatStyle};
use crate::hex::Hex;
use crate::stack;
use crate::types::Shape;
use crate::value::{Components, ContainerType, Object, Reals, Text, Variant};

/// A value as tagged JSON (docs/tagged-json.md), for any serde serializer.
///
/// `serde_json::to_writer(out, &Tagged::new(&v, FloatStyle::Shortest))` writes the JSON text
/// straight from the value; [`super::to_json`] builds a `serde_json::Value` from the same
/// description. Each float is written at the width the value holds.
#[derive(Clone, Copy, Debug)]
pub struct Tagged<'a> {
    value: &'a Variant,
    style: FloatStyle,
}

impl<'a> Tagged<'a> {
    /// The tagged-JSON view of `value`, with floats written in `style`.
    pub fn new(value: &'a Variant, style: FloatStyle) -> Tagged<'a> {
        Tagged { value, style }
    }
}

impl Serialize for Tagged<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Values nest up to the engines' 1024 levels (more when built by hand): grow the stack
        // rather than overflow it.
        stack::with_room(|| self.node(s))
    }
}

impl Tagged<'_> {
    fn node<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let style = self.style;
        let v = self.value;
        let ty = v.get_type();
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("type", ty.name())?;
        match v {
            Variant::Nil | Variant::Callable => {}
            Variant::Bool(b) => m.serialize_entry("value", b)?,
            Variant::Int(i) => m.serialize_entry("value", &Decimal(i))?,
            Variant::Float(x) => m.serialize_entry("value", &Token(*x, style))?,
            Variant::String(s) | Variant::StringName(s) => {
                m.serialize_entry("value", &JsonText(s))?
            }
            Variant::Color(c) => m.serialize_entry("value", &Tokens(c, style))?,
            Variant::NodePath(np) => {
                m.serialize_entry("names", &Texts(&np.names))?;
                m.serialize_entry("subnames", &Texts(&np.subnames))?;
                m.serialize_entry("absolute", &np.absolute)?;
            }
            Variant::Rid(id) => m.serialize_entry("value", &Decimal(id))?,
            Variant::Object(o) => match &**o {
                Object::Null => m.serialize_entry("value", &())?,
                Object::Id(id) => m.serialize_entry("id", &Decimal(id))?,
                Object::Full { class, properties } => {
                    m.serialize_entry("class", class)?;
                    m.serialize_entry("properties", &Properties(properties, style))?;
                }
            },
            Variant::Signal(sig) => {
                m.serialize_entry("name", &sig.name)?;
                m.serialize_entry("object", &Decimal(sig.object_id))?;
            }
            Variant::Dictionary(d) => {
                if let Some(t) = Kind::of(d.key_type()) {
                    m.serialize_entry("key_type", &t)?;
                }
                if let Some(t) = Kind::of(d.value_type()) {
                    m.serialize_entry("value_type", &t)?;
                }
                m.serialize_entry("value", &Entries(d.entries(), style))?;
            }
            Variant::Array(a) => {
                if let Some(t) = Kind::of(a.element_type()) {
                    m.serialize_entry("element_type", &t)?;
                }
                m.serialize_entry("value", &Items(a.items(), style))?;
            }
            Variant::PackedByteArray(b) => m.serialize_entry("value", &HexString(b))?,
            Variant::PackedInt32Array(a) => m.serialize_entry("value", a)?,
            Variant::PackedInt64Array(a) => m.serialize_entry("value", &Decimals(a))?,
            Variant::PackedFloat32Array(a) => m.serialize_entry("value", &Tokens(a, style))?,
            Variant::PackedFloat64Array(a) => m.serialize_entry("value", &Tokens(a, style))?,
            Variant::PackedStringArray(a) => m.serialize_entry("value", &Texts(a))?,
            Variant::PackedColorArray(a) => {
                m.serialize_entry("value", &Rows(a.as_flattened(), 4, style))?
            }
            _ => match (ty.shape(), v.reals(), v.ints()) {
                (Shape::Packed(_), Some(r), _) => {
                    let per = ty.info().fields.len();
                    m.serialize_entry("value", &RealRows(r, per, style))?
                }
                (_, Some(r), _) => m.serialize_entry("value", &RealTokens(r, style))?,
                (_, _, Some(i)) => m.serialize_entry("value", i)?,
                // Every type is one of the cases above (`Variant` has a case per type).
                _ => {}
            },
        }
        m.end()
    }
}

/// A 64-bit integer as a decimal string.
struct Decimal<T>(T);

impl<T: Display> Serialize for Decimal<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

/// 64-bit integers as decimal strings.
struct Decimals<'a>(&'a [i64]);

impl Serialize for Decimals<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(Decimal))
    }
}

/// One float token.
struct Token<F>(F, FloatStyle);

impl<F: Float> Serialize for Token<F> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&float::format(self.0, self.1))
    }
}

/// Float tokens.
struct Tokens<'a, F>(&'a [F], FloatStyle);

impl<F: Float> Serialize for Tokens<'_, F> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|x| Token(*x, self.1)))
    }
}

/// Float tokens in rows of `.1`.
struct Rows<'a, F>(&'a [F], usize, FloatStyle);

impl<F: Float> Serialize for Rows<'_, F> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let rows = self.0.chunks(self.1.max(1));
        let mut seq = s.serialize_seq(Some(rows.len()))?;
        for row in rows {
            seq.serialize_element(&Tokens(row, self.2))?;
        }
        seq.end()
    }
}

/// real_t components at their width.
struct RealTokens<'a>(&'a Reals, FloatStyle);

impl Serialize for RealTokens<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0.components() {
            Components::F32(v) => Tokens(v, self.1).serialize(s),
            Components::F64(v) => Tokens(v, self.1).serialize(s),
        }
    }
}

/// real_t components of a packed vector array, a row per vector.
struct RealRows<'a>(&'a Reals, usize, FloatStyle);

impl Serialize for RealRows<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0.components() {
            Components::F32(v) => Rows(v, self.1, self.2).serialize(s),
            Components::F64(v) => Rows(v, self.1, self.2).serialize(s),
        }
    }
}

/// A string: a JSON string when it is Unicode text, else `{"code_units": [...]}`.
struct JsonText<'a>(&'a Text);

impl Serialize for JsonText<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match (self.0.as_str(), self.0.non_unicode_units()) {
            (Some(text), _) => s.serialize_str(text),
            (None, units) => {
                let mut m = s.serialize_map(Some(1))?;
                m.serialize_entry(super::CODE_UNITS, units.unwrap_or_default())?;
                m.end()
            }
        }
    }
}

/// Strings of a `PackedStringArray` or a `NodePath`.
struct Texts<'a>(&'a [Text]);

impl Serialize for Texts<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(JsonText))
    }
}

/// Bytes as one lowercase hex string, written in pieces by streaming serializers.
struct HexString<'a>(&'a [u8]);

impl Serialize for HexString<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&Hex(self.0))
    }
}

/// The elements of an `Array`.
struct Items<'a>(&'a [Variant], FloatStyle);

impl Serialize for Items<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|v| Tagged::new(v, self.1)))
    }
}

/// The entries of a `Dictionary`, as `[key, value]` pairs.
struct Entries<'a>(&'a [(Variant, Variant)], FloatStyle);

impl Serialize for Entries<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let style = self.1;
        s.collect_seq(
            self.0
                .iter()
                .map(|(k, v)| Pair(Tagged::new(k, style), Tagged::new(v, style))),
        )
    }
}

/// The properties of a full `Object`, as `[name, value]` pairs.
struct Properties<'a>(&'a [(String, Variant)], FloatStyle);

impl Serialize for Properties<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let style = self.1;
        s.collect_seq(
            self.0
                .iter()
                .map(|(k, v)| Pair(k.as_str(), Tagged::new(v, style))),
        )
    }
}

/// A two-element JSON array.
struct Pair<A, B>(A, B);

impl<A: Serialize, B: Serialize> Serialize for Pair<A, B> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(2)?;
        t.serialize_element(&self.0)?;
        t.serialize_element(&self.1)?;
        t.end()
    }
}

/// A container's element, key or value type: `{"builtin": ...}`, `{"class": ...}` or
/// `{"script": ...}`.
struct Kind<'a>(&'static str, &'a str);

impl<'a> Kind<'a> {
    fn of(t: &'a ContainerType) -> Option<Kind<'a>> {
        t.kind_and_name().map(|(kind, name)| Kind(kind, name))
    }
}

impl Serialize for Kind<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(self.0, self.1)?;
        m.end()
    }
}

#[cfg(test)]
mod tests {
    //! The writer against docs/tagged-json.md, the format's own spec: each example of its node
    //! table, and the forms its text describes, are written back exactly as given (members in the
    //! table's order), as a tree and as text.
    use crate::float::FloatStyle;
    use crate::json::{from_json, parse_deep, to_json, write_json};
    use crate::{Profile, Variant};
    use serde_json::Value;

    fn godot(version: &str) -> Profile {
        version.parse().unwrap()
    }

    /// Reads `text` and checks that both writers give it back.
    fn writes_back(text: &str, profile: Profile) {
        let tree: Value = parse_deep(text).unwrap();
        let v: Variant = from_json(&tree, profile).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(to_json(&v, profile, FloatStyle::Shortest), tree, "{text}");
        let mut out = Vec::new();
        write_json(&mut out, &v, FloatStyle::Shortest, false).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), text);
    }

    #[test]
    fn every_example_of_the_node_table_is_written_back() {
        let spec = include_str!("../../docs/tagged-json.md");
        let table = spec
            .split("## Nodes")
            .nth(1)
            .unwrap()
            .split("###")
            .next()
            .unwrap();
        let mut n = 0;
        for row in table.lines().filter(|l| l.starts_with("| `")) {
            let example = row.rsplit(" | ").next().unwrap();
            let json = example.split('`').nth(1).unwrap();
            writes_back(json, godot("4.6"));
            n += 1;
        }
        assert_eq!(n, 22, "rows of the node table");
    }

    #[test]
    fn the_forms_the_spec_describes_are_written_back() {
        for text in [
            r#"{"type":"StringName","value":"a"}"#,
            r#"{"type":"Object","value":null}"#,
            r#"{"type":"Object","id":"18446744073709551615"}"#,
            r#"{"type":"Rect2i","value":[1,2,3,4]}"#,
            r#"{"type":"PackedFloat64Array","value":["0.1","-0","inf","nan"]}"#,
            r#"{"type":"PackedFloat32Array","value":["0x7fc00001"]}"#,
            r#"{"type":"PackedVector3Array","value":[["1","2","3"],["4","5","6"]]}"#,
            r#"{"type":"PackedColorArray","value":[["1","0","0","1"],["0","1","0","0.5"]]}"#,
            r#"{"type":"PackedStringArray","value":["a",""]}"#,
            r#"{"type":"NodePath","names":["a"],"subnames":["x","y"],"absolute":false}"#,
            r#"{"type":"Array","element_type":{"class":"Node"},"value":[]}"#,
            r#"{"type":"Array","element_type":{"script":"res://enemy.gd"},"value":[]}"#,
            r#"{"type":"Dictionary","key_type":{"builtin":"int"},"value_type":{"class":"Node"},"value":[[{"type":"int","value":"1"},{"type":"Nil"}]]}"#,
            r#"{"type":"Dictionary","key_type":{"builtin":"int"},"value":[]}"#,
            r#"{"type":"Dictionary","value_type":{"builtin":"int"},"value":[]}"#,
            r#"{"type":"Object","class":"Resource","properties":[["a",{"type":"float","value":"0.5"}],["b",{"type":"Nil"}]]}"#,
        ] {
            writes_back(text, godot("4.6"));
        }
        // A 3.x string whose units are not all scalar values, as a string value, a name and an
        // element; reals of a double build at f64.
        writes_back(
            r#"{"type":"String","value":{"code_units":[55296,97]}}"#,
            godot("3.2"),
        );
        writes_back(
            r#"{"type":"NodePath","names":[{"code_units":[56320]}],"subnames":[],"absolute":true}"#,
            godot("3.2"),
        );
        writes_back(
            r#"{"type":"PackedStringArray","value":["a",{"code_units":[2147483647]}]}"#,
            godot("3.2"),
        );
        writes_back(
            r#"{"type":"Vector2","value":["0.1","1"]}"#,
            godot("4.6-double"),
        );
        writes_back(
            r#"{"type":"PackedVector2Array","value":[["0.1","1"]]}"#,
            godot("4.6-double"),
        );
    }
}
