//! The tagged JSON schema (docs/tagged-json.md): [`Variant`] to JSON and back, exactly.
//!
//! Widths come from the type and the profile (real_t is f32 or f64), so the same reader serves every
//! version. Errors name the JSON path of the bad node.

use serde_json::{Map, Value, json};

use crate::float::{self, Float, FloatStyle};
use crate::profile::Profile;
use crate::stack;
use crate::types::{Element, Shape, VariantType};
use crate::value::{
    Array, Components, ContainerType, Dictionary, NodePath, Object, Reals, Signal, Text, Variant,
};

/// A tagged-JSON node that is not a valid value; `path` is where, as `$.value[2]`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at {path}: {message}")]
pub struct JsonError {
    /// JSON path of the bad node.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

/// Writes a value as tagged JSON.
///
/// Each float is written at the width the value holds; `_profile` is taken for symmetry with
/// [`from_json`], whose widths come from it.
pub fn to_json(v: &Variant, _profile: Profile, style: FloatStyle) -> Value {
    Writer { style }.value(v)
}

/// Reads a tagged-JSON value. `profile` fixes the width of real_t components.
pub fn from_json(j: &Value, profile: Profile) -> Result<Variant, JsonError> {
    Parser {
        double_reals: profile.double_reals,
    }
    .value(j, "$")
}

struct Writer {
    style: FloatStyle,
}

impl Writer {
    fn f<F: Float>(&self, v: F) -> Value {
        Value::String(float::format(v, self.style))
    }

    fn reals(&self, r: &Reals) -> Vec<Value> {
        match r.components() {
            Components::F32(v) => v.iter().map(|x| self.f(*x)).collect(),
            Components::F64(v) => v.iter().map(|x| self.f(*x)).collect(),
        }
    }

    fn container_type(&self, t: &ContainerType) -> Option<Value> {
        match t {
            ContainerType::None => None,
            ContainerType::Builtin(ty) => Some(json!({ "builtin": ty.name() })),
            ContainerType::ClassName(c) => Some(json!({ "class": c })),
            ContainerType::Script(s) => Some(json!({ "script": s })),
        }
    }

    fn value(&self, v: &Variant) -> Value {
        // Values nest up to the engines' 1024 levels: grow the stack rather than overflow it.
        stack::with_room(|| self.value_here(v))
    }

