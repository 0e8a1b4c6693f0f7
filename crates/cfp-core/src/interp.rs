//! A concrete interpreter of lowered (and usually instrumented) [`Program`]s: it runs the
//! CFA edges with concrete values, following ARCHITECTURE.md "Semantics for SMT".
//!
//! Every nondeterministic value comes from an [`Oracle`]:
//! * the initial value of every global at the root's entry (static fields and wildcard
//!   globals are arbitrary there; the root then assigns the statics' defaults and assumes
//!   the wildcards non-null),
//! * the value of every `havoc` (entry parameters, results of external calls, `*`),
//! * the initial contents of field arrays (a cell read before any write) and of variables
//!   read before any write,
//! * which outgoing edge to take when **several** are enabled (`if (*)` is two
//!   unconstrained edges, so it is such a choice). With one enabled edge the oracle is not
//!   consulted.
//!
//! An edge is *enabled* when the statements of its block, executed on a scratch copy of
//! the state up to its first `havoc`/`new` (or up to a read of a not-yet-known value), make
//! no `assume` false. Once chosen, the edge runs for real: an `assume` that is false
//! there (after a havoc) blocks the run ([`InterpError::Blocked`]), as does a location
//! without enabled edge. Division by zero and arithmetic overflow also block (Java would
//! throw; the SMT semantics has unbounded integers).
//!
//! References are integers (`null` = 0); allocation returns the allocation counter, which
//! starts at 1 and only grows, so `new` is always fresh. Terminal edges ([`Edge::Api`])
//! append the terminal to the word and have no effect; an un-instrumented
//! [`Edge::ApiCall`] has no effect and emits nothing.
//!
//! The run is deterministic given the oracle's answers; [`Run::decisions`] records them
//! and a [`ReplayOracle`] built from that list reproduces the run exactly. A
//! [`PathOracle`] follows a complete edge sequence instead (a checker's nested path: it
//! does not need to know where the interpreter asks). Confirming a counterexample: replay
//! it, require [`Run::completed`], and check that [`Run::word`] is not in the spec
//! (`cfp_grammar::earley::word_in` over `Grammar::from_spec`).
//!
//! [`Run::steps`] lists executed edges (a call edge is recorded at the caller's depth;
//! the return to the caller is implicit).

use crate::ir::{Edge, Expr, FieldId, GlobalId, MethodId, Place, Program, Sort, Stmt, TerminalId};
use crate::ir::{MethodCfa, VarId};
use cfp_syntax::ast::{BinaryOp, UnaryOp};
use cfp_syntax::Span;
use petgraph::graph::{EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;
use serde::Serialize;
use std::collections::BTreeMap;

mod draws;
mod eval;
mod guards;
mod oracle;
mod taint;
mod types;
mod wildcards;

pub use types::{Heap, InterpError, Limits, Run, Step, Value};

use draws::assumes_non_null;
use eval::eval_with;
use oracle::sort_matches;
pub use oracle::{
    Decision, EdgeCursor, EdgeQuery, Oracle, PathOracle, RandomOracle, ReplayOracle, ValueQuery,
    ValueSource,
};
pub use wildcards::WildcardTarget;

/// A model address as the concrete interpreter numbers objects (allocations from 1): null
/// stays 0, a trace's allocations `base + k` (`base`: the model's `%alloc` at the start)
/// become `k`, and every other address (objects that exist before the run) a negative
/// number — injective, so equalities between addresses are kept.
pub fn interpreter_address(address: i128, base: i128) -> i128 {
    if address == 0 {
        0
    } else if address > base {
        address - base
    } else {
        address - base - 1
    }
}

struct Frame {
    method: MethodId,
    node: NodeIndex,
    vars: Vec<Option<Value>>,
    /// Where the caller wants the result (a place of the caller).
    result: Option<Place>,
    /// The call: its step in [`Run::steps`], its source location in the caller, and
    /// whether its edge expects the callee to end by throwing.
    call: Option<(usize, NodeIndex, bool)>,
    /// The variables holding an opaque value ([`taint`]).
    taint: std::collections::BTreeSet<usize>,
}

/// Internal failure of one operation.
enum Fail {
    /// Stop with this error (the partial run is attached by the caller).
    Stop(Stop),
    /// A value is not known yet (only during the enabledness check).
    Unknown,
}

enum Stop {
    Blocked(Span, String),
    /// The root ended by throwing.
    Uncaught,
    Depth(usize),
    Oracle,
    Bad(String),
}

type R<T> = Result<T, Fail>;

/// What a false `assume e` means: a null dereference for `x != null`.
fn assume_reason(e: &Expr) -> &'static str {
    match e {
        Expr::Binary {
            op: BinaryOp::Ne,
            lhs,
            rhs,
        } if matches!(**lhs, Expr::Null) || matches!(**rhs, Expr::Null) => "null is dereferenced",
        _ => "assume is false",
    }
}

