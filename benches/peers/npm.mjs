// The side-by-side benchmark's runner for this project's npm package (bindings/npm), as users
// install it: the loops of benches/support/loops.rs (15 rounds of decode then encode, then 15
// decodes alone; medians) on one family's bytes as benches/peers.rs wrote them, as gd-com.js runs
// @gd-com/utils. Run by scripts/bench-peers.sh:
//
//   node benches/peers/npm.mjs PACKAGE_ENTRY BYTES_DIR FORMAT FAMILY [strings]
//
// Prints one GDMARSHAL_PEER line like the other runners. With `strings` (runner npm-strings) it
// decodes the bytes once with the package, then times only what the JavaScript engine does for
// any decoder of them: making every string the value holds from its UTF-8 bytes (TextDecoder) and
// back (TextEncoder).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [entry, dir, format, family, mode] = process.argv.slice(2);
if (!family || (mode !== undefined && mode !== "strings")) {
  console.error("usage: npm.mjs PACKAGE_ENTRY BYTES_DIR FORMAT FAMILY [strings]");
  process.exit(2);
}
const pkg = await import(pathToFileURL(entry).href);
const bytes = new Uint8Array(readFileSync(join(dir, `${format}-${family}.bin`)));
const opts = { godot: format };
const runner = mode === "strings" ? "npm-strings" : "npm";
const head = `GDMARSHAL_PEER runner=${runner} format=${format} family=${family} bytes=${bytes.length} version=${pkg.version}`;

/** Every string a decoded value holds (in arrays, Maps, Dictionaries, typed Arrays, PackedStringArrays). */
function stringsOf(value) {
  const out = [];
  const stack = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (v instanceof Map) for (const [k, x] of v) stack.push(k, x);
    else if (v instanceof pkg.Dictionary) for (const [k, x] of v.entries) stack.push(k, x);
    else if (v instanceof pkg.TypedArray || v instanceof pkg.PackedStringArray) for (const x of v.items) stack.push(x);
  }
  return out;
}

/** The JavaScript engine's part: strings from UTF-8 bytes, and back. */
function stringsCodec() {
  const blobs = stringsOf(pkg.decode(bytes, opts)).map((s) => new TextEncoder().encode(s));
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  return {
    decode: () => blobs.map((b) => decoder.decode(b)),
    encode: (strings) => strings.map((s) => encoder.encode(s)),
  };
}
const g = mode === "strings" ? stringsCodec() : pkg;

const ROUNDS = 15;
const median = (v) => v.slice().sort((a, b) => a - b)[Math.floor(v.length / 2)];
const micros = (t) => Number((process.hrtime.bigint() - t) / 1000n);

let value = g.decode(bytes, opts);
let again = g.encode(value, opts);
const decodeUs = [];
const encodeUs = [];
const aloneUs = [];
for (let r = 0; r < ROUNDS; r++) {
  let t = process.hrtime.bigint();
  value = g.decode(bytes, opts);
  decodeUs.push(micros(t));
  t = process.hrtime.bigint();
  again = g.encode(value, opts);
  encodeUs.push(micros(t));
}
for (let r = 0; r < ROUNDS; r++) {
  const t = process.hrtime.bigint();
  g.decode(bytes, opts);
  aloneUs.push(micros(t));
}
const same =
  mode === "strings" ? "" : ` same_bytes=${Buffer.compare(Buffer.from(again), Buffer.from(bytes)) === 0 ? "yes" : "no"}`;
console.log(
  `${head} decode_median_us=${median(decodeUs)} decode_alone_median_us=${median(aloneUs)} encode_median_us=${median(encodeUs)}${same}`,
);
