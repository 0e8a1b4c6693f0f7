//! The Yew UI (main thread; ARCHITECTURE.md).
//!
//! The page renders the editors first and only then starts `worker.js` (Z3 is 35 MB, the
//! editors must be usable before it loads). Worker events are queued and applied to the
//! [`model::RunModel`] one per playback tick (pause / speed), so the timeline, grammar
//! diff and PCFA animations can be followed; the verdict banner shows as soon as the
//! worker's `done` arrives.
//!
//! * [`state`]: the page's state and its transitions ([`state::PageState::reduce`]: one
//!   message in, effects out; no I/O), unit-tested natively;
//! * [`messages`]: page⇄worker messages (the worker protocol's and the core's own types);
//! * [`model`]: the run as shown, one CEGAR event = one action;
//! * [`editor`]: highlighted editors with inline diagnostics;
//! * [`examples`]: the embedded examples gallery;
//! * [`pcfa`]: PCFA graphs rebuilt from the grammar, drawn as animated SVG;
//! * [`views`]: timeline, grammar, counterexample and statistics views;
//! * [`worker_host`]: spawning and talking to the worker;
//! * [`page_url`]: the page's query (`?embed`, `record=`, …) and the URLs it hands out;
//! * [`replay`]: validating a recorded run before it is played;
//! * [`share_panel`]: the share link, Markdown link and embed snippet;
//! * [`startup`]: reading the page URL and fetching `?record=` files;
//! * [`chrome`]: toolbar, badge, verdict bar, proof, errors and notices;
//! * [`layout`]: the page around them.
//!
//! [`App`] holds the [`state::PageState`] and the handles the browser gives (worker,
//! timers, listeners); its `update` hands each message to the reducer and runs the
//! [`state::Effect`]s that come back.
//!
//! **Live or replay.** A run is *live* (the worker and Z3) when the page is cross-origin
//! isolated; otherwise — as inside most documentation sites — a recorded run (from the link
//! or from `?record=FILE`) is *replayed* through the same queue and model, and a badge says
//! which. A share link (`#v1.…`) restores the editors and options, re-runs (or replays) and
//! lands on the iteration it names; `?embed` shows the minimal embed chrome.

pub mod chrome;
pub mod editor;
pub mod editor_lines;
pub mod entry_choice;
pub mod examples;
pub mod layout;
pub mod messages;
pub mod model;
pub mod page_url;
pub mod pcfa;
pub mod replay;
pub mod share_panel;
pub mod splitter;
pub mod startup;
pub mod state;
pub mod storage;
pub mod story_view;
pub mod trace_rows;
pub mod views;
pub mod witness_values;
pub mod worker_host;

use gloo::events::EventListener;
use gloo::timers::callback::{Interval, Timeout};
use state::{Effect, PageState, Theme};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsCast;
use worker_host::WorkerHost;
use yew::prelude::*;

pub use state::Msg;

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

/// Local-storage key of the theme choice.
const THEME_KEY: &str = "cfplay.theme";

/// Sets the document's `data-theme`.
fn apply_theme(theme: Theme) {
    if let Some(root) = gloo::utils::document().document_element() {
        let _ = root.set_attribute("data-theme", theme.attr());
    }
}

/// Quiet time after the last keystroke before the editors are checked.
const LINT_DELAY_MS: u32 = 400;

/// How long after the first paint the worker (and its 35 MB of Z3) starts.
const WORKER_START_DELAY_MS: u32 = 50;

/// Playback speeds (ms per event; 0 = apply everything at once).
const SPEEDS: &[(u32, &str)] = &[
    (0, "instant"),
    (40, "fast"),
    (150, "normal"),
    (500, "slow"),
    (1200, "very slow"),
];

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

/// Time limits offered for live runs (seconds; `None` = no limit).
const TIME_LIMITS: &[Option<u32>] = &[Some(10), Some(30), Some(60), Some(300), None];

/// The playground: the state, and the browser handles its effects need.
pub struct App {
    state: PageState,
    worker: Option<WorkerHost>,
    ticker: Option<Interval>,
    lint_timer: Option<Timeout>,
    cancel_timer: Option<Timeout>,
    _hash_listener: EventListener,
    _escape_listener: EventListener,
}

