//! Refine (paper §5.3, Fig. 12; DESIGN.md §3): from the interpolants of a spurious nested
//! path build Ψ (predicates per CFA location), then
//! * **CompleteCubes / CloneStates**: every state of a refined location is split into one
//!   state per satisfiable complete cube over the location's new predicates (conjoined
//!   with the state's own literals);
//! * **UpdateTransitions**: an intra-procedural PCFA edge `(s1, σ, s2)` touching a changed
//!   state is kept only when `SAT(sp(σ, Pred(s1)) ∧ Pred(s2))`.
//!
//! All satisfiability questions of one refinement go to the solver in one
//! [`Session::check_batch`] per phase (memoised by the printed formula). A solver
//! `unknown` keeps the state or edge (sound: the abstraction only loses precision).
//!
//! [`call_formula`] is rule (3)'s question for ConstructCFG: may the call edge
//! `(s, call m', s')` enter the callee through its entry state `e0` and return through
//! its exit state `e'`?
//! `Pred(s) ∧ bind(formals) ∧ Pred(e0) ∧ Pred(e') ∧ bind(result, globals) ∧ Pred(s')`.

use crate::construct_cfg::CallQuery;
use crate::encode::{entry_copy, EncodeError, Encoder, Names, ALLOC};
use crate::ir::{Edge, MethodId};
use crate::nested_path::{NestedTrace, StateRef};
use crate::pcfa::{Pcfas, StateId, Truth};
use cfp_smt::{CheckSat, Op, Session, Solver, SolverError, Sort, Term, TermKind};
use petgraph::graph::NodeIndex;
use std::collections::{BTreeMap, BTreeSet};

/// At most this many new predicates per location and refinement (2^k cubes per state).
pub const MAX_NEW_PREDICATES: usize = 8;

/// Ψ: new candidate predicates per `(method, CFA location)`, in first-seen order.
pub type Psi = BTreeMap<(MethodId, NodeIndex), Vec<Term>>;

/// What one refinement changed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RefineOutcome {
    /// States created by CloneStates.
    pub clones_added: Vec<(MethodId, StateId)>,
    /// States removed because no cube was satisfiable (`Pred(s)` unsatisfiable).
    pub states_removed: Vec<(MethodId, StateId)>,
    /// Edges removed by UpdateTransitions: `(method, from, to)`.
    pub edges_removed: Vec<(MethodId, StateId, StateId)>,
    /// Predicates newly tracked.
    pub predicates_added: usize,
}

/// The PCFA state at each position `0..=n` of a nested trace.
pub fn position_states(trace: &NestedTrace) -> Vec<StateRef> {
    let mut out = Vec::with_capacity(trace.steps.len() + 1);
    out.push(trace.start);
    out.extend(trace.steps.iter().map(|s| s.after));
    out
}

fn is_useful_atom(t: &Term) -> bool {
    !matches!(t.kind(), TermKind::Bool(_)) && t.sort() == Sort::Bool
}

/// Group the interpolants by the location of the PCFA state at their position (the
/// paper's Ψ).
///
/// (An earlier version also carried each callee's entry interpolant, renamed to entry
/// copies, through the whole invocation. Since field arrays and `%alloc` have entry
/// copies in every scope, Spacer's exit summaries relate exit and entry themselves, and
/// the extra predicates only multiplied clones.)
pub fn build_psi(trace: &NestedTrace, pcfas: &Pcfas, atoms: &[Vec<Term>]) -> Psi {
    let states = position_states(trace);
    let mut psi: Psi = BTreeMap::new();
    for (pos, st) in states.into_iter().enumerate() {
        let Some(list) = atoms.get(pos) else {
            continue;
        };
        let Some(loc) = pcfas
            .method(st.method)
            .and_then(|p| p.state(st.state))
            .map(|s| s.loc)
        else {
            continue;
        };
        let entry = psi.entry((st.method, loc)).or_default();
        for a in list {
            if is_useful_atom(a) && !entry.contains(a) {
                entry.push(a.clone());
            }
        }
    }
    psi.retain(|_, v| !v.is_empty());
    psi
}

