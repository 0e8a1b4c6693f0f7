//! Loops in a counterexample (ARCHITECTURE.md: "Loops in a counterexample want inductive
//! facts, not one fact per unrolling"; Rümmer & Subotic, FMCAD'13).
//!
//! A spurious path that goes around a loop several times is refuted by facts about *this*
//! unrolling: an object allocated in the first iteration is `%alloc = $1 + 1` one
//! iteration later and `%alloc = $1 + 2` two iterations later, and each longer path
//! brings the next one — refinement diverges. The allocation counter only grows, so the
//! inequality `$1 ≤ %alloc + k` implied by `%alloc + k = t`-style facts stays true once it
//! holds: it is inductive around every loop. At every position whose location the path
//! visits more than once, each candidate equality between a term over `%alloc` and one
//! without it also proposes that inequality ([`widen`]).

use crate::encode::ALLOC;
use crate::nested_path::NestedTrace;
use crate::pcfa::Pcfas;
use crate::refine::position_states;
use cfp_smt::{Op, Term, TermKind};
use std::collections::{BTreeMap, BTreeSet};

/// The positions `0..=n` of `nt` whose CFA location occurs at more than one position.
pub fn revisited_positions(nt: &NestedTrace, pcfas: &Pcfas) -> BTreeSet<usize> {
    let locs: Vec<Option<(crate::ir::MethodId, usize)>> = position_states(nt)
        .into_iter()
        .map(|st| {
            pcfas
                .method(st.method)
                .and_then(|p| p.state(st.state))
                .map(|s| (st.method, s.loc.index()))
        })
        .collect();
    let mut count: BTreeMap<(crate::ir::MethodId, usize), usize> = BTreeMap::new();
    for l in locs.iter().flatten() {
        *count.entry(*l).or_default() += 1;
    }
    locs.iter()
        .enumerate()
        .filter(|(_, l)| l.is_some_and(|l| count.get(&l).copied().unwrap_or(0) > 1))
        .map(|(i, _)| i)
        .collect()
}

fn mentions_alloc(t: &Term) -> bool {
    t.free_vars().iter().any(|(n, _)| n == ALLOC)
}

/// The inductive inequality of an allocation-counter equality (see the module doc).
fn monotone_bound(atom: &Term) -> Option<Term> {
    let TermKind::App(Op::Eq, args) = atom.kind() else {
        return None;
    };
    let [a, b] = args.as_slice() else {
        return None;
    };
    let (grows, fixed) = match (mentions_alloc(a), mentions_alloc(b)) {
        (true, false) => (a, b),
        (false, true) => (b, a),
        _ => return None,
    };
    if fixed.sort() != cfp_smt::Sort::Int {
        return None;
    }
    Some(Term::app(Op::Le, vec![fixed.clone(), grows.clone()]))
}

/// Add, at every position of `revisits`, the inductive inequality of each
/// allocation-counter equality among its atoms.
pub fn widen(revisits: &BTreeSet<usize>, atoms: &mut [Vec<Term>]) {
    for &i in revisits {
        let Some(list) = atoms.get_mut(i) else {
            continue;
        };
        let extra: Vec<Term> = list.iter().filter_map(monotone_bound).collect();
        for t in extra {
            if !list.contains(&t) {
                list.push(t);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cfp_smt::Sort;

    #[test]
    fn allocation_equalities_get_their_inductive_bound() {
        let alloc = Term::var(ALLOC, Sort::Int);
        let w = Term::var("$1", Sort::Int);
        let eq = Term::eq(
            alloc.clone(),
            Term::app(Op::Add, vec![w.clone(), Term::int(2)]),
        );
        let mut atoms = vec![vec![eq.clone()], vec![eq.clone()]];
        widen(&BTreeSet::from([1]), &mut atoms);
        assert_eq!(atoms[0], vec![eq.clone()]);
        assert_eq!(atoms[1].len(), 2);
        assert_eq!(
            atoms[1][1].to_string(),
            "(<= (+ $1 2) %alloc)",
            "{:?}",
            atoms[1]
        );
        // Not about the counter: nothing added.
        let other = Term::eq(w.clone(), Term::var("l", Sort::Int));
        let mut atoms = vec![vec![other]];
        widen(&BTreeSet::from([0]), &mut atoms);
        assert_eq!(atoms[0].len(), 1);
    }
}
