//! SSA encoding of a nested trace (ARCHITECTURE.md, "Feasibility").
//!
//! A trace is a sequence of steps through the CFAs: intra-procedural edges, API edges,
//! calls and returns (each return names the index of its matching call). Positions
//! `0..=n` sit between the steps: position `i` is the state before step `i`, in the
//! method that is running there.
//!
//! Encoding: position 0 binds every symbol of the start method's scope to version 0
//! (`x@0`), the entry copies to the same terms as the values they copy, and asserts
//! `%alloc ≥ 0` (the `init` formula). An intra step is [`Encoder::edge_formula`]. A call
//! binds the callee's parameters to fresh versions equal to the actuals (evaluated in the
//! caller), gives the callee's other variables fresh unconstrained versions, shares the
//! globals, field arrays and `%alloc` with the caller, and binds the entry copies to the
//! same terms as the parameters and globals (so "entry copy = value at entry" holds
//! without an extra equation). A return restores the caller's frame as it was at the call
//! (its variables are untouched by the callee), takes the globals, field arrays and
//! `%alloc` from the callee and assigns the callee's `%ret` to the call's result.
//! Each step yields one formula, asserted as `s<i>` so an unsat core slices the trace.

use crate::encode::{entry_copy, EncodeError, Encoder, Names, ALLOC};
use crate::ir::{Edge, MethodId, Place};
use cfp_smt::{Op, Sort, Term};
use petgraph::graph::EdgeIndex;
use std::collections::BTreeSet;

pub mod naming;

/// One step of a nested trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TraceStep {
    /// An intra-procedural edge (a block) of `method`.
    Intra {
        /// The running method.
        method: MethodId,
        /// The edge in its CFA.
        edge: EdgeIndex,
    },
    /// A terminal emission (an [`Edge::Api`]): no effect on the state.
    Api {
        /// The running method.
        method: MethodId,
        /// The edge in its CFA.
        edge: EdgeIndex,
    },
    /// A call edge of the caller `method`; the callee runs from the next position.
    Call {
        /// The caller.
        method: MethodId,
        /// Its [`Edge::Call`].
        edge: EdgeIndex,
    },
    /// The return of the callee to the caller, matching the call at step index `call`.
    Return {
        /// Index (in the trace) of the matching [`TraceStep::Call`].
        call: usize,
    },
}

/// A nested trace starting in `start` (usually the root method).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// The method running at position 0.
    pub start: MethodId,
    /// The steps.
    pub steps: Vec<TraceStep>,
}

/// Why a trace could not be encoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TraceError {
    /// An encoding error at a step.
    #[error("step {step}: {error}")]
    Encode {
        /// The step index.
        step: usize,
        /// What went wrong.
        error: EncodeError,
    },
    /// A step does not fit the trace (wrong method, wrong edge kind, bad nesting).
    #[error("step {step}: {reason}")]
    Malformed {
        /// The step index.
        step: usize,
        /// What is wrong.
        reason: String,
    },
}

/// The state of one position of an encoded trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The method running there.
    pub method: MethodId,
    /// Current SSA term of every state symbol of the method's scope.
    pub names: Names,
    /// Call depth (0 in the start method).
    pub depth: usize,
}

/// A trace in SSA form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodedTrace {
    /// Constraints on the initial state (`%alloc@0 ≥ 0`), asserted as `init`.
    pub init: Term,
    /// One formula per step, asserted as `s<i>`.
    pub steps: Vec<Term>,
    /// States at positions `0..=n`.
    pub positions: Vec<Position>,
    /// For a return step, the index of its call; `None` for other steps.
    pub call_of: Vec<Option<usize>>,
    /// True when some formula uses an uninterpreted function (SAT may be spurious).
    pub approximate: bool,
}

/// Name of the assertion of step `i`.
pub fn step_label(i: usize) -> String {
    format!("s{i}")
}

