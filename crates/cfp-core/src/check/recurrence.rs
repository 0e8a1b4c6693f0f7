//! Where the spurious paths keep coming back: what an `unknown` names as the place that
//! kept the refinement going.
//!
//! Refinement diverges in a recognisable way: each round's spurious path goes around a
//! loop (or down a recursion) once more than the last, and each round learns a fact about
//! that one unrolling (`i = 0`, then `i = 1`, …). For every spurious path the checker
//! counts, per loop, how often the path takes the loop's back edge (the edge that returns
//! to the loop head in a depth-first search of the method's CFA from its entry), and per
//! recursive call site, how often the path calls a method that is already on its call
//! stack. A site *recurs* when its count reached a new maximum in at least
//! [`MIN_NEW_MAXIMA`] paths and is still at least 2 in the last one: that is the loop or
//! call the `unknown` names, with the counts, instead of a list of paths.

use super::{Checker, RecurringKind, RecurringSite};
use crate::ir::{MethodId, Program};
use crate::nested_path::{PathStep, StepKind};
use cfp_smt::Solver;
use petgraph::graph::{EdgeIndex, NodeIndex};
use petgraph::visit::{depth_first_search, DfsEvent, EdgeRef};
use std::collections::{BTreeMap, BTreeSet};

/// New maxima a site's count needs before it is said to recur.
const MIN_NEW_MAXIMA: usize = 3;
/// How many of the last paths are kept.
const HISTORY: usize = 64;

/// A place paths go around: a loop (its head) or a recursive call (its call edge).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Site {
    /// The loop whose head is `head` in `method`.
    Loop {
        /// The method.
        method: MethodId,
        /// The loop head (target of a back edge).
        head: NodeIndex,
    },
    /// The call edge `edge` of `method` calling a method already on the stack.
    Recursion {
        /// The caller.
        method: MethodId,
        /// The CFA call edge.
        edge: EdgeIndex,
    },
}

/// The counts of the spurious paths seen so far.
#[derive(Debug, Default)]
pub(super) struct Recurrence {
    /// Per method, its back edges (built on first use).
    back_edges: BTreeMap<MethodId, BTreeSet<EdgeIndex>>,
    /// Per spurious path (iteration, counts per site), the last [`HISTORY`].
    history: Vec<(u32, BTreeMap<Site, u32>)>,
}

/// A site that recurs, with its counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Recurring {
    /// Where.
    pub site: Site,
    /// (iteration, count) for every path that went through it, oldest first.
    pub counts: Vec<(u32, u32)>,
}

impl Recurrence {
    /// Count the loops and recursive calls of iteration `it`'s spurious path `steps`.
    pub fn note(&mut self, program: &Program, it: u32, steps: &[PathStep]) {
        let mut counts: BTreeMap<Site, u32> = BTreeMap::new();
        let mut stack: Vec<MethodId> = Vec::new();
        for s in steps {
            match s.kind {
                StepKind::Intra { method, edge } | StepKind::Api { method, edge, .. } => {
                    if stack.is_empty() {
                        stack.push(method);
                    }
                    if self.is_back_edge(program, method, edge) {
                        let head = program
                            .method(method)
                            .and_then(|c| c.graph.edge_endpoints(edge))
                            .map(|(_, to)| to);
                        if let Some(head) = head {
                            *counts.entry(Site::Loop { method, head }).or_default() += 1;
                        }
                    }
                }
                StepKind::Call {
                    caller,
                    edge,
                    callee,
                    ..
                } => {
                    if stack.is_empty() {
                        stack.push(caller);
                    }
                    if stack.contains(&callee) {
                        let site = Site::Recursion {
                            method: caller,
                            edge,
                        };
                        *counts.entry(site).or_default() += 1;
                    }
                    stack.push(callee);
                }
                StepKind::Return { .. } => {
                    stack.pop();
                }
            }
        }
        self.history.push((it, counts));
        if self.history.len() > HISTORY {
            self.history.remove(0);
        }
    }

