//! Parser of the spec language (ARCHITECTURE.md): [`parse_spec`].
//!
//! ```text
//! spec        := item*
//! item        := "wildcard" $k ":" Type ";"
//!              | Name ARROW alternative ("|" alternative)* ";"
//! alternative := (Name | terminal | "ε" | "eps")*
//! terminal    := $k "." method "(" [arg ("," arg)*] ")"
//! arg         := $j | "_"
//! ARROW       := "->" | "→" | "::="
//! Name        := identifier | <angle-name>
//! ```
//! (tokens: see [`crate::spec_lexer`].)
//!
//! Corner cases, decided:
//! * Whitespace and comments may appear between any two tokens (`$1 . lock ( )` is
//!   `$1.lock()`), but `$` and its number must be adjacent.
//! * `Type` is a simple class name; a qualified name `java.util.concurrent.locks.ReentrantLock`
//!   is accepted with a warning (`qualified-type`) and only its last segment is kept.
//! * A method name is an identifier; the reserved words `wildcard` and `eps` are also
//!   accepted as method names (`$1.eps()`), since they are legal Java names.
//! * `ε`/`eps` alone, or an empty alternative (`S -> | a;`, `S -> ;`), is the empty word.
//!   `ε` next to other symbols (`a ε b`) is ignored with a warning (`eps-in-sequence`).
//! * A missing `;` is accepted with a warning (`missing-semicolon`) when what follows makes
//!   the intent unambiguous: the end of the file, a declaration (`wildcard $k`), or the start
//!   of another rule (`Name ->`). This is the friendliest choice: nothing is guessed.
//! * A stray `;` between items is accepted with a warning (`stray-semicolon`).
//! * Angle-bracket nonterminal names such as `<F0>` are accepted; the brackets are part of
//!   the name (and are printed back).
//! * Numbers beyond `u32` (`$99999999999`), `$0`, `$x` are errors (`bad-wildcard`).
//!
//! Error recovery: after an error inside an alternative, the parser skips to the next `|`
//! (and parses the following alternatives), `;`, `wildcard`, or `Name ->`; at the top level,
//! to the next `;`, `wildcard` or `Name ->`. An alternative containing an error is dropped;
//! the rule keeps its other alternatives (so that later checks do not report spurious
//! undefined nonterminals). A parser error directly following a lexical error is not
//! reported (one mistake, one diagnostic).

use crate::diagnostic::{Diagnostic, Severity};
use crate::span::Span;
use crate::spec_ast::{Alternative, Rule, Spec, Symbol, TermArg, Terminal, WildcardDecl};
use crate::spec_lexer::{lex_spec, shorten, SpecToken, SpecTokenKind as K};
use crate::{ast::Ident, Parsed};

/// Parse a spec (or `cfp include` grammar) file. Never fails and never panics: the tree
/// keeps everything that could be recovered, and the diagnostics (in source order) say
/// what went wrong. See the module documentation for the accepted syntax.
pub fn parse_spec(text: &str) -> Parsed<Spec> {
    let (toks, lex_diags) = lex_spec(text);
    let mut lex_error_starts: Vec<usize> = lex_diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.span.start as usize)
        .collect();
    lex_error_starts.sort_unstable();
    let mut p = Parser {
        text,
        toks,
        pos: 0,
        diags: Vec::new(),
        lex_error_starts,
    };
    let tree = p.parse_file();
    let mut diagnostics = lex_diags;
    diagnostics.append(&mut p.diags);
    diagnostics.sort_by_key(|d| d.span.start);
    Parsed { tree, diagnostics }
}

struct Parser<'t> {
    text: &'t str,
    /// Never empty: ends with `Eof`.
    toks: Vec<SpecToken>,
    pos: usize,
    diags: Vec<Diagnostic>,
    lex_error_starts: Vec<usize>,
}

/// Marker: an error was reported; the caller should recover.
struct Failed;

/// How an error recovery stopped.
#[derive(PartialEq, Eq)]
enum Stop {
    /// Consumed a `|`: the next alternative follows.
    Bar,
    /// Consumed a `;`.
    Semi,
    /// At the end of input or the start of the next item (not consumed).
    Item,
}

impl<'t> Parser<'t> {
    fn nth(&self, n: usize) -> &SpecToken {
        let last = self.toks.len().saturating_sub(1);
        &self.toks[(self.pos + n).min(last)]
    }

