//! Layer 2 of the inclusion engine (ARCHITECTURE.md): the exact one-counter check.
//!
//! Terminals get weights +1 (opening), −1 (closing) or 0. For every nonterminal A of the
//! (cleaned) program grammar we compute, over the words w of L(A):
//! `min_bal(A) = min bal(w)`, `max_bal(A) = max bal(w)` and
//! `min_prefix(A) = min over prefixes u of w (ε and w included) of bal(u)`,
//! by min-plus / max-plus fixpoints over the productions (the equations are exact because
//! the parts of a right-hand side are chosen independently). Each strongly connected
//! component of the nonterminal graph is solved after the components it depends on, by
//! Gauss–Seidel rounds (Bellman–Ford): a finite optimum is reached by a derivation in which
//! no nonterminal of the component repeats on a path (otherwise pump the repetition out),
//! so it is reached within |SCC| rounds; a component still improving in round |SCC|+1 has a
//! pumpable cycle and every member is ±∞ (each member derives every other one).
//!
//! With `o ↦ +1, c ↦ −1`: L(A) ⊆ D(o,c) (Dyck) ⟺ min_prefix ≥ 0 ∧ max_bal ≤ 0, and
//! L(A) ⊆ P(o,c) (prefixes of Dyck words: never more closes than opens) ⟺ min_prefix ≥ 0.
//! The engine uses this as a *proof* of L(G) ⊆ L(S) only together with a layer-3 proof of
//! C ⊆ L(S) for the canonical grammar of C (see `inclusion.rs`), and as an exact refutation
//! only when also L(S) ⊆ C (checked by this same test on S).
//!
//! Values saturate soundly: a lower bound that overflows becomes −∞ (or stays at
//! `i64::MAX` when it overflows upwards), an upper bound symmetrically.

use crate::cfg::{Grammar, NontermId, Sym};
use serde::Serialize;

/// An extended integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Bound {
    /// −∞.
    NegInf,
    /// A finite value.
    Fin(i64),
    /// +∞.
    PosInf,
}

/// Sum for lower bounds: +∞ ("no word yet") absorbs, then −∞; overflow rounds down.
pub fn lo_add(a: Bound, b: Bound) -> Bound {
    match (a, b) {
        (Bound::PosInf, _) | (_, Bound::PosInf) => Bound::PosInf,
        (Bound::NegInf, _) | (_, Bound::NegInf) => Bound::NegInf,
        (Bound::Fin(x), Bound::Fin(y)) => match x.checked_add(y) {
            Some(z) => Bound::Fin(z),
            None if x < 0 => Bound::NegInf,
            None => Bound::Fin(i64::MAX),
        },
    }
}

/// Sum for upper bounds: −∞ ("no word yet") absorbs, then +∞; overflow rounds up.
pub fn hi_add(a: Bound, b: Bound) -> Bound {
    match (a, b) {
        (Bound::NegInf, _) | (_, Bound::NegInf) => Bound::NegInf,
        (Bound::PosInf, _) | (_, Bound::PosInf) => Bound::PosInf,
        (Bound::Fin(x), Bound::Fin(y)) => match x.checked_add(y) {
            Some(z) => Bound::Fin(z),
            None if x > 0 => Bound::PosInf,
            None => Bound::Fin(i64::MIN),
        },
    }
}

/// The counter values of one nonterminal (see the module documentation). As claims in a
/// certificate they are bounds: `min_bal` and `min_prefix` lower, `max_bal` upper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CounterValues {
    /// Least balance of a word.
    pub min_bal: Bound,
    /// Greatest balance of a word.
    pub max_bal: Bound,
    /// Least balance of a prefix of a word (ε included, so ≤ 0).
    pub min_prefix: Bound,
}

/// Which counter language: Dyck words, or prefixes of Dyck words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CounterKind {
    /// D(o,c): `S -> o S c S | ε`.
    Dyck,
    /// P(o,c): `S -> ε | o S c S | o S` (never more closes than opens; Canvas).
    Prefix,
}

