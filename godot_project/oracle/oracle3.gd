extends Reference
# The Godot 3.x side of the gdmarshal engine oracle (protocol: godot_project/README.md).
#
# Same requests and answers as oracle4.gd, in GDScript 1. Values cross the wire as tagged
# JSON (docs/tagged-json.md, Godot 4 type names) with every float an exact 0x bits token.
# GDScript 3 can reach an f32 only as a float (a double), through StreamPeerBuffer: every
# f32 survives that except a signalling NaN, which comes back quiet. The engine's own
# re-encoding, returned beside the tree, shows the true bits.

const MARK = "@gdm:"
# The protocol version (godot_project/README.md); the host refuses any other.
const PROTOCOL = 3
const MAX_DEPTH = 4096
const I64_MIN = -9223372036854775807 - 1
# The second element of the probe arrays that measure how many bytes a value took.
const SENTINEL = "gdmarshal consumed-bytes sentinel"

var peer = StreamPeerTCP.new()
var spb = StreamPeerBuffer.new()  # float <-> bits conversions
var sentinel_bytes = var2bytes(SENTINEL)
var problem = ""  # first error met while building a value from a tree
var unsupported = ""  # why a tree cannot be built inside the engine
# The code of `problem` and `unsupported`: what the host reads (model/src/unbuildable.rs); the
# texts are for people.
var problem_code = ""
var unsupported_code = ""
var created = []  # non-reference objects made while serving a request, freed after it
var deepest = 0  # the deepest container level tree() met in this request
# The EncodedObjectAsID placeholders tree() met in this request: own instance id -> id read
var placeholders = {}


func run(port, secret):
	if not _connect(port):
		return
	# The first frame proves to the host that this is the engine it started.
	if not _send(JSON.print({"auth": secret})):
		return
	var num = StreamPeerBuffer.new()
	while true:
		var head = peer.get_data(4)
		if head[0] != OK:
			return
		num.data_array = head[1]
		var size = num.get_u32()
		var body = [OK, PoolByteArray()]
		if size > 0:
			body = peer.get_data(size)
		if body[0] != OK:
			return
		if not _send(serve(body[1].get_string_from_utf8())):
			return


# Sends one frame: a little-endian u32 length, then the UTF-8 text.
func _send(text):
	var out = text.to_utf8()
	var num = StreamPeerBuffer.new()
	num.put_u32(out.size())
	var frame = num.data_array
	frame.append_array(out)
	return peer.put_data(frame) == OK


func _connect(port):
	if peer.connect_to_host("127.0.0.1", port) != OK:
		printerr(MARK + "fatal:cannot connect to port %d" % port)
		return false
	var start = OS.get_ticks_msec()
	# get_status() polls the connection in 3.x.
	while peer.get_status() == StreamPeerTCP.STATUS_CONNECTING:
		if OS.get_ticks_msec() - start > 10000:
			break
		OS.delay_msec(1)
	if peer.get_status() != StreamPeerTCP.STATUS_CONNECTED:
		printerr(MARK + "fatal:connection to port %d failed" % port)
		return false
	peer.set_no_delay(true)
	return true


func parse_json(text):
	var r = JSON.parse(text)
	return r.result if r.error == OK else null


# One frame: a header line {"seq": N} then one request per line; the answer has the
# same shape, one result line per request line, in order.
func serve(text):
	var lines = text.split("\n")
	var seq = -1
	var head = parse_json(lines[0]) if lines.size() > 0 else null
	if typeof(head) == TYPE_DICTIONARY and typeof(head.get("seq")) == TYPE_REAL:
		seq = int(head["seq"])
	var out = PoolStringArray()
	out.append(JSON.print({"seq": seq}))
	for i in range(1, lines.size()):
		# Markers on stderr let the host tie the engine's error lines to one request.
		printerr(MARK + "b:%d:%d" % [seq, i - 1])
		deepest = 0
		var res = handle(lines[i], seq, i - 1)
		if typeof(res) != TYPE_DICTIONARY:
			res = {"error": "script error while serving the request (see the engine's stderr)"}
			printerr(MARK + "m:%d:%d" % [seq, i - 1])
		for o in created:
			if is_instance_valid(o):
				o.free()
		created.clear()
		out.append(JSON.print(res))
	printerr(MARK + "e:%d" % seq)
	return out.join("\n")


func handle(line, seq, i):
	var req = parse_json(line)
	if typeof(req) != TYPE_DICTIONARY:
		printerr(MARK + "m:%d:%d" % [seq, i])
		return {"error": "request is not a JSON object"}
	var op = req.get("op")
	if op == "decode":
		return decode(req, seq, i)
	if op == "encode":
		return encode(req, seq, i)
	# A campaign's request (with the own check) has no `m` marker: one marker a request is
	# a sixth of a campaign's time less, and the lines until the next `b` are kept as its log.
	if not req.get("own", false):
		printerr(MARK + "m:%d:%d" % [seq, i])
	if op == "hello":
		# 3.x math types always carry f32 on the wire.
		return {"ok": true, "protocol": PROTOCOL, "version": Engine.get_version_info(), "double_reals": false}
	if op == "sleep":
		# Keeps the engine busy, for testing the host's timeouts.
		OS.delay_msec(int(req.get("ms", 0)))
		return {"ok": true}
	if op == "frame":
		return frame(req)
	if op == "unframe":
		return unframe(req)
	if op == "frame_net":
		return frame_net(req)
	if op == "unframe_net":
		return unframe_net(req)
	if op == "axes":
		return axes()
	if op == "classes":
		return classes()
	if op == "class_defaults":
		return class_defaults(req)
	return {"error": "unknown op %s" % JSON.print(op)}


