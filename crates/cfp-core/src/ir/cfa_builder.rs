//! Building a method's CFA: nodes and edges in creation order, then simplification
//! (skip edges contracted, straight-line blocks merged, dead nodes dropped) and
//! renumbering into a [`MethodCfa`].

use super::*;

/// A graph under construction: nodes `0..n`, edges with their creation order.
/// [`CfaBuilder::finish`] simplifies and renumbers it.
#[derive(Clone, Debug, Default)]
pub(crate) struct CfaBuilder {
    pub nodes: usize,
    pub edges: Vec<Option<(usize, usize, Edge)>>,
    /// For each edge, the added edges (by creation order) it stands for, in execution
    /// order: itself, then what simplification merged or contracted into it.
    pub origins: Vec<Vec<usize>>,
}

impl CfaBuilder {
    pub fn node(&mut self) -> usize {
        self.nodes += 1;
        self.nodes - 1
    }

    pub fn edge(&mut self, from: usize, to: usize, e: Edge) {
        self.origins.push(vec![self.edges.len()]);
        self.edges.push(Some((from, to, e)));
    }

    /// The origins of edge `j` with those of the contracted edge `i` before or after.
    fn absorb(&mut self, j: usize, i: usize, before: bool) {
        let (Some(oi), Some(oj)) = (self.origins.get(i), self.origins.get(j)) else {
            return;
        };
        let merged = if before {
            oi.iter().chain(oj).copied().collect()
        } else {
            oj.iter().chain(oi).copied().collect()
        };
        self.origins[j] = merged;
    }

    fn live(&self) -> impl Iterator<Item = (usize, &(usize, usize, Edge))> {
        self.edges
            .iter()
            .enumerate()
            .filter_map(|(i, e)| e.as_ref().map(|e| (i, e)))
    }

    /// Drop edges not on some path from the entry to an exit (unreachable code, paths
    /// that never complete — they produce no word).
    fn prune(&mut self, entry: usize, exits: Exits) {
        let mut fwd = vec![false; self.nodes];
        let mut bwd = vec![false; self.nodes];
        let mut out: Vec<Vec<usize>> = vec![Vec::new(); self.nodes];
        let mut inc: Vec<Vec<usize>> = vec![Vec::new(); self.nodes];
        for (_, (a, b, _)) in self.live() {
            out[*a].push(*b);
            inc[*b].push(*a);
        }
        let mut stack = vec![entry];
        fwd[entry] = true;
        while let Some(n) = stack.pop() {
            for &m in &out[n] {
                if !fwd[m] {
                    fwd[m] = true;
                    stack.push(m);
                }
            }
        }
        for x in [Some(exits.normal), exits.throw].into_iter().flatten() {
            stack.push(x);
            bwd[x] = true;
        }
        while let Some(n) = stack.pop() {
            for &m in &inc[n] {
                if !bwd[m] {
                    bwd[m] = true;
                    stack.push(m);
                }
            }
        }
        for e in self.edges.iter_mut() {
            if let Some((a, b, _)) = e {
                let keep = fwd[*a] && bwd[*a] && fwd[*b] && bwd[*b];
                if !keep {
                    *e = None;
                }
            }
        }
    }

