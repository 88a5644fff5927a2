#!/usr/bin/env bash
# Peak memory of `gdmarshal decode` / `encode` against input size: the table of docs/benchmarks.md
# ("Memory").
#
# For each family (cli/examples/memory.rs) at each wire size: `decode` of the bytes to tagged JSON,
# `encode` of that JSON back to bytes, and the library's own decode of the same bytes as the
# baseline; then `--hex` both ways (decode of hex text, encode to hex text) for PackedByteArrays.
# Each row gives the peak resident set size (GNU time's %M) and the target bound, 4x the larger of
# input and output plus 64 MiB. MiB throughout.
#
#   scripts/bench-memory.sh                   # 10 and 100 MiB families, 100 and 400 MiB of hex
#   SIZES="10" HEX_SIZES="100" scripts/bench-memory.sh
#   BEFORE=/path/to/older/gdmarshal scripts/bench-memory.sh   # adds that binary's peaks
#
# BEFORE runs under an address-space cap (BEFORE_CAP_MIB, default 8192) so that a binary that would
# exhaust the machine fails instead; such a run shows as ">CAP".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

SIZES=${SIZES:-"10 100"}
HEX_SIZES=${HEX_SIZES:-"100 400"}
FAMILIES=${FAMILIES:-"nil-array bytes string-dict deep"}
BEFORE=${BEFORE:-}
BEFORE_CAP_MIB=${BEFORE_CAP_MIB:-8192}
MIB=$((1024 * 1024))

source "$root/scripts/lib/gnu-time.sh"

cargo build --quiet --release -p gdmarshal-cli --bin gdmarshal --example memory
bin=$root/target/release/gdmarshal
gen=$root/target/release/examples/memory

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# peak OUT CMD...: runs CMD with its stdout in OUT, prints its peak RSS in MiB, or "failed".
peak() {
    local out=$work/time dest=$1
    shift
    if /usr/bin/time -f %M -o "$out" "$@" </dev/null >"$dest"; then
        echo $(( ($(tail -n 1 "$out") + 1023) / 1024 ))
    else
        echo failed
    fi
}

# peak_before ARGS...: the same for the BEFORE binary (output discarded), under its address-space
# cap: ">CAP" when it fails.
peak_before() {
    local out=$work/time
    if /usr/bin/time -f %M -o "$out" prlimit --as=$((BEFORE_CAP_MIB * MIB)) "$BEFORE" "$@" \
        </dev/null >/dev/null 2>&1; then
        echo $(( ($(tail -n 1 "$out") + 1023) / 1024 ))
    else
        echo ">$BEFORE_CAP_MIB"
    fi
}

mib() { echo $(( ($(stat -c %s "$1") + MIB / 2) / MIB )); }
# bound IN OUT: 4x the larger file plus 64 MiB, in MiB.
bound() {
    local a b
    a=$(stat -c %s "$1")
    b=$(stat -c %s "$2")
    echo $(( (4 * (a > b ? a : b) + MIB - 1) / MIB + 64 ))
}
verdict() { if [[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -le "$2" ]; then echo yes; else echo NO; fi; }

if [ -n "$BEFORE" ]; then
    echo "| command | family | input MiB | output MiB | peak MiB before | peak MiB | bound MiB | within | library decode MiB |"
    echo "|---|---|---:|---:|---:|---:|---:|---|---:|"
else
    echo "| command | family | input MiB | output MiB | peak MiB | bound MiB | within | library decode MiB |"
    echo "|---|---|---:|---:|---:|---:|---|---:|"
fi

# row COMMAND FAMILY INPUT OUTPUT PEAK BEFORE_PEAK BASELINE
row() {
    local in out b
    in=$(mib "$3")
    out=$(mib "$4")
    b=$(bound "$3" "$4")
    if [ -n "$BEFORE" ]; then
        echo "| $1 | $2 | $in | $out | $6 | $5 | $b | $(verdict "$5" "$b") | $7 |"
    else
        echo "| $1 | $2 | $in | $out | $5 | $b | $(verdict "$5" "$b") | $7 |"
    fi
}

for size in $SIZES; do
    for family in $FAMILIES; do
        echo "[$family, $size MiB]" >&2
        wire=$work/$family-$size.bin
        json=$work/$family-$size.json
        back=$work/$family-$size.back
        "$gen" gen "$family" $((size * MIB)) "$wire"
        base=$(( ($("$gen" decode "$wire") + 1023) / 1024 ))
        p=$(peak "$json" "$bin" decode --godot 4.6 "$wire")
        pb=
        [ -n "$BEFORE" ] && pb=$(peak_before decode --godot 4.6 "$wire")
        row "decode → JSON" "$family" "$wire" "$json" "$p" "$pb" "$base"
        p=$(peak "$back" "$bin" encode --godot 4.6 "$json")
        cmp -s "$wire" "$back" || { echo "bench-memory: $family does not round-trip" >&2; exit 1; }
        [ -n "$BEFORE" ] && pb=$(peak_before encode --godot 4.6 "$json")
        row "JSON → encode" "$family" "$json" "$back" "$p" "$pb" "$base"
        rm -f "$wire" "$json" "$back"
    done
done

for size in $HEX_SIZES; do
    echo "[hex, $size MiB]" >&2
    wire=$work/hex-$size.bin
    json=$work/hex-$size.json
    hex=$work/hex-$size.hex
    out=$work/hex-$size.out
    # The hex text of a PackedByteArray is twice its wire size.
    "$gen" gen bytes $((size * MIB / 2)) "$wire"
    base=$(( ($("$gen" decode "$wire") + 1023) / 1024 ))
    "$bin" decode --godot 4.6 "$wire" >"$json"
    rm -f "$wire"
    p=$(peak "$hex" "$bin" encode --godot 4.6 --hex "$json")
    pb=
    [ -n "$BEFORE" ] && pb=$(peak_before encode --godot 4.6 --hex "$json")
    row "JSON → encode --hex" bytes "$json" "$hex" "$p" "$pb" "$base"
    p=$(peak "$out" "$bin" decode --godot 4.6 --hex "$hex")
    cmp -s "$json" "$out" || { echo "bench-memory: hex does not round-trip" >&2; exit 1; }
    [ -n "$BEFORE" ] && pb=$(peak_before decode --godot 4.6 --hex "$hex")
    row "decode --hex → JSON" bytes "$hex" "$out" "$p" "$pb" "$base"
    rm -f "$json" "$hex" "$out"
done

# The conformance runner against hostile testees (tests/testees/hostile.py): every answer is a
# 1 GiB line, or JSON nested 200,000 levels deep. Each case must fail on its own while the runner's
# memory stays bounded by its caps (docs/conformance.md, "Limits"), whatever the testee sends.
echo
echo "| conform against | cases failed | peak MiB | exit |"
echo "|---|---:|---:|---:|"
for mode in long-line deep; do
    echo "[conform, $mode]" >&2

    if /usr/bin/time -f %M -o "$work/time" "$bin" conform --godot 4.6 \
        --testee "python3 tests/testees/hostile.py $mode" --run 'decode/valid/int/*' \
        --max-failures-in-a-row 0 --timeout 30 </dev/null >"$work/conform.out" 2>&1; then
        status=0
    else
        status=$?
    fi
    cases=$(grep -c '^FAIL' "$work/conform.out" || true)
    echo "| \`hostile.py $mode\` | $cases | $(( ($(tail -n 1 "$work/time") + 1023) / 1024 )) | $status |"
done
