// The package's value classes, and the small helpers its WebAssembly module calls to build them
// (decoding) and to read them (encoding). What stands for which Godot type: README.md.

/** A Godot 4 StringName. */
export class StringName {
  constructor(value) {
    this.value = String(value);
  }
  toString() {
    return this.value;
  }
}

/** A Godot 3 string whose 32-bit code units are not all Unicode scalar values. */
export class CodeUnits {
  constructor(units) {
    this.units = Array.from(units, Number);
  }
}

/** A NodePath: `/a/b:x` is `new NodePath(["a", "b"], ["x"], true)`. */
export class NodePath {
  constructor(names = [], subnames = [], absolute = false) {
    this.names = names;
    this.subnames = subnames;
    this.absolute = absolute;
  }
}

/** An RID: its 64-bit id, a BigInt. */
export class RID {
  constructor(id) {
    this.id = BigInt(id);
  }
}

/** A full object: its class and its properties as [name, value] pairs in order. */
export class GodotObject {
  constructor(className, properties = []) {
    this.className = className;
    this.properties = properties;
  }
}

/** An object known by its instance id, a BigInt. */
export class ObjectID {
  constructor(id) {
    this.id = BigInt(id);
  }
}

/** A null Object (not Nil: Godot tells them apart). */
export class NullObject {}

/** A Callable, which the format writes with no payload. */
export class Callable {}

/** A Signal: its name and its object's instance id (a BigInt). */
export class Signal {
  constructor(name, objectId) {
    this.name = name;
    this.objectId = BigInt(objectId);
  }
}

/** A typed container's element, key or value type: kind "builtin", "class" or "script". */
export class ContainerType {
  constructor(kind, name) {
    this.kind = kind;
    this.name = name;
  }
}

/** A typed Array: its element type and its items. */
export class TypedArray {
  constructor(elementType, items = []) {
    this.elementType = elementType;
    this.items = items;
  }
}

/**
 * A Dictionary as [key, value] pairs in order, with its key and value types (each a
 * ContainerType or null): what decode gives for a typed Dictionary, and for one whose keys a Map
 * would take as one (none that the engines write: they too take 0.0 and -0.0 as one key, and
 * every NaN; see `build`).
 */
export class Dictionary {
  constructor(entries = [], keyType = null, valueType = null) {
    this.entries = entries;
    this.keyType = keyType;
    this.valueType = valueType;
  }
}

/**
 * A float that is a NaN other than JavaScript's own (bits 0x7ff8000000000000, or 0x7fc00000 for
 * an f32): its bits, a BigInt, at `width` 64 or 32. JavaScript engines may rewrite the bits of a
 * NaN number, so decode gives such a NaN in this form; encode takes it wherever a float goes.
 */
export class FloatBits {
  constructor(bits, width = 64) {
    this.bits = BigInt(bits);
    this.width = width;
  }
}

/** A PackedStringArray: its strings. */
export class PackedStringArray {
  constructor(items = []) {
    this.items = items;
  }
}

function packedOf(name, width) {
  const cls = class {
    constructor(data) {
      this.data = data;
    }
    get length() {
      return this.data.length / width;
    }
  };
  Object.defineProperty(cls, "name", { value: name });
  return cls;
}

/** A PackedVector2Array: its components, flat, in a Float32Array (Float64Array in double builds). */
export const PackedVector2Array = packedOf("PackedVector2Array", 2);
/** A PackedVector3Array: its components, flat, in a Float32Array (Float64Array in double builds). */
export const PackedVector3Array = packedOf("PackedVector3Array", 3);
/** A PackedVector4Array: its components, flat, in a Float32Array (Float64Array in double builds). */
export const PackedVector4Array = packedOf("PackedVector4Array", 4);
/** A PackedColorArray: r, g, b, a of each color, flat, in a Float32Array. */
export const PackedColorArray = packedOf("PackedColorArray", 4);

/** Bytes the engine refuses: `offset` is where (the framing included), `kind` what. */
export class DecodeError extends Error {
  constructor(message, offset, kind) {
    super(`at byte ${offset}: ${message}`);
    this.name = "DecodeError";
    this.offset = offset;
    this.kind = kind;
  }
}

/** A value the engine cannot write: `path` is where in it (`$[3]`, `${key 0}`, `$.name`). */
export class EncodeError extends Error {
  constructor(message, path) {
    super(`at ${path}: ${message}`);
    this.name = "EncodeError";
    this.path = path;
  }
}

