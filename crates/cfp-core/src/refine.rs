//! Refine (paper §5.3, Fig. 12; ARCHITECTURE.md): from the interpolants of a spurious nested
//! path build Ψ (predicates per CFA location), then
//! * **CompleteCubes / CloneStates**: every state of a refined location is split into one
//!   state per satisfiable complete cube over the location's new predicates (conjoined
//!   with the state's own literals). The cubes are found one predicate at a time (a batch
//!   per predicate, extending only the satisfiable partial cubes), so the queries grow with
//!   the satisfiable cubes rather than with 2^k; at most [`MAX_NEW_PREDICATES`] new
//!   predicates per location and refinement, smallest first;
//! * **UpdateTransitions**: a PCFA edge `(s1, σ, s2)` touching a changed state is kept only
//!   when `SAT(sp(σ, Pred(s1)) ∧ Pred(s2))`; for a call edge, σ is the frame of the call
//!   ([`crate::call_check::call_edge_frame`]: the caller's values across it), the callee's
//!   part being ConstructCFG's rule (3).
//!
//! All satisfiability questions of a phase go to the solver in one
//! [`Session::check_batch`] (memoised by the printed formula). A solver `unknown` keeps the
//! state or edge (sound: the abstraction only loses precision).
//!
//! Rule (3)'s call question lives in [`crate::call_check`].

use crate::encode::{entry_copy, EncodeError, Encoder, Names};
use crate::ir::{Edge, MethodId};
use crate::nested_path::{NestedTrace, StateRef};
use crate::pcfa::{Pcfas, StateId, Truth};
use cfp_smt::{CheckSat, Session, Solver, SolverError, Sort, Term, TermKind};
use petgraph::graph::NodeIndex;
use std::collections::{BTreeMap, BTreeSet};

/// At most this many new predicates per location and refinement by one strategy: a
/// state splits into up to 2^k clones.
pub const MAX_NEW_PREDICATES: usize = 6;
/// How many edges' queries UpdateTransitions builds and sends at once.
const EDGE_CHUNK: usize = 128;

/// The limit for the union of all strategies' candidates (the last attempt).
pub const MAX_NEW_PREDICATES_UNION: usize = 6;

/// A refinement may add at most this many clones plus as many as the abstraction has live
/// states (it may double it): past that, CloneStates and UpdateTransitions would build an
/// abstraction whose next inclusion check cannot end (a loop's growing predicates
/// travelling to every method split a 40-state program into 12,000 states and 760,000
/// edges to check in one refinement). The refinement is then not applied
/// ([`RefineOutcome::too_large`]).
pub const MAX_CLONES_PER_REFINEMENT: usize = 4096;

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
    pub edges_removed: Vec<(MethodId, crate::pcfa::PcfaEdge)>,
    /// Predicates newly tracked.
    pub predicates_added: usize,
    /// Set when the refinement was not applied because the abstraction would grow past
    /// [`MAX_CLONES_PER_REFINEMENT`] new states plus its live ones: the live states it
    /// had and the clones it would have added. Nothing else in the outcome is set then,
    /// and the PCFAs are as they were.
    pub too_large: Option<(usize, usize)>,
}

impl RefineOutcome {
    /// Add what `other`, a further refinement of the same round, changed.
    pub fn absorb(&mut self, other: RefineOutcome) {
        self.clones_added.extend(other.clones_added);
        self.states_removed.extend(other.states_removed);
        self.edges_removed.extend(other.edges_removed);
        self.predicates_added += other.predicates_added;
    }

