#!/usr/bin/env bash
# Merges recorded corpora (scripts/corpus-record.sh's OUT folders, one per Godot version) into a
# corpus folder: each folder's corpus files are copied in, and the manifest entries that name them
# replace (or join) the corpus manifest's; every other entry is kept as it is.
#
# Usage: scripts/corpus-merge.sh --corpus DIR RECORD_DIR...
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/campaign-log.sh
. "$root/scripts/lib/campaign-log.sh"
usage() { sed -n '6p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
if [ "${1:-}" != --corpus ] || [ $# -lt 3 ]; then usage; fi
corpus=$2
shift 2
need_jq
manifest=$corpus/manifest.json
for dir in "$@"; do
    files=()
    for f in "$dir"/godot-*.jsonl; do
        [ -e "$f" ] && files+=("$(basename "$f")")
    done
    [ ${#files[@]} -gt 0 ] || { echo "corpus-merge: $dir: no corpus file changed"; continue; }
    cp "${files[@]/#/$dir/}" "$corpus/"
    # Its entries for those files in, the entries of the same versions or files out; by version.
    jq --slurpfile rec "$dir/manifest.json" '
        ($ARGS.positional) as $files
        | ($rec[0].engines | map(select(.file as $f | $files | index($f)))) as $new
        | .engines = ((.engines | map(select(. as $e | $new | all(.version != $e.version and .file != $e.file))))
                      + $new | sort_by(.version))' --args "${files[@]}" <"$manifest" >"$manifest.tmp"
    mv "$manifest.tmp" "$manifest"
    echo "corpus-merge: ${files[*]} from $dir"
done
