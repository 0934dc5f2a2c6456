//! Plain-text tables for people; every engine result also serialises to JSON.
//!
//! Rendering is pure: a report is laid out for the `Layout` it is given (a width and whether to
//! colour); only the command line asks the terminal, once.

/// Column alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Align {
    Left,
    Right,
}

/// How text for people is laid out: the width tables and prose fit (`None`: as wide as they
/// need) and whether headers are bold. The library alone, scripts and pipes get `PLAIN`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Layout {
    pub width: Option<usize>,
    pub color: bool,
}

impl Layout {
    /// As wide as it needs, no colour.
    pub(crate) const PLAIN: Layout = Layout {
        width: None,
        color: false,
    };

    #[cfg(test)]
    /// Fitted to `width` columns, no colour.
    pub(crate) fn fitted(width: usize) -> Layout {
        Layout {
            width: Some(width),
            color: false,
        }
    }
}

/// A simple text table: a header row, rows of cells, columns padded to fit. Key columns (the
/// first, and any marked with `key`) stay when the table must shrink; the others go first.
#[derive(Debug, Clone, Default)]
pub(crate) struct Table {
    headers: Vec<String>,
    align: Vec<Align>,
    key: Vec<bool>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// Columns given as (header, alignment).
    pub(crate) fn new(columns: &[(&str, Align)]) -> Table {
        Table {
            headers: columns
                .iter()
                .map(|c| crate::names::escaped(c.0).into_owned())
                .collect(),
            align: columns.iter().map(|c| c.1).collect(),
            key: (0..columns.len()).map(|i| i == 0).collect(),
            rows: Vec::new(),
        }
    }

    /// Mark the columns with these headers as key columns: what the table is read for (names,
    /// points, shares), kept when others are dropped to fit.
    pub(crate) fn key(&mut self, headers: &[&str]) -> &mut Table {
        for h in headers {
            let h = crate::names::escaped(h);
            let i = self.headers.iter().position(|x| *x == h);
            debug_assert!(i.is_some(), "no column {h:?} to mark as key");
            if let Some(i) = i {
                self.key[i] = true;
            }
        }
        self
    }

