#!/usr/bin/env bash
# Install the real headless Godot engines that lab/godot-versions.tsv takes from Debian
# packages (its debian:SUITE:PACKAGE lines) into a private cache, without touching the
# system's dpkg state.
#
# Per engine: a private apt configuration (same Debian mirror URI as the machine's
# own apt sources, the wanted suite, an empty dpkg status file, private lists /
# cache / archives dirs) downloads the package's whole dependency closure with
# `apt-get install --download-only`; every .deb is unpacked with `dpkg -x` into one
# root folder; a launcher runs the engine through that root's own dynamic loader.
# Each engine is verified by running it once; only then is it marked ok.
#
# Layout (CACHE = ${GDMARSHAL_ENGINE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gdmarshal/engines}):
#   CACHE/<name>/root/         unpacked packages
#   CACHE/<name>/engine.json   what was installed (also merged into CACHE/manifest.json)
#   CACHE/<name>/packages.txt  every unpacked package and its version
#   CACHE/<name>/.ok           written only after a verified run
#   CACHE/bin/godot-<name>     launcher (passes "$@" through; 4.x adds --headless)
#   CACHE/manifest.json        {"engines":[{name, version, launcher, package, ...}]}
#
# Environment: GDMARSHAL_ENGINE_CACHE (cache dir), GDMARSHAL_DEBIAN_MIRROR (mirror URI
# to use instead of the one read from the machine's apt sources).
set -euo pipefail

