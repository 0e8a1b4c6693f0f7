//! Light quantifier elimination for Horn solutions.
//!
//! Spacer states its solutions with existentials over arrays and integers that model-based
//! projection could not eliminate (`∃x. busy = store(x, w, true) ∧ ¬busy[w]`). Such
//! formulas are poor predicates: every abstraction query must instantiate them, and the
//! solver may give up or take long. [`weaken`] turns a solution into a quantifier-free
//! formula implied by it:
//!
//! * exact steps: a bound variable defined by a conjunct `x = t` is substituted; a bound
//!   array occurring in a single conjunct `a = store(x, i, v)` is eliminated to the cell
//!   fact `a[i] = v` (`∃x. a = store(x, i, v)` ⟺ `select(a, i) = v`); unused bound
//!   variables are dropped;
//! * weakening steps (positive polarity only): several `a = store(x, i, v)` over the same
//!   `x` each become their cell fact, and conjuncts still mentioning a bound variable are
//!   dropped; a sub-formula that cannot be made quantifier-free becomes `true`;
//! * conjunctions are simplified: `(= t true)` is `t`, `(= t false)` is `¬t`, and a
//!   conjunction holding a literal and its negation is `false`.
//!
//! [`project_exists`] is the same projection for a formula and a list of constants (the
//! interpolation-free refinement strategies, [`crate::refinement::newton`]).
//!
//! A weakened interpolant is still a sound predicate (any formula is); only the progress of
//! refinement can suffer, which the CEGAR loop's repeated-counterexample guard covers.

use cfp_smt::{Op, Quantifier, Sort, Term, TermKind};

/// A quantifier-free formula implied by `t` (see the module doc).
pub fn weaken(t: &Term) -> Term {
    go(t, true, &mut 0).unwrap_or_else(Term::tt)
}

/// `∃vars. body` for a quantifier-free `body`, as a quantifier-free formula implied by it:
/// exact where the elimination steps suffice (definitions substituted, store equalities
/// turned into cell facts), else weakened by dropping the conjuncts that still mention a
/// bound variable.
///
/// `None` when the elimination would visit more term nodes than `work` has left (long
/// paths make long chains of definitions, and substituting them makes terms that grow
/// with the path): the caller's strategy gives up rather than run without bound.
pub fn project_exists(vars: &[(String, Sort)], body: &Term, work: &mut Work) -> Option<Term> {
    if vars.is_empty() {
        return Some(simplify_conj(body.clone()));
    }
    match project(vars, body, true, work) {
        Err(OutOfWork) => None,
        Ok(t) => Some(t.unwrap_or_else(Term::tt)),
    }
}

/// A bound on the term nodes the elimination visits (counted in nodes, not in time, so
/// that the result is the same on every machine).
#[derive(Clone, Copy, Debug)]
pub struct Work(u64);

impl Work {
    /// At most `nodes` node visits.
    pub fn new(nodes: u64) -> Work {
        Work(nodes)
    }

    fn spend(&mut self, nodes: u64) -> Result<(), OutOfWork> {
        self.0 = self.0.checked_sub(nodes).ok_or(OutOfWork)?;
        Ok(())
    }
}

/// The elimination used up its [`Work`].
#[derive(Clone, Copy, Debug)]
struct OutOfWork;

/// The node visits one [`weaken`] or [`exact`] may make (Spacer's solutions are small;
/// this only bounds a pathological one).
const SOLUTION_WORK: u64 = 20_000_000;

/// A quantifier-free formula equivalent to `t`, when the exact steps suffice.
pub fn exact(t: &Term) -> Option<Term> {
    go(t, false, &mut 0)
}

