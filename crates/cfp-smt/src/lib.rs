//! # cfp-smt
//!
//! SMT terms and the solver boundary for cfplay (DESIGN.md §4): a term builder, the
//! SMT-LIB2 printer, a reader for solver answers (sat/unsat/unknown, models, Horn
//! solutions), the [`Solver`] trait an async browser backend can implement, and (feature
//! `native`) the `z3 -in` subprocess backend.
//!
//! Architecture invariant: knows nothing of programs or grammars.

pub mod solver;
pub mod term;

pub use solver::{block_on, Solver, SolverError};
pub use term::{quote_symbol, Op, Quantifier, Sort, Term, TermKind};