impl App {
    /// Runs the effects of a transition; whether the page must render.
    fn run_effects(&mut self, ctx: &Context<Self>, effects: Vec<Effect>) -> bool {
        let mut render = true;
        for effect in effects {
            match effect {
                Effect::NoRender => render = false,
                Effect::SpawnWorker => self.spawn_worker(ctx),
                Effect::RestartWorker => {
                    if let Some(w) = self.worker.take() {
                        w.terminate();
                    }
                    self.spawn_worker(ctx);
                }
                Effect::SpawnWorkerAfterPaint => {
                    let link = ctx.link().clone();
                    Timeout::new(WORKER_START_DELAY_MS, move || {
                        link.send_message(Msg::SpawnWorker)
                    })
                    .forget();
                }
                Effect::Post(msg) => {
                    let sent = match self.worker.as_ref() {
                        Some(w) => w.post(&msg),
                        None => Err("the worker is not running (worker.js failed to start)".into()),
                    };
                    if let Err(e) = sent {
                        ctx.link().send_message(Msg::WorkerFailed(e));
                    }
                }
                Effect::StartTicker { period_ms } => {
                    let link = ctx.link().clone();
                    self.ticker = Some(Interval::new(period_ms, move || {
                        link.send_message(Msg::Tick(js_sys::Date::now()))
                    }));
                }
                Effect::ScheduleLint => {
                    let link = ctx.link().clone();
                    self.lint_timer = Some(Timeout::new(LINT_DELAY_MS, move || {
                        link.send_message(Msg::Lint)
                    }));
                }
                Effect::ArmCancelTimer => {
                    let link = ctx.link().clone();
                    self.cancel_timer = Some(Timeout::new(CANCEL_GRACE_MS, move || {
                        link.send_message(Msg::CancelTimeout)
                    }));
                }
                Effect::DisarmCancelTimer => self.cancel_timer = None,
                Effect::FetchRecord { path, generation } => {
                    let link = ctx.link().clone();
                    wasm_bindgen_futures::spawn_local(async move {
                        let loaded = startup::fetch_record(path).await;
                        link.send_message(Msg::RecordLoaded(generation, Box::new(loaded)));
                    });
                }
                Effect::SetHash(hash) => set_address_hash(&hash),
                Effect::ApplyTheme(theme) => {
                    apply_theme(theme);
                    storage::set(THEME_KEY, theme.attr());
                }
                Effect::SaveDraft(draft) => startup::save_draft(&draft),
                Effect::RevealVerdict => reveal_verdict(),
                Effect::Reload => {
                    let _ = gloo::utils::window().location().reload();
                }
            }
        }
        render
    }

    fn spawn_worker(&mut self, ctx: &Context<Self>) {
        let link = ctx.link().clone();
        match WorkerHost::spawn(Callback::from(move |m| link.send_message(Msg::Worker(m)))) {
            Ok(w) => self.worker = Some(w),
            Err(e) => ctx.link().send_message(Msg::WorkerFailed(e)),
        }
    }
}

/// Scrolls the verdict bar into view when the layout is one column (phones, narrow
/// windows), where the results sit below the editors.
fn reveal_verdict() {
    let window = gloo::utils::window();
    let narrow = window
        .inner_width()
        .ok()
        .and_then(|w| w.as_f64())
        .is_some_and(|w| w <= NARROW_LAYOUT_PX);
    if !narrow {
        return;
    }
    if let Ok(Some(bar)) = gloo::utils::document().query_selector(".verdict-bar") {
        let options = web_sys::ScrollIntoViewOptions::new();
        options.set_block(web_sys::ScrollLogicalPosition::Nearest);
        bar.scroll_into_view_with_scroll_into_view_options(&options);
    }
}

/// Up to this width the layout is one column (static/style.css).
const NARROW_LAYOUT_PX: f64 = 900.0;

/// Replaces the address bar's fragment (`""` removes it) without reloading.
fn set_address_hash(hash: &str) {
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

impl Component for App {
    type Message = Msg;
    type Properties = ();

    fn create(ctx: &Context<Self>) -> Self {
        let mut state = PageState::new(examples::gallery(), startup::read_page());
        if let Some(theme) = storage::get::<String>(THEME_KEY).and_then(|t| Theme::from_attr(&t)) {
            state.theme = theme;
            apply_theme(theme);
        }
        if state.embed {
            if let Some(root) = gloo::utils::document().document_element() {
                let _ = root.set_attribute("data-embed", "");
            }
        }
        let link = ctx.link().clone();
        let hash_listener = EventListener::new(&gloo::utils::window(), "hashchange", move |_| {
            let hash = gloo::utils::window().location().hash().unwrap_or_default();
            link.send_message(Msg::HashChanged(hash))
        });
        // Escape cancels the run (or stops the replay) wherever the focus is.
        let link = ctx.link().clone();
        let escape_listener = EventListener::new(&gloo::utils::document(), "keydown", move |e| {
            let key = e
                .dyn_ref::<web_sys::KeyboardEvent>()
                .map(web_sys::KeyboardEvent::key);
            if key.as_deref() == Some("Escape") {
                link.send_message(Msg::Cancel);
            }
        });
        App {
            state,
            worker: None,
            ticker: None,
            lint_timer: None,
            cancel_timer: None,
            _hash_listener: hash_listener,
            _escape_listener: escape_listener,
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, first_render: bool) {
        if first_render {
            ctx.link().send_message(Msg::Started);
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        let effects = self.state.reduce(msg);
        self.run_effects(ctx, effects)
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        self.view_page(ctx)
    }
}
