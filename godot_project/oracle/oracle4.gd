extends RefCounted
# The Godot 4.x side of the gdmarshal engine oracle (protocol: godot_project/README.md).
#
# Values cross the wire as tagged JSON (docs/tagged-json.md) with every float written as
# an exact 0x bits token and every 64-bit integer as a decimal string. Floats are read and
# built through raw memory (Packed*Array.to_byte_array, PackedByteArray.to_*_array) so that
# no decimal text ever rounds them. Scalar real_t fields (Plane.d, Quaternion) can only be
# reached as a GDScript float (a double): a signalling NaN there comes back quiet; the
# engine's own re-encoding, returned beside the tree, shows the true bits.

const MARK := "@gdm:"
# The protocol version (godot_project/README.md); the host refuses any other.
const PROTOCOL := 3
const MAX_DEPTH := 4096
const I64_MIN := -9223372036854775807 - 1

var peer := StreamPeerTCP.new()
var double_reals := false
var type_ids := {}  # Godot 4 type name -> Variant.Type
var b4 := PackedByteArray()
var b8 := PackedByteArray()
var problem := ""  # first error met while building a value from a tree
var unsupported := ""  # why a tree cannot be built inside the engine
# The code of `problem`, `unsupported` and `full_unsupported`: what the host reads
# (model/src/unbuildable.rs); the texts are for people.
var problem_code := ""
var unsupported_code := ""
var full_unsupported_code := ""
var created := []  # non-refcounted objects made while serving a request, freed after it
var deepest := 0  # the deepest container level tree() met in this request
# The EncodedObjectAsID placeholders tree() met in this request: own instance id -> id read
var placeholders := {}
# An encode request with "stand_ins": true builds an object asked for by its id alone as an
# object that fits where it goes (stand_in) and reports it as a placeholder of that id.
var want_stand_ins := false
var stand_ins := {}  # own instance id -> the id asked (u64 text)
# What the container being built holds where the next element goes: [type, class, script].
var slot := [TYPE_NIL, &"", null]
const U64_LIMIT := "18446744073709551616"  # 2^64
var stand_in_scripts := {}  # path -> the script standing for it (stand_in_script)
var stand_in_script_paths := {}  # a stand-in script's instance id -> the path it stands for
var full_unsupported := ""  # why this request's value has no full encoding
var main_object = null  # the object of res://oracle/main.gd running this (set by it)
var cannot_hold := ""  # why the engine cannot hold the value asked to encode (stand_in)
var in_value := false  # building a typed Dictionary's value, which the decoder assigns unchecked


func run(port: int, secret: String) -> void:
	b4.resize(4)
	b8.resize(8)
	for t in TYPE_MAX:
		type_ids[type_string(t)] = t
	# real_t is a double in builds made with precision=double: Vector2 then takes 16 bytes.
	double_reals = var_to_bytes(Vector2()).size() > 12
	if not _connect(port):
		return
	# The first frame proves to the host that this is the engine it started.
	if not _send(JSON.stringify({"auth": secret})):
		return
	while true:
		var head := peer.get_data(4)
		if head[0] != OK:
			return
		var size: int = head[1].decode_u32(0)
		var body := [OK, PackedByteArray()]
		if size > 0:
			body = peer.get_data(size)
		if body[0] != OK:
			return
		if not _send(serve(body[1].get_string_from_utf8())):
			return


# Sends one frame: a little-endian u32 length, then the UTF-8 text.
func _send(text: String) -> bool:
	var out: PackedByteArray = text.to_utf8_buffer()
	var frame := PackedByteArray()
	frame.resize(4)
	frame.encode_u32(0, out.size())
	frame.append_array(out)
	return peer.put_data(frame) == OK


func _connect(port: int) -> bool:
	if peer.connect_to_host("127.0.0.1", port) != OK:
		printerr(MARK + "fatal:cannot connect to port %d" % port)
		return false
	var start := Time.get_ticks_msec()
	while peer.get_status() == StreamPeerTCP.STATUS_CONNECTING:
		peer.poll()
		if Time.get_ticks_msec() - start > 10000:
			break
		OS.delay_msec(1)
	if peer.get_status() != StreamPeerTCP.STATUS_CONNECTED:
		printerr(MARK + "fatal:connection to port %d failed" % port)
		return false
	peer.set_no_delay(true)
	return true


# One frame: a header line {"seq": N} then one request per line; the answer has the
# same shape, one result line per request line, in order.
func serve(text: String) -> String:
	var lines := text.split("\n")
	var seq := -1
	var head = JSON.parse_string(lines[0]) if lines.size() > 0 else null
	if typeof(head) == TYPE_DICTIONARY and typeof(head.get("seq")) == TYPE_FLOAT:
		seq = int(head["seq"])
	var out := PackedStringArray()
	out.append(JSON.stringify({"seq": seq}))
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
		out.append(JSON.stringify(res) if deepest < 400 else json_text(res))
	printerr(MARK + "e:%d" % seq)
	return "\n".join(out)


# JSON.stringify writes "[...]" past 1024 levels, and GDScript 4 allows 2048 nested calls
# whatever max_call_stack says, so a deep tree (two JSON levels per container) is written
# here with a stack of pending pieces instead of recursion.
func json_text(root) -> String:
	var out := PackedStringArray()
	var todo := [root]
	var raw := [false]  # whether the matching todo item is finished text
	while not todo.is_empty():
		var v = todo.pop_back()
		if raw.pop_back():
			out.append(v)
		elif typeof(v) == TYPE_DICTIONARY:
			var keys: Array = v.keys()
			todo.append("}")
			raw.append(true)
			for k in range(keys.size() - 1, -1, -1):
				todo.append_array([v[keys[k]], ("," if k > 0 else "") + JSON.stringify(str(keys[k])) + ":"])
				raw.append_array([false, true])
			todo.append("{")
			raw.append(true)
		elif typeof(v) == TYPE_ARRAY:
			todo.append("]")
			raw.append(true)
			for k in range(v.size() - 1, -1, -1):
				todo.append(v[k])
				raw.append(false)
				if k > 0:
					todo.append(",")
					raw.append(true)
			todo.append("[")
			raw.append(true)
		else:
			out.append(JSON.stringify(v))
	return "".join(out)


