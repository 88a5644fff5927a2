"""The inspector (web/) in a real browser: headless Chromium driven by Selenium.

For corpus cases of every verified version, the page's decode and encode must equal the CLI's
(`gdmarshal decode/encode`); a malformed input must show the error offset the CLI names; the
every-version view must mark a 3.x/4.x difference; each mode's screenshot must not be blank. It
also prints the time to the first rendered rows for a 1 MB PackedByteArray and a 50,000-entry
Dictionary (figures, not assertions). Run by `scripts/web.sh test`; the closing line is
"N passed, N failed".
"""

import argparse
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

# The repository: the page's matrix is read from its docs/.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# corpus/godot-<version>.stable[-double].jsonl -> the --godot name of its profile
CORPUS_FILE = re.compile(r"^godot-(\d+\.\d+)\.\d+\.stable(-double)?\.jsonl$")


class Run:
    """The browser, the CLI and the tally."""

    def __init__(self, args, driver):
        self.args = args
        self.driver = driver
        self.passed = 0
        self.failed = []
        self.nonce = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed.append(what)
            print(f"FAIL: {what}", file=sys.stderr)

    def cli(self, *argv, stdin):
        """The CLI's answer: (ok, stdout, stderr)."""
        p = subprocess.run([self.args.gdmarshal, *argv], input=stdin.encode(), capture_output=True,
                           timeout=60, check=False)
        return p.returncode == 0, p.stdout.decode().strip(), p.stderr.decode().strip()

    def show(self, **state):
        """Sets the URL fragment and waits until the page has drawn it."""
        self.nonce += 1
        state["n"] = str(self.nonce)
        before = self.driver.find_element(By.TAG_NAME, "body").get_attribute("data-rendered")
        self.driver.execute_script("location.hash = arguments[0]", urllib.parse.urlencode(state))
        try:
            WebDriverWait(self.driver, 60).until(
                lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-rendered") != before)
        except Exception:
            for entry in self.driver.get_log("browser"):
                print(f"browser: {entry['message'][:300]}", file=sys.stderr)
            print(f"the page did not draw {str(state)[:300]}", file=sys.stderr)
            raise

    def text(self, element_id):
        return self.driver.execute_script(
            "const e = document.getElementById(arguments[0]); return 'value' in e && e.tagName === 'TEXTAREA' ? e.value : e.textContent",
            element_id)


def corpus_cases(corpus, count):
    """{godot name: (decode cases, encode cases)}: `count` of each spread evenly over the file,
    and the cases at the nesting limits."""
    out = {}
    for name in sorted(os.listdir(corpus)):
        m = CORPUS_FILE.match(name)
        if not m:
            continue
        records = [json.loads(line) for line in open(os.path.join(corpus, name), encoding="utf-8") if line.strip()]
        # Spread evenly, and every case at the nesting limits: the module runs them on its own
        # fixed stack (no stack growth on wasm32).
        def pick(rs):
            spread = [rs[i * len(rs) // count] for i in range(min(count, len(rs)))]
            return spread + [r for r in rs if "depth" in r["name"] and r not in spread]
        decodes = [r for r in records if r.get("direction") == "decode" and "input" in r]
        encodes = [r for r in records if r.get("direction") == "encode" and "value" in r]
        out[m.group(1) + (m.group(2) or "")] = (pick(decodes), pick(encodes))
    return out


def error_offset(text):
    m = re.search(r"at byte (\d+)", text)
    return int(m.group(1)) if m else None


def cli_message(err):
    """The CLI's error without its `gdmarshal: stdin` prefix: what the page must end with."""
    tail = err.split("stdin", 1)[-1]
    return tail[1:].lstrip() if tail.startswith(":") else None


def check_decodes(run, godot, cases):
    for case in cases:
        objects = bool(case.get("objects"))
        flags = ["--objects"] if objects else []
        ok, out, err = run.cli("decode", "--godot", godot, "--hex", *flags, stdin=case["input"])
        run.show(mode="decode", godot=godot, framing="none", hex=case["input"], objects="1" if objects else "0")
        page_json, status = run.text("json"), run.text("status")
        if ok:
            run.check(page_json == out, f"decode {godot} {case['name']}: page {page_json[:120]!r} != CLI {out[:120]!r}")
        else:
            run.check(page_json == "" and error_offset(status) == error_offset(err) is not None,
                      f"decode {godot} {case['name']}: page says {status!r}, CLI {err!r}")


def check_encodes(run, godot, cases):
    for case in cases:
        objects = bool(case.get("objects"))
        flags = ["--objects"] if objects else []
        value = json.dumps(case["value"], ensure_ascii=False, separators=(",", ":"))
        ok, out, err = run.cli("encode", "--godot", godot, "--hex", *flags, stdin=value)
        run.show(mode="encode", godot=godot, framing="none", json=value, objects="1" if objects else "0")
        page_hex, status = run.text("hex-out"), run.text("status")
        if ok:
            run.check(page_hex == out, f"encode {godot} {case['name']}: page {page_hex[:120]!r} != CLI {out[:120]!r}")
        else:
            want = cli_message(err)
            run.check(page_hex == "" and want is not None and status.startswith("error at $") and status.endswith(want),
                      f"encode {godot} {case['name']}: page says {status!r}, CLI {err!r}")


def check_malformed(run):
    """A value cut short: the page names the offset the CLI names, and marks that row."""
    ok, full, _ = run.cli("encode", "--godot", "4.6", "--hex",
                          stdin='{"type":"Array","value":[{"type":"String","value":"hello"}]}')
    cut = full[:-6]
    ok2, _, err = run.cli("decode", "--godot", "4.6", "--hex", stdin=cut)
    want = error_offset(err)
    run.check(ok and not ok2 and want is not None, f"the CLI rejects {cut} with an offset: {err!r}")
    run.show(mode="decode", godot="4.6", framing="none", hex=cut)
    run.check(error_offset(run.text("status")) == want, f"malformed: page says {run.text('status')!r}, CLI {err!r}")
    rows = run.driver.find_elements(By.CSS_SELECTOR, ".trow.err")
    run.check(len(rows) == 1 and rows[0].text.startswith(f"{want:08x}"),
              f"malformed: the error row is at {want:08x}: {[r.text for r in rows]}")


def check_versions(run, corpus):
    """An empty Dictionary as 4.6.3 wrote it: id 27 is Dictionary in 4.x and no type in 3.x."""
    record = next(json.loads(line) for line in open(os.path.join(corpus, "godot-4.6.3.stable.jsonl"), encoding="utf-8")
                  if '"encode/Dictionary/empty"' in line)
    data = record["output"]
    ok3, _, _ = run.cli("decode", "--godot", "3.6", "--hex", stdin=data)
    ok4, _, _ = run.cli("decode", "--godot", "4.6", "--hex", stdin=data)
    run.check(ok4 and not ok3, "the CLI reads the 4.6 Dictionary with 4.6 only")
    run.show(mode="versions", godot="4.6", framing="none", hex=data)
    rows = run.driver.find_elements(By.CSS_SELECTOR, "#versions tbody tr")
    parts = {r.get_attribute("data-godot"): "parts" in (r.get_attribute("class") or "") for r in rows}
    run.check(len(parts) > 0 and all(parts[g] == g.startswith("3.") for g in parts),
              f"every version: 3.x and only 3.x part from 4.6: {parts}")


def check_libraries(run):
    """The libraries view shows docs/implementations.md's matrix, row for row and cell for cell."""
    page = open(os.path.join(ROOT, "docs", "implementations.md"), encoding="utf-8").read()
    table = page.split("## The matrix", 1)[1].split("## The libraries", 1)[0]
    want = [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in table.splitlines() if line.startswith("| ")][1:]
    run.show(mode="libraries")
    got = run.driver.execute_script(
        "return Array.from(document.querySelectorAll('#libraries tbody tr'),"
        " (tr) => Array.from(tr.cells, (td) => td.textContent))")
    run.check(len(want) > 0 and got == want,
              f"the libraries view is the page's matrix: {len(got)} rows, {len(want)} on the page"
              + ("" if got == want else f"; first difference {next((g, w) for g, w in zip(got + [[]] * len(want), want) if g != w)}"))
    run.check(run.driver.find_element(By.ID, "input-pane").get_attribute("hidden") is not None,
              "the libraries view hides the byte input")


def screenshot(run, name):
    path = os.path.join(run.args.shots, f"{name}.png")
    run.driver.save_screenshot(path)
    with Image.open(path) as img:
        colours = img.convert("RGB").getcolors(maxcolors=1 << 16)
        # getcolors gives None past maxcolors: many colours, surely not blank.
        many = colours is None or len(colours) > 8
        run.check(img.width > 400 and img.height > 300 and many, f"screenshot {path} looks blank")
    print(f"screenshot: {path}")


def shown_rows(run, selector):
    """The table rows drawn that match `selector`: [offset, bytes, field, meaning] each."""
    return run.driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0]))"
        ".map(r => Array.from(r.children).map(c => c.textContent.trim()))", selector)


