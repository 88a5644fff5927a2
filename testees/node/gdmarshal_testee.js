#!/usr/bin/env node
// A testee for `gdmarshal conform` in Node.js, with nothing but Node (docs/conformance.md).
//
// It implements part of Godot's binary Variant format (Nil, bool, int, float, String, Vector2,
// Array, Dictionary, PackedByteArray; Godot 3.x and 4.x) and the testee protocol: one JSON
// object per line on stdin, one answer per line on stdout. What it does not handle it answers
// with "skipped", never with a guess. To wrap your own library, replace decodeValue and
// encodeValue (or call your library from them) and keep the protocol part.
//
//     gdmarshal conform --testee "node testees/node/gdmarshal_testee.js" --godot 4.6
//
// GDMARSHAL_TESTEE_BROKEN=cap-65535 makes it a deliberately broken variant that refuses arrays
// and dictionaries of more than 65,535 elements (a 16-bit count), which the stress cases catch.
//
// This file is licensed under MIT OR Apache-2.0; copy it into your own project and change it freely.
"use strict";

const readline = require("readline");

const FLAG_64 = 1 << 16;
const IDS = {
  3: { Nil: 0, bool: 1, int: 2, float: 3, String: 4, Vector2: 5, Dictionary: 18, Array: 19, PackedByteArray: 20 },
  4: { Nil: 0, bool: 1, int: 2, float: 3, String: 4, Vector2: 5, Dictionary: 27, Array: 28, PackedByteArray: 29 },
};
const VARIANT_MAX = { 3: 27, 4: 39 };
const MAX_DEPTH = 64;
const BROKEN = process.env.GDMARSHAL_TESTEE_BROKEN || "";

class Skip extends Error {}
class Reject extends Error {
  constructor(message, kind) {
    super(message);
    this.kind = kind;
  }
}

// ---- floats as tagged-JSON tokens (exact: bits survive) ----

const scratch = new DataView(new ArrayBuffer(8));

function f64Bits(x) {
  scratch.setFloat64(0, x, true);
  return scratch.getBigUint64(0, true);
}

function f64Token(x) {
  if (Number.isNaN(x)) return "0x" + f64Bits(x).toString(16).padStart(16, "0");
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  if (Object.is(x, -0)) return "-0";
  return String(x); // the shortest decimal that reads back to the same double
}

// A float token's value, whatever its spelling (decimal or 0x bits of an f32 or an f64).
function tokenValue(token) {
  if (token.startsWith("0x")) {
    if (token.length > 10) {
      scratch.setBigUint64(0, BigInt(token), true);
      return scratch.getFloat64(0, true);
    }
    scratch.setUint32(0, Number(BigInt(token)), true);
    return scratch.getFloat32(0, true);
  }
  return token === "inf" ? Infinity : token === "-inf" ? -Infinity : Number(token);
}

// What makes two Dictionary keys one key for the engines: equal values, so 0 and -0 are one
// key; each float is compared by value, not by how it is spelled.
function keyIdentity(v) {
  if (Array.isArray(v)) return v.map(keyIdentity);
  if (v === null || typeof v !== "object") return v;
  if (v.type === "float" || v.type === "Vector2") {
    const tokens = Array.isArray(v.value) ? v.value : [v.value];
    const values = tokens.map(tokenValue).map((x) => (Number.isNaN(x) ? "nan" : x === 0 ? 0 : x));
    return [v.type, ...values];
  }
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, keyIdentity(x)]));
}

function tokenBits(token, width) {
  if (token.startsWith("0x")) return BigInt(token);
  if (token === "nan") return width === 4 ? 0x7fc00000n : 0x7ff8000000000000n;
  const x = token === "inf" ? Infinity : token === "-inf" ? -Infinity : Number(token);
  if (width === 8) return f64Bits(x);
  scratch.setFloat32(0, x, true);
  return BigInt(scratch.getUint32(0, true));
}

// ---- decode ----

