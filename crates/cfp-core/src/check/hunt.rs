//! The bug hunter: a stateless, path-based search for a violation, interleaved with the
//! state-based abstraction refinement (the idea of hybrid model checking).
//!
//! Each slice runs the program in the concrete interpreter with random inputs
//! ([`explore::run_retrying`]): half of the runs choose their edges mostly along the
//! spurious counterexample the inclusion check just reported (what the abstraction
//! suspects), half uniformly. The first slice (and the last, before an `unknown`) may
//! execute 20,000 edges plus 128 per edge of the program, so that a bug any random run meets
//! is found before the first refinement; the others about 250 edges per SMT query the
//! prover made since the slice before (at least 5,000), so the hunter's share of the work
//! stays small on a program that verifies, and each slice's runs may be twice as long as the
//! previous slice's (up to a bound), so loops and recursion get deeper bounds as the
//! refinement goes on. A completed run whose word the spec rejects is a candidate; the
//! shortest of a slice is then checked like a counterexample of the inclusion check — its
//! path encoded and sent to the solver, the model replayed concretely — and reported
//! exactly like one ([`Checker::violation`]). A run through an approximated construct or
//! turning on an untracked value is not reported (it is only a possible violation); the
//! shortest such run is kept for the `unknown` report.
//!
//! The hunter only ever answers `violation`: it never makes a run `verified`, and a
//! candidate the solver does not confirm is dropped (and not tried again). Its slices are
//! counted in edges, not in time, so a run is the same on every machine.

mod targets;

use super::explore::{self, Guide};
use super::*;
use crate::feasibility::check_encoded;
use crate::interp::{self, Decision, Limits, Value};
use crate::ir::{Edge, GlobalId, GlobalKind};
use crate::trace::Trace;
use petgraph::graph::EdgeIndex;

/// Edges the first and the last slice may execute at least (plus
/// [`EDGES_PER_PROGRAM_EDGE`] per edge of the program).
const SLICE_EDGES: usize = 20_000;
/// See [`SLICE_EDGES`].
const EDGES_PER_PROGRAM_EDGE: usize = 128;
/// Edges any other slice may execute at least.
const LATER_SLICE_EDGES: usize = 5_000;
/// Edges a slice may execute per SMT query the prover made since the slice before: the
/// hunter gets a share of the work that grows with the prover's (an edge takes about
/// 0.25 µs, a query 0.1 to 1 ms: a tenth of the prover's time or less), counted in units
/// that are the same on every machine.
const EDGES_PER_QUERY: u64 = 250;
/// The most edges one slice may execute.
const MAX_SLICE_EDGES: u64 = 1 << 26;
/// How many times the runs' step bound doubles, one slice after the other.
const MAX_GROWTH: u32 = 4;

/// The edges one slice of the hunter may run: grows with the SMT queries the prover spent
/// (`queries`), at least a floor that lets a first (`full`) slice run through a program
/// of `size` edges, never above [`MAX_SLICE_EDGES`] (however large the program).
fn slice_budget(queries: u64, size: usize, full: bool) -> usize {
    let cap = usize::try_from(MAX_SLICE_EDGES).unwrap_or(usize::MAX);
    let floor = if full {
        SLICE_EDGES.saturating_add(EDGES_PER_PROGRAM_EDGE.saturating_mul(size))
    } else {
        LATER_SLICE_EDGES
    }
    .min(cap);
    usize::try_from(queries.saturating_mul(EDGES_PER_QUERY))
        .unwrap_or(usize::MAX)
        .clamp(floor, cap)
}
/// Runs per slice, at most.
const SLICE_RUNS: u64 = 512;
/// Retries of a run blocked right after a random value.
const RETRIES: usize = 4;
/// Runs again per scout with the wildcards naming objects, at most.
const RETARGETS: usize = 4;
/// The address a wildcard holds in a scout run: no object (no run allocates that many).
const NOWHERE: i64 = 1 << 40;
/// Runs one shrinking may make.
const MAX_SHRINK_RUNS: usize = 400;
/// Words longer than this are not checked against the spec (they cost more than they
/// are likely to show).
const MAX_WORD: usize = 5_000;
/// Words in the spec's language remembered, at most.
const MAX_KNOWN_WORDS: usize = 4_096;

