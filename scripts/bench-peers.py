#!/usr/bin/env python3
"""The side-by-side benchmark's table and its regression gate.

    bench-peers.py table RESULTS          # markdown table of docs/benchmarks.md
    bench-peers.py gate RESULTS FLOORS    # exit 1 if a ratio is below its floor

RESULTS holds the GDMARSHAL_PEER lines of scripts/bench-peers.sh (one per runner, format, family
and run; several runs of one combination are reduced to their median). FLOORS (benches/floors.tsv)
holds one ratio per line: `FORMAT FAMILY MEASURE RUNNER FLOOR`, read as "gdmarshal's MEASURE on
FAMILY in FORMAT is at least FLOOR times RUNNER's", where MEASURE is decode (the alternating
loop), encode or decode_alone. Ratios are of speeds, so 2.0 means twice as fast.
"""

import shlex
import statistics
import sys

MEASURES = {
    "decode": "decode_median_us",
    "encode": "encode_median_us",
    "decode_alone": "decode_alone_median_us",
}
NAMES = {
    "gdmarshal": "gdmarshal",
    "gdmarshal-reusing": "gdmarshal, buffers reused",
    "godot": "Godot",
    "godot-binary-serialization": "godot-binary-serialization",
    "gd-com": "@gd-com/utils",
    "memcpy": "memcpy (to_vec)",
    "floor": "floor (lengths read, empty strings written)",
    "walk": "walk (lengths read, nothing stored)",
    "npm": "gdmarshal npm package",
    "python": "gdmarshal Python package",
    "python-kit": "pure-Python kit (testees/python)",
}
# The packages against what their users would otherwise run, on the same bytes in the same loops:
# (ours, theirs).
PACKAGE_PAIRS = [("npm", "gd-com"), ("python", "python-kit")]


def fail(msg, code=1):
    print(f"bench-peers: {msg}", file=sys.stderr)
    sys.exit(code)


def load(path):
    """{(format, family, runner): {field: value}}, runs reduced to the median of each time."""
    runs = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.startswith("GDMARSHAL_PEER "):
                continue
            try:
                fields = dict(w.split("=", 1) for w in shlex.split(line)[1:])
                key = (fields["format"], fields["family"], fields["runner"])
            except (ValueError, KeyError) as e:
                fail(f"{path}:{n}: not a result line ({e}): {line.strip()}")
            runs.setdefault(key, []).append(fields)
    out = {}
    for key, rs in runs.items():
        merged = dict(rs[0])
        for field in MEASURES.values():
            values = [int(r[field]) for r in rs if field in r]
            if values:
                merged[field] = statistics.median_low(values)
        merged["runs"] = len(rs)
        if any(r.get("same_bytes") == "no" for r in rs):
            merged["same_bytes"] = "no"
        out[key] = merged
    return out


def mbs(r, measure):
    us = r.get(MEASURES[measure])
    return None if us is None else int(r["bytes"]) / max(int(us), 1)


def ratio(results, fmt, family, measure, runner, ours="gdmarshal"):
    """OURS's speed over RUNNER's, or None when either has no figure."""
    ours = results.get((fmt, family, ours))
    theirs = results.get((fmt, family, runner))
    if not ours or not theirs or "unsupported" in theirs:
        return None
    a, b = mbs(ours, measure), mbs(theirs, measure)
    return None if a is None or b is None else a / b