# ---------------------------------------------------------------- decode


# bytes2var's decode error is a script error in 3.x: it ends the calling function, which
# then returns null. Wrapping the result tells an error (null) from a decoded Nil ([null]).
func try_decode(b, objects):
	return [bytes2var(b, objects)]


func decode(req, seq, i):
	if typeof(req.get("bytes")) != TYPE_STRING:
		printerr(MARK + "m:%d:%d" % [seq, i])
		return {"error": "decode needs \"bytes\" (base64)"}
	var objects = bool(req.get("objects", false))
	var b = Marshalls.base64_to_raw(req["bytes"])
	var r = try_decode(b, objects)
	if not req.get("own", false):
		printerr(MARK + "m:%d:%d" % [seq, i])
	var out = {"ok": true, "accepted": r != null}
	if r == null:
		return out
	var v = r[0]
	out["consumed"] = consumed(b, v, objects)
	placeholders = {}
	out["tree"] = tree(v, 0)
	# Re-encoding writes each placeholder's own instance id, not the id read: the host puts
	# the ids read back (lab/src/oracle/placeholders.rs).
	if not placeholders.empty():
		out["placeholders"] = placeholders
	if deepest > MAX_DEPTH:
		out["incomplete"] = "the value nests deeper than the %d levels the oracle walks" % MAX_DEPTH
	var plain = var2bytes(v, false)
	out["reencoded"] = Marshalls.raw_to_base64(plain)
	# A request with the own check is answered with the encoding it uses only (see own_check).
	if not own_check(req, out, plain, objects):
		out["reencoded_full"] = Marshalls.raw_to_base64(var2bytes(v, true))
	return out


# With "own": true, whether the engine decodes the bytes it just wrote, in the same request
# (a campaign asks this of every answer; a second request each would cost as much again);
# true when it answered so. Such a request is answered without the encoding with full
# objects, which it does not use. Not with objects: the objects decoded would have to be
# tracked and freed (the host asks those in a request of their own).
func own_check(req, out, written, objects):
	if not req.get("own", false) or objects:
		return false
	out["own_accepted"] = try_decode(written, false) != null
	return true


# 3.x has no decode_var_size. The decoder's byte count (padding included, which 3.x does
# not always check is present) is found by decoding the array [value, SENTINEL] built from
# the first L input bytes (zero-padded past the end) followed by the sentinel: the second
# element reads back as the sentinel only when the value took exactly L bytes. The
# engine's own encoding length and the whole input are tried first; otherwise every L is
# tried (for inputs up to 4 KiB). Returns -1 when no L fits.
func consumed(b, v, objects):
	var guesses = [var2bytes(v, objects).size(), b.size()]
	for n in guesses:
		if n >= 4 and n <= b.size() + 3 and probe(b, n, objects):
			return n
	if b.size() > 4096:
		return -1
	for n in range(4, b.size() + 4):
		if not (n in guesses) and probe(b, n, objects):
			return n
	return -1


func probe(b, n, objects):
	spb.data_array = PoolByteArray()
	spb.put_u32(TYPE_ARRAY)
	spb.put_u32(2)
	var w = spb.data_array
	w.append_array(b.subarray(0, min(n, b.size()) - 1))
	for _k in range(b.size(), n):
		w.append(0)
	w.append_array(sentinel_bytes)
	var r = try_decode(w, objects)
	if r == null or typeof(r[0]) != TYPE_ARRAY or r[0].size() != 2:
		return false
	return typeof(r[0][1]) == TYPE_STRING and r[0][1] == SENTINEL


