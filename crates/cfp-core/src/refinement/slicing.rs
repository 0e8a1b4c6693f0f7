//! Slicing an infeasible SSA trace to an unsat core of its step assertions: steps outside
//! the core become `true`; a state symbol stays in the signature of position `i` only when
//! its SSA term there mentions a constant of some core formula (the others are
//! unconstrained everywhere, so dropping them loses no solution). The scope, and so the
//! signature, includes the entry copies of the field arrays and `%alloc`
//! (`Class.f@entry`, `%alloc@entry`): without them a summary at the exit cannot say
//! "every other cell is unchanged".
//!
//! Every refinement strategy works on the sliced trace (Dietsch et al., FSE'17: an
//! unsat-core-reduced trace), so that facts of steps that do not matter for the
//! infeasibility never become predicates.

use crate::encode::Symbols;
use crate::trace::naming::{Naming, Rank};
use crate::trace::{step_label, EncodedTrace, INIT_LABEL};
use cfp_smt::{Sort, Term};
use std::collections::BTreeSet;

/// An unsat core of a trace: which named assertions it holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Core {
    /// True when `init` is in the core.
    pub init: bool,
    /// Step indices in the core, increasing.
    pub steps: BTreeSet<usize>,
}

impl Core {
    /// Read the assertion names of an unsat core (`init`, `s<i>`; others ignored).
    pub fn from_names<S: AsRef<str>>(names: &[S]) -> Core {
        let mut core = Core::default();
        for n in names {
            let n = n.as_ref();
            if n == INIT_LABEL {
                core.init = true;
            } else if let Some(i) = n.strip_prefix('s').and_then(|k| k.parse::<usize>().ok()) {
                if step_label(i) == n {
                    core.steps.insert(i);
                }
            }
        }
        core
    }

    /// Every assertion of `trace` (no slicing).
    pub fn all(trace: &EncodedTrace) -> Core {
        Core {
            init: true,
            steps: (0..trace.steps.len()).collect(),
        }
    }
}

/// A trace restricted to a core.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sliced {
    /// `init` or `true`.
    pub init: Term,
    /// Step formulas, `true` outside the core.
    pub steps: Vec<Term>,
    /// Per position: the state symbols kept (name, sort, SSA term), in scope order.
    pub signatures: Vec<Vec<(String, Sort, Term)>>,
}

/// Slice `trace` to `core` (see the module doc).
pub fn slice(symbols: &Symbols, trace: &EncodedTrace, core: &Core) -> Sliced {
    let init = if core.init {
        trace.init.clone()
    } else {
        Term::tt()
    };
    let steps: Vec<Term> = trace
        .steps
        .iter()
        .enumerate()
        .map(|(i, t)| {
            if core.steps.contains(&i) {
                t.clone()
            } else {
                Term::tt()
            }
        })
        .collect();
    let mut used: BTreeSet<String> = BTreeSet::new();
    for t in std::iter::once(&init).chain(steps.iter()) {
        used.extend(t.free_vars().into_iter().map(|(n, _)| n));
    }
    let is_used = |t: &Term| t.free_vars().iter().any(|(v, _)| used.contains(v));
    // Every scope has entry copies of parameters, globals, field arrays and `%alloc`
    // (bound by the trace encoding to the values at the frame's entry), so a callee's
    // summary can keep the frame (`f = store(f@entry, o, v)`) with state symbols only.
    // Most names are plain SSA constants: the symbols bound to a used constant come from
    // the reverse index, moved along the positions (not by walking every scope).
    let mut naming = Naming::new(symbols);
    let signatures = trace
        .positions
        .iter()
        .map(|pos| {
            naming.advance(pos);
            let mut kept: Vec<(Rank, &str, &Sort, Term)> = Vec::new();
            for c in &used {
                for ((r, n, s), t) in naming.bound_to(c) {
                    kept.push((r, n, s, t.clone()));
                }
            }
            for ((r, n, s), t) in naming.compound() {
                if is_used(t) {
                    kept.push((r, n, s, t.clone()));
                }
            }
            kept.sort_by_key(|k| k.0);
            kept.into_iter()
                .map(|(_, n, s, t)| (n.to_string(), s.clone(), t))
                .collect()
        })
        .collect();
    Sliced {
        init,
        steps,
        signatures,
    }
}
