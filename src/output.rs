//! Plain-text tables for people; every engine result also serialises to JSON.

/// Column alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// A simple text table: a header row, rows of cells, columns padded to fit.
#[derive(Debug, Clone, Default)]
pub struct Table {
    headers: Vec<String>,
    align: Vec<Align>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// Columns given as (header, alignment).
    pub fn new(columns: &[(&str, Align)]) -> Table {
        Table {
            headers: columns.iter().map(|c| c.0.to_string()).collect(),
            align: columns.iter().map(|c| c.1).collect(),
            rows: Vec::new(),
        }
    }

    pub fn row<S: ToString>(&mut self, cells: impl IntoIterator<Item = S>) -> &mut Table {
        self.rows
            .push(cells.into_iter().map(|c| c.to_string()).collect());
        self
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    pub fn render(&self) -> String {
        let n = self.headers.len();
        let mut widths: Vec<usize> = self.headers.iter().map(|h| h.chars().count()).collect();
        for r in &self.rows {
            for (i, c) in r.iter().enumerate().take(n) {
                widths[i] = widths[i].max(c.chars().count());
            }
        }
        let mut out = String::new();
        let line = |cells: &[String], out: &mut String| {
            let mut parts = Vec::new();
            for (i, (width, align)) in widths.iter().zip(&self.align).enumerate() {
                let c = cells.get(i).map(|s| s.as_str()).unwrap_or("");
                let pad = width.saturating_sub(c.chars().count());
                parts.push(match align {
                    Align::Left => format!("{c}{}", " ".repeat(pad)),
                    Align::Right => format!("{}{c}", " ".repeat(pad)),
                });
            }
            out.push_str(parts.join("  ").trim_end());
            out.push('\n');
        };
        let mut head = String::new();
        line(&self.headers, &mut head);
        out.push_str(&crate::style::header(head.trim_end_matches('\n')));
        out.push('\n');
        let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
        line(&rule, &mut out);
        for r in &self.rows {
            line(r, &mut out);
        }
        out
    }
}

impl std::fmt::Display for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.render())
    }
}

/// Print a value as pretty JSON followed by a newline.
pub fn json_string<T: serde::Serialize>(value: &T) -> String {
    let mut s = serde_json::to_string_pretty(value).expect("results serialise to JSON");
    s.push('\n');
    s
}

/// A share as a percentage with at most `digits` decimals (0.125 → "12.5%").
pub fn percent(share: f64, digits: usize) -> String {
    format!("{}%", trim_number(share * 100.0, digits))
}

/// A number with at most `digits` decimals and no trailing zeros ("0.75", "12", "0.3125").
pub fn trim_number(x: f64, digits: usize) -> String {
    let s = format!("{x:.digits$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}
