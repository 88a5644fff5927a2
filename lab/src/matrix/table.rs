//! One row of the matrix: a library at one version, run against one engine version, counted per
//! [`Category`], with the failures kept for the defect list.

use serde::{Deserialize, Serialize};

use super::category::Category;
use super::manifest::Implementation;
use crate::conform::score::Score;
use crate::conform::{Conformance, ReportedCase, report};
use crate::corpus::run::Settled;
use crate::model::Verdict;

/// Counts of one cell: the cases of a category the library claims, and how they went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// Answered as the engine did (accepted and equal, or rejected as the engine rejects).
    pub passed: usize,
    /// Claimed by the adapter's handshake (so sent), whatever came of it.
    pub claimed: usize,
    /// Answered otherwise than the engine.
    pub wrong: usize,
    /// No answer: the library crashed or hung.
    pub errors: usize,
    /// Claimed, but the library's API cannot hold the value (the adapter says so).
    pub skipped: usize,
    /// Failed as the adapter's own expected-failure list says (none of the libraries has one).
    pub expected: usize,
    /// Answered differently from run to run ([`Implementation::unstable`]): neither passed nor
    /// wrong.
    pub unstable: usize,
}

impl Cell {
    fn add(&mut self, score: Score) {
        match score {
            Score::Unclaimed => return,
            Score::AcceptedEqual | Score::RejectedAsExpected => self.passed += 1,
            Score::Wrong => self.wrong += 1,
            Score::ExpectedFail => self.expected += 1,
            Score::Error => self.errors += 1,
            Score::Skipped => self.skipped += 1,
        }
        self.claimed += 1;
    }

    /// One case whose answer varies from run to run: claimed, neither passed nor wrong.
    fn add_unstable(&mut self) {
        self.unstable += 1;
        self.claimed += 1;
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: Cell) {
        self.passed += other.passed;
        self.claimed += other.claimed;
        self.wrong += other.wrong;
        self.errors += other.errors;
        self.skipped += other.skipped;
        self.expected += other.expected;
        self.unstable += other.unstable;
    }
}

/// A case the library got wrong (or gave no answer to).
#[derive(Clone, Debug, Serialize)]
pub struct Failure {
    /// The case's name.
    pub case: String,
    /// Its column.
    pub category: Category,
    /// Its type family.
    pub family: String,
    /// The kind of mismatch ([`crate::model::Mismatch::kind`]).
    pub kind: &'static str,
    /// The size of what the case sends (input bytes, or the value's JSON): the smallest case of
    /// a kind is its reproducer.
    pub size: usize,
    /// What went wrong, for people.
    pub message: String,
    /// Both sides: the input, the engine's and the library's answers where they part.
    pub details: Vec<String>,
    /// The command that runs the case alone.
    pub replay: String,
}

/// One library at one version against one engine version.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// The adapter's folder.
    pub implementation: String,
    /// The engine version's profile (`3.6`, `4.6-double`).
    pub godot: String,
    /// Whether the adapter's handshake claims this version at all.
    pub version_claimed: bool,
    /// One cell per category, in [`Category::ALL`] order.
    pub cells: Vec<Cell>,
    /// All categories together.
    pub total: Cell,
    /// The failures among the claimed cases (not in the JSON form: the defects show them).
    #[serde(skip)]
    pub failures: Vec<Failure>,
}

impl Row {
    /// The row of a conformance run of `imp`; `extra` are the flags its replay lines repeat.
    pub fn of(imp: &Implementation, run: &Conformance, extra: &str) -> Row {
        let mut cells = vec![Cell::default(); Category::ALL.len()];
        let mut total = Cell::default();
        let mut failures = Vec::new();
        for case in &run.cases {
            let category = Category::of(&case.result.record, &case.family);
            let cell = &mut cells[category.index()];
            if case.counts() && imp.is_unstable(&case.result.name) {
                cell.add_unstable();
                total.add_unstable();
                continue;
            }
            cell.add(case.score);
            total.add(case.score);
            if case.counts() && case.score.fails() {
                failures.push(failure(
                    case,
                    category,
                    report::replay(run, &case.result.name, extra),
                ));
            }
        }
        Row {
            implementation: imp.id.clone(),
            godot: run.profile.to_string(),
            version_claimed: run.claims_version(),
            cells,
            total,
            failures,
        }
    }

    /// The cell of `category`.
    pub fn cell(&self, category: Category) -> Cell {
        self.cells
            .get(category.index())
            .copied()
            .unwrap_or_default()
    }
}

fn failure(case: &ReportedCase, category: Category, replay: String) -> Failure {
    let r = &case.result.record;
    let size = r
        .input
        .as_ref()
        .map(|h| h.len() / 2)
        .or_else(|| r.value.as_ref().map(|v| v.to_string().len()))
        .unwrap_or(usize::MAX);
    let kind = match &case.result.settled {
        Settled::Fail(m) => m.kind(),
        _ => "unexpected_pass",
    };
    // A crash or hang's message quotes the testee's stderr, which differs from run to run (how
    // much a hung library wrote, the paths it was installed at): the page keeps the first line.
    let message = match kind {
        "no_answer" | "reencode_no_answer" => case.message.lines().next().unwrap_or(""),
        _ => &case.message,
    };
    let mut details = case.details.clone();
    // The engine's answer, where neither the message nor the details show it: a refusal, with
    // the first line of the engine's error.
    if r.verdict == Verdict::Rejected && !matches!(kind, "accepts_rejected" | "rejection_kind") {
        let error = r.error.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        let said = if error.is_empty() {
            String::new()
        } else {
            format!(" ({})", error.trim())
        };
        details.insert(0, format!("engine: refuses it{said}"));
    }
    Failure {
        case: case.result.name.clone(),
        category,
        family: case.family.clone(),
        kind,
        size,
        message: message.to_string(),
        details,
        replay,
    }
}

/// A row of a committed JSON form of the matrix (docs/implementations.json): its counts, to hold
/// a new measurement of the same library and engine version to.
#[derive(Clone, Debug, Deserialize)]
pub struct Committed {
    /// [`Row::implementation`].
    pub implementation: String,
    /// [`Row::godot`].
    pub godot: String,
    /// [`Row::cells`].
    pub cells: Vec<Cell>,
    /// [`Row::total`].
    pub total: Cell,
}

impl Committed {
    /// Whether it is the row of the same library and engine version as `row`.
    pub fn is(&self, row: &Row) -> bool {
        (self.implementation.as_str(), self.godot.as_str()) == (&row.implementation, &row.godot)
    }

    /// Whether `row` has its counts.
    pub fn same(&self, row: &Row) -> bool {
        (&self.cells, &self.total) == (&row.cells, &row.total)
    }
}

/// The rows of a JSON form of the matrix ([`super::View`]).
pub fn committed_rows(json: &[u8]) -> Result<Vec<Committed>, serde_json::Error> {
    #[derive(Deserialize)]
    struct Rows {
        rows: Vec<Committed>,
    }
    serde_json::from_slice::<Rows>(json).map(|r| r.rows)
}
