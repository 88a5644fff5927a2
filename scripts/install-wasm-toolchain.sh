#!/usr/bin/env bash
# Install a Rust toolchain that builds the codec for wasm32-unknown-unknown (web/: the browser
# inspector), idempotently, and write where it is to an env file that scripts/web.sh reads.
#
# Two ways, the first that works:
#   1. rustup: `rustup target add wasm32-unknown-unknown` for the active toolchain.
#   2. Debian: the unstable suite's `rustc` and `libstd-rust-dev-wasm32` (same version, so the
#      wasm std matches the compiler) unpacked into a private root with a private apt
#      configuration, as scripts/install-engines.sh installs engines (the machine's own Debian
#      mirror, an empty dpkg status; the system's packages are not touched). The root's rustc and
#      lld run through the root's own dynamic loader (wrappers in ROOT/../bin).
#
# Layout (CACHE = ${GDMARSHAL_WASM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gdmarshal/wasm-toolchain}):
#   CACHE/env            WASM_RUSTC=, WASM_LINKER= (empty: rustc's own), WASM_WAY= (sourced by
#                        scripts/web.sh; written last, only after a wasm32 build worked)
#   CACHE/debian/        the Debian root, its wrappers and packages.txt (way 2 only)
#
# Usage: scripts/install-wasm-toolchain.sh [--debian] [--force]
#   --debian  skip rustup and install the Debian toolchain
#   --force   reinstall even if CACHE/env says a working toolchain is there
set -euo pipefail
root_dir=$(cd "$(dirname "$0")/.." && pwd)
WASM_CACHE=${GDMARSHAL_WASM_CACHE:-${XDG_CACHE_HOME:-${HOME:?HOME is not set}/.cache}/gdmarshal/wasm-toolchain}
WAY=any
FORCE=0
for arg in "$@"; do
    case $arg in
        --debian) WAY=debian ;;
        --force) FORCE=1 ;;
        -h | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
        *) echo "install-wasm-toolchain: unknown argument: $arg (see --help)" >&2; exit 2 ;;
    esac
done
mkdir -p "$WASM_CACHE"
say() { printf 'install-wasm-toolchain: %s\n' "$*" >&2; }

# Builds a one-line crate for wasm32 with RUSTC=$1: the toolchain works only if this does.
probe() { # rustc [linker]
    local scratch rc=0 link=()
    [ -z "${2:-}" ] || link=(-C "linker=$2")
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/gdmarshal-wasm-probe.XXXXXX")
    printf '#[unsafe(no_mangle)]\npub extern "C" fn probe(x: u32) -> u32 { x.wrapping_mul(3) }\n' >"$scratch/lib.rs"
    "$1" --edition 2024 --crate-type cdylib --target wasm32-unknown-unknown -O \
        "${link[@]}" -o "$scratch/probe.wasm" "$scratch/lib.rs" >"$scratch/log" 2>&1 || rc=$?
    if [ "$rc" -ne 0 ] || [ ! -s "$scratch/probe.wasm" ]; then
        sed 's/^/  | /' "$scratch/log" >&2
        rc=1
    fi
    rm -rf "$scratch"
    return "$rc"
}

write_env() { # rustc linker way
    printf 'WASM_RUSTC=%q\nWASM_LINKER=%q\nWASM_WAY=%q\n' "$1" "$2" "$3" >"$WASM_CACHE/env.tmp"
    mv -f "$WASM_CACHE/env.tmp" "$WASM_CACHE/env"
    say "ok ($3): $("$1" --version)"
}

if [ "$FORCE" -eq 0 ] && [ -s "$WASM_CACHE/env" ]; then
    # shellcheck source=/dev/null
    . "$WASM_CACHE/env"
    if { [ "$WAY" = any ] || [ "$WASM_WAY" = "$WAY" ]; } && probe "$WASM_RUSTC" "$WASM_LINKER"; then
        say "ok (cached, $WASM_WAY): $("$WASM_RUSTC" --version)"
        exit 0
    fi
fi

