#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build: every engine-free fuzz target into $OUT, each with its seed
# corpus ($OUT/TARGET_seed_corpus.zip), dictionary ($OUT/TARGET.dict) and libFuzzer options
# ($OUT/TARGET.options).
#
# Inputs: SRC (the checkout is $SRC/gdmarshal), OUT (where the fuzzers go). The OSS-Fuzz image
# sets SANITIZER and its cargo wrapper passes the matching flags; outside it, FUZZ_SANITIZER
# picks cargo-fuzz's --sanitizer (scripts/validate-cflite.sh runs this file that way).
#
# The `differential` target is left out: it needs a live Godot engine next to the fuzzer
# (GDMARSHAL_FUZZ_ENGINE), and ClusterFuzzLite's runners have none. Run it with
# `scripts/fuzz.sh differential ENGINE SECONDS` on a machine with the engines installed.
cd "$SRC/gdmarshal"
targets=(decode roundtrip)
triple=$(rustc -vV | sed -n 's/^host: //p')
release=${CARGO_TARGET_DIR:-fuzz/target}/$triple/release
sanitizer=()
if [[ -n ${FUZZ_SANITIZER:-} ]]; then
    sanitizer=(--sanitizer="$FUZZ_SANITIZER")
fi
# Optimized, with overflow checks: the lengths and counts the decoder reads are arithmetic on input,
# and their overflow is part of what the fuzzing tests (as in scripts/fuzz.sh, docs/fuzzing.md).
export RUSTFLAGS="${RUSTFLAGS:-} -Coverflow-checks=on"
for t in "${targets[@]}"; do
    cargo fuzz build -O "${sanitizer[@]}" "$t"
    cp "$release/$t" "$OUT/$t"
    rm -f "$OUT/${t}_seed_corpus.zip"
    zip -jq "$OUT/${t}_seed_corpus.zip" fuzz/seeds/"$t"/*
    cp fuzz/gdmarshal.dict "$OUT/$t.dict"
    # The libFuzzer flags scripts/fuzz.sh fuzzes with beyond the dictionary and the limits.
    cp fuzz/libfuzzer.options "$OUT/$t.options"
done
