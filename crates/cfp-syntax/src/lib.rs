//! # cfp-syntax
//!
//! Lexers, parsers, abstract syntax trees and diagnostics for the two input languages of
//! cfplay (ARCHITECTURE.md): the program language (a Java subset) and the spec language
//! (parametrised context-free grammars over API-call terminals).
//!
//! Architecture invariant: this crate knows nothing of SMT, of grammars as languages, of
//! files or of the browser. Parsing never fails: each parser returns a tree and a list of
//! [`Diagnostic`]s, recovering after an error so that one mistake does not hide the next.

pub mod ast;
pub mod ast_dump;
pub mod builtin_specs;
pub mod diagnostic;
pub mod lexer;
pub mod parser;
pub mod resolve;
pub mod sources;
pub mod span;
pub mod spec_ast;
pub mod spec_check;
pub mod spec_lexer;
pub mod spec_parser;
pub mod spec_print;

pub use ast_dump::dump_program;
pub use builtin_specs::{builtin_spec, builtin_spec_names, BuiltinSpec, BUILTIN_SPECS};
pub use diagnostic::{has_errors, Diagnostic, DiagnosticData, Severity};
pub use parser::{parse_program, parse_program_in};
pub use sources::{parse_sources, SourceEntry, SourceSet};
pub use span::{LineCol, LineIndex, Span};
pub use spec_check::{api_signatures, check_spec, ApiSignature, SpecUse};
pub use spec_parser::parse_spec;
pub use spec_print::{print_spec, strip_spans};

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

/// All diagnostics of a parsed spec used as `usage`: its syntax diagnostics and, when
/// there are no syntax errors, the checks of [`check_spec`], in source order.
pub fn spec_diagnostics(parsed: &Parsed<spec_ast::Spec>, usage: SpecUse) -> Vec<Diagnostic> {
    let mut diags = parsed.diagnostics.clone();
    if !has_errors(&diags) {
        diags.extend(check_spec(&parsed.tree, usage));
        diags.sort_by_key(|d| d.span.start);
    }
    diags
}
