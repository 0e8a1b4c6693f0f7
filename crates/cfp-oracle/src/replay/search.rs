//! The oracle that answers the interpreter's questions while a counterexample is replayed:
//! values the model reported, then candidates, with the answers kept for the report.

use super::*;

/// The values cfp's model gives the havocs of its path: `values` has what each step of
/// cfp's trace wrote (`"step  12: %t6"`), `trace` each step's line and text. cfp's trace
/// may be of a slice of the program, with fewer steps than the path, so a havoc is matched
/// by what it writes, its line and how many times it ran before.
pub(super) struct ModelValues {
    /// `(variable, line)` → the values its havocs wrote, in the trace's order.
    pub(super) havocs: BTreeMap<(String, u32), Vec<String>>,
    /// `%alloc` at the start: the model's `k`-th allocation is `base + k`.
    pub(super) base: i128,
}

impl ModelValues {
    pub(super) fn new(cex: &serde_json::Value) -> ModelValues {
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
    pub(super) fn get(&self, var: &str, line: u32, nth: usize, sort: Sort) -> Option<Value> {
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
pub(super) struct Answered {
    pub(super) method: MethodId,
    pub(super) edge: usize,
    /// The index of its edge in the path.
    pub(super) step: usize,
    /// The havoc's rank among the havocs of that edge.
    pub(super) rank: usize,
    pub(super) value: Value,
    pub(super) sort: Sort,
}

/// Follows the path's edges; initial globals from the report; every other value by
/// chronological backtracking over a few candidates (recording the havocs' answers).
pub(super) struct Search<'a> {
    pub(super) cfas: &'a Cfas<'a>,
    pub(super) edges: &'a [(MethodId, usize)],
    pub(super) model: &'a ModelValues,
    /// Where the program's lines are.
    pub(super) at: &'a Where<'a>,
    /// How many times each havoc (variable, line) ran so far.
    pub(super) havocs_seen: BTreeMap<(String, u32), usize>,
    pub(super) reported: &'a [i64],
    /// The initial globals the path fixes (the others are searched).
    pub(super) globals: &'a [Option<i64>],
    /// `%escaped`, when the program hands closures to library code.
    pub(super) escaped: Option<FieldId>,
    pub(super) next_edge: usize,
    pub(super) havocs_in_edge: usize,
    pub(super) diverged: bool,
    pub(super) choices: Vec<usize>,
    pub(super) arity: Vec<usize>,
    pub(super) asked: usize,
    pub(super) answered: Vec<Answered>,
    /// Objects whose `%escaped` the run took as true from the start (no write made it so).
    pub(super) escaped_at_start: Vec<i64>,
    /// Why the search had no answer for the interpreter, when it had none.
    pub(super) refused: Option<String>,
    /// The path's edge where the run left it.
    pub(super) diverged_at: usize,
}

/// Whether `e` reads the variable `v`.
pub(super) fn mentions(e: &Expr, v: cfp_core::VarId) -> bool {
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
pub(super) fn is_counted_havoc(s: &Stmt) -> bool {
    // (An opaque value is drawn like a havoc: it takes a rank among the edge's draws.)
    matches!(
        s,
        Stmt::Havoc(Place::Var(_) | Place::Global(_) | Place::Field { .. }) | Stmt::Opaque { .. }
    )
}

/// Whether the draw `a` is an opaque value (one the analysis does not track, e.g. the
/// coercion of an input of unknown type): never an input of its own.
pub(super) fn is_opaque_draw(program: &Program, a: &Answered) -> bool {
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
pub(super) fn candidates(
    q: &ValueQuery,
    reported: &[i64],
    hint: Option<Value>,
    pick: bool,
) -> Vec<Value> {
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
pub(super) fn reported_ints(cex: &serde_json::Value) -> Vec<i64> {
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
