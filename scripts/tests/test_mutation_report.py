"""Tests of scripts/mutation-report.py: the ledger keeps outcomes across runs, drops them when the
code they were measured on changes, follows code that moved, and matches equivalence entries; the
page shows the scores, the open survivors in full and the reviewed ones by kind.
Run: python3 -m unittest discover -s scripts/tests"""

import json
import os
import tempfile
import unittest

import load_script

report = load_script.load("mutation-report.py", "mutation_report")

SOURCE = "fn a() {\n    x + 1\n}\n\nfn b() {\n    y > 2\n}\n"


def diff(name, first, original, changed):
    """A cargo-mutants style diff of mutant `name`: the `+++` line carries its description, the
    original side is `original` with line `changed` replaced."""
    lines = original.split("\n")
    out = ["--- src/m.rs", "+++ " + name.split(": ", 1)[1], f"@@ -{first},{len(lines)} +{first},{len(lines)} @@"]
    for i, line in enumerate(lines):
        if i == changed:
            out += ["-" + line, "+" + line.replace("+", "-").replace(">", ">=")]
        else:
            out.append(" " + line)
    return "\n".join(out) + "\n"


class Ledger(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        root = self.dir.name
        self.saved = (report.ROOT, report.LEDGER, report.RUNS, report.EQUIVALENT,
                      report.EQUIVALENT_CORPUS, report.mutant_list)
        report.ROOT = root
        report.LEDGER = os.path.join(root, "docs", "mutation", "outcomes.jsonl")
        report.RUNS = os.path.join(root, "docs", "mutation", "runs.jsonl")
        report.EQUIVALENT = os.path.join(root, "docs", "mutation-equivalent.txt")
        report.EQUIVALENT_CORPUS = os.path.join(root, "docs", "mutation-equivalent-corpus.txt")
        # No cargo-mutants here: the page says that the mutants not yet run are not counted.
        report.mutant_list = lambda score: None
        os.makedirs(os.path.join(root, "src"))
        self.write("src/m.rs", SOURCE)

    def tearDown(self):
        (report.ROOT, report.LEDGER, report.RUNS, report.EQUIVALENT, report.EQUIVALENT_CORPUS,
         report.mutant_list) = self.saved
        self.dir.cleanup()

    def write(self, path, text):
        full = os.path.join(self.dir.name, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)

    def run_of(self, label, outcomes, start="2026-11-25T10:00:00"):
        """A cargo-mutants output folder: outcomes are (name, line, summary, first, code, changed)."""
        out = os.path.join(self.dir.name, "results", label, "mutants.out")
        os.makedirs(os.path.join(out, "diff"), exist_ok=True)
        listed = {"caught.txt": [], "missed.txt": [], "unviable.txt": [], "timeout.txt": []}
        data = []
        for i, (name, line, summary, first, code, changed) in enumerate(outcomes):
            path = f"diff/{i}.diff"
            with open(os.path.join(out, path), "w", encoding="utf-8") as f:
                f.write(diff(name, first, code, changed))
            txt = {"CaughtMutant": "caught.txt", "MissedMutant": "missed.txt",
                   "Unviable": "unviable.txt"}[summary]
            listed[txt].append(name)
            data.append({"scenario": {"Mutant": {"file": "src/m.rs", "genre": "BinaryOperator",
                                                 "replacement": "-",
                                                 "span": {"start": {"line": line, "column": 7}}}},
                         "summary": summary, "diff_path": path})
        with open(os.path.join(out, "outcomes.json"), "w", encoding="utf-8") as f:
            json.dump({"outcomes": [{"scenario": "Baseline"}] + data}, f)
        with open(os.path.join(out, "lock.json"), "w", encoding="utf-8") as f:
            json.dump({"start_time": start + ".0Z"}, f)
        for txt, names in listed.items():
            with open(os.path.join(out, txt), "w", encoding="utf-8") as f:
                f.write("".join(n + "\n" for n in names))

    def live(self):
        live, stale = report.current(report.load_ledger())
        return {n: e["outcome"] for n, e in live["tests"].items()}, stale.get("tests", 0)

    def test_runs_add_up_and_the_latest_outcome_wins(self):
        a = "src/m.rs:2:7: replace + with - in a"
        b = "src/m.rs:6:7: replace > with >= in b"
        self.run_of("tests-a", [(a, 2, "MissedMutant", 1, SOURCE.split("\n\n")[0], 1)])
        report.record(os.path.join(self.dir.name, "results"))
        self.run_of("tests-b", [(b, 6, "CaughtMutant", 5, SOURCE.split("\n\n")[1], 1)],
                    start="2026-11-25T11:00:00")
        report.record(os.path.join(self.dir.name, "results"))
        self.assertEqual(self.live(), ({a: "missed", b: "caught"}, 0))
        # A later run of the first selection, after a new test: caught now.
        self.run_of("tests-a", [(a, 2, "CaughtMutant", 1, SOURCE.split("\n\n")[0], 1)],
                    start="2026-11-25T12:00:00")
        report.record(os.path.join(self.dir.name, "results"))
        self.assertEqual(self.live(), ({a: "caught", b: "caught"}, 0))
        self.assertEqual(len(report.load_jsonl(report.RUNS)), 3)
        # Recording the same results again adds nothing.
        report.record(os.path.join(self.dir.name, "results"))
        self.assertEqual(len(report.load_jsonl(report.RUNS)), 3)

    def test_changed_code_makes_its_outcomes_stale_and_moved_code_keeps_them(self):
        a = "src/m.rs:2:7: replace + with - in a"
        b = "src/m.rs:6:7: replace > with >= in b"
        self.run_of("tests", [(a, 2, "CaughtMutant", 1, SOURCE.split("\n\n")[0], 1),
                              (b, 6, "MissedMutant", 5, SOURCE.split("\n\n")[1], 1)])
        report.record(os.path.join(self.dir.name, "results"))
        # Two lines inserted at the top, and function a changed.
        self.write("src/m.rs", "use x;\n\n" + SOURCE.replace("x + 1", "x + 2"))
        self.assertEqual(self.live(), ({"src/m.rs:8:7: replace > with >= in b": "missed"}, 1))

    def test_equivalence_entries_follow_moved_code_where_they_pair_up(self):
        survivors = ["src/m.rs:8:7: replace > with >= in b",
                     "src/m.rs:9:7: replace + with * in c", "src/m.rs:9:9: replace + with * in c",
                     "src/m.rs:12:5: replace | with ^ in d", "src/m.rs:20:5: replace | with ^ in d",
                     "src/m.rs:30:1: replace - with / in e", "src/m.rs:31:1: replace - with / in e"]
        equivalent = {"src/m.rs:6:7: replace > with >= in b": "moved",
                      "src/m.rs:3:9: replace + with * in c": "the one at column 9",
                      "src/m.rs:10:5: replace | with ^ in d": "the first d",
                      "src/m.rs:18:5: replace | with ^ in d": "the second d",
                      "src/m.rs:29:1: replace - with / in e": "one entry, two survivors",
                      "src/m.rs:1:1: replace - with + in gone": "matches nothing"}
        matched, unused = report.match_equivalent(survivors, equivalent)
        self.assertEqual(matched, {survivors[0]: "moved", survivors[2]: "the one at column 9",
                                   survivors[3]: "the first d", survivors[4]: "the second d"})
        self.assertEqual(unused, ["src/m.rs:1:1: replace - with + in gone",
                                  "src/m.rs:29:1: replace - with / in e"])

    def test_a_reason_starts_with_its_kind(self):
        self.assertEqual(report.kind_of("speed-only: the general path reads it"),
                         ("speed-only", "the general path reads it"))
        self.assertEqual(report.kind_of("dump-only: a: b"), ("dump-only", "a: b"))
        # An unknown tag, or none, is no kind: the page counts it as untagged.
        self.assertEqual(report.kind_of("fast-only: x"), (report.UNTAGGED, "fast-only: x"))
        self.assertEqual(report.kind_of("as above: x"), (report.UNTAGGED, "as above: x"))

    def test_every_reviewed_reason_in_the_repository_has_a_kind(self):
        for path in self.saved[3:5]:
            entries = report.load_entries(path)
            self.assertTrue(entries, path)
            for name, reason in entries.items():
                self.assertNotEqual(report.kind_of(reason)[0], report.UNTAGGED, f"{path}: {name}")

    def test_the_page_shows_scores_open_survivors_in_full_and_reviewed_ones_by_kind(self):
        a, b = SOURCE.split("\n\n")
        caught_in_a = "src/m.rs:2:7: replace + with - in a"
        room_in_a = "src/m.rs:2:7: replace + with * in a"
        same_in_b = "src/m.rs:6:7: replace > with >= in b"
        dump_in_b = "src/m.rs:6:7: replace > with < in b"
        untagged_in_b = "src/m.rs:6:7: replace > with == in b"
        self.run_of("tests", [(caught_in_a, 2, "CaughtMutant", 1, a, 1),
                              (room_in_a, 2, "MissedMutant", 1, a, 1),
                              (same_in_b, 6, "MissedMutant", 5, b, 1)])
        self.run_of("corpus", [(caught_in_a, 2, "MissedMutant", 1, a, 1),
                               (room_in_a, 2, "CaughtMutant", 1, a, 1),
                               (same_in_b, 6, "MissedMutant", 5, b, 1),
                               (dump_in_b, 6, "MissedMutant", 5, b, 1),
                               (untagged_in_b, 6, "MissedMutant", 5, b, 1)])
        report.record(os.path.join(self.dir.name, "results"))
        self.write("docs/mutation-equivalent.txt",
                   "# comment\n"
                   f"{room_in_a}\tcapacity-only: only the room reserved\n"
                   f"{same_in_b}\tdisjoint-bits: b answers alike\n")
        self.write("docs/mutation-equivalent-corpus.txt",
                   f"{dump_in_b}\tdump-only: only the trace\n"
                   f"{untagged_in_b}\tno kind given\n")
        page = report.render()
        lines = page.split("\n")
        # The scores: score 2 has one open survivor (caught_in_a) of two that count.
        self.assertIn("| Score 1: the codec crate's own tests, no engines | 3 | 1 | 0 | 0 | 2 | 0 "
                      "| 100.0% | – |", lines)
        self.assertIn("| Score 2: the corpus as a gate | 5 | 1 | 0 | 0 | 3 | 1 | 50.0% | – |",
                      lines)
        self.assertIn("| src/m.rs | 5 | 1 | 0 | 0 | 3 | 1 | 50.0% | – |", lines)
        # The open survivor with its diff, the only diff on the page.
        self.assertIn(f"- score 2: `{caught_in_a}`", lines)
        self.assertEqual(page.count("```diff"), 1)
        # The kinds, counted per score, and each reviewed mutant once, on one line.
        self.assertIn("| capacity-only | 1 | 0 | " + report.KINDS["capacity-only"] + " |", lines)
        # A `|` in a cell is escaped: it would end the cell.
        escaped = report.KINDS["disjoint-bits"].replace("|", "\\|")
        self.assertIn(f"| disjoint-bits | 1 | 1 | {escaped} |", lines)
        self.assertIn("| dump-only | 0 | 1 | " + report.KINDS["dump-only"] + " |", lines)
        self.assertIn("| untagged | 0 | 1 | no kind tag: the reason should start with one |", lines)
        self.assertIn("| **all** | 2 | 3 | |", lines)
        self.assertIn(f"- `{room_in_a}` (score 2 catches it): only the room reserved", lines)
        self.assertIn(f"- `{same_in_b}`: b answers alike", lines)
        self.assertIn(f"- `{dump_in_b}`: only the trace", lines)
        self.assertIn(f"- `{untagged_in_b}`: no kind given", lines)
        self.assertEqual(sum(line.startswith(f"- `{same_in_b}`") for line in lines), 1)
        # Under their list and kind.
        order = [next(i for i, line in enumerate(lines) if line.startswith(text)) for text in (
            "## Open survivors", "## Reviewed survivors by kind",
            "### Equivalent on every input", "#### capacity-only (1)", "#### disjoint-bits (1)",
            "### Unseen by the protocol or out of the corpus's reach", "#### dump-only (1)", "#### untagged (1)")]
        self.assertEqual(order, sorted(order))

    def test_the_page_states_the_share_of_score_2_out_of_the_corpus_s_reach(self):
        a, b = SOURCE.split("\n\n")
        caught = "src/m.rs:2:7: replace + with - in a"
        unviable = "src/m.rs:2:7: replace + with * in a"
        unreachable = "src/m.rs:6:7: replace > with >= in b"
        everywhere = "src/m.rs:6:7: replace > with < in b"
        in_both = "src/m.rs:6:7: replace > with == in b"
        unseen = "src/m.rs:6:9: delete ! in b"
        self.run_of("corpus", [(caught, 2, "CaughtMutant", 1, a, 1),
                               (unviable, 2, "Unviable", 1, a, 1),
                               (unreachable, 6, "MissedMutant", 5, b, 1),
                               (everywhere, 6, "MissedMutant", 5, b, 1),
                               (in_both, 6, "MissedMutant", 5, b, 1),
                               (unseen, 6, "MissedMutant", 5, b, 1)])
        report.record(os.path.join(self.dir.name, "results"))
        # Only the entry of the corpus's list alone counts: one that behaves the same on every
        # input is not out of reach, whichever lists hold it.
        self.write("docs/mutation-equivalent.txt",
                   f"{everywhere}\tsame-result: b answers alike\n"
                   f"{in_both}\tsame-result: b answers alike\n")
        self.write("docs/mutation-equivalent-corpus.txt",
                   f"{unreachable}\tout-of-reach: the kit never calls b\n"
                   f"{in_both}\tout-of-reach: the kit never calls b\n"
                   f"{unseen}\terror-detail: only the words of b's refusal\n")
        lines = report.render().split("\n")
        # Out of reach and unseen by the protocol are counted apart, by the entry's kind.
        self.assertIn("Excluded from score 2 as out of the corpus's reach (listed only in "
                      "[mutation-equivalent-corpus.txt](mutation-equivalent-corpus.txt), kinds "
                      "`out-of-reach` and `no-corpus-case`): "
                      "1 of 6 mutants (16.7%), 1 of the 5 that compile (20.0%). Excluded because "
                      "they change only what the testee protocol does not show (kinds "
                      "`dump-only`, `error-detail`, `capacity-only`, `speed-only`, "
                      "`filter-only`, `not-carried`): 1 (16.7%).", lines)
        self.assertIn("| Score 2: the corpus as a gate | 6 | 1 | 0 | 1 | 4 | 0 | 100.0% | – |",
                      lines)
        # Without score 2's outcomes the page says nothing of it.
        os.remove(report.LEDGER)
        self.run_of("tests", [(caught, 2, "CaughtMutant", 1, a, 1)], start="2026-11-25T12:00:00")
        report.record(os.path.join(self.dir.name, "results", "tests"))
        self.assertNotIn("out of the corpus's reach (listed", report.render())

    def test_mutants_with_one_reason_share_its_line(self):
        a = SOURCE.split("\n\n")[0]
        first = "src/m.rs:2:7: replace + with - in a"
        second = "src/m.rs:2:7: replace + with * in a"
        self.run_of("tests", [(first, 2, "MissedMutant", 1, a, 1),
                              (second, 2, "MissedMutant", 1, a, 1)])
        report.record(os.path.join(self.dir.name, "results"))
        self.write("docs/mutation-equivalent.txt", f"{first}\tspeed-only: the same\n"
                                                   f"{second}\tspeed-only: the same\n")
        lines = report.render().split("\n")
        start = lines.index("#### speed-only (2)")
        self.assertEqual(lines[start + 2:start + 5], [
            "- 2 mutants: the same", f"  - `{second}`", f"  - `{first}`"])
        self.assertIn("None: every survivor is reviewed.", lines)

    def test_write_keeps_the_hand_written_part(self):
        self.write("docs/mutation.md", "# Mutation testing\n\nThe method.\n\n" + report.MARKER
                   + "\n\nold tables\n")
        self.run_of("tests", [("src/m.rs:2:7: replace + with - in a", 2, "CaughtMutant", 1,
                               SOURCE.split("\n\n")[0], 1)])
        report.record(os.path.join(self.dir.name, "results"))
        path = os.path.join(self.dir.name, "docs", "mutation.md")
        report.write(path)
        with open(path, encoding="utf-8") as f:
            page = f.read()
        self.assertTrue(page.startswith("# Mutation testing\n\nThe method.\n\n" + report.MARKER))
        self.assertNotIn("old tables", page)
        self.assertIn("## Scores", page)


if __name__ == "__main__":
    unittest.main()
