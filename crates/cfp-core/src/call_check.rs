//! Rule (3) of ConstructCFG (paper Fig. 14) as a formula: may the call edge
//! `(s, call m', s')` enter the callee through its entry state `e0` and return through
//! its exit state `e'`?
//! `Pred(s) ∧ bind(formals) ∧ Pred(e0) ∧ Pred(e') ∧ bind(result, globals) ∧ Pred(s')`.
//!
//! Asked by the driver when it builds the grammar and by the progress check of a
//! refinement ([`crate::refinement::progress`]), so both answer the same question.

use crate::construct_cfg::CallQuery;
use crate::encode::{entry_copy, EncodeError, Encoder, Names, WriteSites, ALLOC};
use crate::ir::Edge;
use crate::pcfa::Pcfas;
use cfp_smt::{Op, Sort, Term};
use std::collections::BTreeSet;

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
    /// `Pred(s) ∧ bind ∧ Pred(s')` across the call without any callee predicate: a
    /// necessary condition of every question through the PCFA edge `(s, call, s')`, so
    /// that Refine's UpdateTransitions can remove call edges between inconsistent clones.
    pub frame: Term,
}

/// The [`CallFormulas::frame`] of the call PCFA edge `edge` of `caller`.
pub fn call_edge_frame(
    enc: &Encoder<'_>,
    pcfas: &Pcfas,
    caller: crate::ir::MethodId,
    edge: &crate::pcfa::PcfaEdge,
) -> Result<Term, EncodeError> {
    let Edge::Call { callee, .. } = enc.edge(caller, edge.cfa_edge)? else {
        return Err(EncodeError::BadCall("not a call edge".to_string()));
    };
    // Any clones: the frame does not depend on them.
    let q = CallQuery {
        caller,
        edge: *edge,
        callee: *callee,
        callee_entry: crate::pcfa::StateId(u32::MAX),
        callee_exit: crate::pcfa::StateId(u32::MAX),
    };
    Ok(call_formulas(enc, pcfas, &q)?.frame)
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
    let pre = enc.identity(q.caller)?;
    let exit_f = callee.state_formula(q.callee_exit);
    let entry_f = callee.state_formula(q.callee_entry);
    let to_f = caller.state_formula(q.edge.to);
    let exit_reads = free_names(&exit_f);
    let entry_reads = free_names(&entry_f);
    let slots = shared_read(
        enc,
        q.caller,
        &pre,
        result,
        [&exit_reads, &entry_reads, &free_names(&to_f)],
    );
    let mut ctr = Names::new();
    let mut actuals = Vec::with_capacity(args.len());
    for a in args {
        actuals.push(enc.expr(q.caller, a, &pre)?);
    }
    // The callee at its exit: its variables arbitrary, its entry copies bound to the
    // actuals and the caller's globals, the shared state arbitrary (its post-state).
    // Only the callee's variables a formula reads get a term (the others would be bound
    // to terms nothing constrains: the same satisfiability, a larger formula).
    let ret_name = match enc.method(q.callee)?.ret {
        Some(r) => Some(syms.local(q.callee, r)?.0.as_str()),
        None => None,
    };
    let mut cn = Names::new();
    for (n, s) in syms.vars(q.callee)? {
        if exit_reads.contains(n.as_str()) || ret_name == Some(n.as_str()) {
            let t = ctr.fresh_term(n, s.clone());
            cn.set(n, t);
        }
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
    for &k in &slots {
        let (Some((g, _)), Some((ge, _))) = (syms.shared().get(k), syms.shared_entry().get(k))
        else {
            continue;
        };
        cn.set(ge, pre.get(g)?.clone());
    }
    // A shared symbol that neither the callee nor anything it calls writes keeps its value
    // across the call (the frame; a wildcard `$k`, a field the callee only reads);
    // everything else shared is arbitrary after it, as far as the caller knows.
    // A field array written only at objects the callee's parameters denote changes only
    // in those cells.
    let modified = enc.modified_by(q.callee);
    let sites = enc.field_writes(q.callee);
    let mut shared_post = Vec::new();
    for &k in &slots {
        let Some((n, s)) = syms.shared().get(k) else {
            continue;
        };
        let t = if modified.is_some_and(|m| !m.contains(n)) {
            pre.get(n)?.clone()
        } else if let (Some(WriteSites::Params(js)), Sort::Array(_, elem)) =
            (sites.and_then(|w| w.get(n)), s)
        {
            let mut arr = pre.get(n)?.clone();
            for j in js {
                let Some(obj) = actuals.get(*j) else {
                    return Err(EncodeError::BadCall("arity mismatch".to_string()));
                };
                let cell = ctr.fresh_term(&format!("{n}%cell"), (**elem).clone());
                arr = Term::store(arr, obj.clone(), cell);
            }
            arr
        } else {
            ctr.fresh_term(n, s.clone())
        };
        cn.set(n, t.clone());
        shared_post.push((n, t));
    }
    let exit_pred = cn.rename(&exit_f);
    // The callee at its entry.
    let mut en = Names::new();
    for (n, s) in syms.vars(q.callee)? {
        if entry_reads.contains(n.as_str()) {
            let t = ctr.fresh_term(n, s.clone());
            en.set(n, t);
        }
    }
    for (p, a) in params.iter().zip(&actuals) {
        let n = &syms.local(q.callee, *p)?.0;
        en.set(n, a.clone());
        en.set(&entry_copy(n), a.clone());
    }
    for &k in &slots {
        let (Some((n, _)), Some((ne, _))) = (syms.shared().get(k), syms.shared_entry().get(k))
        else {
            continue;
        };
        let t = pre.get(n)?;
        en.set(n, t.clone());
        en.set(ne, t.clone());
    }
    let entry_pred = en.rename(&entry_f);
    // The caller after the return: a name nothing binds here stays itself, the caller's
    // state before the call (its locals; every shared symbol read is bound below). Only
    // what the assignment of the result reads is bound to its term before the call.
    let mut post = Names::new();
    post.set(ALLOC, pre.get(ALLOC)?.clone());
    if let Some(crate::ir::Place::Field { obj, .. }) = result {
        for n in free_names(&enc.expr(q.caller, obj, &pre)?) {
            post.set(&n, pre.get(&n)?.clone());
        }
    }
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
    let after = post.rename(&to_f);
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
            from.clone(),
            entry_pred,
            exit_pred,
            alloc_grows.clone(),
            bind_result.clone(),
            after.clone(),
        ]),
        frame: Term::and(vec![from, alloc_grows, bind_result, after]),
    })
}