/// At a method's entry location every parameter, global, field array and `%alloc` equals
/// its entry copy.
pub fn entry_frame(enc: &Encoder<'_>, m: MethodId) -> Result<Term, EncodeError> {
    let syms = enc.symbols();
    let mut parts = Vec::new();
    for p in syms.params(m)? {
        let (n, s) = syms.local(m, *p)?;
        parts.push(Term::eq(
            Term::var(n.clone(), s.clone()),
            Term::var(entry_copy(n), s.clone()),
        ));
    }
    for (g, s) in syms.globals().iter().cloned().chain(syms.framed()) {
        parts.push(Term::eq(
            Term::var(g.clone(), s.clone()),
            Term::var(entry_copy(&g), s),
        ));
    }
    Ok(Term::and(parts))
}

fn lit(p: &Term, t: Truth) -> Term {
    match t {
        Truth::True => p.clone(),
        Truth::False => Term::negate(p.clone()),
        Truth::Unknown => Term::tt(),
    }
}

fn unknown_is_sat(r: &CheckSat) -> bool {
    !matches!(r, CheckSat::Unsat)
}

/// Refine `pcfas` with Ψ (CompleteCubes, CloneStates, UpdateTransitions).
pub async fn refine<S: Solver>(
    session: &mut Session<S>,
    enc: &Encoder<'_>,
    pcfas: &mut Pcfas,
    psi: &Psi,
) -> Result<RefineOutcome, SolverError> {
    let mut out = RefineOutcome::default();
    // 1. Track the new predicates.
    // (method, loc, indices of the new predicates)
    let mut refined: Vec<(MethodId, NodeIndex, Vec<usize>)> = Vec::new();
    for ((m, loc), atoms) in psi {
        let Some(p) = pcfas.method_mut(*m) else {
            continue;
        };
        let mut new = Vec::new();
        for a in atoms {
            if new.len() >= MAX_NEW_PREDICATES {
                break;
            }
            // Tracked as a macro application: state formulas stay small in queries.
            let a = session.macros_mut().apply(a);
            let known = p.predicates(*loc);
            let neg = Term::negate(a.clone());
            if known.iter().any(|q| *q == a || *q == neg) {
                continue;
            }
            new.push(p.add_predicate(*loc, a));
        }
        if !new.is_empty() {
            out.predicates_added += new.len();
            refined.push((*m, *loc, new));
        }
    }
    // 2. CompleteCubes: one query per (state, complete cube over the new predicates).
    struct Split {
        method: MethodId,
        state: StateId,
        new: Vec<usize>,
        cubes: Vec<Vec<Truth>>,
        first_query: usize,
    }
    let mut queries: Vec<Term> = Vec::new();
    let mut splits: Vec<Split> = Vec::new();
    for (m, loc, new) in &refined {
        let Some(p) = pcfas.method(*m) else { continue };
        let preds = p.predicates(*loc).to_vec();
        let cubes: Vec<Vec<Truth>> = (0..(1usize << new.len()))
            .map(|bits| {
                (0..new.len())
                    .map(|i| {
                        if bits >> i & 1 == 0 {
                            Truth::True
                        } else {
                            Truth::False
                        }
                    })
                    .collect()
            })
            .collect();
        let frame = if *loc == p.entry_loc {
            entry_frame(enc, *m).unwrap_or_else(|_| Term::tt())
        } else {
            Term::tt()
        };
        for &s in p.states_at(*loc) {
            let base = Term::and(vec![p.state_formula(s), frame.clone()]);
            let first_query = queries.len();
            for cube in &cubes {
                let mut parts = vec![base.clone()];
                for (k, &i) in new.iter().enumerate() {
                    if let Some(pr) = preds.get(i) {
                        parts.push(lit(pr, cube[k]));
                    }
                }
                queries.push(Term::and(parts));
            }
            splits.push(Split {
                method: *m,
                state: s,
                new: new.clone(),
                cubes: cubes.clone(),
                first_query,
            });
        }
    }
    let answers = if queries.is_empty() {
        Vec::new()
    } else {
        session.check_batch(&queries).await?
    };
    // 3. CloneStates.
    let mut touched: BTreeSet<(MethodId, StateId)> = BTreeSet::new();
    for sp in &splits {
        let Some(p) = pcfas.method_mut(sp.method) else {
            continue;
        };
        let sat: Vec<&Vec<Truth>> = sp
            .cubes
            .iter()
            .enumerate()
            .filter(|(k, _)| answers.get(sp.first_query + k).is_none_or(unknown_is_sat))
            .map(|(_, c)| c)
            .collect();
        if sat.is_empty() {
            // Pred(s) itself is unsatisfiable: no concrete state is abstracted by s.
            p.remove_state(sp.state);
            out.states_removed.push((sp.method, sp.state));
            continue;
        }
        let mut targets = vec![sp.state];
        for _ in 1..sat.len() {
            if let Some(c) = p.clone_state(sp.state) {
                targets.push(c);
                out.clones_added.push((sp.method, c));
            }
        }
        for (s, cube) in targets.iter().zip(sat) {
            for (k, &i) in sp.new.iter().enumerate() {
                p.set_truth(*s, i, cube[k]);
            }
            touched.insert((sp.method, *s));
        }
    }
    // 4. UpdateTransitions on the edges touching a changed state.
    let mut edges: BTreeSet<(MethodId, crate::pcfa::PcfaEdgeId)> = BTreeSet::new();
    for (m, s) in &touched {
        if let Some(p) = pcfas.method(*m) {
            edges.extend(p.out_edges(*s).iter().map(|e| (*m, *e)));
            edges.extend(p.in_edges(*s).iter().map(|e| (*m, *e)));
        }
    }
    let mut edge_queries: Vec<Term> = Vec::new();
    let mut edge_ids: Vec<(MethodId, crate::pcfa::PcfaEdgeId)> = Vec::new();
    for (m, e) in &edges {
        let Some(p) = pcfas.method(*m) else { continue };
        let Some(edge) = p.edge(*e) else { continue };
        // Calls are decided by ConstructCFG's call check; an encoding failure keeps the
        // edge (sound).
        if let Ok(Some(f)) = edge_formula(enc, pcfas, *m, edge) {
            edge_queries.push(f);
            edge_ids.push((*m, *e));
        }
    }
    let edge_answers = if edge_queries.is_empty() {
        Vec::new()
    } else {
        session.check_batch(&edge_queries).await?
    };
    for ((m, e), r) in edge_ids.iter().zip(&edge_answers) {
        if matches!(r, CheckSat::Unsat) {
            if let Some(p) = pcfas.method_mut(*m) {
                if let Some(edge) = p.edge(*e).copied() {
                    p.remove_edge(*e);
                    out.edges_removed.push((*m, edge.from, edge.to));
                }
            }
        }
    }
    Ok(out)
}

