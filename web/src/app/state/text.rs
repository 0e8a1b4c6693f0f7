//! What the toolbar and verdict bar say, decided from the state (so it is tested with it).

use super::{Lifecycle, LiveStage, Mode, PageState};
use crate::protocol::Z3Status;

/// The run / replay button.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunButton {
    /// Its label.
    pub label: &'static str,
    /// Its tooltip.
    pub title: &'static str,
    /// Whether it is disabled.
    pub disabled: bool,
}

impl Mode {
    /// The badge's text and tooltip.
    pub fn badge(self) -> (&'static str, &'static str) {
        match self {
            Mode::Live => ("live", "checks run in your browser with Z3"),
            Mode::Replay => (
                "replay",
                "a recorded run is played back; no live Z3 (the page is not cross-origin isolated, or replay was asked for)",
            ),
            Mode::Unavailable => (
                "no live Z3",
                "this page is not cross-origin isolated, so Z3 cannot run here, and there is no recorded run to replay",
            ),
        }
    }
}

impl PageState {
    /// Whether a run or replay is in progress (the cancel button is enabled).
    pub fn busy(&self) -> bool {
        self.lifecycle != Lifecycle::Idle
    }

    /// Whether the run shown was made from other inputs than the editors now hold (they
    /// were edited since): its verdict and marks are out of date.
    pub fn stale(&self) -> bool {
        let shown = self.result.is_some() || !self.model.iterations.is_empty();
        shown
            && self
                .log
                .inputs
                .as_ref()
                .is_some_and(|ran| *ran != self.inputs())
    }

