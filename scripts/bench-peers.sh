#!/usr/bin/env bash
# The side-by-side benchmark: gdmarshal (plain, and reusing buffers: gdmarshal::pool), the Rust
# crate godot-binary-serialization, the npm package @gd-com/utils (under Node, if Node is here),
# Godot 4.6.3 and Godot 3.6.2 (GDScript loops), a memcpy of the same bytes, and this project's own
# packages as users install them (scripts/bindings.sh build): the npm package (runner npm) and the
# Python package (runner python) beside the pure-Python kit (runner python-kit), on the families of
# benches/support/families.rs (peer_families), in the loops of benches/support/loops.rs; every
# runner in its own process.
# Prints the table of docs/benchmarks.md.
#
#   scripts/bench-peers.sh [--runs N] [--family NAME]... [--out FILE]
#   scripts/bench-peers.sh --gate [--floors FILE]   # the CI gate: ratios against benches/floors.tsv
#
# --runs N      runs of each runner (default 3; the table shows the median of the runs)
# --family NAME only this family (repeatable; default every family)
# --out FILE    keep the result lines there (default: a temporary file)
# --gate        one run of the runners the floors name, then fail (exit 1) on any ratio below
#               its floor in --floors (default benches/floors.tsv)
#
# Installs what is missing first: Godot 3.6 and 4.6 (scripts/install-engines.sh) and
# @gd-com/utils 5.0.0 into the cache (npm). Without Node the @gd-com/utils rows say so.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=3 out="" gate="" floors="$root/benches/floors.tsv" families=()
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=${2:?--runs needs a number}; shift 2 ;;
        --family) families+=("${2:?--family needs a name}"); shift 2 ;;
        --out) out=${2:?--out needs a file}; shift 2 ;;
        --gate) gate=1; runs=1; shift ;;
        --floors) floors=${2:?--floors needs a file}; shift 2 ;;
        -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench-peers: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
log() { echo "bench-peers: $*" >&2; }
cache_root=${XDG_CACHE_HOME:-$HOME/.cache}/gdmarshal
engines=${GDMARSHAL_ENGINE_CACHE:-$cache_root/engines}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
[ -n "$out" ] || out="$scratch/results.txt"
: >"$out"

# What the gate needs: the runners its floors name (gdmarshal always).
needs() { [ -z "$gate" ] || grep -v '^#' "$floors" | awk '{print $4}' | grep -qx "$1"; }

if needs godot; then
    bash "$root/scripts/install-engines.sh" --only 3.6,4.6 >&2
fi
gdcom_modules=""
if needs gd-com; then
    if command -v node >/dev/null && command -v npm >/dev/null; then
        peers="$cache_root/peers"
        if [ ! -f "$peers/node_modules/@gd-com/utils/package.json" ]; then
            log "installing @gd-com/utils 5.0.0 into $peers"
            mkdir -p "$peers"
            npm install --prefix "$peers" --no-save --no-audit --no-fund @gd-com/utils@5.0.0 >&2
        fi
        gdcom_modules="$peers/node_modules"
    else
        log "Node.js or npm is not installed: @gd-com/utils is not measured"
    fi
fi

# The project's packages, built from this tree and installed as users install them.
npm_entry="" python_bin=""
if needs npm || needs python || needs python-kit; then
    bash "$root/scripts/bindings.sh" build >&2
    if needs npm && command -v npm >/dev/null; then
        (cd "$scratch" && mkdir npm-package && cd npm-package && npm init -y >/dev/null &&
            npm install --quiet --no-audit --no-fund "$root"/target/bindings/gdmarshal-*.tgz >/dev/null)
        npm_entry="$scratch/npm-package/node_modules/gdmarshal/index.js"
    fi
    python3 -m venv "$scratch/venv"
    "$scratch/venv/bin/pip" install --quiet --disable-pip-version-check --no-deps "$root"/target/bindings/gdmarshal-*.whl
    python_bin="$scratch/venv/bin/python"
fi

cd "$root"
log "building the benchmark"
cargo bench -q --bench peers --no-run 2>/dev/null || cargo bench --bench peers --no-run
bench() { cargo bench -q --bench peers -- "$@" 2>/dev/null; }
for format in 4.6 3.6; do bench --write-bytes "$scratch/bytes" --format "$format"; done
if [ ${#families[@]} -eq 0 ] && [ -n "$gate" ]; then
    # The gate measures the families its floors name.
    families=($(grep -v '^#' "$floors" | awk 'NF {print $2}' | sort -u))
elif [ ${#families[@]} -eq 0 ]; then
    families=($(ls "$scratch/bytes" | sed -nE 's/^4\.6-(.*)\.bin$/\1/p'))
fi

# Godot's loops on FAMILY in FORMAT; its bytes must be gdmarshal's.
godot() { # format family
    local script=families.gd sep=-- bytes="$scratch/godot-$1-$2.bin" line
    [ "$1" = 4.6 ] || { script=families3.gd; sep=""; }
    line=$(HOME="$scratch" timeout 900 "$engines/bin/godot-$1" -s "$root/benches/godot/$script" \
        $sep "$2" "$bytes" 2>/dev/null | grep '^GDMARSHAL_PEER') ||
        { log "Godot $1 printed no result for $2"; return 1; }
    cmp -s "$bytes" "$scratch/bytes/$1-$2.bin" ||
        { log "Godot $1 wrote other bytes than gdmarshal for $2"; return 1; }
    echo "${line/runner=godot/runner=godot format=$1 family=$2} same_bytes=yes version=$("$engines/bin/godot-$1" --version 2>/dev/null | head -1 | cut -d. -f1-3)"
}
packages() { # runner format family
    case "$1" in
        npm) node "$root/benches/peers/npm.mjs" "$npm_entry" "$scratch/bytes" "$2" "$3" ;;
        python) "$python_bin" "$root/benches/peers/python.py" python "$scratch/bytes" "$2" "$3" ;;
        python-kit) "$python_bin" "$root/benches/peers/python.py" python-kit "$scratch/bytes" "$2" "$3" \
            "$root/testees/python/gdmarshal_testee.py" ;;
    esac
}
gdcom() { # format family
    if [ -n "$gdcom_modules" ]; then
        node "$root/benches/peers/gd-com.js" "$gdcom_modules" "$scratch/bytes" "$1" "$2"
    else
        echo "GDMARSHAL_PEER runner=gd-com format=$1 family=$2 bytes=0 unsupported=\"Node.js is not installed here\""
    fi
}

total=$((runs * ${#families[@]}))
i=0
for run in $(seq "$runs"); do
    for family in "${families[@]}"; do
        i=$((i + 1))
        log "[$i/$total] run $run: $family"
        for format in 4.6 3.6; do
            # The gate measures the formats its floors name.
            [ -z "$gate" ] || grep -v '^#' "$floors" | awk '{print $1}' | grep -qx "$format" || continue
            for runner in gdmarshal gdmarshal-reusing memcpy floor walk godot-binary-serialization godot gd-com \
                npm python python-kit; do
                needs "$runner" || [ "$runner" = gdmarshal ] || continue
                case "$runner" in
                    godot) godot "$format" "$family" ;;
                    gd-com) gdcom "$format" "$family" ;;
                    npm | python | python-kit) packages "$runner" "$format" "$family" ;;
                    *) bench --runner "$runner" --format "$format" --family "$family" ;;
                esac >>"$out"
            done
        done
    done
done

if [ -n "$gate" ]; then
    exec python3 "$root/scripts/bench-peers.py" gate "$out" "$floors"
fi
python3 "$root/scripts/bench-peers.py" table "$out"
