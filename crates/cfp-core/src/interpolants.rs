//! Nested interpolants of an infeasible trace via a tree-shaped, non-recursive Horn
//! system (DESIGN.md §3, "Nested interpolants via Horn clauses").
//!
//! 1. **Slice** the SSA trace to an unsat core: steps outside the core become `true`; a
//!    state symbol stays in the signature of position `i` only when its SSA term there
//!    mentions a constant of some core formula (the others are unconstrained everywhere,
//!    so dropping them loses no solution). The scope, and so the signature, includes the
//!    entry copies of the field arrays and `%alloc` (`Class.f@entry`, `%alloc@entry`):
//!    without them a summary at the exit cannot say "every other cell is unchanged", the
//!    return clause is weaker than the SSA formula and an infeasible trace gets no
//!    solution.
//! 2. **Horn system**, one predicate `I<i>` per position over its (sliced) signature:
//!    `I0(x̄0) ⇐ init`; `I<i+1> ⇐ I<i> ∧ s_i` for intra steps and calls; for a return at
//!    `j` matching the call at `c`: `I<j+1> ⇐ I<c> ∧ I<j> ∧ s_c ∧ s_j` (the call's
//!    parameter binding is repeated so the callee's entry copies link to the caller's
//!    actuals); `false ⇐ I<n>`. Arguments are the SSA terms of the position's symbols.
//! 3. A solution's body for `I<i>` is renamed from the Horn parameters (positional) to the
//!    state symbols ([`solution_bodies`]). Spacer states bodies of inlined predicates with
//!    existentials over arrays and integers; they are made quantifier-free:
//!    * [`prune_bodies`] drops every top-level disjunct that is unsatisfiable (one batch,
//!      existentials skolemised) — only for disjuncts light elimination cannot handle;
//!    * [`crate::qe::weaken`] eliminates the existentials (exactly where it can, else by
//!      weakening);
//!    * [`strengthen`] checks the weakened formulas against the Horn clauses and, where
//!      weakening broke one, adds the cell facts (`A[t]`, `A[t] = u`, …) that Spacer's
//!      formula implies at the premise positions (a few check-and-repair rounds).
//!
//!    Each position's formula is then **one predicate** (the paper's Ψ: the interpolant
//!    itself, not its atoms — splitting into atoms multiplies the cubes of CompleteCubes);
//!    `true`/`false` are dropped. When the formulas form a valid Horn solution, every
//!    abstract state on the spurious path decides them and the path cannot come back
//!    (the paper's progress argument); otherwise the repeated-counterexample guard
//!    answers `unknown`, never a wrong verdict.
//! 4. **Fallback** (Spacer says `unknown`, or the trace uses uninterpreted functions
//!    which the Horn engine does not take): the atoms of the core formulas, projected to
//!    each position by equality reasoning — constants related by a core equality `v = w`
//!    form classes, and a constant out of scope is replaced by a member of its class that
//!    is in scope at the position (its current SSA term there); atoms that still mention
//!    an out-of-scope constant are dropped. These are predicates, not guaranteed to be
//!    inductive interpolants: the CEGAR loop's repeated-counterexample guard covers a
//!    refinement that makes no progress.

use crate::encode::{entry_copy, unversion, Encoder, Symbols};
use crate::trace::{step_label, EncodedTrace, INIT_LABEL};
use cfp_smt::session::{HornAnswer, HornClause, HornSystem, Session};
use cfp_smt::{CheckSat, Op, Solver, SolverError, Sort, Term, TermKind};
use std::collections::{BTreeMap, BTreeSet};

/// An unsat core of a trace: which named assertions it holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Core {
    /// True when `init` is in the core.
    pub init: bool,
    /// Step indices in the core, increasing.
    pub steps: BTreeSet<usize>,
}

impl Core {
    /// Read the assertion names of an unsat core (`init`, `s<i>`; others ignored).
    pub fn from_names<S: AsRef<str>>(names: &[S]) -> Core {
        let mut core = Core::default();
        for n in names {
            let n = n.as_ref();
            if n == INIT_LABEL {
                core.init = true;
            } else if let Some(i) = n.strip_prefix('s').and_then(|k| k.parse::<usize>().ok()) {
                if step_label(i) == n {
                    core.steps.insert(i);
                }
            }
        }
        core
    }