// The math types, made from the codec's type table once the module is loaded (defineMathTypes):
// each a class whose fields are the components in wire order ("origin.x" becomes origin_x).
export let Vector2, Vector2i, Rect2, Rect2i, Vector3, Vector3i, Transform2D, Vector4, Vector4i;
export let Plane, Quaternion, AABB, Basis, Transform3D, Projection, Color;
/** The math types' classes by the codec's type index, and each class's fields. */
const MATH_BY_INDEX = [];
const MATH_INDEX = new Map();

/** Makes the math types' classes from `layouts`: [index, name, fields] of each. */
export function defineMathTypes(layouts) {
  const made = {};
  for (const [index, name, dotted] of layouts) {
    const fields = dotted.map((f) => f.replaceAll(".", "_"));
    const cls = class {
      constructor(...c) {
        for (let i = 0; i < fields.length; i++) this[fields[i]] = c[i] ?? 0;
      }
    };
    Object.defineProperty(cls, "name", { value: name });
    cls.fields = fields;
    MATH_BY_INDEX[index] = cls;
    MATH_INDEX.set(cls, index);
    made[name] = cls;
  }
  ({ Vector2, Vector2i, Rect2, Rect2i, Vector3, Vector3i, Transform2D, Vector4, Vector4i } = made);
  ({ Plane, Quaternion, AABB, Basis, Transform3D, Projection, Color } = made);
  return made;
}

// ---- decoding: the module's tape (src/to_js.rs) read into values ----

export const makeDecodeError = (message, offset, kind) => new DecodeError(message, offset, kind);
export const makeEncodeError = (message, path) => new EncodeError(message, path);
const PACKED = [PackedVector2Array, PackedVector3Array, PackedVector4Array];
export const makePackedVectors = (width, data) => new PACKED[width - 2](data);
export const makePackedColors = (data) => new PackedColorArray(data);

const ASCII = new TextDecoder("utf-8");
// ignoreBOM: a BOM in the units is text, kept (the default would drop a leading one).
const UTF16 = new TextDecoder("utf-16le", { ignoreBOM: true });
// Under Node.js, Buffer makes a string of UTF-16 units in about two thirds of TextDecoder's time
// (and keeps a BOM too), and one of ASCII bytes (as Latin-1, which they are too) several times
// faster than TextDecoder, which checks UTF-8; elsewhere, or where Buffer is a bundler's
// stand-in, TextDecoder.
const NODE_BUFFER = globalThis.process?.versions?.node ? globalThis.Buffer : undefined;
const viaBuffer = typeof NODE_BUFFER === "function";
const fromUtf16 = viaBuffer
  ? (u) => NODE_BUFFER.from(u.buffer, u.byteOffset, u.byteLength).toString("utf16le")
  : (u) => UTF16.decode(u);
const fromAscii = viaBuffer
  ? (b) => NODE_BUFFER.from(b.buffer, b.byteOffset, b.byteLength).toString("latin1")
  : (b) => ASCII.decode(b);

/**
 * A math value of class `cls` from `count` components of `nums` at `at`, passed one by one: a
 * view of the array and its spread would cost more than the value itself.
 */
function mathFrom(cls, nums, at, count) {
  switch (count) {
    case 2: return new cls(nums[at], nums[at + 1]);
    case 3: return new cls(nums[at], nums[at + 1], nums[at + 2]);
    case 4: return new cls(nums[at], nums[at + 1], nums[at + 2], nums[at + 3]);
    default: {
      const c = new Array(count);
      for (let k = 0; k < count; k++) c[k] = nums[at + k];
      return new cls(...c);
    }
  }
}

/** Units of a table of long strings made into one string at least. */
const PIECE = 32768;

/**
 * The strings of a table of long strings, `units` long, made by `make(start, end)`: each a slice
 * of a piece of about PIECE units made from where it starts. A string of megabytes lives in V8's
 * large-object space; made on every decode of `unicode_strings`, it cost a third more time in
 * spells of several decodes (Node.js 20), which pieces of the ordinary heap do not. The short
 * strings have their own tables, each made into one string (`build`): many short strings are
 * sliced faster from one string than from many pieces.
 */
function longStrings(make, units) {
  let start = 0;
  let end = 0;
  let piece = "";
  return (at, len) => {
    if (at < start || at + len > end) {
      start = at;
      end = Math.min(units, at + Math.max(len, PIECE));
      piece = make(start, end);
    }
    return piece.slice(at - start, at - start + len);
  };
}

/**
 * The value a tape describes: `ops`, `nums`, `ints`, `ascii`, `utf16`, `objs`, `longAscii`,
 * `longUtf16` (src/to_js.rs). All but `objs` are views of the module's memory: read here, before
 * the module is called again.
 */
