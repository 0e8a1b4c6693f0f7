//! PCFA view (paper §4, Fig. 7/9): one graph per method, drawn as SVG laid out here.
//!
//! The events carry no explicit PCFA (no state list, no edge list), but ConstructCFG
//! names one nonterminal per live PCFA state — `Method:n<loc>[#<clone>][@e<k>]` — and one
//! production per PCFA edge (`Method:nA -> <call or terminal>* Method:nB`, or `-> ε` at an
//! exit). [`pcfas_from_grammar`] rebuilds the live part of each PCFA from that; the
//! `refined` event's `clones_added` / `edges_removed` (state *indices*, which are not
//! recoverable from the names) are listed next to the drawing.
//!
//! States sit in rows by CFA location, clones side by side. Positions are CSS transforms
//! with transitions, elements are keyed by state name, so between iterations states glide
//! to their new places, new states pop in (`pcfa-cloned`) and edges gone since the
//! previous iteration fade out (`pcfa-removed`).

use super::model::{GrammarSnapshot, Refinement, Shared};
use std::collections::{BTreeMap, BTreeSet};
use yew::prelude::*;

/// A PCFA state as named in the grammar: CFA location and clone number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StateName {
    /// CFA location.
    pub loc: usize,
    /// Clone number (0 = the original state).
    pub clone: usize,
}

impl StateName {
    /// `n3` or `n3#1`.
    pub fn label(&self) -> String {
        if self.clone == 0 {
            format!("n{}", self.loc)
        } else {
            format!("n{}#{}", self.loc, self.clone)
        }
    }
}

/// A PCFA edge between two states, labelled with what it calls or emits.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct PcfaEdge {
    /// Source.
    pub from: StateName,
    /// Target.
    pub to: StateName,
    /// Calls/terminals on the edge (empty = internal step).
    pub label: String,
}

/// The live part of one method's PCFA.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PcfaGraph {
    /// States.
    pub states: BTreeSet<StateName>,
    /// Exit states (with an `ε` production).
    pub exits: BTreeSet<StateName>,
    /// Edges (deduplicated over exit contexts).
    pub edges: BTreeSet<PcfaEdge>,
}

/// Splits `Method:n4#1@e2` into (`Method`, state); `None` for other nonterminals.
pub fn parse_state_nonterminal(name: &str) -> Option<(&str, StateName)> {
    let colon = name.rfind(':')?;
    let (method, rest) = (&name[..colon], &name[colon + 1..]);
    let rest = rest.strip_prefix('n')?;
    let rest = match rest.find('@') {
        Some(i) => &rest[..i],
        None => rest,
    };
    let (loc, clone) = match rest.split_once('#') {
        Some((l, c)) => (l.parse().ok()?, c.parse().ok()?),
        None => (rest.parse().ok()?, 0),
    };
    if method.is_empty() {
        return None;
    }
    Some((method, StateName { loc, clone }))
}

/// Shortens a callee nonterminal (`Main.release@n0#1`, `Main.acquire@e1`) for an edge label.
fn short_symbol(sym: &str) -> String {
    let base = match sym.find(['@', '>']) {
        Some(i) if i > 0 => &sym[..i],
        _ => sym,
    };
    base.rsplit('.').next().unwrap_or(base).to_owned()
        + if base.starts_with('$') { "" } else { "()" }
}

