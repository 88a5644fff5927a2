#!/usr/bin/env bash
# The adapter kits under testees/ (docs/conformance.md): the Node.js, Go, C# and Rust kits each
# pass the corpus of every verified engine version with --strict-errors, stress cases and
# rejection kinds included, each one's deliberately broken variant
# (GDMARSHAL_TESTEE_BROKEN=cap-65535) fails, and so does every variant of the Go kit's bug
# catalogue (scripts/bug-catalogue.py). Toolchains: scripts/install-kit-toolchains.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
for tool in node go mcs mono; do
  command -v "$tool" >/dev/null || {
    echo "kits: $tool is not installed (scripts/install-kit-toolchains.sh installs it)" >&2
    exit 1
  }
done
cargo build --quiet --release --bin gdmarshal
out="$root/target/testee-kit"
mkdir -p "$out"
# The Rust kit is a crate of its own, outside the workspace; its build goes under target/.
cargo fmt --manifest-path testees/rust/Cargo.toml -- --check
CARGO_TARGET_DIR="$out" cargo clippy --quiet --release --locked \
  --manifest-path testees/rust/Cargo.toml -- -D warnings
CARGO_TARGET_DIR="$out" cargo build --quiet --release --locked \
  --manifest-path testees/rust/Cargo.toml
# The Go kit: formatted, vetted, built with the standard library alone.
(
  cd testees/go
  unformatted=$(gofmt -l .)
  [ -z "$unformatted" ] || { echo "kits: gofmt would change: $unformatted" >&2; exit 1; }
  go vet .
  go build -o "$out/gdmarshal-testee-go" .
)
# The C# kit, with Mono's compiler; warnings are errors, as a .NET build with them on would be.
mcs -nologo -r:System.Numerics.dll -optimize+ -warnaserror+ \
  -out:"$out/GdmarshalTestee.exe" testees/csharp/*.cs
gdmarshal=./target/release/gdmarshal
kits=(
  "node testees/node/gdmarshal_testee.js"
  "$out/gdmarshal-testee-go"
  "mono $out/GdmarshalTestee.exe"
  "$out/release/gdmarshal-testee-kit"
)
status=0
for kit in "${kits[@]}"; do
  for v in 3.2 3.6 4.6; do
    if ! "$gdmarshal" conform --testee "$kit" --godot "$v" --strict-errors --output /dev/null \
      | grep -E '^(ok|FAILED)' | sed "s|^|$v $kit: |"; then
      status=1
    fi
  done
  # The sandbox passes the testee only the variables named with --testee-env.
  if GDMARSHAL_TESTEE_BROKEN=cap-65535 "$gdmarshal" conform --testee "$kit" --godot 4.6 \
    --testee-env GDMARSHAL_TESTEE_BROKEN --run '*/stress/**' --output /dev/null >/dev/null; then
    echo "4.6 $kit (broken: cap-65535): passed, but must fail" >&2
    status=1
  else
    echo "4.6 $kit (broken: cap-65535): fails, as it must"
  fi
done
# The bug catalogue: every broken variant of the Go kit caught by at least 3 cases on each version
# it applies to, and docs/conformance.md's table the one measured.
python3 scripts/bug-catalogue.py check "$gdmarshal" "$out/gdmarshal-testee-go" || status=1
exit $status
