#!/usr/bin/env bash
# The steps of .github/workflows/corpus.yml on an engine installed here: scripts/corpus-record.sh
# asks it every case and keeps only what differs from a corpus folder (beyond the fields the engine
# answers differently from run to run), and scripts/corpus-merge.sh puts a recording into a corpus
# folder. Checked: the committed corpus is recorded as unchanged; a corpus folder without the
# engine's file gets it back, manifest and all, as committed; a changed answer is seen.
#
# Usage: scripts/test-corpus-record.sh [--engine NAME]   (default 4.6)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=scripts/lib/campaign-log.sh
. "$root/scripts/lib/campaign-log.sh"
engine=4.6
[ "${1:-}" != --engine ] || engine=${2:?}
need_jq
GDMARSHAL_BIN=$(gdmarshal_bin)
export GDMARSHAL_BIN
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
check() { # NAME COMMAND...
    if "${@:2}"; then passed=$((passed + 1)); echo "ok: $1"; else failed=$((failed + 1)); echo "FAILED: $1"; fi
}
file=$(jq -r --arg p "$engine" '.engines[] | select(.profile == $p) | .file' corpus/manifest.json)
[ -n "$file" ] || { echo "no corpus file of profile $engine in corpus/manifest.json" >&2; exit 2; }

echo "== the committed corpus, recorded again"
bash scripts/corpus-record.sh --engine "$engine" --out "$tmp/same" >"$tmp/same.out"
check "the engine answers as committed: nothing to merge" test ! -e "$tmp/same/$file"

echo "== a corpus folder without $file"
mkdir -p "$tmp/lacking"
cp -R corpus/. "$tmp/lacking/"
rm "$tmp/lacking/$file"
jq --arg f "$file" '.engines |= map(select(.file != $f))' corpus/manifest.json >"$tmp/lacking/manifest.json"
bash scripts/corpus-record.sh --engine "$engine" --corpus "$tmp/lacking" --out "$tmp/new" >"$tmp/new.out"
check "the recording holds $file, new" grep -q "corpus-record: $file new" "$tmp/new.out"
bash scripts/corpus-merge.sh --corpus "$tmp/lacking" "$tmp/new" >/dev/null
check "merged, the file is the recording's" cmp -s "$tmp/lacking/$file" "$tmp/new/$file"
# The manifest as committed, but for the hash of the file (its nondeterministic fields differ).
without_hash() { jq --arg f "$file" '.engines |= map(if .file == $f then del(.sha256) else . end)' "$1"; }
check "the manifest as committed, but for the file's hash" cmp -s <(without_hash corpus/manifest.json) <(without_hash "$tmp/lacking/manifest.json")
check "and that hash is the merged file's" test "$(jq -r --arg f "$file" '.engines[] | select(.file == $f) | .sha256' "$tmp/lacking/manifest.json")" = "$(sha256sum "$tmp/lacking/$file" | cut -d' ' -f1)"
same_records() { # FILE FILE: the same records but for their nondeterministic fields
    cmp -s <(python3 scripts/lib/corpus_stable.py "$1") <(python3 scripts/lib/corpus_stable.py "$2") &&
        [ -s "$1" ] && python3 scripts/lib/corpus_stable.py "$1" >/dev/null
}
check "its records are the committed ones but for their nondeterministic fields" same_records "$tmp/lacking/$file" "corpus/$file"

echo "== a corpus folder whose $file says another answer"
mkdir -p "$tmp/other"
cp -R corpus/. "$tmp/other/"
# The first accepted decode case's consumed byte count, one more than the engine said.
python3 - "$tmp/other/$file" <<'PY'
import sys
path = sys.argv[1]
lines = open(path, encoding="utf-8").read().splitlines(keepends=True)
for i, line in enumerate(lines):
    if '"verdict":"accepted","consumed":' in line and '"nondeterministic"' not in line:
        head, rest = line.split('"consumed":', 1)
        n, tail = rest.split(",", 1)
        lines[i] = f'{head}"consumed":{int(n) + 1},{tail}'
        break
open(path, "w", encoding="utf-8").writelines(lines)
PY
bash scripts/corpus-record.sh --engine "$engine" --corpus "$tmp/other" --out "$tmp/changed" >"$tmp/changed.out"
check "the recording sees the answer changed" grep -q "corpus-record: $file changed" "$tmp/changed.out"

echo "corpus record: $passed passed, $failed failed"
((failed == 0))
