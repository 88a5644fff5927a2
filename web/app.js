// The inspector: the gdmarshal codec (WebAssembly, embedded by scripts/web.sh as base64 so the
// page works from file://) decodes, inspects and encodes; this script draws what it answers.
"use strict";

const ROW_H = 20;          // px, as --row in style.css
const TREE_PAGE = 200;     // children drawn per "more" click
const FRAGMENT_MAX = 200000; // hex digits kept in the URL fragment
const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------- the module
const codec = (() => {
  const raw = Uint8Array.from(atob(window.GDMARSHAL_WASM), (c) => c.charCodeAt(0));
  const ex = new WebAssembly.Instance(new WebAssembly.Module(raw), {}).exports;
  const enc = new TextEncoder(), dec = new TextDecoder();
  const put = (u8) => {
    const p = ex.gdm_alloc(u8.length);
    new Uint8Array(ex.memory.buffer, p, u8.length).set(u8);
    return [p, u8.length];
  };
  // The call may grow the memory: look at its buffer only after it.
  const text = (n) => dec.decode(new Uint8Array(ex.memory.buffer, ex.gdm_out_ptr(), n));
  const out = (n) => JSON.parse(text(n));
  const call = (f, req, data) => {
    const [rp, rl] = put(enc.encode(JSON.stringify(req)));
    const [dp, dl] = put(data);
    try { return out(f(rp, rl, dp, dl)); } finally { ex.gdm_free(rp, rl); ex.gdm_free(dp, dl); }
  };
  return {
    profiles: () => out(ex.gdm_profiles()),
    // The module keeps the bytes and the rows read; the page asks for those in view.
    decode(req, bytes) {
      const [rp, rl] = put(enc.encode(JSON.stringify(req)));
      const [dp, dl] = put(bytes);
      try { return out(ex.gdm_decode(rp, rl, dp, dl)); } finally {
        ex.gdm_free(rp, rl);
        document.body.dataset.wasmBytes = ex.memory.buffer.byteLength;
      }
    },
    rows: (first, count) => out(ex.gdm_rows(first, count)),
    kids: (node, from, count) => out(ex.gdm_kids(node, from, count)),
    json: () => text(ex.gdm_json()),
    versions: (req, bytes) => call(ex.gdm_versions, req, bytes),
    encode: (req, json) => call(ex.gdm_encode, req, enc.encode(json)),
  };
})();

// ---------------------------------------------------------------- a decode's rows
// The module writes the texts of the rows asked for (docs/web.md); they are fetched a block at a
// time, and a few blocks kept, so scrolling asks for a block only now and then.
const BLOCK = 256, BLOCKS_KEPT = 64;

function lazyRows(count) {
  const blocks = new Map();
  const extra = []; // rows the page adds: the error
  const block = (b) => {
    if (!blocks.has(b)) {
      if (blocks.size >= BLOCKS_KEPT) blocks.clear();
      blocks.set(b, codec.rows(b * BLOCK, BLOCK));
    }
    return blocks.get(b);
  };
  return {
    get length() { return count + extra.length; },
    push: (r) => extra.push(r),
    // [start, end, node, depth, field, meaning, class]
    get(i) {
      if (i >= count) return extra[i - count];
      const r = block(Math.floor(i / BLOCK))[i % BLOCK];
      return [...r, ""];
    },
  };
}

// ---------------------------------------------------------------- state and the URL fragment
const state = { mode: "decode", godot: "4.6", framing: "none", objects: false, kind: "auto" };
let bytes = new Uint8Array(0);
let readStart = null; // when a file was chosen: its time to first rows goes to body's data-file-ms
let fileBytes = null; // a chosen or dropped file's bytes, until the text is edited
const TEXT_MAX = 1 << 16; // bytes shown as hex in the input box
let answer = null;   // the last decode
let hover = null;    // [start, end] highlighted

// The values each key of the fragment may take (`godot`: the versions the module has).
const FRAGMENT_VALUES = {
  mode: ["decode", "encode", "versions", "libraries"],
  framing: ["none", "store_var", "stream", "packet"],
  kind: ["auto", "hex", "base64"],
};
let urlProblem = null; // a fragment value the page ignored, said with every status