export function build([ops, nums, ints, asciiBytes, utf16Units, objs, longAsciiBytes, longUtf16Units]) {
  // Each table of short strings made in one call, its strings sliced from it.
  const ascii = asciiBytes.length ? fromAscii(asciiBytes) : "";
  const utf16 = utf16Units.length ? fromUtf16(utf16Units) : "";
  const longAscii = longStrings((s, e) => fromAscii(longAsciiBytes.subarray(s, e)), longAsciiBytes.length);
  const longUtf16 = longStrings((s, e) => fromUtf16(longUtf16Units.subarray(s, e)), longUtf16Units.length);
  let o = 0;
  let n = 0;
  let i = 0;
  // Where the next string of each table starts: ascii, utf16, long ascii, long utf16.
  let t = 0;
  let u = 0;
  let lt = 0;
  let lu = 0;
  // Dictionary keys the tape writes once (op 27) and names again by index (op 28).
  const kept = [];
  const string = () => {
    switch (ops[o++]) {
      case 6: {
        const len = ops[o++];
        t += len;
        return ascii.slice(t - len, t);
      }
      case 26: {
        const len = ops[o++];
        u += len;
        return utf16.slice(u - len, u);
      }
      default:
        return rareString(ops[o - 1]);
    }
  };
  // Long strings and code units: apart, so that `string` stays small enough to be inlined.
  const rareString = (op) => {
    const len = ops[o++];
    switch (op) {
      case 29:
        lt += len;
        return longAscii(lt - len, len);
      case 30:
        lu += len;
        return longUtf16(lu - len, len);
      default: {
        const units = Array.from(ops.subarray(o, o + len));
        o += len;
        return new CodeUnits(units);
      }
    }
  };
  const strings = (count) => {
    const out = new Array(count);
    for (let k = 0; k < count; k++) out[k] = string();
    return out;
  };
  const containerType = () => {
    if (ops[o++] === 22) return null;
    const kind = string();
    return new ContainerType(kind, string());
  };
  const entries = (count) => {
    const pairs = new Array(count);
    for (let k = 0; k < count; k++) pairs[k] = [value(), value()];
    return pairs;
  };
  const value = () => {
    switch (ops[o++]) {
      case 0: return null;
      case 1: return true;
      case 2: return false;
      case 3: return ints[i++];
      case 4: return nums[n++];
      case 5: return new FloatBits(BigInt.asUintN(64, ints[i++]), ops[o++]);
      case 6:
      case 7:
      case 26:
      case 29:
      case 30:
        o--;
        return string();
      case 8: return new StringName(string());
      case 9: {
        const cls = MATH_BY_INDEX[ops[o++]];
        const count = ops[o++];
        const v = mathFrom(cls, nums, n, count);
        n += count;
        return v;
      }
      case 10: {
        const cls = MATH_BY_INDEX[ops[o++]];
        const count = ops[o++];
        const c = new Array(count);
        for (let k = 0; k < count; k++) c[k] = value();
        return new cls(...c);
      }
      case 11: {
        const names = ops[o++];
        const subnames = ops[o++];
        const absolute = ops[o++] === 1;
        return new NodePath(strings(names), strings(subnames), absolute);
      }
      case 12: return new RID(BigInt.asUintN(64, ints[i++]));
      case 13: return new NullObject();
      case 14: return new ObjectID(BigInt.asUintN(64, ints[i++]));
      case 15: {
        const count = ops[o++];
        const className = string();
        const properties = new Array(count);
        for (let k = 0; k < count; k++) properties[k] = [string(), value()];
        return new GodotObject(className, properties);
      }
      case 16: return new Callable();
      case 17: {
        const name = string();
        return new Signal(name, BigInt.asUintN(64, ints[i++]));
      }
      case 18: {
        const count = ops[o++];
        const items = new Array(count);
        for (let k = 0; k < count; k++) items[k] = value();
        return items;
      }
      case 19: {
        const count = ops[o++];
        const type = containerType();
        const items = new Array(count);
        for (let k = 0; k < count; k++) items[k] = value();
        return new TypedArray(type, items);
      }
      case 20: {
        const count = ops[o++];
        const map = new Map();
        const start = o;
        const n0 = n, i0 = i, t0 = t, u0 = u, lt0 = lt, lu0 = lu, k0 = kept.length;
        for (let k = 0; k < count; k++) map.set(value(), value());
        if (map.size === count) return map;
        // Keys a Map holds as one: read the entries again as pairs.
        o = start, n = n0, i = i0, t = t0, u = u0, lt = lt0, lu = lu0;
        kept.length = k0;
        return new Dictionary(entries(count));
      }
      case 21: {
        const count = ops[o++];
        const keyType = containerType();
        const valueType = containerType();
        return new Dictionary(entries(count), keyType, valueType);
      }
      case 24: return objs[ops[o++]];
      case 25: return new PackedStringArray(strings(ops[o++]));
      case 27: {
        const v = value();
        kept.push(v);
        return v;
      }
      case 28: return kept[ops[o++]];
      default:
        throw new Error(`gdmarshal: op ${ops[o - 1]} at ${o - 1} of the tape is unknown`);
    }
  };
  return value();
}

