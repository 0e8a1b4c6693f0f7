//! Abstract syntax of the spec (grammar) language of ARCHITECTURE.md.
//!
//! ```text
//! wildcard $1 : ReentrantLock;
//! S -> $1.lock() S $1.unlock() S
//!    | ε;
//! ```
//! The same syntax, with the wildcard lines optional, describes the grammars given to
//! `cfp include`.

use crate::ast::Ident;
use crate::span::Span;
use serde::Serialize;
use std::fmt;

/// A parsed spec or grammar file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Spec {
    /// `wildcard $k : Type;` declarations in source order.
    pub wildcards: Vec<WildcardDecl>,
    /// Rules in source order; the left side of the first rule is the start symbol.
    /// Several rules may share a left side (their alternatives add up).
    pub rules: Vec<Rule>,
    /// The whole file.
    pub span: Span,
}

/// `wildcard $k : Type;`
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WildcardDecl {
    /// The `k` of `$k`.
    pub index: u32,
    /// The class (simple name) the wildcard ranges over.
    pub ty: Ident,
    /// Whole declaration.
    pub span: Span,
}

/// `N -> alt | alt | … ;`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rule {
    /// Left-hand nonterminal.
    pub lhs: Ident,
    /// Alternatives in order (an empty one is ε).
    pub alternatives: Vec<Alternative>,
    /// From the left side to the `;`.
    pub span: Span,
}

/// One alternative: a sequence of symbols; empty for `ε`/`eps`/nothing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Alternative {
    /// The symbols, left to right.
    pub symbols: Vec<Symbol>,
    /// Where the alternative was written (empty span at the bar for a blank one).
    pub span: Span,
    /// Where each symbol was written, parallel to `symbols` (the parser fills it; a
    /// hand-built tree may leave it empty — read it through [`Alternative::symbol_span`]).
    pub symbol_spans: Vec<Span>,
}

impl Alternative {
    /// Where symbol `i` was written, or the alternative's span when unknown.
    pub fn symbol_span(&self, i: usize) -> Span {
        self.symbol_spans.get(i).copied().unwrap_or(self.span)
    }
}

/// A grammar symbol on a right-hand side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Symbol {
    /// A nonterminal name.
    Nonterminal(Ident),
    /// An API-call terminal.
    Terminal(Terminal),
}

/// `$k.method(args)`
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Terminal {
    /// The receiver wildcard `k`.
    pub receiver: u32,
    /// The method name.
    pub method: String,
    /// The arguments.
    pub args: Vec<TermArg>,
}

/// One argument position of a terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum TermArg {
    /// `$j`: the argument must equal wildcard `j`.
    Wildcard(u32),
    /// `_`: any value.
    Any,
    /// `..` (alone: `$1.acquire(..)`): any number of arguments, of any value.
    Rest,
}

impl fmt::Display for TermArg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TermArg::Wildcard(k) => write!(f, "${k}"),
            TermArg::Any => f.write_str("_"),
            TermArg::Rest => f.write_str(".."),
        }
    }
}

/// Canonical spelling: `$1.lock()`, `$1.put($2, _)`.
impl fmt::Display for Terminal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "${}.{}(", self.receiver, self.method)?;
        for (i, a) in self.args.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{a}")?;
        }
        f.write_str(")")
    }
}

impl Terminal {
    /// All wildcards the terminal mentions, receiver first.
    pub fn wildcards(&self) -> impl Iterator<Item = u32> + '_ {
        std::iter::once(self.receiver).chain(self.args.iter().filter_map(|a| match a {
            TermArg::Wildcard(k) => Some(*k),
            TermArg::Any | TermArg::Rest => None,
        }))
    }
}
