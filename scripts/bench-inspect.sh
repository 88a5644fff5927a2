#!/usr/bin/env bash
# `gdmarshal inspect` against `gdmarshal decode` on the same input: CPU time (the best of RUNS) and
# peak resident set size (the largest of RUNS), their ratios, inspect's rate in MB/s of input, and
# the bound of docs/security.md ("Input"): 9x the input plus 64 MiB for either command. The two
# commands run alternately, in the same run, with their output discarded; the inputs are Godot 4.6
# values of about SIZE MiB made by cli/examples/memory.rs. docs/benchmarks.md ("Inspect") has the
# table.
#
#   scripts/bench-inspect.sh                       # 20 MiB of each family, 3 runs
#   SIZES="20 100" FAMILIES=nil-array RUNS=5 scripts/bench-inspect.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

SIZES=${SIZES:-20}
FAMILIES=${FAMILIES:-"nil-array bytes string-dict deep"}
RUNS=${RUNS:-3}
MIB=$((1024 * 1024))

source "$root/scripts/lib/gnu-time.sh"

cargo build --quiet --release -p gdmarshal-cli --bin gdmarshal --example memory
bin=$root/target/release/gdmarshal
gen=$root/target/release/examples/memory

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# measure COMMAND FILE: "SECONDS KIB" of one run, output discarded. The seconds are CPU time (user
# and system), which other work on the machine disturbs less than the wall clock.
measure() {
    /usr/bin/time -f "%U %S %M" -o "$work/time" "$bin" "$1" --godot 4.6 "$2" </dev/null >/dev/null
    tail -n 1 "$work/time" | awk '{ printf "%.2f %d\n", $1 + $2, $3 }'
}

echo "| family | input MiB | decode CPU s | decode MiB | inspect CPU s | inspect MiB | inspect MB/s | time inspect/decode | memory inspect/decode | bound MiB | within |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
for size in $SIZES; do
    for family in $FAMILIES; do
        echo "[$family, $size MiB]" >&2
        wire=$work/$family-$size.bin
        "$gen" gen "$family" $((size * MIB)) "$wire"
        bytes=$(stat -c %s "$wire")
        ds=; dk=0; is=; ik=0
        for _ in $(seq "$RUNS"); do
            read -r s k < <(measure decode "$wire")
            if [ -z "$ds" ] || awk -v a="$s" -v b="$ds" 'BEGIN { exit !(a < b) }'; then ds=$s; fi
            [ "$k" -gt "$dk" ] && dk=$k
            read -r s k < <(measure inspect "$wire")
            if [ -z "$is" ] || awk -v a="$s" -v b="$is" 'BEGIN { exit !(a < b) }'; then is=$s; fi
            [ "$k" -gt "$ik" ] && ik=$k
        done
        awk -v f="$family" -v n="$bytes" -v ds="$ds" -v dk="$dk" -v is="$is" -v ik="$ik" 'BEGIN {
            mib = 1048576; bound = (9 * n + 64 * mib) / 1024
            rate = (is > 0) ? sprintf("%.0f", n / 1e6 / is) : "∞"
            tr = (ds > 0) ? sprintf("%.2f", is / ds) : "-"
            printf "| %s | %.0f | %.2f | %.0f | %.2f | %.0f | %s | %s | %.2f | %.0f | %s |\n",
                f, n / mib, ds, dk / 1024, is, ik / 1024, rate, tr, ik / dk, bound / 1024,
                (dk <= bound && ik <= bound) ? "yes" : "NO"
        }'
        rm -f "$wire"
    done
done