    /// One round of simplification (linear in the graph size); true when something
    /// changed.
    fn simplify_round(&mut self, entry: usize, exits: Exits) -> bool {
        let mut changed = false;
        let mut out: Vec<Vec<usize>> = vec![Vec::new(); self.nodes];
        let mut inc: Vec<Vec<usize>> = vec![Vec::new(); self.nodes];
        for (i, (a, b, _)) in self.live() {
            out[*a].push(i);
            inc[*b].push(i);
        }
        // Duplicate parallel skips.
        for u in 0..self.nodes {
            let mut seen: Vec<usize> = Vec::new();
            let mut dropped: Vec<usize> = Vec::new();
            for &i in &out[u] {
                if let Some((_, v, e)) = &self.edges[i] {
                    if e.is_skip() {
                        if seen.contains(v) {
                            dropped.push(i);
                        } else {
                            seen.push(*v);
                        }
                    }
                }
            }
            for i in dropped {
                if let Some((a, b, _)) = self.edges[i].take() {
                    out[a].retain(|&x| x != i);
                    inc[b].retain(|&x| x != i);
                    changed = true;
                }
            }
        }
        // Contract skip edges.
        for i in 0..self.edges.len() {
            let (u, v) = match &self.edges[i] {
                Some((u, v, e)) if e.is_skip() && u != v => (*u, *v),
                _ => continue,
            };
            if u != entry && out[u].len() == 1 {
                self.edges[i] = None;
                inc[v].retain(|&x| x != i);
                for j in std::mem::take(&mut inc[u]) {
                    if let Some((_, b, _)) = &mut self.edges[j] {
                        *b = v;
                    }
                    self.absorb(j, i, false);
                    inc[v].push(j);
                }
                out[u].clear();
                changed = true;
            } else if !exits.contains(v) && inc[v].len() == 1 {
                self.edges[i] = None;
                out[u].retain(|&x| x != i);
                for j in std::mem::take(&mut out[v]) {
                    if let Some((a, _, _)) = &mut self.edges[j] {
                        *a = u;
                    }
                    self.absorb(j, i, true);
                    out[u].push(j);
                }
                inc[v].clear();
                changed = true;
            }
        }
        // Merge straight-line chains of blocks.
        for n in 0..self.nodes {
            if n == entry || exits.contains(n) || inc[n].len() != 1 || out[n].len() != 1 {
                continue;
            }
            let (i, o) = (inc[n][0], out[n][0]);
            if i == o {
                continue;
            }
            let both_blocks = matches!(
                (&self.edges[i], &self.edges[o]),
                (Some((_, _, Edge::Block(_))), Some((_, _, Edge::Block(_))))
            );
            if !both_blocks {
                continue;
            }
            let Some((_, to, Edge::Block(tail))) = self.edges[o].take() else {
                continue;
            };
            if let Some((_, b, Edge::Block(head))) = &mut self.edges[i] {
                head.extend(tail);
                *b = to;
            }
            self.absorb(i, o, false);
            for x in inc[to].iter_mut() {
                if *x == o {
                    *x = i;
                }
            }
            inc[n].clear();
            out[n].clear();
            changed = true;
        }
        changed
    }

    /// Simplify and renumber: the entry is node 0, then the other nodes breadth-first,
    /// then the throw exit (when an edge reaches it), the exit last.
    pub fn finish(self, entry: usize, exit: usize, throw: Option<usize>) -> Finished {
        self.finish_traced(entry, exit, throw)
    }

