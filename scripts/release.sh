#!/usr/bin/env bash
# Builds the release artefacts of the `gdmarshal` binary for x86_64 Linux into dist/ (or --out DIR):
#
#   gdmarshal-VERSION-x86_64-unknown-linux-gnu          the static binary
#   gdmarshal-VERSION-x86_64-unknown-linux-gnu.tar.gz   gdmarshal-VERSION-x86_64-unknown-linux-gnu/
#                                                       {gdmarshal, LICENSE-MIT, LICENSE-APACHE, README.md}
#   SHA256SUMS                                          `sha256sum` of the two above
#   gdmarshal                                           the same binary under a fixed name, for the
#                                                       Dockerfile (not a release asset)
#
# VERSION is what the built binary says of itself (the second word of the first line of
# `gdmarshal --version`), which must equal the cli crate's version in Cargo.toml; the release
# workflow checks that the tag is `v` + VERSION, and action.yml relies on that to find a tag's
# tarball.
#
# Usage: scripts/release.sh [--out DIR]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
target=x86_64-unknown-linux-gnu
out="$root/dist"

while [ $# -gt 0 ]; do
    case "$1" in
        --out) [ $# -ge 2 ] || { echo "release.sh: --out needs a folder" >&2; exit 2; }; out=$2; shift 2 ;;
        --out=*) out=${1#--out=}; shift ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "release.sh: unknown argument: $1 (usage: scripts/release.sh [--out DIR])" >&2; exit 2 ;;
    esac
done

# --out is relative to where the script was called from.
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$root"
for f in LICENSE-MIT LICENSE-APACHE README.md; do
    [ -f "$f" ] || { echo "release.sh: $f is missing at the repository root" >&2; exit 1; }
done

# Static glibc (musl is not available here): crt-static links libc into the binary, so it runs on
# any x86_64 Linux, in `FROM scratch` too. With an explicit --target, RUSTFLAGS reach only the
# target's crates, not build scripts and proc-macros (which must stay dynamic to be loaded). Its
# own target folder, so that the flags do not invalidate the normal build in target/.
# CARGO_ENCODED_RUSTFLAGS would take precedence over RUSTFLAGS: unset it.
unset CARGO_ENCODED_RUSTFLAGS
export RUSTFLAGS="-C target-feature=+crt-static"
export CARGO_TARGET_DIR="$root/target/static"
# Symbols stripped: a user's download has no use for them (a third of the size).
export CARGO_PROFILE_RELEASE_STRIP=symbols
cargo build --release --locked --target "$target" --bin gdmarshal
bin="$CARGO_TARGET_DIR/$target/release/gdmarshal"

# Static or nothing: a dynamic binary would work here and fail on a machine with another glibc.
# ldd exits 1 on a static binary, hence `|| true`; its words decide.
ldd_out=$(ldd "$bin" 2>&1 || true)
echo "ldd: $ldd_out"
case "$ldd_out" in
    *"not a dynamic executable"*|*"statically linked"*) ;;
    *) echo "release.sh: $bin is not static" >&2; exit 1 ;;
esac
if command -v file >/dev/null; then
    file_out=$(file -b "$bin")
    echo "file: $file_out"
    case "$file_out" in
        *"dynamically linked"*) echo "release.sh: file says $bin is dynamically linked" >&2; exit 1 ;;
        *"statically linked"*|*"static-pie linked"*) ;;
        *) echo "release.sh: file does not say $bin is static" >&2; exit 1 ;;
    esac
fi

# Smoke test in an empty environment (no PATH, no HOME): what a container or a bare CI step has.
version_line=$(env -i "$bin" --version)
echo "env -i gdmarshal --version: $version_line"
version=$(awk 'NR == 1 {print $2}' <<<"$version_line")
# The asset names carry this version: it must be the crate's, not a word of a changed --version.
pkg_version=$(cargo pkgid --quiet -p gdmarshal-cli | sed 's/.*[@#]//')
if [ "$version" != "$pkg_version" ]; then
    echo "release.sh: the binary says version '$version', Cargo.toml says '$pkg_version'" >&2
    exit 1
fi

name="gdmarshal-$version-$target"
# Idempotent: only the files this script writes are replaced, whatever else the folder holds;
# artefacts of another version are removed so that a release never uploads a stale one.
rm -f "$out"/gdmarshal "$out"/gdmarshal-*-"$target" "$out"/gdmarshal-*-"$target".tar.gz "$out"/SHA256SUMS

install -m 0755 "$bin" "$out/$name"
install -m 0755 "$bin" "$out/gdmarshal"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/$name"
install -m 0755 "$bin" "$stage/$name/gdmarshal"
install -m 0644 LICENSE-MIT LICENSE-APACHE README.md "$stage/$name/"
# A reproducible archive (fixed order, owner and time, no gzip timestamp), so that running the
# script twice on the same commit gives the same SHA256SUMS.
mtime=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || stat -c %Y Cargo.toml)}
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$mtime" \
    -C "$stage" -cf - "$name" | gzip -9 -n >"$out/$name.tar.gz"

(cd "$out" && sha256sum "$name" "$name.tar.gz" >SHA256SUMS)

size=$(stat -c %s "$out/$name")
echo "binary size: $size bytes ($(numfmt --to=iec-i --suffix=B "$size"))"
# The embedded corpus's share: `--version` states its compressed size.
corpus=$(env -i "$bin" --version | sed -n 's/.* \([0-9]*\) bytes compressed from.*/\1/p')
echo "embedded corpus: $corpus bytes compressed ($(awk -v c="$corpus" -v s="$size" 'BEGIN {printf "%.1f", 100 * c / s}')% of the binary)"
echo "artefacts in $out:"
(cd "$out" && ls -l "$name" "$name.tar.gz" SHA256SUMS gdmarshal)
cat "$out/SHA256SUMS"
