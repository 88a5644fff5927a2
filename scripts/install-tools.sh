#!/usr/bin/env bash
# Installs the Cargo tools the project's scripts use, each at a pinned version, with
# `cargo install --locked` from the registry Cargo is configured for. Idempotent: a tool already
# installed at its pinned version is left alone (a check of a few milliseconds), so callers run this
# script every time.
#
# Usage: scripts/install-tools.sh [TOOL...]   (no argument: every tool below)
#   cargo-mutants   mutation testing (scripts/mutants.sh, the in-diff step of .ci/run)
set -euo pipefail

# Pinned versions: bump here, and the next run of any caller installs the new one.
CARGO_MUTANTS_VERSION=25.3.1

install_cargo_mutants() {
    local have
    have=$(cargo mutants --version 2>/dev/null | awk '{print $2}' || true)
    if [ "$have" = "$CARGO_MUTANTS_VERSION" ]; then
        return 0
    fi
    echo "installing cargo-mutants $CARGO_MUTANTS_VERSION (found: ${have:-none})" >&2
    cargo install --locked --quiet cargo-mutants --version "$CARGO_MUTANTS_VERSION" --force
}

tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(cargo-mutants)
for tool in "${tools[@]}"; do
    case "$tool" in
        cargo-mutants) install_cargo_mutants ;;
        *) echo "install-tools.sh: unknown tool: $tool" >&2; exit 2 ;;
    esac
done
