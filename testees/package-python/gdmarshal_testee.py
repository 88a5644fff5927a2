#!/usr/bin/env python3
"""The testee of the Python package `gdmarshal` (bindings/python) for `gdmarshal conform`.

It uses nothing but the installed package: each request's tagged JSON becomes the package's
Python value, which the package encodes; each decoded Python value becomes tagged JSON again. So
a run proves the wheel as users install it, its value mapping included, against the engines'
answers. scripts/bindings.sh runs it on 3.2, 3.6 and 4.6 and holds it to the totals of the
codec's own testee:

    gdmarshal conform --testee "python3 testees/package-python/gdmarshal_testee.py" --godot 4.6

The package's known differences from the engines are the codec's, so the handshake declares the
list of the kit that wraps the codec (testees/rust/expect-fail.txt).
"""

import json
import math
import os
import struct
import sys
import threading
from array import array

import gdmarshal as g

INT_VECTORS = {"Vector2i", "Rect2i", "Vector3i", "Vector4i"}
MATH = {name for name in g.__all__ if hasattr(getattr(g, name), "_fields")
        and name not in {"Row", "Inspection", "NodePath", "RID", "Object", "ObjectID",
                         "NullObject", "Callable", "Signal", "ContainerType"}}
PACKED_VECTORS = {"PackedVector2Array": g.Vector2, "PackedVector3Array": g.Vector3,
                  "PackedVector4Array": g.Vector4}
# The codec's rejection kinds in the protocol's vocabulary (docs/conformance.md).
KINDS = {"truncated": "truncated", "unknown-type": "bad-type", "bad-container-type": "bad-type",
         "bad-length": "bad-count", "bad-utf8": "bad-utf8", "too-deep": "too-deep",
         "objects-not-allowed": "not-allowed-object", "old-node-path": "bad-value",
         "name-not-text": "bad-value", "script-property-not-path": "bad-value",
         "script-path-not-resource": "bad-value"}
OLD_NAMES = {"Real": "float", "Quat": "Quaternion", "Transform": "Transform3D",
             "PoolIntArray": "PackedInt32Array", "PoolRealArray": "PackedFloat32Array"}


# ---- float tokens (docs/tagged-json.md): written as exact bits, read in any spelling ----

def f64_bits(x):
    return "0x%016x" % struct.unpack("<Q", struct.pack("<d", x))[0]


# The package holds an f32 in a Python float with its NaN payload in the top bits of the f64's
# mantissa, quiet bit untouched (a hardware conversion, as struct's, would set it): these follow
# the same rule, so that a signalling NaN such as 0x7f800001 survives.
def f32_bits(x):
    wide = struct.unpack("<Q", struct.pack("<d", x))[0]
    if math.isnan(x):
        payload = (wide >> 29) & 0x7FFFFF or 0x400000
        return "0x%08x" % ((wide >> 63) << 31 | 0x7F800000 | payload)
    return "0x%08x" % struct.unpack("<I", struct.pack("<f", x))[0]


def f32_of_bits(bits):
    if bits & 0x7F800000 == 0x7F800000 and bits & 0x7FFFFF:
        wide = (bits >> 31) << 63 | 0x7FF0000000000000 | (bits & 0x7FFFFF) << 29
        return struct.unpack("<d", struct.pack("<Q", wide))[0]
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def token(t, width):
    """A float token's value at its width (4 or 8), as a Python float."""
    if t.startswith("0x"):
        if width == 8:
            return struct.unpack("<d", struct.pack("<Q", int(t, 16)))[0]
        return f32_of_bits(int(t, 16))
    x = float(t)
    return x if width == 8 else struct.unpack("<f", struct.pack("<f", x))[0]


def f32_tokens(a):
    """The exact tokens of an array("f"), read from its bytes (reading items would widen them)."""
    raw = a.tobytes()
    return ["0x%08x" % struct.unpack_from("<I", raw, i)[0] for i in range(0, len(raw), 4)]


def f32_array(tokens):
    """An array("f") of tokens, built from their bits."""
    a = array("f")
    a.frombytes(b"".join(struct.pack("<I", f32_token_bits(t)) for t in tokens))
    return a