// ---- called by the module while encoding ----

// What a value is, as one number: the module's `Kind` (src/from_js.rs) says the same.
const KINDS = new Map([
  [StringName, 20], [CodeUnits, 21], [NodePath, 22], [RID, 23], [GodotObject, 24],
  [ObjectID, 25], [NullObject, 26], [Callable, 27], [Signal, 28], [TypedArray, 29],
  [Dictionary, 30], [PackedStringArray, 31], [FloatBits, 36], [PackedVector2Array, 32], [PackedVector3Array, 33],
  [PackedVector4Array, 34], [PackedColorArray, 35],
  [Uint8Array, 40], [Int32Array, 41], [BigInt64Array, 42], [Float32Array, 43], [Float64Array, 44],
  [Map, 50],
]);

/** A lone surrogate: a high one not followed by a low one, or a low one not after a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a string holds no lone surrogate (`isWellFormed` where the engine has it: Node.js 20). */
export const isWellFormedString =
  typeof String.prototype.isWellFormed === "function"
    ? (s) => s.isWellFormed()
    : (s) => !LONE_SURROGATE.test(s);

export function kindOf(v) {
  switch (typeof v) {
    case "boolean":
      return 1;
    case "bigint":
      return BigInt.asIntN(64, v) === v ? 2 : 7;
    case "number":
      return 3;
    case "string":
      return 4;
    case "object": {
      if (v === null) return 0;
      if (Array.isArray(v)) return 5;
      const proto = Object.getPrototypeOf(v);
      if (proto === Object.prototype || proto === null) return 6;
      const ctor = proto.constructor;
      const math = MATH_INDEX.get(ctor);
      if (math !== undefined) return 100 + math;
      return KINDS.get(ctor) ?? 255;
    }
    default:
      return v === undefined ? 254 : 255;
  }
}

/** A number as it is (the module takes it as an f64). */
export const numberOf = (v) => v;
/** A BigInt in the 64-bit range as it is (the module takes it as an i64). */
export const int64Of = (v) => v;

/**
 * The components of a math value, into `out` (a view of the module's memory). A FloatBits
 * component is written as its bits, an f32's widened as the module narrows them back
 * (`gdmarshal::float::widen`), so that no NaN passes through a number.
 */
export function mathComponents(v, out) {
  const fields = v.constructor.fields;
  const bits = new DataView(out.buffer, out.byteOffset, out.byteLength);
  for (let i = 0; i < fields.length; i++) {
    const x = v[fields[i]];
    if (x instanceof FloatBits) bits.setBigUint64(8 * i, wideBits(x), true);
    else out[i] = Number(x);
  }
}

const scratch = new DataView(new ArrayBuffer(8));
/** A FloatBits as the bits of an f64. */
export function wideBits(x) {
  if (x.width === 64) return BigInt.asUintN(64, x.bits);
  const b = Number(BigInt.asUintN(32, x.bits));
  if ((b & 0x7f800000) === 0x7f800000 && b & 0x7fffff) {
    return (BigInt(b >>> 31) << 63n) | 0x7ff0000000000000n | (BigInt(b & 0x7fffff) << 29n);
  }
  scratch.setUint32(0, b);
  scratch.setFloat64(0, scratch.getFloat32(0));
  return scratch.getBigUint64(0);
}

/** A Map's or a plain object's entries, flat: [k0, v0, k1, v1, …]. */
export function entriesOf(v) {
  const flat = [];
  if (v instanceof Map) {
    for (const [k, x] of v) flat.push(k, x);
  } else {
    for (const k of Object.keys(v)) flat.push(k, v[k]);
  }
  return flat;
}

/** A value's kind for a message: its class's name or its typeof. */
export function describe(v) {
  if (v === null) return "null";
  if (typeof v === "object") return v.constructor?.name ?? "object";
  return typeof v;
}
