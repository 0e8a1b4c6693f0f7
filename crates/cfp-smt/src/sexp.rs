//! A robust reader of S-expressions as SMT solvers print them.
//!
//! Reads symbols (simple and `|quoted|`), keywords (`:named`, kept as symbols), numerals,
//! decimals, strings with SMT-LIB2's `""` escape, and `;` comments. The reader never
//! panics and never recurses on nesting depth: it keeps an explicit stack, and it refuses
//! inputs nested deeper than [`MAX_DEPTH`] so that every later (recursive) walk of a
//! [`Sexp`] — printing, dropping, conversion to terms — stays within a small stack.

use std::fmt;

/// The deepest nesting [`parse`] accepts. Solver answers are far shallower.
pub const MAX_DEPTH: usize = 2_000;

/// An S-expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sexp {
    /// A symbol or keyword, with `|…|` quotes removed.
    Symbol(String),
    /// A numeral (digits only; may exceed every machine integer).
    Numeral(String),
    /// A decimal such as `1.5`.
    Decimal(String),
    /// A string literal, unescaped.
    Str(String),
    /// A parenthesised list.
    List(Vec<Sexp>),
}

/// Why a text is not a sequence of S-expressions.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message} at byte {offset}")]
pub struct SexpError {
    /// Byte offset of the problem in the input.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

impl Sexp {
    /// The symbol's name, if this is a symbol.
    pub fn as_symbol(&self) -> Option<&str> {
        match self {
            Sexp::Symbol(s) => Some(s),
            _ => None,
        }
    }

    /// The elements, if this is a list.
    pub fn as_list(&self) -> Option<&[Sexp]> {
        match self {
            Sexp::List(v) => Some(v),
            _ => None,
        }
    }

    /// The value of a numeral, if it fits an `i128`.
    pub fn as_numeral(&self) -> Option<i128> {
        match self {
            Sexp::Numeral(n) => n.parse().ok(),
            _ => None,
        }
    }

    /// Whether this is the symbol `name`.
    pub fn is_symbol(&self, name: &str) -> bool {
        self.as_symbol() == Some(name)
    }

    /// The head symbol of a list `(head …)`.
    pub fn head(&self) -> Option<&str> {
        self.as_list()
            .and_then(|v| v.first())
            .and_then(Sexp::as_symbol)
    }
}

/// Prints SMT-LIB2 concrete syntax (symbols quoted when needed).
impl fmt::Display for Sexp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sexp::Symbol(s) if s.starts_with(':') && s.len() > 1 => f.write_str(s),
            Sexp::Symbol(s) if crate::term::is_reserved(s) => f.write_str(s),
            Sexp::Symbol(s) => f.write_str(&crate::term::quote_symbol(s)),
            Sexp::Numeral(s) | Sexp::Decimal(s) => f.write_str(s),
            Sexp::Str(s) => write!(f, "\"{}\"", s.replace('"', "\"\"")),
            Sexp::List(v) => {
                f.write_str("(")?;
                for (i, x) in v.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{x}")?;
                }
                f.write_str(")")
            }
        }
    }
}

fn is_symbol_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"~!@$%^&*_-+=<>.?/:#'".contains(&c) || c >= 0x80
}