impl CounterKind {
    /// Whether values of a start symbol satisfy the language's test.
    pub fn holds(self, v: &CounterValues) -> bool {
        let mp = v.min_prefix >= Bound::Fin(0);
        match self {
            CounterKind::Dyck => mp && v.max_bal <= Bound::Fin(0),
            CounterKind::Prefix => mp,
        }
    }

    /// The canonical grammar of the language over terminals named `open`, `close`.
    pub fn canonical(self, open: &str, close: &str) -> Grammar {
        let mut g = Grammar::new("S");
        let s = g.start;
        let o = g.terminal(open);
        let c = g.terminal(close);
        g.add(s, vec![Sym::T(o), Sym::N(s), Sym::T(c), Sym::N(s)]);
        g.add(s, vec![]);
        if self == CounterKind::Prefix {
            g.add(s, vec![Sym::T(o), Sym::N(s)]);
        }
        g
    }
}

/// Evaluate one right-hand side from the values of its symbols: (min_bal, max_bal,
/// min_prefix) of the concatenation. `None` when a terminal has no weight.
fn eval_rhs(
    rhs: &[Sym],
    weight: &[Option<i64>],
    vals: &[CounterValues],
) -> Option<(Bound, Bound, Bound)> {
    let mut lo = Bound::Fin(0);
    let mut hi = Bound::Fin(0);
    let mut mp = Bound::Fin(0);
    for s in rhs {
        let v = match s {
            Sym::T(t) => {
                let w = (*weight.get(t.index())?)?;
                CounterValues {
                    min_bal: Bound::Fin(w),
                    max_bal: Bound::Fin(w),
                    min_prefix: Bound::Fin(w.min(0)),
                }
            }
            Sym::N(n) => *vals.get(n.index())?,
        };
        mp = mp.min(lo_add(lo, v.min_prefix));
        lo = lo_add(lo, v.min_bal);
        hi = hi_add(hi, v.max_bal);
    }
    Some((lo, hi, mp))
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

/// Compute the exact counter values of every nonterminal of `g` over its live
/// productions (`live_prod`, the cleaned grammar: every live nonterminal productive).
/// `weight[t]` for every terminal of g; `None` when a live production uses a terminal
/// without a weight. Also returns the number of production evaluations (work done).
pub fn counter_values(
    g: &Grammar,
    live_prod: &[bool],
    weight: &[Option<i64>],
) -> Option<(Vec<CounterValues>, u64)> {
    let n = g.nonterminals.len();
    let mut by_lhs: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, p) in g.productions.iter().enumerate() {
        if live_prod.get(i).copied().unwrap_or(false) && p.lhs.index() < n {
            by_lhs[p.lhs.index()].push(i);
        }
    }
    let mut vals = vec![
        CounterValues {
            min_bal: Bound::PosInf,
            max_bal: Bound::NegInf,
            min_prefix: Bound::Fin(0),
        };
        n
    ];
    let mut work = 0u64;
    for comp in sccs(g, live_prod) {
        // Balances first (they do not depend on prefixes), then prefixes.
        for phase in 0..2 {
            let mut rounds = 0usize;
            let mut changed = true;
            while changed && rounds <= comp.len() {
                changed = false;
                rounds += 1;
                for &a in &comp {
                    for &pi in &by_lhs[a] {
                        work += 1;
                        let (lo, hi, mp) = eval_rhs(&g.productions[pi].rhs, weight, &vals)?;
                        let v = &mut vals[a];
                        if phase == 0 {
                            if lo < v.min_bal {
                                v.min_bal = lo;
                                changed = true;
                            }
                            if hi > v.max_bal {
                                v.max_bal = hi;
                                changed = true;
                            }
                        } else if mp < v.min_prefix {
                            v.min_prefix = mp;
                            changed = true;
                        }
                    }
                }
            }
            if changed {
                // Still improving in round |SCC|+1: pumpable. Decide per quantity which
                // one diverged by one more round (the others are already stable).
                let before: Vec<CounterValues> = comp.iter().map(|&a| vals[a]).collect();
                for &a in &comp {
                    for &pi in &by_lhs[a] {
                        work += 1;
                        let (lo, hi, mp) = eval_rhs(&g.productions[pi].rhs, weight, &vals)?;
                        let v = &mut vals[a];
                        v.min_bal = v.min_bal.min(lo);
                        v.max_bal = v.max_bal.max(hi);
                        if phase == 1 {
                            v.min_prefix = v.min_prefix.min(mp);
                        }
                    }
                }
                let lo_moved = comp
                    .iter()
                    .zip(&before)
                    .any(|(&a, b)| vals[a].min_bal != b.min_bal);
                let hi_moved = comp
                    .iter()
                    .zip(&before)
                    .any(|(&a, b)| vals[a].max_bal != b.max_bal);
                let mp_moved = comp
                    .iter()
                    .zip(&before)
                    .any(|(&a, b)| vals[a].min_prefix != b.min_prefix);
                for &a in &comp {
                    if phase == 0 && lo_moved {
                        vals[a].min_bal = Bound::NegInf;
                    }
                    if phase == 0 && hi_moved {
                        vals[a].max_bal = Bound::PosInf;
                    }
                    if phase == 1 && mp_moved {
                        vals[a].min_prefix = Bound::NegInf;
                    }
                }
                if phase == 0 && !lo_moved && !hi_moved || phase == 1 && !mp_moved {
                    // Cannot happen with exact arithmetic; be safe: widen everything.
                    for &a in &comp {
                        if phase == 0 {
                            vals[a].min_bal = Bound::NegInf;
                            vals[a].max_bal = Bound::PosInf;
                        } else {
                            vals[a].min_prefix = Bound::NegInf;
                        }
                    }
                }
            }
        }
    }
    Some((vals, work))
}