    fn value_here(&self, v: &Variant) -> Value {
        let ty = v.get_type();
        let mut m = Map::new();
        m.insert("type".into(), ty.name().into());
        let value: Option<Value> = match v {
            Variant::Nil | Variant::Callable => None,
            Variant::Bool(b) => Some((*b).into()),
            Variant::Int(i) => Some(i.to_string().into()),
            Variant::Float(x) => Some(self.f(*x)),
            Variant::String(s) | Variant::StringName(s) => Some(s.as_str().into()),
            Variant::Color(c) => Some(c.iter().map(|x| self.f(*x)).collect()),
            Variant::NodePath(np) => {
                m.insert("names".into(), json!(np.names));
                m.insert("subnames".into(), json!(np.subnames));
                m.insert("absolute".into(), np.absolute.into());
                None
            }
            Variant::Rid(id) => Some(id.to_string().into()),
            Variant::Object(o) => match &**o {
                Object::Null => Some(Value::Null),
                Object::Id(id) => {
                    m.insert("id".into(), id.to_string().into());
                    None
                }
                Object::Full { class, properties } => {
                    m.insert("class".into(), class.as_str().into());
                    let props = properties
                        .iter()
                        .map(|(k, v)| json!([k, self.value(v)]))
                        .collect();
                    m.insert("properties".into(), Value::Array(props));
                    None
                }
            },
            Variant::Signal(s) => {
                m.insert("name".into(), s.name.as_str().into());
                m.insert("object".into(), s.object_id.to_string().into());
                None
            }
            Variant::Dictionary(d) => {
                if let Some(t) = self.container_type(d.key_type()) {
                    m.insert("key_type".into(), t);
                }
                if let Some(t) = self.container_type(d.value_type()) {
                    m.insert("value_type".into(), t);
                }
                Some(
                    d.entries()
                        .iter()
                        .map(|(k, v)| json!([self.value(k), self.value(v)]))
                        .collect(),
                )
            }
            Variant::Array(a) => {
                if let Some(t) = self.container_type(a.element_type()) {
                    m.insert("element_type".into(), t);
                }
                Some(a.items().iter().map(|x| self.value(x)).collect())
            }
            Variant::PackedByteArray(b) => Some(hex(b).into()),
            Variant::PackedInt32Array(a) => Some(json!(a)),
            Variant::PackedInt64Array(a) => {
                Some(a.iter().map(|i| Value::String(i.to_string())).collect())
            }
            Variant::PackedFloat32Array(a) => Some(a.iter().map(|x| self.f(*x)).collect()),
            Variant::PackedFloat64Array(a) => Some(a.iter().map(|x| self.f(*x)).collect()),
            Variant::PackedStringArray(a) => {
                Some(a.iter().map(|s| Value::from(s.as_str())).collect())
            }
            Variant::PackedColorArray(a) => Some(
                a.iter()
                    .map(|c| c.iter().map(|x| self.f(*x)).collect::<Value>())
                    .collect(),
            ),
            _ => match (ty.shape(), v.reals(), v.ints()) {
                (Shape::Packed(_), Some(r), _) => {
                    let per = ty.info().fields.len();
                    Some(
                        self.reals(r)
                            .chunks(per)
                            .map(|c| Value::Array(c.to_vec()))
                            .collect(),
                    )
                }
                (_, Some(r), _) => Some(Value::Array(self.reals(r))),
                (_, _, Some(i)) => Some(json!(i)),
                _ => unreachable!("{ty} is handled above"),
            },
        };
        if let Some(value) = value {
            m.insert("value".into(), value);
        }
        Value::Object(m)
    }
}

/// Lowercase hex of some bytes.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    bytes
        .iter()
        .for_each(|b| write!(s, "{b:02x}").expect("writing to a String"));
    s
}

/// Bytes from hex text; ASCII whitespace is ignored. The error names the offending character index.
pub fn unhex(text: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<(usize, u8)> = text
        .bytes()
        .enumerate()
        .filter(|(_, b)| !b.is_ascii_whitespace())
        .collect();
    if !digits.len().is_multiple_of(2) {
        return Err(format!("odd number of hex digits ({})", digits.len()));
    }
    let nibble = |(i, b): (usize, u8)| {
        (b as char)
            .to_digit(16)
            .map(|d| d as u8)
            .ok_or_else(|| format!("character {i} ({:?}) is not a hex digit", b as char))
    };
    digits
        .chunks(2)
        .map(|p| Ok(nibble(p[0])? << 4 | nibble(p[1])?))
        .collect()
}

struct Parser {
    double_reals: bool,
}

fn error(path: &str, message: impl Into<String>) -> JsonError {
    JsonError {
        path: path.to_string(),
        message: message.into(),
    }
}

type R<T> = Result<T, JsonError>;

