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
    local package=$1 features=${2:-} wasm_env linker=() flags dir
    bash scripts/install-wasm-toolchain.sh
    wasm_env=${GDMARSHAL_WASM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gdmarshal/wasm-toolchain}/env
    # shellcheck source=/dev/null
    . "$wasm_env"
    [ -z "$WASM_LINKER" ] || linker=(env "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=$WASM_LINKER")
    flags="-C link-arg=-zstack-size=$((32 << 20))"
    dir="target/wasm-$WASM_WAY"
    if [ -n "$features" ]; then
        flags+=" -C target-feature=$features"
        dir+="-${features//[^a-z0-9]/}"
    fi
    "${linker[@]}" env RUSTC="$WASM_RUSTC" CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="$flags" \
        cargo build --quiet --locked -p "$package" --release --target wasm32-unknown-unknown \
        --target-dir "$dir" >&2
    echo "$dir/wasm32-unknown-unknown/release/${package//-/_}.wasm"
}
