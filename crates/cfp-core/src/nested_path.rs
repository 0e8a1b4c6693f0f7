//! Derivation → nested path (paper §5.2, `derivation2path` of Fig. 11; ARCHITECTURE.md).
//!
//! A derivation over the grammar of [`crate::construct_cfg`] is read back as a *nested
//! trace* `(π, ⇝)` (Heizmann et al. 2010): the sequence of CFA edges the derivation
//! walks through, where a call production `N_s → M'_{c'} N_s'` contributes a **call**
//! step, the callee's steps, and a **return** step, and `i ⇝ j` pairs the call at `i`
//! with its return at `j`. This is the paper's Fig. 5: the parse tree of `$1.lock()`
//! (Fig. 5a) is the path foo → acquire (then-branch, `$1.lock()`) → foo (else) → release
//! (else) of Fig. 5b.
//!
//! Each production's origin ([`ProdOrigin`]) says which PCFA edge it copies, so nothing
//! is guessed. The walk is iterative (program derivations can be thousands of levels
//! deep) and checks that the derivation really is one over the grammar: a malformed tree
//! gives a [`NestedPathError`], never a panic.
//!
//! Steps (`σ_i` of the paper) and the states around them:
//! * `Intra` — a block edge of `method`; `before`/`after` are the PCFA edge's states;
//! * `Api` — a terminal edge (the word's letters, in order);
//! * `Call` — `before` is the caller's state at the call, `after` the callee's entry
//!   state (the call production's `callee_entry`, the `M_{e0,c} → N_{e0}` below it);
//! * `Return` — `before` is the callee's exit state `c'`, `after` the caller's state after
//!   the call; `call` is the index of the matching `Call` step. The statement of both is
//!   the caller's call edge (the call binds the formals, the return binds the result).

use crate::construct_cfg::{ProdOrigin, ProgramGrammar};
use crate::ir::{MethodId, Program, TerminalId};
use crate::pcfa::{serde_ix, PcfaEdge, PcfaEdgeId, Pcfas, StateId};
use cfp_grammar::{Derivation, DerivationChild, ProdId, Sym};
use cfp_syntax::Span;
use petgraph::graph::EdgeIndex;
use serde::Serialize;
use std::fmt::Write as _;

/// A PCFA state of some method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct StateRef {
    /// The method.
    pub method: MethodId,
    /// The state of its PCFA.
    pub state: StateId,
}

/// What a step of a nested trace does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum StepKind {
    /// A block edge (assignments, assumes, …) of `method`.
    Intra {
        /// The method.
        method: MethodId,
        /// The CFA edge.
        #[serde(serialize_with = "serde_ix::edge")]
        edge: EdgeIndex,
    },
    /// Entering `callee` through the call edge `edge` of `caller`.
    Call {
        /// The calling method.
        caller: MethodId,
        /// The caller's call edge.
        #[serde(serialize_with = "serde_ix::edge")]
        edge: EdgeIndex,
        /// The called method.
        callee: MethodId,
    },
    /// Returning from `callee` to `caller` (the same call edge as the matching call).
    Return {
        /// The calling method.
        caller: MethodId,
        /// The caller's call edge.
        #[serde(serialize_with = "serde_ix::edge")]
        edge: EdgeIndex,
        /// The method returned from.
        callee: MethodId,
        /// Index of the matching [`StepKind::Call`] step.
        call: usize,
    },
    /// Emission of `terminal` by the API edge `edge` of `method`.
    Api {
        /// The method.
        method: MethodId,
        /// The CFA edge.
        #[serde(serialize_with = "serde_ix::edge")]
        edge: EdgeIndex,
        /// The terminal.
        terminal: TerminalId,
    },
}

impl StepKind {
    /// The step of the plain trace the SSA encoding consumes.
    pub fn trace_step(&self) -> crate::trace::TraceStep {
        use crate::trace::TraceStep;
        match *self {
            StepKind::Intra { method, edge } => TraceStep::Intra { method, edge },
            StepKind::Api { method, edge, .. } => TraceStep::Api { method, edge },
            StepKind::Call { caller, edge, .. } => TraceStep::Call {
                method: caller,
                edge,
            },
            StepKind::Return { call, .. } => TraceStep::Return { call },
        }
    }
}

