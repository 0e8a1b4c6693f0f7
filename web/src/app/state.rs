//! The page's state and every transition of it, without side effects (Yew's `Reducible`
//! pattern): [`PageState::reduce`] applies one [`Msg`] and returns the
//! [`Effect`]s the [`App`](super::App) then runs (timers, `postMessage`, fetches,
//! history). The run lifecycle is one enum ([`Lifecycle`]), so "cancelling" and "step
//! busy" cannot disagree with "idle"; all of it is unit-tested natively (`state/tests.rs`).
//!
//! **Runs carry ids.** Every live run gets a fresh id, sent with `run` and echoed by the
//! worker on every message about it; a message of any other run (a `cancelled` or the
//! events an older run still had in flight) is dropped.

use super::entry_choice::{self, EntryChoice};
use super::examples::Example;
use super::messages::{
    Diagnostic, Event, FromWorker, InputFile, RunMode, RunOptions, RunResult, ToWorker, Z3Status,
};
use super::model::{RunModel, Shared};
use super::page_url::{ForcedMode, PageParams};
use super::share_panel::ShareTexts;
use super::startup::{self, Draft, LoadedRecord};
use crate::share::EmbedOptions;
use serde_json::Value;
use std::collections::VecDeque;
use std::rc::Rc;
use yew::AttrValue;

mod live;
mod playback;
mod progress;
mod share;
mod text;

pub use progress::Progress;

pub use text::{LoopPhase, RunButton};

/// Playback speed of embeds that animate (ms per event).
pub const EMBED_SPEED_MS: u32 = 150;

/// Default playback speed (ms per event).
pub const DEFAULT_SPEED_MS: u32 = 40;

/// Default time limit of a live run (seconds).
pub const DEFAULT_TIME_LIMIT_S: u32 = 60;

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

    /// The theme whose [`Theme::attr`] is `attr`.
    pub fn from_attr(attr: &str) -> Option<Theme> {
        [Theme::Auto, Theme::Light, Theme::Dark]
            .into_iter()
            .find(|t| t.attr() == attr)
    }

    /// The `data-theme` attribute value.
    pub fn attr(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
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

/// The run's lifecycle.
#[derive(Clone, Debug, PartialEq)]
pub enum Lifecycle {
    /// No run (or the last one ended).
    Idle,
    /// A run in the worker.
    Live {
        /// Its id (messages of other runs are dropped).
        run: u32,
        /// How far it is.
        stage: LiveStage,
    },
    /// A recorded run being played.
    Replaying {
        /// Its result, shown once the last event has been played.
        result: Shared<RunResult>,
    },
}

/// The stage of a live run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LiveStage {
    /// Run mode: the worker runs to the end.
    Running,
    /// Step mode; `busy` while the worker computes an iteration.
    Stepping {
        /// An iteration is being computed (the step button is disabled).
        busy: bool,
    },
    /// `cancel` sent, waiting for the worker's `cancelled`.
    Cancelling,
}

/// The queue between received (or recorded) events and the model.
#[derive(Debug, Default)]
pub struct Playback {
    /// Events not yet applied.
    pub queue: VecDeque<Event>,
    /// Playback paused.
    pub paused: bool,
    /// Milliseconds per event (0: everything at once).
    pub speed_ms: u32,
    /// Embed `start_at`: events up to this iteration are applied at once.
    pub fast_forward: Option<u32>,
}

/// The inputs of a run (to tell whether a recording still matches the editors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunInputs {
    program: AttrValue,
    spec: AttrValue,
    budget: Option<u32>,
    entry: EntryChoice,
}

/// The latest run as received (for recordings in share links).
#[derive(Debug, Default)]
pub struct RunLog {
    events: Vec<Value>,
    result: Option<Value>,
    inputs: Option<RunInputs>,
}