/// `Pred(s1) ∧ σ ∧ Pred(s2)'` for an intra-procedural PCFA edge; `None` for a call edge.
pub fn edge_formula(
    enc: &Encoder<'_>,
    pcfas: &Pcfas,
    m: MethodId,
    edge: &crate::pcfa::PcfaEdge,
) -> Result<Option<Term>, EncodeError> {
    let Some(p) = pcfas.method(m) else {
        return Err(EncodeError::NoMethod(m));
    };
    let e = enc.edge(m, edge.cfa_edge)?;
    if matches!(e, Edge::Call { .. }) {
        return Ok(None);
    }
    let scope = enc.symbols().scope(m)?;
    let pre = Names::identity(&scope);
    let mut post = Names::new();
    let f = enc.edge_formula(m, e, &pre, &mut post)?;
    let to = post.rename(&p.state_formula(edge.to));
    let frame = match p.state(edge.from) {
        Some(st) if st.loc == p.entry_loc => entry_frame(enc, m)?,
        _ => Term::tt(),
    };
    Ok(Some(Term::and(vec![
        p.state_formula(edge.from),
        frame,
        f,
        to,
    ])))
}

/// Rule (3)'s question as a formula (satisfiable = the call may enter the callee through
/// `q.callee_entry` and return through `q.callee_exit`).
///
/// The callee at its entry: parameters (and their entry copies) equal the actuals,
/// globals, field arrays, `%alloc` (and their entry copies) equal the caller's, other
/// variables arbitrary. At its exit: entry copies bound the same way, everything else
/// arbitrary (fresh). Dropping a binding only weakens the formula (sound).
pub fn call_formula(enc: &Encoder<'_>, pcfas: &Pcfas, q: &CallQuery) -> Result<Term, EncodeError> {
    Ok(call_formulas(enc, pcfas, q)?.full)
}

