#!/usr/bin/env bash
# Line coverage of the codec (src/) from every test plus a fuzzing corpus replayed through the
# fuzz targets' own checks (tests/fuzz_replay.rs with GDMARSHAL_REPLAY_CORPUS).
#
#   scripts/coverage.sh [CORPUS_DIR]     default fuzz/corpus (its decode/ and roundtrip/)
#
# Needs a nightly; adds its llvm-tools component (llvm-profdata, llvm-cov) if missing. Builds
# into target/coverage, so the normal build is untouched; prints llvm-cov's per-file table for
# src/, then the table for the codec's files alone, whose TOTAL line is the codec's figure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
corpus=$(cd "${1:-fuzz/corpus}" && pwd)
host=$(rustc +nightly -vV | sed -n 's/^host: //p')
tools=$(rustc +nightly --print sysroot)/lib/rustlib/$host/bin
[[ -x $tools/llvm-profdata ]] || rustup component add llvm-tools --toolchain nightly
prof=$root/target/coverage/profraw
rm -rf "$prof" && mkdir -p "$prof"
export RUSTFLAGS="-C instrument-coverage" CARGO_TARGET_DIR=$root/target/coverage
export LLVM_PROFILE_FILE=$prof/%p-%m.profraw
# Instrumented, unoptimized frames are several times larger than a normal test build's: the
# corpus's 1024-deep tagged-JSON values (serde_json's own recursive drop) outgrow libtest's 2 MiB
# threads, so test threads get more here.
export RUST_MIN_STACK=$((64 << 20))
GDMARSHAL_REPLAY_CORPUS=$corpus cargo +nightly test --tests --lib --bins >&2
mapfile -t objects < <(cargo +nightly test --tests --lib --bins --no-run --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p')
"$tools/llvm-profdata" merge -sparse "$prof"/*.profraw -o "$prof/merged.profdata"
# llvm-cov takes the first binary as is and the others as -object.
args=("${objects[0]}")
for o in "${objects[@]:1}"; do args+=(-object "$o"); done
"$tools/llvm-cov" report "${args[@]}" -instr-profile="$prof/merged.profdata" \
    -ignore-filename-regex='/\.cargo/|/rustc/|/tests/|/benches/|/fuzz/|/target/'
files=()
for f in decode encode json text keys typed header reader types profile float packed value stack; do
    files+=("$root/src/$f.rs")
done
echo
echo "codec files:"
"$tools/llvm-cov" report "${args[@]}" -instr-profile="$prof/merged.profdata" "${files[@]}"
