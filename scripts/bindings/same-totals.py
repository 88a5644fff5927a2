#!/usr/bin/env python3
"""same-totals.py OWN.json PACKAGE.json: fails unless both `gdmarshal conform --format json`
reports passed and give the same totals (the package's testee against the codec's own)."""

import json
import sys


def main():
    own, package = (json.load(open(path, encoding="utf-8")) for path in sys.argv[1:3])
    name = package["testee"]["name"] if isinstance(package.get("testee"), dict) else package.get("testee")
    problems = []
    for report, who in ((own, "the codec's own testee"), (package, name)):
        if not report["passed"]:
            problems.append(f"{who} did not pass on {report['profile']}")
    if own["totals"] != package["totals"]:
        for key in sorted(set(own["totals"]) | set(package["totals"])):
            a, b = own["totals"].get(key), package["totals"].get(key)
            if a != b:
                problems.append(f"{key}: own {a}, package {b}")
    if problems:
        print(f"bindings: {name} on {package['profile']}: " + "; ".join(problems), file=sys.stderr)
        sys.exit(1)
    t = package["totals"]
    print(f"bindings: {name} on {package['profile']}: the codec's totals: {t['cases']} cases, "
          f"{t['accepted_equal']} accepted and equal, {t['rejected_as_expected']} rejected as "
          f"expected, {t['wrong']} wrong, {t['error']} errors, {t['expected_fail']} expected "
          f"failures, {t['skip']} skipped", file=sys.stderr)


if __name__ == "__main__":
    main()
