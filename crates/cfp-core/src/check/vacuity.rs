//! Whether some execution of the entry completes, for a `verified` that would otherwise
//! be vacuous (every completed execution follows the protocol because none completes).
//!
//! [`explore`] runs the program in the concrete interpreter with random inputs
//! ([`explore::run_retrying`]: a run blocked right after a random value is retried from
//! before that value), so that the runs get past the conditions on inputs and reach the
//! points where executions really stop: an exception nothing catches, a loop or a recursion
//! without end, an `assume` no value satisfies. Either some run completes, or the stops
//! are what a vacuous verdict names ([`Stop::describe`]).

use super::explore;
use crate::interp::{self, InterpError};
use crate::ir::{MethodId, Program};
use cfp_syntax::Span;
use std::collections::BTreeMap;

/// Runs with different seeds.
const RUNS: u64 = 24;
/// Retries of a run that blocked on an `assume` after a random value.
const RETRIES: usize = 12;
/// Bounds of one run.
const LIMITS: interp::Limits = interp::Limits {
    max_steps: 20_000,
    max_depth: 200,
};

/// Where a run that did not complete stopped.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Stop {
    /// The root ended by throwing an exception thrown at `span` of `method`.
    Uncaught {
        /// Where it was thrown.
        method: MethodId,
        /// The throwing edge.
        span: Span,
        /// Its class, when known.
        exception: Option<String>,
    },
    /// An `assume` was false (or no edge was enabled) at `span` of `method`.
    Blocked {
        /// The method.
        method: MethodId,
        /// The statement.
        span: Span,
        /// What blocked, in words.
        reason: String,
    },
    /// The run went on past the step bound; `span` of `method` is the edge it ran most
    /// often at the end.
    Endless {
        /// The method of the loop.
        method: MethodId,
        /// Its most frequent edge.
        span: Span,
    },
    /// The calls nested past the depth bound; `method` is the one called most often.
    Deep {
        /// The recursive method.
        method: MethodId,
    },
}

impl Stop {
    /// The stop in words: `at` renders a span as "line N" (or "File.java:N").
    pub(crate) fn describe(&self, program: &Program, at: &dyn Fn(Span) -> String) -> String {
        let name = |m: &MethodId| {
            program
                .method(*m)
                .map_or_else(|| "a method".to_owned(), |c| format!("`{}`", c.name))
        };
        match self {
            Stop::Uncaught {
                method,
                span,
                exception,
            } => {
                let what = exception.as_deref().map_or_else(
                    || "an exception".to_owned(),
                    |e| format!("{} {e}", article(e)),
                );
                format!(
                    "{} throws {what} at {} that nothing catches",
                    name(method),
                    at(*span)
                )
            }
            Stop::Blocked {
                method,
                span,
                reason,
            } => format!("{} stops at {}: {reason}", name(method), at(*span)),
            Stop::Endless { method, span } => format!(
                "{} runs without end (the loop at {})",
                name(method),
                at(*span)
            ),
            Stop::Deep { method } => format!("the recursion of {} does not end", name(method)),
        }
    }
}

fn article(word: &str) -> &'static str {
    match word.chars().next() {
        Some(c) if "AEIOUaeiou".contains(c) => "an",
        _ => "a",
    }
}

/// What the runs found.
#[derive(Clone, Debug, Default)]
pub(crate) struct Exploration {
    /// Some run completed.
    pub completed: bool,
    /// Where the runs that did not complete stopped, with how many runs stopped there.
    pub stops: BTreeMap<Stop, usize>,
}

impl Exploration {
    /// The stop most runs ended at (uncaught exceptions and endless runs before blocked
    /// `assume`s, which random inputs also cause).
    pub(crate) fn main_stop(&self) -> Option<&Stop> {
        let rank = |s: &Stop| match s {
            Stop::Uncaught { .. } | Stop::Endless { .. } | Stop::Deep { .. } => 1,
            Stop::Blocked { .. } => 0,
        };
        self.stops
            .iter()
            .max_by(|(a, n), (b, m)| {
                (rank(a), *n)
                    .cmp(&(rank(b), *m))
                    // The first in the map's order among equals (`max_by` keeps the last).
                    .then_with(|| b.cmp(a))
            })
            .map(|(s, _)| s)
    }
}

/// Run `program` with random inputs until a run completes (or every seed is tried).
pub(crate) fn explore(program: &Program) -> Exploration {
    let mut out = Exploration::default();
    for seed in 0..RUNS {
        match explore::run_retrying(program, seed, RETRIES, LIMITS, Default::default()).result {
            Ok(run) if run.completed => {
                out.completed = true;
                return out;
            }
            Ok(_) => {}
            Err(e) => {
                if let Some(stop) = stop_of(&e) {
                    *out.stops.entry(stop).or_default() += 1;
                }
            }
        }
    }
    out
}

fn stop_of(e: &InterpError) -> Option<Stop> {
    Some(match e {
        InterpError::Uncaught {
            method,
            span,
            exception,
            ..
        } => Stop::Uncaught {
            method: *method,
            span: *span,
            exception: exception.clone(),
        },
        InterpError::Blocked {
            method,
            span,
            reason,
            ..
        } => Stop::Blocked {
            method: *method,
            span: *span,
            reason: reason.clone(),
        },
        InterpError::StepLimit(_, run) => {
            let tail = &run.steps[run.steps.len().saturating_sub(1000)..];
            let mut count: BTreeMap<(MethodId, Span), usize> = BTreeMap::new();
            for s in tail {
                *count.entry((s.method, s.span)).or_default() += 1;
            }
            let ((method, span), _) = count
                .into_iter()
                .filter(|((_, sp), _)| *sp != Span::default())
                .max_by(|(a, n), (b, m)| n.cmp(m).then_with(|| b.cmp(a)))?;
            Stop::Endless { method, span }
        }
        InterpError::DepthLimit(_, run) => {
            let mut count: BTreeMap<MethodId, usize> = BTreeMap::new();
            for s in &run.steps {
                *count.entry(s.method).or_default() += 1;
            }
            let (method, _) = count
                .into_iter()
                .max_by(|(a, n), (b, m)| n.cmp(m).then_with(|| b.cmp(a)))?;
            Stop::Deep { method }
        }
        InterpError::OracleExhausted(_) | InterpError::BadId(_) => return None,
    })
}

#[cfg(test)]
mod tests;
