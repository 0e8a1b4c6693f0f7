//! # cfp-grammar
//!
//! Context-free grammars for cfplay (ARCHITECTURE.md "Inclusion engine"): the grammar type,
//! cleaning and normal forms, an Earley recogniser with parse trees, rendering, and the
//! inclusion engine that decides L(G) ⊆ L(S) soundly — a proof, a shortest counterexample
//! with its derivation over G's own productions, or an honest `unknown`.
//!
//! Architecture invariant: knows nothing of programs or SMT, does no I/O.

pub mod budget;
pub mod cfg;

pub use cfg::{Derivation, DerivationChild, Grammar, NontermId, ProdId, Production, Sym, TermId};
pub mod inclusion;

pub use inclusion::{
    check_inclusion, recheck_certificate, shortest_word, Certificate, CertificateError,
    CounterCertificate, Counterexample, InclusionOptions, InclusionResult, NonterminalCounter,
    Progress, Proof, UnknownReason,
};
pub mod counter;
pub mod effects;
mod shortest;

pub use counter::{Bound, CounterKind, CounterValues};
pub use effects::{EffectsCertificate, Entry, Machine, NonterminalEffects, Relation};
pub mod clean;

pub use clean::{clean, first_sets, nullable, productive, reachable, Cleaned};
pub mod earley;

pub use earley::{parse, recognizes, shortest_completions, viable_prefix, word_in};
pub mod bench_grammars;
pub mod normal;

pub use normal::{greibach, Gnf, NormalFormError};
pub mod enumerate;

pub use enumerate::{enumerate, words_up_to, Enumeration};
pub mod random;

pub use random::{random_grammar, RandomShape};
pub mod render;

pub use render::{derivation_dot, derivation_text, grammar_dot};
