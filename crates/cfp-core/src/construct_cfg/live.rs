//! The live states of a sub-grammar: those on a path from an entry to its exit.

use crate::pcfa::{Pcfa, StateId};

/// States on some path from an entry state to `exit` (indexed by state id).
pub(super) fn live_states(pcfa: &Pcfa, exit: StateId) -> Vec<bool> {
    let n = pcfa.state_capacity();
    let mut bwd = vec![false; n];
    let mut stack = Vec::new();
    if pcfa.state(exit).is_some() {
        bwd[exit.index()] = true;
        stack.push(exit);
    }
    while let Some(s) = stack.pop() {
        for &e in pcfa.in_edges(s) {
            if let Some(edge) = pcfa.edge(e) {
                if let Some(seen) = bwd.get_mut(edge.from.index()) {
                    if !*seen {
                        *seen = true;
                        stack.push(edge.from);
                    }
                }
            }
        }
    }
    let mut live = vec![false; n];
    for &s in pcfa.entry_states() {
        if bwd.get(s.index()).copied().unwrap_or(false) && !live[s.index()] {
            live[s.index()] = true;
            stack.push(s);
        }
    }
    while let Some(s) = stack.pop() {
        for &e in pcfa.out_edges(s) {
            if let Some(edge) = pcfa.edge(e) {
                let t = edge.to.index();
                if bwd.get(t).copied().unwrap_or(false) && !live[t] {
                    live[t] = true;
                    stack.push(edge.to);
                }
            }
        }
    }
    live
}
