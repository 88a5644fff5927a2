#!/usr/bin/env bash
# The matrix of a sharded differential campaign (.github/workflows/campaign.yml), as lines for
# $GITHUB_OUTPUT: shard I runs seed FIRST+I, on every engine named.
#
#   engines=["3.2","3.6","4.6"]   the engine axis (JSON)
#   seeds=[1,2,3,4]               the shard axis (JSON)
#   engine-list=3.2,3.6,4.6       the same, as scripts/campaign-merge.sh takes them
#   seed-range=1..4
#
# Usage: scripts/campaign-plan.sh --engines NAME[,NAME...]|all --shards N --first-seed S
# `all`: the engines that every CI run installs (lab/godot-versions.tsv, ci column yes).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { sed -n '10,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

engines="" shards="" first=""
while [ $# -gt 0 ]; do
    case $1 in
        --engines) engines=${2:?}; shift 2 ;;
        --shards) shards=${2:?}; shift 2 ;;
        --first-seed) first=${2:?}; shift 2 ;;
        *) usage ;;
    esac
done
[ -n "$engines" ] || usage
if ! [[ $shards =~ ^[1-9][0-9]*$ ]] || ((shards > 256)); then
    echo "--shards: 1 to 256 (GitHub runs at most 256 jobs of a matrix)" >&2
    exit 2
fi
[[ $first =~ ^[0-9]+$ ]] || { echo "--first-seed needs a number" >&2; exit 2; }
if [ "$engines" = all ]; then
    engines=$(awk -F'\t' '!/^#/ && NF && $1 != "name" && $5 == "yes" { print $1 }' "$root/lab/godot-versions.tsv" | paste -sd,)
fi
IFS=, read -ra list <<<"$engines"
((${#list[@]} * shards <= 256)) || { echo "${#list[@]} engines x $shards shards is over GitHub's 256 jobs of a matrix" >&2; exit 2; }
last=$((first + shards - 1))
json_engines=$(printf '"%s",' "${list[@]}")
echo "engines=[${json_engines%,}]"
echo "seeds=[$(seq -s, "$first" "$last")]"
echo "engine-list=$engines"
echo "seed-range=$first..$last"
