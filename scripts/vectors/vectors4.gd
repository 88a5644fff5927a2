# Prints one line per edge value: NAME, then the hex of var_to_bytes (and of
# var_to_bytes_with_objects for objects). Run by scripts/make-vectors.sh.
extends SceneTree

var out := []

func f64(bits_hex: String) -> float:
	var b := bits_hex.hex_decode()
	b.reverse()
	return b.decode_double(0)

func f32(bits_hex: String) -> float:
	var b := bits_hex.hex_decode()
	b.reverse()
	return b.decode_float(0)

func add(name: String, v) -> void:
	out.append("%s %s" % [name, var_to_bytes(v).hex_encode()])

func add_full(name: String, v) -> void:
	out.append("%s %s" % [name, var_to_bytes_with_objects(v).hex_encode()])

func _init() -> void:
	add("nil", null)
	add("bool/true", true)
	add("bool/false", false)
	for i in [0, 1, -1, 2147483647, -2147483648, 2147483648, -2147483649, 9223372036854775807, -9223372036854775807 - 1]:
		add("int/%d" % i, i)
	var floats := {
		"zero": "0000000000000000", "neg_zero": "8000000000000000", "one_half": "3fe0000000000000",
		"tenth": "3fb999999999999a", "f32_max": "47efffffe0000000", "beyond_f32": "47f0000000000000",
		"f32_min_subnormal": "36a0000000000000", "f64_min_subnormal": "0000000000000001",
		"f64_max": "7fefffffffffffff", "inf": "7ff0000000000000", "neg_inf": "fff0000000000000",
		"nan": "7ff8000000000000", "nan_payload": "7ff8000000000001", "neg_nan": "fff8000000000000",
	}
	for k in floats:
		add("float/" + k, f64(floats[k]))
	for s in ["", "a", "ab", "abc", "abcd", "abcde", "é", "éé", "€", "𝄞", "héllo wörld", "日本語テキスト"]:
		add("String/len%d_%s" % [s.to_utf8_buffer().size(), s.uri_encode()], s)
	add("Vector2/basic", Vector2(1.5, -2.25))
	add("Vector2/tenth", Vector2(0.1, f32("80000000")))
	add("Vector2/nan_inf", Vector2(f32("7fc00001"), f32("ff800000")))
	add("Vector2i/extremes", Vector2i(2147483647, -2147483648))
	add("Rect2/basic", Rect2(1, 2, 3, 4))
	add("Rect2i/basic", Rect2i(-1, -2, 3, 4))
	add("Vector3/basic", Vector3(1, 2, 3))
	add("Vector3i/basic", Vector3i(1, -2, 3))
	add("Transform2D/rotated", Transform2D(1.0, Vector2(3, 4)))
	add("Vector4/basic", Vector4(1, 2, 3, 4))
	add("Vector4i/basic", Vector4i(1, 2, 3, -4))
	add("Plane/basic", Plane(Vector3(0, 1, 0), 5))
	add("Quaternion/basic", Quaternion(0.5, 0.5, 0.5, 0.5))
	add("AABB/basic", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)))
	add("Basis/rows", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)))
	add("Transform3D/basic", Transform3D(Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)), Vector3(10, 11, 12)))
	add("Projection/basic", Projection(Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8), Vector4(9, 10, 11, 12), Vector4(13, 14, 15, 16)))
	add("Color/basic", Color(0.1, 0.2, 0.3, 0.4))
	add("StringName/empty", &"")
	add("StringName/abcde", &"abcde")
	add("NodePath/empty", NodePath(""))
	add("NodePath/relative", NodePath("abcd/efgh"))
	add("NodePath/absolute", NodePath("/root/abcd"))
	add("NodePath/subnames", NodePath("abcd:efgh:ijkl"))
	add("RID/empty", RID())
	add("Callable/empty", Callable())
	add("Signal/empty", Signal())
	add("Dictionary/empty", {})
	add("Dictionary/mixed", {1: "a", "b": 2.5, Vector2i(1, 2): [3]})
	add("Dictionary/string_and_stringname", {"k": 1, &"j": 2})
	var td: Dictionary[int, String] = {1: "a", 2: "b"}
	add("Dictionary/typed_int_String", td)
	var tdo: Dictionary[String, Node] = {}
	add("Dictionary/typed_String_Node", tdo)
	add("Array/empty", [])
	add("Array/mixed", [1, "a", 2.5, null, [true]])
	var ta: Array[int] = [1, 2, 3]
	add("Array/typed_int", ta)
	var tf: Array[float] = [0.5]
	add("Array/typed_float", tf)
	var tn: Array[Node] = []
	add("Array/typed_Node", tn)
	add_full("Array/typed_Node/full_objects", tn)
	var nested = []
	var cur = nested
	for i in 20:
		var next = []
		cur.append(next)
		cur = next
	add("Array/nested_20", nested)
	add("PackedByteArray/empty", PackedByteArray())
	for n in [1, 2, 3, 4, 5]:
		var b := PackedByteArray()
		for i in n:
			b.append(i * 37 + 1)
		add("PackedByteArray/len%d" % n, b)
	add("PackedInt32Array/basic", PackedInt32Array([0, 1, -1, 2147483647, -2147483648]))
	add("PackedInt64Array/basic", PackedInt64Array([0, -1, 9223372036854775807, -9223372036854775808]))
	add("PackedFloat32Array/basic", PackedFloat32Array([0.1, -0.0, INF, 1e-45]))
	add("PackedFloat64Array/basic", PackedFloat64Array([0.1, f64("8000000000000000"), f64("0000000000000001")]))
	add("PackedStringArray/paddings", PackedStringArray(["", "a", "ab", "abc", "abcd", "é", "𝄞"]))
	add("PackedStringArray/empty", PackedStringArray())
	add("PackedVector2Array/basic", PackedVector2Array([Vector2(1, 2), Vector2(0.1, -3)]))
	add("PackedVector3Array/basic", PackedVector3Array([Vector3(1, 2, 3)]))
	add("PackedColorArray/basic", PackedColorArray([Color(1, 0, 0, 1), Color(0.1, 0.2, 0.3, 0.4)]))
	add("PackedVector4Array/basic", PackedVector4Array([Vector4(1, 2, 3, 4)]))
	var r := Resource.new()
	r.resource_name = "named"
	add_full("Object/Resource/full_objects", r)
	var node := Node.new()
	node.free()
	add("Object/freed", node)
	add_full("Object/freed/full_objects", node)
	for line in out:
		print("VECTOR ", line)
	quit()
