"""A corpus file (corpus/godot-*.jsonl) without the fields the engine answers differently from
run to run: each record's "nondeterministic" list names them (e.g. a fresh object's id in 4.x's
output). The engine's words (the "error" field) keep their text but not the line numbers of the
oracle's own scripts in a GDScript backtrace (`res://oracle/oracle4.gd:182`), which move whenever
the oracle is edited: they say where the oracle asked, not what the engine answered (and the
text is compared up to where a change in their digits cannot move the record's cut). One JSON
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
# Records keep the first 600 characters of the engine's words (model/src/record.rs,
# ERROR_CHARS), line numbers included, so an edit of the oracle that adds a digit to them moves
# the cut. A backtrace names the oracle at most 8 times there, a line number at most 5 digits
# and its colon: the first 600 - 8 * 6 characters without them are the same either way.
STABLE_ERROR_CHARS = 600 - 8 * 6

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
                    error = ORACLE_LINE.sub(r"\1", record["error"])
                    record["error"] = error[:STABLE_ERROR_CHARS]
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
