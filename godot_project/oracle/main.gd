extends SceneTree
# Entry point of the gdmarshal engine oracle, for every engine version.
#
# Run: godot --path godot_project -s res://oracle/main.gd --gdm-port=PORT
# It connects to 127.0.0.1:PORT and serves requests until the connection closes
# (protocol: godot_project/README.md). This file uses only syntax that both
# GDScript 1 (3.x) and GDScript 2 (4.x) parse; the real work is in oracle3.gd or
# oracle4.gd, loaded by major version so that each engine parses only its own.


func _init():
	var port = 0
	for arg in OS.get_cmdline_args():
		if arg.begins_with("--gdm-port="):
			port = int(arg.substr(11))
	if port <= 0:
		printerr("@gdm:fatal:missing --gdm-port=PORT")
		quit(2)
		return
	var major = Engine.get_version_info()["major"]
	var path = "res://oracle/oracle4.gd"
	if major == 3:
		path = "res://oracle/oracle3.gd"
	var script = load(path)
	if script == null:
		printerr("@gdm:fatal:cannot load " + path)
		quit(3)
		return
	var oracle = script.new()
	oracle.run(port)
	quit()