/// What can happen to the page.
pub enum Msg {
    /// The page was painted for the first time.
    Started,
    /// The deferred worker start is due.
    SpawnWorker,
    /// Starting the worker or posting to it failed.
    WorkerFailed(String),
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
    /// Playback tick, at this time (ms, the page's clock).
    Tick(f64),
    /// Time limit of live runs in seconds (`None`: no limit).
    TimeLimit(Option<u32>),
    /// Pause / resume playback.
    TogglePause,
    /// Playback speed (ms per event).
    Speed(u32),
    /// Iteration budget (`None` = default).
    Budget(Option<u32>),
    /// Where checks start.
    Entry(EntryChoice),
    /// Select an iteration (`None` = follow the latest).
    Select(Option<u32>),
    /// Highlight a program line.
    ShowLine(u32),
    /// Highlight a spec line.
    ShowSpecLine(u32),
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
    RecordLoaded(u32, Box<Result<LoadedRecord, String>>),
    /// The address bar's fragment is now this (another link was pasted).
    HashChanged(String),
    /// Put back the edits an example replaced.
    UndoExample,
}

/// What the [`App`](super::App) must do after a transition.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Start a worker (none is running); failures come back as [`Msg::WorkerFailed`].
    SpawnWorker,
    /// Send [`Msg::SpawnWorker`] after the first paint (Z3 is 35 MB: editors first).
    SpawnWorkerAfterPaint,
    /// Terminate the worker and start a new one.
    RestartWorker,
    /// Send a message to the worker; failures come back as [`Msg::WorkerFailed`].
    Post(ToWorker),
    /// (Re)start the playback ticker ([`Msg::Tick`]) with this period.
    StartTicker {
        /// Milliseconds between ticks.
        period_ms: u32,
    },
    /// (Re)start the lint debounce timer ([`Msg::Lint`]).
    ScheduleLint,
    /// Arm the cancel grace timer ([`Msg::CancelTimeout`]).
    ArmCancelTimer,
    /// Drop the cancel grace timer.
    DisarmCancelTimer,
    /// Fetch a recording; answer with [`Msg::RecordLoaded`] and this generation.
    FetchRecord {
        /// Relative path on this site.
        path: String,
        /// The request's generation.
        generation: u32,
    },
    /// Replace the address bar's fragment (`""` removes it) without reloading.
    SetHash(String),
    /// Set the document's theme.
    ApplyTheme(Theme),
    /// Reload the page.
    Reload,
    /// Keep the editors' texts (local storage) for the next visit.
    SaveDraft(Draft),
    /// Bring the verdict bar into view (on narrow screens the results are below the
    /// editors).
    RevealVerdict,
    /// Nothing visible changed: no render needed.
    NoRender,
}

/// Iteration budgets are equal when they mean the same limit (`None` = the default).
pub fn same_budget(a: Option<u32>, b: Option<u32>) -> bool {
    a.unwrap_or_else(default_budget) == b.unwrap_or_else(default_budget)
}

/// The core's default iteration budget (what `None` means).
fn default_budget() -> u32 {
    cfp_core::check::CheckOptions::default().max_iterations
}

/// `None` for the default budget (the "default" entry of the budget menu).
pub(super) fn normal_budget(b: Option<u32>) -> Option<u32> {
    b.filter(|n| *n != default_budget())
}

