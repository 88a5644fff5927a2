"""Godot's binary Variant format, as real engines write and read it.

``decode`` reads what ``var_to_bytes`` / ``var2bytes``, ``FileAccess.store_var`` and
``PacketPeer.put_var`` write; ``encode`` writes what they would; ``inspect`` lists every field of
the bytes. Each takes the Godot version as ``godot="4.6"`` (also ``"3.2"``, ``"3.6"``, ``"4"``
for the newest 4.x, ``"4.6-double"`` for a double-precision build), ``framing=`` for the length
that ``store_var`` and ``put_var`` write first (``"store-var"``, ``"stream"``, ``"packet"``;
default none) and ``objects=True`` to allow full objects, as ``bytes_to_var_with_objects`` does.

    >>> import gdmarshal
    >>> gdmarshal.encode([1, "hi"], godot="4.6").hex()
    '1c000000020000000200000001000000040000000200000068690000'
    >>> gdmarshal.decode(bytes.fromhex("0300000000002040"), godot="4.6")
    2.5

Values (the table in the package's README says the same):

- Nil ``None``; bool ``bool``; int ``int`` (64-bit); float ``float``; String ``str``
  (a Godot 3 string that is not all Unicode scalar values: ``CodeUnits``);
- Array ``list`` (``tuple`` is taken too), typed: ``TypedArray``; Dictionary ``dict``, or
  ``Dictionary`` when typed or when a ``dict`` cannot hold its keys apart (``1``, ``1.0`` and
  ``True`` are one key in Python and three in Godot; a list is no ``dict`` key);
- PackedByteArray ``bytes``; PackedInt32Array, PackedInt64Array, PackedFloat32Array,
  PackedFloat64Array ``array.array`` of typecode ``"i"``, ``"q"``, ``"f"``, ``"d"``;
  PackedStringArray, PackedVector2/3/4Array, PackedColorArray: list subclasses of those names;
- math types (Vector2, Rect2, Transform2D, Color, …): named tuples whose fields are the
  components in wire order (``Transform2D(x_x, x_y, y_x, y_y, origin_x, origin_y)``);
- StringName ``StringName`` (a ``str``); NodePath, RID, Object, ObjectID, NullObject, Callable,
  Signal: the classes of those names.
"""

from array import array
from collections import namedtuple

from . import _native

__all__ = [
    "decode", "decode_prefix", "encode", "inspect",
    "DecodeError", "EncodeError", "Row", "Inspection",
    "StringName", "CodeUnits", "NodePath", "RID", "Object", "ObjectID", "NullObject",
    "Callable", "Signal", "TypedArray", "Dictionary", "ContainerType",
    "PackedStringArray", "PackedVector2Array", "PackedVector3Array", "PackedVector4Array",
    "PackedColorArray",
]

__version__ = _native.CODEC_VERSION


class DecodeError(ValueError):
    """Bytes the engine refuses: ``offset`` is the byte where the problem is (counted from the
    start of the input, framing included), ``kind`` what it is (``"truncated"``,
    ``"unknown-type"``, ``"bad-length"``, ``"bad-utf8"``, ``"objects-not-allowed"``,
    ``"bad-container-type"``, ``"too-deep"``, ``"old-node-path"``, ``"name-not-text"``,
    ``"script-property-not-path"``, ``"script-path-not-resource"``, ``"framing"``, or ``"unmodelled-conversion"`` for valid bytes whose value the codec does not
    know)."""

    def __init__(self, message, offset, kind):
        super().__init__(f"at byte {offset}: {message}")
        self.offset = offset
        self.kind = kind


class EncodeError(ValueError):
    """A value the engine cannot write: ``path`` is where in it (``$[3]``, ``${key 0}``,
    ``$.name``)."""

    def __init__(self, message, path):
        super().__init__(f"at {path}: {message}")
        self.path = path


Row = namedtuple("Row", "offset bytes path field meaning")
Row.__doc__ = """A field of the input: its offset, its bytes, the value it is read in (``$[2]``),
its name and what it means."""

Inspection = namedtuple("Inspection", "rows consumed error")
Inspection.__doc__ = """What ``inspect`` found: the rows, the bytes consumed (``None`` if the
bytes are refused) and the ``DecodeError`` (not raised) where decoding stopped."""


class StringName(str):
    """A Godot 4 ``StringName``: a ``str`` that encodes as StringName."""

    __slots__ = ()

    def __repr__(self):
        return f"StringName({str.__repr__(self)})"


class CodeUnits(tuple):
    """A Godot 3 string whose 32-bit code units are not all Unicode scalar values (a lone
    surrogate, a unit past U+10FFFF), which a ``str`` cannot always hold: its units in order."""

    __slots__ = ()

    def __repr__(self):
        return f"CodeUnits({tuple.__repr__(self)})"


NodePath = namedtuple("NodePath", "names subnames absolute")
NodePath.__doc__ = """A NodePath: names and subnames (tuples of ``str``) and whether it is
absolute: ``/a/b:x`` is ``NodePath(("a", "b"), ("x",), True)``."""

RID = namedtuple("RID", "id")
RID.__doc__ = "An RID: its 64-bit id (Godot 3 writes none: always 0 there)."

