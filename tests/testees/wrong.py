#!/usr/bin/env python3
"""Deliberately wrong testees for the conformance runner's own tests (tests/conform.rs).

Each is the example testee (testees/python/gdmarshal_testee.py) with one defect:

    wrong.py doc-type-table   uses the type ids of Godot's 4.x documentation page, which are the
                              3.x ids (docs/format-notes.md section 7): Array 19, not 28
    wrong.py float64          always writes floats as 64-bit (the docs say "always double")
    wrong.py crash-on TYPE    exits when asked about a value of TYPE
    wrong.py hang-on TYPE     stops answering when asked about a value of TYPE
"""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "testees", "python"))
import gdmarshal_testee as t  # noqa: E402

defect = sys.argv[1]

if defect == "doc-type-table":
    t.IDS[4] = dict(t.IDS[3])

elif defect == "float64":
    encode = t.encode_value

    def encode_value(v, major, out, depth=0):
        if v.get("type") == "float":
            bits = t.token_bits(v["value"], 8)
            out += t.struct.pack("<IQ", t.IDS[major]["float"] | t.FLAG_64, bits)
            return out
        return encode(v, major, out, depth)

    t.encode_value = encode_value

elif defect in ("crash-on", "hang-on"):
    victim = sys.argv[2]
    answer = t.answer

    def involves(request):
        if request.get("op") == "encode":
            return ('"type": "%s"' % victim) in t.json.dumps(request.get("value"))
        if request.get("op") == "decode":
            data = bytes.fromhex(request.get("input", ""))
            major = int(str(request.get("godot", "4")).split(".")[0])
            return len(data) > 0 and data[0] == t.IDS.get(major, {}).get(victim)
        return False

    def faulty(request):
        if involves(request):
            if defect == "crash-on":
                sys.stderr.write("about to crash on %s\n" % victim)
                sys.stderr.flush()
                os._exit(3)
            time.sleep(3600)
        return answer(request)

    t.answer = faulty

else:
    sys.exit("unknown defect %r" % defect)

t.sys.setrecursionlimit(20000)
t.threading.stack_size(256 * 1024 * 1024)
th = t.threading.Thread(target=t.main)
th.start()
th.join()
