// The adapter of the npm package @gd-com/utils (any version with getVar / putVar and the Godot*
// classes), run in a folder where it is installed. It maps the package's values to tagged JSON
// as the package itself types them when it encodes: a whole number is an int and any other
// number a float, a plain object a Dictionary (its keys are strings), a plain array an Array, a
// Buffer a PackedByteArray; its Godot* classes are the math types they name.
import { installed, minors, serve, Skip, floatToken, tokenValue, intValue, text, plainTagged, plainValue } from "./protocol.mjs";

const { lib, version } = installed("@gd-com/utils");
const { TYPE } = lib;

// Each class's fields in the order its constructor takes them (the order it reads the wire).
const CLASSES = {
  GodotVector2: ["Vector2", ["x", "y"]],
  GodotVector3: ["Vector3", ["x", "y", "z"]],
  GodotRect2: ["Rect2", ["coordinate", "size"]],
  GodotTransform2D: ["Transform2D", ["x", "y", "origin"]],
  GodotPlane: ["Plane", ["x", "y", "z", "distance"]],
  GodotQuat: ["Quaternion", ["x", "y", "z", "w"]],
  GodotAabb: ["AABB", ["coordinate", "size"]],
  GodotBasis: ["Basis", ["x", "y", "z"]],
  GodotTransform: ["Transform3D", ["x", "y", "z", "origin"]],
  GodotColor: ["Color", ["r", "g", "b", "a"]],
};

function components(value, fields) {
  return fields.flatMap((f) => {
    const c = value[f];
    if (typeof c === "number") return [floatToken(c)];
    const inner = CLASSES[c && c.constructor && c.constructor.name];
    if (!inner) throw new Skip(`a ${value.constructor.name} field ${f} the adapter cannot read`);
    return components(c, inner[1]);
  });
}

function toTagged(v) {
  const plain = plainTagged(v, toTagged);
  if (plain) return plain;
  if (Buffer.isBuffer(v)) return { type: "PackedByteArray", value: v.toString("hex") };
  const name = v.constructor && v.constructor.name;
  if (name === "Long") return { type: "int", value: v.toString() };
  if (CLASSES[name]) return { type: CLASSES[name][0], value: components(v, CLASSES[name][1]) };
  throw new Skip(`a decoded ${name} the adapter cannot map`);
}

// Tagged types the package has a class or a TYPE for, with what builds its value.
const classOf = (type) => Object.values(lib).find((c) => typeof c === "function" && CLASSES[c.name]?.[0] === type);

function build(type, numbers) {
  const ctor = classOf(type);
  if (!ctor) throw new Skip(`the package has no class for ${type}`);
  const fields = CLASSES[ctor.name][1];
  const vec = (cls, n) => new (classOf(cls))(...numbers.splice(0, n));
  const args = fields.map((f) => {
    if (["coordinate", "size"].includes(f)) return vec(type === "Rect2" ? "Vector2" : "Vector3", type === "Rect2" ? 2 : 3);
    if (type === "Transform2D") return vec("Vector2", 2);
    if (type === "Basis" || type === "Transform3D") return vec("Vector3", 3);
    return numbers.shift();
  });
  return new ctor(...args);
}

// The package's TYPE for a tagged type, given for the top-level value (nested ones it infers:
// its API has no way to type them).
const TYPE_OF = {
  Nil: "NULL", bool: "BOOL", int: "INTEGER", float: "FLOAT", String: "STRING", Dictionary: "DICTIONARY",
  Array: "ARRAY", PackedByteArray: "RAW_ARRAY", Vector2: "VECTOR2", Rect2: "RECT2", Vector3: "VECTOR3", Transform2D: "TRANSFORM2D", Plane: "PLANE",
  Quaternion: "QUAT", AABB: "AABB", Basis: "BASIS", Transform3D: "TRANSFORM", Color: "COLOR",
  PackedInt32Array: ["INT_32_ARRAY", "INT_ARRAY"], PackedInt64Array: "INT_64_ARRAY",
  PackedFloat32Array: ["FLOAT_32_ARRAY", "REAL_ARRAY"], PackedFloat64Array: "FLOAT_64_ARRAY",
  PackedStringArray: "STRING_ARRAY", PackedVector2Array: "VECTOR2_ARRAY",
  PackedVector3Array: "VECTOR3_ARRAY", PackedColorArray: "COLOR_ARRAY",
};

function typeHint(type) {
  const names = [TYPE_OF[type]].flat().filter(Boolean);
  const found = names.map((n) => TYPE[n]).find((t) => t !== undefined);
  if (names.length && found === undefined) throw new Skip(`the package has no TYPE for ${type}`);
  return found;
}

function fromTagged(node) {
  const plain = plainValue(node, fromTagged);
  if (plain !== undefined) return plain;
  const v = node.value;
  switch (node.type) {
    case "PackedByteArray": return Buffer.from(v, "hex");
    case "PackedInt32Array": case "PackedFloat32Array": case "PackedFloat64Array":
      return v.map((x) => (typeof x === "number" ? x : tokenValue(x)));
    case "PackedInt64Array": return v.map(intValue);
    case "PackedStringArray": return v.map(text);
    case "PackedVector2Array": case "PackedVector3Array": case "PackedColorArray": {
      const cls = { PackedVector2Array: "Vector2", PackedVector3Array: "Vector3", PackedColorArray: "Color" }[node.type];
      return v.map((c) => build(cls, c.map(tokenValue)));
    }
    default:
      if (Array.isArray(v) && classOf(node.type)) return build(node.type, v.map(tokenValue));
      throw new Skip(`the package has no value for ${node.type}`);
  }
}

const major = version.split(".")[0] >= 5 ? 4 : 3;
serve({
  hello: {
    name: `@gd-com/utils ${version}`,
    // README: 5.x "Godot 4.0 or greater"; 4.x "Godot 3.0 or greater" (and points 3 users there).
    versions: minors(major),
    capabilities: ["decode", "encode", "reencode"],
    // README: the types of the binary serialization API but RID and Object.
    types: [
      "Nil", "bool", "int", "float", "String", "Vector2", "Rect2", "Vector3", "Transform2D", "Plane",
      "Quaternion", "AABB", "Basis", "Transform3D", "Color", "NodePath", "Dictionary", "Array",
      "PackedByteArray", "PackedInt32Array", "PackedFloat32Array", "PackedStringArray",
      "PackedVector2Array", "PackedVector3Array", "PackedColorArray",
      ...(major === 4 ? ["PackedInt64Array", "PackedFloat64Array"] : []),
    ],
  },
  decode(bytes) {
    const { value, length } = lib.getVar(bytes);
    return { value: toTagged(value), consumed: length };
  },
  encode(node) {
    return lib.putVar(fromTagged(node), typeHint(node.type));
  },
});
