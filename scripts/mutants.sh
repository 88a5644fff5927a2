#!/usr/bin/env bash
# Mutation testing of the codec (docs/mutation.md): cargo-mutants changes the codec one mutant at a
# time and counts the mutants that the tests catch.
#
# Usage: scripts/mutants.sh tests|corpus [--shard K/N] [--file GLOB]... [--pending] [--list] [--report]
#        scripts/mutants.sh diff [BASE]
#   tests    score 1: the codec crate's own tests, no engines (.cargo/mutants.toml)
#   corpus   score 2: each mutant's codec behind the Rust adapter kit as a testee, the committed
#            corpus of 3.2, 3.6, 4.6 and 4.6-double run against it by the unmutated binary
#            (.cargo/mutants-corpus.toml, testees/own/tests/corpus_gate.rs)
#   --shard K/N   only the K-th of N shards (K from 0), for splitting a run across machines or days
#   --file GLOB   only mutants in files matching GLOB (repeatable), e.g. --file src/keys.rs
#   --pending     skip the mutants whose outcome in the ledger is current and final (caught,
#                 timeout, unviable, equivalent): resumes a run stopped part-way, on any machine,
#                 and runs the survivors again after new tests
#   --list        list the mutants that would run, and stop
#   --report      only record the results already in target/mutants/ and regenerate docs/mutation.md
#   diff     the CI step: score 1 on the mutants in codec code that the change touches (the diff from
#            BASE, by default the merge base with main, or HEAD's first parent when HEAD is on main),
#            failing on any mutant that survives and is not listed in docs/mutation-equivalent.txt.
#            At most GDMARSHAL_MUTANTS_DIFF_LIMIT mutants (default 12) run: a larger change runs one
#            shard of its mutants, chosen by the commit, and says how to run the rest. With CI set it
#            mutates the tree in place (a fresh clone, whose build it reuses).
#
# Results go to target/mutants/SCORE[-shard-K-of-N][-FILES]/mutants.out/ (cargo-mutants' own
# output: outcomes.json, caught.txt, missed.txt, diffs and logs); every run then records them in
# the committed ledger docs/mutation/outcomes.jsonl (so that runs on other days and machines add
# up, each outcome valid while the code it was measured on is unchanged) and regenerates
# docs/mutation.md from the ledger (scripts/mutation-report.py). Progress: cargo-mutants
# prints one line per mutant. One job at a time (-j 1): builds are the cost, and this machine is
# shared.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

usage() { sed -n '5,22p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 1 ] || usage
score=$1; shift
if [ "$score" = diff ]; then
    [ $# -le 1 ] || usage
    base=${1:-}
    if [ -z "$base" ]; then
        main=$(git rev-parse --verify --quiet main || git rev-parse --verify --quiet origin/main || true)
        [ -n "$main" ] && base=$(git merge-base HEAD "$main")
        if [ -z "$base" ] || [ "$base" = "$(git rev-parse HEAD)" ]; then
            base=$(git rev-parse --verify --quiet HEAD^1 || true)
        fi
    fi
    if [ -z "$base" ]; then
        echo "mutants in diff: no base commit (a single commit): nothing to compare with" >&2
        exit 0
    fi
    diff=$(mktemp)
    trap 'rm -f "$diff"' EXIT
    git diff "$base" HEAD -- src > "$diff"
    echo "mutants in diff: $(git rev-parse --short "$base")..$(git rev-parse --short HEAD)"
    bash scripts/install-tools.sh cargo-mutants
    n=$(cargo mutants --in-diff "$diff" --list | grep -c . || true)
    if [ "$n" -eq 0 ]; then
        echo "mutants in diff: the change touches no mutable codec code"
        exit 0
    fi
    limit=${GDMARSHAL_MUTANTS_DIFF_LIMIT:-12}
    extra=()
    if [ "$n" -gt "$limit" ]; then
        shards=$(( (n + limit - 1) / limit ))
        shard=$(( 0x$(git rev-parse --short=6 HEAD) % shards ))
        extra=(--shard "$shard/$shards")
        echo "mutants in diff: $n mutants, more than $limit: running shard $shard/$shards;" \
            "the rest: scripts/mutants.sh diff $base with GDMARSHAL_MUTANTS_DIFF_LIMIT=$n"
    else
        echo "mutants in diff: $n mutants"
    fi
    # In place (one job by nature) in CI's fresh clone; elsewhere in a copy, one job at a time.
    if [ -n "${CI:-}" ]; then extra+=(--in-place); else extra+=(-j 1); fi
    out=target/mutants/diff
    mkdir -p "$out"
    status=0
    cargo mutants --in-diff "$diff" --output "$out" "${extra[@]}" || status=$?
    case $status in 0|2|3) ;; *) echo "cargo mutants failed (exit $status)" >&2; exit "$status" ;; esac
    missed=$(python3 scripts/mutation-report.py unlisted "$out/mutants.out/missed.txt")
    if [ -n "$missed" ]; then
        echo "mutants in diff: surviving mutants in the changed code (add a test that catches each," >&2
        echo "or list it with its reason in docs/mutation-equivalent.txt):" >&2
        echo "$missed" >&2
        exit 1
    fi
    echo "mutants in diff: no surviving mutant"
    exit 0
