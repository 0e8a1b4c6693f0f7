//! The concrete run of a feasible counterexample: the interpreter ([`crate::interp`])
//! follows the counterexample's path with the values of the solver's model. The run
//! confirms that the path is an execution of the program model that completes with the
//! reported word, and tells what the solver could not: whether the path goes through an
//! approximated construct ([`crate::ir::Stmt::Approx`]) or turns on a value the analysis
//! does not track (an opaque value, [`crate::ir::VarKind::Opaque`]) — then the
//! violation is only possible, not certain.
//!
//! Addresses: the model numbers objects from its initial `%alloc` (`base`); the
//! interpreter from 0. An object the run allocates (or library code returns past the
//! last allocation) has the interpreter address `model − base`; one that existed before
//! the run a negative one (`model − base − 1`), so no allocation reuses it.

use crate::encode::{Encoder, ALLOC};
use crate::feasibility::Feasibility;
use crate::interp::{self, EdgeCursor, EdgeQuery, Oracle, Step, ValueQuery, ValueSource};
use crate::ir::{Edge, Place, Program, Sort, Stmt};
use crate::trace::{EncodedTrace, Trace, TraceStep};
use cfp_smt::{Model, Term, TermKind, Value};
use std::collections::BTreeMap;

/// An [`Feasibility::Unconfirmed`] answer settled by running the program with the model's
/// values: `Feasible` when the run follows the whole path without an approximation, an
/// opaque decision or arithmetic whose result depends on the integer width (the
/// uninterpreted arithmetic then agreed with Java's along the path, `int` or `long`),
/// else `Unknown` with the answer's reason. Other answers are returned as they are.
pub(crate) fn settle(
    program: &Program,
    enc: &Encoder<'_>,
    trace: &Trace,
    encoded: &EncodedTrace,
    feasibility: Feasibility,
) -> Feasibility {
    let Feasibility::Unconfirmed(values, reason) = feasibility else {
        return feasibility;
    };
    match run_counterexample(program, enc, trace, encoded, &values.model) {
        Ok(run)
            if run.approximations.is_empty()
                && run.opaque_decisions.is_empty()
                && !run.width_dependent =>
        {
            Feasibility::Feasible(values)
        }
        _ => Feasibility::Unknown(reason),
    }
}

/// The concrete run of a counterexample, or why there is none.
pub(crate) fn run_counterexample(
    program: &Program,
    enc: &Encoder<'_>,
    trace: &Trace,
    encoded: &EncodedTrace,
    model: &Model,
) -> Result<interp::Run, String> {
    let mut oracle = ModelOracle::new(program, enc, trace, encoded, model)?;
    let limits = interp::Limits {
        max_steps: oracle.path.edges.len() + 16,
        max_depth: trace.steps.len() + 8,
    };
    match interp::run(program, &mut oracle, limits) {
        Ok(_) if oracle.path.diverged => Err(format!(
            "the concrete run left the path after {} of {} edges",
            oracle.path.next,
            oracle.path.edges.len()
        )),
        Ok(run) if !run.completed => Err("the concrete run did not complete".to_owned()),
        Ok(_) if !oracle.path.done() => Err(format!(
            "the concrete run completed after {} of {} edges",
            oracle.path.next,
            oracle.path.edges.len()
        )),
        Ok(run) => Ok(run),
        Err(e) => Err(format!(
            "the concrete run stopped after {} of {} edges: {e}",
            oracle.path.next,
            oracle.path.edges.len()
        )),
    }
}

/// Answers the interpreter's questions from the path and the model.
struct ModelOracle<'t> {
    /// The path's edges (calls included, returns implicit) and how far the run is.
    path: EdgeCursor,
    /// For each edge, the trace position before it.
    position_of: Vec<usize>,
    encoded: &'t EncodedTrace,
    model: &'t Model,
    enc: &'t Encoder<'t>,
    /// The model's value of each havoc, by (edge, rank among the edge's havocs).
    havocs: BTreeMap<(usize, usize), Value>,
    /// The model's `%alloc` after each havoc of a reference, by (edge, rank).
    allocs: BTreeMap<(usize, usize), i128>,
    base: i128,
    rank: usize,
    /// Set when a ref havoc was answered: the interpreter then asks for `%alloc`.
    last_ref_havoc: Option<(usize, usize)>,
}

fn int_of(v: &Value) -> Option<i128> {
    match v {
        Value::Int(i) => Some(*i),
        _ => None,
    }
}

