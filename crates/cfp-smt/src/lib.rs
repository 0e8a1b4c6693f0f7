//! # cfp-smt
//!
//! SMT terms and the solver boundary for cfplay (ARCHITECTURE.md): a term builder, the
//! SMT-LIB2 printer, a reader for solver answers (sat/unsat/unknown, models, Horn
//! solutions), the [`Solver`] trait an async browser backend can implement, a typed
//! [`Session`] over any backend (checks with models and cores, memoised batches, Horn
//! systems), and (feature `native`) the `z3 -in` subprocess backend.
//!
//! Architecture invariant: knows nothing of programs or grammars.

pub mod answer;
pub mod infix;
#[cfg(feature = "native")]
pub mod native;
pub mod session;
pub mod sexp;
pub mod solver;
pub mod term;

pub use answer::{CheckSat, HornSolution, Model, Value};
pub use infix::Infix;
#[cfg(feature = "native")]
pub use native::NativeZ3;
pub use session::{
    CheckOutcome, HornAnswer, HornClause, HornSystem, QueryLimits, Session, SessionOptions,
    SessionStats, Want,
};
pub use sexp::Sexp;
pub use solver::{block_on, Solver, SolverError};
pub use term::{quote_symbol, Op, Quantifier, Sort, Term, TermKind};
