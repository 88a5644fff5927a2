#!/usr/bin/env bash
# What the browser tests of web/ (scripts/web.sh test) run with: headless Chromium and its driver
# from Debian's packages, and Selenium from PyPI in a virtual environment under
# ${XDG_CACHE_HOME:-$HOME/.cache}/gdmarshal/browser-venv. Idempotent: installs only what is missing.
set -euo pipefail
want=()
command -v chromium >/dev/null || want+=(chromium)
command -v chromedriver >/dev/null || want+=(chromium-driver)
python3 -c 'import ensurepip, venv' 2>/dev/null || want+=(python3-venv)
if [ ${#want[@]} -gt 0 ]; then
    echo "installing browser test tools: ${want[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${want[@]}" >/dev/null
fi
venv=${XDG_CACHE_HOME:-$HOME/.cache}/gdmarshal/browser-venv
# The versions the tests were written against (Pillow reads the screenshots); a new one is a
# deliberate change here.
selenium=4.50.0
pillow=13.0.0
if ! "$venv/bin/python" -c "import selenium, PIL, sys; sys.exit(selenium.__version__ != '$selenium' or PIL.__version__ != '$pillow')" 2>/dev/null; then
    echo "installing selenium $selenium and pillow $pillow into $venv"
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "selenium==$selenium" "pillow==$pillow"
fi