    /// [`CfaBuilder::finish`], with each final edge's origins (indexed by its graph edge
    /// index): the added edges it stands for, in execution order.
    pub fn finish_traced(mut self, entry: usize, exit: usize, throw: Option<usize>) -> Finished {
        let exits = Exits {
            normal: exit,
            throw: throw.filter(|t| *t != exit && *t != entry),
        };
        loop {
            self.prune(entry, exits);
            if !self.simplify_round(entry, exits) {
                break;
            }
        }
        self.prune(entry, exits);
        for (_, _, e) in self.edges.iter_mut().flatten() {
            if let Edge::Block(stmts) = e {
                drop_repeated_assumes(stmts);
            }
        }
        let mut order: Vec<Option<usize>> = vec![None; self.nodes];
        let mut out: Vec<Vec<usize>> = vec![Vec::new(); self.nodes];
        let mut reached_throw = false;
        for (_, (a, b, _)) in self.live() {
            out[*a].push(*b);
            reached_throw |= Some(*b) == exits.throw;
        }
        let mut next = 0usize;
        let mut queue = VecDeque::new();
        order[entry] = Some(next);
        next += 1;
        queue.push_back(entry);
        while let Some(n) = queue.pop_front() {
            for &m in &out[n] {
                if order[m].is_none() && !exits.contains(m) {
                    order[m] = Some(next);
                    next += 1;
                    queue.push_back(m);
                }
            }
        }
        let mut throw_at = None;
        if let (Some(t), true) = (exits.throw, reached_throw) {
            order[t] = Some(next);
            throw_at = Some(next);
            next += 1;
        }
        if entry != exit {
            order[exit] = Some(next);
            next += 1;
        }
        let mut graph = DiGraph::new();
        let mut idx = Vec::with_capacity(next);
        for i in 0..next {
            let kind = if i == 0 {
                Node::Entry
            } else if i + 1 == next {
                Node::Exit
            } else if Some(i) == throw_at {
                Node::Throw
            } else {
                Node::Inner
            };
            idx.push(graph.add_node(kind));
        }
        let mut edges: Vec<(usize, usize, usize, Edge)> = Vec::new();
        for (i, e) in self.edges.into_iter().enumerate() {
            if let Some((a, b, e)) = e {
                if let (Some(a), Some(b)) = (order[a], order[b]) {
                    edges.push((a, i, b, e));
                }
            }
        }
        edges.sort_by_key(|(a, i, _, _)| (*a, *i));
        let mut origins = Vec::with_capacity(edges.len());
        for (a, i, b, e) in edges {
            graph.add_edge(idx[a], idx[b], e);
            origins.push(
                self.origins
                    .get_mut(i)
                    .map(std::mem::take)
                    .unwrap_or_default(),
            );
        }
        Finished {
            entry: idx[0],
            exit: idx[next - 1],
            throw_exit: throw_at.map(|t| idx[t]),
            graph,
            origins,
        }
    }
}

/// The exits of a graph under construction.
#[derive(Clone, Copy, Debug)]
struct Exits {
    normal: usize,
    throw: Option<usize>,
}

impl Exits {
    fn contains(self, n: usize) -> bool {
        n == self.normal || Some(n) == self.throw
    }
}

/// A finished CFA.
#[derive(Debug)]
pub(crate) struct Finished {
    /// The graph.
    pub graph: DiGraph<Node, Edge>,
    /// Its entry.
    pub entry: NodeIndex,
    /// Its normal exit.
    pub exit: NodeIndex,
    /// Its throw exit, when an edge reaches it.
    pub throw_exit: Option<NodeIndex>,
    /// Per graph edge, the added edges it stands for ([`CfaBuilder::finish_traced`]).
    pub origins: Vec<Vec<usize>>,
}

/// True when `e` reads something `p` denotes (the whole field array for a field place).
fn mentions(e: &Expr, p: &Place) -> bool {
    match e {
        Expr::Var(v) => *p == Place::Var(*v),
        Expr::Global(g) => *p == Place::Global(*g),
        Expr::Field { obj, field } => {
            matches!(p, Place::Field { field: f, .. } if f == field) || mentions(obj, p)
        }
        Expr::Int(_) | Expr::Bool(_) | Expr::Null => false,
        Expr::Unary { arg, .. } => mentions(arg, p),
        Expr::Binary { lhs, rhs, .. } => mentions(lhs, p) || mentions(rhs, p),
        Expr::Ite {
            cond,
            then_expr,
            else_expr,
        } => mentions(cond, p) || mentions(then_expr, p) || mentions(else_expr, p),
    }
}

/// Remove an `assume e` that repeats an earlier one of the same block when nothing `e`
/// reads was written in between (null checks of consecutive accesses).
fn drop_repeated_assumes(stmts: &mut Vec<Located<Stmt>>) {
    let mut known: Vec<Expr> = Vec::new();
    stmts.retain(|s| match &s.node {
        Stmt::Assume(e) => {
            if known.contains(e) {
                false
            } else {
                known.push(e.clone());
                true
            }
        }
        Stmt::Assign { place, .. } | Stmt::Havoc(place) => {
            known.retain(|k| !mentions(k, place));
            true
        }
        Stmt::Alloc { var, .. } | Stmt::Opaque { var, .. } => {
            let p = Place::Var(*var);
            known.retain(|k| !mentions(k, &p));
            true
        }
        Stmt::Approx(_) | Stmt::Leave => true,
    });
}
