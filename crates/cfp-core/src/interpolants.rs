//! Nested interpolants of an infeasible trace via a tree-shaped, non-recursive Horn
//! system (DESIGN.md §3, "Nested interpolants via Horn clauses").
//!
//! 1. **Slice** the SSA trace to an unsat core: steps outside the core become `true`; a
//!    state symbol stays in the signature of position `i` only when its SSA term there
//!    mentions a constant of some core formula (the others are unconstrained everywhere,
//!    so dropping them loses no solution). Inside a callee the signature also carries
//!    Horn-only copies of the field arrays and `%alloc` at the callee's entry
//!    ([`horn_only_copy`]; the scope has entry copies of parameters and globals only):
//!    without them the summary at the exit cannot say "every other cell is unchanged",
//!    the return clause is weaker than the SSA formula and an infeasible trace gets no
//!    solution. Atoms mentioning these copies are dropped from the predicates.
//! 2. **Horn system**, one predicate `I<i>` per position over its (sliced) signature:
//!    `I0(x̄0) ⇐ init`; `I<i+1> ⇐ I<i> ∧ s_i` for intra steps and calls; for a return at
//!    `j` matching the call at `c`: `I<j+1> ⇐ I<c> ∧ I<j> ∧ s_c ∧ s_j` (the call's
//!    parameter binding is repeated so the callee's entry copies link to the caller's
//!    actuals); `false ⇐ I<n>`. Arguments are the SSA terms of the position's symbols.
//! 3. A solution's body for `I<i>` is renamed from the Horn parameters (positional) to the
//!    state symbols and **post-processed** into atoms: conjunctions, disjunctions,
//!    negations and implications are split into their atomic sub-formulas, `true`/`false`,
//!    quantified atoms, frame identities (`x = x@entry`) and duplicates are dropped.
//! 4. **Fallback** (Spacer says `unknown`, or the trace uses uninterpreted functions
//!    which the Horn engine does not take): the atoms of the core formulas, projected to
//!    each position by equality reasoning — constants related by a core equality `v = w`
//!    form classes, and a constant out of scope is replaced by a member of its class that
//!    is in scope at the position (its current SSA term there); atoms that still mention
//!    an out-of-scope constant are dropped. These are predicates, not guaranteed to be
//!    inductive interpolants: the CEGAR loop's repeated-counterexample guard covers a
//!    refinement that makes no progress.

use crate::encode::{entry_copy, unversion, Encoder, Symbols, ALLOC};
use crate::trace::{step_label, EncodedTrace, INIT_LABEL};
use cfp_smt::session::{HornAnswer, HornClause, HornSystem, Session};
use cfp_smt::{Op, Solver, SolverError, Sort, Term, TermKind};
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
    /// Per position: the state symbols kept (name, sort, SSA term), in scope order,
    /// then the Horn-only frame copies (see [`horn_only_copy`]).
    pub signatures: Vec<Vec<(String, Sort, Term)>>,
    /// The names of the Horn-only frame copies used in `signatures`: not state symbols,
    /// so atoms mentioning them are not predicates.
    pub horn_only: BTreeSet<String>,
}

/// The Horn-only copy of a field array or `%alloc` at the entry of the running method
/// (`Class.f@entry`, `%alloc@entry`). [`Symbols::scope`] has entry copies of parameters
/// and globals only; without these, a callee's predicates could not relate the arrays
/// and `%alloc` at its exit to their values at its entry, so the return clause would lose
/// the frame (`f@exit = store(f@entry, o, v)`: every cell but `o` unchanged) that the SSA
/// encoding keeps by sharing constants, and an infeasible trace would get no solution.
pub fn horn_only_copy(name: &str) -> String {
    entry_copy(name)
}

/// For every position, the position where its method's frame was entered (the position
/// after the matching call), `None` in the start method.
fn frame_entries(trace: &EncodedTrace) -> Vec<Option<usize>> {
    let mut out = Vec::with_capacity(trace.positions.len());
    let mut stack: Vec<usize> = Vec::new();
    out.push(None);
    for i in 0..trace.steps.len() {
        if trace.call_of.get(i).is_some_and(Option::is_some) {
            stack.pop();
        } else if trace.positions.get(i + 1).map(|p| p.depth)
            > trace.positions.get(i).map(|p| p.depth)
        {
            stack.push(i + 1);
        }
        out.push(stack.last().copied());
    }
    out
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
    // Field arrays and `%alloc` (globals have entry copies in the scope).
    let framed: Vec<(String, Sort)> = symbols
        .fields()
        .iter()
        .cloned()
        .chain(std::iter::once((ALLOC.to_string(), Sort::Int)))
        .collect();
    let entries = frame_entries(trace);
    let mut horn_only = BTreeSet::new();
    let signatures = trace
        .positions
        .iter()
        .zip(&entries)
        .map(|(pos, entry)| {
            let scope = symbols.scope(pos.method).unwrap_or_default();
            let mut sig: Vec<(String, Sort, Term)> = scope
                .into_iter()
                .filter_map(|(n, s)| {
                    let t = pos.names.get(&n).ok()?.clone();
                    is_used(&t).then_some((n, s, t))
                })
                .collect();
            if let Some(at) = entry.and_then(|e| trace.positions.get(e)) {
                for (n, s) in &framed {
                    let Ok(t) = at.names.get(n) else { continue };
                    if is_used(t) {
                        let copy = horn_only_copy(n);
                        horn_only.insert(copy.clone());
                        sig.push((copy, s.clone(), t.clone()));
                    }
                }
            }
            sig
        })
        .collect();
    Sliced {
        init,
        steps,
        signatures,
        horn_only,
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
        TermKind::Bool(_) | TermKind::Quant(..) => {}
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
            if !is_frame_identity(t) && !out.contains(t) {
                out.push(t.clone());
            }
        }
    }
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

/// Atoms of each position from a Horn solution; `None` when the solution lacks a
/// predicate or its arity differs from the signature.
pub fn atoms_from_solution(
    sliced: &Sliced,
    solution: &cfp_smt::answer::HornSolution,
) -> Option<Vec<Vec<Term>>> {
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
        let mut atoms = Vec::new();
        atoms_of(&body, &mut atoms);
        atoms.retain(|a| {
            a.free_vars()
                .iter()
                .all(|(v, _)| !sliced.horn_only.contains(v))
        });
        out.push(atoms);
    }
    Some(out)
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
        HornAnswer::Sat(sol) => match atoms_from_solution(&sliced, &sol) {
            Some(atoms) => Ok(Interpolants {
                atoms,
                source: Source::Horn,
            }),
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
        match NativeZ3::find(None) {
            Ok(z) => Session::new(z),
            Err(e) => panic!("these tests need z3: set CFP_Z3 to a z3 binary ({e})"),
        }
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
        // After `assume l1 == $1` in acquire, and at its exit: `l1 = $1`-style atoms.
        let mentions = |i: usize, a: &str, b: &str| {
            it.atoms[i].iter().any(|t| {
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
                    let atoms = atoms_from_solution(&sliced, &sol).expect("complete");
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
