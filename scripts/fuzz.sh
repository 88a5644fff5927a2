#!/usr/bin/env bash
# Fuzzing with cargo-fuzz (libFuzzer). Targets live in fuzz/fuzz_targets; their checks are
# the testkit crate's properties (testkit/src/properties.rs), which tests/fuzz_replay.rs also runs on stable.
#
#   scripts/fuzz.sh install                  cargo-fuzz, if missing
#   scripts/fuzz.sh seeds                    fuzz/seeds/* from tests/vectors/*.txt
#   scripts/fuzz.sh run TARGET SECONDS [JOBS]   KEEP_GOING=1: fork mode, past crashes
#   scripts/fuzz.sh smoke                    build every target, run each for 20 s (CI)
#   scripts/fuzz.sh replay TARGET FILE       run one input through a target
#   scripts/fuzz.sh tmin TARGET FILE         minimize a crash input
#   scripts/fuzz.sh cmin TARGET              minimize fuzz/corpus/TARGET in place
#   scripts/fuzz.sh coverage TARGET          per-file coverage of src/ (needs llvm-tools)
#   scripts/fuzz.sh differential ENGINE SECONDS   codec against a live engine (e.g. 4.6); its
#                                            findings are campaign reproducers in findings/,
#                                            replayed with `gdmarshal diff --replay FILE`
#   scripts/fuzz.sh speed [SECONDS]          exec/s of each target on one core (default 30 s),
#                                            on a scratch copy of its corpus; a table
#
# SANITIZER=none skips AddressSanitizer: the codec is safe Rust but for three small unsafe blocks,
# and it roughly doubles exec/s.
# TRACE_COMPARES=1 builds with libFuzzer's comparison tracing, which is off by default here.
# DEBUG_ASSERTIONS=1 builds with every debug assertion; by default only overflow checks are on.
# LIBFUZZER_FLAGS adds libFuzzer flags to run, smoke, cmin and speed; they come last, so they win
# (LIBFUZZER_FLAGS=-use_counters=0 fuzzes edges without hit counts, and
# LIBFUZZER_FLAGS=-entropic_scale_per_exec_time=0 gives every input libFuzzer's plain share of
# mutations again, see docs/fuzzing.md).
# The differential target defaults to SANITIZER=none: its cost is the engine round trip, and
# the engine is a separate, uninstrumented process. Its findings go to findings/<class>/, as a
# campaign's do (GDMARSHAL_FINDINGS_DIR overrides).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
fuzz=$root/fuzz
targets=(decode roundtrip)

