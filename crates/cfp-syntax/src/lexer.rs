//! Hand-written lexer of the program language (a Java subset).
//!
//! [`lex`] turns a source text into [`Token`]s with byte [`Span`]s, ending with one
//! [`TokenKind::Eof`]. Comments and whitespace are skipped. Lexical errors (unterminated
//! strings or comments, bad characters, malformed numbers, bad escapes) become
//! [`Diagnostic`]s; the lexer never fails and never panics.

use crate::diagnostic::Diagnostic;
use crate::span::Span;

mod token;
pub use token::*;

/// Split `text` into tokens. Never fails; errors are reported as diagnostics.
pub fn lex(text: &str) -> Lexed {
    lex_from(text, 0)
}

/// Split `text[start..]` into tokens whose spans are offsets into `text` (one file of a
/// [`crate::sources::SourceSet`] is lexed this way inside the combined text). `start`
/// must be a character boundary (0 when it is not).
pub fn lex_from(text: &str, start: usize) -> Lexed {
    let start = if text.is_char_boundary(start) {
        start
    } else {
        0
    };
    let mut lx = Lexer {
        text,
        bytes: text.as_bytes(),
        pos: start,
        out: Lexed::default(),
    };
    lx.run();
    lx.out
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c == '$' || c.is_alphabetic()
}

fn is_ident_continue(c: char) -> bool {
    c == '_' || c == '$' || c.is_alphanumeric()
}

struct Lexer<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    out: Lexed,
}

impl<'a> Lexer<'a> {
    fn byte(&self, at: usize) -> u8 {
        self.bytes.get(at).copied().unwrap_or(0)
    }

    fn char_at(&self, at: usize) -> Option<char> {
        self.text.get(at..).and_then(|s| s.chars().next())
    }

    fn error(&mut self, code: &'static str, start: usize, end: usize, msg: impl Into<String>) {
        self.out
            .diagnostics
            .push(Diagnostic::error(code, Span::new(start, end), msg));
    }

    fn push(&mut self, kind: TokenKind, start: usize) {
        self.out.tokens.push(Token {
            kind,
            span: Span::new(start, self.pos),
        });
    }

    fn run(&mut self) {
        let mut bad_run: Option<(usize, usize)> = None;
        loop {
            self.skip_trivia();
            let start = self.pos;
            let Some(c) = self.char_at(start) else {
                break;
            };
            if !self.lex_token(c) {
                // A character that starts no token: coalesce a run into one diagnostic.
                self.pos += c.len_utf8();
                match bad_run {
                    Some((s, e)) if e == start => bad_run = Some((s, self.pos)),
                    _ => {
                        self.flush_bad(bad_run.take());
                        bad_run = Some((start, self.pos));
                    }
                }
            } else {
                self.flush_bad(bad_run.take());
            }
        }
        self.flush_bad(bad_run.take());
        let end = self.text.len();
        self.out.tokens.push(Token {
            kind: TokenKind::Eof,
            span: Span::new(end, end),
        });
        // Diagnostics of the lexer are produced in source order except for bad runs,
        // which are flushed late; a stable sort restores the order.
        self.out.diagnostics.sort_by_key(|d| d.span.start);
    }

    fn flush_bad(&mut self, run: Option<(usize, usize)>) {
        if let Some((s, e)) = run {
            let what = self.text.get(s..e).unwrap_or("?");
            let msg = if what.chars().count() == 1 {
                format!("unexpected character `{}`", what.escape_debug())
            } else {
                format!("unexpected characters `{}`", what.escape_debug())
            };
            self.error("unexpected-character", s, e, msg);
        }
    }

    fn skip_trivia(&mut self) {
        loop {
            let b = self.byte(self.pos);
            match b {
                b' ' | b'\t' | b'\n' | b'\r' | 0x0c => self.pos += 1,
                b'/' if self.byte(self.pos + 1) == b'/' => {
                    while self.pos < self.bytes.len()
                        && self.bytes[self.pos] != b'\n'
                        && self.bytes[self.pos] != b'\r'
                    {
                        self.pos += 1;
                    }
                }
                b'/' if self.byte(self.pos + 1) == b'*' => {
                    let start = self.pos;
                    match self.text.get(start + 2..).and_then(|s| s.find("*/")) {
                        Some(i) => self.pos = start + 2 + i + 2,
                        None => {
                            self.pos = self.bytes.len();
                            self.error(
                                "unterminated-comment",
                                start,
                                start + 2,
                                "unterminated block comment",
                            );
                        }
                    }
                }
                _ => {
                    // Unicode whitespace (e.g. no-break space) is skipped too.
                    match self.char_at(self.pos) {
                        Some(c) if !c.is_ascii() && c.is_whitespace() => {
                            self.pos += c.len_utf8();
                        }
                        _ => return,
                    }
                }
            }
        }
    }

