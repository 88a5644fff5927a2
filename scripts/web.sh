#!/usr/bin/env bash
# The browser inspector (web/): build it, or test it in a real browser.
#
#   scripts/web.sh build [--out DIR]   the page and its wasm module into DIR (target/web): a folder
#                                      that works from file:// (the module is embedded as base64)
#   scripts/web.sh test [--large-only] build, then the browser tests (scripts/web/browser_test.py)
#                                      in headless Chromium, installed by scripts/install-browser.sh;
#                                      --large-only: only the large inputs' checks and figures
#
# The wasm module is built by scripts/lib/wasm-build.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=scripts/lib/wasm-build.sh
. scripts/lib/wasm-build.sh

build() { # out
    local out=$1 wasm
    wasm=$(wasm_build gdmarshal-web)
    mkdir -p "$out"
    cp web/index.html web/app.js web/style.css "$out/"
    # The libraries' matrix (docs/implementations.json) as a script: the page also works from file://.
    { printf 'window.GDMARSHAL_IMPLEMENTATIONS = '; cat docs/implementations.json; printf ';\n'; } \
        >"$out/implementations.js"
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
