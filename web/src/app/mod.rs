//! The Yew UI (main thread; DESIGN.md §5).
//!
//! The page renders the editors first and only then starts `worker.js` (Z3 is 35 MB, the
//! editors must be usable before it loads). Worker events are queued and applied to the
//! [`model::RunModel`] one per playback tick (pause / speed), so the timeline, grammar
//! diff and PCFA animations can be followed; the verdict banner shows as soon as the
//! worker's `done` arrives.
//!
//! * [`messages`]: page⇄worker messages (mirror of the agreed protocol);
//! * [`model`]: the run state, one event = one action;
//! * [`editor`]: highlighted editors with inline diagnostics;
//! * [`examples`]: the embedded examples gallery;
//! * [`pcfa`]: PCFA graphs rebuilt from the grammar, drawn as animated SVG;
//! * [`views`]: timeline, grammar, counterexample and statistics views;
//! * [`worker_host`]: spawning and talking to the worker;
//! * [`page_url`]: the page's query (`?embed`, `record=`, …) and the URLs it hands out;
//! * [`replay`]: validating a recorded run before it is played;
//! * [`share_panel`]: the share link, Markdown link and embed snippet;
//! * [`startup`]: reading the page URL and fetching `?record=` files;
//! * [`chrome`]: toolbar, badge, verdict bar, proof, errors and notices.
//!
//! **Live or replay.** A run is *live* (the worker and Z3) when the page is cross-origin
//! isolated; otherwise — as inside most documentation sites — a recorded run (from the link
//! or from `?record=FILE`) is *replayed* through the same queue and model, and a badge says
//! which. A share link (`#v1.…`) restores the editors and options, re-runs (or replays) and
//! lands on the iteration it names; `?embed` shows the minimal embed chrome.

pub mod chrome;
pub mod editor;
pub mod examples;
pub mod messages;
pub mod model;
pub mod page_url;
pub mod pcfa;
pub mod replay;
pub mod share_panel;
pub mod startup;
pub mod views;
pub mod worker_host;

use crate::share::{EmbedOptions, Recording, ShareOptions, ShareState};
use editor::{Editor, Lang};
use examples::Example;
use gloo::events::EventListener;
use gloo::timers::callback::{Interval, Timeout};
use messages::{
    Diagnostic, FromWorker, InputFile, RunMode, RunOptions, RunResult, ToWorker, Z3Status,
};
use model::{RunModel, Shared};
use page_url::{ForcedMode, PageParams};
use pcfa::PcfaView;
use serde_json::Value;
use share_panel::{SharePanel, ShareTexts};
use std::collections::VecDeque;
use std::rc::Rc;
use views::{CounterexampleView, GrammarView, StatsTable, Timeline};
use wasm_bindgen::prelude::wasm_bindgen;
use worker_host::WorkerHost;
use yew::prelude::*;

/// Mounts the app on `#app` (or `<body>` when there is none). Called from `index.html`
/// after `wasm_bindgen('cfp_web_bg.wasm')` resolved.
#[wasm_bindgen]
pub fn start_app() {
    let document = gloo::utils::document();
    match document.get_element_by_id("app") {
        Some(root) => {
            yew::Renderer::<App>::with_root(root).render();
        }
        None => {
            yew::Renderer::<App>::new().render();
        }
    }
}

/// How long `cancel` may take before the worker is terminated and restarted (under the
/// 1 s budget, so the UI is stopped within 1 s of the click even when the worker is stuck).
const CANCEL_GRACE_MS: u32 = 800;

/// Playback speeds (ms per event; 0 = apply everything at once).
const SPEEDS: &[(u32, &str)] = &[
    (0, "instant"),
    (40, "fast"),
    (150, "normal"),
    (500, "slow"),
    (1200, "very slow"),
];

/// Default playback speed (ms per event).
const DEFAULT_SPEED_MS: u32 = 40;

/// Iteration budgets offered (`None` = the core's default).
const BUDGETS: &[Option<u32>] = &[
    None,
    Some(1),
    Some(2),
    Some(5),
    Some(10),
    Some(20),
    Some(100),
];

/// Colour theme preference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// Follow `prefers-color-scheme`.
    Auto,
    /// Light.
    Light,
    /// Dark.
    Dark,
}

impl Theme {
    fn next(self) -> Theme {
        match self {
            Theme::Auto => Theme::Dark,
            Theme::Dark => Theme::Light,
            Theme::Light => Theme::Auto,
        }
    }
    fn attr(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

/// Where the current run is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// No run (or the last one ended).
    Idle,
    /// Running in the given mode.
    Running(RunMode),
    /// `cancel` sent, waiting for `cancelled`.
    Cancelling,
    /// Playing a recorded run.
    Replaying,
}

/// Where runs come from (shown as a badge).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The worker and Z3 (the page is cross-origin isolated).
    Live,
    /// A recorded run, played without Z3.
    Replay,
    /// Not isolated and nothing to replay (or the recording is still loading).
    Unavailable,
}

