//! PCFA view (paper §4, Fig. 7/9): one graph per method, laid out by Graphviz in the page.
//!
//! Each `grammar-built` event carries every method's PCFA as the core built it
//! ([`cfp_core::check::PcfaView`]): states and edges with their ids (never reused), and
//! the states the refinement before this iteration cloned and the edges it removed. This
//! view picks the method (tabs; by default the `focus` method, else the one the last
//! refinement changed most), turns its PCFA into DOT ([`dot::pcfa_dot`]) and hands it to
//! `web/js/graph.js` (global `cfpGraph`, d3-graphviz), which owns the drawing: cloned
//! states (`pcfa-cloned`, `data-state-id`) fade in, removed edges (`pcfa-removed`,
//! `data-edge-id`) are dashed, iterations morph into each other by id; zoom, pan, fit.

pub mod collapse;
pub mod dot;

use super::messages::PcfaView as Pcfa;
use super::model::{GrammarSnapshot, Refinement, Shared};
use dot::{pcfa_dot, DotOptions, PcfaDot};
use gloo::events::EventListener;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use yew::prelude::*;

/// How much the refinement before this iteration changed `p` (cloned states and removed
/// edges).
pub fn change_count(p: &Pcfa) -> usize {
    p.cloned.len() + p.removed.len()
}

/// Properties of [`PcfaView`].
#[derive(Properties, PartialEq)]
pub struct PcfaViewProps {
    /// The selected iteration's grammar (with the PCFAs).
    pub grammar: Option<Shared<GrammarSnapshot>>,
    /// The previous iteration's grammar (where states that are gone now were).
    pub previous: Option<Shared<GrammarSnapshot>>,
    /// The refinement that produced this iteration (previous iteration's `refined`).
    pub refinement: Option<Shared<Refinement>>,
    /// The method to open first (the offending call's, on a violation's last iteration).
    #[prop_or_default]
    pub focus: Option<AttrValue>,
    /// A run (or a replay) is going on: graphs larger than [`LIVE_DRAW_MAX`] wait for its
    /// end (or the next pause) to be drawn.
    #[prop_or_default]
    pub busy: bool,
    /// The methods of the shown counterexample's path, in the order it enters them: their
    /// tabs come first.
    #[prop_or_default]
    pub path_methods: Vec<String>,
    /// The PCFA states the path goes through, as the derivation names them
    /// (`Main.main:n3#1`).
    #[prop_or_default]
    pub path_states: Vec<String>,
}

/// The names (`n3#1`) of `method`'s states among `states` (`Main.main:n3#1`, possibly
/// with a frame suffix `@e1`).
fn path_states(states: &[String], method: &str) -> std::collections::BTreeSet<String> {
    states
        .iter()
        .filter_map(|s| s.strip_prefix(method)?.strip_prefix(':'))
        .map(|s| s.split('@').next().unwrap_or(s).to_owned())
        .collect()
}

/// The nonterminals of a derivation (`Main.main:n3#1`…), each once, in preorder.
pub fn derivation_states(node: &cfp_core::check::DerivationNode) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        let lhs = &n.production.lhs;
        if !out.contains(lhs) {
            out.push(lhs.clone());
        }
        stack.extend(n.children.iter().rev());
    }
    out
}

/// The most states and edges of a graph drawn while a run goes on. d3-graphviz builds the
/// drawing in one main-thread task of about 20 ms + 1 ms per element (measured in
/// Chromium: 44 states and 44 edges took 104 ms), so a larger graph would stall the page
/// for longer than the 100 ms a responsive page allows; it is drawn when the run ends or
/// pauses (step mode), or when another iteration or method is selected afterwards.
pub const LIVE_DRAW_MAX: usize = 60;

