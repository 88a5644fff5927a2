#!/usr/bin/env python3
"""Writes docs/engine-coverage.md and .json from gcovr's JSON of core/io/marshalls.cpp.

Called by scripts/engine-coverage.sh. The functions measured are found in the source itself
(top-level definitions and their closing brace), so the figures follow the exact tarball built.
Every executable line of decode_variant / encode_variant that no case reached must have a reason in
the reasons file (TSV: `LINE[-LINE]<TAB>reason`); a missing reason is printed as "unexplained".
"""

import argparse
import datetime
import json
import re
import sys

MEASURED = [
    "_decode_string",
    "_decode_container_type",
    "decode_variant",
    "_encode_string",
    "_encode_container_type_header",
    "_encode_container_type",
    "encode_variant",
]
MAIN = ("decode_variant", "encode_variant")
DEF = re.compile(r"^(?:static\s+)?[A-Za-z_][\w:<>\s\*&]*?\b(\w+)\s*\(")


def function_extents(source_lines):
    """name -> (first line, last line), 1-based, of each top-level function definition."""
    out, current, start = {}, None, 0
    for i, text in enumerate(source_lines, 1):
        if current is None:
            m = DEF.match(text)
            if m and text.rstrip().endswith("{"):
                current, start = m.group(1), i
        elif text.startswith("}"):
            out.setdefault(current, (start, i))
            current = None
    return out


def read_reasons(path):
    reasons = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            try:
                span, why = line.split("\t", 1)
                a, _, b = span.partition("-")
                first, last = int(a), int(b or a)
            except ValueError:
                sys.exit(f"{path}:{n}: expected LINE[-LINE]<TAB>reason, got {line!r}")
            for k in range(first, last + 1):
                reasons[k] = why.strip()
    return reasons


def campaign_counts(path):
    try:
        with open(path, encoding="utf-8") as f:
            lines = [json.loads(l) for l in f if l.strip()]
    except OSError:
        return None
    return lines[-1] if lines else None


def pct(a, b):
    return 100.0 * a / b if b else 100.0


