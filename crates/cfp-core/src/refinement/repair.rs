//! Repairing weakened Horn solutions: [`crate::qe::weaken`] makes Spacer's formulas
//! quantifier-free by weakening, which can break the clauses they solved; the weakened
//! formulas are checked against every clause and strengthened with the cell facts that
//! Spacer's own formulas imply.

use super::horn::{skolemize, Sliced};
use cfp_smt::session::{HornSystem, Session};
use cfp_smt::{CheckSat, Solver, SolverError, Sort, Term, TermKind};
use std::collections::{BTreeMap, BTreeSet};

/// Make the (pruned) solution bodies quantifier-free ([`crate::qe::weaken`]) and repair
/// what weakening broke: the weakened formulas are checked against every Horn clause (one
/// batch); for a clause that no longer holds, each premise position whose body was not
/// eliminated exactly is strengthened with the *cell facts* its original body implies —
/// `A[t]`, `¬A[t]` for Boolean arrays, `A[t] = u`, `A[t] ≠ u` for integer arrays, over the position's
/// integer symbols `t`, `u` and the integer literals of the body (one more batch). Every
/// added fact is implied by Spacer's formula, so the result stays between that formula
/// and its weakening.
pub async fn strengthen<S: Solver>(
    session: &mut Session<S>,
    system: &HornSystem,
    sliced: &Sliced,
    bodies: &[Term],
) -> Result<Vec<Term>, SolverError> {
    // (Elimination can take long on large bodies: the clock is asked between bodies.)
    let mut w: Vec<Term> = Vec::with_capacity(bodies.len());
    let mut inexact: Vec<bool> = Vec::with_capacity(bodies.len());
    for b in bodies {
        session.stop_if_cancelled()?;
        w.push(crate::qe::weaken(b));
        inexact.push(crate::qe::exact(b).is_none());
    }
    if !inexact.iter().any(|&b| b) {
        return Ok(w);
    }
    // A fact added to a head can break the clause into it in turn: a few rounds.
    for _ in 0..REPAIR_ROUNDS {
        let checks = clause_checks(system, sliced, &w);
        let answers = session.check_batch(&checks).await?;
        let mut repair: BTreeSet<usize> = BTreeSet::new();
        for (c, a) in system.clauses.iter().zip(&answers) {
            if matches!(a, CheckSat::Unsat) {
                continue;
            }
            for t in &c.body {
                if let TermKind::Uf(name, _, _) = t.kind() {
                    if let Some(i) = name.strip_prefix('I').and_then(|k| k.parse::<usize>().ok()) {
                        if inexact.get(i).copied().unwrap_or(false) {
                            repair.insert(i);
                        }
                    }
                }
            }
        }
        let mut queries = Vec::new();
        let mut owner = Vec::new(); // (position, candidate)
        let mut counter = 0;
        for &i in &repair {
            let (Some(sig), Some(body), Some(wi)) =
                (sliced.signatures.get(i), bodies.get(i), w.get(i))
            else {
                continue;
            };
            let Some(sk) = skolemize(body, &mut counter) else {
                continue;
            };
            // One definition per script for all the candidates of this position.
            let sk = session.macros_mut().apply(&sk);
            let have = crate::qe::conjuncts(wi);
            for cand in cell_candidates(sig, body) {
                if !have.contains(&cand) {
                    queries.push(Term::and([sk.clone(), Term::negate(cand.clone())]));
                    owner.push((i, cand));
                }
            }
        }
        if queries.is_empty() {
            break;
        }
        let answers = session.check_batch(&queries).await?;
        let mut extra: BTreeMap<usize, Vec<Term>> = BTreeMap::new();
        for ((i, cand), a) in owner.into_iter().zip(&answers) {
            if matches!(a, CheckSat::Unsat) {
                extra.entry(i).or_default().push(cand);
            }
        }
        if extra.is_empty() {
            break;
        }
        for (i, facts) in extra {
            if let Some(wi) = w.get_mut(i) {
                *wi = Term::and(std::iter::once(wi.clone()).chain(facts));
            }
        }
    }
    Ok(w)
}

/// Rounds of [`strengthen`]'s check-and-repair.
const REPAIR_ROUNDS: usize = 3;

/// The cell facts [`strengthen`] tries at a position with signature `sig`.
fn cell_candidates(sig: &[(String, Sort, Term)], body: &Term) -> Vec<Term> {
    let ints: Vec<Term> = sig
        .iter()
        .filter(|(_, s, _)| *s == Sort::Int)
        .map(|(n, s, _)| Term::var(n.clone(), s.clone()))
        .collect();
    let mut values = ints.clone();
    let mut literals = BTreeSet::new();
    let mut stack = vec![body];
    while let Some(t) = stack.pop() {
        match t.kind() {
            TermKind::Int(k) => {
                literals.insert(*k);
            }
            TermKind::App(_, args) | TermKind::Uf(_, args, _) => stack.extend(args.iter()),
            TermKind::Quant(_, _, b) => stack.push(b),
            _ => {}
        }
    }
    values.extend(literals.into_iter().map(Term::int));
    let mut out = Vec::new();
    for (n, s, _) in sig {
        let Sort::Array(_, elem) = s else { continue };
        let a = Term::var(n.clone(), s.clone());
        for t in &ints {
            let cell = Term::select(a.clone(), t.clone());
            match **elem {
                Sort::Bool => {
                    out.push(cell.clone());
                    out.push(Term::negate(cell));
                }
                Sort::Int => {
                    for u in &values {
                        let eq = Term::eq(cell.clone(), u.clone());
                        out.push(eq.clone());
                        out.push(Term::negate(eq));
                    }
                }
                Sort::Array(..) => {}
            }
        }
    }
    out
}

/// The formula `W_i` instantiated at the Horn application `I_i(args)`.
fn instantiate_at(sliced: &Sliced, w: &[Term], app: &Term) -> Option<Term> {
    let TermKind::Uf(name, args, _) = app.kind() else {
        return None;
    };
    let i: usize = name.strip_prefix('I')?.parse().ok()?;
    let sig = sliced.signatures.get(i)?;
    let f = w.get(i)?;
    Some(f.substitute(&|n| {
        sig.iter()
            .position(|(m, _, _)| m == n)
            .and_then(|k| args.get(k).cloned())
    }))
}

/// For every clause of `system`, the formula `body ∧ ¬head` with the predicates replaced
/// by `w`: all unsatisfiable iff `w` is a solution.
pub fn clause_checks(system: &HornSystem, sliced: &Sliced, w: &[Term]) -> Vec<Term> {
    let inst = |t: &Term| match t.kind() {
        TermKind::Uf(..) => instantiate_at(sliced, w, t).unwrap_or_else(Term::tt),
        _ => t.clone(),
    };
    system
        .clauses
        .iter()
        .map(|c| {
            let mut parts: Vec<Term> = c.body.iter().map(inst).collect();
            parts.push(
                c.head
                    .as_ref()
                    .map_or_else(Term::tt, |h| Term::negate(inst(h))),
            );
            Term::and(parts)
        })
        .collect()
}
