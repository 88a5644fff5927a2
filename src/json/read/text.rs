//! Strings in tagged JSON: a JSON string, or `{"code_units": [...]}` for a 3.x string whose units
//! are not all Unicode scalar values. The units form of Unicode text reads as that text, so one
//! value has one reading whichever form it comes in.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::{Cx, Seg, finish};
use crate::json::CODE_UNITS;
use crate::string::MAX_UNIT;
use crate::value::Text;

const WHAT: &str = r#"a string or {"code_units": [...]}"#;

/// One string, in either form.
pub(in crate::json) struct TextSeed<'c> {
    pub(in crate::json) cx: &'c mut Cx,
}

impl<'de> DeserializeSeed<'de> for TextSeed<'_> {
    type Value = Text;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Text, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TextSeed<'_> {
    type Value = Text;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(WHAT)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Text, E> {
        Ok(Text::from(v))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Text, E> {
        Err(self.cx.wrong(WHAT, "null"))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Text, E> {
        Err(self.cx.wrong(WHAT, "a boolean"))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Text, E> {
        Err(self.cx.wrong(WHAT, "a number"))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Text, E> {
        Err(self.cx.wrong(WHAT, "a number"))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Text, E> {
        Err(self.cx.wrong(WHAT, "a number"))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Text, A::Error> {
        Err(self.cx.wrong(WHAT, "an array"))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Text, A::Error> {
        let cx = self.cx;
        let mut units = None;
        while let Some(k) = map.next_key::<String>()? {
            if k != CODE_UNITS {
                return Err(cx.fail_at(
                    Seg::Name(k.into()),
                    format!("unknown member of a string: expected only {CODE_UNITS}"),
                ));
            }
            if units.is_some() {
                return Err(cx.fail(format!("{CODE_UNITS} given twice")));
            }
            cx.path.push(Seg::Member(CODE_UNITS));
            units = Some(map.next_value_seed(Units { cx: &mut *cx })?);
            cx.path.pop();
        }
        match units {
            Some(u) => Ok(Text::from_units(u)),
            None => Err(cx.wrong(WHAT, &format!("an object without {CODE_UNITS}"))),
        }
    }
}

/// The units: integers 0 to 0x7FFFFFFF, read one at a time (no size hint is trusted, so memory
/// grows with the text actually read).
struct Units<'c> {
    cx: &'c mut Cx,
}

impl<'de> DeserializeSeed<'de> for Units<'_> {
    type Value = Vec<u32>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<u32>, D::Error> {
        d.deserialize_any(self)
    }
}

const UNITS: &str = "an array of code units (integers 0 to 2147483647)";

impl<'de> Visitor<'de> for Units<'_> {
    type Value = Vec<u32>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(UNITS)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u32>, A::Error> {
        let cx = self.cx;
        let mut units = Vec::new();
        loop {
            cx.path.push(Seg::Index(units.len()));
            let Some(u) = seq.next_element_seed(Unit { cx: &mut *cx })? else {
                cx.path.pop();
                break;
            };
            cx.path.pop();
            units.push(u);
        }
        Ok(finish(units))
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Vec<u32>, A::Error> {
        Err(self.cx.wrong(UNITS, "an object"))
    }
    refuse_scalars!(UNITS);
}

/// One code unit: an integer 0 to [`MAX_UNIT`]. A container is refused before it is read.
struct Unit<'c> {
    cx: &'c mut Cx,
}

const UNIT: &str = "a code unit (an integer 0 to 2147483647)";

impl<'de> DeserializeSeed<'de> for Unit<'_> {
    type Value = u32;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u32, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Unit<'_> {
    type Value = u32;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(UNIT)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<u32, E> {
        match u32::try_from(v) {
            Ok(u) if u <= MAX_UNIT => Ok(u),
            _ => Err(self.cx.fail(format!(
                "code unit {v} is past {MAX_UNIT}: no engine string holds it"
            ))),
        }
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<u32, E> {
        match u64::try_from(v) {
            Ok(u) => self.visit_u64(u),
            Err(_) => Err(self.cx.wrong(UNIT, "a negative number")),
        }
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<u32, E> {
        Err(self.cx.wrong(UNIT, "a fraction"))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<u32, E> {
        Err(self.cx.wrong(UNIT, "a string"))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<u32, E> {
        Err(self.cx.wrong(UNIT, "a boolean"))
    }
    fn visit_unit<E: de::Error>(self) -> Result<u32, E> {
        Err(self.cx.wrong(UNIT, "null"))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<u32, A::Error> {
        Err(self.cx.wrong(UNIT, "an array"))
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<u32, A::Error> {
        Err(self.cx.wrong(UNIT, "an object"))
    }
}

/// An array of strings in either form: `PackedStringArray` values, `NodePath` names.
pub(in crate::json) struct TextList<'c> {
    pub(in crate::json) cx: &'c mut Cx,
}

impl<'de> DeserializeSeed<'de> for TextList<'_> {
    type Value = Vec<Text>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<Text>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TextList<'_> {
    type Value = Vec<Text>;
    arrays_only!();
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Text>, A::Error> {
        let cx = self.cx;
        let mut items = Vec::new();
        loop {
            cx.path.push(Seg::Index(items.len()));
            let Some(x) = seq.next_element_seed(TextSeed { cx: &mut *cx })? else {
                break;
            };
            cx.path.pop();
            items.push(x);
        }
        cx.path.pop();
        Ok(finish(items))
    }
}

#[cfg(test)]
mod tests {
    //! Strings in tagged JSON as docs/tagged-json.md ("Strings") defines them: a JSON string or
    //! `{"code_units": [...]}` with units 0 to 2147483647; anything else is refused with its JSON
    //! path. Each case is read both ways, as text and as a tree.
    use crate::json::read::tests::read_both;
    use crate::json::{JsonError, ReadError, read_json};
    use crate::value::Text;
    use crate::{Profile, Variant};

    fn godot(version: &str) -> Profile {
        version.parse().unwrap()
    }

    fn read(text: &str) -> Result<Variant, JsonError> {
        read_both(text, godot("3.2"))
    }

    fn refused(text: &str) -> (String, String) {
        let e = read(text).expect_err(text);
        (e.path, e.message)
    }

    const STRING: &str = r#"expected a string or {"code_units": [...]}"#;
    const UNIT: &str = "expected a code unit (an integer 0 to 2147483647)";

    #[test]
    fn either_form_reads_as_the_same_string() {
        let hi = Variant::String(Text::from("hi"));
        assert_eq!(read(r#"{"type":"String","value":"hi"}"#), Ok(hi.clone()));
        assert_eq!(
            read(r#"{"type":"String","value":{"code_units":[104,105]}}"#),
            Ok(hi)
        );
        // A lone surrogate and the largest unit an engine string holds.
        assert_eq!(
            read(r#"{"type":"String","value":{"code_units":[55296,2147483647]}}"#),
            Ok(Variant::String(Text::from_units(vec![55296, 0x7FFF_FFFF])))
        );
        assert_eq!(
            read(r#"{"type":"PackedStringArray","value":["a",{"code_units":[55296]}]}"#),
            Ok(Variant::PackedStringArray(vec![
                Text::from("a"),
                Text::from_units(vec![55296])
            ]))
        );
    }

    #[test]
    fn anything_else_is_refused_with_its_path() {
        let units = "$.value.code_units";
        for (text, path, message) in [
            (r#"null"#, "$.value", format!("{STRING}, found null")),
            (r#"true"#, "$.value", format!("{STRING}, found a boolean")),
            (r#"-1"#, "$.value", format!("{STRING}, found a number")),
            (r#"1"#, "$.value", format!("{STRING}, found a number")),
            (r#"1.5"#, "$.value", format!("{STRING}, found a number")),
            (r#"[]"#, "$.value", format!("{STRING}, found an array")),
            (
                r#"{}"#,
                "$.value",
                format!("{STRING}, found an object without code_units"),
            ),
            (
                r#"{"code_units":[97],"units":[98]}"#,
                "$.value.units",
                "unknown member of a string: expected only code_units".into(),
            ),
            (
                r#"{"code_units":{}}"#,
                units,
                "expected an array of code units (integers 0 to 2147483647), found an object"
                    .into(),
            ),
            (
                r#"{"code_units":[97,2147483648]}"#,
                "$.value.code_units[1]",
                "code unit 2147483648 is past 2147483647: no engine string holds it".into(),
            ),
            (
                r#"{"code_units":[4294967296]}"#,
                "$.value.code_units[0]",
                "code unit 4294967296 is past 2147483647: no engine string holds it".into(),
            ),
            (
                r#"{"code_units":[-1]}"#,
                "$.value.code_units[0]",
                format!("{UNIT}, found a negative number"),
            ),
            (
                r#"{"code_units":[0.5]}"#,
                "$.value.code_units[0]",
                format!("{UNIT}, found a fraction"),
            ),
            (
                r#"{"code_units":["a"]}"#,
                "$.value.code_units[0]",
                format!("{UNIT}, found a string"),
            ),
            (
                r#"{"code_units":[false]}"#,
                "$.value.code_units[0]",
                format!("{UNIT}, found a boolean"),
            ),
            (
                r#"{"code_units":[null]}"#,
                "$.value.code_units[0]",
                format!("{UNIT}, found null"),
            ),
            (
                r#"{"code_units":[[]]}"#,
                "$.value.code_units[0]",
                format!("{UNIT}, found an array"),
            ),
            (
                r#"{"code_units":[{}]}"#,
                "$.value.code_units[0]",
                format!("{UNIT}, found an object"),
            ),
        ] {
            let node = format!(r#"{{"type":"String","value":{text}}}"#);
            assert_eq!(refused(&node), (path.to_string(), message), "{node}");
        }
        // Elements of a PackedStringArray and NodePath names, each at its index.
        assert_eq!(
            refused(r#"{"type":"PackedStringArray","value":["a",7]}"#),
            ("$.value[1]".into(), format!("{STRING}, found a number"))
        );
        assert_eq!(
            refused(r#"{"type":"NodePath","names":["a"],"subnames":[null],"absolute":false}"#),
            ("$.subnames[0]".into(), format!("{STRING}, found null"))
        );
    }

    #[test]
    fn code_units_given_twice_are_refused() {
        // A tree keeps one of two equal members, so only text can hold both.
        let text = r#"{"type":"String","value":{"code_units":[97],"code_units":[98]}}"#;
        match read_json(text.as_bytes(), godot("3.2")) {
            Err(ReadError::Schema { error, .. }) => assert_eq!(
                (error.path.as_str(), error.message.as_str()),
                ("$.value", "code_units given twice")
            ),
            other => panic!("{other:?}"),
        }
    }
}
