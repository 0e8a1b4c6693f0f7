//! The Horn strategy: nested interpolants of an infeasible trace via a tree-shaped,
//! non-recursive Horn system (ARCHITECTURE.md, "Nested interpolants via Horn clauses"), on the
//! trace sliced to its unsat core ([`super::slicing`]).
//!
//! 1. **Horn system**, one predicate `I<i>` per position over its (sliced) signature:
//!    `I0(x̄0) ⇐ init`; `I<i+1> ⇐ I<i> ∧ s_i` for intra steps and calls; for a return at
//!    `j` matching the call at `c`: `I<j+1> ⇐ I<c> ∧ I<j> ∧ s_c ∧ s_j` (the call's
//!    parameter binding is repeated so the callee's entry copies link to the caller's
//!    actuals); `false ⇐ I<n>`. Arguments are the SSA terms of the position's symbols.
//! 2. It is solved by Spacer **within limits** ([`QueryLimits`]: Z3's resource limit, the
//!    same on every machine, and a wall-clock safety net): a query that hits them is a
//!    signal to try another strategy, never a verdict.
//! 3. A solution's body for `I<i>` is renamed from the Horn parameters (positional) to the
//!    state symbols ([`solution_bodies`]). Spacer states bodies of inlined predicates with
//!    existentials over arrays and integers; they are made quantifier-free:
//!    * [`prune_bodies`] drops every top-level disjunct that is unsatisfiable (one batch,
//!      existentials skolemised) — only for disjuncts light elimination cannot handle;
//!    * [`crate::qe::weaken`] eliminates the existentials (exactly where it can, else by
//!      weakening);
//!    * [`super::repair::strengthen`] checks the weakened formulas against the Horn clauses
//!      and, where weakening broke one, adds the cell facts that Spacer's formula implies.
//! 4. [`super::predicates_of`] makes the predicates of a position from its formula: its
//!    atoms when they are few, else the formula itself.
//!
//! Spacer does not take the uninterpreted functions that stand for non-linear arithmetic:
//! a core that uses them is left to the other strategies.

use super::repair::strengthen;
pub use super::slicing::Sliced;
use crate::trace::EncodedTrace;
use cfp_smt::session::{HornAnswer, HornClause, HornSystem, QueryLimits, Session};
use cfp_smt::{CheckSat, Op, Solver, SolverError, Sort, Term, TermKind};
use std::collections::BTreeSet;

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
pub(super) fn skolemize(t: &Term, counter: &mut usize) -> Option<Term> {
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

/// What the Horn strategy produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HornOutcome {
    /// The quantifier-free formula per position `0..=n` of a Horn solution.
    Formulas(Vec<Term>),
    /// No solution to use, and why (a limit, `unknown`, uninterpreted functions, …).
    Failed(String),
}

/// The Horn strategy on a trace sliced to its core (see the module doc). Solver failures
/// other than a hit limit are errors (a cancelled run stops here).
pub async fn horn_formulas<S: Solver>(
    session: &mut Session<S>,
    trace: &EncodedTrace,
    sliced: &Sliced,
    limits: QueryLimits,
) -> Result<HornOutcome, SolverError> {
    let core_formulas = std::iter::once(&sliced.init).chain(sliced.steps.iter());
    if core_formulas
        .into_iter()
        .any(crate::encode::uses_uninterpreted)
    {
        return Ok(HornOutcome::Failed(
            "the core uses non-linear arithmetic (uninterpreted functions)".into(),
        ));
    }
    let system = horn_system(trace, sliced);
    let limits = match limits.rlimit {
        Some(_) => scaled_limits(limits, session.horn_script(&system).len()),
        None => limits,
    };
    let answer = match session.solve_horn_within(&system, limits).await {
        Ok(a) => a,
        Err(SolverError::TimedOut(why)) => return Ok(HornOutcome::Failed(why)),
        Err(e) => return Err(e),
    };
    match answer {
        HornAnswer::Sat(sol) => match solution_bodies(sliced, &sol) {
            Some(bodies) => {
                let bodies = prune_bodies(session, bodies).await?;
                let w = strengthen(session, &system, sliced, &bodies).await?;
                Ok(HornOutcome::Formulas(w))
            }
            None => Ok(HornOutcome::Failed("incomplete Horn solution".into())),
        },
        HornAnswer::Unsat => Ok(HornOutcome::Failed(
            "the Horn engine found the sliced trace feasible".into(),
        )),
        HornAnswer::Unknown(r) => Ok(HornOutcome::Failed(format!("unknown ({r})"))),
    }
}

/// Horn scripts up to this many bytes get the whole resource limit.
const HORN_FULL_LIMIT_BYTES: usize = 256 * 1024;

