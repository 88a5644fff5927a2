#!/usr/bin/env bash
# The conformance matrix of the format's public libraries (docs/implementations.md, and
# docs/implementations.json for the web page's Libraries view): installs
# every adapter's library at its pinned version (npm ci from its lock, a venv from its pinned
# requirements, the Rust adapter built --locked; each skipped when already installed from the same
# pins), then runs `gdmarshal implementations`, with the testees cut off from the network.
#
#   scripts/implementations.sh            # install, measure, rewrite docs/implementations.md
#   scripts/implementations.sh --check    # install, measure, exit 1 if the page would change
#   scripts/implementations.sh install    # install only
#   scripts/implementations.sh outdated   # exit 1 if a registry has a newer version than the
#                                         # newest adapter of a package
#   scripts/implementations.sh bump       # add a folder for each such newer version of an npm or
#                                         # PyPI package (a copy of its newest folder, pinned to
#                                         # it); prints the folders added (the weekly workflow)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
dir=implementations
log() { echo "implementations: $*" >&2; }

# A folder's installed pins: reinstalled only when its pin files change.
stamp() { cat "$@" | sha256sum | cut -c1-16; }

install() {
    local d
    for d in "$dir"/*/; do
        d=${d%/}
        if [ -f "$d/package-lock.json" ]; then
            local s; s=$(stamp "$d/package.json" "$d/package-lock.json")
            if [ "$(cat "$d/node_modules/.gdmarshal-stamp" 2>/dev/null)" != "$s" ]; then
                log "npm ci in $d"
                (cd "$d" && npm ci --no-audit --no-fund --quiet >&2)
                echo "$s" >"$d/node_modules/.gdmarshal-stamp"
            fi
        fi
        if [ -f "$d/requirements.txt" ]; then
            local s; s=$(stamp "$d/requirements.txt")
            if [ "$(cat "$d/.venv/.gdmarshal-stamp" 2>/dev/null)" != "$s" ]; then
                log "virtual environment in $d"
                rm -rf "$d/.venv"
                python3 -m venv "$d/.venv"
                "$d/.venv/bin/pip" install --quiet --disable-pip-version-check -r "$d/requirements.txt" >&2
                echo "$s" >"$d/.venv/.gdmarshal-stamp"
            fi
        fi
        if [ -f "$d/Cargo.toml" ]; then
            log "building the adapter in $d"
            cargo build --quiet --release --locked --manifest-path "$d/Cargo.toml" >&2
        fi
    done
}

# The newest version a registry has of a package.
latest() {
    local registry=$1 package=$2
    case "$registry" in
        npm) npm view "$package" version ;;
        crates) cargo info --quiet "$package" 2>/dev/null | sed -n 's/^version: \([^ ]*\).*/\1/p' | head -1 ;;
        pypi) python3 -m pip index versions "$package" 2>/dev/null | sed -n 's/^[^ ]* (\(.*\))$/\1/p' | head -1 ;;
    esac
}

outdated() {
    local stale=0 registry package newest folder have
    while IFS=$'\t' read -r registry package newest folder; do
        have=$(latest "$registry" "$package")
        if [ -z "$have" ]; then
            log "cannot ask the $registry registry about $package"; stale=2
        elif [ "$have" != "$newest" ]; then
            echo "$registry $package: the matrix measures $newest at newest, the registry has $have"
            [ "$stale" = 2 ] || stale=1
            [ -z "${BUMP:-}" ] || bump_one "$registry" "$package" "$newest" "$folder" "$have"
        fi
    done < <(python3 - "$dir" <<'PY'
import json, pathlib, sys
newest = {}
for m in pathlib.Path(sys.argv[1]).glob("*/implementation.json"):
    j = json.loads(m.read_text())
    key = (j["registry"], j["package"])
    parts = lambda v: [int(p) if p.isdigit() else p for p in v.split(".")]
    if key not in newest or parts(j["version"]) > parts(newest[key][0]):
        newest[key] = (j["version"], m.parent.name)
for (registry, package), (version, folder) in sorted(newest.items()):
    print(f"{registry}\t{package}\t{version}\t{folder}")
PY
)
    return "$stale"
}

# A copy of the newest folder of a package, pinned to the registry's newer version.
bump_one() {
    local registry=$1 package=$2 old=$3 folder=$4 new=$5
    local to="$dir/${folder%"$old"}$new"
    case "$registry" in
        npm|pypi) ;;
        *) log "$package $new: a crate's new version needs its adapter's Cargo.toml changed by hand"; return ;;
    esac
    [ ! -e "$to" ] || { log "$to is there already"; return; }
    mkdir "$to"
    (cd "$dir/$folder" && find . -maxdepth 1 -type f -exec cp {} "$root/$to/" \;)
    python3 - "$to/implementation.json" "$new" <<'PY'
import json, sys
path, new = sys.argv[1], sys.argv[2]
j = json.load(open(path))
j["version"] = new
open(path, "w").write(json.dumps(j, indent=2, ensure_ascii=False) + "\n")
PY
    if [ "$registry" = npm ]; then
        (cd "$to" && npm install --save-exact --omit-lockfile-registry-resolved --no-audit --no-fund --quiet "$package@$new" >&2)
    else
        sed -i "s/^$package==.*/$package==$new/" "$to/requirements.txt"
    fi
    echo "$to"
}

case "${1:-}" in
    install) install ;;
    outdated) outdated ;;
    bump) BUMP=1 outdated || [ $? = 1 ] ;;
    ""|--check)
        install
        cargo build --quiet --release --bin gdmarshal
        "$root/target/release/gdmarshal" implementations --testee-network none \
            --json docs/implementations.json ${1:+"$1"}
        ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' ;;
    *) echo "implementations: unknown argument $1 (see --help)" >&2; exit 2 ;;
esac