    /// A row; a cell's control characters (a newline or an escape in a name) are written out
    /// as `\u{a}`, so a cell is one line and acts on nothing.
    pub(crate) fn row<S: ToString>(&mut self, cells: impl IntoIterator<Item = S>) -> &mut Table {
        self.rows.push(
            cells
                .into_iter()
                .map(|c| crate::names::escaped(&c.to_string()).into_owned())
                .collect(),
        );
        self
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The table as text for `layout`: within its width, key columns kept and the others
    /// dropped from the right (with a note naming them; `--wide` shows everything), text
    /// columns wrapped to fit; headers bold when it colours.
    pub(crate) fn render(&self, layout: Layout) -> String {
        let limit = layout.width;
        let n = self.headers.len();
        let mut widths: Vec<usize> = self.headers.iter().map(|h| h.chars().count()).collect();
        for r in &self.rows {
            for (i, c) in r.iter().enumerate().take(n) {
                widths[i] = widths[i].max(c.chars().count());
            }
        }
        let mut shown: Vec<usize> = (0..n).collect();
        if let Some(limit) = limit {
            shown = self.fit(&mut widths, limit);
        }
        let mut out = String::new();
        let line = |cells: &[String], out: &mut String| {
            // A wrapped cell makes its row several lines.
            let pieces: Vec<Vec<String>> = shown
                .iter()
                .map(|&i| wrap(cells.get(i).map(String::as_str).unwrap_or(""), widths[i]))
                .collect();
            let height = pieces.iter().map(Vec::len).max().unwrap_or(1);
            for k in 0..height {
                let mut parts = Vec::new();
                for (j, &i) in shown.iter().enumerate() {
                    let c = pieces[j].get(k).map(String::as_str).unwrap_or("");
                    let pad = widths[i].saturating_sub(c.chars().count());
                    parts.push(match self.align[i] {
                        Align::Left => format!("{c}{}", " ".repeat(pad)),
                        Align::Right => format!("{}{c}", " ".repeat(pad)),
                    });
                }
                out.push_str(parts.join("  ").trim_end());
                out.push('\n');
            }
        };
        let mut head = String::new();
        line(&self.headers, &mut head);
        out.push_str(&crate::style::header(
            head.trim_end_matches('\n'),
            layout.color,
        ));
        out.push('\n');
        let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
        line(&rule, &mut out);
        for r in &self.rows {
            line(r, &mut out);
        }
        if shown.len() < n {
            let hidden: Vec<&str> = (0..n)
                .filter(|i| !shown.contains(i))
                .map(|i| self.headers[i].as_str())
                .collect();
            let note = format!(
                "({} more column{} to fit the terminal: {}; --wide shows them)",
                hidden.len(),
                if hidden.len() == 1 { "" } else { "s" },
                hidden.join(", ")
            );
            for line in wrap(&note, limit.unwrap_or(usize::MAX)) {
                out.push_str(&line);
                out.push('\n');
            }
        }
        out
    }

    /// The columns shown within `limit`, narrowing `widths` to fit: columns go from the right,
    /// the others before key ones (the first never), until the rest fits at its narrowest;
    /// then long headers wrap at spaces, then the widest text columns wrap, each no narrower
    /// than `NARROWEST_WRAP` (or its longest header word).
    fn fit(&self, widths: &mut [usize], limit: usize) -> Vec<usize> {
        let n = widths.len();
        let longest_word = |text: &str| text.split(' ').map(|w| w.chars().count()).max();
        let (mut cells, mut cell_words) = (vec![0; n], vec![0; n]);
        for r in &self.rows {
            for (i, c) in r.iter().enumerate().take(n) {
                cells[i] = cells[i].max(c.chars().count());
                cell_words[i] = cell_words[i].max(longest_word(c).unwrap_or(0));
            }
        }
        let word = |i: usize| longest_word(&self.headers[i]).unwrap_or(0);
        // Headers wrap first (a line more, once), then text cells (lines more in every row);
        // a column that is not key goes before a word in it would be cut.
        let unwrapped: Vec<usize> = (0..n).map(|i| cells[i].max(word(i))).collect();
        let narrowest: Vec<usize> = (0..n)
            .map(|i| match self.align[i] {
                Align::Left if self.key[i] => word(i).max(NARROWEST_WRAP.min(cells[i])),
                Align::Left => word(i).max(NARROWEST_WRAP.min(cells[i]).max(cell_words[i])),
                Align::Right => unwrapped[i],
            })
            .collect();
        let mut shown: Vec<usize> = (0..n).collect();
        while total(&narrowest, &shown) > limit && shown.len() > 1 {
            let drop = (1..shown.len())
                .rev()
                .find(|&j| !self.key[shown[j]])
                .unwrap_or(shown.len() - 1);
            shown.remove(drop);
        }
        // Headers: the widest narrows a character at a time, so long headers share the room.
        while total(widths, &shown) > limit {
            let widest = shown
                .iter()
                .copied()
                .filter(|&i| widths[i] > unwrapped[i])
                .max_by_key(|&i| (widths[i], std::cmp::Reverse(i)));
            let Some(i) = widest else { break };
            widths[i] -= 1;
        }
        // Text: the widest text column wraps first, as far as it must.
        let mut text = shown.clone();
        text.sort_by_key(|&i| std::cmp::Reverse(widths[i] - narrowest[i]));
        for i in text {
            let over = total(widths, &shown).saturating_sub(limit);
            widths[i] -= over.min(widths[i] - narrowest[i]);
        }
        shown
    }
}

/// The narrowest a wrapped text column gets.
const NARROWEST_WRAP: usize = 12;

/// Columns' total width with two spaces between them.
fn total(widths: &[usize], shown: &[usize]) -> usize {
    shown.iter().map(|&i| widths[i]).sum::<usize>() + 2 * shown.len().saturating_sub(1)
}

/// A cell's text in lines of at most `width` characters, broken at spaces where it can.
fn wrap(text: &str, width: usize) -> Vec<String> {
    if text.chars().count() <= width || width == 0 {
        return vec![text.to_string()];
    }
    let mut lines = Vec::new();
    let mut current = String::new();
    for word in text.split(' ') {
        let mut word = word.to_string();
        loop {
            let used = current.chars().count();
            let needed = word.chars().count() + usize::from(used > 0);
            if used + needed <= width {
                if used > 0 {
                    current.push(' ');
                }
                current.push_str(&word);
                break;
            }
            if used > 0 {
                lines.push(std::mem::take(&mut current));
                continue;
            }
            // A word longer than the column is cut.
            let head: String = word.chars().take(width).collect();
            word = word.chars().skip(width).collect();
            lines.push(head);
            if word.is_empty() {
                break;
            }
        }
    }
    if !current.is_empty() {
        lines.push(current);
    }
    lines
}

/// Lines of prose fitted to `layout`'s width: a longer line breaks at spaces, its
/// continuations indented two spaces. Unchanged when the layout has no width.
pub(crate) fn fit_prose(text: &str, layout: Layout) -> String {
    let Some(limit) = layout.width else {
        return text.to_string();
    };
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if line.chars().count() <= limit {
            out.push_str(line);
            continue;
        }
        let mut pieces = wrap(line, limit).into_iter();
        out.push_str(&pieces.next().unwrap_or_default());
        let rest: Vec<String> = pieces.collect();
        for piece in wrap(&rest.join(" "), limit.saturating_sub(2).max(1)) {
            out.push_str("\n  ");
            out.push_str(&piece);
        }
    }
    out
}