/// Rule (3)'s question and two necessary conditions of it that depend on one clone of
/// the callee only, so that they are shared by many questions (and answered once by the
/// session's memo): [`CallFormulas::entry`] (the call may enter `q.callee_entry`) and
/// [`CallFormulas::exit`] (a return through `q.callee_exit` may lead to `q.edge.to`).
#[derive(Clone, Debug)]
pub struct CallFormulas {
    /// `Pred(s) ∧ Pred(e0)` bound at the call.
    pub entry: Term,
    /// `Pred(s) ∧ Pred(e') ∧ bind ∧ Pred(s')` bound across the return.
    pub exit: Term,
    /// The whole question ([`call_formula`]).
    pub full: Term,
}

/// [`call_formula`] with its necessary conditions ([`CallFormulas`]).
pub fn call_formulas(
    enc: &Encoder<'_>,
    pcfas: &Pcfas,
    q: &CallQuery,
) -> Result<CallFormulas, EncodeError> {
    let syms = enc.symbols();
    let caller = pcfas
        .method(q.caller)
        .ok_or(EncodeError::NoMethod(q.caller))?;
    let callee = pcfas
        .method(q.callee)
        .ok_or(EncodeError::NoMethod(q.callee))?;
    let Edge::Call {
        callee: cm,
        args,
        result,
        ..
    } = enc.edge(q.caller, q.edge.cfa_edge)?
    else {
        return Err(EncodeError::BadCall("not a call edge".to_string()));
    };
    if *cm != q.callee {
        return Err(EncodeError::BadCall("callee mismatch".to_string()));
    }
    let pre = Names::identity(&syms.scope(q.caller)?);
    let mut ctr = Names::new();
    let mut actuals = Vec::with_capacity(args.len());
    for a in args {
        actuals.push(enc.expr(q.caller, a, &pre)?);
    }
    // The callee at its exit: its variables arbitrary, its entry copies bound to the
    // actuals and the caller's globals, the shared state arbitrary (its post-state).
    let mut cn = Names::new();
    for (n, s) in syms.vars(q.callee)? {
        let t = ctr.fresh_term(n, s.clone());
        cn.set(n, t);
    }
    let params = syms.params(q.callee)?.to_vec();
    if params.len() != actuals.len() {
        return Err(EncodeError::BadCall("arity mismatch".to_string()));
    }
    let written = written_vars(enc.method(q.callee)?);
    for (p, a) in params.iter().zip(&actuals) {
        let n = &syms.local(q.callee, *p)?.0;
        cn.set(&entry_copy(n), a.clone());
        // A parameter the callee never assigns still holds the actual at the exit (the
        // interpolants drop this frame identity).
        if !written.contains(p) {
            cn.set(n, a.clone());
        }
    }
    for (g, _) in syms.globals().iter().cloned().chain(syms.framed()) {
        cn.set(&entry_copy(&g), pre.get(&g)?.clone());
    }
    // A global or field array that no method of the program ever writes keeps its value
    // across the call (wildcards `$k`, for instance); everything else shared is arbitrary.
    let constant = constant_shared(enc)?;
    let mut shared_post = Vec::new();
    for (n, s) in syms.shared() {
        let t = if constant.contains(&n) {
            pre.get(&n)?.clone()
        } else {
            ctr.fresh_term(&n, s)
        };
        cn.set(&n, t.clone());
        shared_post.push((n, t));
    }
    let exit_pred = cn.rename(&callee.state_formula(q.callee_exit));
    // The callee at its entry.
    let mut en = Names::new();
    for (n, s) in syms.vars(q.callee)? {
        let t = ctr.fresh_term(n, s.clone());
        en.set(n, t);
    }
    for (p, a) in params.iter().zip(&actuals) {
        let n = &syms.local(q.callee, *p)?.0;
        en.set(n, a.clone());
        en.set(&entry_copy(n), a.clone());
    }
    for (n, _) in syms.shared() {
        en.set(&n, pre.get(&n)?.clone());
    }
    for (g, _) in syms.globals().iter().cloned().chain(syms.framed()) {
        en.set(&entry_copy(&g), pre.get(&g)?.clone());
    }
    let entry_pred = en.rename(&callee.state_formula(q.callee_entry));
    // The caller after the return.
    let mut post = pre.clone();
    post.merge_versions(&ctr);
    for (n, t) in &shared_post {
        post.set(n, t.clone());
    }
    let alloc_grows = Term::app(
        Op::Ge,
        vec![post.get(ALLOC)?.clone(), pre.get(ALLOC)?.clone()],
    );
    let bind_result = match result {
        None => Term::tt(),
        Some(place) => match enc.method(q.callee)?.ret {
            Some(r) => {
                let rn = &syms.local(q.callee, r)?.0;
                let v = cn.get(rn)?.clone();
                enc.assign(q.caller, place, v, &mut post)?
            }
            None => Term::tt(),
        },
    };
    let after = post.rename(&caller.state_formula(q.edge.to));
    let from = caller.state_formula(q.edge.from);
    Ok(CallFormulas {
        entry: Term::and(vec![from.clone(), entry_pred.clone()]),
        exit: Term::and(vec![
            from.clone(),
            exit_pred.clone(),
            alloc_grows.clone(),
            bind_result.clone(),
            after.clone(),
        ]),
        full: Term::and(vec![
            from,
            entry_pred,
            exit_pred,
            alloc_grows,
            bind_result,
            after,
        ]),
    })
}