    /// The harness to offer when the program has no `main` and no other start is
    /// chosen (nothing would be checked), if that is so.
    pub fn missing_entry(&self) -> Option<&'static str> {
        let points = self.entry_points.as_ref()?;
        (!points.has_main && self.entry == super::EntryChoice::Main && !self.read_only)
            .then(|| points.harness.name())
    }

    /// The errors in the inputs (what keeps them from being checked).
    pub fn input_errors(&self) -> impl Iterator<Item = &crate::protocol::DiagnosticItem> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == crate::protocol::DiagSeverity::Error)
    }

    /// The verdict the banner shows: the run's, once the animation has played up to it
    /// (the banner never runs ahead of the panels), or at once when no events are left.
    pub fn shown_result(
        &self,
    ) -> Option<&crate::app::model::Shared<crate::app::messages::RunResult>> {
        self.result
            .as_ref()
            .filter(|_| self.model.finished.is_some() || self.playback.queue.is_empty())
    }

    /// Whether Pause (or Play) has anything to act on: a run or events left to play.
    pub fn can_pause(&self) -> bool {
        self.busy() || !self.playback.queue.is_empty()
    }

    /// Whether a step-mode run is active (the step button reads "Next step").
    pub fn stepping(&self) -> bool {
        matches!(
            self.lifecycle,
            Lifecycle::Live {
                stage: LiveStage::Stepping { .. },
                ..
            }
        )
    }

    /// Whether the step button is enabled: live, and idle or waiting for the next step.
    pub fn can_step(&self) -> bool {
        self.mode == Mode::Live
            && matches!(
                self.lifecycle,
                Lifecycle::Idle
                    | Lifecycle::Live {
                        stage: LiveStage::Stepping { busy: false },
                        ..
                    }
            )
    }

    /// The run / replay button.
    pub fn run_button(&self) -> RunButton {
        let live = matches!(self.lifecycle, Lifecycle::Live { .. });
        let (label, title, disabled) = match self.mode {
            Mode::Replay if !self.editors_match_replay() => (
                "Run",
                "Edited code needs live Z3, which needs a cross-origin-isolated page (see the notice)",
                true,
            ),
            Mode::Replay => ("Replay", "Play the recorded run again", self.busy()),
            Mode::Live => ("Run", "Run (Ctrl+Enter)", live && !self.stepping()),
            Mode::Unavailable => (
                "Run",
                "Live checking needs a cross-origin-isolated page (see the notice)",
                true,
            ),
        };
        RunButton {
            label,
            title,
            disabled,
        }
    }

    /// The phase shown in the verdict bar.
    pub fn phase_text(&self) -> String {
        match &self.lifecycle {
            Lifecycle::Idle if self.result.is_some() => "done".to_owned(),
            Lifecycle::Idle => self.status_note.clone(),
            Lifecycle::Live { stage, .. } => match stage {
                LiveStage::Running if self.status_note.is_empty() => {
                    format!("running… {}", self.progress_text())
                }
                LiveStage::Running => format!("running… {}", self.status_note),
                LiveStage::Stepping { .. } => format!("step mode {}", self.status_note),
                LiveStage::Cancelling => "cancelling…".to_owned(),
            },
            Lifecycle::Replaying { .. } if self.playback.paused => "replay paused".to_owned(),
            Lifecycle::Replaying { .. } => "replaying…".to_owned(),
        }
    }

    /// The live run's progress: iteration, phase, time, predicates.
    pub fn progress_text(&self) -> String {
        let p = &self.progress;
        let limit = self
            .time_limit_s
            .map_or(String::new(), |s| format!(" of {s} s"));
        format!(
            "iteration {} · {} · {:.1} s{limit} · {} predicate(s)",
            self.received_iterations.max(1),
            p.phase,
            p.elapsed_s(),
            p.predicates
        )
    }

    /// Where the CEGAR loop is in the iteration the views show (the "How it works" strip
    /// lights it): the last step the shown iteration's events reached, or the verdict once
    /// the played events reached it.
    pub fn loop_phase(&self) -> Option<LoopPhase> {
        let shown = self.shown_iteration()?;
        let r = self.model.get(shown)?;
        let last = Some(shown) == self.model.iterations.last().map(|r| r.iteration);
        if let (true, Some(f)) = (last, self.model.finished.as_ref()) {
            return Some(LoopPhase::Verdict(f.name));
        }
        Some(if r.refined.is_some() || r.interpolants.is_some() {
            LoopPhase::Refine
        } else if r.feasibility.is_some() || r.counterexample.is_some() {
            LoopPhase::Feasibility
        } else if r.inclusion.is_some() {
            LoopPhase::Inclusion
        } else {
            LoopPhase::Build
        })
    }

    /// When the verdict is known but the views show an earlier iteration (the animation is
    /// behind, or one was selected): which one, so the banner is not read as its verdict.
    pub fn verdict_note(&self) -> Option<String> {
        let r = self.result.as_ref()?;
        let shown = self.shown_iteration()?;
        (shown < r.iterations).then(|| {
            format!(
                "final: {} — showing iteration {shown} of {}",
                r.verdict.as_str(),
                r.iterations
            )
        })
    }

    /// The violation's summary and the line and method of its offending call, once the
    /// played events reached the verdict; for an `unknown` with a possible violation (a
    /// counterexample through what the model approximates), that one's.
    pub fn violation_summary(&self) -> Option<&cfp_core::check::ViolationSummary> {
        match &self.model.finished.as_ref()?.verdict {
            cfp_core::check::Verdict::Violation { counterexample, .. } => {
                Some(&counterexample.summary).filter(|s| !s.text.is_empty())
            }
            cfp_core::check::Verdict::Unknown { report, .. } => report
                .possible_violation
                .as_deref()
                .map(|c| &c.summary)
                .filter(|s| !s.text.is_empty()),
            _ => None,
        }
    }

    /// The final violation's story (empty when there is none, or when the editors were
    /// edited since the run: its lines would be wrong).
    pub fn violation_story(&self) -> &[cfp_core::check::StoryRow] {
        if self.stale() {
            return &[];
        }
        match self.model.finished.as_ref().map(|f| &f.verdict) {
            Some(cfp_core::check::Verdict::Violation { counterexample, .. }) => {
                &counterexample.story
            }
            _ => &[],
        }
    }

    /// Z3's state in the toolbar.
    pub fn z3_text(&self) -> &'static str {
        match self.z3 {
            None if self.mode != Mode::Live => "Z3: not available",
            None => "Z3: not started",
            Some(Z3Status::Loading) => "Z3: loading…",
            Some(Z3Status::Ready) => "Z3: ready",
            Some(Z3Status::Error) => "Z3: error",
        }
    }

    /// The page's title for share links.
    pub fn share_title(&self) -> String {
        let what = self
            .examples
            .iter()
            .find(|e| e.entry.id == self.example_id)
            .map(|e| e.entry.title.clone())
            .or_else(|| class_name(&self.program).map(|c| format!("class {c}")))
            .unwrap_or_else(|| "custom program".to_owned());
        match &self.result {
            Some(r) => format!("cfplay: {} — {what}", r.verdict.as_str()),
            None => format!("cfplay: {what}"),
        }
    }

    /// The notices shown at the top: the stored ones and what the mode implies.
    pub fn all_notices(&self) -> Vec<String> {
        let mut notices = self.notices.clone();
        if self.mode == Mode::Replay
            && !self.editors_match_replay()
            && !self.isolated
            && !self.record_loading
        {
            notices.push(
                "This page is not cross-origin isolated, so Z3 cannot run here: the gallery \
                 examples and recorded runs replay, but edited code cannot be checked. Serve the \
                 playground with COOP/COEP headers (`cargo xtask serve`), or open it at the top \
                 level of a secure page so its service worker can enable live mode."
                    .to_owned(),
            );
        }
        if self.mode == Mode::Unavailable {
            notices.push(if self.record_loading {
                "Loading the recorded run…".to_owned()
            } else {
                "This page is not cross-origin isolated, so Z3 cannot run here and there is no \
                 recorded run to replay. Serve the playground with COOP/COEP headers \
                 (`cargo xtask serve`), or open it at the top level of a secure page so its \
                 service worker can enable live mode, or use a link that carries a recording."
                    .to_owned()
            });
        }
        notices
    }
}

/// The name of the first class `program` declares (comments and strings are skipped).
pub fn class_name(program: &str) -> Option<String> {
    use cfp_syntax::lexer::{Keyword, TokenKind};
    let lexed = cfp_syntax::lexer::lex(program);
    let mut tokens = lexed.tokens.iter();
    while let Some(t) = tokens.next() {
        if t.kind == TokenKind::Keyword(Keyword::Class) {
            let name = tokens.next().filter(|n| n.kind == TokenKind::Ident)?;
            return program
                .get(name.span.start as usize..name.span.end as usize)
                .map(str::to_owned);
        }
    }
    None
}

/// A step of the CEGAR loop (paper §4), as the "How it works" strip shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopPhase {
    /// Build the program grammar G_P from the PCFAs.
    Build,
    /// Check L(G_P) ⊆ L(spec).
    Inclusion,
    /// Ask Z3 whether the counterexample's path is feasible.
    Feasibility,
    /// Refine: interpolants, cloned states, removed edges.
    Refine,
    /// The run ended with this verdict.
    Verdict(crate::app::messages::VerdictName),
}

impl LoopPhase {
    /// The strip's name of the step (`data-phase`).
    pub fn id(self) -> &'static str {
        match self {
            LoopPhase::Build => "build",
            LoopPhase::Inclusion => "inclusion",
            LoopPhase::Feasibility => "feasibility",
            LoopPhase::Refine => "refine",
            LoopPhase::Verdict(_) => "verdict",
        }
    }
}