/// Print a value as pretty JSON followed by a newline.
pub(crate) fn json_string<T: serde::Serialize>(value: &T) -> String {
    let mut s = serde_json::to_string_pretty(value).expect("results serialise to JSON");
    s.push('\n');
    s
}

/// A share as a percentage with one decimal, the one way every report prints one (0.125 →
/// "12.5%", 0.5 → "50.0%"). A share that is not 0 (or 1) but rounds to it says so ("<0.1%",
/// ">99.9%"): a 0.01% chance is not none.
pub(crate) fn percent(share: f64) -> String {
    let tenths = (share * 1000.0).round();
    if tenths == 0.0 && share > 0.0 {
        "<0.1%".to_string()
    } else if tenths == 0.0 && share < 0.0 {
        ">-0.1%".to_string()
    } else if tenths == 1000.0 && share < 1.0 {
        ">99.9%".to_string()
    } else {
        // `+ 0.0` turns -0 into 0, so nothing prints "-0.0%".
        format!("{:.1}%", tenths / 10.0 + 0.0)
    }
}

/// A p-value as reports print it: three decimals, and "p < 0.001" below that.
pub(crate) fn p_value(p: f64) -> String {
    if p < 0.001 {
        "p < 0.001".to_string()
    } else {
        format!("p = {p:.3}")
    }
}

