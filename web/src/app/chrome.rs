//! The page chrome of [`App`]: toolbar (full and embed), live/replay badge, verdict bar,
//! proof, errors and notices.

use super::messages::{RunMode, VerdictName, Z3Status};
use super::{page_url, App, Mode, Msg, Phase, BUDGETS, DEFAULT_SPEED_MS, SPEEDS};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

impl App {
    fn view_badge(&self) -> Html {
        let (text, title) = self.mode.badge();
        let class = match self.mode {
            Mode::Live => "badge live",
            Mode::Replay => "badge replay",
            Mode::Unavailable => "badge unavailable",
        };
        html! { <span class={class} data-testid="mode-badge" title={title}>{ text }</span> }
    }

    fn run_button(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let running = matches!(self.phase, Phase::Running(_) | Phase::Cancelling);
        let (label, title, disabled) = match self.mode {
            Mode::Replay if !self.editors_match_replay() => (
                "Run",
                "Edited code needs live Z3, which needs a cross-origin-isolated page (see the notice)",
                true,
            ),
            Mode::Replay => (
                "Replay",
                "Play the recorded run again",
                self.phase == Phase::Replaying || running,
            ),
            Mode::Live => (
                "Run",
                "Run (Ctrl+Enter)",
                running && self.phase != Phase::Running(RunMode::Step),
            ),
            Mode::Unavailable => (
                "Run",
                "Live checking needs a cross-origin-isolated page (see the notice)",
                true,
            ),
        };
        html! {
            <button data-testid="run" class="primary" {title} {disabled}
                    onclick={link.callback(|_| Msg::Run)}>{ label }</button>
        }
    }

    pub(super) fn view_header(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        if self.embed {
            return self.view_embed_header(ctx);
        }
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
        let running = matches!(
            self.phase,
            Phase::Running(_) | Phase::Cancelling | Phase::Replaying
        );
        let step_label = if self.phase == Phase::Running(RunMode::Step) {
            "Next step"
        } else {
            "Step"
        };
        let z3 = match self.z3 {
            None if self.mode != Mode::Live => "Z3: not available".to_owned(),
            None => "Z3: not started".to_owned(),
            Some(Z3Status::Loading) => "Z3: loading…".to_owned(),
            Some(Z3Status::Ready) => "Z3: ready".to_owned(),
            Some(Z3Status::Error) => "Z3: error".to_owned(),
        };
        let mut budgets: Vec<Option<u32>> = BUDGETS.to_vec();
        if !budgets.contains(&self.budget) {
            budgets.push(self.budget);
        }
        html! {
            <header class="toolbar">
                <h1>{ "cfplay" }</h1>
                <label class="field">{ "Example " }
                    <select data-testid="example-select" onchange={on_example}>
                        if self.example_id.is_empty() {
                            <option value="" selected=true disabled=true>{ "(from a link / edited)" }</option>
                        }
                        { for self.examples.iter().map(|ex| html! {
                            <option value={ex.entry.id.clone()} selected={ex.entry.id == self.example_id}>
                                { format!("{} [{}]", ex.entry.title, ex.entry.expected) }
                            </option>
                        }) }
                    </select>
                </label>
                { self.run_button(ctx) }
                <button data-testid="step" title="One CEGAR iteration per click"
                        disabled={self.mode != Mode::Live || self.step_busy || matches!(self.phase, Phase::Running(RunMode::Run) | Phase::Cancelling | Phase::Replaying)}
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
                    <select data-testid="max-iterations" onchange={on_budget} disabled={self.mode == Mode::Replay}>
                        { for budgets.iter().map(|b| html! {
                            <option value={b.map(|n| n.to_string()).unwrap_or_default()} selected={*b == self.budget}>
                                { b.map(|n| n.to_string()).unwrap_or_else(|| "default".into()) }
                            </option>
                        }) }
                    </select>
                </label>
                <button data-testid="share" title="Link, Markdown link and embed snippet of this state"
                        aria-expanded={self.share.is_some().to_string()}
                        onclick={link.callback(|_| Msg::ToggleShare)}>{ "Share" }</button>
                { self.view_badge() }
                <span class="z3-status" data-testid="z3-status" title={self.z3_detail.clone()}>{ z3 }</span>
                <button class="theme" data-testid="theme-toggle" title="Theme: auto / dark / light"
                        onclick={link.callback(|_| Msg::ToggleTheme)}>{ format!("Theme: {}", self.theme.attr()) }</button>
            </header>
        }
    }