impl<'t> ModelOracle<'t> {
    fn new(
        program: &'t Program,
        enc: &'t Encoder<'t>,
        trace: &Trace,
        encoded: &'t EncodedTrace,
        model: &'t Model,
    ) -> Result<Self, String> {
        let mut edges = Vec::new();
        let mut position_of = Vec::new();
        for (i, step) in trace.steps.iter().enumerate() {
            if let TraceStep::Intra { method, edge }
            | TraceStep::Api { method, edge }
            | TraceStep::Call { method, edge } = *step
            {
                edges.push((method, edge.index()));
                position_of.push(i);
            }
        }
        let mut havocs = BTreeMap::new();
        let mut allocs = BTreeMap::new();
        for (key, site) in havoc_sites(program, enc, trace, encoded)? {
            let value = match &site.term {
                HavocTerm::Value(t) => eval(model, t),
                HavocTerm::Cell { array, obj } => {
                    match (
                        eval(model, array),
                        eval(model, obj).as_ref().and_then(int_of),
                    ) {
                        (Some(a), Some(o)) => select(&a, o),
                        _ => None,
                    }
                }
            };
            if let Some(v) = value {
                havocs.insert(key, v);
            }
            if let Some(a) = site.alloc.as_ref().and_then(|t| eval(model, t)) {
                if let Some(a) = int_of(&a) {
                    allocs.insert(key, a);
                }
            }
        }
        let base = encoded
            .positions
            .first()
            .and_then(|p| p.names.get(ALLOC).ok())
            .and_then(|t| eval(model, t))
            .and_then(|v| int_of(&v))
            .unwrap_or(0);
        Ok(ModelOracle {
            path: EdgeCursor::new(edges),
            position_of,
            encoded,
            model,
            enc,
            havocs,
            allocs,
            base,
            rank: 0,
            last_ref_havoc: None,
        })
    }

    /// A model address as the interpreter numbers objects.
    fn address(&self, a: i128) -> i64 {
        let r = if a == 0 {
            0
        } else if a > self.base {
            a - self.base
        } else {
            a - self.base - 1
        };
        i64::try_from(r).unwrap_or(i64::MIN)
    }

    /// The model address of an interpreter address.
    fn model_address(&self, a: i64) -> i128 {
        let a = i128::from(a);
        if a == 0 {
            0
        } else if a > 0 {
            a + self.base
        } else {
            a + self.base + 1
        }
    }

    fn to_interp(&self, v: &Value, sort: Sort) -> Option<interp::Value> {
        match (v, sort) {
            (Value::Bool(b), Sort::Bool) => Some(interp::Value::Bool(*b)),
            (Value::Int(i), Sort::Ref) => Some(interp::Value::Int(self.address(*i))),
            (Value::Int(i), Sort::Int) => i64::try_from(*i).ok().map(interp::Value::Int),
            _ => None,
        }
    }

    fn default(sort: Sort) -> interp::Value {
        match sort {
            Sort::Bool => interp::Value::Bool(false),
            _ => interp::Value::Int(0),
        }
    }

    /// The SSA term of `symbol` at the position before the current edge.
    fn term_here(&self, symbol: &str) -> Option<Term> {
        let i = self.position_of.get(self.path.next).copied()?;
        self.encoded
            .positions
            .get(i)?
            .names
            .get(symbol)
            .ok()
            .cloned()
    }
}

impl Oracle for ModelOracle<'_> {
    fn value(&mut self, q: &ValueQuery) -> Option<interp::Value> {
        let v = match &q.source {
            ValueSource::GlobalInit(g) => {
                let sym = self.enc.symbols().global(*g).ok()?.0.clone();
                self.encoded
                    .positions
                    .first()
                    .and_then(|p| p.names.get(&sym).ok())
                    .and_then(|t| eval(self.model, t))
            }
            ValueSource::Havoc { .. } => {
                let key = (self.path.next, self.rank);
                self.rank += 1;
                if q.sort == Sort::Ref {
                    self.last_ref_havoc = Some(key);
                }
                self.havocs.get(&key).cloned()
            }
            ValueSource::FieldInit { field, obj } => {
                let sym = self.enc.symbols().field(*field).ok()?.0.clone();
                let arr = self
                    .encoded
                    .positions
                    .first()
                    .and_then(|p| p.names.get(&sym).ok())
                    .and_then(|t| eval(self.model, t));
                arr.and_then(|a| select(&a, self.model_address(*obj)))
            }
            ValueSource::VarInit { method, var } => {
                let sym = self.enc.symbols().local(*method, *var).ok()?.0.clone();
                self.term_here(&sym).and_then(|t| eval(self.model, &t))
            }
        };
        // A value the model leaves free: any works.
        Some(
            v.and_then(|v| self.to_interp(&v, q.sort))
                .unwrap_or(Self::default(q.sort)),
        )
    }

    fn edge(&mut self, q: &EdgeQuery) -> Option<usize> {
        self.path.edge(q)
    }

    fn observe(&mut self, step: &Step) {
        self.path.observe(step);
        self.rank = 0;
    }

    fn adapt_returns(&self) -> bool {
        false
    }

    fn allocated_after_havoc(&mut self) -> Option<i64> {
        let key = self.last_ref_havoc.take()?;
        let a = *self.allocs.get(&key)?;
        Some(self.address(a).max(0))
    }
}

