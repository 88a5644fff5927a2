#!/usr/bin/env bash
# The test command: installs what the tests need (the real engines), then runs formatting, lint and
# every test. The engine tests fail, never skip, when CI is set and an engine is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/install-engines.sh
# The sandbox engines and testees run in (bubblewrap).
bash scripts/install-sandbox.sh
# The adapter kits (scripts/kits.sh) need Node.js, Go and Mono; Debian's packages will do.
bash scripts/install-kit-toolchains.sh
cargo fmt --all -- --check
cargo clippy --all-targets --quiet -- -D warnings
# The bindings are workspace members, not default ones.
cargo clippy -p gdmarshal-python -p gdmarshal-npm --all-targets --quiet -- -D warnings
# The lab without its `download` feature: the oracle, corpus, campaigns and conform build and lint
# clean with no HTTP client or zip reader (only `gdmarshal engines install` fetches releases).
cargo clippy -p gdmarshal-lab --no-default-features --all-targets --quiet -- -D warnings
# The codec without tagged JSON and with nothing but its core (a user's smallest build).
cargo clippy -p gdmarshal --no-default-features --lib --quiet -- -D warnings
cargo test --all-targets --quiet
# The npm package's own Rust (the tape's transcoding), on the host.
cargo test -p gdmarshal-npm --lib --quiet
cargo test --doc --quiet
# The project's Python scripts (the mutation ledger).
python3 -m unittest discover -q -s scripts/tests
# The regression gate: every corpus case against the codec and, again, against the live engines.
cargo run --quiet --release --bin gdmarshal -- corpus check
# A sharded campaign (.github/workflows/campaign.yml's scripts) merged against one run of its seeds.
bash scripts/test-campaign-merge.sh
# corpus.yml's scripts: a version's corpus recorded and merged into a corpus folder.
bash scripts/test-corpus-record.sh
# The adapter kits under testees/: each passes every engine version; their broken variants fail.
bash scripts/kits.sh
# The Python package (bindings/python), installed into a fresh venv: its tests, and `conform` with
# its testee on 3.2, 3.6 and 4.6, held to the totals of the codec's own testee.
bash scripts/bindings.sh test
# The public libraries' matrix (implementations/, docs/implementations.md): each library installed
# at its pinned version and measured again; the committed page must come out unchanged.
bash scripts/implementations.sh --check
# The browser inspector (web/) in headless Chromium: its decode and encode equal the CLI's on corpus
# cases of every verified version (scripts/web.sh installs the wasm toolchain, the browser and
# Selenium first).
bash scripts/web.sh test
# The workflows and the action (actionlint, shellcheck); the crates as they would be published.
bash scripts/lint-workflows.sh
# The reference pages build with Sphinx and the Read the Docs theme without a warning.
bash scripts/check-rst.sh
bash scripts/check-packages.sh
