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

mod found;
mod search;

use found::*;
use search::*;

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

#[cfg(test)]
mod tests;