/// Read every S-expression in `text`.
pub fn parse(text: &str) -> Result<Vec<Sexp>, SexpError> {
    let bytes = text.as_bytes();
    let mut stack: Vec<(usize, Vec<Sexp>)> = Vec::new();
    let mut top: Vec<Sexp> = Vec::new();
    let mut i = 0;
    let err = |offset: usize, message: &str| SexpError {
        offset,
        message: message.to_string(),
    };
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        let atom = match c {
            b' ' | b'\t' | b'\r' | b'\n' | 0x0c => {
                i += 1;
                continue;
            }
            b';' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'(' => {
                if stack.len() >= MAX_DEPTH {
                    return Err(err(i, "nesting too deep"));
                }
                stack.push((i, std::mem::take(&mut top)));
                i += 1;
                continue;
            }
            b')' => {
                let Some((_, parent)) = stack.pop() else {
                    return Err(err(i, "unbalanced `)`"));
                };
                let list = std::mem::replace(&mut top, parent);
                top.push(Sexp::List(list));
                i += 1;
                continue;
            }
            b'"' => {
                let mut s = Vec::new();
                i += 1;
                loop {
                    match bytes.get(i) {
                        None => return Err(err(start, "unterminated string")),
                        Some(b'"') if bytes.get(i + 1) == Some(&b'"') => {
                            s.push(b'"');
                            i += 2;
                        }
                        Some(b'"') => {
                            i += 1;
                            break;
                        }
                        Some(&b) => {
                            s.push(b);
                            i += 1;
                        }
                    }
                }
                Sexp::Str(String::from_utf8_lossy(&s).into_owned())
            }
            b'|' => {
                i += 1;
                let from = i;
                while i < bytes.len() && bytes[i] != b'|' {
                    i += 1;
                }
                if i >= bytes.len() {
                    return Err(err(start, "unterminated `|` symbol"));
                }
                let s = String::from_utf8_lossy(&bytes[from..i]).into_owned();
                i += 1;
                Sexp::Symbol(crate::term::unescape_symbol(s))
            }
            b'0'..=b'9' => {
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                if i + 1 < bytes.len() && bytes[i] == b'.' && bytes[i + 1].is_ascii_digit() {
                    i += 1;
                    while i < bytes.len() && bytes[i].is_ascii_digit() {
                        i += 1;
                    }
                    Sexp::Decimal(text[start..i].to_string())
                } else if i < bytes.len() && is_symbol_char(bytes[i]) {
                    // Not a numeral after all (e.g. `1abc`): read it as a symbol.
                    while i < bytes.len() && is_symbol_char(bytes[i]) {
                        i += 1;
                    }
                    Sexp::Symbol(String::from_utf8_lossy(&bytes[start..i]).into_owned())
                } else {
                    Sexp::Numeral(text[start..i].to_string())
                }
            }
            c if is_symbol_char(c) => {
                while i < bytes.len() && is_symbol_char(bytes[i]) {
                    i += 1;
                }
                let s = String::from_utf8_lossy(&bytes[start..i]).into_owned();
                Sexp::Symbol(crate::term::unescape_symbol(s))
            }
            _ => return Err(err(i, "unexpected character")),
        };
        top.push(atom);
    }
    if let Some((open, _)) = stack.last() {
        return Err(err(*open, "unbalanced `(`"));
    }
    Ok(top)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sym(s: &str) -> Sexp {
        Sexp::Symbol(s.into())
    }

    #[test]
    fn atoms_lists_and_comments() {
        let v = parse("(a |b c| 12 1.5 \"x\"\"y\" :named) ; comment\n(- 3)").unwrap();
        assert_eq!(
            v,
            vec![
                Sexp::List(vec![
                    sym("a"),
                    sym("b c"),
                    Sexp::Numeral("12".into()),
                    Sexp::Decimal("1.5".into()),
                    Sexp::Str("x\"y".into()),
                    sym(":named"),
                ]),
                Sexp::List(vec![sym("-"), Sexp::Numeral("3".into())]),
            ]
        );
        assert_eq!(v[0].to_string(), "(a |b c| 12 1.5 \"x\"\"y\" :named)");
        assert_eq!(v[1].head(), Some("-"));
        assert_eq!(parse("x!0 k!1 |p 2|").unwrap()[2], sym("p 2"));
        assert_eq!(parse("").unwrap(), vec![]);
    }

    #[test]
    fn errors_never_panic() {
        for bad in ["(", ")", "(a", "\"abc", "|abc", "(a))", "(\u{7}", "{"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        let deep = "(".repeat(1_000_000);
        assert!(parse(&deep).is_err());
        let ok = format!("{}{}", "(".repeat(MAX_DEPTH), ")".repeat(MAX_DEPTH));
        assert!(parse(&ok).is_ok());
        // Unicode and odd bytes in quoted symbols and strings are kept.
        assert_eq!(parse("|é ü|").unwrap(), vec![sym("é ü")]);
    }
}
