//! # cfp-oracle
//!
//! A differential test of cfp's verdicts with the JVM as the oracle (dev-only: no
//! product crate depends on it). Programs of cfp's language — the corpora and generated
//! ones — are translated (`*` becomes `Input.anyBool()`/`Input.anyInt()`, [`translate`]),
//! checked by `cfp check` ([`cfp`]), compiled by `javac` against small stubs of the
//! protocol APIs that record every call ([`stubs`], [`javasrc`]) and run on the JVM with
//! many inputs, each run in a fresh class loader ([`jvm`]). Then ([`compare`]):
//!
//! * (A) a JVM run that completes with a word the spec rejects ([`words`]) means cfp must
//!   not say `verified`;
//! * (B) every violation cfp reports must replay on the JVM: the inputs of cfp's path and
//!   what library code does on it — the calls that throw, the call backs ([`replay`]) —
//!   make a run that completes and records cfp's word, which the spec rejects.
//!
//! [`oracle::compare_all`] does the whole comparison; [`report`] prints it; [`generate`]
//! makes the small programs.

pub mod case;
pub mod cfp;
pub mod compare;
pub mod error;
pub mod generate;
pub mod javasrc;
pub mod jvm;
pub mod oracle;
pub mod protocol;
pub mod replay;
pub mod report;
pub mod stubs;
pub mod translate;
pub mod words;

pub use error::OracleError;
