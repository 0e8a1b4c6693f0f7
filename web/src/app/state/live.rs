//! Live runs: starting, stepping and cancelling them, and the worker's messages about them
//! (dropped unless they name the live run).

use super::{Effect, Lifecycle, LiveStage, Mode, PageState, Progress};
use crate::app::messages::{Event, FromWorker, RunMode, RunOptions, RunResult, ToWorker, Z3Status};
use crate::app::model::Shared;
use crate::protocol::CrashCause;
use cfp_core::check::{ExecutionReport, StopCause, UnknownReason, Verdict};

/// How long past its time limit a live run may go before the page gives up on the worker.
const WATCHDOG_GRACE_S: f64 = 10.0;
use cfp_core::report_json::StatsJson;

impl PageState {
    pub(super) fn on_run(&mut self, fx: &mut Vec<Effect>) {
        match self.mode {
            Mode::Replay => {
                if self.editors_match_replay() && self.lifecycle == Lifecycle::Idle {
                    self.start_replay(fx);
                } else {
                    fx.push(Effect::NoRender);
                }
            }
            // A `run` while stepping makes the worker cancel the step-mode run first.
            Mode::Live => {
                if self.live_stage_is(LiveStage::Running)
                    || self.live_stage_is(LiveStage::Cancelling)
                {
                    fx.push(Effect::NoRender);
                } else {
                    self.start_run(RunMode::Run, fx);
                }
            }
            Mode::Unavailable => fx.push(Effect::NoRender),
        }
    }

    pub(super) fn on_step(&mut self, fx: &mut Vec<Effect>) {
        if self.mode != Mode::Live {
            fx.push(Effect::NoRender);
            return;
        }
        match &mut self.lifecycle {
            Lifecycle::Live {
                stage: LiveStage::Stepping { busy },
                ..
            } if !*busy => {
                *busy = true;
                fx.push(Effect::Post(ToWorker::Step));
            }
            Lifecycle::Idle => self.start_run(RunMode::Step, fx),
            _ => fx.push(Effect::NoRender),
        }
    }

    pub(super) fn on_cancel(&mut self, fx: &mut Vec<Effect>) {
        match &mut self.lifecycle {
            Lifecycle::Replaying { .. } => {
                self.playback.queue.clear();
                self.playback.fast_forward = None;
                self.lifecycle = Lifecycle::Idle;
                self.status_note = "replay stopped".into();
            }
            Lifecycle::Live { stage, .. } if *stage != LiveStage::Cancelling => {
                *stage = LiveStage::Cancelling;
                self.landing = None;
                // The panels stay as the click found them: what was received but not yet
                // played is dropped, and the counts say what is shown.
                self.playback.queue.clear();
                self.received_iterations = self.model.iterations.len() as u32;
                fx.push(Effect::Post(ToWorker::Cancel));
                fx.push(Effect::ArmCancelTimer);
            }
            _ => fx.push(Effect::NoRender),
        }
    }

    /// Whether a live run is at `stage`.
    pub(super) fn live_stage_is(&self, stage: LiveStage) -> bool {
        matches!(&self.lifecycle, Lifecycle::Live { stage: s, .. } if *s == stage)
    }

    /// Whether a live run is going on.
    pub(super) fn is_live(&self) -> bool {
        matches!(self.lifecycle, Lifecycle::Live { .. })
    }

    /// Whether `run` is the live run.
    pub(super) fn is_current(&self, run: u32) -> bool {
        matches!(&self.lifecycle, Lifecycle::Live { run: r, .. } if *r == run)
    }

    pub(super) fn ensure_worker(&mut self, fx: &mut Vec<Effect>) {
        if !self.worker_up {
            self.worker_up = true;
            self.z3 = Some(Z3Status::Loading);
            fx.push(Effect::SpawnWorker);
        }
    }

    pub(super) fn restart_worker(&mut self, fx: &mut Vec<Effect>) {
        self.worker_up = true;
        self.z3 = Some(Z3Status::Loading);
        fx.push(Effect::RestartWorker);
    }

