//! The interpolation-free strategies (Dietsch et al., "Craig vs. Newton in software model
//! checking", FSE'17, as in Ultimate Automizer): predicates from the weakest preconditions
//! (`wp`) or the strongest postconditions (`sp`) along the unsat-core-reduced trace.
//!
//! Over the sliced SSA trace `init ∧ s_0 ∧ … ∧ s_{n-1}` (steps outside the core are
//! `true`), position `i` sees the SSA constants that are the current values of the state
//! symbols in scope there ([`crate::trace::Position::names`]; in a callee, the caller's
//! values reach it through the entry copies `p@entry`). Then
//! * `wp`: `WP_i = ¬∃ X. (s_i ∧ … ∧ s_{n-1} ∧ B_i)`, where `X` are the constants of the
//!   suffix that position `i` cannot name — the states from which the rest of the path
//!   cannot complete — and `B_i` are the call steps of the frames still open at `i` (their
//!   parameter bindings relate the caller's values, which the rest of the path uses after
//!   the returns, to the callee's entry copies, which `i` can name). `WP_n` is `¬true`, and
//!   every `WP_i` is implied by the path's prefix (the trace is infeasible), so they form an
//!   inductive sequence as far as the elimination is exact;
//! * `sp`: `SP_i = ∃ X. (init ∧ s_0 ∧ … ∧ s_{i-1})`, what the prefix establishes.
//!
//! The existentials are eliminated by [`crate::qe::project_exists`] (substitution of
//! definitions, cell facts of stores; where that is not exact, weakening), which never
//! needs a solver: these strategies cost no SMT query, and their projections share a
//! bound on the term nodes they visit ([`PROJECTION_WORK`]), past which the strategy gives
//! up (a path through a thousand allocations makes definition chains whose substitution
//! grows quadratically). The formulas are
//! renamed to state symbols; [`super::predicates_of`] makes predicates of them. Weakest
//! preconditions name only what the rest of the path tests (`l = $1`, `l ≠ 0`), so they are
//! small where interpolants from a Horn solver can be whole path summaries.
//!
//! Each formula is computed once per segment between two core steps and the constants it
//! can name (positions inside a run of non-core steps share it), so long traces with small
//! cores stay cheap.

use super::slicing::Sliced;
use crate::encode::Symbols;
use crate::trace::naming::Naming;
use crate::trace::EncodedTrace;
use cfp_smt::{Sort, Term};
use std::collections::{BTreeMap, BTreeSet};

/// The term nodes all projections of one [`newton_formulas_until`] may visit (about a
/// second of work).
pub const PROJECTION_WORK: u64 = 50_000_000;

/// Which end of the trace the formulas are computed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Weakest preconditions of the suffix (from the end).
    Backward,
    /// Strongest postconditions of the prefix (from the start).
    Forward,
}

/// The formula per position `0..=n` (see the module doc): the projected suffix (whose
/// negation is the weakest precondition) or prefix (the strongest postcondition), over the
/// position's state symbols; `true` where nothing is known.
pub fn newton_formulas(
    trace: &EncodedTrace,
    sliced: &Sliced,
    symbols: &Symbols,
    direction: Direction,
) -> Vec<Term> {
    newton_formulas_until(trace, sliced, symbols, direction, &|| false).unwrap_or_default()
}

/// [`newton_formulas`], asking `stop` before each projection (they can take long on
/// large formulas); `None` once it says so, or once the projections used up
/// [`PROJECTION_WORK`].
pub fn newton_formulas_until(
    trace: &EncodedTrace,
    sliced: &Sliced,
    symbols: &Symbols,
    direction: Direction,
    stop: &dyn Fn() -> bool,
) -> Option<Vec<Term>> {
    let n = sliced.steps.len();
    let core: Vec<usize> = (0..n)
        .filter(|&k| sliced.steps[k].as_bool() != Some(true))
        .collect();
    // The core call steps whose frame is open at each position (for the suffixes).
    let mut open: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    if direction == Direction::Backward {
        for (ret, call) in trace.call_of.iter().enumerate() {
            if let Some(c) = call.filter(|c| core.binary_search(c).is_ok()) {
                for o in open.iter_mut().take(ret + 1).skip(c + 1) {
                    o.push(c);
                }
            }
        }
    }
    // The formula of position i depends on the core steps on its side of i (and the open
    // calls) only: one conjunction per segment, keyed by the number of core steps before i.
    type Segment = (usize, Vec<usize>);
    let mut segment_formula: BTreeMap<Segment, (Term, BTreeSet<(String, Sort)>)> = BTreeMap::new();
    let mut memo: BTreeMap<(Segment, Vec<(String, Term)>), Term> = BTreeMap::new();
    let mut out = Vec::with_capacity(n + 1);
    let mut work = crate::qe::Work::new(PROJECTION_WORK);
    // Which state symbol names each constant, moved along the positions.
    let mut naming = Naming::new(symbols);
    for (i, open_here) in open.iter().enumerate() {
        if stop() {
            return None;
        }
        let pos = trace.positions.get(i);
        if let Some(pos) = pos {
            naming.advance(pos);
        }
        let before = core.partition_point(|&k| k < i);
        let segment: Segment = (before, open_here.clone());
        let (formula, constants) = segment_formula
            .entry(segment.clone())
            .or_insert_with(|| {
                let parts: Vec<Term> = match direction {
                    Direction::Backward => core[before..]
                        .iter()
                        .chain(open_here.iter())
                        .map(|&k| sliced.steps[k].clone())
                        .collect(),
                    Direction::Forward => std::iter::once(sliced.init.clone())
                        .chain(core[..before].iter().map(|&k| sliced.steps[k].clone()))
                        .collect(),
                };
                let f = Term::and(parts);
                let constants = f.free_vars().into_iter().collect();
                (f, constants)
            })
            .clone();
        if formula.as_bool() == Some(true) {
            out.push(Term::tt());
            continue;
        }
        // The SSA constants position `i` can name, each with the state symbol naming it
        // (the first in scope order); only those this formula mentions matter.
        let relevant: Vec<(String, Term)> = match pos {
            Some(_) => constants
                .iter()
                .filter_map(|(c, _)| {
                    let (n, s) = naming.name(c)?;
                    Some((c.clone(), Term::var(n, s.clone())))
                })
                .collect(),
            None => Vec::new(),
        };
        let key = (segment, relevant.clone());
        let atoms = match memo.get(&key) {
            Some(t) => t.clone(),
            None => {
                let bound: Vec<(String, Sort)> = constants
                    .iter()
                    .filter(|(c, _)| !relevant.iter().any(|(r, _)| r == c))
                    .cloned()
                    .collect();
                let projected = crate::qe::project_exists(&bound, &formula, &mut work)?;
                let renaming: BTreeMap<&str, &Term> =
                    relevant.iter().map(|(c, t)| (c.as_str(), t)).collect();
                let renamed = projected.substitute(&|c| renaming.get(c).map(|t| (*t).clone()));
                memo.insert(key, renamed.clone());
                renamed
            }
        };
        out.push(atoms);
    }
    Some(out)
}
