#!/usr/bin/env python3
"""A small testee for `gdmarshal conform`, in Python with the standard library only.

It implements part of Godot's binary Variant format (Nil, bool, int, float, String, Vector2,
Array, Dictionary, PackedByteArray; Godot 3.x and 4.x) and the testee protocol of
docs/conformance.md: one JSON object per line on stdin, one answer per line on stdout.
Anything it does not handle it answers with "skipped", never with a guess.

Copy it as the starting point of your own testee, or as a template for a wrapper around your
implementation:

    gdmarshal conform --testee "python3 testees/python/gdmarshal_testee.py" --godot 4.6

This file is licensed under MIT OR Apache-2.0; copy it into your own project and change it freely.
"""

import json
import math
import struct
import sys
import threading

FLAG_64 = 1 << 16

# Wire ids of the types this testee handles, per major version (Godot 4 renumbered them).
IDS = {
    3: {"Nil": 0, "bool": 1, "int": 2, "float": 3, "String": 4, "Vector2": 5,
        "Dictionary": 18, "Array": 19, "PackedByteArray": 20},
    4: {"Nil": 0, "bool": 1, "int": 2, "float": 3, "String": 4, "Vector2": 5,
        "Dictionary": 27, "Array": 28, "PackedByteArray": 29},
}
# Number of types each major version has: ids from here up are invalid.
VARIANT_MAX = {3: 27, 4: 39}
# Deeper values are left to real implementations (the engines limit nesting at 1024 levels).
MAX_DEPTH = 64


class Skip(Exception):
    """This testee does not handle the case."""


class Reject(Exception):
    """The input is invalid: the engine would refuse it."""


# ---- floats as tagged-JSON tokens (exact: bits survive) ----

def f64_token(x):
    if math.isnan(x):
        return "0x%016x" % struct.unpack("<Q", struct.pack("<d", x))[0]
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return repr(x)


def f32_token_from_bits(bits):
    return "0x%08x" % bits


def token_bits(token, width):
    """The bits of a float token: width 4 (f32) or 8 (f64)."""
    if token.startswith("0x"):
        return int(token, 16)
    if token == "nan":
        return 0x7FC00000 if width == 4 else 0x7FF8000000000000
    x = float(token)  # also "inf", "-inf", "-0"
    if width == 8:
        return struct.unpack("<Q", struct.pack("<d", x))[0]
    return struct.unpack("<I", struct.pack("<f", x))[0]


def token_value(token):
    """A float token's value, whatever its spelling (decimal, exponent form, 0x bits)."""
    if token.startswith("0x"):
        if len(token) > 10:
            return struct.unpack("<d", struct.pack("<Q", int(token, 16)))[0]
        return struct.unpack("<f", struct.pack("<I", int(token, 16)))[0]
    return float(token)


def key_identity(v):
    """What makes two Dictionary keys one key for the engines: equal values, so 0 and -0 are
    one key; each float is compared by value, not by how it is spelled."""
    if isinstance(v, dict):
        if v.get("type") in ("float", "Vector2"):
            tokens = v["value"] if isinstance(v["value"], list) else [v["value"]]
            values = [token_value(t) for t in tokens]
            return [v["type"]] + ["nan" if x != x else (0.0 if x == 0 else x) for x in values]
        return {k: key_identity(x) for k, x in v.items()}
    if isinstance(v, list):
        return [key_identity(x) for x in v]
    return v


# ---- decode ----

class Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def take(self, n):
        if n < 0 or self.pos + n > len(self.data):
            raise Reject("truncated at offset %d: %d bytes wanted" % (self.pos, n))
        b = self.data[self.pos:self.pos + n]
        self.pos += n
        return b

    def u32(self):
        return struct.unpack("<I", self.take(4))[0]


def decode_value(r, major, depth):
    if depth > MAX_DEPTH:
        raise Skip("nesting deeper than %d" % MAX_DEPTH)
    header = r.u32()
    type_id = header & 0xFF
    flags = header >> 16
    if type_id >= VARIANT_MAX[major]:
        raise Reject("unknown type id %d" % type_id)
    names = {v: k for k, v in IDS[major].items()}
    if type_id not in names:
        raise Skip("type id %d is not implemented here" % type_id)
    name = names[type_id]
    wide = bool(header & FLAG_64)
    if header & 0xFF00 or (flags & ~1) or (wide and name not in ("int", "float")):
        raise Skip("header flags are not handled here")
    if name == "Nil":
        return {"type": "Nil"}
    if name == "bool":
        return {"type": "bool", "value": r.u32() != 0}
    if name == "int":
        fmt, n = ("<q", 8) if wide else ("<i", 4)
        return {"type": "int", "value": str(struct.unpack(fmt, r.take(n))[0])}
    if name == "float":
        if wide:
            x = struct.unpack("<d", r.take(8))[0]
        else:
            x = struct.unpack("<f", r.take(4))[0]
            if math.isnan(x):
                raise Skip("f32 NaN widening is not handled here")
        return {"type": "float", "value": f64_token(x)}
    if name == "String":
        n = r.u32()
        raw = r.take(n)
        r.take((4 - n % 4) % 4)
        if b"\0" in raw or raw.startswith(b"\xef\xbb\xbf"):
            raise Skip("NUL bytes and byte-order marks are not handled here")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Skip("invalid UTF-8 is not handled here")
        return {"type": "String", "value": text}
    if name == "Vector2":
        bits = struct.unpack("<II", r.take(8))
        return {"type": "Vector2", "value": [f32_token_from_bits(b) for b in bits]}
    if name == "Array":
        count = r.u32() & 0x7FFFFFFF
        items = []
        for _ in range(count):
            items.append(decode_value(r, major, depth + 1))
        return {"type": "Array", "value": items}
    if name == "Dictionary":
        count = r.u32() & 0x7FFFFFFF
        pairs = []
        seen = set()
        for _ in range(count):
            k = decode_value(r, major, depth + 1)
            v = decode_value(r, major, depth + 1)
            key = json.dumps(key_identity(k), sort_keys=True)
            if key in seen:
                raise Skip("duplicate dictionary keys are not handled here")
            seen.add(key)
            pairs.append([k, v])
        return {"type": "Dictionary", "value": pairs}
    if name == "PackedByteArray":
        n = r.u32()
        raw = r.take(n)
        # The engines do not check that the padding is there, but count it as consumed.
        r.pos += (4 - n % 4) % 4
        return {"type": "PackedByteArray", "value": raw.hex()}
    raise Skip(name)