def inspect_rows(dump):
    """The field lines of `gdmarshal inspect` (columns of 8, 50 and 24 characters; the lines of
    nested values have no bytes) as [offset, bytes, field, meaning]."""
    return [[line[:8], line[9:59].strip(), line[60:84].strip(), line[85:].strip()]
            for line in dump.splitlines()[1:-1] if line[9:59].strip()]


def check_rows_and_hover(run):
    """The table's rows are `gdmarshal inspect`'s fields; hovering a value lights its fields and
    hovering a field lights its value."""
    ok, data, _ = run.cli("encode", "--godot", "4.6", "--hex", stdin=json.dumps(
        {"type": "Dictionary", "value": [[{"type": "String", "value": "pos"}, {"type": "Vector2", "value": ["1.5", "-2"]}]]}))
    ok2, dump, _ = run.cli("inspect", "--godot", "4.6", "--hex", stdin=data)
    want = inspect_rows(dump)
    run.show(mode="decode", godot="4.6", framing="none", hex=data)
    run.check(ok and ok2 and shown_rows(run, ".trow") == want,
              f"the table's rows are gdmarshal inspect's: {shown_rows(run, '.trow')} vs {want}")
    vector_at = next(int(r[0], 16) for r in want if r[3].startswith("Vector2"))
    vector = next(n for n in run.driver.find_elements(By.CSS_SELECTOR, ".node > .label") if " Vector2 " in n.text)
    ActionChains(run.driver).move_to_element(vector).perform()
    lit = shown_rows(run, ".trow.hl")
    run.check(lit == [r for r in want if int(r[0], 16) >= vector_at], f"hovering the Vector2 lights its fields: {lit}")
    y_row = next(r for r in run.driver.find_elements(By.CSS_SELECTOR, ".trow") if r.text.split()[-2] == "y")
    ActionChains(run.driver).move_to_element(y_row).perform()
    lit_nodes = [n.text for n in run.driver.find_elements(By.CSS_SELECTOR, ".node.hl > .label")]
    run.check(len(lit_nodes) == 1 and " Vector2 " in lit_nodes[0], f"hovering y lights the Vector2: {lit_nodes}")