/// Name of the assertion of the initial-state constraints.
pub const INIT_LABEL: &str = "init";

impl EncodedTrace {
    /// The named assertions: `init`, then `s0 … s(n-1)`.
    pub fn assertions(&self) -> Vec<(Option<String>, Term)> {
        let mut out = vec![(Some(INIT_LABEL.to_string()), self.init.clone())];
        out.extend(
            self.steps
                .iter()
                .enumerate()
                .map(|(i, t)| (Some(step_label(i)), t.clone())),
        );
        out
    }
}

fn enc_err(step: usize) -> impl Fn(EncodeError) -> TraceError {
    move |error| TraceError::Encode { step, error }
}

fn malformed(step: usize, reason: impl Into<String>) -> TraceError {
    TraceError::Malformed {
        step,
        reason: reason.into(),
    }
}

/// Fresh versions for every symbol of `m`'s scope except the shared ones.
fn bind_frame(
    enc: &Encoder<'_>,
    m: MethodId,
    names: &mut Names,
    params: &[Term],
) -> Result<(), EncodeError> {
    let syms = enc.symbols();
    let vars = syms.vars(m)?.to_vec();
    let ps = syms.params(m)?.to_vec();
    for (i, (n, s)) in vars.iter().enumerate() {
        match ps.iter().position(|p| p.index() == i) {
            Some(k) => match params.get(k) {
                Some(t) => names.set(n, t.clone()),
                None => {
                    names.fresh(n, s.clone());
                }
            },
            None => {
                names.fresh(n, s.clone());
            }
        }
    }
    for p in &ps {
        let n = &syms.local(m, *p)?.0;
        let t = names.get(n)?.clone();
        names.set(&entry_copy(n), t);
    }
    for ((g, _), (ge, _)) in syms.shared().iter().zip(syms.shared_entry()) {
        let t = names.get(g)?.clone();
        names.set(ge, t);
    }
    Ok(())
}

