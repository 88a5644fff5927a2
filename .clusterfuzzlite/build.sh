#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build: every fuzz target into $OUT, each with its seed corpus
# ($OUT/TARGET_seed_corpus.zip), dictionary ($OUT/TARGET.dict) and libFuzzer options
# ($OUT/TARGET.options).
#
# The `differential` target fuzzes the codec against a live Godot engine, so its engine goes into
# $OUT too: scripts/pack-engine.sh packs the installed engine GDMARSHAL_CFLITE_ENGINE (default
# 4.6; .clusterfuzzlite/Dockerfile installs it with scripts/install-engines.sh) into
# $OUT/differential-engine/ (binary, the libraries it loads, its loader, a relative launcher and
# the oracle's Godot project; 267 MB for 4.6.3), where the target finds it beside itself. A
# runner needs nothing but $OUT. Its findings are campaign reproducers, written to
# $OUT/differential-findings/ (docs/fuzzing.md, "ClusterFuzzLite").
#
# Inputs: SRC (the checkout is $SRC/gdmarshal), OUT (where the fuzzers go). The OSS-Fuzz image
# sets SANITIZER and its cargo wrapper passes the matching flags; outside it, FUZZ_SANITIZER
# picks cargo-fuzz's --sanitizer (scripts/validate-cflite.sh runs this file that way).
cd "$SRC/gdmarshal"
targets=(decode roundtrip differential)
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
# The differential target as scripts/fuzz.sh runs it: the decode seeds serve its decode mode as
# they are, and an input may take the engine's own timeout (3 s) and a restart.
zip -jq "$OUT/differential_seed_corpus.zip" fuzz/seeds/decode/*
printf 'timeout = 60\nrss_limit_mb = 4096\n' >>"$OUT/differential.options"
bash scripts/pack-engine.sh "${GDMARSHAL_CFLITE_ENGINE:-4.6}" "$OUT/differential-engine"
