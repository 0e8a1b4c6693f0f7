//! A concrete interpreter of lowered (and usually instrumented) [`Program`]s: it runs the
//! CFA edges with concrete values, following DESIGN.md §3 "Semantics for SMT".
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

/// A concrete value. References are `Int` addresses (`null` = 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Value {
    /// An integer or a reference.
    Int(i64),
    /// A boolean.
    Bool(bool),
}

impl Value {
    /// The integer (or address); `None` for a boolean.
    pub fn as_int(self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(i),
            Value::Bool(_) => None,
        }
    }

    /// The boolean; `None` for an integer.
    pub fn as_bool(self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(b),
            Value::Int(_) => None,
        }
    }
}

/// Why the interpreter needs a value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum ValueSource {
    /// The initial value of a global at the root's entry.
    GlobalInit(GlobalId),
    /// `havoc place` in `method`.
    Havoc {
        /// The method executing the havoc.
        method: MethodId,
        /// The havocked place (the object of a field place is not evaluated here).
        place: Place,
    },
    /// The initial content of `field` at address `obj` (read before any write).
    FieldInit {
        /// The field.
        field: FieldId,
        /// The object's address.
        obj: i64,
    },
    /// A variable of `method` read before any write.
    VarInit {
        /// The method.
        method: MethodId,
        /// The variable.
        var: VarId,
    },
}

/// A request for a value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ValueQuery {
    /// What the value is for.
    pub source: ValueSource,
    /// Its sort (the answer must have the matching [`Value`] variant).
    pub sort: Sort,
    /// The addresses allocated so far (`1..=n`, in order), useful for references.
    pub allocated: i64,
}

/// A request to choose among several enabled edges of one location.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EdgeQuery {
    /// The method.
    pub method: MethodId,
    /// The location.
    pub node: usize,
    /// The enabled outgoing edges (graph edge indices, in the CFA's edge order); at
    /// least two.
    pub enabled: Vec<usize>,
}

/// One answer of an oracle, as recorded in [`Run::decisions`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Decision {
    /// A value.
    Value(Value),
    /// The graph index of the chosen edge.
    Edge(usize),
}

/// Supplies every nondeterministic choice of a run. `None` ends the run with
/// [`InterpError::OracleExhausted`].
pub trait Oracle {
    /// A value of sort `q.sort` (a [`Value::Bool`] for [`Sort::Bool`], otherwise a
    /// [`Value::Int`]).
    fn value(&mut self, q: &ValueQuery) -> Option<Value>;
    /// The graph index of one of `q.enabled`.
    fn edge(&mut self, q: &EdgeQuery) -> Option<usize>;
    /// Called after every executed edge (whether or not a choice was needed); lets an
    /// oracle follow a path given edge by edge ([`PathOracle`]).
    fn observe(&mut self, _step: &Step) {}
}

/// Follows a path given as the complete sequence of executed edges `(method, edge
/// index)` — e.g. a checker's nested path, calls included, returns implicit — plus the
/// havoc/initial values in the order the interpreter asks for them. Edge queries are
/// answered with the path's next edge; a run that leaves the path gets `None`
/// ([`InterpError::OracleExhausted`]).
#[derive(Clone, Debug, Default)]
pub struct PathOracle {
    edges: Vec<(MethodId, usize)>,
    values: Vec<Value>,
    next_edge: usize,
    next_value: usize,
    /// Set when an executed edge differed from the path.
    pub diverged: bool,
}

impl PathOracle {
    /// Follow `edges`, answering value queries from `values`.
    pub fn new(edges: Vec<(MethodId, usize)>, values: Vec<Value>) -> PathOracle {
        PathOracle {
            edges,
            values,
            ..PathOracle::default()
        }
    }

    /// True when every edge of the path was executed and every value used.
    pub fn exhausted(&self) -> bool {
        self.next_edge == self.edges.len() && self.next_value == self.values.len()
    }
}

impl Oracle for PathOracle {
    fn value(&mut self, q: &ValueQuery) -> Option<Value> {
        let v = *self.values.get(self.next_value)?;
        if !sort_matches(q.sort, v) {
            return None;
        }
        self.next_value += 1;
        Some(v)
    }

    fn edge(&mut self, q: &EdgeQuery) -> Option<usize> {
        match self.edges.get(self.next_edge) {
            Some(&(m, e)) if m == q.method && q.enabled.contains(&e) => Some(e),
            _ => None,
        }
    }

