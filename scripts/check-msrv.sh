#!/usr/bin/env bash
# The declared minimum Rust version (rust-version in Cargo.toml) holds: no crate the published
# crates build with (normal and build dependencies) asks for a newer one. clippy's
# incompatible_msrv lint, on in `cargo clippy`, holds the project's own use of the standard
# library to it.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo metadata --format-version 1 --locked | python3 -c '
import json, sys
m = json.load(sys.stdin)
pkgs = {p["id"]: p for p in m["packages"]}
ver = lambda v: tuple((list(map(int, (v or "0").split("."))) + [0, 0])[:3])
members = [pkgs[i] for i in m["workspace_members"]]
declared = {p["name"]: p.get("rust_version") for p in members if p.get("publish") != []}
missing = [n for n, v in declared.items() if not v]
if missing:
    sys.exit("check-msrv: no rust-version in " + ", ".join(missing))
msrv = max(ver(v) for v in declared.values())
nodes = {n["id"]: n for n in m["resolve"]["nodes"]}
# Walk the normal and build dependencies of the published crates.
todo = [p["id"] for p in members if p["name"] in declared]
seen, worst = set(), []
while todo:
    i = todo.pop()
    if i in seen:
        continue
    seen.add(i)
    p = pkgs[i]
    if ver(p.get("rust_version")) > msrv:
        worst.append("%s %s needs %s" % (p["name"], p["version"], p["rust_version"]))
    for d in nodes[i]["deps"]:
        if any(k["kind"] in (None, "build") for k in d["dep_kinds"]):
            todo.append(d["pkg"])
if worst:
    sys.exit("check-msrv: rust-version %s is too old: %s" % (".".join(map(str, msrv)), "; ".join(sorted(worst))))
print("check-msrv: rust-version %s covers %d crates" % (".".join(map(str, msrv)), len(seen)))
'