/// A step of a path without abstract states: a nested trace's step, or one of a concrete
/// run (what reports show: the trace lines, the replay edges, a path's summary).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathStep {
    /// What it does.
    pub kind: StepKind,
    /// Source span of the CFA edge (empty for synthetic edges).
    pub span: Span,
    /// The method running before the step (the caller for calls, the callee for returns).
    pub method: MethodId,
}

/// One step `σ_i` of a nested trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// What it does.
    pub kind: StepKind,
    /// The PCFA edge the step follows (the caller's call edge for calls and returns).
    pub pcfa_edge: PcfaEdgeId,
    /// The PCFA state before the step.
    pub before: StateRef,
    /// The PCFA state after the step.
    pub after: StateRef,
    /// Source span of the CFA edge (empty for synthetic edges).
    pub span: Span,
}

/// A nested trace `(π, ⇝)` with the word it emits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NestedTrace {
    /// The root state the trace starts in (the root method's entry state).
    pub start: StateRef,
    /// The steps, in execution order.
    pub steps: Vec<Step>,
    /// The nesting relation: `(call index, return index)` pairs, by call index.
    pub nesting: Vec<(usize, usize)>,
    /// The terminals emitted by the `Api` steps, in order (the derivation's word).
    pub word: Vec<TerminalId>,
}

impl NestedTrace {
    /// The index of the return matching the call at `call`.
    pub fn return_of(&self, call: usize) -> Option<usize> {
        self.nesting
            .binary_search_by_key(&call, |(c, _)| *c)
            .ok()
            .and_then(|i| self.nesting.get(i))
            .map(|(_, r)| *r)
    }

    /// The index of the call matching the return at `ret`.
    pub fn call_of(&self, ret: usize) -> Option<usize> {
        match self.steps.get(ret)?.kind {
            StepKind::Return { call, .. } => Some(call),
            _ => None,
        }
    }

    /// The plain trace the SSA encoding consumes (`crate::trace::Trace`): the same steps
    /// without PCFA states.
    pub fn to_trace(&self) -> crate::trace::Trace {
        crate::trace::Trace {
            start: self.start.method,
            steps: self.steps.iter().map(|s| s.kind.trace_step()).collect(),
        }
    }

    /// The steps as reports show them (what each does, where, in which method).
    pub fn path_steps(&self) -> Vec<PathStep> {
        self.steps
            .iter()
            .map(|s| PathStep {
                kind: s.kind,
                span: s.span,
                method: s.before.method,
            })
            .collect()
    }

    /// The method each step executes in *before* it (the caller for calls, the callee
    /// for returns), i.e. `before.method`.
    pub fn step_methods(&self) -> impl Iterator<Item = MethodId> + '_ {
        self.steps.iter().map(|s| s.before.method)
    }

    /// A text rendering, one step per line, indented by call depth:
    /// `call Main.foo -> Main.acquire  [n0 -> n0]`.
    pub fn render(&self, program: &Program, pcfas: &Pcfas) -> String {
        let mname = |m: MethodId| program.method(m).map_or("?", |c| c.name.as_str());
        let sname = |s: StateRef| {
            pcfas
                .method(s.method)
                .map_or_else(String::new, |p| p.state_name(s.state))
        };
        let mut out = String::new();
        let _ = writeln!(
            out,
            "start {}:{}",
            mname(self.start.method),
            sname(self.start)
        );
        let mut depth = 0usize;
        for (i, s) in self.steps.iter().enumerate() {
            if matches!(s.kind, StepKind::Return { .. }) {
                depth = depth.saturating_sub(1);
            }
            let what = match s.kind {
                StepKind::Intra { method, .. } => mname(method).to_string(),
                StepKind::Call { caller, callee, .. } => {
                    format!("call {} -> {}", mname(caller), mname(callee))
                }
                StepKind::Return {
                    caller,
                    callee,
                    call,
                    ..
                } => format!(
                    "return {} -> {} (call {call})",
                    mname(callee),
                    mname(caller)
                ),
                StepKind::Api {
                    method, terminal, ..
                } => format!(
                    "{} emits {}",
                    mname(method),
                    program
                        .terminals
                        .get(terminal.index())
                        .map_or_else(String::new, |t| t.to_string())
                ),
            };
            let _ = writeln!(
                out,
                "{i:>3} {}{what}  [{} -> {}]",
                "  ".repeat(depth),
                sname(s.before),
                sname(s.after)
            );
            if matches!(s.kind, StepKind::Call { .. }) {
                depth += 1;
            }
        }
        out
    }
}

