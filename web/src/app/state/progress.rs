//! The live run's progress as the worker reports it (ahead of playback): the phase it is
//! in, the predicates found so far, and the time since it started.

use crate::app::messages::{Event, FeasibilityOutcome, InclusionOutcome};

/// The phases, named as the loop strip names its steps.
const BUILD: &str = "① building G_P";
/// See [`BUILD`].
const INCLUSION: &str = "② checking L(G_P) ⊆ L(spec)";
/// See [`BUILD`].
const FEASIBILITY: &str = "③ checking the path's feasibility";
/// See [`BUILD`].
const REFINE: &str = "④ refining";
/// See [`BUILD`].
const FINISHING: &str = "finishing";

/// Progress of the live run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    /// What the checker is doing now, in the words of the loop strip (`① build G_P` …).
    pub phase: &'static str,
    /// Predicates added by the refinements so far.
    pub predicates: usize,
    /// When the run started (the first tick after it), ms.
    started_ms: Option<f64>,
    /// The latest tick, ms.
    now_ms: f64,
}

impl Progress {
    /// A run starts.
    pub fn start() -> Progress {
        Progress {
            phase: BUILD,
            ..Progress::default()
        }
    }

    /// An event arrived: the phase after it.
    pub fn saw(&mut self, event: &Event) {
        self.phase = match event {
            Event::GrammarBuilt { .. } => INCLUSION,
            Event::Inclusion { result, .. } => match result {
                InclusionOutcome::NotIncluded => FEASIBILITY,
                _ => FINISHING,
            },
            Event::Counterexample { .. } => FEASIBILITY,
            Event::Feasibility { feasible, .. } => match feasible {
                FeasibilityOutcome::Infeasible => REFINE,
                _ => FINISHING,
            },
            Event::Interpolants { .. } => REFINE,
            Event::Refined {
                predicates_added, ..
            } => {
                self.predicates += predicates_added;
                BUILD
            }
            Event::Finished { .. } => FINISHING,
        };
    }

    /// The clock ticked; whether the shown time (tenths of a second) changed.
    pub fn tick(&mut self, now_ms: f64, live: bool) -> bool {
        if !live {
            return false;
        }
        let before = self.elapsed_tenths();
        self.started_ms.get_or_insert(now_ms);
        self.now_ms = now_ms;
        self.elapsed_tenths() != before
    }

    /// Seconds since the run started.
    pub fn elapsed_s(&self) -> f64 {
        self.started_ms
            .map_or(0.0, |s| ((self.now_ms - s) / 1000.0).max(0.0))
    }

    fn elapsed_tenths(&self) -> u64 {
        (self.elapsed_s() * 10.0) as u64
    }
}