    /// Every assertion of `trace` (no slicing).
    pub fn all(trace: &EncodedTrace) -> Core {
        Core {
            init: true,
            steps: (0..trace.steps.len()).collect(),
        }
    }
}

/// A trace restricted to a core.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sliced {
    /// `init` or `true`.
    pub init: Term,
    /// Step formulas, `true` outside the core.
    pub steps: Vec<Term>,
    /// Per position: the state symbols kept (name, sort, SSA term), in scope order.
    pub signatures: Vec<Vec<(String, Sort, Term)>>,
}

/// Slice `trace` to `core` (see the module doc).
pub fn slice(symbols: &Symbols, trace: &EncodedTrace, core: &Core) -> Sliced {
    let init = if core.init {
        trace.init.clone()
    } else {
        Term::tt()
    };
    let steps: Vec<Term> = trace
        .steps
        .iter()
        .enumerate()
        .map(|(i, t)| {
            if core.steps.contains(&i) {
                t.clone()
            } else {
                Term::tt()
            }
        })
        .collect();
    let mut used: BTreeSet<String> = BTreeSet::new();
    for t in std::iter::once(&init).chain(steps.iter()) {
        used.extend(t.free_vars().into_iter().map(|(n, _)| n));
    }
    let is_used = |t: &Term| t.free_vars().iter().any(|(v, _)| used.contains(v));
    // Every scope has entry copies of parameters, globals, field arrays and `%alloc`
    // (bound by the trace encoding to the values at the frame's entry), so a callee's
    // summary can keep the frame (`f = store(f@entry, o, v)`) with state symbols only.
    let signatures = trace
        .positions
        .iter()
        .map(|pos| {
            let scope = symbols.scope(pos.method).unwrap_or_default();
            scope
                .into_iter()
                .filter_map(|(n, s)| {
                    let t = pos.names.get(&n).ok()?.clone();
                    is_used(&t).then_some((n, s, t))
                })
                .collect()
        })
        .collect();
    Sliced {
        init,
        steps,
        signatures,
    }
}

/// Name of the predicate of position `i`.
pub fn pred_name(i: usize) -> String {
    format!("I{i}")
}

fn pred_app(sliced: &Sliced, i: usize) -> Term {
    let args = sliced
        .signatures
        .get(i)
        .map(|sig| sig.iter().map(|(_, _, t)| t.clone()).collect())
        .unwrap_or_default();
    Term::uf(pred_name(i), args, Sort::Bool)
}

fn clause(body: Vec<Term>, head: Option<Term>) -> HornClause {
    let vars = crate::trace::free_constants(body.iter().chain(head.iter()));
    let body = body
        .into_iter()
        .filter(|t| t.as_bool() != Some(true))
        .collect();
    HornClause { vars, body, head }
}

/// The Horn system of a sliced trace (see the module doc).
pub fn horn_system(trace: &EncodedTrace, sliced: &Sliced) -> HornSystem {
    let n = trace.steps.len();
    let preds = sliced
        .signatures
        .iter()
        .enumerate()
        .map(|(i, sig)| {
            (
                pred_name(i),
                sig.iter().map(|(_, s, _)| s.clone()).collect(),
            )
        })
        .collect();
    let mut clauses = vec![clause(vec![sliced.init.clone()], Some(pred_app(sliced, 0)))];
    for i in 0..n {
        let mut body = vec![pred_app(sliced, i)];
        if let Some(Some(c)) = trace.call_of.get(i) {
            body.push(pred_app(sliced, *c));
            body.push(sliced.steps[*c].clone());
        }
        body.push(sliced.steps[i].clone());
        clauses.push(clause(body, Some(pred_app(sliced, i + 1))));
    }
    clauses.push(clause(vec![pred_app(sliced, n)], None));
    HornSystem { preds, clauses }
}