func tree(v, depth):
	deepest = max(deepest, depth)
	if depth > MAX_DEPTH:
		return {"type": "Nil", "error": "too deep"}
	match typeof(v):
		TYPE_NIL:
			return {"type": "Nil"}
		TYPE_BOOL:
			return {"type": "bool", "value": v}
		TYPE_INT:
			return {"type": "int", "value": str(v)}
		TYPE_REAL:
			return {"type": "float", "value": f64(v)}
		TYPE_STRING:
			return {"type": "String", "value": str_tree(v)}
		TYPE_ARRAY:
			var items = []
			for x in v:
				items.append(tree(x, depth + 1))
			return {"type": "Array", "value": items}
		TYPE_DICTIONARY:
			# keys() and values() share one order; v[k] would miss NaN keys.
			var keys = v.keys()
			var values = v.values()
			var entries = []
			for k in range(keys.size()):
				entries.append([tree(keys[k], depth + 1), tree(values[k], depth + 1)])
			return {"type": "Dictionary", "value": entries}
		# Math types and Color: the component bits as the engine holds them, read from its own
		# encoding (a plain copy of the floats). Reading v.x would widen to a GDScript float and
		# quiet a signalling NaN.
		TYPE_VECTOR2:
			return {"type": "Vector2", "value": payload_f32s(v)}
		TYPE_RECT2:
			return {"type": "Rect2", "value": payload_f32s(v)}
		TYPE_VECTOR3:
			return {"type": "Vector3", "value": payload_f32s(v)}
		TYPE_TRANSFORM2D:
			return {"type": "Transform2D", "value": payload_f32s(v)}
		TYPE_PLANE:
			return {"type": "Plane", "value": payload_f32s(v)}
		TYPE_QUAT:
			return {"type": "Quaternion", "value": payload_f32s(v)}
		TYPE_AABB:
			return {"type": "AABB", "value": payload_f32s(v)}
		TYPE_BASIS:
			return {"type": "Basis", "value": payload_f32s(v)}
		TYPE_TRANSFORM:
			return {"type": "Transform3D", "value": payload_f32s(v)}
		TYPE_COLOR:
			return {"type": "Color", "value": payload_f32s(v)}
		TYPE_NODE_PATH:
			return path_tree(v)
		TYPE_RID:
			return {"type": "RID", "value": u64(v.get_id())}
		TYPE_OBJECT:
			return object_tree(v, depth)
		TYPE_RAW_ARRAY:
			return {"type": "PackedByteArray", "value": v.hex_encode()}
		TYPE_INT_ARRAY:
			return {"type": "PackedInt32Array", "value": Array(v)}
		TYPE_REAL_ARRAY:
			return {"type": "PackedFloat32Array", "value": packed_f32s(v, 1)}
		TYPE_STRING_ARRAY:
			var out = []
			for x in v:
				out.append(str_tree(x))
			return {"type": "PackedStringArray", "value": out}
		TYPE_VECTOR2_ARRAY:
			return {"type": "PackedVector2Array", "value": packed_f32s(v, 2)}
		TYPE_VECTOR3_ARRAY:
			return {"type": "PackedVector3Array", "value": packed_f32s(v, 3)}
		TYPE_COLOR_ARRAY:
			return {"type": "PackedColorArray", "value": packed_f32s(v, 4)}
	return {"type": "Nil", "error": "unknown variant type %d" % typeof(v)}


# The wire carries rows; GDScript's x/y/z are columns, so read the transpose.
func basis_rows(b):
	var t = b.transposed()
	return [t.x.x, t.x.y, t.x.z, t.y.x, t.y.y, t.y.z, t.z.x, t.z.y, t.z.z]


func path_tree(v):
	var names = []
	for k in range(v.get_name_count()):
		names.append(str_tree(String(v.get_name(k))))
	var subnames = []
	for k in range(v.get_subname_count()):
		subnames.append(str_tree(String(v.get_subname(k))))
	return {"type": "NodePath", "names": names, "subnames": subnames, "absolute": v.is_absolute()}


# A String as JSON: text, or {"code_units": [...]} when a unit is a surrogate or past
# U+10FFFF (3.x keeps such units; JSON text would turn them into replacement characters).
func str_tree(s):
	var units = []
	var plain = true
	for i in range(s.length()):
		var u = s.ord_at(i)
		units.append(u)
		if (u >= 0xD800 and u <= 0xDFFF) or u > 0x10FFFF:
			plain = false
	return s if plain else {"code_units": units}


# The String that str_tree printed as x: units joined with char(), which keeps surrogates
# and units past U+10FFFF as they are.
func string_of(x):
	if typeof(x) == TYPE_STRING:
		return x
	if typeof(x) != TYPE_DICTIONARY or x.size() != 1 or typeof(x.get("code_units")) != TYPE_ARRAY:
		fail("expected a JSON string or {\"code_units\": [...]}")
		return ""
	var s = ""
	for u in x["code_units"]:
		if typeof(u) != TYPE_REAL or u != floor(u) or u < 0 or u > 2147483647.0:
			fail("a code unit must be an integer 0 to 2147483647")
			return ""
		if u == 0:
			# char(0) is the empty string: a NUL cannot be put inside a String.
			cannot_build("nul-in-string", "a String cannot hold a NUL code unit")
			return ""
		s += char(int(u))
	return s


func object_tree(v, depth):
	if not is_instance_valid(v):
		return {"type": "Object", "value": null}
	if v.get_class() == "EncodedObjectAsID":
		# Also what a full object of class EncodedObjectAsID decodes to: the two wire
		# forms cannot be told apart once decoded.
		placeholders[u64(v.get_instance_id())] = u64(v.get_object_id())
		return {"type": "Object", "id": u64(v.get_object_id())}
	if not (v is Reference):
		created.append(v)
	# The properties the full-object encoder writes, in its order.
	var props = []
	for p in v.get_property_list():
		if not (p["usage"] & PROPERTY_USAGE_STORAGE):
			continue
		props.append([p["name"], tree(v.get(p["name"]), depth + 1)])
	return {"type": "Object", "class": v.get_class(), "properties": props}


