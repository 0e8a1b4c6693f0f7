//! Canonical printing of specs, which round-trips through [`crate::parse_spec`].
//!
//! ```text
//! wildcard $1 : ReentrantLock;
//! S -> $1.lock() S $1.unlock() S | ε;
//! ```
//! Wildcard declarations come first, then the rules, one per line, in source order. An empty
//! alternative prints as `ε`. Terminals print as in [`Terminal`]'s `Display`.
//!
//! [`Terminal`]: crate::spec_ast::Terminal

use crate::span::Span;
use crate::spec_ast::{Alternative, Rule, Spec, Symbol, WildcardDecl};
use std::fmt;

/// `wildcard $1 : ReentrantLock;`
impl fmt::Display for WildcardDecl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "wildcard ${} : {};", self.index, self.ty.name)
    }
}

/// A nonterminal's name or a terminal's canonical spelling.
impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Symbol::Nonterminal(n) => f.write_str(&n.name),
            Symbol::Terminal(t) => write!(f, "{t}"),
        }
    }
}

/// Symbols separated by one space; `ε` when empty.
impl fmt::Display for Alternative {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.symbols.is_empty() {
            return f.write_str("ε");
        }
        for (i, s) in self.symbols.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

/// `N -> a b | ε;`
impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ->", self.lhs.name)?;
        for (i, a) in self.alternatives.iter().enumerate() {
            if i > 0 {
                f.write_str(" |")?;
            }
            write!(f, " {a}")?;
        }
        f.write_str(";")
    }
}

/// The whole spec, one declaration or rule per line (each line ends with `\n`).
impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for w in &self.wildcards {
            writeln!(f, "{w}")?;
        }
        for r in &self.rules {
            writeln!(f, "{r}")?;
        }
        Ok(())
    }
}

/// The canonical text of `spec` (same as `spec.to_string()`).
pub fn print_spec(spec: &Spec) -> String {
    spec.to_string()
}

/// A copy of `spec` with every span set to `Span::default()`, to compare trees
/// "modulo spans" (e.g. a spec and the re-parse of its printed form).
pub fn strip_spans(spec: &Spec) -> Spec {
    let mut s = spec.clone();
    s.span = Span::default();
    for w in &mut s.wildcards {
        w.span = Span::default();
        w.ty.span = Span::default();
    }
    for r in &mut s.rules {
        r.span = Span::default();
        r.lhs.span = Span::default();
        for a in &mut r.alternatives {
            a.span = Span::default();
            a.symbol_spans.iter_mut().for_each(|s| *s = Span::default());
            for sym in &mut a.symbols {
                if let Symbol::Nonterminal(n) = sym {
                    n.span = Span::default();
                }
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec_parser::parse_spec;

    #[test]
    fn prints_canonically_and_round_trips() {
        let text =
            "# c\nS → $1 . put ( $2 , _ )  S |eps| ;  wildcard $2:Key; wildcard $1 : Map\nT::=S ε";
        let p = parse_spec(text);
        assert!(!p.has_errors(), "{:?}", p.diagnostics);
        let printed = print_spec(&p.tree);
        assert_eq!(
            printed,
            "wildcard $2 : Key;\nwildcard $1 : Map;\nS -> $1.put($2, _) S | ε | ε;\nT -> S;\n"
        );
        let again = parse_spec(&printed);
        assert!(again.diagnostics.is_empty());
        assert_eq!(strip_spans(&again.tree), strip_spans(&p.tree));
        assert_eq!(print_spec(&again.tree), printed);
    }
}
