//! Feasibility of a nested trace (ARCHITECTURE.md, "Feasibility"): check the SSA encoding
//! with one named assertion per step; SAT gives concrete values, UNSAT an unsat core.
//!
//! A SAT answer for a trace whose encoding uses uninterpreted functions (non-linear or
//! bitwise arithmetic, see [`crate::encode`]) may be spurious, so it is reported as
//! [`Feasibility::Unknown`] — never as a real bug. An UNSAT answer is a proof either way.

use crate::encode::{Encoder, ALLOC};
use crate::ir::{Edge, GlobalKind, MethodId, Stmt, VarKind};
use crate::trace::{EncodedTrace, Trace, TraceStep};
use cfp_smt::{CheckSat, Model, Session, Solver, SolverError, Term, TermKind, Value, Want};

/// The values of one step: what it wrote (or bound, for a call), after the step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepValues {
    /// The step index.
    pub step: usize,
    /// The method running after the step.
    pub method: MethodId,
    /// Call depth after the step.
    pub depth: usize,
    /// `(symbol, value)` of the symbols the step wrote (params on a call, the result on
    /// a return), in scope order; fields as arrays.
    pub values: Vec<(String, Value)>,
}

/// Which object a wildcard denotes in the witness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WildcardValue {
    /// `$k`.
    pub name: String,
    /// Its address (0 = null).
    pub address: i128,
    /// The step whose `new` created it, when the program allocated it along the trace
    /// (else it existed before the first step or is never touched).
    pub allocated_at: Option<usize>,
}

/// A concrete witness of a feasible trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Values {
    /// The wildcards' objects.
    pub wildcards: Vec<WildcardValue>,
    /// `%alloc` at the start: objects `1..=initial_alloc` exist before the first step.
    pub initial_alloc: Option<i128>,
    /// The values of the parameters and user locals of the start method at position 0
    /// followed by each step's written values.
    pub steps: Vec<StepValues>,
    /// The solver's model itself (every SSA constant it gave a value).
    pub model: Model,
}

/// The verdict on a trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Feasibility {
    /// Feasible, with a witness.
    Feasible(Values),
    /// Infeasible; the unsat core's step indices (and whether the initial constraint is
    /// in it) slice the trace.
    Infeasible(crate::refinement::slicing::Core),
    /// Satisfiable, but through arithmetic the encoding leaves uninterpreted (non-linear
    /// or bitwise): the model is a witness only if the program, run with its values,
    /// follows the path (see `check::concrete::settle`); the reason to give otherwise.
    Unconfirmed(Values, String),
    /// Undecided.
    Unknown(String),
}

