#!/usr/bin/env python3
"""Writes docs/mutation.md from the results of scripts/mutants.sh (cargo-mutants' outcomes.json).

Usage: scripts/mutation-report.py RESULTS_DIR OUTPUT.md

RESULTS_DIR holds one folder per run (SCORE[-...]/mutants.out/, SCORE being `tests` or
`corpus`); runs of the same score are merged (shards, single files), the latest outcome of a mutant
winning. Mutants reviewed as equivalent (same behaviour as the original on every input) are
listed in docs/mutation-equivalent.txt, one per line: the mutant's name as cargo-mutants prints it,
a tab, and the reason; they leave the denominator. Score = caught / (mutants - unviable -
equivalent); a timeout counts as caught (the mutant does not pass), and is shown apart.

The part of the page above the marker line `<!-- generated below -->` is kept as it is: it
explains the method. Everything below is regenerated. Standard library only.
"""

import json
import os
import sys
from collections import defaultdict

MARKER = "<!-- generated below: scripts/mutation-report.py -->"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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


def mutant_name(m, outcome, names):
    """The name cargo-mutants prints for a mutant (`--list`, missed.txt): the line of the outcome's
    list with the mutant's position and, where several share it, its replacement."""
    start = m["span"]["start"]
    where = f"{m['file']}:{start['line']}:{start['column']}: "
    found = [n for n in names.get(outcome, []) if n.startswith(where)]
    if len(found) > 1:
        found = [n for n in found if m.get("replacement", "") in n] or found
    if found:
        return found[0]
    return f"{where}{m.get('genre')} {m.get('replacement')!r}"


def load_equivalent():
    path = os.path.join(ROOT, "docs", "mutation-equivalent.txt")
    out = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if line and not line.startswith("#") and "\t" in line:
                    name, reason = line.split("\t", 1)
                    out[name] = reason
    return out


def load_runs(results):
    """{score: {"mutants": {name: (outcome, mutant, diff)}, "runs": [(label, seconds, n)]}}."""
    scores = defaultdict(lambda: {"mutants": {}, "runs": []})
    if not os.path.isdir(results):
        return scores
    for label in sorted(os.listdir(results)):
        out = os.path.join(results, label, "mutants.out")
        path = os.path.join(out, "outcomes.json")
        score = label.split("-", 1)[0]
        if score not in SCORES or not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        seconds = None
        wall = os.path.join(out, "wall-seconds")
        if os.path.exists(wall):
            with open(wall, encoding="utf-8") as f:
                seconds = int(f.read().strip() or 0)
        names = {}
        for outcome, txt in TXT.items():
            if os.path.exists(os.path.join(out, txt)):
                with open(os.path.join(out, txt), encoding="utf-8") as f:
                    names[outcome] = [line.rstrip("\n") for line in f if line.strip()]
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
            scores[score]["mutants"][mutant_name(m, outcome, names)] = (outcome, m, diff)
            n += 1
        scores[score]["runs"].append((label, seconds, n))
    return scores


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


def render(scores, equivalent):
    lines = [MARKER, ""]
    if not scores:
        lines.append("No results yet: run `scripts/mutants.sh tests` or `scripts/mutants.sh corpus`.")
        return "\n".join(lines) + "\n"
    for score in SCORES:
        if score not in scores:
            continue
        s = scores[score]
        lines += [f"## {SCORES[score]}", ""]
        total_s = sum(r[1] or 0 for r in s["runs"])
        total_n = sum(r[2] for r in s["runs"])
        lines.append("Runs (results folder under target/mutants/, wall time, mutants):")
        lines.append("")
        for label, seconds, n in s["runs"]:
            per = f", {seconds / n:.0f} s per mutant" if seconds and n else ""
            wall = f"{seconds} s" if seconds is not None else "unknown"
            lines.append(f"- `{label}`: {wall}, {n} mutants{per}")
        if total_n and total_s:
            lines += ["", f"Overall: {total_s} s for {total_n} mutants, {total_s / total_n:.0f} s per mutant "
                      "(including the unmutated baseline build and test of each run)."]
        lines += ["", "| file | mutants | caught | timeout | missed | unviable | equivalent | score |",
                  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
        per_file = defaultdict(lambda: defaultdict(int))
        for name, (outcome, m, _) in s["mutants"].items():
            if outcome == "missed" and name in equivalent:
                outcome = "equivalent"
            per_file[m["file"]][outcome] += 1
            per_file[m["file"]]["total"] += 1
        grand = defaultdict(int)
        for file in sorted(per_file):
            c = per_file[file]
            for k, v in c.items():
                grand[k] += v
            lines.append(row(file, c))
        lines.append(row("**all**", grand))
        lines.append("")
        survivors = [(n, v) for n, v in sorted(s["mutants"].items()) if v[0] == "missed"]
        lines += [f"### Surviving mutants ({len(survivors)})", ""]
        if not survivors:
            lines += ["None.", ""]
        for name, (_, m, diff) in survivors:
            lines.append(f"- `{name}`")
            if name in equivalent:
                lines.append(f"  - equivalent: {equivalent[name]}")
            else:
                lines.append("  - open: no test catches it yet")
            if diff:
                lines += ["", "  ```diff"] + ["  " + d for d in short_diff(diff).split("\n")] + ["  ```", ""]
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def row(file, c):
    den = c["total"] - c["unviable"] - c["equivalent"]
    killed = c["caught"] + c["timeout"]
    return (f"| {file} | {c['total']} | {c['caught']} | {c['timeout']} | {c['missed']} | "
            f"{c['unviable']} | {c['equivalent']} | {pct(killed, den)} |")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    results, output = sys.argv[1], sys.argv[2]
    head = ""
    if os.path.exists(output):
        with open(output, encoding="utf-8") as f:
            text = f.read()
        head = text.split(MARKER, 1)[0]
    if not head:
        head = "# Mutation testing\n\n"
    body = render(load_runs(results), load_equivalent())
    with open(output, "w", encoding="utf-8") as f:
        f.write(head + body)


if __name__ == "__main__":
    main()
