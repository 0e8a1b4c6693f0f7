//! Lexer of the spec language (ARCHITECTURE.md).
//!
//! Tokens and their spellings:
//!
//! | token | spelling |
//! |---|---|
//! | identifier | `[A-Za-z_][A-Za-z0-9_']*` except the reserved words below |
//! | angle name | `<` `[A-Za-z0-9_'.]+` `>` (e.g. `<F0>`; a nonterminal name, brackets included) |
//! | `wildcard` | `wildcard` (reserved) |
//! | empty word | `eps` (reserved) or `ε` (U+03B5) |
//! | `_` | `_` alone |
//! | wildcard reference | `$` immediately followed by decimal digits, e.g. `$1` |
//! | arrow | `->`, `→` (U+2192) or `::=` |
//! | punctuation | `.` `(` `)` `,` `:` `;` `|` |
//!
//! Whitespace (any Unicode white space) may appear between any two tokens, but not inside
//! one: `$1 . lock ( )` is fine, `$ 1` is not. `//` and `#` start comments that run to the
//! end of the line. A byte-order mark at the very start is skipped.
//!
//! The lexer never fails. Characters that start no token are reported
//! (`unexpected-character`, one diagnostic per run of such characters) and skipped; malformed
//! wildcard references (`$`, `$x`, `$0`, numbers beyond `u32`) are reported (`bad-wildcard`)
//! but still produce a [`SpecTokenKind::WildcardRef`] token, so the parser can carry on
//! without a second diagnostic for the same mistake.

use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// The kind of a spec token (with its payload).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecTokenKind {
    /// A plain identifier that is not reserved.
    Ident(String),
    /// An angle-bracket name such as `<F0>`, brackets included.
    AngleName(String),
    /// The reserved word `wildcard`.
    KwWildcard,
    /// The empty word: `eps` (`ascii == true`) or `ε`.
    Eps {
        /// True for `eps`, false for `ε`.
        ascii: bool,
    },
    /// `_` alone.
    Underscore,
    /// `$k`; malformed references carry 0 (or `u32::MAX` when too large) and have been
    /// reported by the lexer.
    WildcardRef(u32),
    /// A bare decimal number (never valid; the parser reports it).
    Int,
    /// `.`
    Dot,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// `;`
    Semi,
    /// `|`
    Bar,
    /// `->`, `→` or `::=`
    Arrow,
    /// End of input (always the last token, with an empty span at the end of the text).
    Eof,
}

/// A token with its location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecToken {
    /// What was read.
    pub kind: SpecTokenKind,
    /// Where (byte offsets; always on character boundaries).
    pub span: Span,
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_ident_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'\''
}

fn is_angle_char(b: u8) -> bool {
    is_ident_continue(b) || b == b'.'
}

/// Split `text` into tokens (the last one is [`SpecTokenKind::Eof`]) and lexical
/// diagnostics. Never panics.
pub fn lex_spec(text: &str) -> (Vec<SpecToken>, Vec<Diagnostic>) {
    let mut lx = Lexer {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        tokens: Vec::new(),
        diags: Vec::new(),
    };
    if text.starts_with('\u{FEFF}') {
        lx.pos = '\u{FEFF}'.len_utf8();
    }
    lx.run();
    let end = text.len();
    lx.tokens.push(SpecToken {
        kind: SpecTokenKind::Eof,
        span: Span::new(end, end),
    });
    (lx.tokens, lx.diags)
}

struct Lexer<'t> {
    text: &'t str,
    bytes: &'t [u8],
    pos: usize,
    tokens: Vec<SpecToken>,
    diags: Vec<Diagnostic>,
}

/// What the character at some position is, for the main loop.
enum CharClass {
    /// Skippable white space of this many bytes.
    Space(usize),
    /// A character that starts a token or a comment (handled by the main loop).
    Start,
    /// A character that starts nothing, of this many bytes.
    Unknown(usize),
}

impl<'t> Lexer<'t> {
    fn peek_byte(&self, at: usize) -> Option<u8> {
        self.bytes.get(at).copied()
    }

    fn push(&mut self, kind: SpecTokenKind, start: usize, end: usize) {
        self.tokens.push(SpecToken {
            kind,
            span: Span::new(start, end),
        });
    }

    /// The character starting at byte `at` (which must be a char boundary).
    fn char_at(&self, at: usize) -> Option<char> {
        self.text.get(at..).and_then(|s| s.chars().next())
    }

