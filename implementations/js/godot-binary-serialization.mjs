// The adapter of the npm package godot-binary-serialization (PacketPeer.get_var / put_var: bare
// Variant bytes, no length prefix), run in a folder where it is installed. Its values: numbers,
// typed by the package as it encodes them (a whole number is an int, any other number a float),
// strings, arrays (Array), plain objects (Dictionary, string keys), and its classes Vector2 …
// Transform (components in wire order: their `args`), Color and NodePath.
import { installed, minors, serve, Skip, floatToken, tokenValue, text, plainTagged, plainValue } from "./protocol.mjs";

const { lib, version } = installed("godot-binary-serialization");
const { PacketPeer } = lib;
const CLASSES = { ...lib.math, ...lib.misc };
const NAMES = { Quat: "Quaternion", Transform: "Transform3D" };
const CLASS_OF = Object.fromEntries(Object.keys(CLASSES).map((c) => [NAMES[c] || c, c]));

function toTagged(v) {
  const plain = plainTagged(v, toTagged);
  if (plain) return plain;
  const name = v.constructor && v.constructor.name;
  if (name === "NodePath") {
    return { type: "NodePath", names: [...v._name], subnames: [...v._subname], absolute: v._absolute };
  }
  if (CLASSES[name]) return { type: NAMES[name] || name, value: v.args.map(floatToken) };
  throw new Skip(`a decoded ${name} the adapter cannot map`);
}

function fromTagged(node) {
  const plain = plainValue(node, fromTagged);
  if (plain !== undefined) return plain;
  const v = node.value;
  switch (node.type) {
    case "NodePath": {
      const names = node.names.map(text);
      const subnames = node.subnames.map(text);
      if ([...names, ...subnames].some((n) => /[/:]/.test(n) || n === "")) {
        throw new Skip("names the package's path text cannot hold");
      }
      const path = (node.absolute ? "/" : "") + names.join("/") + subnames.map((s) => ":" + s).join("");
      return new CLASSES.NodePath(path);
    }
    default: {
      const cls = CLASSES[CLASS_OF[node.type]];
      if (!cls || !Array.isArray(v)) throw new Skip(`the package has no value for ${node.type}`);
      return cls.from(v.map(tokenValue));
    }
  }
}

serve({
  hello: {
    name: `godot-binary-serialization ${version} (npm)`,
    // README: "Godot version 3.0", the 3.x binary serialization page.
    versions: minors(3),
    capabilities: ["decode", "encode", "reencode"],
    // README, "Already Supported" (Nil is not listed).
    types: [
      "bool", "int", "float", "String", "AABB", "Basis", "Plane", "Quaternion", "Rect2", "Transform2D",
      "Transform3D", "Vector2", "Vector3", "Color", "NodePath", "Dictionary", "Array",
    ],
  },
  decode(bytes) {
    return { value: toTagged(PacketPeer.get_var(bytes)) };
  },
  encode(node) {
    return PacketPeer.put_var(fromTagged(node));
  },
});