func handle(line: String, seq: int, i: int):
	var req = JSON.parse_string(line)
	if typeof(req) != TYPE_DICTIONARY:
		printerr(MARK + "m:%d:%d" % [seq, i])
		return {"error": "request is not a JSON object"}
	var op = req.get("op")
	# Stand-ins are for the encode request that asks for them (encode sets them up); no other
	# request builds with them or reads them.
	want_stand_ins = false
	stand_ins = {}
	if op == "decode":
		return decode(req, seq, i)
	if op == "encode":
		return encode(req, seq, i)
	# A campaign's request (with the own check) has no `m` marker: one marker a request is
	# a sixth of a campaign's time less, and the lines until the next `b` are kept as its log.
	if not req.get("own", false):
		printerr(MARK + "m:%d:%d" % [seq, i])
	if op == "hello":
		return {"ok": true, "protocol": PROTOCOL, "version": Engine.get_version_info(), "double_reals": double_reals}
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
	return {"error": "unknown op %s" % JSON.stringify(op)}


# ---------------------------------------------------------------- decode


func decode(req: Dictionary, seq: int, i: int) -> Dictionary:
	if typeof(req.get("bytes")) != TYPE_STRING:
		printerr(MARK + "m:%d:%d" % [seq, i])
		return {"error": "decode needs \"bytes\" (base64)"}
	var objects := bool(req.get("objects", false))
	var b := Marshalls.base64_to_raw(req["bytes"])
	var v = bytes_to_var_with_objects(b) if objects else bytes_to_var(b)
	if not req.get("own", false):
		printerr(MARK + "m:%d:%d" % [seq, i])
	# bytes_to_var answers null both for a valid Nil and on error; a Nil header (low byte
	# 0, flags ignored as the engine ignores them) with 4 bytes is a valid Nil.
	var accepted := typeof(v) != TYPE_NIL or (b.size() >= 4 and b[0] == 0)
	var out := {"ok": true, "accepted": accepted}
	if not accepted:
		return out
	# decode_var_size runs the same decoder and gives its byte count (0 on error).
	var consumed := b.decode_var_size(0, objects)
	if consumed <= 0:
		out["inconsistent"] = "bytes_to_var accepted what decode_var_size rejects"
	out["consumed"] = consumed
	placeholders = {}
	out["tree"] = tree(v, 0)
	# Re-encoding writes each placeholder's own instance id, not the id read: the host puts
	# the ids read back (lab/src/oracle/placeholders.rs).
	if not placeholders.is_empty():
		out["placeholders"] = placeholders
	if deepest > MAX_DEPTH:
		out["incomplete"] = "the value nests deeper than the %d levels the oracle walks" % MAX_DEPTH
	var plain := var_to_bytes(v)
	out["reencoded"] = Marshalls.raw_to_base64(plain)
	# A request with the own check is answered with the encoding it uses only (see own_check).
	if not own_check(req, out, plain, objects):
		out["reencoded_full"] = Marshalls.raw_to_base64(var_to_bytes_with_objects(v))
	return out


# With "own": true, whether the engine decodes the bytes it just wrote, in the same request
# (a campaign asks this of every answer; a second request each would cost as much again);
# true when it answered so. Such a request is answered without the encoding with full
# objects, which it does not use. Not with objects: the objects decoded would have to be
# tracked and freed (the host asks those in a request of their own).
func own_check(req: Dictionary, out: Dictionary, written: PackedByteArray, objects: bool) -> bool:
	if not req.get("own", false) or objects:
		return false
	var v = bytes_to_var(written)
	out["own_accepted"] = typeof(v) != TYPE_NIL or (written.size() >= 4 and written[0] == 0)
	return true


func tree(v, depth: int) -> Dictionary:
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
		TYPE_FLOAT:
			return {"type": "float", "value": f64(v)}
		TYPE_STRING:
			return {"type": "String", "value": v}
		# Containers are walked here, not in helpers: one call per level, see json_text.
		TYPE_ARRAY:
			var items := []
			for x in v:
				items.append(tree(x, depth + 1))
			var out := {"type": "Array", "value": items}
			if v.is_typed():
				out["element_type"] = container_type(v.get_typed_builtin(), v.get_typed_class_name(), v.get_typed_script())
			return out
		TYPE_DICTIONARY:
			# keys() and values() share one order; v[k] would miss NaN keys.
			var keys: Array = v.keys()
			var values: Array = v.values()
			var entries := []
			for k in keys.size():
				entries.append([tree(keys[k], depth + 1), tree(values[k], depth + 1)])
			var out := {"type": "Dictionary", "value": entries}
			if v.is_typed_key():
				out["key_type"] = container_type(v.get_typed_key_builtin(), v.get_typed_key_class_name(), v.get_typed_key_script())
			if v.is_typed_value():
				out["value_type"] = container_type(v.get_typed_value_builtin(), v.get_typed_value_class_name(), v.get_typed_value_script())
			return out
		# Math types and Color: the component bits as the engine holds them, read from its own
		# encoding (a plain copy of the floats, rows for Basis). Reading v.x would widen to a
		# GDScript float and quiet a signalling NaN.
		TYPE_VECTOR2:
			return {"type": "Vector2", "value": payload_reals(v)}
		TYPE_VECTOR2I:
			return {"type": "Vector2i", "value": [v.x, v.y]}
		TYPE_RECT2:
			return {"type": "Rect2", "value": payload_reals(v)}
		TYPE_RECT2I:
			return {"type": "Rect2i", "value": [v.position.x, v.position.y, v.size.x, v.size.y]}
		TYPE_VECTOR3:
			return {"type": "Vector3", "value": payload_reals(v)}
		TYPE_VECTOR3I:
			return {"type": "Vector3i", "value": [v.x, v.y, v.z]}
		TYPE_TRANSFORM2D:
			return {"type": "Transform2D", "value": payload_reals(v)}
		TYPE_VECTOR4:
			return {"type": "Vector4", "value": payload_reals(v)}
		TYPE_VECTOR4I:
			return {"type": "Vector4i", "value": [v.x, v.y, v.z, v.w]}
		TYPE_PLANE:
			return {"type": "Plane", "value": payload_reals(v)}
		TYPE_QUATERNION:
			return {"type": "Quaternion", "value": payload_reals(v)}
		TYPE_AABB:
			return {"type": "AABB", "value": payload_reals(v)}
		TYPE_BASIS:
			return {"type": "Basis", "value": payload_reals(v)}
		TYPE_TRANSFORM3D:
			return {"type": "Transform3D", "value": payload_reals(v)}
		TYPE_PROJECTION:
			return {"type": "Projection", "value": payload_reals(v)}
		TYPE_COLOR:
			return {"type": "Color", "value": f32s(var_to_bytes(v).slice(4))}
		TYPE_STRING_NAME:
			return {"type": "StringName", "value": String(v)}
		TYPE_NODE_PATH:
			return path_tree(v)
		TYPE_RID:
			return {"type": "RID", "value": u64(v.get_id())}
		TYPE_OBJECT:
			return object_tree(v, depth)
		TYPE_CALLABLE:
			var c := {"type": "Callable"}
			if not v.is_null():
				c["note"] = "not a null Callable: %s" % str(v)
			return c
		TYPE_SIGNAL:
			return {"type": "Signal", "name": String(v.get_name()), "object": u64(v.get_object_id())}
		TYPE_PACKED_BYTE_ARRAY:
			return {"type": "PackedByteArray", "value": v.hex_encode()}
		TYPE_PACKED_INT32_ARRAY:
			return {"type": "PackedInt32Array", "value": Array(v)}
		TYPE_PACKED_INT64_ARRAY:
			var out := []
			for x in v:
				out.append(str(x))
			return {"type": "PackedInt64Array", "value": out}
		TYPE_PACKED_FLOAT32_ARRAY:
			return {"type": "PackedFloat32Array", "value": f32s(v.to_byte_array())}
		TYPE_PACKED_FLOAT64_ARRAY:
			var raw: PackedByteArray = v.to_byte_array()
			var out := []
			for k in range(0, raw.size(), 8):
				out.append(hex64(raw.decode_s64(k)))
			return {"type": "PackedFloat64Array", "value": out}
		TYPE_PACKED_STRING_ARRAY:
			return {"type": "PackedStringArray", "value": Array(v)}
		TYPE_PACKED_VECTOR2_ARRAY:
			return {"type": "PackedVector2Array", "value": groups(reals(v.to_byte_array()), 2)}
		TYPE_PACKED_VECTOR3_ARRAY:
			return {"type": "PackedVector3Array", "value": groups(reals(v.to_byte_array()), 3)}
		TYPE_PACKED_COLOR_ARRAY:
			return {"type": "PackedColorArray", "value": groups(f32s(v.to_byte_array()), 4)}
		TYPE_PACKED_VECTOR4_ARRAY:
			return {"type": "PackedVector4Array", "value": groups(reals(v.to_byte_array()), 4)}
	return {"type": "Nil", "error": "unknown variant type %d" % typeof(v)}


