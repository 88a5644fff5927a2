#!/usr/bin/env node
// The testee of the npm package `gdmarshal` (bindings/npm) for `gdmarshal conform`.
//
// It uses nothing but the installed package, named by its entry file: each request's tagged JSON
// becomes the package's JavaScript value, which the package encodes; each decoded value becomes
// tagged JSON again. So a run proves the package as users install it, its value mapping included,
// against the engines' answers. scripts/bindings.sh runs it on 3.2, 3.6 and 4.6 and holds it to
// the totals of the codec's own testee:
//
//     gdmarshal conform --testee "node testees/package-npm/gdmarshal_testee.mjs \
//         my-project/node_modules/gdmarshal/index.js" --godot 4.6
//
// The package's known differences from the engines are the codec's, so the handshake declares
// the list of the kit that wraps the codec (testees/rust/expect-fail.txt).
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const g = await import(pathToFileURL(process.argv[2]).href);

const INT_VECTORS = new Set(["Vector2i", "Rect2i", "Vector3i", "Vector4i"]);
const MATH = new Set(["Vector2", "Rect2", "Vector3", "Transform2D", "Vector4", "Plane", "Quaternion",
  "AABB", "Basis", "Transform3D", "Projection", "Color", ...INT_VECTORS]);
const PACKED_VECTORS = { PackedVector2Array: g.PackedVector2Array, PackedVector3Array: g.PackedVector3Array,
  PackedVector4Array: g.PackedVector4Array };
// The codec's rejection kinds in the protocol's vocabulary (docs/conformance.md).
const KINDS = { truncated: "truncated", "unknown-type": "bad-type", "bad-container-type": "bad-type",
  "bad-length": "bad-count", "bad-utf8": "bad-utf8", "too-deep": "too-deep",
  "objects-not-allowed": "not-allowed-object", "old-node-path": "bad-value",
  "name-not-text": "bad-value", "script-property-not-path": "bad-value",
  "script-path-not-resource": "bad-value" };
const OLD_NAMES = { Real: "float", Quat: "Quaternion", Transform: "Transform3D",
  PoolIntArray: "PackedInt32Array", PoolRealArray: "PackedFloat32Array" };

// ---- float tokens (docs/tagged-json.md): written as exact bits, read in any spelling ----

const view = new DataView(new ArrayBuffer(8));
const hex = (n, digits) => "0x" + n.toString(16).padStart(digits, "0");

function f64Bits(x) {
  if (x instanceof g.FloatBits) {
    return hex(x.width === 64 ? x.bits : wide32(Number(x.bits)), 16);
  }
  view.setFloat64(0, x);
  return hex(view.getBigUint64(0), 16);
}

// An f32's bits as the f64 bits the package widens it to.
function wide32(bits) {
  view.setBigUint64(0, 0n);
  const wide = f32OfBits(bits);
  if (Number.isNaN(wide)) {
    return (BigInt(bits >>> 31) << 63n) | 0x7ff0000000000000n | (BigInt(bits & 0x7fffff) << 29n);
  }
  view.setFloat64(0, wide);
  return view.getBigUint64(0);
}

// The package holds an f32 in a number with its NaN payload in the top bits of the f64's
// mantissa, quiet bit untouched: these follow the same rule, so that 0x7f800001 survives.
function f32Bits(x) {
  if (x instanceof g.FloatBits && x.width === 32) return hex(Number(x.bits), 8);
  if (x instanceof g.FloatBits || Number.isNaN(x)) {
    let wide;
    if (x instanceof g.FloatBits) {
      wide = x.bits;
    } else {
      view.setFloat64(0, x);
      wide = view.getBigUint64(0);
    }
    const payload = Number((wide >> 29n) & 0x7fffffn) || 0x400000;
    return hex(((Number(wide >> 63n) << 31) | 0x7f800000 | payload) >>> 0, 8);
  }
  view.setFloat32(0, x);
  return hex(view.getUint32(0), 8);
}

function f32OfBits(bits) {
  if ((bits & 0x7f800000) === 0x7f800000 && bits & 0x7fffff) {
    view.setBigUint64(0, (BigInt(bits >>> 31) << 63n) | 0x7ff0000000000000n | (BigInt(bits & 0x7fffff) << 29n));
    return view.getFloat64(0);
  }
  view.setUint32(0, bits);
  return view.getFloat32(0);
}

// A NaN other than JavaScript's own is given as the package's FloatBits (a number might not keep
// its bits).
function token(t, width) {
  if (t.startsWith("0x")) {
    if (width === 8) {
      const bits = BigInt(t);
      view.setBigUint64(0, bits);
      const x = view.getFloat64(0);
      return Number.isNaN(x) && bits !== 0x7ff8000000000000n ? new g.FloatBits(bits, 64) : x;
    }
    const bits = Number(t);
    const x = f32OfBits(bits);
    return Number.isNaN(x) && bits !== 0x7fc00000 ? new g.FloatBits(bits, 32) : x;
  }
  const x = t === "nan" ? NaN : t === "inf" ? Infinity : t === "-inf" ? -Infinity : Number(t);
  return width === 8 ? x : Math.fround(x);
}

