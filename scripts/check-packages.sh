#!/usr/bin/env bash
# Every crate a user installs packs and builds from its package alone, as crates.io would take it:
# `cargo publish --dry-run` of the codec (gdmarshal), the corpus, the kits, the lab and the command
# line, each verified by building the packed crate against the others packed the same way. Then
# the declared minimum Rust version against the dependencies (scripts/check-msrv.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# Its own target folder: the packed crates are other sources than the workspace's, and would
# otherwise rebuild over its artefacts. --allow-dirty: what is checked is the tree as it is.
CARGO_TARGET_DIR="$root/target/package-check" cargo publish --dry-run --allow-dirty --quiet \
  --workspace --exclude gdmarshal-own-testee
bash scripts/check-msrv.sh
