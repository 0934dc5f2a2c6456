//! HTML pages a club posts: one escaper and one page builder for every page arbiter writes
//! (league standings, Swiss standings), so each page has the same head, the same style and the
//! same escaping. Pages are self-contained: no scripts, no external files, readable on a phone
//! (the key columns of a wide table stay in view while the rest scrolls) and in print.
use crate::output::Align;

/// Text for an HTML page: markup characters as entities, control characters written out
/// (`\u{1b}`, as on the terminal), so a name is text on the page whatever it holds.
pub fn text(s: &str) -> String {
    crate::names::escaped(s)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// The page style. Wide tables scroll inside their box; a table's key columns (`class="key"`:
/// the name on the left, the points on the right) stay in view as they scroll.
const STYLE: &str = r#"body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:60em;padding:0 1em;color:#1a1a1a;background:#fff;line-height:1.4}
h1{font-size:1.6em;margin:.2em 0 .4em}h2{margin-top:1.5em}h3{margin:1.2em 0 .4em}
.scroll{overflow-x:auto;margin-bottom:1.5em;max-width:100%}
table{border-collapse:collapse}
th,td{padding:.3em .6em;border-bottom:1px solid #bbb;white-space:nowrap;text-align:left;background:#fff}
thead th{border-bottom:2px solid #555}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
tbody tr:nth-child(even) td,tbody tr:nth-child(even) th{background:#f2f2f2}
caption{text-align:left;font-weight:bold;padding:.2em 0}
.key-left{position:sticky;left:0;z-index:1;white-space:normal;min-width:6em;max-width:14em}
.key-right{position:sticky;right:0;z-index:1;font-weight:bold}
footer{margin-top:2em;color:#444;font-size:.9em}
@media print{body{max-width:none;margin:0}.scroll{overflow:visible}.key-left,.key-right{position:static}a{color:inherit;text-decoration:none}}
"#;

/// One page: a title, then blocks of content in order.
#[derive(Debug, Clone)]
pub struct Page {
    title: String,
    body: String,
}

impl Page {
    /// A page whose `<title>` and heading are `title` (escaped here).
    pub fn new(title: &str) -> Page {
        Page {
            title: title.to_string(),
            body: String::new(),
        }
    }

    /// A heading of `level` (2 to 4: the page's own title is the level-1 heading).
    pub fn heading(&mut self, level: u8, words: &str) -> &mut Page {
        let level = level.clamp(2, 4);
        self.body
            .push_str(&format!("<h{level}>{}</h{level}>\n", text(words)));
        self
    }

    /// A paragraph of plain words (escaped here).
    pub fn paragraph(&mut self, words: &str) -> &mut Page {
        self.body.push_str(&format!("<p>{}</p>\n", text(words)));
        self
    }

    /// A table, inside a box that scrolls sideways when the page is narrower than the table.
    pub fn table(&mut self, table: &PageTable) -> &mut Page {
        table.write(&mut self.body);
        self
    }

    /// The whole document.
    pub fn render(&self) -> String {
        let title = text(&self.title);
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <meta name=\"generator\" content=\"arbiter\">\n<title>{title}</title>\n\
             <style>\n{STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n{}\
             <footer><p>Made with arbiter.</p></footer>\n</body>\n</html>\n",
            self.body
        )
    }
}

/// A column of a page table.
#[derive(Debug, Clone)]
pub struct Column {
    header: String,
    align: Align,
    key: Option<Key>,
}

/// A key column stays in view while the others scroll: the row's name on the left, its points
/// on the right.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    Left,
    Right,
}

impl Column {
    /// An ordinary column (numbers right-aligned).
    pub fn new(header: &str, align: Align) -> Column {
        Column {
            header: header.to_string(),
            align,
            key: None,
        }
    }

    /// The column naming each row (a team, a player): a row header, kept in view on the left.
    pub fn name(header: &str) -> Column {
        Column {
            key: Some(Key::Left),
            ..Column::new(header, Align::Left)
        }
    }

    /// The column a reader came for (points): kept in view on the right.
    pub fn points(header: &str) -> Column {
        Column {
            key: Some(Key::Right),
            ..Column::new(header, Align::Right)
        }
    }
}

/// A table for a page: a caption, columns and rows of plain text (escaped when written).
#[derive(Debug, Clone)]
pub struct PageTable {
    caption: Option<String>,
    columns: Vec<Column>,
    rows: Vec<Vec<String>>,
}

impl PageTable {
    pub fn new(columns: Vec<Column>) -> PageTable {
        PageTable {
            caption: None,
            columns,
            rows: Vec::new(),
        }
    }

    /// A caption read out with the table (what it lists).
    pub fn caption(mut self, words: &str) -> PageTable {
        self.caption = Some(words.to_string());
        self
    }

    /// A row; missing cells are left empty, extra cells dropped.
    pub fn row<S: ToString>(&mut self, cells: impl IntoIterator<Item = S>) -> &mut PageTable {
        let mut cells: Vec<String> = cells.into_iter().map(|c| c.to_string()).collect();
        cells.resize(self.columns.len(), String::new());
        self.rows.push(cells);
        self
    }

    fn write(&self, out: &mut String) {
        out.push_str("<div class=\"scroll\">\n<table>\n");
        if let Some(c) = &self.caption {
            out.push_str(&format!("<caption>{}</caption>\n", text(c)));
        }
        out.push_str("<thead><tr>");
        for c in &self.columns {
            out.push_str(&format!(
                "<th scope=\"col\"{}>{}</th>",
                class(c),
                text(&c.header)
            ));
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for row in &self.rows {
            out.push_str("<tr>");
            for (c, cell) in self.columns.iter().zip(row) {
                let tag = if c.key == Some(Key::Left) { "th" } else { "td" };
                let scope = if tag == "th" { " scope=\"row\"" } else { "" };
                out.push_str(&format!("<{tag}{scope}{}>{}</{tag}>", class(c), text(cell)));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table>\n</div>\n");
    }
}

fn class(c: &Column) -> String {
    let mut names = Vec::new();
    if c.align == Align::Right {
        names.push("n");
    }
    match c.key {
        Some(Key::Left) => names.push("key-left"),
        Some(Key::Right) => names.push("key-right"),
        None => {}
    }
    if names.is_empty() {
        String::new()
    } else {
        format!(" class=\"{}\"", names.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_escapes_markup_and_control_characters() {
        assert_eq!(
            text("<b>R&D \"O'Neil\"\u{1b}[2J\n</b>"),
            "&lt;b&gt;R&amp;D &quot;O&#39;Neil&quot;\\u{1b}[2J\\u{a}&lt;/b&gt;"
        );
    }

    #[test]
    fn a_page_has_one_head_and_escaped_cells() {
        let mut t = PageTable::new(vec![
            Column::name("Team"),
            Column::new("P", Align::Right),
            Column::points("Points"),
        ])
        .caption("Table");
        t.row(["<script>", "3", "7"]);
        let html = Page::new("A & B").table(&t).render();
        assert_eq!(html.matches("<head>").count(), 1);
        assert!(html.contains("<title>A &amp; B</title>"));
        assert!(html.contains("name=\"viewport\""));
        assert!(html.contains("<th scope=\"row\" class=\"key-left\">&lt;script&gt;</th>"));
        assert!(html.contains("<td class=\"n key-right\">7</td>"));
        assert!(
            !html.contains("\\\n"),
            "no stray line continuation in the page"
        );
    }
}
