#!/usr/bin/env bash
# Runs .clusterfuzzlite/build.sh as the ClusterFuzzLite image would, without Docker: SRC, OUT and
# WORK are temporary folders ($SRC/gdmarshal is this checkout), then runs every fuzzer it left in
# $OUT with its dictionary and the flags of its .options file, after its unzipped seed corpus:
# decode and roundtrip for 1000 inputs, differential for DIFFERENTIAL_SECONDS (default 60) against
# the engine packed beside it in $OUT, as a runner holding only $OUT would run it: HOME is an empty
# folder (no engine cache), the engine variables are unset, and the working folder is $WORK.
#
#   scripts/validate-cflite.sh        FUZZ_SANITIZER=none|address (default address)
#
# The image's engine stage (scripts/install-engines.sh) is this machine's engine install:
# scripts/install-engines.sh --only GDMARSHAL_CFLITE_ENGINE runs first.
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
# zip packs the seed corpora (the image installs it), unzip reads them back; cargo-fuzz builds.
for tool in zip unzip; do
    if ! command -v "$tool" >/dev/null; then
        sudo=""
        [ "$(id -u)" -eq 0 ] || sudo=sudo
        $sudo apt-get update -qq
        $sudo apt-get install -y -qq "$tool" >/dev/null
    fi
done
bash "$root/scripts/fuzz.sh" install
bash "$root/scripts/install-engines.sh" --only "${GDMARSHAL_CFLITE_ENGINE:-4.6}"
bash "$root/.clusterfuzzlite/build.sh"
fuzzers=()
for f in "$OUT"/*; do
    [[ -f $f && -x $f ]] && fuzzers+=("$(basename "$f")")
done
[[ " ${fuzzers[*]} " == " decode differential roundtrip " ]] ||
    { echo "expected the fuzzers decode, differential and roundtrip in \$OUT, found: ${fuzzers[*]}" >&2; exit 1; }
echo "\$OUT/differential-engine: $(du -sh "$OUT/differential-engine" | cut -f1)"
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
    if [[ $t == differential ]]; then
        # Nothing but $OUT: an empty HOME, no engine variables, another working folder.
        mkdir -p "$WORK/home"
        (cd "$WORK" && env -u GDMARSHAL_FUZZ_ENGINE -u GDMARSHAL_ENGINE_CACHE -u XDG_CACHE_HOME \
            -u GDMARSHAL_ORACLE_PROJECT -u GDMARSHAL_FINDINGS_DIR HOME="$WORK/home" \
            "$OUT/$t" -dict="$OUT/$t.dict" "${options[@]}" -max_total_time="${DIFFERENTIAL_SECONDS:-60}" \
            -print_final_stats=1 -seed=1 "$WORK/$t/seeds") 2>"$WORK/$t/log" ||
            { tail -30 "$WORK/$t/log" >&2; echo "$t failed" >&2; exit 1; }
        # The engine it ran is the packed one, and it answered.
        grep -E '^differential: engine ' "$WORK/$t/log"
        grep -qF "$OUT/differential-findings" "$WORK/$t/log" ||
            { echo "differential: its findings do not go beside it in \$OUT" >&2; exit 1; }
        if grep -q 'differential: unanswered' "$WORK/$t/log"; then
            echo "differential: $(grep -c 'differential: unanswered' "$WORK/$t/log") inputs unanswered" >&2
        fi
        [ -d "$WORK/home/.cache/gdmarshal" ] && { echo "differential: an engine cache appeared in HOME" >&2; exit 1; }
        echo "differential: findings by class (campaign reproducers):"
        if [ -d "$OUT/differential-findings" ]; then
            find "$OUT/differential-findings" -name '*.json' | awk -F/ '{ print $(NF - 1) }' | sort | uniq -c
        else
            echo "  none"
        fi
    else
        "$OUT/$t" -dict="$OUT/$t.dict" "${options[@]}" -runs=1000 -seed=1 "$WORK/$t/seeds" 2>"$WORK/$t/log" ||
            { tail -30 "$WORK/$t/log" >&2; echo "$t failed" >&2; exit 1; }
    fi
    # libFuzzer only warns about a flag it does not know.
    if grep -F 'unrecognized flag' "$WORK/$t/log" >&2; then
        echo "$t: libFuzzer does not know a flag of \$OUT/$t.options" >&2
        exit 1
    fi
    grep -E '^Done [0-9]+ runs' "$WORK/$t/log"
done
echo "ClusterFuzzLite build validated: ${fuzzers[*]}"
