#!/usr/bin/env bash
# The main job: install the real engines if missing, have each one encode every edge value afresh,
# and check the codec against what they wrote. Prints a table per engine; exit 0 only if all pass
# and the committed vectors (tests/vectors) still match what the engines write today.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/install-engines.sh
cargo build --release --quiet
fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT
bash scripts/make-vectors.sh "$fresh"
status=0
echo
echo "== engines"
./target/release/gdmarshal engines
echo
echo "== corpus: $(find corpus -maxdepth 1 -name "*.jsonl" | wc -l) engine versions; codec against every case, engines asked again"
./target/release/gdmarshal corpus check || status=1
echo
echo "== conformance runner: the codec as a testee, and the Python example, per engine version"
for v in 3.2 3.6 4.6 4.6-double; do
  ./target/release/gdmarshal conform --testee "./target/release/gdmarshal testee" --godot "$v" | tail -1 | sed "s/^/$v own codec: /" || status=1
  # The example claims no double-precision build: its 4.6-double run judges nothing, by design.
  partial=(); [ "$v" = 4.6-double ] && partial=(--allow-partial)
  ./target/release/gdmarshal conform --testee "python3 testees/python/gdmarshal_testee.py" --godot "$v" "${partial[@]}" | tail -1 | sed "s/^/$v python example: /" || status=1
done
echo
echo "== codec against vectors written just now by each engine"
./target/release/gdmarshal check-vectors "$fresh"/godot-*.txt || status=1
echo
echo "== committed vectors (tests/vectors) against what the engines write today"
for f in "$fresh"/godot-*.txt; do
  committed="tests/vectors/$(basename "$f")"
  if [ ! -f "$committed" ]; then
    echo "$(basename "$f"): no committed vectors for this engine version (run scripts/make-vectors.sh)"
    status=1
  elif diff -q <(grep -v '^#' "$committed") <(grep -v '^#' "$f") >/dev/null; then
    echo "$(basename "$f"): unchanged"
  else
    echo "$(basename "$f"): DRIFT — the engine now writes different bytes:"
    diff <(grep -v '^#' "$committed") <(grep -v '^#' "$f") | head -20 || true
    status=1
  fi
done
exit $status
