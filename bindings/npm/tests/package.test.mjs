// The installed npm package `gdmarshal`, as a user has it: engine-written bytes round-trip
// exactly, the README's example runs as written, values map as documented, errors say where.
//
// Run by scripts/bindings.sh test from a new npm project that holds only the package, named by
// GDMARSHAL_PACKAGE (its entry file); the engines' bytes are the repository's corpus
// (GDMARSHAL_REPO/corpus/godot-*.jsonl), recorded from real engines.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

const g = await import(pathToFileURL(process.env.GDMARSHAL_PACKAGE).href);
const ROOT = process.env.GDMARSHAL_REPO;
const CORPORA = { "3.2": "godot-3.2.3.stable.jsonl", "3.6": "godot-3.6.2.stable.jsonl",
  "4.6": "godot-4.6.3.stable.jsonl", "4.6-double": "godot-4.6.3.stable-double.jsonl" };

// Engine bytes that are no fixed point of the engine itself: reading them gives a value the
// engine writes otherwise (the Python package's tests list the same, with the reasons).
const NOT_A_FIXED_POINT = {
  "decode/string_bytes/double_bom": ["3.2", "3.6", "4.6", "4.6-double"],
  "encode/typed/builtin_object_array": ["4.6"],
  "encode/Dictionary/units_keys": ["3.6"],
  "decode/string_bytes/in_dictionary_keys": ["3.6"],
  "decode/keys/nan_float32_array_keys_as_bytes": ["3.2"],
};
// 3.2 writes what is nested deeper than 1024 levels, which the codec reads as later engines do.
const DEEPER_THAN_3_2_READS = /^(decode\/depth\/(arrays_10(25|26)|arrays_4096|arrays_1025_around_strings|dictionary_(values|keys)_1025)|encode\/depth\/.*_at_1025)$/;
// NodePath padding before 4.6.3 is uninitialised memory of the engine's.
const UNINITIALISED = /NodePath|nodepath/;

/** Every record of a version's corpus, as the engine wrote it. */
function* engineRecords(version) {
  for (const line of readFileSync(join(ROOT, "corpus", CORPORA[version]), "utf8").split("\n")) {
    if (line) yield JSON.parse(line);
  }
}

function* engineOutputs(version) {
  for (const r of engineRecords(version)) {
    if (r.verdict === "accepted" && "output" in r) yield [r.name, r.objects, Buffer.from(r.output, "hex")];
  }
}

const hex = (b) => Buffer.from(b).toString("hex");

for (const version of Object.keys(CORPORA)) {
  test(`engine bytes of ${version} round-trip exactly`, () => {
    let checked = 0;
    const failures = [];
    for (const [name, objects, data] of engineOutputs(version)) {
      if (UNINITIALISED.test(name)) continue;
      const exception = NOT_A_FIXED_POINT[name]?.includes(version) ||
        (version === "3.2" && DEEPER_THAN_3_2_READS.test(name));
      let again = null;
      try {
        again = hex(g.encode(g.decode(data, { godot: version, objects }), { godot: version, objects }));
      } catch (e) {
        if (!(e instanceof g.DecodeError)) throw e;
      }
      if (exception) {
        if (again === hex(data)) failures.push(`${name}: round-trips after all: drop it from the list`);
      } else if (again !== hex(data)) {
        failures.push(`${name}: ${again} != ${hex(data)}`);
      } else {
        checked += 1;
      }
    }
    assert.deepEqual(failures, []);
    assert.ok(checked > 700, `${checked} cases checked`);
  });
}

test("strings with lone surrogates encode as the engines write their code units", () => {
  const wanted = /^encode\/String\/units_(lone_high|lone_low|reversed_pair|mixed)$/;
  let checked = 0;
  for (const version of ["3.6", "4.6"]) {
    for (const r of engineRecords(version)) {
      if (!wanted.test(r.name)) continue;
      const units = r.value.value.code_units;
      assert.ok(units.every((u) => u <= 0xffff), r.name);
      const text = String.fromCharCode(...units);
      if (r.verdict === "accepted") {
        assert.equal(hex(g.encode(text, { godot: version })), r.output, `${version} ${r.name}`);
      } else {
        assert.throws(() => g.encode(text, { godot: version }), g.EncodeError, `${version} ${r.name}`);
      }
      checked += 1;
    }
  }
  assert.ok(checked >= 8, `${checked} records`);
});

