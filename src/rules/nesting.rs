//! A cheap pre-check of bracket depth, so that no input can overflow the parsers' stacks.
use crate::error::{Error, Result};

/// Deepest bracket nesting accepted.
pub const MAX_NESTING: usize = 100;

/// Reject text nested more than `MAX_NESTING` brackets deep (strings and comments ignored).
pub fn check(name: &str, text: &str) -> Result<()> {
    let mut depth = 0usize;
    let (mut line, mut col) = (1usize, 0usize);
    let mut in_string: Option<char> = None;
    let mut in_comment = false;
    let mut escaped = false;
    for c in text.chars() {
        col += 1;
        if c == '\n' {
            line += 1;
            col = 0;
            in_comment = false;
            continue;
        }
        if in_comment {
            continue;
        }
        if let Some(q) = in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' && q == '"' {
                escaped = true;
            } else if c == q {
                in_string = None;
            }
            continue;
        }
        match c {
            '"' => in_string = Some(c),
            '#' => in_comment = true,
            '(' | '[' | '{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(Error::msg(format!("{name}:{line}:{col}: nested more than {MAX_NESTING} brackets deep")));
                }
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}