def check_base64_and_fragment(run):
    """Base64 input reads as its hex does; choosing a version in the page writes it to the URL."""
    data = "1c000000020000000200000001000000040000000200000068690000"
    ok, want, _ = run.cli("decode", "--godot", "4.6", "--hex", stdin=data)
    run.show(mode="decode", godot="4.6", framing="none", b64=base64.b64encode(bytes.fromhex(data)).decode())
    run.check(ok and run.text("json") == want, f"base64 input: {run.text('json')!r} != CLI {want!r}")
    before = run.driver.find_element(By.TAG_NAME, "body").get_attribute("data-rendered")
    Select(run.driver.find_element(By.ID, "godot")).select_by_value("3.6")
    WebDriverWait(run.driver, 60).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-rendered") != before)
    fragment = urllib.parse.parse_qs(run.driver.execute_script("return location.hash.slice(1)"))
    run.check(fragment.get("godot") == ["3.6"] and fragment.get("hex") == [data],
              f"the URL fragment holds the chosen version and the bytes: {fragment}")


def check_first_visit(run):
    """The page opened without a fragment asks for input: no error, no bytes in the URL."""
    status = run.text("status")
    cls = run.driver.find_element(By.ID, "status").get_attribute("class")
    fragment = urllib.parse.parse_qs(run.driver.execute_script("return location.hash.slice(1)"))
    run.check(status.startswith("paste hex or base64") and cls != "error" and "hex" not in fragment,
              f"a first visit: {status!r} ({cls!r}), fragment {fragment}")


def check_fragment_edges(run):
    """An unknown fragment value is named, not obeyed; a fragment without `objects` turns objects
    off; the link after an input error holds the text that failed."""
    data = "0200000001000000"
    ok, want, _ = run.cli("decode", "--godot", "4.6", "--hex", stdin=data)
    run.show(mode="bogus", godot="4.6", framing="none", hex=data)
    status = run.text("status")
    shown = run.driver.execute_script("return !document.getElementById('decode-view').hidden")
    mode = urllib.parse.parse_qs(run.driver.execute_script("return location.hash.slice(1)")).get("mode")
    run.check(ok and shown and run.text("json") == want and "mode=bogus is not one of decode, encode, versions, libraries" in status
              and mode == ["decode"], f"an unknown mode is named and decode shown: {status!r}, mode {mode}")
    run.show(mode="decode", godot="4.6", framing="none", objects="1", hex=data)
    run.show(mode="decode", godot="4.6", framing="none", hex=data)
    on = run.driver.execute_script("return document.getElementById('objects').checked")
    run.check(not on, "a fragment without objects turns objects off")
    run.show(mode="decode", godot="4.6", framing="none", hex="02000000zz")
    fragment = urllib.parse.parse_qs(run.driver.execute_script("return location.hash.slice(1)"))
    run.check(fragment.get("hex") == ["02000000zz"], f"the link keeps the text that failed: {fragment}")