/// A number with at most `digits` decimals and no trailing zeros ("0.75", "12", "0.3125").
pub(crate) fn trim_number(x: f64, digits: usize) -> String {
    let s = format!("{x:.digits$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    // An empty sum is -0.0, and -0.001 rounds to "-0": people read both as 0.
    if s == "-0" {
        "0".to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_with_a_newline_or_an_escape_stays_one_line() {
        let mut t = Table::new(&[("name", Align::Left), ("pts", Align::Right)]);
        t.row(["Ana\nXXR 1", "1"]).row(["Bo\u{1b}[31m", "0"]);
        assert_eq!(
            t.render(Layout::PLAIN),
            "name           pts\n\
             -------------  ---\n\
             Ana\\u{a}XXR 1    1\n\
             Bo\\u{1b}[31m     0\n"
        );
    }

    #[test]
    fn no_number_is_shown_as_minus_zero() {
        assert_eq!(trim_number(-0.0, 2), "0");
        assert_eq!(trim_number(-0.001, 2), "0");
        assert_eq!(trim_number(-0.5, 2), "-0.5");
        assert_eq!(trim_number(2.50, 2), "2.5");
    }

    #[test]
    fn percentages_have_one_decimal_and_never_round_a_chance_away() {
        assert_eq!(percent(0.125), "12.5%");
        assert_eq!(percent(0.5), "50.0%");
        assert_eq!(percent(0.69166), "69.2%");
        assert_eq!(percent(1.0), "100.0%");
        assert_eq!(percent(0.0), "0.0%");
        assert_eq!(percent(1.0 / 216.0), "0.5%");
        assert_eq!(percent(0.0001), "<0.1%");
        assert_eq!(percent(0.99996), ">99.9%");
        assert_eq!(percent(0.9994), "99.9%");
        assert_eq!(percent(-0.0), "0.0%");
        assert_eq!(percent(-0.25), "-25.0%");
        assert_eq!(percent(-0.00001), ">-0.1%");
    }

    #[test]
    fn p_values_have_three_decimals_and_a_floor() {
        assert_eq!(p_value(0.0423), "p = 0.042");
        assert_eq!(p_value(0.5), "p = 0.500");
        assert_eq!(p_value(0.001), "p = 0.001");
        assert_eq!(p_value(0.000_999), "p < 0.001");
        assert_eq!(p_value(1e-12), "p < 0.001");
    }

    fn ships() -> Table {
        let mut t = Table::new(&[
            ("ship", Align::Left),
            ("aliases", Align::Left),
            ("shields", Align::Right),
            ("speed", Align::Right),
        ]);
        t.row([
            "UFP heavy cruiser",
            "Enterprise, Constitution class",
            "10",
            "8",
        ]);
        t.row(["Transport", "", "2", "4"]);
        t
    }

    #[test]
    fn a_table_that_fits_is_as_it_was() {
        let wide = ships().render(Layout::PLAIN);
        assert_eq!(ships().render(Layout::fitted(200)), wide);
        assert_eq!(
            wide.lines().next(),
            Some("ship               aliases                         shields  speed")
        );
    }

    #[test]
    fn the_widest_text_column_wraps_first() {
        let out = ships().render(Layout::fitted(50));
        assert!(out.lines().all(|l| l.chars().count() <= 50), "{out}");
        assert_eq!(
            out,
            "ship               aliases          shields  speed\n\
             -----------------  ---------------  -------  -----\n\
             UFP heavy cruiser  Enterprise,           10      8\n\
             \x20                  Constitution\n\
             \x20                  class\n\
             Transport                                 2      4\n"
        );
    }

    #[test]
    fn then_columns_drop_from_the_right_with_a_note() {
        let out = ships().render(Layout::fitted(40));
        assert!(
            out.ends_with("(1 more column to fit the terminal:\nspeed; --wide shows them)\n"),
            "{out}"
        );
        assert!(out.lines().all(|l| l.chars().count() <= 40), "{out}");
    }

    fn standings() -> Table {
        let mut t = Table::new(&[
            ("#", Align::Right),
            ("team", Align::Left),
            ("P", Align::Right),
            ("W", Align::Right),
            ("for", Align::Right),
            ("against", Align::Right),
            ("diff", Align::Right),
            ("points", Align::Right),
        ]);
        t.key(&["team", "points"]);
        t.row(["1", "Gouged Eye", "5", "4", "12", "3", "+9", "13"]);
        t.row(["2", "Chaos All-Stars", "5", "1", "4", "11", "-7", "3"]);
        t
    }

    #[test]
    fn key_columns_stay_when_others_go() {
        let out = standings().render(Layout::fitted(32));
        assert!(out.lines().all(|l| l.chars().count() <= 32), "{out}");
        assert_eq!(
            out.lines().next(),
            Some("#  team             P  W  points"),
            "{out}"
        );
        assert!(out.contains("1  Gouged Eye       5  4      13"), "{out}");
        assert!(
            out.ends_with(
                "(3 more columns to fit the\nterminal: for, against, diff;\n--wide shows them)\n"
            ),
            "{out}"
        );
        // Narrower still, the key text column wraps before a key column goes.
        let out = standings().render(Layout::fitted(24));
        assert!(out.lines().all(|l| l.chars().count() <= 24), "{out}");
        assert!(out.starts_with("#  team           points\n"), "{out}");
        assert!(
            out.contains("2  Chaos               3\n   All-Stars\n"),
            "{out}"
        );
    }

    #[test]
    fn long_headers_wrap_before_columns_go() {
        let mut t = Table::new(&[
            ("shields", Align::Left),
            ("UFP heavy cruiser win rate", Align::Right),
            ("Klingon battle cruiser win rate", Align::Right),
        ]);
        t.key(&[
            "UFP heavy cruiser win rate",
            "Klingon battle cruiser win rate",
        ]);
        t.row(["8", "29.0%", "38.0%"]);
        let out = t.render(Layout::fitted(30));
        assert!(out.lines().all(|l| l.chars().count() <= 30), "{out}");
        assert!(!out.contains("--wide"), "nothing dropped: {out}");
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines.len() > 3, "the headers wrap: {out}");
        assert!(lines[0].starts_with("shields  "), "{out}");
        assert_eq!(
            lines.last(),
            Some(&"8            29.0%       38.0%"),
            "{out}"
        );
    }

    #[test]
    fn a_column_that_is_not_key_goes_before_a_word_in_it_is_cut() {
        let mut t = Table::new(&[
            ("name", Align::Left),
            ("file", Align::Left),
            ("description", Align::Left),
        ]);
        t.key(&["description"]);
        t.row([
            "cep",
            "rulesets/cep.yaml",
            "CEP scenario scoring (points = result)",
        ]);
        let out = t.render(Layout::fitted(30));
        assert!(out.starts_with("name  description\n"), "{out}");
        assert!(out.contains("file; --wide"), "{out}");
    }

    #[test]
    fn headers_are_bold_only_when_the_layout_colours() {
        let mut t = Table::new(&[("ship", Align::Left)]);
        t.row(["Transport"]);
        let plain = t.render(Layout::PLAIN);
        let bold = t.render(Layout {
            width: None,
            color: true,
        });
        assert_eq!(plain, "ship\n---------\nTransport\n");
        assert!(bold.starts_with("\u{1b}[1mship"), "{bold:?}");
        assert!(bold.ends_with("---------\nTransport\n"), "{bold:?}");
    }

    #[test]
    fn long_words_are_cut_to_the_column() {
        assert_eq!(wrap("abcdefgh ij", 3), ["abc", "def", "gh", "ij"]);
        assert_eq!(wrap("a b c", 3), ["a b", "c"]);
    }
}
