"""Type stubs of the gdmarshal package (bindings/python): see its docstring and README."""

from array import array
from typing import Any, Iterable, NamedTuple, Optional, Union

Value = Any
"""A Python value with a Godot form (the README's table of values)."""

Bytes = Union[bytes, bytearray, memoryview]

class DecodeError(ValueError):
    offset: int
    kind: str
    def __init__(self, message: str, offset: int, kind: str) -> None: ...

class EncodeError(ValueError):
    path: str
    def __init__(self, message: str, path: str) -> None: ...

class Row(NamedTuple):
    offset: int
    bytes: bytes
    path: str
    field: str
    meaning: str

class Inspection(NamedTuple):
    rows: list[Row]
    consumed: Optional[int]
    error: Optional[DecodeError]

def decode(data: Bytes, *, godot: str, framing: Optional[str] = ..., objects: bool = ...) -> Value: ...
def decode_prefix(data: Bytes, *, godot: str, framing: Optional[str] = ..., objects: bool = ...) -> tuple[Value, int]: ...
def encode(value: Value, *, godot: str, framing: Optional[str] = ..., objects: bool = ...) -> bytes: ...
def inspect(data: Bytes, *, godot: str, framing: Optional[str] = ..., objects: bool = ...) -> Inspection: ...

class StringName(str): ...
class CodeUnits(tuple[int, ...]): ...

class NodePath(NamedTuple):
    names: tuple[Union[str, CodeUnits], ...]
    subnames: tuple[Union[str, CodeUnits], ...]
    absolute: bool

class RID(NamedTuple):
    id: int

class Object(NamedTuple):
    class_name: str
    properties: list[tuple[str, Value]]

class ObjectID(NamedTuple):
    id: int

class NullObject(NamedTuple): ...
class Callable(NamedTuple): ...

class Signal(NamedTuple):
    name: str
    object_id: int

class ContainerType(NamedTuple):
    kind: str
    name: str

class TypedArray(list[Value]):
    element_type: ContainerType
    def __init__(self, element_type: ContainerType, items: Iterable[Value] = ...) -> None: ...

class Dictionary:
    entries: list[tuple[Value, Value]]
    key_type: Optional[ContainerType]
    value_type: Optional[ContainerType]
    def __init__(self, entries: Iterable[tuple[Value, Value]] = ..., key_type: Optional[ContainerType] = ..., value_type: Optional[ContainerType] = ...) -> None: ...
    def __len__(self) -> int: ...
    def items(self) -> list[tuple[Value, Value]]: ...

class PackedStringArray(list[Union[str, CodeUnits]]): ...

class Vector2(NamedTuple):
    x: float
    y: float

class Vector2i(NamedTuple):
    x: int
    y: int

class Rect2(NamedTuple):
    position_x: float
    position_y: float
    size_x: float
    size_y: float

class Rect2i(NamedTuple):
    position_x: int
    position_y: int
    size_x: int
    size_y: int

class Vector3(NamedTuple):
    x: float
    y: float
    z: float

class Vector3i(NamedTuple):
    x: int
    y: int
    z: int

class Transform2D(NamedTuple):
    x_x: float
    x_y: float
    y_x: float
    y_y: float
    origin_x: float
    origin_y: float

class Vector4(NamedTuple):
    x: float
    y: float
    z: float
    w: float

class Vector4i(NamedTuple):
    x: int
    y: int
    z: int
    w: int

class Plane(NamedTuple):
    normal_x: float
    normal_y: float
    normal_z: float
    d: float

class Quaternion(NamedTuple):
    x: float
    y: float
    z: float
    w: float

class AABB(NamedTuple):
    position_x: float
    position_y: float
    position_z: float
    size_x: float
    size_y: float
    size_z: float

class Basis(NamedTuple):
    x_x: float
    y_x: float
    z_x: float
    x_y: float
    y_y: float
    z_y: float
    x_z: float
    y_z: float
    z_z: float

class Transform3D(NamedTuple):
    basis_x_x: float
    basis_y_x: float
    basis_z_x: float
    basis_x_y: float
    basis_y_y: float
    basis_z_y: float
    basis_x_z: float
    basis_y_z: float
    basis_z_z: float
    origin_x: float
    origin_y: float
    origin_z: float

class Projection(NamedTuple):
    x_x: float
    x_y: float
    x_z: float
    x_w: float
    y_x: float
    y_y: float
    y_z: float
    y_w: float
    z_x: float
    z_y: float
    z_z: float
    z_w: float
    w_x: float
    w_y: float
    w_z: float
    w_w: float

class Color(NamedTuple):
    r: float
    g: float
    b: float
    a: float

class PackedVector2Array(list[Vector2]): ...
class PackedVector3Array(list[Vector3]): ...
class PackedVector4Array(list[Vector4]): ...
class PackedColorArray(list[Color]): ...