class Reader {
  constructor(data) {
    this.data = data;
    this.pos = 0;
  }
  take(n) {
    if (n < 0 || this.pos + n > this.data.length) {
      throw new Reject(`truncated at offset ${this.pos}: ${n} bytes wanted`, "truncated");
    }
    const b = this.data.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }
  u32() {
    return this.take(4).readUInt32LE(0);
  }
  count(what, padding) {
    // A length the bytes left cannot hold (with its padding, for a String) is the engine's
    // "bad count", not a truncation.
    const n = this.u32();
    const pad = padding ? (4 - (n % 4)) % 4 : 0;
    if (n > 0x7fffffff || n + pad > this.data.length - this.pos) {
      throw new Reject(`${what} ${n} does not fit in the ${this.data.length - this.pos} bytes left`, "bad-count");
    }
    return n;
  }
}

function capped(n) {
  if (BROKEN === "cap-65535" && n > 65535) {
    throw new Reject("more than 65,535 elements are not supported", "bad-count");
  }
}

function decodeValue(r, major, depth) {
  if (depth > MAX_DEPTH) throw new Skip(`nesting deeper than ${MAX_DEPTH}`);
  const header = r.u32();
  const typeId = header & 0xff;
  const flags = header >>> 16;
  if (typeId >= VARIANT_MAX[major]) throw new Reject(`unknown type id ${typeId}`, "bad-type");
  const name = Object.keys(IDS[major]).find((k) => IDS[major][k] === typeId);
  if (name === undefined) throw new Skip(`type id ${typeId} is not implemented here`);
  const wide = (header & FLAG_64) !== 0;
  if (header & 0xff00 || flags & ~1 || (wide && name !== "int" && name !== "float")) {
    throw new Skip("header flags are not handled here");
  }
  switch (name) {
    case "Nil":
      return { type: "Nil" };
    case "bool":
      return { type: "bool", value: r.u32() !== 0 };
    case "int":
      return {
        type: "int",
        value: wide ? r.take(8).readBigInt64LE(0).toString() : String(r.take(4).readInt32LE(0)),
      };
    case "float": {
      if (wide) return { type: "float", value: f64Token(r.take(8).readDoubleLE(0)) };
      const x = r.take(4).readFloatLE(0);
      if (Number.isNaN(x)) throw new Skip("f32 NaN widening is not handled here");
      return { type: "float", value: f64Token(x) };
    }
    case "String": {
      const n = r.count("string length", true);
      const raw = r.take(n);
      r.take((4 - (n % 4)) % 4);
      if (raw.includes(0) || (raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf)) {
        throw new Skip("NUL bytes and byte-order marks are not handled here");
      }
      let text;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(raw);
      } catch {
        throw new Skip("invalid UTF-8 is not handled here");
      }
      return { type: "String", value: text };
    }
    case "Vector2": {
      const b = r.take(8);
      const hex = (i) => "0x" + b.readUInt32LE(i).toString(16).padStart(8, "0");
      return { type: "Vector2", value: [hex(0), hex(4)] };
    }
    case "Array": {
      const count = r.u32() & 0x7fffffff;
      capped(count);
      const items = [];
      for (let i = 0; i < count; i++) items.push(decodeValue(r, major, depth + 1));
      return { type: "Array", value: items };
    }
    case "Dictionary": {
      const count = r.u32() & 0x7fffffff;
      capped(count);
      const pairs = [];
      const seen = new Set();
      for (let i = 0; i < count; i++) {
        const k = decodeValue(r, major, depth + 1);
        const v = decodeValue(r, major, depth + 1);
        const key = JSON.stringify(keyIdentity(k));
        if (seen.has(key)) throw new Skip("duplicate dictionary keys are not handled here");
        seen.add(key);
        pairs.push([k, v]);
      }
      return { type: "Dictionary", value: pairs };
    }
    case "PackedByteArray": {
      const n = r.count("byte count", false);
      const raw = r.take(n);
      // The engines do not check that the padding is there, but count it as consumed.
      r.pos += (4 - (n % 4)) % 4;
      return { type: "PackedByteArray", value: Buffer.from(raw).toString("hex") };
    }
  }
  throw new Skip(name);
}

// ---- encode ----

function u32(n) {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0, 0);
  return b;
}

function padded(raw) {
  return [u32(raw.length), raw, Buffer.alloc((4 - (raw.length % 4)) % 4)];
}