test("the README examples run as written", async () => {
  for (const readme of ["README.md", "bindings/npm/README.md"]) {
    const text = readFileSync(join(ROOT, readme), "utf8");
    const block = /```js\n(.*?)```/s.exec(text)[1];
    const expected = block.split("\n").filter((l) => l.startsWith("console.log(")).map((l) => l.split("// ")[1]);
    assert.ok(expected.length > 0 && expected.every(Boolean), `${readme}: the example shows what it prints`);
    const printed = [];
    const body = block.replace(/^import .* from "gdmarshal";$/m, "").replaceAll("console.log(", "print(");
    const run = new Function("gdmarshal", "print", "inspectValue", body);
    const { inspect: show } = await import("node:util");
    run(g, (...a) => printed.push(a.map((x) => (typeof x === "string" ? x : show(x, { breakLength: Infinity }))).join(" ")));
    assert.deepEqual(printed, expected, readme);
  }
});

test("engine bytes give the documented JavaScript values", () => {
  const records = Object.fromEntries(Array.from(engineOutputs("4.6"), ([n, , d]) => [n, d]));
  const expected = {
    "encode/Vector2/counting": new g.Vector2(-2, -0.5),
    "encode/int/9223372036854775807": 2n ** 63n - 1n,
    "encode/int/-2147483649": -2147483649n,
    "encode/String/len2": "ab",
  };
  for (const [name, value] of Object.entries(expected)) {
    assert.deepEqual(g.decode(records[name], { godot: "4.6" }), value, name);
    assert.equal(hex(g.encode(value, { godot: "4.6" })), hex(records[name]), name);
  }
});

test("strings of every short length decode whole (a 32-bit target's inline storage is 12 bytes)", () => {
  for (let n = 0; n <= 40; n++) {
    const s = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG".slice(0, n);
    assert.equal(g.decode(g.encode(s, { godot: "4.6" }), { godot: "4.6" }), s);
    assert.deepEqual(g.decode(g.encode([s, s], { godot: "4.6" }), { godot: "4.6" }), [s, s]);
    assert.deepEqual(g.decode(g.encode(new g.PackedStringArray([s]), { godot: "4.6" }), { godot: "4.6" }).items, [s]);
  }
});

test("strings of every scalar value and of mixed lengths decode whole", () => {
  // The module turns UTF-8 into UTF-16 16 bytes at a time where it can (src/utf16.rs): every
  // scalar value but NUL, at three alignments, and mixes of 1- to 4-byte values across the
  // blocks' edges, each against the string encoded (which does not pass through that code).
  const opts = { godot: "4.6" };
  const check = (s) => {
    const all = ["", "a", "ab"].map((p) => p + s);
    assert.deepEqual(g.decode(g.encode(all, opts), opts), all);
  };
  const scalars = [];
  for (let c = 1; c <= 0x10ffff; c++) if (c < 0xd800 || c > 0xdfff) scalars.push(String.fromCodePoint(c));
  for (let k = 0; k < scalars.length; k += 4096) check(scalars.slice(k, k + 4096).join(""));
  const widths = [[0x20, 0x7f], [0x80, 0x7ff], [0x800, 0xffff], [0x10000, 0x10ffff]];
  let seed = 7;
  const next = (n) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  for (let t = 0; t < 3000; t++) {
    const allowed = widths.filter((_, w) => (t >> w) & 1 || t % 16 === 0);
    let s = "";
    for (let k = next(70); k > 0; k--) {
      const [lo, hi] = allowed[next(allowed.length)];
      const c = lo + next(hi - lo + 1);
      s += String.fromCodePoint(c >= 0xd800 && c <= 0xdfff ? 0xe000 : c);
    }
    check(s);
  }
});

test("repeated Dictionary keys decode as written", () => {
  // The tape writes a short string key once and names it by its order later (src/to_js.rs).
  const opts = { godot: "4.6" };
  const long = "x".repeat(65);
  const value = [
    new Map([["k", 1n], ["m", new Map([["k", 2n], [long, 3n]])]]),
    new Map([["m", 4n], [long, 5n], ["k", 6n], ["", 7n]]),
    new g.Dictionary([["k", 8n], ["", 9n]], new g.ContainerType("builtin", "String"), null),
    ["k", new g.StringName("k")],
  ];
  assert.deepEqual(g.decode(g.encode(value, opts), opts), value);
});