func container_type(builtin: int, cls: StringName, script) -> Dictionary:
	if script != null:
		return {"script": stand_in_script_paths.get(script.get_instance_id(), script.resource_path)}
	if builtin == TYPE_OBJECT:
		return {"class": String(cls)}
	return {"builtin": type_string(builtin)}


func path_tree(v: NodePath) -> Dictionary:
	var names := []
	for k in v.get_name_count():
		names.append(String(v.get_name(k)))
	var subnames := []
	for k in v.get_subname_count():
		subnames.append(String(v.get_subname(k)))
	return {"type": "NodePath", "names": names, "subnames": subnames, "absolute": v.is_absolute()}


func object_tree(v, depth: int) -> Dictionary:
	if not is_instance_valid(v):
		return {"type": "Object", "value": null}
	if v is EncodedObjectAsID:
		# Also what a full object of class EncodedObjectAsID decodes to: the two wire
		# forms cannot be told apart once decoded.
		placeholders[u64(v.get_instance_id())] = u64(v.get_object_id())
		return {"type": "Object", "id": u64(v.get_object_id())}
	if stand_ins.has(v.get_instance_id()):
		placeholders[u64(v.get_instance_id())] = stand_ins[v.get_instance_id()]
		return {"type": "Object", "id": stand_ins[v.get_instance_id()]}
	if not (v is RefCounted):
		created.append(v)
	# The properties the full-object encoder writes, in its order, with the script
	# written as its path as the encoder does.
	var props := []
	for p in v.get_property_list():
		if not (p["usage"] & PROPERTY_USAGE_STORAGE):
			continue
		var value = v.get(p["name"])
		if p["name"] == "script" and value != null:
			value = value.resource_path
		props.append([p["name"], tree(value, depth + 1)])
	return {"type": "Object", "class": v.get_class(), "properties": props}


# ---------------------------------------------------------------- float bits


func f64(x: float) -> String:
	b8.encode_double(0, x)
	return hex64(b8.decode_s64(0))


func f32(x: float) -> String:
	b4.encode_float(0, x)
	return "0x%08x" % b4.decode_u32(0)


func hex64(u: int) -> String:
	return "0x%08x%08x" % [(u >> 32) & 0xffffffff, u & 0xffffffff]


# One real_t component that GDScript only exposes as a float.
func real(x: float) -> String:
	return f64(x) if double_reals else f32(x)


# The real_t components after the 4-byte header of the engine's own encoding of v.
func payload_reals(v) -> Array:
	return reals(var_to_bytes(v).slice(4))


# real_t components from raw memory, exact to the bit.
func reals(raw: PackedByteArray) -> Array:
	if double_reals:
		var out := []
		for k in range(0, raw.size(), 8):
			out.append(hex64(raw.decode_s64(k)))
		return out
	return f32s(raw)


func f32s(raw: PackedByteArray) -> Array:
	var out := []
	for k in range(0, raw.size(), 4):
		out.append("0x%08x" % raw.decode_u32(k))
	return out


func groups(flat: Array, n: int) -> Array:
	var out := []
	for k in range(0, flat.size(), n):
		out.append(flat.slice(k, k + n))
	return out


# An unsigned 64-bit id, which GDScript holds as a signed int.
func u64(x: int) -> String:
	if x >= 0:
		return str(x)
	var half := (x >> 1) & 0x7fffffffffffffff  # x / 2 as unsigned
	var q := half / 5
	var r := (half % 5) * 2 + (x & 1)
	return str(q) + str(r)


# ---------------------------------------------------------------- encode


