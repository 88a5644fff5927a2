#!/usr/bin/env python3
"""What bounds a CPython package on ``unicode_strings``: in one process, the pure-Python kit's
decode, this project's Python package's, and the making of the family's 2,000 ``str`` objects
alone through the constructors the stable ABI (abi3) offers for text of any script: from UTF-8
(``PyUnicode_DecodeUTF8``, what ``bytes.decode`` and the package call), UTF-16 and UTF-32 (their
decoders) and ``wchar_t`` arrays (``PyUnicode_FromWideChar``, what ``array.tounicode`` calls). A
package built for abi3 makes its ``str`` objects through one of them, so the kit's time over the
fastest is the most any such package can gain on this family. Medians of 60 alternating rounds.

    python benches/peers/python_strings.py BYTES_DIR KIT_FILE

BYTES_DIR holds ``3.6-unicode_strings.bin`` as benches/peers.rs writes it (scripts/bench-peers.sh
writes it to a scratch folder; ``cargo bench --bench peers -- --write-bytes DIR --format 3.6``
alone); the package must be installed (scripts/bindings.sh build, then pip install the wheel).
"""
import array
import importlib.util
import os
import struct
import sys
import time

import gdmarshal

ROUNDS = 60


def strings_of(data):
    """The UTF-8 bytes of each String in the family's Array (Godot 3's layout)."""
    count = struct.unpack_from("<I", data, 4)[0] & 0x7FFFFFFF
    at, out = 8, []
    for _ in range(count):
        length = struct.unpack_from("<I", data, at + 4)[0]
        out.append(data[at + 8:at + 8 + length])
        at += 8 + length + (-length % 4)
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    data = open(os.path.join(sys.argv[1], "3.6-unicode_strings.bin"), "rb").read()
    spec = importlib.util.spec_from_file_location("kit", sys.argv[2])
    kit = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(kit)
    utf8 = strings_of(data)
    utf16 = [s.decode().encode("utf-16-le") for s in utf8]
    utf32 = [s.decode().encode("utf-32-le") for s in utf8]
    # Typecode "u" is wchar_t (deprecated from CPython 3.13, still there).
    wide = [array.array("u", s.decode()) for s in utf8]
    assert gdmarshal.decode(data, godot="3.6") == [w.tounicode() for w in wide]
    runners = {
        "pure-Python kit": lambda: kit.decode_value(kit.Reader(data), 3, 0),
        "Python package": lambda: gdmarshal.decode(data, godot="3.6"),
        "the str objects from UTF-8": lambda: [s.decode("utf-8") for s in utf8],
        "the str objects from UTF-16": lambda: [s.decode("utf-16-le") for s in utf16],
        "the str objects from UTF-32": lambda: [s.decode("utf-32-le") for s in utf32],
        "the str objects from wchar_t": lambda: [w.tounicode() for w in wide],
    }
    times = {name: [] for name in runners}
    for _ in range(ROUNDS):
        for name, run in runners.items():
            start = time.perf_counter()
            value = run()
            times[name].append(time.perf_counter() - start)
            del value
    kit_ms = sorted(times["pure-Python kit"])[ROUNDS // 2] * 1e3
    for name, t in times.items():
        ms = sorted(t)[ROUNDS // 2] * 1e3
        print(f"{name}: {ms:.2f} ms (the kit's time over it: {kit_ms / ms:.2f}x)")


if __name__ == "__main__":
    main()