/// Everything the page shows and decides.
pub struct PageState {
    /// The gallery.
    pub examples: Vec<Example>,
    /// Id of the gallery example in the editors (`""`: none).
    pub example_id: String,
    /// Program editor text.
    pub program: AttrValue,
    /// Spec editor text.
    pub spec: AttrValue,
    /// Iteration budget (`None` = default).
    pub budget: Option<u32>,
    /// Where checks start (`main`, a method, a harness).
    pub entry: EntryChoice,
    /// What the program in the editor offers as a start (updated when it is linted;
    /// `None` while it does not parse).
    pub entry_points: Option<cfp_core::harness::EntryPoints>,
    /// Time limit of live runs in seconds (`None`: no limit).
    pub time_limit_s: Option<u32>,
    /// Inline diagnostics of the editors.
    pub diagnostics: Vec<Diagnostic>,
    /// Z3's state in the worker (`None`: no worker).
    pub z3: Option<Z3Status>,
    /// Z3 load detail.
    pub z3_detail: String,
    /// A worker has been started (and has not failed).
    pub worker_up: bool,
    /// The run's lifecycle.
    pub lifecycle: Lifecycle,
    /// The latest run id handed out.
    last_run: u32,
    /// Worker crashes since Z3 was last ready.
    crashes_since_ready: u32,
    /// Queue and speed of playback.
    pub playback: Playback,
    /// The run as applied so far.
    pub model: RunModel,
    /// Iterations received from the worker (ahead of playback).
    pub received_iterations: u32,
    /// Progress of the live run as received: phase, predicates, start and clock.
    pub progress: Progress,
    /// The verdict, once the run is done.
    pub result: Option<Shared<RunResult>>,
    /// Errors shown until dismissed.
    pub errors: Vec<String>,
    /// Remarks shown at the top.
    pub notices: Vec<String>,
    /// The selected iteration (`None`: follow the latest).
    pub selected: Option<u32>,
    /// Highlighted program line and a counter (to re-trigger the same line).
    pub highlight: Option<(u32, u32)>,
    /// Highlighted spec line, the same way.
    pub spec_highlight: Option<(u32, u32)>,
    /// Colour theme.
    pub theme: Theme,
    /// A remark next to the phase ("cancelled", "waiting for Z3 to load…").
    pub status_note: String,
    /// The page's query.
    pub params: PageParams,
    /// The page's address without query and fragment.
    pub base: String,
    /// `crossOriginIsolated`.
    pub isolated: bool,
    /// Live, replay or neither.
    pub mode: Mode,
    /// The recording available for replay, with its inputs.
    pub replay: Option<Rc<LoadedRecord>>,
    /// A recording is being fetched.
    pub record_loading: bool,
    /// Generation of the latest recording request.
    record_generation: u32,
    /// Select this iteration once the run is done (from a link).
    pub landing: Option<u32>,
    /// Run as soon as possible (a link was opened).
    pub autorun: bool,
    /// `?embed`.
    pub embed: bool,
    /// The embed's options (link, overridden by the query).
    pub embed_options: EmbedOptions,
    /// The editors cannot be edited.
    pub read_only: bool,
    /// The latest run as received.
    log: RunLog,
    /// The open share panel's texts.
    pub share: Option<ShareTexts>,
    /// The edits the last chosen example replaced (offered back until the next edit).
    pub undo: Option<Draft>,
    /// The fragment this page set or was opened with (a different one means: reload).
    pub own_hash: String,
}