    /// Lex one token starting with `c` at `self.pos`; false when `c` starts no token.
    fn lex_token(&mut self, c: char) -> bool {
        let start = self.pos;
        if is_ident_start(c) {
            self.pos += c.len_utf8();
            while let Some(d) = self.char_at(self.pos) {
                if !is_ident_continue(d) {
                    break;
                }
                self.pos += d.len_utf8();
            }
            let word = self.text.get(start..self.pos).unwrap_or("");
            let kind = match Keyword::from_word(word) {
                Some(k) => TokenKind::Keyword(k),
                None => TokenKind::Ident,
            };
            self.push(kind, start);
            return true;
        }
        if c.is_ascii_digit() || (c == '.' && self.byte(start + 1).is_ascii_digit()) {
            self.lex_number();
            return true;
        }
        if c == '"' {
            self.lex_string();
            return true;
        }
        if c == '\'' {
            self.lex_char();
            return true;
        }
        let rest = self.bytes.get(start..).unwrap_or(&[]);
        for (p, kind) in PUNCT {
            if rest.starts_with(p.as_bytes()) {
                self.pos += p.len();
                self.push(*kind, start);
                return true;
            }
        }
        false
    }

    fn lex_number(&mut self) {
        let start = self.pos;
        let b0 = self.byte(start);
        let b1 = self.byte(start + 1);
        let mut is_float = false;
        let mut malformed = false;
        let mut overflow = false;
        let mut value: u64 = 0;
        let mut decimal = false;
        let radix: u32;
        if b0 == b'0' && (b1 == b'x' || b1 == b'X') {
            radix = 16;
            self.pos += 2;
            let digits_start = self.pos;
            self.digits(16, &mut value, &mut overflow);
            let mut any = self.pos > digits_start;
            if self.byte(self.pos) == b'.' {
                is_float = true;
                self.pos += 1;
                let s = self.pos;
                let mut dummy = 0;
                let mut o = false;
                self.digits(16, &mut dummy, &mut o);
                any |= self.pos > s;
            }
            if !any {
                malformed = true;
            }
            if matches!(self.byte(self.pos), b'p' | b'P') {
                is_float = true;
                self.exponent(&mut malformed);
            } else if is_float {
                malformed = true; // hex float needs a binary exponent
            }
        } else if b0 == b'0' && (b1 == b'b' || b1 == b'B') {
            radix = 2;
            self.pos += 2;
            let s = self.pos;
            self.digits(2, &mut value, &mut overflow);
            if self.pos == s {
                malformed = true;
            }
        } else {
            // Decimal, octal, or a decimal float.
            let s = self.pos;
            let mut dec_value = 0u64;
            let mut dec_overflow = false;
            self.digits(10, &mut dec_value, &mut dec_overflow);
            let int_text_end = self.pos;
            if self.byte(self.pos) == b'.' && self.byte(self.pos + 1) != b'.' {
                is_float = true;
                self.pos += 1;
                let mut dummy = 0;
                let mut o = false;
                self.digits(10, &mut dummy, &mut o);
            }
            if matches!(self.byte(self.pos), b'e' | b'E') {
                is_float = true;
                self.exponent(&mut malformed);
            }
            if matches!(self.byte(self.pos), b'f' | b'F' | b'd' | b'D') {
                is_float = true;
                self.pos += 1;
            }
            let int_text = self.text.get(s..int_text_end).unwrap_or("");
            if !is_float && int_text.len() > 1 && int_text.starts_with('0') {
                radix = 8;
                for ch in int_text.bytes().filter(|b| *b != b'_') {
                    let d = u64::from(ch.wrapping_sub(b'0'));
                    if d >= 8 {
                        malformed = true;
                    }
                    value = match value.checked_mul(8).and_then(|v| v.checked_add(d)) {
                        Some(v) => v,
                        None => {
                            overflow = true;
                            0
                        }
                    };
                }
            } else {
                radix = 10;
                decimal = true;
                value = dec_value;
                overflow = dec_overflow;
            }
        }
        let mut is_long = false;
        if !is_float && matches!(self.byte(self.pos), b'l' | b'L') {
            is_long = true;
            self.pos += 1;
        }
        if radix != 10 && matches!(self.byte(self.pos), b'f' | b'F' | b'd' | b'D') && radix != 16 {
            malformed = true;
            self.pos += 1;
        }
        // Glued identifier characters (`12abc`) make the literal malformed.
        while let Some(d) = self.char_at(self.pos) {
            if !is_ident_continue(d) {
                break;
            }
            malformed = true;
            self.pos += d.len_utf8();
        }
        let text = self.text.get(start..self.pos).unwrap_or("");
        if text.ends_with('_') || text.contains("_.") || text.contains("._") {
            malformed = true;
        }
        if malformed {
            self.error(
                "malformed-number",
                start,
                self.pos,
                format!("malformed number literal `{text}`"),
            );
        } else if !is_float {
            let limit: u64 = match (is_long, decimal) {
                (false, true) => 1 << 31,
                (false, false) => u64::from(u32::MAX),
                (true, true) => 1 << 63,
                (true, false) => u64::MAX,
            };
            if overflow || value > limit {
                let ty = if is_long { "long" } else { "int" };
                self.error(
                    "number-too-large",
                    start,
                    self.pos,
                    format!("integer literal `{text}` is too large for type `{ty}`"),
                );
                value = 0;
            }
        }
        if is_float {
            self.push(TokenKind::Float, start);
        } else {
            self.push(
                TokenKind::Int {
                    value,
                    is_long,
                    decimal,
                },
                start,
            );
        }
    }

