//! The page chrome of [`App`]: toolbar (full and embed), live/replay badge, verdict bar,
//! proof, errors and notices.

use super::entry_choice::{self, EntryChoice};
use super::messages::VerdictName;
use super::state::LoopPhase;
use super::state::{Mode, Msg, RunButton, DEFAULT_SPEED_MS};
use super::{page_url, App, BUDGETS, SPEEDS, TIME_LIMITS};
use cfp_core::check::{LocationPredicates, Verdict};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

impl App {
    fn view_badge(&self) -> Html {
        let (text, title) = self.state.mode.badge();
        let class = match self.state.mode {
            Mode::Live => "badge live",
            Mode::Replay => "badge replay",
            Mode::Unavailable => "badge unavailable",
        };
        html! { <span class={class} data-testid="mode-badge" title={title}>{ text }</span> }
    }

    fn run_button(&self, ctx: &Context<Self>) -> Html {
        let RunButton {
            label,
            title,
            disabled,
        } = self.state.run_button();
        html! {
            <button data-testid="run" class="primary" {title} {disabled}
                    onclick={ctx.link().callback(|_| Msg::Run)}>{ label }</button>
        }
    }

    /// The built-in protocols (`cfp specs`): choosing one puts its text in the spec editor.
    pub(super) fn view_spec_picker(&self, ctx: &Context<Self>) -> Html {
        let on_pick = ctx.link().batch_callback(|e: Event| {
            let select = e.target_unchecked_into::<HtmlSelectElement>();
            let name = select.value();
            select.set_value("");
            cfp_syntax::builtin_spec(&name).map(|b| Msg::Spec(b.text.to_owned()))
        });
        html! {
            <label class="field spec-picker" title="Replace the spec with one of the paper's protocols (cfp check --spec NAME)">
                { "Built-in spec " }
                <select data-testid="builtin-spec" onchange={on_pick}>
                    <option value="" selected=true>{ "load one…" }</option>
                    { for cfp_syntax::BUILTIN_SPECS.iter().map(|b| html! {
                        <option value={b.name}>{ format!("{} — {}", b.name, b.classes().join(", ")) }</option>
                    }) }
                </select>
            </label>
        }
    }

