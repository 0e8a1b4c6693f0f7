//! Concrete runs with random inputs, shared by the vacuity check ([`super::vacuity`]) and
//! the bug hunter ([`super::hunt`]).
//!
//! A run draws its inputs from an [`ExploreOracle`]: references rarely `null`, integers
//! small and rarely negative (inputs that pass the usual checks), edges uniform — or, with
//! a guide, mostly along the edges of a path the abstraction reported. A run whose
//! `assume` fails right after a random value (a reference chosen `null` where the program
//! then assumes it is not) is retried from before that value with another one, a few times
//! ([`run_retrying`]). Everything is a function of the seed: the same seed gives the same
//! run on every machine.

use crate::interp::{self, Decision, EdgeQuery, InterpError, Oracle, RandomOracle, Value};
use crate::interp::{Limits, ValueQuery, ValueSource};
use crate::ir::{GlobalId, MethodId, Program, Sort};
use std::collections::BTreeSet;

/// CFA edges (method, graph edge index) a run should prefer where it has a choice.
pub(crate) type Guide = BTreeSet<(MethodId, usize)>;

/// The outcome of [`run_retrying`].
pub(crate) struct Explored {
    /// The last attempt's run, or why it stopped.
    pub result: Result<interp::Run, InterpError>,
    /// Edges executed over all attempts (what the run cost).
    pub edges: usize,
}

/// How the runs of [`run_retrying`] choose.
#[derive(Clone, Copy, Default)]
pub(crate) struct Choices<'a> {
    /// Edges to prefer.
    pub guide: Option<&'a Guide>,
    /// Decisions to replay first (a recorded run's, to follow it again).
    pub prefix: &'a [Decision],
    /// Initial values of these globals, whatever the prefix says.
    pub globals: &'a [(GlobalId, Value)],
    /// A random boolean is `true` once in `2^sparse` draws (0: half the time). Sparse
    /// runs take fewer input-guarded paths: fewer calls of a harness, shorter runs that
    /// complete more often.
    pub sparse: u32,
    /// References are an existing object or the next one (no gaps in the numbering), as
    /// library code that returns what the program has or makes a new object.
    pub dense_refs: bool,
    /// Integers worth trying besides the small ones (the program's guard constants and
    /// their neighbours): one random integer in four is drawn from them.
    pub ints: &'a [i64],
}

/// Runs `program` with inputs drawn from `seed`; a run blocked on an `assume` right after
/// a random value is retried from before that value, up to `retries` times.
pub(crate) fn run_retrying(
    program: &Program,
    seed: u64,
    retries: usize,
    limits: Limits,
    choices: Choices<'_>,
) -> Explored {
    let mut prefix: Vec<Decision> = choices.prefix.to_vec();
    let mut edges = 0;
    let mut attempt = 0;
    loop {
        let mut oracle = ExploreOracle::new(&prefix, seed, attempt, choices);
        let result = interp::run(program, &mut oracle, limits);
        edges += match &result {
            Ok(run) => run.steps.len(),
            Err(e) => e.partial().map_or(0, |r| r.steps.len()),
        };
        if let Err(InterpError::Blocked { partial, .. }) = &result {
            // Retry from before the last value, when there is one to choose again.
            let last = partial
                .decisions
                .iter()
                .rposition(|d| matches!(d, Decision::Value(_)));
            if let (Some(k), true) = (last, attempt < retries) {
                prefix = partial.decisions[..k].to_vec();
                attempt += 1;
                continue;
            }
        }
        return Explored { result, edges };
    }
}

/// Replays a prefix of decisions, then chooses at random; references are rarely `null`
/// and integers rarely negative (inputs that pass the usual checks). With a guide, an
/// edge choice among edges some of which the guide holds takes one of those three times
/// in four.
struct ExploreOracle<'a> {
    prefix: &'a [Decision],
    next: usize,
    random: RandomOracle,
    guide: Option<&'a Guide>,
    globals: &'a [(GlobalId, Value)],
    sparse: u32,
    dense_refs: bool,
    ints: &'a [i64],
}

