//! One run of the CEGAR loop, advanced by its host ([`crate::prepare()`] →
//! [`crate::Prepared::run`] → [`Run`]): one event at a time ([`Run::next_event`]), one
//! iteration at a time ([`Run::step`], the page's step mode) or to the end
//! ([`Run::finish`]). Whatever happens, a finished run has a verdict: a driver that
//! stops without one answers `unknown` (internal), never nothing.
//!
//! The loop runs on the program's slice ([`crate::slice`], `options.slice`). A summarised
//! slice has more behaviours than the program, so when it ends with a violation whose path
//! runs through a summarised call, the run goes on, with the same solver and stop hook, on
//! the exact slice, whose verdict is the program's; its events follow (its iterations count on from the summarised run's, and
//! the iteration budget is for both) and its verdict is the run's. A counterexample found
//! on a slice names the program's methods, CFA edges and globals in its replay
//! ([`crate::slice::Origin`]).

use crate::check::{CheckOptions, CheckStats, Checker, Event, StopHook, UnknownReason, Verdict};
use crate::slice::{slice, Origin, SliceMode, SliceStats, Sliced};
use crate::Program;
use cfp_smt::Solver;

/// A run of the checker on one prepared input.
pub struct Run<S: Solver> {
    checker: Option<Checker<S>>,
    verdict: Option<Verdict>,
    /// What the current checker's slice kept.
    slice: Option<SliceStats>,
    /// The exact slice, while the checker runs on a summarised one that dropped calls.
    confirm: Option<Sliced>,
    /// To start the confirming checker.
    spec: cfp_grammar::Grammar,
    source: cfp_syntax::SourceSet,
    options: CheckOptions,
    /// Iterations of the summarised slice's run, once it handed over.
    summarised_iterations: u32,
    /// The summarised slice's run's counters, once it handed over.
    earlier: Option<CheckStats>,
    /// The program, and where the current checker's slice came from (none: unsliced).
    original: Option<(Program, Origin)>,
    /// The program's size.
    program_stats: crate::check::ProgramStats,
}

impl<S: Solver> Run<S> {
    pub(crate) fn new(
        program: Program,
        spec: cfp_grammar::Grammar,
        source: cfp_syntax::SourceSet,
        options: CheckOptions,
        solver: S,
        stop: Option<StopHook>,
    ) -> Self {
        let program_stats = crate::check::ProgramStats::of(&program, &source);
        let (checked, stats, confirm, original) = match options.slice {
            None => (program, None, None, None),
            Some(mode) => {
                let sliced = slice(&program, mode);
                let confirm = (!sliced.is_exact()).then(|| slice(&program, SliceMode::Exact));
                (
                    sliced.program,
                    Some(sliced.stats),
                    confirm,
                    Some((program, sliced.origin)),
                )
            }
        };
        let mut run = Run {
            checker: None,
            verdict: None,
            slice: stats,
            confirm,
            spec,
            source,
            options,
            summarised_iterations: 0,
            earlier: None,
            original,
            program_stats,
        };
        run.start(checked, solver, stop);
        run
    }

    fn start(&mut self, program: Program, solver: S, stop: Option<StopHook>) {
        let mut checker = Checker::new(program, self.spec.clone(), self.options.clone(), solver)
            .with_sources(self.source.clone())
            .after_iterations(self.summarised_iterations);
        if let Some(hook) = stop {
            checker.set_stop_hook(hook);
        }
        self.checker = Some(checker);
    }

    /// Hand a summarised slice's violation over to the exact slice: true when a new
    /// checker now runs.
    fn confirm(&mut self) -> bool {
        let Some(exact) = self.confirm.take() else {
            return false;
        };
        let Some(old) = self.checker.take() else {
            return false;
        };
        let earlier = old.stats();
        self.summarised_iterations = earlier.iterations;
        self.earlier = Some(earlier);
        let (solver, stop) = old.into_parts();
        self.slice = Some(exact.stats);
        if let Some((_, origin)) = self.original.as_mut() {
            *origin = exact.origin;
        }
        self.start(exact.program, solver, stop);
        true
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
        let mut s = self
            .checker
            .as_ref()
            .map(Checker::stats)
            .unwrap_or_default();
        if let Some(earlier) = &self.earlier {
            s.add_earlier(earlier);
        }
        s.slice = self.slice;
        s.program = Some(self.program_stats);
        s.summarised_iterations = self.summarised_iterations;
        s
    }

    /// True when a violation of the current checker's slice may not be the program's: the
    /// slice summarised calls away and the path runs through one whose callee may not
    /// return. A path that
    /// runs through none is a path of the exact slice too (what the summarised slice
    /// drops besides the calls only writes what no `assume` reads), with the same word.
    fn needs_confirming(&self, counterexample: &crate::check::Violation) -> bool {
        if self.confirm.is_none() {
            return false;
        }
        match (self.original.as_ref(), self.checker.as_ref()) {
            (Some((program, origin)), Some(_)) => {
                origin.runs_summarised_call(program, &counterexample.replay_edges)
            }
            _ => true,
        }
    }

    /// A violation found on the slice, in the program's terms (its replay edges and
    /// initial globals). Should they not map (never expected), the replay is left empty
    /// rather than naming the slice's edges as the program's.
    fn in_program_terms(&self, verdict: &mut Verdict) {
        let (Some((program, origin)), Some(checker), Verdict::Violation { counterexample, .. }) =
            (self.original.as_ref(), self.checker.as_ref(), verdict)
        else {
            return;
        };
        let slice = checker.program();
        counterexample.replay_edges = origin
            .replay_edges(slice, program, &counterexample.replay_edges)
            .unwrap_or_default();
        counterexample.replay_globals = origin.globals(program, &counterexample.replay_globals);
    }

    /// Tells a violation's run in the program's words, from its edges on the program
    /// ([`crate::check::Checker::explain`]).
    fn name_exit(&self, verdict: &mut Verdict) {
        let Some(checker) = self.checker.as_ref() else {
            return;
        };
        let program = match self.original.as_ref() {
            Some((program, _)) => program,
            None => checker.program(),
        };
        match verdict {
            Verdict::Violation { counterexample, .. } => {
                checker.explain(counterexample, program);
            }
            // A possible violation's edges are the slice's: named only without a slice.
            Verdict::Unknown { report, .. } if self.original.is_none() => {
                if let Some(c) = report.possible_violation.as_deref_mut() {
                    checker.explain(c, program);
                }
            }
            _ => {}
        }
    }

    /// The next event (one phase of the loop), or `None` once finished. The last event of
    /// a run is always [`Event::Finished`].
    pub async fn next_event(&mut self) -> Option<Event> {
        if self.verdict.is_some() {
            return None;
        }
        let mut event = None;
        while let Some(checker) = self.checker.as_mut() {
            match checker.step().await {
                Some(Event::Finished {
                    verdict: Verdict::Violation { counterexample, .. },
                }) if self.needs_confirming(&counterexample) && self.confirm() => continue,
                e => {
                    event = e;
                    break;
                }
            }
        }
        match event {
            Some(mut e) => {
                if let Event::Finished { verdict } = &mut e {
                    self.in_program_terms(verdict);
                    self.name_exit(verdict);
                    self.verdict = Some(verdict.clone());
                }
                Some(e)
            }
            None => {
                let verdict = Verdict::Unknown {
                    iterations: self.stats().iterations,
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