# ---------------------------------------------------------------- float bits


func f64(x):
	spb.seek(0)
	spb.put_double(x)
	spb.seek(0)
	return hex64(spb.get_64())


# The f32 components after the 4-byte header of the engine's own encoding of v.
func payload_f32s(v):
	var raw = var2bytes(v)
	spb.data_array = raw
	var out = []
	for k in range(4, raw.size(), 4):
		spb.seek(k)
		out.append("0x%08x" % spb.get_u32())
	return out


# The f32 elements of a pool array, from the engine's own encoding of it (after the header and
# the count), in groups of `width` (1: a flat list). Reading the elements in GDScript would pass
# each through a double, which quiets a signalling NaN that the engine itself keeps.
func packed_f32s(v, width):
	var raw = var2bytes(v)
	spb.data_array = raw
	var out = []
	var group = []
	for k in range(8, raw.size(), 4):
		spb.seek(k)
		group.append("0x%08x" % spb.get_u32())
		if group.size() == width:
			out.append(group[0] if width == 1 else group)
			group = []
	return out


func f32s(xs):
	var out = []
	for x in xs:
		spb.seek(0)
		spb.put_float(x)
		spb.seek(0)
		out.append("0x%08x" % spb.get_u32())
	return out


func hex64(u):
	return "0x%08x%08x" % [(u >> 32) & 0xffffffff, u & 0xffffffff]


# An unsigned 64-bit id, which GDScript holds as a signed int.
func u64(x):
	if x >= 0:
		return str(x)
	var half = (x >> 1) & 0x7fffffffffffffff  # x / 2 as unsigned
	return str(half / 5) + str((half % 5) * 2 + (x & 1))


# ---------------------------------------------------------------- encode


func encode(req, seq, i):
	problem = ""
	unsupported = ""
	var v = build(req.get("tree"), 0)
	var own = req.get("own", false)
	var plain = null
	var full = null
	if problem == "" and unsupported == "":
		plain = engine_encode(v, false)
		if not own and typeof(plain) == TYPE_RAW_ARRAY:
			full = engine_encode(v, true)
	# After the encoding step: what the engine printed while encoding is this request's error text.
	if not own:
		printerr(MARK + "m:%d:%d" % [seq, i])
	if problem != "":
		return {"error": problem, "reason": problem_code}
	if unsupported != "":
		return {"ok": false, "unsupported": unsupported, "reason": unsupported_code}
	# The engine refused the value it built (nested past its limit): its error is on stderr.
	if typeof(plain) != TYPE_RAW_ARRAY:
		return {"ok": true, "refused": true}
	var out = {"ok": true, "bytes": Marshalls.raw_to_base64(plain), "tree": tree(v, 0)}
	if not own_check(req, out, plain, false):
		# Full objects can nest deeper than their ids: the engine may refuse only this encoding.
		if typeof(full) != TYPE_RAW_ARRAY:
			out["refused_full"] = true
		else:
			out["bytes_full"] = Marshalls.raw_to_base64(full)
	return out


# var2bytes in a call of its own: where the engine refuses to encode, var2bytes raises a script
# error, which ends this call (returning null) instead of the request.
func engine_encode(v, full):
	return var2bytes(v, full)


func fail(msg, code = "oracle-refused"):
	if problem == "":
		problem = msg
		problem_code = code
	return null


# Why the value asked for cannot be built inside the engine: a code and its words.
func cannot_build(code, text):
	unsupported = text
	unsupported_code = code