/// Encode `trace` in SSA form.
pub fn encode_trace(enc: &Encoder<'_>, trace: &Trace) -> Result<EncodedTrace, TraceError> {
    let syms = enc.symbols();
    let mut names = Names::new();
    for (n, s) in syms.shared() {
        names.fresh(n, s.clone());
    }
    let shared: BTreeSet<&str> = syms.shared().iter().map(|(n, _)| n.as_str()).collect();
    bind_frame(enc, trace.start, &mut names, &[]).map_err(enc_err(0))?;
    let init = Term::app(
        Op::Ge,
        vec![names.get(ALLOC).map_err(enc_err(0))?.clone(), Term::int(0)],
    );
    let mut positions = vec![Position {
        method: trace.start,
        names: names.clone(),
        depth: 0,
    }];
    let mut steps = Vec::with_capacity(trace.steps.len());
    let mut call_of = Vec::with_capacity(trace.steps.len());
    // Open calls: (step index of the call).
    let mut stack: Vec<usize> = Vec::new();
    for (i, step) in trace.steps.iter().enumerate() {
        let cur = &positions[i];
        let (formula, next, ret_of) = match *step {
            TraceStep::Intra { method, edge } | TraceStep::Api { method, edge } => {
                if method != cur.method {
                    return Err(malformed(
                        i,
                        format!("edge of {method:?} while {:?} runs", cur.method),
                    ));
                }
                let e = enc.edge(method, edge).map_err(enc_err(i))?;
                let mut post = Names::new();
                let f = enc
                    .edge_formula(method, e, &cur.names, &mut post)
                    .map_err(enc_err(i))?;
                (
                    f,
                    Position {
                        method,
                        names: post,
                        depth: cur.depth,
                    },
                    None,
                )
            }
            TraceStep::Call { method, edge } => {
                if method != cur.method {
                    return Err(malformed(
                        i,
                        format!("call from {method:?} while {:?} runs", cur.method),
                    ));
                }
                let Edge::Call { callee, args, .. } = enc.edge(method, edge).map_err(enc_err(i))?
                else {
                    return Err(malformed(i, "not a call edge"));
                };
                let arity = syms.params(*callee).map_err(enc_err(i))?.len();
                if arity != args.len() {
                    return Err(malformed(
                        i,
                        format!("{} arguments for {arity} parameters", args.len()),
                    ));
                }
                let mut names = cur.names.clone();
                let mut actuals = Vec::with_capacity(args.len());
                let mut formals = Vec::with_capacity(args.len());
                for (k, a) in args.iter().enumerate() {
                    actuals.push(enc.expr(method, a, &cur.names).map_err(enc_err(i))?);
                    let p = syms.params(*callee).map_err(enc_err(i))?[k];
                    let (n, s) = syms.local(*callee, p).map_err(enc_err(i))?.clone();
                    formals.push(names.fresh_term(&n, s));
                }
                // The callee's frame: the caller's locals are not in scope (the shared
                // symbols stay bound, sharing the caller's map; entry copies are rebound).
                for (n, _) in syms.vars(method).map_err(enc_err(i))? {
                    names.remove(n);
                }
                for p in syms.params(method).map_err(enc_err(i))? {
                    let n = &syms.local(method, *p).map_err(enc_err(i))?.0;
                    names.remove(&entry_copy(n));
                }
                bind_frame(enc, *callee, &mut names, &formals).map_err(enc_err(i))?;
                let f = Term::and(
                    formals
                        .into_iter()
                        .zip(actuals)
                        .map(|(p, a)| Term::eq(p, a)),
                );
                stack.push(i);
                (
                    f,
                    Position {
                        method: *callee,
                        names,
                        depth: cur.depth + 1,
                    },
                    None,
                )
            }
            TraceStep::Return { call } => {
                if stack.last() != Some(&call) {
                    return Err(malformed(
                        i,
                        format!("return to step {call} does not match the innermost call"),
                    ));
                }
                stack.pop();
                let caller_pos = &positions[call];
                let Some(TraceStep::Call { method, edge }) = trace.steps.get(call).copied() else {
                    return Err(malformed(i, format!("step {call} is not a call")));
                };
                let Edge::Call { callee, result, .. } =
                    enc.edge(method, edge).map_err(enc_err(i))?
                else {
                    return Err(malformed(i, format!("step {call} is not a call edge")));
                };
                if *callee != cur.method {
                    return Err(malformed(
                        i,
                        format!("return from {:?} to a call of {callee:?}", cur.method),
                    ));
                }
                let mut names = caller_pos.names.clone();
                names.merge_versions(&cur.names);
                let changed: Vec<(String, Term)> = caller_pos
                    .names
                    .changed_bindings(&cur.names)
                    .filter(|(n, _)| shared.contains(n))
                    .map(|(n, t)| {
                        t.cloned()
                            .map(|t| (n.to_string(), t))
                            .ok_or_else(|| enc_err(i)(EncodeError::Unbound(n.to_string())))
                    })
                    .collect::<Result<_, _>>()?;
                for (n, t) in changed {
                    names.set(&n, t);
                }
                let f = match result {
                    None => Term::tt(),
                    Some(place) => {
                        let ret =
                            enc.method(*callee)
                                .map_err(enc_err(i))?
                                .ret
                                .ok_or_else(|| {
                                    enc_err(i)(EncodeError::BadCall(
                                        "the callee returns no value".to_string(),
                                    ))
                                })?;
                        let rn = &syms.local(*callee, ret).map_err(enc_err(i))?.0;
                        let value = cur.names.get(rn).map_err(enc_err(i))?.clone();
                        if !matches!(place, Place::Var(_) | Place::Global(_)) {
                            return Err(enc_err(i)(EncodeError::BadCall(
                                "the result goes to a field".to_string(),
                            )));
                        }
                        enc.assign(method, place, value, &mut names)
                            .map_err(enc_err(i))?
                    }
                };
                (
                    f,
                    Position {
                        method,
                        names,
                        depth: caller_pos.depth,
                    },
                    Some(call),
                )
            }
        };
        steps.push(formula);
        call_of.push(ret_of);
        // Version counters are global to the trace: carry them forward.
        let mut next = next;
        next.names.merge_versions(&positions[i].names);
        positions.push(next);
    }
    let approximate = steps.iter().any(crate::encode::uses_uninterpreted);
    Ok(EncodedTrace {
        init,
        steps,
        positions,
        call_of,
        approximate,
    })
}