function f32Token(t) {
  if (t.startsWith("0x")) return Number(t);
  view.setFloat32(0, token(t, 4));
  return view.getUint32(0);
}

// Typed arrays hold f32 bits exactly: read and written as bits.
function f32Array(tokens) {
  const bits = new Uint32Array(tokens.map(f32Token));
  return new Float32Array(bits.buffer);
}
const f32Tokens = (a) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length), (b) => hex(b, 8));
function f64Token(t) {
  const x = token(t, 8);
  if (x instanceof g.FloatBits) return x.bits;
  view.setFloat64(0, x);
  return view.getBigUint64(0);
}
function f64Array(tokens) {
  return new Float64Array(new BigUint64Array(tokens.map(f64Token)).buffer);
}
const f64Tokens = (a) => Array.from(new BigUint64Array(a.buffer, a.byteOffset, a.length), (b) => hex(b, 16));

// ---- tagged JSON to the package's values ----

const stringIn = (s) => (typeof s === "object" ? new g.CodeUnits(s.code_units) : s);
function containerTypeIn(t) {
  if (t === undefined || t === null) return null;
  const [[kind, name]] = Object.entries(t);
  return new g.ContainerType(kind, name);
}

function valueIn(v, real) {
  let ty = OLD_NAMES[v.type] ?? v.type;
  if (ty.startsWith("Pool")) ty = "Packed" + ty.slice(4);
  const x = v.value;
  switch (ty) {
    case "Nil": return null;
    case "bool": return x;
    case "int": return BigInt(x);
    case "float": return token(x, 8);
    case "String": return stringIn(x);
    case "StringName": return new g.StringName(x);
    case "NodePath": return new g.NodePath(v.names.map(stringIn), v.subnames.map(stringIn), v.absolute);
    case "RID": return new g.RID(BigInt(x));
    case "Object":
      if ("id" in v) return new g.ObjectID(BigInt(v.id));
      if ("class" in v) return new g.GodotObject(v.class, v.properties.map(([n, p]) => [n, valueIn(p, real)]));
      return new g.NullObject();
    case "Callable": return new g.Callable();
    case "Signal": return new g.Signal(v.name, BigInt(v.object));
    case "Array": {
      const items = x.map((i) => valueIn(i, real));
      return "element_type" in v ? new g.TypedArray(containerTypeIn(v.element_type), items) : items;
    }
    case "Dictionary": {
      const entries = x.map(([k, i]) => [valueIn(k, real), valueIn(i, real)]);
      if ("key_type" in v || "value_type" in v) {
        return new g.Dictionary(entries, containerTypeIn(v.key_type), containerTypeIn(v.value_type));
      }
      const map = new Map(entries);
      return map.size === entries.length ? map : new g.Dictionary(entries);
    }
    case "PackedByteArray": return Uint8Array.from(Buffer.from(x, "hex"));
    case "PackedInt32Array": return new Int32Array(x);
    case "PackedInt64Array": return new BigInt64Array(x.map(BigInt));
    case "PackedFloat32Array": return f32Array(x);
    case "PackedFloat64Array": return f64Array(x);
    case "PackedStringArray": return new g.PackedStringArray(x.map(stringIn));
    case "PackedColorArray": return new g.PackedColorArray(f32Array(x.flat()));
    default:
      if (ty in PACKED_VECTORS) {
        return new PACKED_VECTORS[ty](real === 8 ? f64Array(x.flat()) : f32Array(x.flat()));
      }
      if (INT_VECTORS.has(ty)) return new g[ty](...x);
      if (ty === "Color") return new g.Color(...x.map((t) => token(t, 4)));
      if (MATH.has(ty)) return new g[ty](...x.map((t) => token(t, real)));
      throw new Error(`no such type: ${ty}`);
  }
}

// ---- the package's values to tagged JSON ----

const stringOut = (s) => (s instanceof g.CodeUnits ? { code_units: s.units } : s);
const containerTypeOut = (t) => ({ [t.kind]: t.name });
const chunks = (tokens, n) => Array.from({ length: tokens.length / n }, (_, i) => tokens.slice(i * n, i * n + n));