function readFragment() {
  const f = new URLSearchParams(location.hash.slice(1));
  const problems = [];
  for (const k of ["mode", "godot", "framing", "kind"]) {
    if (!f.has(k)) continue;
    const allowed = k === "godot" ? Array.from($("godot").options, (o) => o.value) : FRAGMENT_VALUES[k];
    if (allowed.includes(f.get(k))) state[k] = f.get(k);
    else problems.push(`${k}=${f.get(k)} is not one of ${allowed.join(", ")}`);
  }
  urlProblem = problems.length ? problems.join("; ") : null;
  // The page writes `objects` only when on: a fragment without it means off.
  state.objects = f.get("objects") === "1";
  if (f.has("hex") || f.has("b64")) { inputProblem = null; inputGiven = true; }
  // The key says how to read its text, unless `kind` says otherwise.
  if (f.has("hex")) { $("bytes-in").value = f.get("hex"); fileBytes = null; if (!f.has("kind")) state.kind = "hex"; }
  else if (f.has("b64")) { $("bytes-in").value = f.get("b64"); fileBytes = null; if (!f.has("kind")) state.kind = "base64"; }
  if (f.has("json")) $("json-in").value = f.get("json");
}

function writeFragment() {
  const f = new URLSearchParams();
  f.set("godot", state.godot);
  f.set("framing", state.framing);
  f.set("mode", state.mode);
  if (state.objects) f.set("objects", "1");
  if (state.mode === "encode") f.set("json", $("json-in").value);
  else if (badText !== null) {
    // Text that could not be read goes into the link as it is, not the bytes read before it.
    if (badText.length <= FRAGMENT_MAX && state.kind === "base64") f.set("b64", badText);
    else if (badText.length <= FRAGMENT_MAX) { f.set("hex", badText); if (state.kind === "auto") f.set("kind", "auto"); }
  } else if (inputGiven && bytes.length * 2 <= FRAGMENT_MAX) f.set("hex", toHex(bytes));
  const h = "#" + f.toString();
  if (h !== location.hash) history.replaceState(null, "", h);
}

// ---------------------------------------------------------------- input
const toHex = (u8) => Array.from(u8, (b) => b.toString(16).padStart(2, "0")).join("");

// The most bytes the page reads, from a file or pasted text (docs/web.md): past it, it says so
// with the size and reads nothing. Text may hold up to 4 characters per byte (spaced hex).
const INPUT_MAX = 16 << 20;
const TEXT_INPUT_MAX = 4 * INPUT_MAX;
const size = (n) => n.toLocaleString("en");
const tooLarge = (what, n, unit, max) => `${what} is ${size(n)} ${unit}, over the page's limit of ${size(max)} ${unit}`;

// Where in `text` character `at` is, for a person: "line 3, column 5".
function lineColumn(text, at) {
  let line = 1, from = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < at; i = text.indexOf("\n", i + 1)) { line++; from = i + 1; }
  return `line ${size(line)}, column ${size(at - from + 1)}`;
}

// Hex digits to bytes in one pass, stopping at the first other character: [bytes, null] or
// [null, why, where it stopped]. Whitespace, "-", ":" and "," separate anywhere, and "0x" may
// start the text or any group of digits ("0x02 0x00", "02-00", "02:00").
function parseHex(text) {
  const out = new Uint8Array(text.length >> 1);
  let n = 0, high = -1, i = 0;
  const space = (c) => c === 32 || (c >= 9 && c <= 13) || c === 45 || c === 58 || c === 44;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let v;
    const groupStart = i === 0 || space(text.charCodeAt(i - 1));
    if (c === 48 && groupStart && high < 0 && (text[i + 1] === "x" || text[i + 1] === "X")) { i++; continue; }
    if (c >= 48 && c <= 57) v = c - 48;
    else if (c >= 97 && c <= 102) v = c - 87;
    else if (c >= 65 && c <= 70) v = c - 55;
    else if (space(c)) continue;
    else return [null, `character ${size(i)} (${lineColumn(text, i)}), ${JSON.stringify(text[i])}, is not a hex digit`, i];
    if (high < 0) high = v;
    else { out[n++] = high * 16 + v; high = -1; }
  }
  if (high >= 0) return [null, `odd number of hex digits (${size(2 * n + 1)})`, text.length];
  return [out.subarray(0, n), null];
}

