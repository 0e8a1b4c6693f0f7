//! Read-only views of a run: timeline, grammar with diff, counterexample (word,
//! derivation tree, nested trace, values, interpolants) and statistics (paper Table 2).
//!
//! Views take [`Shared`] data, compared by pointer, so a new event re-renders only the
//! views whose data it replaced; long texts render a first page and a "show all" button.

use super::editor_lines::EditorLines;
use super::messages::{DerivationNode, RunResult};
use super::model::{
    CounterexampleData, GrammarSnapshot, InterpolantsData, IterationRecord, Shared,
};
use super::trace_rows::{merge_steps, trace_row};
use super::witness_values::relevant_values;
use cfp_core::check::Production;
use cfp_core::report_json::StrategyJson;
use std::collections::{BTreeMap, BTreeSet};
use yew::prelude::*;

/// Diffs up to this many lines open by themselves; longer ones start folded.
const DIFF_OPEN_LINES: usize = 40;

/// Lines rendered before "show all".
const PAGE_LINES: usize = 150;

/// Properties of [`Timeline`].
#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    /// The iterations so far.
    pub iterations: Vec<IterationRecord>,
    /// The selected iteration (1-based).
    pub selected: Option<u32>,
    /// Called with the clicked iteration.
    pub on_select: Callback<u32>,
}

/// The iterations as a row of clickable cards.
#[function_component(Timeline)]
pub fn timeline(props: &TimelineProps) -> Html {
    if props.iterations.is_empty() {
        return html! { <p class="muted">{ "No iterations yet." }</p> };
    }
    let items = props.iterations.iter().map(|r| {
        let n = r.iteration;
        let cb = props.on_select.clone();
        let class = classes!("tl-item", (props.selected == Some(n)).then_some("selected"));
        let incl = match r.inclusion.as_deref() {
            Some("included") => html! { <span class="badge ok" title="L(G_P) ⊆ L(G_S)">{ "⊆" }</span> },
            Some("not-included") => html! { <span class="badge bad" title="not included: counterexample">{ "⊄" }</span> },
            Some(other) => html! { <span class="badge">{ other.to_owned() }</span> },
            None => html! {},
        };
        let feas = match r.feasibility.as_deref() {
            Some("infeasible") => html! { <span class="badge" title="spurious">{ "spurious" }</span> },
            Some("feasible") => html! { <span class="badge bad">{ "feasible" }</span> },
            Some(other) => html! { <span class="badge">{ other.to_owned() }</span> },
            None => html! {},
        };
        let refined = r.refined.as_ref().map(|f| {
            let batch = if f.also_refuted > 0 {
                format!(" ×{}", f.also_refuted + 1)
            } else {
                String::new()
            };
            html! {
                <span class="badge" title="states cloned / edges removed / predicates / spurious counterexamples refined together">
                    { format!("+{} −{} π{}{batch}", f.clones_added.len(), f.edges_removed.len(), f.predicates_added) }
                </span>
            }
        });
        html! {
            <li>
                <button class={class} data-testid="timeline-item" data-iteration={n.to_string()}
                        onclick={Callback::from(move |_| cb.emit(n))}>
                    <span class="tl-num">{ format!("#{n}") }</span>
                    { incl }{ feas }{ refined.unwrap_or_default() }
                </button>
            </li>
        }
    });
    html! { <ol class="timeline" data-testid="timeline">{ for items }</ol> }
}

/// Properties of [`GrammarView`].
#[derive(Properties, PartialEq)]
pub struct GrammarViewProps {
    /// The iteration shown.
    pub iteration: u32,
    /// Its grammar.
    pub grammar: Option<Shared<GrammarSnapshot>>,
}