func encode(req: Dictionary, seq: int, i: int) -> Dictionary:
	problem = ""
	unsupported = ""
	want_stand_ins = bool(req.get("stand_ins", false))
	stand_ins = {}
	full_unsupported = ""
	cannot_hold = ""
	in_value = false
	placeholders = {}
	slot = [TYPE_NIL, &"", null]
	var v = build(req.get("tree"), 0)
	var own: bool = req.get("own", false)
	var plain := PackedByteArray()
	var full := PackedByteArray()
	if problem == "" and unsupported == "" and cannot_hold == "":
		plain = var_to_bytes(v)
		if not own and not plain.is_empty() and full_unsupported == "":
			full = var_to_bytes_with_objects(v)
	# After the encoding step: what the engine printed while encoding is this request's error text.
	if not own:
		printerr(MARK + "m:%d:%d" % [seq, i])
	if problem != "":
		return {"error": problem, "reason": problem_code}
	if unsupported != "":
		return {"ok": false, "unsupported": unsupported, "reason": unsupported_code}
	if cannot_hold != "":
		printerr(cannot_hold)
		return {"ok": true, "refused": true}
	# Every encoding has a 4-byte header: an empty one is the engine refusing the value it built
	# (nested past its limit; var_to_bytes prints why and returns nothing).
	if plain.is_empty():
		return {"ok": true, "refused": true}
	var out := {"ok": true, "bytes": Marshalls.raw_to_base64(plain), "tree": tree(v, 0)}
	# The host writes each id asked over its stand-in's own id (lab/src/oracle/placeholders.rs).
	if not placeholders.is_empty():
		out["placeholders"] = placeholders
	if not own_check(req, out, plain, false):
		# Full objects can nest deeper than their ids: the engine may refuse only this encoding.
		if full_unsupported != "":
			out["unsupported_full"] = full_unsupported
			out["unsupported_full_reason"] = full_unsupported_code
		elif full.is_empty():
			out["refused_full"] = true
		else:
			out["bytes_full"] = Marshalls.raw_to_base64(full)
	return out


func fail(msg: String, code := "oracle-refused"):
	if problem == "":
		problem = msg
		problem_code = code
	return null


# Why the value asked for cannot be built inside the engine: a code and its words.
func cannot_build(code: String, text: String) -> void:
	unsupported = text
	unsupported_code = code


# Why the value built has no full encoding: a code and its words.
func cannot_write_in_full(code: String, text: String) -> void:
	full_unsupported = text
	full_unsupported_code = code


func build(n, depth: int):
	if problem != "" or unsupported != "":
		return null
	if depth > MAX_DEPTH:
		return fail("tree too deep")
	if typeof(n) != TYPE_DICTIONARY or typeof(n.get("type")) != TYPE_STRING:
		return fail("a node must be an object with a \"type\" string")
	var ty: String = n["type"]
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
			var bits := token_bytes([val], 8)
			return bits.decode_double(0) if problem == "" else null
		"String":
			return text(val)
		"StringName":
			return StringName(text(val))
		"Vector2", "Rect2", "Transform2D":
			var a := real_bytes(val, {"Vector2": 2, "Rect2": 4, "Transform2D": 6}[ty]).to_vector2_array()
			if problem != "":
				return null
			if ty == "Vector2":
				return a[0]
			if ty == "Rect2":
				return Rect2(a[0], a[1])
			return Transform2D(a[0], a[1], a[2])
		"Vector3", "AABB", "Basis", "Transform3D":
			var a := real_bytes(val, {"Vector3": 3, "AABB": 6, "Basis": 9, "Transform3D": 12}[ty]).to_vector3_array()
			if problem != "":
				return null
			if ty == "Vector3":
				return a[0]
			if ty == "AABB":
				return AABB(a[0], a[1])
			# The wire lists rows; Basis(x, y, z) takes columns, so transpose.
			var basis := Basis(a[0], a[1], a[2]).transposed()
			return basis if ty == "Basis" else Transform3D(basis, a[3])
		"Vector4", "Projection":
			var a := real_bytes(val, 4 if ty == "Vector4" else 16).to_vector4_array()
			if problem != "":
				return null
			return a[0] if ty == "Vector4" else Projection(a[0], a[1], a[2], a[3])
		"Plane", "Quaternion":
			var raw := real_bytes(val, 4)
			if problem != "":
				return null
			var c := []
			for k in 4:
				if not double_reals and signalling_f32(raw.decode_u32(k * 4)):
					cannot_build("signalling-nan-through-double", "%s components pass through a double, which quiets a signalling NaN" % ty)
				c.append(raw.decode_double(k * 8) if double_reals else raw.decode_float(k * 4))
			if ty == "Plane":
				return Plane(c[0], c[1], c[2], c[3])
			return Quaternion(c[0], c[1], c[2], c[3])
		"Color":
			var a := token_bytes(list(val, 4), 4).to_color_array()
			return a[0] if problem == "" else null
		"Vector2i":
			var c := i32s(val, 2)
			return Vector2i(c[0], c[1]) if problem == "" else null
		"Rect2i":
			var c := i32s(val, 4)
			return Rect2i(c[0], c[1], c[2], c[3]) if problem == "" else null
		"Vector3i":
			var c := i32s(val, 3)
			return Vector3i(c[0], c[1], c[2]) if problem == "" else null
		"Vector4i":
			var c := i32s(val, 4)
			return Vector4i(c[0], c[1], c[2], c[3]) if problem == "" else null
		"NodePath":
			var p = build_path(n)
			if unsupported != "" and want_stand_ins and n.has("bytes"):
				unsupported = ""
				return from_node_bytes(n, TYPE_NODE_PATH)
			return p
		"RID":
			return rid_from_int64(u64_bits(val))
		"Object":
			return build_object(n, depth)
		"Callable":
			return Callable()
		"Signal":
			if typeof(n.get("name")) != TYPE_STRING:
				return fail("Signal needs a \"name\" string")
			if want_stand_ins and n.has("bytes") and str(n.get("object", "0")) != "0":
				return from_node_bytes(n, TYPE_SIGNAL)
			if i64(n.get("object", "0")) != 0:
				cannot_build("signal-of-object-by-id", "a Signal of an object that exists only by its id cannot be built")
				return null
			return Signal(null, StringName(n["name"]))
		"Array":
			return build_array(n, depth)
		"Dictionary":
			return build_dict(n, depth)
		"PackedByteArray":
			var s := text(val)
			if s.length() % 2 != 0 or (s != "" and not ("0x" + s).is_valid_hex_number(true)):
				return fail("PackedByteArray needs an even-length hex string")
			return s.hex_decode()
		"PackedInt32Array":
			return PackedInt32Array(i32s(val, -1))
		"PackedInt64Array":
			var out := PackedInt64Array()
			for x in list(val, -1):
				out.append(i64(x))
			return out
		"PackedFloat32Array":
			return token_bytes(list(val, -1), 4).to_float32_array()
		"PackedFloat64Array":
			return token_bytes(list(val, -1), 8).to_float64_array()
		"PackedStringArray":
			var out := PackedStringArray()
			for x in list(val, -1):
				out.append(text(x))
			return out
		"PackedVector2Array":
			return real_bytes(flat(val, 2), -1).to_vector2_array()
		"PackedVector3Array":
			return real_bytes(flat(val, 3), -1).to_vector3_array()
		"PackedVector4Array":
			return real_bytes(flat(val, 4), -1).to_vector4_array()
		"PackedColorArray":
			return token_bytes(flat(val, 4), 4).to_color_array()
	return fail("unknown type %s" % ty)


