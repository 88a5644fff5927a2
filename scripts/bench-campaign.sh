#!/usr/bin/env bash
# Campaign throughput against the oracle's own request rate, measured in the same run: for each
# engine, the oracle's batched rate of small decode requests (lab/benches/oracle.rs, 10,000 per
# frame) and a differential campaign (`gdmarshal diff`), alternating, RUNS times; prints the
# medians and their ratio (docs/benchmarks.md, "Campaign throughput").
#
#   scripts/bench-campaign.sh [--engine NAME]... [--cases N] [--runs N]
#
# Defaults: the installed engines 3.2, 3.6 and 4.6; 200,000 cases; 3 runs. Installs the engines
# first if they are missing. Reproducers and the campaign log go to a scratch folder.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
engines=() cases=200000 runs=3
while [ $# -gt 0 ]; do
    case "$1" in
        --engine) engines+=("${2:?--engine needs a name}"); shift 2 ;;
        --cases) cases=${2:?--cases needs a number}; shift 2 ;;
        --runs) runs=${2:?--runs needs a number}; shift 2 ;;
        -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench-campaign: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
[ ${#engines[@]} -gt 0 ] || engines=(3.2 3.6 4.6)
bash "$root/scripts/install-engines.sh" --only "$(IFS=,; echo "${engines[*]}")" >&2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$root"
cargo build -q --release --bin gdmarshal
cargo bench -q -p gdmarshal-lab --bench oracle --no-run 2>/dev/null
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }

echo "| engine | oracle requests/s (batched) | campaign cases/s | cases/s ÷ requests/s | runs |"
echo "|---|---:|---:|---:|---:|"
for engine in "${engines[@]}"; do
    oracle=() campaign=()
    for run in $(seq "$runs"); do
        echo "bench-campaign: $engine, run $run of $runs" >&2
        line=$(cargo bench -q -p gdmarshal-lab --bench oracle -- --engine "$engine" --batched-only 2>/dev/null |
            grep '^GDMARSHAL_ORACLE') || { echo "bench-campaign: no oracle rate for $engine" >&2; exit 1; }
        oracle+=("$(sed -E 's/.*requests_per_s=([0-9]+).*/\1/' <<<"$line")")
        out=$(./target/release/gdmarshal diff --engine "$engine" --cases "$cases" --seed "$run" \
            --findings "$scratch/findings" 2>&1) || { echo "$out" >&2; exit 1; }
        campaign+=("$(awk '$1 == "cases/s" {print $2}' <<<"$out")")
    done
    o=$(median "${oracle[@]}") c=$(median "${campaign[@]}")
    echo "| $engine | $o (${oracle[*]}) | $c (${campaign[*]}) | $(python3 -c "print(f'{$c / $o:.0%}')") | $runs |"
done
