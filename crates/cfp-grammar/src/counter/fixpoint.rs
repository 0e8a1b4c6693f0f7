//! The counter equations' least solution (see the parent module): strongly connected
//! components of the nonterminal graph, dependencies first, each solved by a FIFO
//! worklist per quantity.
//!
//! **Why a worklist.** Rounds over a whole component re-evaluate every production until
//! nothing moves; a program grammar's component can hold ten thousand mutually recursive
//! methods whose values settle after hundreds of rounds, each round touching all of them.
//! The worklist re-evaluates only the nonterminals one of whose right sides changed.
//!
//! **Exactness.** With a FIFO queue the pops fall into phases that play the part of
//! Bellman–Ford's rounds: after phase k every value is at least as good as the best
//! derivation of height k inside the component, and a value improves at most once per
//! phase. Without a gaining cycle the optimum has height ≤ |SCC|, so a value that improves
//! more than |SCC| + 1 times proves a gaining cycle. Faster, and equally sound: every value
//! remembers the production (and for prefixes the position) that last improved it; a cycle
//! among these parents `X₁ → X₂ → … → X₁` is a derivation `X₁ ⇒+ u X₁ v` whose
//! surrounding words gain (sum the parents' equations: each holds with ≥ for the current
//! values, strictly for the edge into the most recently improved member), so pumping it
//! makes the quantity unbounded. The parents are searched for a cycle once per |SCC| pops.

use super::{eval_rhs, lo_add, Bound, CounterValues};
use crate::cfg::{Grammar, Sym};
use std::collections::VecDeque;

/// The quantities a phase improves: balances first (`MinBal`, `MaxBal` together), then
/// `MinPrefix` (which reads the component's final balances).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quantity {
    MinBal,
    MaxBal,
    MinPrefix,
}

impl Quantity {
    fn slot(self) -> usize {
        match self {
            Quantity::MinBal | Quantity::MinPrefix => 0,
            Quantity::MaxBal => 1,
        }
    }

    /// Make the quantity unbounded (the pumpable direction).
    fn diverge(self, v: &mut CounterValues) {
        match self {
            Quantity::MinBal => v.min_bal = Bound::NegInf,
            Quantity::MaxBal => v.max_bal = Bound::PosInf,
            Quantity::MinPrefix => v.min_prefix = Bound::NegInf,
        }
    }
}

/// What last improved a quantity of a nonterminal: a production and, for prefixes, the
/// position whose nonterminal's prefix achieved the minimum (`None`: all its positions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Parent {
    prod: usize,
    position: Option<usize>,
}

/// Per-nonterminal scratch, shared by all components (reset for a component's members
/// after it is solved).
#[derive(Clone, Default)]
struct Scratch {
    queued: bool,
    /// Improvements per quantity slot in the current phase.
    improved: [u32; 2],
    parent: [Option<Parent>; 2],
    /// Depth-first search colour for the parent-cycle test (0 white, 1 grey, 2 black).
    colour: u8,
}

/// The grammar indexed for the solver (and the witness search).
pub(super) struct Indexed<'g> {
    pub(super) g: &'g Grammar,
    pub(super) weight: &'g [Option<i64>],
    /// Live productions by left side.
    pub(super) by_lhs: Vec<Vec<usize>>,
    /// For each nonterminal, the left sides of live productions that mention it.
    pub(super) users: Vec<Vec<usize>>,
    /// The strongly connected components, dependencies first.
    pub(super) comps: Vec<Vec<usize>>,
    /// Component number of each nonterminal.
    pub(super) comp_of: Vec<usize>,
}

impl<'g> Indexed<'g> {
    /// Index the live productions (`live_prod`) of `g`.
    pub(super) fn new(g: &'g Grammar, live_prod: &[bool], weight: &'g [Option<i64>]) -> Self {
        let n = g.nonterminals.len();
        let mut by_lhs: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut users: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, p) in g.productions.iter().enumerate() {
            if live_prod.get(i).copied().unwrap_or(false) && p.lhs.index() < n {
                by_lhs[p.lhs.index()].push(i);
                for s in &p.rhs {
                    if let Sym::N(b) = s {
                        if let Some(u) = users.get_mut(b.index()) {
                            if u.last() != Some(&p.lhs.index()) {
                                u.push(p.lhs.index());
                            }
                        }
                    }
                }
            }
        }
        let comps = sccs(g, live_prod);
        let mut comp_of = vec![usize::MAX; n];
        for (ci, comp) in comps.iter().enumerate() {
            for &a in comp {
                comp_of[a] = ci;
            }
        }
        Indexed {
            g,
            weight,
            by_lhs,
            users,
            comps,
            comp_of,
        }
    }
}