    fn observe(&mut self, step: &Step) {
        if self.edges.get(self.next_edge) != Some(&(step.method, step.edge)) {
            self.diverged = true;
        }
        self.next_edge += 1;
    }
}

/// Follows a recorded list of decisions (e.g. [`Run::decisions`], or a checker's
/// counterexample turned into values and branch choices).
#[derive(Clone, Debug, Default)]
pub struct ReplayOracle {
    decisions: Vec<Decision>,
    next: usize,
}

impl ReplayOracle {
    /// Replay `decisions` in order.
    pub fn new(decisions: Vec<Decision>) -> ReplayOracle {
        ReplayOracle { decisions, next: 0 }
    }

    /// How many decisions were used so far.
    pub fn used(&self) -> usize {
        self.next
    }
}

impl Oracle for ReplayOracle {
    fn value(&mut self, q: &ValueQuery) -> Option<Value> {
        match self.decisions.get(self.next)? {
            Decision::Value(v) if sort_matches(q.sort, *v) => {
                self.next += 1;
                Some(*v)
            }
            _ => None,
        }
    }

    fn edge(&mut self, q: &EdgeQuery) -> Option<usize> {
        match self.decisions.get(self.next)? {
            Decision::Edge(e) if q.enabled.contains(e) => {
                self.next += 1;
                Some(*e)
            }
            _ => None,
        }
    }
}

fn sort_matches(sort: Sort, v: Value) -> bool {
    matches!(
        (sort, v),
        (Sort::Bool, Value::Bool(_)) | (Sort::Int | Sort::Ref, Value::Int(_))
    )
}

/// Pseudo-random choices (xorshift64*), for testing: integers in `-2..=5` (0 and 1 are
/// favoured), references `null` (one time in five) or an address in `1..=allocated + 6`
/// (so that a wildcard chosen at the start can name an object allocated later), booleans
/// and edges uniform.
#[derive(Clone, Debug)]
pub struct RandomOracle {
    state: u64,
}

impl RandomOracle {
    /// A generator seeded with `seed` (any value, 0 included).
    pub fn new(seed: u64) -> RandomOracle {
        RandomOracle {
            state: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03,
        }
    }

    /// The next raw pseudo-random number.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.state = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        (self.next_u64() >> 11) % n.max(1)
    }
}

impl Oracle for RandomOracle {
    fn value(&mut self, q: &ValueQuery) -> Option<Value> {
        Some(match q.sort {
            Sort::Bool => Value::Bool(self.below(2) == 1),
            Sort::Int => {
                const INTS: [i64; 10] = [0, 0, 1, 1, 2, 3, -1, 5, -2, 4];
                Value::Int(INTS[self.below(INTS.len() as u64) as usize])
            }
            Sort::Ref => {
                if self.below(5) == 0 {
                    Value::Int(0)
                } else {
                    let hi = q.allocated.max(0) as u64 + 6;
                    Value::Int(1 + self.below(hi) as i64)
                }
            }
        })
    }

    fn edge(&mut self, q: &EdgeQuery) -> Option<usize> {
        let i = self.below(q.enabled.len() as u64) as usize;
        q.enabled.get(i).copied()
    }
}

/// Bounds of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Maximal number of executed edges.
    pub max_steps: usize,
    /// Maximal call depth (the root is depth 0).
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps: 10_000,
            max_depth: 200,
        }
    }
}

/// One executed edge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// The method whose edge it is.
    pub method: MethodId,
    /// The edge's graph index.
    pub edge: usize,
    /// Its source location.
    pub from: usize,
    /// Its target location.
    pub to: usize,
    /// Call depth (the root is 0).
    pub depth: usize,
    /// The edge's source span.
    pub span: Span,
    /// The terminal it emitted, for an [`Edge::Api`].
    pub emitted: Option<TerminalId>,
}

/// The heap: one map per field array (cells never written nor read are absent) and the
/// allocation counter.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Heap {
    /// `fields[f][addr]`.
    pub fields: Vec<BTreeMap<i64, Value>>,
    /// Number of objects allocated so far (their addresses are `1..=allocated`).
    pub allocated: i64,
}

