# Godot's own encoder and decoder on the codec benchmark's `nested_dictionaries` family: the same
# 50,000 dictionaries, which encode to the same 5,199,608 bytes; or, with `-- large_dictionaries`,
# on 200,000 dictionaries of six entries (31,199,608 bytes, benches/support/families.rs). Run by
# scripts/bench-godot.sh; benches/nested_vs_godot.rs runs the same two loops with gdmarshal.
#
# Loop 1 alternates: 15 rounds of decode (the result freed) then encode. Loop 2 decodes alone,
# 15 times. Medians of each.
extends SceneTree


func median(v):
	v.sort()
	return v[v.size() / 2]


# One timed decode; the value is freed outside the timed part.
func timed_decode(bytes, out):
	var t = Time.get_ticks_usec()
	var v = bytes_to_var(bytes)
	out.append(Time.get_ticks_usec() - t)
	v = null


func _init():
	var items = []
	if "large_dictionaries" in OS.get_cmdline_user_args():
		for i in 200000:
			items.append({"id": i, "name": "enemy %d" % i, "hp": i * 0.5, "pos": Vector3(i, -1.5, 2.0), "alive": i % 2 == 0, "level": i % 100})
	else:
		for i in 50000:
			items.append({"id": i, "name": "enemy %d" % i, "hp": i * 0.5, "pos": Vector2(i, -1.5)})
	var bytes = var_to_bytes(items)
	var decode_us = []
	var encode_us = []
	for k in 15:
		timed_decode(bytes, decode_us)
		var t = Time.get_ticks_usec()
		var again = var_to_bytes(items)
		encode_us.append(Time.get_ticks_usec() - t)
	var alone_us = []
	for k in 15:
		timed_decode(bytes, alone_us)
	print("GDMARSHAL_BENCH bytes=%d decode_median_us=%d encode_median_us=%d decode_alone_median_us=%d" % [bytes.size(), median(decode_us), median(encode_us), median(alone_us)])
	quit()
