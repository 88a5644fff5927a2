#!/usr/bin/env bash
# The toolchains the adapter kits under testees/ build and run with (scripts/kits.sh), from
# Debian's packages: Node.js, Go and Mono's C# compiler. Idempotent: installs only what is missing.
set -euo pipefail
want=()
command -v node >/dev/null || want+=(nodejs)
command -v go >/dev/null || want+=(golang-go)
# mono-mcs brings the runtime and the class libraries the C# kit uses (System.Core,
# System.Numerics).
{ command -v mcs >/dev/null && command -v mono >/dev/null; } || want+=(mono-mcs)
if [ ${#want[@]} -gt 0 ]; then
  echo "installing kit toolchains: ${want[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${want[@]}" >/dev/null
fi