/// The hunter's state across slices.
#[derive(Debug, Default)]
pub(crate) struct Hunter {
    /// Slices run.
    slices: u32,
    /// The next run's seed.
    next_seed: u64,
    /// Counters for the statistics.
    pub(crate) stats: HuntStats,
    /// The prover's SMT queries when the last slice started.
    queries_seen: u64,
    /// The edges of the program (counted at the first slice).
    size: Option<usize>,
    /// The integers runs also draw from ([`guard_constants`], found at the first slice).
    ints: Option<Vec<i64>>,
    /// Words already checked against the spec (most runs repeat a few words; each is
    /// parsed once).
    words: WordMemo,
    /// Paths (as executed edges) whose candidates the solver refused.
    refused: BTreeSet<Vec<(MethodId, usize)>>,
    /// The ways objects were called (per wildcard) that a run has already tried.
    seen: BTreeSet<(u32, targets::Profile)>,
    /// The shortest completed run with a word outside the spec that went through an
    /// approximation (a possible violation only).
    pub(crate) possible: Option<Found>,
}

/// The spec's answer for words already checked, at most [`MAX_KNOWN_WORDS`] of each kind.
#[derive(Debug, Default)]
struct WordMemo {
    /// Words in the spec's language.
    inside: BTreeSet<Vec<String>>,
    /// Words outside it.
    outside: BTreeSet<Vec<String>>,
}

impl WordMemo {
    /// Whether the spec accepts `word` (parsed the first time only).
    fn word_in(&mut self, spec: &cfp_grammar::Grammar, word: &[String]) -> bool {
        if self.inside.contains(word) {
            return true;
        }
        if self.outside.contains(word) {
            return false;
        }
        let refs: Vec<&str> = word.iter().map(String::as_str).collect();
        let inside = cfp_grammar::earley::word_in(spec, &refs);
        let known = if inside {
            &mut self.inside
        } else {
            &mut self.outside
        };
        if known.len() < MAX_KNOWN_WORDS {
            known.insert(word.to_vec());
        }
        inside
    }
}

/// A candidate violation: a completed run whose word is outside the spec.
#[derive(Debug)]
pub(crate) struct Found {
    /// The run.
    pub run: interp::Run,
    /// Its seed.
    pub seed: u64,
}

fn key(run: &interp::Run) -> Vec<(MethodId, usize)> {
    run.steps.iter().map(|s| (s.method, s.edge)).collect()
}

