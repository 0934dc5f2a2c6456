//! Finding the comments of YAML text and placing each at its node. YAML closes a mapping by
//! indenting less, so a comment line belongs to the key below it unless it is indented deeper
//! than that key: then it ends the deepest mapping or list that closes there and whose entries
//! are not indented deeper than the comment.
//!
//! A list item that is itself a mapping or list may start on a line of its own (`-`); the
//! `-` lines above an item count which of the nodes starting there a comment belongs to.
use super::comments::{comment_text, place_own_line, Comments, Found};
use yaml_rust2::scanner::Marker;

struct Anchor {
    pos: usize,
    line: usize,
    col: usize,
    pointer: String,
}

struct Collection {
    pointer: String,
    open: usize,
    /// The column of its entries (keys, or the `-` of items); none in brackets, which hold
    /// every comment between them.
    child_col: Option<usize>,
    flow: bool,
    /// Where the event that ends it is (the next token after it).
    end: usize,
}

/// Keys, list items and collections by position, gathered while parsing.
#[derive(Default)]
pub(crate) struct Layout {
    anchors: Vec<Anchor>,
    collections: Vec<Collection>,
    open: Vec<usize>,
    /// A list item that is a mapping: placed at its first key.
    pending_item: Option<(String, Marker)>,
    /// A character index (what markers count) and its byte offset, moved along as events come.
    cursor: (usize, usize),
}

impl Layout {
    /// The byte offset of a marker (which counts characters). Events come in order, so the
    /// cursor moves forward (and back a character at most): linear in all.
    fn byte_of(&mut self, text: &str, mark: Marker) -> usize {
        let bytes = text.as_bytes();
        let continues = |b: u8| b & 0xC0 == 0x80;
        let (mut chars, mut at) = self.cursor;
        while chars < mark.index() && at < bytes.len() {
            at += 1;
            while at < bytes.len() && continues(bytes[at]) {
                at += 1;
            }
            chars += 1;
        }
        while chars > mark.index() && at > 0 {
            at -= 1;
            while at > 0 && continues(bytes[at]) {
                at -= 1;
            }
            chars -= 1;
        }
        self.cursor = (chars, at);
        at
    }

    fn anchor(&mut self, pointer: &str, mark: Marker, text: &str) {
        let pos = self.byte_of(text, mark);
        self.anchors.push(Anchor {
            pos,
            line: mark.line(),
            col: indent_of(text, pos, mark.col()),
            pointer: pointer.to_string(),
        });
    }

    /// A mapping key.
    pub(crate) fn key(&mut self, pointer: &str, mark: Marker, text: &str) {
        if let Some((item, _)) = self.pending_item.take() {
            if starts_line(text, self.byte_of(text, mark)) {
                self.anchor(&item, mark, text);
            }
        }
        self.anchor(pointer, mark, text);
        if let Some(&i) = self.open.last() {
            let collection = &mut self.collections[i];
            if !collection.flow {
                collection.child_col.get_or_insert(mark.col());
            }
        }
    }

    /// A list item, a comment's anchor if it starts its line (after its `-`s).
    pub(crate) fn item(&mut self, pointer: &str, mark: Marker, text: &str, is_mapping: bool) {
        if is_mapping {
            // Its mark is past the first key's start: placed at that key instead.
            self.pending_item = Some((pointer.to_string(), mark));
        } else if starts_line(text, self.byte_of(text, mark)) {
            self.anchor(pointer, mark, text);
        }
    }

    pub(crate) fn open(&mut self, pointer: &str, mark: Marker, is_list: bool, text: &str) {
        let at = self.byte_of(text, mark);
        let flow = matches!(text.as_bytes().get(at), Some(b'[' | b'{'));
        self.open.push(self.collections.len());
        self.collections.push(Collection {
            pointer: pointer.to_string(),
            open: at,
            child_col: (is_list && !flow).then(|| mark.col()),
            flow,
            end: usize::MAX,
        });
    }

    pub(crate) fn close(&mut self, mark: Marker, text: &str) {
        if let Some((item, opened)) = self.pending_item.take() {
            // An empty mapping as a list item: at its bracket.
            if starts_line(text, self.byte_of(text, opened)) {
                self.anchor(&item, opened, text);
            }
        }
        let at = self.byte_of(text, mark);
        if let Some(i) = self.open.pop() {
            self.collections[i].end = at;
        }
    }

