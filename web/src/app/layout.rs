//! The page's layout: toolbar, notices, editors and the result panels of [`App`].

use super::editor::{Editor, Lang, ViolationMarks};
use super::editor_lines::EditorLines;
use super::messages::{Diagnostic, InputFile};
use super::model::Shared;
use super::pcfa::PcfaView;
use super::share_panel::SharePanel;
use super::splitter::Splitter;
use super::state::{Lifecycle, LiveStage, Msg};
use super::views::{CounterexampleView, GrammarView, StatsTable, Timeline};
use super::App;
use yew::prelude::*;

impl App {
    /// The whole page.
    pub(super) fn view_page(&self, ctx: &Context<Self>) -> Html {
        let s = &self.state;
        let link = ctx.link();
        let onkeydown = link.batch_callback(|e: KeyboardEvent| {
            if (e.ctrl_key() || e.meta_key()) && e.key() == "Enter" {
                e.prevent_default();
                Some(Msg::Run)
            } else {
                None
            }
        });
        let prog_diags: Vec<Diagnostic> = s
            .diagnostics
            .iter()
            .filter(|d| d.file != InputFile::Spec)
            .cloned()
            .collect();
        let spec_diags: Vec<Diagnostic> = s
            .diagnostics
            .iter()
            .filter(|d| d.file == InputFile::Spec)
            .cloned()
            .collect();
        let shown = s.shown_iteration();
        let record = shown.and_then(|i| s.model.get(i)).cloned();
        let previous_refinement = shown
            .and_then(|i| i.checked_sub(1))
            .and_then(|i| s.model.get(i))
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
        // The PCFA states the shown counterexample's path goes through (drawn bold).
        let path_states = cex
            .as_ref()
            .map(|c| super::pcfa::derivation_states(&c.derivation))
            .unwrap_or_default();
        // The methods the shown counterexample's path enters, in order (their PCFAs first).
        let mut path_methods: Vec<String> = Vec::new();
        for t in cex.iter().flat_map(|c| c.trace.iter()) {
            if !t.method.is_empty() && !path_methods.contains(&t.method) {
                path_methods.push(t.method.clone());
            }
        }
        // The offending call's line is highlighted until a trace step is clicked; the call
        // and the exit keep their gutter marks.
        let lines = EditorLines::new(&s.program);
        // Marks of a run made from other inputs would point at the wrong lines: hidden.
        let stale = s.stale();
        let marks = s
            .violation_summary()
            .filter(|_| !stale)
            .map(|v| ViolationMarks {
                call_line: lines.line(v.call_file.as_deref(), v.call_line),
                exit_line: lines.line(
                    v.exit_file.as_deref().or(v.call_file.as_deref()),
                    v.exit_line,
                ),
                text: v.text.clone(),
            })
            .unwrap_or_default();
        let offending = (marks.call_line > 0).then_some((marks.call_line, 0));
        // The story belongs to the verdict's iteration.
        let story = if shown.is_some() && shown == s.result.as_ref().map(|r| r.iterations) {
            s.violation_story().to_vec()
        } else {
            Vec::new()
        };
        // On a violation's last iteration the PCFA view opens on the offending call's method.
        let focus = s
            .violation_summary()
            .filter(|_| shown == s.result.as_ref().map(|r| r.iterations))
            .map(|v| AttrValue::from(v.method.clone()));
        let share = s.share.clone().map(|texts| {
            html! { <SharePanel {texts} copy_on_open=true on_close={link.callback(|_| Msg::ToggleShare)} /> }
        });
        // A run computing or events still being played: large graphs wait (pcfa.rs).
        let busy = matches!(
            s.lifecycle,
            Lifecycle::Live {
                stage: LiveStage::Running
                    | LiveStage::Stepping { busy: true }
                    | LiveStage::Cancelling,
                ..
            } | Lifecycle::Replaying { .. }
        ) || (!s.playback.queue.is_empty() && !s.playback.paused);
        html! {
            <div class={classes!("app", s.embed.then_some("embed"))} {onkeydown}
                 data-mode={s.mode.badge().0} data-pending={s.playback.queue.len().to_string()}
                 data-shown-iteration={shown.map(|i| i.to_string()).unwrap_or_default()}>
                { self.view_header(ctx) }
                { self.view_help() }
                { self.view_notices(ctx) }
                { share.unwrap_or_default() }
                <main class="layout">
                    <div class="col editors">
                        <Editor title="Program" testid="program-editor" lang={Lang::Java}
                            value={s.program.clone()} on_change={link.callback(Msg::Program)}
                            diagnostics={prog_diags} highlight={s.highlight.or(offending)} {marks}
                            read_only={s.read_only} />
                        if !s.read_only && !s.embed { { self.view_spec_picker(ctx) } }
                        <Editor title="Spec" testid="spec-editor" lang={Lang::Spec}
                            value={s.spec.clone()} on_change={link.callback(Msg::Spec)}
                            diagnostics={spec_diags} highlight={s.spec_highlight} read_only={s.read_only}
                            diagnostics_first=true />
                    </div>
                    if !s.embed { <Splitter /> }
                    <div class="col results">
                        { self.view_verdict() }
                        { self.view_input_help(ctx) }
                        <section class="panel">
                            <h2>{ "Timeline" }
                                if s.selected.is_some() {
                                    <button class="link" onclick={link.callback(|_| Msg::Select(None))}>{ "follow latest" }</button>
                                }
                            </h2>
                            <Timeline iterations={s.model.iterations.clone()} selected={shown}
                                on_select={link.callback(|i| Msg::Select(Some(i)))} />
                        </section>
                        if !s.embed {
                            <section class="panel">
                                <h2>{ "Program grammar G_P" }</h2>
                                <GrammarView iteration={shown.unwrap_or(0)}
                                    grammar={record.as_ref().and_then(|r| r.grammar.clone())} />
                            </section>
                        }
                        <section class="panel">
                            <h2>{ "PCFAs" }</h2>
                            <PcfaView grammar={record.as_ref().and_then(|r| r.grammar.clone())}
                                focus={focus} busy={busy} {path_methods} {path_states}
                                previous={shown.and_then(|i| s.model.previous_grammar(i))}
                                refinement={previous_refinement} />
                        </section>
                        <section class="panel">
                            <h2>{ if proof.is_some() { "Proof" } else { "Counterexample" } }</h2>
                            { proof.unwrap_or_default() }
                            <CounterexampleView cex={cex} feasibility={feasibility} values={values} {story}
                                interpolants={interpolants} on_line={link.callback(Msg::ShowLine)}
                                source={s.run_source()} />
                        </section>
                        if !s.embed {
                            <section class="panel">
                                <h2>{ "Statistics" }</h2>
                                <StatsTable result={s.result.clone()} />
                            </section>
                        }
                    </div>
                </main>
            </div>
        }
    }
}