impl Hunter {
    /// One slice of runs; the shortest candidate it met, if any.
    ///
    /// A spec's wildcard (`$1`) names one object of the run, fixed at its start. Each seed
    /// is first run with the wildcards naming no object (a scout: it emits nothing, and
    /// records the objects it made API calls on); then, with the same decisions, again
    /// with the wildcards naming up to [`RETARGETS`] of those objects
    /// ([`Hunter::bindings`]). `stop` is asked before every run: once it says so, the
    /// slice ends (the host stopping the check; a run is bounded by its own limits).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn slice(
        &mut self,
        program: &Program,
        spec: &cfp_grammar::Grammar,
        guide: Option<&Guide>,
        queries: u64,
        full: bool,
        stop: &dyn Fn() -> bool,
    ) -> Option<Found> {
        let growth = self.slices.min(MAX_GROWTH);
        self.slices += 1;
        self.stats.slices += 1;
        // Budgets grow with the program: a run through every method must fit.
        let size = *self
            .size
            .get_or_insert_with(|| program.methods.iter().map(|m| m.graph.edge_count()).sum());
        let ints = self
            .ints
            .get_or_insert_with(|| guard_constants(program))
            .clone();
        let budget = slice_budget(queries, size, full);
        let limits = Limits {
            max_steps: (2_000 + size / 2) << growth,
            max_depth: 60 + 20 * growth as usize,
        };
        let wildcards: Vec<(GlobalId, u32)> = program
            .globals
            .iter()
            .filter_map(|g| match g.kind {
                GlobalKind::Wildcard(k) => Some((g.id, k)),
                _ => None,
            })
            .collect();
        let nowhere: Vec<(GlobalId, Value)> = wildcards
            .iter()
            .map(|(g, _)| (*g, Value::Int(NOWHERE)))
            .collect();
        let mut spent = 0;
        let mut best: Option<Found> = None;
        for k in 0..SLICE_RUNS {
            if spent >= budget || stop() {
                break;
            }
            let seed = self.next_seed;
            self.next_seed += 1;
            let guide = if k % 2 == 0 { guide } else { None };
            // Dense and sparse runs in turn (`true` half, a quarter, an eighth of the time).
            let sparse = (k / 2 % 3) as u32;
            let scouting = explore::Choices {
                guide,
                prefix: &[],
                globals: &nowhere,
                sparse,
                dense_refs: true,
                ints: &ints,
            };
            let scout = explore::run_retrying(program, seed, RETRIES, limits, scouting);
            spent += scout.edges;
            self.count(&scout);
            let Ok(scout) = scout.result else { continue };
            if !scout.completed {
                continue;
            }
            if wildcards.is_empty() {
                self.consider(spec, scout, seed, &mut best);
                continue;
            }
            let mut random = interp::RandomOracle::new(seed ^ 0x5EED);
            let bindings = self.bindings(program, spec, &scout, &wildcards, &mut random);
            for named in bindings {
                if stop() {
                    break;
                }
                let run = explore::run_retrying(
                    program,
                    seed,
                    RETRIES,
                    limits,
                    explore::Choices {
                        prefix: &scout.decisions,
                        globals: &named,
                        ..scouting
                    },
                );
                spent += run.edges;
                self.count(&run);
                if let Ok(run) = run.result {
                    if run.completed {
                        self.consider(spec, run, seed, &mut best);
                    }
                }
            }
        }
        best
    }

    fn count(&mut self, explored: &explore::Explored) {
        self.stats.runs += 1;
        self.stats.edges += explored.edges as u64;
        if explored.result.as_ref().is_ok_and(|r| r.completed) {
            self.stats.completed += 1;
        }
    }

    /// A completed run: a candidate when its word is outside the spec (the shortest of
    /// the slice is kept), a possible violation when it also went through an
    /// approximation.
    fn consider(
        &mut self,
        spec: &cfp_grammar::Grammar,
        run: interp::Run,
        seed: u64,
        best: &mut Option<Found>,
    ) {
        if run.word.len() > MAX_WORD || self.words.word_in(spec, &run.word) {
            return;
        }
        if self.refused.contains(&key(&run)) {
            return;
        }
        let shorter = |b: &Option<Found>| {
            b.as_ref()
                .is_none_or(|b| run.steps.len() < b.run.steps.len())
        };
        if !run.approximations.is_empty() || !run.opaque_decisions.is_empty() {
            if shorter(&self.possible) {
                self.possible = Some(Found { run, seed });
            }
        } else if shorter(best) {
            *best = Some(Found { run, seed });
        }
    }

    /// A shorter run with the same kind of outcome (completed, word outside the spec,
    /// nothing approximated), by delta debugging its decisions: each input that is
    /// `true` is tried `false` (a harness then skips a call), each other integer `0`, and
    /// each change that keeps a violation and shortens the run is kept. The decisions
    /// after a change are replayed as far as they fit, then drawn from the run's seed.
    pub(crate) fn shrink(
        &mut self,
        program: &Program,
        spec: &cfp_grammar::Grammar,
        mut found: Found,
    ) -> Found {
        let limits = Limits {
            max_steps: found.run.steps.len() + 16,
            max_depth: found.run.steps.iter().map(|s| s.depth).max().unwrap_or(0) + 8,
        };
        let mut tries = 0;
        let mut i = 0;
        while i < found.run.decisions.len() && tries < MAX_SHRINK_RUNS {
            // (The first decisions are the globals' initial values: kept.)
            let smaller = match found.run.decisions.get(i) {
                _ if i < program.globals.len() => None,
                Some(Decision::Value(Value::Bool(true))) => Some(Value::Bool(false)),
                Some(Decision::Value(Value::Int(v))) if *v != 0 => Some(Value::Int(0)),
                _ => None,
            };
            let Some(smaller) = smaller.map(Decision::Value) else {
                i += 1;
                continue;
            };
            tries += 1;
            let mut decisions = found.run.decisions.clone();
            decisions[i] = smaller;
            let choices = explore::Choices {
                prefix: &decisions,
                dense_refs: true,
                ..Default::default()
            };
            let run = explore::run_retrying(program, found.seed, 0, limits, choices);
            self.count(&run);
            match run.result {
                Ok(run)
                    if run.completed
                        && run.steps.len() < found.run.steps.len()
                        && run.approximations.is_empty()
                        && run.opaque_decisions.is_empty()
                        && !self.words.word_in(spec, &run.word) =>
                {
                    found.run = run;
                }
                _ => i += 1,
            }
        }
        found
    }

    /// The solver did not confirm this run's path: never offer it again.
    pub(crate) fn refuse(&mut self, run: &interp::Run) {
        self.stats.refused += 1;
        self.refused.insert(key(run));
    }
}