fn bad<T>(msg: impl Into<String>) -> R<T> {
    Err(Fail::Stop(Stop::Bad(msg.into())))
}

fn blocked<T>(span: Span, msg: impl Into<String>) -> R<T> {
    Err(Fail::Stop(Stop::Blocked(span, msg.into())))
}

struct Machine<'p, 'o> {
    program: &'p Program,
    oracle: &'o mut dyn Oracle,
    globals: Vec<Option<Value>>,
    heap: Heap,
    stack: Vec<Frame>,
    run: Run,
    /// What holds an opaque value ([`taint`]).
    taint: taint::Taint,
    /// The block being run leaves a branching location and only its `assume`s ran so far
    /// (they decide the branch).
    deciding: bool,
    /// The statement being executed draws a reference that the next statement of its
    /// edge assumes is not `null` (a string literal, a library result the program
    /// dereferences): see [`ValueQuery::non_null`].
    non_null_next: bool,
    /// The addresses a `new` of the program allocated (Java zeroes their fields): see
    /// [`ValueQuery::zeroed`].
    program_objects: std::collections::BTreeSet<i64>,
    /// See [`Run::width_dependent`] (set while evaluating, which may be a shared borrow).
    width_dependent: std::cell::Cell<bool>,
    /// The exception global `%exc`, if the program has one.
    exc_global: Option<usize>,
    /// Where the exception in flight was thrown: the method and span of the edge that
    /// made `%exc` non-null.
    thrown_at: Option<(MethodId, Span)>,
}

/// A scratch view used by the enabledness check: writes go to overlays.
struct Scratch {
    vars: BTreeMap<usize, Value>,
    globals: BTreeMap<usize, Value>,
    fields: BTreeMap<(usize, i64), Value>,
}

/// Run `program` from its root method.
pub fn run(program: &Program, oracle: &mut dyn Oracle, limits: Limits) -> Result<Run, InterpError> {
    let root = program
        .method(program.root)
        .ok_or_else(|| InterpError::BadId(format!("root method {}", program.root.0)))?;
    let mut m = Machine {
        program,
        oracle,
        globals: vec![None; program.globals.len()],
        heap: Heap {
            fields: vec![BTreeMap::new(); program.fields.len()],
            allocated: 0,
        },
        stack: Vec::new(),
        run: Run::default(),
        taint: taint::Taint::default(),
        deciding: false,
        non_null_next: false,
        program_objects: std::collections::BTreeSet::new(),
        width_dependent: std::cell::Cell::new(false),
        exc_global: program
            .globals
            .iter()
            .position(|g| g.kind == crate::ir::GlobalKind::Exception),
        thrown_at: None,
    };
    // Globals are arbitrary at the root's entry.
    for g in &program.globals {
        let v = match m.ask_value(ValueSource::GlobalInit(g.id), g.sort) {
            Ok(v) => v,
            Err(f) => return Err(m.into_error(f, program.root)),
        };
        m.globals[g.id.index()] = Some(v);
    }
    m.stack.push(Frame {
        method: program.root,
        node: root.entry,
        vars: vec![None; root.vars.len()],
        result: None,
        call: None,
        taint: Default::default(),
    });
    loop {
        let method = m.stack.last().map_or(program.root, |f| f.method);
        let before = m.run.steps.len();
        let r = m.step(limits);
        if m.run.steps.len() > before {
            if let Some(s) = m.run.steps.last() {
                m.oracle.observe(s);
            }
        }
        match r {
            Ok(true) => {
                m.run.completed = true;
                m.finish();
                return Ok(m.run);
            }
            Ok(false) => {}
            Err(Fail::Stop(Stop::Bad(s))) => return Err(InterpError::BadId(s)),
            Err(f) => return Err(m.into_error(f, method)),
        }
        if m.run.steps.len() >= limits.max_steps {
            m.finish();
            return Err(InterpError::StepLimit(limits.max_steps, Box::new(m.run)));
        }
    }
}

