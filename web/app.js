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
  const out = (n) => JSON.parse(dec.decode(new Uint8Array(ex.memory.buffer, ex.gdm_out_ptr(), n)));
  const call = (f, req, data) => {
    const [rp, rl] = put(enc.encode(JSON.stringify(req)));
    const [dp, dl] = put(data);
    try { return out(f(rp, rl, dp, dl)); } finally { ex.gdm_free(rp, rl); ex.gdm_free(dp, dl); }
  };
  // The decode's value member as the codec wrote it (written first, before "profile"), so the
  // page shows (and the tests compare) the codec's own text, as `gdmarshal decode` prints it.
  const valueText = (text) =>
    text.startsWith('{"value":') ? text.slice(9, text.indexOf(',"profile":')) : null;
  return {
    profiles: () => out(ex.gdm_profiles()),
    decode(req, bytes) {
      const [rp, rl] = put(enc.encode(JSON.stringify(req)));
      const [dp, dl] = put(bytes);
      try {
        // The call may grow the memory: look at its buffer only after it.
        const n = ex.gdm_decode(rp, rl, dp, dl);
        const text = dec.decode(new Uint8Array(ex.memory.buffer, ex.gdm_out_ptr(), n));
        const a = JSON.parse(text);
        if (a.refused) return a;
        a.valueText = valueText(text);
        // Copies: the module's buffers are reused by the next call.
        const cells = new Uint32Array(ex.memory.buffer, ex.gdm_table_ptr(), a.nodes * NODE_CELLS + a.rows * ROW_CELLS).slice();
        const strings = new Uint8Array(ex.memory.buffer, ex.gdm_text_ptr(), a.text).slice();
        [a.nodes, a.rows] = tables(cells, strings, a.nodes, a.rows);
        return a;
      } finally { ex.gdm_free(rp, rl); ex.gdm_free(dp, dl); }
    },
    encode: (req, json) => call(ex.gdm_encode, req, enc.encode(json)),
  };
})();

// ---------------------------------------------------------------- a decode's nodes and rows
// The module answers them as flat tables of numbers (docs/web.md): per node start, end, parent and
// its label's offset and length in the text; per row start, end, node and its field's and
// meaning's. The text of a row is decoded only when the row is drawn or compared.
const NODE_CELLS = 5, ROW_CELLS = 7;
const utf8 = new TextDecoder();

function tables(cells, text, nodeCount, rowCount) {
  const str = (off, len) => utf8.decode(text.subarray(off, off + len));
  const base = nodeCount * NODE_CELLS;
  const extra = []; // rows the page adds: the error
  const nodes = {
    length: nodeCount,
    start: (i) => cells[i * NODE_CELLS],
    end: (i) => cells[i * NODE_CELLS + 1],
    parent: (i) => cells[i * NODE_CELLS + 2],
    label: (i) => str(cells[i * NODE_CELLS + 3], cells[i * NODE_CELLS + 4]),
  };
  const rows = {
    get length() { return rowCount + extra.length; },
    push: (r) => extra.push(r),
    start: (i) => (i < rowCount ? cells[base + i * ROW_CELLS] : extra[i - rowCount][0]),
    end: (i) => (i < rowCount ? cells[base + i * ROW_CELLS + 1] : extra[i - rowCount][1]),
    node: (i) => (i < rowCount ? cells[base + i * ROW_CELLS + 2] : extra[i - rowCount][2]),
    // [start, end, node, field, meaning, class]
    get(i) {
      if (i >= rowCount) return extra[i - rowCount];
      const b = base + i * ROW_CELLS;
      return [cells[b], cells[b + 1], cells[b + 2], str(cells[b + 3], cells[b + 4]), str(cells[b + 5], cells[b + 6]), ""];
    },
    // The bytes of row i's field and meaning, for comparing rows without decoding them.
    key(i) {
      const b = base + i * ROW_CELLS;
      return [text.subarray(cells[b + 3], cells[b + 3] + cells[b + 4]), text.subarray(cells[b + 5], cells[b + 5] + cells[b + 6])];
    },
  };
  return [nodes, rows];
}

const sameBytes = (x, y) => x.length === y.length && x.every((v, k) => v === y[k]);

// ---------------------------------------------------------------- state and the URL fragment
const state = { mode: "decode", godot: "4.6", framing: "none", objects: false, kind: "auto" };
let bytes = new Uint8Array(0);
let readStart = null; // when a file was chosen: its time to first rows goes to body's data-file-ms
let fileBytes = null; // a chosen or dropped file's bytes, until the text is edited
const TEXT_MAX = 1 << 16; // bytes shown as hex in the input box
let answer = null;   // the last decode
let hover = null;    // [start, end] highlighted

