"""Tests of scripts/bench-peers.py's table of the runtimes' string making: the share of a package's
decode that making the strings takes, and the bound it puts on any decoder's speed over the other
library, from result lines as scripts/bench-peers.sh writes them.
Run: python3 -m unittest discover -s scripts/tests"""

import contextlib
import io
import os
import tempfile
import unittest

import load_script

bench = load_script.load("bench-peers.py", "bench_peers")


def line(runner, family, decode_us, alone_us, extra=""):
    return (f"GDMARSHAL_PEER runner={runner} format=3.6 family={family} bytes=1000000 "
            f"decode_median_us={decode_us} decode_alone_median_us={alone_us} "
            f"encode_median_us=100{extra}\n")


def table_of(lines):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.writelines(lines)
    try:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            bench.table(bench.load(f.name))
        return out.getvalue()
    finally:
        os.unlink(f.name)


class StringBounds(unittest.TestCase):
    def test_share_and_bound_come_from_the_three_runners(self):
        out = table_of([
            line("gdmarshal", "words", 100, 100, " same_bytes=yes"),
            line("npm", "words", 1000, 800, " same_bytes=yes"),
            line("gd-com", "words", 1200, 1000, " same_bytes=yes"),
            line("npm-strings", "words", 500, 800),
        ])
        # The strings take 500 of the package's 1000 µs (and all of its 800 alone); the other
        # library's 1200 and 1000 µs are 2.4 and 1.25 times the strings' time.
        self.assertIn("| words | gdmarshal npm package | 50% | 100% | 2.40× | 1.25× | @gd-com/utils |",
                      out)
        # The strings' runner is not a row of the main table.
        self.assertNotIn("| words | Node.js making", out)

    def test_no_row_without_the_other_library(self):
        out = table_of([
            line("gdmarshal", "words", 100, 100, " same_bytes=yes"),
            line("python", "words", 1000, 800, " same_bytes=yes"),
            line("python-strings", "words", 500, 800),
        ])
        self.assertNotIn("strings' share", out)


if __name__ == "__main__":
    unittest.main()
