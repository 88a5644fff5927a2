#!/usr/bin/env bash
# Builds the reference pages (docs/spec/*.rst) as godot-docs builds its pages: Sphinx with the Read
# the Docs theme, warnings as errors (scripts/sphinx_spec.py). Sphinx and the theme are installed,
# pinned, into a venv of their own under the user's cache, once per version.
#
# Usage: scripts/check-rst.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# Pinned; bump here.
SPHINX_PACKAGES=(sphinx==8.1.3 sphinx-rtd-theme==3.0.2)

# shellcheck source=scripts/lib/venv.sh
. scripts/lib/venv.sh
venv=$(pinned_venv sphinx-venv "python -c 'import sphinx, sphinx_rtd_theme'" "${SPHINX_PACKAGES[@]}")

"$venv/bin/python" scripts/sphinx_spec.py docs/spec/*.rst
