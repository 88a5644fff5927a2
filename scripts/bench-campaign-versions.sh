#!/usr/bin/env bash
# Campaign speed of this tree against an earlier revision, side by side in one run: for each
# engine, `gdmarshal diff` of both builds with the same seed and cases, alternating, RUNS times;
# prints each side's median cases/s (each run's in parentheses) and their ratio
# (docs/benchmarks.md, "Campaign speed across a change").
#
#   scripts/bench-campaign-versions.sh --base REV [--engine NAME]... [--cases N] [--seed N] [--runs N]
#
# Defaults: the engines 3.2, 3.6 and 4.6; 300,000 cases; seed 7; 3 runs. The base revision is
# built in a worktree of its own (kept under target/bench-base, so a second run rebuilds only what
# changed); reproducers and campaign logs go to a scratch folder.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
base='' engines=() cases=300000 seed=7 runs=3
while [ $# -gt 0 ]; do
    case "$1" in
        --base) base=${2:?--base needs a revision}; shift 2 ;;
        --engine) engines+=("${2:?--engine needs a name}"); shift 2 ;;
        --cases) cases=${2:?--cases needs a number}; shift 2 ;;
        --seed) seed=${2:?--seed needs a number}; shift 2 ;;
        --runs) runs=${2:?--runs needs a number}; shift 2 ;;
        -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench-campaign-versions: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
[ -n "$base" ] || { echo "bench-campaign-versions: --base REV is required (see --help)" >&2; exit 2; }
[ ${#engines[@]} -gt 0 ] || engines=(3.2 3.6 4.6)
cd "$root"
rev=$(git rev-parse --verify --quiet "$base^{commit}") ||
    { echo "bench-campaign-versions: $base is not a revision of this repository" >&2; exit 2; }
bash "$root/scripts/install-engines.sh" --only "$(IFS=,; echo "${engines[*]}")" >&2
tree="$root/target/bench-base/tree"
if [ -d "$tree" ]; then
    git -C "$tree" checkout -q --detach "$rev"
else
    mkdir -p "$root/target/bench-base"
    git worktree add -q --detach "$tree" "$rev"
fi
echo "bench-campaign-versions: building $(git log -1 --format='%h %s' "$rev" | cut -c1-60)" >&2
(cd "$tree" && CARGO_TARGET_DIR="$root/target/bench-base/target" cargo build -q --release --bin gdmarshal)
cargo build -q --release --bin gdmarshal
old="$root/target/bench-base/target/release/gdmarshal" new="$root/target/release/gdmarshal"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
median() { printf '%s\n' "$@" | sort -g | sed -n "$(( ($# + 1) / 2 ))p"; }
# One campaign; prints its cases/s, from the line the run logs.
rate() {
    local bin=$1 engine=$2 dir=$3
    "$bin" diff --engine "$engine" --cases "$cases" --seed "$seed" --findings "$dir" >"$dir.out" 2>&1 ||
        [ $? -eq 1 ] || { cat "$dir.out" >&2; exit 1; }
    tail -n 1 "$dir/campaigns.jsonl" | python3 -c \
        'import json,sys; print(round(json.loads(sys.stdin.read())["engines"][0]["cases_per_sec"]))'
}

echo "| engine | base $(git rev-parse --short "$rev") cases/s | this tree cases/s | this ÷ base | runs |"
echo "|---|---:|---:|---:|---:|"
for engine in "${engines[@]}"; do
    before=() after=()
    for run in $(seq "$runs"); do
        echo "bench-campaign-versions: $engine, run $run of $runs" >&2
        before+=("$(rate "$old" "$engine" "$scratch/base-$engine-$run")")
        after+=("$(rate "$new" "$engine" "$scratch/this-$engine-$run")")
    done
    b=$(median "${before[@]}") a=$(median "${after[@]}")
    printf '| %s | %s (%s) | %s (%s) | %s | %s |\n' "$engine" "$b" "${before[*]}" "$a" "${after[*]}" \
        "$(python3 -c "print(f'{$a / $b:.3f}')")" "$runs"
done