impl Parser {
    fn member<'j>(&self, m: &'j Map<String, Value>, key: &str, path: &str) -> R<&'j Value> {
        m.get(key)
            .ok_or_else(|| error(path, format!("missing member \"{key}\"")))
    }

    fn array<'j>(&self, j: &'j Value, path: &str) -> R<&'j Vec<Value>> {
        j.as_array()
            .ok_or_else(|| error(path, format!("expected an array, found {}", kind(j))))
    }

    fn str<'j>(&self, j: &'j Value, path: &str) -> R<&'j str> {
        j.as_str()
            .ok_or_else(|| error(path, format!("expected a string, found {}", kind(j))))
    }

    fn i64(&self, j: &Value, path: &str) -> R<i64> {
        match j {
            Value::String(s) => s
                .parse()
                .map_err(|_| error(path, format!("{s:?} is not a 64-bit integer"))),
            Value::Number(n) => n
                .as_i64()
                .ok_or_else(|| error(path, format!("{n} is not an exact integer"))),
            _ => Err(error(
                path,
                format!("expected an integer as a decimal string, found {}", kind(j)),
            )),
        }
    }

    fn u64(&self, j: &Value, path: &str) -> R<u64> {
        match j {
            Value::String(s) => s
                .parse()
                .map_err(|_| error(path, format!("{s:?} is not an unsigned 64-bit integer"))),
            Value::Number(n) => n
                .as_u64()
                .ok_or_else(|| error(path, format!("{n} is not an exact unsigned integer"))),
            _ => Err(error(
                path,
                format!(
                    "expected an unsigned integer as a decimal string, found {}",
                    kind(j)
                ),
            )),
        }
    }

    fn i32(&self, j: &Value, path: &str) -> R<i32> {
        let v = j
            .as_i64()
            .ok_or_else(|| error(path, format!("expected a 32-bit integer number, found {j}")))?;
        i32::try_from(v).map_err(|_| error(path, format!("{v} does not fit in 32 bits")))
    }

    fn float<F: Float>(&self, j: &Value, path: &str) -> R<F> {
        let s = self.str(j, path)?;
        float::parse(s).map_err(|m| error(path, m))
    }

    fn list<T>(&self, j: &Value, path: &str, f: impl Fn(&Value, &str) -> R<T>) -> R<Vec<T>> {
        self.array(j, path)?
            .iter()
            .enumerate()
            .map(|(i, x)| f(x, &format!("{path}[{i}]")))
            .collect()
    }

    fn reals(&self, items: &[&Value], path: &str, first: usize) -> R<Reals> {
        let at = |i: usize| format!("{path}[{}]", first + i);
        let items = items.iter().enumerate();
        if self.double_reals {
            items.map(|(i, x)| self.float::<f64>(x, &at(i))).collect()
        } else {
            items.map(|(i, x)| self.float::<f32>(x, &at(i))).collect()
        }
    }

    fn fixed<'j>(&self, j: &'j Value, n: usize, ty: VariantType, path: &str) -> R<&'j Vec<Value>> {
        let a = self.array(j, path)?;
        if a.len() != n {
            return Err(error(
                path,
                format!("{ty} has {n} components, found {}", a.len()),
            ));
        }
        Ok(a)
    }

    fn container_type(&self, m: &Map<String, Value>, key: &str, path: &str) -> R<ContainerType> {
        let Some(j) = m.get(key) else {
            return Ok(ContainerType::None);
        };
        let path = format!("{path}.{key}");
        let o = j
            .as_object()
            .ok_or_else(|| error(&path, "expected an object like {\"builtin\": \"int\"}"))?;
        let (k, v) = match o.iter().next() {
            Some(kv) if o.len() == 1 => kv,
            _ => {
                return Err(error(
                    &path,
                    "expected exactly one of builtin, class, script",
                ));
            }
        };
        let s = self.str(v, &format!("{path}.{k}"))?.to_string();
        match k.as_str() {
            "builtin" => VariantType::from_name(&s)
                .map(ContainerType::Builtin)
                .ok_or_else(|| error(&path, format!("unknown type {s:?}"))),
            "class" => Ok(ContainerType::ClassName(s)),
            "script" => Ok(ContainerType::Script(s)),
            _ => Err(error(
                &path,
                format!("unknown container kind {k:?}: expected builtin, class or script"),
            )),
        }
    }

    fn value(&self, j: &Value, path: &str) -> R<Variant> {
        stack::with_room(|| self.value_here(j, path))
    }

    fn value_here(&self, j: &Value, path: &str) -> R<Variant> {
        let m = j
            .as_object()
            .ok_or_else(|| error(path, format!("expected a node object, found {}", kind(j))))?;
        let name = self.str(self.member(m, "type", path)?, &format!("{path}.type"))?;
        let ty = VariantType::from_name(name)
            .ok_or_else(|| error(path, format!("unknown type {name:?}")))?;
        let vpath = format!("{path}.value");
        let value = || self.member(m, "value", path);
        Ok(match ty.shape() {
            Shape::Empty => Variant::Nil,
            Shape::Callable => Variant::Callable,
            Shape::Bool => Variant::Bool(
                value()?
                    .as_bool()
                    .ok_or_else(|| error(&vpath, "expected true or false"))?,
            ),
            Shape::Int => Variant::Int(self.i64(value()?, &vpath)?),
            Shape::Float => Variant::Float(self.float(value()?, &vpath)?),
            Shape::String => {
                let s = Text::from(self.str(value()?, &vpath)?);
                if ty == VariantType::StringName {
                    Variant::StringName(s)
                } else {
                    Variant::String(s)
                }
            }
            Shape::Reals(n) => {
                let a = self.fixed(value()?, n, ty, &vpath)?;
                let r = self.reals(&a.iter().collect::<Vec<_>>(), &vpath, 0)?;
                Variant::from_reals(ty, r).expect("Reals shape")
            }
            Shape::Ints(n) => {
                let a = self.fixed(value()?, n, ty, &vpath)?;
                let ints = a
                    .iter()
                    .enumerate()
                    .map(|(i, x)| self.i32(x, &format!("{vpath}[{i}]")))
                    .collect::<R<_>>()?;
                Variant::from_ints(ty, ints).expect("Ints shape")
            }
            Shape::Color => {
                let a = self.fixed(value()?, 4, ty, &vpath)?;
                let mut c = [0f32; 4];
                for (i, slot) in c.iter_mut().enumerate() {
                    *slot = self.float(&a[i], &format!("{vpath}[{i}]"))?;
                }
                Variant::Color(c)
            }
            Shape::NodePath => {
                let strings = |key: &str| {
                    let p = format!("{path}.{key}");
                    self.list(self.member(m, key, path)?, &p, |x, p| {
                        self.str(x, p).map(str::to_string)
                    })
                };
                let absolute = self.member(m, "absolute", path)?;
                let absolute = absolute
                    .as_bool()
                    .ok_or_else(|| error(&format!("{path}.absolute"), "expected true or false"))?;
                Variant::node_path(NodePath {
                    names: strings("names")?,
                    subnames: strings("subnames")?,
                    absolute,
                })
            }
            Shape::Rid => Variant::Rid(self.u64(value()?, &vpath)?),
            Shape::Object => Variant::object(self.object(m, path)?),
            Shape::Signal => {
                let name = self
                    .str(self.member(m, "name", path)?, &format!("{path}.name"))?
                    .to_string();
                let object_id =
                    self.u64(self.member(m, "object", path)?, &format!("{path}.object"))?;
                Variant::Signal(Box::new(Signal { name, object_id }))
            }
            Shape::Array => Variant::Array(Array::typed(
                self.container_type(m, "element_type", path)?,
                self.list(value()?, &vpath, |x, p| self.value(x, p))?,
            )),
            Shape::Dictionary => Variant::Dictionary(Dictionary::typed(
                self.container_type(m, "key_type", path)?,
                self.container_type(m, "value_type", path)?,
                self.list(value()?, &vpath, |x, p| {
                    let pair = self.array(x, p)?;
                    if pair.len() != 2 {
                        return Err(error(
                            p,
                            format!("expected a [key, value] pair, found {} items", pair.len()),
                        ));
                    }
                    Ok((
                        self.value(&pair[0], &format!("{p}[0]"))?,
                        self.value(&pair[1], &format!("{p}[1]"))?,
                    ))
                })?,
            )),
            Shape::PackedStrings => {
                Variant::PackedStringArray(
                    self.list(value()?, &vpath, |x, p| self.str(x, p).map(Text::from))?,
                )
            }
            Shape::Packed(e) => self.packed(ty, e, value()?, &vpath)?,
        })
    }

    fn object(&self, m: &Map<String, Value>, path: &str) -> R<Object> {
        if let Some(v) = m.get("value") {
            return match v {
                Value::Null => Ok(Object::Null),
                _ => Err(error(
                    &format!("{path}.value"),
                    "an Object's value can only be null",
                )),
            };
        }
        if let Some(id) = m.get("id") {
            return Ok(Object::Id(self.u64(id, &format!("{path}.id"))?));
        }
        let class = m.get("class").ok_or_else(|| {
            error(
                path,
                "an Object needs \"value\": null, \"id\", or \"class\" and \"properties\"",
            )
        })?;
        let class = self.str(class, &format!("{path}.class"))?.to_string();
        let ppath = format!("{path}.properties");
        let properties = self.list(self.member(m, "properties", path)?, &ppath, |x, p| {
            let pair = self.array(x, p)?;
            if pair.len() != 2 {
                return Err(error(p, "expected a [name, value] pair"));
            }
            Ok((
                self.str(&pair[0], &format!("{p}[0]"))?.to_string(),
                self.value(&pair[1], &format!("{p}[1]"))?,
            ))
        })?;
        Ok(Object::Full { class, properties })
    }

    fn packed(&self, ty: VariantType, e: Element, j: &Value, path: &str) -> R<Variant> {
        Ok(match e {
            Element::U8 => {
                Variant::PackedByteArray(unhex(self.str(j, path)?).map_err(|m| error(path, m))?)
            }
            Element::I32 => Variant::PackedInt32Array(self.list(j, path, |x, p| self.i32(x, p))?),
            Element::I64 => Variant::PackedInt64Array(self.list(j, path, |x, p| self.i64(x, p))?),
            Element::F32 => {
                Variant::PackedFloat32Array(self.list(j, path, |x, p| self.float(x, p))?)
            }
            Element::F64 => {
                Variant::PackedFloat64Array(self.list(j, path, |x, p| self.float(x, p))?)
            }
            Element::Color => Variant::PackedColorArray(self.list(j, path, |x, p| {
                let a = self.fixed(x, 4, VariantType::Color, p)?;
                let mut c = [0f32; 4];
                for (i, slot) in c.iter_mut().enumerate() {
                    *slot = self.float(&a[i], &format!("{p}[{i}]"))?;
                }
                Ok(c)
            })?),
            Element::Reals(n) => {
                let rows = self.array(j, path)?;
                let mut flat = Vec::with_capacity(rows.len() * n);
                for (i, row) in rows.iter().enumerate() {
                    flat.extend(self.fixed(row, n, ty, &format!("{path}[{i}]"))?);
                }
                // Errors name the flattened index; map it back to row and column.
                let r = self.reals(&flat, path, 0).map_err(|mut e| {
                    if let Some(i) = e
                        .path
                        .rsplit('[')
                        .next()
                        .and_then(|s| s.trim_end_matches(']').parse::<usize>().ok())
                    {
                        e.path = format!("{path}[{}][{}]", i / n, i % n);
                    }
                    e
                })?;
                Variant::from_reals(ty, r).expect("packed vector type")
            }
        })
    }
}

fn kind(j: &Value) -> &'static str {
    match j {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Parses JSON of any nesting depth (values nest 1024 levels, their JSON twice that; serde_json
/// alone stops at 128), growing the stack as it goes.
pub fn parse_deep<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let value = T::deserialize(serde_stacker::Deserializer::new(&mut de))?;
    de.end()?;
    Ok(value)
}