    /// Why the refinement was not applied, for reports (`None` when it was).
    pub fn too_large_reason(&self) -> Option<String> {
        self.too_large.map(|(live, clones)| {
            format!(
                "the abstraction would grow from {live} to {} states in one refinement (limit: double plus {MAX_CLONES_PER_REFINEMENT})",
                live + clones
            )
        })
    }
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
/// its entry copy: the equalities of the pairs of which `mentioned` holds for both sides.
///
/// Each pair's two symbols occur in no other equality of the frame, so a formula `R`
/// conjoined with the whole frame is satisfiable iff it is with the pairs both of whose
/// symbols occur in `R` (a side `R` does not mention can take the other's value): pass
/// `R`'s free constants and the others are left out. A scope holds every field array of
/// the program; the formulas stay the size of what they talk about.
pub fn entry_frame(
    enc: &Encoder<'_>,
    m: MethodId,
    mentioned: &dyn Fn(&str) -> bool,
) -> Result<Term, EncodeError> {
    let syms = enc.symbols();
    let mut parts = Vec::new();
    let mut pair = |n: &str, ne: &str, s: &Sort| {
        if mentioned(n) && mentioned(ne) {
            parts.push(Term::eq(
                Term::var(n.to_string(), s.clone()),
                Term::var(ne.to_string(), s.clone()),
            ));
        }
    };
    for p in syms.params(m)? {
        let (n, s) = syms.local(m, *p)?;
        pair(n, &entry_copy(n), s);
    }
    for ((g, s), (ge, _)) in syms.shared().iter().zip(syms.shared_entry()) {
        pair(g, ge, s);
    }
    Ok(Term::and(parts))
}

/// The free constants of `terms`, as a membership test for [`entry_frame`].
fn constants_of<'t>(terms: impl IntoIterator<Item = &'t Term>) -> BTreeSet<String> {
    terms
        .into_iter()
        .flat_map(|t| t.free_vars().into_iter().map(|(n, _)| n))
        .collect()
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

/// The atoms of one location in the order they are tracked: smaller first (an atom over
/// fewer symbols splits fewer states into cheaper queries), first-seen order among equals.
fn ranked(atoms: &[Term]) -> Vec<&Term> {
    let mut v: Vec<(usize, usize, &Term)> = atoms
        .iter()
        .enumerate()
        .map(|(i, a)| (term_size(a), i, a))
        .collect();
    v.sort();
    v.into_iter().map(|(_, _, a)| a).collect()
}

/// Nodes of a term (a measure of its cost in queries).
fn term_size(t: &Term) -> usize {
    match t.kind() {
        TermKind::App(_, args) | TermKind::Uf(_, args, _) => {
            1 + args.iter().map(term_size).sum::<usize>()
        }
        TermKind::Quant(_, _, b) => 1 + term_size(b),
        _ => 1,
    }
}

/// Refine `pcfas` with Ψ (CompleteCubes, CloneStates, UpdateTransitions), tracking at most
/// `max_new` new predicates per location ([`ranked`] first).
pub async fn refine<S: Solver>(
    session: &mut Session<S>,
    enc: &Encoder<'_>,
    pcfas: &mut Pcfas,
    psi: &Psi,
    max_new: usize,
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
        for a in ranked(atoms) {
            if new.len() >= max_new {
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
    // 2. CompleteCubes, one new predicate at a time: a round extends every satisfiable
    //    partial cube of every refined state by the next predicate and its negation (one
    //    batch per round), so the queries grow with the satisfiable cubes, not with 2^k.
    struct Split {
        method: MethodId,
        state: StateId,
        new: Vec<usize>,
        /// Satisfiable partial cubes over `new[..round]`.
        cubes: Vec<Vec<Truth>>,
        base: Term,
    }
    let mut splits: Vec<Split> = Vec::new();
    for (m, loc, new) in &refined {
        let Some(p) = pcfas.method(*m) else { continue };
        let preds = p.predicates(*loc);
        for &s in p.states_at(*loc) {
            let state = p.state_formula(s);
            let frame = if *loc == p.entry_loc {
                let mentioned = constants_of(
                    std::iter::once(&state).chain(new.iter().filter_map(|&i| preds.get(i))),
                );
                entry_frame(enc, *m, &|n| mentioned.contains(n)).unwrap_or_else(|_| Term::tt())
            } else {
                Term::tt()
            };
            splits.push(Split {
                method: *m,
                state: s,
                new: new.clone(),
                cubes: vec![Vec::new()],
                base: Term::and(vec![state, frame]),
            });
        }
    }
    let rounds = splits.iter().map(|sp| sp.new.len()).max().unwrap_or(0);
    for round in 0..rounds {
        let mut queries: Vec<Term> = Vec::new();
        let mut owners: Vec<(usize, Vec<Truth>)> = Vec::new();
        for (k, sp) in splits.iter().enumerate() {
            if sp.new.len() <= round {
                continue;
            }
            let Some(p) = pcfas.method(sp.method) else {
                continue;
            };
            let Some(loc) = p.state(sp.state).map(|st| st.loc) else {
                continue;
            };
            let preds = p.predicates(loc);
            for cube in &sp.cubes {
                for t in [Truth::True, Truth::False] {
                    let mut ext = cube.clone();
                    ext.push(t);
                    let mut parts = vec![sp.base.clone()];
                    for (c, &i) in ext.iter().zip(&sp.new) {
                        if let Some(pr) = preds.get(i) {
                            parts.push(lit(pr, *c));
                        }
                    }
                    queries.push(Term::and(parts));
                    owners.push((k, ext));
                }
            }
        }
        if queries.is_empty() {
            break;
        }
        let answers = session.check_batch(&queries).await?;
        let mut next_cubes: Vec<Vec<Vec<Truth>>> = vec![Vec::new(); splits.len()];
        for ((k, ext), a) in owners.into_iter().zip(&answers) {
            if unknown_is_sat(a) {
                next_cubes[k].push(ext);
            }
        }
        for (k, sp) in splits.iter_mut().enumerate() {
            if sp.new.len() > round {
                sp.cubes = std::mem::take(&mut next_cubes[k]);
            }
        }
    }
    // The growth limit, before anything but the predicate lists has changed.
    let clones: usize = splits
        .iter()
        .map(|sp| sp.cubes.len().saturating_sub(1))
        .sum();
    let live = pcfas.state_count();
    if clones > live + MAX_CLONES_PER_REFINEMENT {
        for (m, loc, new) in &refined {
            if let (Some(p), Some(first)) = (pcfas.method_mut(*m), new.iter().min()) {
                p.truncate_predicates(*loc, *first);
            }
        }
        return Ok(RefineOutcome {
            too_large: Some((live, clones)),
            ..RefineOutcome::default()
        });
    }
    // 3. CloneStates.
    let mut touched: BTreeSet<(MethodId, StateId)> = BTreeSet::new();
    for sp in &splits {
        let Some(p) = pcfas.method_mut(sp.method) else {
            continue;
        };
        let sat: Vec<&Vec<Truth>> = sp.cubes.iter().collect();
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
    // In chunks: a call edge's formula can be large, so few are alive at once (and a
    // run stopped midway drops little).
    let edges: Vec<_> = edges.into_iter().collect();
    let mut unsat = Vec::new();
    for chunk in edges.chunks(EDGE_CHUNK) {
        let mut edge_queries: Vec<Term> = Vec::new();
        let mut edge_ids: Vec<(MethodId, crate::pcfa::PcfaEdgeId)> = Vec::new();
        for (m, e) in chunk {
            session.stop_if_cancelled()?;
            let Some(p) = pcfas.method(*m) else { continue };
            let Some(edge) = p.edge(*e) else { continue };
            // A call edge needs the frame of the call (the whole question is
            // ConstructCFG's); an encoding failure keeps the edge (sound).
            let f = match edge_formula(enc, pcfas, *m, edge) {
                Ok(Some(f)) => Some(f),
                Ok(None) => crate::call_check::call_edge_frame(enc, pcfas, *m, edge).ok(),
                Err(_) => None,
            };
            if let Some(f) = f {
                edge_queries.push(f);
                edge_ids.push((*m, *e));
            }
        }
        let edge_answers = if edge_queries.is_empty() {
            Vec::new()
        } else {
            session.check_batch(&edge_queries).await?
        };
        for (id, r) in edge_ids.into_iter().zip(&edge_answers) {
            if matches!(r, CheckSat::Unsat) {
                unsat.push(id);
            }
        }
    }
    // Removed once all are answered: every query saw the same abstraction.
    for (m, e) in unsat {
        if let Some(p) = pcfas.method_mut(m) {
            if let Some(edge) = p.edge(e).copied() {
                p.remove_edge(e);
                out.edges_removed.push((m, edge));
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
    let pre = enc.identity(m)?;
    let mut post = Names::new();
    let f = enc.edge_formula(m, e, &pre, &mut post)?;
    let to = post.rename(&p.state_formula(edge.to));
    let from = p.state_formula(edge.from);
    let frame = match p.state(edge.from) {
        Some(st) if st.loc == p.entry_loc => {
            let mentioned = constants_of([&from, &f, &to]);
            entry_frame(enc, m, &|n| mentioned.contains(n))?
        }
        _ => Term::tt(),
    };
    Ok(Some(Term::and(vec![from, frame, f, to])))
}