/// Split a formula into its atoms (see the module doc), appending new ones to `out`.
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
            if !is_frame_identity(t) && !out.contains(t) {
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

/// The body of each position's predicate in a Horn solution, over the position's state
/// symbols; `None` when the solution lacks a predicate or its arity differs from the
/// signature.
pub fn solution_bodies(
    sliced: &Sliced,
    solution: &cfp_smt::answer::HornSolution,
) -> Option<Vec<Term>> {
    let mut out = Vec::with_capacity(sliced.signatures.len());
    for (i, sig) in sliced.signatures.iter().enumerate() {
        let args: Vec<Term> = sig
            .iter()
            .map(|(n, s, _)| Term::var(n.clone(), s.clone()))
            .collect();
        let body = if args.is_empty() && !solution.preds.contains_key(&pred_name(i)) {
            // Z3 may leave out nullary predicates it fixes to `true`.
            Term::tt()
        } else {
            solution.instantiate(&pred_name(i), &args)?
        };
        out.push(body);
    }
    Some(out)
}

/// `t` with its existentials in positive positions replaced by fresh constants
/// (`<bound>#sk<k>`): equisatisfiable. `None` when a quantifier occurs under a negation or
/// is universal.
fn skolemize(t: &Term, counter: &mut usize) -> Option<Term> {
    match t.kind() {
        TermKind::Quant(cfp_smt::Quantifier::Exists, vars, body) => {
            *counter += 1;
            let k = *counter;
            let renamed = body.substitute(&|n| {
                vars.iter()
                    .find(|(m, _)| m == n)
                    .map(|(m, s)| Term::var(format!("{m}#sk{k}"), s.clone()))
            });
            skolemize(&renamed, counter)
        }
        TermKind::Quant(..) => None,
        TermKind::App(op @ (Op::And | Op::Or), args) => Some(Term::app(
            *op,
            args.iter()
                .map(|a| skolemize(a, counter))
                .collect::<Option<Vec<_>>>()?,
        )),
        _ => (!crate::qe::has_quantifier(t)).then(|| t.clone()),
    }
}

fn disjuncts(t: &Term) -> Vec<Term> {
    match t.kind() {
        TermKind::App(Op::Or, args) => args.clone(),
        _ => vec![t.clone()],
    }
}

/// Drop the unsatisfiable disjuncts of every body (one batch): Spacer's solutions carry
/// disjuncts from paths the trace does not take, and existentials that light
/// elimination ([`crate::qe`]) cannot remove exactly; a disjunct that is unsatisfiable as
/// a whole would otherwise survive weakening as a satisfiable, wrong-looking fact.
pub async fn prune_bodies<S: Solver>(
    session: &mut Session<S>,
    bodies: Vec<Term>,
) -> Result<Vec<Term>, SolverError> {
    let split: Vec<Vec<Term>> = bodies.iter().map(disjuncts).collect();
    let mut queries = Vec::new();
    let mut index = Vec::new(); // (body, disjunct) of each query
    let mut counter = 0;
    for (b, ds) in split.iter().enumerate() {
        for (d, t) in ds.iter().enumerate() {
            // A disjunct that light elimination makes quantifier-free exactly is kept as
            // it is (an unsatisfiable one is then harmless: it is `false`).
            if crate::qe::exact(t).is_some() {
                continue;
            }
            if let Some(q) = skolemize(t, &mut counter) {
                if q.as_bool().is_none() {
                    queries.push(q);
                    index.push((b, d));
                }
            }
        }
    }
    if queries.is_empty() {
        return Ok(bodies);
    }
    let answers = session.check_batch(&queries).await?;
    let mut dead: BTreeSet<(usize, usize)> = BTreeSet::new();
    for (k, a) in answers.iter().enumerate() {
        if matches!(a, CheckSat::Unsat) {
            if let Some(&bd) = index.get(k) {
                dead.insert(bd);
            }
        }
    }
    Ok(split
        .into_iter()
        .enumerate()
        .map(|(b, ds)| {
            Term::or(
                ds.into_iter()
                    .enumerate()
                    .filter(|(d, _)| !dead.contains(&(b, *d)))
                    .map(|(_, t)| t),
            )
        })
        .collect())
}

/// The predicates of each position from the quantifier-free bodies ([`strengthen`]), kept
/// whole (the paper's Ψ: one interpolant per
/// position), unless it is `true`/`false` or mentions non-state symbols.
pub fn predicates_from_bodies(sliced: &Sliced, bodies: &[Term]) -> Vec<Vec<Term>> {
    sliced
        .signatures
        .iter()
        .zip(bodies)
        .map(|(sig, body)| {
            let names: BTreeSet<&str> = sig.iter().map(|(n, _, _)| n.as_str()).collect();
            let mut atoms = Vec::new();
            if !matches!(body.kind(), TermKind::Bool(_)) {
                atoms.push(body.clone());
            }
            atoms.retain(|a| {
                a.free_vars()
                    .iter()
                    .all(|(v, _)| names.contains(v.as_str()))
            });
            atoms
        })
        .collect()
}

/// The fallback predicates (see the module doc): atoms of the core formulas projected to
/// each position through the core's variable equalities.
pub fn fallback_atoms(trace: &EncodedTrace, sliced: &Sliced, symbols: &Symbols) -> Vec<Vec<Term>> {
    // Union-find over SSA constants related by `v = w` in the core.
    let mut parent: BTreeMap<String, String> = BTreeMap::new();
    fn find(p: &mut BTreeMap<String, String>, x: &str) -> String {
        let mut cur = x.to_string();
        while let Some(next) = p.get(&cur) {
            if *next == cur {
                break;
            }
            cur = next.clone();
        }
        cur
    }
    let mut core_atoms: Vec<Term> = Vec::new();
    for (k, t) in std::iter::once(&sliced.init)
        .chain(sliced.steps.iter())
        .enumerate()
    {
        // Only parameter and result bindings (calls and returns) link frames.
        let binding = k > 0
            && (trace.call_of.get(k - 1).is_some_and(Option::is_some)
                || trace.positions.get(k).map(|p| p.depth)
                    > trace.positions.get(k - 1).map(|p| p.depth));
        let mut conj = Vec::new();
        conjuncts(t, &mut conj);
        for c in conj {
            if !binding {
                atoms_of(&c, &mut core_atoms);
                continue;
            }
            if let TermKind::App(Op::Eq, args) = c.kind() {
                if let (Some(TermKind::Var(a, _)), Some(TermKind::Var(b, _))) =
                    (args.first().map(Term::kind), args.get(1).map(Term::kind))
                {
                    let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
                    if ra != rb {
                        let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
                        parent.insert(hi, lo);
                    }
                    continue;
                }
            }
            atoms_of(&c, &mut core_atoms);
        }
    }
    let mut out = Vec::with_capacity(trace.positions.len());
    for (i, pos) in trace.positions.iter().enumerate() {
        // SSA constant class → state symbol in scope here.
        let mut here: BTreeMap<String, Term> = BTreeMap::new();
        let scope = symbols.scope(pos.method).unwrap_or_default();
        for (n, s) in &scope {
            if let Ok(t) = pos.names.get(n) {
                if let TermKind::Var(v, _) = t.kind() {
                    let r = find(&mut parent, v);
                    // Prefer the plain symbol over an entry copy.
                    here.entry(r)
                        .or_insert_with(|| Term::var(n.clone(), s.clone()));
                }
            }
        }
        let mut atoms: Vec<Term> = Vec::new();
        let _ = i;
        for a in &core_atoms {
            let vars = a.free_vars();
            let mut ok = true;
            let mut map: BTreeMap<String, Term> = BTreeMap::new();
            for (v, _) in &vars {
                match here.get(&find(&mut parent, v)) {
                    Some(t) => {
                        map.insert(v.clone(), t.clone());
                    }
                    None => ok = false,
                }
            }
            if ok && !vars.is_empty() {
                let renamed = a.substitute(&|n| map.get(n).cloned());
                let trivial = matches!(renamed.kind(), TermKind::App(Op::Eq, xs) if xs.len() == 2 && xs[0] == xs[1]);
                if !trivial {
                    atoms_of(&renamed, &mut atoms);
                }
            }
        }
        // Equalities between in-scope members of one class are predicates too.
        let mut classes: BTreeMap<String, Vec<Term>> = BTreeMap::new();
        for (n, s) in &scope {
            if let Ok(t) = pos.names.get(n) {
                if let TermKind::Var(v, _) = t.kind() {
                    if parent.contains_key(v) {
                        classes
                            .entry(find(&mut parent, v))
                            .or_default()
                            .push(Term::var(n.clone(), s.clone()));
                    }
                }
            }
        }
        for members in classes.values() {
            for w in members.windows(2) {
                atoms_of(&Term::eq(w[0].clone(), w[1].clone()), &mut atoms);
            }
        }
        out.push(atoms);
    }
    out
}

fn conjuncts(t: &Term, out: &mut Vec<Term>) {
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

/// Where the predicates came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A Horn solution (nested interpolants).
    Horn,
    /// The fallback, with the reason the Horn engine was not used or failed.
    Fallback(String),
}

/// Predicates per trace position (Ψ for Refine).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interpolants {
    /// Atoms over the state symbols of the position's method, per position `0..=n`.
    pub atoms: Vec<Vec<Term>>,
    /// How they were obtained.
    pub source: Source,
}