fi
case "$score" in
    tests) config=.cargo/mutants.toml; where=(--test-package gdmarshal) ;;
    # The test is in the testees/own package: the config names it.
    corpus) config=.cargo/mutants-corpus.toml; where=() ;;
    *) usage ;;
esac

args=()
label=$score
list=false
pending=false
report_only=false
while [ $# -gt 0 ]; do
    case "$1" in
        --shard) [ $# -ge 2 ] || usage; args+=(--shard "$2"); label+="-shard-${2/\//-of-}"; shift 2 ;;
        --file) [ $# -ge 2 ] || usage; args+=(--file "$2"); label+="-$(basename "$2" .rs)"; shift 2 ;;
        --pending) pending=true; shift ;;
        --list) list=true; shift ;;
        --report) report_only=true; shift ;;
        *) usage ;;
    esac
done

if ! $report_only; then
    bash scripts/install-tools.sh cargo-mutants
    if $pending; then
        python3 scripts/mutation-report.py record target/mutants >/dev/null
        # Exclusions on the command line replace the configuration's: name those again.
        while IFS= read -r re; do args+=(--exclude-re "$re"); done < <(python3 -c \
            'import sys, tomllib; print(*tomllib.load(open(sys.argv[1], "rb")).get("exclude_re", []), sep="\n")' \
            "$config")
        while IFS= read -r name; do
            # cargo-mutants matches the regex against the name as --list prints it.
            args+=(--exclude-re "^$(printf '%s' "$name" | sed 's/[][\\.^$*+?(){}|]/\\&/g')\$")
        done < <(python3 scripts/mutation-report.py settled "$score")
        label+="-pending"
    fi
    if $list; then
        exec cargo mutants --config "$config" --list "${args[@]}"
    fi
    if [ "$score" = corpus ]; then
        # The judge: the unmutated binary, built once (release: it reads and compares every case
        # of every mutant's run), outside the mutants' scratch copies.
        cargo build --quiet --release --bin gdmarshal
        mkdir -p target/mutants
        cp target/release/gdmarshal target/mutants/conform-runner
        export GDMARSHAL_CONFORM_RUNNER="$root/target/mutants/conform-runner"
    fi
    out=target/mutants/$label
    mkdir -p "$out"
    start=$(date +%s)
    status=0
    cargo mutants --config "$config" "${where[@]}" -j 1 --output "$out" "${args[@]}" || status=$?
    echo "$(( $(date +%s) - start ))" > "$out/mutants.out/wall-seconds"
    # cargo-mutants: 0 all caught, 2 missed mutants, 3 timeouts; the report says which.
    case $status in 0|2|3) ;; *) echo "cargo mutants failed (exit $status)" >&2; exit "$status" ;; esac
fi
python3 scripts/mutation-report.py record target/mutants
python3 scripts/mutation-report.py write docs/mutation.md