function valueOut(x, real) {
  const bits = real === 8 ? f64Bits : f32Bits;
  if (x === null) return { type: "Nil" };
  switch (typeof x) {
    case "boolean": return { type: "bool", value: x };
    case "bigint": return { type: "int", value: String(x) };
    case "number": return { type: "float", value: f64Bits(x) };
    case "string": return { type: "String", value: x };
    default: break;
  }
  if (x instanceof g.FloatBits) return { type: "float", value: f64Bits(x) };
  const name = x.constructor.name;
  if (INT_VECTORS.has(name)) return { type: name, value: Object.values(x) };
  if (name === "Color") return { type: "Color", value: Object.values(x).map(f32Bits) };
  if (MATH.has(name)) return { type: name, value: Object.values(x).map(bits) };
  if (x instanceof g.CodeUnits) return { type: "String", value: stringOut(x) };
  if (x instanceof g.StringName) return { type: "StringName", value: x.value };
  if (x instanceof g.NodePath) {
    return { type: "NodePath", names: x.names.map(stringOut), subnames: x.subnames.map(stringOut), absolute: x.absolute };
  }
  if (x instanceof g.RID) return { type: "RID", value: String(x.id) };
  if (x instanceof g.NullObject) return { type: "Object", value: null };
  if (x instanceof g.ObjectID) return { type: "Object", id: String(x.id) };
  if (x instanceof g.GodotObject) {
    return { type: "Object", class: x.className, properties: x.properties.map(([n, p]) => [n, valueOut(p, real)]) };
  }
  if (x instanceof g.Callable) return { type: "Callable" };
  if (x instanceof g.Signal) return { type: "Signal", name: x.name, object: String(x.objectId) };
  if (Array.isArray(x)) return { type: "Array", value: x.map((i) => valueOut(i, real)) };
  if (x instanceof g.TypedArray) {
    return { type: "Array", element_type: containerTypeOut(x.elementType), value: x.items.map((i) => valueOut(i, real)) };
  }
  if (x instanceof Map) {
    return { type: "Dictionary", value: Array.from(x, ([k, i]) => [valueOut(k, real), valueOut(i, real)]) };
  }
  if (x instanceof g.Dictionary) {
    const node = { type: "Dictionary", value: x.entries.map(([k, i]) => [valueOut(k, real), valueOut(i, real)]) };
    if (x.keyType !== null) node.key_type = containerTypeOut(x.keyType);
    if (x.valueType !== null) node.value_type = containerTypeOut(x.valueType);
    return node;
  }
  if (x instanceof Uint8Array) return { type: "PackedByteArray", value: Buffer.from(x).toString("hex") };
  if (x instanceof Int32Array) return { type: "PackedInt32Array", value: Array.from(x) };
  if (x instanceof BigInt64Array) return { type: "PackedInt64Array", value: Array.from(x, String) };
  if (x instanceof Float32Array) return { type: "PackedFloat32Array", value: f32Tokens(x) };
  if (x instanceof Float64Array) return { type: "PackedFloat64Array", value: f64Tokens(x) };
  if (x instanceof g.PackedStringArray) return { type: "PackedStringArray", value: x.items.map(stringOut) };
  if (x instanceof g.PackedColorArray) return { type: "PackedColorArray", value: chunks(f32Tokens(x.data), 4) };
  if (name in PACKED_VECTORS) {
    const width = Number(name[12]);
    const tokens = x.data instanceof Float64Array ? f64Tokens(x.data) : f32Tokens(x.data);
    return { type: name, value: chunks(tokens, width) };
  }
  throw new TypeError(`the package gave a ${name}, which has no tagged JSON form here`);
}

// ---- the protocol (docs/conformance.md) ----

function hello() {
  const here = dirname(fileURLToPath(import.meta.url));
  const expectFail = readFileSync(join(here, "..", "rust", "expect-fail.txt"), "utf8")
    .split("\n")
    .map((line) => line.split("#")[0].trim())
    .filter(Boolean);
  return { name: `gdmarshal ${g.version} (npm package)`, protocol: 1, versions: "all", capabilities: "all",
    types: "all", expect_fail: expectFail };
}

function answer(request) {
  if (request.op === "hello") return hello();
  const { id, godot } = request;
  const real = godot.endsWith("-double") ? 8 : 4;
  const objects = Boolean(request.objects);
  try {
    if (request.op === "decode") {
      const [value, consumed] = g.decodePrefix(Buffer.from(request.input, "hex"), { godot, objects });
      return { id, ok: true, value: valueOut(value, real), consumed };
    }
    const out = g.encode(valueIn(request.value, real), { godot, objects });
    return { id, ok: true, output: Buffer.from(out).toString("hex") };
  } catch (e) {
    if (e instanceof g.DecodeError) {
      return e.kind in KINDS ? { id, ok: false, error: e.message, kind: KINDS[e.kind] } : { id, ok: false, error: e.message };
    }
    if (e instanceof g.EncodeError) return { id, ok: false, error: e.message };
    if (e instanceof RangeError && e.message.startsWith("godot:")) return { id, skipped: e.message };
    throw e;
  }
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (line.trim()) process.stdout.write(JSON.stringify(answer(JSON.parse(line))) + "\n");
}
