//! reStructuredText pieces in the documentation's own style: grid tables and underlined headings.

/// A heading underlined with `mark` (the documentation uses `=` for the title, `-` for sections,
/// `^` for types and `"` below that).
pub fn heading(title: &str, mark: char) -> String {
    format!(
        "{title}\n{}\n\n",
        mark.to_string().repeat(title.chars().count().max(4))
    )
}

/// A grid table with a header row, as the documentation writes them.
pub(crate) fn grid(header: &[&str], rows: &[Vec<String>]) -> String {
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            rows.iter()
                .map(|r| r.get(i).map_or(0, |c| c.chars().count()))
                .chain([header[i].chars().count()])
                .max()
                .unwrap_or(0)
                + 2
        })
        .collect();
    let line = |c: char| {
        let mut s = String::from("+");
        for w in &widths {
            s.push_str(&c.to_string().repeat(*w));
            s.push('+');
        }
        s.push('\n');
        s
    };
    let row = |cells: Vec<&str>| {
        let mut s = String::from("|");
        for (c, w) in cells.iter().zip(&widths) {
            s.push(' ');
            s.push_str(c);
            s.push_str(&" ".repeat(w - 1 - c.chars().count()));
            s.push('|');
        }
        s.push('\n');
        s
    };
    let mut out = line('-');
    out.push_str(&row(header.to_vec()));
    out.push_str(&line('='));
    for r in rows {
        out.push_str(&row(r.iter().map(String::as_str).collect()));
        out.push_str(&line('-'));
    }
    out.push('\n');
    out
}

/// One parsed row of a grid table: its cells, trimmed.
pub fn parse_rows(table: &str) -> Vec<Vec<String>> {
    table
        .lines()
        .filter(|l| l.starts_with('|'))
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grid_table_reads_back() {
        let t = grid(&["Offset", "Len"], &[vec!["4".into(), "4".into()]]);
        assert!(t.starts_with("+--------+-----+\n| Offset | Len |\n+========+=====+\n"));
        assert_eq!(parse_rows(&t), vec![vec!["Offset", "Len"], vec!["4", "4"]]);
    }
}
