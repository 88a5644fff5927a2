# Godot 3's own encoder and decoder in the side-by-side benchmark (scripts/bench-peers.sh): one
# family of benches/support/families.rs, built here from the same recipe, in the loops of
# benches/support/loops.rs (15 rounds of decode, the result freed, then encode; then 15 decodes
# alone; medians). Writes its bytes to OUT, which the script compares with gdmarshal's.
#
#   godot -s benches/godot/families3.gd FAMILY OUT
extends SceneTree

const PACKED_BYTES = 8 << 20


func median(v):
	v.sort()
	return v[v.size() / 2]


# One timed decode; the value is freed outside the timed part. (In a function, as in
# nested_dictionaries.gd: the same loop written inline in _init measured Godot's encode and lone
# decodes 2.5 times slower, a cost of the script, not of the engine's codec.)
func timed_decode(bytes, out):
	var t = OS.get_ticks_usec()
	var v = bytes2var(bytes)
	out.append(OS.get_ticks_usec() - t)
	v = null


func enemy(i, pos, large):
	var d = {"id": i, "name": "enemy %d" % i, "hp": i * 0.5, "pos": pos}
	if large:
		d["alive"] = i % 2 == 0
		d["level"] = i % 100
	return d


func family(name):
	var a = []
	match name:
		"scalars":
			for i in 200000:
				a.append(i if i % 2 == 0 else i / 3.0)
		"strings":
			for i in 100000:
				a.append("string number %d" % i)
		"unicode_strings":
			for i in 2000:
				var t = "%d: " % i
				while t.to_utf8().size() < 1000:
					t += "Grüße, мир — こんにちは世界 🎮 "
				a.append(t)
		"nested_dictionaries":
			for i in 50000:
				a.append(enemy(i, Vector2(i, -1.5), false))
		"large_dictionaries":
			for i in 200000:
				a.append(enemy(i, Vector3(i, -1.5, 2.0), true))
		"keyed_dictionaries":
			var d = {}
			for i in 50000:
				d[i] = enemy(i, Vector2(i, -1.5), false)
			return d
		"PackedByteArray":
			var b = PoolByteArray()
			b.resize(PACKED_BYTES)
			for i in PACKED_BYTES:
				b[i] = i & 255
			return b
		"PackedInt32Array":
			return PoolIntArray(range(PACKED_BYTES / 4))
		"PackedFloat32Array":
			return PoolRealArray(range(PACKED_BYTES / 4))
		"PackedStringArray":
			for i in 100000:
				a.append("s%d" % i)
			return PoolStringArray(a)
		_:
			return null
	return a


func _init():
	# Godot 3 passes the user's arguments among its own: FAMILY and OUT are the last two.
	var all = OS.get_cmdline_args()
	var args = [all[all.size() - 2], all[all.size() - 1]]
	var value = family(args[0])
	if value == null:
		printerr("families.gd: no family ", args[0])
		quit(2)
		return
	var bytes = var2bytes(value)
	var f = File.new()
	f.open(args[1], File.WRITE)
	f.store_buffer(bytes)
	f.close()
	var decode_us = []
	var encode_us = []
	var alone_us = []
	for k in 15:
		timed_decode(bytes, decode_us)
		var t = OS.get_ticks_usec()
		var again = var2bytes(value)
		encode_us.append(OS.get_ticks_usec() - t)
	for k in 15:
		timed_decode(bytes, alone_us)
	print("GDMARSHAL_PEER runner=godot bytes=%d decode_median_us=%d encode_median_us=%d decode_alone_median_us=%d" % [bytes.size(), median(decode_us), median(encode_us), median(alone_us)])
	quit()
