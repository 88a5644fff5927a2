extends SceneTree
# Entry point of the gdmarshal engine oracle, for every engine version.
#
# Run: GDM_PORT=PORT GDM_SECRET=SECRET godot --path godot_project -s res://oracle/main.gd
# It connects to 127.0.0.1:PORT, presents SECRET in its first frame, and serves requests
# until the connection closes (protocol: godot_project/README.md). The port and the secret
# come from the environment, which other users cannot read, never from the command line. This file uses only syntax that both
# GDScript 1 (3.x) and GDScript 2 (4.x) parse; the real work is in oracle3.gd or
# oracle4.gd, loaded by major version so that each engine parses only its own.


func _init():
	var port = int(OS.get_environment("GDM_PORT"))
	var secret = OS.get_environment("GDM_SECRET")
	if port <= 0 or secret == "":
		printerr("@gdm:fatal:missing GDM_PORT or GDM_SECRET in the environment")
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
	# This object, the one of its script, stands for objects of it asked for by id (4.x; a
	# property 3.x's oracle lacks is not set).
	oracle.set("main_object", self)
	oracle.run(port, secret)
	quit()