/// A (possibly partial) execution.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Run {
    /// Executed edges in order.
    pub steps: Vec<Step>,
    /// The emitted terminals.
    pub terminals: Vec<TerminalId>,
    /// The emitted word (terminal names as the spec spells them, e.g. `$1.lock()`).
    pub word: Vec<String>,
    /// The heap at the end.
    pub heap: Heap,
    /// Global values at the end.
    pub globals: Vec<Option<Value>>,
    /// Every oracle answer, in order ([`ReplayOracle::new`] reproduces the run).
    pub decisions: Vec<Decision>,
    /// True when the root method returned.
    pub completed: bool,
}

impl Run {
    /// The word as `&str`s (for `cfp_grammar::earley::word_in`).
    pub fn word_refs(&self) -> Vec<&str> {
        self.word.iter().map(String::as_str).collect()
    }
}

/// Why a run did not complete. The variants that stop a run carry the partial run.
#[derive(Debug, thiserror::Error)]
pub enum InterpError {
    /// An `assume` was false, no edge was enabled, or an operation was undefined.
    #[error("run blocked in method {} at {:?}: {reason}", method.0, span)]
    Blocked {
        /// The method.
        method: MethodId,
        /// The span of the blocking statement or edge.
        span: Span,
        /// What blocked.
        reason: String,
        /// The run so far.
        partial: Box<Run>,
    },
    /// The step limit was reached.
    #[error("step limit {0} reached")]
    StepLimit(usize, Box<Run>),
    /// The call-depth limit was reached.
    #[error("call depth limit {0} reached")]
    DepthLimit(usize, Box<Run>),
    /// The oracle gave no (or an ill-sorted) answer.
    #[error("the oracle gave no usable answer")]
    OracleExhausted(Box<Run>),
    /// The program refers to something that does not exist.
    #[error("bad id: {0}")]
    BadId(String),
}

impl InterpError {
    /// The partial run, when the error stopped a run.
    pub fn partial(&self) -> Option<&Run> {
        match self {
            InterpError::Blocked { partial, .. }
            | InterpError::StepLimit(_, partial)
            | InterpError::DepthLimit(_, partial)
            | InterpError::OracleExhausted(partial) => Some(partial),
            InterpError::BadId(_) => None,
        }
    }

    /// True for [`InterpError::Blocked`].
    pub fn is_blocked(&self) -> bool {
        matches!(self, InterpError::Blocked { .. })
    }
}

struct Frame {
    method: MethodId,
    node: NodeIndex,
    vars: Vec<Option<Value>>,
    /// Where the caller wants the result (a place of the caller).
    result: Option<Place>,
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
    Depth(usize),
    Oracle,
    Bad(String),
}