    /// Digits of `radix` (and `_`), accumulating into `value`.
    fn digits(&mut self, radix: u32, value: &mut u64, overflow: &mut bool) {
        loop {
            let b = self.byte(self.pos);
            if b == b'_' {
                self.pos += 1;
                continue;
            }
            let Some(d) = (b as char).to_digit(radix) else {
                return;
            };
            match value
                .checked_mul(u64::from(radix))
                .and_then(|v| v.checked_add(u64::from(d)))
            {
                Some(v) => *value = v,
                None => *overflow = true,
            }
            self.pos += 1;
        }
    }

    /// `e[+-]digits` / `p[+-]digits` starting at the exponent letter.
    fn exponent(&mut self, malformed: &mut bool) {
        self.pos += 1;
        if matches!(self.byte(self.pos), b'+' | b'-') {
            self.pos += 1;
        }
        let s = self.pos;
        while self.byte(self.pos).is_ascii_digit() || self.byte(self.pos) == b'_' {
            self.pos += 1;
        }
        if self.pos == s {
            *malformed = true;
        }
        if matches!(self.byte(self.pos), b'f' | b'F' | b'd' | b'D') {
            self.pos += 1;
        }
    }

    /// Decode one escape sequence; `self.pos` is at the backslash. Pushes UTF-16 code
    /// units (for `\u`) or chars into `units`.
    fn escape(&mut self, units: &mut Vec<u32>) {
        let start = self.pos;
        self.pos += 1;
        let Some(c) = self.char_at(self.pos) else {
            self.error(
                "invalid-escape",
                start,
                self.pos,
                "unterminated escape sequence",
            );
            return;
        };
        let simple = match c {
            'b' => Some(0x08),
            't' => Some(0x09),
            'n' => Some(0x0a),
            'f' => Some(0x0c),
            'r' => Some(0x0d),
            's' => Some(0x20),
            '"' => Some(0x22),
            '\'' => Some(0x27),
            '\\' => Some(0x5c),
            _ => None,
        };
        if let Some(u) = simple {
            self.pos += 1;
            units.push(u);
            return;
        }
        if ('0'..='7').contains(&c) {
            let max_len = if c <= '3' { 3 } else { 2 };
            let mut v = 0u32;
            let mut n = 0;
            while n < max_len && (b'0'..=b'7').contains(&self.byte(self.pos)) {
                v = v * 8 + u32::from(self.byte(self.pos) - b'0');
                self.pos += 1;
                n += 1;
            }
            units.push(v);
            return;
        }
        if c == 'u' {
            while self.byte(self.pos) == b'u' {
                self.pos += 1;
            }
            let hex = self.bytes.get(self.pos..self.pos + 4);
            let v = hex
                .and_then(|h| std::str::from_utf8(h).ok())
                .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
                .and_then(|h| u32::from_str_radix(h, 16).ok());
            match v {
                Some(v) => {
                    self.pos += 4;
                    units.push(v);
                }
                None => {
                    self.error(
                        "invalid-escape",
                        start,
                        self.pos,
                        "invalid unicode escape: `\\u` must be followed by 4 hex digits",
                    );
                }
            }
            return;
        }
        if c == '\n' || c == '\r' {
            // Line continuation (text blocks); in a plain string this is unterminated,
            // which the caller reports.
            return;
        }
        self.pos += c.len_utf8();
        self.error(
            "invalid-escape",
            start,
            self.pos,
            format!("invalid escape sequence `\\{}`", c.escape_debug()),
        );
        units.extend(encode_utf16(c));
    }

