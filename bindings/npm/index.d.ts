// Type declarations of the npm package gdmarshal (bindings/npm); README.md documents the values.

/** A JavaScript value with a Godot form (README.md, "Values"). */
export type Value = any;
/** The Godot version ("4.6", "3.2", "4", "4.6-double"), framing and objects options. */
export interface Options {
  godot: string;
  framing?: "none" | "store-var" | "stream" | "packet";
  objects?: boolean;
}
/** Bytes to read. */
export type Bytes = Uint8Array | ArrayBuffer | ArrayBufferView;

/** The value at the start of data; bytes after it are ignored, as the engine ignores them. */
export declare function decode(data: Bytes, opts: Options): Value;
/** [value, consumed]: also the bytes the engine counts as read. */
export declare function decodePrefix(data: Bytes, opts: Options): [Value, number];
/** The bytes var_to_bytes writes for value. */
export declare function encode(value: Value, opts: Options): Uint8Array;
/** A field of the input. */
export interface Row {
  offset: number;
  bytes: Uint8Array;
  path: string;
  field: string;
  meaning: string;
}
/** Every field the decoder reads, and where decoding stopped. */
export declare function inspect(data: Bytes, opts: Options): { rows: Row[]; consumed: number | null; error: DecodeError | null };
/** The version of the codec inside. */
export declare const version: string;