impl<'a> ExploreOracle<'a> {
    fn new(
        prefix: &'a [Decision],
        seed: u64,
        attempt: usize,
        choices: Choices<'a>,
    ) -> ExploreOracle<'a> {
        ExploreOracle {
            prefix,
            next: 0,
            random: RandomOracle::new(seed.wrapping_mul(1_000_003) ^ attempt as u64),
            guide: choices.guide,
            globals: choices.globals,
            sparse: choices.sparse.min(16),
            dense_refs: choices.dense_refs,
            ints: choices.ints,
        }
    }

    fn replayed(&mut self) -> Option<&'a Decision> {
        let d = self.prefix.get(self.next)?;
        self.next += 1;
        Some(d)
    }
}

impl Oracle for ExploreOracle<'_> {
    fn value(&mut self, q: &ValueQuery) -> Option<Value> {
        let replayed = self.replayed();
        if let ValueSource::GlobalInit(g) = q.source {
            if let Some((_, v)) = self.globals.iter().find(|(h, _)| *h == g) {
                return Some(*v);
            }
        }
        // A replayed value of the wrong sort (a changed prefix went another way) is not
        // used.
        match (replayed, q.sort) {
            (Some(Decision::Value(v @ Value::Bool(_))), Sort::Bool)
            | (Some(Decision::Value(v @ Value::Int(_))), Sort::Int | Sort::Ref) => return Some(*v),
            _ => {}
        }
        if q.zeroed {
            return Some(match q.sort {
                Sort::Bool => Value::Bool(false),
                Sort::Int | Sort::Ref => Value::Int(0),
            });
        }
        Some(match q.sort {
            Sort::Bool => Value::Bool(self.random.below(2 << self.sparse) == 1),
            Sort::Int => {
                const INTS: [i64; 8] = [0, 1, 2, 3, 1, 0, 7, -1];
                if !self.ints.is_empty() && self.random.below(4) == 0 {
                    let i = self.random.below(self.ints.len() as u64) as usize;
                    Value::Int(self.ints.get(i).copied().unwrap_or(0))
                } else {
                    Value::Int(INTS[self.random.below(INTS.len() as u64) as usize])
                }
            }
            Sort::Ref => {
                // Library results are never `null` in dense runs (they would mostly end
                // in a `NullPointerException` the program does not expect).
                let library = matches!(q.source, ValueSource::Havoc { .. });
                let never_null = q.non_null || (library && self.sparse == 0);
                if !never_null && self.random.below(16) == 0 {
                    Value::Int(0)
                } else {
                    let hi = q.allocated.max(0) as u64 + if self.dense_refs { 1 } else { 4 };
                    Value::Int(1 + self.random.below(hi) as i64)
                }
            }
        })
    }

    fn redraws(&self) -> bool {
        // Past the replayed prefix: a redrawn value there would not be the recorded one.
        self.next >= self.prefix.len()
    }

    fn edge(&mut self, q: &EdgeQuery) -> Option<usize> {
        if let Some(Decision::Edge(e)) = self.replayed() {
            if q.enabled.contains(e) {
                return Some(*e);
            }
        }
        if let Some(guide) = self.guide {
            let guided: Vec<usize> = q
                .enabled
                .iter()
                .copied()
                .filter(|e| guide.contains(&(q.method, *e)))
                .collect();
            if !guided.is_empty() && guided.len() < q.enabled.len() && self.random.below(4) != 0 {
                let i = self.random.below(guided.len() as u64) as usize;
                return guided.get(i).copied();
            }
        }
        // When another edge is enabled, an edge that raises an exception is never taken in
        // dense runs and taken one time in 16 or 64 in sparser ones: with every library call
        // able to throw, a run would otherwise end in an uncaught exception long before it
        // reaches the code that matters.
        let calm: Vec<usize> = q
            .enabled
            .iter()
            .copied()
            .filter(|e| !q.throwing.contains(e))
            .collect();
        let pool = if calm.is_empty() || calm.len() == q.enabled.len() {
            &q.enabled
        } else if self.sparse > 0 && self.random.below(4 << (2 * self.sparse)) == 0 {
            &q.throwing
        } else {
            &calm
        };
        let i = self.random.below(pool.len() as u64) as usize;
        pool.get(i).copied()
    }
}