    fn peek(&self) -> &SpecToken {
        self.nth(0)
    }

    fn at(&self, kind: &K) -> bool {
        &self.peek().kind == kind
    }

    fn bump(&mut self) -> SpecToken {
        let t = self.peek().clone();
        if t.kind != K::Eof {
            self.pos += 1;
        }
        t
    }

    /// End of the previously consumed token (0 at the start).
    fn prev_end(&self) -> usize {
        match self.pos.checked_sub(1).and_then(|i| self.toks.get(i)) {
            Some(t) => t.span.end as usize,
            None => 0,
        }
    }

    /// True when the next token is a name followed by an arrow: the start of a rule.
    fn at_rule_start(&self) -> bool {
        matches!(self.peek().kind, K::Ident(_) | K::AngleName(_)) && self.nth(1).kind == K::Arrow
    }

    /// True at `wildcard $k`: the start of a declaration.
    fn at_decl_start(&self) -> bool {
        self.peek().kind == K::KwWildcard && matches!(self.nth(1).kind, K::WildcardRef(_))
    }

    /// True at the end of input or at the start of a rule or declaration.
    fn at_item_start(&self) -> bool {
        self.at(&K::Eof) || self.at_decl_start() || self.at_rule_start()
    }

    /// How to mention a token in a message.
    fn describe(&self, t: &SpecToken) -> String {
        match t.kind {
            K::Eof => "end of input".to_string(),
            _ => {
                let s = self
                    .text
                    .get(t.span.start as usize..t.span.end as usize)
                    .unwrap_or("?");
                format!("`{}`", shorten(s))
            }
        }
    }

    /// Report an error at the current token, unless a lexical error sits right before it
    /// (between the previous token and the end of this one).
    fn error_here(&mut self, code: &'static str, msg: String) -> Failed {
        let span = self.peek().span;
        let from = self.prev_end();
        let to = span.end as usize;
        let i = self.lex_error_starts.partition_point(|&s| s < from);
        let lexical = self.lex_error_starts.get(i).is_some_and(|&s| s <= to);
        if !lexical {
            self.diags.push(Diagnostic::error(code, span, msg));
        }
        Failed
    }

    fn expected(&mut self, what: &str) -> Failed {
        let found = self.describe(self.peek());
        self.error_here("expected-token", format!("expected {what}, found {found}"))
    }

    fn expect(&mut self, kind: K, what: &str) -> Result<SpecToken, Failed> {
        if self.at(&kind) {
            Ok(self.bump())
        } else {
            Err(self.expected(what))
        }
    }

    /// Skip tokens after an error (see the module documentation).
    fn recover(&mut self, stop_at_bar: bool) -> Stop {
        loop {
            match self.peek().kind {
                K::Eof | K::KwWildcard => return Stop::Item,
                K::Semi => {
                    self.bump();
                    return Stop::Semi;
                }
                K::Bar if stop_at_bar => {
                    self.bump();
                    return Stop::Bar;
                }
                _ if self.at_rule_start() => return Stop::Item,
                _ => {
                    self.bump();
                }
            }
        }
    }

    fn missing_semicolon(&mut self, what: &str) {
        let at = self.prev_end();
        self.diags.push(Diagnostic::warning(
            "missing-semicolon",
            Span::new(at, at),
            format!("missing `;` after {what}"),
        ));
    }

    fn parse_file(&mut self) -> Spec {
        let mut spec = Spec {
            wildcards: Vec::new(),
            rules: Vec::new(),
            span: Span::new(0, self.text.len()),
        };
        loop {
            let t = self.peek().clone();
            match &t.kind {
                K::Eof => break,
                K::Eps { .. } | K::Underscore | K::KwWildcard if self.nth(1).kind == K::Arrow => {
                    let what = self.describe(&t);
                    self.error_here(
                        "reserved-name",
                        format!("{what} is reserved and cannot name a nonterminal"),
                    );
                    self.bump();
                    self.recover(false);
                }
                K::KwWildcard => {
                    if let Some(w) = self.parse_wildcard() {
                        spec.wildcards.push(w);
                    }
                }
                K::Ident(_) | K::AngleName(_) if self.nth(1).kind == K::Arrow => {
                    spec.rules.push(self.parse_rule());
                }
                K::Semi => {
                    self.bump();
                    self.diags.push(Diagnostic::warning(
                        "stray-semicolon",
                        t.span,
                        "stray `;` (there is no rule or declaration to end)",
                    ));
                }
                K::Ident(name) | K::AngleName(name) => {
                    let name = name.clone();
                    self.bump();
                    let found = self.describe(self.peek());
                    self.error_here(
                        "expected-token",
                        format!("expected `->` after `{}`, found {found}", shorten(&name)),
                    );
                    self.recover(false);
                }
                _ => {
                    self.expected("a rule `Name -> …;` or a declaration `wildcard $k : Type;`");
                    self.bump();
                    self.recover(false);
                }
            }
        }
        spec
    }

