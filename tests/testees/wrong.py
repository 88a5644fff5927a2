#!/usr/bin/env python3
"""Deliberately wrong testees for the conformance runner's own tests (tests/conform.rs).

Each is the example testee (testees/python/gdmarshal_testee.py) with one defect:

    wrong.py doc-type-table   uses the type ids of Godot's 4.x documentation page, which are the
                              3.x ids (docs/format-notes.md section 7): Array 19, not 28
    wrong.py float64          always writes floats as 64-bit (the docs say "always double")
    wrong.py crash-on TYPE    exits when asked about a value of TYPE
    wrong.py hang-on TYPE     stops answering when asked about a value of TYPE
    wrong.py allocate-on TYPE allocates 8 GiB when asked about a value of TYPE
    wrong.py connect PORT     right, but first tries to connect to 127.0.0.1:PORT and says on
                              stderr whether it could (for the network fence's test)
    wrong.py versions V,...   declares only these versions (e.g. 4)
    wrong.py types T,...      declares only these types, as written (unknown names included)
    wrong.py float-spelling   right, but writes floats it decodes in other spellings (0x bits,
                              exponent forms): no failure
    wrong.py deep-float-off   decodes floats nested in a container one bit off
    wrong.py reject-all       rejects every input and value
    wrong.py decode-only      claims to decode only (no encode, no re-encode) and refuses to encode
    wrong.py cap-65535        refuses arrays, dictionaries and packed arrays past 65,535 elements
    wrong.py json-depth N     declares max_json_depth N, and crashes on a request nested deeper
                              (as a JSON parser with that depth limit would): right only if the
                              runner never sends one

With GDMARSHAL_TESTEE_TYPES=T,... in its environment any of them declares only those types.
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

elif defect in ("crash-on", "hang-on", "allocate-on"):
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
            if defect == "allocate-on":
                sys.stderr.write("allocating 8 GiB on %s\n" % victim)
                sys.stderr.flush()
                hog = bytes(8 << 30)  # noqa: F841 (calloc: untouched; past the fence, MemoryError)
                return answer(request)
            time.sleep(3600)
        return answer(request)

    t.answer = faulty

elif defect == "connect":
    import socket

    s = socket.socket()
    s.settimeout(5)
    code = s.connect_ex(("127.0.0.1", int(sys.argv[2])))
    sys.stderr.write("connect: %s\n" % ("connected" if code == 0 else os.strerror(code)))
    sys.stderr.flush()
    s.close()

elif defect in ("versions", "types"):
    hello = t.answer
    listed = sys.argv[2].split(",")

    def answer(request):
        reply = hello(request)
        if request.get("op") == "hello":
            reply[defect] = listed
        return reply

    t.answer = answer

elif defect == "float-spelling":
    spelled = [0]

    def f64_token(x):
        spelled[0] += 1
        bits = t.struct.unpack("<Q", t.struct.pack("<d", x))[0]
        if t.math.isnan(x) or t.math.isinf(x) or spelled[0] % 2:
            return "0x%016x" % bits
        return "%.17e" % x

    t.f64_token = f64_token

elif defect == "deep-float-off":
    decode = t.decode_value

    def decode_value(r, major, depth):
        v = decode(r, major, depth)
        if v.get("type") == "float" and depth >= 1:
            bits = t.token_bits(v["value"], 8) ^ 1
            v["value"] = "0x%016x" % bits
        return v

    t.decode_value = decode_value

elif defect == "reject-all":
    def answer(request):
        if request.get("op") == "hello":
            return hello(request)
        return {"id": request.get("id"), "ok": False, "error": "rejected", "kind": "truncated"}

    hello = t.answer
    t.answer = answer

elif defect == "decode-only":
    inner = t.answer

    def answer(request):
        if request.get("op") == "hello":
            reply = inner(request)
            del reply["directions"]
            reply["capabilities"] = ["decode"]
            return reply
        if request.get("op") == "encode":
            return {"id": request.get("id"), "ok": False, "error": "this testee does not encode"}
        return inner(request)

    t.answer = answer

elif defect == "cap-65535":
    # A library that stores element counts in 16 bits: past 65,535 it refuses.
    decode = t.decode_value

    def decode_value(r, major, depth):
        v = decode(r, major, depth)
        if v.get("type") in ("Array", "Dictionary") and len(v["value"]) > 65535:
            raise t.Reject("more than 65,535 elements are not supported")
        return v

    t.decode_value = decode_value
    encode = t.encode_value

    def encode_value(v, major, out, depth=0):
        if v.get("type") in ("Array", "Dictionary") and len(v["value"]) > 65535:
            raise t.Reject("more than 65,535 elements are not supported")
        return encode(v, major, out, depth)

    t.encode_value = encode_value

elif defect == "json-depth":
    limit = int(sys.argv[2])
    answer = t.answer

    def json_depth(v):
        # Iterative: the requests this guards against nest thousands of levels.
        deepest, stack = 0, [(v, 1)]
        while stack:
            node, depth = stack.pop()
            children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else None
            if children is None:
                continue
            deepest = max(deepest, depth)
            stack.extend((c, depth + 1) for c in children)
        return deepest

    def limited(request):
        if json_depth(request) > limit:
            sys.stderr.write("request nests deeper than %d levels\n" % limit)
            sys.stderr.flush()
            os._exit(4)
        reply = answer(request)
        if request.get("op") == "hello":
            reply["max_json_depth"] = limit
        return reply

    t.answer = limited

else:
    sys.exit("unknown defect %r" % defect)

if os.environ.get("GDMARSHAL_TESTEE_TYPES"):
    declared = t.answer

    def answer_with_types(request):
        reply = declared(request)
        if request.get("op") == "hello":
            reply["types"] = os.environ["GDMARSHAL_TESTEE_TYPES"].split(",")
        return reply

    t.answer = answer_with_types

t.sys.setrecursionlimit(20000)
t.threading.stack_size(256 * 1024 * 1024)
th = t.threading.Thread(target=t.main)
th.start()
th.join()
