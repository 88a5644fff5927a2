#!/usr/bin/env bash
# Regenerates tests/vectors/godot-<version>.txt: edge values of every type, encoded by each real
# engine. Each line is "NAME HEX"; names ending in /full_objects were written with full objects.
# Usage: scripts/make-vectors.sh [OUT_DIR]   (default tests/vectors; installs missing engines first)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bash "$here/install-engines.sh" >&2
cache=${GDMARSHAL_ENGINE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gdmarshal/engines}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
outdir=${1:-$root/tests/vectors}
mkdir -p "$outdir"
for name in 3.2 3.6 4.6; do
  script="$here/vectors/vectors${name%%.*}.gd"
  version=$(python3 -c 'import json,sys; print(next(e["version"] for e in json.load(open(sys.argv[1]))["engines"] if e["name"] == sys.argv[2]))' "$cache/manifest.json" "$name")
  out="$outdir/godot-$version.txt"
  {
    echo "# Produced by Godot $version (engine \"$name\") running scripts/vectors/$(basename "$script")."
    echo "# Regenerate with scripts/make-vectors.sh. Format: NAME HEX (var_to_bytes / var2bytes output)."
    HOME="$scratch" timeout 120 "$cache/bin/godot-$name" -s "$script" 2>/dev/null | sed -n 's/^VECTOR //p'
  } > "$out.tmp"
  lines=$(grep -vc '^#' "$out.tmp" || true)
  [ "$lines" -gt 50 ] || { echo "make-vectors: Godot $name printed only $lines vectors" >&2; exit 1; }
  mv "$out.tmp" "$out"
  echo "make-vectors: $lines vectors from Godot $version -> $out" >&2
done