def f32_token_bits(t):
    if t.startswith("0x"):
        return int(t, 16)
    return struct.unpack("<I", struct.pack("<f", float(t)))[0]


# ---- tagged JSON to the package's values ----

def string_in(s):
    if isinstance(s, dict):
        return g.CodeUnits(s["code_units"])
    return s


def container_type_in(t):
    if t is None:
        return None
    (kind, name), = t.items()
    return g.ContainerType(kind, name)


def value_in(v, real):
    ty = OLD_NAMES.get(v["type"], v["type"])
    if ty.startswith("Pool"):
        ty = "Packed" + ty[4:]
    x = v.get("value")
    if ty == "Nil":
        return None
    if ty == "bool":
        return x
    if ty == "int":
        return int(x)
    if ty == "float":
        return token(x, 8)
    if ty == "String":
        return string_in(x)
    if ty == "StringName":
        return g.StringName(x)
    if ty in INT_VECTORS:
        return getattr(g, ty)(*x)
    if ty == "Color":
        return g.Color(*(token(t, 4) for t in x))
    if ty in MATH:
        return getattr(g, ty)(*(token(t, real) for t in x))
    if ty == "NodePath":
        return g.NodePath(tuple(map(string_in, v["names"])), tuple(map(string_in, v["subnames"])),
                          v["absolute"])
    if ty == "RID":
        return g.RID(int(x))
    if ty == "Object":
        if "id" in v:
            return g.ObjectID(int(v["id"]))
        if "class" in v:
            return g.Object(v["class"], [(n, value_in(p, real)) for n, p in v["properties"]])
        return g.NullObject()
    if ty == "Callable":
        return g.Callable()
    if ty == "Signal":
        return g.Signal(v["name"], int(v["object"]))
    if ty == "Array":
        items = [value_in(i, real) for i in x]
        if "element_type" in v:
            return g.TypedArray(container_type_in(v["element_type"]), items)
        return items
    if ty == "Dictionary":
        entries = [(value_in(k, real), value_in(i, real)) for k, i in x]
        if "key_type" in v or "value_type" in v:
            return g.Dictionary(entries, container_type_in(v.get("key_type")),
                                container_type_in(v.get("value_type")))
        try:
            d = dict(entries)
            if len(d) == len(entries):
                return d
        except TypeError:
            pass
        return g.Dictionary(entries)
    if ty == "PackedByteArray":
        return bytes.fromhex(x)
    if ty == "PackedInt32Array":
        return array("i", x)
    if ty == "PackedInt64Array":
        return array("q", map(int, x))
    if ty == "PackedFloat32Array":
        return f32_array(x)
    if ty == "PackedFloat64Array":
        return array("d", (token(t, 8) for t in x))
    if ty == "PackedStringArray":
        return g.PackedStringArray(map(string_in, x))
    if ty in PACKED_VECTORS:
        cls = PACKED_VECTORS[ty]
        return getattr(g, ty)(cls(*(token(t, real) for t in e)) for e in x)
    if ty == "PackedColorArray":
        return g.PackedColorArray(g.Color(*(token(t, 4) for t in e)) for e in x)
    raise ValueError("no such type: %r" % ty)


# ---- the package's values to tagged JSON ----

def string_out(s):
    if isinstance(s, g.CodeUnits):
        return {"code_units": list(s)}
    return s


def container_type_out(t):
    return {t.kind: t.name}