    pub(super) fn view_header(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let s = &self.state;
        if s.embed {
            return self.view_embed_header(ctx);
        }
        let on_example = link.callback(|e: Event| {
            Msg::Example(e.target_unchecked_into::<HtmlSelectElement>().value())
        });
        let on_speed = link.callback(|e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            Msg::Speed(v.parse().unwrap_or(DEFAULT_SPEED_MS))
        });
        let on_time_limit = link.callback(|e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            Msg::TimeLimit(v.parse().ok())
        });
        let on_budget = link.callback(|e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            Msg::Budget(v.parse().ok())
        });
        let on_entry = link.callback(|e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            Msg::Entry(EntryChoice::from_value(&v))
        });
        let entries = entry_choice::menu(&s.entry_points.clone().unwrap_or_default(), &s.entry);
        let step_label = if s.stepping() { "Next step" } else { "Step" };
        let mut budgets: Vec<Option<u32>> = BUDGETS.to_vec();
        if !budgets.contains(&s.budget) {
            budgets.push(s.budget);
        }
        html! {
            <header class="toolbar">
                <h1>{ "cfplay" }</h1>
                <label class="field">{ "Example " }
                    <select data-testid="example-select" onchange={on_example}>
                        if s.example_id.is_empty() {
                            <option value="" selected=true disabled=true>{ "edited (not a gallery example)" }</option>
                        }
                        { for s.examples.iter().map(|ex| html! {
                            <option value={ex.entry.id.clone()} selected={ex.entry.id == s.example_id}>
                                { format!("{} [{}]", ex.entry.title, ex.entry.expected) }
                            </option>
                        }) }
                    </select>
                </label>
                { self.run_button(ctx) }
                <button data-testid="step" title="One CEGAR iteration per click"
                        disabled={!s.can_step()}
                        onclick={link.callback(|_| Msg::Step)}>{ step_label }</button>
                <button data-testid="cancel" disabled={!s.busy()}
                        onclick={link.callback(|_| Msg::Cancel)}>{ "Cancel" }</button>
                <button data-testid="pause" aria-pressed={s.playback.paused.to_string()}
                        disabled={!s.can_pause()} onclick={link.callback(|_| Msg::TogglePause)}>
                    { if s.playback.paused { "Resume" } else { "Pause" } }
                </button>
                <label class="field">{ "Speed " }
                    <select data-testid="speed" onchange={on_speed}>
                        { for SPEEDS.iter().map(|(ms, name)| html! {
                            <option value={ms.to_string()} selected={*ms == s.playback.speed_ms}>{ *name }</option>
                        }) }
                    </select>
                </label>
                <label class="field">{ "Max iterations " }
                    <select data-testid="max-iterations" onchange={on_budget} disabled={s.mode == Mode::Replay}>
                        { for budgets.iter().map(|b| html! {
                            <option value={b.map(|n| n.to_string()).unwrap_or_default()} selected={*b == s.budget}>
                                { b.map(|n| n.to_string()).unwrap_or_else(|| "default".into()) }
                            </option>
                        }) }
                    </select>
                </label>
                <label class="field" title="Where the check starts: main, a generated driver (harness), or one method">{ "Check from " }
                    <select data-testid="entry-select" onchange={on_entry} disabled={s.mode == Mode::Replay}>
                        { for entries.iter().map(|c| html! {
                            <option value={c.value()} selected={*c == s.entry}>{ c.label() }</option>
                        }) }
                    </select>
                </label>
                <label class="field" title="A live run stops past this wall-clock time and answers unknown">{ "Time limit " }
                    <select data-testid="time-limit" onchange={on_time_limit} disabled={s.mode != Mode::Live}>
                        { for TIME_LIMITS.iter().map(|t| html! {
                            <option value={t.map(|n| n.to_string()).unwrap_or_default()} selected={*t == s.time_limit_s}>
                                { t.map_or("none".to_owned(), |n| if n >= 60 && n % 60 == 0 { format!("{} min", n / 60) } else { format!("{n} s") }) }
                            </option>
                        }) }
                    </select>
                </label>
                <button data-testid="share" title="Link, Markdown link and embed snippet of this state"
                        aria-expanded={s.share.is_some().to_string()}
                        onclick={link.callback(|_| Msg::ToggleShare)}>{ "Share" }</button>
                { self.view_badge() }
                <span class="z3-status" data-testid="z3-status" title={s.z3_detail.clone()}>{ s.z3_text() }</span>
                <button class="theme" data-testid="theme-toggle" title="Theme: auto / dark / light"
                        onclick={link.callback(|_| Msg::ToggleTheme)}>{ format!("Theme: {}", s.theme.attr()) }</button>
            </header>
        }
    }

    /// The embed's minimal chrome: the name (opening the full playground), the badge,
    /// run/replay and pause.
    fn view_embed_header(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let s = &self.state;
        let full = page_url::playground_url(&s.base, &crate::share::encode(&s.share_state()));
        html! {
            <header class="toolbar embed-bar">
                <a class="brand" href={full} target="_blank" rel="noopener noreferrer"
                   data-testid="open-playground" title="Open this run in the full playground">{ "cfplay ↗" }</a>
                { self.view_badge() }
                { self.run_button(ctx) }
                <button data-testid="pause" aria-pressed={s.playback.paused.to_string()}
                        disabled={!s.can_pause()} onclick={link.callback(|_| Msg::TogglePause)}>
                    { if s.playback.paused { "Play" } else { "Pause" } }
                </button>
            </header>
        }
    }

    pub(super) fn view_verdict(&self) -> Html {
        let s = &self.state;
        let shown = s.shown_result();
        let verdict = shown.map(|r| r.verdict.as_str()).unwrap_or("");
        // Unknown: why; violation: what went wrong, in the program's terms.
        let reason = shown
            .and_then(|r| {
                r.reason
                    .clone()
                    .or_else(|| r.counterexample.as_ref().map(|c| c.summary.clone()))
            })
            .unwrap_or_default();
        // Which engine found a violation, when it was the bug hunter.
        let hunted = shown.is_some_and(|r| {
            r.counterexample
                .as_ref()
                .is_some_and(|c| c.found_by == cfp_core::check::Engine::Hunter)
        });
        // Unknown: the loops or recursions the refinement kept unrolling.
        let recurring = shown
            .and_then(|r| r.report.as_ref())
            .map(|rep| {
                rep.recurring
                    .iter()
                    .map(|x| x.describe())
                    .collect::<Vec<_>>()
                    .join("; ")
            })
            .unwrap_or_default();
        let phase = s.phase_text();
        let pending = s.playback.queue.len();
        let stale = s.stale();
        let announce = if verdict.is_empty() {
            String::new()
        } else {
            format!("{verdict}: {}", reason.replace('`', ""))
        };
        html! {
            <div class={classes!("verdict-bar", (!verdict.is_empty()).then_some(verdict), stale.then_some("stale"))}>
                <span class="verdict" data-testid="verdict">{ verdict }</span>
                <span class="verdict-reason" data-testid="verdict-reason">{ with_code(&reason) }</span>
                if stale {
                    <span class="stale small" data-testid="stale"
                        title="Run again to check what the editors hold now">
                        { "out of date: edited since this run" }
                    </span>
                }
                // Screen readers hear the verdict once, when it arrives.
                <span class="sr-only" role="status" aria-live="polite" data-testid="verdict-announce">
                    { announce }
                </span>
                if hunted {
                    <span class="found-by small" data-testid="found-by"
                        title="A random concrete run of the program, confirmed by the solver and replayed">
                        { "found by the bug hunter" }
                    </span>
                }
                if !recurring.is_empty() {
                    <span class="recurring small" data-testid="verdict-recurring"
                        title="Each round refuted one more pass with facts about that pass alone: a finite abstraction per method cannot count passes to match them against another loop's">
                        { format!("kept coming back: {recurring}") }
                    </span>
                }
                <span class="iterations">{ "iterations: " }
                    <span data-testid="iteration-count">{ s.shown_count() }</span>
                </span>
                <span class="phase" data-testid="phase">{ phase }</span>
                if let Some(note) = s.verdict_note() {
                    <span class="muted small" data-testid="verdict-note">{ note }</span>
                }
                if pending > 0 {
                    <span class="muted small">{ format!("{pending} event(s) to play") }</span>
                }
            </div>
        }
    }

    /// What keeps the inputs from being checked, in the results pane: errors with links
    /// to their lines, and a program without `main` with the start that fits it.
    pub(super) fn view_input_help(&self, ctx: &Context<App>) -> Html {
        let s = &self.state;
        let link = ctx.link();
        let errors: Vec<Html> = s
            .input_errors()
            .map(|d| {
                let (what, line) = (d.file, d.line);
                let place = match what {
                    crate::protocol::InputFile::Program => format!("program line {}:{}", d.line, d.col),
                    crate::protocol::InputFile::Spec => format!("spec line {}:{}", d.line, d.col),
                };
                let onclick = link.callback(move |_| match what {
                    crate::protocol::InputFile::Program => Msg::ShowLine(line),
                    crate::protocol::InputFile::Spec => Msg::ShowSpecLine(line),
                });
                html! {
                    <li><button class="link" {onclick}>{ place }</button>{ format!(": {}", d.message) }</li>
                }
            })
            .collect();
        let missing = s.missing_entry().filter(|_| !s.busy());
        html! {
            <>
                if !errors.is_empty() {
                    <section class="panel input-errors" data-testid="input-errors" role="alert">
                        <h2>{ "The input has errors" }</h2>
                        <ul>{ for errors }</ul>
                    </section>
                }
                if let Some(harness) = missing {
                    <section class="panel no-main" data-testid="no-main">
                        <p>{ "This program has no " }<code>{ "main" }</code>
                            { " method, so a check has nowhere to start. " }
                            <button data-testid="use-harness"
                                onclick={link.callback(move |_| Msg::Entry(EntryChoice::Harness(harness.to_owned())))}>
                                { format!("Check it through the {harness} harness") }
                            </button>
                            { " or pick a method under “Check from”." }
                        </p>
                    </section>
                }
            </>
        }
    }

    /// For a verified run's last iteration: what was proved.
    pub(super) fn view_proof(&self, shown: Option<u32>) -> Option<Html> {
        let r = self.state.result.as_ref()?;
        if r.verdict != VerdictName::Verified || shown != Some(r.iterations) {
            return None;
        }
        let preds = r.stats.total_predicates;
        let locations = match self.state.model.finished.as_ref().map(|f| &f.verdict) {
            Some(Verdict::Verified { certificate, .. }) => certificate.predicates.clone(),
            _ => Vec::new(),
        };
        let defined = &self.state.model.predicates;
        // Each name with its readable text (its SMT-LIB formula when no event defined it).
        let named = |l: &LocationPredicates| -> Html {
            l.names
                .iter()
                .zip(&l.predicates)
                .map(|(n, smt)| match defined.get(n) {
                    Some(d) => html! { <><code title={d.smt.clone()}>{ format!("{n}: {}", d.text) }</code>{ " " }</> },
                    None => html! { <><code>{ format!("{n}: {smt}") }</code>{ " " }</> },
                })
                .collect()
        };
        Some(html! {
            <div class="proof" data-testid="proof">
                <p><strong>{ "Proof. " }</strong>
                    { format!("At iteration {}, the program grammar G_P is included in the spec's \
                               language: every call sequence the program can make is allowed. The abstraction \
                               used {preds} predicate(s).", r.iterations) }</p>
                if locations.iter().any(|l| !l.names.is_empty()) {
                    <details class="small" data-testid="proof-predicates">
                        <summary>{ "The predicates, per location" }</summary>
                        <table class="interpolants">
                            <tbody>
                                { for locations.iter().map(|l| html! {
                                    <tr>
                                        <td>{ l.method.clone() }</td>
                                        <td>{ format!("n{}", l.location) }</td>
                                        <td>{ named(l) }</td>
                                    </tr>
                                }) }
                            </tbody>
                        </table>
                    </details>
                }
            </div>
        })
    }

    /// What the playground does, the spec syntax and a legend of the views' symbols.
    pub(super) fn view_help(&self) -> Html {
        if self.state.embed {
            return Html::default();
        }
        html! {
            <div class="intro">
                <p class="tagline" data-testid="tagline">
                    { "Checks that every run of a Java program calls an API the way a context-free protocol allows \
                       (every lock() matched by an unlock(), save/restore nested) — CFPChecker's CEGAR loop, with Z3 running in your browser." }
                </p>
                { self.view_loop_strip() }
                <details class="help" data-testid="help">
                    <summary>{ "How it works · spec syntax · legend" }</summary>
                    <div class="help-body">
                        <section>
                            <h3>{ "The loop" }</h3>
                            <ol class="small">
                                <li>{ "Build the program grammar G_P from the program's control flow, abstracted by predicates." }</li>
                                <li>{ "Check L(G_P) ⊆ L(spec). Included: verified." }</li>
                                <li>{ "Not included: take a counterexample word and its path, and ask Z3 whether the path is feasible. Feasible: a violation." }</li>
                                <li>{ "Infeasible: refine — new predicates (p1, p2, …) clone PCFA states and remove edges — and go to 1." }</li>
                            </ol>
                        </section>
                        <section>
                            <h3>{ "The program" }</h3>
                            <ul class="small">
                                <li>{ "Java 17 classes in one text (several files: a line " }<code>{ "// -- path/File.java --" }</code>{ " starts each). Library classes (JDK, Android) are modelled or left opaque; exceptions, static initialisation, overloads, lambdas and threads follow the JVM." }</li>
                                <li>{ "A check starts at " }<code>{ "main" }</code>{ ". Without one, choose under “Check from”: a generated driver (" }<em>{ "android-activity" }</em>{ " walks an Activity's lifecycle, " }<em>{ "public-methods" }</em>{ " calls the public methods in any order) or one method." }</li>
                                <li><code>{ "*" }</code>{ " is any value (" }<code>{ "if (*)" }</code>{ ", " }<code>{ "x = *;" }</code>{ "); so is what a method the program does not define returns, e.g. " }<code>{ "Input.readInt()" }</code>{ " — input the program does not control." }</li>
                                <li>{ "Ctrl+Enter (⌘+Enter) runs; Escape cancels. Share makes a link, a Markdown link or an " }<code>{ "<iframe>" }</code>{ " embed of the inputs and the run." }</li>
                                <li>{ "A violation is told as a story, one row per line of the run with the values that decide it; the checker's own steps are under “Checker steps”." }</li>
                            </ul>
                        </section>
                        <section>
                            <h3>{ "Spec syntax" }</h3>
                            <pre class="small">{ "wildcard $1 : ReentrantLock;     // $1 stands for any ReentrantLock\n\
        S -> $1.lock() S $1.unlock() S     // rules: A -> symbols | symbols ;\n\
        | eps;                          // ε or eps: the empty word\n\
        // the first rule's nonterminal is the start symbol;\n\
        // every rule ends with `;` (a missing one is a warning)" }</pre>
                        </section>
                        <section>
                            <h3>{ "Legend" }</h3>
                            <ul class="small">
                                <li><code>{ "⊆" }</code>{ " the program grammar is included in the spec; " }<code>{ "⊄" }</code>{ " it is not (a counterexample follows)" }</li>
                                <li><code>{ "Method:n3#1" }</code>{ " a PCFA state: CFA location 3 of Method, clone 1 (made by a refinement)" }</li>
                                <li><code>{ "p1: l == $1" }</code>{ " a named predicate and its formula; " }<em>{ "new" }</em>{ " marks those the iteration introduced" }</li>
                                <li>{ "PCFA: states the refinement cloned are green; edges it removed are dashed red and fade out; grey states are dead clones" }</li>
                            </ul>
                        </section>
                    </div>
                </details>
            </div>
        }
    }

    /// The CEGAR loop as a strip of its steps; the step of the shown iteration lights up
    /// (and the verdict at the end).
    fn view_loop_strip(&self) -> Html {
        let phase = self.state.loop_phase();
        let lit = |id: &str| phase.map(LoopPhase::id) == Some(id);
        let step = |id: &'static str, label: &'static str, title: &'static str| {
            html! {
                <li class={classes!("loop-step", lit(id).then_some("lit"))} data-step={id} {title}
                    aria-current={lit(id).then_some("step")}>{ label }</li>
            }
        };
        let verdict = match phase {
            Some(LoopPhase::Verdict(v)) => v.as_str(),
            _ => "verdict",
        };
        html! {
            <ol class="loop-strip" data-testid="loop-strip" aria-label="the CEGAR loop"
                data-phase={phase.map(LoopPhase::id).unwrap_or("idle")}>
                { step("build", "① build G_P", "the program grammar from the PCFAs (abstracted by the predicates so far)") }
                <li class="loop-arrow" aria-hidden="true">{ "→" }</li>
                { step("inclusion", "② L(G_P) ⊆ L(spec)?", "included: verified; not included: a counterexample word and its path") }
                <li class="loop-arrow" aria-hidden="true">{ "→" }</li>
                { step("feasibility", "③ path feasible? (Z3)", "feasible: a violation; infeasible: refine") }
                <li class="loop-arrow" aria-hidden="true">{ "→" }</li>
                { step("refine", "④ refine ↺ ①", "interpolants become predicates; PCFA states are cloned, edges removed") }
                <li class="loop-arrow" aria-hidden="true">{ "⇒" }</li>
                <li class={classes!("loop-step", "loop-verdict", lit("verdict").then_some("lit"))} data-step="verdict"
                    aria-current={lit("verdict").then_some("step")}>{ verdict }</li>
            </ol>
        }
    }

    pub(super) fn view_notices(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let notices = self.state.all_notices();
        let errors = &self.state.errors;
        html! {
            <>
                if !errors.is_empty() {
                    <div class="errors" data-testid="errors" role="alert">
                        { for errors.iter().map(|e| html! { <div>{ e.clone() }</div> }) }
                        <button onclick={link.callback(|_| Msg::DismissErrors)}>{ "Dismiss" }</button>
                    </div>
                }
                if self.state.undo.is_some() {
                    <div class="notices" data-testid="undo-bar" role="status">
                        { "The example replaced your edits. " }
                        <button data-testid="undo-example" onclick={link.callback(|_| Msg::UndoExample)}>{ "Undo" }</button>
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

/// `text` with its `backticked` parts as code.
fn with_code(text: &str) -> Html {
    text.split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                html! { <code>{ part.to_owned() }</code> }
            } else {
                html! { { part.to_owned() } }
            }
        })
        .collect::<Html>()
}
