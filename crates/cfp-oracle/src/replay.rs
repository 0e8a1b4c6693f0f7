//! From cfp's counterexample to the inputs of a JVM run: the reported path (`replay`:
//! the edges and initial globals of `cfp check --json`) is re-run through cfp's concrete
//! interpreter (`cfp_core::interp`) on the program as `cfp check` prepared it, choosing
//! the values the path leaves free by a bounded backtracking search (the same as the CLI's
//! corpus test). The run that follows the whole path, completes and emits the reported
//! word gives, in execution order, the values of its havocs that stand for library calls:
//! `Input.*()` calls (the program's inputs), other calls of the program (arbitrary
//! results), calls inside cfp's library models, and the entry method's parameters — and
//! what the library does on that path: the library calls that throw (and what), how
//! often a library call calls back what it received, and which of those objects are
//! called back after the entry returns.
//!
//! The search tries, for each free value, first the value cfp's model gives it (the
//! counterexample's `values`, matched by variable, line and run), then small ones; a
//! reference that is picked and then constrained (`o := *; assume o.%escaped`) is tried
//! first as the objects allocated so far, the most recent first.

use cfp_core::interp::{self, EdgeQuery, InterpError, Limits, Oracle, ReplayOracle, Step};
use cfp_core::interp::{Value, ValueQuery, ValueSource};
use cfp_core::{AllocKind, Edge, Expr, FieldId, GlobalKind, LowerOptions, MethodId, Place};
use cfp_core::{Program, Sort, Stmt};
use cfp_syntax::Span;
use serde::Serialize;
use std::collections::BTreeMap;

/// A span's first byte offset.
fn lo(s: cfp_syntax::Span) -> usize {
    s.start as usize
}

/// A span's end byte offset.
fn hi(s: cfp_syntax::Span) -> usize {
    s.end as usize
}

/// What a havoc of cfp's path stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum InputKind {
    /// A call `Input.xxx(…)` of the program: an input (the JVM must draw it there).
    Input,
    /// The result of another library call of the program.
    Ext,
    /// An arbitrary choice inside one of cfp's library models.
    Model,
    /// A parameter of the entry method.
    Param,
    /// Whether the reference result of another library call is an object (not null).
    Ref,
    /// A library call that throws: the class of the exception (a new object).
    Throw,
    /// How many times a library call calls back what it received, during the call.
    Calls,
    /// After the entry returns, the library calls back the object number `value` (from
    /// 0) that the library call named by the line and method received.
    Later,
}

impl InputKind {
    /// The name the JVM driver uses.
    pub fn as_str(self) -> &'static str {
        match self {
            InputKind::Input => "input",
            InputKind::Ext => "ext",
            InputKind::Model => "model",
            InputKind::Param => "param",
            InputKind::Ref => "ref",
            InputKind::Throw => "throw",
            InputKind::Calls => "calls",
            InputKind::Later => "later",
        }
    }
}

/// One value of cfp's path for the JVM.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReplayInput {
    /// What it stands for.
    pub kind: InputKind,
    /// The line of the program (0 in a model).
    pub line: u32,
    /// The value.
    pub value: ReplayValue,
    /// The source text of the havoc (the call).
    pub text: String,
}

/// A boolean, an integer, or a class (of a thrown exception).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum ReplayValue {
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A class name as the program writes it.
    Class(String),
}

impl ReplayInput {
    /// The driver's spelling: `kind:line:method:b1`, `kind:line:method:i-3` or
    /// `throw:line:method:cName` (the method called, for what library calls do).
    pub fn job_token(&self) -> String {
        let v = match &self.value {
            ReplayValue::Bool(b) => format!("b{}", u8::from(*b)),
            ReplayValue::Int(i) => format!("i{i}"),
            ReplayValue::Class(c) => format!("c{c}"),
        };
        let method = match self.kind {
            InputKind::Ext
            | InputKind::Ref
            | InputKind::Throw
            | InputKind::Calls
            | InputKind::Later => called_method(&self.text),
            _ => "",
        };
        format!("{}:{}:{method}:{v}", self.kind.as_str(), self.line)
    }
}

/// The method the JVM runs for the call `call`: its callee, `<init>` for `new T(…)`.
pub fn called_method(call: &str) -> &str {
    if call.trim_start().starts_with("new ") {
        "<init>"
    } else {
        callee_name(call)
    }
}

