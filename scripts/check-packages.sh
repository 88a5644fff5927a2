#!/usr/bin/env bash
# Every crate a user installs packs and builds from its package alone, as crates.io would take it:
# `cargo publish --dry-run` of the codec (gdmarshal), the corpus, the kits, the vector-file reader,
# the lab's model, the lab and the command line, each verified by building the packed crate against the others packed the same way. Then
# the declared minimum Rust version against the dependencies (scripts/check-msrv.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# cargo verifies each packed crate against the others through a local registry whose crates it
# unpacks under CARGO_HOME and reuses when a version is already there: drop our crates' unpacked
# copies, or a second run would build against the first run's sources.
cargo_home=${CARGO_HOME:-$HOME/.cargo}
# Likewise their builds: cargo takes a registry crate of a version it has built as unchanged.
for krate in gdmarshal gdmarshal-corpus gdmarshal-kits gdmarshal-vectors gdmarshal-model gdmarshal-lab gdmarshal-cli; do
  rm -rf "$cargo_home"/registry/src/*/"$krate"-[0-9]*
  rm -rf "$root"/target/package-check/debug/.fingerprint/"$krate"-*
done
# Its own target folder: the packed crates are other sources than the workspace's, and would
# otherwise rebuild over its artefacts. --allow-dirty: what is checked is the tree as it is.
CARGO_TARGET_DIR="$root/target/package-check" cargo publish --dry-run --allow-dirty --quiet \
  --workspace --exclude gdmarshal-own-testee --exclude gdmarshal-web
bash scripts/check-msrv.sh