def check_framing_notes(run):
    """Framing none: bytes after the value are not called inside a framed length, and a length
    prefix that matches the rest is pointed out."""
    run.show(mode="decode", godot="4.6", framing="none", hex="0200000001000000ffff")
    rows = [r.text for r in run.driver.find_elements(By.CSS_SELECTOR, ".trow")]
    run.check(any("trailing bytes" in r and "not read" in r for r in rows)
              and not any("framed length" in r for r in rows), f"trailing bytes, framing none: {rows}")
    ok, data, _ = run.cli("encode", "--godot", "4.6", "--hex", stdin='{"type":"String","value":"hello, world"}')
    framed = f"{len(data) // 2:02x}000000" + data
    run.show(mode="decode", godot="4.6", framing="none", hex=framed)
    status = run.text("status")
    run.check(ok and "the first 4 bytes hold the length of the rest" in status, f"a length prefix, framing none: {status!r}")
    run.show(mode="decode", godot="4.6", framing="store_var", hex=framed)
    status = run.text("status")
    run.check(status.startswith("ok") and "length of the rest" not in status, f"the same bytes as store_var: {status!r}")


def check_tree_summaries(run):
    """A leaf's summary in the tree holds its components, "…" where it shows only the first; a
    NodePath's is its path."""
    for value, want in [
        ('{"type":"Color","value":["0.1","0.2","0.3","0.4"]}', lambda t: "0.1, 0.2, 0.3, 0.4" in t and "…" not in t),
        ('{"type":"Quaternion","value":["1","2","3","4"]}', lambda t: "1.0, 2.0, 3.0, 4.0" in t and "…" not in t),
        ('{"type":"Transform3D","value":["1","2","3","4","5","6","7","8","9","10","11","12"]}',
         lambda t: t.endswith("1.0, 2.0, 3.0, 4.0, …")),
        ('{"type":"NodePath","names":["root","a"],"subnames":["b"],"absolute":true}', lambda t: '"/root/a:b"' in t),
    ]:
        ok, data, _ = run.cli("encode", "--godot", "4.6", "--hex", stdin=value)
        run.show(mode="decode", godot="4.6", framing="none", hex=data)
        labels = [n.text for n in run.driver.find_elements(By.CSS_SELECTOR, ".node > .label")]
        run.check(ok and len(labels) == 1 and want(labels[0]), f"the tree's summary of {value}: {labels}")


def check_error_placement(run):
    """An error's row belongs to the value that failed, and a deep error's path is a line."""
    # Array [int 1, a type id past the last]: the error is element [1]'s, not [0]'s.
    run.show(mode="decode", godot="4.6", framing="none", hex="1c000000020000000200000001000000c8000000")
    err = next((r for r in run.driver.find_elements(By.CSS_SELECTOR, ".trow") if "error" in r.text.split()), None)
    if err is not None:
        ActionChains(run.driver).move_to_element(err).perform()
    lit = [n.text for n in run.driver.find_elements(By.CSS_SELECTOR, ".node.hl > .label")]
    run.check(err is not None and len(lit) == 1 and lit[0].startswith("[1]"), f"the error row lights element [1]: {lit}")
    run.show(mode="decode", godot="4.6", framing="none", hex="1c00000001000000" * 2000 + "c8000000")
    status = run.text("status")
    run.check(status.startswith("error at byte") and "more …" in status and len(status) < 400,
              f"a deep error's path is shortened: {len(status)} characters: {status[:300]!r}")


