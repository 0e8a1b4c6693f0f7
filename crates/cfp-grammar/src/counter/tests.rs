//! The worklist solver against the round-based Bellman–Ford it replaced (kept here as the
//! reference: a component improves in rounds until stable; still improving in round
//! |SCC|+1 means unbounded).

use super::*;
use crate::cfg::NontermId;
use crate::random::{random_grammar, RandomShape};

/// Weights: the first terminal opens, the second closes, the rest are neutral.
fn weights(g: &Grammar) -> Vec<Option<i64>> {
    (0..g.terminals.len())
        .map(|t| {
            Some(match t {
                0 => 1,
                1 => -1,
                _ => 0,
            })
        })
        .collect()
}

/// Whether nonterminal `a` has a live production.
fn live_nt(g: &Grammar, live: &[bool], a: usize) -> bool {
    g.productions
        .iter()
        .zip(live)
        .any(|(p, l)| *l && p.lhs.index() == a)
}

/// Live productions (those a cleaning keeps).
fn live_of(g: &Grammar) -> Vec<bool> {
    crate::inclusion::live_productions(g, &crate::clean::clean(g))
}

/// The start symbol's (min_bal, max_bal, min_prefix) under `w`, and the work done.
fn start_values(g: &Grammar, w: &[Option<i64>]) -> ((Bound, Bound, Bound), u64) {
    let live = live_of(g);
    let (v, work) = counter_values(g, &live, w).expect("weights for every terminal");
    let s = v[g.start.index()];
    ((s.min_bal, s.max_bal, s.min_prefix), work)
}

fn reference(
    g: &Grammar,
    live_prod: &[bool],
    weight: &[Option<i64>],
) -> Option<(Vec<CounterValues>, u64)> {
    let n = g.nonterminals.len();
    let ix = super::fixpoint::Indexed::new(g, live_prod, weight);
    let by_lhs = &ix.by_lhs;
    let mut vals = vec![
        CounterValues {
            min_bal: Bound::PosInf,
            max_bal: Bound::NegInf,
            min_prefix: Bound::Fin(0),
        };
        n
    ];
    let mut work = 0u64;
    for comp in ix.comps.clone() {
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

fn grammar(text: &str) -> Grammar {
    let spec = cfp_syntax::parse_spec(&format!("wildcard $1 : Canvas;\n{text}"));
    assert!(!spec.has_errors(), "{:?}", spec.diagnostics);
    Grammar::from_spec(&spec.tree)
}

#[test]
fn the_worklist_agrees_with_rounds_on_random_grammars() {
    let shapes = [
        RandomShape::default(),
        RandomShape {
            max_nonterminals: 12,
            max_productions: 3,
            max_rhs: 3,
            terminal_percent: 35,
            ..RandomShape::default()
        },
        RandomShape {
            max_nonterminals: 30,
            max_productions: 2,
            max_rhs: 3,
            left_recursion_percent: 5,
            terminal_percent: 30,
            ..RandomShape::default()
        },
    ];
    let (mut compared, mut unbounded, mut tighter) = (0usize, 0usize, 0usize);
    for seed in 0..3000u64 {
        let shape = shapes[(seed % 3) as usize];
        let g = random_grammar(seed, shape);
        let live = live_of(&g);
        let w = weights(&g);
        let (Some((want, _)), Some((got, _))) =
            (reference(&g, &live, &w), counter_values(&g, &live, &w))
        else {
            panic!("seed {seed}: every terminal has a weight");
        };
        // Sound: the values are a post-fixpoint of the equations (bounds on every word).
        let claims: Vec<Option<CounterValues>> = (0..g.nonterminals.len())
            .map(|a| live_nt(&g, &live, a).then_some(got[a]))
            .collect();
        if let Err(e) = check_post_fixpoint(&g, &w, &claims) {
            panic!("seed {seed}: {e}\n{g}");
        }
        // Exact where the rounds were, and never looser: the rounds widened a whole
        // component when a member reached −∞ from a lower component in the last round.
        for a in (0..g.nonterminals.len()).filter(|&a| live_nt(&g, &live, a)) {
            let (x, r) = (got[a], want[a]);
            assert!(
                x.min_bal >= r.min_bal && x.max_bal <= r.max_bal && x.min_prefix >= r.min_prefix,
                "seed {seed}, {}: {x:?} looser than {r:?}\n{g}",
                g.nonterminal_name(NontermId(a as u32))
            );
            tighter += usize::from(x != r);
        }
        compared += 1;
        unbounded += usize::from(got.iter().any(|v| {
            v.min_bal == Bound::NegInf
                || v.max_bal == Bound::PosInf
                || v.min_prefix == Bound::NegInf
        }));
    }
    assert!(
        tighter < compared / 20,
        "{tighter} values tighter than the rounds'"
    );
    // The random grammars exercise unbounded values too.
    assert!(
        unbounded > 300,
        "{unbounded} of {compared} grammars had an unbounded value"
    );
}

#[test]
fn pumpable_cycles_are_unbounded_and_balanced_ones_are_not() {
    // Saves in a loop: unbounded balance above, prefixes never below zero.
    let g = grammar("S -> $1.save() S | $1.save() S $1.restore() S | ε;");
    let w = vec![Some(1), Some(-1)];
    let (start, _) = start_values(&g, &w);
    assert_eq!(start, (Bound::Fin(0), Bound::PosInf, Bound::Fin(0)));
    // Restores before saves, through two mutually recursive nonterminals: every word
    // balances, but prefixes go down without bound.
    let g = grammar("S -> $1.restore() T $1.save() | ε; T -> S;");
    let w = vec![Some(-1), Some(1)];
    let (start, _) = start_values(&g, &w);
    assert_eq!(start, (Bound::Fin(0), Bound::Fin(0), Bound::NegInf));
}

#[test]
fn a_long_chain_settles_with_linear_work() {
    // A ring of 2,000 nonterminals, each opening before the next and closing after it:
    // balanced words, settled after two passes over the ring (rounds would take as many).
    let n = 2000;
    let mut g = Grammar::new("N0");
    let o = g.terminal("$1.save()");
    let c = g.terminal("$1.restore()");
    let ids: Vec<_> = (0..n).map(|i| g.nonterminal(&format!("N{i}"))).collect();
    for i in 0..n {
        let next = ids[(i + 1) % n];
        g.add(ids[i], vec![Sym::T(o), Sym::N(next), Sym::T(c)]);
        g.add(ids[i], vec![]);
    }
    let w = vec![Some(1), Some(-1)];
    let (start, work) = start_values(&g, &w);
    assert_eq!(start, (Bound::Fin(0), Bound::Fin(0), Bound::Fin(0)));
    assert!(work < 40 * n as u64, "work {work} for a ring of {n}");
    // The same ring with one more save on one member: the balance is unbounded, and it
    // is found by a cycle among the parents, not by n rounds over the ring.
    g.add(ids[7], vec![Sym::T(o), Sym::N(ids[8])]);
    let ((_, max_bal, _), work) = start_values(&g, &w);
    assert_eq!(max_bal, Bound::PosInf);
    assert!(
        work < 40 * n as u64,
        "work {work} for a pumpable ring of {n}"
    );
}