function parseBase64(text) {
  try {
    const t = text.replace(/\s+/g, "").replace(/-/g, "+").replace(/_/g, "/");
    return [Uint8Array.from(atob(t), (c) => c.charCodeAt(0)), null];
  } catch (e) {
    return [null, "not base64"];
  }
}

// The text's bytes, or why not: [bytes, null, note] or [null, message]; the note says when
// "auto" read the text as base64 because it was not hex.
function parseInput(text, kind) {
  if (text.length > TEXT_INPUT_MAX) return [null, tooLarge("the text", text.length, "characters", TEXT_INPUT_MAX)];
  let [out, bad, at] = kind === "base64" ? [null, null, 0] : parseHex(text);
  let note = "";
  // Auto: text that is not hex from its first character on may be base64.
  if (kind === "base64" || (kind === "auto" && bad && at < text.length)) {
    const [b64, no] = parseBase64(text);
    if (b64 && kind === "auto") note = `read as base64: not hex (${bad}); choose "read as: hex" to read it as hex`;
    if (b64 || kind === "base64") [out, bad] = [b64, no];
    else bad = `neither hex (${bad}) nor base64`;
  }
  if (out && out.length > INPUT_MAX) return [null, tooLarge("the input", out.length, "bytes", INPUT_MAX)];
  return [out, bad, note];
}

function setBytes(u8, note) {
  fileBytes = u8;
  inputGiven = true;
  const shown = u8.length <= TEXT_MAX;
  $("bytes-in").value = shown ? toHex(u8) : "";
  $("bytes-in").placeholder = shown ? "" : `${note} (too large to show as text)`;
  $("input-note").textContent = note;
  render();
}

// The bytes to read: the file's, or the text's; [bytes, null] or [null, why not].
let inputProblem = null; // a file or paste refused before it was read
let badText = null; // the input text, when it could not be read
let inputGiven = false; // whether any input has come: typed, pasted, chosen or in the URL
function inputBytes() {
  badText = null;
  if (inputProblem) return [null, inputProblem];
  if (fileBytes) return [fileBytes, null];
  const text = $("bytes-in").value;
  const [u8, bad, note] = parseInput(text, state.kind);
  $("input-note").textContent = note || "";
  if (bad) badText = text;
  return [u8, bad];
}

// ---------------------------------------------------------------- decode view
function request() { return { godot: state.godot, framing: state.framing, objects: state.objects }; }

function status(text, isError) {
  $("status").textContent = urlProblem ? `${text} (in the URL, ignored: ${urlProblem})` : text;
  $("status").className = isError || urlProblem ? "error" : "";
}

// No input yet (a first visit): nothing to read, nothing wrong. An empty input given (`hex=`,
// text typed and deleted) is read, as the engine would.
const noInput = (u8) => !inputGiven && u8 && u8.length === 0 && !fileBytes;
const NO_INPUT = "paste hex or base64, or choose or drop a file";

// With framing none, bytes whose first 4 hold the length of the rest are likely framed (a
// store_var file, a put_var stream): say so, since they also read as a value, of other bytes.
function framingHint() {
  if (state.framing !== "none" || bytes.length < 8) return "";
  const length = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
  return length === bytes.length - 4
    ? `; the first 4 bytes hold the length of the rest (${size(length)}): written by store_var or put_var? choose that framing`
    : "";
}