# ---- encode ----

def encode_value(v, major, out, depth=0):
    if depth > MAX_DEPTH:
        raise Skip("nesting deeper than %d" % MAX_DEPTH)
    name = {"PoolByteArray": "PackedByteArray", "Real": "float"}.get(v.get("type"), v.get("type"))
    if name not in IDS[major]:
        raise Skip("type %s is not implemented here" % name)
    type_id = IDS[major][name]
    if name == "Nil":
        out += struct.pack("<I", type_id)
    elif name == "bool":
        out += struct.pack("<II", type_id, 1 if v["value"] else 0)
    elif name == "int":
        x = int(v["value"])
        if -2**31 <= x < 2**31:
            out += struct.pack("<Ii", type_id, x)
        else:
            out += struct.pack("<Iq", type_id | FLAG_64, x)
    elif name == "float":
        bits = token_bits(v["value"], 8)
        x = struct.unpack("<d", struct.pack("<Q", bits))[0]
        # Godot writes 32 bits when the value survives the round trip through f32.
        try:
            narrow = struct.unpack("<f", struct.pack("<f", x))[0]
        except OverflowError:
            narrow = None
        if narrow is not None and not math.isnan(x) and narrow == x:
            out += struct.pack("<If", type_id, x)
        else:
            out += struct.pack("<IQ", type_id | FLAG_64, bits)
    elif name == "String":
        if not isinstance(v["value"], str):
            raise Skip('3.x strings of code units ({"code_units": [...]}) are not handled here')
        raw = v["value"].encode("utf-8")
        out += struct.pack("<II", type_id, len(raw)) + raw + b"\0" * ((4 - len(raw) % 4) % 4)
    elif name == "Vector2":
        out += struct.pack("<I", type_id)
        for t in v["value"]:
            out += struct.pack("<I", token_bits(t, 4))
    elif name == "Array":
        if "element_type" in v:
            raise Skip("typed arrays are not implemented here")
        out += struct.pack("<II", type_id, len(v["value"]))
        for item in v["value"]:
            encode_value(item, major, out, depth + 1)
    elif name == "Dictionary":
        if "key_type" in v or "value_type" in v:
            raise Skip("typed dictionaries are not implemented here")
        out += struct.pack("<II", type_id, len(v["value"]))
        for k, item in v["value"]:
            encode_value(k, major, out, depth + 1)
            encode_value(item, major, out, depth + 1)
    elif name == "PackedByteArray":
        raw = bytes.fromhex(v["value"])
        out += struct.pack("<II", type_id, len(raw)) + raw + b"\0" * ((4 - len(raw) % 4) % 4)
    return out


# ---- the protocol ----

def answer(request):
    op = request.get("op")
    if op == "hello":
        return {
            "name": "gdmarshal_testee.py (example)",
            "protocol": 1,
            "versions": ["3", "4"],
            "directions": ["decode", "encode"],
            "types": ["Nil", "bool", "int", "float", "String", "Vector2", "Array",
                      "Dictionary", "PackedByteArray"],
        }
    rid = request.get("id")
    major = int(str(request.get("godot", "4")).split(".")[0])
    if "-double" in str(request.get("godot")) or major not in IDS:
        return {"id": rid, "skipped": "only single-precision 3.x and 4.x"}
    if request.get("objects"):
        return {"id": rid, "skipped": "objects are not implemented here"}
    try:
        if op == "decode":
            r = Reader(bytes.fromhex(request["input"]))
            value = decode_value(r, major, 0)
            return {"id": rid, "ok": True, "value": value, "consumed": r.pos}
        if op == "encode":
            out = encode_value(request["value"], major, bytearray())
            return {"id": rid, "ok": True, "output": bytes(out).hex()}
        return {"id": rid, "ok": False, "error": "unknown op %r" % op}
    except Skip as e:
        return {"id": rid, "skipped": str(e)}
    except Reject as e:
        return {"id": rid, "ok": False, "error": str(e)}


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        reply = answer(json.loads(line))
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    # Requests can nest 2048 JSON levels deep (1024-level values): give the parser room.
    sys.setrecursionlimit(20000)
    threading.stack_size(256 * 1024 * 1024)
    t = threading.Thread(target=main)
    t.start()
    t.join()