/// PCFA graphs of the selected iteration, one method at a time.
#[function_component(PcfaView)]
pub fn pcfa_view(props: &PcfaViewProps) -> Html {
    let selected = use_state(|| None::<String>);
    // The edges the refinement removed are drawn on request only (they cross the graph).
    let show_removed = use_state(|| false);
    let Some(grammar) = props.grammar.as_ref() else {
        return html! { <p class="muted">{ "No PCFA yet: run a check." }</p> };
    };
    let graphs = &grammar.pcfas;
    if graphs.is_empty() {
        return html! {
            <p class="muted" data-testid="pcfa-missing">
                { "This recording was made before runs carried their PCFAs: run the check to see them." }
            </p>
        };
    }
    // Default: the method asked for, else the one the last refinement changed most, else
    // the first.
    let changed = graphs
        .iter()
        .filter(|p| change_count(p) > 0)
        .max_by(|a, b| {
            change_count(a)
                .cmp(&change_count(b))
                .then_with(|| b.method.cmp(&a.method))
        })
        .map(|p| p.method.clone());
    let method = selected
        .as_ref()
        .filter(|m| graphs.iter().any(|p| &p.method == *m))
        .cloned()
        .or_else(|| {
            props
                .focus
                .as_ref()
                .filter(|f| graphs.iter().any(|p| p.method == f.as_str()))
                .map(|f| f.to_string())
        })
        .or(changed)
        .or_else(|| graphs.first().map(|p| p.method.clone()))
        .unwrap_or_default();
    // The counterexample's methods first (in path order), the synthetic root last.
    let rank = |p: &Pcfa| {
        let on_path = props.path_methods.iter().position(|m| *m == p.method);
        (on_path.is_none(), on_path, p.method.starts_with('<'))
    };
    let mut ordered: Vec<(usize, &Pcfa)> = graphs.iter().enumerate().collect();
    ordered.sort_by_key(|(i, p)| (rank(p), *i));
    let tabs = ordered.into_iter().map(|(_, p)| {
        let sel = selected.clone();
        let name = p.method.clone();
        let class = classes!(
            "tab",
            (p.method == method).then_some("selected"),
            (change_count(p) > 0).then_some("changed")
        );
        let on_path = props.path_methods.contains(&p.method);
        html! {
            <button class={classes!(class, on_path.then_some("on-path"))}
                title={if on_path { "on the counterexample's path" } else { "" }}
                onclick={Callback::from(move |_| sel.set(Some(name.clone())))}>
                { p.method.clone() }
            </button>
        }
    });
    let removed_count = graph_removed(graphs, &method);
    let toggle_removed = {
        let show = show_removed.clone();
        Callback::from(move |_| show.set(!*show))
    };
    let Some(graph) = graphs.iter().find(|p| p.method == method) else {
        return html! {};
    };
    let previous = props
        .previous
        .as_ref()
        .and_then(|g| g.pcfas.iter().find(|p| p.method == method));
    let name_of = |id: u32| {
        graph
            .states
            .iter()
            .chain(previous.iter().flat_map(|p| p.states.iter()))
            .find(|s| s.id == id)
            .map_or_else(|| format!("#{id}"), |s| s.name.clone())
    };
    let note = (change_count(graph) > 0 || props.refinement.is_some()).then(|| {
        let clones: Vec<String> = graph.cloned.iter().map(|id| name_of(*id)).collect();
        let edges: Vec<String> = graph
            .removed
            .iter()
            .map(|e| format!("{}→{}", name_of(e.from), name_of(e.to)))
            .collect();
        let predicates = props.refinement.as_ref().map_or(0, |r| r.predicates_added);
        html! {
            <p class="muted small" data-testid="pcfa-note">
                { format!("Last refinement in {method}: {} state(s) cloned ({}), {} edge(s) removed ({}); {} predicate(s) added overall.",
                    clones.len(), name_list(&clones), edges.len(), name_list(&edges), predicates) }
            </p>
        }
    });
    html! {
        <div class="pcfa">
            <div class="tabs">{ for tabs }</div>
            if removed_count > 0 {
                <label class="small pcfa-removed-toggle">
                    <input type="checkbox" data-testid="pcfa-show-removed" checked={*show_removed}
                        onchange={toggle_removed} />
                    { format!(" show the {removed_count} edge(s) the last refinement removed") }
                </label>
            }
            <PcfaGraph grammar={grammar.clone()} previous={props.previous.clone()}
                method={AttrValue::from(method.clone())} busy={props.busy}
                options={DotOptions { removed: *show_removed, path: path_states(&props.path_states, &method) }} />
            { note.unwrap_or_default() }
        </div>
    }
}

