//! Byte positions to lines, columns and character offsets in constant time, so that giving
//! every node of a big file its place stays linear (pest's `line_col` counts the characters
//! of the line up to the position each time: quadratic on one long line).

/// Characters are counted in blocks of this many bytes; a lookup scans at most one block.
const BLOCK: usize = 64;

/// A table of one text's line starts and (for non-ASCII text) character counts.
pub(crate) struct LineIndex {
    /// Byte offset of the start of each line.
    line_starts: Vec<usize>,
    /// Characters before each block of `BLOCK` bytes; empty when the text is ASCII.
    chars_before_block: Vec<usize>,
}

impl LineIndex {
    /// An index for character offsets only (no lines): what a one-line formula needs, and
    /// nothing at all for ASCII text.
    pub(crate) fn chars_only(text: &str) -> LineIndex {
        LineIndex {
            line_starts: vec![0],
            chars_before_block: if text.is_ascii() {
                Vec::new()
            } else {
                char_blocks(text.as_bytes())
            },
        }
    }

    pub(crate) fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0];
        line_starts.extend(
            bytes
                .iter()
                .enumerate()
                .filter(|(_, b)| **b == b'\n')
                .map(|(i, _)| i + 1),
        );
        let chars_before_block = if text.is_ascii() {
            Vec::new()
        } else {
            char_blocks(bytes)
        };
        LineIndex {
            line_starts,
            chars_before_block,
        }
    }

    /// Characters of `text` (the text the index was made from) before byte `pos`.
    pub(crate) fn char_offset(&self, text: &str, pos: usize) -> usize {
        let pos = pos.min(text.len());
        if self.chars_before_block.is_empty() {
            return pos;
        }
        let block = pos / BLOCK;
        let start = block * BLOCK;
        self.chars_before_block[block.min(self.chars_before_block.len() - 1)]
            + text.as_bytes()[start..pos]
                .iter()
                .filter(|b| !is_continuation(**b))
                .count()
    }

    /// 1-based line of byte `pos`.
    pub(crate) fn line(&self, pos: usize) -> usize {
        self.line_starts.partition_point(|start| *start <= pos)
    }

    /// 1-based line and column (in characters) of byte `pos`.
    pub(crate) fn line_col(&self, text: &str, pos: usize) -> (usize, usize) {
        let pos = pos.min(text.len());
        let line = self.line_starts.partition_point(|start| *start <= pos) - 1;
        let start = self.line_starts[line];
        // Lines are short: count the characters between the line's start and `pos` directly.
        let col = if self.chars_before_block.is_empty() {
            pos - start
        } else {
            text.as_bytes()[start..pos]
                .iter()
                .filter(|b| !is_continuation(**b))
                .count()
        };
        (line + 1, col + 1)
    }
}

/// Characters before each block of `BLOCK` bytes.
fn char_blocks(bytes: &[u8]) -> Vec<usize> {
    let mut count = 0;
    bytes
        .chunks(BLOCK)
        .map(|block| {
            let before = count;
            count += block.iter().filter(|b| !is_continuation(**b)).count();
            before
        })
        .collect()
}

/// A UTF-8 byte that continues a character rather than starting one.
fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_columns_and_offsets_match_a_plain_count() {
        let text = format!("héllo 你好\nworld\n{}ñ x\n\n🎈end", "a".repeat(150));
        let index = LineIndex::new(&text);
        for (pos, _) in text
            .char_indices()
            .chain(std::iter::once((text.len(), ' ')))
        {
            let before = &text[..pos];
            let line = before.matches('\n').count() + 1;
            let col = before.rsplit('\n').next().unwrap().chars().count() + 1;
            assert_eq!(index.line_col(&text, pos), (line, col), "at byte {pos}");
            assert_eq!(
                index.char_offset(&text, pos),
                before.chars().count(),
                "at byte {pos}"
            );
        }
    }

    #[test]
    fn ascii_text_needs_no_character_table() {
        let index = LineIndex::new("ab\ncd");
        assert!(index.chars_before_block.is_empty());
        assert_eq!(index.line_col("ab\ncd", 4), (2, 2));
    }
}
