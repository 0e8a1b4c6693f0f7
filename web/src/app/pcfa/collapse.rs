//! Large PCFAs, made readable: runs of states that tell nothing new — not cloned, not on
//! the counterexample's path, not an end of a drawn removed edge, with one edge in and
//! one edge out — are drawn as one dotted edge ("⋯ 4 states") between the states around
//! them. Small graphs are drawn whole.

use super::super::messages::PcfaView;
use std::collections::{BTreeMap, BTreeSet};

/// Graphs with more live states than this get their quiet runs collapsed.
pub const COLLAPSE_MIN_STATES: usize = 30;

/// A run of collapsed states between two drawn ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chain {
    /// The drawn state before the run.
    pub from: u32,
    /// The drawn state after it.
    pub to: u32,
    /// The collapsed states, in order.
    pub states: Vec<u32>,
    /// The id of the run's first edge (names the drawn edge).
    pub first_edge: u32,
    /// The ids of every edge of the run (not drawn one by one).
    pub edges: Vec<u32>,
}

/// What is collapsed: the states not drawn, and the runs drawn as one edge each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Collapsed {
    /// States not drawn.
    pub hidden: BTreeSet<u32>,
    /// The runs.
    pub chains: Vec<Chain>,
}

/// The quiet runs of `graph`; `keep` are states that must be drawn (the path, the ends
/// of drawn removed edges). Nothing for graphs of at most [`COLLAPSE_MIN_STATES`] states.
pub fn collapse(graph: &PcfaView, keep: &BTreeSet<u32>) -> Collapsed {
    if graph.states.len() <= COLLAPSE_MIN_STATES {
        return Collapsed::default();
    }
    let mut ins: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    let mut outs: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (i, e) in graph.edges.iter().enumerate() {
        outs.entry(e.from).or_default().push(i);
        ins.entry(e.to).or_default().push(i);
    }
    let degree = |m: &BTreeMap<u32, Vec<usize>>, s: u32| m.get(&s).map_or(0, Vec::len);
    let quiet: BTreeSet<u32> = graph
        .states
        .iter()
        .map(|s| s.id)
        .filter(|id| {
            !keep.contains(id)
                && !graph.cloned.contains(id)
                && !graph.entry.contains(id)
                && !graph.exits.contains(id)
                && degree(&ins, *id) == 1
                && degree(&outs, *id) == 1
        })
        .collect();
    let mut out = Collapsed::default();
    // Each run starts at an edge from a drawn state into a quiet one.
    for e in &graph.edges {
        if quiet.contains(&e.from) || !quiet.contains(&e.to) {
            continue;
        }
        let mut states = Vec::new();
        let mut edges = vec![e.id];
        let mut at = e.to;
        while quiet.contains(&at) && !states.contains(&at) {
            states.push(at);
            let Some(&next) = outs.get(&at).and_then(|v| v.first()) else {
                break;
            };
            let next = &graph.edges[next];
            edges.push(next.id);
            at = next.to;
        }
        // A run of one state is drawn as it is (collapsing it saves nothing).
        if states.len() < 2 || quiet.contains(&at) {
            continue;
        }
        out.hidden.extend(states.iter().copied());
        out.chains.push(Chain {
            from: e.from,
            to: at,
            states,
            first_edge: e.id,
            edges,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::messages::{PcfaEdgeView, PcfaStateView};

    fn chain_graph(n: u32) -> PcfaView {
        PcfaView {
            method: "M.m".into(),
            states: (0..=n)
                .map(|id| PcfaStateView {
                    id,
                    location: id as usize,
                    clone: 0,
                    name: format!("n{id}"),
                    predicates: Vec::new(),
                })
                .collect(),
            edges: (0..n)
                .map(|i| PcfaEdgeView {
                    id: 100 + i,
                    from: i,
                    to: i + 1,
                    statement: "x := 1".into(),
                    line: 1,
                })
                .collect(),
            entry: vec![0],
            exits: vec![n],
            cloned: vec![10],
            removed: vec![],
        }
    }

    #[test]
    fn quiet_runs_of_a_large_graph_become_one_edge() {
        let g = chain_graph(40);
        let keep: BTreeSet<u32> = [20].into();
        let c = collapse(&g, &keep);
        // 0 | 1..=9 | 10 (cloned) | 11..=19 | 20 (kept) | 21..=39 | 40 (exit)
        let runs: Vec<(u32, u32, usize)> = c
            .chains
            .iter()
            .map(|ch| (ch.from, ch.to, ch.states.len()))
            .collect();
        assert_eq!(runs, [(0, 10, 9), (10, 20, 9), (20, 40, 19)]);
        assert!(!c.hidden.contains(&10) && !c.hidden.contains(&20));
        assert_eq!(c.chains[0].edges.len(), 10);
    }

    #[test]
    fn small_graphs_are_drawn_whole() {
        assert_eq!(
            collapse(&chain_graph(10), &BTreeSet::new()),
            Collapsed::default()
        );
    }
}