/// Rebuilds the live PCFA of each method from a rendered grammar.
pub fn pcfas_from_grammar(text: &str) -> BTreeMap<String, PcfaGraph> {
    let mut out: BTreeMap<String, PcfaGraph> = BTreeMap::new();
    for line in text.lines() {
        let line = line.trim().trim_end_matches(';');
        let Some((lhs, rhs)) = line.split_once(" -> ") else {
            continue;
        };
        let Some((method, from)) = parse_state_nonterminal(lhs.trim()) else {
            continue;
        };
        let graph = out.entry(method.to_owned()).or_default();
        graph.states.insert(from);
        for alt in rhs.split(" | ") {
            let syms: Vec<&str> = alt.split_whitespace().collect();
            if syms.is_empty() || syms == ["ε"] {
                graph.exits.insert(from);
                continue;
            }
            let (last, init) = match syms.split_last() {
                Some(x) => x,
                None => continue,
            };
            match parse_state_nonterminal(last) {
                Some((m, to)) if m == method => {
                    graph.states.insert(to);
                    let label = init
                        .iter()
                        .map(|s| {
                            if s.starts_with('$') {
                                (*s).to_owned()
                            } else {
                                short_symbol(s)
                            }
                        })
                        .collect::<Vec<_>>()
                        .join(" ");
                    graph.edges.insert(PcfaEdge { from, to, label });
                }
                _ => {}
            }
        }
    }
    out
}

/// Pixel positions of a graph's states: rows by location, clones side by side.
pub fn layout(graph: &PcfaGraph) -> BTreeMap<StateName, (f64, f64)> {
    let mut rows: BTreeMap<usize, Vec<StateName>> = BTreeMap::new();
    for s in &graph.states {
        rows.entry(s.loc).or_default().push(*s);
    }
    let mut pos = BTreeMap::new();
    for (row, (_, states)) in rows.iter().enumerate() {
        for (col, s) in states.iter().enumerate() {
            pos.insert(*s, (40.0 + col as f64 * 90.0, 30.0 + row as f64 * 64.0));
        }
    }
    pos
}

/// Properties of [`PcfaView`].
#[derive(Properties, PartialEq)]
pub struct PcfaViewProps {
    /// The selected iteration's grammar.
    pub grammar: Option<Shared<GrammarSnapshot>>,
    /// The previous iteration's grammar (for "new state" / "removed edge").
    pub previous: Option<Shared<GrammarSnapshot>>,
    /// The refinement that produced this iteration (previous iteration's `refined`).
    pub refinement: Option<Shared<Refinement>>,
}

/// PCFA graphs of the selected iteration, one method at a time.
#[function_component(PcfaView)]
pub fn pcfa_view(props: &PcfaViewProps) -> Html {
    let graphs = {
        let g = props.grammar.clone();
        use_memo(g, |g| {
            g.as_ref()
                .map(|g| pcfas_from_grammar(&g.text))
                .unwrap_or_default()
        })
    };
    let previous = {
        let g = props.previous.clone();
        use_memo(g, |g| g.as_ref().map(|g| pcfas_from_grammar(&g.text)))
    };
    let selected = use_state(|| None::<String>);
    if graphs.is_empty() {
        return html! { <p class="muted">{ "No PCFA yet: run a check." }</p> };
    }
    // Default: the method that changed most since the previous iteration (new states and
    // removed edges), else the first method the last refinement touched, else the first.
    let changed: Option<String> = previous.as_ref().as_ref().and_then(|prev| {
        graphs
            .iter()
            .map(|(m, g)| {
                let score = match prev.get(m) {
                    Some(p) => {
                        g.states.difference(&p.states).count()
                            + p.edges.difference(&g.edges).count()
                    }
                    None => 0,
                };
                (score, m)
            })
            .filter(|(score, _)| *score > 0)
            .max_by(|a, b| a.0.cmp(&b.0).then_with(|| b.1.cmp(a.1)))
            .map(|(_, m)| m.clone())
    });
    let touched: Option<String> = props.refinement.as_ref().and_then(|r| {
        r.clones_added
            .first()
            .map(|c| c.method.clone())
            .or_else(|| r.edges_removed.first().map(|e| e.method.clone()))
    });
    let method = selected
        .as_ref()
        .filter(|m| graphs.contains_key(*m))
        .cloned()
        .or(changed)
        .or_else(|| touched.filter(|m| graphs.contains_key(m)))
        .or_else(|| graphs.keys().next().cloned())
        .unwrap_or_default();
    let tabs = graphs.keys().map(|m| {
        let sel = selected.clone();
        let name = m.clone();
        let class = classes!("tab", (*m == method).then_some("selected"));
        html! {
            <button class={class} onclick={Callback::from(move |_| sel.set(Some(name.clone())))}>
                { m.clone() }
            </button>
        }
    });
    let empty = PcfaGraph::default();
    let graph = graphs.get(&method).unwrap_or(&empty);
    let prev_graph = previous
        .as_ref()
        .as_ref()
        .and_then(|p| p.get(&method).cloned());
    let refinement_note = props.refinement.as_ref().map(|r| {
        let clones: Vec<String> = r
            .clones_added
            .iter()
            .filter(|c| c.method == method)
            .map(|c| c.state.to_string())
            .collect();
        let edges: Vec<String> = r
            .edges_removed
            .iter()
            .filter(|e| e.method == method)
            .map(|e| format!("{}→{}", e.from, e.to))
            .collect();
        html! {
            <p class="muted small">
                { format!("Last refinement in {method}: {} state(s) cloned (indices {}), {} edge(s) removed ({}), {} predicate(s) added overall.",
                    clones.len(), if clones.is_empty() { "—".to_owned() } else { clones.join(", ") },
                    edges.len(), if edges.is_empty() { "—".to_owned() } else { edges.join(", ") },
                    r.predicates_added) }
            </p>
        }
    });
    html! {
        <div class="pcfa">
            <div class="tabs">{ for tabs }</div>
            { render_graph(&method, graph, prev_graph.as_ref()) }
            { refinement_note.unwrap_or_default() }
        </div>
    }
}

