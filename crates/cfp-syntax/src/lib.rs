//! # cfp-syntax
//!
//! Lexers, parsers, abstract syntax trees and diagnostics for the two input languages of
//! cfplay (DESIGN.md §2): the program language (a Java subset) and the spec language
//! (parametrised context-free grammars over API-call terminals).
//!
//! Architecture invariant: this crate knows nothing of SMT, of grammars as languages, of
//! files or of the browser. Parsing never fails: each parser returns a tree and a list of
//! [`Diagnostic`]s, recovering after an error so that one mistake does not hide the next.

pub mod ast;
pub mod diagnostic;
pub mod lexer;
pub mod span;
pub mod spec_ast;

pub use diagnostic::{has_errors, Diagnostic, DiagnosticData, Severity};
pub use span::{LineCol, LineIndex, Span};

/// A tree together with the diagnostics found while building it.
#[derive(Clone, Debug)]
pub struct Parsed<T> {
    /// The (possibly partial) tree.
    pub tree: T,
    /// Errors and warnings, in source order.
    pub diagnostics: Vec<Diagnostic>,
}

impl<T> Parsed<T> {
    /// True when any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        has_errors(&self.diagnostics)
    }
}
