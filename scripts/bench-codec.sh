#!/usr/bin/env bash
# The codec benchmark, one type family per process, then the table of docs/benchmarks.md.
#
# Families run in separate processes because glibc's allocator adapts to what a process has freed:
# once a large block (say the 8 MB of a decoded scalars array) is freed, it raises its mmap and
# trim thresholds, and a later family's big buffers then come from the heap, which is returned to
# the system after every iteration and faulted back in during the next one. Within one process the
# numbers would depend on which family ran before. Each family's memcpy baseline runs in the same
# process as its codec measurements.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
families=$(cargo bench --bench codec -- --list 2>/dev/null | sed -nE 's#^codec/memcpy/([^:]+): benchmark$#\1#p')
[ -n "$families" ] || { echo "bench-codec: no families listed by the codec benchmark" >&2; exit 1; }
total=$(wc -w <<<"$families")
i=0
for family in $families; do
    i=$((i + 1))
    echo "[$i/$total] $family" >&2
    cargo bench -q --bench codec -- --noplot "^codec/(encode|decode|memcpy)/$family\$" >/dev/null
done
python3 "$root/scripts/bench-table.py"