    /// Of the nodes that start where anchor `first` does (an item, the mapping or list in it,
    /// its first key...), the one `dashes` `-` lines down.
    fn pick(&self, first: usize, mut dashes: usize) -> usize {
        let mut j = first;
        while dashes > 0 && j + 1 < self.anchors.len() {
            let (here, next) = (&self.anchors[j], &self.anchors[j + 1]);
            let inside = next
                .pointer
                .strip_prefix(here.pointer.as_str())
                .is_some_and(|rest| rest.starts_with('/'));
            if next.line != self.anchors[first].line || !inside {
                break;
            }
            j += 1;
            dashes -= 1;
        }
        j
    }

    /// Place every comment of `text` at its node.
    pub(crate) fn attach(mut self, text: &str) -> Comments {
        let mut comments = Comments::default();
        let scan = scan(text);
        if scan.found.is_empty() {
            return comments;
        }
        self.anchors.sort_by_key(|a| a.pos);
        self.collections.sort_by_key(|c| c.open);
        let mut open: Vec<usize> = Vec::new();
        let mut next = 0;
        for c in scan.found {
            while next < self.collections.len() && self.collections[next].open < c.pos {
                let opening = self.collections[next].open;
                while open
                    .last()
                    .is_some_and(|&o| self.collections[o].end <= opening)
                {
                    open.pop();
                }
                open.push(next);
                next += 1;
            }
            while open
                .last()
                .is_some_and(|&o| self.collections[o].end <= c.pos)
            {
                open.pop();
            }
            let after = self.anchors.partition_point(|a| a.pos < c.pos);
            let dashes = scan.dashes_above[c.line];
            if !c.own_line {
                match self.anchors.get(after) {
                    Some(_) if scan.dash_only[c.line] => {
                        let at = self.pick(after, dashes);
                        comments.add_after(&self.anchors[at].pointer, c.text)
                    }
                    _ => match after.checked_sub(1) {
                        Some(i) => comments.add_after(&self.anchors[i].pointer, c.text),
                        None => comments.add_end("", c.text),
                    },
                }
                continue;
            }
            let below = self.anchors.get(after);
            // A node below whose `-` stands on a line of its own starts at that `-`.
            let starts_at = |k: &Anchor| match scan.next_dash_line.get(c.line + 1) {
                Some(&l) if l < k.line => scan.indent[l],
                _ => k.col,
            };
            let before = |comments: &mut Comments, pointer: &str, c: Found| {
                place_own_line(comments, text, c, pointer, false)
            };
            let end = |comments: &mut Comments, pointer: &str, c: Found| {
                place_own_line(comments, text, c, pointer, true)
            };
            if below.is_some_and(|k| c.col <= starts_at(k)) {
                let at = self.pick(after, dashes);
                before(&mut comments, &self.anchors[at].pointer, c);
                continue;
            }
            // Deeper than the key below: the end of a collection that closes before it.
            let closing: Vec<usize> = open
                .iter()
                .rev()
                .copied()
                .take_while(|&o| below.is_none_or(|k| self.collections[o].end <= k.pos))
                .collect();
            let fits = closing.iter().find(|&&o| {
                let col = self.collections[o].child_col;
                col.is_none_or(|col| col <= c.col)
            });
            match fits.or(closing.last()) {
                Some(&o) => end(&mut comments, &self.collections[o].pointer, c),
                None => match below {
                    Some(_) => {
                        let at = self.pick(after, dashes);
                        before(&mut comments, &self.anchors[at].pointer, c)
                    }
                    None => end(&mut comments, "", c),
                },
            }
        }
        comments.tidy_blanks();
        comments
    }
}

/// The column a comment is compared with: for a node that starts its line, the line's
/// indentation (the `-` of a list item); otherwise the node's own column.
fn indent_of(text: &str, pos: usize, col: usize) -> usize {
    if !starts_line(text, pos) {
        return col;
    }
    let start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
    let prefix = &text[start..pos];
    prefix.len() - prefix.trim_start().len()
}

/// Whether only blanks and `-`s come before `mark` on its line.
fn starts_line(text: &str, pos: usize) -> bool {
    let before = text.as_bytes()[..pos.min(text.len())].iter().rev();
    before
        .take_while(|b| **b != b'\n')
        .all(|b| matches!(b, b' ' | b'-' | b'\t'))
}

/// The comments of a YAML text, and for each line (from 1) whether it holds only `-`s and
/// how many such lines come right above it (comment lines and blank ones aside).
struct Scan {
    found: Vec<Found>,
    dash_only: Vec<bool>,
    dashes_above: Vec<usize>,
    /// For each line, the first line from it on that holds only `-`s (past the end if none).
    next_dash_line: Vec<usize>,
    indent: Vec<usize>,
}