/// Why no predicates could be computed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum InterpolantError {
    /// The Horn engine says the sliced trace is feasible (the core was not unsat: a
    /// solver inconsistency).
    #[error("the sliced trace is feasible according to the Horn engine")]
    Feasible,
    /// The solver failed.
    #[error(transparent)]
    Solver(#[from] SolverError),
}

/// Nested interpolants of an infeasible trace, given its unsat core.
pub async fn interpolants<S: Solver>(
    session: &mut Session<S>,
    enc: &Encoder<'_>,
    trace: &EncodedTrace,
    core: &Core,
) -> Result<Interpolants, InterpolantError> {
    let sliced = slice(enc.symbols(), trace, core);
    if trace.approximate {
        return Ok(Interpolants {
            atoms: fallback_atoms(trace, &sliced, enc.symbols()),
            source: Source::Fallback("uninterpreted functions in the trace".to_string()),
        });
    }
    let system = horn_system(trace, &sliced);
    match session.solve_horn(&system).await? {
        HornAnswer::Sat(sol) => match solution_bodies(&sliced, &sol) {
            Some(bodies) => {
                let bodies = prune_bodies(session, bodies).await?;
                let w = strengthen(session, &system, &sliced, &bodies).await?;
                Ok(Interpolants {
                    atoms: predicates_from_bodies(&sliced, &w),
                    source: Source::Horn,
                })
            }
            None => Ok(Interpolants {
                atoms: fallback_atoms(trace, &sliced, enc.symbols()),
                source: Source::Fallback("incomplete Horn solution".to_string()),
            }),
        },
        HornAnswer::Unsat => Err(InterpolantError::Feasible),
        HornAnswer::Unknown(r) => Ok(Interpolants {
            atoms: fallback_atoms(trace, &sliced, enc.symbols()),
            source: Source::Fallback(format!("Horn engine: unknown ({r})")),
        }),
    }
}

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
    let mut w: Vec<Term> = bodies.iter().map(crate::qe::weaken).collect();
    let inexact: Vec<bool> = bodies
        .iter()
        .map(|b| crate::qe::exact(b).is_none())
        .collect();
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