impl<'p> Machine<'p, '_> {
    fn finish(&mut self) {
        self.run.width_dependent = self.width_dependent.get();
        self.run.heap = self.heap.clone();
        self.run.globals = self.globals.clone();
    }

    fn into_error(mut self, f: Fail, method: MethodId) -> InterpError {
        self.finish();
        match f {
            Fail::Stop(Stop::Bad(s)) => InterpError::BadId(s),
            Fail::Stop(Stop::Oracle) => InterpError::OracleExhausted(Box::new(self.run)),
            Fail::Stop(Stop::Depth(d)) => InterpError::DepthLimit(d, Box::new(self.run)),
            Fail::Stop(Stop::Uncaught) => {
                let (method, span) = self.thrown_at.unwrap_or((method, Span::default()));
                let exception = self.exception_class();
                InterpError::Uncaught {
                    method,
                    span,
                    exception,
                    partial: Box::new(self.run),
                }
            }
            Fail::Stop(Stop::Blocked(span, reason)) => InterpError::Blocked {
                method,
                span,
                reason,
                partial: Box::new(self.run),
            },
            // Cannot happen outside the enabledness check; report it as blocked.
            Fail::Unknown => InterpError::Blocked {
                method,
                span: Span::default(),
                reason: "unknown value".into(),
                partial: Box::new(self.run),
            },
        }
    }

    /// True when `%exc` holds an exception (a non-null reference).
    fn exception_in_flight(&self) -> bool {
        self.exc_global
            .and_then(|g| self.globals.get(g).copied().flatten())
            .is_some_and(|v| v != Value::Int(0))
    }

    /// The class of the exception in `%exc`, by its `%type` code.
    fn exception_class(&self) -> Option<String> {
        let Value::Int(obj) = self.globals.get(self.exc_global?).copied().flatten()? else {
            return None;
        };
        let field = self.program.type_field?;
        let code = match self.heap.fields.get(field.index())?.get(&obj)? {
            Value::Int(c) => *c,
            Value::Bool(_) => return None,
        };
        let k = usize::try_from(code).ok()?.checked_sub(1)?;
        self.program.type_names.get(k).cloned()
    }

    /// An arbitrary value for `place` of method `mid`, from the oracle. A reference past
    /// the last allocation is an object library code allocated: the program's next `new`
    /// is fresh beyond it.
    fn draw(&mut self, mid: MethodId, place: &Place) -> R<Value> {
        let cfa = self.method(mid)?;
        let sort = self.program.place_sort(cfa, place);
        let v = self.ask_value(
            ValueSource::Havoc {
                method: mid,
                place: place.clone(),
            },
            sort,
        )?;
        if let (Sort::Ref, Value::Int(a)) = (sort, v) {
            let after = self.oracle.allocated_after_havoc().unwrap_or(a);
            self.heap.allocated = self.heap.allocated.max(after).max(a);
        }
        Ok(v)
    }

    fn ask_value(&mut self, source: ValueSource, sort: Sort) -> R<Value> {
        let q = ValueQuery {
            zeroed: matches!(source, ValueSource::FieldInit { obj, .. } if self.program_objects.contains(&obj)),
            non_null: self.non_null_next
                && sort == Sort::Ref
                && matches!(source, ValueSource::Havoc { .. }),
            source,
            sort,
            allocated: self.heap.allocated,
        };
        match self.oracle.value(&q) {
            Some(v) if sort_matches(sort, v) => {
                self.run.decisions.push(Decision::Value(v));
                Ok(v)
            }
            _ => Err(Fail::Stop(Stop::Oracle)),
        }
    }

    fn method(&self, id: MethodId) -> R<&'p MethodCfa> {
        let program: &'p Program = self.program;
        match program.method(id) {
            Some(m) => Ok(m),
            None => bad(format!("method {}", id.0)),
        }
    }

    /// One step; `Ok(true)` when the root returned.
    fn step(&mut self, limits: Limits) -> R<bool> {
        let Some(frame) = self.stack.last() else {
            return Ok(true);
        };
        let mid = frame.method;
        let node = frame.node;
        let program = self.program;
        let cfa = self.method(mid)?;
        if node == cfa.exit {
            return self.do_return(false);
        }
        if Some(node) == cfa.throw_exit {
            return self.do_return(true);
        }
        if cfa.graph.edges(node).nth(1).is_some() {
            self.fix_guard_inputs(cfa, node)?;
        }
        let mut enabled = Vec::new();
        for e in cfa.graph.edges(node) {
            if self.enabled(cfa, e.weight())? {
                enabled.push(e.id().index());
            }
        }
        // petgraph lists outgoing edges newest first: use the CFA's edge order.
        enabled.sort_unstable();
        let chosen = match enabled.len() {
            0 => {
                let (span, why) = self.why_stuck(cfa, node)?;
                return blocked(span, why);
            }
            1 => enabled[0],
            _ => {
                let throwing = enabled
                    .iter()
                    .copied()
                    .filter(|e| {
                        cfa.graph
                            .edge_weight(EdgeIndex::new(*e))
                            .is_some_and(|w| self.raises(w))
                    })
                    .collect();
                let q = EdgeQuery {
                    method: mid,
                    node: node.index(),
                    enabled: enabled.clone(),
                    throwing,
                };
                match self.oracle.edge(&q) {
                    Some(e) if enabled.contains(&e) => {
                        self.run.decisions.push(Decision::Edge(e));
                        e
                    }
                    _ => return Err(Fail::Stop(Stop::Oracle)),
                }
            }
        };
        let eix = EdgeIndex::new(chosen);
        let Some((from, to)) = cfa.graph.edge_endpoints(eix) else {
            return bad(format!("edge {chosen}"));
        };
        let Some(edge) = program.method(mid).and_then(|c| c.graph.edge_weight(eix)) else {
            return bad(format!("edge {chosen}"));
        };
        let depth = self.stack.len() - 1;
        let mut step = Step {
            method: mid,
            edge: chosen,
            from: from.index(),
            to: to.index(),
            depth,
            span: edge.span(),
            emitted: None,
        };
        match edge {
            Edge::Block(stmts) => {
                let span = step.span;
                self.run.steps.push(step);
                self.deciding = cfa.graph.edges(node).count() > 1;
                let in_flight = self.exception_in_flight();
                for (k, s) in stmts.iter().enumerate() {
                    let next = stmts.get(k + 1).map(|n| &n.node);
                    self.non_null_next = next.is_some_and(|n| assumes_non_null(n, &s.node));
                    match (&s.node, next) {
                        (
                            Stmt::Havoc(Place::Var(_) | Place::Global(_)),
                            Some(Stmt::Assume(guard)),
                        ) if self.oracle.redraws() => {
                            self.draw_until(mid, &s.node, s.span, guard)?;
                        }
                        _ => self.exec(mid, &s.node, s.span)?,
                    }
                }
                self.non_null_next = false;
                self.deciding = false;
                match (in_flight, self.exception_in_flight()) {
                    (false, true) => self.thrown_at = Some((mid, span)),
                    (_, false) => self.thrown_at = None,
                    (true, true) => {}
                }
                self.set_node(to);
            }
            Edge::ApiCall { .. } => {
                self.run.steps.push(step);
                self.set_node(to);
            }
            Edge::Api { terminal, .. } => {
                let Some(t) = program.terminals.get(terminal.index()) else {
                    return bad(format!("terminal {}", terminal.0));
                };
                step.emitted = Some(*terminal);
                self.run.steps.push(step);
                self.run.terminals.push(*terminal);
                self.run.word.push(t.to_string());
                self.set_node(to);
            }
            Edge::Call {
                callee,
                args,
                result,
                span,
                unwind,
            } => {
                let call_step = self.run.steps.len();
                self.run.steps.push(step);
                if self.stack.len() > limits.max_depth {
                    let _ = span;
                    return Err(Fail::Stop(Stop::Depth(limits.max_depth)));
                }
                let callee_cfa = self.method(*callee)?;
                if callee_cfa.params.len() != args.len() {
                    return bad(format!("arity of call to {}", callee_cfa.name));
                }
                let mut vars = vec![None; callee_cfa.vars.len()];
                let mut taint = std::collections::BTreeSet::new();
                for (p, a) in callee_cfa.params.iter().zip(args) {
                    let v = self.eval(mid, a, &mut None)?;
                    if self.tainted(mid, a)? {
                        taint.insert(p.index());
                    }
                    match vars.get_mut(p.index()) {
                        Some(slot) => *slot = Some(v),
                        None => return bad(format!("parameter {}", p.0)),
                    }
                }
                let entry = callee_cfa.entry;
                self.set_node(to);
                self.stack.push(Frame {
                    method: *callee,
                    node: entry,
                    vars,
                    result: result.clone(),
                    call: Some((call_step, from, *unwind)),
                    taint,
                });
            }
        }
        Ok(false)
    }

    fn set_node(&mut self, n: NodeIndex) {
        if let Some(f) = self.stack.last_mut() {
            f.node = n;
        }
    }

    /// Return from the running method, normally or (`thrown`) through its throw exit.
    fn do_return(&mut self, thrown: bool) -> R<bool> {
        let Some(frame) = self.stack.pop() else {
            return Ok(!thrown);
        };
        if self.stack.is_empty() {
            if thrown {
                return Err(Fail::Stop(Stop::Uncaught));
            }
            return Ok(true);
        }
        if let Some((call_step, from, expected)) = frame.call {
            if expected != thrown {
                self.follow_return(frame.method, call_step, from, thrown)?;
            }
        }
        if thrown {
            return Ok(false);
        }
        let cfa = self.method(frame.method)?;
        let ret = cfa.ret;
        let ret_sort = ret.and_then(|r| cfa.var(r)).map(|d| d.sort);
        if let Some(place) = frame.result {
            let (Some(r), Some(sort)) = (ret, ret_sort) else {
                return bad(format!("{} has no return variable", cfa.name));
            };
            let v = match frame.vars.get(r.index()) {
                Some(Some(v)) => *v,
                Some(None) => self.ask_value(
                    ValueSource::VarInit {
                        method: frame.method,
                        var: r,
                    },
                    sort,
                )?,
                None => return bad(format!("return variable {}", r.0)),
            };
            let caller = self.stack.last().map(|f| f.method).unwrap_or(frame.method);
            let t = frame.taint.contains(&r.index());
            self.taint_place(caller, &place, t)?;
            self.assign(caller, &place, v)?;
        }
        Ok(false)
    }

    /// The callee ended the other way than the call edge chosen for it expected: continue
    /// through the sibling call edge that expects it (the same call, the other exit),
    /// when the oracle allows it.
    fn follow_return(
        &mut self,
        callee: MethodId,
        call_step: usize,
        from: NodeIndex,
        thrown: bool,
    ) -> R<()> {
        let what = if thrown {
            "the callee threw an exception"
        } else {
            "the callee returned normally"
        };
        if !self.oracle.adapt_returns() {
            return blocked(Span::default(), format!("{what}, not as the path says"));
        }
        let Some(caller) = self.stack.last().map(|f| f.method) else {
            return bad("no caller");
        };
        let cfa = self.method(caller)?;
        let sibling = cfa
            .graph
            .edges(from)
            .filter(|e| {
                matches!(e.weight(), Edge::Call { callee: c, unwind, .. } if *c == callee && *unwind == thrown)
            })
            .map(|e| (e.id().index(), e.target()))
            .min();
        let Some((edge, to)) = sibling else {
            // No handler on the way that leads anywhere: the exception is not caught.
            if thrown {
                return Err(Fail::Stop(Stop::Uncaught));
            }
            let span = self.run.steps.get(call_step).map_or(cfa.span, |s| s.span);
            return blocked(span, format!("{what}, and the caller has no way on"));
        };
        if let Some(step) = self.run.steps.get_mut(call_step) {
            step.edge = edge;
            step.to = to.index();
        }
        self.set_node(to);
        Ok(())
    }

    fn exec(&mut self, mid: MethodId, s: &Stmt, span: Span) -> R<()> {
        if !matches!(s, Stmt::Assume(_)) {
            self.deciding = false;
        }
        match s {
            Stmt::Assign { place, expr } => {
                let v = self.eval(mid, expr, &mut None)?;
                let t = self.tainted(mid, expr)?;
                self.taint_place(mid, place, t)?;
                self.assign(mid, place, v)
            }
            Stmt::Havoc(place) => {
                let v = self.draw(mid, place)?;
                self.taint_place(mid, place, false)?;
                self.assign(mid, place, v)
            }
            Stmt::Assume(e) => {
                if self.deciding && self.tainted(mid, e)? {
                    self.run.opaque_decisions.push(span);
                }
                self.note_wildcard_targets(mid, e, span);
                match self.eval(mid, e, &mut None)? {
                    Value::Bool(true) => Ok(()),
                    Value::Bool(false) => blocked(span, assume_reason(e)),
                    Value::Int(_) => bad("assume of a non-boolean"),
                }
            }
            Stmt::Alloc { var, kind } => {
                self.heap.allocated += 1;
                let a = self.heap.allocated;
                self.program_objects.insert(a);
                if *kind == crate::ir::AllocKind::Array {
                    self.taint.program_array(a);
                }
                self.taint_place(mid, &Place::Var(*var), false)?;
                self.assign(mid, &Place::Var(*var), Value::Int(a))
            }
            Stmt::Opaque { var, source } => {
                let place = Place::Var(*var);
                let determined = self.determined(mid, source)?;
                let v = self.draw(mid, &place)?;
                self.taint_place(mid, &place, determined)?;
                self.assign(mid, &place, v)
            }
            Stmt::Approx(k) => {
                self.run.approximations.push(*k);
                Ok(())
            }
            Stmt::Leave => Ok(()),
        }
    }

    fn assign(&mut self, mid: MethodId, place: &Place, v: Value) -> R<()> {
        match place {
            Place::Var(x) => {
                let Some(f) = self.stack.last_mut() else {
                    return bad("no frame");
                };
                if f.method != mid {
                    return bad("assignment outside its method");
                }
                match f.vars.get_mut(x.index()) {
                    Some(slot) => *slot = Some(v),
                    None => return bad(format!("variable {}", x.0)),
                }
            }
            Place::Global(g) => match self.globals.get_mut(g.index()) {
                Some(slot) => *slot = Some(v),
                None => return bad(format!("global {}", g.0)),
            },
            Place::Field { obj, field } => {
                let o = self.eval(mid, obj, &mut None)?;
                let Value::Int(o) = o else {
                    return bad("field of a boolean");
                };
                match self.heap.fields.get_mut(field.index()) {
                    Some(arr) => {
                        arr.insert(o, v);
                    }
                    None => return bad(format!("field {}", field.0)),
                }
            }
        }
        Ok(())
    }

    fn scratch_assign(
        &self,
        mid: MethodId,
        place: &Place,
        v: Value,
        sc: &mut Option<Scratch>,
    ) -> R<()> {
        let key = match place {
            Place::Field { obj, field } => match self.peek_eval(mid, obj, sc)? {
                Value::Int(o) => Some((field.index(), o)),
                Value::Bool(_) => return bad("field of a boolean"),
            },
            _ => None,
        };
        let Some(s) = sc.as_mut() else {
            return bad("no scratch");
        };
        match place {
            Place::Var(x) => {
                s.vars.insert(x.index(), v);
            }
            Place::Global(g) => {
                s.globals.insert(g.index(), v);
            }
            Place::Field { .. } => {
                if let Some(k) = key {
                    s.fields.insert(k, v);
                }
            }
        }
        Ok(())
    }

    /// Evaluation without side effects: unknown values are [`Fail::Unknown`].
    fn peek_eval(&self, mid: MethodId, e: &Expr, sc: &mut Option<Scratch>) -> R<Value> {
        // `eval` only needs `&mut self` to ask the oracle, which a scratch evaluation
        // never does; reuse it through a shared-reference evaluator.
        eval_with(self, mid, e, sc, &mut |_, _| Err(Fail::Unknown))
    }

    fn eval(&mut self, mid: MethodId, e: &Expr, sc: &mut Option<Scratch>) -> R<Value> {
        // First try without the oracle; on an unknown value, fill it in and retry.
        loop {
            let mut missing: Option<(ValueSource, Sort)> = None;
            let r = eval_with(self, mid, e, sc, &mut |src, sort| {
                missing = Some((src, sort));
                Err(Fail::Unknown)
            });
            match r {
                Err(Fail::Unknown) => {
                    let Some((src, sort)) = missing else {
                        return bad("unknown value without source");
                    };
                    self.fill(src, sort)?;
                }
                other => return other,
            }
        }
    }
}

#[cfg(test)]
mod tests;