/// The globals and field arrays (by symbol name) that no edge of the program writes:
/// their value never changes. (`%alloc` is never in the set.)
pub fn constant_shared(enc: &Encoder<'_>) -> Result<BTreeSet<String>, EncodeError> {
    use crate::ir::{Place, Stmt};
    let syms = enc.symbols();
    let mut written: BTreeSet<String> = BTreeSet::new();
    let mut note = |p: &Place| -> Result<(), EncodeError> {
        match p {
            Place::Var(_) => {}
            Place::Global(g) => {
                written.insert(syms.global(*g)?.0.clone());
            }
            Place::Field { field, .. } => {
                written.insert(syms.field(*field)?.0.clone());
            }
        }
        Ok(())
    };
    for cfa in &enc.program().methods {
        for e in cfa.graph.edge_weights() {
            match e {
                Edge::Block(stmts) => {
                    for s in stmts {
                        match &s.node {
                            Stmt::Assign { place, .. } | Stmt::Havoc(place) => note(place)?,
                            Stmt::Assume(_) | Stmt::Alloc { .. } => {}
                        }
                    }
                }
                Edge::Call {
                    result: Some(place),
                    ..
                } => note(place)?,
                _ => {}
            }
        }
    }
    Ok(syms
        .globals()
        .iter()
        .chain(syms.fields())
        .map(|(n, _)| n.clone())
        .filter(|n| !written.contains(n))
        .collect())
}

/// The variables a method assigns anywhere (assign, havoc, allocation, call result).
pub fn written_vars(cfa: &crate::ir::MethodCfa) -> BTreeSet<crate::ir::VarId> {
    use crate::ir::{Place, Stmt};
    let mut out = BTreeSet::new();
    for e in cfa.graph.edge_weights() {
        match e {
            Edge::Block(stmts) => {
                for s in stmts {
                    match &s.node {
                        Stmt::Assign {
                            place: Place::Var(v),
                            ..
                        }
                        | Stmt::Havoc(Place::Var(v))
                        | Stmt::Alloc { var: v, .. } => {
                            out.insert(*v);
                        }
                        _ => {}
                    }
                }
            }
            Edge::Call {
                result: Some(Place::Var(v)),
                ..
            } => {
                out.insert(*v);
            }
            _ => {}
        }
    }
    out
}