/// The free constants of a set of formulas, sorted and without duplicates.
pub fn free_constants<'a>(terms: impl IntoIterator<Item = &'a Term>) -> Vec<(String, Sort)> {
    let mut out: std::collections::BTreeMap<String, Sort> = std::collections::BTreeMap::new();
    for t in terms {
        for (n, s) in t.free_vars() {
            out.entry(n).or_insert(s);
        }
    }
    out.into_iter().collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::ir::Program;

    pub const FIG2: &str = include_str!("../../../tests/frontend/01-paper-figure2.java");
    pub const LOCK: &str = include_str!("../../../tests/specs/lock-paper.cfg");

    pub fn fig2() -> Program {
        let p = cfp_syntax::parse_program(FIG2);
        assert!(!p.has_errors(), "{:?}", p.diagnostics);
        let s = cfp_syntax::parse_spec(LOCK);
        assert!(!s.has_errors(), "{:?}", s.diagnostics);
        match crate::front_end(&p.tree, &s.tree, &crate::LowerOptions::default()) {
            Ok((p, _)) => p,
            Err(e) => panic!("{e}"),
        }
    }

    pub fn method(p: &Program, name: &str) -> MethodId {
        p.methods
            .iter()
            .find(|m| m.name == name)
            .map(|m| m.id)
            .unwrap_or_else(|| panic!("no method {name}"))
    }

    /// A small builder: walks CFAs by edge description so tests read like the paper.
    pub struct Walk<'p> {
        pub p: &'p Program,
        pub steps: Vec<TraceStep>,
        calls: Vec<usize>,
    }

    impl<'p> Walk<'p> {
        pub fn new(p: &'p Program) -> Walk<'p> {
            Walk {
                p,
                steps: Vec::new(),
                calls: Vec::new(),
            }
        }

        /// The `k`-th edge (in the deterministic order) of `method` whose rendering
        /// contains `needle`.
        fn find(&self, m: MethodId, pred: impl Fn(&Edge) -> bool) -> EdgeIndex {
            let g = &self.p.methods[m.index()].graph;
            g.edge_indices()
                .find(|e| g.edge_weight(*e).is_some_and(&pred))
                .unwrap_or_else(|| panic!("no such edge in {m:?}"))
        }

        /// The edge of `method` from node `from` to node `to`.
        pub fn edge(mut self, method: &str, from: usize, to: usize) -> Self {
            let m = super::tests::method(self.p, method);
            let g = &self.p.methods[m.index()].graph;
            let e = g
                .edge_indices()
                .find(|e| {
                    g.edge_endpoints(*e)
                        .is_some_and(|(a, b)| a.index() == from && b.index() == to)
                })
                .unwrap_or_else(|| panic!("no edge n{from} -> n{to} in {method}"));
            let step = match g.edge_weight(e) {
                Some(Edge::Call { .. }) => {
                    self.calls.push(self.steps.len());
                    TraceStep::Call { method: m, edge: e }
                }
                Some(Edge::Api { .. }) => TraceStep::Api { method: m, edge: e },
                _ => TraceStep::Intra { method: m, edge: e },
            };
            self.steps.push(step);
            self
        }

        /// The call of `callee` in `method`.
        pub fn call(mut self, method: &str, callee: &str) -> Self {
            let m = super::tests::method(self.p, method);
            let c = super::tests::method(self.p, callee);
            let e = self.find(
                m,
                |e| matches!(e, Edge::Call { callee, .. } if *callee == c),
            );
            self.calls.push(self.steps.len());
            self.steps.push(TraceStep::Call { method: m, edge: e });
            self
        }

        pub fn ret(mut self) -> Self {
            let call = self.calls.pop().expect("a call to return from");
            self.steps.push(TraceStep::Return { call });
            self
        }

        pub fn trace(self) -> Trace {
            Trace {
                start: self.p.root,
                steps: self.steps,
            }
        }
    }

    /// The paper's first spurious path (§2, Fig. 5): acquire takes `l1 == $1` and emits
    /// lock, the recursive foo takes its else branch, release takes `l2 != $1`.
    pub fn spurious(p: &Program) -> Trace {
        Walk::new(p)
            .edge("<root>", 0, 1)
            .call("<root>", "Main.main")
            .edge("Main.main", 0, 1)
            .call("Main.main", "Main.<init>")
            .edge("Main.<init>", 0, 1)
            .ret()
            .edge("Main.main", 2, 3)
            .call("Main.main", "Main.foo")
            .call("Main.foo", "Main.acquire")
            .edge("Main.acquire", 0, 1)
            .edge("Main.acquire", 1, 2)
            .edge("Main.acquire", 2, 3)
            .ret()
            .call("Main.foo", "Main.foo")
            .edge("Main.foo", 0, 3)
            .ret()
            .call("Main.foo", "Main.release")
            .edge("Main.release", 0, 1)
            .edge("Main.release", 1, 3)
            .ret()
            .ret()
            .ret()
            .trace()
    }

    /// The same path with release taking `l2 == $1` and emitting unlock: feasible.
    pub fn lock_unlock(p: &Program) -> Trace {
        Walk::new(p)
            .edge("<root>", 0, 1)
            .call("<root>", "Main.main")
            .edge("Main.main", 0, 1)
            .call("Main.main", "Main.<init>")
            .edge("Main.<init>", 0, 1)
            .ret()
            .edge("Main.main", 2, 3)
            .call("Main.main", "Main.foo")
            .call("Main.foo", "Main.acquire")
            .edge("Main.acquire", 0, 1)
            .edge("Main.acquire", 1, 2)
            .edge("Main.acquire", 2, 3)
            .ret()
            .call("Main.foo", "Main.foo")
            .edge("Main.foo", 0, 3)
            .ret()
            .call("Main.foo", "Main.release")
            .edge("Main.release", 0, 1)
            .edge("Main.release", 1, 2)
            .edge("Main.release", 2, 3)
            .ret()
            .ret()
            .ret()
            .trace()
    }

    #[test]
    fn spurious_path_encodes_with_frames() {
        let p = fig2();
        let enc = Encoder::new(&p);
        let t = encode_trace(&enc, &spurious(&p)).expect("encodes");
        let text: Vec<String> = t
            .steps
            .iter()
            .enumerate()
            .map(|(i, f)| format!("s{i} [{}]: {f}", t.positions[i + 1].depth))
            .collect();
        insta::assert_snapshot!(format!("init: {}\n{}", t.init, text.join("\n")));
        assert!(!t.approximate);
        assert_eq!(t.positions.len(), t.steps.len() + 1);
        assert_eq!(t.positions.last().map(|p| p.method), Some(p.root));
    }

    #[test]
    fn malformed_traces_are_errors() {
        let p = fig2();
        let enc = Encoder::new(&p);
        let mut tr = spurious(&p);
        tr.steps.push(TraceStep::Return { call: 1 });
        assert!(matches!(
            encode_trace(&enc, &tr),
            Err(TraceError::Malformed { .. })
        ));
        let mut tr = spurious(&p);
        tr.steps.remove(0);
        tr.steps.insert(0, tr.steps[2]);
        assert!(encode_trace(&enc, &tr).is_err());
    }
}
