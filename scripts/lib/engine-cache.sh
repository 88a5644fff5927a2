# Shared by scripts/install-engines.sh and scripts/build-engine.sh: the engine cache, the
# machine's Debian mirror, private apt configurations, launchers, version probes and the manifest.
# Source it after `set -euo pipefail`; then call engine_cache_init.
#
# engine_cache_init sets: CACHE (the engine cache; GDMARSHAL_ENGINE_CACHE overrides), KEYRING,
# DEB_ARCH, TRIPLET, LOADER_NAME, APT_USER, RUN_ID, MIRROR (GDMARSHAL_DEBIAN_MIRROR overrides),
# and takes the cache's lock (file descriptor 9) so that one script at a time changes it.

log() { printf '%s\n' "$*" >&2; }

# The engine cache folder (not created).
engine_cache_dir() {
    printf '%s\n' "${GDMARSHAL_ENGINE_CACHE:-${XDG_CACHE_HOME:-${HOME:?HOME is not set}/.cache}/gdmarshal/engines}"
}

engine_cache_init() {
    KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
    local missing=() tool
    for tool in apt-get:apt dpkg:dpkg dpkg-deb:dpkg python3:python3 timeout:coreutils flock:util-linux find:findutils; do
        command -v "${tool%%:*}" >/dev/null 2>&1 || missing+=("${tool%%:*} (Debian package ${tool#*:})")
    done
    [ -r "$KEYRING" ] || missing+=("$KEYRING (Debian package debian-archive-keyring)")
    if [ ${#missing[@]} -gt 0 ]; then
        log "error: missing requirements:"
        for tool in "${missing[@]}"; do log "  - $tool"; done
        log "install them with apt-get install (this script needs a Debian system)."
        exit 1
    fi
    DEB_ARCH=$(dpkg --print-architecture)
    case $DEB_ARCH in
        amd64) TRIPLET=x86_64-linux-gnu; LOADER_NAME=ld-linux-x86-64.so.2 ;;
        arm64) TRIPLET=aarch64-linux-gnu; LOADER_NAME=ld-linux-aarch64.so.1 ;;
        *) log "error: unsupported architecture $DEB_ARCH (supported: amd64, arm64)"; exit 1 ;;
    esac
    APT_USER=$(id -un)
    CACHE=$(engine_cache_dir)
    mkdir -p "$CACHE/bin"
    CACHE=$(cd "$CACHE" && pwd -P)
    RUN_ID="$$-$(date +%s)"
    # One run at a time per cache.
    exec 9>"$CACHE/.lock"
    if ! flock -n 9; then
        log "another engine script holds $CACHE/.lock; waiting..."
        flock 9
    fi
    if ! MIRROR=$(find_mirror) || [ -z "$MIRROR" ]; then
        log "error: could not find the Debian archive mirror in /etc/apt/sources.list{,.d/*}"
        log "       (set GDMARSHAL_DEBIAN_MIRROR to the mirror's URI to override)"
        exit 1
    fi
}

# The Debian mirror URI the machine's own apt sources use (main archive, not security).
find_mirror() {
    if [ -n "${GDMARSHAL_DEBIAN_MIRROR:-}" ]; then
        printf '%s\n' "$GDMARSHAL_DEBIAN_MIRROR"
        return 0
    fi
    local codename=""
    if [ -r /etc/os-release ]; then
        # shellcheck source=/dev/null
        codename=$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-}")
    fi
    python3 - "$codename" <<'PY'
import glob, re, sys
codename = sys.argv[1]
entries = []  # (types, uris, suites, components, enabled)

def deb822(path):
    stanza, last = {}, None
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines() + [""]
    for line in lines:
        if line.startswith("#"):
            continue
        if not line.strip():
            if stanza:
                entries.append((stanza.get("types", "").split(), stanza.get("uris", "").split(),
                                stanza.get("suites", "").split(), stanza.get("components", "").split(),
                                stanza.get("enabled", "yes").strip().lower() not in ("no", "false", "0")))
            stanza, last = {}, None
            continue
        if line[0] in " \t" and last:
            stanza[last] += " " + line.strip()
            continue
        if ":" in line:
            key, val = line.split(":", 1)
            last = key.strip().lower()
            stanza[last] = val.strip()