/// [`weaken`] (`weakening`) or [`exact`]; `fresh` numbers lifted bound variables.
fn go(t: &Term, weakening: bool, fresh: &mut usize) -> Option<Term> {
    if !has_quantifier(t) {
        return Some(simplify_conj(t.clone()));
    }
    let negated = |a: &Term, fresh: &mut usize| go(a, false, fresh).map(Term::negate);
    match t.kind() {
        TermKind::App(Op::Or, args) => {
            let mut out = Vec::with_capacity(args.len());
            for a in args {
                out.push(go(a, weakening, fresh)?);
            }
            Some(Term::or(out))
        }
        TermKind::App(Op::Implies, args) if args.len() == 2 => {
            let lhs = negated(&args[0], fresh);
            let lhs = if weakening {
                lhs.or(Some(Term::tt()))
            } else {
                lhs
            };
            Some(Term::or([lhs?, go(&args[1], weakening, fresh)?]))
        }
        TermKind::App(Op::Not, args) if args.len() == 1 => {
            let r = negated(&args[0], fresh);
            if weakening {
                r.or(Some(Term::tt()))
            } else {
                r
            }
        }
        TermKind::App(Op::And, _) | TermKind::Quant(Quantifier::Exists, ..) => {
            // Prenex: lift the existentials of the conjunction (renamed apart), so that a
            // variable shared by several sub-formulas is eliminated with all its uses.
            let mut vars = Vec::new();
            let mut cs = Vec::new();
            lift(t, &mut vars, &mut cs, fresh);
            let mut body = Vec::with_capacity(cs.len());
            for c in cs {
                body.push(go(&c, weakening, fresh)?);
            }
            project(
                &vars,
                &Term::and(body),
                weakening,
                &mut Work::new(SOLUTION_WORK),
            )
            .ok()
            .flatten()
        }
        _ => weakening.then(Term::tt),
    }
}

/// Collect the conjuncts of `t`, lifting existentials (bound variables renamed to
/// `<name>~<k>`) into `vars`.
fn lift(t: &Term, vars: &mut Vec<(String, Sort)>, out: &mut Vec<Term>, fresh: &mut usize) {
    match t.kind() {
        TermKind::App(Op::And, args) => {
            for a in args {
                lift(a, vars, out, fresh);
            }
        }
        TermKind::Quant(Quantifier::Exists, bound, body) => {
            let renamed: Vec<(String, String, Sort)> = bound
                .iter()
                .map(|(n, s)| {
                    *fresh += 1;
                    (n.clone(), format!("{n}~{fresh}"), s.clone())
                })
                .collect();
            let body = body.substitute(&|n| {
                renamed
                    .iter()
                    .find(|(old, _, _)| old == n)
                    .map(|(_, new, s)| Term::var(new.clone(), s.clone()))
            });
            vars.extend(renamed.into_iter().map(|(_, n, s)| (n, s)));
            lift(&body, vars, out, fresh);
        }
        _ => out.push(t.clone()),
    }
}

/// Whether `t` contains a quantifier.
pub fn has_quantifier(t: &Term) -> bool {
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        match t.kind() {
            TermKind::Quant(..) => return true,
            TermKind::App(_, args) | TermKind::Uf(_, args, _) => stack.extend(args.iter()),
            _ => {}
        }
    }
    false
}

/// Whether the constant `name` occurs free in `t` (no allocation but the stack).
/// Whether `t` mentions the variable `name`, and how many nodes the search visited (all of
/// them when it does not).
fn mentions_counting(t: &Term, name: &str) -> (bool, u64) {
    let mut visited = 0;
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        visited += 1;
        match t.kind() {
            TermKind::Var(n, _) if n == name => return (true, visited),
            TermKind::App(_, args) | TermKind::Uf(_, args, _) => stack.extend(args.iter()),
            TermKind::Quant(_, vars, body) if !vars.iter().any(|(n, _)| n == name) => {
                stack.push(body);
            }
            _ => {}
        }
    }
    (false, visited)
}

/// The nodes of `t` (as a tree).
fn size(t: &Term) -> u64 {
    let mut n = 0;
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        n += 1;
        match t.kind() {
            TermKind::App(_, args) | TermKind::Uf(_, args, _) => stack.extend(args.iter()),
            TermKind::Quant(_, _, body) => stack.push(body),
            _ => {}
        }
    }
    n
}

