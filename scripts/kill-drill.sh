#!/usr/bin/env bash
# The kill drill: a campaign on every CI engine, each fenced as by default, while a process from
# outside kills one of the campaign's engines with SIGKILL every few seconds. A kill from outside
# is never the input's doing: the request it interrupts is asked again on a fresh engine, so the
# drill passes only with no engine-crash, engine-hang, unanswered or codec-differs case at all.
#
#   scripts/kill-drill.sh [MINUTES [SECONDS_BETWEEN_KILLS]]   default 30 and 10
#
# Prints the kills, the campaigns' class counts (from their run log) and the verdict; exit 0 when
# nothing was blamed on an input, 1 when something was, 2 when the drill could not run.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-30}
every=${2:-10}
[[ $minutes =~ ^[1-9][0-9]*$ && $every =~ ^[1-9][0-9]*$ ]] || {
    sed -n '7p' "$0" | sed 's/^# //' >&2
    exit 2
}
command -v jq >/dev/null || { echo "kill-drill: needs jq" >&2; exit 2; }
cargo build --quiet --release --bin gdmarshal
bin=$PWD/target/release/gdmarshal
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The engines' scratch folders go under the drill's own TMPDIR, so that only its engines are killed.
export TMPDIR=$work/tmp
mkdir -p "$TMPDIR"

"$bin" diff --engine all --seeds 1..1000000 --cases 50000 --findings "$work/findings" \
    >"$work/diff.out" 2>&1 &
diff_pid=$!
kills=0
deadline=$((SECONDS + minutes * 60))
while ((SECONDS < deadline)) && kill -0 "$diff_pid" 2>/dev/null; do
    sleep "$every"
    mapfile -t engines < <(pgrep -f "$TMPDIR/gdmarshal-engine-" || true)
    if ((${#engines[@]} > 0)); then
        victim=${engines[RANDOM % ${#engines[@]}]}
        if kill -KILL "$victim" 2>/dev/null; then
            kills=$((kills + 1))
        fi
    fi
done
# Ctrl-C: the campaign finishes its batch, logs and ends (status 130).
kill -INT "$diff_pid" 2>/dev/null || true
status=0
wait "$diff_pid" || status=$?
log=$work/findings/campaigns.jsonl
[[ -s $log ]] || { echo "kill-drill: the campaign logged nothing (status $status):" >&2; tail -20 "$work/diff.out" >&2; exit 2; }
echo "kill-drill: $minutes min, $kills engines killed (one every $every s), campaign status $status"
jq -s -r '[.[].engines[]] | group_by(.version)[] |
    "\(.[0].version): \(map(.counts | to_entries) | flatten | group_by(.key) | map("\(.[0].key) \(map(.value) | add)") | join(", "))"' "$log"
blamed=$(jq -s '[.[].engines[].counts | (.["engine-crash"] // 0) + (.["engine-hang"] // 0) + (.unanswered // 0) + (.["codec-differs"] // 0)] | add // 0' "$log")
if ((blamed > 0)); then
    echo "kill-drill: FAILED: $blamed cases blamed on their input or unanswered"
    exit 1
fi
echo "kill-drill: ok: no case blamed on its input, none unanswered"
