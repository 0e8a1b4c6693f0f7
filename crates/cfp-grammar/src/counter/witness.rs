//! A word of L(G) outside a counter language, when layer 2 has refuted inclusion exactly.
//!
//! Layer 3 finds the *shortest* rejecting word; on a program grammar of a whole
//! application its saturation can run out of steps although the refutation is certain.
//! This search finds *a* rejecting word instead: the counter equations are iterated with a
//! FIFO worklist over the whole grammar, without widening, and every strict improvement
//! is recorded as a version — the production and, per right-side nonterminal, the version
//! of the child it used — so each value is the value of a real derivation. Every value
//! improves towards the least solution, which layer 2 showed fails the test at the start
//! symbol; so the start symbol's value crosses the bound after finitely many improvements
//! (an opening too many: `max_bal > 0`; a closing too many: `min_prefix < 0`), and its
//! version unfolds into the derivation. So that gaining cycles do not improve forever, a
//! value stops improving once it leaves [`WINDOW`]; the search is then not complete (a
//! witness may need larger balances inside it) and gives up (`None`) when the queue
//! empties, past the step budget, or when the derivation would exceed [`MAX_NODES`] nodes.

use super::CounterKind;
use crate::budget::Budget;
use crate::cfg::{derivation_from_arena, ArenaChild, Derivation, Grammar, ProdId, Sym};
use crate::inclusion::UnknownReason;
use std::collections::VecDeque;

/// The largest derivation the search unfolds.
const MAX_NODES: usize = 200_000;

/// Values improve only while they are inside `-WINDOW..WINDOW`: a gaining cycle would
/// otherwise improve them forever (layer 2 widened it to ±∞); words whose parts need larger
/// balances are not searched for.
const WINDOW: i64 = 8;

/// The longest witness word the inclusion check confirms.
pub(crate) const MAX_WITNESS_WORD: usize = 20_000;

/// One recorded derivation: a production and the versions of its nonterminal children.
struct Version {
    prod: usize,
    children: Vec<u32>,
}

/// The best value of each quantity found so far, with its version.
#[derive(Clone, Copy, Default)]
struct Best {
    /// Least balance and its derivation (`None`: no word yet).
    lo: Option<(i64, u32)>,
    /// Greatest balance.
    hi: Option<(i64, u32)>,
    /// Least prefix balance.
    mp: Option<(i64, u32)>,
}

/// Search for a derivation of `g` (live productions `live`) whose word is outside the
/// counter language `kind` under `weight` (every live terminal weighted). `Ok(None)` when
/// no word was found within the budget's cap or [`MAX_NODES`].
pub(crate) fn counter_witness(
    g: &Grammar,
    live: &[bool],
    weight: &[Option<i64>],
    kind: CounterKind,
    budget: &mut Budget<'_>,
) -> Result<Option<Derivation>, UnknownReason> {
    let n = g.nonterminals.len();
    // Component by component, dependencies first: a component's words are final (within
    // the window) before anything above reads them.
    let ix = super::fixpoint::Indexed::new(g, live, weight);
    let mut best = vec![Best::default(); n];
    let mut versions: Vec<Version> = Vec::new();
    let mut queued = vec![false; n];
    let start = g.start.index();
    for (ci, comp) in ix.comps.iter().enumerate() {
        let mut queue: VecDeque<usize> = comp.iter().copied().collect();
        for &a in comp {
            queued[a] = true;
        }
        while let Some(a) = queue.pop_front() {
            queued[a] = false;
            let mut improved = false;
            for &pi in &ix.by_lhs[a] {
                budget.tick(1)?;
                let Some(found) = evaluate(g, pi, weight, &best) else {
                    continue;
                };
                let Some(changed) = record(&mut versions, &mut best[a], pi, found) else {
                    return Ok(None);
                };
                improved |= changed;
            }
            if !improved {
                continue;
            }
            if a == start {
                let s = best[start];
                let root = match (s.mp, s.hi) {
                    (Some((v, id)), _) if v < 0 => Some(id),
                    (_, Some((v, id))) if v > 0 && kind == CounterKind::Dyck => Some(id),
                    _ => None,
                };
                if let Some(root) = root {
                    return Ok(unfold(g, &versions, root));
                }
            }
            for &u in &ix.users[a] {
                if ix.comp_of[u] == ci && !queued[u] {
                    queued[u] = true;
                    queue.push_back(u);
                }
            }
        }
    }
    Ok(None)
}

