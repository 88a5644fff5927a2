#!/usr/bin/env bash
# One shard of a sharded differential campaign (.github/workflows/campaign.yml): `gdmarshal diff`
# on one engine over a range of seeds, CASES cases each, its run log and reproducers in OUT
# (OUT/campaigns.jsonl, OUT/<class>/*.json), as one `gdmarshal diff --seeds` run would leave them.
#
# It continues what OUT already holds: a seed whose cases the log shows run is skipped, and a seed
# run in part (an interrupted attempt) goes on from its next case (`--from`). So a rerun of a
# failed shard, given the OUT of the failed attempt, runs only what is left of its seeds.
#
# Usage: scripts/campaign-shard.sh --engine NAME --seeds A..B --cases N --out DIR
# Environment: GDMARSHAL_BIN (the binary; default: this checkout's release build).
# Exit status: gdmarshal diff's, of the first seed that fails; 2 on bad usage.
set -euo pipefail
# shellcheck source=scripts/lib/campaign-log.sh
. "$(dirname "$0")/lib/campaign-log.sh"

usage() { sed -n '10,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

engine="" seeds="" cases="" out=""
while [ $# -gt 0 ]; do
    case $1 in
        --engine) engine=${2:?}; shift 2 ;;
        --seeds) seeds=${2:?}; shift 2 ;;
        --cases) cases=${2:?}; shift 2 ;;
        --out) out=${2:?}; shift 2 ;;
        *) usage ;;
    esac
done
if [ -z "$engine" ] || [ -z "$seeds" ] || [ -z "$out" ]; then usage; fi
[[ $cases =~ ^[1-9][0-9]*$ ]] || { log "--cases needs a positive number"; exit 2; }
mapfile -t seed_list < <(seeds_of "$seeds")
need_jq
bin=$(gdmarshal_bin)
mkdir -p "$out"
logfile=$out/campaigns.jsonl

for seed in "${seed_list[@]}"; do
    done_before=0
    if [ -s "$logfile" ]; then
        done_before=$(covered_cases "$logfile" | awk -v e="$engine" -v s="$seed" '$1 == e && $2 == s { print $3 }')
        done_before=${done_before:-0}
    fi
    if ((done_before >= cases)); then
        echo "seed $seed on $engine: $cases cases already logged in $logfile"
        continue
    fi
    ((done_before == 0)) || echo "seed $seed on $engine: continuing from case $done_before"
    "$bin" diff --engine "$engine" --seed "$seed" --from "$done_before" \
        --cases $((cases - done_before)) --findings "$out"
done