Object = namedtuple("Object", "class_name properties")
Object.__doc__ = """A full object (``objects=True``): its class and its properties as a list
of ``(name, value)`` pairs in the order written."""

ObjectID = namedtuple("ObjectID", "id")
ObjectID.__doc__ = "An object known by its instance id."

NullObject = namedtuple("NullObject", "")
NullObject.__doc__ = "A null Object (not Nil: Godot tells them apart)."

Callable = namedtuple("Callable", "")
Callable.__doc__ = "A Callable, which the format writes with no payload (Godot 4)."

Signal = namedtuple("Signal", "name object_id")
Signal.__doc__ = "A Signal: its name and its object's instance id (Godot 4)."

ContainerType = namedtuple("ContainerType", "kind name")
ContainerType.__doc__ = """The element type of a typed Array or the key or value type of a typed
Dictionary: ``kind`` is ``"builtin"`` (``name`` a type, ``"int"``), ``"class"`` (``"Node"``) or
``"script"`` (a resource path)."""


class TypedArray(list):
    """A typed Array (Godot 4): a list with its ``element_type`` (a ``ContainerType``)."""

    __slots__ = ("element_type",)

    def __init__(self, element_type, items=()):
        super().__init__(items)
        self.element_type = element_type

    def __eq__(self, other):
        return (isinstance(other, TypedArray) and self.element_type == other.element_type
                and list.__eq__(self, other))

    __hash__ = None

    def __repr__(self):
        return f"TypedArray({self.element_type!r}, {list.__repr__(self)})"


class Dictionary:
    """A Dictionary as ``(key, value)`` pairs in order, with its key and value types (each a
    ``ContainerType`` or ``None``): what ``decode`` gives for a typed Dictionary and for one whose
    keys a ``dict`` cannot hold apart. ``dict(d.entries)`` is the plain form, when it is one."""

    __slots__ = ("entries", "key_type", "value_type")

    def __init__(self, entries=(), key_type=None, value_type=None):
        self.entries = list(entries)
        self.key_type = key_type
        self.value_type = value_type

    def __len__(self):
        return len(self.entries)

    def __iter__(self):
        return (k for k, _ in self.entries)

    def items(self):
        return list(self.entries)

    def __eq__(self, other):
        return (isinstance(other, Dictionary) and self.entries == other.entries
                and self.key_type == other.key_type and self.value_type == other.value_type)

    __hash__ = None

    def __repr__(self):
        return f"Dictionary({self.entries!r}, {self.key_type!r}, {self.value_type!r})"


def _packed(name, doc):
    cls = type(name, (list,), {"__slots__": (), "__doc__": doc,
                               "__repr__": lambda self: f"{name}({list.__repr__(self)})"})
    cls.__module__ = __name__
    return cls


PackedStringArray = _packed("PackedStringArray", "A PackedStringArray: a list of ``str``.")
PackedVector2Array = _packed("PackedVector2Array", "A PackedVector2Array: a list of ``Vector2``.")
PackedVector3Array = _packed("PackedVector3Array", "A PackedVector3Array: a list of ``Vector3``.")
PackedVector4Array = _packed("PackedVector4Array", "A PackedVector4Array: a list of ``Vector4``.")
PackedColorArray = _packed("PackedColorArray", "A PackedColorArray: a list of ``Color``.")

# The math types, from the codec's own type table: one named tuple each, its fields the
# components in wire order ("origin.x" becomes origin_x).
for _name, _fields in _native.layouts():
    _cls = namedtuple(_name, [f.replace(".", "_") for f in _fields])
    _cls.__module__ = __name__
    _cls.__doc__ = f"A {_name}: {', '.join(_fields)}, in wire order."
    globals()[_name] = _cls
    __all__.append(_name)
del _name, _fields, _cls

_native.register({name: globals()[name] for name in __all__ if name[0].isupper()} | {"array": array})


def decode(data, *, godot, framing=None, objects=False):
    """The value at the start of ``data`` (bytes-like), as Godot ``godot``'s ``bytes_to_var``
    reads it: bytes after it are ignored, as the engine ignores them. Raises ``DecodeError``."""
    return _native.decode_prefix(_bytes(data), godot=godot, framing=framing, objects=objects)[0]


def decode_prefix(data, *, godot, framing=None, objects=False):
    """``(value, consumed)``: the value at the start of ``data`` and the bytes the engine counts
    as read (the framing's length included)."""
    return _native.decode_prefix(_bytes(data), godot=godot, framing=framing, objects=objects)


def encode(value, *, godot, framing=None, objects=False):
    """The bytes Godot ``godot``'s ``var_to_bytes`` writes for ``value`` (``objects=True``: as
    ``var_to_bytes_with_objects``). Raises ``EncodeError``."""
    return _native.encode(value, godot=godot, framing=framing, objects=objects)


def inspect(data, *, godot, framing=None, objects=False):
    """Every field the decoder reads from ``data``: an ``Inspection`` of ``Row``\\ s."""
    return _native.inspect(_bytes(data), godot=godot, framing=framing, objects=objects)


def _bytes(data):
    """``data`` as ``bytes`` (``bytearray`` and ``memoryview`` are copied once)."""
    return data if type(data) is bytes else bytes(data)