func build(n, depth):
	if problem != "" or unsupported != "":
		return null
	if depth > MAX_DEPTH:
		return fail("tree too deep")
	if typeof(n) != TYPE_DICTIONARY or typeof(n.get("type")) != TYPE_STRING:
		return fail("a node must be an object with a \"type\" string")
	var ty = n["type"]
	var val = n.get("value")
	match ty:
		"Nil":
			return null
		"bool":
			if typeof(val) != TYPE_BOOL:
				return fail("bool needs true or false")
			return val
		"int":
			return i64(val)
		"float":
			return floats([val], 8)[0]
		"String":
			return string_of(val)
		"Vector2":
			var c = floats(list(val, 2), 4)
			return Vector2(c[0], c[1])
		"Rect2":
			var c = floats(list(val, 4), 4)
			return Rect2(c[0], c[1], c[2], c[3])
		"Vector3":
			var c = floats(list(val, 3), 4)
			return Vector3(c[0], c[1], c[2])
		"Transform2D":
			var c = floats(list(val, 6), 4)
			return Transform2D(Vector2(c[0], c[1]), Vector2(c[2], c[3]), Vector2(c[4], c[5]))
		"Plane":
			var c = floats(list(val, 4), 4)
			return Plane(c[0], c[1], c[2], c[3])
		"Quaternion":
			var c = floats(list(val, 4), 4)
			return Quat(c[0], c[1], c[2], c[3])
		"AABB":
			var c = floats(list(val, 6), 4)
			return AABB(Vector3(c[0], c[1], c[2]), Vector3(c[3], c[4], c[5]))
		"Basis":
			return rows_basis(floats(list(val, 9), 4))
		"Transform3D":
			var c = floats(list(val, 12), 4)
			return Transform(rows_basis(c), Vector3(c[9], c[10], c[11]))
		"Color":
			var c = floats(list(val, 4), 4)
			return Color(c[0], c[1], c[2], c[3])
		"NodePath":
			return build_path(n)
		"RID":
			if i64(val) != 0:
				cannot_build("rid-by-id", "GDScript 3 cannot make an RID with a given id")
				return null
			return RID()
		"Object":
			return build_object(n, depth)
		"Array":
			if n.has("element_type"):
				cannot_build("type-not-in-version", "Godot 3 has no typed arrays")
				return null
			var items = []
			for x in list(val, -1):
				items.append(build(x, depth + 1))
			return items
		"Dictionary":
			if n.has("key_type") or n.has("value_type"):
				cannot_build("type-not-in-version", "Godot 3 has no typed dictionaries")
				return null
			var d = {}
			for pair in list(val, -1):
				var kv = list(pair, 2)
				if problem != "":
					return null
				var k = build(kv[0], depth + 1)
				d[k] = build(kv[1], depth + 1)
			return d
		"PackedByteArray":
			return hex_bytes(text(val))
		"PackedInt32Array":
			return PoolIntArray(i32s(val))
		"PackedFloat32Array":
			return PoolRealArray(floats(list(val, -1), 4))
		"PackedStringArray":
			var out = PoolStringArray()
			for x in list(val, -1):
				out.append(string_of(x))
			return out
		"PackedVector2Array":
			var out = PoolVector2Array()
			for item in list(val, -1):
				var c = floats(list(item, 2), 4)
				out.append(Vector2(c[0], c[1]))
			return out
		"PackedVector3Array":
			var out = PoolVector3Array()
			for item in list(val, -1):
				var c = floats(list(item, 3), 4)
				out.append(Vector3(c[0], c[1], c[2]))
			return out
		"PackedColorArray":
			var out = PoolColorArray()
			for item in list(val, -1):
				var c = floats(list(item, 4), 4)
				out.append(Color(c[0], c[1], c[2], c[3]))
			return out
	if ty in ["Vector2i", "Rect2i", "Vector3i", "Vector4", "Vector4i", "Projection", "StringName",
			"Callable", "Signal", "PackedInt64Array", "PackedFloat64Array", "PackedVector4Array"]:
		cannot_build("type-not-in-version", "Godot 3 has no %s" % ty)
		return null
	return fail("unknown type %s" % ty)


func rows_basis(c):
	# Basis(x, y, z) takes columns; the wire lists rows.
	return Basis(Vector3(c[0], c[1], c[2]), Vector3(c[3], c[4], c[5]), Vector3(c[6], c[7], c[8])).transposed()


func text(x):
	if typeof(x) != TYPE_STRING:
		fail("expected a JSON string")
		return ""
	return x


func list(x, n):
	if typeof(x) != TYPE_ARRAY or (n >= 0 and x.size() != n):
		fail("expected an array of %d items" % n if n >= 0 else "expected an array")
		var empty = []
		for _k in range(max(n, 0)):
			empty.append(null)
		return empty
	return x


# String.to_int() is 32-bit in 3.2, so decimal strings are read digit by digit,
# accumulating a negative number (which reaches -2^63).
func i64(x):
	if typeof(x) == TYPE_REAL and x == floor(x) and abs(x) <= 9007199254740992.0:
		return int(x)
	if typeof(x) != TYPE_STRING or not x.is_valid_integer():
		fail("expected a 64-bit integer as a decimal string")
		return 0
	var neg = x.begins_with("-")
	var digits = x.substr(1, x.length() - 1) if neg or x.begins_with("+") else x
	var v = 0
	for c in digits:
		var d = ord(c) - 48
		if v < (I64_MIN + d) / 10:
			fail("integer %s is out of the 64-bit range" % x, "beyond-signed-int")
			return 0
		v = v * 10 - d
	if not neg:
		if v == I64_MIN:
			fail("integer %s is out of the 64-bit range" % x, "beyond-signed-int")
			return 0
		v = -v
	return v


func i32s(x):
	var out = []
	for item in list(x, -1):
		if typeof(item) != TYPE_REAL or item != floor(item) or item < -2147483648.0 or item > 2147483647.0:
			fail("expected 32-bit integers")
			return []
		out.append(int(item))
	return out


# Float tokens as GDScript floats: width 4 reads f32 bits, width 8 reads f64 bits.
func floats(tokens, width):
	var out = []
	for t in tokens:
		out.append(token(t, width))
	return out


