#!/usr/bin/env bash
# The browser inspector (web/): build it, or test it in a real browser.
#
#   scripts/web.sh build [--out DIR]   the page and its wasm module into DIR (target/web): a folder
#                                      that works from file:// (the module is embedded as base64)
#   scripts/web.sh test [--large-only] build, then the browser tests (scripts/web/browser_test.py)
#                                      in headless Chromium, installed by scripts/install-browser.sh;
#                                      --large-only: only the large inputs' checks and figures
#
# The wasm module is built with the toolchain of scripts/install-wasm-toolchain.sh, in a target
# folder of that toolchain's own (target/wasm-rustup or target/wasm-debian), with a stack that
# holds the deepest nesting the engines accept (the codec's stack growth is off on wasm32).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# 1024 nested containers, each a few frames of decode, encode or JSON writing: 32 MiB with room.
WASM_STACK=$((32 << 20))

build() { # out
    local out=$1 wasm_env
    bash scripts/install-wasm-toolchain.sh
    wasm_env=${GDMARSHAL_WASM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gdmarshal/wasm-toolchain}/env
    # shellcheck source=/dev/null
    . "$wasm_env"
    local linker=()
    [ -z "$WASM_LINKER" ] || linker=(env "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=$WASM_LINKER")
    "${linker[@]}" env RUSTC="$WASM_RUSTC" \
        CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C link-arg=-zstack-size=$WASM_STACK" \
        cargo build --quiet --locked -p gdmarshal-web --release --target wasm32-unknown-unknown \
        --target-dir "target/wasm-$WASM_WAY"
    local wasm=target/wasm-$WASM_WAY/wasm32-unknown-unknown/release/gdmarshal_web.wasm
    mkdir -p "$out"
    cp web/index.html web/app.js web/style.css "$out/"
    python3 scripts/web/embed_wasm.py "$wasm" "$out/gdmarshal-wasm.js"
    python3 - "$wasm" <<'PY' >&2
import gzip, sys
raw = open(sys.argv[1], "rb").read()
print(f"web: wasm module {len(raw):,} bytes, {len(gzip.compress(raw, 9)):,} gzipped")
PY
    echo "web: $out/index.html" >&2
}

case ${1:-} in
    build)
        out=target/web
        [ "${2:-}" != --out ] || out=${3:?--out needs a folder}
        build "$out"
        ;;
    test)
        build target/web
        bash scripts/install-browser.sh
        venv=${XDG_CACHE_HOME:-$HOME/.cache}/gdmarshal/browser-venv
        cargo build --quiet --release --bin gdmarshal
        "$venv/bin/python" scripts/web/browser_test.py --page target/web/index.html \
            --gdmarshal target/release/gdmarshal --corpus corpus --shots target/web-shots "${@:2}"
        ;;
    *)
        awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0" >&2
        exit 2
        ;;
esac