/// See [`super::counter_values`].
pub(super) fn solve(
    g: &Grammar,
    live_prod: &[bool],
    weight: &[Option<i64>],
) -> Option<(Vec<CounterValues>, u64)> {
    let n = g.nonterminals.len();
    let ix = Indexed::new(g, live_prod, weight);
    let mut vals = vec![
        CounterValues {
            min_bal: Bound::PosInf,
            max_bal: Bound::NegInf,
            min_prefix: Bound::Fin(0),
        };
        n
    ];
    let mut scratch = vec![Scratch::default(); n];
    let mut work = 0u64;
    for (ci, comp) in ix.comps.iter().enumerate() {
        for quantities in [
            &[Quantity::MinBal, Quantity::MaxBal][..],
            &[Quantity::MinPrefix],
        ] {
            solve_component(
                &ix,
                ci,
                comp,
                quantities,
                &mut vals,
                &mut scratch,
                &mut work,
            )?;
            for &a in comp {
                scratch[a] = Scratch::default();
            }
        }
    }
    Some((vals, work))
}

/// Improve `quantities` of one component's members until nothing moves.
fn solve_component(
    ix: &Indexed<'_>,
    ci: usize,
    comp: &[usize],
    quantities: &[Quantity],
    vals: &mut [CounterValues],
    scratch: &mut [Scratch],
    work: &mut u64,
) -> Option<()> {
    let size = comp.len();
    let limit = u32::try_from(size).unwrap_or(u32::MAX).saturating_add(1);
    let mut unbounded = [false; 2];
    let mut queue: VecDeque<usize> = comp.iter().copied().collect();
    for &a in comp {
        scratch[a].queued = true;
    }
    let mut pops_since_test = 0usize;
    while let Some(a) = queue.pop_front() {
        scratch[a].queued = false;
        let mut improved = [false; 2];
        for &pi in &ix.by_lhs[a] {
            *work += 1;
            let rhs = &ix.g.productions[pi].rhs;
            for (q, value, position) in improvements(ix, ci, rhs, quantities, &vals[a], vals)? {
                if unbounded[q.slot()] {
                    continue;
                }
                match q {
                    Quantity::MinBal => vals[a].min_bal = value,
                    Quantity::MaxBal => vals[a].max_bal = value,
                    Quantity::MinPrefix => vals[a].min_prefix = value,
                }
                scratch[a].parent[q.slot()] = Some(Parent { prod: pi, position });
                improved[q.slot()] = true;
            }
        }
        // At most one improvement per pop counts: a member is popped once per phase.
        let mut grown = Vec::new();
        for &q in quantities {
            if improved[q.slot()] {
                scratch[a].improved[q.slot()] += 1;
                if scratch[a].improved[q.slot()] > limit {
                    grown.push(q);
                }
            }
        }
        if improved.iter().any(|&x| x) {
            for &u in &ix.users[a] {
                if ix.comp_of[u] == ci && !scratch[u].queued {
                    scratch[u].queued = true;
                    queue.push_back(u);
                }
            }
        }
        pops_since_test += 1;
        if pops_since_test >= size {
            pops_since_test = 0;
            for &q in quantities {
                if !unbounded[q.slot()] && parent_cycle(ix, ci, comp, q, scratch, work) {
                    grown.push(q);
                }
            }
        }
        for q in grown {
            if !unbounded[q.slot()] {
                unbounded[q.slot()] = true;
                for &m in comp {
                    q.diverge(&mut vals[m]);
                }
            }
        }
        if quantities.iter().all(|q| unbounded[q.slot()]) {
            break;
        }
    }
    for &a in comp {
        scratch[a].queued = false;
    }
    Some(())
}

