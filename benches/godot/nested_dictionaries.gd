# Godot's own encoder and decoder on the codec benchmark's `nested_dictionaries` family: the same
# 50,000 dictionaries, which encode to the same 5,199,608 bytes. Run by scripts/bench-godot.sh.
extends SceneTree


func _init():
	var items = []
	for i in 50000:
		items.append({"id": i, "name": "enemy %d" % i, "hp": i * 0.5, "pos": Vector2(i, -1.5)})
	var bytes = var_to_bytes(items)
	var decode_us = []
	var encode_us = []
	for k in 15:
		var t = Time.get_ticks_usec()
		var v = bytes_to_var(bytes)
		decode_us.append(Time.get_ticks_usec() - t)
		v = null
		t = Time.get_ticks_usec()
		var again = var_to_bytes(items)
		encode_us.append(Time.get_ticks_usec() - t)
	decode_us.sort()
	encode_us.sort()
	print("GDMARSHAL_BENCH bytes=%d decode_median_us=%d encode_median_us=%d" % [bytes.size(), decode_us[7], encode_us[7]])
	quit()
