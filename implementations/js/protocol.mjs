// The testee protocol (docs/conformance.md) for the JavaScript adapters: one JSON request per
// line on stdin, one answer per line on stdout. An adapter only maps its library's values to
// tagged JSON (docs/tagged-json.md) and back; what the library's API cannot hold it answers with
// Skip, never with a guess.
import readline from "node:readline";
import { createRequire } from "node:module";
import path from "node:path";

/** Thrown where the library's API cannot express the value: the case is answered "skipped". */
export class Skip extends Error {}

/**
 * The library as installed in the adapter's folder (the current folder: each version's folder
 * has its own package.json and node_modules), and its version.
 */
export function installed(name) {
  const require = createRequire(path.join(process.cwd(), "package.json"));
  return { lib: require(name), version: require(`${name}/package.json`).version };
}

/** Godot's minor versions `major.0` to `major.9`: how a handshake says "Godot N.x, single precision". */
export function minors(major) {
  return Array.from({ length: 10 }, (_, i) => `${major}.${i}`);
}

/**
 * Serves requests until stdin ends. `decode(bytes, request)` returns `{ value, consumed? }`,
 * `encode(node, request)` returns the bytes; an exception other than Skip is the library's
 * refusal, answered with its message.
 */
export function serve({ hello, decode, encode }) {
  const answer = (request) => {
    if (request.op === "hello") return { protocol: 1, ...hello };
    const id = request.id;
    try {
      if (request.op === "decode") {
        const { value, consumed } = decode(Buffer.from(request.input, "hex"), request);
        return consumed === undefined ? { id, ok: true, value } : { id, ok: true, value, consumed };
      }
      if (request.op === "encode") {
        return { id, ok: true, output: Buffer.from(encode(request.value, request)).toString("hex") };
      }
      return { id, ok: false, error: `unknown op ${request.op}` };
    } catch (e) {
      if (e instanceof Skip) return { id, skipped: e.message };
      return { id, ok: false, error: String((e && e.message) || e).split("\n")[0] };
    }
  };
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on("line", (line) => {
    if (!line.trim()) return;
    const ok = process.stdout.write(JSON.stringify(answer(JSON.parse(line))) + "\n");
    if (!ok) {
      lines.pause();
      process.stdout.once("drain", () => lines.resume());
    }
  });
}

// ---- numbers as tagged JSON tokens ----

const scratch = new DataView(new ArrayBuffer(8));

/** A JavaScript number as a float token: exact for any f64, and so for any f32 it holds. */
export function floatToken(x) {
  if (Number.isNaN(x)) return "nan";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  if (Object.is(x, -0)) return "-0";
  return String(x);
}

/** A float token's value as a JavaScript number (the bits of a `0x` token of either width). */
export function tokenValue(token) {
  if (token.startsWith("0x")) {
    if (token.length > 10) {
      scratch.setBigUint64(0, BigInt(token));
      return scratch.getFloat64(0);
    }
    scratch.setUint32(0, Number(BigInt(token)));
    return scratch.getFloat32(0);
  }
  if (token === "nan") return NaN;
  return token === "inf" ? Infinity : token === "-inf" ? -Infinity : Number(token);
}

/** A tagged `int` node's value as a JavaScript number, or Skip when a number cannot hold it. */
export function intValue(text) {
  const n = BigInt(text);
  if (n > BigInt(Number.MAX_SAFE_INTEGER) || n < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new Skip(`the int ${text} does not fit in a JavaScript number`);
  }
  return Number(n);
}

/** A tagged string (plain, or `code_units`) as JavaScript text, or Skip for units text cannot hold. */
export function text(s) {
  if (typeof s === "string") return s;
  throw new Skip("strings of code units that are not Unicode text");
}

// ---- the values both JavaScript libraries hold as plain JavaScript values ----

/**
 * A decoded plain value as tagged JSON, typed as the libraries type it when they encode (a whole
 * number is an int, any other number a float; a plain object is a Dictionary of string keys), or
 * undefined when `v` is none of these; `toTagged` maps what it holds.
 */
export function plainTagged(v, toTagged) {
  if (v === null || v === undefined) return { type: "Nil" };
  if (typeof v === "boolean") return { type: "bool", value: v };
  if (typeof v === "number") {
    return Number.isInteger(v) && !Object.is(v, -0)
      ? { type: "int", value: String(v) }
      : { type: "float", value: floatToken(v) };
  }
  if (typeof v === "string") return { type: "String", value: v };
  if (Array.isArray(v)) return { type: "Array", value: v.map(toTagged) };
  if (v.constructor === Object) {
    return {
      type: "Dictionary",
      value: Object.entries(v).map(([k, x]) => [{ type: "String", value: k }, toTagged(x)]),
    };
  }
  return undefined;
}

/** The plain value of a tagged node (see plainTagged), or undefined for other types. */
export function plainValue(node, fromTagged) {
  const v = node.value;
  switch (node.type) {
    case "Nil": return null;
    case "bool": return v;
    case "int": return intValue(v);
    case "float": return tokenValue(v);
    case "String": return text(v);
    case "Array":
      if (node.element_type) throw new Skip("typed arrays");
      return v.map(fromTagged);
    case "Dictionary": {
      if (node.key_type || node.value_type) throw new Skip("typed dictionaries");
      const out = {};
      for (const [k, x] of v) {
        if (k.type !== "String") throw new Skip("the package's dictionaries take string keys only");
        if (Object.hasOwn(out, text(k.value))) throw new Skip("repeated keys");
        out[text(k.value)] = fromTagged(x);
      }
      return out;
    }
    default: return undefined;
  }
}
