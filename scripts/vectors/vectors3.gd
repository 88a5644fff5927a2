# Prints one line per edge value: NAME, then the hex of var2bytes (and of
# var2bytes(v, true) for objects). Run by scripts/make-vectors.sh.
extends SceneTree

var out = []

func f64(bits_hex):
	var b = StreamPeerBuffer.new()
	var raw = PoolByteArray()
	for i in range(7, -1, -1):
		raw.append(("0x" + bits_hex.substr(i * 2, 2)).hex_to_int())
	b.data_array = raw
	return b.get_double()

func f32(bits_hex):
	var b = StreamPeerBuffer.new()
	var raw = PoolByteArray()
	for i in range(3, -1, -1):
		raw.append(("0x" + bits_hex.substr(i * 2, 2)).hex_to_int())
	b.data_array = raw
	return b.get_float()

func hexs(bytes):
	var s = ""
	for x in bytes:
		s += "%02x" % x
	return s

func add(name, v):
	out.append("%s %s" % [name, hexs(var2bytes(v))])

func add_full(name, v):
	out.append("%s %s" % [name, hexs(var2bytes(v, true))])

func _init():
	add("nil", null)
	add("bool/true", true)
	add("bool/false", false)
	for i in [0, 1, -1, 2147483647, -2147483648, 2147483648, -2147483649, 9223372036854775807, -9223372036854775807 - 1]:
		add("int/%d" % i, i)
	var floats = {
		"zero": "0000000000000000", "neg_zero": "8000000000000000", "one_half": "3fe0000000000000",
		"tenth": "3fb999999999999a", "f32_max": "47efffffe0000000", "beyond_f32": "47f0000000000000",
		"f32_min_subnormal": "36a0000000000000", "f64_min_subnormal": "0000000000000001",
		"f64_max": "7fefffffffffffff", "inf": "7ff0000000000000", "neg_inf": "fff0000000000000",
		"nan": "7ff8000000000000", "nan_payload": "7ff8000000000001", "neg_nan": "fff8000000000000",
	}
	for k in floats:
		add("float/" + k, f64(floats[k]))
	for s in ["", "a", "ab", "abc", "abcd", "abcde", "é", "éé", "€", "𝄞", "héllo wörld", "日本語テキスト"]:
		add("String/len%d_%s" % [s.to_utf8().size(), s.http_escape()], s)
	add("Vector2/basic", Vector2(1.5, -2.25))
	add("Vector2/tenth", Vector2(0.1, f32("80000000")))
	add("Vector2/nan_inf", Vector2(f32("7fc00001"), f32("ff800000")))
	add("Rect2/basic", Rect2(1, 2, 3, 4))
	add("Vector3/basic", Vector3(1, 2, 3))
	add("Transform2D/rotated", Transform2D(1.0, Vector2(3, 4)))
	add("Plane/basic", Plane(Vector3(0, 1, 0), 5))
	add("Quat/basic", Quat(0.5, 0.5, 0.5, 0.5))
	add("AABB/basic", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)))
	add("Basis/rows", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)))
	add("Transform/basic", Transform(Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)), Vector3(10, 11, 12)))
	add("Color/basic", Color(0.1, 0.2, 0.3, 0.4))
	add("NodePath/empty", NodePath(""))
	add("NodePath/relative", NodePath("abcd/efgh"))
	add("NodePath/absolute", NodePath("/root/abcd"))
	add("NodePath/subnames", NodePath("abcd:efgh:ijkl"))
	add("RID/empty", RID())
	add("Dictionary/empty", {})
	add("Dictionary/mixed", {1: "a", "b": 2.5, Vector2(1, 2): [3]})
	add("Array/empty", [])
	add("Array/mixed", [1, "a", 2.5, null, [true]])
	var nested = []
	var cur = nested
	for i in 20:
		var next = []
		cur.append(next)
		cur = next
	add("Array/nested_20", nested)
	add("PoolByteArray/empty", PoolByteArray())
	for n in [1, 2, 3, 4, 5]:
		var b = PoolByteArray()
		for i in n:
			b.append(i * 37 + 1)
		add("PoolByteArray/len%d" % n, b)
	add("PoolIntArray/basic", PoolIntArray([0, 1, -1, 2147483647, -2147483648]))
	add("PoolRealArray/basic", PoolRealArray([0.1, -0.0, INF, 1e-45]))
	add("PoolStringArray/paddings", PoolStringArray(["", "a", "ab", "abc", "abcd", "é", "𝄞"]))
	add("PoolStringArray/empty", PoolStringArray())
	add("PoolVector2Array/basic", PoolVector2Array([Vector2(1, 2), Vector2(0.1, -3)]))
	add("PoolVector3Array/basic", PoolVector3Array([Vector3(1, 2, 3)]))
	add("PoolColorArray/basic", PoolColorArray([Color(1, 0, 0, 1), Color(0.1, 0.2, 0.3, 0.4)]))
	var r = Resource.new()
	r.resource_name = "named"
	add_full("Object/Resource/full_objects", r)
	var node = Node.new()
	node.free()
	add("Object/freed", node)
	add_full("Object/freed/full_objects", node)
	for line in out:
		print("VECTOR ", line)
	quit()
