//! Searching for a run of the counterexample's path and turning the run found into the
//! inputs, library decisions and call-back order a replay needs.

use super::*;

/// Where the program's text is in the text cfp prepared (cfp's models come after it).
pub(super) struct Where<'a> {
    pub(super) combined: &'a str,
    pub(super) program_len: usize,
}

impl Where<'_> {
    /// The line of `span` (0 in a model).
    pub(super) fn line(&self, span: Span) -> u32 {
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
pub(super) struct Path<'a> {
    pub(super) cfas: &'a Cfas<'a>,
    pub(super) edges: &'a [(MethodId, usize)],
    pub(super) model: &'a ModelValues,
    pub(super) reported: &'a [i64],
}

/// A run that follows the whole path and completes.
pub(super) struct FoundRun {
    pub(super) run: interp::Run,
    pub(super) answered: Vec<Answered>,
    pub(super) escaped_at_start: Vec<i64>,
    pub(super) escaped: Option<FieldId>,
}

/// What a search found.
pub(super) enum Found {
    /// A run that follows the whole path and completes.
    Run(Box<FoundRun>),
    /// Nothing: how far the furthest run got along the path, and why it stopped.
    Nothing(usize, String),
}

/// How many allocations the path's edges make.
pub(super) fn allocations_on(program: &Program, edges: &[(MethodId, usize)]) -> usize {
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
pub(super) fn escaped_field(program: &Program) -> Option<FieldId> {
    program
        .fields
        .iter()
        .position(|f| f.name == "%escapes")
        .and_then(|i| u32::try_from(i).ok())
        .map(FieldId)
}

/// Where the path's edge `at` is, for messages: `Method (line N)`.
pub(super) fn edge_place(path: &Path<'_>, at: usize, w: &Where<'_>) -> String {
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
pub(super) fn search(
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
pub(super) fn inputs_of(
    program: &Program,
    w: &Where<'_>,
    answered: &[Answered],
) -> Vec<(usize, ReplayInput)> {
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
pub(super) fn library_throw(program: &Program, edge: &Edge) -> Option<(String, Span)> {
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
pub(super) fn callback_span(cfas: &Cfas<'_>, m: MethodId, e: usize) -> Option<Span> {
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
pub(super) fn escape_order(
    cfas: &Cfas<'_>,
    found: &FoundRun,
    registry: FieldId,
) -> Vec<(i64, Span)> {
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
pub(super) fn library_decisions(
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
pub(super) fn is_boolean_input(src: &str) -> bool {
    ["readBool()", "readBoolean()", "anyBool()"]
        .iter()
        .any(|m| src.ends_with(m))
}
