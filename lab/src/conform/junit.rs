//! The JUnit XML report of a conformance run, for CI test-report viewers.

use std::fmt::Write as _;

use super::Conformance;
use super::report::{families, replay, xml_escape};
use super::score::Score;

/// How a case shows in JUnit: a pass, a `<skipped>`, a `<failure>` (a wrong answer) or an
/// `<error>` (no answer: a crash, a hang, a protocol error, a case not run).
fn junit_kind(x: &super::Case) -> &'static str {
    match x.score {
        _ if !x.counts() => "skipped",
        Score::AcceptedEqual | Score::RejectedAsExpected => "pass",
        Score::Wrong => "failure",
        Score::Error => "error",
        Score::ExpectedFail | Score::Skipped | Score::Unclaimed => "skipped",
    }
}

/// The JUnit XML report: one test suite per type family, one test case per corpus case with the
/// time it took; wrong answers are `<failure>`s, crashes, hangs and protocol errors `<error>`s,
/// expected failures, skipped and unclaimed cases `<skipped>`; stale entries are failures of a
/// suite of their own.
pub fn junit(c: &Conformance, extra: &str) -> String {
    let count = |cases: &mut dyn Iterator<Item = &super::Case>| {
        let mut n = [0usize; 4]; // tests, failures, errors, skipped
        let mut time = 0.0;
        for x in cases {
            n[0] += 1;
            time += x.elapsed.as_secs_f64();
            match junit_kind(x) {
                "failure" => n[1] += 1,
                "error" => n[2] += 1,
                "skipped" => n[3] += 1,
                _ => {}
            }
        }
        (n, time)
    };
    let (t, _) = count(&mut c.cases.iter());
    // Unknown type names in the handshake fail the run: one failing test of their own.
    let handshake = usize::from(!c.hello.unknown_types.is_empty());
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        s,
        "<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3}\">",
        xml_escape(&format!(
            "gdmarshal conform {} Godot {}{}",
            c.hello.name,
            c.engine,
            if c.corpus.is_empty() {
                String::new()
            } else {
                format!(" ({})", c.corpus)
            }
        )),
        t[0] + c.stale.len() + handshake,
        t[1] + c.stale.len() + handshake,
        t[2],
        t[3],
        c.elapsed.as_secs_f64()
    );
    let class = |f: &str| format!("godot-{}.{}", c.engine, f);
    for family in families(c).keys() {
        let (r, time) = count(&mut c.cases.iter().filter(|x| &x.family == family));
        let _ = writeln!(
            s,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{time:.4}\">",
            xml_escape(&class(family)),
            r[0],
            r[1],
            r[2],
            r[3],
        );
        // What a JUnit pass cannot say: a pass on an accepted case or on a rejected one.
        let counts = families(c).remove(family).unwrap_or_default();
        s.push_str("    <properties>\n");
        for (name, n) in [
            ("accepted_equal", counts.accepted_equal),
            ("rejected_as_expected", counts.rejected_as_expected),
            ("wrong", counts.wrong),
            ("error", counts.errors),
            ("expected_fail", counts.expected_fail),
            ("skipped", counts.skipped),
            ("unclaimed", counts.unclaimed),
        ] {
            let _ = writeln!(s, "      <property name=\"{name}\" value=\"{n}\"/>");
        }
        s.push_str("    </properties>\n");
        for x in c.cases.iter().filter(|x| &x.family == family) {
            let _ = write!(
                s,
                "    <testcase name=\"{}\" classname=\"{}\" time=\"{:.6}\"",
                xml_escape(&x.result.name),
                xml_escape(&class(family)),
                x.elapsed.as_secs_f64()
            );
            match junit_kind(x) {
                "pass" => s.push_str("/>\n"),
                "skipped" => {
                    let _ = writeln!(
                        s,
                        ">\n      <skipped message=\"{}\"/>\n    </testcase>",
                        xml_escape(&x.message)
                    );
                }
                tag => {
                    let m = &x.message;
                    let mut body = m.clone();
                    for line in &x.details {
                        body.push('\n');
                        body.push_str(line);
                    }
                    body.push_str("\nreplay: ");
                    body.push_str(&replay(c, &x.result.name, extra));
                    let _ = writeln!(
                        s,
                        ">\n      <{tag} message=\"{}\" type=\"{}\">{}</{tag}>\n    </testcase>",
                        xml_escape(&format!(
                            "[type {}] {}",
                            x.family,
                            m.lines().next().unwrap_or("")
                        )),
                        x.score.name(),
                        xml_escape(&body)
                    );
                }
            }
        }
        s.push_str("  </testsuite>\n");
    }
    if handshake == 1 {
        let _ = writeln!(
            s,
            "  <testsuite name=\"handshake\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\">\n    <testcase name=\"types\" classname=\"handshake\">\n      <failure message=\"{}\" type=\"unknown-types\"/>\n    </testcase>\n  </testsuite>",
            xml_escape(&format!(
                "unknown type names: {}",
                c.hello.unknown_types.join(", ")
            ))
        );
    }
    if !c.stale.is_empty() {
        let _ = writeln!(
            s,
            "  <testsuite name=\"expected-failures\" tests=\"{0}\" failures=\"{0}\" errors=\"0\" skipped=\"0\">",
            c.stale.len()
        );
        for st in &c.stale {
            let _ = writeln!(
                s,
                "    <testcase name=\"{}\" classname=\"expected-failures\">\n      <failure message=\"{}\" type=\"stale\"/>\n    </testcase>",
                xml_escape(&st.origin),
                xml_escape(&format!("stale expected failure: {}", st.why))
            );
        }
        s.push_str("  </testsuite>\n");
    }
    s.push_str("</testsuites>\n");
    s
}
