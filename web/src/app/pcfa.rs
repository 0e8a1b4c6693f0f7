//! PCFA view (paper §4, Fig. 7/9): one graph per method, drawn as SVG laid out here.
//!
//! Each `grammar-built` event carries every method's PCFA as the core built it
//! ([`cfp_core::check::PcfaView`]): states and edges with their ids (never reused), and
//! the states the refinement before this iteration cloned and the edges it removed. The
//! view draws exactly those: cloned states pop in (`pcfa-cloned`, `data-state-id`),
//! removed edges fade out (`pcfa-removed`, `data-edge-id`), between states placed as in
//! the previous iteration when they are gone now (`pcfa-dead`).
//!
//! States sit in rows by CFA location, clones side by side. Positions are CSS transforms
//! with transitions, elements are keyed by state id, so between iterations states glide
//! to their new places.

use super::messages::{PcfaEdgeView, PcfaStateView, PcfaView as Pcfa};
use super::model::{GrammarSnapshot, Refinement, Shared};
use std::collections::BTreeMap;
use yew::prelude::*;

/// Pixel positions of `states` by id: rows by CFA location, clones side by side (by
/// clone ordinal).
pub fn layout<'a>(states: impl Iterator<Item = &'a PcfaStateView>) -> BTreeMap<u32, (f64, f64)> {
    let mut rows: BTreeMap<usize, Vec<&PcfaStateView>> = BTreeMap::new();
    for s in states {
        rows.entry(s.location).or_default().push(s);
    }
    let mut pos = BTreeMap::new();
    for (row, (_, mut states)) in rows.into_iter().enumerate() {
        states.sort_by_key(|s| (s.clone, s.id));
        for (col, s) in states.iter().enumerate() {
            pos.insert(s.id, (40.0 + col as f64 * 90.0, 30.0 + row as f64 * 64.0));
        }
    }
    pos
}

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
}

/// PCFA graphs of the selected iteration, one method at a time.
#[function_component(PcfaView)]
pub fn pcfa_view(props: &PcfaViewProps) -> Html {
    let selected = use_state(|| None::<String>);
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
    let tabs = graphs.iter().map(|p| {
        let sel = selected.clone();
        let name = p.method.clone();
        let class = classes!(
            "tab",
            (p.method == method).then_some("selected"),
            (change_count(p) > 0).then_some("changed")
        );
        html! {
            <button class={class} onclick={Callback::from(move |_| sel.set(Some(name.clone())))}>
                { p.method.clone() }
            </button>
        }
    });
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
                    clones.len(), if clones.is_empty() { "—".to_owned() } else { clones.join(", ") },
                    edges.len(), if edges.is_empty() { "—".to_owned() } else { edges.join(", ") },
                    predicates) }
            </p>
        }
    });
    html! {
        <div class="pcfa">
            <div class="tabs">{ for tabs }</div>
            { render_graph(graph, previous) }
            { note.unwrap_or_default() }
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

fn render_graph(graph: &Pcfa, previous: Option<&Pcfa>) -> Html {
    // Removed edges stay drawn (fading); an end that is gone now keeps its old place.
    let live: BTreeMap<u32, &PcfaStateView> = graph.states.iter().map(|s| (s.id, s)).collect();
    let mut dead: BTreeMap<u32, &PcfaStateView> = BTreeMap::new();
    for e in &graph.removed {
        for id in [e.from, e.to] {
            if !live.contains_key(&id) {
                if let Some(s) = previous.and_then(|p| p.states.iter().find(|s| s.id == id)) {
                    dead.insert(id, s);
                }
            }
        }
    }
    let pos = layout(live.values().chain(dead.values()).copied());
    let width = pos.values().map(|p| p.0).fold(0.0, f64::max) + 120.0;
    let height = pos.values().map(|p| p.1).fold(0.0, f64::max) + 50.0;
    let edge = |e: &PcfaEdgeView, gone: bool| -> Option<Html> {
        let a = *pos.get(&e.from)?;
        let b = *pos.get(&e.to)?;
        let d = edge_path(a, b, e.from == e.to);
        let class = classes!("pcfa-edge", gone.then_some("pcfa-removed"));
        let label_pos = ((a.0 + b.0) / 2.0 + 6.0, (a.1 + b.1) / 2.0 - 4.0);
        let title = if e.line > 0 {
            format!("L{}: {}", e.line, e.statement)
        } else {
            e.statement.clone()
        };
        Some(html! {
            <g key={format!("e{}", e.id)} class={class} data-edge-id={e.id.to_string()}
               data-testid={gone.then_some("pcfa-removed")}>
                <title>{ title }</title>
                <path d={d} marker-end="url(#arrow)" />
                if !e.statement.is_empty() && e.statement != "skip" {
                    <text x={format!("{:.1}", label_pos.0)} y={format!("{:.1}", label_pos.1)} class="pcfa-label">
                        { truncate(&e.statement, 28) }
                    </text>
                }
            </g>
        })
    };
    let edges = graph
        .edges
        .iter()
        .filter_map(|e| edge(e, false))
        .chain(graph.removed.iter().filter_map(|e| edge(e, true)))
        .collect::<Vec<_>>();
    let states = live
        .values()
        .map(|s| (*s, false))
        .chain(dead.values().map(|s| (*s, true)))
        .filter_map(|(s, is_dead)| {
            let (x, y) = *pos.get(&s.id)?;
            let is_new = graph.cloned.contains(&s.id);
            let class = classes!(
                "pcfa-state",
                is_new.then_some("pcfa-cloned"),
                is_dead.then_some("pcfa-dead"),
                graph.exits.contains(&s.id).then_some("pcfa-exit"),
                graph.entry.contains(&s.id).then_some("pcfa-entry"),
                (s.clone > 0).then_some("pcfa-clone"),
            );
            let title = if s.predicates.is_empty() {
                format!("{} (location {}): true", s.name, s.location)
            } else {
                format!(
                    "{} (location {}): {}",
                    s.name,
                    s.location,
                    s.predicates.join(" ∧ ")
                )
            };
            Some(html! {
                <g key={format!("s{}", s.id)} class={class} data-state-id={s.id.to_string()}
                   data-testid={is_new.then_some("pcfa-cloned")}
                   style={format!("transform: translate({x:.1}px, {y:.1}px)")}>
                    <title>{ title }</title>
                    <circle r="16" />
                    <text text-anchor="middle" dy="4">{ s.name.clone() }</text>
                </g>
            })
        });
    html! {
        <svg class="pcfa-svg" data-method={graph.method.clone()}
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

    fn state(id: u32, location: usize, clone: u32) -> PcfaStateView {
        PcfaStateView {
            id,
            location,
            clone,
            name: if clone == 0 {
                format!("n{location}")
            } else {
                format!("n{location}#{clone}")
            },
            predicates: Vec::new(),
        }
    }

    #[test]
    fn clones_share_their_locations_row() {
        let states = [
            state(0, 0, 0),
            state(1, 1, 0),
            state(5, 1, 1),
            state(2, 2, 0),
        ];
        let pos = layout(states.iter());
        assert_eq!(pos.len(), 4);
        assert_eq!(pos[&1].1, pos[&5].1);
        assert!(pos[&5].0 > pos[&1].0);
        assert!(pos[&2].1 > pos[&1].1);
    }
}
