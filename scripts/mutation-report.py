#!/usr/bin/env python3
"""The mutation-testing ledger and docs/mutation.md (scripts/mutants.sh, docs/mutation.md).

Usage:
  scripts/mutation-report.py record RESULTS_DIR   merge every run under RESULTS_DIR into the ledger
  scripts/mutation-report.py write OUTPUT.md       regenerate the page from the ledger
  scripts/mutation-report.py unlisted MISSED.txt   print the survivors of MISSED.txt that
                                                    docs/mutation-equivalent.txt does not list
  scripts/mutation-report.py settled SCORE         print the mutants whose outcome in the ledger
                                                    is current and final (caught, timeout,
                                                    unviable, or a survivor listed as equivalent),
                                                    as named now: what a resumed run skips

RESULTS_DIR holds one folder per cargo-mutants run (SCORE[-...]/mutants.out/, SCORE being `tests`
or `corpus`). The ledger, docs/mutation/outcomes.jsonl, is committed: runs made on different days
or machines (shards, single files, survivors run again after a new test) add up, the latest
outcome of a mutant winning. Each outcome carries the code it was measured on (the original side
of the mutant's diff, a few lines around it): it counts while that code is still in the file, at
whatever line, and is "stale" (to run again) once that code has changed. docs/mutation/runs.jsonl
keeps each run's wall time.

Mutants reviewed as equivalent (same behaviour as the original on every input) are listed in
docs/mutation-equivalent.txt, and those only the corpus cannot catch (score 2) in
docs/mutation-equivalent-corpus.txt, one per line: the mutant's name as cargo-mutants prints it, a
tab, and the reason, which starts with its kind (a tag of KINDS and a colon). An entry matches its
mutant by name or, when code above it moved, by file, column and description, then by file and
description, where as many survivors as entries share them (paired in line order); an entry that
matches no survivor is reported as stale.
Score = (caught + timeout) / (mutants - unviable - equivalent); a timeout counts as caught (the
mutant does not pass), and is shown apart.

The part of the page above the marker line is kept as it is: it explains the method. Everything
below is regenerated: the scores, a table per file, the open survivors with their diffs, and the
reviewed survivors grouped by kind, one line each. Standard library only.
"""

import hashlib
import json
import os
import re
import subprocess
import sys
import time
from collections import defaultdict

MARKER = "<!-- generated below: scripts/mutation-report.py -->"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LEDGER = os.path.join(ROOT, "docs", "mutation", "outcomes.jsonl")
RUNS = os.path.join(ROOT, "docs", "mutation", "runs.jsonl")
EQUIVALENT = os.path.join(ROOT, "docs", "mutation-equivalent.txt")
EQUIVALENT_CORPUS = os.path.join(ROOT, "docs", "mutation-equivalent-corpus.txt")
SCORES = {
    "tests": "Score 1: the codec crate's own tests, no engines",
    "corpus": "Score 2: the corpus as a gate (each mutant as a testee of `gdmarshal conform`)",
}
OUTCOMES = {
    "CaughtMutant": "caught",
    "MissedMutant": "missed",
    "Unviable": "unviable",
    "Timeout": "timeout",
}
TXT = {"caught": "caught.txt", "missed": "missed.txt", "timeout": "timeout.txt",
       "unviable": "unviable.txt"}
NAME = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<what>.*)$")


def split_name(name):
    """(file, line, column, description) of a cargo-mutants name, or None."""
    m = NAME.match(name)
    return (m["file"], int(m["line"]), int(m["col"]), m["what"]) if m else None


def mutant_name(m, outcome, names, diff=""):
    """The name cargo-mutants prints for a mutant (`--list`, missed.txt): its position and the
    description its diff carries on the `+++` line, or else the line of the outcome's list with
    its position and, where several share it, its replacement."""
    start = m["span"]["start"]
    where = f"{m['file']}:{start['line']}:{start['column']}: "
    for line in diff.split("\n")[:3]:
        if line.startswith("+++ "):
            return where + line[4:]
    found = [n for n in names.get(outcome, []) if n.startswith(where)]
    if len(found) > 1:
        found = [n for n in found if m.get("replacement", "") in n] or found
    if found:
        return found[0]
    return f"{where}{m.get('genre')} {m.get('replacement')!r}"