/// The program grammar of one iteration with its diff.
#[function_component(GrammarView)]
pub fn grammar_view(props: &GrammarViewProps) -> Html {
    let show_all = use_state(|| false);
    let Some(g) = props.grammar.as_ref() else {
        return html! { <p class="muted">{ "No grammar yet." }</p> };
    };
    let d = &g.diff;
    let added: BTreeSet<&str> = d.added_productions.iter().map(String::as_str).collect();
    let diff = if d.added_productions.is_empty() && d.removed_productions.is_empty() {
        html! {
            <div class="grammar-diff" data-testid="grammar-diff">
                <p class="muted">{ if props.iteration <= 1 { "Initial grammar (ConstructCFG)." } else { "No change." } }</p>
            </div>
        }
    } else {
        let changes = d.removed_productions.len() + d.added_productions.len();
        // The body is mounted only while open (a large program's first refinements change
        // thousands of productions: rendering them closed cost the page ~30 ms per
        // iteration), keyed by iteration so each opens by its own size.
        html! {
            <LazyDetails key={props.iteration} class="grammar-diff" testid="grammar-diff"
                open={changes <= DIFF_OPEN_LINES}
                summary={format!("Diff: {} removed, {} added production(s)", d.removed_productions.len(), d.added_productions.len())}>
                <DiffBody diff={g.clone()} />
            </LazyDetails>
        }
    };
    let lines = rule_lines(g);
    let limit = if *show_all { lines.len() } else { PAGE_LINES };
    let body = lines.iter().take(limit).map(|(line, productions)| {
        // A rule line groups alternatives: it is new when any of its productions is.
        let is_new = productions.iter().any(|p| added.contains(p.as_str()));
        html! { <div class={classes!("g-line", is_new.then_some("diff-add"))}>{ line.clone() }</div> }
    });
    let more = lines.len().saturating_sub(limit);
    let onclick = {
        let s = show_all.clone();
        Callback::from(move |_| s.set(true))
    };
    html! {
        <div class="grammar-view">
            <p class="small muted">{ format!("Iteration {}: {} nonterminals, {} productions.", props.iteration, g.nonterminals, g.productions) }</p>
            { diff }
            <LazyDetails summary="Full grammar">
                <pre class="grammar-text">{ for body }</pre>
                if more > 0 {
                    <button {onclick}>{ format!("Show {more} more lines") }</button>
                }
            </LazyDetails>
        </div>
    }
}

/// Properties of [`DiffBody`].
#[derive(Properties, PartialEq)]
struct DiffBodyProps {
    /// The grammar whose diff to the previous iteration is shown.
    diff: Shared<GrammarSnapshot>,
}

/// The lines of a grammar diff: new nonterminals, removed and added productions, the
/// first [`PAGE_LINES`] of them until asked for all.
#[function_component(DiffBody)]
fn diff_body(props: &DiffBodyProps) -> Html {
    let show_all = use_state(|| false);
    let d = &props.diff.diff;
    let lines = d
        .removed_productions
        .iter()
        .map(|p| ("diff-del", format!("− {p}")))
        .chain(
            d.added_productions
                .iter()
                .map(|p| ("diff-add", format!("+ {p}"))),
        );
    let total = d.removed_productions.len() + d.added_productions.len();
    let limit = if *show_all { total } else { PAGE_LINES };
    let more = total.saturating_sub(limit);
    let onclick = {
        let s = show_all.clone();
        Callback::from(move |_| s.set(true))
    };
    html! {
        <div class="grammar-diff-body" tabindex="0" role="region" aria-label="grammar diff">
            if !d.added_nonterminals.is_empty() {
                <p class="small">{ format!("New nonterminals: {}", d.added_nonterminals.join(", ")) }</p>
            }
            { for lines.take(limit).map(|(class, text)| html! { <div {class}>{ text }</div> }) }
            if more > 0 {
                <button {onclick}>{ format!("Show {more} more lines") }</button>
            }
        </div>
    }
}