/// The method a call's text calls: the name before its last argument list
/// (`a.get(x).find(id)` calls `find`); empty when there is none.
pub fn callee_name(call: &str) -> &str {
    let bytes = call.as_bytes();
    if bytes.last() != Some(&b')') {
        return "";
    }
    let mut depth = 0usize;
    let mut open = None;
    for (i, b) in bytes.iter().enumerate().rev() {
        match b {
            b')' => depth += 1,
            b'(' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    open = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    let Some(open) = open else { return "" };
    let head = call[..open].trim_end();
    let start = head
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .map_or(0, |i| i + 1);
    &head[start..]
}

/// Why cfp's counterexample gives no JVM inputs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The counterexample JSON has no `replay` (or a malformed one).
    #[error("the counterexample has no replay path")]
    NoPath,
    /// The program does not prepare the way `cfp check` did.
    #[error("the program does not prepare: {0}")]
    Prepare(String),
    /// The interpreter cannot run the program (a bad id: the path is not of this program).
    #[error("the interpreter cannot run the path: {0}")]
    Interp(String),
    /// No choice of the free values follows the whole path to the end.
    #[error("no run of cfp's interpreter follows the reported path: {0}")]
    NoRun(String),
    /// cfp's core panicked on the program.
    #[error("cfp's core panicked: {0}")]
    Panic(String),
    /// After the entry returns, cfp's path calls back an object no library call received
    /// (the JVM's library only calls back what it was given).
    #[error("{message}")]
    NotReceived {
        /// What is called back, on which object.
        message: String,
        /// The object is one the run made (not one there before it started, which an
        /// `// entry:` program's library may have received before).
        made: bool,
    },
    /// The run follows the path but emits another word.
    #[error("the path emits [{got}], cfp reported [{reported}]")]
    OtherWord {
        /// What the replay emitted.
        got: String,
        /// What cfp reported.
        reported: String,
    },
}

/// Most runs of the search for one counterexample.
const MAX_RUNS: usize = 20_000;
/// Most total candidate index of the search (limited discrepancy).
const MAX_DISCREPANCY: usize = 12;
/// Most combinations of wildcard values tried.
const MAX_WILDCARD_COMBOS: usize = 64;
/// Fewest runs of the search for one combination.
const MIN_RUNS: usize = 500;

/// The edge of `cfa` with graph index `index` (`edges()` lists them by index).
fn edge_weight(cfa: &cfp_core::MethodCfa, index: usize) -> Option<&Edge> {
    cfa.edges().nth(index).map(|(_, _, e)| e)
}

/// The program's methods' edges by graph index: `(source, target, edge)`.
struct Cfas<'p> {
    program: &'p Program,
    edges: Vec<Vec<(usize, usize, &'p Edge)>>,
    /// For each method and node, the fewest edges to the method's (normal) exit.
    to_exit: Vec<Vec<usize>>,
}

impl<'p> Cfas<'p> {
    fn new(program: &'p Program) -> Cfas<'p> {
        let edges = program
            .methods
            .iter()
            .map(|cfa| {
                cfa.edges()
                    .map(|(a, b, e)| (a.index(), b.index(), e))
                    .collect()
            })
            .collect::<Vec<Vec<(usize, usize, &Edge)>>>();
        let to_exit = program
            .methods
            .iter()
            .zip(&edges)
            .map(|(cfa, es)| {
                let n = cfa.graph.node_count();
                let mut dist = vec![usize::MAX; n];
                let mut todo: Vec<usize> =
                    [cfa.exit.index()].into_iter().filter(|&x| x < n).collect();
                for &x in &todo {
                    dist[x] = 0;
                }
                while !todo.is_empty() {
                    let mut next = Vec::new();
                    for &(a, b, _) in es {
                        if todo.contains(&b) && dist[a] == usize::MAX {
                            dist[a] = dist[b] + 1;
                            next.push(a);
                        }
                    }
                    todo = next;
                }
                dist
            })
            .collect();
        Cfas {
            program,
            edges,
            to_exit,
        }
    }

    /// Of the edges `enabled` of `m`, the one whose target is closest to its exit.
    fn towards_exit(&self, m: MethodId, enabled: &[usize]) -> Option<usize> {
        let dist = self.to_exit.get(m.index())?;
        enabled.iter().copied().min_by_key(|&e| {
            self.edge(m, e)
                .and_then(|(_, to, _)| dist.get(to).copied())
                .unwrap_or(usize::MAX)
        })
    }

    /// Edge `e` of method `m`.
    fn edge(&self, m: MethodId, e: usize) -> Option<(usize, usize, &'p Edge)> {
        self.edges.get(m.index())?.get(e).copied()
    }
}

/// The values cfp's model gives the havocs of its path: `values` has what each step of
/// cfp's trace wrote (`"step  12: %t6"`), `trace` each step's line and text. cfp's trace
/// may be of a slice of the program, with fewer steps than the path, so a havoc is matched
/// by what it writes, its line and how many times it ran before.
struct ModelValues {
    /// `(variable, line)` → the values its havocs wrote, in the trace's order.
    havocs: BTreeMap<(String, u32), Vec<String>>,
    /// `%alloc` at the start: the model's `k`-th allocation is `base + k`.
    base: i128,
}

impl ModelValues {
    fn new(cex: &serde_json::Value) -> ModelValues {
        let values = cex["values"].as_object();
        let number = |key: &str| {
            values
                .and_then(|v| v.get(key))
                .and_then(serde_json::Value::as_str)
                .and_then(|s| s.trim().parse::<i128>().ok())
        };
        let base = number("step   0: %alloc")
            .or_else(|| number("%alloc"))
            .unwrap_or(0);
        let trace = cex["trace"].as_array();
        let mut written: Vec<(usize, String, u32, String)> = Vec::new();
        for (key, value) in values.into_iter().flatten() {
            let Some((step, name)) = key
                .strip_prefix("step ")
                .and_then(|k| k.split_once(": "))
                .and_then(|(n, w)| Some((n.trim().parse::<usize>().ok()?, w)))
            else {
                continue;
            };
            // `%t1#bool`: the boolean view of `%t1`.
            let var = name.split('#').next().unwrap_or(name);
            let Some(t) = trace.and_then(|t| t.get(step)) else {
                continue;
            };
            let text = t["text"].as_str().unwrap_or("");
            let havoc = format!("havoc {var}");
            if !text.split(';').any(|part| part.trim() == havoc) {
                continue;
            }
            let line = t["line"]
                .as_u64()
                .and_then(|l| u32::try_from(l).ok())
                .unwrap_or(0);
            if let Some(v) = value.as_str() {
                written.push((step, var.to_string(), line, v.trim().to_string()));
            }
        }
        written.sort();
        let mut havocs: BTreeMap<(String, u32), Vec<String>> = BTreeMap::new();
        for (_, var, line, v) in written {
            havocs.entry((var, line)).or_default().push(v);
        }
        ModelValues { havocs, base }
    }

    /// The value the `nth` run (from 0) of the havoc of `var` on `line` got, as a value of
    /// `sort`.
    fn get(&self, var: &str, line: u32, nth: usize, sort: Sort) -> Option<Value> {
        let text = self.havocs.get(&(var.to_string(), line))?.get(nth)?;
        match sort {
            Sort::Bool => match text.as_str() {
                "true" => Some(Value::Bool(true)),
                "false" => Some(Value::Bool(false)),
                _ => None,
            },
            Sort::Int => text.parse::<i64>().ok().map(Value::Int),
            Sort::Ref => text
                .parse::<i128>()
                .ok()
                .and_then(|a| {
                    i64::try_from(cfp_core::interp::interpreter_address(a, self.base)).ok()
                })
                .map(Value::Int),
        }
    }
}

/// A havoc the search answered.
#[derive(Clone, Debug)]
struct Answered {
    method: MethodId,
    edge: usize,
    /// The index of its edge in the path.
    step: usize,
    /// The havoc's rank among the havocs of that edge.
    rank: usize,
    value: Value,
    sort: Sort,
}

/// Follows the path's edges; initial globals from the report; every other value by
/// chronological backtracking over a few candidates (recording the havocs' answers).
struct Search<'a> {
    cfas: &'a Cfas<'a>,
    edges: &'a [(MethodId, usize)],
    model: &'a ModelValues,
    /// Where the program's lines are.
    at: &'a Where<'a>,
    /// How many times each havoc (variable, line) ran so far.
    havocs_seen: BTreeMap<(String, u32), usize>,
    reported: &'a [i64],
    /// The initial globals the path fixes (the others are searched).
    globals: &'a [Option<i64>],
    /// `%escaped`, when the program hands closures to library code.
    escaped: Option<FieldId>,
    next_edge: usize,
    havocs_in_edge: usize,
    diverged: bool,
    choices: Vec<usize>,
    arity: Vec<usize>,
    asked: usize,
    answered: Vec<Answered>,
    /// Objects whose `%escaped` the run took as true from the start (no write made it so).
    escaped_at_start: Vec<i64>,
    /// Why the search had no answer for the interpreter, when it had none.
    refused: Option<String>,
    /// The path's edge where the run left it.
    diverged_at: usize,
}

/// Whether `e` reads the variable `v`.
fn mentions(e: &Expr, v: cfp_core::VarId) -> bool {
    match e {
        Expr::Var(x) => *x == v,
        Expr::Field { obj, .. } => mentions(obj, v),
        Expr::Unary { arg, .. } => mentions(arg, v),
        Expr::Binary { lhs, rhs, .. } => mentions(lhs, v) || mentions(rhs, v),
        Expr::Ite {
            cond,
            then_expr,
            else_expr,
        } => mentions(cond, v) || mentions(then_expr, v) || mentions(else_expr, v),
        _ => false,
    }
}

/// Whether a statement is a havoc the search counts (the rank of [`Answered`]).
fn is_counted_havoc(s: &Stmt) -> bool {
    // (An opaque value is drawn like a havoc: it takes a rank among the edge's draws.)
    matches!(
        s,
        Stmt::Havoc(Place::Var(_) | Place::Global(_) | Place::Field { .. }) | Stmt::Opaque { .. }
    )
}

/// Whether the draw `a` is an opaque value (one the analysis does not track, e.g. the
/// coercion of an input of unknown type): never an input of its own.
fn is_opaque_draw(program: &Program, a: &Answered) -> bool {
    let Some(Edge::Block(stmts)) = program
        .method(a.method)
        .and_then(|cfa| edge_weight(cfa, a.edge))
    else {
        return false;
    };
    stmts
        .iter()
        .filter(|s| is_counted_havoc(&s.node))
        .nth(a.rank)
        .is_some_and(|s| matches!(s.node, Stmt::Opaque { .. }))
}

impl Search<'_> {
    /// The havoc statement of rank `rank` of the path's edge `at` and those after it.
    fn havoc_and_rest(&self, at: usize, rank: usize) -> Option<&[cfp_core::Located<Stmt>]> {
        let &(m, e) = self.edges.get(at)?;
        let Some((_, _, Edge::Block(stmts))) = self.cfas.edge(m, e) else {
            return None;
        };
        let i = stmts
            .iter()
            .enumerate()
            .filter(|(_, s)| is_counted_havoc(&s.node))
            .nth(rank)?
            .0;
        stmts.get(i..)
    }

    /// cfp's model's value for the current havoc: of its variable, on its line, in the
    /// same run of it.
    fn hint(&self, q: &ValueQuery) -> Option<Value> {
        let ValueSource::Havoc { method, place } = &q.source else {
            return None;
        };
        let &(m, _) = self.edges.get(self.next_edge)?;
        if m != *method {
            return None;
        }
        let (name, line) = self.havoc_key(m, place)?;
        let nth = self
            .havocs_seen
            .get(&(name.clone(), line))
            .copied()
            .unwrap_or(0);
        self.model.get(&name, line, nth, q.sort)
    }

    /// The variable (or global) the current havoc writes and its line.
    fn havoc_key(&self, m: MethodId, place: &Place) -> Option<(String, u32)> {
        let program = self.cfas.program;
        let name = match place {
            Place::Var(v) => program.method(m)?.var(*v)?.name.clone(),
            Place::Global(g) => program.globals.get(g.index())?.name.clone(),
            Place::Field { .. } => return None,
        };
        let span = self
            .havoc_and_rest(self.next_edge, self.havocs_in_edge)?
            .first()?
            .span;
        Some((name, self.at.line(span)))
    }

    /// Whether the current havoc picks a reference that the next statement constrains
    /// (`o := *; assume o.%escaped`): one of the objects there are, most likely.
    fn picks_an_object(&self, q: &ValueQuery) -> bool {
        let ValueSource::Havoc {
            place: Place::Var(v),
            ..
        } = &q.source
        else {
            return false;
        };
        q.sort == Sort::Ref
            && self
                .havoc_and_rest(self.next_edge, self.havocs_in_edge)
                .and_then(|rest| rest.get(1))
                .is_some_and(|s| matches!(&s.node, Stmt::Assume(e) if mentions(e, *v)))
    }
}

