#!/usr/bin/env bash
# Build Godot 4.6 from Debian's source package into the engine cache, in two variants the
# Debian binaries cannot give:
#
#   4.6-double    precision=double (real_t is a double): the engine behind the 4.x-double profiles
#   4.6-coverage  single precision, compiled with gcc --coverage (-ftest-coverage -fprofile-arcs) and -O0, so that
#                 scripts/engine-coverage.sh can measure which lines of core/io/marshalls.cpp the
#                 corpus and the campaigns reach
#
# Both are headless templates with only what the oracle needs: GDScript and the core and scene
# classes; no editor, 3D, advanced GUI, physics, navigation, XR, rendering or audio drivers.
# template_debug (not release) keeps the debug run-time checks of GDScript that the editor build
# behind the 4.6.3 corpus has; disable_path_overrides=no lets it take `--path` (the oracle's
# project folder) like an editor build.
#
# Source: `apt-get source` through a private deb-src configuration for suite sid of the machine's
# own Debian mirror (scripts/lib/engine-cache.sh); only the upstream tarball is used (Debian's
# patches concern packaging and system libraries). The +ds tarball lacks Godot's bundled zlib,
# zstd, libpng and mbedTLS (core crypto needs it): the system's -dev packages are used instead
# (installed with apt-get).
#
# Layout (CACHE as in scripts/install-engines.sh):
#   CACHE/.src/godot_<version>.orig.tar.xz  the fetched tarball (checked against its SHA-256)
#   CACHE/<name>/src/                       the source tree, built in place (coverage data is
#                                           written next to the objects, so the tree must stay)
#   CACHE/<name>/build.log                  scons output; CACHE/<name>/engine.json, .ok
#   CACHE/bin/godot-<name>                  launcher; CACHE/manifest.json lists it with the others
# An interrupted build resumes where it stopped (scons is incremental); a finished one is reused.
#
# --source DIR builds a Godot 4 source tree of your own (a branch, a pull request) with the same
# options, in place: scons writes DIR/bin/godot.linuxbsd.template_debug.x86_64 (.double.x86_64 with
# --variant double), and nothing else in the tree is changed but for adding the certificate bundle
# a +ds tree lacks. The engine is then registered by name with `gdmarshal engines add NAME PATH`
# (--add NAME does it here) and compared with `gdmarshal corpus check --engine NAME --against V`.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/engine-cache.sh
. scripts/lib/engine-cache.sh
# shellcheck source=scripts/lib/campaign-log.sh
. scripts/lib/campaign-log.sh # gdmarshal_bin: $GDMARSHAL_BIN, else this checkout's release build

ALL_VARIANTS=(double coverage)
SOURCE_PACKAGE=godot
SOURCE_SUITE=sid
BUILD_PACKAGES=(scons pkg-config g++ zlib1g-dev libpng-dev libzstd-dev libmbedtls-dev gcovr xz-utils curl)

usage() {
    cat <<'EOF'
Usage: scripts/build-engine.sh [--variant double|coverage|all] [--jobs N] [--force] [--help]
       scripts/build-engine.sh --source DIR [--variant single|double] [--add NAME] [--jobs N]

Builds headless Godot 4.6 engines from Debian's source package into the engine cache:
  double    4.6-double: precision=double          (launcher CACHE/bin/godot-4.6-double)
  coverage  4.6-coverage: gcc --coverage, -O0      (launcher CACHE/bin/godot-4.6-coverage)

With --source, builds the Godot 4 source tree DIR (yours: a branch, a pull request) with the same
options, in place, and prints the engine binary's path:
  single    single precision, as the official builds (default)
  double    precision=double

Options:
  --variant V  which to build (default: all; with --source: single)
  --source DIR build this source tree instead of Debian's
  --add NAME   with --source: register the built engine as NAME (gdmarshal engines add;
               the gdmarshal of $GDMARSHAL_BIN, else this checkout's release build)
  --jobs N     parallel compile jobs (default: the number of cores)
  --force      rebuild from a fresh source tree even if the engine is built and runs
  -h, --help   show this help

Installs its build tools with apt-get (scons, g++, pkg-config, zlib, libpng, zstd, gcovr).
Time and disk use on a 2-core machine: docs/engine-coverage.md.
EOF
}

VARIANTS=()
JOBS=$(nproc 2>/dev/null || echo 2)
FORCE=0
SOURCE=
ADD=
while [ $# -gt 0 ]; do
    case $1 in
        --variant)
            [ $# -ge 2 ] || { log "error: --variant needs a value"; exit 2; }
            case $2 in
                all) VARIANTS=("${ALL_VARIANTS[@]}") ;;
                single | double | coverage) VARIANTS+=("$2") ;;
                *) log "error: unknown variant '$2' (known: ${ALL_VARIANTS[*]}, all)"; exit 2 ;;
            esac
            shift 2
            ;;
        --jobs)
            [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || { log "error: --jobs needs a positive number"; exit 2; }
            JOBS=$2
            shift 2
            ;;
        --source | --add)
            [ $# -ge 2 ] && [ -n "$2" ] || { log "error: $1 needs a value"; exit 2; }
            if [ "$1" = --source ]; then SOURCE=$2; else ADD=$2; fi
            shift 2
            ;;
        --force) FORCE=1; shift ;;
        -h | --help) usage; exit 0 ;;
        *) log "error: unknown argument: $1 (see --help)"; exit 2 ;;
    esac