def main():
    ap = argparse.ArgumentParser()
    for flag in ("gcovr", "source", "engine-json", "reasons", "corpus-summary", "stress-summary",
                 "campaign-log", "double-json", "md", "json"):
        ap.add_argument("--" + flag, required=True)
    ap.add_argument("--cases", type=int, required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--wall", type=int, required=True)
    a = ap.parse_args()

    with open(a.source, encoding="utf-8") as f:
        source = f.read().splitlines()
    extents = function_extents(source)
    missing = [n for n in MEASURED if n not in extents]
    if missing:
        sys.exit(f"{a.source}: no definition of {', '.join(missing)}")
    with open(a.gcovr, encoding="utf-8") as f:
        cov = json.load(f)
    files = [f for f in cov["files"] if f["file"].endswith("core/io/marshalls.cpp")]
    if not files:
        sys.exit(f"{a.gcovr}: no data for core/io/marshalls.cpp (did the engine run?)")
    lines = {}
    for f in files:
        for ln in f["lines"]:
            if ln.get("gcovr/noncode"):
                continue
            k = ln["line_number"]
            old = lines.get(k, {"count": 0, "branches": []})
            branches = ln.get("branches", [])
            if old["branches"] and len(old["branches"]) == len(branches):
                branches = [{"count": x["count"] + y["count"]} for x, y in zip(old["branches"], branches)]
            lines[k] = {"count": old["count"] + ln["count"], "branches": branches}
    reasons = read_reasons(a.reasons)
    with open(a.engine_json, encoding="utf-8") as f:
        engine = json.load(f)
    try:
        with open(a.double_json, encoding="utf-8") as f:
            double = json.load(f)
    except OSError:
        double = None

    funcs, unreached, untaken = [], [], []
    for name in MEASURED:
        first, last = extents[name]
        ks = [k for k in sorted(lines) if first <= k <= last]
        reached = [k for k in ks if lines[k]["count"] > 0]
        br = [(k, b) for k in ks for b in lines[k]["branches"]]
        taken = [1 for _, b in br if b["count"] > 0]
        funcs.append({"name": name, "first": first, "last": last, "lines": len(ks),
                      "reached": len(reached), "branches": len(br), "taken": len(taken)})
        for k in ks:
            if lines[k]["count"] == 0:
                unreached.append({"line": k, "function": name, "text": source[k - 1].strip(),
                                  "reason": reasons.get(k)})
            else:
                n = sum(1 for b in lines[k]["branches"] if b["count"] == 0)
                if n:
                    untaken.append({"line": k, "function": name, "text": source[k - 1].strip(),
                                    "not_taken": n, "of": len(lines[k]["branches"])})

    def total(names):
        fs = [f for f in funcs if f["name"] in names]
        t = {k: sum(f[k] for f in fs) for k in ("lines", "reached", "branches", "taken")}
        t["line_pct"] = round(pct(t["reached"], t["lines"]), 2)
        t["branch_pct"] = round(pct(t["taken"], t["branches"]), 2)
        return t

    main_total, all_total = total(MAIN), total(MEASURED)
    camp = campaign_counts(a.campaign_log)
    with open(a.corpus_summary, encoding="utf-8") as f:
        corpus_line = " ".join(l.strip() for l in f if l.strip())
    with open(a.stress_summary, encoding="utf-8") as f:
        stress_line = " ".join(l.strip() for l in f if l.strip())
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    unexplained = [u for u in unreached if u["reason"] is None and u["function"] in MAIN]
    doc = {
        "generated": date,
        "command": f"scripts/engine-coverage.sh --cases {a.cases} --seed {a.seed}",
        "engine": engine,
        "double_engine": double,
        "run": {"cases": a.cases, "seed": a.seed, "wall_secs": a.wall, "corpus": corpus_line,
                "stress": stress_line, "campaign": camp},
        "functions": funcs,
        "main": main_total,
        "all": all_total,
        "unreached": unreached,
        "branches_not_taken": untaken,
        "unexplained": len(unexplained),
    }
    with open(a.json, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")

    md = []
    w = md.append
    w("# How much of Godot's own marshalls.cpp the corpus reaches\n")
    w(f"Generated on {date} by `{doc['command']}` (do not edit; the data is in "
      "[engine-coverage.json](engine-coverage.json), the reasons in "
      "[engine-coverage-reasons.tsv](engine-coverage-reasons.tsv)).\n")
    w(f"Measured on the engine `{engine['name']}` that `scripts/build-engine.sh --variant coverage` "
      f"builds: **{engine['version_string']}** from Debian's `{engine['built_from']}`, gcc with "
      "`-ftest-coverage -fprofile-arcs`, scons options "
      f"`{' '.join(engine['scons_options'])}`. Single precision: the lines inside "
      "`#ifdef REAL_T_IS_DOUBLE` are not compiled in it (the double build answers the corpus "
      "`godot-4.6.3.stable-double.jsonl` instead).\n")
    w("## Result\n")
    w(f"**decode_variant and encode_variant: {main_total['line_pct']:.2f}% of lines "
      f"({main_total['reached']} of {main_total['lines']}), {main_total['branch_pct']:.2f}% of "
      f"branches ({main_total['taken']} of {main_total['branches']}).** "
      f"With their helpers: {all_total['line_pct']:.2f}% of lines, {all_total['branch_pct']:.2f}% "
      "of branches. Lines are gcov's executable lines; branches are gcov's branch arcs, which also "
      "count the arcs of inlined code and of the error macros' conditions.\n")
    w("| function | source lines | lines | reached | % | branches | taken | % |")
    w("|---|---|---:|---:|---:|---:|---:|---:|")
    for fn in funcs:
        w(f"| `{fn['name']}` | {fn['first']}–{fn['last']} | {fn['lines']} | {fn['reached']} | "
          f"{pct(fn['reached'], fn['lines']):.1f} | {fn['branches']} | {fn['taken']} | "
          f"{pct(fn['taken'], fn['branches']):.1f} |")
    w("")
    w("## What ran\n")
    w(f"Wall time {a.wall // 60} min {a.wall % 60} s on this machine (2 cores), through the engine "
      "above, in this order:\n")
    w(f"1. every case of the corpus for 4.6, asked twice (`gdmarshal corpus generate --engine "
      f"{engine['name']}` into a scratch folder): {corpus_line}")
    w(f"2. the stress cases (`gdmarshal corpus stress`): {stress_line or 'done'}")
    if camp:
        e = camp["engines"][0] if camp.get("engines") else {}
        counts = ", ".join(f"{k} {v:,}" for k, v in sorted(e.get("counts", {}).items()))
        w(f"3. a differential campaign (`gdmarshal diff --engine {engine['name']} --cases "
          f"{a.cases} --seed {a.seed}`): {e.get('done', 0):,} cases; {counts}.")
    else:
        w("3. no campaign log was written (the campaign did not run).")
    w("")
    w("## Lines not reached\n")
    if not unreached:
        w("None.\n")
    else:
        w("Each with the reason no byte string can reach it (or the case that would).\n")
        w("| lines | function | source | why not reached |")
        w("|---:|---|---|---|")
        # Lines in a row with one reason share a table row.
        groups = []
        for u in unreached:
            g = groups[-1] if groups else None
            if g and g[-1]["line"] + 1 == u["line"] and g[-1]["reason"] == u["reason"] \
                    and g[-1]["function"] == u["function"]:
                g.append(u)
            else:
                groups.append([u])
        for g in groups:
            span = str(g[0]["line"]) if len(g) == 1 else f"{g[0]['line']}–{g[-1]['line']}"
            text = "<br>".join("`" + u["text"].replace("|", "\\|") + "`" for u in g)
            w(f"| {span} | `{g[0]['function']}` | {text} | {g[0]['reason'] or '**unexplained**'} |")
        w("")
    w("## Branches not taken on reached lines\n")
    if not untaken:
        w("None.\n")
    else:
        w(f"{len(untaken)} reached lines have a branch arc never taken. Most are the failure "
          "arm of an error macro on a condition the line before already settled, or an arc "
          "gcc adds for inlined container code.\n")
        w("| line | function | arcs not taken | source |")
        w("|---:|---|---:|---|")
        for u in untaken:
            text = u["text"].replace("|", "\\|")
            w(f"| {u['line']} | `{u['function']}` | {u['not_taken']} of {u['of']} | `{text}` |")
        w("")
    w("## The builds: time and disk\n")
    w("`scripts/build-engine.sh` (not part of CI or of the README's two commands: it takes longer "
      "than they may) fetches Debian's source package once (the upstream tarball, 34 MB, kept "
      "under the engine cache's `.src/`), installs its build tools with apt-get (scons, g++, "
      "pkg-config, the zlib, libpng, zstd and mbedTLS headers, gcovr) and builds each variant in "
      "its own source tree, with 2 jobs on this 2-core machine while other work ran. A second run "
      "finds the engines built, checks that they run and takes seconds. The disk figure is the "
      "whole variant folder: source tree, objects and engine (the coverage build's notes files "
      "make it larger).\n")
    w("| engine | what for | build time | jobs | disk (source tree, objects, engine) |")
    w("|---|---|---:|---:|---:|")
    for e, what in ((double, "the 4.x-double profiles"), (engine, "this measurement")):
        if e:
            s = e["build_seconds"]
            how = "" if e.get("full_build") else " (resumed, not from a fresh tree)"
            w(f"| `{e['name']}` | {what} | {s // 60} min {s % 60} s{how} | {e['build_jobs']} | "
              f"{e['disk_mb']} MB |")
    w("")
    with open(a.md, "w", encoding="utf-8") as f:
        f.write("\n".join(md))
    print(f"decode_variant + encode_variant: {main_total['line_pct']:.2f}% of lines, "
          f"{main_total['branch_pct']:.2f}% of branches; {len(unreached)} lines not reached "
          f"({len(unexplained)} unexplained); wrote {a.md} and {a.json}")
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