def check_hex_spellings(run):
    """Hex with separators or 0x prefixes reads as hex; a typo in hex is named, not read as
    base64; base64 read by "auto" says so."""
    data = "0200000001000000"
    ok, want, _ = run.cli("decode", "--godot", "4.6", "--hex", stdin=data)
    for spelled in ["02-00-00-00-01-00-00-00", "0x02 0x00 0x00 0x00 0x01 0x00 0x00 0x00",
                    "02:00:00:00:01:00:00:00", "0x02,0x00,0x00,0x00,0x01,0x00,0x00,0x00"]:
        run.show(mode="decode", godot="4.6", framing="none", hex=spelled)
        run.check(ok and run.text("json") == want, f"{spelled!r} reads as hex: {run.text('json')!r}")
    # A typo under the hex= key is named; "auto" may read the same text as base64, and says so.
    run.show(mode="decode", godot="4.6", framing="none", hex="0200000g01000000")
    status = run.text("status")
    run.check("character 7" in status and "is not a hex digit" in status, f"a hex typo is named: {status!r}")
    run.show(mode="decode", godot="4.6", framing="none", kind="auto", hex="0200000g01000000")
    note = run.text("input-note")
    run.check(note.startswith("read as base64: not hex (character 7") and "is not a hex digit" in note,
              f"auto says it read a hex typo as base64: {note!r}")
    # Base64 that "auto" reads says that it did.
    b64 = base64.b64encode(bytes.fromhex(data)).decode()
    run.show(mode="decode", godot="4.6", framing="none", kind="auto", hex=b64)
    note = run.text("input-note")
    run.check(run.text("json") == want and note.startswith("read as base64: not hex"),
              f"auto reads {b64!r} as base64 and says so: {note!r}")


def check_screenshots(run):
    os.makedirs(run.args.shots, exist_ok=True)
    ok, data, _ = run.cli("encode", "--godot", "4.6", "--hex", stdin=json.dumps(
        {"type": "Dictionary", "value": [[{"type": "String", "value": "hp"}, {"type": "int", "value": "100"}],
                                         [{"type": "String", "value": "pos"}, {"type": "Vector2", "value": ["1.5", "-2"]}],
                                         [{"type": "String", "value": "tags"}, {"type": "PackedStringArray", "value": ["a", "b"]}]]}))
    run.check(ok, "the CLI encodes the screenshot's value")
    run.show(mode="decode", godot="4.6", framing="store_var", hex=f"{len(data) // 2:02x}000000" + data)
    screenshot(run, "decode")
    run.show(mode="encode", godot="3.6", framing="none", json='{"type":"Array","value":[{"type":"int","value":"7"},{"type":"String","value":"hi"}]}')
    screenshot(run, "encode")
    run.show(mode="versions", godot="4.6", framing="none", hex=data)
    screenshot(run, "versions")
    run.show(mode="libraries")
    screenshot(run, "libraries")


def first_rows(run, label, data):
    """Feeds `data` as a chosen file; prints the time until the page has drawn its first rows."""
    with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
        f.write(data)
    run.show(mode="decode", godot="4.6", framing="none", hex="")
    body = run.driver.find_element(By.TAG_NAME, "body")
    before = body.get_attribute("data-rendered")
    start = time.monotonic()
    run.driver.find_element(By.ID, "file-in").send_keys(f.name)
    WebDriverWait(run.driver, 120, poll_frequency=0.01).until(lambda d: body.get_attribute("data-rendered") != before)
    wall = (time.monotonic() - start) * 1000
    drawn = len(run.driver.find_elements(By.CSS_SELECTOR, ".trow"))
    status = run.text("status")
    os.unlink(f.name)
    run.check(status.startswith("ok") and 0 < drawn < 200, f"{label}: {status!r}, {drawn} rows drawn (only those in view)")
    print(f"responsiveness: {label} ({len(data):,} bytes): first rows {body.get_attribute('data-file-ms')} ms "
          f"after the file was chosen (decode and draw: {body.get_attribute('data-render-ms')} ms; "
          f"{wall:.0f} ms as the driver saw it; {drawn} rows drawn); {memory_note(run)}")


