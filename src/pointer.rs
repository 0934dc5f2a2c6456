//! JSON pointers (RFC 6901) into an input document: how errors and documents name a place
//! before it is matched to a file's line and column.

/// Build a JSON pointer segment (RFC 6901 escaping).
pub fn pointer_push(base: &str, segment: &str) -> String {
    let mut out = String::with_capacity(base.len() + 1 + segment.len());
    out.push_str(base);
    out.push('/');
    if segment.contains(['~', '/']) {
        out.push_str(&segment.replace('~', "~0").replace('/', "~1"));
    } else {
        out.push_str(segment);
    }
    out
}

/// The segments of a JSON pointer ("/ships/a~1b" → "ships", "a/b"), unescaped.
pub(crate) fn pointer_segments(pointer: &str) -> impl Iterator<Item = String> + '_ {
    pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
}

/// "/sides/0/players/1/rank" → "sides[1].players[2].rank" (1-based, as people count).
pub(crate) fn readable_path(pointer: &str) -> String {
    let mut out = String::new();
    for seg in pointer_segments(pointer) {
        match seg.parse::<usize>() {
            Ok(i) => out.push_str(&format!("[{}]", i + 1)),
            Err(_) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(&seg);
            }
        }
    }
    out
}