done
if [ -n "$SOURCE" ]; then
    [ ${#VARIANTS[@]} -le 1 ] || { log "error: --source builds one variant at a time"; exit 2; }
    [ ${#VARIANTS[@]} -eq 1 ] || VARIANTS=(single)
    case ${VARIANTS[0]} in single | double) ;; *) log "error: --source builds single or double"; exit 2 ;; esac
else
    [ -z "$ADD" ] || { log "error: --add names a --source build"; exit 2; }
    for v in "${VARIANTS[@]}"; do
        [ "$v" != single ] || { log "error: the single-precision build of Debian's tree is Debian's own engine (scripts/install-engines.sh)"; exit 2; }
    done
    [ ${#VARIANTS[@]} -gt 0 ] || VARIANTS=("${ALL_VARIANTS[@]}")
fi

engine_cache_init

# SCons options shared by both variants: a headless template with GDScript and nothing else.
COMMON_OPTS=(platform=linuxbsd target=template_debug
    modules_enabled_by_default=no module_gdscript_enabled=yes
    disable_3d=yes disable_advanced_gui=yes disable_physics_2d=yes disable_physics_3d=yes
    disable_navigation_2d=yes disable_navigation_3d=yes disable_xr=yes
    x11=no wayland=no vulkan=no opengl3=no alsa=no pulseaudio=no dbus=no speechd=no
    fontconfig=no udev=no sdl=no accesskit=no
    module_mbedtls_enabled=yes builtin_mbedtls=no
    builtin_zlib=no builtin_zstd=no builtin_libpng=no builtin_certs=no brotli=no minizip=no
    disable_path_overrides=no scu_build=yes)

variant_opts() {
    case $1 in
        single) ;;
        double) echo precision=double ;;
        coverage) echo use_coverage=yes optimize=none ;;
    esac
}

# ---------------------------------------------------------------- build tools
install_build_tools() {
    local missing=() p
    for p in "${BUILD_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    [ ${#missing[@]} -gt 0 ] || return 0
    log "installing build tools: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q --no-install-recommends "${missing[@]}" >"$CACHE/.build-tools.log" 2>&1 || {
        apt-get update -q >>"$CACHE/.build-tools.log" 2>&1 &&
            apt-get install -y -q --no-install-recommends "${missing[@]}" >>"$CACHE/.build-tools.log" 2>&1
    } || { log "error: apt-get install ${missing[*]} failed"; show_log tools "$CACHE/.build-tools.log"; exit 1; }
}

