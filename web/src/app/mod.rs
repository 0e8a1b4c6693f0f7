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
//! * [`worker_host`]: spawning and talking to the worker.

pub mod editor;
pub mod examples;
pub mod messages;
pub mod model;
pub mod pcfa;
pub mod views;
pub mod worker_host;

use editor::{Editor, Lang};
use examples::Example;
use gloo::timers::callback::{Interval, Timeout};
use messages::{
    Diagnostic, FromWorker, InputFile, RunMode, RunOptions, RunResult, ToWorker, Z3Status,
};
use model::{RunModel, Shared};
use pcfa::PcfaView;
use std::collections::VecDeque;
use views::{CounterexampleView, GrammarView, StatsTable, Timeline};
use wasm_bindgen::prelude::wasm_bindgen;
use web_sys::HtmlSelectElement;
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
    /// Run to the end.
    Run,
    /// Step: start a step-mode run, or advance it.
    Step,
    /// Cancel the run.
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
}

/// Quiet time after the last keystroke before the editors are checked.
const LINT_DELAY_MS: u32 = 400;

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
    queue: VecDeque<messages::UiEvent>,
    model: RunModel,
    received_iterations: u32,
    result: Option<Shared<RunResult>>,
    errors: Vec<String>,
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

    fn start_run(&mut self, mode: RunMode) {
        self.model = RunModel::default();
        self.queue.clear();
        self.received_iterations = 0;
        self.result = None;
        self.diagnostics.clear();
        self.selected = None;
        self.highlight = None;
        self.status_note.clear();
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
        true
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
                // After `cancel` (or the end of a run) late events are dropped: the view
                // freezes at the click.
                if !matches!(self.phase, Phase::Running(_)) {
                    return false;
                }
                if matches!(
                    event,
                    messages::UiEvent::Refined { .. } | messages::UiEvent::Finished { .. }
                ) {
                    self.step_busy = false;
                }
                if let Some(i) = event.iteration() {
                    self.received_iterations = self.received_iterations.max(i);
                }
                self.queue.push_back(event);
                if self.speed_ms == 0 && !self.paused {
                    self.drain(true);
                }
            }
            Ok(FromWorker::Diagnostics { items }) => {
                // Bad input: the run did not start.
                self.diagnostics = items;
                self.phase = Phase::Idle;
                self.status_note = "the input has errors".into();
            }
            Ok(FromWorker::Done { result }) => {
                self.received_iterations = self.received_iterations.max(result.iterations);
                self.result = Some(Shared::new(result));
                self.phase = Phase::Idle;
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
        }
        true
    }

    fn shown_iteration(&self) -> Option<u32> {
        self.selected
            .or_else(|| self.model.iterations.last().map(|r| r.iteration))
    }

    fn view_header(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let on_example = link.callback(|e: Event| {
            Msg::Example(e.target_unchecked_into::<HtmlSelectElement>().value())
        });
        let on_speed = link.callback(|e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            Msg::Speed(v.parse().unwrap_or(DEFAULT_SPEED_MS))
        });
        let on_budget = link.callback(|e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            Msg::Budget(v.parse().ok())
        });
        let running = matches!(self.phase, Phase::Running(_) | Phase::Cancelling);
        let step_label = if self.phase == Phase::Running(RunMode::Step) {
            "Next step"
        } else {
            "Step"
        };
        let z3 = match self.z3 {
            None => "Z3: not started".to_owned(),
            Some(Z3Status::Loading) => "Z3: loading…".to_owned(),
            Some(Z3Status::Ready) => "Z3: ready".to_owned(),
            Some(Z3Status::Error) => "Z3: error".to_owned(),
        };
        html! {
            <header class="toolbar">
                <h1>{ "cfplay" }</h1>
                <label class="field">{ "Example " }
                    <select data-testid="example-select" onchange={on_example}>
                        { for self.examples.iter().map(|ex| html! {
                            <option value={ex.entry.id.clone()} selected={ex.entry.id == self.example_id}>
                                { format!("{} [{}]", ex.entry.title, ex.entry.expected) }
                            </option>
                        }) }
                    </select>
                </label>
                <button data-testid="run" class="primary" title="Run (Ctrl+Enter)"
                        disabled={running && self.phase != Phase::Running(RunMode::Step)}
                        onclick={link.callback(|_| Msg::Run)}>{ "Run" }</button>
                <button data-testid="step" title="One CEGAR iteration per click"
                        disabled={self.step_busy || matches!(self.phase, Phase::Running(RunMode::Run) | Phase::Cancelling)}
                        onclick={link.callback(|_| Msg::Step)}>{ step_label }</button>
                <button data-testid="cancel" disabled={!running}
                        onclick={link.callback(|_| Msg::Cancel)}>{ "Cancel" }</button>
                <button data-testid="pause" aria-pressed={self.paused.to_string()}
                        onclick={link.callback(|_| Msg::TogglePause)}>
                    { if self.paused { "Resume" } else { "Pause" } }
                </button>
                <label class="field">{ "Speed " }
                    <select data-testid="speed" onchange={on_speed}>
                        { for SPEEDS.iter().map(|(ms, name)| html! {
                            <option value={ms.to_string()} selected={*ms == self.speed_ms}>{ *name }</option>
                        }) }
                    </select>
                </label>
                <label class="field">{ "Max iterations " }
                    <select data-testid="max-iterations" onchange={on_budget}>
                        { for BUDGETS.iter().map(|b| html! {
                            <option value={b.map(|n| n.to_string()).unwrap_or_default()} selected={*b == self.budget}>
                                { b.map(|n| n.to_string()).unwrap_or_else(|| "default".into()) }
                            </option>
                        }) }
                    </select>
                </label>
                <span class="z3-status" data-testid="z3-status" title={self.z3_detail.clone()}>{ z3 }</span>
                <button class="theme" data-testid="theme-toggle" title="Theme: auto / dark / light"
                        onclick={link.callback(|_| Msg::ToggleTheme)}>{ format!("Theme: {}", self.theme.attr()) }</button>
            </header>
        }
    }

    fn view_verdict(&self) -> Html {
        let verdict = self
            .result
            .as_ref()
            .map(|r| r.verdict.as_str())
            .unwrap_or("");
        let reason = self
            .result
            .as_ref()
            .map(|r| r.reason_text())
            .unwrap_or_default();
        let phase = match self.phase {
            Phase::Idle if self.result.is_some() => "done".to_owned(),
            Phase::Idle => self.status_note.clone(),
            Phase::Running(RunMode::Run) => format!("running… {}", self.status_note),
            Phase::Running(RunMode::Step) => format!("step mode {}", self.status_note),
            Phase::Cancelling => "cancelling…".to_owned(),
        };
        let pending = self.queue.len();
        html! {
            <div class={classes!("verdict-bar", (!verdict.is_empty()).then_some(verdict))}>
                <span class="verdict" data-testid="verdict">{ verdict }</span>
                <span class="verdict-reason" data-testid="verdict-reason">{ reason }</span>
                <span class="iterations">{ "iterations: " }
                    <span data-testid="iteration-count">{ self.received_iterations }</span>
                </span>
                <span class="phase" data-testid="phase">{ phase }</span>
                if pending > 0 {
                    <span class="muted small">{ format!("{pending} event(s) to play") }</span>
                }
            </div>
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
        };
        app.start_ticker(ctx);
        app
    }

    fn rendered(&mut self, ctx: &Context<Self>, first_render: bool) {
        if first_render {
            // Let the browser paint the editors before the worker starts fetching Z3.
            let link = ctx.link().clone();
            Timeout::new(50, move || link.send_message(Msg::SpawnWorker)).forget();
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::SpawnWorker => {
                if self.worker.is_none() {
                    self.spawn_worker(ctx);
                }
                true
            }
            Msg::Program(t) => {
                self.program = AttrValue::from(t);
                self.diagnostics.retain(|d| d.file != InputFile::Program);
                self.schedule_lint(ctx);
                true
            }
            Msg::Spec(t) => {
                self.spec = AttrValue::from(t);
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
                }
                true
            }
            Msg::Run => {
                // A `run` while stepping makes the worker cancel the step-mode run first.
                if !matches!(self.phase, Phase::Running(RunMode::Run) | Phase::Cancelling) {
                    self.start_run(RunMode::Run);
                }
                true
            }
            Msg::Step => {
                match self.phase {
                    Phase::Running(RunMode::Step) if !self.step_busy => {
                        self.step_busy = self.post(&ToWorker::Step);
                    }
                    Phase::Idle => self.start_run(RunMode::Step),
                    _ => {}
                }
                true
            }
            Msg::Cancel => {
                if matches!(self.phase, Phase::Running(_)) {
                    self.post(&ToWorker::Cancel);
                    self.phase = Phase::Cancelling;
                    self.step_busy = false;
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
            Msg::Worker(m) => self.on_worker(m),
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
                true
            }
            Msg::Select(i) => {
                self.selected = i;
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
        let errors = (!self.errors.is_empty()).then(|| {
            html! {
                <div class="errors" data-testid="errors" role="alert">
                    { for self.errors.iter().map(|e| html! { <div>{ e.clone() }</div> }) }
                    <button onclick={link.callback(|_| Msg::DismissErrors)}>{ "Dismiss" }</button>
                </div>
            }
        });
        html! {
            <div class="app" {onkeydown}>
                { self.view_header(ctx) }
                { errors.unwrap_or_default() }
                <main class="layout">
                    <div class="col editors">
                        <Editor title="Program" testid="program-editor" lang={Lang::Java}
                            value={self.program.clone()} on_change={link.callback(Msg::Program)}
                            diagnostics={prog_diags} highlight={self.highlight} />
                        <Editor title="Spec" testid="spec-editor" lang={Lang::Spec}
                            value={self.spec.clone()} on_change={link.callback(Msg::Spec)}
                            diagnostics={spec_diags} />
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
                        <section class="panel">
                            <h2>{ "Program grammar G_P" }</h2>
                            <GrammarView iteration={shown.unwrap_or(0)}
                                grammar={record.as_ref().and_then(|r| r.grammar.clone())} />
                        </section>
                        <section class="panel">
                            <h2>{ "PCFAs" }</h2>
                            <PcfaView grammar={record.as_ref().and_then(|r| r.grammar.clone())}
                                previous={shown.and_then(|i| self.model.previous_grammar(i))}
                                refinement={previous_refinement} />
                        </section>
                        <section class="panel">
                            <h2>{ "Counterexample" }</h2>
                            <CounterexampleView cex={cex} feasibility={feasibility} values={values}
                                interpolants={interpolants} on_line={link.callback(Msg::ShowLine)} />
                        </section>
                        <section class="panel">
                            <h2>{ "Statistics" }</h2>
                            <StatsTable result={self.result.clone()} />
                        </section>
                    </div>
                </main>
            </div>
        }
    }
}
