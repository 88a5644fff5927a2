// gdmarshal: Godot's binary Variant format, as real engines write and read it. The codec is
// gdmarshal's, compiled to WebAssembly (embedded, so that the package loads the same way in
// Node.js, browsers and bundlers, with no file to fetch). README.md documents the values.
import {
  codecVersion,
  decodePrefix as rawDecodePrefix,
  encode as rawEncode,
  initSync,
  inspect as rawInspect,
  layouts,
} from "./gdmarshal_wasm.js";
import { WASM_BASE64 } from "./gdmarshal_wasm_base64.js";
import { build, defineMathTypes } from "./values.js";

export {
  AABB,
  Basis,
  Callable,
  CodeUnits,
  Color,
  ContainerType,
  DecodeError,
  Dictionary,
  EncodeError,
  FloatBits,
  GodotObject,
  NodePath,
  NullObject,
  ObjectID,
  PackedColorArray,
  PackedStringArray,
  PackedVector2Array,
  PackedVector3Array,
  PackedVector4Array,
  Plane,
  Projection,
  Quaternion,
  RID,
  Rect2,
  Rect2i,
  Signal,
  StringName,
  Transform2D,
  Transform3D,
  TypedArray,
  Vector2,
  Vector2i,
  Vector3,
  Vector3i,
  Vector4,
  Vector4i,
} from "./values.js";

function fromBase64(text) {
  const raw = atob(text);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

initSync({ module: fromBase64(WASM_BASE64) });
defineMathTypes(layouts());

/** The version of the codec inside. */
export const version = codecVersion();

function options(opts, name) {
  if (opts === null || typeof opts !== "object" || typeof opts.godot !== "string") {
    throw new TypeError(`${name}: give the Godot version, e.g. { godot: "4.6" }`);
  }
  return [opts.godot, opts.framing ?? undefined, Boolean(opts.objects)];
}

function bytesOf(data, name) {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw new TypeError(`${name}: expected a Uint8Array, an ArrayBuffer or a view of one`);
}

/**
 * The value at the start of `data`, as `bytes_to_var` of Godot `opts.godot` reads it; bytes after
 * it are ignored, as the engine ignores them. Throws DecodeError.
 */
export function decode(data, opts) {
  return build(rawDecodePrefix(bytesOf(data, "decode"), ...options(opts, "decode"))[0]);
}

/** `[value, consumed]`: also the bytes the engine counts as read (the framing's length included). */
export function decodePrefix(data, opts) {
  const [tape, consumed] = rawDecodePrefix(bytesOf(data, "decodePrefix"), ...options(opts, "decodePrefix"));
  return [build(tape), consumed];
}

/** The bytes `var_to_bytes` of Godot `opts.godot` writes for `value`. Throws EncodeError. */
export function encode(value, opts) {
  return rawEncode(value, ...options(opts, "encode"));
}

/**
 * Every field the decoder reads: `{ rows, consumed, error }`, each row
 * `{ offset, bytes, path, field, meaning }`, `error` the DecodeError where decoding stopped.
 */
export function inspect(data, opts) {
  const [rows, consumed, error] = rawInspect(bytesOf(data, "inspect"), ...options(opts, "inspect"));
  return {
    rows: rows.map(([offset, bytes, path, field, meaning]) => ({ offset, bytes, path, field, meaning })),
    consumed,
    error,
  };
}