    /// The embed's minimal chrome: the name (opening the full playground), the badge,
    /// run/replay and pause.
    fn view_embed_header(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let full = page_url::playground_url(&self.base, &crate::share::encode(&self.share_state()));
        html! {
            <header class="toolbar embed-bar">
                <a class="brand" href={full} target="_blank" rel="noopener noreferrer"
                   data-testid="open-playground" title="Open this run in the full playground">{ "cfplay ↗" }</a>
                { self.view_badge() }
                { self.run_button(ctx) }
                <button data-testid="pause" aria-pressed={self.paused.to_string()}
                        onclick={link.callback(|_| Msg::TogglePause)}>
                    { if self.paused { "Play" } else { "Pause" } }
                </button>
            </header>
        }
    }

    pub(super) fn view_verdict(&self) -> Html {
        let verdict = self
            .result
            .as_ref()
            .map(|r| r.verdict.as_str())
            .unwrap_or("");
        let reason = self
            .result
            .as_ref()
            .and_then(|r| r.reason.clone())
            .unwrap_or_default();
        let phase = match self.phase {
            Phase::Idle if self.result.is_some() => "done".to_owned(),
            Phase::Idle => self.status_note.clone(),
            Phase::Running(RunMode::Run) => format!("running… {}", self.status_note),
            Phase::Running(RunMode::Step) => format!("step mode {}", self.status_note),
            Phase::Cancelling => "cancelling…".to_owned(),
            Phase::Replaying if self.paused => "replay paused".to_owned(),
            Phase::Replaying => "replaying…".to_owned(),
        };
        let pending = self.queue.len();
        html! {
            <div class={classes!("verdict-bar", (!verdict.is_empty()).then_some(verdict))}>
                <span class="verdict" data-testid="verdict">{ verdict }</span>
                <span class="verdict-reason" data-testid="verdict-reason">{ reason }</span>
                <span class="iterations">{ "iterations: " }
                    <span data-testid="iteration-count">{ self.shown_count() }</span>
                </span>
                <span class="phase" data-testid="phase">{ phase }</span>
                if pending > 0 {
                    <span class="muted small">{ format!("{pending} event(s) to play") }</span>
                }
            </div>
        }
    }

    /// For a verified run's last iteration: what was proved.
    pub(super) fn view_proof(&self, shown: Option<u32>) -> Option<Html> {
        let r = self.result.as_ref()?;
        if r.verdict != VerdictName::Verified || shown != Some(r.iterations) {
            return None;
        }
        let preds = r.stats.total_predicates;
        Some(html! {
            <div class="proof" data-testid="proof">
                <p><strong>{ "Proof. " }</strong>
                    { format!("At iteration {}, the program grammar G_P is included in the spec's \
                               language: every call sequence the program can make is allowed. The abstraction \
                               used {preds} predicate(s).", r.iterations) }</p>
            </div>
        })
    }

    pub(super) fn view_notices(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let mut notices: Vec<String> = self.notices.clone();
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
        html! {
            <>
                if !self.errors.is_empty() {
                    <div class="errors" data-testid="errors" role="alert">
                        { for self.errors.iter().map(|e| html! { <div>{ e.clone() }</div> }) }
                        <button onclick={link.callback(|_| Msg::DismissErrors)}>{ "Dismiss" }</button>
                    </div>
                }
                if !notices.is_empty() {
                    <div class="notices" data-testid="notices" role="status">
                        { for notices.iter().map(|n| html! { <div>{ n.clone() }</div> }) }
                    </div>
                }
            </>
        }
    }
}
