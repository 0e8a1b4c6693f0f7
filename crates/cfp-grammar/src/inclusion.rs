//! The inclusion engine's public face: decide L(G) ⊆ L(S) (DESIGN.md §3).
//!
//! Answers are sound: `Included` comes with a [`Certificate`] that
//! [`recheck_certificate`] verifies independently; `NotIncluded` comes with a word of
//! L(G) \ L(S) — confirmed by an exact Earley parse of S — and its derivation over G's own
//! productions; anything else is `Unknown` with the reason.

use crate::cfg::{Derivation, Grammar, TermId};
use serde::Serialize;
use std::ops::ControlFlow;

/// Limits of one inclusion check. Time limits and cancellation are the host's business:
/// it sees every [`Progress`] report and may answer `ControlFlow::Break`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InclusionOptions {
    /// Maximum saturation steps (items and nodes processed) before `Unknown`.
    pub max_steps: u64,
    /// Largest stack bound K tried by iterative deepening before `Unknown`.
    pub max_bound: u32,
    /// Report progress every this many steps.
    pub progress_every: u64,
}

impl Default for InclusionOptions {
    fn default() -> Self {
        InclusionOptions {
            max_steps: 5_000_000,
            max_bound: 64,
            progress_every: 10_000,
        }
    }
}

/// A progress report handed to the host during a check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Which layer is running (`"clean"`, `"counter"`, `"effects"`, `"confirm"`).
    pub phase: &'static str,
    /// Steps done so far.
    pub steps: u64,
    /// Current stack bound K (0 when not in the effects layer).
    pub bound: u32,
}

/// The answer of an inclusion check.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "result", rename_all = "kebab-case")]
pub enum InclusionResult {
    /// L(G) ⊆ L(S), with a certificate of why.
    Included(Certificate),
    /// A word of L(G) that is not in L(S).
    NotIncluded(Counterexample),
    /// Neither could be established within the budget.
    Unknown(UnknownReason),
}

/// A word in L(G) \ L(S).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Counterexample {
    /// The word, as terminals of G.
    pub word: Vec<TermId>,
    /// The word, spelled as in the spec syntax (`$1.lock()`).
    pub word_names: Vec<String>,
    /// A derivation of the word over G's own productions (rooted at G's start symbol).
    pub derivation: Derivation,
}

/// Why an inclusion check gave up. Every variant names what ended it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(tag = "reason", rename_all = "kebab-case")]
pub enum UnknownReason {
    /// The step budget ran out.
    #[error("the inclusion check used its budget of {steps} steps")]
    StepBudget {
        /// Steps done.
        steps: u64,
    },
    /// The host asked to stop (time limit or cancellation).
    #[error("the inclusion check was stopped after {steps} steps")]
    Stopped {
        /// Steps done.
        steps: u64,
    },
    /// Stack bounds up to `bound` neither proved inclusion nor produced a counterexample.
    #[error("undecided with stack bound up to {bound}: {detail}")]
    BoundExhausted {
        /// The largest bound tried.
        bound: u32,
        /// What was still open.
        detail: String,
    },
}

/// What was proved, in a form [`recheck_certificate`] can verify without trusting the
/// engine that produced it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Certificate {
    /// Which layer proved it and its evidence.
    pub proof: Proof,
}

/// The evidence of an inclusion proof.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Proof {
    /// L(G) is empty (after cleaning, the start symbol is unproductive).
    EmptyLanguage,
    /// Placeholder until the engine is complete; never produced by a finished engine.
    Pending,
}

/// Why a certificate does not verify.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CertificateError {
    /// The certificate does not prove what it claims; the message says where it fails.
    #[error("certificate does not verify: {0}")]
    Invalid(String),
}

/// Decide L(G) ⊆ L(S) within `opts`, reporting progress to `progress`.
pub fn check_inclusion(
    g: &Grammar,
    s: &Grammar,
    opts: &InclusionOptions,
    progress: &mut dyn FnMut(&Progress) -> ControlFlow<()>,
) -> InclusionResult {
    let _ = (g, s, opts, progress);
    InclusionResult::Unknown(UnknownReason::BoundExhausted {
        bound: 0,
        detail: "engine under construction".into(),
    })
}

/// Verify a certificate for L(G) ⊆ L(S) independently of the engine.
pub fn recheck_certificate(
    g: &Grammar,
    s: &Grammar,
    cert: &Certificate,
) -> Result<(), CertificateError> {
    let _ = (g, s);
    match cert.proof {
        Proof::Pending => Err(CertificateError::Invalid("pending".into())),
        Proof::EmptyLanguage => Err(CertificateError::Invalid("not checked yet".into())),
    }
}
