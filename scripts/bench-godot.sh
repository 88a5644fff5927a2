#!/usr/bin/env bash
# Godot 4.6's own throughput on the codec benchmark's nested_dictionaries family (same bytes), for
# the comparison in docs/benchmarks.md. Installs the engines first if they are missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install-engines.sh" --only 4.6 >&2
cache=${GDMARSHAL_ENGINE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gdmarshal/engines}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
line=$(HOME="$scratch" timeout 600 "$cache/bin/godot-4.6" -s "$root/benches/godot/nested_dictionaries.gd" 2>/dev/null | grep '^GDMARSHAL_BENCH')
bytes=$(sed -E 's/.*bytes=([0-9]+).*/\1/' <<<"$line")
dec=$(sed -E 's/.*decode_median_us=([0-9]+).*/\1/' <<<"$line")
enc=$(sed -E 's/.*encode_median_us=([0-9]+).*/\1/' <<<"$line")
echo "Godot 4.6 nested_dictionaries ($bytes bytes): decode $((bytes / dec)) MB/s, encode $((bytes / enc)) MB/s (medians of 15)"