/// Check that `claims` (per nonterminal, `None` = no claim) are a post-fixpoint of the
/// counter equations over g: for every production whose nonterminals are all productive and
/// whose left side is claimed, every right-side nonterminal is claimed, every terminal has a
/// weight, and the composed bounds are within the left side's claim. By induction on
/// derivations every word of L(A) then satisfies A's claim.
pub fn check_post_fixpoint(
    g: &Grammar,
    weight: &[Option<i64>],
    claims: &[Option<CounterValues>],
) -> Result<(), String> {
    let productive = crate::clean::productive(g);
    let is_prod = |n: NontermId| productive.get(n.index()).copied().unwrap_or(false);
    let vals: Vec<CounterValues> = claims
        .iter()
        .map(|c| {
            c.unwrap_or(CounterValues {
                // never read: unclaimed right sides are rejected below
                min_bal: Bound::NegInf,
                max_bal: Bound::PosInf,
                min_prefix: Bound::NegInf,
            })
        })
        .collect();
    for (pi, p) in g.productions.iter().enumerate() {
        if !is_prod(p.lhs) {
            continue;
        }
        if !p.rhs.iter().all(|s| match s {
            Sym::T(_) => true,
            Sym::N(n) => is_prod(*n),
        }) {
            continue;
        }
        let Some(Some(claim)) = claims.get(p.lhs.index()) else {
            continue;
        };
        for s in &p.rhs {
            if let Sym::N(n) = s {
                if !matches!(claims.get(n.index()), Some(Some(_))) {
                    return Err(format!(
                        "production {pi}: no claim for {}",
                        g.nonterminal_name(*n)
                    ));
                }
            }
        }
        let Some((lo, hi, mp)) = eval_rhs(&p.rhs, weight, &vals) else {
            return Err(format!("production {pi}: a terminal has no weight"));
        };
        if lo < claim.min_bal || hi > claim.max_bal || mp < claim.min_prefix {
            return Err(format!(
                "production {pi} ({} -> {}) exceeds the claimed bounds",
                g.nonterminal_name(p.lhs),
                g.rhs_to_string(&p.rhs)
            ));
        }
    }
    Ok(())
}
