#!/usr/bin/env bash
# Runs .clusterfuzzlite/build.sh as the ClusterFuzzLite image would, without Docker: SRC, OUT and
# WORK are temporary folders ($SRC/gdmarshal is this checkout), then runs every fuzzer it left in
# $OUT for 1000 inputs with its dictionary and the flags of its .options file, after its unzipped
# seed corpus.
#
#   scripts/validate-cflite.sh        FUZZ_SANITIZER=none|address (default address)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SRC=$tmp/src OUT=$tmp/out WORK=$tmp/work
mkdir -p "$SRC" "$OUT" "$WORK"
ln -s "$root" "$SRC/gdmarshal"
export FUZZ_SANITIZER=${FUZZ_SANITIZER:-address}
# The OSS-Fuzz image's default toolchain is a nightly; here pick one if rustup has it.
if cargo +nightly --version >/dev/null 2>&1; then
    export RUSTUP_TOOLCHAIN=nightly
else
    export RUSTC_BOOTSTRAP=1
fi
bash "$root/.clusterfuzzlite/build.sh"
command -v unzip >/dev/null || { echo "unzip is needed to read the seed corpora" >&2; exit 1; }
fuzzers=()
for f in "$OUT"/*; do
    [[ -f $f && -x $f ]] && fuzzers+=("$(basename "$f")")
done
[[ " ${fuzzers[*]} " == *" differential "* ]] && { echo "differential must not be in \$OUT" >&2; exit 1; }
((${#fuzzers[@]} == 2)) || { echo "expected 2 fuzzers in \$OUT, found: ${fuzzers[*]}" >&2; exit 1; }
for t in "${fuzzers[@]}"; do
    for need in "${t}_seed_corpus.zip" "$t.dict" "$t.options"; do
        [[ -s $OUT/$need ]] || { echo "missing \$OUT/$need" >&2; exit 1; }
    done
    # The [libfuzzer] section's `name = value` lines, as the runner passes them: -name=value.
    mapfile -t options < <(sed -n '/^\[libfuzzer\]/,/^\[/s/^\([a-z_]\+\) *= *\(.*\)$/-\1=\2/p' "$OUT/$t.options")
    ((${#options[@]} > 0)) || { echo "\$OUT/$t.options has no [libfuzzer] flags" >&2; exit 1; }
    mkdir -p "$WORK/$t"
    unzip -q "$OUT/${t}_seed_corpus.zip" -d "$WORK/$t/seeds"
    echo "== $t: $(find "$WORK/$t/seeds" -type f | wc -l) seeds, options: ${options[*]}"
    "$OUT/$t" -dict="$OUT/$t.dict" "${options[@]}" -runs=1000 -seed=1 "$WORK/$t/seeds" 2>"$WORK/$t/log" ||
        { tail -30 "$WORK/$t/log" >&2; echo "$t failed" >&2; exit 1; }
    # libFuzzer only warns about a flag it does not know.
    if grep -F 'unrecognized flag' "$WORK/$t/log" >&2; then
        echo "$t: libFuzzer does not know a flag of \$OUT/$t.options" >&2
        exit 1
    fi
    grep -E '^Done [0-9]+ runs' "$WORK/$t/log"
done
echo "ClusterFuzzLite build validated: ${fuzzers[*]}"
