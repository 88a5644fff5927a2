#!/usr/bin/env bash
# How much of Godot's own encoder and decoder (core/io/marshalls.cpp of 4.6.3) the corpus and a
# differential campaign reach, measured on the coverage build of scripts/build-engine.sh.
#
# 1. clears the build's coverage counters (*.gcda);
# 2. runs every corpus case (`gdmarshal corpus generate`, into a scratch folder), the stress cases
#    (`gdmarshal corpus stress`) and a campaign of --cases cases (`gdmarshal diff`, reproducers and
#    log in the scratch folder) through the engine 4.6-coverage;
# 3. reads the counters with gcovr and writes docs/engine-coverage.md and docs/engine-coverage.json
#    (scripts/engine-coverage-report.py): line and branch coverage of decode_variant,
#    encode_variant and their helpers, and every line not reached with its reason from
#    docs/engine-coverage-reasons.tsv.
#
# Nothing here runs in CI: the coverage build takes long (docs/engine-coverage.md says how long).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/engine-cache.sh
. scripts/lib/engine-cache.sh

CASES=200000
SEED=1
BUILD=0
usage() {
    cat <<'EOF'
Usage: scripts/engine-coverage.sh [--cases N] [--seed S] [--build] [--help]

Runs the corpus, the stress cases and a campaign of N cases (default 200000, seed 1) through the
coverage build of Godot 4.6.3 and writes docs/engine-coverage.md and docs/engine-coverage.json.

  --build   build the coverage engine first if it is missing (scripts/build-engine.sh --variant coverage)
EOF
}
while [ $# -gt 0 ]; do
    case $1 in
        --cases) [[ ${2:-} =~ ^[0-9]+$ ]] || { log "error: --cases needs a number"; exit 2; }; CASES=$2; shift 2 ;;
        --seed) [[ ${2:-} =~ ^[0-9]+$ ]] || { log "error: --seed needs a number"; exit 2; }; SEED=$2; shift 2 ;;
        --build) BUILD=1; shift ;;
        -h | --help) usage; exit 0 ;;
        *) log "error: unknown argument: $1 (see --help)"; exit 2 ;;
    esac
done

NAME=4.6-coverage
DIR="$(engine_cache_dir)/$NAME"
if [ ! -e "$DIR/.ok" ]; then
    if [ "$BUILD" -eq 1 ]; then
        bash scripts/build-engine.sh --variant coverage
    else
        log "error: the coverage engine is not built ($DIR/.ok missing): run scripts/build-engine.sh --variant coverage, or pass --build"
        exit 1
    fi
fi
command -v gcovr >/dev/null || { log "error: gcovr is missing (scripts/build-engine.sh installs it)"; exit 1; }

cargo build --quiet --release --bin gdmarshal
GDM=target/release/gdmarshal
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/gdmarshal-coverage.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT

start=$SECONDS
find "$DIR/src" -name '*.gcda' -delete
log "corpus: every case of the 4.6 corpus through $NAME..."
cp corpus/manifest.json "$SCRATCH/"
"$GDM" corpus generate --engine "$NAME" --dir "$SCRATCH" | tee "$SCRATCH/corpus.txt"
log "stress cases..."
"$GDM" corpus stress --engine "$NAME" --dir "$SCRATCH" | tee "$SCRATCH/stress.txt"
log "campaign: $CASES cases, seed $SEED..."
"$GDM" diff --engine "$NAME" --cases "$CASES" --seed "$SEED" --findings "$SCRATCH/findings" \
    --open-findings findings | tee "$SCRATCH/campaign.txt" || true
wall=$((SECONDS - start))

log "reading the counters..."
(cd "$DIR/src" && gcovr --root . --filter 'core/io/marshalls\.cpp' --json "$SCRATCH/gcovr.json" \
    --gcov-ignore-parse-errors >"$SCRATCH/gcovr.log" 2>&1) || { cat "$SCRATCH/gcovr.log" >&2; exit 1; }
python3 scripts/engine-coverage-report.py \
    --gcovr "$SCRATCH/gcovr.json" --source "$DIR/src/core/io/marshalls.cpp" \
    --engine-json "$DIR/engine.json" --reasons docs/engine-coverage-reasons.tsv \
    --corpus-summary "$SCRATCH/corpus.txt" --stress-summary "$SCRATCH/stress.txt" \
    --campaign-log "$SCRATCH/findings/campaigns.jsonl" \
    --cases "$CASES" --seed "$SEED" --wall "$wall" \
    --double-json "$(engine_cache_dir)/4.6-double/engine.json" \
    --md docs/engine-coverage.md --json docs/engine-coverage.json
