"""Writes the wasm module as a script that sets `GDMARSHAL_WASM` to its base64 text.

The page loads it with a <script> tag, which works from file:// where fetch() does not.
Usage: embed_wasm.py MODULE.wasm OUT.js
"""

import base64
import sys


def main() -> None:
    module, out = sys.argv[1], sys.argv[2]
    with open(module, "rb") as f:
        text = base64.b64encode(f.read()).decode("ascii")
    with open(out, "w", encoding="ascii") as f:
        f.write("// The gdmarshal codec as WebAssembly (scripts/web.sh build).\n")
        f.write(f'window.GDMARSHAL_WASM = "{text}";\n')


if __name__ == "__main__":
    main()