/// The edges of a path (calls at the caller), as a guide for the hunter's runs.
pub(crate) fn guide_of(steps: &[PathStep]) -> Guide {
    steps
        .iter()
        .filter_map(|s| match s.kind {
            StepKind::Intra { method, edge } | StepKind::Api { method, edge, .. } => {
                Some((method, edge.index()))
            }
            StepKind::Call { caller, edge, .. } => Some((caller, edge.index())),
            StepKind::Return { .. } => None,
        })
        .collect()
}

/// A run's executed edges as a nested path (returns inserted where the call depth drops);
/// `None` when a step names no edge of the program or is not instrumented.
pub(crate) fn path_of(program: &Program, run: &interp::Run) -> Option<Vec<PathStep>> {
    struct Open {
        index: usize,
        depth: usize,
        caller: MethodId,
        edge: EdgeIndex,
        callee: MethodId,
        span: cfp_syntax::Span,
    }
    let mut out: Vec<PathStep> = Vec::with_capacity(run.steps.len() + 8);
    let mut open: Vec<Open> = Vec::new();
    let close = |out: &mut Vec<PathStep>, c: Open| {
        out.push(PathStep {
            kind: StepKind::Return {
                caller: c.caller,
                edge: c.edge,
                callee: c.callee,
                call: c.index,
            },
            span: c.span,
            method: c.callee,
        });
    };
    for s in &run.steps {
        while open.last().is_some_and(|c| c.depth >= s.depth) {
            let c = open.pop()?;
            close(&mut out, c);
        }
        let edge = EdgeIndex::new(s.edge);
        let kind = match program.method(s.method)?.graph.edge_weight(edge)? {
            Edge::Block(_) => StepKind::Intra {
                method: s.method,
                edge,
            },
            Edge::Api { terminal, .. } => StepKind::Api {
                method: s.method,
                edge,
                terminal: *terminal,
            },
            Edge::Call { callee, .. } => {
                open.push(Open {
                    index: out.len(),
                    depth: s.depth,
                    caller: s.method,
                    edge,
                    callee: *callee,
                    span: s.span,
                });
                StepKind::Call {
                    caller: s.method,
                    edge,
                    callee: *callee,
                }
            }
            Edge::ApiCall { .. } => return None,
        };
        out.push(PathStep {
            kind,
            span: s.span,
            method: s.method,
        });
    }
    while let Some(c) = open.pop() {
        close(&mut out, c);
    }
    Some(out)
}