    fn classify(&self, at: usize) -> CharClass {
        let Some(b) = self.peek_byte(at) else {
            return CharClass::Start;
        };
        if b.is_ascii() {
            return match b {
                b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C => CharClass::Space(1),
                b'/' if self.peek_byte(at + 1) == Some(b'/') => CharClass::Start,
                b'#' | b'$' | b'-' | b':' | b'.' | b'(' | b')' | b',' | b';' | b'|' | b'<' => {
                    CharClass::Start
                }
                _ if is_ident_start(b) || b.is_ascii_digit() => CharClass::Start,
                _ => CharClass::Unknown(1),
            };
        }
        match self.char_at(at) {
            Some('ε') | Some('→') => CharClass::Start,
            Some(c) if c.is_whitespace() => CharClass::Space(c.len_utf8()),
            Some(c) => CharClass::Unknown(c.len_utf8()),
            // Not on a char boundary: cannot happen, but never loop or split a char.
            None => {
                let mut n = 1;
                while at + n < self.bytes.len() && !self.text.is_char_boundary(at + n) {
                    n += 1;
                }
                CharClass::Unknown(n)
            }
        }
    }

    fn run(&mut self) {
        while self.pos < self.bytes.len() {
            match self.classify(self.pos) {
                CharClass::Space(n) => self.pos += n,
                CharClass::Unknown(_) => self.unknown_run(),
                CharClass::Start => self.token(),
            }
        }
    }

    /// Report a run of characters that start no token as one diagnostic.
    fn unknown_run(&mut self) {
        let start = self.pos;
        while let CharClass::Unknown(n) = self.classify(self.pos) {
            self.pos += n;
        }
        let s = self.text.get(start..self.pos).unwrap_or("");
        let msg = if s.chars().count() == 1 {
            format!("unexpected character `{}`", shorten(s))
        } else {
            format!("unexpected characters `{}`", shorten(s))
        };
        self.diags.push(Diagnostic::error(
            "unexpected-character",
            Span::new(start, self.pos),
            msg,
        ));
    }

    fn skip_line(&mut self) {
        while let Some(b) = self.peek_byte(self.pos) {
            if b == b'\n' || b == b'\r' {
                break;
            }
            self.pos += 1;
        }
    }

    fn token(&mut self) {
        let start = self.pos;
        let Some(b) = self.peek_byte(start) else {
            return;
        };
        use SpecTokenKind as K;
        match b {
            b'/' | b'#' => self.skip_line(),
            b'.' => self.single(K::Dot),
            b'(' => self.single(K::LParen),
            b')' => self.single(K::RParen),
            b',' => self.single(K::Comma),
            b';' => self.single(K::Semi),
            b'|' => self.single(K::Bar),
            b':' => {
                if self.bytes.get(start..start + 3) == Some(b"::=") {
                    self.pos += 3;
                    self.push(K::Arrow, start, self.pos);
                } else {
                    self.single(K::Colon);
                }
            }
            b'-' => {
                if self.peek_byte(start + 1) == Some(b'>') {
                    self.pos += 2;
                    self.push(K::Arrow, start, self.pos);
                } else {
                    self.pos += 1;
                    self.diags.push(Diagnostic::error(
                        "unexpected-character",
                        Span::new(start, self.pos),
                        "unexpected character `-` (an arrow is written `->`)",
                    ));
                }
            }
            b'<' => self.angle(),
            b'$' => self.wildcard_ref(),
            b'0'..=b'9' => {
                while self.peek_byte(self.pos).is_some_and(|b| b.is_ascii_digit()) {
                    self.pos += 1;
                }
                self.push(K::Int, start, self.pos);
            }
            _ if is_ident_start(b) => {
                while self.peek_byte(self.pos).is_some_and(is_ident_continue) {
                    self.pos += 1;
                }
                let word = self.text.get(start..self.pos).unwrap_or("");
                let kind = match word {
                    "wildcard" => K::KwWildcard,
                    "eps" => K::Eps { ascii: true },
                    "_" => K::Underscore,
                    _ => K::Ident(word.to_string()),
                };
                self.push(kind, start, self.pos);
            }
            _ => match self.char_at(start) {
                Some('ε') => {
                    self.pos += 'ε'.len_utf8();
                    self.push(K::Eps { ascii: false }, start, self.pos);
                }
                Some('→') => {
                    self.pos += '→'.len_utf8();
                    self.push(K::Arrow, start, self.pos);
                }
                // `classify` only sends token starts here; stay total anyway.
                _ => self.unknown_run(),
            },
        }
    }

    fn single(&mut self, kind: SpecTokenKind) {
        let start = self.pos;
        self.pos += 1;
        self.push(kind, start, self.pos);
    }

    fn angle(&mut self) {
        let start = self.pos;
        let mut end = start + 1;
        while self.peek_byte(end).is_some_and(is_angle_char) {
            end += 1;
        }
        if end > start + 1 && self.peek_byte(end) == Some(b'>') {
            self.pos = end + 1;
            let name = self.text.get(start..self.pos).unwrap_or("").to_string();
            self.push(SpecTokenKind::AngleName(name), start, self.pos);
        } else {
            self.pos += 1;
            self.diags.push(Diagnostic::error(
                "unexpected-character",
                Span::new(start, self.pos),
                "unexpected character `<` (angle-bracket names look like `<F0>`)",
            ));
        }
    }