fn mentions(t: &Term, name: &str) -> bool {
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        match t.kind() {
            TermKind::Var(n, _) if n == name => return true,
            TermKind::App(_, args) | TermKind::Uf(_, args, _) => stack.extend(args.iter()),
            TermKind::Quant(_, vars, body) if !vars.iter().any(|(n, _)| n == name) => {
                stack.push(body);
            }
            _ => {}
        }
    }
    false
}

/// The top-level conjuncts of `t` (none for `true`).
pub fn conjuncts(t: &Term) -> Vec<Term> {
    match t.kind() {
        TermKind::App(Op::And, args) => args.clone(),
        TermKind::Bool(true) => Vec::new(),
        _ => vec![t.clone()],
    }
}

/// `∃vars. body` for a quantifier-free `body`: the exact steps, then (when `weakening`)
/// the weakening ones; `None` when a bound variable remains and `weakening` is off.
fn project(
    vars: &[(String, Sort)],
    body: &Term,
    weakening: bool,
    work: &mut Work,
) -> Result<Option<Term>, OutOfWork> {
    let mut cs = conjuncts(body);
    let mut pending: Vec<String> = vars.iter().map(|(n, _)| n.clone()).collect();
    eliminate_exact(&mut cs, &mut pending, work)?;
    if !pending.is_empty() && weakening {
        // Every store equality over a remaining array becomes its cell facts.
        for name in &pending {
            for c in cs.iter_mut() {
                if let Some(cell) = stored_cell(c, name) {
                    *c = cell;
                }
            }
        }
        eliminate_exact(&mut cs, &mut pending, work)?;
    }
    let out = simplify_conj(Term::and(cs));
    let is_bound = |c: &Term| c.free_vars().iter().any(|(n, _)| pending.contains(n));
    if !is_bound(&out) {
        return Ok(Some(out));
    }
    Ok(weakening.then(|| {
        simplify_conj(Term::and(
            conjuncts(&out).into_iter().filter(|c| !is_bound(c)),
        ))
    }))
}

/// The exact elimination steps to a fixpoint: unused variables are dropped, definitions
/// substituted, single-use store equalities replaced by their cell facts.
fn eliminate_exact(
    cs: &mut Vec<Term>,
    pending: &mut Vec<String>,
    work: &mut Work,
) -> Result<(), OutOfWork> {
    let mut normalized = false;
    loop {
        let mut changed = false;
        let mut idx = 0;
        while idx < pending.len() {
            let name = pending[idx].clone();
            let mut users = Vec::new();
            for (k, c) in cs.iter().enumerate() {
                let (found, visited) = mentions_counting(c, &name);
                work.spend(visited)?;
                if found {
                    users.push(k);
                }
            }
            if users.is_empty() {
                pending.remove(idx);
                changed = true;
                continue;
            }
            // Of several definitions, the one over the fewest other bound variables:
            // the others become equalities between definitions, and the more of them are
            // free, the more cell facts survive.
            let bound_in = |t: &Term| {
                t.free_vars()
                    .iter()
                    .filter(|(n, _)| pending.contains(n))
                    .count()
            };
            if let Some((k, t)) = users
                .iter()
                .filter_map(|&k| definition(&cs[k], &name).map(|t| (k, t)))
                .min_by_key(|(k, t)| (bound_in(t), *k))
            {
                cs.remove(k);
                // The first substitution normalises every conjunct; later ones only those
                // that mention the variable (indices past the removed definition moved
                // down by one).
                if !normalized {
                    normalized = true;
                    for c in cs.iter_mut() {
                        *c = normalize(c);
                        work.spend(size(c))?;
                    }
                }
                for &u in users.iter().filter(|&&u| u != k) {
                    let u = if u > k { u - 1 } else { u };
                    if let Some(c) = cs.get_mut(u) {
                        *c = normalize(&c.substitute(&|n| (n == name).then(|| t.clone())));
                        work.spend(size(c))?;
                    }
                }
                pending.remove(idx);
                changed = true;
                continue;
            }
            if let [k] = users.as_slice() {
                if let Some(cell) = stored_cell(&cs[*k], &name) {
                    cs[*k] = cell;
                    pending.remove(idx);
                    changed = true;
                    continue;
                }
            }
            idx += 1;
        }
        if !changed {
            return Ok(());
        }
        let flat = conjuncts(&simplify_conj(Term::and(std::mem::take(cs))));
        *cs = if flat.is_empty() { Vec::new() } else { flat };
    }
}

