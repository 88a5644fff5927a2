#!/usr/bin/env bash
# The sharded campaign against one run (.github/workflows/campaign.yml, docs/scaling.md): K shards
# of a seed range on one engine, run by scripts/campaign-shard.sh and merged by
# scripts/campaign-merge.sh, must give the same classes per engine and the same reproducers as one
# `gdmarshal diff --seeds A..B` over the range. The last shard is run as a rerun of a failed one: a
# first attempt stops halfway through its seed, and the shard script continues from its log.
# Then the merge must refuse a folder that lacks a shard.
#
# Usage: scripts/test-campaign-merge.sh [--engine NAME] [--shards K] [--cases N]
#   (default: 4.6, 4 shards, 50,000 cases a seed; the seeds are 1..K)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=scripts/lib/campaign-log.sh
. "$(dirname "$0")/lib/campaign-log.sh"

engine=4.6 shards=4 cases=50000
while [ $# -gt 0 ]; do
    case $1 in
        --engine) engine=${2:?}; shift 2 ;;
        --shards) shards=${2:?}; shift 2 ;;
        --cases) cases=${2:?}; shift 2 ;;
        *) sed -n '9,10p' "$0" >&2; exit 2 ;;
    esac
done
need_jq
GDMARSHAL_BIN=$(gdmarshal_bin)
export GDMARSHAL_BIN
tmp=$(mktemp -d); [ -z "${KEEP:-}" ] || echo "kept: $tmp"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
range=1..$shards
passed=0 failed=0
check() { # NAME COMMAND...: one check, counted
    if "${@:2}"; then
        passed=$((passed + 1)); echo "ok: $1"
    else
        failed=$((failed + 1)); echo "FAILED: $1"
    fi
}

echo "== the plan (campaign.yml's matrix)"
bash scripts/campaign-plan.sh --engines "$engine" --shards "$shards" --first-seed 1 >"$tmp/plan"
check "the plan's seeds are 1..$shards" grep -qx "seeds=\[$(seq -s, 1 "$shards")\]" "$tmp/plan"
check "its seed range is $range" \
    grep -qx "seed-range=$range" "$tmp/plan"
check "with the engine axis as JSON" grep -qx "engines=\[\"$engine\"\]" "$tmp/plan"
plan_status=0
bash scripts/campaign-plan.sh --engines all --shards 100 --first-seed 1 >/dev/null 2>&1 || plan_status=$?
check "a plan over 256 jobs is refused (3 engines x 100 shards)" test "$plan_status" -eq 2

echo "== one run: seeds $range, $cases cases each, on $engine"
"$GDMARSHAL_BIN" diff --engine "$engine" --seeds "$range" --cases "$cases" --findings "$tmp/one" >"$tmp/one.out"

echo "== $shards shards"
for ((s = 1; s < shards; s++)); do
    bash scripts/campaign-shard.sh --engine "$engine" --seeds "$s..$s" --cases "$cases" --out "$tmp/shards/$s" >"$tmp/shard-$s.out"
done
# The last shard's failed first attempt: half of its seed, logged, then the rerun.
half=$((cases / 2))
"$GDMARSHAL_BIN" diff --engine "$engine" --seed "$shards" --cases "$half" --findings "$tmp/shards/$shards" >"$tmp/attempt-1.out"
bash scripts/campaign-shard.sh --engine "$engine" --seeds "$shards..$shards" --cases "$cases" --out "$tmp/shards/$shards" >"$tmp/attempt-2.out"
check "the rerun continues from case $half" grep -q "continuing from case $half" "$tmp/attempt-2.out"
bash scripts/campaign-shard.sh --engine "$engine" --seeds "$shards..$shards" --cases "$cases" --out "$tmp/shards/$shards" >"$tmp/attempt-3.out"
check "a shard whose seed is done runs nothing" grep -q "already logged" "$tmp/attempt-3.out"