fn edge_path(a: (f64, f64), b: (f64, f64), self_loop: bool) -> String {
    if self_loop {
        return format!(
            "M {} {} C {} {} {} {} {} {}",
            a.0 + 12.0,
            a.1 - 10.0,
            a.0 + 50.0,
            a.1 - 40.0,
            a.0 + 50.0,
            a.1 + 40.0,
            a.0 + 12.0,
            a.1 + 10.0
        );
    }
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    let (sx, sy) = (a.0 + ux * 17.0, a.1 + uy * 17.0);
    let (ex, ey) = (b.0 - ux * 19.0, b.1 - uy * 19.0);
    // Bend backward and same-row edges so they do not overlap forward ones.
    let bend = if dy <= 0.0 { 40.0 } else { 0.0 };
    let (mx, my) = ((sx + ex) / 2.0 - uy * bend, (sy + ey) / 2.0 + ux * bend);
    format!("M {sx:.1} {sy:.1} Q {mx:.1} {my:.1} {ex:.1} {ey:.1}")
}

fn render_graph(method: &str, graph: &PcfaGraph, previous: Option<&PcfaGraph>) -> Html {
    // Removed edges stay drawn (fading) when both ends are still placed.
    let mut all = graph.clone();
    let mut removed: BTreeSet<PcfaEdge> = BTreeSet::new();
    if let Some(p) = previous {
        for e in &p.edges {
            if !graph.edges.contains(e) {
                removed.insert(e.clone());
                all.states.insert(e.from);
                all.states.insert(e.to);
            }
        }
    }
    let pos = layout(&all);
    let width = pos.values().map(|p| p.0).fold(0.0, f64::max) + 120.0;
    let height = pos.values().map(|p| p.1).fold(0.0, f64::max) + 50.0;
    let edges = graph
        .edges
        .iter()
        .map(|e| (e, false))
        .chain(removed.iter().map(|e| (e, true)))
        .filter_map(|(e, gone)| {
            let a = *pos.get(&e.from)?;
            let b = *pos.get(&e.to)?;
            let d = edge_path(a, b, e.from == e.to);
            let key = format!("{}>{}>{}", e.from.label(), e.to.label(), e.label);
            let class = classes!("pcfa-edge", gone.then_some("pcfa-removed"));
            let label_pos = ((a.0 + b.0) / 2.0 + 6.0, (a.1 + b.1) / 2.0 - 4.0);
            Some(html! {
                <g key={key} class={class}>
                    <path d={d} marker-end="url(#arrow)" />
                    if !e.label.is_empty() {
                        <text x={format!("{:.1}", label_pos.0)} y={format!("{:.1}", label_pos.1)} class="pcfa-label">
                            { truncate(&e.label, 28) }
                        </text>
                    }
                </g>
            })
        });
    let states = all.states.iter().filter_map(|s| {
        let (x, y) = *pos.get(s)?;
        let is_new = previous.is_some_and(|p| !p.states.contains(s));
        let is_dead = !graph.states.contains(s);
        let class = classes!(
            "pcfa-state",
            is_new.then_some("pcfa-cloned"),
            is_dead.then_some("pcfa-dead"),
            graph.exits.contains(s).then_some("pcfa-exit"),
            (s.clone > 0).then_some("pcfa-clone"),
        );
        let testid = is_new.then_some("pcfa-cloned");
        Some(html! {
            <g key={s.label()} class={class} data-testid={testid}
               style={format!("transform: translate({x:.1}px, {y:.1}px)")}>
                <circle r="16" />
                <text text-anchor="middle" dy="4">{ s.label() }</text>
            </g>
        })
    });
    html! {
        <svg class="pcfa-svg" data-method={method.to_owned()}
             width={format!("{width:.0}")} height={format!("{height:.0}")}
             viewBox={format!("0 0 {width:.0} {height:.0}")}>
            <defs>
                <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path d="M 0 0 L 10 5 L 0 10 z" class="pcfa-arrow" />
                </marker>
            </defs>
            <g class="pcfa-edges">{ for edges }</g>
            <g class="pcfa-states">{ for states }</g>
        </svg>
    }
}