    pub(super) fn start_run(&mut self, mode: RunMode, fx: &mut Vec<Effect>) {
        if self.isolated {
            // Run clicked before the deferred start: start the worker now (it queues the
            // run until Z3 is ready).
            self.ensure_worker(fx);
        }
        if !self.worker_up {
            self.errors
                .push("the worker is not running (worker.js failed to start)".into());
            return;
        }
        self.reset_run();
        self.last_run = self.last_run.wrapping_add(1);
        let run = self.last_run;
        fx.push(Effect::Post(ToWorker::Run {
            run,
            program: self.program.to_string(),
            spec: self.spec.to_string(),
            options: RunOptions {
                // Step mode waits for the user between iterations: no wall-clock limit.
                timeout_ms: self
                    .time_limit_s
                    .filter(|_| mode == RunMode::Run)
                    .map(|s| u64::from(s) * 1000),
                ..self.run_options()
            },
            mode,
        }));
        let stage = match mode {
            RunMode::Run => LiveStage::Running,
            RunMode::Step => LiveStage::Stepping { busy: true },
        };
        self.lifecycle = Lifecycle::Live { run, stage };
        self.progress = Progress::start();
        if self.z3 == Some(Z3Status::Loading) {
            self.status_note = "waiting for Z3 to load…".into();
        }
        if mode == RunMode::Run {
            self.begin_playback(fx);
        }
        if !self.embed {
            fx.push(Effect::RevealVerdict);
        }
    }

    pub(super) fn on_worker(&mut self, msg: Result<FromWorker, String>, fx: &mut Vec<Effect>) {
        match msg {
            Err(e) => {
                // A worker error during a run (an uncaught exception, a trap) leaves it
                // unusable: the run ends `unknown` and a new worker starts.
                if matches!(self.lifecycle, Lifecycle::Live { .. }) {
                    self.worker_died(CrashCause::Solver, format!("the worker failed: {e}"), fx);
                } else {
                    self.errors.push(e);
                }
            }
            Ok(FromWorker::Status { z3, detail }) => {
                if z3 == Z3Status::Ready {
                    self.crashes_since_ready = 0;
                }
                self.z3 = Some(z3);
                self.z3_detail = detail;
                if z3 != Z3Status::Loading {
                    self.status_note.clear();
                }
                if z3 == Z3Status::Error {
                    self.errors
                        .push(format!("Z3 failed to load: {}", self.z3_detail));
                }
            }
            Ok(FromWorker::Event { run, event }) => {
                // Another run's, or after `cancel`: dropped (the view freezes at the click).
                let Lifecycle::Live {
                    run: current,
                    stage,
                } = &mut self.lifecycle
                else {
                    fx.push(Effect::NoRender);
                    return;
                };
                if *current != run || *stage == LiveStage::Cancelling {
                    fx.push(Effect::NoRender);
                    return;
                }
                if matches!(*event, Event::Refined { .. } | Event::Finished { .. }) {
                    if let LiveStage::Stepping { busy } = stage {
                        *busy = false;
                    }
                }
                self.progress.saw(&event);
                // Kept as JSON for recordings in share links.
                self.log
                    .events
                    .push(serde_json::to_value(&*event).unwrap_or_default());
                self.enqueue(*event);
                self.drain_if_instant();
            }
            Ok(FromWorker::Diagnostics { run, items }) => {
                if !self.is_current(run) {
                    fx.push(Effect::NoRender);
                    return;
                }
                // Bad input: the run did not start.
                self.abandon_live(fx);
                self.diagnostics = items;
                self.status_note = "the input has errors".into();
            }
            Ok(FromWorker::Done { run, result }) => {
                if !self.is_current(run) {
                    fx.push(Effect::NoRender);
                    return;
                }
                if self.live_stage_is(LiveStage::Cancelling) {
                    // Finished before the cancel reached the worker: the page stays as
                    // the click left it.
                    self.abandon_live(fx);
                    self.status_note = "cancelled".into();
                    return;
                }
                self.end_live(fx);
                // Step mode posts the same events as a full run: both are recordings.
                self.log.result = Some(serde_json::to_value(&*result).unwrap_or_default());
                self.received_iterations = self.received_iterations.max(result.iterations);
                self.result = Some(Shared::new(*result));
                self.playback.fast_forward = None;
                self.drain_if_instant();
                self.land();
            }
            Ok(FromWorker::Cancelled { run }) => {
                // A `run` during a run cancels the old one first: that `cancelled` names
                // the old run and is dropped.
                if !self.is_current(run) {
                    fx.push(Effect::NoRender);
                    return;
                }
                self.abandon_live(fx);
                self.status_note = "cancelled".into();
            }
            Ok(FromWorker::Error { run, message }) => {
                self.errors.push(message);
                if run.is_some_and(|r| self.is_current(r)) {
                    self.abandon_live(fx);
                }
            }
            Ok(FromWorker::Crashed { message, cause }) => {
                if matches!(self.lifecycle, Lifecycle::Live { .. }) {
                    self.worker_died(cause, message, fx);
                } else {
                    self.errors.push(message);
                    self.restart_after_crash(fx);
                }
            }
        }
    }

