//! `decode/rules/*`: inputs that show the engines' decoding rules the codec follows (NodePath
//! counts that wrap, typed containers' script paths and conversions), listed as data in
//! `rules.txt`; the codec's tests read the engines' records of them from the corpus.

use gdmarshal::hex::unhex;

use super::Ctx;

/// The list: one `MAJOR NAME OBJECTS HEX` line per case, `#` lines are comments.
const RULES: &str = include_str!("rules.txt");

/// One line of [`RULES`].
#[derive(Debug, PartialEq, Eq)]
struct Rule<'a> {
    major: u32,
    name: &'a str,
    objects: bool,
    input: Vec<u8>,
}

/// The rules, or the first line that does not read (its number, from 1).
fn rules() -> Result<Vec<Rule<'static>>, usize> {
    RULES
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, line)| rule(line).ok_or(i + 1))
        .collect()
}

/// One line of [`RULES`], if it reads.
fn rule(line: &str) -> Option<Rule<'_>> {
    let fields: Vec<&str> = line.split(' ').collect();
    let [major, name, objects @ ("objects" | "-"), input] = fields[..] else {
        return None;
    };
    Some(Rule {
        major: major.parse().ok()?,
        name,
        objects: objects == "objects",
        input: unhex(input).ok()?,
    })
}

/// The rules of the profile's major version, for the single-precision builds the records came
/// from.
pub(super) fn engine_rules(ctx: &mut Ctx) {
    if ctx.profile.double_reals() {
        return;
    }
    let rules = rules().unwrap_or_else(|line| panic!("rules.txt line {line} does not read"));
    let major = ctx.profile.major();
    for r in rules.into_iter().filter(|r| r.major == major) {
        ctx.decode(format!("decode/rules/{}", r.name), r.input, r.objects);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_reads_and_names_a_case_once_per_version() {
        let rules = rules().expect("every line reads");
        assert!(rules.len() > 80, "{} rules", rules.len());
        let mut names = std::collections::BTreeSet::new();
        for r in &rules {
            assert!(names.insert((r.major, r.name)), "{} twice", r.name);
            assert!(
                r.name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"_/-.".contains(&b)),
                "{}: a name a glob and a file name can hold",
                r.name
            );
        }
    }
}