usage() {
    sed -n '5,16p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

# Comparison tracing (cargo-fuzz's default) is off: on `decode` it took 40% of the time and its
# runs reached no more edges than runs without it (docs/fuzzing.md). TRACE_COMPARES=1 keeps it.
# Builds are optimized with overflow checks on (see rust_flags) but without the rest of the debug
# assertions; DEBUG_ASSERTIONS=1 builds with all of them, cargo-fuzz's default.
# Every build here gets the same options, so no command rebuilds what another built.
build_options() {
    [[ ${TRACE_COMPARES:-0} == 1 ]] || echo --no-trace-compares
    [[ ${DEBUG_ASSERTIONS:-0} == 1 ]] || echo --release
}

# Overflow checks on the lengths and counts the decoder reads are part of what the fuzzing tests.
# The other debug assertions are mostly the standard library's checks of unsafe preconditions,
# inlined everywhere; they cost `decode` about a tenth of its rate (docs/fuzzing.md).
rust_flags() {
    local flags=${RUSTFLAGS:-}
    [[ ${DEBUG_ASSERTIONS:-0} == 1 ]] || flags="$flags -Coverflow-checks=on"
    echo "${flags# }"
}

# cargo-fuzz needs nightly flags; without a nightly toolchain, let stable accept them. Installs
# cargo-fuzz first if it is missing, so that every command works on a fresh machine.
cargo_fuzz() { # SUBCOMMAND ARGS...
    local sub=$1 options
    shift
    install
    mapfile -t options < <(build_options)
    if cargo +nightly --version >/dev/null 2>&1; then
        RUSTFLAGS=$(rust_flags) cargo +nightly fuzz "$sub" "${options[@]}" "$@"
    else
        RUSTFLAGS=$(rust_flags) RUSTC_BOOTSTRAP=1 cargo fuzz "$sub" "${options[@]}" "$@"
    fi
}

sanitizer() { echo "--sanitizer=${SANITIZER:-address}"; }

check_target() {
    [[ " ${targets[*]} " == *" ${1:-} "* ]] || { echo "unknown target '${1:-}': ${targets[*]}" >&2; exit 2; }
}

libfuzzer_flags=(-dict="$fuzz/gdmarshal.dict" -rss_limit_mb=2048 -timeout=5)

# The libFuzzer flags of every run, one a line: the common ones, those of fuzz/libfuzzer.options
# (its [libfuzzer] section's `name = value` lines, which ClusterFuzzLite's runs use too), then
# LIBFUZZER_FLAGS, which win.
flags() {
    printf '%s\n' "${libfuzzer_flags[@]}"
    sed -n '/^\[libfuzzer\]/,/^\[/s/^\([a-z_]\+\) *= *\(.*\)$/-\1=\2/p' "$fuzz/libfuzzer.options"
    # shellcheck disable=SC2086 # LIBFUZZER_FLAGS is a list of words
    [[ -z ${LIBFUZZER_FLAGS:-} ]] || printf '%s\n' ${LIBFUZZER_FLAGS}
}

install() {
    cargo fuzz --version >/dev/null 2>&1 || cargo install cargo-fuzz --locked
}

# The selector byte that the testkit's properties::select maps to a profile: 2 * (index in
# all_profiles(): 3.m is m, 4.m is 7 + m) + objects. tests/fuzz_replay.rs checks this mapping.
selector() {
    local version=$1 objects=$2 major=${1%%.*} minor=${1#*.}
    local index=$((major == 3 ? minor : 7 + minor))
    echo $((2 * index + objects))
}

# Hex text to raw bytes with coreutils only (no xxd on a bare CI image).
unhex() {
    printf '%b' "$(echo -n "$1" | sed 's/../\\x&/g')"
}

seeds() {
    local dir=$fuzz/seeds/decode n=0
    rm -rf "$dir" && mkdir -p "$dir"
    for file in tests/vectors/godot-*.txt; do
        local engine=${file##*/godot-}
        local version
        version=$(echo "$engine" | cut -d. -f1-2)
        while read -r name hex; do
            [[ -z $name || $name == \#* ]] && continue
            local objects=0
            [[ $name == */full_objects ]] && objects=1
            local out
            out=$dir/$version-$(echo "$name" | tr -c 'A-Za-z0-9._\n-' '_')
            [[ -e $out ]] && { echo "duplicate seed name $out" >&2; exit 1; }
            unhex "$(printf %02x "$(selector "$version" $objects)")$hex" >"$out"
            n=$((n + 1))
        done <"$file"
    done
    # roundtrip: every selector with the same generator bytes, so each profile is drawn from.
    dir=$fuzz/seeds/roundtrip
    rm -rf "$dir" && mkdir -p "$dir"
    local profiles=21 body
    body=$(seq 0 63 | xargs printf '%02x')
    for ((s = 0; s < 2 * profiles; s++)); do
        unhex "$(printf %02x $s)$body" >"$(printf '%s/selector-%02x' "$dir" $s)"
    done
    # differential: the decode seeds serve its decode mode as they are (selectors below 0x80);
    # these are its encode mode (0x80, objects bit 0), drawing a value from the same bytes.
    dir=$fuzz/seeds/differential
    rm -rf "$dir" && mkdir -p "$dir"
    for s in 80 81; do
        unhex "$s$body" >"$dir/encode-$s"
        unhex "$s$(seq 63 -1 0 | xargs printf '%02x')" >"$dir/encode-$s-down"
    done
    echo "wrote $n decode seeds, $((2 * profiles)) roundtrip seeds and 4 differential seeds under fuzz/seeds/"
}

run() {
    check_target "${1:-}"
    local target=$1 seconds=${2:?usage: run TARGET SECONDS [JOBS]} jobs=${3:-1}
    local corpus=$fuzz/corpus/$target flags
    mkdir -p "$corpus"
    mapfile -t flags < <(flags)
    local extra=()
    if [[ ${KEEP_GOING:-0} == 1 ]]; then
        # Fork mode saves each crash to fuzz/artifacts/ and carries on, for long runs.
        extra=(-fork="$jobs" -ignore_crashes=1)
    elif ((jobs > 1)); then
        extra=(-jobs="$jobs" -workers="$jobs")
    fi
    # The first directory is where new inputs go; the seeds are read only.
    cargo_fuzz run "$(sanitizer)" "$target" "$corpus" "$fuzz/seeds/$target" -- \
        "${flags[@]}" -max_total_time="$seconds" "${extra[@]}"
}

smoke() {
    cargo_fuzz build "$(sanitizer)"
    # Every target runs even after one crashes, so one report shows them all.
    local failed=()
    for t in "${targets[@]}"; do
        run "$t" 20 || failed+=("$t")
    done
    if ((${#failed[@]})); then
        echo "fuzz smoke: crashes in ${failed[*]}; inputs under fuzz/artifacts/" >&2
        exit 1
    fi
}

replay() {
    check_target "${1:-}"
    cargo_fuzz run "$(sanitizer)" "$1" "${2:?usage: replay TARGET FILE}"
}

tmin() {
    check_target "${1:-}"
    local target=$1 file=${2:?usage: tmin TARGET FILE}
    cargo_fuzz tmin "$(sanitizer)" "$target" "$file" -- -timeout=5 >&2
    local min
    # shellcheck disable=SC2012 # artifact names are hex digests
    min=$(ls -t "$fuzz/artifacts/$target"/minimized-from-* | head -1)
    echo "minimized: $(od -An -tx1 -v "$min" | tr -d ' \n')"
    echo "replay: scripts/fuzz.sh replay $target ${min#"$root"/}"
}

cmin() {
    check_target "${1:-}"
    local flags
    mkdir -p "$fuzz/corpus/$1"
    mapfile -t flags < <(flags)
    cargo_fuzz cmin "$(sanitizer)" "$1" "$fuzz/corpus/$1" -- "${flags[@]}"
}

coverage() {
    check_target "${1:-}"
    local host tools
    host=$(rustc -vV | sed -n 's/^host: //p')
    # Its own target dir: the instrumented build must not replace the fuzzing build.
    cargo_fuzz coverage --target-dir "$fuzz/target/coverage" "$1" "$fuzz/corpus/$1" "$fuzz/seeds/$1"
    tools=$(rustc +nightly --print sysroot)/lib/rustlib/$host/bin
    [[ -x $tools/llvm-cov ]] || rustup component add llvm-tools --toolchain nightly
    "$tools/llvm-cov" report "$fuzz/target/coverage/$host/release/$1" \
        -instr-profile="$fuzz/coverage/$1/coverage.profdata" -ignore-filename-regex='/\.cargo/|/rustc/|/fuzz/'
}

differential_binary() {
    local host
    host=$(rustc -vV | sed -n 's/^host: //p')
    cargo_fuzz build --sanitizer="${SANITIZER:-none}" differential >&2
    echo "$fuzz/target/$host/release/differential"
}

differential() {
    local engine=${1:?usage: differential ENGINE SECONDS} seconds=${2:?usage: differential ENGINE SECONDS}
    local corpus=$fuzz/corpus/differential-$engine bin
    mkdir -p "$corpus"
    bin=$(differential_binary)
    # The engine's own timeout (3 s) and restart come first; libFuzzer's is a backstop.
    GDMARSHAL_FUZZ_ENGINE=$engine "$bin" "$corpus" "$fuzz/seeds/differential" "$fuzz/seeds/decode" \
        -dict="$fuzz/gdmarshal.dict" -rss_limit_mb=4096 -timeout=60 -max_total_time="$seconds" \
        -print_final_stats=1
    local found=${GDMARSHAL_FINDINGS_DIR:-$root/findings}
    echo "reproducers under ${found#"$root"/}: $(find "$found" -name "$engine-*.json" 2>/dev/null | wc -l) for engine $engine; replay one with: gdmarshal diff --replay FILE"
}

# exec/s of each target, one process on one core, on a scratch copy of its corpus plus the seeds
# (the measurement leaves fuzz/corpus as it was), built and run as `run` does. The sanitizer is
# SANITIZER's, as everywhere here; the differential target's rate is in `differential`'s output.
speed() {
    local seconds=${1:-30} scratch line log flags
    [[ $seconds =~ ^[0-9]+$ ]] || { echo "speed: SECONDS must be a number" >&2; exit 2; }
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' RETURN
    echo "| target | sanitizer | seconds | corpus inputs | exec/s |"
    echo "|---|---|---:|---:|---:|"
    for t in "${targets[@]}"; do
        mkdir -p "$scratch/$t"
        [[ -d $fuzz/corpus/$t ]] && cp -r "$fuzz/corpus/$t/." "$scratch/$t/"
        log=$scratch/$t.log
        mapfile -t flags < <(flags)
        cargo_fuzz run "$(sanitizer)" "$t" "$scratch/$t" "$fuzz/seeds/$t" -- \
            "${flags[@]}" -max_total_time="$seconds" -print_final_stats=1 >"$log" 2>&1 || true
        line=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
        [[ -n $line ]] || { tail -n 20 "$log" >&2; echo "speed: $t printed no rate (its output's end is above)" >&2; exit 1; }
        echo "| $t | ${SANITIZER:-address} | $seconds | $(find "$fuzz/corpus/$t" -type f 2>/dev/null | wc -l) | $line |"
    done
}

case "${1:-}" in
install | seeds | run | smoke | replay | tmin | cmin | coverage | differential | speed) cmd=$1 && shift && "$cmd" "$@" ;;
*) usage ;;
esac