func token(t, width):
	if typeof(t) != TYPE_STRING:
		fail("a float must be a string token")
		return 0.0
	var digits = t.substr(2, t.length() - 2) if t.begins_with("0x") else ""
	if t == "nan":
		digits = "7ff8000000000000" if width == 8 else "7fc00000"
	elif t == "inf":
		digits = "7ff0000000000000" if width == 8 else "7f800000"
	elif t == "-inf":
		digits = "fff0000000000000" if width == 8 else "ff800000"
	var hi = hex_u32(digits.substr(0, 8))
	var lo = hex_u32(digits.substr(8, 8)) if width == 8 else 0
	if digits.length() != width * 2 or hi < 0 or lo < 0:
		fail("float %s: only exact 0x tokens of %d hex digits are accepted here" % [t, width * 2])
		return 0.0
	spb.seek(0)
	if width == 4:
		if hi & 0x7f800000 == 0x7f800000 and hi & 0x007fffff != 0 and hi & 0x00400000 == 0:
			cannot_build("signalling-nan-through-double", "GDScript 3 holds f32 values as doubles, which quiet the signalling NaN %s" % t)
		spb.put_u32(hi)
		spb.seek(0)
		return spb.get_float()
	spb.put_64((hi << 32) | lo)
	spb.seek(0)
	return spb.get_double()


# Eight hex digits as an unsigned value, or -1. (String.hex_to_int() is 32-bit signed in 3.2.)
func hex_u32(s):
	if s.length() != 8:
		return -1
	var v = 0
	for c in s.to_lower():
		var d = "0123456789abcdef".find(c)
		if d < 0:
			return -1
		v = v * 16 + d
	return v


func hex_bytes(s):
	var out = PoolByteArray()
	if s.length() % 2 != 0:
		fail("PackedByteArray needs an even-length hex string")
		return out
	var digits = "0123456789abcdef"
	for k in range(0, s.length(), 2):
		var hi = digits.find(s[k].to_lower())
		var lo = digits.find(s[k + 1].to_lower())
		if hi < 0 or lo < 0:
			fail("PackedByteArray needs a hex string")
			return out
		out.append(hi * 16 + lo)
	return out


func build_path(n):
	var names = list(n.get("names", []), -1)
	var subnames = list(n.get("subnames", []), -1)
	var absolute = n.get("absolute", false)
	if problem != "" or typeof(absolute) != TYPE_BOOL:
		fail("NodePath needs names, subnames (arrays of strings) and absolute (bool)")
		return NodePath()
	var name_strings = []
	for x in names:
		name_strings.append(string_of(x))
	var subname_strings = []
	for x in subnames:
		subname_strings.append(string_of(x))
	if problem != "" or unsupported != "":
		return NodePath()
	# NodePath can only be built from its text form: names that the parser would split
	# or drop cannot be built.
	for s in name_strings + subname_strings:
		if s == "" or s.find("/") >= 0 or s.find(":") >= 0:
			cannot_build("nodepath-name-not-text", "NodePath name %s cannot be written as path text" % JSON.print(s))
			return NodePath()
	var t = ("/" if absolute else "") + PoolStringArray(name_strings).join("/")
	if subname_strings.size() > 0:
		t += ":" + PoolStringArray(subname_strings).join(":")
	var p = NodePath(t)
	# Compared as Strings (unit by unit): dictionaries compare by identity in 3.x.
	var same = p.is_absolute() == absolute and p.get_name_count() == name_strings.size() \
			and p.get_subname_count() == subname_strings.size()
	for k in range(name_strings.size()):
		same = same and k < p.get_name_count() and String(p.get_name(k)) == name_strings[k]
	for k in range(subname_strings.size()):
		same = same and k < p.get_subname_count() and String(p.get_subname(k)) == subname_strings[k]
	if not same:
		cannot_build("nodepath-text-reparses", "NodePath text %s does not parse back to the same path" % JSON.print(t))
	return p


func build_object(n, depth):
	if n.has("value") and n["value"] == null:
		return instance_from_id(0)  # a null Object, not Nil
	if n.has("id"):
		if i64(n["id"]) == 0:
			return instance_from_id(0)
		cannot_build("object-by-id", "an object that exists only by its instance id cannot be built")
		return null
	var cls = text(n.get("class"))
	if problem != "":
		return null
	if not ClassDB.can_instance(cls):
		cannot_build("class-not-instantiable", "class %s cannot be instantiated" % cls)
		return null
	var obj = ClassDB.instance(cls)
	if not (obj is Reference):
		created.append(obj)
	for pair in list(n.get("properties", []), -1):
		var kv = list(pair, 2)
		if problem != "":
			return null
		var value = build(kv[1], depth + 1)
		if problem != "" or unsupported != "":
			return null
		obj.set(text(kv[0]), value)
	return obj


# ---------------------------------------------------------------- framing