def table(results):
    formats = sorted({k[0] for k in results}, reverse=True)
    for fmt in formats:
        families = []
        for k in results:
            if k[0] == fmt and k[1] not in families:
                families.append(k[1])
        runners = [r for r in NAMES if any(k[0] == fmt and k[2] == r for k in results)]
        print(f"\nFormat {fmt}: MB/s (bytes over the median time), and gdmarshal's speed over each "
              "runner's (×)\n")
        print("| family | runner | decode, alternating | encode, alternating | decode, alone | "
              "same bytes | × decode | × encode | × decode alone |")
        print("|---|---|---:|---:|---:|---|---:|---:|---:|")
        for family in families:
            for runner in runners:
                r = results.get((fmt, family, runner))
                if r is None:
                    continue
                name = NAMES[runner]
                if "version" in r:
                    name += f" {r['version']}"
                if "unsupported" in r and runner in ("floor", "walk"):
                    continue  # measured for the string families only
                if "unsupported" in r:
                    print(f"| {family} | {name} | cannot: {r['unsupported']} | | | | | | |")
                    continue
                cells = [
                    f"{mbs(r, m):.0f}" if mbs(r, m) is not None
                    else f"fails: {r['encode_error']}" if "encode_error" in r
                    else "—"
                    for m in MEASURES
                ]
                xs = []
                for m in MEASURES:
                    x = ratio(results, fmt, family, m, runner) if runner != "gdmarshal" else None
                    xs.append("" if x is None else f"{x:.2f}×")
                same = r.get("same_bytes", "")
                print(f"| {family} | {name} | {' | '.join(cells)} | {same} | {' | '.join(xs)} |")
        reused(results, fmt, families)
        package_ratios(results, fmt, families)


def package_ratios(results, fmt, families):
    """Each package's speed over the library its users would otherwise run, where both ran."""
    rows = []
    for ours, theirs in PACKAGE_PAIRS:
        for family in families:
            xs = [ratio(results, fmt, family, m, theirs, ours) for m in MEASURES]
            if any(x is not None for x in xs):
                rows.append(f"| {family} | {NAMES[ours]} | {NAMES[theirs]} | "
                            + " | ".join("" if x is None else f"{x:.2f}×" for x in xs) + " |")
    if rows:
        print(f"\nFormat {fmt}: the packages, each one's speed over the library its users would "
              "otherwise run\n")
        print("| family | package | against | × decode | × encode | × decode alone |")
        print("|---|---|---|---:|---:|---:|")
        print("\n".join(rows))


def reused(results, fmt, families):
    """The decodes of gdmarshal reusing buffers against Godot's, where both ran."""
    rows = []
    for family in families:
        godot = results.get((fmt, family, "godot"))
        if not results.get((fmt, family, "gdmarshal-reusing")) or not godot:
            continue
        xs = [ratio(results, fmt, family, m, "godot", "gdmarshal-reusing")
              for m in ("decode", "decode_alone")]
        name = f"Godot {godot['version']}" if "version" in godot else "Godot"
        rows.append(f"| {family} | {name} | "
                    + " | ".join("" if x is None else f"{x:.2f}×" for x in xs) + " |")
    if rows:
        print(f"\nFormat {fmt}: gdmarshal decoding into the buffers of the value decoded before "
              "(gdmarshal::pool), its speed over Godot's\n")
        print("| family | against | × decode | × decode alone |")
        print("|---|---|---:|---:|")
        print("\n".join(rows))


def gate(results, floors_path):
    failed = checked = 0
    with open(floors_path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            try:
                fmt, family, measure, runner, floor = line.split()
                floor = float(floor)
            except ValueError:
                fail(f"{floors_path}:{n}: expected FORMAT FAMILY MEASURE RUNNER FLOOR: {line}", 2)
            if measure not in MEASURES:
                fail(f"{floors_path}:{n}: unknown measure {measure}", 2)
            x = ratio(results, fmt, family, measure, runner)
            if x is None:
                print(f"FAIL {floors_path}:{n}: no figure for {fmt} {family} {measure} against "
                      f"{runner} (did that runner run?)")
                failed += 1
                continue
            checked += 1
            ok = x >= floor
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {fmt} {family} {measure}: gdmarshal is {x:.2f}× "
                  f"{runner} (floor {floor:g}×, {floors_path}:{n})")
    if checked + failed == 0:
        fail(f"{floors_path}: no floors")
    print(f"{checked} ratios checked, {failed} below their floor or missing")
    sys.exit(1 if failed else 0)


def main(argv):
    if len(argv) >= 2 and argv[0] == "table":
        table(load(argv[1]))
    elif len(argv) >= 3 and argv[0] == "gate":
        gate(load(argv[1]), argv[2])
    else:
        fail(__doc__.strip(), 2)


if __name__ == "__main__":
    main(sys.argv[1:])