impl Mode {
    fn badge(self) -> (&'static str, &'static str) {
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

/// Messages of [`App`].
pub enum Msg {
    /// Start the worker (after the first render).
    SpawnWorker,
    /// Program text edited.
    Program(String),
    /// Spec text edited.
    Spec(String),
    /// Example chosen.
    Example(String),
    /// Run to the end (live), or replay the recording (replay mode).
    Run,
    /// Step: start a step-mode run, or advance it.
    Step,
    /// Cancel the run (or stop the replay).
    Cancel,
    /// The cancel grace period ran out.
    CancelTimeout,
    /// A message (or a decoding error) from the worker.
    Worker(Result<FromWorker, String>),
    /// Playback tick.
    Tick,
    /// Pause / resume playback.
    TogglePause,
    /// Playback speed (ms per event).
    Speed(u32),
    /// Iteration budget (`None` = default).
    Budget(Option<u32>),
    /// Select an iteration (`None` = follow the latest).
    Select(Option<u32>),
    /// Highlight a program line.
    ShowLine(u32),
    /// Cycle the theme.
    ToggleTheme,
    /// Clear the error list.
    DismissErrors,
    /// Check the editors' texts for diagnostics (debounced after edits).
    Lint,
    /// Open or close the share panel.
    ToggleShare,
    /// A recording (`?record=` or a gallery example's) arrived, or failed; the number is the
    /// request's generation (late answers to superseded requests are dropped).
    RecordLoaded(u32, Box<Result<startup::LoadedRecord, String>>),
    /// The fragment changed (another link pasted into the address bar).
    HashChanged,
}

/// Quiet time after the last keystroke before the editors are checked.
const LINT_DELAY_MS: u32 = 400;

/// Playback speed of embeds that animate (ms per event).
const EMBED_SPEED_MS: u32 = 150;

/// The inputs of a run (to tell whether a recording still matches the editors).
#[derive(Clone, Debug, PartialEq, Eq)]
struct RunInputs {
    program: AttrValue,
    spec: AttrValue,
    budget: Option<u32>,
}

/// The playground.
pub struct App {
    examples: Vec<Example>,
    example_id: String,
    program: AttrValue,
    spec: AttrValue,
    diagnostics: Vec<Diagnostic>,
    z3: Option<Z3Status>,
    z3_detail: String,
    worker: Option<WorkerHost>,
    phase: Phase,
    queue: VecDeque<messages::Event>,
    model: RunModel,
    received_iterations: u32,
    result: Option<Shared<RunResult>>,
    errors: Vec<String>,
    notices: Vec<String>,
    selected: Option<u32>,
    paused: bool,
    speed_ms: u32,
    budget: Option<u32>,
    ticker: Option<Interval>,
    cancel_timer: Option<Timeout>,
    highlight: Option<(u32, u32)>,
    /// Step mode: an iteration is being computed (the `step` button is disabled).
    step_busy: bool,
    lint_timer: Option<Timeout>,
    theme: Theme,
    status_note: String,
    /// The page's query.
    params: PageParams,
    /// The page's address without query and fragment.
    base: String,
    /// `crossOriginIsolated`.
    isolated: bool,
    mode: Mode,
    /// The recording available for replay, with its inputs.
    replay: Option<Rc<startup::LoadedRecord>>,
    /// A recording is being fetched.
    record_loading: bool,
    /// Generation of the latest recording request.
    record_generation: u32,
    /// Replay: the result, shown when the last event has been played.
    pending_result: Option<Shared<RunResult>>,
    /// Select this iteration once the run is done (from a link).
    landing: Option<u32>,
    /// Embed `start_at`: apply events up to this iteration at once.
    fast_forward: Option<u32>,
    /// Run (live) as soon as the worker is up (a link was opened).
    autorun: bool,
    embed: bool,
    embed_options: EmbedOptions,
    read_only: bool,
    /// The events and result of the latest run, as received (for recordings in links).
    run_events: Vec<Value>,
    run_result: Option<Value>,
    run_inputs: Option<RunInputs>,
    share: Option<ShareTexts>,
    /// The fragment this page set or was opened with (a different one means: reload).
    own_hash: String,
    _hash_listener: Option<EventListener>,
}

impl App {
    fn start_ticker(&mut self, ctx: &Context<Self>) {
        let link = ctx.link().clone();
        let period = self.speed_ms.max(16);
        self.ticker = Some(Interval::new(period, move || link.send_message(Msg::Tick)));
    }

    /// (Re)starts the lint debounce timer.
    fn schedule_lint(&mut self, ctx: &Context<Self>) {
        let link = ctx.link().clone();
        self.lint_timer = Some(Timeout::new(LINT_DELAY_MS, move || {
            link.send_message(Msg::Lint)
        }));
    }

    fn spawn_worker(&mut self, ctx: &Context<Self>) {
        let link = ctx.link().clone();
        match WorkerHost::spawn(Callback::from(move |m| link.send_message(Msg::Worker(m)))) {
            Ok(w) => {
                self.worker = Some(w);
                self.z3 = Some(Z3Status::Loading);
            }
            Err(e) => self.errors.push(e),
        }
    }

    fn post(&mut self, msg: &ToWorker) -> bool {
        match self.worker.as_ref() {
            Some(w) => match w.post(msg) {
                Ok(()) => true,
                Err(e) => {
                    self.errors.push(e);
                    false
                }
            },
            None => {
                self.errors
                    .push("the worker is not running (worker.js failed to start)".into());
                false
            }
        }
    }

    fn inputs(&self) -> RunInputs {
        RunInputs {
            program: self.program.clone(),
            spec: self.spec.clone(),
            budget: self.budget,
        }
    }

    /// Clears the previous run's state.
    fn reset_run(&mut self) {
        self.model = RunModel::default();
        self.queue.clear();
        self.received_iterations = 0;
        self.result = None;
        self.pending_result = None;
        self.diagnostics.clear();
        self.selected = None;
        self.highlight = None;
        self.status_note.clear();
        self.run_events.clear();
        self.run_result = None;
        self.run_inputs = Some(self.inputs());
        self.share = None;
    }

    /// Playback settings of an embed: the final state at once, or an animation from
    /// `start_at` (paused there unless `autoplay`).
    fn begin_playback(&mut self, ctx: &Context<Self>) {
        if !self.embed {
            return;
        }
        let o = &self.embed_options;
        match (o.start_at, o.autoplay) {
            (None, false) => self.speed_ms = 0,
            (start, _) => {
                self.speed_ms = EMBED_SPEED_MS;
                self.fast_forward = start;
            }
        }
        self.paused = false;
        self.start_ticker(ctx);
    }

    fn start_run(&mut self, ctx: &Context<Self>, mode: RunMode) {
        if self.worker.is_none() && self.isolated {
            // Run clicked before the deferred start: start the worker now (it queues the
            // run until Z3 is ready).
            self.spawn_worker(ctx);
        }
        self.reset_run();
        let msg = ToWorker::Run {
            program: self.program.to_string(),
            spec: self.spec.to_string(),
            options: RunOptions {
                max_iterations: self.budget,
            },
            mode,
        };
        if self.post(&msg) {
            self.phase = Phase::Running(mode);
            self.step_busy = mode == RunMode::Step;
            if self.z3 == Some(Z3Status::Loading) {
                self.status_note = "waiting for Z3 to load…".into();
            }
            if mode == RunMode::Run {
                self.begin_playback(ctx);
            }
        }
    }

    /// Plays the recording: the editors show the recorded inputs, the events go through
    /// the same queue as a live run's, and the result is shown after the last one.
    fn start_replay(&mut self, ctx: &Context<Self>) {
        let Some(rec) = self.replay.clone() else {
            return;
        };
        self.program = AttrValue::from(rec.inputs.program.clone());
        self.spec = AttrValue::from(rec.inputs.spec.clone());
        self.budget = normal_budget(rec.inputs.max_iterations);
        self.example_id = self.matching_example();
        self.reset_run();
        self.run_events = rec.run.recording.events.clone();
        self.run_result = Some(rec.run.result_value().clone());
        self.pending_result = Some(Shared::new(rec.run.result.clone()));
        self.phase = Phase::Replaying;
        self.begin_playback(ctx);
        for ev in rec.run.events.iter().cloned() {
            self.enqueue(ev);
        }
        self.finish_replay_if_played();
    }

    /// Fetches a recording (a relative path on this site) and replays it when it arrives.
    fn load_record(&mut self, ctx: &Context<Self>, path: String) {
        self.record_generation = self.record_generation.wrapping_add(1);
        let generation = self.record_generation;
        self.record_loading = true;
        let link = ctx.link().clone();
        wasm_bindgen_futures::spawn_local(async move {
            link.send_message(Msg::RecordLoaded(
                generation,
                Box::new(startup::fetch_record(path).await),
            ));
        });
    }

    /// The shipped recording of the gallery example in the editors (made with the default
    /// budget, so only for that budget).
    fn gallery_record_path(&self) -> Option<String> {
        (!self.example_id.is_empty() && same_budget(self.budget, None))
            .then(|| format!("examples/records/{}.record.json", self.example_id))
    }

    /// Whether the editors hold the inputs of the recording (so *Replay* shows them).
    fn editors_match_replay(&self) -> bool {
        self.replay.as_ref().is_some_and(|r| {
            r.inputs.program == self.program.as_str()
                && r.inputs.spec == self.spec.as_str()
                && same_budget(r.inputs.max_iterations, self.budget)
        })
    }

    /// Id of the gallery example whose texts are in the editors ("" when none).
    fn matching_example(&self) -> String {
        self.examples
            .iter()
            .find(|e| e.program == self.program.as_str() && e.spec == self.spec.as_str())
            .map(|e| e.entry.id.clone())
            .unwrap_or_default()
    }

    /// Queues an event for playback (embed `start_at`: applies it at once while it is at or
    /// before that iteration).
    fn enqueue(&mut self, ev: messages::Event) {
        if let Some(i) = messages::event_iteration(&ev) {
            if self.phase != Phase::Replaying {
                self.received_iterations = self.received_iterations.max(i);
            }
        }
        if let Some(k) = self.fast_forward {
            if self.queue.is_empty() && messages::event_iteration(&ev).is_none_or(|i| i <= k) {
                self.model.apply(ev);
                return;
            }
            self.fast_forward = None;
            self.paused = !self.embed_options.autoplay;
        }
        self.queue.push_back(ev);
        if self.speed_ms == 0 && !self.paused {
            self.drain(true);
        }
    }

    /// Applies queued events: one per tick, or all when speed is "instant".
    fn drain(&mut self, all: bool) -> bool {
        if self.queue.is_empty() {
            return false;
        }
        let n = if all { self.queue.len() } else { 1 };
        for _ in 0..n {
            if let Some(ev) = self.queue.pop_front() {
                self.model.apply(ev);
            }
        }
        self.finish_replay_if_played();
        true
    }

    fn finish_replay_if_played(&mut self) {
        if self.phase == Phase::Replaying && self.queue.is_empty() && self.fast_forward.is_none() {
            if let Some(r) = self.pending_result.take() {
                self.received_iterations = self.received_iterations.max(r.iterations);
                self.result = Some(r);
                self.phase = Phase::Idle;
                self.land();
            }
        }
    }

    /// Selects the iteration a link asked for, once the run is done.
    fn land(&mut self) {
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

    fn on_worker(&mut self, msg: Result<FromWorker, String>) -> bool {
        if !matches!(
            msg,
            Ok(FromWorker::Event { .. }) | Ok(FromWorker::Status { .. })
        ) {
            // Every other message ends the run or reports a failure.
            self.step_busy = false;
        }
        match msg {
            Err(e) => {
                self.errors.push(e);
                self.end_failed_run();
            }
            Ok(FromWorker::Status { z3, detail }) => {
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
            Ok(FromWorker::Event { event }) => {
                let event = *event;
                // After `cancel` (or the end of a run) late events are dropped: the view
                // freezes at the click.
                if !matches!(self.phase, Phase::Running(_)) {
                    return false;
                }
                if matches!(
                    event,
                    messages::Event::Refined { .. } | messages::Event::Finished { .. }
                ) {
                    self.step_busy = false;
                }
                // Kept as JSON for recordings in share links.
                self.run_events
                    .push(serde_json::to_value(&event).unwrap_or_default());
                self.enqueue(event);
            }
            Ok(FromWorker::Diagnostics { items }) => {
                // Bad input: the run did not start.
                self.diagnostics = items;
                self.phase = Phase::Idle;
                self.status_note = "the input has errors".into();
                self.landing = None;
            }
            Ok(FromWorker::Done { result }) => {
                let result = *result;
                let raw = serde_json::to_value(&result).unwrap_or_default();
                // Step mode posts the same events as a full run: both are recordings.
                self.run_result = Some(raw);
                self.received_iterations = self.received_iterations.max(result.iterations);
                self.result = Some(Shared::new(result));
                self.phase = Phase::Idle;
                self.land();
            }
            Ok(FromWorker::Cancelled) => {
                // A `run` during a run cancels the old one first: its `cancelled` arrives
                // while the new run is already `Running`, and is ignored then.
                if self.phase == Phase::Cancelling {
                    self.cancel_timer = None;
                    self.phase = Phase::Idle;
                    self.status_note = "cancelled".into();
                }
            }
            Ok(FromWorker::Error { message }) => {
                self.errors.push(message);
                self.phase = Phase::Idle;
            }
            Ok(FromWorker::Crashed { message }) => {
                self.errors.push(message);
                self.end_failed_run();
            }
        }
        true
    }

    /// The worker failed during a run: the run ends here, without a verdict (the page
    /// replaces the worker).
    fn end_failed_run(&mut self) {
        if matches!(self.phase, Phase::Running(_) | Phase::Cancelling) {
            self.phase = Phase::Idle;
            self.cancel_timer = None;
            self.landing = None;
            self.status_note = "the run failed (see the error); the checker was restarted".into();
        }
    }

    /// Chooses live or replay (see the module docs).
    fn decide_mode(&mut self) {
        let can_replay = self.replay.is_some();
        let forced = self.params.mode;
        self.mode = match (forced, self.isolated, can_replay) {
            (Some(ForcedMode::Replay), _, true) => Mode::Replay,
            (Some(ForcedMode::Live), false, _) => {
                self.notices.push(
                    "`mode=live` was asked for, but this page is not cross-origin isolated".into(),
                );
                if can_replay {
                    Mode::Replay
                } else {
                    Mode::Unavailable
                }
            }
            (_, true, _) => Mode::Live,
            (_, false, true) => Mode::Replay,
            (_, false, false) => Mode::Unavailable,
        };
    }

    /// The recording of the latest run, if it is complete and the editors still hold its
    /// inputs.
    fn current_recording(&self) -> Option<Recording> {
        let result = self.run_result.clone()?;
        (self.run_inputs.as_ref() == Some(&self.inputs()) && !self.run_events.is_empty()).then(
            || Recording {
                events: self.run_events.clone(),
                result,
            },
        )
    }

    fn share_state(&self) -> ShareState {
        ShareState {
            program: self.program.to_string(),
            spec: self.spec.to_string(),
            options: ShareOptions {
                max_iterations: self.budget,
            },
            iteration: self.selected,
            embed: if self.embed {
                self.embed_options.clone()
            } else {
                EmbedOptions::default()
            },
            record: None,
        }
    }

    fn share_title(&self) -> String {
        let what = self
            .examples
            .iter()
            .find(|e| e.entry.id == self.example_id)
            .map_or("custom program".to_owned(), |e| e.entry.title.clone());
        match &self.result {
            Some(r) => format!("cfplay: {} — {what}", r.verdict.as_str()),
            None => format!("cfplay: {what}"),
        }
    }

    /// Replaces the address bar's fragment (`""` removes it) without reloading.
    fn set_address_hash(&mut self, hash: &str) {
        self.own_hash = hash.to_owned();
        let window = gloo::utils::window();
        if let Ok(h) = window.history() {
            let location = window.location();
            let path = location.pathname().unwrap_or_default();
            let query = location.search().unwrap_or_default();
            let _ = h.replace_state_with_url(
                &wasm_bindgen::JsValue::NULL,
                "",
                Some(&format!("{path}{query}{hash}")),
            );
        }
    }

    /// The inputs changed: the address bar's link no longer describes the page.
    fn forget_link(&mut self) {
        self.share = None;
        if !self.own_hash.is_empty() && !self.embed {
            self.set_address_hash("");
        }
    }

    /// Opens the share panel and puts the link into the address bar.
    fn open_share(&mut self) {
        let state = self.share_state();
        let texts = ShareTexts::new(
            &self.base,
            &state,
            self.current_recording().as_ref(),
            &self.share_title(),
        );
        if let Some(hash) = texts.link.find('#').map(|i| &texts.link[i..]) {
            self.own_hash = hash.to_owned();
            let history = gloo::utils::window().history();
            if let Ok(h) = history {
                let query = gloo::utils::window()
                    .location()
                    .search()
                    .unwrap_or_default();
                let _ = h.replace_state_with_url(
                    &wasm_bindgen::JsValue::NULL,
                    "",
                    Some(&format!("{query}{hash}")),
                );
            }
        }
        self.share = Some(texts);
    }

    fn shown_iteration(&self) -> Option<u32> {
        self.selected
            .or_else(|| self.model.iterations.last().map(|r| r.iteration))
    }

    fn shown_count(&self) -> u32 {
        if self.phase == Phase::Replaying {
            self.model.iterations.len() as u32
        } else {
            self.received_iterations
        }
    }
}

impl Component for App {
    type Message = Msg;
    type Properties = ();

    fn create(ctx: &Context<Self>) -> Self {
        let (examples, mut errors) = match examples::gallery() {
            Ok(g) => (g, Vec::new()),
            Err(e) => (Vec::new(), vec![e]),
        };
        let (example_id, program, spec) = match examples.first() {
            Some(ex) => (ex.entry.id.clone(), ex.program, ex.spec),
            None => (String::new(), "", ""),
        };
        if examples.is_empty() && errors.is_empty() {
            errors.push("no examples embedded".into());
        }
        let page = startup::read_page();
        errors.extend(page.errors);
        let mut app = App {
            examples,
            example_id,
            program: AttrValue::from(program),
            spec: AttrValue::from(spec),
            diagnostics: Vec::new(),
            z3: None,
            z3_detail: String::new(),
            worker: None,
            phase: Phase::Idle,
            queue: VecDeque::new(),
            model: RunModel::default(),
            received_iterations: 0,
            result: None,
            errors,
            notices: page.notices,
            selected: None,
            paused: false,
            speed_ms: DEFAULT_SPEED_MS,
            budget: None,
            ticker: None,
            cancel_timer: None,
            highlight: None,
            step_busy: false,
            lint_timer: None,
            theme: Theme::Auto,
            status_note: String::new(),
            embed: page.params.embed,
            embed_options: EmbedOptions::default(),
            read_only: false,
            params: page.params,
            base: page.base,
            isolated: page.isolated,
            mode: Mode::Unavailable,
            replay: None,
            record_loading: false,
            record_generation: 0,
            pending_result: None,
            landing: None,
            fast_forward: None,
            autorun: false,
            run_events: Vec::new(),
            run_result: None,
            run_inputs: None,
            share: None,
            own_hash: page.hash,
            _hash_listener: None,
        };
        if let Some(mut state) = page.state {
            let recording = state.record.take();
            app.program = AttrValue::from(state.program.clone());
            app.spec = AttrValue::from(state.spec.clone());
            app.budget = state.options.max_iterations;
            app.example_id = app.matching_example();
            app.landing = state.iteration;
            app.embed_options = state.embed.clone();
            app.autorun = true;
            if let Some(rec) = recording {
                match startup::record_from_link(&state, rec) {
                    Ok(r) => app.replay = Some(Rc::new(r)),
                    Err(e) => app.errors.push(e),
                }
            }
        }
        // Query parameters override the link's embed options.
        let p = &app.params;
        if let Some(v) = p.read_only {
            app.embed_options.read_only = v;
        }
        if let Some(v) = p.autoplay {
            app.embed_options.autoplay = v;
        }
        if let Some(k) = p.start_at {
            app.embed_options.start_at = Some(k);
        }
        app.read_only = app.embed_options.read_only;
        app.record_loading = app.params.record.is_some();
        if app.record_loading {
            app.autorun = true;
        }
        app.decide_mode();
        if app.embed {
            if let Some(root) = gloo::utils::document().document_element() {
                let _ = root.set_attribute("data-embed", "");
            }
        }
        let link = ctx.link().clone();
        app._hash_listener = Some(EventListener::new(
            &gloo::utils::window(),
            "hashchange",
            move |_| link.send_message(Msg::HashChanged),
        ));
        app.start_ticker(ctx);
        app
    }

    fn rendered(&mut self, ctx: &Context<Self>, first_render: bool) {
        if !first_render {
            return;
        }
        if let Some(path) = self.params.record.clone() {
            self.load_record(ctx, path);
        } else if self.mode == Mode::Unavailable {
            // No live Z3 and nothing to replay: the gallery example's shipped recording.
            if let Some(path) = self.gallery_record_path() {
                self.load_record(ctx, path);
            }
        }
        if self.isolated {
            // Let the browser paint the editors before the worker starts fetching Z3.
            let link = ctx.link().clone();
            Timeout::new(50, move || link.send_message(Msg::SpawnWorker)).forget();
        }
        if self.mode == Mode::Replay && !self.record_loading {
            self.autorun = false;
            self.start_replay(ctx);
            ctx.link().send_message(Msg::Tick);
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::SpawnWorker => {
                if self.worker.is_none() {
                    self.spawn_worker(ctx);
                }
                if self.autorun && self.mode == Mode::Live && !self.record_loading {
                    self.autorun = false;
                    self.start_run(ctx, RunMode::Run);
                }
                true
            }
            Msg::Program(t) => {
                if self.read_only {
                    return false;
                }
                self.program = AttrValue::from(t);
                self.forget_link();
                self.diagnostics.retain(|d| d.file != InputFile::Program);
                self.schedule_lint(ctx);
                true
            }
            Msg::Spec(t) => {
                if self.read_only {
                    return false;
                }
                self.spec = AttrValue::from(t);
                self.forget_link();
                self.diagnostics.retain(|d| d.file != InputFile::Spec);
                self.schedule_lint(ctx);
                true
            }
            Msg::Example(id) => {
                if let Some(ex) = self.examples.iter().find(|e| e.entry.id == id) {
                    self.program = AttrValue::from(ex.program);
                    self.spec = AttrValue::from(ex.spec);
                    self.example_id = id;
                    self.diagnostics.clear();
                    self.highlight = None;
                    self.forget_link();
                    if !self.isolated {
                        // No live Z3 here: replay the example's shipped recording.
                        if let Some(path) = self.gallery_record_path() {
                            self.replay = None;
                            self.reset_run();
                            self.phase = Phase::Idle;
                            self.decide_mode();
                            self.load_record(ctx, path);
                        }
                    }
                }
                true
            }
            Msg::Run => {
                match self.mode {
                    Mode::Replay => {
                        if !self.editors_match_replay() {
                            return false;
                        }
                        if !matches!(
                            self.phase,
                            Phase::Replaying | Phase::Running(_) | Phase::Cancelling
                        ) {
                            self.start_replay(ctx);
                        }
                    }
                    // A `run` while stepping makes the worker cancel the step-mode run first.
                    Mode::Live => {
                        if !matches!(self.phase, Phase::Running(RunMode::Run) | Phase::Cancelling) {
                            self.start_run(ctx, RunMode::Run);
                        }
                    }
                    Mode::Unavailable => return false,
                }
                true
            }
            Msg::Step => {
                if self.mode != Mode::Live {
                    return false;
                }
                match self.phase {
                    Phase::Running(RunMode::Step) if !self.step_busy => {
                        self.step_busy = self.post(&ToWorker::Step);
                    }
                    Phase::Idle => self.start_run(ctx, RunMode::Step),
                    _ => {}
                }
                true
            }
            Msg::Cancel => {
                if self.phase == Phase::Replaying {
                    self.queue.clear();
                    self.fast_forward = None;
                    self.pending_result = None;
                    self.phase = Phase::Idle;
                    self.status_note = "replay stopped".into();
                } else if matches!(self.phase, Phase::Running(_)) {
                    self.post(&ToWorker::Cancel);
                    self.phase = Phase::Cancelling;
                    self.step_busy = false;
                    self.landing = None;
                    let link = ctx.link().clone();
                    self.cancel_timer = Some(Timeout::new(CANCEL_GRACE_MS, move || {
                        link.send_message(Msg::CancelTimeout)
                    }));
                }
                true
            }
            Msg::CancelTimeout => {
                self.cancel_timer = None;
                if self.phase == Phase::Cancelling {
                    if let Some(w) = self.worker.take() {
                        w.terminate();
                    }
                    self.z3 = None;
                    self.spawn_worker(ctx);
                    self.phase = Phase::Idle;
                    self.step_busy = false;
                    self.status_note = "cancelled (worker restarted)".into();
                }
                true
            }
            Msg::Worker(m) => {
                // A panic in the checker leaves the worker unusable; a worker error during
                // a run (an out-of-memory trap, an uncaught exception) too. Not when idle:
                // a worker that cannot even load would be restarted forever.
                let live = matches!(self.phase, Phase::Running(_) | Phase::Cancelling);
                let replace = match &m {
                    Ok(FromWorker::Crashed { .. }) => true,
                    Err(_) => live,
                    _ => false,
                };
                let render = self.on_worker(m);
                if replace {
                    if let Some(w) = self.worker.take() {
                        w.terminate();
                    }
                    self.z3 = None;
                    self.spawn_worker(ctx);
                }
                render
            }
            Msg::Tick => {
                if self.paused {
                    false
                } else {
                    self.drain(self.speed_ms == 0)
                }
            }
            Msg::TogglePause => {
                self.paused = !self.paused;
                true
            }
            Msg::Speed(ms) => {
                self.speed_ms = ms;
                self.start_ticker(ctx);
                if ms == 0 && !self.paused {
                    self.drain(true);
                }
                true
            }
            Msg::Budget(b) => {
                self.budget = b;
                self.forget_link();
                true
            }
            Msg::Select(i) => {
                self.selected = i;
                self.landing = None;
                self.share = None;
                true
            }
            Msg::ShowLine(line) => {
                let n = self.highlight.map_or(0, |(_, n)| n.wrapping_add(1));
                self.highlight = Some((line, n));
                true
            }
            Msg::ToggleTheme => {
                self.theme = self.theme.next();
                if let Some(root) = gloo::utils::document().document_element() {
                    let _ = root.set_attribute("data-theme", self.theme.attr());
                }
                true
            }
            Msg::DismissErrors => {
                self.errors.clear();
                true
            }
            Msg::Lint => {
                self.lint_timer = None;
                // Never on the main thread during a run (the worker reports them then).
                if self.phase != Phase::Idle {
                    return false;
                }
                // The same front end as the worker's, without solving: parse, spec checks,
                // lowering (milliseconds for editor-sized inputs).
                match crate::engine::prepare(&self.program, &self.spec, &RunOptions::default()) {
                    Ok(_) => self.diagnostics.clear(),
                    Err(crate::engine::EngineError::BadInput(items)) => self.diagnostics = items,
                    Err(_) => {}
                }
                true
            }
            Msg::ToggleShare => {
                if self.share.is_some() {
                    self.share = None;
                } else {
                    self.open_share();
                }
                true
            }
            Msg::RecordLoaded(generation, r) => {
                if generation != self.record_generation {
                    return false;
                }
                self.record_loading = false;
                match *r {
                    Ok(rec) => self.replay = Some(Rc::new(rec)),
                    Err(e) => self.errors.push(e),
                }
                self.decide_mode();
                match self.mode {
                    Mode::Replay => {
                        self.autorun = false;
                        self.start_replay(ctx);
                    }
                    Mode::Live => {
                        // Run what was recorded, live.
                        if let Some(rec) = self.replay.clone() {
                            self.program = AttrValue::from(rec.inputs.program.clone());
                            self.spec = AttrValue::from(rec.inputs.spec.clone());
                            self.budget = normal_budget(rec.inputs.max_iterations);
                            self.example_id = self.matching_example();
                        }
                        if self.autorun && self.worker.is_some() {
                            self.autorun = false;
                            self.start_run(ctx, RunMode::Run);
                        }
                    }
                    Mode::Unavailable => {}
                }
                true
            }
            Msg::HashChanged => {
                let hash = gloo::utils::window().location().hash().unwrap_or_default();
                if hash != self.own_hash {
                    // Another link was pasted into the address bar: open it from scratch.
                    let _ = gloo::utils::window().location().reload();
                }
                false
            }
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let onkeydown = link.batch_callback(|e: KeyboardEvent| {
            if (e.ctrl_key() || e.meta_key()) && e.key() == "Enter" {
                e.prevent_default();
                Some(Msg::Run)
            } else {
                None
            }
        });
        let prog_diags: Vec<Diagnostic> = self
            .diagnostics
            .iter()
            .filter(|d| d.file != InputFile::Spec)
            .cloned()
            .collect();
        let spec_diags: Vec<Diagnostic> = self
            .diagnostics
            .iter()
            .filter(|d| d.file == InputFile::Spec)
            .cloned()
            .collect();
        let shown = self.shown_iteration();
        let record = shown.and_then(|i| self.model.get(i)).cloned();
        let previous_refinement = shown
            .and_then(|i| i.checked_sub(1))
            .and_then(|i| self.model.get(i))
            .and_then(|r| r.refined.clone());
        let (cex, feasibility, values, interpolants) = match &record {
            Some(r) => (
                r.counterexample.clone(),
                r.feasibility.clone().map(AttrValue::from),
                r.values.clone(),
                r.interpolants.clone(),
            ),
            None => (None, None, Shared::default(), None),
        };
        let proof = self.view_proof(shown);
        let share = self.share.clone().map(|texts| {
            html! { <SharePanel {texts} copy_on_open=true on_close={link.callback(|_| Msg::ToggleShare)} /> }
        });
        html! {
            <div class={classes!("app", self.embed.then_some("embed"))} {onkeydown}
                 data-mode={self.mode.badge().0} data-pending={self.queue.len().to_string()}
                 data-shown-iteration={shown.map(|i| i.to_string()).unwrap_or_default()}>
                { self.view_header(ctx) }
                { self.view_notices(ctx) }
                { share.unwrap_or_default() }
                <main class="layout">
                    <div class="col editors">
                        <Editor title="Program" testid="program-editor" lang={Lang::Java}
                            value={self.program.clone()} on_change={link.callback(Msg::Program)}
                            diagnostics={prog_diags} highlight={self.highlight} read_only={self.read_only} />
                        <Editor title="Spec" testid="spec-editor" lang={Lang::Spec}
                            value={self.spec.clone()} on_change={link.callback(Msg::Spec)}
                            diagnostics={spec_diags} read_only={self.read_only} />
                    </div>
                    <div class="col results">
                        { self.view_verdict() }
                        <section class="panel">
                            <h2>{ "Timeline" }
                                if self.selected.is_some() {
                                    <button class="link" onclick={link.callback(|_| Msg::Select(None))}>{ "follow latest" }</button>
                                }
                            </h2>
                            <Timeline iterations={self.model.iterations.clone()} selected={shown}
                                on_select={link.callback(|i| Msg::Select(Some(i)))} />
                        </section>
                        if !self.embed {
                            <section class="panel">
                                <h2>{ "Program grammar G_P" }</h2>
                                <GrammarView iteration={shown.unwrap_or(0)}
                                    grammar={record.as_ref().and_then(|r| r.grammar.clone())} />
                            </section>
                        }
                        <section class="panel">
                            <h2>{ "PCFAs" }</h2>
                            <PcfaView grammar={record.as_ref().and_then(|r| r.grammar.clone())}
                                previous={shown.and_then(|i| self.model.previous_grammar(i))}
                                refinement={previous_refinement} />
                        </section>
                        <section class="panel">
                            <h2>{ if proof.is_some() { "Proof" } else { "Counterexample" } }</h2>
                            { proof.unwrap_or_default() }
                            <CounterexampleView cex={cex} feasibility={feasibility} values={values}
                                interpolants={interpolants} on_line={link.callback(Msg::ShowLine)} />
                        </section>
                        if !self.embed {
                            <section class="panel">
                                <h2>{ "Statistics" }</h2>
                                <StatsTable result={self.result.clone()} />
                            </section>
                        }
                    </div>
                </main>
            </div>
        }
    }
}

/// The core's default iteration budget (what `None` means).
fn default_budget() -> u32 {
    cfp_core::check::CheckOptions::default().max_iterations
}

/// Budgets are equal when they mean the same limit (`None` = the default).
fn same_budget(a: Option<u32>, b: Option<u32>) -> bool {
    a.unwrap_or_else(default_budget) == b.unwrap_or_else(default_budget)
}

/// `None` for the default budget (the "default" entry of the budget menu).
fn normal_budget(b: Option<u32>) -> Option<u32> {
    b.filter(|n| *n != default_budget())
}
