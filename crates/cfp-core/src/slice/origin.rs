//! Where a slice's ids came from, to report a violation found on a slice in the
//! program's own terms: the replay edges and initial globals of a counterexample
//! ([`crate::check::Violation`]) name the program's methods, CFA edges and globals, so
//! that `PathOracle` replays them on the program that was given, not on its slice.

use crate::check::ReplayEdge;
use crate::ir::{Edge, Program, Sort, Stmt};
use petgraph::graph::EdgeIndex;
use petgraph::visit::EdgeRef;
use std::collections::BTreeSet;

/// Id maps from a slice back to its program.
#[derive(Clone, Debug, Default)]
pub struct Origin {
    /// The program's method index of each slice method.
    pub(super) methods: Vec<usize>,
    /// The program's global index of each slice global.
    pub(super) globals: Vec<usize>,
    /// For each slice method and CFA edge: the program's CFA edges it stands for, in
    /// execution order (the slicer drops statements and simplification merges edges).
    pub(super) edges: Vec<Vec<Vec<usize>>>,
    /// The program's calls the slice summarised away: `(method, edge)`.
    pub(super) dropped: BTreeSet<(usize, usize)>,
    /// Their callees.
    pub(super) dropped_callees: std::collections::BTreeMap<(usize, usize), usize>,
    /// For each program method: whether every run of it returns ([`total_methods`]).
    pub(super) total: Vec<bool>,
}

/// The program's methods every run of which returns: an acyclic CFA whose exit is reached,
/// without `assume` or a division that may be by zero (so every path can run), whose
/// calls go to such methods (so no recursion). A call of
/// one, summarised away, hides no blocked or endless run.
pub(super) fn total_methods(p: &Program) -> Vec<bool> {
    let mut total = vec![false; p.methods.len()];
    loop {
        let mut changed = false;
        for (i, m) in p.methods.iter().enumerate() {
            // A method whose exit cannot be reached (an endless loop: the lowering keeps
            // only edges on entry-exit paths, so it may have none) never returns.
            let returns = m.entry == m.exit
                || petgraph::algo::has_path_connecting(&m.graph, m.entry, m.exit, None);
            // A method that may end by throwing does not always return.
            if total[i]
                || !returns
                || m.throw_exit.is_some()
                || petgraph::algo::is_cyclic_directed(&m.graph)
            {
                continue;
            }
            let ok = m.edges().all(|(_, _, e)| match e {
                Edge::Block(stmts) => !stmts.iter().any(|s| match &s.node {
                    Stmt::Assume(_) => true,
                    Stmt::Assign { expr, .. } => super::relevance::may_block(expr),
                    Stmt::Havoc(_)
                    | Stmt::Alloc { .. }
                    | Stmt::Approx(_)
                    | Stmt::Opaque { .. }
                    | Stmt::Leave => false,
                }),
                Edge::Call { callee, .. } => total.get(callee.index()).copied().unwrap_or(false),
                Edge::ApiCall { .. } | Edge::Api { .. } => false,
            });
            if ok {
                total[i] = true;
                changed = true;
            }
        }
        if !changed {
            return total;
        }
    }
}

/// A call of the slice whose callee runs: what the caller executes once it returns.
struct Frame {
    method: usize,
    after: Vec<usize>,
    returns_too: bool,
}

impl Origin {
    fn is_call(p: &Program, method: usize, edge: usize) -> bool {
        p.methods.get(method).is_some_and(|m| {
            matches!(
                m.graph.edge_weight(EdgeIndex::new(edge)),
                Some(Edge::Call { .. })
            )
        })
    }

    /// The callee of the program's call edge `(method, edge)`, when it is one.
    fn callee(p: &Program, method: usize, edge: usize) -> Option<usize> {
        match p
            .methods
            .get(method)?
            .graph
            .edge_weight(EdgeIndex::new(edge))?
        {
            Edge::Call { callee, .. } => Some(callee.index()),
            _ => None,
        }
    }

    /// Whether the program's call `(method, edge)` (one the slice dropped) goes to a
    /// method that always returns.
    pub(super) fn callee_total(&self, method: usize, edge: usize) -> bool {
        self.dropped_callees
            .get(&(method, edge))
            .and_then(|c| self.total.get(*c).copied())
            .unwrap_or(false)
    }

