//! HTML pages a club posts: one escaper and one page builder for every page arbiter writes
//! (league standings, Swiss standings), so each page has the same head, the same style and the
//! same escaping. Pages are self-contained: no scripts, no external files, readable on a phone
//! (the key columns of a wide table stay in view while the rest scrolls) and in print.
use crate::output::Align;

/// Text for an HTML page: markup characters as entities, control characters written out
/// (`\u{1b}`, as on the terminal), so a name is text on the page whatever it holds.
pub(crate) fn text(s: &str) -> String {
    crate::names::escaped(s)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// The page style: one stylesheet, inline in a page written alone, a file of its own in a site.
/// Wide tables scroll inside their box; a table's key columns (`class="key"`: the name on the
/// left, the points on the right) stay in view as they scroll, on a 360 px phone too. Colours
/// keep at least 7:1 contrast for text; print drops the scrolling and the sticky columns.
const STYLE: &str = r#"body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:60em;padding:0 1em;color:#1a1a1a;background:#fff;line-height:1.4}
h1{font-size:1.6em;margin:.2em 0 .4em}h2{margin-top:1.5em}h3{margin:1.2em 0 .4em}
a{color:#0645ad}a:visited{color:#4b2c85}
nav{font-size:.95em;margin-bottom:.5em}nav a{margin-right:.2em}
ul.links{padding-left:1.2em}ul.links li{margin:.25em 0}
code{font-size:.9em;overflow-wrap:anywhere}
figure{margin:1em 0;overflow-x:auto}figure img{width:100%;min-width:32em;height:auto;border:1px solid #bbb}figcaption{font-size:.9em;color:#333}
.scroll{overflow-x:auto;margin-bottom:1.5em;max-width:100%}
table{border-collapse:collapse}
th,td{padding:.3em .6em;border-bottom:1px solid #bbb;white-space:nowrap;text-align:left;background:#fff}
thead th{border-bottom:2px solid #555}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
tbody tr:nth-child(even) td,tbody tr:nth-child(even) th{background:#f2f2f2}
caption{text-align:left;font-weight:bold;padding:.2em 0}
.key-left{position:sticky;left:0;z-index:1;white-space:normal;min-width:6em;max-width:14em}
.key-right{position:sticky;right:0;z-index:1;font-weight:bold}
td.wrap{white-space:normal;min-width:20em}
footer{margin-top:2em;color:#333;font-size:.9em;border-top:1px solid #bbb}
@media print{body{max-width:none;margin:0;font-size:11pt}figure img{min-width:0}nav{display:none}.scroll{overflow:visible}.key-left,.key-right{position:static}a{color:inherit;text-decoration:none}tr,figure{break-inside:avoid}h2,h3{break-after:avoid}}
"#;

/// The stylesheet every page uses (a site writes it once, as its one CSS file).
pub(crate) fn stylesheet() -> &'static str {
    STYLE
}

/// A piece of a line of text: words, or words linking to another page of the site.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Inline {
    Text(String),
    Link {
        words: String,
        href: String,
    },
    /// A hash or a file name: shown as code, allowed to wrap anywhere on a phone.
    Code(String),
}

impl Inline {
    pub(crate) fn text(words: &str) -> Inline {
        Inline::Text(words.to_string())
    }

    pub(crate) fn link(words: &str, href: &str) -> Inline {
        Inline::Link {
            words: words.to_string(),
            href: href.to_string(),
        }
    }

    pub(crate) fn code(words: &str) -> Inline {
        Inline::Code(words.to_string())
    }

    fn write(&self, out: &mut String) {
        match self {
            Inline::Text(w) => out.push_str(&text(w)),
            Inline::Link { words, href } => {
                out.push_str(&format!("<a href=\"{}\">{}</a>", text(href), text(words)))
            }
            Inline::Code(w) => out.push_str(&format!("<code>{}</code>", text(w))),
        }
    }
}

fn inlines(parts: &[Inline]) -> String {
    let mut out = String::new();
    for p in parts {
        p.write(&mut out);
    }
    out
}

/// One page: a title, then blocks of content in order.
#[derive(Debug, Clone)]
pub(crate) struct Page {
    title: String,
    nav: Vec<Inline>,
    body: String,
    footer: Vec<Vec<Inline>>,
}

impl Page {
    /// A page whose `<title>` and heading are `title` (escaped here).
    pub(crate) fn new(title: &str) -> Page {
        Page {
            title: title.to_string(),
            nav: Vec::new(),
            body: String::new(),
            footer: Vec::new(),
        }
    }

    /// Links above the title back up the site (the index first).
    pub(crate) fn nav(&mut self, links: Vec<Inline>) -> &mut Page {
        self.nav = links;
        self
    }

    /// A heading of `level` (2 to 4: the page's own title is the level-1 heading).
    pub(crate) fn heading(&mut self, level: u8, words: &str) -> &mut Page {
        let level = level.clamp(2, 4);
        self.body
            .push_str(&format!("<h{level}>{}</h{level}>\n", text(words)));
        self
    }

    /// A paragraph of plain words (escaped here).
    pub(crate) fn paragraph(&mut self, words: &str) -> &mut Page {
        self.body.push_str(&format!("<p>{}</p>\n", text(words)));
        self
    }

    /// A paragraph of words and links.
    pub(crate) fn line(&mut self, parts: &[Inline]) -> &mut Page {
        self.body.push_str(&format!("<p>{}</p>\n", inlines(parts)));
        self
    }

    /// A list, one line of words and links an item.
    pub(crate) fn list(&mut self, items: &[Vec<Inline>]) -> &mut Page {
        self.body.push_str("<ul class=\"links\">\n");
        for item in items {
            self.body.push_str(&format!("<li>{}</li>\n", inlines(item)));
        }
        self.body.push_str("</ul>\n");
        self
    }

    /// A picture (a chart) with its words for those who cannot see it, and a caption.
    pub(crate) fn figure(&mut self, src: &str, alt: &str, caption: &str) -> &mut Page {
        self.body.push_str(&format!(
            "<figure><img src=\"{}\" alt=\"{}\"><figcaption>{}</figcaption></figure>\n",
            text(src),
            text(alt),
            text(caption)
        ));
        self
    }

    /// A table, inside a box that scrolls sideways when the page is narrower than the table.
    pub(crate) fn table(&mut self, table: &PageTable) -> &mut Page {
        table.write(&mut self.body);
        self
    }

    /// Name the ruleset the page was made under, with its sha256 (linked to its page in a site).
    pub(crate) fn ruleset(
        &mut self,
        id: &crate::rules::identity::Identity,
        href: Option<&str>,
    ) -> &mut Page {
        let named = match &id.version {
            Some(v) => format!("{} {v}", id.name),
            None => id.name.clone(),
        };
        let mut line = vec![Inline::text("Ruleset: ")];
        line.push(match href {
            Some(h) => Inline::link(&named, h),
            None => Inline::text(&named),
        });
        line.extend([
            Inline::text(", sha256 "),
            Inline::code(&id.sha256),
            Inline::text("."),
        ]);
        self.footer.push(line);
        self
    }

    /// The whole document, its style inside it (a page posted alone).
    pub(crate) fn render(&self) -> String {
        self.document(&format!("<style>\n{STYLE}</style>"))
    }

    /// The whole document, its style from `stylesheet` (a page of a site, beside its CSS file).
    pub(crate) fn render_linked(&self, stylesheet: &str) -> String {
        self.document(&format!(
            "<link rel=\"stylesheet\" href=\"{}\">",
            text(stylesheet)
        ))
    }

    fn document(&self, style: &str) -> String {
        let title = text(&self.title);
        let nav = if self.nav.is_empty() {
            String::new()
        } else {
            let links: Vec<String> = self
                .nav
                .iter()
                .map(|i| inlines(std::slice::from_ref(i)))
                .collect();
            format!("<nav aria-label=\"Site\">{}</nav>\n", links.join(" › "))
        };
        let mut footer = String::new();
        for line in &self.footer {
            footer.push_str(&format!("<p>{}</p>", inlines(line)));
        }
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <meta name=\"generator\" content=\"arbiter\">\n<title>{title}</title>\n\
             {style}\n</head>\n<body>\n{nav}<h1>{title}</h1>\n{}\
             <footer>{footer}<p>Made with arbiter.</p></footer>\n</body>\n</html>\n",
            self.body
        )
    }
}

/// A column of a page table.
#[derive(Debug, Clone)]
pub(crate) struct Column {
    header: String,
    align: Align,
    key: Option<Key>,
    wrap: bool,
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
    pub(crate) fn new(header: &str, align: Align) -> Column {
        Column {
            header: header.to_string(),
            align,
            key: None,
            wrap: false,
        }
    }

    /// A column of sentences (a value's meaning), wrapped rather than kept on one line.
    pub(crate) fn prose(header: &str) -> Column {
        Column {
            wrap: true,
            ..Column::new(header, Align::Left)
        }
    }

    /// The column naming each row (a team, a player): a row header, kept in view on the left.
    pub(crate) fn name(header: &str) -> Column {
        Column {
            key: Some(Key::Left),
            ..Column::new(header, Align::Left)
        }
    }

    /// The column a reader came for (points): kept in view on the right.
    pub(crate) fn points(header: &str) -> Column {
        Column {
            key: Some(Key::Right),
            ..Column::new(header, Align::Right)
        }
    }
}

/// A cell of a page table: its words, and the page they link to.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Cell {
    words: String,
    href: Option<String>,
}

impl Cell {
    pub(crate) fn text(words: impl ToString) -> Cell {
        Cell {
            words: words.to_string(),
            href: None,
        }
    }

    /// Words linking to `href` (none: plain words).
    pub(crate) fn link(words: impl ToString, href: Option<String>) -> Cell {
        Cell {
            words: words.to_string(),
            href,
        }
    }

    fn html(&self) -> String {
        match &self.href {
            Some(h) => format!("<a href=\"{}\">{}</a>", text(h), text(&self.words)),
            None => text(&self.words),
        }
    }
}

/// A table for a page: a caption, columns and rows of plain text (escaped when written).
#[derive(Debug, Clone)]
pub(crate) struct PageTable {
    caption: Option<String>,
    columns: Vec<Column>,
    rows: Vec<Vec<Cell>>,
}

impl PageTable {
    pub(crate) fn new(columns: Vec<Column>) -> PageTable {
        PageTable {
            caption: None,
            columns,
            rows: Vec::new(),
        }
    }

    /// A caption read out with the table (what it lists).
    pub(crate) fn caption(mut self, words: &str) -> PageTable {
        self.caption = Some(words.to_string());
        self
    }

    /// A row of plain words; missing cells are left empty, extra cells dropped.
    pub(crate) fn row<S: ToString>(
        &mut self,
        cells: impl IntoIterator<Item = S>,
    ) -> &mut PageTable {
        self.cells(cells.into_iter().map(Cell::text).collect())
    }

    /// A row of cells, some of them links; missing cells are left empty, extra cells dropped.
    pub(crate) fn cells(&mut self, mut cells: Vec<Cell>) -> &mut PageTable {
        cells.resize(self.columns.len(), Cell::text(""));
        self.rows.push(cells);
        self
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.rows.is_empty()
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
                out.push_str(&format!(
                    "<{tag}{scope}{}>{}</{tag}>",
                    class(c),
                    cell.html()
                ));
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
    if c.wrap {
        names.push("wrap");
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
