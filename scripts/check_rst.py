"""Renders reStructuredText pages with docutils and fails on any warning or error.

The pages are written for the Godot documentation, which Sphinx builds: its `:ref:` role is
registered here as Sphinx provides it; every other role, directive, table and heading must be
plain docutils, and any message of level WARNING or above fails the check.

Usage: python3 scripts/check_rst.py PAGE.rst...
"""

import io
import sys

import docutils.core
from docutils import nodes
from docutils.parsers.rst import roles


def problems(path):
    """The docutils messages of WARNING level and above for the page at `path`."""
    out = io.StringIO()
    with open(path, encoding="utf-8") as f:
        text = f.read()
    docutils.core.publish_string(
        text,
        source_path=path,
        writer_name="html",
        settings_overrides={"warning_stream": out, "report_level": 2, "halt_level": 5},
    )
    return out.getvalue()


def main(paths):
    roles.register_generic_role("ref", nodes.inline)
    failed = False
    for path in paths:
        found = problems(path)
        if found:
            failed = True
            sys.stderr.write(found)
        else:
            print(f"{path}: renders without warnings")
    return 1 if failed or not paths else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
