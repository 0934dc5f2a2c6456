//! iCalendar text (RFC 5545): CRLF line ends, lines folded at 75 octets without splitting a
//! character, TEXT values escaped (backslash, semicolon, comma, newline).
use super::date::Date;

/// An all-day event.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Event {
    /// Stable: the same match or round gives the same UID on every export.
    pub uid: String,
    pub date: Date,
    pub summary: String,
    pub description: Option<String>,
    /// Raised when the event's content changes (so calendar clients take the update).
    pub sequence: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Calendar {
    pub name: String,
    /// The DTSTAMP of every event: fixed by the caller so that an export is reproducible.
    pub stamp: Date,
    pub events: Vec<Event>,
}

impl Calendar {
    pub(crate) fn render(&self) -> String {
        let mut out = String::new();
        let mut line = |l: String| fold(&l, &mut out);
        line("BEGIN:VCALENDAR".into());
        line("VERSION:2.0".into());
        line(format!(
            "PRODID:-//arbiter//arbiter {}//EN",
            env!("CARGO_PKG_VERSION")
        ));
        line("CALSCALE:GREGORIAN".into());
        line("METHOD:PUBLISH".into());
        line(format!("X-WR-CALNAME:{}", escape(&self.name)));
        for e in &self.events {
            line("BEGIN:VEVENT".into());
            line(format!("UID:{}", escape(&e.uid)));
            line(format!("DTSTAMP:{}T000000Z", self.stamp.compact()));
            line(format!("DTSTART;VALUE=DATE:{}", e.date.compact()));
            // An all-day event ends (exclusively) the next day; 9999-12-31 has none.
            if let Ok(next) = e.date.plus_days(1) {
                line(format!("DTEND;VALUE=DATE:{}", next.compact()));
            }
            if e.sequence > 0 {
                line(format!("SEQUENCE:{}", e.sequence));
            }
            line(format!("SUMMARY:{}", escape(&e.summary)));
            if let Some(d) = &e.description {
                line(format!("DESCRIPTION:{}", escape(d)));
            }
            line("TRANSP:TRANSPARENT".into());
            line("END:VEVENT".into());
        }
        line("END:VCALENDAR".into());
        out
    }
}

/// A TEXT value: `\`, `;`, `,` and line breaks escaped, other control characters dropped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push_str("\\n");
            }
            '\n' => out.push_str("\\n"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Append `line` folded: at most 75 octets a line, continuations start with a space.
fn fold(line: &str, out: &mut String) {
    let mut width = 0;
    for c in line.chars() {
        let n = c.len_utf8();
        if width + n > 75 {
            out.push_str("\r\n ");
            width = 1;
        }
        out.push(c);
        width += n;
    }
    out.push_str("\r\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unfold(text: &str) -> String {
        text.replace("\r\n ", "")
    }

    #[test]
    fn text_is_escaped_and_long_lines_fold_on_character_boundaries() {
        assert_eq!(escape("a,b;c\\d\ne\r\nf\u{7}"), "a\\,b\\;c\\\\d\\ne\\nf");
        let summary = "Ñandú ".repeat(30);
        let cal = Calendar {
            name: "Liga; 2026".into(),
            stamp: Date::parse("2026-09-01").unwrap(),
            events: vec![Event {
                uid: "x-r1-1v2@arbiter".into(),
                date: Date::parse("2026-09-07").unwrap(),
                summary: summary.clone(),
                description: None,
                sequence: 0,
            }],
        };
        let text = cal.render();
        assert!(text.ends_with("END:VCALENDAR\r\n"));
        for l in text.split("\r\n") {
            assert!(l.len() <= 75, "{l:?} is {} octets", l.len());
            assert!(!l.contains('\n') && !l.contains('\r'));
        }
        let whole = unfold(&text);
        assert!(
            whole.contains(&format!("\r\nSUMMARY:{summary}\r\n")),
            "{whole}"
        );
        assert!(whole.contains("X-WR-CALNAME:Liga\\; 2026\r\n"));
        assert!(whole.contains("DTSTART;VALUE=DATE:20260907\r\nDTEND;VALUE=DATE:20260908\r\n"));
        assert!(whole.contains("DTSTAMP:20260901T000000Z\r\n"));
    }
}