/// Where a `havoc` of the path puts its value: the SSA term of the havocked variable or
/// global, or the cell of a field array.
enum HavocTerm {
    Value(Term),
    Cell { array: Term, obj: Term },
}

/// A `havoc` of the path, by (path edge, rank among the edge's havocs).
struct HavocSite {
    term: HavocTerm,
    /// `%alloc` after it, for a reference.
    alloc: Option<Term>,
}

/// The havocs of the path's blocks, each re-encoded statement by statement from the
/// position before its block (the same fresh names as the trace's encoding), keyed by
/// (path edge, rank) as the interpreter meets them (path edges: the trace's steps
/// without returns).
fn havoc_sites(
    program: &Program,
    enc: &Encoder<'_>,
    trace: &Trace,
    encoded: &EncodedTrace,
) -> Result<BTreeMap<(usize, usize), HavocSite>, String> {
    let mut out = BTreeMap::new();
    let mut k = 0;
    for (i, step) in trace.steps.iter().enumerate() {
        let (method, edge) = match *step {
            TraceStep::Intra { method, edge }
            | TraceStep::Api { method, edge }
            | TraceStep::Call { method, edge } => (method, edge),
            TraceStep::Return { .. } => continue,
        };
        k += 1;
        let (TraceStep::Intra { .. }, Ok(Edge::Block(stmts))) = (step, enc.edge(method, edge))
        else {
            continue;
        };
        let Some(pos) = encoded.positions.get(i) else {
            continue;
        };
        let cfa = program
            .method(method)
            .ok_or_else(|| format!("method {}", method.0))?;
        let mut names = pos.names.clone();
        let mut rank = 0;
        for s in stmts {
            let before = names.clone();
            enc.stmt(method, &s.node, &mut names)
                .map_err(|e| format!("re-encoding step {i}: {e}"))?;
            let place = match &s.node {
                Stmt::Havoc(place) => place.clone(),
                Stmt::Opaque { var, .. } => Place::Var(*var),
                _ => continue,
            };
            let sort = program.place_sort(cfa, &place);
            let term = match &place {
                Place::Field { obj, field } => {
                    let obj = enc.expr(method, obj, &before).ok();
                    let array = enc
                        .symbols()
                        .field(*field)
                        .ok()
                        .and_then(|(n, _)| names.get(n).ok().cloned());
                    obj.zip(array)
                        .map(|(obj, array)| HavocTerm::Cell { array, obj })
                }
                Place::Var(v) => enc
                    .symbols()
                    .local(method, *v)
                    .ok()
                    .and_then(|s| names.get(&s.0).ok().cloned())
                    .map(HavocTerm::Value),
                Place::Global(g) => enc
                    .symbols()
                    .global(*g)
                    .ok()
                    .and_then(|s| names.get(&s.0).ok().cloned())
                    .map(HavocTerm::Value),
            };
            let alloc = (sort == Sort::Ref)
                .then(|| names.get(ALLOC).ok().cloned())
                .flatten();
            if let Some(term) = term {
                out.insert((k - 1, rank), HavocSite { term, alloc });
            }
            rank += 1;
        }
    }
    Ok(out)
}