/// The values one production gives from the best words of its nonterminals so far, with
/// the children's versions of each. `None` when a child has no word yet, a terminal has no
/// weight, or a value overflows.
struct Found {
    lo: i64,
    lo_children: Vec<u32>,
    hi: i64,
    hi_children: Vec<u32>,
    mp: i64,
    mp_children: Vec<u32>,
}

fn evaluate(g: &Grammar, pi: usize, weight: &[Option<i64>], best: &[Best]) -> Option<Found> {
    let rhs = &g.productions.get(pi)?.rhs;
    let (mut lo, mut hi, mut mp) = (0i64, 0i64, 0i64);
    let mut lo_children = Vec::new();
    let mut hi_children = Vec::new();
    // The least prefix so far and, when it lies inside a child, that child's ordinal and
    // the version of its least-prefix word.
    let mut mp_at: Option<(usize, u32)> = None;
    for s in rhs {
        match s {
            Sym::T(t) => {
                let w = (*weight.get(t.index())?)?;
                let here = lo.checked_add(w.min(0))?;
                if here < mp {
                    mp = here;
                    mp_at = None;
                }
                lo = lo.checked_add(w)?;
                hi = hi.checked_add(w)?;
            }
            Sym::N(b) => {
                let x = best.get(b.index())?;
                let ((l, lv), (h, hv), (m, mv)) = (x.lo?, x.hi?, x.mp?);
                let here = lo.checked_add(m)?;
                if here < mp {
                    mp = here;
                    mp_at = Some((lo_children.len(), mv));
                }
                lo = lo.checked_add(l)?;
                hi = hi.checked_add(h)?;
                lo_children.push(lv);
                hi_children.push(hv);
            }
        }
    }
    // The least prefix's word: the least-balance words before it (their balances are the
    // prefix's), the least-prefix word of the child it lies in, any words after it.
    let mut mp_children = lo_children.clone();
    if let Some((k, mv)) = mp_at {
        if let Some(c) = mp_children.get_mut(k) {
            *c = mv;
        }
    }
    Some(Found {
        lo,
        lo_children,
        hi,
        hi_children,
        mp,
        mp_children,
    })
}

/// Record the quantities `found` improves as new versions. `Some(true)` when one did;
/// `None` when the version count no longer fits.
fn record(versions: &mut Vec<Version>, b: &mut Best, prod: usize, found: Found) -> Option<bool> {
    let mut changed = false;
    let mut push = |children: Vec<u32>| -> Option<u32> {
        let id = u32::try_from(versions.len()).ok()?;
        versions.push(Version { prod, children });
        Some(id)
    };
    if b.lo.is_none_or(|x| found.lo < x.0 && x.0 > -WINDOW) {
        b.lo = Some((found.lo, push(found.lo_children)?));
        changed = true;
    }
    if b.hi.is_none_or(|x| found.hi > x.0 && x.0 < WINDOW) {
        b.hi = Some((found.hi, push(found.hi_children)?));
        changed = true;
    }
    if b.mp.is_none_or(|x| found.mp < x.0 && x.0 > -WINDOW) {
        b.mp = Some((found.mp, push(found.mp_children)?));
        changed = true;
    }
    Some(changed)
}

/// The derivation a version stands for, or `None` past [`MAX_NODES`] nodes.
fn unfold(g: &Grammar, versions: &[Version], root: u32) -> Option<Derivation> {
    let mut arena: Vec<(ProdId, Vec<ArenaChild>)> = Vec::new();
    // Arena node i is the unfolding of version todo[i]; children get later indices.
    let mut todo: Vec<u32> = vec![root];
    while let Some(&id) = todo.get(arena.len()) {
        if todo.len() > MAX_NODES {
            return None;
        }
        let v = versions.get(id as usize)?;
        let rhs = &g.productions.get(v.prod)?.rhs;
        let mut next = v.children.iter();
        let mut kids = Vec::with_capacity(rhs.len());
        for s in rhs {
            match s {
                Sym::T(t) => kids.push(ArenaChild::T(*t)),
                Sym::N(_) => {
                    kids.push(ArenaChild::N(todo.len()));
                    todo.push(*next.next()?);
                }
            }
        }
        arena.push((ProdId(u32::try_from(v.prod).ok()?), kids));
    }
    derivation_from_arena(arena)
}
