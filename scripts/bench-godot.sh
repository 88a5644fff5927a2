#!/usr/bin/env bash
# Godot 4.6's own codec and this one on the same data in the same loops, for two workloads: the
# nested_dictionaries family (50,000 dictionaries, the same 5,199,608 bytes) and
# large_dictionaries (200,000 dictionaries of six entries, 31,199,608 bytes: the scale of the
# engine notes' figure). 15 rounds of decode then encode, then 15 decodes alone; medians. Each
# side runs three times in fresh processes and the middle result is kept. Installs the engines
# first if they are missing. Prints both and the ratios; see docs/benchmarks.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install-engines.sh" --only 4.6 >&2
cache=${GDMARSHAL_ENGINE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gdmarshal/engines}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

field() { sed -E "s/.*$1=([0-9]+).*/\\1/" <<<"$2"; }
# The middle of three numbers.
middle() { printf '%s\n' "$@" | sort -n | sed -n 2p; }

godot_run() { # workload
    HOME="$scratch" timeout 600 "$cache/bin/godot-4.6" -s "$root/benches/godot/nested_dictionaries.gd" -- "$1" 2>/dev/null |
        grep '^GDMARSHAL_BENCH'
}
codec_run() { # workload
    (cd "$root" && cargo bench -q --bench nested_vs_godot -- "$1" 2>/dev/null) | grep '^GDMARSHAL_BENCH'
}

report() { # name runner workload
    local dec=() enc=() alone=() line bytes
    for _ in 1 2 3; do
        line=$("$2" "$3") || { echo "bench-godot: $1 printed no result for $3" >&2; exit 1; }
        bytes=$(field bytes "$line")
        dec+=("$(field decode_median_us "$line")")
        enc+=("$(field encode_median_us "$line")")
        alone+=("$(field decode_alone_median_us "$line")")
    done
    echo "$1 $bytes $(middle "${dec[@]}") $(middle "${enc[@]}") $(middle "${alone[@]}") ${dec[*]} / ${alone[*]}"
}

mbs() { echo $((bytes / $1)); }
ratio() { python3 -c "print(f'{$1 / $2:.1f}')"; }
for workload in nested_dictionaries large_dictionaries; do
    echo "$workload: building and running (three runs each side) ..." >&2
    read -r _ gbytes gdec genc galone grest <<<"$(report godot godot_run "$workload")"
    read -r _ cbytes cdec cenc calone crest <<<"$(report codec codec_run "$workload")"
    [ "$gbytes" = "$cbytes" ] || { echo "bench-godot: $workload: Godot encoded $gbytes bytes, this codec $cbytes" >&2; exit 1; }
    bytes=$gbytes
    echo
    echo "$workload, $bytes bytes, medians of 15 (middle of three runs; decode µs per run, alternating / alone: Godot $grest, codec $crest)"
    echo
    echo "| | decode MB/s, alternating | encode MB/s, alternating | decode MB/s, alone |"
    echo "|---|---:|---:|---:|"
    echo "| Godot 4.6.3 | $(mbs "$gdec") | $(mbs "$genc") | $(mbs "$galone") |"
    echo "| gdmarshal | $(mbs "$cdec") | $(mbs "$cenc") | $(mbs "$calone") |"
    echo "| ratio | $(ratio "$gdec" "$cdec")× | $(ratio "$genc" "$cenc")× | $(ratio "$galone" "$calone")× |"
done
