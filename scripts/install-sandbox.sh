#!/usr/bin/env bash
# The sandbox engines and testees run in (docs/security.md, "The sandbox"): Debian's bubblewrap.
# Idempotent: installs only when `bwrap` is missing. Run as root (CI, containers) or with sudo.
set -euo pipefail
command -v bwrap >/dev/null && exit 0
echo "installing bubblewrap"
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends bubblewrap >/dev/null
