//! A library's defects: its failures grouped by column and kind of mismatch, each group shown by
//! its smallest case, which is re-run before it is listed.

use serde::Serialize;

use super::category::Category;
use super::table::{Failure, Row};

/// Failures of one kind, in one column, of one library at one version.
#[derive(Clone, Debug, Serialize)]
pub struct Defect {
    /// The adapter's folder.
    pub implementation: String,
    /// The type families of its cases, in the order first seen.
    pub families: Vec<String>,
    /// The engine versions whose runs show it.
    pub godot: Vec<String>,
    /// The engine version of the reproducer.
    pub reproducer_godot: String,
    /// The smallest failing case of the group.
    pub reproducer: Failure,
    /// Failing cases in the group, over every engine version.
    pub cases: usize,
    /// What re-running the reproducer showed, once it is re-run.
    pub check: Option<Check>,
}

/// What re-running a reproducer showed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Check {
    /// It failed again on the library, in a fresh testee process.
    pub fails_again: bool,
    /// This project's codec passes it.
    pub own_codec_passes: bool,
    /// How the newest version of the package does on it; `None` when the library is that
    /// version.
    pub in_newest: Option<Newest>,
}

/// How the newest version of a package does on an older version's reproducer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Newest {
    /// It fails there too.
    Fails,
    /// It passes there.
    Passes,
    /// The newest version does not claim the case (another engine version, a type it drops).
    NotClaimed,
}

impl Defect {
    /// Re-run and reproduced: it fails again on the library and this project's codec passes it.
    pub fn confirmed(&self) -> bool {
        self.check
            .is_some_and(|c| c.fails_again && c.own_codec_passes)
    }

    /// The column of the defect.
    pub(crate) fn category(&self) -> Category {
        self.reproducer.category
    }
}

/// The defects of `implementation` over its `rows` (one per engine version): the broadest first
/// (most failing cases), then in column order and kind.
pub fn defects(implementation: &str, rows: &[Row]) -> Vec<Defect> {
    let mut out: Vec<Defect> = Vec::new();
    for row in rows.iter().filter(|r| r.implementation == implementation) {
        for f in &row.failures {
            let same = |d: &&mut Defect| (d.category(), d.reproducer.kind) == (f.category, f.kind);
            match out.iter_mut().find(same) {
                Some(d) => {
                    d.cases += 1;
                    if !d.families.contains(&f.family) {
                        d.families.push(f.family.clone());
                    }
                    if !d.godot.contains(&row.godot) {
                        d.godot.push(row.godot.clone());
                    }
                    if f.size < d.reproducer.size {
                        d.reproducer = f.clone();
                        d.reproducer_godot = row.godot.clone();
                    }
                }
                None => out.push(Defect {
                    implementation: implementation.to_string(),
                    families: vec![f.family.clone()],
                    godot: vec![row.godot.clone()],
                    reproducer_godot: row.godot.clone(),
                    reproducer: f.clone(),
                    cases: 1,
                    check: None,
                }),
            }
        }
    }
    out.sort_by(|a, b| order(a).cmp(&order(b)));
    out
}

/// The order of the defect list: the most failing cases first, then column, family and kind.
fn order(d: &Defect) -> (std::cmp::Reverse<usize>, Category, &str, &'static str) {
    let r = &d.reproducer;
    (std::cmp::Reverse(d.cases), r.category, &r.family, r.kind)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matrix::table::Cell;

    fn failure(case: &str, family: &str, kind: &'static str, size: usize) -> Failure {
        Failure {
            case: case.into(),
            category: Category::Containers,
            family: family.into(),
            kind,
            size,
            message: String::new(),
            details: Vec::new(),
            replay: String::new(),
        }
    }

    fn row(godot: &str, failures: Vec<Failure>) -> Row {
        Row {
            implementation: "lib".into(),
            godot: godot.into(),
            version_claimed: true,
            cells: vec![Cell::default(); Category::ALL.len()],
            total: Cell::default(),
            failures,
        }
    }

    #[test]
    fn one_defect_per_column_and_kind_shown_by_its_smallest_case() {
        let rows = [
            row(
                "3.6",
                vec![
                    failure("decode/valid/Array/big", "Array", "value", 90),
                    failure("decode/valid/Dictionary/x", "Dictionary", "value", 12),
                ],
            ),
            row(
                "4.6",
                vec![
                    failure("decode/valid/Array/small", "Array", "value", 8),
                    failure("decode/valid/Array/cut", "Array", "rejects_accepted", 8),
                ],
            ),
        ];
        let found = defects("lib", &rows);
        let shown: Vec<_> = found
            .iter()
            .map(|d| {
                (
                    d.reproducer.case.as_str(),
                    d.reproducer_godot.as_str(),
                    d.cases,
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                ("decode/valid/Array/small", "4.6", 3),
                ("decode/valid/Array/cut", "4.6", 1),
            ]
        );
        assert_eq!(found[0].godot, ["3.6", "4.6"]);
        assert_eq!(found[0].families, ["Array", "Dictionary"]);
        assert!(found.iter().all(|d| !d.confirmed()), "not re-run yet");
        assert!(defects("other", &rows).is_empty());
    }
}