    /// `wildcard $k : Type;` (at `wildcard`).
    fn parse_wildcard(&mut self) -> Option<WildcardDecl> {
        let kw = self.bump();
        match self.parse_wildcard_body(kw.span) {
            Ok(w) => Some(w),
            Err(Failed) => {
                self.recover(false);
                None
            }
        }
    }

    fn parse_wildcard_body(&mut self, kw: Span) -> Result<WildcardDecl, Failed> {
        let index = match self.peek().kind {
            K::WildcardRef(k) => {
                self.bump();
                k
            }
            _ => {
                let found = self.describe(self.peek());
                return Err(self.error_here(
                    "bad-wildcard",
                    format!("expected a wildcard like `$1` after `wildcard`, found {found}"),
                ));
            }
        };
        self.expect(K::Colon, "`:` and the wildcard's type")?;
        let mut ty = match &self.peek().kind {
            K::Ident(name) => Ident {
                name: name.clone(),
                span: self.peek().span,
            },
            _ => return Err(self.expected("a type name")),
        };
        self.bump();
        let first = ty.span;
        while self.at(&K::Dot) {
            self.bump();
            match &self.peek().kind {
                K::Ident(name) => {
                    ty = Ident {
                        name: name.clone(),
                        span: self.peek().span,
                    };
                    self.bump();
                }
                _ => return Err(self.expected("a type name after `.`")),
            }
        }
        if ty.span != first {
            self.diags.push(Diagnostic::warning(
                "qualified-type",
                first.to(ty.span),
                format!(
                    "classes are matched by simple name: only `{}` is used",
                    ty.name
                ),
            ));
        }
        let end = if self.at(&K::Semi) {
            self.bump().span.end as usize
        } else if self.at_item_start() {
            self.missing_semicolon("the wildcard declaration");
            self.prev_end()
        } else {
            return Err(self.expected("`;`"));
        };
        Ok(WildcardDecl {
            index,
            ty,
            span: Span::new(kw.start as usize, end),
        })
    }

    /// `Name -> alt | …;` (at the name, which is followed by an arrow).
    fn parse_rule(&mut self) -> Rule {
        let name_tok = self.bump();
        let name = match &name_tok.kind {
            K::Ident(n) | K::AngleName(n) => n.clone(),
            _ => String::new(),
        };
        self.bump(); // the arrow
        let lhs = Ident {
            name,
            span: name_tok.span,
        };
        let mut alternatives = Vec::new();
        loop {
            let alt = self.parse_alternative();
            let after = match alt {
                Ok(a) => {
                    alternatives.push(a);
                    match self.peek().kind {
                        K::Bar => {
                            self.bump();
                            Stop::Bar
                        }
                        K::Semi => {
                            self.bump();
                            Stop::Semi
                        }
                        _ if self.at_item_start() => {
                            let what = format!("the rule for `{}`", shorten(&lhs.name));
                            self.missing_semicolon(&what);
                            Stop::Item
                        }
                        // parse_alternative stops only at the tokens above.
                        _ => {
                            self.expected("`|` or `;`");
                            self.recover(true)
                        }
                    }
                }
                Err(Failed) => self.recover(true),
            };
            if after != Stop::Bar {
                break;
            }
        }
        let end = self.prev_end().max(lhs.span.end as usize);
        Rule {
            span: Span::new(lhs.span.start as usize, end),
            lhs,
            alternatives,
        }
    }