/// How many edges the refinement removed from `method`'s PCFA.
fn graph_removed(graphs: &[Pcfa], method: &str) -> usize {
    graphs
        .iter()
        .find(|p| p.method == method)
        .map_or(0, |p| p.removed.len())
}

/// `names` for a sentence: `—` when empty, the first [`NAMES_LISTED`] and how many more.
fn name_list(names: &[String]) -> String {
    match names.len() {
        0 => "—".to_owned(),
        n if n <= NAMES_LISTED => names.join(", "),
        n => format!(
            "{}, … and {} more",
            names[..NAMES_LISTED].join(", "),
            n - NAMES_LISTED
        ),
    }
}

/// Names a note lists before it only counts.
const NAMES_LISTED: usize = 12;

#[wasm_bindgen]
extern "C" {
    /// `cfpGraph.render(host, dot, opts)` of `web/js/graph.js`; throws (an `Err` here)
    /// when the global is missing or the arguments are wrong.
    #[wasm_bindgen(catch, js_namespace = cfpGraph, js_name = render)]
    fn graph_render(host: &web_sys::Element, dot: &str, opts: &JsValue) -> Result<(), JsValue>;
}

/// Why the graph is not drawn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GraphError {
    /// `graph.js` has not run yet (it loads with `defer`).
    #[error("Loading the graph renderer…")]
    Loading,
    /// `graph.js` could not be loaded, or `cfpGraph.render` threw.
    #[error("The graph cannot be drawn: {0}")]
    Failed(String),
}

/// Whether `globalThis.cfpGraph` is there, and the load error `index.html` noted if not.
fn renderer_state() -> Result<(), GraphError> {
    let global = js_sys::global();
    let get = |name: &str| js_sys::Reflect::get(&global, &JsValue::from_str(name)).ok();
    if get("cfpGraph").is_some_and(|v| v.is_object()) {
        return Ok(());
    }
    match get("cfpGraphError").and_then(|v| v.as_string()) {
        Some(e) => Err(GraphError::Failed(e)),
        None => Err(GraphError::Loading),
    }
}

/// A JS exception as text.
fn js_error_text(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}

/// A short stable key of `text` (FNV-1a, hex): the drawing says which DOT it shows.
pub fn dot_key(text: &str) -> String {
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:016x}")
}

/// Hands `dot` to `cfpGraph.render` for the element of `host`.
fn draw(host: &NodeRef, dot: &PcfaDot, method: &str) -> Result<(), GraphError> {
    let Some(el) = host.cast::<web_sys::Element>() else {
        return Ok(());
    };
    renderer_state()?;
    let opts = js_sys::Object::new();
    let set = |k: &str, v: &str| {
        // Setting a property of a fresh plain object cannot fail.
        let _ = js_sys::Reflect::set(&opts, &JsValue::from_str(k), &JsValue::from_str(v));
    };
    set("method", method);
    set("key", &dot_key(&dot.text));
    set("label", &format!("PCFA of {method}"));
    graph_render(&el, &dot.text, &opts).map_err(|e| GraphError::Failed(js_error_text(&e)))
}

/// Properties of [`PcfaGraph`].
#[derive(Properties, PartialEq)]
pub struct PcfaGraphProps {
    /// The iteration's grammar (with the PCFAs).
    pub grammar: Shared<GrammarSnapshot>,
    /// The previous iteration's (where the ends of removed edges were).
    pub previous: Option<Shared<GrammarSnapshot>>,
    /// The method drawn.
    pub method: AttrValue,
    /// A run is going on (see [`PcfaViewProps::busy`]).
    #[prop_or_default]
    pub busy: bool,
    /// How to draw it.
    #[prop_or_default]
    pub options: DotOptions,
}

