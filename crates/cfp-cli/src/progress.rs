//! Progress of a long check on stderr (`indicatif`): the iteration, what the CEGAR loop is
//! doing, the predicates learned so far and the elapsed time, on one line that is
//! cleared at the end. Nothing at all when stderr is not a terminal (scripts, CI, pipes).

use cfp_core::check::{Event, InclusionOutcome};
use indicatif::{ProgressBar, ProgressStyle};
use std::cell::Cell;
use std::io::IsTerminal as _;
use std::time::Duration;

/// The progress line of one spec's run (inert off a terminal).
pub struct Progress {
    bar: Option<ProgressBar>,
    predicates: Cell<usize>,
}

impl Progress {
    /// A spinner on stderr when it is a terminal, labelled with the spec's name.
    pub fn on_terminal(spec: &str) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new_spinner();
            let style = ProgressStyle::with_template("{spinner} [{elapsed}] {prefix}: {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner());
            bar.set_style(style);
            bar.set_prefix(spec.strip_prefix("builtin:").unwrap_or(spec).to_owned());
            bar.set_message("iteration 1: building the program grammar");
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        });
        Progress {
            bar,
            predicates: Cell::new(0),
        }
    }

    /// Show what the loop does after `event`.
    pub fn event(&self, event: &Event) {
        let Some(bar) = &self.bar else {
            return;
        };
        let p = self.predicates.get();
        let msg = match event {
            Event::GrammarBuilt {
                iteration,
                productions,
                ..
            } => format!(
                "iteration {iteration}: inclusion check ({productions} productions, {p} predicates)"
            ),
            Event::Inclusion {
                iteration, result, ..
            } => match result {
                InclusionOutcome::Included => format!("iteration {iteration}: included"),
                _ => format!("iteration {iteration}: counterexample, checking feasibility"),
            },
            Event::Counterexample { iteration, .. } | Event::Feasibility { iteration, .. } => {
                format!("iteration {iteration}: refining ({p} predicates)")
            }
            Event::Interpolants { iteration, .. } => {
                format!("iteration {iteration}: refining ({p} predicates)")
            }
            Event::Refined {
                iteration,
                predicates_added,
                ..
            } => {
                self.predicates.set(p + predicates_added);
                format!(
                    "iteration {}: building the program grammar ({} predicates)",
                    iteration + 1,
                    p + predicates_added
                )
            }
            Event::Finished { .. } => "done".to_owned(),
        };
        bar.set_message(msg);
    }

    /// Clear the line.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
