//! §11 of the report: what a double-precision build (`precision=double`) writes, from the corpus
//! of such an engine beside the corpus of the single-precision engine of the same version, and
//! what the 4.x page's one sentence on double builds gets wrong.

use std::fmt::Write as _;

use super::Inputs;
use super::appendix::Appendix;
use crate::campaign::log::short_version;
use crate::corpus::EngineCorpus;
use crate::model::{Record, Verdict};
use crate::oracle::DOUBLE_SUFFIX;
use gdmarshal::hex::unhex;

/// ENCODE_FLAG_64: the header bit a double build sets on types whose reals it writes as f64.
const FLAG_64: u32 = 1 << 16;

/// One type's encoding in both builds.
struct Row {
    ty: String,
    case: String,
    single: Vec<u8>,
    double: Vec<u8>,
}

impl Row {
    fn header(b: &[u8]) -> u32 {
        b.get(..4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .unwrap_or(0)
    }
    fn flagged(&self) -> bool {
        Self::header(&self.double) & FLAG_64 != 0
    }
    /// The page's rule: every float field 8 bytes, offsets `(offset - 4) * 2 + 4`. The header
    /// (and a packed array's count) are not floats: what follows them doubles.
    fn as_page_says(&self) -> bool {
        let fixed = if self.ty.starts_with("Packed") { 8 } else { 4 };
        self.single.len() >= fixed && self.double.len() == (self.single.len() - fixed) * 2 + fixed
    }
}

fn encoded(r: &Record) -> Option<Vec<u8>> {
    (r.verdict == Verdict::Accepted)
        .then(|| unhex(r.output.as_deref()?).ok())
        .flatten()
}

/// One encode case of each type answered by both engines.
fn rows(single: &EngineCorpus, double: &EngineCorpus) -> Vec<Row> {
    let mut out: Vec<Row> = Vec::new();
    for d in &double.records {
        let mut parts = d.name.split('/');
        let (Some("encode"), Some(ty), Some(case)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let Some(s) = single.records.iter().find(|s| s.name == d.name) else {
            continue;
        };
        let (Some(sb), Some(db)) = (encoded(s), encoded(d)) else {
            continue;
        };
        let row = Row {
            ty: ty.to_string(),
            case: case.to_string(),
            single: sb,
            double: db,
        };
        // The `counting` case where there is one, else the longest encoding.
        let better = |r: &Row| {
            r.case != "counting" && (case == "counting" || row.double.len() > r.double.len())
        };
        match out.iter_mut().find(|r| r.ty == ty) {
            Some(r) if better(r) => *r = row,
            Some(_) => {}
            None => out.push(row),
        }
    }
    out
}

/// Writes §11 for every double-precision corpus that has a single-precision corpus of the same
/// version beside it.
pub(crate) fn double_builds(md: &mut String, inp: &Inputs, app: &mut Appendix) {
    let pairs: Vec<(&EngineCorpus, &EngineCorpus)> = inp
        .double_corpora
        .iter()
        .filter_map(|d| {
            let base = d.entry.version.strip_suffix(DOUBLE_SUFFIX)?;
            let s = inp.corpora.iter().find(|c| c.entry.version == base)?;
            Some((s, d))
        })
        .collect();
    if pairs.is_empty() {
        return;
    }
    md.push_str("## 11. Double-precision builds\n\n");
    md.push_str(
        "A build made with `precision=double` (real_t is a double) answers from its own corpus, \
         `corpus/godot-<version>-double.jsonl` (the engine: `scripts/build-engine.sh`). Below, the \
         same encode case put to both builds of one version; every type not listed is written \
         byte for byte alike. About such builds the 4.x page says only that \"Float\" fields are then 8 bytes long, \
         each at `(offset - 4) * 2 + 4`. \
         It does not say that the header then carries flag bit 16 (ENCODE_FLAG_64, `0x10000`), \
         which is how a decoder tells the two layouts apart, nor that Color and PackedColorArray \
         stay 4-byte floats.\n\n",
    );
    for (single, double) in pairs {
        let (sv, dv) = (
            short_version(&single.entry.version),
            short_version(&double.entry.version),
        );
        writeln!(md, "### {sv} → {dv}\n").ok();
        md.push_str("| type | case | header (single → double) | bytes (single → double) | flag bit 16 | size as the page says | double build's bytes |\n|---|---|---|---|---|---|---|\n");
        let all = rows(single, double);
        let (mut changed, mut unlike_page) = (0, 0);
        for r in &all {
            let colour = r.ty.contains("Color");
            if r.single == r.double && !colour {
                continue;
            }
            changed += usize::from(r.single != r.double);
            unlike_page += usize::from(!r.as_page_says());
            let hex = gdmarshal::hex::hex(&r.double);
            writeln!(
                md,
                "| {} | `{}` | `{:08x}` → `{:08x}` | {} → {} | {} | {} | {} |",
                r.ty,
                r.case,
                Row::header(&r.single),
                Row::header(&r.double),
                r.single.len(),
                r.double.len(),
                if r.flagged() { "set" } else { "clear" },
                if r.as_page_says() { "yes" } else { "no" },
                app.code(&format!("§11 {dv} encode/{}/{}", r.ty, r.case), &hex)
            )
            .ok();
        }
        writeln!(
            md,
            "\n{changed} of {} types are written differently by the double build; the sizes of \
             {unlike_page} of the rows above differ from what the page's sentence implies.\n",
            all.len()
        )
        .ok();
    }
}