def value_out(x, real):
    bits = f64_bits if real == 8 else f32_bits
    t = type(x)
    if x is None:
        return {"type": "Nil"}
    if t is bool:
        return {"type": "bool", "value": x}
    if t is int:
        return {"type": "int", "value": str(x)}
    if t is float:
        return {"type": "float", "value": f64_bits(x)}
    if t is str or t is g.CodeUnits:
        return {"type": "String", "value": string_out(x)}
    if t is g.StringName:
        return {"type": "StringName", "value": str(x)}
    name = t.__name__
    if name in INT_VECTORS:
        return {"type": name, "value": list(x)}
    if t is g.Color:
        return {"type": "Color", "value": [f32_bits(c) for c in x]}
    if name in MATH and t is getattr(g, name):
        return {"type": name, "value": [bits(c) for c in x]}
    if t is g.NodePath:
        return {"type": "NodePath", "names": [string_out(n) for n in x.names],
                "subnames": [string_out(n) for n in x.subnames], "absolute": x.absolute}
    if t is g.RID:
        return {"type": "RID", "value": str(x.id)}
    if t is g.NullObject:
        return {"type": "Object", "value": None}
    if t is g.ObjectID:
        return {"type": "Object", "id": str(x.id)}
    if t is g.Object:
        return {"type": "Object", "class": x.class_name,
                "properties": [[n, value_out(p, real)] for n, p in x.properties]}
    if t is g.Callable:
        return {"type": "Callable"}
    if t is g.Signal:
        return {"type": "Signal", "name": x.name, "object": str(x.object_id)}
    if t is list:
        return {"type": "Array", "value": [value_out(i, real) for i in x]}
    if t is g.TypedArray:
        return {"type": "Array", "element_type": container_type_out(x.element_type),
                "value": [value_out(i, real) for i in x]}
    if t is dict:
        return {"type": "Dictionary",
                "value": [[value_out(k, real), value_out(i, real)] for k, i in x.items()]}
    if t is g.Dictionary:
        node = {"type": "Dictionary",
                "value": [[value_out(k, real), value_out(i, real)] for k, i in x.entries]}
        if x.key_type is not None:
            node["key_type"] = container_type_out(x.key_type)
        if x.value_type is not None:
            node["value_type"] = container_type_out(x.value_type)
        return node
    if t is bytes:
        return {"type": "PackedByteArray", "value": x.hex()}
    if t is array:
        if x.typecode == "i":
            return {"type": "PackedInt32Array", "value": list(x)}
        if x.typecode == "q":
            return {"type": "PackedInt64Array", "value": [str(i) for i in x]}
        if x.typecode == "f":
            return {"type": "PackedFloat32Array", "value": f32_tokens(x)}
        return {"type": "PackedFloat64Array", "value": [f64_bits(f) for f in x]}
    if t is g.PackedStringArray:
        return {"type": "PackedStringArray", "value": [string_out(s) for s in x]}
    if name in PACKED_VECTORS and t is getattr(g, name):
        return {"type": name, "value": [[bits(c) for c in e] for e in x]}
    if t is g.PackedColorArray:
        return {"type": "PackedColorArray", "value": [[f32_bits(c) for c in e] for e in x]}
    raise TypeError("the package gave a %s, which has no tagged JSON form here" % name)


# ---- the protocol (docs/conformance.md) ----

def hello():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "rust", "expect-fail.txt"), encoding="utf-8") as f:
        # One line per known difference; '#' starts a comment.
        expect_fail = [line.split("#")[0].strip() for line in f]
    return {"name": "gdmarshal %s (Python package)" % g.__version__, "protocol": 1,
            "versions": "all", "capabilities": "all", "types": "all",
            "expect_fail": [line for line in expect_fail if line]}


def answer(request):
    if request.get("op") == "hello":
        return hello()
    rid = request["id"]
    godot = request["godot"]
    real = 8 if godot.endswith("-double") else 4
    objects = request.get("objects", False)
    try:
        if request["op"] == "decode":
            value, consumed = g.decode_prefix(bytes.fromhex(request["input"]), godot=godot,
                                              objects=objects)
            return {"id": rid, "ok": True, "value": value_out(value, real), "consumed": consumed}
        out = g.encode(value_in(request["value"], real), godot=godot, objects=objects)
        return {"id": rid, "ok": True, "output": out.hex()}
    except g.DecodeError as e:
        reply = {"id": rid, "ok": False, "error": str(e)}
        if e.kind in KINDS:
            reply["kind"] = KINDS[e.kind]
        return reply
    except g.EncodeError as e:
        return {"id": rid, "ok": False, "error": str(e)}
    except ValueError as e:
        if "godot=" in str(e):
            return {"id": rid, "skipped": str(e)}
        raise


def main():
    for line in sys.stdin:
        if line.strip():
            sys.stdout.write(json.dumps(answer(json.loads(line))) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    # Requests nest up to 2048 JSON levels (values 1024 deep): room for the parser and the
    # conversions, which recurse.
    sys.setrecursionlimit(50000)
    threading.stack_size(256 * 1024 * 1024)
    t = threading.Thread(target=main)
    t.start()
    t.join()