def original_side(diff):
    """(first line, text) of the original side of a mutant's diff: its context and removed lines,
    the code the outcome was measured on."""
    first, lines = None, []
    for line in diff.split("\n"):
        if line.startswith("@@"):
            m = re.match(r"@@ -(\d+)", line)
            first = int(m.group(1)) if m else None
        elif first is not None and line[:1] in (" ", "-") and not line.startswith("---"):
            lines.append(line[1:])
    return first, "\n".join(lines)


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if line.strip()]


def record(results):
    """Merges every run under `results` into the ledger and the run log. A run recorded before
    (the same start) is recorded again only if it has new outcomes since."""
    ledger = load_ledger()
    runs = {(r["score"], r["label"], r["started"]): r for r in load_jsonl(RUNS)}
    added = 0
    for label in sorted(os.listdir(results)) if os.path.isdir(results) else []:
        out = os.path.join(results, label, "mutants.out")
        path = os.path.join(out, "outcomes.json")
        score = label.split("-", 1)[0]
        if score not in SCORES or not os.path.exists(path):
            continue
        finished = int(os.path.getmtime(path))
        started = finished
        if os.path.exists(os.path.join(out, "lock.json")):
            with open(os.path.join(out, "lock.json"), encoding="utf-8") as f:
                stamp = json.load(f).get("start_time", "")[:19]
            if stamp:
                started = int(time.mktime(time.strptime(stamp, "%Y-%m-%dT%H:%M:%S")) - time.timezone)
        run = runs.get((score, label, started))
        if run and run["finished"] == finished:
            continue
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        names = {o: read_lines(os.path.join(out, t)) for o, t in TXT.items()
                 if os.path.exists(os.path.join(out, t))}
        n = 0
        for o in data.get("outcomes", []):
            scenario = o.get("scenario")
            if not isinstance(scenario, dict) or "Mutant" not in scenario:
                continue
            m = scenario["Mutant"]
            outcome = OUTCOMES.get(o.get("summary"), o.get("summary"))
            diff = ""
            if o.get("diff_path") and os.path.exists(os.path.join(out, o["diff_path"])):
                with open(os.path.join(out, o["diff_path"]), encoding="utf-8") as f:
                    diff = f.read()
            first, original = original_side(diff)
            name = mutant_name(m, outcome, names, diff)
            entry = {"score": score, "name": name, "file": m["file"], "outcome": outcome,
                     "line": m["span"]["start"]["line"], "first": first,
                     "code": hashlib.sha256(original.encode()).hexdigest()[:16],
                     "code_lines": original.count("\n") + 1, "finished": finished}
            if outcome == "missed":
                entry["diff"] = diff
            ledger[(score, name)] = entry
            n += 1
        # The run's wall time: what scripts/mutants.sh measured, else (a run stopped early) the
        # time from its start to its last outcome.
        seconds = finished - started
        wall = os.path.join(out, "wall-seconds")
        if os.path.exists(wall) and os.path.getmtime(wall) >= started:
            with open(wall, encoding="utf-8") as f:
                seconds = int(f.read().strip() or 0)
        runs[(score, label, started)] = {
            "score": score, "label": label, "started": started, "finished": finished,
            "seconds": seconds, "mutants": n,
            "date": time.strftime("%Y-%m-%d", time.gmtime(started))}
        added += n
    # An outcome whose code is gone can never count again: drop it (the mutant at today's code
    # has no current outcome, so `--pending` runs it).
    source = Source()
    ledger = {k: e for k, e in ledger.items() if source.where(e) is not None}
    os.makedirs(os.path.dirname(LEDGER), exist_ok=True)
    with open(LEDGER, "w", encoding="utf-8") as f:
        for key in sorted(ledger, key=lambda k: (k[0], ledger[k]["file"], ledger[k]["line"], k[1])):
            f.write(json.dumps(ledger[key], sort_keys=True) + "\n")
    with open(RUNS, "w", encoding="utf-8") as f:
        for r in sorted(runs.values(), key=lambda r: r["started"]):
            f.write(json.dumps(r, sort_keys=True) + "\n")
    print(f"mutation ledger: {added} outcomes recorded, {len(ledger)} in all")


