//! Atoms of formulas: the predicates a refinement tracks are atoms (`l = $1`, `x > 0`,
//! `A[o] = v`), never whole formulas — a location's cubes over its atoms decide every
//! Boolean combination of them, and atoms are what the paper's Table 2 counts.

use crate::encode::{entry_copy, unversion};
use cfp_smt::{Op, Sort, Term, TermKind};

/// Split a formula into its atoms, appending new ones to `out`: through `and`, `or`,
/// `not`, `=>` and `=` over formulas; `distinct` of two terms becomes an equality; an
/// array equality `a = store(b, i, v)` also yields its cell fact `a[i] = v`; frame
/// identities (`x = x@entry`) and `true`/`false` are left out.
pub fn atoms_of(t: &Term, out: &mut Vec<Term>) {
    match t.kind() {
        TermKind::Bool(_) => {}
        // The body's atoms; those mentioning the bound variables are dropped by the
        // caller (they are not over state symbols).
        TermKind::Quant(_, _, body) => atoms_of(body, out),
        TermKind::App(Op::And | Op::Or | Op::Not | Op::Implies, args) => {
            for a in args {
                atoms_of(a, out);
            }
        }
        TermKind::App(Op::Eq, args) if args.iter().any(is_bool_formula) => {
            // `(= p q)` over formulas: an iff; its sides are the atoms.
            for a in args {
                atoms_of(a, out);
            }
        }
        TermKind::App(Op::Distinct, args) if args.len() == 2 => {
            let e = Term::eq(args[0].clone(), args[1].clone());
            atoms_of(&e, out);
        }
        _ => {
            if let Some(cell) = stored_cell(t) {
                if !out.contains(&cell) {
                    out.push(cell);
                }
            }
            if !is_frame_identity(t) && !is_alloc_bound(t) && !out.contains(t) {
                out.push(t.clone());
            }
        }
    }
}

/// The cell fact of an array equality `a = store(b, i, v)` (either order): `a[i] = v`.
/// Horn solutions state summaries as whole-array equalities over other arrays (entry
/// copies, quantified ones); the cell fact often mentions state symbols only, where the
/// equality itself does not.
fn stored_cell(t: &Term) -> Option<Term> {
    let TermKind::App(Op::Eq, args) = t.kind() else {
        return None;
    };
    let [x, y] = args.as_slice() else {
        return None;
    };
    let (arr, st) = match (x.kind(), y.kind()) {
        (TermKind::Var(..), TermKind::App(Op::Store, _)) => (x, y),
        (TermKind::App(Op::Store, _), TermKind::Var(..)) => (y, x),
        _ => return None,
    };
    let TermKind::App(Op::Store, sargs) = st.kind() else {
        return None;
    };
    let [_, i, v] = sargs.as_slice() else {
        return None;
    };
    Some(Term::eq(Term::select(arr.clone(), i.clone()), v.clone()))
}

fn is_bool_formula(t: &Term) -> bool {
    matches!(t.kind(), TermKind::Bool(_) | TermKind::Var(_, Sort::Bool))
        || matches!(
            t.kind(),
            TermKind::App(
                Op::And
                    | Op::Or
                    | Op::Not
                    | Op::Implies
                    | Op::Lt
                    | Op::Le
                    | Op::Gt
                    | Op::Ge
                    | Op::Distinct,
                _
            )
        )
}

/// A fact about the allocation counter alone (`%alloc >= 1`): every allocation states
/// that the counter is not negative, so such a fact only adds cubes.
fn is_alloc_bound(t: &Term) -> bool {
    let vars = t.free_vars();
    !vars.is_empty()
        && vars.iter().all(|(n, _)| {
            base_symbol(n) == crate::encode::ALLOC
                || base_symbol(n) == entry_copy(crate::encode::ALLOC)
        })
}

/// `x = x@entry` (either order).
fn is_frame_identity(t: &Term) -> bool {
    let TermKind::App(Op::Eq, args) = t.kind() else {
        return false;
    };
    match (args.first().map(Term::kind), args.get(1).map(Term::kind)) {
        (Some(TermKind::Var(a, _)), Some(TermKind::Var(b, _))) => {
            *a == entry_copy(b) || *b == entry_copy(a)
        }
        _ => false,
    }
}

/// The conjuncts of `t` (nested `and`s flattened, `true` dropped), appended to `out`.
pub fn conjuncts(t: &Term, out: &mut Vec<Term>) {
    match t.kind() {
        TermKind::App(Op::And, args) => {
            for a in args {
                conjuncts(a, out);
            }
        }
        TermKind::Bool(true) => {}
        _ => out.push(t.clone()),
    }
}

/// The SSA base symbol of a constant (`l@3` → `l`), or the name itself.
pub fn base_symbol(name: &str) -> &str {
    unversion(name).unwrap_or(name)
}
