#!/usr/bin/env bash
# Renders the corrected documentation pages (docs/spec/*.rst) with docutils and fails on any
# warning (scripts/check_rst.py). docutils is installed, pinned, into a venv of its own under the
# user's cache, once per version.
#
# Usage: scripts/check-rst.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# Pinned; bump here.
DOCUTILS_PACKAGE=docutils==0.21.2

# shellcheck source=scripts/lib/venv.sh
. scripts/lib/venv.sh
venv=$(pinned_venv docutils-venv "python -c 'import docutils'" "$DOCUTILS_PACKAGE")

"$venv/bin/python" scripts/check_rst.py docs/spec/*.rst
