//! The conformance matrix of public implementations of the format (docs/implementations.md):
//! each library, through its adapter in `implementations/`, run by [`crate::conform`] against
//! every engine version, counted per [`Category`], with its defects shown by re-run reproducers.
//!
//! This room only counts and renders: the runs themselves are `conform`'s, started by the CLI
//! (`gdmarshal implementations`).

pub(crate) mod category;
pub mod defects;
pub mod manifest;
pub mod page;
pub mod table;

pub use category::Category;
pub use defects::{Check, Defect, Newest, defects};
pub use manifest::{Implementation, read_all};
pub use manifest::{ManifestError, Registry, Unstable};
pub use table::{Cell, Failure, Row};

use serde::Serialize;

/// Everything the page shows.
#[derive(Clone, Debug)]
pub struct Matrix {
    /// The answers judged against, as reports name them (`embedded corpus 5ec916e7d63d`).
    pub corpus: String,
    /// The libraries, by adapter folder.
    pub implementations: Vec<Implementation>,
    /// One row per library and engine version.
    pub rows: Vec<Row>,
    /// Every defect, re-run or not.
    pub defects: Vec<Defect>,
}

/// The JSON form of the matrix (docs/implementations.json, the web page's view): the rows and
/// the defects the page shows.
#[derive(Debug, Serialize)]
pub struct View<'a> {
    /// [`Matrix::corpus`].
    pub corpus: &'a str,
    /// The libraries.
    pub implementations: &'a [Implementation],
    /// The categories, in the order of each row's `cells`.
    pub categories: Vec<Column>,
    /// The rows of the engine versions each library claims.
    pub rows: Vec<&'a Row>,
    /// The defects the page shows.
    pub defects: Vec<&'a Defect>,
}

/// A column of the matrix, in its JSON form.
#[derive(Debug, Serialize)]
pub struct Column {
    /// [`Category::key`].
    pub key: &'static str,
    /// [`Category::title`].
    pub title: &'static str,
}

impl Matrix {
    /// Its JSON form.
    pub fn view(&self) -> View<'_> {
        View {
            corpus: &self.corpus,
            implementations: &self.implementations,
            categories: Category::ALL
                .iter()
                .map(|c| Column {
                    key: c.key(),
                    title: c.title(),
                })
                .collect(),
            rows: self.rows.iter().filter(|r| r.version_claimed).collect(),
            defects: self
                .implementations
                .iter()
                .flat_map(|i| page::shown(self, i))
                .collect(),
        }
    }

    /// The rows of `imp`, in engine version order.
    pub(crate) fn rows_of<'a>(&'a self, imp: &'a Implementation) -> impl Iterator<Item = &'a Row> {
        self.rows.iter().filter(move |r| r.implementation == imp.id)
    }
}