    fn wildcard_ref(&mut self) {
        let start = self.pos;
        self.pos += 1;
        let digits_start = self.pos;
        let mut value: Option<u32> = Some(0);
        while let Some(b) = self.peek_byte(self.pos).filter(u8::is_ascii_digit) {
            value = value
                .and_then(|v| v.checked_mul(10))
                .and_then(|v| v.checked_add(u32::from(b - b'0')));
            self.pos += 1;
        }
        let has_digits = self.pos > digits_start;
        // `$x`, `$1a`: swallow the identifier characters into the bad token.
        let mut trailing = false;
        while self.peek_byte(self.pos).is_some_and(is_ident_continue) {
            self.pos += 1;
            trailing = true;
        }
        let span = Span::new(start, self.pos);
        let written = self.text.get(start..self.pos).unwrap_or("$");
        let kind = if !has_digits || trailing {
            let msg = if written == "$" {
                "expected a number after `$` (wildcards are written `$1`, `$2`, …)".to_string()
            } else {
                format!(
                    "bad wildcard `{}`: wildcards are written `$` and a number, like `$1`",
                    shorten(written)
                )
            };
            self.diags
                .push(Diagnostic::error("bad-wildcard", span, msg));
            SpecTokenKind::WildcardRef(0)
        } else {
            match value {
                None => {
                    self.diags.push(Diagnostic::error(
                        "bad-wildcard",
                        span,
                        format!(
                            "wildcard number `{}` is too large (at most {})",
                            shorten(written),
                            u32::MAX
                        ),
                    ));
                    SpecTokenKind::WildcardRef(u32::MAX)
                }
                Some(0) => {
                    self.diags.push(Diagnostic::error(
                        "bad-wildcard",
                        span,
                        "wildcards are numbered from `$1`; `$0` is not a wildcard",
                    ));
                    SpecTokenKind::WildcardRef(0)
                }
                Some(k) => SpecTokenKind::WildcardRef(k),
            }
        };
        self.tokens.push(SpecToken { kind, span });
    }
}

/// At most 32 characters of `s`, with `…` when cut (for messages).
pub(crate) fn shorten(s: &str) -> String {
    let mut out: String = s.chars().take(32).collect();
    if s.chars().nth(32).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use SpecTokenKind as K;

    fn kinds(text: &str) -> Vec<SpecTokenKind> {
        lex_spec(text).0.into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn lexes_a_rule_with_all_arrow_spellings() {
        for arrow in ["->", "→", "::="] {
            let text = format!("S {arrow} $1 . lock ( ) S | ε | eps;");
            let (toks, diags) = lex_spec(&text);
            assert!(diags.is_empty(), "{diags:?}");
            let ks: Vec<_> = toks.into_iter().map(|t| t.kind).collect();
            assert_eq!(
                ks,
                vec![
                    K::Ident("S".into()),
                    K::Arrow,
                    K::WildcardRef(1),
                    K::Dot,
                    K::Ident("lock".into()),
                    K::LParen,
                    K::RParen,
                    K::Ident("S".into()),
                    K::Bar,
                    K::Eps { ascii: false },
                    K::Bar,
                    K::Eps { ascii: true },
                    K::Semi,
                    K::Eof
                ]
            );
        }
    }

    #[test]
    fn comments_keywords_and_names() {
        assert_eq!(
            kinds("wildcard // x\n# y\n_ _a S' <F0> 12 :"),
            vec![
                K::KwWildcard,
                K::Underscore,
                K::Ident("_a".into()),
                K::Ident("S'".into()),
                K::AngleName("<F0>".into()),
                K::Int,
                K::Colon,
                K::Eof
            ]
        );
    }

    #[test]
    fn bad_wildcards_are_reported_once_and_still_tokens() {
        for (text, value) in [
            ("$", 0),
            ("$x", 0),
            ("$0", 0),
            ("$1a", 0),
            ("$99999999999999999999", u32::MAX),
        ] {
            let (toks, diags) = lex_spec(text);
            assert_eq!(diags.len(), 1, "{text}");
            assert_eq!(diags[0].code, "bad-wildcard");
            assert_eq!(toks[0].kind, K::WildcardRef(value));
            assert_eq!(toks[0].span, Span::new(0, text.len()));
        }
        assert_eq!(kinds("$4294967295")[0], K::WildcardRef(u32::MAX));
        assert_eq!(kinds("$007")[0], K::WildcardRef(7));
    }

    #[test]
    fn unknown_characters_are_grouped_and_skipped() {
        let (toks, diags) = lex_spec("a @@é b - c < d");
        assert_eq!(diags.len(), 3);
        assert_eq!(diags[0].span, Span::new(2, 6));
        assert_eq!(diags[0].message, "unexpected characters `@@é`");
        assert_eq!(toks.len(), 5);
        // non-breaking space and a BOM are white space
        let (_, diags) = lex_spec("\u{FEFF}S\u{a0}-> a;");
        assert!(diags.is_empty());
    }
}
