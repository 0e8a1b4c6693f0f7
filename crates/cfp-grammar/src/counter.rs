//! Layer 2 of the inclusion engine (ARCHITECTURE.md): the exact one-counter check.
//!
//! Terminals get weights +1 (opening), −1 (closing) or 0. For every nonterminal A of the
//! (cleaned) program grammar we compute, over the words w of L(A):
//! `min_bal(A) = min bal(w)`, `max_bal(A) = max bal(w)` and
//! `min_prefix(A) = min over prefixes u of w (ε and w included) of bal(u)`,
//! by min-plus / max-plus fixpoints over the productions (the equations are exact because
//! the parts of a right-hand side are chosen independently). Each strongly connected
//! component of the nonterminal graph is solved after the components it depends on, by a
//! first-in-first-out worklist (Bellman–Ford with a queue, [`fixpoint`]): a finite optimum
//! is reached by a derivation in which no nonterminal of the component repeats on a path
//! (otherwise pump the repetition out), so no value improves more than |SCC| times; one
//! that does, or a cycle among the productions that last improved the values, shows a
//! pumpable derivation `A ⇒+ u A v` that gains, and every member is ±∞ (each member
//! derives every other one).
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

mod fixpoint;
mod witness;

use serde::Serialize;
pub(crate) use witness::{counter_witness, MAX_WITNESS_WORD};

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
pub(crate) fn eval_rhs(
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

/// Compute the exact counter values of every nonterminal of `g` over its live
/// productions (`live_prod`, the cleaned grammar: every live nonterminal productive).
/// `weight[t]` for every terminal of g; `None` when a live production uses a terminal
/// without a weight. Also returns the number of production evaluations (work done).
pub fn counter_values(
    g: &Grammar,
    live_prod: &[bool],
    weight: &[Option<i64>],
) -> Option<(Vec<CounterValues>, u64)> {
    fixpoint::solve(g, live_prod, weight)
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

#[cfg(test)]
mod tests;
