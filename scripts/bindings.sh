#!/usr/bin/env bash
# The codec for other ecosystems (bindings/): build the packages, or test them as users get them.
#
#   scripts/bindings.sh build [python]   the wheel into target/bindings/ (gdmarshal-*.whl)
#   scripts/bindings.sh test  [python]   build, then install each package into a clean place (a
#                                        fresh venv), run its tests there, and run `gdmarshal
#                                        conform` with its testee (testees/package-python) on
#                                        3.2, 3.6 and 4.6: the totals must be the codec's own
#
# What it needs is installed first, pinned and cached under ${XDG_CACHE_HOME:-~/.cache}/gdmarshal:
# maturin (a venv of its own) for the wheel; the engines' corpus is in the repository.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
MATURIN=maturin==1.16.0
out=target/bindings
say() { printf 'bindings: %s\n' "$*" >&2; }

build_python() {
    # shellcheck source=scripts/lib/venv.sh
    . scripts/lib/venv.sh
    local venv
    venv=$(pinned_venv maturin-venv "maturin --version" "$MATURIN")
    mkdir -p "$out"
    rm -f "$out"/gdmarshal-*.whl
    # abi3 for CPython 3.9 and later; the manylinux tag is the oldest glibc whose symbols the
    # module uses, which maturin checks.
    "$venv/bin/maturin" build --quiet --release --locked \
        --manifest-path bindings/python/Cargo.toml --out "$out" >&2
    say "$(ls "$out"/gdmarshal-*.whl)"
}

test_python() {
    local scratch wheel
    wheel=$(ls "$out"/gdmarshal-*.whl)
    # Under target/: the testee runs fenced, with a private /tmp.
    scratch=$(mktemp -d "$root/$out/python-test.XXXXXX")
    trap 'rm -rf "$scratch"' RETURN
    python3 -m venv "$scratch/venv"
    "$scratch/venv/bin/pip" install --quiet --disable-pip-version-check --no-deps "$wheel"
    say "python: unit tests against the installed wheel"
    # From the scratch folder, so that the package comes from the venv, not from the tree.
    (cd "$scratch" && "$scratch/venv/bin/python" -m unittest discover -s "$root/bindings/python/tests" -t "$root/bindings/python/tests")
    say "python: conform with testees/package-python"
    conform_all "$scratch/venv/bin/python $root/testees/package-python/gdmarshal_testee.py"
}

# Runs the corpus of 3.2, 3.6 and 4.6 against TESTEE and against the codec's own testee; fails
# unless each run passes and both give the same totals.
conform_all() { # testee
    cargo build --quiet --locked --release --bin gdmarshal
    cargo build --quiet --locked --release --manifest-path testees/rust/Cargo.toml
    local kit=testees/rust/target/release/gdmarshal-testee-kit version
    for version in 3.2 3.6 4.6; do
        target/release/gdmarshal conform --testee "$kit" --godot "$version" --strict-errors --corpus corpus \
            --format json >"$out/conform-own-$version.json" || { say "the codec's own testee fails on $version"; return 1; }
        target/release/gdmarshal conform --testee "$1" --godot "$version" --strict-errors --corpus corpus \
            --format json >"$out/conform-package-$version.json" || {
            target/release/gdmarshal conform --testee "$1" --godot "$version" --strict-errors | tail -40 >&2
            say "the package's testee fails on $version"
            return 1
        }
        python3 scripts/bindings/same-totals.py "$out/conform-own-$version.json" "$out/conform-package-$version.json"
    done
}

packages=("${@:2}")
[ ${#packages[@]} -gt 0 ] || packages=(python)
case ${1:-} in
    build)
        for p in "${packages[@]}"; do "build_$p"; done
        ;;
    test)
        for p in "${packages[@]}"; do "build_$p"; "test_$p"; done
        ;;
    *)
        awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0" >&2
        exit 2
        ;;
esac
