//! What an `unknown` says: why the run ended ([`UnknownReason`], its machine-readable
//! [`ReasonKind`], the host's [`StopCause`]) and what it established ([`ExecutionReport`]:
//! the paths ruled out, the frontier, a possible violation, the loops and calls the
//! refinement kept unrolling).

use super::Violation;
use serde::{Deserialize, Serialize};

/// An entry of an execution report: a spurious counterexample ruled out by refinement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuledOut {
    /// The iteration that found it.
    pub iteration: u32,
    /// The word.
    pub word: Vec<String>,
    /// The path, summarised (`main:3 -> acquire:10 -> ...`).
    pub path: String,
}

/// What an `unknown` run established (seeds/execution-reports.txt).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ExecutionReport {
    /// The spurious counterexamples eliminated so far.
    pub ruled_out: Vec<RuledOut>,
    /// What was still open when the run stopped.
    pub frontier: String,
    /// A possible violation: a feasible counterexample whose execution goes through an
    /// approximated construct, or turns on a value the analysis does not track.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub possible_violation: Option<Box<Violation>>,
    /// The loops and recursive calls the spurious paths went around once more each round
    /// (refinement learned one unrolling at a time there).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recurring: Vec<RecurringSite>,
}

/// A loop or recursive call that spurious paths kept going around, once more each round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecurringSite {
    /// `loop` (passes: back edges taken) or `recursion` (calls into a method already
    /// running).
    pub kind: RecurringKind,
    /// The method it is in.
    pub method: String,
    /// Where: `line N`, or `File.java:N` in a program of several files.
    pub at: String,
    /// The iterations whose spurious path went through it, oldest first.
    pub iterations: Vec<u32>,
    /// The passes of each of those paths.
    pub passes: Vec<u32>,
}

/// What a [`RecurringSite`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RecurringKind {
    /// A loop (at its head).
    Loop,
    /// A call of a method that is already running.
    Recursion,
}

impl RecurringSite {
    /// One sentence: `the loop at line 11 of Counted.main: the spurious paths went around
    /// it more each round, 1 pass in iteration 1, 18 in iteration 22`.
    pub fn describe(&self) -> String {
        let (what, one, many) = match self.kind {
            RecurringKind::Loop => ("the loop", "pass", "passes"),
            RecurringKind::Recursion => ("the recursive call", "nested call", "nested calls"),
        };
        let plural = |n: u32| if n == 1 { one } else { many };
        let first = self.iterations.first().zip(self.passes.first());
        let last = self.iterations.last().zip(self.passes.last());
        let counts = match (first, last) {
            (Some((a, n)), Some((z, m))) => {
                format!("{n} {} in iteration {a}, {m} in iteration {z}", plural(*n))
            }
            _ => String::new(),
        };
        format!(
            "{what} at {} of {}: the spurious paths went around it more each round, {counts}",
            self.at, self.method
        )
    }
}

/// Why a run ended with `unknown`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum UnknownReason {
    /// The iteration budget ran out.
    MaxIterations {
        /// The budget.
        limit: u32,
    },
    /// The host stopped the run (its stop hook, a cancelled solver call).
    Stopped {
        /// Why: the host's time limit, or a cancellation (recordings made before causes
        /// were typed read as `cancelled`).
        #[serde(default)]
        cause: StopCause,
    },
    /// Refinement did not eliminate a spurious counterexample (same word and path twice).
    RepeatedCounterexample {
        /// The word.
        word: Vec<String>,
    },
    /// No refinement strategy removed a spurious counterexample from the abstraction.
    RefinementStalled {
        /// The word.
        word: Vec<String>,
        /// What each strategy did (`wp: no progress; horn: unknown (…)`).
        attempts: String,
    },
    /// The inclusion check used its step budget.
    InclusionBudget {
        /// Steps done.
        steps: u64,
    },
    /// The inclusion check gave up for another reason (stack bound, spec normal form).
    Inclusion {
        /// Its reason.
        detail: String,
    },
    /// The SMT solver failed.
    Solver {
        /// The error.
        detail: String,
    },
    /// The grammar was included but the program was over-approximated by the front end.
    Approximations {
        /// The approximation warnings.
        items: Vec<String>,
    },
    /// The feasibility of a counterexample could not be decided.
    FeasibilityUnknown {
        /// Why.
        detail: String,
    },
    /// The SMT solver ran out of memory (it was restarted).
    OutOfMemory {
        /// The iteration it was in.
        iteration: u32,
    },
    /// An internal step failed (nested path, interpolants, refinement); no verdict.
    Internal {
        /// What failed.
        detail: String,
    },
    /// A counterexample is feasible in the program model, but the model approximates the
    /// program where its execution goes (the report's `possible_violation` shows it).
    PossibleViolation {
        /// The violation's sentence.
        summary: String,
        /// What the execution goes through that the model approximates.
        approximations: Vec<String>,
    },
    /// Every completed execution follows the protocol, because no execution of the entry
    /// completes.
    Vacuous {
        /// Where every execution stops, and why.
        detail: String,
    },
}

