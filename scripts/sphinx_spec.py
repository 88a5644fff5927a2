"""Builds each reference page (docs/spec/*.rst) as godot-docs builds its pages: Sphinx with the
Read the Docs theme, warnings as errors.

Each page is built in a project of its own (both pages carry the label the upstream page has,
`doc_binary_serialization_api`), next to a stand-in for the class reference that defines the
`class_*` labels the page's headings link to, as the class reference does in godot-docs.

Usage: python3 scripts/sphinx_spec.py PAGE.rst...   (with sphinx and sphinx_rtd_theme installed)
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

CONF = """\
project = "Godot Engine"
extensions = []
html_theme = "sphinx_rtd_theme"
# As godot-docs: GDScript is the default language of code blocks, and no smart quotes.
highlight_language = "gdscript"
smartquotes = False
exclude_patterns = ["_build"]
"""


def class_labels(text):
    """The class reference labels a page links to: `:ref:`Name<class_Name>``."""
    return sorted(set(re.findall(r":ref:`[^`<]*<(class_[A-Za-z0-9_@]+)>`", text)))


def stand_in(labels):
    """A page defining each label with a section of its own, as the class reference does."""
    out = [":orphan:", "", "Class reference (stand-in)", "==========================", ""]
    for label in labels:
        name = label[len("class_"):]
        out += [f".. _{label}:", "", name, "-" * max(len(name), 4), "", f"The class {name}.", ""]
    return "\n".join(out)


def build(page):
    with open(page, encoding="utf-8") as f:
        text = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src")
        os.makedirs(src)
        name = os.path.basename(page)
        shutil.copy(page, os.path.join(src, name))
        with open(os.path.join(src, "conf.py"), "w", encoding="utf-8") as f:
            f.write(CONF)
        with open(os.path.join(src, "index.rst"), "w", encoding="utf-8") as f:
            f.write(f"Contents\n========\n\n.. toctree::\n\n   {name[:-4]}\n")
        with open(os.path.join(src, "classes.rst"), "w", encoding="utf-8") as f:
            f.write(stand_in(class_labels(text)))
        out = os.path.join(tmp, "html")
        result = subprocess.run(
            [sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q", src, out],
            capture_output=True,
            text=True,
        )
        sys.stderr.write(result.stderr.replace(src + os.sep, ""))
        if result.returncode == 0:
            html = os.path.join(out, name[:-4] + ".html")
            if not os.path.exists(html):
                sys.stderr.write(f"{page}: Sphinx wrote no {name[:-4]}.html\n")
                return False
            print(f"{page}: Sphinx builds it without warnings")
        return result.returncode == 0


def main(pages):
    if not pages:
        sys.stderr.write("usage: sphinx_spec.py PAGE.rst...\n")
        return 2
    ok = all([build(p) for p in pages])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