func text(x) -> String:
	if typeof(x) == TYPE_DICTIONARY and x.has("code_units"):
		# The 3.x form of a string whose units are not all Unicode scalar values.
		cannot_build("non-scalar-string", "a Godot 4 String holds Unicode scalar values only: String.chr() turns " \
				+ "a surrogate or a unit past U+10FFFF into U+FFFD")
		return ""
	if typeof(x) != TYPE_STRING:
		fail("expected a JSON string")
		return ""
	return x


func list(x, n: int) -> Array:
	if typeof(x) != TYPE_ARRAY or (n >= 0 and x.size() != n):
		fail("expected an array of %d items" % n if n >= 0 else "expected an array")
		return []
	return x


# Nested arrays of n tokens each, flattened.
func flat(x, n: int) -> Array:
	var out := []
	for item in list(x, -1):
		out.append_array(list(item, n))
	return out


# String.to_int() saturates (or wraps, at 2^63) out of range, so decimal strings are read
# digit by digit, accumulating a negative number (which reaches -2^63).
func i64(x) -> int:
	if typeof(x) == TYPE_FLOAT and x == floor(x) and abs(x) <= 9007199254740992.0:
		return int(x)
	if typeof(x) != TYPE_STRING or not x.is_valid_int():
		fail("expected a 64-bit integer as a decimal string")
		return 0
	var neg: bool = x.begins_with("-")
	var digits: String = x.substr(1) if neg or x.begins_with("+") else x
	var v := 0
	for c in digits:
		var d := c.unicode_at(0) - 48
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


func i32s(x, n: int) -> Array:
	var out := []
	for item in list(x, n):
		if typeof(item) != TYPE_FLOAT or item != floor(item) or item < -2147483648.0 or item > 2147483647.0:
			fail("expected 32-bit integers")
			return []
		out.append(int(item))
	return out


# real_t tokens as raw memory of this build's real_t width.
func real_bytes(x, n: int) -> PackedByteArray:
	return token_bytes(list(x, n), 8 if double_reals else 4)


func signalling_f32(u: int) -> bool:
	return u & 0x7f800000 == 0x7f800000 and u & 0x007fffff != 0 and u & 0x00400000 == 0


# Float tokens as raw little-endian memory, each `width` bytes.
func token_bytes(tokens: Array, width: int) -> PackedByteArray:
	var out := PackedByteArray()
	out.resize(tokens.size() * width)
	for k in tokens.size():
		var t = tokens[k]
		if typeof(t) != TYPE_STRING:
			fail("a float must be a string token")
			return out
		var digits: String = t.substr(2) if t.begins_with("0x") else ""
		if t == "nan":
			digits = "7ff8000000000000" if width == 8 else "7fc00000"
		elif t == "inf":
			digits = "7ff0000000000000" if width == 8 else "7f800000"
		elif t == "-inf":
			digits = "fff0000000000000" if width == 8 else "ff800000"
		if digits.length() != width * 2 or not ("0x" + digits).is_valid_hex_number(true):
			fail("float %s: only exact 0x tokens of %d hex digits are accepted here" % [t, width * 2])
			return out
		if width == 4:
			out.encode_u32(k * 4, ("0x" + digits).hex_to_int())
		else:
			var hi: int = ("0x" + digits.substr(0, 8)).hex_to_int()
			var lo: int = ("0x" + digits.substr(8)).hex_to_int()
			out.encode_s64(k * 8, (hi << 32) | lo)
	return out


func build_path(n: Dictionary) -> NodePath:
	var names := list(n.get("names", []), -1)
	var subnames := list(n.get("subnames", []), -1)
	var absolute = n.get("absolute", false)
	if problem != "" or typeof(absolute) != TYPE_BOOL:
		fail("NodePath needs names, subnames (arrays of strings) and absolute (bool)")
		return NodePath()
	# NodePath can only be built from its text form: names that the parser would split
	# or drop cannot be built.
	for s in names + subnames:
		if typeof(s) != TYPE_STRING or s == "" or s.contains("/") or s.contains(":"):
			cannot_build("nodepath-name-not-text", "NodePath name %s cannot be written as path text" % JSON.stringify(s))
			return NodePath()
	var t := ("/" if absolute else "") + "/".join(PackedStringArray(names))
	if subnames.size() > 0:
		t += ":" + ":".join(PackedStringArray(subnames))
	var p := NodePath(t)
	var got := path_tree(p)
	if got["names"] != names or got["subnames"] != subnames or got["absolute"] != absolute:
		cannot_build("nodepath-text-reparses", "NodePath text %s does not parse back to the same path" % JSON.stringify(t))
	return p


func build_object(n: Dictionary, depth: int):
	if n.has("value") and n["value"] == null:
		return instance_from_id(0)  # a null Object, not Nil
	if n.has("id"):
		var bits := u64_bits(n["id"])
		if problem != "":
			return null
		if bits == 0:
			return instance_from_id(0)
		if want_stand_ins:
			return stand_in(bits)
		cannot_build("object-by-id", "an object that exists only by its instance id cannot be built")
		return null
	var cls := text(n.get("class"))
	if problem != "":
		return null
	if not ClassDB.can_instantiate(cls):
		cannot_build("class-not-instantiable", "class %s cannot be instantiated" % cls)
		return null
	var obj = ClassDB.instantiate(cls)
	if not (obj is RefCounted):
		created.append(obj)
	for pair in list(n.get("properties", []), -1):
		var kv := list(pair, 2)
		if problem != "":
			return null
		slot = [TYPE_NIL, &"", null]
		in_value = false
		var value = build(kv[1], depth + 1)
		if problem != "" or unsupported != "":
			return null
		if kv[0] == "script" and typeof(value) == TYPE_STRING:
			obj.set_script(load(value))
		else:
			obj.set(text(kv[0]), value)
	return obj


func build_array(n: Dictionary, depth: int):
	var t := parse_container_type(n.get("element_type"))
	if problem != "" or unsupported != "":
		return null
	var items := []
	for x in list(n.get("value"), -1):
		slot = t
		in_value = false
		items.append(build(x, depth + 1))
	if problem != "" or unsupported != "":
		return null
	if not n.has("element_type"):
		return items
	return Array(items, t[0], t[1], t[2])


