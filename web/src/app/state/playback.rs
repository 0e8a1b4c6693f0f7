//! Playback: the queue between received (or recorded) events and the model, embed
//! `start_at` fast-forward, replays, and landing on a linked iteration.

use super::{normal_budget, Effect, Lifecycle, PageState, RunLog, EMBED_SPEED_MS};
use crate::app::messages::{event_iteration, Event};
use crate::app::model::{RunModel, Shared};
use yew::AttrValue;

impl PageState {
    /// Clears the previous run's state.
    pub(super) fn reset_run(&mut self) {
        self.model = RunModel::default();
        self.playback.queue.clear();
        self.playback.fast_forward = None;
        self.received_iterations = 0;
        self.result = None;
        self.diagnostics.clear();
        self.selected = None;
        self.highlight = None;
        self.status_note.clear();
        self.log = RunLog {
            inputs: Some(self.inputs()),
            ..RunLog::default()
        };
        self.share = None;
    }

    /// Playback settings of an embed: the final state at once, or an animation from
    /// `start_at` (paused there unless `autoplay`).
    pub(super) fn begin_playback(&mut self, fx: &mut Vec<Effect>) {
        if !self.embed {
            return;
        }
        let o = &self.embed_options;
        match (o.start_at, o.autoplay) {
            (None, false) => self.playback.speed_ms = 0,
            (start, _) => {
                self.playback.speed_ms = EMBED_SPEED_MS;
                self.playback.fast_forward = start;
            }
        }
        self.playback.paused = false;
        fx.push(self.ticker());
    }

    pub(super) fn ticker(&self) -> Effect {
        Effect::StartTicker {
            period_ms: self.playback.speed_ms.max(16),
        }
    }

    /// Plays the recording: the editors show the recorded inputs, the events go through
    /// the same queue as a live run's, and the result is shown after the last one.
    pub(super) fn start_replay(&mut self, fx: &mut Vec<Effect>) {
        let Some(rec) = self.replay.clone() else {
            return;
        };
        self.program = AttrValue::from(rec.inputs.program.clone());
        self.spec = AttrValue::from(rec.inputs.spec.clone());
        self.budget = normal_budget(rec.inputs.max_iterations);
        self.entry = rec.inputs.entry.clone();
        self.example_id = self.matching_example();
        self.reset_run();
        self.log.events = rec.run.recording.events.clone();
        self.log.result = Some(rec.run.result_value().clone());
        self.lifecycle = Lifecycle::Replaying {
            result: Shared::new(rec.run.result.clone()),
        };
        self.begin_playback(fx);
        for ev in rec.run.events.iter().cloned() {
            self.enqueue(ev);
        }
        // The whole run is known: a `start_at` past its end shows the end.
        self.playback.fast_forward = None;
        self.drain_if_instant();
        self.finish_replay_if_played();
    }

    /// Queues an event for playback (embed `start_at`: applies it at once while it is at or
    /// before that iteration).
    pub(super) fn enqueue(&mut self, ev: Event) {
        let iteration = event_iteration(&ev);
        if let Some(i) = iteration {
            if !matches!(self.lifecycle, Lifecycle::Replaying { .. }) {
                self.received_iterations = self.received_iterations.max(i);
            }
        }
        if let Some(k) = self.playback.fast_forward {
            if self.playback.queue.is_empty() && iteration.is_none_or(|i| i <= k) {
                self.model.apply(ev);
                return;
            }
            self.playback.fast_forward = None;
            self.playback.paused = !self.embed_options.autoplay;
        }
        self.playback.queue.push_back(ev);
    }

    /// At speed "instant", applies everything queued at once.
    pub(super) fn drain_if_instant(&mut self) {
        if self.playback.speed_ms == 0 && !self.playback.paused {
            self.drain(true);
        }
    }

    /// Applies queued events: one per tick, or all. Whether anything was applied.
    pub(super) fn drain(&mut self, all: bool) -> bool {
        if self.playback.queue.is_empty() {
            return false;
        }
        let n = if all { self.playback.queue.len() } else { 1 };
        for ev in self.playback.queue.drain(..n) {
            self.model.apply(ev);
        }
        self.finish_replay_if_played();
        true
    }

    pub(super) fn finish_replay_if_played(&mut self) {
        if !self.playback.queue.is_empty() || self.playback.fast_forward.is_some() {
            return;
        }
        if let Lifecycle::Replaying { result } = &self.lifecycle {
            let r = result.clone();
            self.received_iterations = self.received_iterations.max(r.iterations);
            self.result = Some(r);
            self.lifecycle = Lifecycle::Idle;
            self.land();
        }
    }

    /// Selects the iteration a link asked for, once the run is done.
    pub(super) fn land(&mut self) {
        let Some(i) = self.landing.take() else {
            return;
        };
        let last = self.result.as_ref().map_or(0, |r| r.iterations);
        if (1..=last).contains(&i) {
            self.selected = Some(i);
        } else {
            self.notices.push(format!(
                "the link selects iteration {i}, but this run has {last}; showing the last one"
            ));
        }
    }
}