def renderer_memory(run):
    """The peak and current resident memory (MB) of the browser's renderer processes, the largest
    of them: the tab's whole footprint (JS heap, wasm memory and DOM), read from /proc."""
    children, procs = {}, {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                procs[int(pid)] = f.read()
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(pid))
    todo, seen = [run.driver.service.process.pid], []
    while todo:
        pid = todo.pop()
        seen.append(pid)
        todo.extend(children.get(pid, []))
    peak = rss = 0
    for pid in seen:
        if b"--type=renderer" not in procs.get(pid, b""):
            continue
        try:
            with open(f"/proc/{pid}/status", encoding="utf-8") as f:
                status = dict(line.split(":", 1) for line in f if ":" in line)
        except OSError:
            continue
        peak = max(peak, int(status["VmHWM"].split()[0]) // 1024)
        rss = max(rss, int(status["VmRSS"].split()[0]) // 1024)
    return peak, rss


def memory_note(run):
    """The JS heap (performance.memory), the module's memory and the renderer's, as printed."""
    heap, wasm = run.driver.execute_script(
        "return [performance.memory ? performance.memory.usedJSHeapSize : null,"
        " document.body.dataset.wasmBytes || null]")
    peak, rss = renderer_memory(run)
    mb = lambda n: "?" if n is None else f"{int(n) / 1e6:.0f} MB"
    return f"JS heap {mb(heap)}, wasm memory {mb(wasm)}, renderer {rss} MB (peak so far {peak} MB)"


def nils_hex(n):
    """The hex of an Array of `n` Nils, built in the page (20 MB of text does not cross the driver)."""
    return ("const n = arguments[0], le = (v) => [0, 8, 16, 24].map((s) => ((v >>> s) & 255)"
            ".toString(16).padStart(2, '0')).join('');"
            "return '1c000000' + le(n) + '00000000'.repeat(n);")


def paste(run, script, *args):
    """Pastes the text `script` returns (run in the page) into the bytes box, as a person's paste
    does: a paste event holding the text."""
    run.driver.execute_script(
        "const text = (() => {" + script + "})(); const data = new DataTransfer();"
        "data.setData('text/plain', text);"
        "document.getElementById('bytes-in').dispatchEvent(new ClipboardEvent('paste', "
        "{clipboardData: data, bubbles: true, cancelable: true}));", *args)


def drawn_rows(run):
    """The table rows drawn: {row index: [offset, bytes, field, meaning]}."""
    return {int(i): cells for i, cells in run.driver.execute_script(
        "return Array.from(document.querySelectorAll('.trow'))"
        ".map(r => [r.dataset.row, Array.from(r.children).map(c => c.textContent.trim())])")}


def scroll_table(run, row):
    """Scrolls the table to `row` and waits until it is drawn."""
    run.driver.execute_script(
        "const t = document.getElementById('table'); t.scrollTop = arguments[0] * 20;"
        "t.dispatchEvent(new Event('scroll'));", row)
    WebDriverWait(run.driver, 30).until(lambda d: row in drawn_rows(run))
    return drawn_rows(run)


def paste_large(run, label, n):
    """Pastes the hex of an Array of `n` Nils; prints the time until the page has drawn it, and
    checks the rows in the middle and that the tree draws a page of the values."""
    run.show(mode="decode", godot="4.6", framing="none", hex="")
    body = run.driver.find_element(By.TAG_NAME, "body")
    before = body.get_attribute("data-rendered")
    start = time.monotonic()
    paste(run, nils_hex(n), n)
    WebDriverWait(run.driver, 300, poll_frequency=0.01).until(lambda d: body.get_attribute("data-rendered") != before)
    wall = (time.monotonic() - start) * 1000
    drawn = len(run.driver.find_elements(By.CSS_SELECTOR, ".trow"))
    status = run.text("status")
    run.check(status.startswith(f"ok: Godot 4.6 (verified) reads {8 + 4 * n} of {8 + 4 * n} bytes") and 0 < drawn < 200,
              f"{label} pasted: {status!r}, {drawn} rows drawn")
    print(f"responsiveness: {label} pasted as hex ({8 + 4 * n:,} bytes): first rows "
          f"{body.get_attribute('data-file-ms')} ms after the paste ({wall:.0f} ms as the driver saw it, making the "
          f"text included; {drawn} rows drawn); {memory_note(run)}")
    # The CLI's rows for three Nils: the pattern of every element's row.
    ok, dump, _ = run.cli("inspect", "--godot", "4.6", "--hex", stdin="1c00000003000000" + "00000000" * 3)
    element = inspect_rows(dump)[2]
    middle = n // 2
    rows = scroll_table(run, middle)
    want = {i: [f"{8 + 4 * (i - 2):08x}", *element[1:]] for i in rows}
    run.check(ok and rows == want and len(rows) > 20, f"{label}: the rows at {middle}: {str(rows)[:300]} vs {str(want)[:300]}")
    nodes = run.driver.find_elements(By.CSS_SELECTOR, ".node")
    more = run.text("tree").rsplit("…", 1)[-1].strip()
    run.check(len(nodes) == 201 and more == f"{n - 200} more",
              f"{label}: the tree draws the value and 200 of its {n}: {len(nodes)} drawn, then {more!r}")


def check_scrolled_rows(run):
    """At any scrolled position the table's rows are `gdmarshal inspect`'s rows at that index:
    containers, strings, vectors and a PackedStringArray's strings (read again with their
    array), framed with store_var."""
    strings = [{"type": "String", "value": f"s{i}"} for i in range(400)]
    values = [{"type": "int", "value": str(i * 7)} for i in range(300)] + strings + [
        {"type": "PackedStringArray", "value": [f"element {i}" for i in range(600)]},
        {"type": "Dictionary", "value": [[{"type": "String", "value": f"k{i}"}, {"type": "Vector2", "value": [str(i), "-2.5"]}]
                                          for i in range(200)]},
        {"type": "Color", "value": ["1", "0.5", "0.25", "1"]}]
    ok, data, err = run.cli("encode", "--godot", "4.6", "--hex", stdin=json.dumps({"type": "Array", "value": values}))
    framed = f"{len(data) // 2:08x}"
    framed = "".join(reversed([framed[i:i + 2] for i in range(0, 8, 2)])) + data
    ok2, dump, _ = run.cli("inspect", "--godot", "4.6", "--hex", stdin=data)
    # The page's rows are the value's moved by the 4-byte length, after the length's own row.
    want = [[f"{int(r[0], 16) + 4:08x}", *r[1:]] for r in inspect_rows(dump)]
    run.check(ok and ok2, f"the CLI encodes and inspects the scrolled rows' value: {err}")
    run.show(mode="decode", godot="4.6", framing="store_var", hex=framed)
    for at in (0, 350, 1000, 1500, 1650, len(want) - 5):
        rows = scroll_table(run, at + 1)
        bad = {i: (r, want[i - 1] if i <= len(want) else None) for i, r in rows.items()
               if i > 0 and (i > len(want) or r != want[i - 1])}
        first = rows.get(0)
        run.check(len(rows) > 20 and not bad and (first is None or first[2] == "length"),
                  f"scrolled to row {at + 1}: rows differ from the CLI's: {str(bad)[:400]}")
    # Cut short inside the last Vector2: the page scrolls to the error, marked at the byte the CLI
    # names, after the CLI's rows.
    cut = data[:len(data) - 46]
    ok, _, err = run.cli("decode", "--godot", "4.6", "--hex", stdin=cut)
    _, dump, _ = run.cli("inspect", "--godot", "4.6", "--hex", stdin=cut)
    want = inspect_rows(dump)
    at = error_offset(err)
    run.show(mode="decode", godot="4.6", framing="none", hex=cut)
    rows = drawn_rows(run)
    error_row = max(rows) if rows else None
    before = {i: r for i, r in rows.items() if i != error_row}
    run.check(not ok and at is not None and error_row == len(want) and rows[error_row][0] == f"{at:08x}"
              and error_offset(run.text("status")) == at and before == {i: want[i] for i in before} and len(before) > 10,
              f"an error after 1,700 rows is marked at byte {at}, after the CLI's rows: row {error_row} of {len(want)}, "
              f"{rows.get(error_row)}, status {run.text('status')!r}")


def check_input_limits(run):
    """Hex stops at the first character that is not a hex digit and says where (in the text as
    pasted); an input over the limit is refused with its size, unread."""
    run.show(mode="decode", godot="4.6", framing="none", kind="hex", hex="1c000000\n0100 00zz00")
    status = run.text("status")
    run.check("character 16 (line 2, column 8), \"z\", is not a hex digit" in status, f"a bad hex digit: {status!r}")
    run.show(mode="decode", godot="4.6", framing="none", kind="hex", hex="")
    body = run.driver.find_element(By.TAG_NAME, "body")
    before = body.get_attribute("data-rendered")
    paste(run, "return '1c000000' + '0'.repeat(150000) + 'g' + '00';")
    WebDriverWait(run.driver, 60).until(lambda d: body.get_attribute("data-rendered") != before)
    status = run.text("status")
    run.check("character 150,008 (line 1, column 150,009), \"g\", is not a hex digit" in status,
              f"a long paste that is not hex: {status!r}")
    limit = 16 << 20
    with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
        f.truncate(limit + 1)
    before = body.get_attribute("data-rendered")
    start = time.monotonic()
    run.driver.find_element(By.ID, "file-in").send_keys(f.name)
    WebDriverWait(run.driver, 60).until(lambda d: body.get_attribute("data-rendered") != before)
    took = time.monotonic() - start
    os.unlink(f.name)
    status = run.text("status")
    run.check(f"the file is {limit + 1:,} bytes, over the page's limit of {limit:,} bytes" in status
              and not run.driver.find_elements(By.CSS_SELECTOR, ".trow"),
              f"a file over the limit: {status!r}")
    print(f"input limit: a file of {limit + 1:,} bytes refused in {took * 1000:.0f} ms")
    run.show(mode="decode", godot="4.6", framing="none", kind="auto", hex="")


def check_large(run):
    n = 1 << 20
    first_rows(run, "1 MB PackedByteArray", bytes([29, 0, 0, 0]) + n.to_bytes(4, "little") + bytes(i % 251 for i in range(n)))
    entries = [[{"type": "int", "value": str(i)}, {"type": "int", "value": str(i * 3)}] for i in range(50000)]
    ok, data, err = run.cli("encode", "--godot", "4.6", "--hex", stdin=json.dumps({"type": "Dictionary", "value": entries}))
    run.check(ok, f"the CLI encodes a 50,000-entry Dictionary: {err}")
    first_rows(run, "50,000-entry Dictionary", bytes.fromhex(data))
    n = (10_000_000 - 8) // 4
    first_rows(run, "10 MB Array of Nils", bytes.fromhex("1c000000") + n.to_bytes(4, "little") + bytes(4 * n))
    paste_large(run, "10 MB Array of Nils", n)
    # Back to a small input: the module drops the large one's rows.
    first_rows(run, "1 MB PackedByteArray again", bytes([29, 0, 0, 0]) + (1 << 20).to_bytes(4, "little") + bytes(1 << 20))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--page", required=True)
    ap.add_argument("--gdmarshal", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--shots", required=True)
    ap.add_argument("--cases", type=int, default=100)
    ap.add_argument("--large-only", action="store_true",
                    help="only the large inputs, in a fresh browser: their figures without the rest's memory")
    args = ap.parse_args()
    opts = webdriver.ChromeOptions()
    # The test sets the URL fragment hundreds of times a minute, which Chromium would throttle.
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1400,1000", "--disable-ipc-flooding-protection",
                 "--enable-precise-memory-info"):
        opts.add_argument(flag)
    opts.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='gdmarshal-chromium-')}")
    # The driver and its browser in their own process group, ended with the run.
    # Chromium and its driver from Debian's packages, named so that Selenium looks nothing up (and
    # sends nothing anywhere).
    os.environ["SE_AVOID_STATS"] = "true"
    opts.binary_location = shutil.which("chromium") or "chromium"
    service = Service(executable_path=shutil.which("chromedriver") or "chromedriver",
                      popen_kw={"start_new_session": True})
    driver = webdriver.Chrome(options=opts, service=service)
    run = Run(args, driver)
    try:
        driver.set_script_timeout(60)
        driver.get("file://" + os.path.abspath(args.page))
        try:
            WebDriverWait(driver, 60).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-rendered") != "0")
        except Exception:
            for entry in driver.get_log("browser"):
                print(f"browser: {entry['message']}", file=sys.stderr)
            raise
        check_first_visit(run)
        if not args.large_only:
            verified = driver.execute_script(
                "return Array.from(document.querySelectorAll('#godot option')).filter(o => o.textContent.includes('✓')).map(o => o.value)")
            cases = corpus_cases(args.corpus, args.cases)
            run.check(sorted(verified) == sorted(cases), f"the page's verified versions {verified} are the corpus's {sorted(cases)}")
            for godot, (decodes, encodes) in sorted(cases.items()):
                before = run.passed
                check_decodes(run, godot, decodes)
                check_encodes(run, godot, encodes)
                print(f"{godot}: {len(decodes)} decode and {len(encodes)} encode cases, {run.passed - before} equal to the CLI")
            check_malformed(run)
            check_versions(run, args.corpus)
            check_libraries(run)
            check_rows_and_hover(run)
            check_scrolled_rows(run)
            check_input_limits(run)
            check_base64_and_fragment(run)
            check_hex_spellings(run)
            check_fragment_edges(run)
            check_framing_notes(run)
            check_tree_summaries(run)
            check_error_placement(run)
            check_screenshots(run)
        check_large(run)
    finally:
        driver.quit()
    print(f"{run.passed} passed, {len(run.failed)} failed")
    if run.failed:
        os._exit(1)


if __name__ == "__main__":
    # Corpus records nest up to 4096 levels: read and write them on a big stack.
    sys.setrecursionlimit(100_000)
    threading.stack_size(512 << 20)
    worker = threading.Thread(target=main)
    worker.start()
    worker.join()
