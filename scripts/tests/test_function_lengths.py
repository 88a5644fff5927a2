"""scripts/function-lengths.py: the scanner, and the rule it holds src/, lab/ and cli/ to."""

import os
import unittest

import load_script

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
lengths = load_script.load("function-lengths.py", "function_lengths")


class Scanner(unittest.TestCase):
    def test_braces_in_literals_and_comments_do_not_count(self):
        src = '\n'.join([
            'pub(crate) fn a() -> String {',
            '    let s = "{{ not a brace";',
            "    let c = '{';",
            '    let r = r#"}"#; // }',
            '    /* } */ format!("{s}{c}{r}")',
            '}',
            'fn b();',
            'const fn c() {}',
        ])
        self.assertEqual(lengths.functions(src), [("a", 1, 6), ("c", 8, 1)])

    def test_a_nested_function_counts_within_its_outer_one(self):
        src = "fn outer() {\n    fn inner() {\n    }\n}\n"
        self.assertEqual(lengths.functions(src), [("outer", 1, 4)])


class Rule(unittest.TestCase):
    def test_no_function_over_150_lines_in_the_codec_model_lab_and_cli(self):
        roots = [os.path.join(ROOT, d) for d in ("src", "model/src", "lab/src", "cli/src")]
        self.assertEqual(lengths.long_functions(roots, 150), [])


if __name__ == "__main__":
    unittest.main()