export declare class DecodeError extends Error {
  constructor(message: string, offset: number, kind: string);
  offset: number;
  kind: string;
}
export declare class EncodeError extends Error {
  constructor(message: string, path: string);
  path: string;
}
export declare class FloatBits {
  constructor(bits: bigint | number, width?: 32 | 64);
  bits: bigint;
  width: 32 | 64;
}
export declare class StringName {
  constructor(value: string);
  value: string;
}
export declare class CodeUnits {
  constructor(units: Iterable<number>);
  units: number[];
}
export declare class NodePath {
  constructor(names?: (string | CodeUnits)[], subnames?: (string | CodeUnits)[], absolute?: boolean);
  names: (string | CodeUnits)[];
  subnames: (string | CodeUnits)[];
  absolute: boolean;
}
export declare class RID {
  constructor(id: bigint | number);
  id: bigint;
}
export declare class GodotObject {
  constructor(className: string, properties?: [string, Value][]);
  className: string;
  properties: [string, Value][];
}
export declare class ObjectID {
  constructor(id: bigint | number);
  id: bigint;
}
export declare class NullObject {}
export declare class Callable {}
export declare class Signal {
  constructor(name: string, objectId: bigint | number);
  name: string;
  objectId: bigint;
}
export declare class ContainerType {
  constructor(kind: "builtin" | "class" | "script", name: string);
  kind: "builtin" | "class" | "script";
  name: string;
}
export declare class TypedArray {
  constructor(elementType: ContainerType, items?: Value[]);
  elementType: ContainerType;
  items: Value[];
}
export declare class Dictionary {
  constructor(entries?: [Value, Value][], keyType?: ContainerType | null, valueType?: ContainerType | null);
  entries: [Value, Value][];
  keyType: ContainerType | null;
  valueType: ContainerType | null;
}
export declare class PackedStringArray {
  constructor(items?: (string | CodeUnits)[]);
  items: (string | CodeUnits)[];
}
export declare class PackedVector2Array {
  constructor(data: Float32Array | Float64Array);
  data: Float32Array | Float64Array;
  readonly length: number;
}
export declare class PackedVector3Array {
  constructor(data: Float32Array | Float64Array);
  data: Float32Array | Float64Array;
  readonly length: number;
}
export declare class PackedVector4Array {
  constructor(data: Float32Array | Float64Array);
  data: Float32Array | Float64Array;
  readonly length: number;
}
export declare class PackedColorArray {
  constructor(data: Float32Array);
  data: Float32Array;
  readonly length: number;
}
export declare class AABB {
  constructor(position_x?: number | FloatBits, position_y?: number | FloatBits, position_z?: number | FloatBits, size_x?: number | FloatBits, size_y?: number | FloatBits, size_z?: number | FloatBits);
  position_x: number | FloatBits;
  position_y: number | FloatBits;
  position_z: number | FloatBits;
  size_x: number | FloatBits;
  size_y: number | FloatBits;
  size_z: number | FloatBits;
}
export declare class Basis {
  constructor(x_x?: number | FloatBits, y_x?: number | FloatBits, z_x?: number | FloatBits, x_y?: number | FloatBits, y_y?: number | FloatBits, z_y?: number | FloatBits, x_z?: number | FloatBits, y_z?: number | FloatBits, z_z?: number | FloatBits);
  x_x: number | FloatBits;
  y_x: number | FloatBits;
  z_x: number | FloatBits;
  x_y: number | FloatBits;
  y_y: number | FloatBits;
  z_y: number | FloatBits;
  x_z: number | FloatBits;
  y_z: number | FloatBits;
  z_z: number | FloatBits;
}
export declare class Color {
  constructor(r?: number | FloatBits, g?: number | FloatBits, b?: number | FloatBits, a?: number | FloatBits);
  r: number | FloatBits;
  g: number | FloatBits;
  b: number | FloatBits;
  a: number | FloatBits;
}
export declare class Plane {
  constructor(normal_x?: number | FloatBits, normal_y?: number | FloatBits, normal_z?: number | FloatBits, d?: number | FloatBits);
  normal_x: number | FloatBits;
  normal_y: number | FloatBits;
  normal_z: number | FloatBits;
  d: number | FloatBits;
}
export declare class Projection {
  constructor(x_x?: number | FloatBits, x_y?: number | FloatBits, x_z?: number | FloatBits, x_w?: number | FloatBits, y_x?: number | FloatBits, y_y?: number | FloatBits, y_z?: number | FloatBits, y_w?: number | FloatBits, z_x?: number | FloatBits, z_y?: number | FloatBits, z_z?: number | FloatBits, z_w?: number | FloatBits, w_x?: number | FloatBits, w_y?: number | FloatBits, w_z?: number | FloatBits, w_w?: number | FloatBits);
  x_x: number | FloatBits;
  x_y: number | FloatBits;
  x_z: number | FloatBits;
  x_w: number | FloatBits;
  y_x: number | FloatBits;
  y_y: number | FloatBits;
  y_z: number | FloatBits;
  y_w: number | FloatBits;
  z_x: number | FloatBits;
  z_y: number | FloatBits;
  z_z: number | FloatBits;
  z_w: number | FloatBits;
  w_x: number | FloatBits;
  w_y: number | FloatBits;
  w_z: number | FloatBits;
  w_w: number | FloatBits;
}
export declare class Quaternion {
  constructor(x?: number | FloatBits, y?: number | FloatBits, z?: number | FloatBits, w?: number | FloatBits);
  x: number | FloatBits;
  y: number | FloatBits;
  z: number | FloatBits;
  w: number | FloatBits;
}
export declare class Rect2 {
  constructor(position_x?: number | FloatBits, position_y?: number | FloatBits, size_x?: number | FloatBits, size_y?: number | FloatBits);
  position_x: number | FloatBits;
  position_y: number | FloatBits;
  size_x: number | FloatBits;
  size_y: number | FloatBits;
}
export declare class Rect2i {
  constructor(position_x?: number, position_y?: number, size_x?: number, size_y?: number);
  position_x: number;
  position_y: number;
  size_x: number;
  size_y: number;
}
export declare class Transform2D {
  constructor(x_x?: number | FloatBits, x_y?: number | FloatBits, y_x?: number | FloatBits, y_y?: number | FloatBits, origin_x?: number | FloatBits, origin_y?: number | FloatBits);
  x_x: number | FloatBits;
  x_y: number | FloatBits;
  y_x: number | FloatBits;
  y_y: number | FloatBits;
  origin_x: number | FloatBits;
  origin_y: number | FloatBits;
}
export declare class Transform3D {
  constructor(basis_x_x?: number | FloatBits, basis_y_x?: number | FloatBits, basis_z_x?: number | FloatBits, basis_x_y?: number | FloatBits, basis_y_y?: number | FloatBits, basis_z_y?: number | FloatBits, basis_x_z?: number | FloatBits, basis_y_z?: number | FloatBits, basis_z_z?: number | FloatBits, origin_x?: number | FloatBits, origin_y?: number | FloatBits, origin_z?: number | FloatBits);
  basis_x_x: number | FloatBits;
  basis_y_x: number | FloatBits;
  basis_z_x: number | FloatBits;
  basis_x_y: number | FloatBits;
  basis_y_y: number | FloatBits;
  basis_z_y: number | FloatBits;
  basis_x_z: number | FloatBits;
  basis_y_z: number | FloatBits;
  basis_z_z: number | FloatBits;
  origin_x: number | FloatBits;
  origin_y: number | FloatBits;
  origin_z: number | FloatBits;
}
export declare class Vector2 {
  constructor(x?: number | FloatBits, y?: number | FloatBits);
  x: number | FloatBits;
  y: number | FloatBits;
}
export declare class Vector2i {
  constructor(x?: number, y?: number);
  x: number;
  y: number;
}
export declare class Vector3 {
  constructor(x?: number | FloatBits, y?: number | FloatBits, z?: number | FloatBits);
  x: number | FloatBits;
  y: number | FloatBits;
  z: number | FloatBits;
}
export declare class Vector3i {
  constructor(x?: number, y?: number, z?: number);
  x: number;
  y: number;
  z: number;
}
export declare class Vector4 {
  constructor(x?: number | FloatBits, y?: number | FloatBits, z?: number | FloatBits, w?: number | FloatBits);
  x: number | FloatBits;
  y: number | FloatBits;
  z: number | FloatBits;
  w: number | FloatBits;
}
export declare class Vector4i {
  constructor(x?: number, y?: number, z?: number, w?: number);
  x: number;
  y: number;
  z: number;
  w: number;
}
