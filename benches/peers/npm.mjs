// The side-by-side benchmark's runner for this project's npm package (bindings/npm), as users
// install it: the loops of benches/support/loops.rs (15 rounds of decode then encode, then 15
// decodes alone; medians) on one family's bytes as benches/peers.rs wrote them, as gd-com.js runs
// @gd-com/utils. Run by scripts/bench-peers.sh:
//
//   node benches/peers/npm.mjs PACKAGE_ENTRY BYTES_DIR FORMAT FAMILY
//
// Prints one GDMARSHAL_PEER line like the other runners.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [entry, dir, format, family] = process.argv.slice(2);
if (!family) {
  console.error("usage: npm.mjs PACKAGE_ENTRY BYTES_DIR FORMAT FAMILY");
  process.exit(2);
}
const g = await import(pathToFileURL(entry).href);
const bytes = new Uint8Array(readFileSync(join(dir, `${format}-${family}.bin`)));
const opts = { godot: format };
const head = `GDMARSHAL_PEER runner=npm format=${format} family=${family} bytes=${bytes.length} version=${g.version}`;

const ROUNDS = 15;
const median = (v) => v.slice().sort((a, b) => a - b)[Math.floor(v.length / 2)];
const micros = (t) => Number((process.hrtime.bigint() - t) / 1000n);

let value = g.decode(bytes, opts);
let again = g.encode(value, opts);
// V8 runs JavaScript and WebAssembly in tiers, the optimizing one after a function has run a
// while (the module's string transcoding reaches it only after some 40 decodes of
// unicode_strings): both JavaScript runners first run the alternating round unmeasured for
// WARM_UP_MS, so that each is measured as a program that decodes again and again runs it.
const WARM_UP_MS = 1000;
for (const until = performance.now() + WARM_UP_MS; performance.now() < until; ) {
  value = g.decode(bytes, opts);
  again = g.encode(value, opts);
}
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
const same = Buffer.compare(Buffer.from(again), Buffer.from(bytes)) === 0 ? "yes" : "no";
console.log(
  `${head} decode_median_us=${median(decodeUs)} decode_alone_median_us=${median(aloneUs)} encode_median_us=${median(encodeUs)} same_bytes=${same}`,
);