# ---------------------------------------------------------------- source
# Prints the path of the verified upstream tarball, fetching it if needed.
fetch_source() {
    local aptdir work line uri file sha
    mkdir -p "$CACHE/.src"
    aptdir=$(apt_setup "$SOURCE_SUITE" src)
    work="$CACHE/.src/work"
    rm -rf "$work"
    mkdir -p "$work/archives/partial"
    log "resolving the $SOURCE_PACKAGE source package in $SOURCE_SUITE..."
    apt_run "$aptdir" "$work/archives" --error-on=any update >"$work/update.log" 2>&1 ||
        { log "error: apt-get update (deb-src $SOURCE_SUITE) failed"; show_log src "$work/update.log"; exit 1; }
    (cd "$work" && apt_run "$aptdir" "$work/archives" -q --print-uris source "$SOURCE_PACKAGE") >"$work/uris.log" 2>&1 ||
        { log "error: apt-get source --print-uris $SOURCE_PACKAGE failed"; show_log src "$work/uris.log"; exit 1; }
    line=$(grep -E "^'[^']*\.orig\.tar\.[a-z0-9]+' " "$work/uris.log" | head -n 1)
    [ -n "$line" ] || { log "error: no upstream tarball in the source package"; show_log src "$work/uris.log"; exit 1; }
    uri=$(printf '%s' "$line" | awk '{print $1}' | tr -d "'")
    file=$(printf '%s' "$line" | awk '{print $2}')
    sha=$(printf '%s' "$line" | grep -o 'SHA256:[0-9a-f]*' | cut -d: -f2)
    if [ -s "$CACHE/.src/$file" ] && [ -n "$sha" ] && echo "$sha  $CACHE/.src/$file" | sha256sum -c --quiet - 2>/dev/null; then
        log "source: $file (cached)"
    else
        log "downloading $file..."
        curl -fsSL --retry 3 -o "$CACHE/.src/$file.part" "$uri" ||
            { log "error: download of $file failed"; exit 1; }
        if [ -n "$sha" ] && ! echo "$sha  $CACHE/.src/$file.part" | sha256sum -c --quiet -; then
            log "error: $file does not match its SHA-256 ($sha)"
            exit 1
        fi
        mv -f "$CACHE/.src/$file.part" "$CACHE/.src/$file"
    fi
    rm -rf "$work"
    printf '%s\n' "$CACHE/.src/$file"
}

# ---------------------------------------------------------------- one variant
write_exec_launcher() { # dest binary variant
    {
        printf '#!/bin/sh\n'
        printf '# Generated by scripts/build-engine.sh: Godot built from source\n'
        # -O0 frames are large: the deepest corpus cases need more than the default 8 MiB of
        # stack, and a crash would lose the coverage counters of the whole process.
        [ "$3" != coverage ] || printf 'ulimit -s unlimited 2>/dev/null || ulimit -s 1048576 2>/dev/null\n'
        printf 'exec %s --headless "$@"\n' "$(shell_quote "$2")"
    } >"$1.tmp.$$"
    chmod 0755 "$1.tmp.$$"
    mv -f "$1.tmp.$$" "$1"
}

# Unpacks (when needed) and runs scons; writes build-stats (seconds, whether from a fresh tree, jobs).
compile_variant() { # tarball dir name
    local tarball=$1 dir=$2 name=$3 fresh=false
    if [ "$FORCE" -eq 1 ] || [ ! -e "$dir/src/SConstruct" ] || [ "$(cat "$dir/tarball" 2>/dev/null)" != "$(basename "$tarball")" ]; then
        rm -rf "$dir"
        mkdir -p "$dir/src"
        log "[$name] unpacking $(basename "$tarball")..."
        tar -xf "$tarball" -C "$dir/src" --strip-components=1
        basename "$tarball" >"$dir/tarball"
        fresh=true
    fi
    # The +ds tarball drops Godot's bundled certificate file, which the build reads even with
    # builtin_certs=no; the oracle makes no TLS connection, so the system's bundle (or none) does.
    if [ ! -e "$dir/src/thirdparty/certs/ca-bundle.crt" ]; then
        mkdir -p "$dir/src/thirdparty/certs"
        cat /etc/ssl/certs/ca-certificates.crt >"$dir/src/thirdparty/certs/ca-bundle.crt" 2>/dev/null || true
    fi
    # zstd.h of zstd before 1.5.6 (bookworm has 1.5.4) does not include zstd_errors.h, which
    # declares the ZSTD_getErrorCode that core/io/delta_encoding.cpp calls.
    if ! grep -q '<zstd_errors.h>' "$dir/src/core/io/delta_encoding.cpp"; then
        sed -i 's|^#include <zstd.h>$|#include <zstd.h>\n#include <zstd_errors.h>|' "$dir/src/core/io/delta_encoding.cpp"
    fi
    printf '%s\n' "${OPTS[@]}" >"$dir/scons-options.txt"
    log "[$name] scons -j$JOBS ${OPTS[*]}"
    log "[$name] building (log: $dir/build.log)..."
    local start=$SECONDS
    (cd "$dir/src" && nice scons -j"$JOBS" "${OPTS[@]}") >"$dir/build.log" 2>&1 ||
        { log "[$name] FAILED: scons"; show_log "$name" "$dir/build.log"; exit 1; }
    printf '%s %s %s\n' "$((SECONDS - start))" "$fresh" "$JOBS" >"$dir/build-stats"
}