/// The quantities among `quantities` that `rhs` makes strictly better than `current`'s,
/// with their new values and, for prefixes, the position of the component nonterminal the
/// minimum came through. `None` when a terminal has no weight.
fn improvements(
    ix: &Indexed<'_>,
    ci: usize,
    rhs: &[Sym],
    quantities: &[Quantity],
    current: &CounterValues,
    vals: &[CounterValues],
) -> Option<Vec<(Quantity, Bound, Option<usize>)>> {
    let mut out = Vec::new();
    if quantities.contains(&Quantity::MinPrefix) {
        let (mp, from) = least_prefix(ix, ci, rhs, vals)?;
        if mp < current.min_prefix {
            out.push((Quantity::MinPrefix, mp, from));
        }
        return Some(out);
    }
    let (lo, hi, _) = eval_rhs(rhs, ix.weight, vals)?;
    if lo < current.min_bal {
        out.push((Quantity::MinBal, lo, None));
    }
    if hi > current.max_bal {
        out.push((Quantity::MaxBal, hi, None));
    }
    Some(out)
}

/// A right side's least prefix balance, as in [`eval_rhs`], with the position of the
/// component nonterminal it came through (`None`: ε, a terminal, or a nonterminal of an
/// earlier component).
fn least_prefix(
    ix: &Indexed<'_>,
    ci: usize,
    rhs: &[Sym],
    vals: &[CounterValues],
) -> Option<(Bound, Option<usize>)> {
    let mut lo = Bound::Fin(0);
    let mut mp = Bound::Fin(0);
    let mut from = None;
    for (i, s) in rhs.iter().enumerate() {
        let (min_prefix, min_bal, inside) = match s {
            Sym::T(t) => {
                let w = (*ix.weight.get(t.index())?)?;
                (Bound::Fin(w.min(0)), Bound::Fin(w), false)
            }
            Sym::N(b) => {
                let v = vals.get(b.index())?;
                let inside = ix.comp_of.get(b.index()) == Some(&ci);
                (v.min_prefix, v.min_bal, inside)
            }
        };
        let here = lo_add(lo, min_prefix);
        if here < mp {
            mp = here;
            from = inside.then_some(i);
        }
        lo = lo_add(lo, min_bal);
    }
    Some((mp, from))
}

/// Whether the parents of quantity `q` in the component form a cycle (then the quantity
/// is unbounded, see the module documentation). Iterative depth-first search.
fn parent_cycle(
    ix: &Indexed<'_>,
    ci: usize,
    comp: &[usize],
    q: Quantity,
    scratch: &mut [Scratch],
    work: &mut u64,
) -> bool {
    let successors = |a: usize, scratch: &[Scratch]| -> Vec<usize> {
        let Some(p) = scratch[a].parent[q.slot()] else {
            return Vec::new();
        };
        let rhs = &ix.g.productions[p.prod].rhs;
        let at = |i: usize| match rhs.get(i) {
            Some(Sym::N(b)) if ix.comp_of.get(b.index()) == Some(&ci) => Some(b.index()),
            _ => None,
        };
        match p.position {
            Some(i) => at(i).into_iter().collect(),
            None if q == Quantity::MinPrefix => Vec::new(),
            None => (0..rhs.len()).filter_map(at).collect(),
        }
    };
    let mut found = false;
    'roots: for &root in comp {
        if scratch[root].colour != 0 {
            continue;
        }
        scratch[root].colour = 1;
        let mut stack: Vec<(usize, Vec<usize>)> = vec![(root, successors(root, scratch))];
        while let Some((v, next)) = stack.last_mut() {
            *work += 1;
            let Some(w) = next.pop() else {
                scratch[*v].colour = 2;
                stack.pop();
                continue;
            };
            match scratch[w].colour {
                0 => {
                    scratch[w].colour = 1;
                    let succ = successors(w, scratch);
                    stack.push((w, succ));
                }
                1 => {
                    found = true;
                    break 'roots;
                }
                _ => {}
            }
        }
    }
    for &a in comp {
        scratch[a].colour = 0;
    }
    found
}

/// Strongly connected components of the nonterminal graph restricted to the live
/// productions, dependencies first (Tarjan, iterative).
fn sccs(g: &Grammar, live_prod: &[bool]) -> Vec<Vec<usize>> {
    let n = g.nonterminals.len();
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, p) in g.productions.iter().enumerate() {
        if !live_prod.get(i).copied().unwrap_or(false) || p.lhs.index() >= n {
            continue;
        }
        for s in &p.rhs {
            if let Sym::N(b) = s {
                if b.index() < n {
                    succ[p.lhs.index()].push(b.index());
                }
            }
        }
    }
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut counter = 0usize;
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut i)) = call.last_mut() {
            if *i < succ[v].len() {
                let w = succ[v][*i];
                *i += 1;
                if index[w] == usize::MAX {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(u, _)) = call.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    comp.reverse();
                    out.push(comp);
                }
            }
        }
    }
    out
}