def oneline(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            line = re.sub(r"\[[^\]]*\]", " ", line)
            parts = line.split()
            if len(parts) >= 3:
                entries.append(([parts[0]], [parts[1]], [parts[2]], parts[3:], True))

for p in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
    deb822(p)
for p in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
    try:
        oneline(p)
    except OSError:
        pass

known = {codename, "stable", "oldstable", "testing", "unstable", "sid"} - {""}
best = None
for types, uris, suites, comps, enabled in entries:
    if not enabled or "deb" not in types or "main" not in comps:
        continue
    for uri in uris:
        if "security" in uri or not re.match(r"^(https?|mirror\+\w+|mirror)://", uri):
            continue
        rank = 0 if codename in suites else (1 if known & set(suites) else None)
        if rank is not None and (best is None or rank < best[0]):
            best = (rank, uri)
if best is None:
    sys.exit(1)
print(best[1].rstrip("/"))
PY
}

# Private apt configuration for one suite: lists are shared per suite; status is empty.
# KIND "src" makes a deb-src configuration (for `apt-get source`) in its own folder.
apt_setup() { # suite [src] -> prints apt dir
    local suite=$1 kind=${2:-bin} d line
    if [ "$kind" = src ]; then
        d="$CACHE/.apt/src-$suite"
        line=$(printf 'deb-src [signed-by=%s] %s %s main' "$KEYRING" "$MIRROR" "$suite")
    else
        d="$CACHE/.apt/$suite"
        line=$(printf 'deb [signed-by=%s target=Packages] %s %s main' "$KEYRING" "$MIRROR" "$suite")
    fi
    mkdir -p "$d/state/lists/partial" "$d/sources.list.d" "$d/preferences.d" "$d/log"
    printf '%s\n' "$line" >"$d/sources.list"
    : >"$d/status"
    cat >"$d/apt.conf" <<'EOF'
// Private apt configuration of the gdmarshal engine scripts: no system hooks.
#clear APT::Update::Post-Invoke;
#clear APT::Update::Post-Invoke-Success;
#clear DPkg::Pre-Invoke;
#clear DPkg::Post-Invoke;
#clear DPkg::Pre-Install-Pkgs;
EOF
    printf '%s\n' "$d"
}

apt_run() { # aptdir archives-dir apt-get-args...
    local d=$1 archives=$2
    shift 2
    apt-get -c "$d/apt.conf" \
        -o "Dir::Etc::SourceList=$d/sources.list" \
        -o "Dir::Etc::SourceParts=$d/sources.list.d" \
        -o "Dir::Etc::Preferences=$d/preferences" \
        -o "Dir::Etc::PreferencesParts=$d/preferences.d" \
        -o "Dir::State=$d/state" \
        -o "Dir::State::status=$d/status" \
        -o "Dir::Cache=${archives%/*}" \
        -o "Dir::Cache::archives=$archives" \
        -o "Dir::Log=$d/log" \
        -o "APT::Sandbox::User=$APT_USER" \
        -o "APT::Architecture=$DEB_ARCH" \
        -o "APT::Architectures=$DEB_ARCH" \
        -o "Acquire::Languages=none" \
        -o "APT::Install-Recommends=false" \
        -o "APT::Install-Suggests=false" \
        "$@"
}

