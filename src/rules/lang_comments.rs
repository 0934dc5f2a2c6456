//! Finding the comments of rules-language text and placing each at its node. Brackets make
//! this exact: a comment line before a section's `}` (nothing of the section below it) is the
//! section's end; any other comment line belongs to the key or item below it.
use super::comments::{comment_text, place_own_line, Comments, Found};
use super::lang::Layout;
use super::lines::LineIndex;

/// A section or list: the byte positions of its brackets and its pointer.
#[derive(Debug, Clone)]
pub(crate) struct Container {
    pub open: usize,
    pub close: usize,
    pub pointer: String,
}

/// Every `#` comment outside a string, in order.
pub(crate) fn scan(text: &str) -> Vec<Found> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let (mut i, mut line, mut line_start) = (0, 1, 0);
    let (mut in_string, mut code_on_line) = (false, false);
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\n' {
            line += 1;
            line_start = i + 1;
            // The rest of a string that goes on is code on its next line.
            code_on_line = in_string;
        } else if in_string {
            match b {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
        } else {
            match b {
                b'"' => {
                    in_string = true;
                    code_on_line = true;
                }
                b'#' => {
                    let end = text[i..].find('\n').map_or(text.len(), |n| i + n);
                    found.push(Found {
                        pos: i,
                        line,
                        col: text[line_start..i].chars().count(),
                        own_line: !code_on_line,
                        text: comment_text(&text[i + 1..end]),
                    });
                    i = end;
                    continue;
                }
                b' ' | b'\t' | b'\r' => {}
                _ => code_on_line = true,
            }
        }
        i += 1;
    }
    found
}

/// Place every comment of `text` (parsed into `layout`) at its node.
pub(crate) fn attach(text: &str, mut layout: Layout) -> Comments {
    let mut comments = Comments::default();
    let found = scan(text);
    if found.is_empty() {
        return comments;
    }
    let lines = LineIndex::new(text);
    layout.anchors.sort_by_key(|a| a.0);
    layout.containers.sort_by_key(|c| c.open);
    let mut closes: Vec<usize> = (0..layout.containers.len()).collect();
    closes.sort_by_key(|&i| layout.containers[i].close);
    let root = Container {
        open: 0,
        close: text.len(),
        pointer: String::new(),
    };
    let mut open: Vec<&Container> = vec![&root];
    let mut next = 0;
    for c in found {
        while next < layout.containers.len() && layout.containers[next].open < c.pos {
            let entering = &layout.containers[next];
            while open.last().is_some_and(|o| o.close < entering.open) {
                open.pop();
            }
            open.push(entering);
            next += 1;
        }
        while open.last().is_some_and(|o| o.close < c.pos) {
            open.pop();
        }
        let inside = open.last().copied().unwrap_or(&root);
        let after = layout.anchors.partition_point(|a| a.0 < c.pos);
        if c.own_line {
            match layout.anchors.get(after) {
                Some((pos, pointer)) if *pos < inside.close => {
                    place_own_line(&mut comments, text, c, pointer, false)
                }
                _ => place_own_line(&mut comments, text, c, &inside.pointer, true),
            }
            continue;
        }
        // At the end of a line: the key on that line, or the section or list closed there.
        let anchor = after.checked_sub(1).map(|i| &layout.anchors[i]);
        let closed = closes
            .partition_point(|&i| layout.containers[i].close < c.pos)
            .checked_sub(1)
            .map(|i| &layout.containers[closes[i]]);
        let on_line = |pos: usize| lines.line(pos) == c.line;
        match (anchor, closed) {
            (a, Some(k)) if on_line(k.close) && a.is_none_or(|a| a.0 < k.close) => {
                if on_line(k.open) {
                    comments.add_after(&k.pointer, c.text)
                } else {
                    comments.add_end(&k.pointer, c.text)
                }
            }
            (Some((_, pointer)), _) => comments.add_after(pointer, c.text),
            (None, _) => comments.add_end("", c.text),
        }
    }
    comments.tidy_blanks();
    comments
}