type R<T> = Result<T, Fail>;

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
        self.run.heap = self.heap.clone();
        self.run.globals = self.globals.clone();
    }

    fn into_error(mut self, f: Fail, method: MethodId) -> InterpError {
        self.finish();
        match f {
            Fail::Stop(Stop::Bad(s)) => InterpError::BadId(s),
            Fail::Stop(Stop::Oracle) => InterpError::OracleExhausted(Box::new(self.run)),
            Fail::Stop(Stop::Depth(d)) => InterpError::DepthLimit(d, Box::new(self.run)),
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

    fn ask_value(&mut self, source: ValueSource, sort: Sort) -> R<Value> {
        let q = ValueQuery {
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
            return self.do_return();
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
                return blocked(
                    Span::default(),
                    format!("no enabled edge at n{}", node.index()),
                )
            }
            1 => enabled[0],
            _ => {
                let q = EdgeQuery {
                    method: mid,
                    node: node.index(),
                    enabled: enabled.clone(),
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
                self.run.steps.push(step);
                for s in stmts {
                    self.exec(mid, &s.node, s.span)?;
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
            } => {
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
                for (p, a) in callee_cfa.params.iter().zip(args) {
                    let v = self.eval(mid, a, &mut None)?;
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

    fn do_return(&mut self) -> R<bool> {
        let Some(frame) = self.stack.pop() else {
            return Ok(true);
        };
        if self.stack.is_empty() {
            return Ok(true);
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
            self.assign(caller, &place, v)?;
        }
        Ok(false)
    }

    fn exec(&mut self, mid: MethodId, s: &Stmt, span: Span) -> R<()> {
        match s {
            Stmt::Assign { place, expr } => {
                let v = self.eval(mid, expr, &mut None)?;
                self.assign(mid, place, v)
            }
            Stmt::Havoc(place) => {
                let cfa = self.method(mid)?;
                let sort = self.program.place_sort(cfa, place);
                let v = self.ask_value(
                    ValueSource::Havoc {
                        method: mid,
                        place: place.clone(),
                    },
                    sort,
                )?;
                self.assign(mid, place, v)
            }
            Stmt::Assume(e) => match self.eval(mid, e, &mut None)? {
                Value::Bool(true) => Ok(()),
                Value::Bool(false) => blocked(span, "assume is false"),
                Value::Int(_) => bad("assume of a non-boolean"),
            },
            Stmt::Alloc { var, .. } => {
                self.heap.allocated += 1;
                let a = self.heap.allocated;
                self.assign(mid, &Place::Var(*var), Value::Int(a))
            }
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

    /// Whether `edge` can be taken now (see the module doc).
    fn enabled(&self, cfa: &MethodCfa, edge: &Edge) -> R<bool> {
        let Edge::Block(stmts) = edge else {
            return Ok(true);
        };
        let mut sc = Some(Scratch {
            vars: BTreeMap::new(),
            globals: BTreeMap::new(),
            fields: BTreeMap::new(),
        });
        for s in stmts {
            let r = match &s.node {
                Stmt::Havoc(_) | Stmt::Alloc { .. } => return Ok(true),
                Stmt::Assume(e) => match self.peek_eval(cfa.id, e, &mut sc) {
                    Ok(Value::Bool(false)) => return Ok(false),
                    Ok(_) => Ok(()),
                    Err(e) => Err(e),
                },
                Stmt::Assign { place, expr } => match self.peek_eval(cfa.id, expr, &mut sc) {
                    Ok(v) => self.scratch_assign(cfa.id, place, v, &mut sc),
                    Err(e) => Err(e),
                },
            };
            match r {
                Ok(()) => {}
                Err(Fail::Unknown) | Err(Fail::Stop(Stop::Blocked(..))) => return Ok(true),
                Err(e) => return Err(e),
            }
        }
        Ok(true)
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
                    let v = self.ask_value(src.clone(), sort)?;
                    match src {
                        ValueSource::FieldInit { field, obj } => {
                            if let Some(arr) = self.heap.fields.get_mut(field.index()) {
                                arr.insert(obj, v);
                            }
                        }
                        ValueSource::VarInit { var, .. } => {
                            if let Some(slot) = self
                                .stack
                                .last_mut()
                                .and_then(|f| f.vars.get_mut(var.index()))
                            {
                                *slot = Some(v);
                            }
                        }
                        _ => return bad("unexpected unknown value"),
                    }
                }
                other => return other,
            }
        }
    }
}

type MissingFn<'a> = dyn FnMut(ValueSource, Sort) -> R<Value> + 'a;

fn eval_with(
    m: &Machine<'_, '_>,
    mid: MethodId,
    e: &Expr,
    sc: &mut Option<Scratch>,
    missing: &mut MissingFn<'_>,
) -> R<Value> {
    let Some(frame) = m.stack.last() else {
        return bad("no frame");
    };
    let Some(cfa) = m.program.method(mid) else {
        return bad(format!("method {}", mid.0));
    };
    Ok(match e {
        Expr::Var(x) => {
            if let Some(v) = sc.as_ref().and_then(|s| s.vars.get(&x.index())) {
                return Ok(*v);
            }
            match frame.vars.get(x.index()) {
                Some(Some(v)) => *v,
                Some(None) => {
                    let sort = cfa.var(*x).map_or(Sort::Int, |d| d.sort);
                    return missing(
                        ValueSource::VarInit {
                            method: mid,
                            var: *x,
                        },
                        sort,
                    );
                }
                None => return bad(format!("variable {} of {}", x.0, cfa.name)),
            }
        }
        Expr::Global(g) => {
            if let Some(v) = sc.as_ref().and_then(|s| s.globals.get(&g.index())) {
                return Ok(*v);
            }
            match m.globals.get(g.index()) {
                Some(Some(v)) => *v,
                _ => return bad(format!("global {}", g.0)),
            }
        }
        Expr::Field { obj, field } => {
            let Value::Int(o) = eval_with(m, mid, obj, sc, missing)? else {
                return bad("field of a boolean");
            };
            if let Some(v) = sc.as_ref().and_then(|s| s.fields.get(&(field.index(), o))) {
                return Ok(*v);
            }
            let Some(arr) = m.heap.fields.get(field.index()) else {
                return bad(format!("field {}", field.0));
            };
            match arr.get(&o) {
                Some(v) => *v,
                None => {
                    let sort = m
                        .program
                        .fields
                        .get(field.index())
                        .map_or(Sort::Int, |d| d.sort);
                    return missing(
                        ValueSource::FieldInit {
                            field: *field,
                            obj: o,
                        },
                        sort,
                    );
                }
            }
        }
        Expr::Int(i) => Value::Int(*i),
        Expr::Bool(b) => Value::Bool(*b),
        Expr::Null => Value::Int(0),
        Expr::Unary { op, arg } => {
            let a = eval_with(m, mid, arg, sc, missing)?;
            match (op, a) {
                (UnaryOp::Not, Value::Bool(b)) => Value::Bool(!b),
                (UnaryOp::Neg, Value::Int(i)) => match i.checked_neg() {
                    Some(v) => Value::Int(v),
                    None => return blocked(Span::default(), "overflow"),
                },
                (UnaryOp::Plus, Value::Int(i)) => Value::Int(i),
                (UnaryOp::BitNot, Value::Int(i)) => Value::Int(!i),
                _ => return bad(format!("ill-sorted unary {op:?}")),
            }
        }
        Expr::Binary { op, lhs, rhs } => {
            let a = eval_with(m, mid, lhs, sc, missing)?;
            let b = eval_with(m, mid, rhs, sc, missing)?;
            binary(*op, a, b)?
        }
        Expr::Ite {
            cond,
            then_expr,
            else_expr,
        } => match eval_with(m, mid, cond, sc, missing)? {
            Value::Bool(true) => eval_with(m, mid, then_expr, sc, missing)?,
            Value::Bool(false) => eval_with(m, mid, else_expr, sc, missing)?,
            Value::Int(_) => return bad("ill-sorted condition"),
        },
    })
}

fn binary(op: BinaryOp, a: Value, b: Value) -> R<Value> {
    use BinaryOp::*;
    let ov = || blocked(Span::default(), "overflow");
    Ok(match (a, b) {
        (Value::Int(x), Value::Int(y)) => match op {
            Add => match x.checked_add(y) {
                Some(v) => Value::Int(v),
                None => return ov(),
            },
            Sub => match x.checked_sub(y) {
                Some(v) => Value::Int(v),
                None => return ov(),
            },
            Mul => match x.checked_mul(y) {
                Some(v) => Value::Int(v),
                None => return ov(),
            },
            Div | Rem => {
                if y == 0 {
                    return blocked(Span::default(), "division by zero");
                }
                let r = if op == Div {
                    x.checked_div(y)
                } else {
                    x.checked_rem(y)
                };
                match r {
                    Some(v) => Value::Int(v),
                    None => return ov(),
                }
            }
            Lt => Value::Bool(x < y),
            Le => Value::Bool(x <= y),
            Gt => Value::Bool(x > y),
            Ge => Value::Bool(x >= y),
            Eq => Value::Bool(x == y),
            Ne => Value::Bool(x != y),
            BitAnd => Value::Int(x & y),
            BitOr => Value::Int(x | y),
            BitXor => Value::Int(x ^ y),
            Shl => Value::Int(x.wrapping_shl((y & 63) as u32)),
            Shr => Value::Int(x.wrapping_shr((y & 63) as u32)),
            UShr => Value::Int(((x as u64) >> ((y & 63) as u32)) as i64),
            And | Or => return bad(format!("ill-sorted {op:?}")),
        },
        (Value::Bool(x), Value::Bool(y)) => match op {
            And | BitAnd => Value::Bool(x && y),
            Or | BitOr => Value::Bool(x || y),
            Eq => Value::Bool(x == y),
            Ne | BitXor => Value::Bool(x != y),
            _ => return bad(format!("ill-sorted {op:?}")),
        },
        _ => match op {
            // Mixed sorts come from havocked mismatches; never equal.
            Eq => Value::Bool(false),
            Ne => Value::Bool(true),
            _ => return bad(format!("ill-sorted {op:?}")),
        },
    })
}

#[cfg(test)]
mod tests;