/// Cuts `s` to at most `n` characters (adding `…`).
pub fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_owned()
    } else {
        s.chars().take(n.saturating_sub(1)).collect::<String>() + "…"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_names_parse() {
        assert_eq!(
            parse_state_nonterminal("Main.foo:n1#2"),
            Some(("Main.foo", StateName { loc: 1, clone: 2 }))
        );
        assert_eq!(
            parse_state_nonterminal("Main.acquire:n3#1@e1"),
            Some(("Main.acquire", StateName { loc: 3, clone: 1 }))
        );
        assert_eq!(
            parse_state_nonterminal("<root>:n0"),
            Some(("<root>", StateName { loc: 0, clone: 0 }))
        );
        assert_eq!(parse_state_nonterminal("Main.release@n0#1"), None);
        assert_eq!(parse_state_nonterminal("Main.foo"), None);
    }

    #[test]
    fn grammar_gives_states_edges_and_exits() {
        let g = "Main.foo -> Main.foo:n0;\n\
                 Main.foo:n0 -> Main.acquire Main.foo:n1 | Main.foo:n3 | Main.acquire@e1 Main.foo:n1#1;\n\
                 Main.foo:n1#1 -> Main.foo Main.foo:n2#1;\n\
                 Main.foo:n3 -> ε;\n\
                 Main.acquire:n2 -> $1.lock() Main.acquire:n3;\n";
        let p = pcfas_from_grammar(g);
        let foo = &p["Main.foo"];
        assert!(foo.states.contains(&StateName { loc: 1, clone: 1 }));
        assert!(foo.exits.contains(&StateName { loc: 3, clone: 0 }));
        assert_eq!(foo.edges.len(), 4);
        let acq = &p["Main.acquire"];
        assert_eq!(
            acq.edges.iter().next().map(|e| e.label.as_str()),
            Some("$1.lock()")
        );
        let pos = layout(foo);
        assert_eq!(pos.len(), foo.states.len());
        // n1 and n1#1 share a row.
        assert_eq!(
            pos[&StateName { loc: 1, clone: 0 }].1,
            pos[&StateName { loc: 1, clone: 1 }].1
        );
    }
}
