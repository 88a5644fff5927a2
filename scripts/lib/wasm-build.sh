# shellcheck shell=bash
# wasm_build PACKAGE [TARGET_FEATURES]: builds the workspace package PACKAGE (a cdylib) for
# wasm32-unknown-unknown with the toolchain of scripts/install-wasm-toolchain.sh (installed first),
# in a target folder of that toolchain's own (target/wasm-rustup or target/wasm-debian; with
# TARGET_FEATURES, such as +simd128, a folder of their own, so that builds with and without them do
# not rebuild each other), and prints the module's path.
# The module gets a stack that holds the deepest nesting the engines accept: the codec's stack
# growth is off on wasm32, and 1024 nested containers, each a few frames of decode, encode and
# value building, fit in 32 MiB with room.
wasm_build() {
    wasm_cargo build "$1" "${2:-}"
    echo "$WASM_TARGET_DIR/wasm32-unknown-unknown/release/${1//-/_}.wasm"
}

# wasm_cargo COMMAND PACKAGE [TARGET_FEATURES] [ARGS...]: `cargo COMMAND` (build, clippy) of
# PACKAGE as wasm_build builds it; ARGS follow the command's own. Sets WASM_TARGET_DIR and
# WASM_WAY (rustup or debian).
wasm_cargo() {
    local command=$1 package=$2 features=${3:-} wasm_env linker=() flags
    bash scripts/install-wasm-toolchain.sh
    wasm_env=${GDMARSHAL_WASM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gdmarshal/wasm-toolchain}/env
    # shellcheck source=/dev/null
    . "$wasm_env"
    if [ "$command" = clippy ] && [ "$WASM_WAY" != rustup ]; then
        # clippy-driver compiles with its own toolchain's standard library for wasm32, which only
        # rustup installs; Debian's wasm32 library is for Debian's rustc.
        echo "wasm_cargo: $package not linted for wasm32 (the toolchain is Debian's, not rustup's)" >&2
        return 0
    fi
    [ -z "$WASM_LINKER" ] || linker=(env "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=$WASM_LINKER")
    flags="-C link-arg=-zstack-size=$((32 << 20))"
    WASM_TARGET_DIR="target/wasm-$WASM_WAY"
    if [ -n "$features" ]; then
        flags+=" -C target-feature=$features"
        WASM_TARGET_DIR+="-${features//[^a-z0-9]/}"
    fi
    "${linker[@]}" env RUSTC="$WASM_RUSTC" CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="$flags" \
        cargo "$command" --quiet --locked -p "$package" --release --target wasm32-unknown-unknown \
        --target-dir "$WASM_TARGET_DIR" "${@:4}" >&2
}
