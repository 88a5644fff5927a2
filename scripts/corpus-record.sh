#!/usr/bin/env bash
# Records one Godot version's corpus (.github/workflows/corpus.yml): installs the engine, asks it
# every case (`gdmarshal corpus generate --engine NAME`) in a scratch copy of the corpus folder
# (--corpus, default corpus/), and leaves in OUT the corpus files that differ from that folder's
# and the manifest that lists them, for scripts/corpus-merge.sh.
#
# Usage: scripts/corpus-record.sh --official VERSION --out DIR   Godot's official build of VERSION
#                                                                (scripts/install-engines.sh --official)
#        scripts/corpus-record.sh --engine NAME --out DIR        an engine already installed
#        (either with --corpus DIR: the corpus folder to start from)
# Environment: GDMARSHAL_BIN (the binary; default: this checkout's release build).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/campaign-log.sh
. "$root/scripts/lib/campaign-log.sh"
usage() { sed -n '7,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

official="" engine="" out="" corpus=$root/corpus
while [ $# -gt 0 ]; do
    case $1 in
        --official) official=${2:?}; shift 2 ;;
        --engine) engine=${2:?}; shift 2 ;;
        --out) out=${2:?}; shift 2 ;;
        --corpus) corpus=${2:?}; shift 2 ;;
        *) usage ;;
    esac
done
if [ -z "$out" ] || { [ -z "$official" ] && [ -z "$engine" ]; }; then usage; fi
bin=$(gdmarshal_bin)
if [ -n "$official" ]; then
    # The install runs `gdmarshal engines install` with this binary.
    GDMARSHAL_BIN=$bin bash "$root/scripts/install-engines.sh" --official "$official"
    engine=$official
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -R "$corpus/." "$scratch/"
"$bin" corpus generate --engine "$engine" --corpus "$scratch"
# A corpus file without the fields the engine answers differently from run to run, into FILE.stable.
stable() { python3 "$root/scripts/lib/corpus_stable.py" "$1" >"$1.stable"; }
# What the generation changed or added, beyond those fields: the version's file, and the manifest.
mkdir -p "$out"
changed=0
for f in "$scratch"/godot-*.jsonl; do
    name=$(basename "$f")
    different=yes
    if [ -e "$corpus/$name" ]; then
        cp "$corpus/$name" "$scratch/committed.jsonl"
        stable "$f"
        stable "$scratch/committed.jsonl"
        cmp -s "$f.stable" "$scratch/committed.jsonl.stable" && different=""
        rm -f "$f.stable" "$scratch/committed.jsonl"*
    fi
    if [ -n "$different" ]; then
        cp "$f" "$out/"
        changed=$((changed + 1))
        echo "corpus-record: $name $([ -e "$corpus/$name" ] && echo changed || echo new)"
    fi
done
cp "$scratch/manifest.json" "$out/manifest.json"
echo "corpus-record: engine $engine: $changed corpus files changed"