function encodeValue(v, major, out, depth) {
  if (depth > MAX_DEPTH) throw new Skip(`nesting deeper than ${MAX_DEPTH}`);
  const name = { PoolByteArray: "PackedByteArray", Real: "float" }[v.type] || v.type;
  if (!(name in IDS[major])) throw new Skip(`type ${name} is not implemented here`);
  const id = IDS[major][name];
  switch (name) {
    case "Nil":
      out.push(u32(id));
      break;
    case "bool":
      out.push(u32(id), u32(v.value ? 1 : 0));
      break;
    case "int": {
      const x = BigInt(v.value);
      if (x >= -(2n ** 31n) && x < 2n ** 31n) {
        const b = Buffer.alloc(4);
        b.writeInt32LE(Number(x), 0);
        out.push(u32(id), b);
      } else {
        const b = Buffer.alloc(8);
        b.writeBigInt64LE(x, 0);
        out.push(u32(id | FLAG_64), b);
      }
      break;
    }
    case "float": {
      const bits = tokenBits(v.value, 8);
      scratch.setBigUint64(0, bits, true);
      const x = scratch.getFloat64(0, true);
      // Godot writes 32 bits when the value survives the round trip through f32.
      if (!Number.isNaN(x) && Math.fround(x) === x) {
        const b = Buffer.alloc(4);
        b.writeFloatLE(x, 0);
        out.push(u32(id), b);
      } else {
        const b = Buffer.alloc(8);
        b.writeBigUInt64LE(bits, 0);
        out.push(u32(id | FLAG_64), b);
      }
      break;
    }
    case "String":
      if (typeof v.value !== "string") {
        throw new Skip('3.x strings of code units ({"code_units": [...]}) are not handled here');
      }
      out.push(u32(id), ...padded(Buffer.from(v.value, "utf-8")));
      break;
    case "Vector2":
      out.push(u32(id));
      for (const t of v.value) out.push(u32(Number(tokenBits(t, 4))));
      break;
    case "Array":
      if ("element_type" in v) throw new Skip("typed arrays are not implemented here");
      capped(v.value.length);
      out.push(u32(id), u32(v.value.length));
      for (const item of v.value) encodeValue(item, major, out, depth + 1);
      break;
    case "Dictionary":
      if ("key_type" in v || "value_type" in v) throw new Skip("typed dictionaries are not implemented here");
      capped(v.value.length);
      out.push(u32(id), u32(v.value.length));
      for (const [k, item] of v.value) {
        encodeValue(k, major, out, depth + 1);
        encodeValue(item, major, out, depth + 1);
      }
      break;
    case "PackedByteArray":
      out.push(u32(id), ...padded(Buffer.from(v.value, "hex")));
      break;
  }
  return out;
}

// ---- the protocol ----

function answer(request) {
  const op = request.op;
  if (op === "hello") {
    return {
      name: "gdmarshal_testee.js (example)" + (BROKEN ? ` (broken: ${BROKEN})` : ""),
      protocol: 1,
      versions: ["3", "4"],
      capabilities: ["decode", "encode", "reencode"],
      types: ["Nil", "bool", "int", "float", "String", "Vector2", "Array", "Dictionary", "PackedByteArray"],
    };
  }
  const id = request.id;
  const godot = String(request.godot || "4");
  const major = Number(godot.split(".")[0]);
  if (godot.includes("-double") || !(major in IDS)) {
    return { id, skipped: "only single-precision 3.x and 4.x" };
  }
  if (request.objects) return { id, skipped: "objects are not implemented here" };
  try {
    if (op === "decode") {
      const r = new Reader(Buffer.from(request.input, "hex"));
      const value = decodeValue(r, major, 0);
      return { id, ok: true, value, consumed: r.pos };
    }
    if (op === "encode") {
      return { id, ok: true, output: Buffer.concat(encodeValue(request.value, major, [], 0)).toString("hex") };
    }
    return { id, ok: false, error: `unknown op ${op}` };
  } catch (e) {
    if (e instanceof Skip) return { id, skipped: e.message };
    if (e instanceof Reject) return { id, ok: false, error: e.message, kind: e.kind };
    throw e;
  }
}

// Requests can nest 2048 JSON levels deep (1024-level values): V8's JSON reader takes that.
// Answers are written in order, one line each; a large answer is waited for (drain).
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (!line.trim()) return;
  const ok = process.stdout.write(JSON.stringify(answer(JSON.parse(line))) + "\n");
  if (!ok) {
    lines.pause();
    process.stdout.once("drain", () => lines.resume());
  }
});