echo "== merge"
status=0
bash scripts/campaign-merge.sh --engines "$engine" --seeds "$range" --cases "$cases" --out "$tmp/merged" "$tmp"/shards/* >"$tmp/merge.out" || status=$?
# The classes per engine version, summed over a log's lines.
classes() { jq -S -s '[.[].engines[] | {(.version): .counts}] | reduce .[] as $e ({}; reduce ($e | to_entries[]) as $v (.; reduce ($v.value | to_entries[]) as $c (.; .[$v.key][$c.key] += $c.value)))' "$1"; }
classes "$tmp/one/campaigns.jsonl" >"$tmp/one.classes"
classes "$tmp/merged/campaigns.jsonl" >"$tmp/merged.classes"
check "the same classes per engine as one run" diff "$tmp/one.classes" "$tmp/merged.classes"
cases_total=$(jq -s '[.[].engines[].done] | add' "$tmp/merged/campaigns.jsonl")
check "the merged log holds all $((shards * cases)) cases" test "$cases_total" -eq $((shards * cases))
# The reproducers, each as its class, engine, seed, case index and file name (the engine and the
# hash of its case); their contents hold the folder they were written to and, for
# engine-nondeterministic ones, answers that differ from run to run.
reproducers() { # DIR SEED-FILTER (a jq condition on .seed)
    local f
    while IFS= read -r -d '' f; do
        jq -r --arg f "$(basename "$f")" "select($2) | [.class, .engine, .seed, .index, \$f] | @tsv" "$f"
    done < <(find "$1" -mindepth 2 -name '*.json' -print0) | sort
}
reproducers "$tmp/one" ".seed < $shards" >"$tmp/one.repro"
reproducers "$tmp/merged" ".seed < $shards" >"$tmp/merged.repro"
check "the same reproducers as one run for the shards run once ($(wc -l <"$tmp/one.repro"))" diff "$tmp/one.repro" "$tmp/merged.repro"
# A seed run in two parts saves up to --max-saved per class in each part, so the rerun shard holds
# every reproducer of the one run and may hold more, all from its second part.
reproducers "$tmp/one" ".seed == $shards" >"$tmp/one-last.repro"
reproducers "$tmp/merged" ".seed == $shards" >"$tmp/merged-last.repro"
check "the rerun shard keeps every reproducer of the one run ($(wc -l <"$tmp/one-last.repro"))" \
    test -z "$(comm -23 "$tmp/one-last.repro" "$tmp/merged-last.repro")"
extra=$(comm -13 "$tmp/one-last.repro" "$tmp/merged-last.repro" | awk -F'\t' -v h="$half" '$4 < h')
check "its extra reproducers are all from its second part" test -z "$extra"
differs=$(jq -s '[.[].engines[].counts["codec-differs"] // 0] | add' "$tmp/merged/campaigns.jsonl")
unanswered=$(jq -s '[.[].engines[].counts.unanswered // 0] | add' "$tmp/merged/campaigns.jsonl")
check "the merge's status follows the codec-differs ($differs) and unanswered ($unanswered) cases: $status" \
    test "$status" -eq $((unanswered > 0 ? 2 : differs > 0 ? 1 : 0))
check "the merge writes the summary" grep -q '| codec-differs |' "$tmp/merged/campaign-summary.md"

first_shards=() later_shards=()
for ((s = 1; s <= shards; s++)); do
    ((s == shards)) || first_shards+=("$tmp/shards/$s")
    ((s == 1)) || later_shards+=("$tmp/shards/$s")
done

echo "== a shard missing"
rm -rf "$tmp/merged-missing"
missing_status=0
bash scripts/campaign-merge.sh --engines "$engine" --seeds "$range" --cases "$cases" --out "$tmp/merged-missing" \
    "${first_shards[@]}" 2>"$tmp/missing.err" >/dev/null || missing_status=$?
check "the merge refuses a missing shard (status 2)" test "$missing_status" -eq 2
check "and names its seed" grep -q "engine $engine seed $shards: 0 of $cases cases" "$tmp/missing.err"

echo "== a codec difference fails the merge"
# Shard 1's log with one agreeing case turned into a codec difference (the rest as run).
mkdir -p "$tmp/doctored"
jq -c '.engines[0].counts.agree -= 1 | .engines[0].counts["codec-differs"] += 1' \
    "$tmp/shards/1/campaigns.jsonl" >"$tmp/doctored/campaigns.jsonl"
differs_status=0
bash scripts/campaign-merge.sh --engines "$engine" --seeds "$range" --cases "$cases" --out "$tmp/merged-differs" \
    "$tmp/doctored" "${later_shards[@]}" 2>"$tmp/differs.err" >/dev/null || differs_status=$?
check "the merge fails on a codec difference (status 1)" test "$differs_status" -eq 1
check "and says how many" grep -q "1 cases codec-differs" "$tmp/differs.err"

echo "campaign merge: $passed passed, $failed failed"
((failed == 0))
