//! Step accounting shared by the inclusion check's layers ([`crate::inclusion`] and
//! [`crate::effects`]): the step budget, progress reports to the host, and why a check
//! gave up.

use serde::Serialize;
use std::ops::ControlFlow;

/// A progress report handed to the host during a check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Which layer is running (`"clean"`, `"counter"`, `"effects"`, `"confirm"`), or
    /// `"done"` in the final report every check makes.
    pub phase: &'static str,
    /// Steps done so far.
    pub steps: u64,
    /// Current stack bound K (0 when not in the effects layer).
    pub bound: u32,
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
    /// The spec's Greibach normal form (layer 3's machine) could not be built.
    #[error("the spec could not be normalised: {detail}")]
    SpecNormalForm {
        /// Why.
        detail: String,
    },
    /// The shortest counterexample is too long to unfold within the step budget.
    #[error("a counterexample exists but its shortest word has {length} symbols")]
    CounterexampleTooLong {
        /// Length of the shortest counterexample.
        length: u64,
    },
    /// An internal consistency check failed (a bug); no verdict is given.
    #[error("internal error: {detail}")]
    Internal {
        /// What failed.
        detail: String,
    },
}

/// Step accounting, budget and progress reports shared by all layers.
pub(crate) struct Budget<'a> {
    pub(crate) steps: u64,
    pub(crate) max_steps: u64,
    /// A temporary lower cap (sub-budget of an optional phase).
    pub(crate) cap: u64,
    pub(crate) every: u64,
    pub(crate) next_report: u64,
    pub(crate) phase: &'static str,
    pub(crate) bound: u32,
    pub(crate) callback: &'a mut dyn FnMut(&Progress) -> ControlFlow<()>,
}

impl<'a> Budget<'a> {
    pub(crate) fn new(
        max_steps: u64,
        progress_every: u64,
        callback: &'a mut dyn FnMut(&Progress) -> ControlFlow<()>,
    ) -> Budget<'a> {
        let every = progress_every.max(1);
        Budget {
            steps: 0,
            max_steps,
            cap: u64::MAX,
            every,
            next_report: every,
            phase: "clean",
            bound: 0,
            callback,
        }
    }

    /// Count `n` steps; report progress when due; fail when a budget is exhausted or the
    /// host asked to stop.
    pub(crate) fn tick(&mut self, n: u64) -> Result<(), UnknownReason> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > self.max_steps || self.steps > self.cap {
            return Err(UnknownReason::StepBudget { steps: self.steps });
        }
        if self.steps >= self.next_report {
            self.next_report = (self.steps / self.every + 1).saturating_mul(self.every);
            let p = Progress {
                phase: self.phase,
                steps: self.steps,
                bound: self.bound,
            };
            if (self.callback)(&p).is_break() {
                return Err(UnknownReason::Stopped { steps: self.steps });
            }
        }
        Ok(())
    }
}