func build_dict(n: Dictionary, depth: int):
	var kt := parse_container_type(n.get("key_type"))
	var vt := parse_container_type(n.get("value_type"))
	if problem != "" or unsupported != "":
		return null
	var d := {}
	for pair in list(n.get("value"), -1):
		var kv := list(pair, 2)
		if problem != "":
			return null
		slot = kt
		in_value = false
		var k = build(kv[0], depth + 1)
		slot = vt
		in_value = true
		var v = build(kv[1], depth + 1)
		in_value = false
		d[k] = v
	if problem != "" or unsupported != "":
		return null
	if not n.has("key_type") and not n.has("value_type"):
		return d
	return Dictionary(d, kt[0], kt[1], kt[2], vt[0], vt[1], vt[2])


# An object asked for by its id alone, which no script can make: an object that fits the slot
# it goes in, whose own instance id the host replaces with the id asked wherever the engine
# writes it as an object id. Untyped, or typed by EncodedObjectAsID or an ancestor: the
# placeholder decoding makes, holding the id. Typed by another class or a script: an object of
# it, where one can be made and freed.
func stand_in(bits: int):
	var script = slot[2]
	var cls: StringName = slot[1]
	if slot[0] != TYPE_NIL and slot[0] != TYPE_OBJECT:
		cannot_build("object-by-id", "an object that exists only by its instance id cannot be built")
		return null
	# No object can go where the engine has no such class: the value cannot exist here, but for
	# a typed Dictionary's value, which the decoder assigns unchecked (no script can build it).
	if script == null and cls != &"" and not ClassDB.class_exists(cls):
		if in_value:
			cannot_build("object-by-id", "an object that exists only by its instance id cannot be built from a script as a typed Dictionary's value of a class this engine lacks")
			return null
		cannot_hold = "ERROR: no object can be in a container of class %s: this engine has no such class" % cls
		return null
	if script == null and (cls == &"" or ClassDB.is_parent_class(&"EncodedObjectAsID", cls)):
		var p := EncodedObjectAsID.new()
		p.set_object_id(bits)
		return p
	# The one object of the oracle's own main script (a SceneTree, which no request may make):
	# once a request, as it can stand for one id only.
	if script != null and main_object != null and script == main_object.get_script() and not stand_ins.has(main_object.get_instance_id()):
		stand_ins[main_object.get_instance_id()] = u64(bits)
		cannot_write_in_full("object-by-id", "an object that exists only by its instance id cannot be written in full: the oracle's main object stands for it")
		return main_object
	var base: StringName = script.get_instance_base_type() if script != null else cls
	var makeable := ClassDB.can_instantiate(base) and (ClassDB.is_parent_class(base, &"RefCounted") or ClassDB.is_parent_class(base, &"Node"))
	if not makeable or (script != null and not script.can_instantiate()):
		cannot_build("object-by-id", "an object that exists only by its instance id cannot be built")
		return null
	var obj = script.new() if script != null else ClassDB.instantiate(cls)
	if not (obj is RefCounted):
		created.append(obj)
	stand_ins[obj.get_instance_id()] = u64(bits)
	cannot_write_in_full("object-by-id", "an object that exists only by its instance id cannot be written in full: an object of %s stands for it" % (script.resource_path if script != null else String(cls)))
	return obj


# A value no script can build (a NodePath name path text cannot spell, a Signal of an object
# known by its id alone) decoded from the codec's bytes of it, which a request with stand-ins
# sends along; used only if it is the value asked for, as tree() reports both.
func from_node_bytes(n: Dictionary, type: int):
	var v = bytes_to_var(Marshalls.base64_to_raw(text(n["bytes"])))
	var t: Dictionary = tree(v, 0) if typeof(v) == type else {}
	var same := t.size() == n.size() - 1
	for k in n:
		if k != "bytes" and t.get(k) != n[k]:
			same = false
	if not same:
		fail("the bytes sent for a %s decode to another value" % type_string(type))
		return null
	return v


# An unsigned 64-bit number (an object or RID id) as the int with its bits: past 2^63 - 1 it is
# that less 2^64, negative, found by subtracting in decimal so that no int overflows.
func u64_bits(x) -> int:
	if typeof(x) != TYPE_STRING or not x.is_valid_int() or x.begins_with("-") or x.begins_with("+"):
		return i64(x)
	var digits: String = x.lstrip("0")
	if digits.length() < 19 or (digits.length() == 19 and digits <= "9223372036854775807"):
		return i64(x)
	if digits.length() > 20 or (digits.length() == 20 and digits >= U64_LIMIT):
		fail("integer %s is out of the unsigned 64-bit range" % x)
		return 0
	return i64("-" + decimal_difference(U64_LIMIT, digits))


# a - b for decimal digit strings with a >= b.
func decimal_difference(a: String, b: String) -> String:
	b = b.lpad(a.length(), "0")
	var out := ""
	var borrow := 0
	for k in range(a.length() - 1, -1, -1):
		var d := a.unicode_at(k) - b.unicode_at(k) - borrow
		borrow = 1 if d < 0 else 0
		out = str(d + 10 * borrow) + out
	return out.lstrip("0")


# A script standing for one at `path` that this project cannot load, for a container typed by
# it: written without objects, such a container names EncodedObjectAsID, not its script, so any
# script gives the same bytes; written with objects it names the path, which this one lacks
# (the answer then has no full encoding). Made once per path, and never given the path, which
# would put it in the resource cache where a later decode would find it.
func stand_in_script(path: String):
	if not stand_in_scripts.has(path):
		var s := GDScript.new()
		s.source_code = "extends RefCounted\n"
		if s.reload() != OK:
			return null
		stand_in_scripts[path] = s
		stand_in_script_paths[s.get_instance_id()] = path
	cannot_write_in_full("script-not-loadable", "script %s cannot be loaded: written in full, a script without its path stands for it" % JSON.stringify(path))
	return stand_in_scripts[path]


# [type, class name, script] from {"builtin": T} | {"class": C} | {"script": path}; null is untyped.
func parse_container_type(x) -> Array:
	if x == null:
		return [TYPE_NIL, &"", null]
	if typeof(x) != TYPE_DICTIONARY:
		fail("a container type must be an object")
		return [TYPE_NIL, &"", null]
	if x.has("builtin"):
		if not type_ids.has(x["builtin"]):
			fail("unknown builtin type %s" % JSON.stringify(x["builtin"]))
			return [TYPE_NIL, &"", null]
		return [type_ids[x["builtin"]], &"", null]
	if x.has("class"):
		return [TYPE_OBJECT, StringName(text(x["class"])), null]
	if x.has("script"):
		var s = load(text(x["script"])) if problem == "" else null
		if s == null and want_stand_ins and problem == "":
			s = stand_in_script(text(x["script"]))
		if s == null:
			cannot_build("script-not-loadable", "script %s cannot be loaded" % JSON.stringify(x["script"]))
			return [TYPE_NIL, &"", null]
		return [TYPE_OBJECT, s.get_instance_base_type(), s]
	fail("a container type needs builtin, class or script")
	return [TYPE_NIL, &"", null]