/// The SSA base symbol of a constant (`l@3` → `l`), or the name itself.
pub fn base_symbol(name: &str) -> &str {
    unversion(name).unwrap_or(name)
}

/// Tests with the native solver (`z3` from `$CFP_Z3`, `cargo xtask setup-z3` or `PATH`):
/// they fail, with the install hint, when no z3 is found.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::feasibility::{check_feasibility, Feasibility};
    use crate::trace::tests::{fig2, lock_unlock, spurious};
    use crate::trace::{encode_trace, Trace, TraceStep};
    use cfp_smt::{block_on, NativeZ3};

    fn session() -> Session<NativeZ3> {
        Session::new(crate::testutil::z3())
    }

    fn show(atoms: &[Vec<Term>]) -> String {
        atoms
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let a: Vec<String> = a.iter().map(Term::to_string).collect();
                format!("I{i}: {}", a.join(" "))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn paper_spurious_path_is_infeasible_with_paper_interpolants() {
        let p = fig2();
        let enc = Encoder::new(&p);
        let mut s = session();
        let tr = spurious(&p);
        let (encoded, verdict) = block_on(check_feasibility(&mut s, &enc, &tr)).expect("check");
        let Feasibility::Infeasible(core) = verdict else {
            panic!("expected infeasible, got {verdict:?}")
        };
        // acquire's `l1 == $1`, release's `l2 != $1`, and the bindings linking them.
        for k in [8, 10, 16, 18] {
            assert!(core.steps.contains(&k), "core {core:?}");
        }
        let it = block_on(interpolants(&mut s, &enc, &encoded, &core)).expect("interpolants");
        let text = show(&it.atoms);
        assert_eq!(it.source, Source::Horn, "{text}");
        // After `assume l1 == $1` in acquire, and at its exit: `l1 = $1`-style atoms (in
        // the position's interpolant, which is one predicate).
        let mentions = |i: usize, a: &str, b: &str| {
            let mut atoms = Vec::new();
            for t in &it.atoms[i] {
                atoms_of(t, &mut atoms);
            }
            atoms.iter().any(|t| {
                let s = t.to_string();
                s == format!("(= {a} {b})") || s == format!("(= {b} {a})")
            })
        };
        assert!(
            mentions(11, "l1", "$1") || mentions(11, "l1@entry", "$1"),
            "{text}"
        );
        // foo after the call of acquire: `l = $1`.
        assert!(mentions(13, "l", "$1"), "{text}");
        // release's entry: `l2 = $1`.
        assert!(
            mentions(17, "l2", "$1") || mentions(17, "l2@entry", "$1"),
            "{text}"
        );
        // Fallback predicates on the same core also find them.
        let sliced = slice(enc.symbols(), &encoded, &core);
        let fb = fallback_atoms(&encoded, &sliced, enc.symbols());
        assert!(
            fb[13].iter().any(|t| t.to_string() == "(= l $1)"),
            "{}",
            show(&fb)
        );
    }

    /// Random complete nested paths through `p` (root entry to root exit), each step
    /// chosen by a small LCG from `seed`; `None` when a walk exceeds `max` steps.
    fn random_path(p: &crate::ir::Program, seed: u64, max: usize) -> Option<Trace> {
        let mut rng = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut next = |n: usize| {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((rng >> 33) as usize) % n
        };
        let mut steps = Vec::new();
        // (caller, node to continue at, index of the call step)
        let mut stack: Vec<(crate::ir::MethodId, petgraph::graph::NodeIndex, usize)> = Vec::new();
        let mut m = p.root;
        let mut node = p.methods[m.index()].entry;
        while steps.len() < max {
            let cfa = &p.methods[m.index()];
            if node == cfa.exit {
                match stack.pop() {
                    None => {
                        return Some(Trace {
                            start: p.root,
                            steps,
                        })
                    }
                    Some((caller, back, call)) => {
                        steps.push(TraceStep::Return { call });
                        m = caller;
                        node = back;
                        continue;
                    }
                }
            }
            let mut out: Vec<_> = cfa
                .graph
                .edges(node)
                .map(|e| petgraph::visit::EdgeRef::id(&e))
                .collect();
            if out.is_empty() {
                return None;
            }
            out.sort();
            let e = out[next(out.len())];
            let target = cfa.graph.edge_endpoints(e)?.1;
            match cfa.graph.edge_weight(e)? {
                crate::ir::Edge::Call { callee, .. } => {
                    stack.push((m, target, steps.len()));
                    steps.push(TraceStep::Call { method: m, edge: e });
                    m = *callee;
                    node = p.methods[m.index()].entry;
                }
                crate::ir::Edge::Api { .. } | crate::ir::Edge::ApiCall { .. } => {
                    steps.push(TraceStep::Api { method: m, edge: e });
                    node = target;
                }
                crate::ir::Edge::Block(_) => {
                    steps.push(TraceStep::Intra { method: m, edge: e });
                    node = target;
                }
            }
        }
        None
    }

    /// Regression (tests/check/15, 16: "sliced trace is feasible according to the Horn
    /// engine"): a constructor writes a field through `this`; its summary at the exit
    /// could not relate the field array to its value at the entry (field arrays and
    /// `%alloc` had no entry copies in the Horn signatures), so the return clause forgot
    /// that all other cells are unchanged. For many random paths through programs with
    /// fields, calls and allocation: every infeasible path's Horn system, sliced to its
    /// core and unsliced, has a solution, and the atoms mention only state symbols.
    #[test]
    fn horn_system_of_infeasible_paths_has_a_solution() {
        let programs = [
            (
                include_str!("../../../tests/check/15-shared-lock-fields.java"),
                include_str!("../../../tests/specs/lock.cfg"),
            ),
            (
                include_str!("../../../tests/check/16-aliasing.java"),
                include_str!("../../../tests/specs/lock.cfg"),
            ),
            (
                include_str!("../../../tests/check/13-instance-field.java"),
                include_str!("../../../tests/specs/lock.cfg"),
            ),
            (
                include_str!("../../../tests/check/26-wakelock-refcounted-ok.java"),
                include_str!("../../../tests/specs/wakelock.cfg"),
            ),
        ];
        let mut s = session();
        let mut infeasible = 0;
        for (src, spec) in programs {
            let p = crate::instrument(&crate::testutil::lower_ok(src, spec));
            let enc = Encoder::new(&p);
            let mut seen = BTreeSet::new();
            for seed in 0..60u64 {
                let Some(tr) = random_path(&p, seed, 400) else {
                    continue;
                };
                if !seen.insert(format!("{:?}", tr.steps)) {
                    continue;
                }
                let (encoded, verdict) =
                    block_on(check_feasibility(&mut s, &enc, &tr)).expect("check");
                let Feasibility::Infeasible(core) = verdict else {
                    continue;
                };
                infeasible += 1;
                for core in [core, Core::all(&encoded)] {
                    let sliced = slice(enc.symbols(), &encoded, &core);
                    let system = horn_system(&encoded, &sliced);
                    let answer = block_on(s.solve_horn(&system)).expect("horn");
                    let HornAnswer::Sat(sol) = answer else {
                        panic!(
                            "seed {seed}: infeasible trace without Horn solution ({answer:?})\n{}",
                            s.horn_script(&system)
                        );
                    };
                    let bodies = solution_bodies(&sliced, &sol).expect("complete");
                    let bodies = block_on(prune_bodies(&mut s, bodies)).expect("prune");
                    let w = block_on(strengthen(&mut s, &system, &sliced, &bodies))
                        .expect("strengthen");
                    let atoms = predicates_from_bodies(&sliced, &w);
                    for (i, a) in atoms.iter().enumerate() {
                        let pos = &encoded.positions[i];
                        let scope: BTreeSet<String> = enc
                            .symbols()
                            .scope(pos.method)
                            .expect("scope")
                            .into_iter()
                            .map(|(n, _)| n)
                            .collect();
                        for t in a {
                            assert!(
                                t.free_vars().iter().all(|(v, _)| scope.contains(v)),
                                "I{i}: {t} is not over state symbols"
                            );
                        }
                    }
                }
            }
        }
        assert!(infeasible >= 4, "only {infeasible} infeasible paths");
    }

    #[test]
    fn lock_unlock_path_is_feasible_with_values() {
        let p = fig2();
        let enc = Encoder::new(&p);
        let mut s = session();
        let (_, verdict) =
            block_on(check_feasibility(&mut s, &enc, &lock_unlock(&p))).expect("check");
        let Feasibility::Feasible(values) = verdict else {
            panic!("expected feasible, got {verdict:?}")
        };
        // `$1` is the lock main allocated (step 6: `%t2 := new ReentrantLock`).
        let w = &values.wildcards[0];
        assert_eq!(w.name, "$1");
        assert_eq!(w.allocated_at, Some(6), "{values:?}");
        // The short path root → main → foo (else branch) is feasible too.
        let short = crate::trace::tests::Walk::new(&p)
            .edge("<root>", 0, 1)
            .call("<root>", "Main.main")
            .edge("Main.main", 0, 1)
            .call("Main.main", "Main.<init>")
            .edge("Main.<init>", 0, 1)
            .ret()
            .edge("Main.main", 2, 3)
            .call("Main.main", "Main.foo")
            .edge("Main.foo", 0, 3)
            .ret()
            .ret()
            .trace();
        let (_, verdict) = block_on(check_feasibility(&mut s, &enc, &short)).expect("check");
        assert!(matches!(verdict, Feasibility::Feasible(_)), "{verdict:?}");
    }

    #[test]
    fn fresh_allocations_never_alias() {
        let src = "class A {\n  public static void main(String[] args) {\n    A a = new A();\n    A b = new A();\n    if (a == b) { a.m(); }\n  }\n  void m() { }\n}\n";
        let p = crate::testutil::lower_ok(src, "wildcard $1 : A;\nS -> ε;\n");
        let p = crate::instrument(&p);
        let enc = Encoder::new(&p);
        let main = crate::trace::tests::method(&p, "A.main");
        let root = p.root;
        // root → main, then main's path through `assume a == b`.
        let g = &p.methods[main.index()].graph;
        let mut steps = vec![];
        let rg = &p.methods[root.index()].graph;
        for e in rg.edge_indices() {
            match rg.edge_weight(e) {
                Some(crate::ir::Edge::Call { .. }) => steps.push(TraceStep::Call {
                    method: root,
                    edge: e,
                }),
                _ => steps.push(TraceStep::Intra {
                    method: root,
                    edge: e,
                }),
            }
        }
        let call = steps.len() - 1;
        // Walk main's edges from the entry, taking `a == b` at the branch.
        let mut node = p.methods[main.index()].entry;
        let mut fields = Vec::new();
        let mut calls = Vec::new();
        while node != p.methods[main.index()].exit {
            let mut out: Vec<_> = g
                .edges(node)
                .map(|e| petgraph::visit::EdgeRef::id(&e))
                .collect();
            out.sort();
            let pick = out
                .iter()
                .copied()
                .find(|e| {
                    let txt = format!("{:?}", g.edge_weight(*e));
                    !txt.contains("Ne")
                })
                .unwrap_or(out[0]);
            match g.edge_weight(pick) {
                Some(crate::ir::Edge::Call { callee, .. }) => {
                    // Step into the callee's single-edge body and back.
                    steps.push(TraceStep::Call {
                        method: main,
                        edge: pick,
                    });
                    let c = steps.len() - 1;
                    calls.push(c);
                    let cg = &p.methods[callee.index()].graph;
                    for e in cg.edge_indices() {
                        steps.push(TraceStep::Intra {
                            method: *callee,
                            edge: e,
                        });
                    }
                    steps.push(TraceStep::Return { call: c });
                }
                _ => steps.push(TraceStep::Intra {
                    method: main,
                    edge: pick,
                }),
            }
            fields.push(pick);
            node = g.edge_endpoints(pick).map(|(_, b)| b).unwrap_or(node);
        }
        steps.push(TraceStep::Return { call });
        let tr = Trace { start: root, steps };
        let encoded = encode_trace(&enc, &tr).expect("encodes");
        let text: Vec<String> = encoded.steps.iter().map(Term::to_string).collect();
        assert!(text.iter().any(|t| t.contains("(= a@1 b@1)")), "{text:#?}");
        let mut s = session();
        let (_, verdict) = block_on(check_feasibility(&mut s, &enc, &tr)).expect("check");
        assert!(
            matches!(verdict, Feasibility::Infeasible(_)),
            "{verdict:?}\n{text:#?}"
        );
    }
}