/// The limits of a Horn query of `bytes` bytes: past [`HORN_FULL_LIMIT_BYTES`] the
/// resource limit shrinks in proportion, and Spacer does not inline clauses eagerly.
/// Spacer's time per resource unit grows with the system (on a 1.5 MB system of a whole
/// application, 1.5 M units took 15 s where 300 k took 0.7 s), and the other strategies
/// are still to come; eager inlining of a 3 MB system of 613 predicates ran past 120 s and
/// 18 GB before the resource limit counted anything (1 s without it).
fn scaled_limits(limits: QueryLimits, bytes: usize) -> QueryLimits {
    let rlimit = limits.rlimit.map(|r| {
        if bytes <= HORN_FULL_LIMIT_BYTES {
            r
        } else {
            let scaled = u128::from(r) * HORN_FULL_LIMIT_BYTES as u128 / bytes as u128;
            u64::try_from(scaled).unwrap_or(r).max(1)
        }
    });
    QueryLimits {
        rlimit,
        no_eager_inlining: limits.no_eager_inlining || bytes > HORN_FULL_LIMIT_BYTES,
        ..limits
    }
}

/// Tests with the native solver (`z3` from `$CFP_Z3`, `cargo xtask setup-z3` or `PATH`):
/// they fail, with the install hint, when no z3 is found.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::Encoder;
    use crate::feasibility::{check_feasibility, Feasibility};
    use crate::refinement::newton::{newton_formulas, Direction};
    use crate::refinement::path_facts::path_facts;
    use crate::refinement::predicates_of;
    use crate::refinement::slicing::{slice, Core};
    use crate::trace::tests::{fig2, lock_unlock, spurious};
    use crate::trace::{encode_trace, Trace, TraceStep};
    use cfp_smt::{block_on, NativeZ3};

    #[test]
    fn large_horn_systems_get_a_proportionally_smaller_resource_limit_and_no_eager_inlining() {
        let limits = QueryLimits {
            rlimit: Some(1_500_000),
            wall_ms: Some(30_000),
            no_eager_inlining: false,
        };
        assert_eq!(scaled_limits(limits, 10_000), limits);
        assert_eq!(scaled_limits(limits, HORN_FULL_LIMIT_BYTES), limits);
        let big = scaled_limits(limits, 6 * HORN_FULL_LIMIT_BYTES);
        assert_eq!(big.rlimit, Some(250_000));
        assert_eq!(big.wall_ms, Some(30_000));
        assert!(big.no_eager_inlining);
        let unlimited = QueryLimits {
            rlimit: None,
            ..limits
        };
        assert_eq!(scaled_limits(unlimited, 1 << 30).rlimit, None);
    }

    fn split_atoms(f: &Term) -> Vec<Term> {
        let mut out = Vec::new();
        crate::refinement::atoms::atoms_of(f, &mut out);
        out
    }

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
        let sliced = slice(enc.symbols(), &encoded, &core);
        let outcome = block_on(horn_formulas(
            &mut s,
            &encoded,
            &sliced,
            QueryLimits::default(),
        ))
        .expect("horn");
        let HornOutcome::Formulas(formulas) = outcome else {
            panic!("no Horn solution: {outcome:?}")
        };
        let atoms: Vec<Vec<Term>> = formulas.iter().map(split_atoms).collect();
        // The paper's predicates, as atoms: after `assume l1 == $1` in acquire and at its
        // exit `l1 = $1`, in foo after the call of acquire `l = $1`, at release's entry
        // `l2 = $1` (or their entry copies).
        let paper = |atoms: &[Vec<Term>]| {
            let text = show(atoms);
            let mentions = |i: usize, a: &str, b: &str| {
                atoms[i].iter().any(|t| {
                    let s = t.to_string();
                    s == format!("(= {a} {b})") || s == format!("(= {b} {a})")
                })
            };
            assert!(
                mentions(11, "l1", "$1") || mentions(11, "l1@entry", "$1"),
                "{text}"
            );
            assert!(mentions(13, "l", "$1"), "{text}");
            assert!(
                mentions(17, "l2", "$1") || mentions(17, "l2@entry", "$1"),
                "{text}"
            );
        };
        paper(&atoms);
        // Weakest preconditions of the sliced path find them too, without a solver, and
        // no position needs more than two atoms.
        let wp: Vec<Vec<Term>> =
            newton_formulas(&encoded, &sliced, enc.symbols(), Direction::Backward)
                .iter()
                .map(predicates_of)
                .collect();
        paper(&wp);
        assert!(wp.iter().all(|a| a.len() <= 2), "{}", show(&wp));
        // And the path's own facts.
        let facts = path_facts(&encoded, &sliced, enc.symbols());
        assert!(
            facts[13].iter().any(|t| t.to_string() == "(= l $1)"),
            "{}",
            show(&facts)
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
                include_str!("../../../../tests/check/15-shared-lock-fields.java"),
                include_str!("../../../../tests/specs/lock.cfg"),
            ),
            (
                include_str!("../../../../tests/check/16-aliasing.java"),
                include_str!("../../../../tests/specs/lock.cfg"),
            ),
            (
                include_str!("../../../../tests/check/13-instance-field.java"),
                include_str!("../../../../tests/specs/lock.cfg"),
            ),
            (
                include_str!("../../../../tests/check/26-wakelock-refcounted-ok.java"),
                include_str!("../../../../tests/specs/wakelock.cfg"),
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
                    let atoms: Vec<Vec<Term>> = w.iter().map(split_atoms).collect();
                    for (i, a) in atoms.iter().enumerate() {
                        let pos = &encoded.positions[i];
                        let scope: BTreeSet<String> = enc
                            .symbols()
                            .scope(pos.method)
                            .expect("scope")
                            .iter()
                            .map(|(n, _)| n.clone())
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