/// The values tried for `q`, in order: cfp's model's (`hint`), then small ones; a
/// reference the path picks among the objects (`pick`) is tried first as the objects
/// allocated so far, the most recent first.
fn candidates(q: &ValueQuery, reported: &[i64], hint: Option<Value>, pick: bool) -> Vec<Value> {
    let allocated = q.allocated.max(0);
    let rest: Vec<Value> = match q.sort {
        Sort::Bool => vec![Value::Bool(false), Value::Bool(true)],
        Sort::Int => [0, 1, -1, 2, 3, 10]
            .into_iter()
            .chain(reported.iter().copied())
            .map(Value::Int)
            .collect(),
        Sort::Ref if pick => (1..=allocated)
            .rev()
            .chain(allocated + 1..=allocated + 3)
            .chain([0])
            .chain(reported.iter().copied())
            .map(Value::Int)
            .collect(),
        // An object, else null early: a reference is often decisive by being null.
        Sort::Ref => [1, 0]
            .into_iter()
            .chain(2..=allocated + 3)
            .chain(reported.iter().copied())
            .map(Value::Int)
            .collect(),
    };
    let mut out: Vec<Value> = hint.into_iter().collect();
    for v in rest {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// Every integer in the report's `values` (scalars and array cells).
fn reported_ints(cex: &serde_json::Value) -> Vec<i64> {
    let mut out = Vec::new();
    if let Some(values) = cex["values"].as_object() {
        for v in values.values() {
            let text = v.as_str().unwrap_or_default();
            for tok in text.split(|c: char| !(c.is_ascii_digit() || c == '-')) {
                if let Ok(n) = tok.parse::<i64>() {
                    if !out.contains(&n) {
                        out.push(n);
                    }
                }
            }
        }
    }
    out
}

impl Oracle for Search<'_> {
    fn value(&mut self, q: &ValueQuery) -> Option<Value> {
        if let ValueSource::GlobalInit(g) = q.source {
            if let Some(Some(v)) = self.globals.get(g.index()) {
                return Some(match q.sort {
                    Sort::Bool => Value::Bool(*v != 0),
                    _ => Value::Int(*v),
                });
            }
        }
        let pick = self.picks_an_object(q);
        // An object there before the run is none a library call received.
        let hint = self
            .hint(q)
            .filter(|h| !pick || h.as_int().is_some_and(|a| a > 0));
        let cands = candidates(q, self.reported, hint, pick);
        let i = self.asked;
        self.asked += 1;
        if self.choices.len() <= i {
            self.choices.push(0);
        }
        self.arity.truncate(i);
        self.arity.push(cands.len());
        // A run that left the path stops here.
        let v = if self.diverged {
            None
        } else {
            cands.get(self.choices[i]).copied()
        };
        if v.is_none() && !self.diverged {
            self.refused = Some(format!("no value left for {:?}", q.source));
        }
        match (&q.source, v) {
            (ValueSource::FieldInit { field, obj }, Some(Value::Bool(true)))
                if Some(*field) == self.escaped =>
            {
                self.escaped_at_start.push(*obj);
            }
            (ValueSource::Havoc { method, place }, Some(v)) => {
                if let Some(key) = self.havoc_key(*method, place) {
                    *self.havocs_seen.entry(key).or_insert(0) += 1;
                }
                // Past the path's end (on the way to the exit) the edge is known once run.
                let (m, e) = self
                    .edges
                    .get(self.next_edge)
                    .copied()
                    .unwrap_or((*method, usize::MAX));
                if m == *method {
                    self.answered.push(Answered {
                        method: m,
                        edge: e,
                        step: self.next_edge,
                        rank: self.havocs_in_edge,
                        value: v,
                        sort: q.sort,
                    });
                }
                self.havocs_in_edge += 1;
            }
            _ => {}
        }
        v
    }

    fn edge(&mut self, q: &EdgeQuery) -> Option<usize> {
        if self.diverged {
            return None;
        }
        match self.edges.get(self.next_edge) {
            Some(&(m, e)) if m == q.method && q.enabled.contains(&e) => Some(e),
            Some(&(m, e)) => {
                self.refused = Some(format!(
                    "the path's edge {e} of method {} is not enabled (edges {:?} of method {} are)",
                    m.0, q.enabled, q.method.0
                ));
                None
            }
            // Past the path's end (a path that stops at the last call back's return):
            // the shortest way to the exit.
            None => self.cfas.towards_exit(q.method, &q.enabled),
        }
    }

    fn observe(&mut self, step: &Step) {
        if self.next_edge >= self.edges.len() {
            for a in self.answered.iter_mut().rev() {
                if a.step != self.next_edge {
                    break;
                }
                a.edge = step.edge;
            }
        } else if self.edges.get(self.next_edge) != Some(&(step.method, step.edge)) {
            if !self.diverged {
                self.diverged_at = self.next_edge;
                self.refused = self.edges.get(self.next_edge).map(|&(m, e)| {
                    format!(
                        "the run takes edge {} of method {} (the only one it can), the path edge {e} of method {}",
                        step.edge, step.method.0, m.0
                    )
                });
            }
            self.diverged = true;
        }
        self.next_edge += 1;
        self.havocs_in_edge = 0;
    }
}

/// A path's edges, `(method, edge index)`, calls included.
pub type PathEdges = Vec<(MethodId, usize)>;

/// The path of a counterexample: its edges and initial globals.
pub fn path_of(cex: &serde_json::Value) -> Result<(PathEdges, Vec<Option<i64>>), ReplayError> {
    let edges = cex["replay"]["edges"]
        .as_array()
        .ok_or(ReplayError::NoPath)?
        .iter()
        .map(|e| {
            let m = e[0].as_u64().and_then(|m| u32::try_from(m).ok());
            let i = e[1].as_u64().and_then(|i| usize::try_from(i).ok());
            match (m, i) {
                (Some(m), Some(i)) => Ok((MethodId(m), i)),
                _ => Err(ReplayError::NoPath),
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    let globals = cex["replay"]["globals"]
        .as_array()
        .ok_or(ReplayError::NoPath)?
        .iter()
        .map(serde_json::Value::as_i64)
        .collect();
    Ok((edges, globals))
}

/// The havoc statement of rank `rank` of an edge.
fn havoc_span(program: &Program, a: &Answered) -> Option<(Span, bool)> {
    let cfa = program.method(a.method)?;
    let Edge::Block(stmts) = edge_weight(cfa, a.edge)? else {
        return None;
    };
    stmts
        .iter()
        .filter(|s| is_counted_havoc(&s.node))
        .nth(a.rank)
        .map(|s| (s.span, a.method == program.root))
}

/// Whether the root's havoc `a` picks what the root calls back after the entry returns
/// (`i := *; …; o := i.%escapes`, or `o := *; assume o < %base`): no input of the entry.
fn picks_a_call_back(program: &Program, a: &Answered) -> bool {
    let Some(cfa) = program.method(a.method) else {
        return false;
    };
    let Some(Edge::Block(stmts)) = edge_weight(cfa, a.edge) else {
        return false;
    };
    let registry = escaped_field(program);
    let base = cfa.vars.iter().position(|v| v.name == "%base");
    stmts.iter().any(|s| match &s.node {
        Stmt::Assign {
            expr: Expr::Field { field, .. },
            ..
        } => Some(*field) == registry,
        Stmt::Assume(Expr::Binary { rhs, .. }) => {
            matches!(rhs.as_ref(), Expr::Var(v) if Some(v.index()) == base)
        }
        _ => false,
    })
}

/// Classify a havoc by its source text and place.
fn classify(
    text: &str,
    program_len: usize,
    span: Span,
    in_root: bool,
) -> Option<(InputKind, String)> {
    if in_root {
        return Some((InputKind::Param, String::new()));
    }
    let src = text.get(lo(span)..hi(span))?.trim();
    if lo(span) >= program_len {
        return src
            .ends_with(')')
            .then(|| (InputKind::Model, src.to_string()));
    }
    if src.starts_with("Input.") && src.ends_with(')') {
        return Some((InputKind::Input, src.to_string()));
    }
    if src.ends_with(')') && src.contains('(') && !src.starts_with("new ") {
        return Some((InputKind::Ext, src.to_string()));
    }
    None
}

/// The line of the program `span` starts on (1-based), 0 in cfp's models (after the
/// program's text).
fn line_of(combined: &str, program_len: usize, span: Span) -> u32 {
    if lo(span) >= program_len {
        return 0;
    }
    u32::try_from(
        combined[..lo(span).min(combined.len())]
            .matches('\n')
            .count()
            + 1,
    )
    .unwrap_or(0)
}

/// The inputs for the JVM of cfp's counterexample `cex` (the `counterexample` object of
/// `cfp check --json`) of the program `text` (as given to cfp) checked against `spec`.
pub fn replay_inputs(
    text: &str,
    spec: &str,
    entry: Option<&str>,
    cex: &serde_json::Value,
) -> Result<Vec<ReplayInput>, ReplayError> {
    let (edges, globals) = path_of(cex)?;
    let word: Vec<String> = cex["word"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    let options = LowerOptions {
        entry: entry.map(String::from),
        ..LowerOptions::default()
    };
    let prepared =
        cfp_core::prepare(text, spec, &options).map_err(|d| ReplayError::Prepare(d.to_string()))?;
    let program = prepared.program();
    let combined = prepared.sources().text();
    let reported = reported_ints(cex);
    let model = ModelValues::new(cex);
    let cfas = Cfas::new(program);
    let at = Where {
        combined,
        program_len: text.len(),
    };
    // The wildcards the path leaves free must be the object the word is about, which may
    // be allocated long after the start (and the model numbers objects its own way): each
    // is tried as the model's value, then as every object the path allocates.
    let allocs = allocations_on(program, &edges) as i64 + 1;
    let mut free: Vec<(usize, Vec<i64>)> = Vec::new();
    for (i, g) in program.globals.iter().enumerate() {
        if !matches!(g.kind, GlobalKind::Wildcard(_)) || globals.get(i).copied().flatten().is_some()
        {
            continue;
        }
        let mut values: Vec<i64> = cex["values"][g.name.as_str()]
            .as_str()
            .and_then(|v| v.trim().parse::<i128>().ok())
            .and_then(|a| i64::try_from(cfp_core::interp::interpreter_address(a, model.base)).ok())
            .into_iter()
            .collect();
        for a in 1..=allocs {
            if !values.contains(&a) {
                values.push(a);
            }
        }
        free.push((i, values));
    }
    let mut combos: Vec<Vec<Option<i64>>> = vec![globals.clone()];
    for (i, values) in &free {
        let mut next = Vec::new();
        for c in &combos {
            for v in values {
                if next.len() >= MAX_WILDCARD_COMBOS {
                    break;
                }
                let mut c = c.clone();
                if c.len() <= *i {
                    c.resize(i + 1, None);
                }
                c[*i] = Some(*v);
                next.push(c);
            }
        }
        combos = next;
    }
    let budget = (MAX_RUNS / combos.len().max(1)).max(MIN_RUNS);
    // The furthest any combination got along the path, and why it stopped.
    let mut best: (usize, String) = (0, String::from("no run"));
    let path = Path {
        cfas: &cfas,
        edges: &edges,
        model: &model,
        reported: &reported,
    };
    for g in &combos {
        match search(&path, g, budget, &at)? {
            Found::Run(found) => {
                if found.run.word != word {
                    return Err(ReplayError::OtherWord {
                        got: found.run.word.join(" "),
                        reported: word.join(" "),
                    });
                }
                let mut placed = inputs_of(program, &at, &found.answered);
                placed.extend(library_decisions(&cfas, &at, &found)?);
                // In the path's order; within one edge, its havocs first.
                placed.sort_by_key(|(step, _)| *step);
                return Ok(placed.into_iter().map(|(_, i)| i).collect());
            }
            Found::Nothing(at, why) => {
                if at >= best.0 {
                    best = (at, why);
                }
            }
        }
    }
    // A path no run follows may call back, after the entry returns, an object no
    // library call received: cfp's model says so.
    match phantom_call_back(cex) {
        Some((message, made)) => Err(ReplayError::NotReceived { message, made }),
        None => Err(ReplayError::NoRun(best.1)),
    }
}

/// The object cfp's model calls back after the entry returns when it is not one a
/// library call received: in an open world, the root may pick an object there before the
/// run (`havoc o; assume o < %base`) — a pick from the escape registry (`o :=
/// i.%escapes`) is always one a call received. The call back and the objects library
/// calls received, in the model's numbering, and whether the object is one the run made
/// (never, for such a pick). `None` when every object called back was received.
fn phantom_call_back(cex: &serde_json::Value) -> Option<(String, bool)> {
    let trace = cex["trace"].as_array()?;
    let values = cex["values"].as_object()?;
    // The value of `var` the last step up to `step` that wrote it wrote.
    let last_write = |step: usize, var: &str| {
        (0..=step).rev().find_map(|j| {
            values
                .get(&format!("step {j:>3}: {var}"))
                .and_then(serde_json::Value::as_str)
                .and_then(|v| v.trim().parse::<i128>().ok())
        })
    };
    let parts = |t: &serde_json::Value| -> Vec<String> {
        t["text"]
            .as_str()
            .unwrap_or("")
            .split(';')
            .map(|p| p.trim().to_string())
            .collect()
    };
    let mut received: Vec<i128> = Vec::new();
    for (i, t) in trace.iter().enumerate() {
        for part in parts(t) {
            if let Some(var) = part.strip_suffix(".%escaped := %escapes") {
                if let Some(v) = last_write(i, var) {
                    received.push(v);
                }
            }
        }
    }
    for (i, t) in trace.iter().enumerate() {
        if t["depth"].as_u64() != Some(0) {
            continue;
        }
        for part in parts(t) {
            let Some(var) = part
                .strip_prefix("assume ")
                .and_then(|p| p.strip_suffix(" < %base"))
            else {
                continue;
            };
            let object = last_write(i, var);
            if object.is_some_and(|o| received.contains(&o)) {
                continue;
            }
            let call = trace[i..]
                .iter()
                .filter_map(|t| t["text"].as_str())
                .find(|t| t.starts_with("call "))
                .unwrap_or("a call back");
            received.sort_unstable();
            received.dedup();
            let object = object.map_or_else(|| "?".to_owned(), |o| o.to_string());
            return Some((
                format!(
                    "after the entry returns, cfp's path makes `{call}` on object {object} of its model, an object there before the run, which no library call received in it (library calls received {received:?})"
                ),
                false,
            ));
        }
    }
    None
}

/// Where the program's text is in the text cfp prepared (cfp's models come after it).
struct Where<'a> {
    combined: &'a str,
    program_len: usize,
}

impl Where<'_> {
    /// The line of `span` (0 in a model).
    fn line(&self, span: Span) -> u32 {
        line_of(self.combined, self.program_len, span)
    }

    /// The source text of `span`, trimmed.
    fn text(&self, span: Span) -> String {
        self.combined
            .get(lo(span)..hi(span))
            .unwrap_or("")
            .trim()
            .to_string()
    }

    /// Whether `span` is in the program (not in a model).
    fn in_program(&self, span: Span) -> bool {
        lo(span) < self.program_len
    }
}

/// The path and what helps to follow it.
struct Path<'a> {
    cfas: &'a Cfas<'a>,
    edges: &'a [(MethodId, usize)],
    model: &'a ModelValues,
    reported: &'a [i64],
}

/// A run that follows the whole path and completes.
struct FoundRun {
    run: interp::Run,
    answered: Vec<Answered>,
    escaped_at_start: Vec<i64>,
    escaped: Option<FieldId>,
}

/// What a search found.
enum Found {
    /// A run that follows the whole path and completes.
    Run(Box<FoundRun>),
    /// Nothing: how far the furthest run got along the path, and why it stopped.
    Nothing(usize, String),
}

/// How many allocations the path's edges make.
fn allocations_on(program: &Program, edges: &[(MethodId, usize)]) -> usize {
    edges
        .iter()
        .filter_map(|&(m, e)| program.method(m).and_then(|cfa| edge_weight(cfa, e)))
        .map(|e| match e {
            Edge::Block(stmts) => stmts
                .iter()
                .filter(|s| matches!(s.node, Stmt::Alloc { .. }))
                .count(),
            _ => 0,
        })
        .sum()
}

/// The program's escape registry: the field `%escapes` whose cell `k` holds the `k`-th
/// object library code received (`k` from 1).
fn escaped_field(program: &Program) -> Option<FieldId> {
    program
        .fields
        .iter()
        .position(|f| f.name == "%escapes")
        .and_then(|i| u32::try_from(i).ok())
        .map(FieldId)
}

/// Where the path's edge `at` is, for messages: `Method (line N)`.
fn edge_place(path: &Path<'_>, at: usize, w: &Where<'_>) -> String {
    let Some(&(m, e)) = path.edges.get(at) else {
        return "the end".into();
    };
    let name = path
        .cfas
        .program
        .method(m)
        .map_or_else(|| format!("method {}", m.0), |c| c.name.clone());
    match path.cfas.edge(m, e).map(|(_, _, edge)| edge.span()) {
        Some(s) if s != Span::default() && w.in_program(s) => {
            format!("{name} (line {})", w.line(s))
        }
        _ => name,
    }
}

/// The bounded search for values that make the interpreter follow `path` to the end.
fn search(
    path: &Path<'_>,
    globals: &[Option<i64>],
    budget: usize,
    w: &Where<'_>,
) -> Result<Found, ReplayError> {
    let program = path.cfas.program;
    let escaped = escaped_field(program);
    // The run that got furthest along the path, and why it stopped.
    let mut best: Option<(usize, String)> = None;
    let mut note = |at: usize, why: String| {
        if best.as_ref().is_none_or(|(b, _)| at >= *b) {
            best = Some((
                at,
                format!(
                    "{why}, at edge {at} of {} in {}",
                    path.edges.len(),
                    edge_place(path, at, w)
                ),
            ));
        }
    };
    let mut runs = 0;
    for limit in 0..=MAX_DISCREPANCY {
        let mut choices: Vec<usize> = Vec::new();
        loop {
            runs += 1;
            if runs > budget {
                let (at, why) = best.unwrap_or((0, "no run".into()));
                return Ok(Found::Nothing(at, format!("search gave up ({why})")));
            }
            let mut s = Search {
                cfas: path.cfas,
                edges: path.edges,
                model: path.model,
                at: w,
                havocs_seen: BTreeMap::new(),
                reported: path.reported,
                globals,
                escaped,
                next_edge: 0,
                havocs_in_edge: 0,
                diverged: false,
                choices: choices.clone(),
                arity: Vec::new(),
                asked: 0,
                answered: Vec::new(),
                escaped_at_start: Vec::new(),
                refused: None,
                diverged_at: 0,
            };
            let limits = Limits {
                max_steps: path.edges.len() + 200,
                ..Limits::default()
            };
            let outcome = interp::run(program, &mut s, limits);
            let reached = if s.diverged {
                s.diverged_at
            } else {
                s.next_edge
            };
            match outcome {
                Ok(run) if run.completed && !s.diverged && s.next_edge >= path.edges.len() => {
                    return Ok(Found::Run(Box::new(FoundRun {
                        run,
                        answered: s.answered,
                        escaped_at_start: s.escaped_at_start,
                        escaped,
                    })));
                }
                Ok(run) => note(
                    reached,
                    s.refused.clone().unwrap_or_else(|| {
                        format!(
                            "the run ended (completed {}, left the path {})",
                            run.completed, s.diverged
                        )
                    }),
                ),
                Err(e @ InterpError::BadId(_)) => return Err(ReplayError::Interp(e.to_string())),
                Err(e) => {
                    let why = match (&e, &s.refused) {
                        (InterpError::OracleExhausted(_), Some(r)) => r.clone(),
                        _ => e.to_string(),
                    };
                    note(reached, why);
                }
            }
            let mut next = s.choices;
            next.truncate(s.arity.len());
            let advanced = loop {
                match next.pop() {
                    None => break false,
                    Some(c)
                        if c + 1 < s.arity[next.len()]
                            && next.iter().sum::<usize>() + c < limit =>
                    {
                        next.push(c + 1);
                        break true;
                    }
                    Some(_) => {}
                }
            };
            if !advanced {
                break;
            }
            choices = next;
        }
    }
    let (at, why) = best.unwrap_or((0, "no run".into()));
    Ok(Found::Nothing(at, why))
}

/// The program's havocs that stand for library calls, with their path step.
fn inputs_of(program: &Program, w: &Where<'_>, answered: &[Answered]) -> Vec<(usize, ReplayInput)> {
    let mut out = Vec::new();
    let mut skip: Vec<usize> = Vec::new();
    for (i, a) in answered.iter().enumerate() {
        if skip.contains(&i) || is_opaque_draw(program, a) {
            continue;
        }
        let Some((span, in_root)) = havoc_span(program, a) else {
            continue;
        };
        if in_root && picks_a_call_back(program, a) {
            continue;
        }
        let Some((mut kind, src)) = classify(w.combined, w.program_len, span, in_root) else {
            continue;
        };
        let value = match (a.sort, a.value) {
            (Sort::Bool, Value::Bool(b)) => ReplayValue::Bool(b),
            // A boolean input cfp keeps as an int (its result's type unknown there): the
            // boolean that flows on is the next boolean havoc around it (the coercion:
            // in the same edge, or just after the library call's throw branch), else the
            // int's truth.
            (Sort::Int, Value::Int(v)) if kind == InputKind::Input && is_boolean_input(&src) => {
                let coerced = answered.iter().enumerate().skip(i + 1).find(|(_, b)| {
                    b.method == a.method
                        && b.sort == Sort::Bool
                        && b.step <= a.step + 2
                        && havoc_span(program, b)
                            .is_some_and(|(s, _)| s.start <= span.start && span.end <= s.end)
                });
                match coerced {
                    Some((j, b)) => {
                        skip.push(j);
                        ReplayValue::Bool(b.value == Value::Bool(true))
                    }
                    None => ReplayValue::Bool(v != 0),
                }
            }
            (Sort::Int, Value::Int(i)) => ReplayValue::Int(i),
            // A reference names an object of cfp's heap: only whether it is null carries
            // over to the JVM.
            (Sort::Ref, Value::Int(addr)) if kind == InputKind::Ext => {
                kind = InputKind::Ref;
                ReplayValue::Bool(addr != 0)
            }
            _ => continue,
        };
        let line = if kind == InputKind::Model {
            0
        } else {
            w.line(span)
        };
        out.push((
            a.step,
            ReplayInput {
                kind,
                line,
                value,
                text: src,
            },
        ));
    }
    out
}

/// A library call's throw edge (cfp's `%exc := new T (external)` right after the call):
/// the class thrown and the call's span.
fn library_throw(program: &Program, edge: &Edge) -> Option<(String, Span)> {
    let Edge::Block(stmts) = edge else {
        return None;
    };
    let first = stmts.first()?;
    let Stmt::Alloc {
        var,
        kind: AllocKind::External(class),
    } = &first.node
    else {
        return None;
    };
    let throws = stmts.iter().any(|s| {
        s.span == first.span
            && matches!(&s.node, Stmt::Assign { place: Place::Global(g), expr: Expr::Var(v) }
                if v == var
                    && program
                        .globals
                        .get(g.index())
                        .is_some_and(|d| d.kind == GlobalKind::Exception))
    });
    throws.then(|| (class.clone(), first.span))
}

/// The span of the library call whose call back the call edge `e` of `m` is: cfp's loop
/// `while (*) { recv.method(…) }` at that call, a call edge back to a head from which
/// blocks of the same call (and nothing else) lead to it again.
fn callback_span(cfas: &Cfas<'_>, m: MethodId, e: usize) -> Option<Span> {
    let (from, to, Edge::Call { span, .. }) = cfas.edge(m, e)? else {
        return None;
    };
    let edges = cfas.edges.get(m.index())?;
    let mut frontier = vec![to];
    for _ in 0..4 {
        if frontier.contains(&from) {
            return Some(*span);
        }
        let mut next = Vec::new();
        for &n in &frontier {
            for &(a, b, edge) in edges {
                let ours =
                    matches!(edge, Edge::Block(stmts) if stmts.iter().all(|s| s.span == *span));
                if a == n && ours && !next.contains(&b) {
                    next.push(b);
                }
            }
        }
        frontier = next;
    }
    frontier.contains(&from).then_some(*span)
}

/// Which objects library calls received, in the order they were registered (each once,
/// by the first call that received it): `(address, the call's span)`, from the writes of
/// the escape registry `registry` in the run.
fn escape_order(cfas: &Cfas<'_>, found: &FoundRun, registry: FieldId) -> Vec<(i64, Span)> {
    let mut out: Vec<(i64, Span)> = Vec::new();
    for (k, st) in found.run.steps.iter().enumerate() {
        let Some((_, _, Edge::Block(stmts))) = cfas.edge(st.method, st.edge) else {
            continue;
        };
        let site = stmts.iter().find(|s| {
            matches!(&s.node, Stmt::Assign { place: Place::Field { field, .. }, .. } if *field == registry)
        });
        let Some(site) = site.map(|s| s.span) else {
            continue;
        };
        // The heap right after this step.
        let mut again = ReplayOracle::new(found.run.decisions.clone());
        let limits = Limits {
            max_steps: k + 1,
            ..Limits::default()
        };
        let heap = match interp::run(cfas.program, &mut again, limits) {
            Ok(r) => r.heap,
            Err(e) => match e.partial() {
                Some(p) => p.heap.clone(),
                None => continue,
            },
        };
        let Some(cells) = heap.fields.get(registry.index()) else {
            continue;
        };
        // Cell `k` (from 1) holds the `k`-th registered object.
        let mut entries: Vec<(i64, i64)> = cells
            .iter()
            .filter_map(|(&index, v)| v.as_int().map(|obj| (index, obj)))
            .filter(|&(index, obj)| index >= 1 && obj > 0)
            .collect();
        entries.sort_unstable();
        for (index, obj) in entries {
            if usize::try_from(index).is_ok_and(|i| i == out.len() + 1)
                && !out.iter().any(|(a, _)| *a == obj)
            {
                out.push((obj, site));
            }
        }
    }
    out
}

/// What library code does on the path, with the path step where it does it: the calls
/// that throw (`Throw`), how often a call calls back what it received (`Calls`, for
/// those that do), and the objects called back after the entry returns (`Later`).
fn library_decisions(
    cfas: &Cfas<'_>,
    w: &Where<'_>,
    found: &FoundRun,
) -> Result<Vec<(usize, ReplayInput)>, ReplayError> {
    let program = cfas.program;
    let root = program.root;
    let steps = &found.run.steps;
    let mut out = Vec::new();
    // The callbacks of one library call: depth, method, call span, count, first step.
    struct Group {
        depth: usize,
        method: MethodId,
        span: Span,
        count: i64,
        first: usize,
    }
    let close = |g: Group, out: &mut Vec<(usize, ReplayInput)>| {
        if w.in_program(g.span) {
            out.push((
                g.first,
                ReplayInput {
                    kind: InputKind::Calls,
                    line: w.line(g.span),
                    value: ReplayValue::Int(g.count),
                    text: w.text(g.span),
                },
            ));
        }
    };
    let mut open: Vec<Group> = Vec::new();
    let mut order: Option<Vec<(i64, Span)>> = None;
    for (k, st) in steps.iter().enumerate() {
        let Some((_, _, edge)) = cfas.edge(st.method, st.edge) else {
            continue;
        };
        if let Some((class, span)) = library_throw(program, edge) {
            if w.in_program(span) {
                out.push((
                    k,
                    ReplayInput {
                        kind: InputKind::Throw,
                        line: w.line(span),
                        value: ReplayValue::Class(class),
                        text: w.text(span),
                    },
                ));
            }
        }
        // Calls back during a library call, grouped by call.
        while open.last().is_some_and(|g| g.depth > st.depth) {
            if let Some(g) = open.pop() {
                close(g, &mut out);
            }
        }
        let back = callback_span(cfas, st.method, st.edge);
        if st.method != root {
            if let Some(g) = open.last_mut().filter(|g| g.depth == st.depth) {
                if g.method == st.method && back == Some(g.span) {
                    g.count += 1;
                    continue;
                }
                let inside = st.span == g.span || st.span == Span::default();
                if g.method == st.method && inside {
                    continue;
                }
                if let Some(g) = open.pop() {
                    close(g, &mut out);
                }
            }
            if let Some(span) = back {
                open.push(Group {
                    depth: st.depth,
                    method: st.method,
                    span,
                    count: 1,
                    first: k,
                });
            }
            continue;
        }
        // After the entry returns: the root's loop calls back an object library code
        // received, the one its last reference havoc picked.
        let (Some(_), Edge::Call { callee, .. }) = (back, edge) else {
            continue;
        };
        // The root's last pick: an index into the registry (`i := *; o := i.%escapes`),
        // or, in an open world, an object there before the run (`o := *; assume o <
        // %base`).
        let Some(picked) =
            found.answered.iter().rev().find(|a| {
                a.method == root && a.step <= k && matches!(a.sort, Sort::Ref | Sort::Int)
            })
        else {
            continue;
        };
        let Some(escaped) = found.escaped else {
            continue;
        };
        let order = order.get_or_insert_with(|| escape_order(cfas, found, escaped));
        let addr = match (picked.sort, picked.value.as_int()) {
            (Sort::Int, Some(i)) => usize::try_from(i)
                .ok()
                .and_then(|i| i.checked_sub(1))
                .and_then(|i| order.get(i))
                .map_or(0, |(a, _)| *a),
            (_, Some(a)) => a,
            _ => continue,
        };
        let called = program
            .method(*callee)
            .map_or_else(String::new, |c| c.name.clone());
        let Some(&(_, site)) = order.iter().find(|(a, _)| *a == addr) else {
            let why = if found.escaped_at_start.contains(&addr) {
                "its `%escaped` is true from the start, no library call set it"
            } else {
                "no library call received it"
            };
            let made = addr > 0 && addr <= found.run.heap.allocated;
            let what = if made {
                "which the program made but never handed to library code"
            } else {
                "an object there before the run, which no library call received in it"
            };
            return Err(ReplayError::NotReceived {
                message: format!(
                    "after the entry returns, cfp's path calls back `{called}` on object {addr}, {what} ({why})"
                ),
                made,
            });
        };
        let index = order
            .iter()
            .filter(|(_, s)| *s == site)
            .position(|(a, _)| *a == addr)
            .unwrap_or(0);
        out.push((
            k,
            ReplayInput {
                kind: InputKind::Later,
                line: w.line(site),
                value: ReplayValue::Int(i64::try_from(index).unwrap_or(0)),
                text: w.text(site),
            },
        ));
    }
    while let Some(g) = open.pop() {
        close(g, &mut out);
    }
    Ok(out)
}

/// Whether the call `src` is one of the stubs' boolean inputs.
fn is_boolean_input(src: &str) -> bool {
    ["readBool()", "readBoolean()", "anyBool()"]
        .iter()
        .any(|m| src.ends_with(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `cfp check --json` counterexample of `run`: its path and word, no values.
    fn cex_of(run: &interp::Run) -> serde_json::Value {
        let edges: Vec<serde_json::Value> = run
            .steps
            .iter()
            .map(|s| serde_json::json!([s.method.0, s.edge]))
            .collect();
        serde_json::json!({
            "word": run.word,
            "replay": {"edges": edges, "globals": [null]},
            "values": {}
        })
    }

    /// Answers every value query by its sort; edges are never asked (all determined).
    struct BySort;

    impl Oracle for BySort {
        fn value(&mut self, q: &ValueQuery) -> Option<Value> {
            Some(match (q.sort, &q.source) {
                (Sort::Bool, _) => Value::Bool(true),
                (Sort::Int, _) => Value::Int(3),
                // The wildcard is the first object (the lock); other references null.
                (Sort::Ref, ValueSource::GlobalInit(_)) => Value::Int(1),
                (Sort::Ref, _) => Value::Int(0),
            })
        }

        fn edge(&mut self, _: &EdgeQuery) -> Option<usize> {
            None
        }
    }

    #[test]
    fn the_inputs_of_a_path_are_its_input_calls_in_order() {
        let program = "class Main {\n    public static void main(String[] a) {\n        ReentrantLock l = new ReentrantLock();\n        int n = Input.readInt();\n        boolean b = Input.readBool();\n        if (n > 2 && b && Sensor.ready()) {\n            l.lock();\n        }\n    }\n}\n";
        let spec = "wildcard $1 : ReentrantLock;\nS -> $1.lock() S $1.unlock() S | ε;\n";
        let prepared =
            cfp_core::prepare(program, spec, &LowerOptions::default()).expect("prepares");
        let run = interp::run(prepared.program(), &mut BySort, Limits::default()).expect("runs");
        assert_eq!(run.word, ["$1.lock()"]);
        let cex = cex_of(&run);
        let inputs = replay_inputs(program, spec, None, &cex).expect("replays");
        let shown: Vec<(InputKind, u32, ReplayValue, &str)> = inputs
            .iter()
            .map(|i| (i.kind, i.line, i.value.clone(), i.text.as_str()))
            .collect();
        assert_eq!(
            shown,
            [
                (InputKind::Input, 4, ReplayValue::Int(3), "Input.readInt()"),
                (
                    InputKind::Input,
                    5,
                    ReplayValue::Bool(true),
                    "Input.readBool()"
                ),
                (InputKind::Ext, 6, ReplayValue::Bool(true), "Sensor.ready()"),
            ]
        );
        let tokens: Vec<String> = inputs.iter().map(ReplayInput::job_token).collect();
        assert_eq!(tokens, ["input:4::i3", "input:5::b1", "ext:6:ready:b1"]);
    }

    /// Takes a library call's throw edge when it can, calls back each callback loop's
    /// closures `times` times, picks the most recent object for a reference and the
    /// first registered object after the entry.
    struct Library<'p> {
        cfas: Cfas<'p>,
        times: usize,
        visits: std::collections::BTreeMap<(MethodId, usize), usize>,
    }

    impl Oracle for Library<'_> {
        fn value(&mut self, q: &ValueQuery) -> Option<Value> {
            Some(match (q.sort, &q.source) {
                (Sort::Bool, _) => Value::Bool(true),
                // The first registered object, for a pick from the escape registry.
                (Sort::Int, _) => Value::Int(1),
                // The wildcard: the first object (the lock).
                (Sort::Ref, ValueSource::GlobalInit(_)) => Value::Int(1),
                (Sort::Ref, _) => Value::Int(q.allocated),
            })
        }

        fn edge(&mut self, q: &EdgeQuery) -> Option<usize> {
            let throws = q.enabled.iter().copied().find(|&e| {
                self.cfas
                    .edge(q.method, e)
                    .is_some_and(|(_, _, edge)| library_throw(self.cfas.program, edge).is_some())
            });
            if throws.is_some() {
                return throws;
            }
            // A callback loop's head: its body leads to a call back.
            let edges = &self.cfas.edges[q.method.index()];
            let leads_back = |e: usize| {
                let mut frontier = vec![e];
                for _ in 0..4 {
                    if frontier
                        .iter()
                        .any(|&i| callback_span(&self.cfas, q.method, i).is_some())
                    {
                        return true;
                    }
                    frontier = edges
                        .iter()
                        .enumerate()
                        .filter(|(_, (a, _, _))| frontier.iter().any(|&f| edges[f].1 == *a))
                        .filter(|(i, (_, _, edge))| {
                            matches!(edge, Edge::Block(_))
                                || callback_span(&self.cfas, q.method, *i).is_some()
                        })
                        .map(|(i, _)| i)
                        .collect();
                }
                false
            };
            let body = q.enabled.iter().copied().find(|&e| leads_back(e));
            // An object is registered in the escape registry when a library call first
            // receives it.
            let registry = escaped_field(self.cfas.program);
            let registers = q.enabled.iter().copied().find(|&e| {
                matches!(self.cfas.edge(q.method, e), Some((_, _, Edge::Block(stmts)))
                    if stmts.iter().any(|s| matches!(&s.node,
                        Stmt::Assign { place: Place::Field { field, .. }, .. }
                            if Some(*field) == registry)))
            });
            if registers.is_some() {
                return registers;
            }
            let seen = self.visits.entry((q.method, q.node)).or_insert(0);
            *seen += 1;
            match body {
                Some(b) if *seen <= self.times => Some(b),
                Some(b) => q.enabled.iter().copied().find(|&e| e != b),
                None => q.enabled.first().copied(),
            }
        }
    }

    /// The replay inputs of the path `oracle` makes through `program`.
    fn path_inputs(
        program: &str,
        spec: &str,
        times: usize,
    ) -> Result<Vec<ReplayInput>, ReplayError> {
        let prepared =
            cfp_core::prepare(program, spec, &LowerOptions::default()).expect("prepares");
        let mut oracle = Library {
            cfas: Cfas::new(prepared.program()),
            times,
            visits: std::collections::BTreeMap::new(),
        };
        let run = interp::run(prepared.program(), &mut oracle, Limits::default()).expect("runs");
        let cex = cex_of(&run);
        replay_inputs(program, spec, None, &cex)
    }

    const LOCK: &str = "wildcard $1 : ReentrantLock;\nS -> $1.lock() S $1.unlock() S | ε;\n";

    #[test]
    fn a_library_call_that_throws_on_the_path_is_an_input() {
        let program = "class Main {\n    public static void main(String[] a) {\n        ReentrantLock l = new ReentrantLock();\n        try {\n            l.lock();\n            Lib.io();\n            l.unlock();\n        } catch (java.io.IOException e) {\n        }\n    }\n}\n";
        let inputs = path_inputs(program, LOCK, 0).expect("replays");
        let tokens: Vec<String> = inputs.iter().map(ReplayInput::job_token).collect();
        assert_eq!(tokens, ["throw:6:io:cIOException"], "{inputs:?}");
    }

    #[test]
    fn call_backs_during_a_call_and_after_the_entry_are_inputs() {
        let program = "class Main {\n    public static void main(String[] a) {\n        ReentrantLock l = new ReentrantLock();\n        Lib.run(() -> l.lock());\n        Lib.later(() -> l.unlock());\n    }\n}\n";
        let inputs = path_inputs(program, LOCK, 2).expect("replays");
        let tokens: Vec<String> = inputs.iter().map(ReplayInput::job_token).collect();
        assert_eq!(
            tokens,
            // The first object registered is the first closure (`Lib.run` may keep it).
            [
                "calls:4:run:i2",
                "calls:5:later:i2",
                "later:4:run:i0",
                "later:4:run:i0"
            ],
            "{inputs:?}"
        );
    }

    #[test]
    fn only_objects_a_library_call_received_are_called_back_later() {
        let program = "class Main {\n    public static void main(String[] a) {\n        ReentrantLock l = new ReentrantLock();\n        Lib.later(() -> l.lock());\n        Runnable r = () -> l.unlock();\n    }\n}\n";
        let inputs = path_inputs(program, LOCK, 1).expect("replays");
        let tokens: Vec<String> = inputs.iter().map(ReplayInput::job_token).collect();
        assert_eq!(
            tokens,
            ["calls:4:later:i1", "later:4:later:i0"],
            "{inputs:?}"
        );
    }

    #[test]
    fn the_model_values_of_a_havoc_are_by_variable_line_and_run() {
        let cex = serde_json::json!({
            "values": {
                "%alloc": "100",
                "step   3: x": "7",
                "step   4: x": "3",
                "step   9: x": "8",
                "step   9: o": "102",
                "step  10: p": "100",
                "step  11: %t1#bool": "true"
            },
            "trace": [
                {"line": 1, "text": "skip"}, {"line": 1, "text": "skip"},
                {"line": 1, "text": "skip"},
                {"line": 5, "text": "havoc x"},
                {"line": 6, "text": "assume x > 3; x := 3"},
                {"line": 1, "text": "skip"}, {"line": 1, "text": "skip"},
                {"line": 1, "text": "skip"}, {"line": 1, "text": "skip"},
                {"line": 5, "text": "havoc x; havoc o"},
                {"line": 7, "text": "havoc p; assume p.%escaped"},
                {"line": 8, "text": "havoc %t1"}
            ]
        });
        let m = ModelValues::new(&cex);
        assert_eq!(m.get("x", 5, 0, Sort::Int), Some(Value::Int(7)));
        assert_eq!(m.get("x", 5, 1, Sort::Int), Some(Value::Int(8)));
        assert_eq!(m.get("x", 5, 2, Sort::Int), None);
        assert_eq!(m.get("x", 6, 0, Sort::Int), None);
        assert_eq!(m.get("o", 5, 0, Sort::Ref), Some(Value::Int(2)));
        assert_eq!(m.get("p", 7, 0, Sort::Ref), Some(Value::Int(-1)));
        assert_eq!(m.get("%t1", 8, 0, Sort::Bool), Some(Value::Bool(true)));
    }

    #[test]
    fn a_model_call_back_of_an_object_there_before_the_run_is_found() {
        let trace = serde_json::json!([
            {"line": 12, "text": "%t1 := new Main$1; %t1.%type := 3", "depth": 1},
            {"line": 12, "text": "assume !(%t1 == null); %escapes := %escapes + 1; %t1.%escaped := %escapes; %escapes.%escapes := %t1", "depth": 1},
            {"line": 11, "text": "return from Main.main", "depth": 0},
            {"line": 11, "text": "havoc %t2; assume %t2 < %base", "depth": 0},
            {"line": 11, "text": "call Main$2.run(%t2)", "depth": 0}
        ]);
        let cex = |picked: &str| {
            serde_json::json!({
                "trace": trace,
                "values": {"step   0: %t1": "5856", "step   3: %t2": picked}
            })
        };
        let (why, made) = phantom_call_back(&cex("17")).expect("a phantom");
        assert!(!made);
        assert!(why.contains("`call Main$2.run(%t2)` on object 17"), "{why}");
        assert!(why.contains("[5856]"), "{why}");
        assert_eq!(phantom_call_back(&cex("5856")), None);
        // A pick from the registry is an object a call received.
        let registry = serde_json::json!({
            "trace": [
                {"line": 11, "text": "havoc %t3; assume 1 <= %t3 && %t3 <= %escapes; %t2 := %t3.%escapes", "depth": 0},
                {"line": 11, "text": "call Main$2.run(%t2)", "depth": 0}
            ],
            "values": {"step   0: %t2": "17"}
        });
        assert_eq!(phantom_call_back(&registry), None);
    }

    #[test]
    fn a_picked_object_is_tried_as_the_recent_objects_first() {
        let q = ValueQuery {
            source: ValueSource::GlobalInit(cfp_core::GlobalId(0)),
            sort: Sort::Ref,
            allocated: 3,
            non_null: false,
            zeroed: false,
        };
        let values =
            |c: Vec<Value>| -> Vec<i64> { c.into_iter().filter_map(Value::as_int).collect() };
        assert_eq!(
            values(candidates(&q, &[], None, true)),
            [3, 2, 1, 4, 5, 6, 0]
        );
        assert_eq!(
            values(candidates(&q, &[], None, false)),
            [1, 0, 2, 3, 4, 5, 6]
        );
        assert_eq!(
            values(candidates(&q, &[9], Some(Value::Int(2)), true)),
            [2, 3, 1, 4, 5, 6, 0, 9]
        );
    }

    #[test]
    fn a_path_that_is_not_the_programs_is_reported() {
        let program = "class Main {\n    public static void main(String[] a) {\n    }\n}\n";
        let spec = "wildcard $1 : ReentrantLock;\nS -> $1.lock() S $1.unlock() S | ε;\n";
        let cex = serde_json::json!({
            "word": ["$1.lock()"],
            "replay": {"edges": [[0, 0], [7, 3]], "globals": [null]},
            "values": {}
        });
        assert!(replay_inputs(program, spec, None, &cex).is_err());
        let no_path = serde_json::json!({"word": []});
        assert_eq!(
            replay_inputs(program, spec, None, &no_path),
            Err(ReplayError::NoPath)
        );
    }

    #[test]
    fn the_callee_of_a_call_text() {
        assert_eq!(callee_name("ReminderStore.get(context).find(id)"), "find");
        assert_eq!(callee_name("getWidth()"), "getWidth");
        assert_eq!(callee_name("a.f(g(x), (y))"), "f");
        assert_eq!(callee_name("x + 1"), "");
    }

    #[test]
    fn job_tokens_name_kind_line_method_and_value() {
        let i = ReplayInput {
            kind: InputKind::Ref,
            line: 27,
            value: ReplayValue::Bool(false),
            text: "ReminderStore.get(context).find(id)".into(),
        };
        assert_eq!(i.job_token(), "ref:27:find:b0");
        let i = ReplayInput {
            kind: InputKind::Input,
            line: 3,
            value: ReplayValue::Int(-2),
            text: "Input.readInt()".into(),
        };
        assert_eq!(i.job_token(), "input:3::i-2");
    }
}
