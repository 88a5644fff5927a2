// The side-by-side benchmark's runner for the npm package @gd-com/utils: the loops of
// benches/support/loops.rs (15 rounds of decode then encode, then 15 decodes alone; medians) on
// one family's bytes as benches/peers.rs wrote them. Run by scripts/bench-peers.sh:
//
//   node benches/peers/gd-com.js NODE_MODULES BYTES_DIR FORMAT FAMILY
//
// Prints one GDMARSHAL_PEER line like the Rust runners. The package's type ids are Godot 3's for
// Nil to PoolIntArray (0-21) and its own above (22 is a 64-bit int array, 23 a float array; Godot
// 3 has PoolRealArray and PoolStringArray there, Godot 4 another numbering altogether), so it is
// given the 3.x bytes of the families whose ids it shares. Its encoder takes JavaScript values:
// a whole-number float becomes an int and a vector a Dictionary, so it writes other bytes than
// Godot where a family holds those (same_bytes says so).
"use strict";
const path = require("path");
const fs = require("fs");

const [modules, dir, format, family] = process.argv.slice(2);
if (!family) {
  console.error("usage: gd-com.js NODE_MODULES BYTES_DIR FORMAT FAMILY");
  process.exit(2);
}
const gd = require(path.join(modules, "@gd-com", "utils"));
const version = require(path.join(modules, "@gd-com", "utils", "package.json")).version;
const bytes = fs.readFileSync(path.join(dir, `${format}-${family}.bin`));
const head = `GDMARSHAL_PEER runner=gd-com format=${format} family=${family} bytes=${bytes.length} version=${version}`;

// Type ids whose meaning the package shares with Godot 3 (its TYPE table).
const SHARED_WITH_GODOT3 = 21;
const topType = bytes.readUInt16LE(0);
if (!format.startsWith("3.") || topType > SHARED_WITH_GODOT3) {
  const why = format.startsWith("3.") ? `type id ${topType} means another type` : "Godot 3 type ids only";
  console.log(`${head} unsupported="${why}"`);
  process.exit(0);
}

const ROUNDS = 15;
const median = (v) => v.slice().sort((a, b) => a - b)[Math.floor(v.length / 2)];
const micros = (t) => Number((process.hrtime.bigint() - t) / 1000n);

// A failure is a result too: the line says which step failed and why, and the table shows it.
const quote = (e) => String(e.message || e).split("\n")[0].replace(/"/g, "'");
let value;
try {
  value = gd.getVar(bytes).value;
} catch (e) {
  console.log(`${head} unsupported="decode fails: ${quote(e)}"`);
  process.exit(0);
}
let encodeError = null;
try {
  gd.putVar(value);
} catch (e) {
  encodeError = quote(e);
}
// Unmeasured rounds first, as benches/peers/npm.mjs runs them (V8's tiers: see there).
const WARM_UP_MS = 1000;
for (const until = performance.now() + WARM_UP_MS; performance.now() < until; ) {
  value = gd.getVar(bytes).value;
  if (encodeError === null) gd.putVar(value);
}
const decodeUs = [];
const encodeUs = [];
const aloneUs = [];
let again = null;
for (let r = 0; r < ROUNDS; r++) {
  let t = process.hrtime.bigint();
  value = gd.getVar(bytes).value;
  decodeUs.push(micros(t));
  if (encodeError === null) {
    t = process.hrtime.bigint();
    again = gd.putVar(value);
    encodeUs.push(micros(t));
  }
}
for (let r = 0; r < ROUNDS; r++) {
  const t = process.hrtime.bigint();
  gd.getVar(bytes);
  aloneUs.push(micros(t));
}
const encoded =
  encodeError === null
    ? `encode_median_us=${median(encodeUs)} same_bytes=${Buffer.compare(again, bytes) === 0 ? "yes" : "no"}`
    : `encode_error="${encodeError}"`;
console.log(
  `${head} decode_median_us=${median(decodeUs)} decode_alone_median_us=${median(aloneUs)} ${encoded}`,
);