/// One method's PCFA, drawn by `graph.js` into a host element it owns.
#[function_component(PcfaGraph)]
pub fn pcfa_graph(props: &PcfaGraphProps) -> Html {
    let host = use_node_ref();
    let error = use_state(|| None::<GraphError>);
    // Bumped when graph.js announces itself, to draw what waited for it.
    let ready = use_state(|| 0_u32);
    let dot = use_memo(
        (
            props.grammar.clone(),
            props.previous.clone(),
            props.method.clone(),
            props.options.clone(),
        ),
        |(grammar, previous, method, options)| {
            let before = previous
                .as_ref()
                .and_then(|g| g.pcfas.iter().find(|p| p.method == method.as_str()));
            grammar
                .pcfas
                .iter()
                .find(|p| p.method == method.as_str())
                .map(|g| pcfa_dot(g, before, options))
        },
    );
    {
        let ready = ready.clone();
        use_effect_with((), move |()| {
            let listener =
                EventListener::once(&gloo::utils::window(), "cfp-graph-ready", move |_| {
                    ready.set(*ready + 1);
                });
            move || drop(listener)
        });
    }
    // States and edges of the graph to draw; a large one waits while a run is busy.
    let size = props
        .grammar
        .pcfas
        .iter()
        .find(|p| p.method == props.method.as_str())
        .map_or(0, |p| p.states.len() + p.edges.len());
    let deferred = props.busy && size > LIVE_DRAW_MAX;
    {
        let host = host.clone();
        let error = error.clone();
        let method = props.method.clone();
        use_effect_with(
            (Rc::clone(&dot), *ready, deferred),
            move |(dot, _, deferred)| {
                if *deferred {
                    return;
                }
                let outcome = match dot.as_ref() {
                    Some(dot) => draw(&host, dot, &method).err(),
                    None => None,
                };
                if *error != outcome {
                    error.set(outcome);
                }
            },
        );
    }
    let key = dot.as_ref().as_ref().map(|d| dot_key(&d.text));
    let hidden = dot.as_ref().as_ref().map_or(0, |d| d.removed_hidden);
    let collapsed = dot.as_ref().as_ref().map_or(0, |d| d.collapsed);
    html! {
        <>
            <div class="pcfa-graph" ref={host} data-method={props.method.clone()} data-dot={key}></div>
            if let Some(e) = (*error).clone() {
                <p class={classes!("small", if e == GraphError::Loading { "muted" } else { "error" })}
                   data-testid="pcfa-graph-error">{ e.to_string() }</p>
            }
            if deferred {
                <p class="muted small" data-testid="pcfa-deferred" role="status">
                    { format!("This graph ({size} states and edges) is drawn when the run ends or pauses: drawing it would stall the page while the run goes on.") }
                </p>
            }
            if collapsed > 0 {
                <p class="muted small" data-testid="pcfa-collapsed">
                    { format!("{collapsed} state(s) with nothing new are collapsed into dotted edges (hover one for its states); the path's states are bold.") }
                </p>
            }
            if hidden > 0 {
                <p class="muted small" data-testid="pcfa-removed-hidden">
                    { format!("{hidden} removed edge(s) not drawn (more than {} removed, or an end unknown).", dot::MAX_REMOVED_DRAWN) }
                </p>
            }
        </>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_lists_are_capped() {
        assert_eq!(name_list(&[]), "—");
        let names: Vec<String> = (0..NAMES_LISTED + 3).map(|i| format!("n{i}")).collect();
        assert_eq!(name_list(&names[..2]), "n0, n1");
        let long = name_list(&names);
        assert!(long.ends_with(", … and 3 more"), "{long}");
        assert!(long.starts_with("n0, n1, "));
    }

    #[test]
    fn dot_keys_differ_by_text_and_are_stable() {
        assert_eq!(dot_key("digraph {}"), dot_key("digraph {}"));
        assert_ne!(dot_key("digraph {}"), dot_key("digraph { }"));
        assert_eq!(dot_key("").len(), 16);
    }
}
