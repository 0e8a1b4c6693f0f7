//! One run of the CEGAR loop, advanced by its host ([`crate::prepare()`] →
//! [`crate::Prepared::run`] → [`Run`]): one event at a time ([`Run::next_event`]), one
//! iteration at a time ([`Run::step`], the page's step mode) or to the end
//! ([`Run::finish`]). Whatever happens, a finished run has a verdict: a driver that
//! stops without one answers `unknown` (internal), never nothing.

use crate::check::{CheckOptions, CheckStats, Checker, Event, StopHook, UnknownReason, Verdict};
use crate::Program;
use cfp_smt::Solver;

/// A run of the checker on one prepared input.
pub struct Run<S: Solver> {
    checker: Checker<S>,
    verdict: Option<Verdict>,
}

impl<S: Solver> Run<S> {
    pub(crate) fn new(
        program: Program,
        spec: cfp_grammar::Grammar,
        source: String,
        options: CheckOptions,
        solver: S,
        stop: Option<StopHook>,
    ) -> Self {
        let mut checker = Checker::new(program, spec, options, solver).with_source(source);
        if let Some(hook) = stop {
            checker.set_stop_hook(hook);
        }
        Run {
            checker,
            verdict: None,
        }
    }

    /// The verdict, once the run has finished.
    pub fn verdict(&self) -> Option<&Verdict> {
        self.verdict.as_ref()
    }

    /// Whether the run has finished.
    pub fn is_finished(&self) -> bool {
        self.verdict.is_some()
    }

    /// Counters so far (iterations, predicates, SMT queries, per-strategy figures).
    pub fn stats(&self) -> CheckStats {
        self.checker.stats()
    }

    /// The next event (one phase of the loop), or `None` once finished. The last event of
    /// a run is always [`Event::Finished`].
    pub async fn next_event(&mut self) -> Option<Event> {
        if self.verdict.is_some() {
            return None;
        }
        match self.checker.step().await {
            Some(e) => {
                if let Event::Finished { verdict } = &e {
                    self.verdict = Some(verdict.clone());
                }
                Some(e)
            }
            None => {
                let verdict = Verdict::Unknown {
                    iterations: self.checker.stats().iterations,
                    reason: UnknownReason::Internal {
                        detail: "the checker stopped without a verdict".into(),
                    },
                    report: Default::default(),
                };
                self.verdict = Some(verdict.clone());
                Some(Event::Finished { verdict })
            }
        }
    }

    /// One CEGAR iteration: the events up to and including `refined` or `finished`.
    pub async fn step(&mut self) -> Vec<Event> {
        let mut out = Vec::new();
        while let Some(e) = self.next_event().await {
            let last = matches!(e, Event::Refined { .. } | Event::Finished { .. });
            out.push(e);
            if last {
                break;
            }
        }
        out
    }

    /// Run to the end, handing each event to `on_event`; the verdict.
    pub async fn finish(&mut self, on_event: &mut dyn FnMut(&Event)) -> Verdict {
        loop {
            if let Some(v) = &self.verdict {
                return v.clone();
            }
            if let Some(e) = self.next_event().await {
                on_event(&e);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::check::{ReasonKind, StopCause, UnknownReason, Verdict};
    use crate::{prepare, CheckOptions, Event, LowerOptions};
    use std::cell::Cell;
    use std::rc::Rc;

    const PROGRAM: &str = "class Main { public static void main(String[] a) { \
        Lock l = new Lock(); l.lock(); l.unlock(); } }";
    const SPEC: &str = "wildcard $1 : Lock;\nS -> $1.lock() S $1.unlock() S | ε;\n";

    fn run_with(stop_after: usize, cause: StopCause) -> (Vec<Event>, Verdict) {
        let polls = Rc::new(Cell::new(0usize));
        let seen = Rc::clone(&polls);
        let prepared = prepare(PROGRAM, SPEC, &LowerOptions::default()).expect("prepared");
        let mut run = prepared.run(
            crate::testutil::z3(),
            CheckOptions::default(),
            Some(Box::new(move || {
                seen.set(seen.get() + 1);
                (seen.get() > stop_after).then_some(cause)
            })),
        );
        let mut events = Vec::new();
        let v = cfp_smt::block_on(run.finish(&mut |e| events.push(e.clone())));
        assert!(run.is_finished());
        assert_eq!(run.verdict(), Some(&v));
        (events, v)
    }

    #[test]
    fn the_stop_hooks_cause_is_the_unknown_reason() {
        for (cause, kind, text) in [
            (
                StopCause::Timeout { limit_ms: 1500 },
                ReasonKind::Timeout,
                "timeout of 1.5 s reached",
            ),
            (StopCause::Cancelled, ReasonKind::Cancelled, "cancelled"),
        ] {
            let (events, v) = run_with(0, cause);
            let Verdict::Unknown { reason, .. } = &v else {
                panic!("{v:?}");
            };
            assert_eq!(reason, &UnknownReason::Stopped { cause });
            assert_eq!(reason.kind(), kind);
            assert_eq!(reason.to_string(), text);
            // The last event is the verdict.
            assert!(matches!(events.last(), Some(Event::Finished { verdict }) if verdict == &v));
        }
    }

    #[test]
    fn a_run_without_a_stop_ends_with_its_verdict() {
        let (events, v) = run_with(usize::MAX, StopCause::Cancelled);
        assert_eq!(v.name(), "verified", "{v:?}");
        assert_eq!(
            events
                .iter()
                .filter(|e| matches!(e, Event::Finished { .. }))
                .count(),
            1
        );
    }
}