impl PageState {
    /// The page at start: the gallery (or why it is missing) and what the address asks for.
    pub fn new(gallery: Result<Vec<Example>, String>, page: startup::Startup) -> PageState {
        let (examples, mut errors) = match gallery {
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
        errors.extend(page.errors);
        let mut s = PageState {
            examples,
            example_id,
            program: AttrValue::from(program),
            spec: AttrValue::from(spec),
            budget: None,
            entry: EntryChoice::Main,
            entry_points: None,
            time_limit_s: Some(DEFAULT_TIME_LIMIT_S),
            diagnostics: Vec::new(),
            z3: None,
            z3_detail: String::new(),
            worker_up: false,
            lifecycle: Lifecycle::Idle,
            last_run: 0,
            crashes_since_ready: 0,
            playback: Playback {
                speed_ms: DEFAULT_SPEED_MS,
                ..Playback::default()
            },
            model: RunModel::default(),
            received_iterations: 0,
            progress: Progress::default(),
            result: None,
            errors,
            notices: page.notices,
            selected: None,
            highlight: None,
            spec_highlight: None,
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
            landing: None,
            autorun: false,
            log: RunLog::default(),
            share: None,
            undo: None,
            own_hash: page.hash,
        };
        // The last visit's edits, unless the address asks for something else.
        if let Some(d) = page
            .draft
            .filter(|_| page.state.is_none() && !s.embed && s.params.record.is_none())
        {
            s.program = AttrValue::from(d.program);
            s.spec = AttrValue::from(d.spec);
            s.example_id = s.matching_example();
        }
        if let Some(mut state) = page.state {
            let recording = state.record.take();
            s.program = AttrValue::from(state.program.clone());
            s.spec = AttrValue::from(state.spec.clone());
            s.budget = state.options.max_iterations;
            s.entry = EntryChoice::from_options(
                state.options.entry.as_deref(),
                state.options.harness.as_deref(),
            );
            s.example_id = s.matching_example();
            s.landing = state.iteration;
            s.embed_options = state.embed.clone();
            s.autorun = true;
            if let Some(rec) = recording {
                match startup::record_from_link(&state, rec) {
                    Ok(r) => s.replay = Some(Rc::new(r)),
                    Err(e) => s.errors.push(e),
                }
            }
        }
        // Query parameters override the link's embed options.
        let p = &s.params;
        if let Some(v) = p.read_only {
            s.embed_options.read_only = v;
        }
        if let Some(v) = p.autoplay {
            s.embed_options.autoplay = v;
        }
        if let Some(k) = p.start_at {
            s.embed_options.start_at = Some(k);
        }
        s.read_only = s.embed_options.read_only;
        s.record_loading = s.params.record.is_some();
        if s.record_loading {
            s.autorun = true;
        }
        s.decide_mode();
        s.entry_points = entry_choice::entry_points(&s.program);
        s
    }

    /// Applies `msg`; returns what the app must do.
    pub fn reduce(&mut self, msg: Msg) -> Vec<Effect> {
        let mut fx = Vec::new();
        match msg {
            Msg::Started => self.on_started(&mut fx),
            Msg::SpawnWorker => {
                self.ensure_worker(&mut fx);
                if self.autorun && self.mode == Mode::Live && !self.record_loading {
                    self.autorun = false;
                    self.start_run(RunMode::Run, &mut fx);
                }
            }
            Msg::WorkerFailed(e) => {
                self.errors.push(e);
                self.worker_up = false;
                self.z3 = None;
                self.end_failed_run(&mut fx);
            }
            Msg::Program(t) => {
                if self.read_only {
                    return vec![Effect::NoRender];
                }
                self.program = AttrValue::from(t);
                self.edited(InputFile::Program, &mut fx);
            }
            Msg::Spec(t) => {
                if self.read_only {
                    return vec![Effect::NoRender];
                }
                self.spec = AttrValue::from(t);
                self.edited(InputFile::Spec, &mut fx);
            }
            Msg::Example(id) => self.choose_example(id, &mut fx),
            Msg::Run => self.on_run(&mut fx),
            Msg::Step => self.on_step(&mut fx),
            Msg::Cancel => self.on_cancel(&mut fx),
            Msg::CancelTimeout => {
                if !self.live_stage_is(LiveStage::Cancelling) {
                    return vec![Effect::NoRender];
                }
                self.restart_worker(&mut fx);
                self.lifecycle = Lifecycle::Idle;
                self.status_note = "cancelled (worker restarted)".into();
            }
            Msg::Worker(m) => self.on_worker(m, &mut fx),
            Msg::Tick(now_ms) => {
                let clock_moved = self.progress.tick(now_ms, self.is_live());
                self.watchdog(&mut fx);
                let played = !self.playback.paused && self.drain(self.playback.speed_ms == 0);
                if !played && !clock_moved {
                    fx.push(Effect::NoRender);
                }
            }
            Msg::TimeLimit(s) => self.time_limit_s = s,
            Msg::TogglePause => self.playback.paused = !self.playback.paused,
            Msg::Speed(ms) => {
                self.playback.speed_ms = ms;
                fx.push(self.ticker());
                if ms == 0 && !self.playback.paused {
                    self.drain(true);
                }
            }
            Msg::Budget(b) => {
                self.budget = b;
                self.forget_link(&mut fx);
            }
            Msg::Entry(e) => {
                self.entry = e;
                self.forget_link(&mut fx);
                fx.push(Effect::ScheduleLint);
            }
            Msg::Select(i) => {
                self.selected = i;
                self.landing = None;
                self.share = None;
            }
            Msg::ShowLine(line) => {
                let n = self.highlight.map_or(0, |(_, n)| n.wrapping_add(1));
                self.highlight = Some((line, n));
            }
            Msg::ShowSpecLine(line) => {
                let n = self.spec_highlight.map_or(0, |(_, n)| n.wrapping_add(1));
                self.spec_highlight = Some((line, n));
            }
            Msg::ToggleTheme => {
                self.theme = self.theme.next();
                fx.push(Effect::ApplyTheme(self.theme));
            }
            Msg::DismissErrors => self.errors.clear(),
            Msg::Lint => {
                if !self.embed && !self.read_only {
                    fx.push(Effect::SaveDraft(self.draft()));
                }
                // Never during a run (the worker reports diagnostics then).
                if self.lifecycle != Lifecycle::Idle {
                    fx.push(Effect::NoRender);
                    return fx;
                }
                self.entry_points = entry_choice::entry_points(&self.program);
                // The worker's front end without solving: parse, spec checks, lowering.
                match crate::engine::prepare(&self.program, &self.spec, &self.run_options()) {
                    Ok(p) => {
                        self.diagnostics = crate::engine::warnings(&p, &self.program, &self.spec)
                    }
                    Err(crate::engine::EngineError::BadInput(items)) => self.diagnostics = items,
                    Err(_) => {}
                }
            }
            Msg::ToggleShare => {
                if self.share.is_some() {
                    self.share = None;
                } else {
                    self.open_share(&mut fx);
                }
            }
            Msg::RecordLoaded(generation, r) => {
                if generation != self.record_generation {
                    return vec![Effect::NoRender];
                }
                self.on_record_loaded(*r, &mut fx);
            }
            Msg::UndoExample => match self.undo.take() {
                Some(d) => {
                    self.program = AttrValue::from(d.program);
                    self.spec = AttrValue::from(d.spec);
                    self.edited(InputFile::Program, &mut fx);
                    self.diagnostics.clear();
                }
                None => fx.push(Effect::NoRender),
            },
            Msg::HashChanged(hash) => {
                fx.push(if hash != self.own_hash {
                    Effect::Reload
                } else {
                    Effect::NoRender
                });
            }
        }
        fx
    }

    /// The first paint: fetch what the page replays, start the worker soon, replay.
    fn on_started(&mut self, fx: &mut Vec<Effect>) {
        fx.push(self.ticker());
        if let Some(path) = self.params.record.clone() {
            self.load_record(path, fx);
        } else if self.mode == Mode::Unavailable {
            // No live Z3 and nothing to replay: the gallery example's shipped recording.
            if let Some(path) = self.gallery_record_path() {
                self.load_record(path, fx);
            }
        }
        if self.isolated {
            fx.push(Effect::SpawnWorkerAfterPaint);
        }
        if self.mode == Mode::Replay && !self.record_loading {
            self.autorun = false;
            self.start_replay(fx);
        }
    }

    /// An editor changed: the link no longer describes the page; lint (and save) soon.
    fn edited(&mut self, file: InputFile, fx: &mut Vec<Effect>) {
        self.example_id = self.matching_example();
        self.undo = None;
        self.forget_link(fx);
        self.diagnostics.retain(|d| d.file != file);
        fx.push(Effect::ScheduleLint);
    }

    fn choose_example(&mut self, id: String, fx: &mut Vec<Effect>) {
        let Some(ex) = self.examples.iter().find(|e| e.entry.id == id) else {
            fx.push(Effect::NoRender);
            return;
        };
        // Edits that are not a gallery example can be put back.
        self.undo = self.example_id.is_empty().then(|| self.draft());
        if !self.embed && !self.read_only {
            fx.push(Effect::SaveDraft(Draft {
                program: ex.program.to_owned(),
                spec: ex.spec.to_owned(),
            }));
        }
        self.program = AttrValue::from(ex.program);
        self.spec = AttrValue::from(ex.spec);
        self.entry = EntryChoice::Main;
        self.entry_points = entry_choice::entry_points(&self.program);
        self.example_id = id;
        self.diagnostics.clear();
        self.highlight = None;
        self.forget_link(fx);
        if !self.isolated {
            // No live Z3 here: replay the example's shipped recording.
            if let Some(path) = self.gallery_record_path() {
                self.replay = None;
                self.reset_run();
                self.lifecycle = Lifecycle::Idle;
                self.decide_mode();
                self.load_record(path, fx);
            }
        }
    }

    /// Fetches a recording (a relative path on this site) and replays it when it arrives.
    fn load_record(&mut self, path: String, fx: &mut Vec<Effect>) {
        self.record_generation = self.record_generation.wrapping_add(1);
        self.record_loading = true;
        fx.push(Effect::FetchRecord {
            path,
            generation: self.record_generation,
        });
    }

    fn on_record_loaded(&mut self, r: Result<LoadedRecord, String>, fx: &mut Vec<Effect>) {
        self.record_loading = false;
        match r {
            Ok(rec) => self.replay = Some(Rc::new(rec)),
            Err(e) => self.errors.push(e),
        }
        self.decide_mode();
        match self.mode {
            Mode::Replay => {
                self.autorun = false;
                self.start_replay(fx);
            }
            Mode::Live => {
                // Run what was recorded, live.
                if let Some(rec) = self.replay.clone() {
                    self.program = AttrValue::from(rec.inputs.program.clone());
                    self.spec = AttrValue::from(rec.inputs.spec.clone());
                    self.budget = normal_budget(rec.inputs.max_iterations);
                    self.entry = rec.inputs.entry.clone();
                    self.example_id = self.matching_example();
                }
                if self.autorun && self.worker_up {
                    self.autorun = false;
                    self.start_run(RunMode::Run, fx);
                }
            }
            Mode::Unavailable => {}
        }
    }

    /// The shipped recording of the gallery example in the editors (made with the default
    /// budget, so only for that budget).
    fn gallery_record_path(&self) -> Option<String> {
        (!self.example_id.is_empty() && same_budget(self.budget, None))
            .then(|| format!("examples/records/{}.record.json", self.example_id))
    }

    /// Whether the editors hold the inputs of the recording (so *Replay* shows them).
    pub fn editors_match_replay(&self) -> bool {
        self.replay.as_ref().is_some_and(|r| {
            r.inputs.program == self.program.as_str()
                && r.inputs.spec == self.spec.as_str()
                && same_budget(r.inputs.max_iterations, self.budget)
                && r.inputs.entry == self.entry
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

    /// Chooses live or replay (see the module docs of [`super`]).
    fn decide_mode(&mut self) {
        let can_replay = self.replay.is_some();
        self.mode = match (self.params.mode, self.isolated, can_replay) {
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

    /// The editors' texts.
    pub fn draft(&self) -> Draft {
        Draft {
            program: self.program.to_string(),
            spec: self.spec.to_string(),
        }
    }

    fn inputs(&self) -> RunInputs {
        RunInputs {
            program: self.program.clone(),
            spec: self.spec.clone(),
            budget: self.budget,
            entry: self.entry.clone(),
        }
    }

    /// The options of a run of the editors' texts (without a time limit).
    pub(super) fn run_options(&self) -> RunOptions {
        RunOptions {
            max_iterations: self.budget,
            entry: self.entry.entry(),
            harness: self.entry.harness(),
            ..RunOptions::default()
        }
    }

    /// The iteration the views show.
    pub fn shown_iteration(&self) -> Option<u32> {
        self.selected
            .or_else(|| self.model.iterations.last().map(|r| r.iteration))
    }

    /// The iteration count shown (received, or played during a replay).
    pub fn shown_count(&self) -> u32 {
        if matches!(self.lifecycle, Lifecycle::Replaying { .. }) {
            self.model.iterations.len() as u32
        } else {
            self.received_iterations
        }
    }
}

#[cfg(test)]
mod tests;