    /// One alternative, up to (not including) `|`, `;`, or the next item.
    fn parse_alternative(&mut self) -> Result<Alternative, Failed> {
        let mut symbols = Vec::new();
        let mut symbol_spans = Vec::new();
        let mut first: Option<Span> = None;
        let mut last = Span::default();
        let mut eps: Option<Span> = None;
        let mut items = 0usize;
        loop {
            let t = self.peek().clone();
            match &t.kind {
                K::Bar | K::Semi | K::Eof => break,
                _ if self.at_rule_start() || self.at_decl_start() => break,
                K::KwWildcard => {
                    let failed = self.error_here(
                        "reserved-name",
                        "`wildcard` is reserved and cannot name a nonterminal".to_string(),
                    );
                    self.bump(); // so that recovery does not stop at it
                    return Err(failed);
                }
                K::Ident(n) | K::AngleName(n) => {
                    self.bump();
                    symbols.push(Symbol::Nonterminal(Ident {
                        name: n.clone(),
                        span: t.span,
                    }));
                    symbol_spans.push(t.span);
                }
                K::Eps { .. } => {
                    self.bump();
                    eps.get_or_insert(t.span);
                }
                K::WildcardRef(_) => {
                    let term = self.parse_terminal()?;
                    symbols.push(Symbol::Terminal(term));
                    symbol_spans.push(Span::new(t.span.start as usize, self.prev_end()));
                }
                K::Underscore => {
                    return Err(self.error_here(
                        "expected-token",
                        "`_` (any value) may only be an argument of a terminal, as in `$1.put(_)`"
                            .to_string(),
                    ))
                }
                _ => {
                    return Err(self
                        .expected("a nonterminal, a terminal like `$1.lock()`, `ε`, `|` or `;`"))
                }
            }
            items += 1;
            first.get_or_insert(t.span);
            last = Span::new(t.span.start as usize, self.prev_end());
        }
        if let Some(e) = eps {
            if items > 1 {
                self.diags.push(Diagnostic::warning(
                    "eps-in-sequence",
                    e,
                    "`ε` next to other symbols is ignored (it is the empty word)",
                ));
            }
        }
        let span = match first {
            Some(f) => f.to(last),
            None => self.peek().span.start_point(),
        };
        Ok(Alternative {
            symbols,
            span,
            symbol_spans,
        })
    }

    /// `$k.method(args)` (at `$k`).
    fn parse_terminal(&mut self) -> Result<Terminal, Failed> {
        let receiver = match self.bump().kind {
            K::WildcardRef(k) => k,
            _ => 0,
        };
        self.expect(K::Dot, "`.` and a method name after the receiver wildcard")?;
        let method = match &self.peek().kind {
            K::Ident(n) => n.clone(),
            K::KwWildcard => "wildcard".to_string(),
            K::Eps { ascii: true } => "eps".to_string(),
            _ => return Err(self.expected("a method name")),
        };
        self.bump();
        self.expect(K::LParen, "`(` (a terminal is written like `$1.lock()`)")?;
        let mut args = Vec::new();
        if self.at(&K::RParen) {
            self.bump();
            return Ok(Terminal {
                receiver,
                method,
                args,
            });
        }
        // `(..)`: any number of arguments, of any value.
        if self.at(&K::Dot) && self.nth(1).kind == K::Dot {
            self.bump();
            self.bump();
            self.expect(
                K::RParen,
                "`)` after `..` (`$1.acquire(..)` takes any arguments)",
            )?;
            return Ok(Terminal {
                receiver,
                method,
                args: vec![TermArg::Rest],
            });
        }
        loop {
            match self.peek().kind {
                K::WildcardRef(j) => args.push(TermArg::Wildcard(j)),
                K::Underscore => args.push(TermArg::Any),
                _ => return Err(self.expected("an argument: a wildcard like `$2` or `_`")),
            }
            self.bump();
            match self.peek().kind {
                K::Comma => {
                    self.bump();
                }
                K::RParen => {
                    self.bump();
                    break;
                }
                _ => return Err(self.expected("`,` or `)`")),
            }
        }
        Ok(Terminal {
            receiver,
            method,
            args,
        })
    }
}

trait StartPoint {
    fn start_point(self) -> Span;
}