/// The shared symbols (by position in [`crate::encode::Symbols::shared`]) a call's
/// question reads: those its formulas mention (`reads`: their free names; the symbol or
/// its entry copy), `%alloc`, and
/// when the result goes to a field, that field and what the object's expression reads
/// (the assignment reads the caller's state after the call); every one should that
/// expression not encode. A scope holds every field array of the program; binding only
/// these keeps a question the size of its predicates, and leaves its satisfiability as it
/// is (a shared symbol nothing reads is bound to a term nothing constrains).
fn shared_read<'t>(
    enc: &Encoder<'_>,
    caller: crate::ir::MethodId,
    pre: &Names,
    result: &Option<crate::ir::Place>,
    reads: impl IntoIterator<Item = &'t BTreeSet<String>>,
) -> BTreeSet<usize> {
    let syms = enc.symbols();
    let mut read: Vec<Term> = Vec::new();
    if let Some(crate::ir::Place::Field { obj, field }) = result {
        match (enc.expr(caller, obj, pre), syms.field(*field)) {
            (Ok(o), Ok((name, sort))) => {
                read.push(o);
                read.push(Term::var(name.clone(), sort.clone()));
            }
            _ => return (0..syms.shared().len()).collect(),
        }
    }
    let mut out: BTreeSet<usize> = reads
        .into_iter()
        .flatten()
        .filter_map(|n| syms.shared_slot(n).map(|(k, _)| k))
        .collect();
    out.extend(
        read.iter()
            .flat_map(|f| f.free_vars())
            .filter_map(|(n, _)| syms.shared_slot(&n).map(|(k, _)| k)),
    );
    out.extend(syms.shared_slot(ALLOC).map(|(k, _)| k));
    out
}

/// The names of the free variables of `t`.
fn free_names(t: &Term) -> BTreeSet<String> {
    t.free_vars().into_iter().map(|(n, _)| n).collect()
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
                        | Stmt::Opaque { var: v, .. }
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
