//! The report's sections for implementers: the framing `store_var` and `put_var` add, the
//! component order of the matrix types, the Vector4 family, what decoders tolerate, and how
//! 3.6 and 4.6 answer the same cases. Each statement comes with the engines' own vectors.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

use super::appendix::Appendix;
use super::{Inputs, answer_cell, case_cell};
use crate::campaign::log::short_version as short;
use crate::model::{Record, Verdict};
use gdmarshal::hex::unhex;
use gdmarshal::types::{TYPES, VariantType};

fn f32s(hex: &str) -> Vec<f32> {
    let b = unhex(hex).unwrap_or_default();
    b.get(4..)
        .unwrap_or_default()
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn list(xs: &[f32]) -> String {
    xs.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// §7: the component order of Basis, Transform3D, Transform2D and Projection, from the engines'
/// own objects (the `axes` record of the framing corpus).
pub(super) fn component_order(md: &mut String, inp: &Inputs) {
    md.push_str("\n## 7. Component order of Basis, Transform3D, Transform2D and Projection\n\n");
    md.push_str("Each engine built `Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9))` (the arguments are the x, y\n");
    md.push_str("and z axes, the columns) and reported `b.x`, `b.y`, `b.z` and `b[0]`; its own `var_to_bytes` of that\n");
    md.push_str("Basis, of `Transform3D(b, Vector3(10, 11, 12))`, of `Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6))`\n");
    md.push_str("and (4.x) of `Projection(Vector4(1, 2, 3, 4), …, Vector4(13, 14, 15, 16))` are below, with the floats\n");
    md.push_str("they hold in wire order.\n\n");
    md.push_str("| engine | b.x, b.y, b.z, b[0] | Basis bytes | floats | Transform3D floats | Transform2D floats | Projection floats |\n|---|---|---|---|---|---|---|\n");
    let mut rows_order = Vec::new();
    for (version, records) in &inp.framing {
        let Some(a) = records
            .iter()
            .find(|r| r.name == "axes")
            .and_then(|r| r.answer.as_ref())
        else {
            continue;
        };
        let s = |k: &str| a.get(k).and_then(Value::as_str).unwrap_or("");
        let axes = ["x", "y", "z", "index0"]
            .iter()
            .map(|k| {
                format!(
                    "({})",
                    a.get(*k)
                        .map(|v| v.to_string())
                        .unwrap_or_default()
                        .trim_matches(['[', ']'])
                )
            })
            .collect::<Vec<_>>()
            .join(", ");
        let basis = f32s(s("basis"));
        if basis == [1.0, 4.0, 7.0, 2.0, 5.0, 8.0, 3.0, 6.0, 9.0] {
            rows_order.push(short(version));
        }
        let projection = if s("projection").is_empty() {
            "—".to_string()
        } else {
            list(&f32s(s("projection")))
        };
        writeln!(
            md,
            "| {} | {axes} | `{}` | {} | {} | {} | {projection} |",
            short(version),
            s("basis"),
            list(&basis),
            list(&f32s(s("transform"))),
            list(&f32s(s("transform2d"))),
        )
        .ok();
    }
    write!(
        md,
        "\nOn {}: a Basis is written **row by row**: `x.x, y.x, z.x, x.y, y.y, z.y, x.z, y.z, z.z` in the\n\
         axis terms of GDScript (`b.x` is the x axis, a column), so that offset 8 holds the x component of the\n\
         y axis, `b[1][0]`. The 4.x page names the transpose there (the y component of the x column,\n\
         index [0][1]). A Transform3D is its basis so, then the origin. A Transform2D is written column\n\
         by column (x axis, y axis, origin), as the page says, and a Projection column by column (x, y, z, w\n\
         columns, each x, y, z, w).\n",
        rows_order.join(", ")
    )
    .ok();
}

/// The 4.x page's type table as it stands (binary_serialization_api.4x.en.rst.txt): its id and
/// its name for the type, and the type that name means.
const PAGE_4X_TABLE: &[(u32, &str, Option<VariantType>)] = &[
    (0, "null", Some(VariantType::Nil)),
    (1, "bool", Some(VariantType::Bool)),
    (2, "integer", Some(VariantType::Int)),
    (3, "float", Some(VariantType::Float)),
    (4, "string", Some(VariantType::String)),
    (5, "vector2", Some(VariantType::Vector2)),
    (6, "rect2", Some(VariantType::Rect2)),
    (7, "vector3", Some(VariantType::Vector3)),
    (8, "transform2d", Some(VariantType::Transform2D)),
    (9, "plane", Some(VariantType::Plane)),
    (10, "quaternion", Some(VariantType::Quaternion)),
    (11, "aabb", Some(VariantType::Aabb)),
    (12, "basis", Some(VariantType::Basis)),
    (13, "transform3d", Some(VariantType::Transform3D)),
    (14, "color", Some(VariantType::Color)),
    (15, "node path", Some(VariantType::NodePath)),
    (16, "rid", Some(VariantType::Rid)),
    (17, "object", Some(VariantType::Object)),
    (18, "dictionary", Some(VariantType::Dictionary)),
    (19, "array", Some(VariantType::Array)),
    (20, "raw array", Some(VariantType::PackedByteArray)),
    (21, "int32 array", Some(VariantType::PackedInt32Array)),
    (22, "int64 array", Some(VariantType::PackedInt64Array)),
    (23, "float32 array", Some(VariantType::PackedFloat32Array)),
    (24, "float64 array", Some(VariantType::PackedFloat64Array)),
    (25, "string array", Some(VariantType::PackedStringArray)),
    (26, "vector2 array", Some(VariantType::PackedVector2Array)),
    (27, "vector3 array", Some(VariantType::PackedVector3Array)),
    (28, "color array", Some(VariantType::PackedColorArray)),
    (29, "max", None),
];

/// §8: Vector4, Vector4i, Projection and PackedVector4Array: ids, first version, layout and each
/// engine's vector; and the 4.x page's table against the ids 4.6.3 uses.
pub(super) fn vector4_family(md: &mut String, inp: &Inputs, app: &mut Appendix) {
    md.push_str("\n## 8. The Vector4 family and the 4.x page's type table\n\n");
    md.push_str("Types Godot 3 does not have and the 4.x page does not list. Ids and first 4.x minor from the profile\n");
    md.push_str("tables (`src/types.rs`, from each version's `core/variant/variant.h` and `core/io/marshalls.cpp`); the\n");
    md.push_str(
        "vector is the corpus case the newest engine encoded (§1 checks it against the codec).\n\n",
    );
    md.push_str(
        "| type | id | since | 3.x | payload | case | bytes |\n|---|---|---|---|---|---|---|\n",
    );
    let newest = inp.corpora.iter().rev().find(|c| c.profile.major() == 4);
    for ty in [
        VariantType::Vector4,
        VariantType::Vector4i,
        VariantType::Projection,
        VariantType::PackedVector4Array,
    ] {
        let Some(t) = TYPES.iter().find(|t| t.ty == ty) else {
            continue;
        };
        let payload = match ty {
            VariantType::Vector4 => {
                "4 reals: x, y, z, w (f32; f64 with header bit 16 or a double build)"
            }
            VariantType::Vector4i => "4 × i32: x, y, z, w",
            VariantType::Projection => "16 reals, column by column (x, y, z, w columns; §7)",
            _ => "count (u32), then per element 4 reals x, y, z, w (f64 with header bit 16)",
        };
        let case = newest.and_then(|c| super::row_case(c, t.name));
        let (name, bytes) = case.map_or((String::new(), String::new()), |r| {
            (
                format!("`{}`", r.name),
                app.code(
                    &format!("{} bytes", r.name),
                    r.output.as_deref().unwrap_or(""),
                ),
            )
        });
        writeln!(
            md,
            "| {} | {} | 4.{} | none | {payload} | {name} | {bytes} |",
            t.name,
            t.id4.map(|i| i.to_string()).unwrap_or_default(),
            t.since4
        )
        .ok();
    }
    md.push_str("\nThe 4.x page's table uses neither the 3.x nor the 4.x ids: it is the 3.x list with two 64-bit arrays\n");
    md.push_str(
        "inserted. What each of its ids names, and the id a 4.6.3 engine writes for that type:\n\n",
    );
    md.push_str("| page id | page's name | type | 4.6.3 id | same |\n|---|---|---|---|---|\n");
    let p46 = newest.map(|c| c.profile);
    for (id, name, ty) in PAGE_4X_TABLE {
        let t = ty.and_then(|ty| TYPES.iter().find(|t| t.ty == ty));
        let real = ty.and_then(|ty| p46.and_then(|p| p.id_of(ty)));
        writeln!(
            md,
            "| {id} | {name} | {} | {} | {} |",
            t.map_or("(end of table)", |t| t.name),
            real.map_or("—".into(), |i| i.to_string()),
            if real == Some(*id) { "yes" } else { "**no**" }
        )
        .ok();
    }
    md.push_str("\nMissing from the page: Vector2i (6), Rect2i (8), Vector3i (10), Vector4 (12), Vector4i (13), Projection (19),\n");
    md.push_str("StringName (21), Callable (25), Signal (26), PackedVector4Array (38); 4.6.3's end of table is 39.\n");
}

/// One rule of what a decoder that matches Godot must do, with the corpus case that shows it.
pub(crate) struct Rule {
    /// The rule.
    pub(crate) says: &'static str,
    /// The corpus case (decode).
    pub(crate) case: &'static str,
    /// Whether an engine's record follows the rule.
    pub(crate) holds: fn(&Record) -> bool,
}

fn accepted_as(r: &Record, ty: &str) -> bool {
    r.verdict == Verdict::Accepted
        && r.tree
            .as_ref()
            .and_then(|t| t.get("type"))
            .and_then(Value::as_str)
            == Some(ty)
}

fn value_is(r: &Record, v: Value) -> bool {
    r.verdict == Verdict::Accepted && r.tree.as_ref().and_then(|t| t.get("value")) == Some(&v)
}

fn consumed_less_than_input(r: &Record) -> bool {
    let len = r.input.as_ref().map_or(0, |h| h.len() / 2);
    r.verdict == Verdict::Accepted && r.consumed.is_some_and(|c| c < len)
}

pub(crate) const RULES: &[Rule] = &[
    Rule {
        says: "read the type from the header's low byte only; bits 8-15 are ignored (0x0102 is int)",
        case: "decode/noncanonical/header_type_in_byte_1",
        holds: |r| accepted_as(r, "int"),
    },
    Rule {
        says: "ignore header flag bits a type does not use (bit 24 on an int)",
        case: "decode/flag_bit_24/int/1",
        holds: |r| value_is(r, Value::String("1".into())),
    },
    Rule {
        says: "ignore header bit 31 (on a String)",
        case: "decode/flag_bit_31/String/len1",
        holds: |r| value_is(r, Value::String("a".into())),
    },
    Rule {
        says: "stop after the value: trailing bytes are ignored, not an error",
        case: "decode/trailing/garbage",
        holds: consumed_less_than_input,
    },
    Rule {
        says: "accept a PackedByteArray whose padding is missing at the end of the input (the bytes read include the missing padding)",
        case: "decode/noncanonical/byte_array_missing_padding",
        holds: |r| {
            accepted_as(r, "PackedByteArray") && r.consumed > r.input.as_ref().map(|h| h.len() / 2)
        },
    },
    Rule {
        says: "read any non-zero bool word as true",
        case: "decode/noncanonical/bool_two",
        holds: |r| value_is(r, Value::Bool(true)),
    },
    Rule {
        says: "end a String at its first NUL byte (the rest of its length is skipped)",
        case: "decode/string_bytes/nul_inside",
        holds: |r| value_is(r, Value::String("ab".into())),
    },
    Rule {
        says: "drop a UTF-8 BOM at the start of a String",
        case: "decode/string_bytes/bom_then_text",
        holds: |r| value_is(r, Value::String("abc".into())),
    },
    Rule {
        says: "ignore the content of padding bytes after a String",
        case: "decode/noncanonical/string_nonzero_padding",
        holds: |r| value_is(r, Value::String("a".into())),
    },
    Rule {
        says: "ignore the content of padding bytes after a NodePath name",
        case: "decode/noncanonical/nodepath_nonzero_padding",
        holds: |r| accepted_as(r, "NodePath"),
    },
    Rule {
        says: "keep a 64-bit float's NaN payload bit for bit",
        case: "decode/valid/float/nan_payload",
        holds: |r| value_is(r, Value::String("0x7ff8000000000001".into())),
    },
    Rule {
        says: "keep a signalling 64-bit NaN signalling",
        case: "decode/valid/float/snan",
        holds: |r| value_is(r, Value::String("0x7ff0000000000001".into())),
    },
    Rule {
        says: "accept a small int written with the 64-bit flag",
        case: "decode/noncanonical/int_small_as_64bit",
        holds: |r| value_is(r, Value::String("1".into())),
    },
    Rule {
        says: "accept a 32-bit-exact float written with the 64-bit flag",
        case: "decode/noncanonical/float_half_as_64bit",
        holds: |r| value_is(r, Value::String("0.5".into())),
    },
    Rule {
        says: "ignore bit 31 of an Array's count (the old \"shared\" flag)",
        case: "decode/noncanonical/array_shared_bit",
        holds: |r| accepted_as(r, "Array"),
    },
    Rule {
        says: "keep the last value of a Dictionary key written twice",
        case: "decode/noncanonical/dictionary_duplicate_keys",
        holds: |r| accepted_as(r, "Dictionary"),
    },
    Rule {
        says: "accept PackedStringArray strings without their NUL terminator",
        case: "decode/noncanonical/string_array_without_nul",
        holds: |r| accepted_as(r, "PackedStringArray"),
    },
    Rule {
        says: "read a negative PackedStringArray count as empty",
        case: "decode/noncanonical/string_array_negative_count",
        holds: |r| value_is(r, Value::Array(Vec::new())),
    },
    Rule {
        says: "refuse a count or length larger than the bytes left, before allocating",
        case: "decode/hostile_count/PackedInt32Array/0x40000001",
        holds: |r| r.verdict == Verdict::Rejected,
    },
    Rule {
        says: "refuse a type id at or past the end of the table",
        case: "decode/unknown_type/64",
        holds: |r| r.verdict == Verdict::Rejected,
    },
    Rule {
        says: "refuse a full object unless objects are allowed",
        case: "decode/noncanonical/object_full_not_allowed",
        holds: |r| r.verdict == Verdict::Rejected,
    },
    Rule {
        says: "refuse nesting past 1024 levels",
        case: "decode/depth/arrays_1025",
        holds: |r| r.verdict == Verdict::Rejected,
    },
    Rule {
        says: "accept an overlong UTF-8 form (E0 80 AF reads as \"/\")",
        case: "decode/string_bytes/overlong_slash",
        holds: |r| value_is(r, Value::String("/".into())),
    },
    Rule {
        says: "read a surrogate encoded in UTF-8 (ED A0 80) as a code unit of its own",
        case: "decode/string_bytes/surrogate_high",
        holds: |r| value_is(r, serde_json::json!({"code_units": [0xD800]})),
    },
    Rule {
        says: "write a CESU-8 surrogate pair it read (two code units) back as one 4-byte character; 3.2 writes back the six bytes it read",
        case: "decode/string_bytes/surrogate_pair_cesu",
        holds: |r| r.output.as_deref() == Some("0400000004000000f09f92a9"),
    },
    Rule {
        says: "add a NodePath's name and subname counts in 32 bits: 1 name + 0xFFFFFFFF subnames wraps to an empty path",
        case: "decode/noncanonical/nodepath_count_wraps_to_zero",
        holds: |r| accepted_as(r, "NodePath"),
    },
    Rule {
        says: "convert a typed Array's elements to its type (an int in an Array[float] becomes 3.0)",
        case: "decode/noncanonical/typed_float_holding_int",
        holds: |r| value_is(r, serde_json::json!([{"type": "float", "value": "3"}])),
    },
    Rule {
        says: "convert a Vector2 element of an Array[Vector2i] (a NaN component becomes -2147483648)",
        case: "decode/noncanonical/typed_vector2i_from_vector2",
        holds: |r| accepted_as(r, "Array"),
    },
    Rule {
        says: "parse a String element of an Array[NodePath] as a path",
        case: "decode/noncanonical/typed_nodepath_from_string",
        holds: |r| accepted_as(r, "Array"),
    },
    Rule {
        says: "drop an element that does not convert to a typed Array's type (a String in an Array[int])",
        case: "decode/noncanonical/typed_int_holding_string",
        holds: |r| value_is(r, serde_json::json!([{"type": "int", "value": "3"}])),
    },
];

/// §9: what a decoder that matches Godot must do, one rule per line, each with the corpus case
/// and the engines whose answer follows it; returns how many rules at least one engine follows.
pub(super) fn tolerance(md: &mut String, inp: &Inputs, app: &mut Appendix) -> usize {
    md.push_str("\n## 9. What the decoders tolerate: a decoder that matches Godot must…\n\n");
    md.push_str("Behaviour the corpus proves and the pages do not state. Each rule names its corpus case; \"engines\" are\n");
    md.push_str(
        "those whose recorded answer follows the rule (decided from the answer: `RULES` in\n",
    );
    md.push_str("`lab/src/report/reference.rs`), \"others\" those that answer otherwise. The 3.x framing corpus\n");
    md.push_str("adds one more: 3.x drops the absolute flag of an empty NodePath (§6, `nodepath_empty_absolute`).\n\n");
    md.push_str("| # | a decoder that matches Godot must… | case | input | engines | others |\n|---|---|---|---|---|---|\n");
    let mut n = 0;
    for (i, rule) in RULES.iter().enumerate() {
        let mut yes = Vec::new();
        let mut no = Vec::new();
        let mut inputs: Vec<String> = Vec::new();
        for c in inp.corpora {
            let v = short(&c.entry.version);
            let Some(r) = c.records.iter().find(|r| r.name == rule.case) else {
                continue;
            };
            if (rule.holds)(r) {
                yes.push(v.clone());
            } else {
                no.push(format!(
                    "{v}: {}",
                    answer_cell(r, app, &format!("rule {} {v}", i + 1))
                ));
            }
            let cell = case_cell(r, app, &format!("rule {} {v} input", i + 1));
            match inputs.iter_mut().find(|c| c.ends_with(&cell)) {
                Some(_) => {}
                None => inputs.push(format!("{v}: {cell}")),
            }
        }
        if !yes.is_empty() {
            n += 1;
        }
        writeln!(
            md,
            "| {} | {} | `{}` | {} | {} | {} |",
            i + 1,
            rule.says,
            rule.case,
            inputs.join("<br>"),
            if yes.is_empty() {
                "none".into()
            } else {
                yes.join(", ")
            },
            no.join("<br>")
        )
        .ok();
    }
    write!(md, "\n{n} rules, each followed by at least one engine.\n").ok();
    n
}

/// A case both engines ran: the older answer, the newer, and what differs.
type Differing<'a> = (&'a Record, &'a Record, Vec<&'static str>);

/// §10: every corpus case 3.6 and 4.6 both ran whose answers differ beyond the type ids.
pub(super) fn behaviour_3_to_4(md: &mut String, inp: &Inputs, app: &mut Appendix) {
    let (Some(a), Some(b)) = (
        inp.corpora.iter().rev().find(|c| c.profile.major() == 3),
        inp.corpora.iter().find(|c| c.profile.major() == 4),
    ) else {
        return;
    };
    let (va, vb) = (short(&a.entry.version), short(&b.entry.version));
    write!(
        md,
        "\n## 10. {va} → {vb}: the same case, answered differently\n\n"
    )
    .ok();
    md.push_str("Every corpus case both engines ran (the same case in each version's ids) whose answers differ in more\n");
    md.push_str("than the type ids: the verdict, the bytes consumed, the decoded value, or the value of the engine's own\n");
    md.push_str("bytes (decoded with this crate's codec for that engine's profile). Encode cases the 3.x engine cannot\n");
    md.push_str("build (types 3.x lacks) are left out.\n\n");
    let by_name: BTreeMap<&str, &Record> = b.records.iter().map(|r| (r.name.as_str(), r)).collect();
    let meaning = |out: &Option<String>, p: gdmarshal::Profile, objects: bool| -> Option<Value> {
        let bytes = unhex(out.as_deref()?).ok()?;
        let d = gdmarshal::decode(
            &bytes,
            p,
            gdmarshal::DecodeOptions::new().allow_objects(objects),
        )
        .ok()?;
        Some(gdmarshal::json::to_json(
            &d.value,
            p,
            gdmarshal::float::FloatStyle::Bits,
        ))
    };
    let mut groups: BTreeMap<String, Vec<Differing>> = BTreeMap::new();
    for r in &a.records {
        let Some(o) = by_name.get(r.name.as_str()) else {
            continue;
        };
        if r.verdict == Verdict::Unsupported || o.verdict == Verdict::Unsupported {
            continue;
        }
        if !r.nondeterministic.is_empty() || !o.nondeterministic.is_empty() {
            continue;
        }
        let mut what = Vec::new();
        if r.verdict != o.verdict {
            what.push("verdict");
        }
        // A count only one engine gave is the oracle's doing (§4: the probe nests once more).
        if r.consumed.is_some() && o.consumed.is_some() && r.consumed != o.consumed {
            what.push("consumed");
        }
        if r.direction == crate::model::case::Direction::Decode && r.tree != o.tree {
            what.push("value");
        }
        if r.output.is_some()
            && o.output.is_some()
            && meaning(&r.output, a.profile, r.objects) != meaning(&o.output, b.profile, o.objects)
        {
            what.push("value of the bytes written");
        }
        if what.is_empty() {
            continue;
        }
        let group = r.name.split('/').take(2).collect::<Vec<_>>().join("/");
        groups.entry(group).or_default().push((r, o, what));
    }
    let total: usize = groups.values().map(Vec::len).sum();
    md.push_str("| group | cases | example | vector | {va} | {vb} | differs in |\n|---|---|---|---|---|---|---|\n"
        .replace("{va}", &va)
        .replace("{vb}", &vb)
        .as_str());
    for (group, rows) in &groups {
        let (r, o, what) = &rows[0];
        let names: Vec<&str> = rows.iter().map(|(r, _, _)| r.name.as_str()).collect();
        writeln!(
            md,
            "| `{group}` | {} | {} | {} | {} | {} | {} |",
            rows.len(),
            app.plain(&format!("{group} cases"), &names.join(", "), 80),
            case_cell(r, app, &format!("{} {va}", r.name)),
            answer_cell(r, app, &format!("{} {va} answer", r.name)),
            answer_cell(o, app, &format!("{} {vb} answer", r.name)),
            what.join(", ")
        )
        .ok();
    }
    write!(
        md,
        "\n{total} cases in {} groups differ beyond the type ids.\n",
        groups.len()
    )
    .ok();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_is_followed_by_an_engine_and_the_version_rules_by_some_only() {
        let corpora = crate::corpus::load(&crate::corpus::default_dir()).unwrap();
        assert!(RULES.len() >= 15);
        for rule in RULES {
            let answers: Vec<(u32, bool)> = corpora
                .iter()
                .filter_map(|c| {
                    let r = c.records.iter().find(|r| r.name == rule.case)?;
                    Some((c.profile.major(), (rule.holds)(r)))
                })
                .collect();
            assert!(
                answers.iter().any(|(_, h)| *h),
                "no engine follows: {}",
                rule.says
            );
            // A rule said of one major is not followed by the other.
            for (prefix, other) in [("3.x:", 4), ("3.6:", 4), ("4.x:", 3)] {
                if rule.says.starts_with(prefix) {
                    assert!(
                        answers.iter().all(|(m, h)| *m != other || !h),
                        "{} holds on {other}.x too",
                        rule.says
                    );
                }
            }
        }
    }
}