test("a decoded value stays as it was through the decodes after it", () => {
  // The tape is read from the module's memory, which the next decode writes again and may grow
  // (src/to_js.rs): a value must hold nothing of it.
  const opts = { godot: "4.6" };
  const first = [1n, 2.5, "ascii", "ünïcödé", new g.Vector3(1, 2, 3), new Map([["k", -4n]])];
  const kept = g.decode(g.encode(first, opts), opts);
  const big = Array.from({ length: 20000 }, (_, k) => [BigInt(k), `é${k}`, k / 7, `s${k}`]);
  assert.deepEqual(g.decode(g.encode(big, opts), opts), big);
  g.decode(g.encode(["other", 9n, "ôther", new g.Vector3(7, 8, 9)], opts), opts);
  assert.deepEqual(kept, first);
});

test("short and long strings, ASCII and not, decode whole wherever they come", () => {
  // Strings of 256 bytes or more cross in tables of their own, made into strings a piece at a
  // time (src/to_js.rs, values.js): mixed with short ones, across pieces, as keys and values.
  const opts = { godot: "4.6" };
  const long = (k) => (k % 2 ? "é" : "e").repeat(200 + ((k * 7919) % 40000)) + k;
  const strings = Array.from({ length: 300 }, (_, k) => (k % 3 ? long(k) : `short ${k} ${k % 2 ? "é" : ""}`));
  assert.deepEqual(g.decode(g.encode(strings, opts), opts), strings);
  const text = new g.ContainerType("builtin", "String");
  const typed = new g.Dictionary([[long(1), long(2)], ["é", "short é"], [long(3), "e"]], text, text);
  const map = new Map([[long(4), long(5)], ["k", long(6)], [long(7), "v"]]);
  const value = [long(8), typed, map, "after", new g.StringName(long(9)), new g.PackedStringArray([long(10), "s"])];
  assert.deepEqual(g.decode(g.encode(value, opts), opts), value);
});

test("values of growing and shrinking size, and refused bytes, decode whole one after another", () => {
  // Each decoded tree is built in a region sized by the decode before (src/region.rs): a tree
  // larger than the last spills over into the system allocator, a much smaller one shrinks the
  // region, and a refused input leaves the region as a decoded one does.
  const opts = { godot: "4.6" };
  const of = (n) => Array.from({ length: n }, (_, k) => [`key number ${k}`, new Map([[`é${k}`, BigInt(k)]])]);
  for (const n of [10, 50000, 3, 200000, 120000, 1, 200000]) {
    const value = of(n);
    const bytes = g.encode(value, opts);
    assert.deepEqual(g.decode(bytes, opts), value, `${n} records`);
    assert.throws(() => g.decode(bytes.subarray(0, bytes.length - 1), opts), g.DecodeError);
  }
});

test("a NaN other than JavaScript's own keeps its bits as FloatBits", () => {
  // A Vector2 of two NaNs 0x7f800001 and a float NaN of payload 1, as 4.6.3 writes them.
  const records = Object.fromEntries(Array.from(engineOutputs("4.6"), ([n, , d]) => [n, d]));
  const data = records["encode/Vector2/all_snan"];
  assert.equal(hex(data), "050000000100807f0100807f");
  const v = g.decode(data, { godot: "4.6" });
  assert.ok(v.x instanceof g.FloatBits && v.x.bits === 0x7f800001n && v.x.width === 32);
  assert.equal(hex(g.encode(v, { godot: "4.6" })), hex(data));
  assert.ok(Number.isNaN(g.decode(g.encode(NaN, { godot: "4.6" }), { godot: "4.6" })));
});