# The bytes File.store_var, StreamPeer.put_var or PacketPeer.put_var (over a
# PacketPeerStream) write for a value.
func frame(req):
	problem = ""
	unsupported = ""
	var v = build(req.get("tree"), 0)
	if problem != "":
		return {"error": problem, "reason": problem_code}
	if unsupported != "":
		return {"ok": false, "unsupported": unsupported, "reason": unsupported_code}
	var objects = bool(req.get("objects", false))
	var via = req.get("via")
	var out = PoolByteArray()
	if via == "file":
		var f = File.new()
		var path = framing_path()
		if f.open(path, File.WRITE) != OK:
			return {"error": "cannot write " + path}
		f.store_var(v, objects)
		f.close()
		f.open(path, File.READ)
		out = f.get_buffer(f.get_len())
		f.close()
	elif via == "stream":
		var sp = StreamPeerBuffer.new()
		sp.put_var(v, objects)
		out = sp.data_array
	elif via == "packet":
		var sp = StreamPeerBuffer.new()
		var pp = PacketPeerStream.new()
		pp.stream_peer = sp
		pp.put_var(v, objects)
		out = sp.data_array
	else:
		return {"error": "unknown via %s" % JSON.print(via)}
	return {"ok": true, "bytes": Marshalls.raw_to_base64(out)}


# Reads one value from these bytes with File.get_var, StreamPeer.get_var or
# PacketPeer.get_var; "position" is how far the reader got. get_var answers null on
# error, so a case meant to tell errors apart holds no Nil.
func unframe(req):
	if typeof(req.get("bytes")) != TYPE_STRING:
		return {"error": "unframe needs \"bytes\" (base64)"}
	var b = Marshalls.base64_to_raw(req["bytes"])
	var objects = bool(req.get("objects", false))
	var via = req.get("via")
	var v = null
	var pos = 0
	if via == "file":
		var f = File.new()
		var path = framing_path()
		if f.open(path, File.WRITE) != OK:
			return {"error": "cannot write " + path}
		f.store_buffer(b)
		f.close()
		f.open(path, File.READ)
		v = f.get_var(objects)
		pos = f.get_position()
		f.close()
	elif via == "stream":
		var sp = StreamPeerBuffer.new()
		sp.data_array = b
		v = sp.get_var(objects)
		pos = sp.get_position()
	elif via == "packet":
		var sp = StreamPeerBuffer.new()
		sp.data_array = b
		var pp = PacketPeerStream.new()
		pp.stream_peer = sp
		v = pp.get_var(objects)
		pos = sp.get_position()
	else:
		return {"error": "unknown via %s" % JSON.print(via)}
	return {"ok": true, "value": tree(v, 0), "position": pos}


func framing_path():
	return "user://gdmarshal-framing-%d.bin" % OS.get_process_id()


# A Basis made from three distinct axes (the constructor's arguments are the x, y and z
# columns), what the accessors give back, and the bytes var2bytes writes for it, for a
# Transform with that basis and for a Transform2D of columns (1,2), (3,4), (5,6): settles
# the wire's component order from the engine itself.
func axes():
	var b = Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9))
	var t = Transform(b, Vector3(10, 11, 12))
	return {
		"ok": true,
		"x": [b.x.x, b.x.y, b.x.z],
		"y": [b.y.x, b.y.y, b.y.z],
		"z": [b.z.x, b.z.y, b.z.z],
		"index0": [b[0].x, b[0].y, b[0].z],
		"basis": Marshalls.raw_to_base64(var2bytes(b)),
		"transform": Marshalls.raw_to_base64(var2bytes(t)),
		"transform2d": Marshalls.raw_to_base64(var2bytes(Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6)))),
	}


# Every class ClassDB has, by name: [name, parent class ("" for Object), whether
# ClassDB.instance, which decoding a full object calls, can make one].
func classes():
	var names = Array(ClassDB.get_class_list())
	names.sort()
	var out = []
	for c in names:
		out.append([c, ClassDB.get_parent_class(c), ClassDB.can_instance(c)])
	return {"ok": true, "classes": out}


# For each class asked that ClassDB.instance makes: the tree of a fresh object of it, as
# a decode answer gives one (its stored properties, in the encoder's order, with their
# defaults; one not a Reference is freed after the request), and the names of its other properties (which a decoder's set() reaches but the
# encoder does not write).
func class_defaults(req):
	var out = {}
	for c in req.get("classes", []):
		if typeof(c) != TYPE_STRING or not ClassDB.class_exists(c) or not ClassDB.can_instance(c):
			continue
		var o = ClassDB.instance(c)
		if o == null:
			continue
		var unstored = []
		for p in o.get_property_list():
			if not (p.usage & PROPERTY_USAGE_STORAGE):
				unstored.append(p.name)
		out[c] = {"tree": tree(o, 0), "unstored": unstored}
	return {"ok": true, "defaults": out}


# ---------------------------------------------------------------- framing over loopback sockets