# The engines, from the one table of Godot versions: name, suite, package, binary, flags.
VERSIONS_TABLE="$(cd "$(dirname "$0")/.." && pwd)/lab/godot-versions.tsv"
debian_rows() {
    awk -F'\t' '!/^#/ && NF && $1 != "name" && $2 ~ /^debian:/ {
        split($2, s, ":"); print $1 "\t" s[2] "\t" s[3] "\t" $3 "\t" ($4 == "-" ? "" : $4)
    }' "$VERSIONS_TABLE"
}
mapfile -t ALL_ENGINES < <(debian_rows | cut -f1)
# Official release builds (official:TAG lines): installed by the command line, only when named
# with --only (they need internet access).
official_rows() {
    awk -F'\t' '!/^#/ && NF && $1 != "name" && $2 ~ /^official:/ { sub(/^official:/, "", $2); print $1 "\t" $2 }' "$VERSIONS_TABLE"
}
mapfile -t OFFICIAL_ENGINES < <(official_rows | cut -f1)
[ ${#ALL_ENGINES[@]} -gt 0 ] || { echo "install-engines: no debian: line in $VERSIONS_TABLE" >&2; exit 1; }
column_of() { # NAME COLUMN
    debian_rows | awk -F'\t' -v n="$1" -v c="$2" '$1 == n { print $c }'
}

usage() {
    cat <<'EOF'
Usage: scripts/install-engines.sh [--only NAME[,NAME...]] [--force] [--help]
       scripts/install-engines.sh --official VERSION... [--from BASE] [--force]

Installs real headless Godot engines from Debian packages into a private cache
(no change to the system's installed packages) and writes launchers and a manifest.
The engines are the lines of lab/godot-versions.tsv:

EOF
    debian_rows | awk -F'\t' '{ printf "  %-5s %s from %s%s\n", $1, $3, $2, ($5 ? " (run with " $5 ")" : "") }'
    official_rows | awk -F'\t' '{ printf "  %-5s Godot'"'"'s official build %s (with --only %s; needs internet)\n", $1, $2, $1 }'
    cat <<'EOF'

Options:
  --official VERSIONS...  instead, install Godot's official release builds of these versions
                (e.g. 4.3 3.5.3): `gdmarshal engines install`, which checks each against the
                release's SHA512-SUMS.txt; --from BASE (or GDMARSHAL_RELEASES_URL) names a mirror
                URL or a local folder laid out as BASE/<tag>/<file>. Runs $GDMARSHAL_BIN, else
                gdmarshal on PATH, else this repository's build (cargo run).
  --only NAMES  install only these engines (comma separated, e.g. --only 3.6,4.6)
  --force       reinstall even if an engine is already installed and working
  -h, --help    show this help

Cache: ${GDMARSHAL_ENGINE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gdmarshal/engines}
Launchers: CACHE/bin/godot-NAME; manifest: CACHE/manifest.json
Needs root (or a user that apt lets write the cache), apt, dpkg and python3.
EOF
}

engine_suite() { column_of "$1" 2; }
engine_package() { column_of "$1" 3; }
engine_binary() { column_of "$1" 4; }
engine_flags() { column_of "$1" 5; }

# shellcheck source=scripts/lib/engine-cache.sh
. "$(dirname "$0")/lib/engine-cache.sh"

# ---------------------------------------------------------------- official releases
# One implementation of fetching, checking and unpacking: the command line's. It takes the
# cache's lock itself, so it runs before engine_cache_init.
gdmarshal_cli() { # args...
    if [ -n "${GDMARSHAL_BIN:-}" ]; then
        "$GDMARSHAL_BIN" "$@"
    elif command -v gdmarshal >/dev/null 2>&1; then
        gdmarshal "$@"
    else
        (cd "$(dirname "$0")/.." && cargo run --quiet --release -p gdmarshal-cli -- "$@")
    fi
}
for arg in "$@"; do
    if [ "$arg" = --official ]; then
        args=()
        for a in "$@"; do [ "$a" = --official ] || args+=("$a"); done
        [ ${#args[@]} -gt 0 ] || { log "error: --official needs at least one VERSION"; exit 2; }
        gdmarshal_cli engines install "${args[@]}"
        exit $?
    fi
done

# ---------------------------------------------------------------- options
ONLY=""
FORCE=0
while [ $# -gt 0 ]; do
    case $1 in
        --only)
            [ $# -ge 2 ] || { log "error: --only needs a value"; exit 2; }
            ONLY=$2
            shift 2
            ;;
        --only=*)
            ONLY=${1#--only=}
            shift
            ;;
        --force) FORCE=1; shift ;;
        -h | --help) usage; exit 0 ;;
        *) log "error: unknown argument: $1 (see --help)"; exit 2 ;;
    esac
done

SELECTED=()
OFFICIAL_SELECTED=()
if [ -n "$ONLY" ]; then
    IFS=',' read -r -a wanted <<<"$ONLY"
    for w in "${wanted[@]}"; do
        [ -n "$w" ] || continue
        case " ${OFFICIAL_ENGINES[*]:-} " in
            *" $w "*) OFFICIAL_SELECTED+=("$w"); continue ;;
        esac
        case " ${ALL_ENGINES[*]} " in
            *" $w "*) ;;
            *) log "error: unknown engine '$w' (known: ${ALL_ENGINES[*]} ${OFFICIAL_ENGINES[*]:-})"; exit 2 ;;
        esac
        case " ${SELECTED[*]:-} " in *" $w "*) ;; *) SELECTED+=("$w") ;; esac
    done
    [ ${#SELECTED[@]} -gt 0 ] || [ ${#OFFICIAL_SELECTED[@]} -gt 0 ] || { log "error: --only names no engine"; exit 2; }
else
    SELECTED=("${ALL_ENGINES[@]}")
fi
for name in "${OFFICIAL_SELECTED[@]:-}"; do
    [ -n "$name" ] || continue
    tag=$(official_rows | awk -F'\t' -v n="$name" '$1 == n { print $2 }')
    force=()
    [ "$FORCE" -eq 0 ] || force=(--force)
    gdmarshal_cli engines install "$tag" --name "$name" "${force[@]}" || { log "error: official engine $name ($tag) not installed"; exit 1; }
done
[ ${#SELECTED[@]} -gt 0 ] || exit 0

engine_cache_init

# ---------------------------------------------------------------- install one engine
# Runs in a subshell; exits non-zero after printing the failing step and its error.
install_engine() {
    local name=$1
    local pkg suite binpath flags final build aptdir archives root logs launcher
    pkg=$(engine_package "$name")
    suite=$(engine_suite "$name")
    binpath=$(engine_binary "$name")
    flags=$(engine_flags "$name")
    final="$CACHE/$name"
    build="$CACHE/.build-$name"
    launcher="$CACHE/bin/godot-$name"

    fail() { # step [logfile]
        log "[$name] FAILED at step: $1"
        [ -z "${2:-}" ] || show_log "$name" "$2"
        exit 1
    }

    # Already installed and working?
    if [ "$FORCE" -eq 0 ] && [ -e "$final/.ok" ] && [ -x "$launcher" ] && [ -s "$final/engine.json" ]; then
        local got
        if got=$(probe_engine "$launcher" "$CACHE/.probe-$name.log"); then
            log "[$name] ok (cached): ${got%%$'\t'*}"
            rm -f "$CACHE/.probe-$name.log"
            return 0
        fi
        log "[$name] installed engine no longer runs; reinstalling"
        show_log "$name" "$CACHE/.probe-$name.log"
    fi

    rm -rf "$build"
    trap 'rm -rf "$build"' EXIT
    archives="$build/apt-cache/archives"
    root="$build/root"
    logs="$build/logs"
    mkdir -p "$archives/partial" "$root" "$logs"

    aptdir=$(apt_setup "$suite") || fail "apt setup"
    if [ "$(cat "$aptdir/updated-run" 2>/dev/null || true)" != "$RUN_ID" ]; then
        log "[$name] apt-get update ($suite)..."
        apt_run "$aptdir" "$archives" --error-on=any update >"$logs/update.log" 2>&1 ||
            fail "apt-get update ($suite)" "$logs/update.log"
        if grep -qE '^(W|E|Err):' "$logs/update.log"; then
            grep -E '^(W|E|Err):' "$logs/update.log" | sed "s/^/[$name]   | /" >&2
        fi
        printf '%s\n' "$RUN_ID" >"$aptdir/updated-run"
    fi

    # What will be downloaded (count and size), then download.
    apt_run "$aptdir" "$archives" -q -y --print-uris install "$pkg" >"$logs/uris.log" 2>&1 ||
        fail "resolving $pkg in $suite" "$logs/uris.log"
    local count mbytes
    count=$(grep -c "^'" "$logs/uris.log" || true)
    mbytes=$(awk '/^\x27/ {s += $3} END {printf "%.0f", s / 1048576}' "$logs/uris.log")
    log "[$name] downloading $count packages ($mbytes MB) for $pkg from $suite..."
    apt_run "$aptdir" "$archives" -q -y --download-only install "$pkg" >"$logs/download.log" 2>&1 ||
        fail "apt-get install --download-only $pkg" "$logs/download.log"

    local debs=("$archives"/*.deb)
    [ -e "${debs[0]}" ] || fail "download produced no .deb files" "$logs/download.log"
    log "[$name] unpacking ${#debs[@]} packages..."
    : >"$build/packages.txt"
    local deb pkg_version=""
    for deb in "${debs[@]}"; do
        dpkg -x "$deb" "$root" >>"$logs/extract.log" 2>&1 || fail "dpkg -x $(basename "$deb")" "$logs/extract.log"
        local p v
        p=$(dpkg-deb -f "$deb" Package) v=$(dpkg-deb -f "$deb" Version)
        printf '%s %s\n' "$p" "$v" >>"$build/packages.txt"
        [ "$p" != "$pkg" ] || pkg_version=$v
    done
    [ -n "$pkg_version" ] || fail "package $pkg not among the downloaded files"
    rm -rf "$build/apt-cache"

    # Loader: a real file (not a symlink) of that name inside the root.
    local loader="" cand
    for cand in "$root/usr/lib/$TRIPLET/$LOADER_NAME" "$root/lib/$TRIPLET/$LOADER_NAME" \
        "$root/usr/lib64/$LOADER_NAME" "$root/lib64/$LOADER_NAME"; do
        if [ -f "$cand" ] && [ ! -L "$cand" ]; then loader=$cand; break; fi
    done
    if [ -z "$loader" ]; then
        loader=$(find "$root" -name "$LOADER_NAME" -type f | head -n 1)
    fi
    [ -n "$loader" ] || fail "no dynamic loader $LOADER_NAME in the unpacked packages"

    local binary
    binary=$(resolve_in_root "$root" "$binpath") || fail "engine binary $binpath missing in $pkg"

    # Library path: the root's multiarch lib dirs, plus any dir needed for a missing library.
    local libdirs=() dir
    for dir in "$root/usr/lib/$TRIPLET" "$root/lib/$TRIPLET" "$root/usr/lib/$TRIPLET/pulseaudio"; do
        if [ -d "$dir" ] && [ ! -L "$dir" ]; then libdirs+=("$dir"); fi
    done
    local libpath i lib found
    for i in 1 2 3 4 5 6; do
        libpath=$(IFS=:; printf '%s' "${libdirs[*]}")
        "$loader" --list --library-path "$libpath" "$binary" >"$logs/ldd.log" 2>&1 || true
        grep -q 'not found' "$logs/ldd.log" || break
        [ "$i" -lt 6 ] || fail "resolving shared libraries" "$logs/ldd.log"
        while read -r lib; do
            found=$(find "$root" -name "$lib" \( -type f -o -type l \) | head -n 1)
            [ -n "$found" ] || fail "shared library $lib not in the unpacked packages" "$logs/ldd.log"
            libdirs+=("$(dirname "$found")")
        done < <(awk '/not found/ {print $1}' "$logs/ldd.log" | sort -u)
    done
    if awk -v r="$root" '/=>/ && $3 ~ /^\// && index($3, r) != 1' "$logs/ldd.log" | grep -q .; then
        log "[$name] warning: some libraries resolve outside the engine root:"
        awk -v r="$root" '/=>/ && $3 ~ /^\// && index($3, r) != 1' "$logs/ldd.log" | sed "s/^/[$name]   | /" >&2
    fi

    # Verify in the build dir first, so a failed --force keeps the old engine.
    write_launcher "$build/launcher" "$root" "$loader" "$libpath" "$binary" "$flags"
    log "[$name] verifying..."
    probe_engine "$build/launcher" "$logs/probe.log" >/dev/null || fail "first run of the engine" "$logs/probe.log"

    # Swap into place: never leave a half-installed engine marked ok.
    rm -f "$final/.ok"
    if [ -e "$final" ]; then
        rm -rf "$CACHE/.old-$name"
        mv "$final" "$CACHE/.old-$name"
    fi
    mv "$build" "$final"
    trap - EXIT
    rm -rf "$CACHE/.old-$name" "$final/launcher"
    root="$final/root"
    loader="$root${loader#"$build/root"}"
    binary="$root${binary#"$build/root"}"
    libpath=${libpath//"$build/root"/"$root"}
    write_launcher "$launcher" "$root" "$loader" "$libpath" "$binary" "$flags"

    local got version vstring
    got=$(probe_engine "$launcher" "$final/logs/probe.log") || fail "run of the installed engine" "$final/logs/probe.log"
    version=${got%%$'\t'*}
    vstring=${got#*$'\t'}
    case $version in
        "$name".*) ;;
        *) log "[$name] warning: $pkg from $suite is Godot $version now, not $name.x; recorded as is" ;;
    esac
    NAME=$name VERSION=$version VSTRING=$vstring LAUNCHER=$launcher PKG=$pkg PKGV=$pkg_version \
        SUITE=$suite ROOT=$root FLAGS=$flags python3 - "$final/engine.json" <<'PY'
import json, os, sys
e = os.environ
info = {"name": e["NAME"], "version": e["VERSION"], "version_string": e["VSTRING"],
        "launcher": e["LAUNCHER"], "package": e["PKG"], "package_version": e["PKGV"],
        "suite": e["SUITE"], "root": e["ROOT"], "launcher_flags": e["FLAGS"].split()}
with open(sys.argv[1] + ".tmp", "w") as f:
    json.dump(info, f, indent=2)
    f.write("\n")
os.replace(sys.argv[1] + ".tmp", sys.argv[1])
PY
    touch "$final/.ok"
    log "[$name] ok: $version ($pkg $pkg_version from $suite)"
}

# ---------------------------------------------------------------- main
log "engine cache: $CACHE"
FAILED=()
for name in "${SELECTED[@]}"; do
    set +e
    (
        set -e
        install_engine "$name"
    )
    rc=$?
    set -e
    [ "$rc" -eq 0 ] || FAILED+=("$name")
done

write_manifest

if [ ${#FAILED[@]} -gt 0 ]; then
    log "error: failed engines: ${FAILED[*]} (see the messages above)"
    exit 1
fi
log "all engines ok; manifest: $CACHE/manifest.json"
