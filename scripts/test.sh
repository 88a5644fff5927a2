#!/usr/bin/env bash
# The test command: installs what the tests need (the real engines), then runs formatting, lint and
# every test. The engine tests fail, never skip, when CI is set and an engine is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/install-engines.sh
# The Node.js adapter kit (scripts/kits.sh) needs Node; Debian's package will do.
command -v node >/dev/null || { apt-get update -qq && apt-get install -y -qq nodejs; }
cargo fmt --all -- --check
cargo clippy --all-targets --quiet -- -D warnings
cargo test --all-targets --quiet
cargo test --doc --quiet
# The project's Python scripts (the mutation ledger).
python3 -m unittest discover -q -s scripts/tests
# The regression gate: every corpus case against the codec and, again, against the live engines.
cargo run --quiet --release --bin gdmarshal -- corpus check
# The adapter kits under testees/: each passes every engine version; their broken variants fail.
bash scripts/kits.sh