/// The grammar's rules, one line per nonterminal (`A -> b C | ε;`), each with the texts of
/// its productions (as the diff names them). Recordings made before events carried the
/// productions show the rendered grammar's lines as they are.
fn rule_lines(g: &GrammarSnapshot) -> Vec<(String, Vec<String>)> {
    if g.rules.is_empty() {
        return g.text.lines().map(|l| (l.to_owned(), Vec::new())).collect();
    }
    let mut order: Vec<&str> = Vec::new();
    let mut by_lhs: BTreeMap<&str, Vec<&Production>> = BTreeMap::new();
    for p in &g.rules {
        by_lhs.entry(p.lhs.as_str()).or_insert_with(|| {
            order.push(p.lhs.as_str());
            Vec::new()
        });
        if let Some(v) = by_lhs.get_mut(p.lhs.as_str()) {
            v.push(p);
        }
    }
    order
        .into_iter()
        .map(|lhs| {
            let prods = by_lhs.remove(lhs).unwrap_or_default();
            let alternatives: Vec<String> = prods
                .iter()
                .map(|p| {
                    if p.rhs.is_empty() {
                        "ε".to_owned()
                    } else {
                        p.rhs.join(" ")
                    }
                })
                .collect();
            (
                format!("{lhs} -> {};", alternatives.join(" | ")),
                prods.iter().map(|p| p.text()).collect(),
            )
        })
        .collect()
}

/// A derivation node with shared children (cheap to pass as props).
#[derive(Debug)]
pub struct SharedDeriv {
    /// The production applied.
    pub text: String,
    /// Its children.
    pub children: Vec<Shared<SharedDeriv>>,
}

/// Converts a derivation tree to [`SharedDeriv`].
pub fn share_derivation(node: &DerivationNode) -> Shared<SharedDeriv> {
    Shared::new(SharedDeriv {
        text: node.production.text(),
        children: node.children.iter().map(share_derivation).collect(),
    })
}

/// Properties of [`DerivTree`].
#[derive(Properties, PartialEq)]
pub struct DerivTreeProps {
    /// The node.
    pub node: Shared<SharedDeriv>,
    /// Its depth (nodes deeper than 6 start collapsed).
    pub depth: usize,
}

/// One collapsible derivation node; children render only when expanded.
#[function_component(DerivTree)]
pub fn deriv_tree(props: &DerivTreeProps) -> Html {
    let open = use_state(|| props.depth < 6);
    let node = &props.node;
    let has_children = !node.children.is_empty();
    let toggle = {
        let o = open.clone();
        Callback::from(move |_| o.set(!*o))
    };
    html! {
        <li class="deriv-node">
            if has_children {
                <button class="deriv-toggle" onclick={toggle}>{ if *open { "▾" } else { "▸" } }</button>
            } else {
                <span class="deriv-leaf">{ "·" }</span>
            }
            <code>{ node.text.clone() }</code>
            if has_children && *open {
                <ul>
                    { for node.children.iter().map(|c| html! {
                        <DerivTree node={c.clone()} depth={props.depth + 1} />
                    }) }
                </ul>
            }
        </li>
    }
}

/// Properties of [`LazyDetails`].
#[derive(Properties, PartialEq)]
pub struct LazyDetailsProps {
    /// The summary line.
    pub summary: AttrValue,
    /// Open at first.
    #[prop_or_default]
    pub open: bool,
    /// The content, mounted only while open.
    pub children: Html,
    /// Extra class of the `<details>`.
    #[prop_or_default]
    pub class: Option<AttrValue>,
    /// Its `data-testid`.
    #[prop_or_default]
    pub testid: Option<AttrValue>,
}

/// A `<details>` whose content is only put in the DOM while it is open (big tables and
/// trees cost nothing until looked at).
#[function_component(LazyDetails)]
pub fn lazy_details(props: &LazyDetailsProps) -> Html {
    let open = use_state(|| props.open);
    let onclick = {
        let open = open.clone();
        Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            open.set(!*open);
        })
    };
    html! {
        <details open={*open} class={props.class.clone()} data-testid={props.testid.clone()}>
            <summary class="small" {onclick}>{ props.summary.clone() }</summary>
            if *open { { props.children.clone() } }
        </details>
    }
}