    fn lex_string(&mut self) {
        let start = self.pos;
        if self.bytes.get(start..start + 3) == Some(b"\"\"\"") {
            self.lex_text_block();
            return;
        }
        self.pos += 1;
        let mut units: Vec<u32> = Vec::new();
        loop {
            match self.byte(self.pos) {
                b'"' => {
                    self.pos += 1;
                    break;
                }
                b'\\' if !matches!(self.byte(self.pos + 1), b'\n' | b'\r') => {
                    self.escape(&mut units)
                }
                b'\n' | b'\r' => {
                    self.error(
                        "unterminated-string",
                        start,
                        self.pos,
                        "unterminated string literal",
                    );
                    break;
                }
                _ => match self.char_at(self.pos) {
                    Some(c) => {
                        self.pos += c.len_utf8();
                        units.extend(encode_utf16(c));
                    }
                    None => {
                        self.error(
                            "unterminated-string",
                            start,
                            self.pos,
                            "unterminated string literal",
                        );
                        break;
                    }
                },
            }
        }
        self.finish_string(units, start);
    }

    fn lex_text_block(&mut self) {
        let start = self.pos;
        self.pos += 3;
        // Only whitespace may follow the opening delimiter on its line.
        while matches!(self.byte(self.pos), b' ' | b'\t' | 0x0c) {
            self.pos += 1;
        }
        match self.byte(self.pos) {
            b'\r' if self.byte(self.pos + 1) == b'\n' => self.pos += 2,
            b'\n' | b'\r' => self.pos += 1,
            _ => {
                self.error(
                    "malformed-text-block",
                    start,
                    self.pos,
                    "a text block's opening `\"\"\"` must be followed by a line break",
                );
            }
        }
        let mut units: Vec<u32> = Vec::new();
        loop {
            if self.bytes.get(self.pos..self.pos + 3) == Some(b"\"\"\"") {
                self.pos += 3;
                break;
            }
            match self.byte(self.pos) {
                b'\\' => {
                    if matches!(self.byte(self.pos + 1), b'\n' | b'\r') {
                        self.pos += 1; // `\<newline>`: the line break is dropped below
                        if self.byte(self.pos) == b'\r' {
                            self.pos += 1;
                        }
                        if self.byte(self.pos) == b'\n' {
                            self.pos += 1;
                        }
                    } else {
                        self.escape(&mut units)
                    }
                }
                _ => match self.char_at(self.pos) {
                    Some(c) => {
                        self.pos += c.len_utf8();
                        units.extend(encode_utf16(c));
                    }
                    None => {
                        self.error(
                            "unterminated-string",
                            start,
                            start + 3,
                            "unterminated text block",
                        );
                        break;
                    }
                },
            }
        }
        self.finish_string(units, start);
    }

    fn finish_string(&mut self, units: Vec<u32>, start: usize) {
        let units16: Vec<u16> = units.iter().map(|u| *u as u16).collect();
        let s: String = char::decode_utf16(units16)
            .map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect();
        let idx = self.out.strings.len() as u32;
        self.out.strings.push(s);
        self.push(TokenKind::Str(idx), start);
    }

    fn lex_char(&mut self) {
        let start = self.pos;
        self.pos += 1;
        let mut units: Vec<u32> = Vec::new();
        match self.byte(self.pos) {
            b'\'' => {
                self.pos += 1;
                self.error("empty-char", start, self.pos, "empty character literal");
                self.push(TokenKind::Char(0), start);
                return;
            }
            b'\n' | b'\r' => {}
            b'\\' => self.escape(&mut units),
            _ => {
                if let Some(c) = self.char_at(self.pos) {
                    self.pos += c.len_utf8();
                    units.push(c as u32);
                }
            }
        }
        if self.byte(self.pos) == b'\'' {
            self.pos += 1;
            if units.len() > 1 {
                self.error(
                    "malformed-char",
                    start,
                    self.pos,
                    "character literal must contain exactly one character",
                );
            }
        } else {
            self.error(
                "unterminated-char",
                start,
                self.pos,
                "unterminated character literal",
            );
        }
        self.push(TokenKind::Char(units.first().copied().unwrap_or(0)), start);
    }
}

fn encode_utf16(c: char) -> impl Iterator<Item = u32> {
    let mut buf = [0u16; 2];
    let n = c.encode_utf16(&mut buf).len();
    buf.into_iter().take(n).map(u32::from)
}

#[cfg(test)]
mod tests;
