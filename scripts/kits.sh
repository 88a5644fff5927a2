#!/usr/bin/env bash
# The adapter kits under testees/ (docs/conformance.md): the Node.js testee and the Rust template
# each pass the corpus of every verified engine version, stress cases and rejection kinds
# included, and each one's deliberately broken variant (GDMARSHAL_TESTEE_BROKEN=cap-65535) fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
command -v node >/dev/null || { echo "kits: node is not installed (scripts/test.sh installs it)" >&2; exit 1; }
cargo build --quiet --release --bin gdmarshal
# The Rust kit is a crate of its own, outside the workspace; its build goes under target/.
cargo fmt --manifest-path testees/rust/Cargo.toml -- --check
CARGO_TARGET_DIR="$root/target/testee-kit" cargo clippy --quiet --release --locked \
  --manifest-path testees/rust/Cargo.toml -- -D warnings
CARGO_TARGET_DIR="$root/target/testee-kit" cargo build --quiet --release --locked \
  --manifest-path testees/rust/Cargo.toml
gdmarshal=./target/release/gdmarshal
kits=("node testees/node/gdmarshal_testee.js" "./target/testee-kit/release/gdmarshal-testee-kit")
status=0
for kit in "${kits[@]}"; do
  for v in 3.2 3.6 4.6; do
    if ! "$gdmarshal" conform --testee "$kit" --godot "$v" --strict-errors --output /dev/null \
      | grep -E '^(ok|FAILED)' | sed "s|^|$v $kit: |"; then
      status=1
    fi
  done
  if GDMARSHAL_TESTEE_BROKEN=cap-65535 "$gdmarshal" conform --testee "$kit" --godot 4.6 \
    --run '*/stress/**' --output /dev/null >/dev/null; then
    echo "4.6 $kit (broken: cap-65535): passed, but must fail" >&2
    status=1
  else
    echo "4.6 $kit (broken: cap-65535): fails, as it must"
  fi
done
exit $status
