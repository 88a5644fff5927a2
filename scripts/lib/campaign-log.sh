# shellcheck shell=bash
# Shared by scripts/campaign-shard.sh and scripts/campaign-merge.sh: reading campaign run logs
# (FINDINGS/campaigns.jsonl, one JSON line per seed's run, lab/src/campaign/log.rs) with jq, and
# the gdmarshal binary to run. Source it after `set -euo pipefail`.

log() { printf '%s\n' "$*" >&2; }

# jq reads the logs; installed from Debian's packages when missing, as lint-workflows.sh installs
# its linter.
need_jq() {
    command -v jq >/dev/null && return 0
    command -v apt-get >/dev/null || { log "jq is needed to read campaign logs (and there is no apt-get to install it)"; exit 2; }
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq jq >/dev/null
}

# The gdmarshal binary, as an absolute path: $GDMARSHAL_BIN, else this checkout's release build
# (built if needed).
gdmarshal_bin() {
    if [ -n "${GDMARSHAL_BIN:-}" ]; then
        [ -x "$GDMARSHAL_BIN" ] || { log "GDMARSHAL_BIN=$GDMARSHAL_BIN is not an executable"; exit 2; }
        printf '%s/%s\n' "$(cd "$(dirname "$GDMARSHAL_BIN")" && pwd)" "$(basename "$GDMARSHAL_BIN")"
        return 0
    fi
    local root
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
    (cd "$root" && cargo build --quiet --release --bin gdmarshal) >&2
    printf '%s\n' "$root/target/release/gdmarshal"
}

# An inclusive seed range A..B as its seeds, one a line; exits 2 on anything else.
seeds_of() {
    local range=$1 first last
    if ! [[ $range =~ ^([0-9]+)\.\.([0-9]+)$ ]]; then
        log "$range is not a range of seeds: write A..B, e.g. 1..4"
        exit 2
    fi
    first=${BASH_REMATCH[1]} last=${BASH_REMATCH[2]}
    ((first <= last)) || { log "the range $range is empty"; exit 2; }
    seq "$first" "$last"
}

# For every engine and seed of the logs given (FILE...), how many cases from index 0 on are run
# without a gap: "ENGINE SEED COVERED" lines. A seed run in parts (an interrupted run, then its
# resumption with --from) counts as one; a part that starts past the covered prefix is left out.
covered_cases() {
    [ $# -gt 0 ] || return 0
    jq -rs '
        map(. as $e | $e.engines[] | {engine, seed: $e.seed, from: $e.from, done})
        | group_by([.engine, .seed])[]
        | {engine: .[0].engine, seed: .[0].seed,
           covered: (sort_by(.from) | reduce .[] as $p (0;
               if $p.from <= . then ([., $p.from + $p.done] | max) else . end))}
        | "\(.engine) \(.seed) \(.covered)"' "$@"
}