function renderDecode() {
  const [u8, bad] = inputBytes();
  if (bad || noInput(u8)) {
    answer = null; drawTable(); drawTree(); $("json").textContent = "";
    if (!bad) bytes = u8;
    return bad ? status(`input: ${bad}`, true) : status(NO_INPUT, false);
  }
  bytes = u8;
  answer = codec.decode(request(), bytes);
  if (answer.refused) return status(answer.refused, true);
  answer.rows = lazyRows(answer.rows);
  const v = answer.verified ? "verified" : "derived";
  if (answer.error) {
    const e = answer.error;
    status(`error at byte ${e.offset} (0x${e.offset.toString(16)}), reading ${e.where}: ${e.message} [Godot ${answer.profile}, ${v}]${framingHint()}`, true);
    // The error's row belongs to the value being read when it failed.
    answer.rows.push([e.offset, e.offset + 1, e.node, e.depth, "error", e.message, "err"]);
  } else {
    status(`ok: Godot ${answer.profile} (${v}) reads ${answer.consumed} of ${bytes.length} bytes; ${answer.rows.length} fields, ${answer.nodes} values${framingHint()}`, false);
  }
  showJson(answer.json, answer.json_more);
  drawTable();
  drawTree();
  if (answer.error) scrollToRow(answer.rows.length - 1);
}

// Long JSON (a 1 MB PackedByteArray is 2 MB of it) is shown in part until asked for: the module
// answers its start, and writes the rest only then.
function showJson(text, more) {
  const pre = $("json");
  pre.textContent = text;
  if (!more) return;
  const button = document.createElement("button");
  button.textContent = "… show all";
  button.onclick = () => { pre.textContent = codec.json(); };
  pre.appendChild(button);
}

const hexOf = (s, e) => {
  const n = Math.min(e, s + 16, bytes.length);
  let t = "";
  for (let i = s; i < n; i++) t += bytes[i].toString(16).padStart(2, "0") + " ";
  return e - s > 16 ? t + `… (${e - s} bytes)` : t.trim();
};

// The table draws only the rows in view, and asks the module for only their texts.
function drawTable() {
  const box = $("table"), space = $("table-space");
  const rows = answer ? answer.rows : { length: 0 };
  space.style.height = rows.length * ROW_H + "px";
  const first = Math.max(0, Math.floor(box.scrollTop / ROW_H) - 10);
  const last = Math.min(rows.length, first + Math.ceil(box.clientHeight / ROW_H) + 20);
  const frag = document.createDocumentFragment();
  for (let i = first; i < last; i++) {
    const [s, e, node, depth, name, meaning, cls] = rows.get(i);
    const d = document.createElement("div");
    d.className = "trow" + (cls ? " " + cls : "");
    if (hover && s >= hover[0] && e <= hover[1] && !cls) d.classList.add("hl");
    d.style.top = i * ROW_H + "px";
    d.dataset.row = i;
    d.dataset.node = node;
    const ind = "\u00a0\u00a0".repeat(depth);
    for (const t of [s.toString(16).padStart(8, "0"), cls ? "" : hexOf(s, e), ind + name, meaning]) {
      const c = document.createElement("span");
      c.textContent = t;
      d.appendChild(c);
    }
    frag.appendChild(d);
  }
  space.replaceChildren(frag);
}

function scrollToRow(i) {
  const box = $("table");
  box.scrollTop = Math.max(0, i * ROW_H - box.clientHeight / 2);
  drawTable();
}

// The tree: each value with its type and, for a leaf, what it holds; its nested values asked for
// from the module a page at a time, so a value holding millions draws a page of them.
// A value's own rows (up to `max`): its header and, for a leaf, what it holds; and whether it
// has more. They come before any value nested in it.
const SUMMARY_ROWS = 5; // a header and 4 fields: a Color or a Quaternion whole
function ownRows(v, max = SUMMARY_ROWS) {
  const out = [], rows = answer.rows;
  let r = v.row;
  for (; r < rows.length && out.length < max && rows.get(r)[2] === v.id; r++) out.push(rows.get(r));
  return [out, r < rows.length && rows.get(r)[2] === v.id];
}

// A NodePath as its text ("/root/a:b"), read from its rows: names, subnames and the flags.
function nodePathText(v) {
  const [own, more] = ownRows(v, 512);
  const names = [], subnames = [];
  let absolute = false;
  for (const [, , , , field, meaning] of own) {
    if (field === "name") names.push(meaning.slice(1, -1));
    else if (field === "subname") subnames.push(meaning.slice(1, -1));
    else if (field.startsWith("flags (")) absolute = (Number(meaning) & 1) === 1;
  }
  const path = (absolute ? "/" : "") + names.join("/") + subnames.map((s) => ":" + s).join("");
  return `"${path}"${more ? "…" : ""}`;
}