    /// Replay edges for a run of the total program method `m`: its first path from entry
    /// to exit, each call followed by such a run of the callee.
    fn some_run(&self, p: &Program, m: usize, out: &mut Vec<ReplayEdge>) -> Option<()> {
        if !self.total.get(m).copied().unwrap_or(false) {
            return None;
        }
        let cfa = p.methods.get(m)?;
        let mut at = cfa.entry;
        while at != cfa.exit {
            let e = cfa.graph.edges(at).min_by_key(|e| e.id().index())?;
            out.push(ReplayEdge {
                method: m,
                edge: e.id().index(),
            });
            if let Edge::Call { callee, .. } = e.weight() {
                self.some_run(p, callee.index(), out)?;
            }
            at = e.target();
        }
        Some(())
    }

    /// Replay edges for the program edges `edges` of method `m`, a run of the callee
    /// after each summarised call.
    fn expand(
        &self,
        p: &Program,
        m: usize,
        edges: &[usize],
        out: &mut Vec<ReplayEdge>,
    ) -> Option<()> {
        for &edge in edges {
            out.push(ReplayEdge { method: m, edge });
            if self.dropped.contains(&(m, edge)) {
                self.some_run(p, Self::callee(p, m, edge)?, out)?;
            }
        }
        Some(())
    }

    /// The program's replay edges for the slice's `edges` (calls included, returns
    /// implicit); `None` when they do not fit the slice (no such edge, a summarised call
    /// whose callee may not return).
    pub fn replay_edges(
        &self,
        slice: &Program,
        original: &Program,
        edges: &[ReplayEdge],
    ) -> Option<Vec<ReplayEdge>> {
        let mut out = Vec::with_capacity(edges.len());
        let mut stack: Vec<Frame> = Vec::new();
        for step in edges {
            let cfa = slice.methods.get(step.method)?;
            let om = *self.methods.get(step.method)?;
            let origin = self.edges.get(step.method)?.get(step.edge)?;
            let ix = EdgeIndex::new(step.edge);
            let (_, target) = cfa.graph.edge_endpoints(ix)?;
            let mut returned = cfa.is_exit(target);
            if let Some(Edge::Call { callee, .. }) = cfa.graph.edge_weight(ix) {
                // The program's kept call among the origins: what precedes it runs before
                // the callee, what follows once it has returned.
                let at = origin.iter().position(|&oe| {
                    Self::is_call(original, om, oe) && !self.dropped.contains(&(om, oe))
                })?;
                self.expand(original, om, &origin[..=at], &mut out)?;
                let callee_cfa = slice.methods.get(callee.index())?;
                stack.push(Frame {
                    method: om,
                    after: origin[at + 1..].to_vec(),
                    returns_too: returned,
                });
                // A callee without edges returns at once.
                returned = callee_cfa.entry == callee_cfa.exit;
                if !returned {
                    continue;
                }
            } else {
                self.expand(original, om, origin, &mut out)?;
            }
            while returned {
                let Some(f) = stack.pop() else { break };
                self.expand(original, f.method, &f.after, &mut out)?;
                returned = f.returns_too;
            }
        }
        Some(out)
    }

    /// True when the slice's path `edges` runs through a call the slice summarised away
    /// whose callee may not return (a loop, recursion, an `assume`): only then may the
    /// path be infeasible in the program. Edges that do not fit the slice count as such.
    pub fn runs_summarised_call(&self, original: &Program, edges: &[ReplayEdge]) -> bool {
        edges.iter().any(|step| {
            let (Some(&om), Some(origin)) = (
                self.methods.get(step.method),
                self.edges.get(step.method).and_then(|m| m.get(step.edge)),
            ) else {
                return true;
            };
            origin.iter().any(|&oe| {
                self.dropped.contains(&(om, oe))
                    && !Self::callee(original, om, oe)
                        .and_then(|c| self.total.get(c).copied())
                        .unwrap_or(false)
            })
        })
    }

    /// The program's initial globals (in its order, `None` where unknown or sliced away)
    /// from the slice's. Objects are left `None`: the slice allocates fewer of them (an
    /// allocation nothing reads is dropped), so its object numbers are not the program's.
    pub fn globals(&self, original: &Program, slice_globals: &[Option<i64>]) -> Vec<Option<i64>> {
        let mut out = vec![None; original.globals.len()];
        for (k, v) in slice_globals.iter().enumerate() {
            let Some(&g) = self.globals.get(k) else {
                continue;
            };
            let is_object = original.globals.get(g).is_some_and(|d| d.sort == Sort::Ref);
            if let (Some(slot), false) = (out.get_mut(g), is_object) {
                *slot = *v;
            }
        }
        out
    }
}