/// The two sides of a binary equality.
fn eq_sides(c: &Term) -> Option<(&Term, &Term)> {
    match c.kind() {
        TermKind::App(Op::Eq, args) => match args.as_slice() {
            [a, b] => Some((a, b)),
            _ => None,
        },
        _ => None,
    }
}

/// `t` when `c` is `name = t` or `t = name` with `t` free of `name`; also solves
/// `name + k = t` (`k` free of `name`) to `t - k`.
fn definition(c: &Term, name: &str) -> Option<Term> {
    let (a, b) = eq_sides(c)?;
    for (x, t) in [(a, b), (b, a)] {
        if mentions(t, name) {
            continue;
        }
        match x.kind() {
            TermKind::Var(n, _) if n == name => return Some(t.clone()),
            TermKind::App(Op::Add, xs) if x.sort() == Sort::Int => {
                let is_x = |e: &Term| matches!(e.kind(), TermKind::Var(n, _) if n == name);
                if xs.iter().filter(|e| is_x(e)).count() == 1
                    && xs.iter().filter(|e| !is_x(e)).all(|e| !mentions(e, name))
                {
                    let rest: Vec<Term> = xs.iter().filter(|e| !is_x(e)).cloned().collect();
                    let k = if rest.len() == 1 {
                        rest[0].clone()
                    } else {
                        Term::app(Op::Add, rest)
                    };
                    return Some(Term::app(Op::Sub, vec![t.clone(), k]));
                }
            }
            _ => {}
        }
    }
    None
}

/// The cell facts of `c` when it is `a = store(…store(x, i1, v1)…, ik, vk)` (either
/// order), `x` the variable `name` and everything else free of it:
/// `∃x. a = store(…)` ⟺ `⋀_j (a[i_j] = v_j ∨ ⋁_{l>j} i_j = i_l)` (a later store to the
/// same index hides an earlier one).
fn stored_cell(c: &Term, name: &str) -> Option<Term> {
    let (a, b) = eq_sides(c)?;
    for (arr, st) in [(a, b), (b, a)] {
        if mentions(arr, name) {
            continue;
        }
        // Peel the stores, innermost last.
        let mut writes: Vec<(Term, Term)> = Vec::new();
        let mut cur = st;
        let base_ok = loop {
            match cur.kind() {
                TermKind::App(Op::Store, sargs) if sargs.len() == 3 => {
                    if mentions(&sargs[1], name) || mentions(&sargs[2], name) {
                        break false;
                    }
                    writes.push((sargs[1].clone(), sargs[2].clone()));
                    cur = &sargs[0];
                }
                TermKind::Var(n, _) => break n == name && !writes.is_empty(),
                _ => break false,
            }
        };
        if !base_ok {
            continue;
        }
        // `writes[0]` is the outermost (last) store.
        let mut facts = Vec::new();
        for (j, (i, v)) in writes.iter().enumerate() {
            let cell = Term::eq(Term::select(arr.clone(), i.clone()), v.clone());
            let hidden = writes[..j]
                .iter()
                .map(|(later, _)| Term::eq(i.clone(), later.clone()));
            facts.push(Term::or(std::iter::once(cell).chain(hidden)));
        }
        return Some(normalize(&Term::and(facts)));
    }
    None
}

/// Normalise `(= t true)`/`(= t false)` in a conjunction and fold it to `false` when it
/// holds a literal and its negation.
fn simplify_conj(t: Term) -> Term {
    let TermKind::App(Op::And, args) = t.kind() else {
        return literal(t);
    };
    let cs: Vec<Term> = args.iter().cloned().map(literal).collect();
    for c in &cs {
        if cs.contains(&Term::negate(c.clone())) {
            return Term::ff();
        }
    }
    Term::and(cs)
}

