//! The JUnit XML report of a conformance run, for CI test-report viewers.

use std::time::Duration;

use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};

use super::Conformance;
use super::score::Score;
use super::summary::{families, replay, xml_text};

/// How a case shows in JUnit: a pass, a `<skipped>`, a `<failure>` (a wrong answer) or an
/// `<error>` (no answer: a crash, a hang, a protocol error, a case not run).
fn status(c: &Conformance, x: &super::ReportedCase, extra: &str) -> TestCaseStatus {
    // `None`: skipped.
    let kind = match x.score {
        _ if !x.counts() => None,
        Score::AcceptedEqual | Score::RejectedAsExpected => return TestCaseStatus::success(),
        Score::Wrong => Some(NonSuccessKind::Failure),
        Score::Error => Some(NonSuccessKind::Error),
        Score::ExpectedFail | Score::Skipped | Score::Unclaimed => None,
    };
    let Some(kind) = kind else {
        let mut s = TestCaseStatus::skipped();
        s.set_message(xml_text(&x.message));
        return s;
    };
    let m = &x.message;
    let mut body = m.clone();
    for line in &x.details {
        body.push('\n');
        body.push_str(line);
    }
    body.push_str("\nreplay: ");
    body.push_str(&replay(c, &x.result.name, extra));
    let mut s = TestCaseStatus::non_success(kind);
    s.set_message(xml_text(&format!(
        "[type {}] {}",
        x.family,
        m.lines().next().unwrap_or("")
    )))
    .set_type(x.score.name())
    .set_description(xml_text(&body));
    s
}

/// A suite of failing test cases that are not corpus cases (each `(name, message)`).
fn failures(
    suite: &str,
    kind: &str,
    cases: impl IntoIterator<Item = (String, String)>,
) -> TestSuite {
    let mut s = TestSuite::new(suite);
    for (name, message) in cases {
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
        status.set_message(xml_text(&message)).set_type(kind);
        let mut case = TestCase::new(xml_text(&name), status);
        case.set_classname(suite);
        s.add_test_case(case);
    }
    s
}

/// The JUnit XML report: one test suite per type family, one test case per corpus case with the
/// time it took; wrong answers are `<failure>`s, crashes, hangs and protocol errors `<error>`s,
/// expected failures, skipped and unclaimed cases `<skipped>`; stale entries are failures of a
/// suite of their own. quick-junit counts the tests, failures, errors and skipped cases of each
/// suite and of the whole, and writes the XML.
pub fn junit(c: &Conformance, extra: &str) -> String {
    let mut report = Report::new(xml_text(&format!(
        "gdmarshal conform {} Godot {}{}",
        c.hello.name,
        c.engine,
        if c.corpus.is_empty() {
            String::new()
        } else {
            format!(" ({})", c.corpus)
        }
    )));
    report.set_time(c.elapsed);
    for (family, counts) in families(c) {
        let class = xml_text(&format!("godot-{}.{}", c.engine, family));
        let mut suite = TestSuite::new(&class);
        // What a JUnit pass cannot say: a pass on an accepted case or on a rejected one.
        suite.add_properties(
            [
                ("accepted_equal", counts.accepted_equal),
                ("rejected_as_expected", counts.rejected_as_expected),
                ("wrong", counts.wrong),
                ("error", counts.errors),
                ("expected_fail", counts.expected_fail),
                ("skipped", counts.skipped),
                ("unclaimed", counts.unclaimed),
            ]
            .map(|(name, n)| Property::new(name, n.to_string())),
        );
        let mut time = Duration::ZERO;
        for x in c.cases.iter().filter(|x| x.family == family) {
            time += x.elapsed;
            let mut case = TestCase::new(xml_text(&x.result.name), status(c, x, extra));
            case.set_classname(&class).set_time(x.elapsed);
            suite.add_test_case(case);
        }
        suite.set_time(time);
        report.add_test_suite(suite);
    }
    // Unknown type names in the handshake fail the run: one failing test of their own.
    if !c.hello.unknown_types.is_empty() {
        report.add_test_suite(failures(
            "handshake",
            "unknown-types",
            [(
                "types".to_string(),
                format!("unknown type names: {}", c.hello.unknown_types.join(", ")),
            )],
        ));
    }
    if !c.stale.is_empty() {
        report.add_test_suite(failures(
            "expected-failures",
            "stale",
            c.stale.iter().map(|st| {
                (
                    st.origin.clone(),
                    format!("stale expected failure: {}", st.why),
                )
            }),
        ));
    }
    report
        .to_string()
        .expect("JUnit XML is written to memory, which cannot fail")
}

#[cfg(test)]
mod tests {
    use super::super::hello::{Capabilities, Declared, Hello};
    use super::super::{Conformance, Stale};
    use gdmarshal::profile::{Family, Profile};

    #[test]
    fn a_testee_s_words_come_out_escaped_and_whole() {
        let words = "<a&\"b'\u{1b}[31m\u{9b}\u{fffe}>";
        let c = Conformance {
            hello: Hello {
                name: words.into(),
                versions: Declared::All,
                capabilities: Capabilities {
                    decode: true,
                    encode: true,
                    reencode: false,
                },
                types: Declared::Some(vec![words.into()]),
                unknown_types: vec![words.into()],
                expect_fail: Vec::new(),
                max_json_depth: None,
            },
            command: "t".into(),
            testee_env: Vec::new(),
            engine: "4.6.3.stable".into(),
            corpus: String::new(),
            profile: Profile::new(Family::Godot4, 6).expect("4.6 is known"),
            cases: Vec::new(),
            stale: vec![Stale {
                origin: "expect-fail.txt:1".into(),
                why: words.into(),
            }],
            known: Vec::new(),
            elapsed: std::time::Duration::from_millis(5),
            starts: 1,
            stopped: None,
        };
        let xml = super::junit(&c, "");
        let shown = r"&lt;a&amp;&quot;b&apos;\u{1b}[31m\u{9b}\u{fffe}&gt;";
        assert!(
            xml.contains(&format!(
                "<testsuites name=\"gdmarshal conform {shown} Godot"
            )),
            "{xml}"
        );
        assert!(
            xml.contains(&format!("message=\"unknown type names: {shown}\"")),
            "{xml}"
        );
        assert!(
            xml.contains(&format!("message=\"stale expected failure: {shown}\"")),
            "{xml}"
        );
        assert!(
            xml.contains("tests=\"2\" skipped=\"0\" failures=\"2\" errors=\"0\""),
            "{xml}"
        );
        assert!(!xml.chars().any(|c| c.is_control() && c != '\n'), "{xml:?}");
    }
}
