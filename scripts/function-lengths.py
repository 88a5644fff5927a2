#!/usr/bin/env python3
"""Functions longer than a limit in Rust sources: `function-lengths.py [--max N] DIR...` prints
`LINES FILE:LINE NAME` for each, longest first, and exits 1 if there is any.

A function runs from its `fn` line to the brace that closes its body. Braces inside string, raw
string and character literals and comments do not count; a nested function counts within the one
around it. The house rule is 150 lines (CONTRIBUTING.md): a longer function is a list of cases
that wants to be data, or steps that want names."""

import os
import re
import sys

FN = re.compile(r"\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?fn\s+(\w+)")


def blank_literals(src):
    """`src` with comments and string and character literals blanked (newlines kept)."""
    out, i, n = [], 0, len(src)
    blank = lambda text: re.sub(r"[^\n]", " ", text)
    while i < n:
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(blank(src[i:j]))
            i = j
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(blank(src[i:j]))
            i = j
            continue
        raw = re.match(r'b?r(#*)"', src[i:i + 12])
        if raw and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            end = '"' + raw.group(1)
            j = src.find(end, i + len(raw.group(0)))
            j = n if j < 0 else j + len(end)
            out.append(blank(src[i:j]))
            i = j
            continue
        if src[i] == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            j += 1
            out.append(blank(src[i:j]))
            i = j
            continue
        char = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", src[i:i + 12])
        if src[i] == "'" and char:
            out.append(blank(char.group(0)))
            i += len(char.group(0))
            continue
        out.append(src[i])
        i += 1
    return "".join(out)


def functions(src):
    """(name, first line, lines) of each outermost function in `src`."""
    lines = blank_literals(src).split("\n")
    found, i = [], 0
    while i < len(lines):
        m = FN.match(lines[i])
        if not m:
            i += 1
            continue
        depth, opened, j = 0, False, i
        while j < len(lines):
            for ch in lines[j]:
                if ch == "{":
                    depth, opened = depth + 1, True
                elif ch == "}":
                    depth -= 1
            if (opened and depth <= 0) or (not opened and lines[j].rstrip().endswith(";")):
                break
            j += 1
        if opened:
            found.append((m.group(6), i + 1, j - i + 1))
            i = j + 1
        else:
            i += 1
    return found


def long_functions(roots, limit):
    out = []
    for root in roots:
        for folder, _, files in os.walk(root):
            for name in files:
                if name.endswith(".rs"):
                    path = os.path.join(folder, name)
                    with open(path, encoding="utf-8") as f:
                        for fn, line, n in functions(f.read()):
                            if n > limit:
                                out.append((n, f"{path}:{line}", fn))
    return sorted(out, reverse=True)


def main(argv):
    limit = 150
    if argv[:1] == ["--max"]:
        limit, argv = int(argv[1]), argv[2:]
    found = long_functions(argv, limit)
    for n, where, fn in found:
        print(n, where, fn)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
