#!/usr/bin/env python3
"""The side-by-side benchmark's runners in Python: this project's Python package (bindings/python,
runner ``python``) and the pure-Python kit (testees/python, runner ``python-kit``), in the loops
of benches/support/loops.rs (15 rounds of decode then encode, then 15 decodes alone; medians) on
one family's bytes as benches/peers.rs wrote them. Run by scripts/bench-peers.sh:

    python benches/peers/python.py RUNNER BYTES_DIR FORMAT FAMILY [KIT_FILE]

Prints one GDMARSHAL_PEER line like the other runners. The kit decodes to tagged JSON and
encodes from it (its own value form); what it does not handle it says so and is not measured."""

import importlib.util
import os
import statistics
import sys
import threading
import time

ROUNDS = 15


def package_codec(fmt):
    import gdmarshal
    return (lambda b: gdmarshal.decode(b, godot=fmt),
            lambda v: gdmarshal.encode(v, godot=fmt), gdmarshal.__version__)


def kit_codec(fmt, kit_file):
    spec = importlib.util.spec_from_file_location("kit", kit_file)
    kit = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(kit)
    major = int(fmt.split(".")[0])

    def decode(b):
        return kit.decode_value(kit.Reader(b), major, 0)

    def encode(v):
        return bytes(kit.encode_value(v, major, bytearray()))
    return decode, encode, "testees/python", kit.Skip


def main():
    runner, folder, fmt, family = sys.argv[1:5]
    with open(os.path.join(folder, f"{fmt}-{family}.bin"), "rb") as f:
        data = f.read()
    head = f"GDMARSHAL_PEER runner={runner} format={fmt} family={family} bytes={len(data)}"
    skip = ()
    if runner == "python":
        decode, encode, version = package_codec(fmt)
    else:
        decode, encode, version, skip = kit_codec(fmt, sys.argv[5])
        skip = (skip,)
    head += f" version={version}"
    try:
        value = decode(data)
        again = encode(value)
    except skip as e:
        print(f'{head} unsupported="{str(e).replace(chr(34), chr(39))}"')
        return
    decode_us, encode_us, alone_us = [], [], []
    for _ in range(ROUNDS):
        t = time.perf_counter_ns()
        value = decode(data)
        decode_us.append((time.perf_counter_ns() - t) // 1000)
        t = time.perf_counter_ns()
        again = encode(value)
        encode_us.append((time.perf_counter_ns() - t) // 1000)
    for _ in range(ROUNDS):
        t = time.perf_counter_ns()
        decode(data)
        alone_us.append((time.perf_counter_ns() - t) // 1000)
    med = statistics.median_low
    print(f"{head} decode_median_us={med(decode_us)} decode_alone_median_us={med(alone_us)} "
          f"encode_median_us={med(encode_us)} same_bytes={'yes' if again == data else 'no'}")


if __name__ == "__main__":
    # The kit recurses per level of nesting; give it room, as its own main does.
    sys.setrecursionlimit(20000)
    threading.stack_size(256 * 1024 * 1024)
    t = threading.Thread(target=main)
    t.start()
    t.join()
