"""A corpus file (corpus/godot-*.jsonl) without the fields the engine answers differently from
run to run: each record's "nondeterministic" list names them (e.g. a fresh object's id in 4.x's
output). The engine's words (the "error" field) keep their text but not the line numbers of the
oracle's own scripts in a GDScript backtrace (`res://oracle/oracle4.gd:182`), which move whenever
the oracle is edited: they say where the oracle asked, not what the engine answered. One JSON
line per record, keys sorted, on stdout. Used by scripts/corpus-record.sh to tell a changed corpus
from a regenerated one.

Usage: python3 scripts/lib/corpus_stable.py FILE
"""

import json
import os
import re
import sys
import threading

ORACLE_LINE = re.compile(r"(res://oracle/[A-Za-z0-9_]+\.gd):\d+")

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
                if isinstance(record.get("error"), str):
                    record["error"] = ORACLE_LINE.sub(r"\1", record["error"])
                print(json.dumps(record, sort_keys=True))
    except SystemExit as e:
        failed.append(e.code)
    except BrokenPipeError:
        # The reader stopped at the first difference (cmp): nothing more to say.
        sys.stdout = open(os.devnull, "w")
        failed.append(1)


thread = threading.Thread(target=main)
thread.start()
thread.join()
if failed:
    sys.exit(failed[0])