def load_jsonl(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def load_ledger():
    return {(e["score"], e["name"]): e for e in load_jsonl(LEDGER)}


class Source:
    """The current text of the codec's files, to tell which outcomes still hold."""

    def __init__(self):
        self.files = {}

    def where(self, entry):
        """The line the entry's code starts at now, or None when that code is gone."""
        path = entry["file"]
        if path not in self.files:
            full = os.path.join(ROOT, path)
            lines = []
            if os.path.exists(full):
                with open(full, encoding="utf-8") as f:
                    lines = f.read().split("\n")
            self.files[path] = (lines, {})
        lines, windows = self.files[path]
        n = entry["code_lines"]
        if n not in windows:
            index = defaultdict(list)
            for i in range(len(lines) - n + 1):
                h = hashlib.sha256("\n".join(lines[i:i + n]).encode()).hexdigest()[:16]
                index[h].append(i + 1)
            windows[n] = index
        starts = windows[n].get(entry["code"], [])
        if not starts or entry.get("first") is None:
            return None
        # The occurrence nearest the recorded one: the same code can occur twice in a file.
        return min(starts, key=lambda s: abs(s - entry["first"]))


def current(ledger):
    """{score: {current name: entry}} for the outcomes whose code is unchanged, the names moved
    to where that code is now; and {score: count} of stale outcomes."""
    source = Source()
    live, stale = defaultdict(dict), defaultdict(int)
    # One mutant can have two names (its function renamed, the code around it not): the latest
    # outcome of the same place and change wins.
    seen, dropped = {}, set()
    for (score, name), e in sorted(ledger.items(), key=lambda kv: kv[1]["finished"], reverse=True):
        start = source.where(e)
        parts = split_name(name)
        if start is None or not parts:
            continue
        place = (score, parts[0], e["line"] + start - e["first"], parts[2],
                 parts[3].rsplit(" in ", 1)[0])
        if place in seen:
            dropped.add((score, name))
        seen.setdefault(place, name)
    for (score, name), e in ledger.items():
        if (score, name) in dropped:
            continue
        start = source.where(e)
        if start is None:
            stale[score] += 1
            continue
        shift = start - e["first"]
        parts = split_name(name)
        if parts and shift:
            file, line, col, what = parts
            name = f"{file}:{line + shift}:{col}: {what}"
        live[score][name] = dict(e, name=name, line=e["line"] + shift)
    return live, stale


def load_entries(path):
    """{name: reason} of one equivalence list (a name, a tab, the reason; `#` starts a comment)."""
    out = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if line and not line.startswith("#") and "\t" in line:
                    name, reason = line.split("\t", 1)
                    out[name] = reason
    return out


def load_equivalent(score="tests"):
    """The reviewed equivalent mutants of `score`: docs/mutation-equivalent.txt (same behaviour
    on every input), and for score 2 also docs/mutation-equivalent-corpus.txt (mutants that
    change only what the testee protocol does not carry, such as the annotated dump)."""
    out = load_entries(EQUIVALENT)
    if score == "corpus":
        out.update(load_entries(EQUIVALENT_CORPUS))
    return out


def pair_equivalent(survivors, equivalent):
    """{survivor name: entry name} for the survivors the list covers, and the entries that cover
    none. By name; else, for the code above a mutant moved, by file, column and description, then
    by file and description, wherever the survivors and the entries that share them are as many:
    they are paired in line order, which a move keeps."""
    paired, used = {}, set()
    for name in survivors:
        if name in equivalent:
            paired[name] = name
            used.add(name)

    def by_column(name):
        p = split_name(name)
        return (p[0], p[2], p[3]) if p else None

    def by_description(name):
        p = split_name(name)
        return (p[0], p[3]) if p else None

    def line(name):
        p = split_name(name)
        return (p[1], p[2]) if p else (0, 0)

    for key in (by_column, by_description):
        entries, open_ones = defaultdict(list), defaultdict(list)
        for name in equivalent:
            if name not in used:
                entries[key(name)].append(name)
        for name in survivors:
            if name not in paired:
                open_ones[key(name)].append(name)
        for k, names in open_ones.items():
            if k is not None and len(names) == len(entries.get(k, [])):
                for survivor, entry in zip(sorted(names, key=line), sorted(entries[k], key=line)):
                    paired[survivor] = entry
                    used.add(entry)
    return paired, sorted(set(equivalent) - used)


def match_equivalent(survivors, equivalent):
    """{survivor name: reason} for the survivors the list covers (see pair_equivalent), and the
    entries that cover none."""
    paired, unused = pair_equivalent(survivors, equivalent)
    return {s: equivalent[e] for s, e in paired.items()}, unused


# The kinds of reviewed survivor. Each reason in the equivalence lists starts with one of these
# tags and a colon; the page groups the survivors by it.
KINDS = {
    "capacity-only": "only the room reserved ahead (a buffer's or a container's capacity, the "
                     "decoder's reservation budget) or whether the same components are kept "
                     "inline or on the heap",
    "speed-only": "a shortcut declines more often or always, or is skipped, and the general path "
                  "gives the same bytes, value or error: only slower",
    "filter-only": "a hash, fingerprint or index that only narrows which earlier keys `same_key` "
                   "compares is weakened or bypassed; `same_key` decides: the same entries, only "
                   "slower",
    "disjoint-bits": "`|` made `^` where the two sides share no bit: the same word",
    "never-called": "code that nothing calls",
    "same-result": "another branch or value that leads to the same result on every input, as "
                   "the reason shows",
    "dump-only": "only the annotated dump (the decoder's trace, `gdmarshal::inspect`), which the "
                 "testee protocol does not carry",
    "error-detail": "only an error's byte offset or words, or which of two reads refuses the "
                    "input with the same kind: the gate judges a refusal by its verdict and kind "
                    "(`conform --strict-errors`)",
    "not-carried": "only something else the testee protocol does not carry: a float token's "
                   "spelling (floats are compared by their bits), text for people, the stack a "
                   "drop needs",
    "out-of-reach": "code the Rust kit (`testees/rust`) never reaches between a request and its "
                    "answer: Variant's own equality where `keys::same` compares itself, the table "
                    "of all profiles, queries for callers, the hex helpers, the encoder's general "
                    "path alone, store_var framing, the nesting check of tagged JSON read as text",
    "no-corpus-case": "only an input no corpus case can hold would tell: more elements than a "
                      "request line holds, float tokens outside the schema, tagged JSON that "
                      "`to_json` never writes, a value no engine object can be built to hold, a "
                      "conversion the codec refuses as not modelled",
}
UNTAGGED = "untagged"
TAG = re.compile(r"([a-z]+(?:-[a-z]+)*): ")


def kind_of(reason):
    """(kind, the reason without its tag); the kind is UNTAGGED where the reason starts with no
    tag of KINDS."""
    m = TAG.match(reason)
    if m and m.group(1) in KINDS:
        return m.group(1), reason[m.end():]
    return UNTAGGED, reason


def short_diff(diff, context=2):
    """The diff with `context` lines around each change (cargo-mutants writes more)."""
    lines = diff.rstrip("\n").split("\n")
    changed = [i for i, line in enumerate(lines)
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    keep = [line for i, line in enumerate(lines)
            if line.startswith(("+++", "---", "@@")) or any(abs(i - c) <= context for c in changed)]
    return "\n".join(keep)


def pct(num, den):
    return "n/a" if den == 0 else f"{100.0 * num / den:.1f}%"


CONFIGS = {"tests": ".cargo/mutants.toml", "corpus": ".cargo/mutants-corpus.toml"}
SHORT = {"tests": "score 1", "corpus": "score 2"}
LISTS = {
    "equivalent": ("Equivalent on every input: [mutation-equivalent.txt](mutation-equivalent.txt)",
                   "Left out of both scores; `scripts/mutants.sh diff` does not fail on them. "
                   "Where only one score's run has the mutant survive, the line says so."),
    "corpus": ("Unseen by the protocol or out of the corpus's reach: "
               "[mutation-equivalent-corpus.txt](mutation-equivalent-corpus.txt)",
               "Left out of score 2 only: score 1 catches each of them."),
}


def mutant_list(score):
    """The mutants the score's configuration selects in today's code (`cargo mutants --list`),
    or None when cargo-mutants cannot be run here."""
    try:
        out = subprocess.run(["cargo", "mutants", "--config", CONFIGS[score], "--list"],
                             cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return [line for line in out.split("\n") if line.strip()]


def position(name):
    """A sort key: file, line and column, as numbers."""
    p = split_name(name)
    return (p[0], p[1], p[2], p[3]) if p else (name, 0, 0, "")


def row(label, c, not_run):
    den = c["total"] - c["unviable"] - c["equivalent"]
    killed = c["caught"] + c["timeout"]
    return (f"| {label} | {c['total']} | {c['caught']} | {c['timeout']} | {c['unviable']} | "
            f"{c['equivalent']} | {c['open']} | {pct(killed, den)} | {not_run} |")


TABLE = ("| mutants | caught | timeouts | unviable | equivalent | open | score | not yet run |",
         "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")


def measure(score, mutants):
    """What the page shows of one score: its survivors paired with their entries, counts per
    file, and (where cargo-mutants runs) the mutants of today's code not yet run."""
    survivors = sorted(n for n, e in mutants.items() if e["outcome"] == "missed")
    equivalent = load_equivalent(score)
    paired, _ = pair_equivalent(survivors, equivalent)
    per_file = defaultdict(lambda: defaultdict(int))
    for name, e in mutants.items():
        outcome = e["outcome"]
        if outcome == "missed":
            outcome = "equivalent" if name in paired else "open"
        per_file[e["file"]][outcome] += 1
        per_file[e["file"]]["total"] += 1
    listed = mutant_list(score)
    not_run, unmeasured = None, None
    if listed is not None:
        not_run, unmeasured = defaultdict(int), defaultdict(int)
        for name in listed:
            parts = split_name(name)
            if parts and name not in mutants:
                (not_run if parts[0] in per_file else unmeasured)[parts[0]] += 1
    return {"survivors": survivors, "paired": paired, "equivalent": equivalent,
            "per_file": per_file, "not_run": not_run, "unmeasured": unmeasured}


# The kinds of score 2's list whose mutants change only what the testee protocol cannot show
# (the dump, an error's words or offset, reserved room, speed, text for people): no corpus case
# could catch one. The other kinds are out of reach: code the kit never reaches, or an input no
# recorded case holds; the corpus's reach is measured by their share.
UNSEEN_KINDS = ("dump-only", "error-detail", "capacity-only", "speed-only", "filter-only",
                "not-carried")


def out_of_reach(score, measured):
    """(out of reach, unseen by the protocol, mutants, mutants that compile) of one score's
    measure: the survivors whose entry is in mutation-equivalent-corpus.txt alone (not the ones
    that behave the same on every input, mutation-equivalent.txt), split by their kind."""
    corpus_only = load_entries(EQUIVALENT_CORPUS)
    everywhere = load_entries(EQUIVALENT)
    reach = unseen = 0
    for entry in measured["paired"].values():
        if score == "corpus" and entry in corpus_only and entry not in everywhere:
            if kind_of(corpus_only[entry])[0] in UNSEEN_KINDS:
                unseen += 1
            else:
                reach += 1
    total = sum(c["total"] for c in measured["per_file"].values())
    viable = total - sum(c["unviable"] for c in measured["per_file"].values())
    return reach, unseen, total, viable


def render():
    live, stale = current(load_ledger())
    runs = load_jsonl(RUNS)
    lines = [MARKER, ""]
    if not live:
        lines.append("No results yet: run `scripts/mutants.sh tests` or `scripts/mutants.sh corpus`.")
        return "\n".join(lines) + "\n"
    scores = [s for s in SCORES if s in live]
    m = {s: measure(s, live[s]) for s in scores}

    # The scores.
    lines += ["## Scores", "", "| " + TABLE[0], "| --- " + TABLE[1]]
    notes = []
    for s in scores:
        total = defaultdict(int)
        for c in m[s]["per_file"].values():
            for k, v in c.items():
                total[k] += v
        not_run = "–" if m[s]["not_run"] is None else sum(m[s]["not_run"].values())
        lines.append(row(SCORES[s].split(" (")[0], total, not_run))
    for s in scores:
        if stale.get(s):
            notes.append(f"Not counted in {SHORT[s]}: {stale[s]} outcomes measured on code that "
                         "has changed since (stale: `--pending` runs them again).")
        if m[s]["unmeasured"]:
            files = ", ".join(f"{f} ({n})" for f, n in sorted(m[s]["unmeasured"].items()))
            notes.append(f"Configured for {SHORT[s]} but with no outcome yet: {files}.")
    if "corpus" in m:
        n, unseen, total, viable = out_of_reach("corpus", m["corpus"])
        notes.append(f"Excluded from {SHORT['corpus']} as out of the corpus's reach (listed only in "
                     "[mutation-equivalent-corpus.txt](mutation-equivalent-corpus.txt), kinds "
                     "`out-of-reach` and `no-corpus-case`): "
                     f"{n} of {total} mutants ({pct(n, total)}), {n} of the {viable} that compile "
                     f"({pct(n, viable)}). Excluded because they change only what the testee "
                     "protocol does not show (kinds " + ", ".join(f"`{k}`" for k in UNSEEN_KINDS)
                     + f"): {unseen} ({pct(unseen, total)}).")
    if any(m[s]["not_run"] is None for s in scores):
        notes.append("cargo-mutants is not installed where this page was written: the mutants not "
                     "yet run are not counted (–).")
    timing = []
    for s in scores:
        # A run that tested no mutant (its baseline failed) is left out.
        mine = [r for r in runs if r["score"] == s and r["mutants"]]
        secs = sum(r.get("seconds") or 0 for r in mine)
        n = sum(r["mutants"] for r in mine)
        if n and secs:
            timing.append(f"{SHORT[s]}, {len(mine)} runs, {n} mutants run in {secs} s "
                          f"({secs / n:.1f} s a mutant)")
    if timing:
        notes.append("Runs recorded in [mutation/runs.jsonl](mutation/runs.jsonl), baselines "
                     "included: " + "; ".join(timing) + ".")
    for note in notes:
        lines += ["", note]
    lines.append("")

    # Per file.
    lines += ["## Per file", ""]
    for s in scores:
        lines += [f"{SCORES[s]}:", "", "| file " + TABLE[0], "| --- " + TABLE[1]]
        for file in sorted(m[s]["per_file"]):
            nr = "–" if m[s]["not_run"] is None else m[s]["not_run"].get(file, 0)
            lines.append(row(file, m[s]["per_file"][file], nr))
        lines.append("")

    # Open survivors, in full.
    lines += ["## Open survivors", ""]
    open_ones = [(s, n) for s in scores for n in m[s]["survivors"] if n not in m[s]["paired"]]
    if not open_ones:
        lines += ["None: every survivor is reviewed.", ""]
    else:
        lines += ["No test or corpus case catches these yet, and no list reviews them.", ""]
    for s, name in open_ones:
        lines.append(f"- {SHORT[s]}: `{name}`")
        diff = live[s][name].get("diff", "")
        if diff:
            lines += (["", "  ```diff"] + ["  " + d for d in short_diff(diff).split("\n")]
                      + ["  ```"])
        lines.append("")

    # Reviewed survivors by kind: each mutant once, under the list whose entry covers it.
    corpus_only = load_entries(EQUIVALENT_CORPUS)
    reviewed = {key: {} for key in LISTS}
    counts = defaultdict(lambda: defaultdict(int))
    for s in scores:
        for name, entry in m[s]["paired"].items():
            key = "corpus" if s == "corpus" and entry in corpus_only else "equivalent"
            kind, reason = kind_of(m[s]["equivalent"][entry])
            item = reviewed[key].setdefault(name, {"kind": kind, "reason": reason, "scores": set()})
            item["scores"].add(s)
            counts[kind][s] += 1
    kinds = [k for k in list(KINDS) + [UNTAGGED] if k in counts]
    lines += ["## Reviewed survivors by kind", "",
              "| kind | " + " | ".join(SHORT[s] for s in scores) + " | what the mutant changes |",
              "| --- | " + " | ".join("---:" for _ in scores) + " | --- |"]
    for k in kinds:
        meaning = KINDS.get(k, "no kind tag: the reason should start with one")
        # A `|` would end the table's cell, even in code.
        meaning = meaning.replace("|", "\\|")
        cells = " | ".join(str(counts[k][s]) for s in scores)
        lines.append(f"| {k} | {cells} | {meaning} |")
    lines.append("| **all** | " + " | ".join(str(sum(counts[k][s] for k in kinds)) for s in scores)
                 + " | |")
    lines.append("")
    for key, (title, note) in LISTS.items():
        items = reviewed[key]
        if not items:
            continue
        lines += [f"### {title}", "", note, ""]
        # Score 2's own list holds survivors of score 2 alone: nothing to say of their scores.
        where = (lambda n: scope(n, items, live, m)) if key == "equivalent" else (lambda n: "")
        for k in kinds:
            names = sorted((n for n, i in items.items() if i["kind"] == k), key=position)
            if not names:
                continue
            lines += [f"#### {k} ({len(names)})", ""]
            by_reason = defaultdict(list)
            for n in names:
                by_reason[items[n]["reason"]].append(n)
            for reason, group in by_reason.items():
                if len(group) == 1:
                    lines.append(f"- `{group[0]}`{where(group[0])}: {reason}")
                else:
                    lines.append(f"- {len(group)} mutants: {reason}")
                    lines += [f"  - `{n}`{where(n)}" for n in group]
            lines.append("")

    # An entry is unused when no score's survivors use it; one of score 2's own only once score 2
    # has an outcome for its mutant (before that it is waiting, not stale).
    entries = set(load_equivalent("corpus"))
    used = set()
    for s in scores:
        used |= set(m[s]["paired"].values())
    waiting = set(corpus_only) - set(load_entries(EQUIVALENT))
    measured = set(live.get("corpus", {}))
    unused = sorted(e for e in entries - used if e not in waiting or e in measured)
    if unused:
        lines += ["## Equivalence entries that match no surviving mutant", "",
                  "Their mutant is caught now, or its code changed: review and remove them.", ""]
        lines += [f"- `{n}`" for n in unused] + [""]
    return "\n".join(lines).rstrip("\n") + "\n"


def scope(name, items, live, m):
    """What a listed mutant's line says when only one score has it survive."""
    missing = [s for s in SCORES if s in live and s not in items[name]["scores"]]
    if not missing or len(missing) == len([s for s in SCORES if s in live]):
        return ""
    s = missing[0]
    if name in live[s]:
        return f" ({SHORT[s]} catches it)"
    # A file the score examines but has no outcome for yet, or a mutant it has not run yet.
    parts = split_name(name)
    waiting = {**m.get(s, {}).get("unmeasured", {}), **(m.get(s, {}).get("not_run") or {})}
    if parts and parts[0] in waiting:
        return f" ({SHORT[s]} has not run it yet)"
    return f" ({SHORT[s]} does not mutate it)"


def write(output):
    head = ""
    if os.path.exists(output):
        with open(output, encoding="utf-8") as f:
            head = f.read().split(MARKER, 1)[0]
    if not head:
        head = "# Mutation testing\n\n"
    with open(output, "w", encoding="utf-8") as f:
        f.write(head + render())


def unlisted(missed):
    names = read_lines(missed) if os.path.exists(missed) else []
    matched, _ = match_equivalent(names, load_equivalent())
    for name in names:
        if name not in matched:
            print(name)


def settled(score):
    mutants = current(load_ledger())[0].get(score, {})
    survivors = [n for n, e in mutants.items() if e["outcome"] == "missed"]
    equivalent, _ = match_equivalent(survivors, load_equivalent(score))
    for name, e in sorted(mutants.items()):
        if e["outcome"] != "missed" or name in equivalent:
            print(name)


def main():
    verbs = {"record": record, "write": write, "unlisted": unlisted, "settled": settled}
    if len(sys.argv) != 3 or sys.argv[1] not in verbs:
        sys.exit(__doc__)
    verbs[sys.argv[1]](sys.argv[2])


if __name__ == "__main__":
    main()
