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

venv="${XDG_CACHE_HOME:-$HOME/.cache}/gdmarshal/docutils-venv"
if [ "$(cat "$venv/.installed" 2>/dev/null || true)" != "$DOCUTILS_PACKAGE" ] || ! "$venv/bin/python" -c 'import docutils' 2>/dev/null; then
    echo "installing $DOCUTILS_PACKAGE into $venv" >&2
    # Debian's python3 makes venvs only with its python3-venv package (a bare CI container lacks it).
    if ! python3 -c 'import ensurepip' 2>/dev/null && command -v apt-get >/dev/null; then
        sudo=""
        [ "$(id -u)" -eq 0 ] || sudo=sudo
        $sudo apt-get update -qq
        $sudo apt-get install -y -qq python3-venv >/dev/null
    fi
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "$DOCUTILS_PACKAGE"
    echo "$DOCUTILS_PACKAGE" >"$venv/.installed"
fi

"$venv/bin/python" scripts/check_rst.py docs/spec/*.rst