if [ "$WAY" = any ] && command -v rustup >/dev/null 2>&1; then
    (cd "$root_dir" && rustup target add wasm32-unknown-unknown) >&2 || say "rustup has no wasm32 target here; trying Debian's"
    rustc=$(cd "$root_dir" && rustup which rustc)
    if probe "$rustc"; then
        write_env "$rustc" "" rustup
        exit 0
    fi
fi

# ------------------------------------------------------------------ Debian's toolchain
# shellcheck source=scripts/lib/engine-cache.sh
. "$root_dir/scripts/lib/engine-cache.sh"
GDMARSHAL_ENGINE_CACHE="$WASM_CACHE" engine_cache_init
deb="$WASM_CACHE/debian"
build="$WASM_CACHE/.build-debian"
rm -rf "$build"
trap 'rm -rf "$build"' EXIT
archives="$build/apt-cache/archives"
mkdir -p "$archives/partial" "$build/root" "$build/bin" "$build/logs"
aptdir=$(apt_setup unstable)
say "apt-get update (unstable)..."
apt_run "$aptdir" "$archives" -q update >"$build/logs/update.log" 2>&1 ||
    { show_log debian "$build/logs/update.log"; exit 1; }
say "downloading rustc, libstd-rust-dev-wasm32 and lld from unstable..."
apt_run "$aptdir" "$archives" -q -y --download-only install rustc libstd-rust-dev-wasm32 lld \
    >"$build/logs/download.log" 2>&1 || { show_log debian "$build/logs/download.log"; exit 1; }
: >"$build/packages.txt"
for f in "$archives"/*.deb; do
    dpkg -x "$f" "$build/root"
    printf '%s %s\n' "$(dpkg-deb -f "$f" Package)" "$(dpkg-deb -f "$f" Version)" >>"$build/packages.txt"
done
rm -rf "$build/apt-cache"
# rustc and wasm32's linker must be the same release's; rustc finds neither its sysroot nor
# rust-lld by itself when run through a loader, so the wrapper names both.
[ "$(awk '$1 == "rustc" {print $2}' "$build/packages.txt")" = \
  "$(awk '$1 == "libstd-rust-dev-wasm32" {print $2}' "$build/packages.txt")" ] ||
    { say "rustc and libstd-rust-dev-wasm32 differ in version:"; cat "$build/packages.txt" >&2; exit 1; }
loader=$(find "$build/root" -name "$LOADER_NAME" -type f | head -n 1)
[ -n "$loader" ] || { say "no $LOADER_NAME in the unpacked packages"; exit 1; }
libpath=$(find "$build/root" -name 'librustc_driver-*.so' -printf '%h\n' | head -n 1)
libpath="$libpath:$build/root/usr/lib/$TRIPLET:$build/root/lib/$TRIPLET"
for llvm in "$build"/root/usr/lib/llvm-*/lib; do libpath="$libpath:$llvm"; done
rustc_bin=$(resolve_in_root "$build/root" /usr/bin/rustc)
wasm_ld=$(find "$build/root" -name 'wasm-ld*' \( -type f -o -type l \) | sort | head -n 1)
[ -n "$wasm_ld" ] || { say "no wasm-ld in the unpacked packages"; exit 1; }
wasm_ld=$(resolve_in_root "$build/root" "${wasm_ld#"$build/root"}")
final_root="$deb/root"
rel() { printf '%s' "${1//"$build/root"/"$final_root"}"; }
cat >"$build/bin/wasm-ld" <<WRAP
#!/bin/sh
exec $(rel "$loader") --library-path $(rel "$libpath") $(rel "$wasm_ld") "\$@"
WRAP
cat >"$build/bin/rustc" <<WRAP
#!/bin/sh
# Debian's rustc through its own loader, which hides the sysroot from it: named here.
exec $(rel "$loader") --library-path $(rel "$libpath") $(rel "$rustc_bin") --sysroot $final_root/usr "\$@"
WRAP
chmod 0755 "$build/bin/rustc" "$build/bin/wasm-ld"
rm -rf "$deb"
mv "$build" "$deb"
trap - EXIT
probe "$deb/bin/rustc" "$deb/bin/wasm-ld" || { say "Debian's rustc does not build for wasm32"; exit 1; }
write_env "$deb/bin/rustc" "$deb/bin/wasm-ld" debian