# ---------------------------------------------------------------- framing


# The bytes FileAccess.store_var, StreamPeer.put_var or PacketPeer.put_var (over a
# PacketPeerStream) write for a value.
func frame(req: Dictionary) -> Dictionary:
	problem = ""
	unsupported = ""
	var v = build(req.get("tree"), 0)
	if problem != "":
		return {"error": problem, "reason": problem_code}
	if unsupported != "":
		return {"ok": false, "unsupported": unsupported, "reason": unsupported_code}
	var objects := bool(req.get("objects", false))
	var via = req.get("via")
	var out := PackedByteArray()
	if via == "file":
		var path := framing_path()
		var f := FileAccess.open(path, FileAccess.WRITE)
		if f == null:
			return {"error": "cannot write " + path}
		f.store_var(v, objects)
		f.close()
		f = FileAccess.open(path, FileAccess.READ)
		out = f.get_buffer(f.get_length())
		f.close()
	elif via == "stream":
		var sp := StreamPeerBuffer.new()
		sp.put_var(v, objects)
		out = sp.data_array
	elif via == "packet":
		var sp := StreamPeerBuffer.new()
		var pp := PacketPeerStream.new()
		pp.stream_peer = sp
		pp.put_var(v, objects)
		out = sp.data_array
	else:
		return {"error": "unknown via %s" % JSON.stringify(via)}
	return {"ok": true, "bytes": Marshalls.raw_to_base64(out)}


# Reads one value from these bytes with FileAccess.get_var, StreamPeer.get_var or
# PacketPeer.get_var; "position" is how far the reader got. get_var answers null on
# error, so a case meant to tell errors apart holds no Nil.
func unframe(req: Dictionary) -> Dictionary:
	if typeof(req.get("bytes")) != TYPE_STRING:
		return {"error": "unframe needs \"bytes\" (base64)"}
	var b := Marshalls.base64_to_raw(req["bytes"])
	var objects := bool(req.get("objects", false))
	var via = req.get("via")
	var v = null
	var pos := 0
	if via == "file":
		var path := framing_path()
		var f := FileAccess.open(path, FileAccess.WRITE)
		if f == null:
			return {"error": "cannot write " + path}
		f.store_buffer(b)
		f.close()
		f = FileAccess.open(path, FileAccess.READ)
		v = f.get_var(objects)
		pos = f.get_position()
		f.close()
	elif via == "stream":
		var sp := StreamPeerBuffer.new()
		sp.data_array = b
		v = sp.get_var(objects)
		pos = sp.get_position()
	elif via == "packet":
		var sp := StreamPeerBuffer.new()
		sp.data_array = b
		var pp := PacketPeerStream.new()
		pp.stream_peer = sp
		v = pp.get_var(objects)
		pos = sp.get_position()
	else:
		return {"error": "unknown via %s" % JSON.stringify(via)}
	return {"ok": true, "value": tree(v, 0), "position": pos}


func framing_path() -> String:
	return "user://gdmarshal-framing-%d.bin" % OS.get_process_id()


# Every class ClassDB has, by name: [name, parent class ("" for Object), whether
# ClassDB.instantiate, which decoding a full object calls, can make one].
func classes() -> Dictionary:
	var names := Array(ClassDB.get_class_list())
	names.sort()
	var out := []
	for c in names:
		out.append([c, String(ClassDB.get_parent_class(c)), ClassDB.can_instantiate(c)])
	var scripts := []
	project_scripts("res://", scripts)
	return {"ok": true, "classes": out, "scripts": scripts}


# The res:// paths of the project's scripts, which decoding loads where a typed container's
# script or a full object's `script` property names one (hidden folders such as .godot/ are the
# engine's own).
func project_scripts(dir: String, out: Array) -> void:
	for f in DirAccess.get_files_at(dir):
		var p := dir.path_join(f)
		if ResourceLoader.exists(p, "Script"):
			out.append(p)
	for d in DirAccess.get_directories_at(dir):
		if not d.begins_with("."):
			project_scripts(dir.path_join(d), out)


# For each class asked that ClassDB.instantiate makes: the tree of a fresh object of it, as a
# decode answer gives one (its stored properties, in the encoder's order, with their defaults;
# one not refcounted is freed after the request), and the names of its other properties (which
# a decoder's set() reaches but the encoder does not write).
func class_defaults(req: Dictionary) -> Dictionary:
	var out := {}
	for c in req.get("classes", []):
		if not (c is String) or not ClassDB.class_exists(c) or not ClassDB.can_instantiate(c):
			continue
		var o = ClassDB.instantiate(c)
		if o == null:
			continue
		var unstored := []
		for p in o.get_property_list():
			if not (p.usage & PROPERTY_USAGE_STORAGE):
				unstored.append(p.name)
		out[c] = {"tree": tree(o, 0), "unstored": unstored}
	# A class given one of the project's scripts, as the decoder sets a full object's script.
	var scripted := []
	for pair in req.get("scripted", []):
		if not (pair is Array) or pair.size() != 2 or not (pair[0] is String) or not (pair[1] is String):
			continue
		var c: String = pair[0]
		var path: String = pair[1]
		if not ClassDB.class_exists(c) or not ClassDB.can_instantiate(c):
			continue
		if not path.begins_with("res://") or not ResourceLoader.exists(path, "Script"):
			continue
		var s = ResourceLoader.load(path, "Script")
		var o = ClassDB.instantiate(c)
		if o == null or s == null:
			continue
		o.set_script(s)
		var unstored := []
		for p in o.get_property_list():
			if not (p.usage & PROPERTY_USAGE_STORAGE):
				unstored.append(p.name)
		scripted.append([c, path, {"tree": tree(o, 0), "unstored": unstored}])
	var answer := {"ok": true, "defaults": out}
	if req.has("scripted"):
		answer["scripted"] = scripted
	return answer