function readFragment() {
  const f = new URLSearchParams(location.hash.slice(1));
  for (const k of ["mode", "godot", "framing", "kind"]) if (f.has(k)) state[k] = f.get(k);
  if (f.has("objects")) state.objects = f.get("objects") === "1";
  if (f.has("hex")) { $("bytes-in").value = f.get("hex"); fileBytes = null; }
  else if (f.has("b64")) { $("bytes-in").value = f.get("b64"); fileBytes = null; }
  if (f.has("json")) $("json-in").value = f.get("json");
}

function writeFragment() {
  const f = new URLSearchParams();
  f.set("godot", state.godot);
  f.set("framing", state.framing);
  f.set("mode", state.mode);
  if (state.objects) f.set("objects", "1");
  if (state.mode === "encode") f.set("json", $("json-in").value);
  else if (bytes.length * 2 <= FRAGMENT_MAX) f.set("hex", toHex(bytes));
  const h = "#" + f.toString();
  if (h !== location.hash) history.replaceState(null, "", h);
}

// ---------------------------------------------------------------- input
const toHex = (u8) => Array.from(u8, (b) => b.toString(16).padStart(2, "0")).join("");

// The text's bytes, or why not: [bytes, null] or [null, message].
function parseInput(text, kind) {
  const t = text.replace(/\s+/g, "").replace(/^0x/i, "");
  const isHex = /^[0-9a-fA-F]*$/.test(t);
  if (kind === "hex" || (kind === "auto" && isHex)) {
    const bad = t.search(/[^0-9a-fA-F]/);
    if (bad >= 0) return [null, `character ${bad} (${JSON.stringify(t[bad])}) is not a hex digit`];
    if (t.length % 2) return [null, `odd number of hex digits (${t.length})`];
    const out = new Uint8Array(t.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(t.substr(i * 2, 2), 16);
    return [out, null];
  }
  try {
    return [Uint8Array.from(atob(t.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)), null];
  } catch (e) {
    return [null, "neither hex nor base64"];
  }
}

function setBytes(u8, note) {
  fileBytes = u8;
  const shown = u8.length <= TEXT_MAX;
  $("bytes-in").value = shown ? toHex(u8) : "";
  $("bytes-in").placeholder = shown ? "" : `${note} (too large to show as text)`;
  $("input-note").textContent = note;
  render();
}

// The bytes to read: the file's, or the text's; [bytes, null] or [null, why not].
function inputBytes() {
  return fileBytes ? [fileBytes, null] : parseInput($("bytes-in").value, state.kind);
}

// ---------------------------------------------------------------- decode view
function request() { return { godot: state.godot, framing: state.framing, objects: state.objects }; }

function status(text, isError) {
  $("status").textContent = text;
  $("status").className = isError ? "error" : "";
}

function renderDecode() {
  const [u8, bad] = inputBytes();
  if (bad) { answer = null; drawTable(); drawTree(); $("json").textContent = ""; return status(`input: ${bad}`, true); }
  bytes = u8;
  answer = codec.decode(request(), bytes);
  if (answer.refused) return status(answer.refused, true);
  const v = answer.verified ? "verified" : "derived";
  if (answer.error) {
    const e = answer.error;
    status(`error at byte ${e.offset} (0x${e.offset.toString(16)}), reading ${e.where}: ${e.message} [Godot ${answer.profile}, ${v}]`, true);
    answer.rows.push([e.offset, e.offset + 1, answer.rows.length ? answer.rows.node(answer.rows.length - 1) : 0, "error", e.message, "err"]);
  } else {
    status(`ok: Godot ${answer.profile} (${v}) reads ${answer.consumed} of ${bytes.length} bytes; ${answer.rows.length} fields, ${answer.nodes.length} values`, false);
  }
  showJson(answer.valueText || "");
  drawTable();
  drawTree();
  if (answer.error) scrollToRow(answer.rows.length - 1);
}

// Long JSON (a 1 MB PackedByteArray is 2 MB of it) is shown in part until asked for: laying out
// megabytes of text would hold the page up.
const JSON_SHOWN = 1 << 18;
function showJson(text) {
  const pre = $("json");
  if (text.length <= JSON_SHOWN) { pre.textContent = text; return; }
  pre.textContent = text.slice(0, JSON_SHOWN);
  const more = document.createElement("button");
  more.textContent = `… show all ${text.length.toLocaleString("en")} characters`;
  more.onclick = () => { pre.textContent = text; };
  pre.appendChild(more);
}

const hexOf = (s, e) => {
  const n = Math.min(e, s + 16, bytes.length);
  let t = "";
  for (let i = s; i < n; i++) t += bytes[i].toString(16).padStart(2, "0") + " ";
  return e - s > 16 ? t + `… (${e - s} bytes)` : t.trim();
};

// The table draws only the rows in view (a 1 MB input or a 50,000-entry Dictionary has ~10^5).
function drawTable() {
  const box = $("table"), space = $("table-space");
  const rows = answer ? answer.rows : { length: 0 };
  space.style.height = rows.length * ROW_H + "px";
  const first = Math.max(0, Math.floor(box.scrollTop / ROW_H) - 10);
  const last = Math.min(rows.length, first + Math.ceil(box.clientHeight / ROW_H) + 20);
  const depth = answer ? nodeDepths() : [];
  const frag = document.createDocumentFragment();
  for (let i = first; i < last; i++) {
    const [s, e, node, name, meaning, cls] = rows.get(i);
    const d = document.createElement("div");
    d.className = "trow" + (cls ? " " + cls : "") + (node === 0 && name !== "header" && name !== "error" ? "" : "");
    if (hover && s >= hover[0] && e <= hover[1] && !cls) d.classList.add("hl");
    d.style.top = i * ROW_H + "px";
    d.dataset.row = i;
    d.dataset.node = node;
    const ind = "\u00a0\u00a0".repeat(depth[node] || 0);
    for (const t of [s.toString(16).padStart(8, "0"), cls ? "" : hexOf(s, e), ind + name, meaning]) {
      const c = document.createElement("span");
      c.textContent = t;
      d.appendChild(c);
    }
    frag.appendChild(d);
  }
  space.replaceChildren(frag);
}

let depthCache = null;
function nodeDepths() {
  if (depthCache && depthCache.of === answer) return depthCache.d;
  const d = new Int32Array(answer.nodes.length);
  for (let i = 1; i < answer.nodes.length; i++) d[i] = d[answer.nodes.parent(i)] + 1;
  depthCache = { of: answer, d };
  return d;
}

function scrollToRow(i) {
  const box = $("table");
  box.scrollTop = Math.max(0, i * ROW_H - box.clientHeight / 2);
  drawTable();
}

// The tree: each value with its type and, for a leaf, what it holds; children drawn a page at a time.
// Its index is numbers only: children as one list ordered by parent (kidsFrom[i] to kidsFrom[i+1])
// and the first row of every node.
let treeIndex = null;
function indexTree() {
  const n = answer.nodes.length, rows = answer.rows;
  const kidsFrom = new Int32Array(n + 1), kids = new Int32Array(Math.max(0, n - 1));
  for (let i = 1; i < n; i++) kidsFrom[answer.nodes.parent(i) + 1]++;
  for (let i = 0; i < n; i++) kidsFrom[i + 1] += kidsFrom[i];
  const fill = kidsFrom.slice(0, n);
  for (let i = 1; i < n; i++) kids[fill[answer.nodes.parent(i)]++] = i;
  const firstRow = new Int32Array(n).fill(-1);
  for (let i = 0; i < rows.length; i++) { const nd = rows.node(i); if (firstRow[nd] < 0) firstRow[nd] = i; }
  const kidsOf = (i) => kids.subarray(kidsFrom[i], kidsFrom[i + 1]);
  treeIndex = { kidsOf, firstRow };
}

// A node's own rows (up to 4): its header and, for a leaf, what it holds.
function ownRows(i) {
  const out = [], rows = answer.rows;
  for (let r = treeIndex.firstRow[i]; r >= 0 && r < rows.length && out.length < 4; r++) {
    if (rows.node(r) === i) out.push(rows.get(r));
    else if (rows.start(r) >= answer.nodes.end(i)) break;
  }
  return out;
}

function nodeLabel(i) {
  const label = answer.nodes.label(i);
  const own = ownRows(i);
  const header = own.find((r) => r[3] === "header" && r[5] !== "err");
  const ty = header ? header[4].replace(/ \(id .*$/, "") : "";
  const kids = treeIndex.kidsOf(i).length;
  const sum = kids ? `${kids} nested`
    : own.filter((r) => r[3] !== "header" && r[3] !== "length" && r[3] !== "trailing bytes").map((r) => r[4]).join(", ");
  return [label, ty, sum.length > 80 ? sum.slice(0, 80) + "…" : sum];
}

function drawNode(i, into, open) {
  const div = document.createElement("div");
  div.className = "node";
  div.dataset.node = i;
  const lab = document.createElement("span");
  lab.className = "label";
  const [label, ty, sum] = nodeLabel(i);
  const kids = treeIndex.kidsOf(i);
  lab.innerHTML = `<span class="tw">${kids.length ? (open ? "▾" : "▸") : ""}</span>`;
  lab.append(label + " ");
  const t = document.createElement("span"); t.className = "ty"; t.textContent = ty + " "; lab.appendChild(t);
  const s = document.createElement("span"); s.className = "sum"; s.textContent = sum; lab.appendChild(s);
  div.appendChild(lab);
  into.appendChild(div);
  if (open) drawKids(i, div, 0);
}

function drawKids(i, div, from) {
  const kids = treeIndex.kidsOf(i);
  const end = Math.min(kids.length, from + TREE_PAGE);
  for (let k = from; k < end; k++) drawNode(kids[k], div, false);
  if (end < kids.length) {
    const more = document.createElement("div");
    more.className = "more";
    more.textContent = `… ${kids.length - end} more`;
    more.onclick = () => { more.remove(); drawKids(i, div, end); };
    div.appendChild(more);
  }
}

function drawTree() {
  const tree = $("tree");
  tree.replaceChildren();
  if (!answer || answer.refused) return;
  indexTree();
  drawNode(0, tree, true);
}

$("tree").addEventListener("click", (ev) => {
  const lab = ev.target.closest(".label");
  if (!lab) return;
  const div = lab.parentElement, i = +div.dataset.node;
  if (ev.target.classList.contains("tw") && treeIndex.kidsOf(i).length) {
    const open = div.children.length > 1;
    if (open) while (div.children.length > 1) div.lastChild.remove();
    else drawKids(i, div, 0);
    lab.firstChild.textContent = open ? "▸" : "▾";
  } else if (treeIndex.firstRow[i] >= 0) {
    scrollToRow(treeIndex.firstRow[i]);
  }
});

// Hovering a value lights its fields; hovering a field lights its value in the tree.
$("tree").addEventListener("mouseover", (ev) => {
  const div = ev.target.closest(".node");
  if (!div) return;
  const i = +div.dataset.node;
  hover = [answer.nodes.start(i), answer.nodes.end(i)];
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
// Each version reads the same bytes; a version parts from the selected one at the first field
// it reads differently (another offset, name or meaning), or where one of them stops.
function renderVersions() {
  const [u8, bad] = inputBytes();
  const body = $("versions").tBodies[0];
  body.replaceChildren();
  if (bad) return status(`input: ${bad}`, true);
  bytes = u8;
  const all = codec.profiles().map((p) => [p, codec.decode({ ...request(), godot: p.name }, bytes)]);
  const base = all.find(([p]) => p.name === state.godot) || all[all.length - 1];
  let parting = 0;
  for (const [p, a] of all) {
    const tr = document.createElement("tr");
    tr.dataset.godot = p.name;
    const part = partsAt(base[1], a);
    if (p.name === base[0].name) tr.className = "selected";
    else if (part) { tr.className = "parts"; parting++; }
    const reads = a.refused ? a.refused : a.error ? `error at byte ${a.error.offset}: ${a.error.message}` : `ok, ${a.consumed} bytes`;
    const cells = [p.name, p.verified ? "✓ verified" : "derived", reads, a.valueText ? a.valueText.slice(0, 300) : "", part || ""];
    cells.forEach((t, k) => { const td = document.createElement("td"); td.textContent = t; if (k === 3) td.className = "val"; tr.appendChild(td); });
    tr.onclick = () => { state.godot = p.name; state.mode = "decode"; render(); };
    body.appendChild(tr);
  }
  status(`${all.length} versions read these ${bytes.length} bytes; ${parting} part from Godot ${base[0].name}`, parting > 0);
}

function partsAt(a, b) {
  if (a.refused || b.refused) return a.refused === b.refused ? null : "refused";
  const n = Math.min(a.rows.length, b.rows.length);
  for (let i = 0; i < n; i++) {
    const [f1, m1] = a.rows.key(i), [f2, m2] = b.rows.key(i);
    if (a.rows.start(i) === b.rows.start(i) && a.rows.end(i) === b.rows.end(i) && sameBytes(f1, f2) && sameBytes(m1, m2)) continue;
    const [s1, , , n1, t1] = a.rows.get(i), [, , , n2, t2] = b.rows.get(i);
    return `at byte ${s1}: ${n1} “${t1}” here, ${n2} “${t2}” there`;
  }
  const ea = a.error ? a.error.offset : null, eb = b.error ? b.error.offset : null;
  if (ea !== eb || (a.error && b.error && a.error.message.replace(/Godot \S+/, "") !== b.error.message.replace(/Godot \S+/, ""))) {
    const at = Math.min(ea ?? Infinity, eb ?? Infinity);
    return `at byte ${at}: ${eb !== null ? (b.error.message) : "reads on"} there, ${ea !== null ? a.error.message : "reads on"} here`;
  }
  if (a.rows.length !== b.rows.length) return `at field ${n}`;
  return null;
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
  if (state.mode === "encode") renderEncode();
  else if (state.mode === "versions") renderVersions();
  else renderDecode();
  writeFragment();
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
  $("bytes-in").oninput = () => { $("input-note").textContent = ""; fileBytes = null; soon(); };
  $("json-in").oninput = soon;
  const readFile = (file) => {
    readStart = performance.now();
    return file.arrayBuffer().then((b) => setBytes(new Uint8Array(b), `${file.name}: ${file.size.toLocaleString("en")} bytes`));
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