/// At most this many integers in [`guard_constants`].
const MAX_GUARD_CONSTANTS: usize = 64;

/// The integer constants the program's `assume`s compare with, and their neighbours
/// (`c - 1`, `c`, `c + 1`): thresholds such as `r > 15` that small random inputs never
/// pass. Sorted, the smallest magnitudes first, at most [`MAX_GUARD_CONSTANTS`].
fn guard_constants(program: &Program) -> Vec<i64> {
    fn collect(e: &crate::ir::Expr, out: &mut BTreeSet<i64>) {
        use crate::ir::Expr;
        match e {
            Expr::Int(c) => {
                for d in [-1, 0, 1] {
                    if let Some(v) = c.checked_add(d) {
                        out.insert(v);
                    }
                }
            }
            Expr::Unary { arg, .. } => collect(arg, out),
            Expr::Binary { lhs, rhs, .. } => {
                collect(lhs, out);
                collect(rhs, out);
            }
            Expr::Field { obj, .. } => collect(obj, out),
            _ => {}
        }
    }
    let mut found = BTreeSet::new();
    for m in &program.methods {
        for e in m.graph.edge_weights() {
            if let Edge::Block(stmts) = e {
                for s in stmts {
                    if let crate::ir::Stmt::Assume(c) = &s.node {
                        collect(c, &mut found);
                    }
                }
            }
        }
    }
    let mut ints: Vec<i64> = found.into_iter().collect();
    ints.sort_by_key(|v| (v.unsigned_abs(), *v));
    ints.truncate(MAX_GUARD_CONSTANTS);
    ints
}

impl<S: Solver> Checker<S> {
    /// One slice of the bug hunter; a confirmed violation ends the run.
    pub(super) async fn hunt(&mut self, it: u32, guide: Option<&Guide>) -> Result<(), Stop> {
        let first = self.hunter.slices == 0;
        self.hunt_slice(it, guide, first).await
    }

    /// One slice; a `full` one gets the floor budget that grows with the program.
    async fn hunt_slice(&mut self, it: u32, guide: Option<&Guide>, full: bool) -> Result<(), Stop> {
        if !self.opts.hunt || self.witness.is_some() {
            return Ok(());
        }
        let total = self.session.stats().queries;
        let queries = total.saturating_sub(self.hunter.queries_seen);
        self.hunter.queries_seen = total;
        let session = &self.session;
        let stop = || session.stop_if_cancelled().is_err();
        let found = self
            .hunter
            .slice(&self.program, &self.spec, guide, queries, full, &stop);
        // A slice the host stopped: the run ends here, as a solver call would.
        self.session
            .stop_if_cancelled()
            .map_err(|e| Stop::solver(e, "the bug hunter"))?;
        match found {
            Some(found) => {
                let found = self.hunter.shrink(&self.program, &self.spec, found);
                self.confirm(it, found, true).await
            }
            None => Ok(()),
        }
    }

    /// Before a run ends `unknown`: one more slice, then the closest possible violation
    /// the hunter met (a run through an approximation), reported as such.
    pub(super) async fn last_hunt(&mut self) -> Result<(), Stop> {
        let it = self.iteration;
        self.hunt_slice(it, None, true).await?;
        match self.hunter.possible.take() {
            Some(found) if self.opts.hunt && self.witness.is_none() => {
                self.confirm(it, found, false).await
            }
            _ => Ok(()),
        }
    }

