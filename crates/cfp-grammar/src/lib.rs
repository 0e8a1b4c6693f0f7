//! # cfp-grammar
//!
//! Context-free grammars for cfplay (DESIGN.md §3 "Inclusion engine"): the grammar type,
//! cleaning and normal forms, an Earley recogniser with parse trees, rendering, and the
//! inclusion engine that decides L(G) ⊆ L(S) soundly — a proof, a shortest counterexample
//! with its derivation over G's own productions, or an honest `unknown`.
//!
//! Architecture invariant: knows nothing of programs or SMT, does no I/O.

pub mod cfg;

pub use cfg::{Derivation, DerivationChild, Grammar, NontermId, ProdId, Production, Sym, TermId};
pub mod inclusion;

pub use inclusion::{
    check_inclusion, recheck_certificate, Certificate, CertificateError, Counterexample,
    InclusionOptions, InclusionResult, Progress, Proof, UnknownReason,
};