/// Rebuild `t` bottom-up with the folding constructors, reading through stores at the
/// same index: `select(store(a, i, v), i)` is `v`.
fn normalize(t: &Term) -> Term {
    match t.kind() {
        TermKind::App(op, args) => {
            let args: Vec<Term> = args.iter().map(normalize).collect();
            match (op, args.as_slice()) {
                (Op::Select, [a, j]) => match a.kind() {
                    TermKind::App(Op::Store, sargs) if sargs.len() == 3 && sargs[1] == *j => {
                        sargs[2].clone()
                    }
                    _ => Term::select(a.clone(), j.clone()),
                },
                (Op::Eq, [a, b]) => literal(Term::eq(a.clone(), b.clone())),
                (Op::And, _) => Term::and(args),
                (Op::Or, _) => Term::or(args),
                (Op::Not, [a]) => Term::negate(a.clone()),
                _ => Term::app(*op, args),
            }
        }
        _ => t.clone(),
    }
}

fn literal(t: Term) -> Term {
    if let TermKind::App(Op::Eq, args) = t.kind() {
        if let [a, b] = args.as_slice() {
            match (a.as_bool(), b.as_bool()) {
                (_, Some(true)) => return a.clone(),
                (_, Some(false)) => return Term::negate(a.clone()),
                (Some(true), _) => return b.clone(),
                (Some(false), _) => return Term::negate(b.clone()),
                _ => {}
            }
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn busy() -> Term {
        Term::var("busy", Sort::array_of(Sort::Bool))
    }

    fn arr(n: &str) -> Term {
        Term::var(n, Sort::array_of(Sort::Bool))
    }

    fn int(n: &str) -> Term {
        Term::var(n, Sort::Int)
    }

    fn ex(vars: &[(&str, Sort)], body: Term) -> Term {
        Term::new(TermKind::Quant(
            Quantifier::Exists,
            vars.iter()
                .map(|(n, s)| (n.to_string(), s.clone()))
                .collect(),
            body,
        ))
    }

    #[test]
    fn single_store_becomes_its_cell() {
        let t = ex(
            &[("x", Sort::array_of(Sort::Bool))],
            Term::eq(busy(), Term::store(arr("x"), int("w"), Term::tt())),
        );
        assert_eq!(
            exact(&t).map(|t| t.to_string()).as_deref(),
            Some("(select busy w)")
        );
    }

    #[test]
    fn contradictory_cells_fold_to_false() {
        let body = Term::and([
            Term::eq(busy(), Term::store(arr("x"), int("w"), Term::tt())),
            Term::eq(busy(), Term::store(arr("y"), int("w"), Term::tt())),
            Term::negate(Term::select(busy(), int("w"))),
        ]);
        let t = ex(
            &[
                ("x", Sort::array_of(Sort::Bool)),
                ("y", Sort::array_of(Sort::Bool)),
            ],
            body,
        );
        assert_eq!(weaken(&t), Term::ff());
    }

    #[test]
    fn definitions_are_substituted() {
        let t = ex(
            &[("k", Sort::Int)],
            Term::and([
                Term::eq(int("k"), int("w")),
                Term::app(Op::Gt, vec![Term::select(arr("c"), int("k")), Term::int(0)]),
            ]),
        );
        assert_eq!(
            exact(&t).map(|t| t.to_string()).as_deref(),
            Some("(> (select c w) 0)")
        );
    }

    #[test]
    fn unresolvable_bound_variables_weaken_or_fail() {
        let body = Term::and([
            Term::app(Op::Gt, vec![int("k"), int("a")]),
            Term::app(Op::Gt, vec![int("a"), Term::int(3)]),
        ]);
        let t = ex(&[("k", Sort::Int)], body);
        assert_eq!(exact(&t), None);
        assert_eq!(weaken(&t).to_string(), "(> a 3)");
        // Under a negation only exact steps are allowed: the literal becomes `true`.
        assert_eq!(weaken(&Term::negate(t)), Term::tt());
    }

    #[test]
    fn linear_definitions_and_store_equalities_are_exact() {
        // ∃k. a = store(c, t, k + 1) ∧ n = k + 1  ⟹  a = store(c, t, (n - 1) + 1)
        let k = int("k");
        let t = ex(
            &[("k", Sort::Int)],
            Term::and([
                Term::eq(int("n"), Term::app(Op::Add, vec![Term::int(1), k.clone()])),
                Term::app(Op::Gt, vec![k, Term::int(0)]),
            ]),
        );
        assert_eq!(
            exact(&t).map(|t| t.to_string()).as_deref(),
            Some("(> (- n 1) 0)")
        );
        // ∃x y. store(x, i, false) = store(y, i, false)  ⟹  true
        let t = ex(
            &[
                ("x", Sort::array_of(Sort::Bool)),
                ("y", Sort::array_of(Sort::Bool)),
            ],
            Term::eq(
                Term::store(arr("x"), int("i"), Term::ff()),
                Term::store(arr("y"), int("i"), Term::ff()),
            ),
        );
        assert_eq!(exact(&t), Some(Term::tt()));
    }

    #[test]
    fn nested_stores_and_chained_eliminations() {
        // ∃x. b = store(store(x, i, false), j, true)  ⟺  b[j] ∧ (¬b[i] ∨ i = j)
        let t = ex(
            &[("x", Sort::array_of(Sort::Bool))],
            Term::eq(
                busy(),
                Term::store(
                    Term::store(arr("x"), int("i"), Term::ff()),
                    int("j"),
                    Term::tt(),
                ),
            ),
        );
        assert_eq!(
            exact(&t).map(|t| t.to_string()).as_deref(),
            Some("(and (select busy j) (or (not (select busy i)) (= i j)))")
        );
        // ∃y k v. l = store(y, k, v)  ⟺  true (y, then v by definition, then k unused).
        let l = Term::var("l", Sort::array_of(Sort::Int));
        let t = ex(
            &[
                ("y", Sort::array_of(Sort::Int)),
                ("k", Sort::Int),
                ("v", Sort::Int),
            ],
            Term::eq(
                l,
                Term::store(
                    Term::var("y", Sort::array_of(Sort::Int)),
                    int("k"),
                    int("v"),
                ),
            ),
        );
        assert_eq!(exact(&t), Some(Term::tt()));
    }

    #[test]
    fn quantifier_free_input_is_kept() {
        let f = Term::and([
            Term::var("p", Sort::Bool),
            Term::eq(Term::var("q", Sort::Bool), Term::tt()),
        ]);
        assert_eq!(weaken(&f).to_string(), "(and p q)");
    }

    /// `a1 = a0 + 1 ∧ … ∧ an = an-1 + 1 ∧ an > 5`, the `ai` (but `a0`) bound.
    fn chain(n: usize) -> (Vec<(String, Sort)>, Term) {
        let a = |k: usize| Term::var(format!("a{k}"), Sort::Int);
        let mut cs: Vec<Term> = (1..=n)
            .map(|k| Term::eq(a(k), Term::app(Op::Add, vec![a(k - 1), Term::int(1)])))
            .collect();
        cs.push(Term::app(Op::Gt, vec![a(n), Term::int(5)]));
        let vars = (1..=n).map(|k| (format!("a{k}"), Sort::Int)).collect();
        (vars, Term::and(cs))
    }

    #[test]
    fn projection_gives_up_when_its_work_is_spent() {
        let (vars, body) = chain(200);
        // Substituting the chain makes terms that grow with it: a small budget runs out.
        assert_eq!(project_exists(&vars, &body, &mut Work::new(1_000)), None);
        // With enough work the projection is exact: a0 + 200 > 5 (in some form).
        let t = project_exists(&vars, &body, &mut Work::new(10_000_000)).expect("within budget");
        assert!(t.free_vars().iter().all(|(n, _)| n == "a0"), "{t}");
        assert_ne!(t, Term::tt());
    }
}
