#!/usr/bin/env bash
# The merge of a sharded differential campaign (.github/workflows/campaign.yml): the run logs and
# reproducers of every shard (scripts/campaign-shard.sh's OUT folders) into one findings folder,
# checked complete (every engine ran every case of every seed), summed up by
# `gdmarshal report --summary-from-log --summary-only` into OUT/campaign-summary.md, and judged.
#
# Usage: scripts/campaign-merge.sh --engines NAME[,NAME...] --seeds A..B --cases N --out DIR SHARD_DIR...
# Environment: GDMARSHAL_BIN (the binary; default: this checkout's release build);
# GITHUB_STEP_SUMMARY (when set, the summary is appended to it).
# Exit status: 0 when every case is run and none is codec-differs or unanswered; 1 when some are
# (their reproducers are in OUT); 2 when a shard's cases are missing, or on bad usage.
set -euo pipefail
# shellcheck source=scripts/lib/campaign-log.sh
. "$(dirname "$0")/lib/campaign-log.sh"

usage() { sed -n '7,7p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

engines="" seeds="" cases="" out=""
while [ $# -gt 0 ]; do
    case $1 in
        --engines) engines=${2:?}; shift 2 ;;
        --seeds) seeds=${2:?}; shift 2 ;;
        --cases) cases=${2:?}; shift 2 ;;
        --out) out=${2:?}; shift 2 ;;
        --*) usage ;;
        *) break ;;
    esac
done
if [ -z "$engines" ] || [ -z "$seeds" ] || [ -z "$out" ] || [ $# -eq 0 ]; then usage; fi
[[ $cases =~ ^[1-9][0-9]*$ ]] || { log "--cases needs a positive number"; exit 2; }
mapfile -t seed_list < <(seeds_of "$seeds")
IFS=, read -ra engine_list <<<"$engines"
need_jq
bin=$(gdmarshal_bin)

# The logs, one after the other (a log is JSON lines), and the reproducers: a reproducer's file
# name is its engine and the hash of its case, so two shards that saved the same one agree.
mkdir -p "$out"
merged=$out/campaigns.jsonl
: >"$merged"
for dir in "$@"; do
    [ -s "$dir/campaigns.jsonl" ] || { log "$dir: no run log (campaigns.jsonl)"; continue; }
    cat "$dir/campaigns.jsonl" >>"$merged"
    while IFS= read -r -d '' f; do
        class=$(basename "$(dirname "$f")")
        mkdir -p "$out/$class"
        [ -e "$out/$class/$(basename "$f")" ] || cp "$f" "$out/$class/"
    done < <(find "$dir" -mindepth 2 -maxdepth 2 -name '*.json' -print0)
done

# Every engine ran every case of every seed, or the merge says what is missing.
covered=$(covered_cases "$merged")
missing=()
for e in "${engine_list[@]}"; do
    for s in "${seed_list[@]}"; do
        n=$(awk -v e="$e" -v s="$s" '$1 == e && $2 == s { print $3 }' <<<"$covered")
        ((${n:-0} >= cases)) || missing+=("engine $e seed $s: ${n:-0} of $cases cases")
    done
done
if [ ${#missing[@]} -gt 0 ]; then
    log "campaign-merge: shards are missing cases (rerun their jobs; each continues from its log):"
    printf '  %s\n' "${missing[@]}" >&2
    exit 2
fi

"$bin" report --summary-from-log --summary-only --findings "$out" --campaign-summary "$out/campaign-summary.md"
cat "$out/campaign-summary.md"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    cat "$out/campaign-summary.md" >>"$GITHUB_STEP_SUMMARY"
fi

# The verdict, as gdmarshal's exit codes: 1 when the codec answers a case differently from the
# engine, 2 (could not run) when an engine could not answer a case, whatever else was found.
status=0
for class in codec-differs unanswered; do
    n=$(jq -s --arg c "$class" '[.[].engines[].counts[$c] // 0] | add // 0' "$merged")
    if ((n > 0)); then
        log "campaign-merge: $n cases $class"
        if [ "$class" = unanswered ]; then status=2; elif ((status == 0)); then status=1; fi
    fi
done
if [ -d "$out/codec-differs" ]; then
    log "reproducers (gdmarshal diff --replay FILE):"
    find "$out/codec-differs" -name '*.json' | sort | sed 's/^/  /' >&2
fi
exit $status
