#!/usr/bin/env bash
# Packs one installed engine (scripts/install-engines.sh) into a folder that runs it from anywhere,
# with nothing else on the machine: the engine binary, the shared libraries its loader loads
# (`ld.so --list` inside its root), that loader, a launcher with paths relative to itself, a
# manifest naming it (launcher relative to the folder) and the oracle's Godot project.
# .clusterfuzzlite/build.sh packs the engine the differential fuzz target starts this way into
# $OUT/differential-engine (fuzz/fuzz_targets/differential.rs finds it beside itself).
#
# Usage: scripts/pack-engine.sh NAME DEST     (NAME as `gdmarshal engines` shows it, e.g. 4.6)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/lib/engine-cache.sh
. "$root/scripts/lib/engine-cache.sh"
[ $# -eq 2 ] || { sed -n '9p' "$0" | sed 's/^# //' >&2; exit 2; }
name=$1 dest=$2
cache=$(engine_cache_dir)
launcher=$cache/bin/godot-$name
[ -x "$launcher" ] || { log "pack-engine: no engine $name in $cache (scripts/install-engines.sh --only $name)"; exit 1; }

# The launcher's one exec line: 'LOADER' --library-path 'LIBPATH' 'BINARY' [FLAGS] "$@".
mapfile -t words < <(python3 - "$launcher" <<'PY'
import shlex, sys
line = next(l for l in open(sys.argv[1]) if l.startswith("exec "))
words = shlex.split(line)[1:]
assert words[1] == "--library-path" and words[-1] == "$@", line
print("\n".join(words[:-1]))
PY
)
loader=${words[0]} libpath=${words[2]} binary=${words[3]}
flags=("${words[@]:4}")

rm -rf "$dest"
mkdir -p "$dest/lib" "$dest/bin"
# The libraries the loader resolves, each by the name the binary asks for.
"$loader" --library-path "$libpath" --list "$binary" |
    awk '$2 == "=>" && $1 !~ /\// && $3 ~ /^\// { print $1 "\t" $3 }' |
    while IFS=$'\t' read -r soname path; do
        cp -L "$path" "$dest/lib/$soname"
    done
cp -L "$loader" "$dest/lib/$(basename "$loader")"
cp -L "$binary" "$dest/bin/$(basename "$binary")"
cp -R "$root/godot_project" "$dest/godot_project"
{
    printf '#!/bin/sh\n'
    printf '# Godot %s packed by scripts/pack-engine.sh: every path relative to this file.\n' "$name"
    # shellcheck disable=SC2016 # written for the launcher to expand
    printf 'here=$(cd "$(dirname "$0")" && pwd)\n'
    # shellcheck disable=SC2016
    printf 'exec "$here/lib/%s" --library-path "$here/lib" "$here/bin/%s"' "$(basename "$loader")" "$(basename "$binary")"
    [ ${#flags[@]} -eq 0 ] || printf ' %s' "${flags[@]}"
    printf ' "$@"\n'
} >"$dest/godot"
chmod 0755 "$dest/godot"
version=$(python3 -c 'import json,sys; print(next(e.get("version","") for e in json.load(open(sys.argv[1]))["engines"] if e["name"] == sys.argv[2]))' "$cache/manifest.json" "$name")
printf '{"engines":[{"name":"%s","version":"%s","launcher":"godot"}]}\n' "$name" "$version" >"$dest/manifest.json"
echo "pack-engine: Godot $name ($version) in $dest: $(du -sh "$dest" | cut -f1)"