    /// The sites that recur (see the module doc), in site order.
    pub fn recurring(&self) -> Vec<Recurring> {
        let Some((_, last)) = self.history.last() else {
            return Vec::new();
        };
        last.iter()
            .filter(|(_, &n)| n >= 2)
            .filter_map(|(site, _)| {
                let counts: Vec<(u32, u32)> = self
                    .history
                    .iter()
                    .filter_map(|(it, c)| c.get(site).map(|n| (*it, *n)))
                    .collect();
                let mut best = 0;
                let mut maxima = 0;
                for (_, n) in &counts {
                    if *n > best {
                        best = *n;
                        maxima += 1;
                    }
                }
                (maxima >= MIN_NEW_MAXIMA).then_some(Recurring {
                    site: *site,
                    counts,
                })
            })
            .collect()
    }

    fn is_back_edge(&mut self, program: &Program, method: MethodId, edge: EdgeIndex) -> bool {
        self.back_edges
            .entry(method)
            .or_insert_with(|| back_edges(program, method))
            .contains(&edge)
    }
}

/// The back edges of `method`'s CFA: edges to a node on the depth-first search stack,
/// searching from the entry.
fn back_edges(program: &Program, method: MethodId) -> BTreeSet<EdgeIndex> {
    let Some(cfa) = program.method(method) else {
        return BTreeSet::new();
    };
    let mut pairs: BTreeSet<(NodeIndex, NodeIndex)> = BTreeSet::new();
    depth_first_search(&cfa.graph, Some(cfa.entry), |e| {
        if let DfsEvent::BackEdge(u, v) = e {
            pairs.insert((u, v));
        }
    });
    cfa.graph
        .edge_references()
        .filter(|e| pairs.contains(&(e.source(), e.target())))
        .map(|e| e.id())
        .collect()
}

impl<S: Solver> Checker<S> {
    /// The loops and recursive calls the spurious paths went around once more each
    /// round, in the program's terms.
    pub(super) fn recurring_sites(&self) -> Vec<RecurringSite> {
        self.recurrence
            .recurring()
            .into_iter()
            .map(|r| {
                let (kind, method, span) = match r.site {
                    Site::Loop { method, head } => {
                        let span = self.program.method(method).and_then(|cfa| {
                            cfa.graph
                                .edges(head)
                                .map(|e| e.weight().span())
                                .filter(|s| s.end > s.start)
                                .min_by_key(|s| s.start)
                        });
                        (RecurringKind::Loop, method, span)
                    }
                    Site::Recursion { method, edge } => {
                        let span = self
                            .program
                            .method(method)
                            .and_then(|cfa| cfa.graph.edge_weight(edge))
                            .map(|e| e.span());
                        (RecurringKind::Recursion, method, span)
                    }
                };
                RecurringSite {
                    kind,
                    method: self.method_name(method),
                    at: span.map_or_else(|| "a line".to_owned(), |s| self.line_of(s)),
                    iterations: r.counts.iter().map(|(it, _)| *it).collect(),
                    passes: r.counts.iter().map(|(_, n)| *n).collect(),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(n: u32) -> BTreeMap<Site, u32> {
        let s = Site::Loop {
            method: MethodId(0),
            head: NodeIndex::new(1),
        };
        BTreeMap::from([(s, n)])
    }

    #[test]
    fn a_count_growing_each_round_recurs() {
        let mut r = Recurrence::default();
        for (it, n) in [(1, 1), (2, 2), (3, 3), (4, 4)] {
            r.history.push((it, site(n)));
        }
        let rec = r.recurring();
        assert_eq!(rec.len(), 1);
        assert_eq!(rec[0].counts.last(), Some(&(4, 4)));
    }

    #[test]
    fn a_loop_taken_twice_every_round_does_not() {
        let mut r = Recurrence::default();
        for it in 1..=6 {
            r.history.push((it, site(2)));
        }
        assert!(r.recurring().is_empty());
    }
}