function nodeLabel(v) {
  const [own, more] = ownRows(v);
  const header = own.find((r) => r[4] === "header" && r[6] !== "err");
  const ty = header ? header[5].replace(/ \(id .*$/, "") : "";
  let sum;
  if (v.kids) sum = `${v.kids} nested`;
  else if (ty === "NodePath") sum = nodePathText(v);
  else {
    sum = own.filter((r) => r[4] !== "header" && r[4] !== "length" && r[4] !== "trailing bytes").map((r) => r[5]).join(", ");
    if (more) sum += ", …";
  }
  return [v.label, ty, sum.length > 80 ? sum.slice(0, 80) + "…" : sum];
}

function drawNode(v, into, open) {
  const div = document.createElement("div");
  div.className = "node";
  div.dataset.node = v.id;
  div.dataset.row = v.row;
  div.dataset.start = v.start;
  div.dataset.end = v.end;
  div.dataset.kids = v.kids;
  const lab = document.createElement("span");
  lab.className = "label";
  const [label, ty, sum] = nodeLabel(v);
  lab.innerHTML = `<span class="tw">${v.kids ? (open ? "▾" : "▸") : ""}</span>`;
  lab.append(label + " ");
  const t = document.createElement("span"); t.className = "ty"; t.textContent = ty + " "; lab.appendChild(t);
  const s = document.createElement("span"); s.className = "sum"; s.textContent = sum; lab.appendChild(s);
  div.appendChild(lab);
  into.appendChild(div);
  if (open) drawKids(v.id, div, 0);
}

function drawKids(i, div, from) {
  const page = codec.kids(i, from, TREE_PAGE);
  for (const k of page.kids) drawNode(k, div, false);
  const end = from + page.kids.length;
  if (end < page.count) {
    const more = document.createElement("div");
    more.className = "more";
    more.textContent = `… ${page.count - end} more`;
    more.onclick = () => { more.remove(); drawKids(i, div, end); };
    div.appendChild(more);
  }
}

function drawTree() {
  const tree = $("tree");
  tree.replaceChildren();
  if (!answer || answer.refused) return;
  drawNode(codec.kids(0, 0, 0).node, tree, true);
}

$("tree").addEventListener("click", (ev) => {
  const lab = ev.target.closest(".label");
  if (!lab) return;
  const div = lab.parentElement, i = +div.dataset.node;
  if (ev.target.classList.contains("tw") && +div.dataset.kids) {
    const open = div.children.length > 1;
    if (open) while (div.children.length > 1) div.lastChild.remove();
    else drawKids(i, div, 0);
    lab.firstChild.textContent = open ? "▸" : "▾";
  } else {
    scrollToRow(+div.dataset.row);
  }
});

// Hovering a value lights its fields; hovering a field lights its value in the tree.
$("tree").addEventListener("mouseover", (ev) => {
  const div = ev.target.closest(".node");
  if (!div) return;
  hover = [+div.dataset.start, +div.dataset.end];
  document.querySelectorAll(".node.hl").forEach((e) => e.classList.remove("hl"));
  div.classList.add("hl");
  drawTable();
});
$("table").addEventListener("mouseover", (ev) => {
  const row = ev.target.closest(".trow");
  if (!row) return;
  const r = answer.rows.get(+row.dataset.row);
  hover = [r[0], r[1]];
  document.querySelectorAll(".node.hl").forEach((e) => e.classList.remove("hl"));
  const node = document.querySelector(`.node[data-node="${r[2]}"]`);
  if (node) { node.classList.add("hl"); node.scrollIntoView({ block: "nearest" }); }
  drawTable();
});
$("table").addEventListener("scroll", () => requestAnimationFrame(drawTable));

// ---------------------------------------------------------------- encode view
function renderEncode() {
  const a = codec.encode(request(), $("json-in").value);
  if (a.refused) return status(a.refused, true);
  if (a.error) {
    $("hex-out").value = "";
    const where = a.error.line ? ` (line ${a.error.line}, column ${a.error.column})` : "";
    return status(`error at ${a.error.path}${where}: ${a.error.message}`, true);
  }
  $("hex-out").value = a.hex;
  status(`ok: ${a.hex.length / 2} bytes for Godot ${a.profile}`, false);
}

$("inspect-encoded").onclick = () => {
  $("bytes-in").value = $("hex-out").value;
  fileBytes = null;
  state.mode = "decode";
  render();
};

// ---------------------------------------------------------------- every version
// Each version reads the same bytes; the module says where a version parts from the selected one:
// at the first field it reads differently (another offset, name or meaning), or where one stops.
function renderVersions() {
  const [u8, bad] = inputBytes();
  const body = $("versions").tBodies[0];
  body.replaceChildren();
  if (bad) return status(`input: ${bad}`, true);
  bytes = u8;
  if (noInput(u8)) return status(NO_INPUT, false);
  const all = codec.versions(request(), bytes);
  if (all.refused) return status(all.refused, true);
  const base = all.find((a) => a.selected) || all[all.length - 1];
  let parting = 0;
  for (const a of all) {
    const tr = document.createElement("tr");
    tr.dataset.godot = a.name;
    if (a.selected) tr.className = "selected";
    else if (a.part) { tr.className = "parts"; parting++; }
    const reads = a.error ? `error at byte ${a.error.offset}: ${a.error.message}` : `ok, ${a.consumed} bytes`;
    const cells = [a.name, a.verified ? "✓ verified" : "derived", reads, a.value, a.part || ""];
    cells.forEach((t, k) => { const td = document.createElement("td"); td.textContent = t; if (k === 3) td.className = "val"; tr.appendChild(td); });
    tr.onclick = () => { state.godot = a.name; state.mode = "decode"; render(); };
    body.appendChild(tr);
  }
  status(`${all.length} versions read these ${bytes.length} bytes; ${parting} part from Godot ${base.name}`, parting > 0);
}

// ---------------------------------------------------------------- libraries
// The matrix of docs/implementations.md, from docs/implementations.json (implementations.js sets
// GDMARSHAL_IMPLEMENTATIONS): one row per library, version and Godot version it claims, passed /
// claimed per column.
function renderLibraries() {
  const m = window.GDMARSHAL_IMPLEMENTATIONS;
  const table = $("libraries");
  const head = document.createElement("tr");
  const body = table.tBodies[0];
  body.replaceChildren();
  const titles = ["library", "registry", "version", "Godot", ...m.categories.map((c) => c.title), "all"];
  head.replaceChildren(...titles.map((t) => Object.assign(document.createElement("th"), { textContent: t })));
  table.tHead.replaceChildren(head);
  const cell = (c) => (c.claimed ? `${c.passed}/${c.claimed}` : "—");
  for (const r of m.rows) {
    const lib = m.implementations.find((i) => i.id === r.implementation);
    const tr = document.createElement("tr");
    tr.dataset.implementation = r.implementation;
    tr.dataset.godot = r.godot;
    const texts = [lib.package, { npm: "npm", crates: "crates.io", pypi: "PyPI" }[lib.registry], lib.version, r.godot,
      ...r.cells.map(cell), cell(r.total)];
    for (const [k, t] of texts.entries()) {
      const td = document.createElement("td");
      td.textContent = t;
      if (k >= 4) td.className = t === "—" ? "none" : t.split("/")[0] === t.split("/")[1] ? "full" : "part";
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  $("libraries-note").textContent = `Cells: passed / claimed. ${m.rows.length} rows measured against the ${m.corpus}; ` +
    `each library's defects, with bytes and replay lines, are in docs/implementations.md.`;
  status(`${m.implementations.length} library versions, ${m.rows.length} rows`, false);
}

// ---------------------------------------------------------------- wiring
function render() {
  const t0 = performance.now();
  for (const b of document.querySelectorAll("#modes button")) b.classList.toggle("on", b.dataset.mode === state.mode);
  $("godot").value = state.godot;
  $("framing").value = state.framing;
  $("objects").checked = state.objects;
  $("input-kind").value = state.kind;
  $("decode-input").hidden = state.mode === "encode";
  $("encode-input").hidden = state.mode !== "encode";
  $("decode-view").hidden = state.mode !== "decode";
  $("versions-view").hidden = state.mode !== "versions";
  $("libraries-view").hidden = state.mode !== "libraries";
  $("input-pane").hidden = state.mode === "libraries";
  $("options").hidden = state.mode === "libraries";
  if (state.mode === "encode") renderEncode();
  else if (state.mode === "versions") renderVersions();
  else if (state.mode === "libraries") renderLibraries();
  else renderDecode();
  writeFragment();
  urlProblem = null; // said once: the URL now holds what the page shows
  document.body.dataset.renderMs = (performance.now() - t0).toFixed(1);
  // From choosing a file to its first rows drawn: what a person waits for.
  if (readStart !== null) document.body.dataset.fileMs = (performance.now() - readStart).toFixed(1);
  readStart = null;
  document.body.dataset.rendered = +document.body.dataset.rendered + 1;
}

function init() {
  const sel = $("godot");
  const groups = { true: document.createElement("optgroup"), false: document.createElement("optgroup") };
  groups.true.label = "verified against the real engine";
  groups.false.label = "derived from Godot's source";
  for (const p of codec.profiles()) {
    const o = document.createElement("option");
    o.value = p.name;
    o.textContent = p.verified ? `${p.name} ✓` : `${p.name} (derived)`;
    groups[p.verified].appendChild(o);
  }
  sel.append(groups.true, groups.false);
  readFragment();
  for (const b of document.querySelectorAll("#modes button")) b.onclick = () => { state.mode = b.dataset.mode; render(); };
  sel.onchange = () => { state.godot = sel.value; render(); };
  $("framing").onchange = () => { state.framing = $("framing").value; render(); };
  $("objects").onchange = () => { state.objects = $("objects").checked; render(); };
  $("input-kind").onchange = () => { state.kind = $("input-kind").value; render(); };
  let timer = null;
  const soon = () => { clearTimeout(timer); timer = setTimeout(render, 150); };
  $("bytes-in").oninput = () => { $("input-note").textContent = ""; fileBytes = null; inputProblem = null; inputGiven = true; soon(); };
  // Long pasted text goes straight to bytes: laying out megabytes of it in the box would hold
  // the page up, and it is shown there only up to TEXT_MAX bytes anyway.
  $("bytes-in").addEventListener("paste", (e) => {
    const text = e.clipboardData ? e.clipboardData.getData("text") : "";
    if (text.length <= 2 * TEXT_MAX) return;
    e.preventDefault();
    readStart = performance.now();
    const [u8, bad] = parseInput(text, state.kind);
    if (bad) { fileBytes = null; inputProblem = `pasted text: ${bad}`; $("bytes-in").value = ""; return render(); }
    inputProblem = null;
    setBytes(u8, `pasted: ${size(u8.length)} bytes`);
  });
  $("json-in").oninput = soon;
  const readFile = (file) => {
    readStart = performance.now();
    if (file.size > INPUT_MAX) {
      fileBytes = null;
      inputProblem = `${file.name}: ${tooLarge("the file", file.size, "bytes", INPUT_MAX)}; it was not read`;
      return render();
    }
    inputProblem = null;
    return file.arrayBuffer().then((b) => setBytes(new Uint8Array(b), `${file.name}: ${size(file.size)} bytes`));
  };
  $("file-in").onchange = () => { if ($("file-in").files[0]) readFile($("file-in").files[0]); };
  const pane = $("input-pane");
  pane.addEventListener("dragover", (e) => { e.preventDefault(); pane.classList.add("dragging"); });
  pane.addEventListener("dragleave", () => pane.classList.remove("dragging"));
  pane.addEventListener("drop", (e) => {
    e.preventDefault();
    pane.classList.remove("dragging");
    if (e.dataTransfer.files[0]) { state.mode = state.mode === "encode" ? "decode" : state.mode; readFile(e.dataTransfer.files[0]); }
  });
  window.addEventListener("hashchange", () => { readFragment(); render(); });
  render();
}

init();
