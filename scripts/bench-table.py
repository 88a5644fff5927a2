#!/usr/bin/env python3
"""Prints the codec benchmark table from criterion's results (run `cargo bench --bench codec` first).

For each type family: encode and decode throughput, and each as a ratio of the memcpy of the same
bytes measured in the same run."""
import json
import pathlib
import sys

root = pathlib.Path(__file__).resolve().parent.parent / "target" / "criterion" / "codec"


def seconds(kind, family):
    f = root / kind / family / "new" / "estimates.json"
    return json.loads(f.read_text())["median"]["point_estimate"] / 1e9


def size(family):
    bench = json.loads((root / "memcpy" / family / "new" / "benchmark.json").read_text())
    return bench["throughput"]["Bytes"]


if not (root / "memcpy").is_dir():
    sys.exit("no results: run `cargo bench --bench codec` first")
print("| family | bytes | encode MB/s | decode MB/s | memcpy MB/s | encode / memcpy | decode / memcpy |")
print("|---|---:|---:|---:|---:|---:|---:|")
for family in sorted(p.name for p in (root / "memcpy").iterdir() if p.is_dir() and p.name != "report"):
    n = size(family)
    enc, dec, cpy = (seconds(k, family) for k in ("encode", "decode", "memcpy"))
    mbs = lambda s: n / s / 1e6
    print(f"| {family} | {n} | {mbs(enc):.0f} | {mbs(dec):.0f} | {mbs(cpy):.0f} | {cpy / enc:.2f} | {cpy / dec:.2f} |")
