//! From cfp's counterexample to the inputs of a JVM run: the reported path (`replay`:
//! the edges and initial globals of `cfp check --json`) is re-run through cfp's concrete
//! interpreter (`cfp_core::interp`) on the program as `cfp check` prepared it, choosing
//! the values the path leaves free by a bounded backtracking search (the same as the CLI's
//! corpus test). The run that follows the whole path, completes and emits the reported
//! word gives, in execution order, the values of its havocs that stand for library calls:
//! `Input.*()` calls (the program's inputs), other calls of the program (arbitrary
//! results), calls inside cfp's library models, and the entry method's parameters.

use cfp_core::interp::{self, EdgeQuery, InterpError, Limits, Oracle, Step, ValueQuery};
use cfp_core::interp::{Value, ValueSource};
use cfp_core::{Edge, GlobalKind, LowerOptions, MethodId, Place, Program, Sort, Stmt};
use cfp_syntax::Span;
use serde::Serialize;

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

/// A boolean or an integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum ReplayValue {
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
}

impl ReplayInput {
    /// The driver's spelling: `kind:line:method:b1` or `kind:line:method:i-3` (the method
    /// called, for the results of library calls).
    pub fn job_token(&self) -> String {
        let v = match self.value {
            ReplayValue::Bool(b) => format!("b{}", u8::from(b)),
            ReplayValue::Int(i) => format!("i{i}"),
        };
        let method = match self.kind {
            InputKind::Ext | InputKind::Ref => callee_name(&self.text),
            _ => "",
        };
        format!("{}:{}:{method}:{v}", self.kind.as_str(), self.line)
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

/// The edge of `cfa` with graph index `index` (`edges()` lists them by index).
fn edge_weight(cfa: &cfp_core::MethodCfa, index: usize) -> Option<&Edge> {
    cfa.edges().nth(index).map(|(_, _, e)| e)
}

/// A havoc the search answered.
#[derive(Clone, Debug)]
struct Answered {
    method: MethodId,
    edge: usize,
    /// The havoc's rank among the havocs of that edge.
    rank: usize,
    value: Value,
    sort: Sort,
}

/// Follows the path's edges; initial globals from the report; every other value by
/// chronological backtracking over a few candidates (recording the havocs' answers).
struct Search<'a> {
    edges: &'a [(MethodId, usize)],
    reported: &'a [i64],
    /// The initial globals the path fixes (the others are searched).
    globals: &'a [Option<i64>],
    next_edge: usize,
    havocs_in_edge: usize,
    diverged: bool,
    choices: Vec<usize>,
    arity: Vec<usize>,
    asked: usize,
    answered: Vec<Answered>,
}

fn candidates(q: &ValueQuery, reported: &[i64]) -> Vec<Value> {
    let mut out: Vec<i64> = match q.sort {
        Sort::Bool => return vec![Value::Bool(false), Value::Bool(true)],
        Sort::Int => vec![0, 1, -1, 2, 3, 10],
        Sort::Ref => (1..=q.allocated.max(0) + 3).chain([0]).collect(),
    };
    for v in reported {
        if !out.contains(v) {
            out.push(*v);
        }
    }
    out.into_iter().map(Value::Int).collect()
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
        let cands = candidates(q, self.reported);
        let i = self.asked;
        self.asked += 1;
        if self.choices.len() <= i {
            self.choices.push(0);
        }
        self.arity.truncate(i);
        self.arity.push(cands.len());
        let v = cands.get(self.choices[i]).copied();
        if let (ValueSource::Havoc { method, .. }, Some(v)) = (&q.source, v) {
            if let Some(&(m, e)) = self.edges.get(self.next_edge) {
                if m == *method {
                    self.answered.push(Answered {
                        method: m,
                        edge: e,
                        rank: self.havocs_in_edge,
                        value: v,
                        sort: q.sort,
                    });
                }
            }
            self.havocs_in_edge += 1;
        }
        v
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
        .filter(|s| {
            matches!(
                s.node,
                Stmt::Havoc(Place::Var(_) | Place::Global(_) | Place::Field { .. })
            )
        })
        .nth(a.rank)
        .map(|s| (s.span, a.method == program.root))
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
            .and_then(|v| v.trim().parse::<i64>().ok())
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
    let mut last = String::from("no run");
    for g in &combos {
        match search(program, &edges, g, &reported, budget)? {
            Found::Run(word_run, answered) => {
                if word_run != word {
                    return Err(ReplayError::OtherWord {
                        got: word_run.join(" "),
                        reported: word.join(" "),
                    });
                }
                return Ok(inputs_of(program, combined, text.len(), &answered));
            }
            Found::Nothing(why) => last = why,
        }
    }
    Err(ReplayError::NoRun(last))
}

/// Most combinations of wildcard values tried.
const MAX_WILDCARD_COMBOS: usize = 64;
/// Fewest runs of the search for one combination.
const MIN_RUNS: usize = 500;

/// What a search found.
enum Found {
    /// A run that follows the whole path and completes: its word and answered havocs.
    Run(Vec<String>, Vec<Answered>),
    /// Nothing: the last reason.
    Nothing(String),
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

/// The bounded search for values that make the interpreter follow `edges` to the end.
fn search(
    program: &Program,
    edges: &[(MethodId, usize)],
    globals: &[Option<i64>],
    reported: &[i64],
    budget: usize,
) -> Result<Found, ReplayError> {
    let mut last = String::from("no run");
    let mut runs = 0;
    for limit in 0..=MAX_DISCREPANCY {
        let mut choices: Vec<usize> = Vec::new();
        loop {
            runs += 1;
            if runs > budget {
                return Ok(Found::Nothing(format!("search gave up ({last})")));
            }
            let mut s = Search {
                edges,
                reported,
                globals,
                next_edge: 0,
                havocs_in_edge: 0,
                diverged: false,
                choices: choices.clone(),
                arity: Vec::new(),
                asked: 0,
                answered: Vec::new(),
            };
            let limits = Limits {
                max_steps: edges.len() + 10,
                ..Limits::default()
            };
            match interp::run(program, &mut s, limits) {
                Ok(run) if run.completed && !s.diverged && s.next_edge == edges.len() => {
                    return Ok(Found::Run(run.word, s.answered));
                }
                Ok(run) => {
                    last = format!(
                        "run ended (completed {}, diverged {}, {} of {} edges)",
                        run.completed,
                        s.diverged,
                        s.next_edge,
                        edges.len()
                    );
                }
                Err(e @ InterpError::BadId(_)) => return Err(ReplayError::Interp(e.to_string())),
                Err(e) => {
                    if std::env::var_os("CFP_ORACLE_DEBUG").is_some() {
                        eprintln!("DEBUG run failed: {e} at edge {}/{} choices {:?}", s.next_edge, edges.len(), s.choices);
                        if let Some(p) = e.partial() { eprintln!("DEBUG steps {:?}", p.steps.iter().map(|st| (st.method.0, st.edge)).collect::<Vec<_>>()); }
                        eprintln!("DEBUG path {:?}", edges);
                    }
                    last = e.to_string()
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
    Ok(Found::Nothing(last))
}

fn inputs_of(
    program: &Program,
    combined: &str,
    program_len: usize,
    answered: &[Answered],
) -> Vec<ReplayInput> {
    let mut out = Vec::new();
    let mut skip: Vec<usize> = Vec::new();
    for (i, a) in answered.iter().enumerate() {
        if skip.contains(&i) {
            continue;
        }
        let Some((span, in_root)) = havoc_span(program, a) else {
            continue;
        };
        let Some((mut kind, src)) = classify(combined, program_len, span, in_root) else {
            continue;
        };
        let value = match (a.sort, a.value) {
            (Sort::Bool, Value::Bool(b)) => ReplayValue::Bool(b),
            // A boolean input cfp keeps as an int (its result's type unknown there): the
            // boolean that flows on is the next boolean havoc of the edge (the coercion),
            // else the int's truth.
            (Sort::Int, Value::Int(v)) if kind == InputKind::Input && is_boolean_input(&src) => {
                let coerced = answered.iter().enumerate().skip(i + 1).find(|(_, b)| {
                    b.method == a.method && b.edge == a.edge && b.sort == Sort::Bool
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
            u32::try_from(
                combined[..lo(span).min(combined.len())]
                    .matches('\n')
                    .count()
                    + 1,
            )
            .unwrap_or(0)
        };
        out.push(ReplayInput {
            kind,
            line,
            value,
            text: src,
        });
    }
    out
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

    /// Answers every value query by its sort; edges are never asked (all determined).
    struct BySort;

    impl Oracle for BySort {
        fn value(&mut self, q: &ValueQuery) -> Option<Value> {
            Some(match q.sort {
                Sort::Bool => Value::Bool(true),
                Sort::Int => Value::Int(3),
                Sort::Ref => Value::Int(1),
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
        let edges: Vec<serde_json::Value> = run
            .steps
            .iter()
            .map(|s| serde_json::json!([s.method.0, s.edge]))
            .collect();
        let cex = serde_json::json!({
            "word": run.word,
            "replay": {"edges": edges, "globals": [null]},
            "values": {}
        });
        let inputs = replay_inputs(program, spec, None, &cex).expect("replays");
        let shown: Vec<(InputKind, u32, ReplayValue, &str)> = inputs
            .iter()
            .map(|i| (i.kind, i.line, i.value, i.text.as_str()))
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