    /// The worker died during the live run: the run ends `unknown` with a plain reason
    /// (what a recording of it would say), and a new worker starts.
    pub(super) fn worker_died(&mut self, cause: CrashCause, message: String, fx: &mut Vec<Effect>) {
        let iteration = self.received_iterations.max(1);
        let reason = match cause {
            CrashCause::OutOfMemory => UnknownReason::OutOfMemory { iteration },
            CrashCause::Solver => UnknownReason::Solver {
                detail: message.clone(),
            },
            CrashCause::Panic => UnknownReason::Internal {
                detail: message.clone(),
            },
        };
        let verdict = Verdict::Unknown {
            iterations: self.received_iterations,
            reason,
            report: ExecutionReport::default(),
        };
        self.result = Some(Shared::new(RunResult::new(&verdict, StatsJson::default())));
        if cause == CrashCause::Panic {
            // A bug: say it loudly.
            self.errors.push(message);
        }
        self.abandon_live(fx);
        self.status_note = "the checker was restarted".into();
        self.restart_after_crash(fx);
    }

    /// A live run still going well past its time limit: the worker no longer answers (Z3
    /// can hang after an abort in one of its threads). The run ends `unknown` at the limit
    /// and a new worker starts.
    pub(super) fn watchdog(&mut self, fx: &mut Vec<Effect>) {
        let Some(limit_s) = self.time_limit_s else {
            return;
        };
        let running = matches!(
            self.lifecycle,
            Lifecycle::Live {
                stage: LiveStage::Running,
                ..
            }
        );
        if !running || self.progress.elapsed_s() < f64::from(limit_s) + WATCHDOG_GRACE_S {
            return;
        }
        let verdict = Verdict::Unknown {
            iterations: self.received_iterations,
            reason: UnknownReason::Stopped {
                cause: StopCause::Timeout {
                    limit_ms: u64::from(limit_s) * 1000,
                },
            },
            report: ExecutionReport::default(),
        };
        self.result = Some(Shared::new(RunResult::new(&verdict, StatsJson::default())));
        self.abandon_live(fx);
        self.status_note =
            "the solver did not stop at the time limit; the checker was restarted".into();
        self.restart_worker(fx);
    }

    /// Starts a new worker after a crash, unless the last one crashed before Z3 was ever
    /// ready (a worker that cannot even load would be restarted forever).
    fn restart_after_crash(&mut self, fx: &mut Vec<Effect>) {
        self.crashes_since_ready += 1;
        if self.crashes_since_ready <= 1 {
            self.restart_worker(fx);
        } else {
            self.worker_up = false;
            self.z3 = Some(Z3Status::Error);
            self.errors
                .push("the checker keeps failing before Z3 is ready; reload the page".into());
        }
    }

    /// The live run ended: idle, no cancel timer.
    pub(super) fn end_live(&mut self, fx: &mut Vec<Effect>) {
        if self.live_stage_is(LiveStage::Cancelling) {
            fx.push(Effect::DisarmCancelTimer);
        }
        self.lifecycle = Lifecycle::Idle;
    }

    /// The live run ended without a verdict: nothing to land on either.
    pub(super) fn abandon_live(&mut self, fx: &mut Vec<Effect>) {
        self.end_live(fx);
        self.landing = None;
    }

    /// The worker failed during a run: the run ends here, without a verdict.
    pub(super) fn end_failed_run(&mut self, fx: &mut Vec<Effect>) {
        if matches!(self.lifecycle, Lifecycle::Live { .. }) {
            self.abandon_live(fx);
            self.status_note = "the run failed (see the error); the checker was restarted".into();
        }
    }
}