/// Equalities fixing the path's inputs to the values a concrete run along it chose
/// (`run`'s decisions, replayed): hints that make the path's check a matter of
/// evaluation. `%alloc` starts at 0, so the model numbers objects as the interpreter
/// does (a run whose references are all positive, as the bug hunter's are).
pub(crate) fn run_hints(
    program: &Program,
    enc: &Encoder<'_>,
    trace: &Trace,
    encoded: &EncodedTrace,
    run: &interp::Run,
) -> Result<Vec<Term>, String> {
    let sites = havoc_sites(program, enc, trace, encoded)?;
    let mut recorder = Recorder {
        replay: interp::ReplayOracle::new(run.decisions.clone()),
        edge: 0,
        rank: 0,
        values: Vec::new(),
        globals: Vec::new(),
        fields: Vec::new(),
    };
    let limits = interp::Limits {
        max_steps: run.steps.len() + 16,
        max_depth: run.steps.iter().map(|s| s.depth).max().unwrap_or(0) + 8,
    };
    interp::run(program, &mut recorder, limits).map_err(|e| e.to_string())?;
    let start = encoded.positions.first().ok_or("an empty trace")?;
    let mut hints = Vec::new();
    if let Ok(a) = start.names.get(ALLOC) {
        hints.push(Term::eq(a.clone(), Term::int(0)));
    }
    // A symbol's constant at the trace's start (none when the slice dropped it).
    let at_start = |symbol: Result<&(String, cfp_smt::Sort), _>| {
        symbol
            .ok()
            .and_then(|s: &(String, cfp_smt::Sort)| start.names.get(&s.0).ok())
    };
    for (g, value) in recorder.globals {
        if let (Some(t), Some(lit)) = (at_start(enc.symbols().global(g)), literal(value)) {
            hints.push(Term::eq(t.clone(), lit));
        }
    }
    // The initial contents of fields the run read before writing them (an array's length,
    // a library object's field): addresses are the model's, as `%alloc` starts at 0.
    for ((f, obj), value) in recorder.fields {
        if let (Some(a), Some(lit)) = (at_start(enc.symbols().field(f)), literal(value)) {
            let cell = Term::select(a.clone(), Term::int(i128::from(obj)));
            hints.push(Term::eq(cell, lit));
        }
    }
    for (key, value) in recorder.values {
        let (Some(site), Some(lit)) = (sites.get(&key), literal(value)) else {
            continue;
        };
        if let HavocTerm::Value(t) = &site.term {
            hints.push(Term::eq(t.clone(), lit));
        }
    }
    Ok(hints)
}

fn literal(v: interp::Value) -> Option<Term> {
    match v {
        interp::Value::Int(i) => Some(Term::int(i128::from(i))),
        interp::Value::Bool(b) => Some(Term::bool(b)),
    }
}

/// Replays a run, noting the value of every `havoc` by (path edge, rank).
struct Recorder {
    replay: interp::ReplayOracle,
    edge: usize,
    rank: usize,
    values: Vec<((usize, usize), interp::Value)>,
    /// The globals' initial values.
    globals: Vec<(crate::ir::GlobalId, interp::Value)>,
    /// The fields' initial contents the run read, by (field, address).
    fields: Vec<((crate::ir::FieldId, i64), interp::Value)>,
}

impl Oracle for Recorder {
    fn value(&mut self, q: &ValueQuery) -> Option<interp::Value> {
        let v = self.replay.value(q)?;
        match q.source {
            ValueSource::Havoc { .. } => {
                self.values.push(((self.edge, self.rank), v));
                self.rank += 1;
            }
            ValueSource::GlobalInit(g) => self.globals.push((g, v)),
            ValueSource::FieldInit { field, obj } => self.fields.push(((field, obj), v)),
            ValueSource::VarInit { .. } => {}
        }
        Some(v)
    }

    fn edge(&mut self, q: &EdgeQuery) -> Option<usize> {
        self.replay.edge(q)
    }

    fn observe(&mut self, _step: &Step) {
        self.edge += 1;
        self.rank = 0;
    }
}

/// The value of a term in the model (constants and literals).
fn eval(model: &Model, t: &Term) -> Option<Value> {
    match t.kind() {
        TermKind::Var(n, _) => model.get(n).cloned(),
        TermKind::Int(i) => Some(Value::Int(*i)),
        TermKind::Bool(b) => Some(Value::Bool(*b)),
        _ => None,
    }
}

/// `a[i]` of a model array.
fn select(a: &Value, i: i128) -> Option<Value> {
    match a {
        Value::Array { default, entries } => Some(
            entries
                .get(&i)
                .cloned()
                .unwrap_or_else(|| (**default).clone()),
        ),
        _ => None,
    }
}