test("containers: Map, typed Dictionary, typed arrays, typed arrays of numbers", () => {
  const back = g.decode(g.encode(new Map([[1n, "int"], [1, "float"], ["1", "string"]]), { godot: "4.6" }), { godot: "4.6" });
  assert.deepEqual([...back.keys()], [1n, 1, "1"]);
  const int = new g.ContainerType("builtin", "int");
  const typedMap = new g.Dictionary([[1n, "a"]], int, null);
  assert.deepEqual(g.decode(g.encode(typedMap, { godot: "4.6" }), { godot: "4.6" }), typedMap);
  const typed = new g.TypedArray(new g.ContainerType("builtin", "int"), [1n, 2n]);
  assert.deepEqual(g.decode(g.encode(typed, { godot: "4.6" }), { godot: "4.6" }), typed);
  for (const a of [new Uint8Array([1]), new Int32Array([-1]), new BigInt64Array([-1n]), new Float32Array([0.5]), new Float64Array([0.1])]) {
    assert.deepEqual(g.decode(g.encode(a, { godot: "4.6" }), { godot: "4.6" }), a);
  }
});

test("math types have the type table's fields", () => {
  assert.deepEqual(Object.keys(new g.Transform2D()), ["x_x", "x_y", "y_x", "y_y", "origin_x", "origin_y"]);
  assert.deepEqual(Object.keys(new g.Color()), ["r", "g", "b", "a"]);
});

test("the type declarations name every export and each math type's fields", () => {
  const dts = readFileSync(join(process.env.GDMARSHAL_PACKAGE, "..", "index.d.ts"), "utf8");
  for (const name of Object.keys(g)) {
    assert.match(dts, new RegExp(`export (declare )?(class|function|const) ${name}\\b`), name);
    if (typeof g[name] === "function" && Array.isArray(g[name].fields)) {
      const body = new RegExp(`export declare class ${name} \\{([^}]*)\\}`).exec(dts)[1];
      const declared = [...body.matchAll(/^\s+(\w+): [^;()]+;$/gm)].map((m) => m[1]);
      assert.deepEqual(declared, g[name].fields, name);
    }
  }
});

test("framing and consumed", () => {
  const framed = g.encode(7n, { godot: "4.6", framing: "store-var" });
  assert.equal(hex(framed), "080000000200000007000000");
  assert.deepEqual(g.decodePrefix(Buffer.concat([framed, Buffer.from([0xff])]), { godot: "4.6", framing: "store-var" }), [7n, 12]);
});

test("errors say what and where", () => {
  assert.throws(() => g.decode(Buffer.from("0200000001", "hex"), { godot: "4.6" }),
    (e) => e instanceof g.DecodeError && e.offset === 4 && e.kind === "truncated");
  assert.throws(() => g.decode(Buffer.from("0200000001", "hex"), { godot: "4.6", framing: "store-var" }),
    (e) => e instanceof g.DecodeError && e.kind === "framing");
  assert.throws(() => g.encode([1n, new Map([["k", new Set()]])], { godot: "4.6" }),
    (e) => e instanceof g.EncodeError && e.path === "$[1]{value 0}");
  // Godot's int is 64 bits: the BigInts just past either end have no Godot form, those at the
  // ends do.
  for (const x of [2n ** 64n, 2n ** 63n, -(2n ** 63n) - 1n]) {
    assert.throws(() => g.encode([x], { godot: "4.6" }), (e) => e instanceof g.EncodeError && e.path === "$[0]");
  }
  for (const x of [2n ** 63n - 1n, -(2n ** 63n)]) {
    assert.equal(g.decode(g.encode(x, { godot: "4.6" }), { godot: "4.6" }), x);
  }
  assert.throws(() => g.encode([undefined], { godot: "4.6" }), (e) => e instanceof g.EncodeError && e.path === "$[0]");
  const loop = [];
  loop.push(loop);
  assert.throws(() => g.encode(loop, { godot: "4.6" }), (e) => e instanceof g.EncodeError && /nesting deeper/.test(e.message));
  assert.throws(() => g.encode(1n, { godot: "4.99" }), RangeError);
  assert.throws(() => g.encode(1n), TypeError);
});

test("inspect gives rows and the error", () => {
  const report = g.inspect(Buffer.from("1c00000002000000020000000100000004000000", "hex"), { godot: "4.6" });
  assert.equal(report.consumed, null);
  assert.equal(report.error.kind, "truncated");
  assert.deepEqual({ ...report.rows[0], bytes: hex(report.rows[0].bytes) },
    { offset: 0, bytes: "1c000000", path: "$", field: "header", meaning: "Array (id 28), flags 0x0" });
  assert.deepEqual(report.rows.slice(2, 4).map((r) => r.path), ["$[0]", "$[0]"]);
});