/// Properties of [`CounterexampleView`].
#[derive(Properties, PartialEq)]
pub struct CounterexampleViewProps {
    /// The counterexample of the selected iteration.
    pub cex: Option<Shared<CounterexampleData>>,
    /// Feasibility tag.
    pub feasibility: Option<AttrValue>,
    /// Concrete values.
    pub values: Shared<BTreeMap<String, String>>,
    /// The iteration's interpolants.
    pub interpolants: Option<Shared<InterpolantsData>>,
    /// Called with a source line when a trace step is clicked.
    pub on_line: Callback<u32>,
    /// The program text (trace steps show their source line as written).
    #[prop_or_default]
    pub source: AttrValue,
    /// The violation's story, on its last iteration (empty otherwise).
    #[prop_or_default]
    pub story: Vec<cfp_core::check::StoryRow>,
}

/// Word, derivation tree, nested trace, values and interpolants of one iteration.
#[function_component(CounterexampleView)]
pub fn counterexample_view(props: &CounterexampleViewProps) -> Html {
    let roots = {
        let cex = props.cex.clone();
        use_memo(cex, |c| {
            c.as_ref()
                .map(|c| vec![share_derivation(&c.derivation)])
                .unwrap_or_default()
        })
    };
    let Some(cex) = props.cex.as_ref() else {
        return html! { <p class="muted">{ "No counterexample in this iteration." }</p> };
    };
    let word = if cex.word.is_empty() {
        html! { <span class="muted">{ "ε (empty word)" }</span> }
    } else {
        cex.word
            .iter()
            .map(|w| html! { <><span class="terminal">{ w.clone() }</span>{ " " }</> })
            .collect()
    };
    let source: Vec<&str> = props.source.lines().collect();
    let rows = merge_steps(&cex.trace, &EditorLines::new(&props.source));
    let trace = rows.iter().map(|r| trace_row(r, &source, &props.on_line));
    let values: Html = if props.values.is_empty() {
        html! { <p class="muted small">{ "No concrete values (the path is spurious or undecided)." }</p> }
    } else {
        let shown = relevant_values(&props.values, &cex.trace);
        html! {
            <>
                <table class="values" data-testid="values" tabindex="0" aria-label="values of the witness's variables">
                    <thead><tr><th>{ "variable" }</th><th>{ "value" }</th><th>{ "from step" }</th></tr></thead>
                    <tbody>
                        { for shown.iter().map(|v| html! {
                            <tr>
                                <td><code>{ v.name.clone() }</code></td>
                                <td><code>{ v.value.clone() }</code></td>
                                <td class="muted small">{ v.step.map(|n| n.to_string()).unwrap_or_default() }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
                <details class="small">
                    <summary>{ format!("the solver's whole model ({} entries)", props.values.len()) }</summary>
                    <table class="values" tabindex="0" aria-label="the solver's whole model">
                        <tbody>
                            { for props.values.iter().map(|(k, v)| html! { <tr><td><code>{ k.clone() }</code></td><td><code>{ v.clone() }</code></td></tr> }) }
                        </tbody>
                    </table>
                </details>
            </>
        }
    };
    let interpolants: Html = match props.interpolants.as_ref() {
        None => html! { <p class="muted small">{ "No interpolants (path not refined)." }</p> },
        Some(data) => html! {
            <table class="interpolants" data-testid="interpolants" tabindex="0" aria-label="interpolants per location">
                <thead><tr><th>{ "method" }</th><th>{ "loc" }</th><th>{ "predicates" }</th></tr></thead>
                <tbody>
                    { for data.per_location.iter().map(|l| html! {
                        <tr>
                            <td>{ l.method.clone() }</td>
                            <td>{ format!("n{}", l.location) }</td>
                            <td>{ for l.atoms.iter().enumerate().map(|(i, smt)| predicate_cell(data, l.names.get(i), smt)) }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
        },
    };
    html! {
        <div class="cex-view">
            <p data-testid="cex-word" class="cex-word"><strong>{ "Word: " }</strong>{ word }</p>
            if let Some(f) = props.feasibility.clone() {
                <p class="small">{ "Feasibility: " }<strong>{ f }</strong></p>
            }
            if !props.story.is_empty() {
                <LazyDetails open=true testid="story-details"
                    summary={format!("The run, line by line ({} lines) — click a line to show it", props.story.len())}>
                    { super::story_view::story_view(&props.story, &EditorLines::new(&props.source), &props.on_line) }
                </LazyDetails>
            }
            <LazyDetails open={props.story.is_empty()} testid="checker-steps"
                summary={format!("Checker steps: the nested trace ({} lines, {} steps)", rows.len(), cex.trace.len())}>
                <ol class="trace" data-testid="trace">{ for trace }</ol>
            </LazyDetails>
            <LazyDetails open=true summary="Derivation tree">
                <ul class="deriv" data-testid="derivation">
                    { for roots.iter().map(|n| html! { <DerivTree node={n.clone()} depth={0} /> }) }
                </ul>
            </LazyDetails>
            <LazyDetails open=true summary="Concrete values">
                { values }
            </LazyDetails>
            <LazyDetails summary="Interpolants per location">
                { interpolants }
            </LazyDetails>
        </div>
    }
}

/// One predicate: its name and readable text (the SMT-LIB formula as tooltip), marked
/// when this iteration introduced it; just the formula in recordings without names.
fn predicate_cell(data: &InterpolantsData, name: Option<&String>, smt: &str) -> Html {
    let Some(def) = name.and_then(|n| data.defined.get(n)) else {
        return html! { <div><code>{ smt.to_owned() }</code></div> };
    };
    let new = data.introduced.contains(&def.name);
    html! {
        <div class={classes!("predicate", new.then_some("new"))} data-predicate={def.name.clone()}>
            <span class="predicate-name">{ def.name.clone() }</span>{ " " }
            <code title={def.smt.clone()}>{ def.text.clone() }</code>
            if new { <span class="muted small">{ " new" }</span> }
        </div>
    }
}

/// Properties of [`StatsTable`].
#[derive(Properties, PartialEq)]
pub struct StatsTableProps {
    /// The run's result.
    pub result: Option<Shared<RunResult>>,
}

/// Statistics in the paper's Table 2 columns, plus SMT queries.
#[function_component(StatsTable)]
pub fn stats_table(props: &StatsTableProps) -> Html {
    let Some(r) = props.result.as_ref() else {
        return html! { <p class="muted">{ "Statistics appear when the run is done." }</p> };
    };
    let s = &r.stats;
    let ms = |v: Option<f64>| v.map_or_else(|| "—".to_owned(), |x| x.to_string());
    let cols: [(&str, &str, String); 11] = [
        ("Steps", "steps", s.steps.to_string()),
        ("Refinements", "refinements", s.refinements.to_string()),
        (
            "Preds/block avg",
            "predicates_per_block_avg",
            s.predicates_per_block_avg.to_string(),
        ),
        (
            "Preds/block max",
            "predicates_per_block_max",
            s.predicates_per_block_max.to_string(),
        ),
        (
            "Total preds",
            "total_predicates",
            s.total_predicates.to_string(),
        ),
        (
            "Time in inclusion (ms)",
            "grammar_and_inclusion_ms",
            ms(s.grammar_and_inclusion_ms),
        ),
        (
            "Inclusion steps",
            "inclusion_steps",
            s.inclusion_steps.to_string(),
        ),
        ("SMT queries", "smt_queries", s.smt_queries.to_string()),
        (
            "SMT cache hits",
            "smt_cache_hits",
            s.smt_cache_hits.to_string(),
        ),
        (
            "SMT decided by literals",
            "smt_decided",
            s.smt_decided.to_string(),
        ),
        ("Total time (ms)", "time_ms", ms(s.time_ms)),
    ];
    // Per refinement strategy (only those that were tried).
    let strategies: Vec<&StrategyJson> = s.strategies.iter().filter(|st| st.tried > 0).collect();
    html! {
        <div class="table-wrap" tabindex="0" role="region" aria-label="statistics">
            <table class="stats" data-testid="stats">
                <thead><tr>{ for cols.iter().map(|(h, _, _)| html! { <th>{ *h }</th> }) }</tr></thead>
                <tbody><tr>{ for cols.iter().map(|(_, k, v)| html! { <td data-stat={*k}>{ v.clone() }</td> }) }</tr></tbody>
            </table>
            if let Some(p) = s.program.as_ref() {
                <p class="muted" data-testid="program-stats">{ format!("Program: {}", p.summary()) }</p>
            }
            if let Some(sl) = s.slice.as_ref() {
                <p class="muted" data-testid="slice-stats">
                    { format!("Slice (paper §6): {}", sl.summary()) }
                    if s.summarised_iterations > 0 {
                        { format!("; the summarised slice's violation (after {} iteration(s)) was confirmed on the exact slice", s.summarised_iterations) }
                    }
                </p>
            }
            if s.hunter.slices > 0 {
                <p class="muted" data-testid="hunter-stats">
                    { format!(
                        "Bug hunter: {} slice(s), {} concrete run(s), {} completed, {} edges executed{}",
                        s.hunter.slices,
                        s.hunter.runs,
                        s.hunter.completed,
                        s.hunter.edges,
                        if s.hunter.found { "; it found the violation" } else { "" }
                    ) }
                </p>
            }
            if !strategies.is_empty() {
                <table class="stats" data-testid="strategy-stats">
                    <caption>{ "Refinement strategies" }</caption>
                    <thead><tr>
                        <th>{ "Strategy" }</th><th>{ "Paths tried" }</th><th>{ "Paths removed" }</th>
                        <th>{ "SMT queries" }</th><th>{ "Predicates" }</th><th>{ "Time (ms)" }</th>
                    </tr></thead>
                    <tbody>
                        { for strategies.iter().map(|st| html! {
                            <tr data-strategy={st.strategy.clone()}>
                                <td>{ st.strategy.clone() }</td>
                                <td>{ st.tried }</td>
                                <td>{ st.refuted }</td>
                                <td>{ st.queries }</td>
                                <td>{ st.predicates }</td>
                                <td>{ ms(st.time_ms) }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot(rules: &[(&str, &[&str])], added: &[&str]) -> GrammarSnapshot {
        GrammarSnapshot {
            text: String::new(),
            nonterminals: 0,
            productions: rules.len(),
            diff: cfp_core::check::GrammarDiff {
                added_productions: added.iter().map(|s| s.to_string()).collect(),
                ..Default::default()
            },
            rules: rules
                .iter()
                .map(|(lhs, rhs)| Production {
                    lhs: lhs.to_string(),
                    rhs: rhs.iter().map(|s| s.to_string()).collect(),
                })
                .collect(),
            pcfas: Vec::new(),
        }
    }

    #[test]
    fn rules_group_by_nonterminal_in_grammar_order() {
        let g = snapshot(
            &[("B", &["b"]), ("A", &["B", "c"]), ("B", &[])],
            &["B -> ε"],
        );
        let lines = rule_lines(&g);
        assert_eq!(lines[0].0, "B -> b | ε;");
        assert_eq!(lines[0].1, vec!["B -> b", "B -> ε"]);
        assert_eq!(lines[1].0, "A -> B c;");
    }

    #[test]
    fn derivation_trees_share_their_nodes() {
        let t = DerivationNode::from_text("<root> -> A B\n  A -> a\n  B -> ε\n");
        let s = share_derivation(&t);
        assert_eq!(s.text, "<root> -> A B");
        assert_eq!(s.children.len(), 2);
        assert_eq!(s.children[1].text, "B -> ε");
    }
}