impl StartPoint for Span {
    /// An empty span at the start of `self`.
    fn start_point(self) -> Span {
        Span {
            start: self.start,
            end: self.start,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(text: &str) -> Vec<(&'static str, u32)> {
        parse_spec(text)
            .diagnostics
            .iter()
            .map(|d| (d.code, d.span.start))
            .collect()
    }

    fn term(receiver: u32, method: &str, args: Vec<TermArg>) -> Symbol {
        Symbol::Terminal(Terminal {
            receiver,
            method: method.to_string(),
            args,
        })
    }

    #[test]
    fn parses_the_lock_spec() {
        let p =
            parse_spec("wildcard $1 : ReentrantLock;\nS -> $1.lock() S $1.unlock() S\n   | ε;\n");
        assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
        let s = p.tree;
        assert_eq!(s.wildcards.len(), 1);
        assert_eq!(s.wildcards[0].index, 1);
        assert_eq!(s.wildcards[0].ty.name, "ReentrantLock");
        assert_eq!(s.wildcards[0].span, Span::new(0, 28));
        assert_eq!(s.rules.len(), 1);
        let r = &s.rules[0];
        assert_eq!(r.lhs.name, "S");
        assert_eq!(r.alternatives.len(), 2);
        assert_eq!(r.alternatives[0].symbols.len(), 4);
        assert_eq!(r.alternatives[0].symbols[0], term(1, "lock", vec![]));
        assert!(r.alternatives[1].symbols.is_empty());
        assert_eq!(r.span.end as usize, 68); // `ε` is two bytes
    }

    #[test]
    fn arguments_and_spacing() {
        let p = parse_spec("S -> $1 . put ( $2 , _ ) $1.m(_);");
        assert!(p.diagnostics.is_empty());
        let alt = &p.tree.rules[0].alternatives[0];
        assert_eq!(
            alt.symbols[0],
            term(1, "put", vec![TermArg::Wildcard(2), TermArg::Any])
        );
        assert_eq!(alt.span, Span::new(5, 32));
        assert_eq!(alt.symbol_spans, vec![Span::new(5, 24), Span::new(25, 32)]);
    }

    #[test]
    fn empty_alternatives_and_eps() {
        let p = parse_spec("S -> | eps | ε ; T -> ; U -> a ε b;");
        let alts = &p.tree.rules[0].alternatives;
        assert_eq!(alts.len(), 3);
        assert!(alts.iter().all(|a| a.symbols.is_empty()));
        assert_eq!(alts[0].span, Span::new(5, 5));
        assert_eq!(p.tree.rules[1].alternatives.len(), 1);
        assert_eq!(p.tree.rules[2].alternatives[0].symbols.len(), 2);
        assert_eq!(codes("S -> a ε b;"), vec![("eps-in-sequence", 7)]);
    }

    #[test]
    fn missing_semicolons_are_warnings() {
        let p = parse_spec("wildcard $1 : A\nS -> a\nT -> b");
        assert!(!p.has_errors());
        assert_eq!(p.tree.rules.len(), 2);
        assert_eq!(
            codes("wildcard $1 : A\nS -> a\nT -> b"),
            vec![
                ("missing-semicolon", 15),
                ("missing-semicolon", 22),
                ("missing-semicolon", 29)
            ]
        );
    }

    #[test]
    fn recovers_and_reports_each_mistake() {
        let text = "S -> $1.( | a;\nT -> @;\nU -> $1.f(,) | b;\nV x;\nW -> c;";
        let p = parse_spec(text);
        let c: Vec<_> = p.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(
            c,
            vec![
                "expected-token",
                "unexpected-character",
                "expected-token",
                "expected-token"
            ]
        );
        let names: Vec<_> = p.tree.rules.iter().map(|r| r.lhs.name.as_str()).collect();
        assert_eq!(names, vec!["S", "T", "U", "W"]);
        assert_eq!(p.tree.rules[0].alternatives.len(), 1);
        assert_eq!(p.tree.rules[2].alternatives.len(), 1);
    }

    #[test]
    fn qualified_types_reserved_names_and_stray_semicolons() {
        let p = parse_spec("wildcard $1 : java.util.Lock;; eps -> a;");
        assert_eq!(p.tree.wildcards[0].ty.name, "Lock");
        let c: Vec<_> = p.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(
            c,
            vec!["qualified-type", "stray-semicolon", "reserved-name"]
        );
    }

    #[test]
    fn angle_names_and_keyword_methods() {
        let p = parse_spec("<F0> -> <F1> $1.eps() $1.wildcard(); <F1> -> ;");
        assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
        assert_eq!(p.tree.rules[0].lhs.name, "<F0>");
        assert_eq!(
            p.tree.rules[0].alternatives[0].symbols[1],
            term(1, "eps", vec![])
        );
    }

    #[test]
    fn no_double_report_after_lexical_error() {
        assert_eq!(codes("S = a;"), vec![("unexpected-character", 2)]);
        assert_eq!(codes("S -> $x.f();"), vec![("bad-wildcard", 5)]);
    }
}
