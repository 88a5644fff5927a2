#!/usr/bin/env bash
# The codec benchmark, one measurement per process, then the table of docs/benchmarks.md.
#
# Measurements run in separate processes because glibc's allocator adapts to what a process has
# freed: once a large block (the 8 MB of a decoded scalars array, or an encoder's output buffer as
# it grows) is freed, it raises its mmap and trim thresholds, and a later measurement's big buffers
# then come from the heap, which is returned to the system after every iteration and faulted back
# in during the next one. Within one process a number would depend on what ran before it. The
# memcpy baselines run the same way.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
ids=$(cargo bench --bench codec -- --list 2>/dev/null | sed -nE 's#^(codec/[^:]+): benchmark$#\1#p')
[ -n "$ids" ] || { echo "bench-codec: the codec benchmark listed nothing" >&2; exit 1; }
total=$(wc -w <<<"$ids")
log=$(mktemp)
trap 'rm -f "$log"' EXIT
i=0
for id in $ids; do
    i=$((i + 1))
    echo "[$i/$total] $id" >&2
    if ! cargo bench -q --bench codec -- --noplot "^$id\$" >"$log" 2>&1; then
        cat "$log" >&2
        exit 1
    fi
done
python3 "$root/scripts/bench-table.py"