build_variant() { # variant tarball
    local variant=$1 tarball=$2 name="4.6-$1"
    local dir="$CACHE/$name" launcher="$CACHE/bin/godot-$name" got binary
    # shellcheck disable=SC2207 # options are single words
    OPTS=("${COMMON_OPTS[@]}" $(variant_opts "$variant"))
    # A built engine that still runs is kept; its launcher and manifest entry are rewritten.
    if [ "$FORCE" -eq 1 ] || [ ! -e "$dir/.ok" ] || [ ! -s "$dir/build-stats" ] ||
        ! probe_engine "$launcher" "$CACHE/.probe-$name.log" project >/dev/null; then
        if [ -e "$dir/.ok" ] && [ "$FORCE" -eq 0 ]; then log "[$name] built engine no longer runs; rebuilding"; fi
        rm -f "$dir/.ok"
        compile_variant "$tarball" "$dir" "$name"
    else
        log "[$name] built (cached)"
    fi
    rm -f "$CACHE/.probe-$name.log"
    binary=$(find "$dir/src/bin" -maxdepth 1 -type f -name 'godot.linuxbsd.template_debug.*' ! -name '*.debug' | head -n 1)
    [ -n "$binary" ] || { log "[$name] FAILED: no engine binary in $dir/src/bin"; exit 1; }
    write_exec_launcher "$launcher" "$binary" "$variant"
    got=$(probe_engine "$launcher" "$dir/probe.log" project) || { log "[$name] FAILED: first run"; show_log "$name" "$dir/probe.log"; exit 1; }
    local secs fresh jobs disk
    read -r secs fresh jobs <"$dir/build-stats"
    disk=$(du -sm "$dir" | cut -f1)
    NAME=$name VERSION=${got%%$'\t'*} VSTRING=${got#*$'\t'} LAUNCHER=$launcher BINARY=$binary \
        TARBALL=$(basename "$tarball") SECS=$secs FRESH=$fresh DISK=$disk JOBS=$jobs OPTS="${OPTS[*]}" \
        python3 - "$dir/engine.json" <<'PY'
import json, os, sys
e = os.environ
coverage = e["NAME"].endswith("-coverage")
info = {"name": e["NAME"], "version": e["VERSION"], "version_string": e["VSTRING"],
        "launcher": e["LAUNCHER"], "binary": e["BINARY"], "built_from": e["TARBALL"],
        "scons_options": e["OPTS"].split(), "build_seconds": int(e["SECS"]),
        # Whether build_seconds is a whole build from a fresh tree (not a resumed one).
        "full_build": e["FRESH"] == "true",
        "build_jobs": int(e["JOBS"]), "disk_mb": int(e["DISK"]), "launcher_flags": ["--headless"],
        # The coverage build measures; "every engine" (no --engine given) leaves it out, and it
        # is let exit on its own (it writes its counters at exit) rather than killed at once.
        "in_all": not coverage,
        "exit_grace_secs": 60 if coverage else 0}
with open(sys.argv[1] + ".tmp", "w") as f:
    json.dump(info, f, indent=2)
    f.write("\n")
os.replace(sys.argv[1] + ".tmp", sys.argv[1])
PY
    touch "$dir/.ok"
    log "[$name] ok: ${got%%$'\t'*}, built in $((secs / 60)) min $((secs % 60)) s with $jobs jobs, $disk MB"
}

# ---------------------------------------------------------------- a tree of one's own
# The binary scons writes for a variant: bin/godot.linuxbsd.template_debug[.double].ARCH.
source_binary() { # dir variant
    local arch=x86_64 suffix=
    # engine_cache_init accepts amd64 and arm64 only; Godot names them x86_64 and arm64.
    [ "$DEB_ARCH" != arm64 ] || arch=arm64
    [ "$2" != double ] || suffix=.double
    printf '%s/bin/godot.linuxbsd.template_debug%s.%s\n' "$1" "$suffix" "$arch"
}

build_source() { # dir variant
    local dir variant=$2 binary got logf="$CACHE/.source-build.log"
    dir=$(cd "$1" 2>/dev/null && pwd -P) || { log "error: --source $1: no such folder"; exit 2; }
    if [ ! -f "$dir/SConstruct" ] || [ ! -f "$dir/core/io/marshalls.cpp" ] || [ ! -f "$dir/version.py" ]; then
        log "error: $dir is not a Godot source tree (SConstruct, version.py and core/io/marshalls.cpp expected)"
        exit 2
    fi
    grep -Eq '^major *= *4\b' "$dir/version.py" ||
        { log "error: $dir is not Godot 4 (version.py: $(grep -E '^(major|minor) *=' "$dir/version.py" | tr '\n' ' '))"; exit 2; }
    # shellcheck disable=SC2207 # options are single words
    OPTS=("${COMMON_OPTS[@]}" $(variant_opts "$variant"))
    # A +ds tree (Debian's) lacks the certificate bundle the build reads even with builtin_certs=no.
    if [ ! -e "$dir/thirdparty/certs/ca-bundle.crt" ]; then
        log "[source] adding thirdparty/certs/ca-bundle.crt (missing from the tree) from the system's bundle"
        mkdir -p "$dir/thirdparty/certs"
        cat /etc/ssl/certs/ca-certificates.crt >"$dir/thirdparty/certs/ca-bundle.crt" 2>/dev/null || true
    fi
    # The tree is left as it is: where the system's zstd.h (before 1.5.6) lacks zstd_errors.h and
    # the tree does not include it either, the compiler is told to (see compile_variant).
    if ! grep -q '<zstd_errors.h>' "$dir/core/io/delta_encoding.cpp" 2>/dev/null &&
        ! grep -q 'zstd_errors.h' /usr/include/zstd.h 2>/dev/null; then
        # Godot 4.3 renamed the option that adds compiler flags to lower case.
        if grep -q '"cxxflags"' "$dir/SConstruct"; then
            OPTS+=("cxxflags=-include zstd_errors.h")
        else
            OPTS+=("CXXFLAGS=-include zstd_errors.h")
        fi
    fi
    log "[source] scons -j$JOBS ${OPTS[*]}"
    log "[source] building $dir (log: $logf)..."
    local start=$SECONDS
    (cd "$dir" && nice scons -j"$JOBS" "${OPTS[@]}") >"$logf" 2>&1 ||
        { log "[source] FAILED: scons"; show_log source "$logf"; exit 1; }
    binary=$(source_binary "$dir" "$variant")
    [ -x "$binary" ] || { log "[source] FAILED: scons wrote no $binary"; exit 1; }
    write_exec_launcher "$CACHE/.source-launcher" "$binary" "$variant"
    got=$(probe_engine "$CACHE/.source-launcher" "$CACHE/.source-probe.log" project) ||
        { log "[source] FAILED: first run"; show_log source "$CACHE/.source-probe.log"; exit 1; }
    rm -f "$CACHE/.source-launcher" "$CACHE/.source-probe.log"
    log "[source] ok: ${got#*$'\t'} in $(((SECONDS - start) / 60)) min $(((SECONDS - start) % 60)) s"
    printf '%s\n' "$binary"
    if [ -n "$ADD" ]; then
        exec 9>&- # gdmarshal takes the cache's lock itself
        "$(gdmarshal_bin)" engines add --force "$ADD" "$binary"
    else
        log "register it: gdmarshal engines add NAME $(shell_quote "$binary")"
    fi
}

# ---------------------------------------------------------------- main
install_build_tools
if [ -n "$SOURCE" ]; then
    build_source "$SOURCE" "${VARIANTS[0]}"
    exit 0
fi
TARBALL=$(fetch_source)
FAILED=()
for v in "${VARIANTS[@]}"; do
    set +e
    (set -e; build_variant "$v" "$TARBALL")
    rc=$?
    set -e
    [ "$rc" -eq 0 ] || FAILED+=("4.6-$v")
done
write_manifest
if [ ${#FAILED[@]} -gt 0 ]; then
    log "error: failed builds: ${FAILED[*]}"
    exit 1
fi
log "built engines ok; manifest: $CACHE/manifest.json"