/// Why a derivation does not map to a nested path.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NestedPathError {
    /// The derivation uses a production the grammar does not have.
    #[error("production {0:?} is not in the program grammar")]
    UnknownProduction(ProdId),
    /// The derivation does not follow the grammar, or the grammar does not match the
    /// PCFAs it was built from.
    #[error("malformed derivation at production {production:?}: {reason}")]
    Malformed {
        /// The offending node's production.
        production: ProdId,
        /// What is wrong.
        reason: &'static str,
    },
}

enum Work<'d> {
    Node(&'d Derivation),
    Return {
        call: usize,
        caller: MethodId,
        edge: PcfaEdge,
        callee: StateRef,
        span: Span,
    },
}

/// Map derivation `d` over `pg` (built by ConstructCFG from `pcfas`) to its nested trace.
pub fn derivation_to_path(
    program: &Program,
    pcfas: &Pcfas,
    pg: &ProgramGrammar,
    d: &Derivation,
) -> Result<NestedTrace, NestedPathError> {
    let mut steps: Vec<Step> = Vec::new();
    let mut nesting: Vec<(usize, usize)> = Vec::new();
    let mut word: Vec<TerminalId> = Vec::new();
    let mut start: Option<StateRef> = None;
    let mut stack: Vec<Work<'_>> = vec![Work::Node(d)];
    while let Some(w) = stack.pop() {
        let n = match w {
            Work::Node(n) => n,
            Work::Return {
                call,
                caller,
                edge,
                callee,
                span,
            } => {
                nesting.push((call, steps.len()));
                steps.push(Step {
                    kind: StepKind::Return {
                        caller,
                        edge: edge.cfa_edge,
                        callee: callee.method,
                        call,
                    },
                    pcfa_edge: edge.id,
                    before: callee,
                    after: StateRef {
                        method: caller,
                        state: edge.to,
                    },
                    span,
                });
                continue;
            }
        };
        let prod = n.production;
        let bad = |reason: &'static str| NestedPathError::Malformed {
            production: prod,
            reason,
        };
        let origin = pg
            .origin(prod)
            .ok_or(NestedPathError::UnknownProduction(prod))?;
        let rule = pg
            .grammar
            .productions
            .get(prod.index())
            .ok_or(NestedPathError::UnknownProduction(prod))?;
        // The children must spell the production's right-hand side.
        if rule.rhs.len() != n.children.len() {
            return Err(bad("wrong number of children"));
        }
        for (sym, child) in rule.rhs.iter().zip(&n.children) {
            let ok = match (sym, child) {
                (Sym::T(t), DerivationChild::Terminal(u)) => t == u,
                (Sym::N(a), DerivationChild::Node(c)) => pg
                    .grammar
                    .productions
                    .get(c.production.index())
                    .is_some_and(|p| p.lhs == *a),
                _ => false,
            };
            if !ok {
                return Err(bad("a child does not match the right-hand side"));
            }
        }
        let node_child = |i: usize| match n.children.get(i) {
            Some(DerivationChild::Node(c)) => Ok(c),
            _ => Err(bad("missing child node")),
        };
        let pcfa_edge = |method: MethodId, e: PcfaEdgeId| {
            pcfas
                .method(method)
                .and_then(|p| p.edge(e))
                .copied()
                .ok_or(bad("the PCFA edge is not live"))
        };
        let span_of = |method: MethodId, e: EdgeIndex| {
            program
                .method(method)
                .and_then(|m| m.graph.edge_weight(e))
                .map_or(Span::default(), |l| l.span())
        };
        match origin {
            ProdOrigin::Start { .. } => stack.push(Work::Node(node_child(0)?)),
            ProdOrigin::Entry { method, entry, .. } => {
                if start.is_none() {
                    start = Some(StateRef {
                        method,
                        state: entry,
                    });
                }
                stack.push(Work::Node(node_child(0)?));
            }
            ProdOrigin::Exit { .. } => {}
            ProdOrigin::Intra { method, edge, .. } | ProdOrigin::Api { method, edge, .. } => {
                let e = pcfa_edge(method, edge)?;
                let kind = match origin {
                    ProdOrigin::Api { terminal, .. } => {
                        word.push(terminal);
                        StepKind::Api {
                            method,
                            edge: e.cfa_edge,
                            terminal,
                        }
                    }
                    _ => StepKind::Intra {
                        method,
                        edge: e.cfa_edge,
                    },
                };
                steps.push(Step {
                    kind,
                    pcfa_edge: e.id,
                    before: StateRef {
                        method,
                        state: e.from,
                    },
                    after: StateRef {
                        method,
                        state: e.to,
                    },
                    span: span_of(method, e.cfa_edge),
                });
                let next = if matches!(origin, ProdOrigin::Api { .. }) {
                    1
                } else {
                    0
                };
                stack.push(Work::Node(node_child(next)?));
            }
            ProdOrigin::Call {
                method,
                edge,
                callee,
                callee_entry,
                callee_exit,
                ..
            } => {
                let e = pcfa_edge(method, edge)?;
                let body = node_child(0)?;
                let cont = node_child(1)?;
                let entry = match pg.origin(body.production) {
                    Some(ProdOrigin::Entry {
                        method: m,
                        entry,
                        exit,
                    }) if m == callee && entry == callee_entry && exit == callee_exit => entry,
                    _ => return Err(bad("the callee's subtree does not start at its entry")),
                };
                let span = span_of(method, e.cfa_edge);
                let call = steps.len();
                steps.push(Step {
                    kind: StepKind::Call {
                        caller: method,
                        edge: e.cfa_edge,
                        callee,
                    },
                    pcfa_edge: e.id,
                    before: StateRef {
                        method,
                        state: e.from,
                    },
                    after: StateRef {
                        method: callee,
                        state: entry,
                    },
                    span,
                });
                stack.push(Work::Node(cont));
                stack.push(Work::Return {
                    call,
                    caller: method,
                    edge: e,
                    callee: StateRef {
                        method: callee,
                        state: callee_exit,
                    },
                    span,
                });
                stack.push(Work::Node(body));
            }
        }
    }
    nesting.sort_unstable();
    let start = start.ok_or(NestedPathError::Malformed {
        production: d.production,
        reason: "the derivation never enters a method",
    })?;
    Ok(NestedTrace {
        start,
        steps,
        nesting,
        word,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::construct_cfg::tests::{fig2, method_id};
    use crate::construct_cfg::{construct_cfg_unchecked, ProdOrigin};
    use cfp_grammar::{check_inclusion, Grammar, InclusionOptions, InclusionResult};
    use std::ops::ControlFlow;

    /// Check that `t` is a well-nested trace whose steps chain state to state.
    fn assert_well_nested(t: &NestedTrace) {
        let mut open: Vec<usize> = Vec::new();
        let mut cur = t.start;
        for (i, s) in t.steps.iter().enumerate() {
            assert_eq!(s.before, cur, "step {i} does not continue the path");
            match s.kind {
                StepKind::Call { callee, caller, .. } => {
                    assert_eq!((caller, callee), (s.before.method, s.after.method));
                    open.push(i);
                }
                StepKind::Return { call, callee, .. } => {
                    assert_eq!(open.pop(), Some(call), "return {i} closes the wrong call");
                    assert_eq!(t.return_of(call), Some(i));
                    assert_eq!(t.call_of(i), Some(call));
                    assert_eq!(callee, s.before.method);
                    // Back in the caller, at the call edge's target.
                    assert_eq!(s.after.method, t.steps[call].before.method);
                    assert_eq!(s.pcfa_edge, t.steps[call].pcfa_edge);
                }
                StepKind::Intra { method, .. } | StepKind::Api { method, .. } => {
                    assert_eq!((method, method), (s.before.method, s.after.method));
                }
            }
            cur = s.after;
        }
        assert!(open.is_empty(), "unreturned calls {open:?}");
        assert_eq!(
            t.nesting.len(),
            t.steps
                .iter()
                .filter(|s| matches!(s.kind, StepKind::Call { .. }))
                .count()
        );
    }

    /// End to end: the initial grammar of Fig. 4 is not included in the lock spec, and
    /// the counterexample `$1.lock()` maps to the nested path of Fig. 5(b).
    #[test]
    fn paper_first_counterexample_maps_to_figure5_path() {
        let p = fig2();
        let pcfas = Pcfas::initial(&p);
        let pg = construct_cfg_unchecked(&p, &pcfas);
        let spec =
            Grammar::from_spec(&cfp_syntax::parse_spec(crate::construct_cfg::tests::LOCK).tree);
        let res = check_inclusion(
            &pg.grammar,
            &spec,
            &InclusionOptions::default(),
            &mut |_| ControlFlow::Continue(()),
        );
        let InclusionResult::NotIncluded(cex) = res else {
            panic!("expected a counterexample, got {res:?}");
        };
        assert_eq!(cex.word_names, ["$1.lock()"]);
        let t = derivation_to_path(&p, &pcfas, &pg, &cex.derivation).expect("maps");
        assert_well_nested(&t);
        let lock = pg.program_terminal(cex.word[0]).unwrap();
        assert_eq!(t.word, [lock]);
        let (foo, acquire, release) = (
            method_id(&p, "Main.foo"),
            method_id(&p, "Main.acquire"),
            method_id(&p, "Main.release"),
        );
        // foo → acquire … lock … return → foo (recursion) … → release, all matched.
        let calls: Vec<(MethodId, MethodId)> = t
            .steps
            .iter()
            .filter_map(|s| match s.kind {
                StepKind::Call { caller, callee, .. } => Some((caller, callee)),
                _ => None,
            })
            .collect();
        assert_eq!(
            &calls[calls.len() - 3..],
            [(foo, acquire), (foo, foo), (foo, release)]
        );
        let api = t
            .steps
            .iter()
            .position(|s| matches!(s.kind, StepKind::Api { .. }))
            .unwrap();
        let acq_call = t
            .steps
            .iter()
            .position(|s| matches!(s.kind, StepKind::Call { callee, .. } if callee == acquire))
            .unwrap();
        let acq_ret = t.return_of(acq_call).unwrap();
        assert!(acq_call < api && api < acq_ret);
        assert_eq!(
            t.steps[api].span,
            p.methods[acquire.index()]
                .graph
                .edge_weights()
                .find_map(|e| match e {
                    crate::ir::Edge::Api { span, .. } => Some(*span),
                    _ => None,
                })
                .unwrap()
        );
        // Nested calls: root → main → foo → acquire are open at the lock.
        let open_at_api = t
            .nesting
            .iter()
            .filter(|(c, r)| *c < api && api < *r)
            .count();
        assert_eq!(open_at_api, 3);
        insta::assert_snapshot!(t.render(&p, &pcfas));
        // The SSA encoding accepts the plain trace.
        let plain = t.to_trace();
        assert_eq!((plain.start, plain.steps.len()), (p.root, t.steps.len()));
        let enc = crate::encode::Encoder::new(&p);
        let encoded = crate::trace::encode_trace(&enc, &plain).expect("encodes");
        assert_eq!(encoded.steps.len(), t.steps.len());
    }

    #[test]
    fn malformed_derivations_are_errors() {
        let p = fig2();
        let pcfas = Pcfas::initial(&p);
        let pg = construct_cfg_unchecked(&p, &pcfas);
        let leaf = |prod: u32| Derivation {
            production: ProdId(prod),
            children: vec![],
        };
        assert_eq!(
            derivation_to_path(&p, &pcfas, &pg, &leaf(9999)),
            Err(NestedPathError::UnknownProduction(ProdId(9999)))
        );
        // The start production with no child.
        assert!(matches!(
            derivation_to_path(&p, &pcfas, &pg, &leaf(0)),
            Err(NestedPathError::Malformed { .. })
        ));
        // An exit production alone never enters a method.
        let exit = pg
            .productions
            .iter()
            .position(|o| matches!(o, ProdOrigin::Exit { .. }))
            .unwrap() as u32;
        assert!(derivation_to_path(&p, &pcfas, &pg, &leaf(exit)).is_err());
        // A child that does not match the right-hand side.
        let wrong = Derivation {
            production: ProdId(0),
            children: vec![DerivationChild::Node(leaf(exit))],
        };
        assert!(matches!(
            derivation_to_path(&p, &pcfas, &pg, &wrong),
            Err(NestedPathError::Malformed { .. })
        ));
    }

    /// A deep derivation (recursion 2000 levels deep) maps without recursion.
    #[test]
    fn deep_recursion_maps_iteratively() {
        let p = fig2();
        let pcfas = Pcfas::initial(&p);
        let pg = construct_cfg_unchecked(&p, &pcfas);
        let foo = method_id(&p, "Main.foo");
        // Build foo's derivation: Foo -> n0 -> Acquire(else) n1 -> Foo n2 -> Release n3 -> ε,
        // nested `depth` times, the innermost taking the skip.
        let g = &pg.grammar;
        let by_lhs = g.by_lhs();
        let nt = |name: &str| g.find_nonterminal(name).unwrap();
        let prod = |lhs: &str, pred: &dyn Fn(&[Sym]) -> bool| {
            *by_lhs[nt(lhs).index()]
                .iter()
                .find(|p| pred(&g.production(**p).rhs))
                .unwrap()
        };
        let is = |name: &str| {
            let n = nt(name);
            move |rhs: &[Sym]| rhs.first() == Some(&Sym::N(n))
        };
        let chain = |rest: Vec<(ProdId, Option<Derivation>)>, last: Derivation| -> Derivation {
            // Right-linear chain: each (prod, optional callee tree) then the tail.
            let mut d = last;
            for (p, callee) in rest.into_iter().rev() {
                let mut children = Vec::new();
                if let Some(c) = callee {
                    children.push(DerivationChild::Node(c));
                }
                children.push(DerivationChild::Node(d));
                d = Derivation {
                    production: p,
                    children,
                };
            }
            d
        };
        let eps = |name: &str| Derivation {
            production: prod(name, &|r| r.is_empty()),
            children: vec![],
        };
        let void_method = |m: &str| {
            // m -> m:n0 -> m:n1 -> m:n3 -> ε (the else branch: no terminal)
            chain(
                vec![
                    (prod(m, &|_| true), None),
                    (prod(&format!("{m}:n0"), &|_| true), None),
                    (prod(&format!("{m}:n1"), &is(&format!("{m}:n3"))), None),
                ],
                eps(&format!("{m}:n3")),
            )
        };
        let mut d = chain(
            vec![
                (prod("Main.foo", &|_| true), None),
                (prod("Main.foo:n0", &is("Main.foo:n3")), None),
            ],
            eps("Main.foo:n3"),
        );
        let depth = 2000;
        for _ in 0..depth {
            d = chain(
                vec![
                    (prod("Main.foo", &|_| true), None),
                    (
                        prod("Main.foo:n0", &is("Main.acquire")),
                        Some(void_method("Main.acquire")),
                    ),
                    (prod("Main.foo:n1", &|_| true), Some(d)),
                    (
                        prod("Main.foo:n2", &|_| true),
                        Some(void_method("Main.release")),
                    ),
                ],
                eps("Main.foo:n3"),
            );
        }
        let t = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                let r = derivation_to_path(&p, &pcfas, &pg, &d);
                (r, d.word().len())
            })
            .expect("spawn")
            .join()
            .expect("no stack overflow");
        let (t, wl) = t;
        let t = t.expect("maps");
        assert_eq!(wl, 0);
        assert!(t.word.is_empty());
        assert_eq!(t.start.method, foo);
        assert_eq!(t.nesting.len(), 3 * depth);
        assert_well_nested(&t);
    }
}
