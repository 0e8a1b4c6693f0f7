//! Byte spans into one source text and their conversion to line/column positions.

use serde::{Deserialize, Serialize};

/// A half-open byte range `start..end` into the source text it was parsed from.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Span {
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset one past the last byte.
    pub end: u32,
}

impl Span {
    /// A span from `start` to `end` (byte offsets).
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// An empty span at the end of `self`.
    pub fn end_point(self) -> Span {
        Span {
            start: self.end,
            end: self.end,
        }
    }

    /// Length in bytes.
    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    /// True when the span covers no byte.
    pub fn is_empty(self) -> bool {
        self.end <= self.start
    }
}

/// A 1-based line and column; columns count Unicode scalar values, not bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct LineCol {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column (in characters).
    pub column: u32,
}

/// Precomputed line starts of a source text, for offset → line/column conversion.
#[derive(Clone, Debug)]
pub struct LineIndex {
    line_starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    /// Index the line starts of `text` (`\n`, `\r\n` and lone `\r` end lines).
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0];
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => line_starts.push(i + 1),
                b'\r' if bytes.get(i + 1) != Some(&b'\n') => line_starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
        LineIndex {
            line_starts,
            len: text.len(),
        }
    }

    /// Line and column of byte `offset` in `text` (the text this index was built from).
    /// Offsets past the end are clamped; offsets inside a UTF-8 sequence round down.
    pub fn line_col(&self, text: &str, offset: usize) -> LineCol {
        let offset = offset.min(self.len);
        let line = match self.line_starts.binary_search(&offset) {
            Ok(l) => l,
            Err(l) => l - 1,
        };
        let start = self.line_starts[line];
        let mut end = offset;
        while end > start && !text.is_char_boundary(end) {
            end -= 1;
        }
        let column = text.get(start..end).map_or(0, |s| s.chars().count()) + 1;
        LineCol {
            line: line as u32 + 1,
            column: column as u32,
        }
    }

    /// The text of 1-based line `line` without its terminator, if it exists.
    pub fn line_text<'a>(&self, text: &'a str, line: u32) -> Option<&'a str> {
        let i = (line as usize).checked_sub(1)?;
        let start = *self.line_starts.get(i)?;
        let end = self.line_starts.get(i + 1).copied().unwrap_or(self.len);
        text.get(start..end)
            .map(|s| s.trim_end_matches(['\n', '\r']))
    }

    /// Number of lines.
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_handles_all_line_endings_and_unicode() {
        let text = "ab\r\ncé\rx\ny";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_col(text, 0), LineCol { line: 1, column: 1 });
        assert_eq!(idx.line_col(text, 4), LineCol { line: 2, column: 1 });
        // 'x' after the é (2 bytes) and a lone \r
        let x = text.find('x').unwrap();
        assert_eq!(idx.line_col(text, x), LineCol { line: 3, column: 1 });
        let e_end = text.find('é').unwrap() + 2;
        assert_eq!(idx.line_col(text, e_end), LineCol { line: 2, column: 3 });
        assert_eq!(idx.line_col(text, 999), LineCol { line: 4, column: 2 });
        assert_eq!(idx.line_text(text, 2), Some("cé"));
        assert_eq!(idx.line_text(text, 9), None);
    }
}