/// Why the check failed (as opposed to an answer).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FeasibilityError {
    /// The trace does not fit the program.
    #[error(transparent)]
    Trace(#[from] crate::trace::TraceError),
    /// The solver failed.
    #[error(transparent)]
    Solver(#[from] SolverError),
}

fn value_of(model: &Model, t: &Term) -> Option<Value> {
    match t.kind() {
        TermKind::Var(n, _) => model.get(n).cloned(),
        TermKind::Int(i) => Some(Value::Int(*i)),
        TermKind::Bool(b) => Some(Value::Bool(*b)),
        _ => None,
    }
}

/// Read the witness of `trace` from `model`. Symbols whose SSA constant the model leaves
/// out are unconstrained (any value works) and are not listed.
pub fn values_from_model(enc: &Encoder<'_>, trace: &EncodedTrace, model: &Model) -> Values {
    let syms = enc.symbols();
    let program = enc.program();
    let mut steps = Vec::with_capacity(trace.steps.len());
    for (i, pos) in trace.positions.iter().enumerate().skip(1) {
        let prev = &trace.positions[i - 1];
        let scope = syms.scope(pos.method).unwrap_or_default();
        let mut values = Vec::new();
        for (n, _) in scope {
            if n.ends_with(crate::encode::ENTRY_SUFFIX) {
                continue;
            }
            let Ok(t) = pos.names.get(n) else { continue };
            let changed = prev.method != pos.method
                || prev.depth != pos.depth
                || prev.names.get(n).ok() != Some(t);
            // On calls, list the parameters only; elsewhere what changed.
            let is_call = pos.depth > prev.depth;
            let relevant = if is_call {
                program.method(pos.method).is_some_and(|m| {
                    m.params
                        .iter()
                        .any(|p| syms.local(pos.method, *p).is_ok_and(|(pn, _)| pn == n))
                })
            } else {
                changed && prev.names.get(n).ok() != Some(t)
            };
            if relevant {
                if let Some(v) = value_of(model, t) {
                    values.push((n.clone(), v));
                }
            }
        }
        steps.push(StepValues {
            step: i - 1,
            method: pos.method,
            depth: pos.depth,
            values,
        });
    }
    let start = &trace.positions[0];
    let initial_alloc = start
        .names
        .get(ALLOC)
        .ok()
        .and_then(|t| match value_of(model, t) {
            Some(Value::Int(i)) => Some(i),
            _ => None,
        });
    let mut wildcards = Vec::new();
    for (g, (name, _)) in program.globals.iter().zip(syms.globals()) {
        if !matches!(g.kind, GlobalKind::Wildcard(_)) {
            continue;
        }
        let Some(Value::Int(address)) = start.names.get(name).ok().and_then(|t| value_of(model, t))
        else {
            continue;
        };
        let allocated_at = steps.iter().position(|sv| {
            trace_step_allocates(trace, sv.step)
                && sv
                    .values
                    .iter()
                    .any(|(n, v)| n != ALLOC && *v == Value::Int(address))
        });
        wildcards.push(WildcardValue {
            name: name.clone(),
            address,
            allocated_at,
        });
    }
    Values {
        wildcards,
        initial_alloc,
        steps,
        model: model.clone(),
    }
}

/// True when step `i`'s block contains an allocation (its written ref is new).
fn trace_step_allocates(trace: &EncodedTrace, i: usize) -> bool {
    let (Some(pos), Some(next)) = (trace.positions.get(i), trace.positions.get(i + 1)) else {
        return false;
    };
    if pos.method != next.method || pos.depth != next.depth {
        return false;
    }
    let (Ok(a), Ok(b)) = (pos.names.get(ALLOC), next.names.get(ALLOC)) else {
        return false;
    };
    a != b
}

/// Is `trace` feasible? Encodes it, checks it, and reads the model or the core.
pub async fn check_feasibility<S: Solver>(
    session: &mut Session<S>,
    enc: &Encoder<'_>,
    trace: &Trace,
) -> Result<(EncodedTrace, Feasibility), FeasibilityError> {
    let encoded = crate::trace::encode_trace(enc, trace)?;
    let verdict = check_encoded(session, enc, &encoded, &[]).await?;
    Ok((encoded, verdict))
}

/// [`check_feasibility`] of an encoded trace with extra assertions (`hints`, e.g. the
/// values a concrete run chose). With hints, `Infeasible` only means "not with these
/// values", and its core is the whole trace.
pub async fn check_encoded<S: Solver>(
    session: &mut Session<S>,
    enc: &Encoder<'_>,
    encoded: &EncodedTrace,
    hints: &[Term],
) -> Result<Feasibility, FeasibilityError> {
    let mut assertions = encoded.assertions();
    if !hints.is_empty() {
        // No core is wanted: unnamed assertions keep z3's preprocessing (named ones make
        // a long trace's check orders of magnitude slower).
        for a in &mut assertions {
            a.0 = None;
        }
    }
    assertions.extend(hints.iter().map(|h| (None, h.clone())));
    let outcome = session
        .check(
            &assertions,
            Want {
                model: true,
                core: hints.is_empty(),
            },
        )
        .await?;
    let verdict = match outcome.result {
        CheckSat::Unsat => Feasibility::Infeasible(match &outcome.core {
            Some(names) => crate::refinement::slicing::Core::from_names(names),
            None => crate::refinement::slicing::Core::all(encoded),
        }),
        CheckSat::Sat if encoded.approximate => Feasibility::Unconfirmed(
            values_from_model(enc, encoded, &outcome.model.unwrap_or_default()),
            "the trace uses non-linear or bitwise arithmetic (uninterpreted functions): \
             its model may be spurious"
                .to_string(),
        ),
        CheckSat::Sat => {
            let model = outcome.model.unwrap_or_default();
            Feasibility::Feasible(values_from_model(enc, encoded, &model))
        }
        CheckSat::Unknown(r) => Feasibility::Unknown(if r.is_empty() {
            "the SMT solver answered unknown".to_string()
        } else {
            format!("the SMT solver answered unknown ({r})")
        }),
    };
    Ok(verdict)
}

/// True when step `step` of `trace` is a branch (a block starting with an `assume`) —
/// the steps whose choice a witness explains.
pub fn is_branch(enc: &Encoder<'_>, step: &TraceStep) -> bool {
    match step {
        TraceStep::Intra { method, edge } => matches!(
            enc.edge(*method, *edge),
            Ok(Edge::Block(stmts)) if matches!(stmts.first().map(|s| &s.node), Some(Stmt::Assume(_)))
        ),
        _ => false,
    }
}

/// True for variables shown to users (parameters and declared locals).
pub fn is_user_var(kind: VarKind) -> bool {
    crate::encode::is_user_var(kind)
}