/// Every comment outside quoted and block scalars. A `#` starts a comment at the start of a
/// line or after a blank; quotes open a scalar only where a value can start.
fn scan(text: &str) -> Scan {
    let mut scan = Scan {
        found: Vec::new(),
        dash_only: vec![false],
        dashes_above: vec![0],
        next_dash_line: Vec::new(),
        indent: vec![0],
    };
    let mut quote: Option<char> = None;
    // A block scalar (`|`, `>`) goes on while lines are indented deeper than this.
    let mut block: Option<usize> = None;
    // Flow brackets open (`[`, `{`), where `,` and brackets end a plain scalar.
    let mut flow = 0usize;
    let mut run = 0;
    let mut line_start = 0;
    for (index, line) in text.split('\n').enumerate() {
        let number = index + 1;
        scan.dashes_above.push(run);
        let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
        scan.indent.push(indent);
        let in_block = match block {
            Some(parent) if line.trim().is_empty() || indent > parent => true,
            _ => {
                block = None;
                false
            }
        };
        let mut code = String::new();
        if !in_block {
            let mut previous: Option<char> = None;
            let mut last_code: Option<char> = None;
            let mut in_plain = false;
            let mut chars = line.char_indices().peekable();
            while let Some((i, ch)) = chars.next() {
                match quote {
                    Some('\'') => {
                        if ch == '\'' {
                            if chars.peek().is_some_and(|(_, n)| *n == '\'') {
                                chars.next();
                            } else {
                                quote = None;
                            }
                        }
                        code.push('x');
                    }
                    Some(_) => {
                        if ch == '\\' {
                            chars.next();
                        } else if ch == '"' {
                            quote = None;
                        }
                        code.push('x');
                    }
                    None => {
                        // A value starts after an indicator and a blank, or right after a bracket.
                        let token_start = last_code
                            .is_none_or(|last| matches!(last, ':' | '-' | '[' | '{' | ',' | '?'))
                            && previous.is_none_or(|p| matches!(p, ' ' | '\t' | '[' | '{' | ','));
                        let after_blank = previous.is_none_or(|p| p == ' ' || p == '\t');
                        if ch == '#' && after_blank {
                            scan.found.push(Found {
                                pos: line_start + i,
                                line: number,
                                col: line[..i].chars().count(),
                                own_line: last_code.is_none(),
                                text: comment_text(&line[i + 1..]),
                            });
                            break;
                        }
                        if in_plain {
                            // A plain scalar ends at `: `, or at a flow collection's `,`, `]`, `}`.
                            let next_blank = chars.peek().is_none_or(|(_, n)| n.is_whitespace());
                            if ch == ':' && next_blank {
                                in_plain = false;
                            } else if flow > 0 && matches!(ch, ',' | ']' | '}') {
                                in_plain = false;
                                if ch != ',' {
                                    flow -= 1;
                                }
                            }
                        } else {
                            match ch {
                                '\'' | '"' if token_start => quote = Some(ch),
                                '|' | '>' if token_start => block = Some(indent),
                                '[' | '{' => flow += 1,
                                ']' | '}' => flow = flow.saturating_sub(1),
                                // `-`, `?` and `:` are indicators only before a blank;
                                // `?{"x` is a plain scalar, so its quote opens nothing.
                                ':' | '-' | '?' => {
                                    // Not before a blank, nor before a flow bracket or comma.
                                    in_plain = chars.peek().is_some_and(|(_, n)| {
                                        let ends_flow =
                                            flow > 0 && matches!(n, ',' | '[' | ']' | '{' | '}');
                                        !(n.is_whitespace() || ends_flow)
                                    })
                                }
                                ' ' | '\t' | ',' => {}
                                _ => in_plain = true,
                            }
                        }
                        code.push(ch);
                    }
                }
                if !ch.is_whitespace() {
                    last_code = Some(ch);
                }
                previous = Some(ch);
            }
        }
        let tokens: Vec<&str> = code.split_whitespace().collect();
        let dash_only = !tokens.is_empty() && tokens.iter().all(|t| *t == "-");
        scan.dash_only.push(dash_only);
        if dash_only {
            run += 1;
        } else if !tokens.is_empty() || in_block {
            run = 0;
        }
        line_start += line.len() + 1;
    }
    let lines = scan.dash_only.len();
    scan.next_dash_line = vec![lines; lines + 1];
    for l in (0..lines).rev() {
        scan.next_dash_line[l] = if scan.dash_only[l] {
            l
        } else {
            scan.next_dash_line[l + 1]
        };
    }
    scan
}