impl std::fmt::Display for UnknownReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UnknownReason::MaxIterations { limit } => {
                write!(f, "the iteration budget of {limit} ran out")
            }
            UnknownReason::Stopped { cause } => write!(f, "{cause}"),
            UnknownReason::RepeatedCounterexample { word } => write!(
                f,
                "refinement did not eliminate the spurious counterexample [{}]",
                word.join(" ")
            ),
            UnknownReason::RefinementStalled { word, attempts } => write!(
                f,
                "no refinement removed the spurious counterexample [{}] ({attempts})",
                word.join(" ")
            ),
            UnknownReason::InclusionBudget { steps } => write!(
                f,
                "inclusion undecided: the inclusion check used its budget of {steps} steps"
            ),
            UnknownReason::Inclusion { detail } => write!(f, "inclusion undecided: {detail}"),
            UnknownReason::Solver { detail } => write!(f, "SMT solver failed: {detail}"),
            UnknownReason::Approximations { items } => write!(
                f,
                "no violation found, but the program was approximated: {}",
                items.join("; ")
            ),
            UnknownReason::FeasibilityUnknown { detail } => {
                write!(f, "feasibility undecided: {detail}")
            }
            UnknownReason::OutOfMemory { iteration } => {
                write!(f, "the solver ran out of memory in iteration {iteration}")
            }
            UnknownReason::Internal { detail } => write!(f, "internal error: {detail}"),
            UnknownReason::PossibleViolation {
                summary,
                approximations,
            } => write!(
                f,
                "possible violation, through what the model approximates ({}): {summary}",
                approximations.join("; ")
            ),
            UnknownReason::Vacuous { detail } => write!(
                f,
                "no execution of the entry completes, so there is nothing to check: {detail}"
            ),
        }
    }
}

/// Why a host stopped a run: what its stop hook returns, and what an `unknown` verdict
/// then says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum StopCause {
    /// The host's wall-clock limit passed.
    Timeout {
        /// The limit, in milliseconds.
        limit_ms: u64,
    },
    /// The user (or the host) cancelled the run.
    #[default]
    Cancelled,
}

impl std::fmt::Display for StopCause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StopCause::Timeout { limit_ms } => {
                write!(f, "timeout of {} s reached", *limit_ms as f64 / 1000.0)
            }
            StopCause::Cancelled => write!(f, "cancelled"),
        }
    }
}

/// The machine-readable class of an `unknown` (`reason_kind` in `cfp check --json`), beside
/// the human `reason`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReasonKind {
    /// An iteration or step budget ran out.
    Budget,
    /// The host's time limit passed.
    Timeout,
    /// The host asked the run to stop.
    Cancelled,
    /// The SMT solver failed or answered `unknown`.
    Solver,
    /// No violation was found, but the program model over-approximates the source.
    Approximation,
    /// Refinement or inclusion could not decide (repeated counterexample, stack bound,
    /// internal failure).
    Undecided,
    /// The SMT solver ran out of memory.
    Memory,
    /// No execution of the entry completes (a `verified` would say nothing).
    Vacuous,
}

impl UnknownReason {
    /// The class of this reason.
    pub fn kind(&self) -> ReasonKind {
        match self {
            UnknownReason::MaxIterations { .. } | UnknownReason::InclusionBudget { .. } => {
                ReasonKind::Budget
            }
            UnknownReason::Stopped {
                cause: StopCause::Timeout { .. },
            } => ReasonKind::Timeout,
            UnknownReason::Stopped {
                cause: StopCause::Cancelled,
            } => ReasonKind::Cancelled,
            UnknownReason::Solver { .. } | UnknownReason::FeasibilityUnknown { .. } => {
                ReasonKind::Solver
            }
            UnknownReason::Approximations { .. } | UnknownReason::PossibleViolation { .. } => {
                ReasonKind::Approximation
            }
            UnknownReason::Vacuous { .. } => ReasonKind::Vacuous,
            UnknownReason::OutOfMemory { .. } => ReasonKind::Memory,
            UnknownReason::RepeatedCounterexample { .. }
            | UnknownReason::RefinementStalled { .. }
            | UnknownReason::Inclusion { .. }
            | UnknownReason::Internal { .. } => ReasonKind::Undecided,
        }
    }
}