# Path of FILE (absolute inside ROOT) with symlinks resolved inside ROOT; prints host path.
resolve_in_root() { # root path
    python3 - "$1" "$2" <<'PY'
import os, sys
root, path = sys.argv[1], sys.argv[2]
parts = [p for p in path.split("/") if p]
cur, hops = [], 0
while parts:
    p = parts.pop(0)
    if p in ("", "."):
        continue
    if p == "..":
        if cur: cur.pop()
        continue
    host = os.path.join(root, *cur, p)
    if os.path.islink(host):
        hops += 1
        if hops > 40:
            sys.exit(1)
        target = os.readlink(host)
        if target.startswith("/"):
            cur = []
        parts = [q for q in target.split("/") if q] + parts
        continue
    cur.append(p)
host = os.path.join(root, *cur)
if not os.path.exists(host):
    sys.exit(1)
print(host)
PY
}

shell_quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

# Writes a launcher script for an engine root.
write_launcher() { # dest root loader libpath binary flags
    local dest=$1 root=$2 loader=$3 libpath=$4 binary=$5 flags=$6
    {
        printf '#!/bin/sh\n'
        printf '# Generated by the gdmarshal engine scripts: Godot from %s\n' "$root"
        printf 'exec %s --library-path %s %s' "$(shell_quote "$loader")" "$(shell_quote "$libpath")" "$(shell_quote "$binary")"
        [ -z "$flags" ] || printf ' %s' "$flags"
        printf ' "$@"\n'
    } >"$dest.tmp.$$"
    chmod 0755 "$dest.tmp.$$"
    mv -f "$dest.tmp.$$" "$dest"
}

# Runs LAUNCHER with a version-probe script; prints "version<TAB>string" on success.
# A third argument "project" runs it inside an empty project (export templates need one).
probe_engine() { # launcher logfile [project]
    local launcher=$1 logf=$2 scratch out
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/gdmarshal-probe.XXXXXX")
    cat >"$scratch/probe.gd" <<'EOF'
extends SceneTree

func _init():
	var v = Engine.get_version_info()
	print("GDMARSHAL_VERSION=%s.%s.%s.%s" % [v["major"], v["minor"], v["patch"], v["status"]])
	print("GDMARSHAL_VERSION_STRING=%s" % v.get("string", ""))
	quit()
EOF
    mkdir -p "$scratch/home"
    [ "${3:-}" != project ] || printf 'config_version=5\n' >"$scratch/home/project.godot"
    local rc=0
    (cd "$scratch/home" && env HOME="$scratch/home" XDG_DATA_HOME="$scratch/home/.local/share" \
        XDG_CONFIG_HOME="$scratch/home/.config" XDG_CACHE_HOME="$scratch/home/.cache" \
        timeout 60 "$launcher" -s "$scratch/probe.gd" </dev/null >"$logf" 2>&1 9>&-) || rc=$?
    rm -rf "$scratch"
    out=$(sed -n 's/^GDMARSHAL_VERSION=\([^[:space:]]*\).*/\1/p' "$logf" | head -n 1)
    if [ "$rc" -ne 0 ] || [ -z "$out" ]; then
        return 1
    fi
    printf '%s\t%s\n' "$out" "$(sed -n 's/^GDMARSHAL_VERSION_STRING=//p' "$logf" | head -n 1)"
}

show_log() { # name logfile
    [ -s "$2" ] || return 0
    tail -n 25 "$2" | sed "s/^/[$1]   | /" >&2
}

# Every engine of the cache that is marked ok (installed or built), in name order.
write_manifest() {
    python3 - "$CACHE" <<'PY2'
import json, os, sys
cache = sys.argv[1]
engines = []
for n in sorted(os.listdir(cache)):
    d = os.path.join(cache, n)
    if n.startswith(".") or not os.path.exists(os.path.join(d, ".ok")):
        continue
    try:
        with open(os.path.join(d, "engine.json")) as f:
            engines.append(json.load(f))
    except (OSError, ValueError):
        pass
tmp = os.path.join(cache, ".manifest.json.tmp")
with open(tmp, "w") as f:
    json.dump({"engines": engines}, f, indent=2)
    f.write("\n")
os.replace(tmp, os.path.join(cache, "manifest.json"))
PY2
}