    /// Checks a candidate's path with the solver and replays the model: a `certain` one
    /// must replay without approximation; either way a confirmed one ends the run
    /// through [`Checker::violation`] (`unknown` with the possible violation when the
    /// replay goes through an approximation).
    async fn confirm(&mut self, it: u32, found: Found, certain: bool) -> Result<(), Stop> {
        let Some(steps) = path_of(&self.program, &found.run) else {
            self.hunter.refuse(&found.run);
            return Ok(());
        };
        let plain = Trace {
            start: self.program.root,
            steps: steps.iter().map(|s| s.kind.trace_step()).collect(),
        };
        let enc = Encoder::with_tables(&self.program, self.tables.clone());
        let frontier = format!("the bug hunter's run {}", found.seed);
        let encoded = match crate::trace::encode_trace(&enc, &plain) {
            Ok(e) => e,
            Err(_) => {
                self.hunter.refuse(&found.run);
                return Ok(());
            }
        };
        // The run's own inputs as hints: the check is then an evaluation.
        let hints = concrete::run_hints(&self.program, &enc, &plain, &encoded, &found.run)
            .unwrap_or_default();
        let feas = match check_encoded(&mut self.session, &enc, &encoded, &hints).await {
            Ok(r) => r,
            Err(crate::feasibility::FeasibilityError::Solver(e)) => {
                return Err(Stop::solver(e, &frontier))
            }
            Err(_) => {
                self.hunter.refuse(&found.run);
                return Ok(());
            }
        };
        let feas = concrete::settle(&self.program, &enc, &plain, &encoded, feas);
        let Feasibility::Feasible(values) = feas else {
            self.hunter.refuse(&found.run);
            return Ok(());
        };
        let concrete =
            concrete::run_counterexample(&self.program, &enc, &plain, &encoded, &values.model);
        if certain
            && !concrete
                .as_ref()
                .is_ok_and(|r| r.approximations.is_empty() && r.opaque_decisions.is_empty())
        {
            self.hunter.refuse(&found.run);
            return Ok(());
        }
        self.hunter.stats.found = certain;
        let word = found.run.word.clone();
        let derivation = DerivationNode {
            production: Production {
                lhs: format!("<bug hunter run {}>", found.seed),
                rhs: word.clone(),
            },
            children: Vec::new(),
        };
        let (trace, replay) = self.announce_counterexample(it, &word, &derivation, &steps);
        Err(self.violation(
            it,
            word,
            derivation,
            trace,
            &values,
            replay,
            concrete,
            Engine::Hunter,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slice_budget_stays_within_the_cap_for_any_program() {
        let cap = usize::try_from(MAX_SLICE_EDGES).unwrap_or(usize::MAX);
        // A program of a million edges asks for more than the cap: the cap wins.
        assert_eq!(slice_budget(0, 1_000_000, true), cap);
        assert_eq!(slice_budget(u64::MAX, usize::MAX, true), cap);
        // A small program: the floor, then the queries spent.
        assert_eq!(
            slice_budget(0, 10, true),
            SLICE_EDGES + EDGES_PER_PROGRAM_EDGE * 10
        );
        assert_eq!(slice_budget(0, 10, false), LATER_SLICE_EDGES);
        assert_eq!(slice_budget(1_000, 10, false), 250_000);
    }

    #[test]
    fn a_stopped_host_ends_a_slice_before_its_next_run() {
        let program = crate::construct_cfg::tests::fig2();
        let spec = cfp_grammar::Grammar {
            terminals: Vec::new(),
            nonterminals: vec!["S".to_string()],
            productions: Vec::new(),
            start: cfp_grammar::NontermId(0),
        };
        let mut stopped = Hunter::default();
        assert!(stopped
            .slice(&program, &spec, None, 0, true, &|| true)
            .is_none());
        assert_eq!(stopped.stats.runs, 0);
        let mut running = Hunter::default();
        let _ = running.slice(&program, &spec, None, 0, true, &|| false);
        assert!(running.stats.runs > 0);
    }
}
