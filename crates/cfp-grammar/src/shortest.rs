//! Shortest derivations over a grammar's own productions (layer 0 of the inclusion
//! engine, ARCHITECTURE.md): Knuth's generalisation of Dijkstra's algorithm to grammars
//! (Knuth 1977, "A generalization of Dijkstra's algorithm", IPL 6(1)) — the length of a
//! production is a superior function of the lengths of its right-side nonterminals, so
//! nonterminals are finalised in order of their shortest word.
//!
//! Two passes: the shortest word of every nonterminal, then the shortest word of every
//! nonterminal that contains a *marked* terminal (a terminal the spec does not have).
//! Back-pointers only refer to nonterminals finalised earlier, so unfolding terminates;
//! trees are built without recursion.

use crate::cfg::{derivation_from_arena, ArenaChild as Kid, Derivation, Grammar, ProdId, Sym};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Shortest word lengths and the production that achieves them, per nonterminal.
pub(crate) struct MinLens {
    /// Length of a shortest word (`None`: unproductive over the live productions).
    pub len: Vec<Option<u64>>,
    /// The production of a shortest derivation.
    pub best: Vec<Option<ProdId>>,
}

/// Knuth's algorithm over the productions with `live[p]`.
pub(crate) fn min_lengths(g: &Grammar, live: &[bool]) -> MinLens {
    let n = g.nonterminals.len();
    let mut occ: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut rem = vec![0usize; g.productions.len()];
    let mut acc = vec![0u64; g.productions.len()];
    let mut heap = BinaryHeap::new();
    for (pi, p) in g.productions.iter().enumerate() {
        if !live.get(pi).copied().unwrap_or(false) || p.lhs.index() >= n {
            continue;
        }
        for s in &p.rhs {
            match s {
                Sym::T(_) => acc[pi] += 1,
                Sym::N(x) if x.index() < n => {
                    occ[x.index()].push(pi);
                    rem[pi] += 1;
                }
                Sym::N(_) => rem[pi] = usize::MAX / 2, // out of range: never fires
            }
        }
        if rem[pi] == 0 {
            heap.push(Reverse((acc[pi], pi)));
        }
    }
    let mut len = vec![None; n];
    let mut best = vec![None; n];
    while let Some(Reverse((l, pi))) = heap.pop() {
        let a = g.productions[pi].lhs.index();
        if len[a].is_some() {
            continue;
        }
        len[a] = Some(l);
        best[a] = Some(ProdId(pi as u32));
        for &q in &occ[a] {
            acc[q] = acc[q].saturating_add(l);
            rem[q] -= 1;
            if rem[q] == 0 {
                heap.push(Reverse((acc[q], q)));
            }
        }
    }
    MinLens { len, best }
}

/// What a tree slot stands for.
#[derive(Clone, Copy)]
enum Want {
    /// A shortest word of the nonterminal.
    Min(usize),
    /// A shortest word of the nonterminal through a marked terminal.
    Through(usize),
}

/// Shortest word of L(start) containing a terminal with `marked[t]`, over the live
/// productions, with its derivation; `None` when there is none. `max_len` bounds the word
/// length (longer answers give `Err(length)`).
pub(crate) fn shortest_through(
    g: &Grammar,
    live: &[bool],
    marked: &[bool],
    max_len: u64,
) -> Result<Option<Derivation>, u64> {
    let n = g.nonterminals.len();
    let ml = min_lengths(g, live);
    let sym_len = |s: &Sym| match s {
        Sym::T(_) => Some(1u64),
        Sym::N(x) => ml.len.get(x.index()).copied().flatten(),
    };
    // Productions all of whose symbols are productive, with their shortest length.
    let mut prod_min: Vec<Option<u64>> = vec![None; g.productions.len()];
    let mut occ: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    let mut heap = BinaryHeap::new();
    for (pi, p) in g.productions.iter().enumerate() {
        if !live.get(pi).copied().unwrap_or(false) || p.lhs.index() >= n {
            continue;
        }
        let total = p
            .rhs
            .iter()
            .try_fold(0u64, |a, s| sym_len(s).map(|l| a.saturating_add(l)));
        let Some(total) = total else { continue };
        prod_min[pi] = Some(total);
        for (i, s) in p.rhs.iter().enumerate() {
            match s {
                Sym::T(t) if marked.get(t.index()).copied().unwrap_or(false) => {
                    heap.push(Reverse((total, pi, i)));
                }
                Sym::N(x) => occ[x.index()].push((pi, i)),
                Sym::T(_) => {}
            }
        }
    }
    let mut through: Vec<Option<(u64, usize, usize)>> = vec![None; n];
    while let Some(Reverse((l, pi, i))) = heap.pop() {
        let a = g.productions[pi].lhs.index();
        if through[a].is_some() {
            continue;
        }
        through[a] = Some((l, pi, i));
        let base = ml.len[a].unwrap_or(0);
        for &(q, j) in &occ[a] {
            if let Some(pm) = prod_min[q] {
                let c = l.saturating_add(pm.saturating_sub(base));
                heap.push(Reverse((c, q, j)));
            }
        }
    }
    let Some((total, _, _)) = through.get(g.start.index()).copied().flatten() else {
        return Ok(None);
    };
    if total > max_len {
        return Err(total);
    }
    // Unfold: arena of (production, children) with children created after parents.
    let mut arena: Vec<(ProdId, Vec<Kid>)> = vec![(ProdId(0), Vec::new())];
    let mut work: Vec<(usize, Want)> = vec![(0, Want::Through(g.start.index()))];
    while let Some((slot, want)) = work.pop() {
        let (pi, through_pos) = match want {
            Want::Min(a) => match ml.best[a] {
                Some(p) => (p.index(), None),
                None => return Ok(None),
            },
            Want::Through(a) => match through[a] {
                Some((_, p, i)) => (p, Some(i)),
                None => return Ok(None),
            },
        };
        let mut kids = Vec::new();
        for (j, s) in g.productions[pi].rhs.iter().enumerate() {
            match s {
                Sym::T(t) => kids.push(Kid::T(*t)),
                Sym::N(x) => {
                    let k = arena.len();
                    arena.push((ProdId(0), Vec::new()));
                    let w = if through_pos == Some(j) {
                        Want::Through(x.index())
                    } else {
                        Want::Min(x.index())
                    };
                    work.push((k, w));
                    kids.push(Kid::N(k));
                }
            }
        }
        arena[slot] = (ProdId(pi as u32), kids);
    }
    Ok(derivation_from_arena(arena))
}

/// A shortest word of L(start) with its derivation over all of G's productions; `None`
/// when L(G) is empty.
pub(crate) fn shortest_word(g: &Grammar) -> Option<Derivation> {
    let live = vec![true; g.productions.len()];
    let ml = min_lengths(g, &live);
    ml.best.get(g.start.index()).copied().flatten()?;
    let mut arena: Vec<(ProdId, Vec<Kid>)> = vec![(ProdId(0), Vec::new())];
    let mut work: Vec<(usize, usize)> = vec![(0, g.start.index())];
    while let Some((slot, a)) = work.pop() {
        let p = ml.best.get(a).copied().flatten()?;
        let mut kids = Vec::new();
        for s in &g.productions.get(p.index())?.rhs {
            match s {
                Sym::T(t) => kids.push(Kid::T(*t)),
                Sym::N(x) => {
                    let k = arena.len();
                    arena.push((ProdId(0), Vec::new()));
                    work.push((k, x.index()));
                    kids.push(Kid::N(k));
                }
            }
        }
        arena[slot] = (p, kids);
    }
    derivation_from_arena(arena)
}
