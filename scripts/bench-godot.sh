#!/usr/bin/env bash
# Godot 4.6's own codec and this one on the same data in the same loops: the nested_dictionaries
# family (the same 5,199,608 bytes), 15 rounds of decode then encode, then 15 decodes alone;
# medians. Each side runs three times in fresh processes and the middle result is kept. Installs the engines first if
# they are missing. Prints both and the ratios; see docs/benchmarks.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install-engines.sh" --only 4.6 >&2
cache=${GDMARSHAL_ENGINE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gdmarshal/engines}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

field() { sed -E "s/.*$1=([0-9]+).*/\\1/" <<<"$2"; }
# The middle of three numbers.
middle() { printf '%s\n' "$@" | sort -n | sed -n 2p; }

godot_run() {
    HOME="$scratch" timeout 600 "$cache/bin/godot-4.6" -s "$root/benches/godot/nested_dictionaries.gd" 2>/dev/null |
        grep '^GDMARSHAL_BENCH'
}
codec_run() {
    (cd "$root" && cargo bench -q --bench nested_vs_godot 2>/dev/null) | grep '^GDMARSHAL_BENCH'
}

report() { # name runner
    local dec=() enc=() alone=() line bytes
    for _ in 1 2 3; do
        line=$("$2") || { echo "bench-godot: $1 printed no result" >&2; exit 1; }
        bytes=$(field bytes "$line")
        dec+=("$(field decode_median_us "$line")")
        enc+=("$(field encode_median_us "$line")")
        alone+=("$(field decode_alone_median_us "$line")")
    done
    echo "$1 $bytes $(middle "${dec[@]}") $(middle "${enc[@]}") $(middle "${alone[@]}") ${dec[*]} / ${alone[*]}"
}

echo "building and running (three runs each side) ..." >&2
read -r _ gbytes gdec genc galone grest <<<"$(report godot godot_run)"
read -r _ cbytes cdec cenc calone crest <<<"$(report codec codec_run)"
[ "$gbytes" = "$cbytes" ] || { echo "bench-godot: Godot encoded $gbytes bytes, this codec $cbytes" >&2; exit 1; }
mbs() { echo $((gbytes / $1)); }
ratio() { python3 -c "print(f'{$1 / $2:.1f}')"; }
echo "nested_dictionaries, $gbytes bytes, medians of 15 (middle of three runs; decode µs per run, alternating / alone: Godot $grest, codec $crest)"
echo "| | decode MB/s, alternating | encode MB/s, alternating | decode MB/s, alone |"
echo "|---|---:|---:|---:|"
echo "| Godot 4.6.3 | $(mbs "$gdec") | $(mbs "$genc") | $(mbs "$galone") |"
echo "| gdmarshal | $(mbs "$cdec") | $(mbs "$cenc") | $(mbs "$calone") |"
echo "| ratio | $(ratio "$gdec" "$cdec")× | $(ratio "$genc" "$cenc")× | $(ratio "$galone" "$calone")× |"
