//! Full objects given one of the project's scripts (4.x): the decoder loads the script the
//! `script` property names and sets it, and the object then holds the class's stored properties
//! and the script's (`gdmarshal::classes::ClassList::with_scripted_defaults`); and a typed
//! Dictionary whose values name a class the engine lacks, which the decoder never checks.

use gdmarshal::value::{Object, Variant};

use super::{Ctx, le, s, with_objects};

/// The project's script for full objects (godot_project/fixtures/item.gd: a Resource with one
/// variable that is not stored).
const ITEM: &str = "res://fixtures/item.gd";

/// `decode/objects/scripted_*` and `decode/objects/typed_dictionary_value_class_missing` (4.x);
/// `decode/objects/script_*_sets_none` (3.x, whose decoder sets a `script` that is not an object
/// as none).
pub(super) fn scripted_objects(ctx: &mut Ctx) {
    let object = |class: &str, props: Vec<(&str, Variant)>| {
        Variant::object(Object::Full {
            class: s(class),
            properties: props.into_iter().map(|(n, v)| (s(n), v)).collect(),
        })
    };
    let item = || Variant::String(ITEM.into());
    if !ctx.profile.typed_arrays() {
        let cases = [
            (
                "script_path_sets_none",
                object(
                    "Resource",
                    vec![
                        ("script", item()),
                        ("resource_name", Variant::String("n".into())),
                    ],
                ),
            ),
            (
                "script_int_sets_none",
                object("Resource", vec![("script", Variant::Int(5))]),
            ),
        ];
        let inputs = encoded(cases, ctx.profile);
        with_objects(ctx, inputs);
        return;
    }
    let cases = [
        (
            "scripted_misnamed_property",
            object(
                "Resource",
                vec![
                    ("resNurce_local_to_scene", Variant::Bool(true)),
                    ("script", item()),
                ],
            ),
        ),
        (
            "scripted_name_before_script",
            object(
                "Resource",
                vec![
                    ("resource_name", Variant::String("n".into())),
                    ("script", item()),
                ],
            ),
        ),
        (
            "scripted_twice",
            object("Resource", vec![("script", item()), ("script", item())]),
        ),
        (
            // A Nil `script` clears the script set before; what was set meanwhile on the
            // class's own properties stays (campaign seed 4081, case 149982).
            "scripted_then_cleared",
            object(
                "Resource",
                vec![
                    ("script", item()),
                    ("resource_name", Variant::String("n".into())),
                    ("hp", Variant::Int(5)),
                    ("script", Variant::Nil),
                ],
            ),
        ),
        (
            "scripted_class_the_script_does_not_extend",
            object("Node", vec![("script", item())]),
        ),
    ];
    let mut inputs = encoded(cases, ctx.profile);
    // A Dictionary whose value type names a class the engine lacks ("\x1b"), holding an object
    // id as its value: the decoder assigns values unchecked (campaign seed 4042, case 426824).
    let (dictionary, object_id) = (
        ctx.id(gdmarshal::VariantType::Dictionary),
        ctx.id(gdmarshal::VariantType::Object),
    );
    let mut b = le(&[dictionary | 2 << 18, 2]);
    b.extend(b"\x1b\0\0\0");
    b.extend(le(&[
        1,
        ctx.id(gdmarshal::VariantType::Int),
        1,
        object_id | 1 << 16,
        12345,
        0,
    ]));
    inputs.push((s("typed_dictionary_value_class_missing"), b));
    with_objects(ctx, inputs);
}

/// Each named value with its full-object encoding (a value the profile cannot encode is left out).
fn encoded<const N: usize>(
    cases: [(&str, Variant); N],
    profile: gdmarshal::Profile,
) -> Vec<(String, Vec<u8>)> {
    let options = gdmarshal::EncodeOptions::new().full_objects(true);
    cases
        .into_iter()
        .filter_map(|(k, v)| Some((s(k), gdmarshal::encode(&v, profile, options).ok()?)))
        .collect()
}