# What put_var puts on the wire through a socket on loopback: "udp" is the datagram a
# PacketPeerUDP sends, "tcp" the bytes a PacketPeerStream over a StreamPeerTCP sends.
func frame_net(req):
	problem = ""
	unsupported = ""
	var v = build(req.get("tree"), 0)
	if problem != "":
		return {"error": problem, "reason": problem_code}
	if unsupported != "":
		return {"ok": false, "unsupported": unsupported, "reason": unsupported_code}
	var objects = bool(req.get("objects", false))
	var via = req.get("via")
	var out = null
	if via == "udp":
		var rx = PacketPeerUDP.new()
		var port = _udp_bind(rx)
		if port < 0:
			return {"error": "cannot bind a UDP port on loopback"}
		var tx = PacketPeerUDP.new()
		tx.set_dest_address("127.0.0.1", port)
		tx.put_var(v, objects)
		out = _udp_packet(rx)
		tx.close()
		rx.close()
	elif via == "tcp":
		var pair = _tcp_pair()
		if pair.empty():
			return {"error": "cannot connect over loopback TCP"}
		var pp = PacketPeerStream.new()
		pp.stream_peer = pair[0]
		pp.put_var(v, objects)
		out = _tcp_received(pair[1])
		pair[0].disconnect_from_host()
		pair[1].disconnect_from_host()
	else:
		return {"error": "unknown via %s" % JSON.print(via)}
	if out == null:
		return {"error": "nothing arrived over loopback %s" % via}
	return {"ok": true, "bytes": Marshalls.raw_to_base64(out)}


# Sends these bytes over a loopback socket as they are (one UDP datagram, or the TCP stream)
# and reads one value from the other end with PacketPeerUDP.get_var or, over TCP, a
# PacketPeerStream's get_var once all the bytes have arrived. A packet has no position.
func unframe_net(req):
	if typeof(req.get("bytes")) != TYPE_STRING:
		return {"error": "unframe_net needs \"bytes\" (base64)"}
	var b = Marshalls.base64_to_raw(req["bytes"])
	var objects = bool(req.get("objects", false))
	var via = req.get("via")
	var v = null
	if via == "udp":
		var rx = PacketPeerUDP.new()
		var port = _udp_bind(rx)
		if port < 0:
			return {"error": "cannot bind a UDP port on loopback"}
		var tx = PacketPeerUDP.new()
		tx.set_dest_address("127.0.0.1", port)
		tx.put_packet(b)
		var start = OS.get_ticks_msec()
		while rx.get_available_packet_count() == 0 and OS.get_ticks_msec() - start < 2000:
			OS.delay_msec(1)
		if rx.get_available_packet_count() == 0:
			return {"error": "no datagram arrived over loopback"}
		v = rx.get_var(objects)
		tx.close()
		rx.close()
	elif via == "tcp":
		var pair = _tcp_pair()
		if pair.empty():
			return {"error": "cannot connect over loopback TCP"}
		pair[0].put_data(b)
		_tcp_wait(pair[1], b.size())
		var pp = PacketPeerStream.new()
		pp.stream_peer = pair[1]
		v = pp.get_var(objects)
		pair[0].disconnect_from_host()
		pair[1].disconnect_from_host()
	else:
		return {"error": "unknown via %s" % JSON.print(via)}
	return {"ok": true, "value": tree(v, 0), "position": 0}


# Listens on a free loopback port; the port, or -1.
func _udp_bind(rx):
	var base = 20000 + OS.get_process_id() % 20000
	for i in range(64):
		if rx.listen(base + i * 7, "127.0.0.1") == OK:
			return base + i * 7
	return -1


func _udp_packet(rx):
	var start = OS.get_ticks_msec()
	while rx.get_available_packet_count() == 0:
		if OS.get_ticks_msec() - start > 2000:
			return null
		OS.delay_msec(1)
	return rx.get_packet()


# A connected pair of loopback TCP peers: [client, the server's side], or [].
func _tcp_pair():
	var server = TCP_Server.new()
	var base = 20000 + OS.get_process_id() % 20000
	var port = -1
	for i in range(64):
		if server.listen(base + i * 7, "127.0.0.1") == OK:
			port = base + i * 7
			break
	if port < 0:
		return []
	var client = StreamPeerTCP.new()
	if client.connect_to_host("127.0.0.1", port) != OK:
		return []
	var start = OS.get_ticks_msec()
	while not server.is_connection_available() or client.get_status() != StreamPeerTCP.STATUS_CONNECTED:
		if OS.get_ticks_msec() - start > 2000:
			return []
		OS.delay_msec(1)
	var other = server.take_connection()
	server.stop()
	client.set_no_delay(true)
	return [client, other]


# Waits until `size` bytes are readable on the peer (or 2 s have passed).
func _tcp_wait(p, size):
	var start = OS.get_ticks_msec()
	while p.get_available_bytes() < size and OS.get_ticks_msec() - start < 2000:
		OS.delay_msec(1)


# Every byte that arrives on the peer until 200 ms pass without more (or 2 s in all).
func _tcp_received(p):
	var out = PoolByteArray()
	var start = OS.get_ticks_msec()
	var last = start
	while OS.get_ticks_msec() - start < 2000:
		var n = p.get_available_bytes()
		if n > 0:
			var got = p.get_data(n)
			if got[0] != OK:
				break
			out.append_array(got[1])
			last = OS.get_ticks_msec()
		elif out.size() > 0 and OS.get_ticks_msec() - last > 200:
			break
		OS.delay_msec(1)
	if out.empty():
		return null
	return out
