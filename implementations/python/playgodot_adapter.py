"""The adapter of the PyPI package playgodot (its module playgodot.variant), run with the Python
of a virtual environment it is installed in. It maps the package's values to tagged JSON
(docs/tagged-json.md) and back and nothing more: None, bool, int, float, str, bytes
(PackedByteArray), list (Array), dict (Dictionary), and its {"_type": ...} dicts (Vector2,
Vector2i, Vector3, Vector3i, Color, RID). What its values cannot hold is answered "skipped"."""

import json
import struct
import sys
from importlib.metadata import version

from playgodot.variant import decode_variant, encode_variant


class Skip(Exception):
    """The package's values cannot hold this."""


def token(x):
    """A float as a tagged-JSON token, exactly."""
    if x != x:
        return "0x%016x" % struct.unpack("<Q", struct.pack("<d", x))[0]
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    return repr(x)


def value_of(t):
    """A float token's value."""
    if t.startswith("0x"):
        bits = int(t, 16)
        if len(t) == 10:
            return struct.unpack("<f", struct.pack("<I", bits))[0]
        return struct.unpack("<d", struct.pack("<Q", bits))[0]
    return float(t)


TYPED = {
    "Vector2": ("x", "y"),
    "Vector3": ("x", "y", "z"),
    "Color": ("r", "g", "b", "a"),
    "Vector2i": ("x", "y"),
    "Vector3i": ("x", "y", "z"),
}


def to_tagged(v):
    if v is None:
        return {"type": "Nil"}
    if isinstance(v, bool):
        return {"type": "bool", "value": v}
    if isinstance(v, int):
        return {"type": "int", "value": str(v)}
    if isinstance(v, float):
        return {"type": "float", "value": token(v)}
    if isinstance(v, str):
        return {"type": "String", "value": v}
    if isinstance(v, (bytes, bytearray)):
        return {"type": "PackedByteArray", "value": bytes(v).hex()}
    if isinstance(v, list):
        return {"type": "Array", "value": [to_tagged(x) for x in v]}
    if isinstance(v, dict) and v.get("_type") == "RID":
        return {"type": "RID", "value": str(v["id"])}
    if isinstance(v, dict) and v.get("_type") in TYPED:
        kind = v["_type"]
        parts = [v[f] for f in TYPED[kind]]
        values = parts if kind.endswith("i") else [token(x) for x in parts]
        return {"type": kind, "value": values}
    if isinstance(v, dict):
        return {"type": "Dictionary", "value": [[to_tagged(k), to_tagged(x)] for k, x in v.items()]}
    raise Skip(f"a decoded {type(v).__name__} the adapter cannot map")


def text(s):
    if isinstance(s, str):
        return s
    raise Skip("strings of code units that are not Unicode text")


def from_tagged(node):
    kind, v = node["type"], node.get("value")
    if kind == "Nil":
        return None
    if kind == "bool":
        return v
    if kind == "int":
        return int(v)
    if kind == "float":
        return value_of(v)
    if kind == "String":
        return text(v)
    if kind == "PackedByteArray":
        return bytes.fromhex(v)
    if kind == "Array" and "element_type" not in node:
        return [from_tagged(x) for x in v]
    if kind == "Dictionary" and "key_type" not in node and "value_type" not in node:
        out = {}
        for k, x in v:
            key = from_tagged(k)
            if isinstance(key, (list, dict, bytes)):
                raise Skip("a key a Python dict cannot hold")
            if key in out:
                raise Skip("keys Python takes for one key")
            out[key] = from_tagged(x)
        return out
    raise Skip(f"the package encodes no {kind}")


HELLO = {
    "name": f"playgodot {version('playgodot')}",
    "protocol": 1,
    # Its module says it implements Godot 4's binary Variant format, naming no exceptions.
    "versions": [f"4.{m}" for m in range(10)],
    "capabilities": ["decode", "encode", "reencode"],
    "types": "all",
    # Python's json reader recurses once per level.
    "max_json_depth": 500,
}


def answer(request):
    if request["op"] == "hello":
        return HELLO
    rid = request["id"]
    try:
        if request["op"] == "decode":
            value, consumed = decode_variant(bytes.fromhex(request["input"]))
            return {"id": rid, "ok": True, "value": to_tagged(value), "consumed": consumed}
        if request["op"] == "encode":
            return {"id": rid, "ok": True, "output": encode_variant(from_tagged(request["value"])).hex()}
        return {"id": rid, "ok": False, "error": f"unknown op {request['op']}"}
    except Skip as e:
        return {"id": rid, "skipped": str(e)}
    except Exception as e:  # the package's refusal, whatever it raises
        return {"id": rid, "ok": False, "error": f"{type(e).__name__}: {e}"}


def main():
    sys.setrecursionlimit(10000)
    for line in sys.stdin:
        if line.strip():
            sys.stdout.write(json.dumps(answer(json.loads(line))) + "\n")
            sys.stdout.flush()


main()
