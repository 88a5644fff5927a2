"""A corpus file (corpus/godot-*.jsonl) without the fields the engine answers differently from
run to run: each record's "nondeterministic" list names them (e.g. a fresh object's id in 4.x's
output). One JSON line per record, keys sorted, on stdout. Used by scripts/corpus-record.sh to
tell a changed corpus from a regenerated one.

Usage: python3 scripts/lib/corpus_stable.py FILE
"""

import json
import sys
import threading

# The corpus holds values 10,000 levels deep: room for the parser's recursion.
sys.setrecursionlimit(1_000_000)
threading.stack_size(512 << 20)
failed = []


def main():
    try:
        with open(sys.argv[1], encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as e:
                    sys.exit(f"{sys.argv[1]}:{number}: {e}")
                for field in record.pop("nondeterministic", []):
                    record.pop(field, None)
                print(json.dumps(record, sort_keys=True))
    except SystemExit as e:
        failed.append(e.code)


thread = threading.Thread(target=main)
thread.start()
thread.join()
if failed:
    sys.exit(failed[0])