# A Basis made from three distinct axes (the constructor's arguments are the x, y and z
# columns), what the accessors give back, and the bytes var_to_bytes writes for it, for a
# Transform3D with that basis, for a Transform2D of columns (1,2), (3,4), (5,6) and for a
# Projection of columns (1..4), (5..8), (9..12), (13..16): settles the wire's component order
# from the engine itself.
func axes() -> Dictionary:
	var b := Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9))
	var t := Transform3D(b, Vector3(10, 11, 12))
	return {
		"ok": true,
		"x": [b.x.x, b.x.y, b.x.z],
		"y": [b.y.x, b.y.y, b.y.z],
		"z": [b.z.x, b.z.y, b.z.z],
		"index0": [b[0].x, b[0].y, b[0].z],
		"basis": Marshalls.raw_to_base64(var_to_bytes(b)),
		"transform": Marshalls.raw_to_base64(var_to_bytes(t)),
		"transform2d": Marshalls.raw_to_base64(var_to_bytes(Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6)))),
		"projection": Marshalls.raw_to_base64(var_to_bytes(Projection(Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8), Vector4(9, 10, 11, 12), Vector4(13, 14, 15, 16)))),
	}


# ---------------------------------------------------------------- framing over loopback sockets


# What put_var puts on the wire through a socket on loopback: "udp" is the datagram a
# PacketPeerUDP sends, "tcp" the bytes a PacketPeerStream over a StreamPeerTCP sends.
func frame_net(req: Dictionary) -> Dictionary:
	problem = ""
	unsupported = ""
	var v = build(req.get("tree"), 0)
	if problem != "":
		return {"error": problem, "reason": problem_code}
	if unsupported != "":
		return {"ok": false, "unsupported": unsupported, "reason": unsupported_code}
	var objects := bool(req.get("objects", false))
	var via = req.get("via")
	var out = null
	if via == "udp":
		var rx := PacketPeerUDP.new()
		var port := _udp_bind(rx)
		if port < 0:
			return {"error": "cannot bind a UDP port on loopback"}
		var tx := PacketPeerUDP.new()
		tx.set_dest_address("127.0.0.1", port)
		tx.put_var(v, objects)
		out = _udp_packet(rx)
		tx.close()
		rx.close()
	elif via == "tcp":
		var pair := _tcp_pair()
		if pair.is_empty():
			return {"error": "cannot connect over loopback TCP"}
		var pp := PacketPeerStream.new()
		pp.stream_peer = pair[0]
		pp.put_var(v, objects)
		out = _tcp_received(pair[1])
		pair[0].disconnect_from_host()
		pair[1].disconnect_from_host()
	else:
		return {"error": "unknown via %s" % JSON.stringify(via)}
	if out == null:
		return {"error": "nothing arrived over loopback %s" % via}
	return {"ok": true, "bytes": Marshalls.raw_to_base64(out)}


# Sends these bytes over a loopback socket as they are (one UDP datagram, or the TCP stream)
# and reads one value from the other end with PacketPeerUDP.get_var or, over TCP, a
# PacketPeerStream's get_var once all the bytes have arrived. A packet has no position.
func unframe_net(req: Dictionary) -> Dictionary:
	if typeof(req.get("bytes")) != TYPE_STRING:
		return {"error": "unframe_net needs \"bytes\" (base64)"}
	var b := Marshalls.base64_to_raw(req["bytes"])
	var objects := bool(req.get("objects", false))
	var via = req.get("via")
	var v = null
	if via == "udp":
		var rx := PacketPeerUDP.new()
		var port := _udp_bind(rx)
		if port < 0:
			return {"error": "cannot bind a UDP port on loopback"}
		var tx := PacketPeerUDP.new()
		tx.set_dest_address("127.0.0.1", port)
		tx.put_packet(b)
		var start := Time.get_ticks_msec()
		while rx.get_available_packet_count() == 0 and Time.get_ticks_msec() - start < 2000:
			OS.delay_msec(1)
		if rx.get_available_packet_count() == 0:
			return {"error": "no datagram arrived over loopback"}
		v = rx.get_var(objects)
		tx.close()
		rx.close()
	elif via == "tcp":
		var pair := _tcp_pair()
		if pair.is_empty():
			return {"error": "cannot connect over loopback TCP"}
		pair[0].put_data(b)
		_tcp_wait(pair[1], b.size())
		var pp := PacketPeerStream.new()
		pp.stream_peer = pair[1]
		v = pp.get_var(objects)
		pair[0].disconnect_from_host()
		pair[1].disconnect_from_host()
	else:
		return {"error": "unknown via %s" % JSON.stringify(via)}
	return {"ok": true, "value": tree(v, 0), "position": 0}


# Binds to a free loopback port; the port, or -1.
func _udp_bind(rx: PacketPeerUDP) -> int:
	var base := 20000 + OS.get_process_id() % 20000
	for i in 64:
		if rx.bind(base + i * 7, "127.0.0.1") == OK:
			return base + i * 7
	return -1


func _udp_packet(rx: PacketPeerUDP):
	var start := Time.get_ticks_msec()
	while rx.get_available_packet_count() == 0:
		if Time.get_ticks_msec() - start > 2000:
			return null
		OS.delay_msec(1)
	return rx.get_packet()


# A connected pair of loopback TCP peers: [client, the server's side], or [].
func _tcp_pair() -> Array:
	var server := TCPServer.new()
	var base := 20000 + OS.get_process_id() % 20000
	var port := -1
	for i in 64:
		if server.listen(base + i * 7, "127.0.0.1") == OK:
			port = base + i * 7
			break
	if port < 0:
		return []
	var client := StreamPeerTCP.new()
	if client.connect_to_host("127.0.0.1", port) != OK:
		return []
	var start := Time.get_ticks_msec()
	while not server.is_connection_available() or client.get_status() != StreamPeerTCP.STATUS_CONNECTED:
		client.poll()
		if Time.get_ticks_msec() - start > 2000:
			return []
		OS.delay_msec(1)
	var other := server.take_connection()
	server.stop()
	client.set_no_delay(true)
	return [client, other]


# Waits until `size` bytes are readable on the peer (or 2 s have passed).
func _tcp_wait(p: StreamPeerTCP, size: int) -> void:
	var start := Time.get_ticks_msec()
	while p.get_available_bytes() < size and Time.get_ticks_msec() - start < 2000:
		p.poll()
		OS.delay_msec(1)


# Every byte that arrives on the peer until 200 ms pass without more (or 2 s in all).
func _tcp_received(p: StreamPeerTCP):
	var out := PackedByteArray()
	var start := Time.get_ticks_msec()
	var last := start
	while Time.get_ticks_msec() - start < 2000:
		p.poll()
		var n := p.get_available_bytes()
		if n > 0:
			var got := p.get_data(n)
			if got[0] != OK:
				break
			out.append_array(got[1])
			last = Time.get_ticks_msec()
		elif out.size() > 0 and Time.get_ticks_msec() - last > 200:
			break
		OS.delay_msec(1)
	if out.is_empty():
		return null
	return out
