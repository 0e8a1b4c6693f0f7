//! The CEGAR driver (paper Fig. 11, ARCHITECTURE.md): ConstructCFG → inclusion →
//! counterexample → nested path → feasibility → interpolants → Refine → repeat.
//!
//! [`Checker::step`] runs one phase and returns its [`Event`]; [`Checker::run`] runs to
//! the end. No clocks: time limits come from the host through [`Checker::request_stop`]
//! or [`Checker::set_stop_hook`].

mod batch;
mod concrete;
mod evidence;
mod explore;
mod graphs;
mod hunt;
mod outcome;
mod predicate_names;
mod program_run;
mod recurrence;
mod story;
mod summary;
mod travel;
mod types;
mod vacuity;

pub use types::*;

use outcome::Stop;

use crate::call_check::call_formulas;
use crate::construct_cfg::{construct_cfg_until, CallQuery, CallWalk, ProgramGrammar};
use crate::encode::Encoder;
use crate::feasibility::{check_feasibility, Feasibility, Values};
use crate::ir::{MethodId, Program};
use crate::nested_path::{derivation_to_path, PathStep, StepKind};
use crate::pcfa::{PcfaEdgeId, Pcfas, StateId};
use crate::refinement::refine_path;
use cfp_grammar::InclusionResult;
use cfp_smt::{CheckSat, Session, SessionOptions, Solver, Term};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

/// A stop hook, polled between iterations and during inclusion checks: `Some(cause)`
/// stops the run, and the cause becomes the reason of its `unknown` verdict.
pub type StopHook = Box<dyn FnMut() -> Option<StopCause>>;

/// How many of rule (3)'s call questions ConstructCFG builds and sends at once.
const CALL_CHUNK: usize = 1024;

/// The CEGAR driver.
pub struct Checker<S: Solver> {
    program: Program,
    spec: cfp_grammar::Grammar,
    opts: CheckOptions,
    session: Session<S>,
    sources: Option<cfp_syntax::SourceSet>,
    pcfas: Pcfas,
    iteration: u32,
    stop: Option<StopCause>,
    stop_hook: Option<StopHook>,
    finished: Option<Verdict>,
    pending: VecDeque<Event>,
    stats: CheckStats,
    prev_grammar: Option<(BTreeSet<String>, BTreeSet<String>)>,
    seen: BTreeSet<(Vec<String>, Vec<ReplayEdge>)>,
    /// Paths whose refinement did not remove them, with what each strategy did.
    stalled: BTreeMap<(Vec<String>, Vec<ReplayEdge>), String>,
    ruled_out: Vec<RuledOut>,
    /// The previous iteration's PCFA views (what the next `grammar-built` compares with).
    pcfa_views: graphs::PcfaViews,
    /// `p1`, `p2`, … for the predicates met so far.
    predicate_names: predicate_names::PredicateNames,
    /// The encoder's program-wide tables, built once per run.
    tables: std::sync::Arc<crate::encode::EncoderTables>,
    /// Which predicates travelled to other methods (built on first use).
    travel: Option<crate::refinement::travel::Travel>,
    /// The abstraction before the last travelled predicates, and how many there were:
    /// taken back (with the refinements since) when a later spurious path cannot be
    /// refined away.
    travel_undo: Option<(Pcfas, u64)>,
    /// Set once travel was taken back: no more predicates travel in this run.
    travel_off: bool,
    /// The loops and recursive calls of the spurious paths, counted per path.
    recurrence: recurrence::Recurrence,
    /// Rule (3)'s answers of earlier rounds and iterations, by what they depend on.
    call_answers: HashMap<CallKey, bool>,
    /// After inclusion is proved: the proof, while the run looks for a completed
    /// execution (the abstraction's words are then the paths to check, [`vacuity`]).
    witness: Option<VerifiedCertificate>,
    /// The random runs of the vacuity check, once made.
    exploration: Option<vacuity::Exploration>,
    /// The bug hunter between refinements.
    hunter: hunt::Hunter,
}

impl<S: Solver> Checker<S> {
    /// A checker for the instrumented `program` against `spec`.
    pub fn new(
        program: Program,
        spec: cfp_grammar::Grammar,
        opts: CheckOptions,
        solver: S,
    ) -> Self {
        let session = Session::with_options(
            solver,
            SessionOptions {
                timeout_ms: opts.smt_timeout_ms,
            },
        );
        let pcfas = Pcfas::initial(&program);
        let tables = std::sync::Arc::new(crate::encode::EncoderTables::new(&program));
        Checker {
            program,
            spec,
            opts,
            session,
            sources: None,
            pcfas,
            iteration: 0,
            stop: None,
            stop_hook: None,
            finished: None,
            pending: VecDeque::new(),
            stats: CheckStats {
                strategies: crate::refinement::empty_stats(),
                ..CheckStats::default()
            },
            prev_grammar: None,
            seen: BTreeSet::new(),
            stalled: BTreeMap::new(),
            ruled_out: Vec::new(),
            pcfa_views: graphs::PcfaViews::default(),
            predicate_names: predicate_names::PredicateNames::default(),
            tables,
            travel: None,
            travel_undo: None,
            travel_off: false,
            recurrence: recurrence::Recurrence::default(),
            call_answers: HashMap::new(),
            witness: None,
            exploration: None,
            hunter: hunt::Hunter::default(),
        }
    }

    /// Attach the program's source text: trace lines then carry line numbers.
    pub fn with_source(self, text: impl Into<String>) -> Self {
        self.with_sources(cfp_syntax::SourceSet::single("", text))
    }

    /// Attach the program's source files (spans point into their combined text): trace
    /// lines then carry line numbers, and the file's name when there are several.
    pub fn with_sources(mut self, sources: cfp_syntax::SourceSet) -> Self {
        self.sources = Some(sources);
        self
    }

    /// The program being checked (a slice, when the host sliced it).
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// Number this run's iterations from `done + 1` on, with the iteration budget
    /// counting the `done` ones: a run that goes on from another's (the exact slice
    /// after a summarised one, [`crate::Run`]).
    pub fn after_iterations(mut self, done: u32) -> Self {
        self.iteration = done;
        self.stats.iterations = done;
        self
    }

    /// Ask the run to end (`unknown`, cancelled) at the next phase boundary.
    pub fn request_stop(&mut self) {
        self.stop.get_or_insert(StopCause::Cancelled);
    }

    /// Take the solver and the stop hook back (a run that goes on with another checker).
    pub fn into_parts(self) -> (S, Option<StopHook>) {
        (self.session.into_solver(), self.stop_hook)
    }

    /// Install a hook polled between iterations and during inclusion; a cause stops the run.
    pub fn set_stop_hook(&mut self, hook: StopHook) {
        self.stop_hook = Some(hook);
    }

    /// The verdict, once finished.
    pub fn verdict(&self) -> Option<&Verdict> {
        self.finished.as_ref()
    }

    /// The current abstraction.
    pub fn pcfas(&self) -> &Pcfas {
        &self.pcfas
    }

    /// Counters so far.
    pub fn stats(&self) -> CheckStats {
        let mut s = self.stats.clone();
        let ss = self.session.stats();
        s.smt_queries = ss.queries;
        s.smt_scripts = ss.scripts;
        s.smt_cache_hits = ss.cache_hits;
        s.smt_decided = ss.decided;
        s.hunter = self.hunter.stats.clone();
        let mut total = 0usize;
        let mut locs = 0usize;
        let mut max = 0usize;
        for p in &self.pcfas.methods {
            if let Some(cfa) = self.program.method(p.method) {
                for n in cfa.graph.node_indices() {
                    let k = p.predicates(n).len();
                    if k > 0 {
                        total += k;
                        locs += 1;
                        max = max.max(k);
                    }
                }
            }
        }
        s.total_predicates = total;
        s.predicates_per_location_max = max;
        s.predicates_per_location_avg = if locs == 0 {
            0.0
        } else {
            total as f64 / locs as f64
        };
        s
    }

    /// Why the run must stop, if it must (asks the hook until it says so once).
    fn stop_cause(&mut self) -> Option<StopCause> {
        if self.stop.is_none() {
            self.stop = self.stop_hook.as_mut().and_then(|h| h());
        }
        self.stop
    }

    fn finish(&mut self, verdict: Verdict) {
        self.pending.push_back(Event::Finished {
            verdict: verdict.clone(),
        });
        self.finished = Some(verdict);
    }

    fn unknown(&mut self, reason: UnknownReason, frontier: String) {
        let v = Verdict::Unknown {
            iterations: self.iteration,
            reason,
            report: ExecutionReport {
                ruled_out: self.ruled_out.clone(),
                frontier,
                possible_violation: None,
                recurring: self.recurring_sites(),
            },
        };
        self.finish(v);
    }

    /// Run one phase; `None` once the run has finished (after the `Finished` event).
    pub async fn step(&mut self) -> Option<Event> {
        if let Some(e) = self.pending.pop_front() {
            return Some(e);
        }
        if self.finished.is_some() {
            return None;
        }
        self.iterate().await;
        self.pending.pop_front()
    }

    /// Run to the end, handing every event to `on_event`; returns the verdict.
    pub async fn run(&mut self, on_event: &mut dyn FnMut(&Event)) -> Verdict {
        while let Some(e) = self.step().await {
            on_event(&e);
        }
        self.finished.clone().unwrap_or(Verdict::Unknown {
            iterations: self.iteration,
            reason: UnknownReason::Stopped {
                cause: self.stop.unwrap_or(StopCause::Cancelled),
            },
            report: ExecutionReport::default(),
        })
    }

    fn method_name(&self, m: MethodId) -> String {
        self.program
            .method(m)
            .map_or_else(|| format!("{m:?}"), |c| c.name.clone())
    }

    /// ConstructCFG with call feasibility decided in one batch.
    async fn build_grammar(&mut self) -> Result<ProgramGrammar, cfp_smt::SolverError> {
        type Key = (MethodId, PcfaEdgeId, MethodId, StateId, StateId);
        let key = |q: &CallQuery| (q.caller, q.edge.id, q.callee, q.callee_entry, q.callee_exit);
        // Rule (3)'s checks in rounds: a round walks the sub-grammars reachable with the
        // answers known so far (an unanswered call is not followed yet) and collects the
        // unanswered calls it reaches; they are checked in one batch. At the fixpoint every
        // call the grammar reaches is answered, and calls from unreachable sub-grammars are
        // never asked.
        let enc = Encoder::with_tables(&self.program, self.tables.clone());
        let mut feasible: BTreeMap<Key, bool> = BTreeMap::new();
        let mut walk = CallWalk::new(&self.program, &self.pcfas);
        loop {
            let queries: BTreeMap<Key, CallQuery> = walk
                .round(&|q| feasible.get(&key(q)).copied(), &|| {
                    self.session.stop_if_cancelled().is_err()
                })
                .ok_or(cfp_smt::SolverError::Cancelled)?
                .into_iter()
                .map(|q| (key(&q), q))
                .collect();
            if queries.is_empty() {
                break;
            }
            // In chunks of questions (their formulas can be large: few are alive at once,
            // and a run stopped midway drops little), each in two batches: the necessary
            // conditions (entry, exit; shared by many questions, deduplicated by the
            // session), then the whole question for the combinations that pass both.
            let queries: Vec<(Key, CallQuery)> = queries.into_iter().collect();
            for chunk in queries.chunks(CALL_CHUNK) {
                let mut formulas: Vec<(Key, crate::call_check::CallFormulas)> = Vec::new();
                let mut content: BTreeMap<Key, CallKey> = BTreeMap::new();
                for (k, q) in chunk {
                    self.session.stop_if_cancelled()?;
                    let ck = CallKey::of(&self.pcfas, q);
                    if let Some(b) = ck.as_ref().and_then(|c| self.call_answers.get(c)) {
                        feasible.insert(*k, *b);
                        continue;
                    }
                    if let Some(ck) = ck {
                        content.insert(*k, ck);
                    }
                    match call_formulas(&enc, &self.pcfas, q) {
                        Ok(f) => formulas.push((*k, f)),
                        // An encoding failure answers "feasible" (sound over-approximation).
                        Err(_) => {
                            feasible.insert(*k, true);
                        }
                    }
                }
                let necessary: Vec<cfp_smt::Term> = formulas
                    .iter()
                    .flat_map(|(_, f)| [f.entry.clone(), f.exit.clone()])
                    .collect();
                // (An empty batch sends nothing.)
                let answers = self.session.check_batch(&necessary).await?;
                let mut keys = Vec::new();
                let mut terms = Vec::new();
                for (i, (k, f)) in formulas.into_iter().enumerate() {
                    let entry_ok = !matches!(answers.get(2 * i), Some(CheckSat::Unsat));
                    let exit_ok = !matches!(answers.get(2 * i + 1), Some(CheckSat::Unsat));
                    if entry_ok && exit_ok {
                        keys.push(k);
                        terms.push(f.full);
                    } else {
                        feasible.insert(k, false);
                        if let Some(ck) = content.remove(&k) {
                            self.call_answers.insert(ck, false);
                        }
                    }
                }
                let answers = self.session.check_batch(&terms).await?;
                for (k, r) in keys.into_iter().zip(answers) {
                    let b = !matches!(r, CheckSat::Unsat);
                    feasible.insert(k, b);
                    if let Some(ck) = content.remove(&k) {
                        self.call_answers.insert(ck, b);
                    }
                }
            }
        }
        let session = &self.session;
        construct_cfg_until(
            &self.program,
            &self.pcfas,
            &mut |q| feasible.get(&key(q)).copied().unwrap_or(true),
            &|| session.stop_if_cancelled().is_err(),
        )
        .ok_or(cfp_smt::SolverError::Cancelled)
    }

    /// One CEGAR iteration (paper Fig. 11), queueing its events; a verdict or an
    /// `unknown` ends the run.
    async fn iterate(&mut self) {
        if let Err(stop) = self.iteration().await {
            match stop {
                Stop::Verdict(v) => self.finish(*v),
                // Inclusion was proved; whether an execution completes stays open.
                Stop::Unknown { .. } if self.witness.is_some() => {
                    if let Some(certificate) = self.witness.take() {
                        self.finish(Verdict::Verified {
                            iterations: self.iteration,
                            certificate,
                        });
                    }
                }
                Stop::Unknown {
                    mut reason,
                    frontier,
                } => {
                    // Before giving up, the bug hunter's last word.
                    if matches!(
                        reason,
                        UnknownReason::RefinementStalled { .. }
                            | UnknownReason::RepeatedCounterexample { .. }
                            | UnknownReason::MaxIterations { .. }
                            | UnknownReason::FeasibilityUnknown { .. }
                    ) {
                        match self.last_hunt().await {
                            Err(Stop::Verdict(v)) => return self.finish(*v),
                            Err(Stop::Unknown {
                                reason: r @ UnknownReason::Stopped { .. },
                                ..
                            }) => reason = r,
                            _ => {}
                        }
                    }
                    // A cancelled solver call or inclusion check: the hook says why.
                    match &mut reason {
                        UnknownReason::Stopped { cause } => {
                            *cause = self.stop_cause().unwrap_or(*cause);
                        }
                        UnknownReason::OutOfMemory { iteration } => *iteration = self.iteration,
                        _ => {}
                    }
                    self.unknown(reason, frontier)
                }
            }
        }
    }

    /// The body of [`Checker::iterate`]: `Ok` after a refinement, `Err` when the run ends.
    async fn iteration(&mut self) -> Result<(), Stop> {
        if let Some(cause) = self.stop_cause() {
            return Err(Stop::unknown(
                UnknownReason::Stopped { cause },
                format!("stopped before iteration {}", self.iteration + 1),
            ));
        }
        if self.iteration >= self.opts.max_iterations {
            let limit = self.opts.max_iterations;
            return Err(Stop::unknown(
                UnknownReason::MaxIterations { limit },
                format!("iteration {} was not started", limit + 1),
            ));
        }
        self.iteration += 1;
        self.stats.iterations = self.iteration;
        let it = self.iteration;
        // ConstructCFG.
        let pg = self
            .build_grammar()
            .await
            .map_err(|e| Stop::solver(e, "ConstructCFG"))?;
        let ev = self.grammar_event(&pg);
        self.pending.push_back(ev);
        // Inclusion.
        let cex = self.inclusion(&pg)?;
        let word = cex.word_names.clone();
        let derivation = DerivationNode::of(&pg.grammar, &cex.derivation);
        let nt =
            derivation_to_path(&self.program, &self.pcfas, &pg, &cex.derivation).map_err(|e| {
                Stop::unknown(
                    UnknownReason::Internal {
                        detail: e.to_string(),
                    },
                    format!("counterexample [{}]", word.join(" ")),
                )
            })?;
        let steps = nt.path_steps();
        let (trace, replay) = self.announce_counterexample(it, &word, &derivation, &steps);
        let frontier = format!(
            "counterexample [{}] along {}",
            word.join(" "),
            self.path_summary(&steps)
        );
        if !self.seen.insert((word.clone(), replay.clone())) {
            // Only a path whose refinement could not remove it comes back (see
            // `refinement::refine_path`).
            let attempts = self.stalled.remove(&(word.clone(), replay.clone()));
            return Err(Stop::unknown(
                match attempts {
                    Some(attempts) => UnknownReason::RefinementStalled { word, attempts },
                    None => UnknownReason::RepeatedCounterexample { word },
                },
                frontier,
            ));
        }
        // Feasibility.
        let enc = Encoder::with_tables(&self.program, self.tables.clone());
        let plain = nt.to_trace();
        let (encoded, feas) = check_feasibility(&mut self.session, &enc, &plain)
            .await
            .map_err(|e| match e {
                crate::feasibility::FeasibilityError::Solver(e) => Stop::solver(e, &frontier),
                other => Stop::unknown(
                    UnknownReason::Internal {
                        detail: other.to_string(),
                    },
                    frontier.clone(),
                ),
            })?;
        let feas = concrete::settle(&self.program, &enc, &plain, &encoded, feas);
        let core = match feas {
            Feasibility::Feasible(values) => {
                let concrete = concrete::run_counterexample(
                    &self.program,
                    &enc,
                    &plain,
                    &encoded,
                    &values.model,
                );
                return Err(self.violation(
                    it,
                    word,
                    derivation,
                    trace,
                    &values,
                    replay,
                    concrete,
                    Engine::Cegar,
                ));
            }
            Feasibility::Unknown(r) | Feasibility::Unconfirmed(_, r) => {
                self.pending.push_back(Event::Feasibility {
                    iteration: it,
                    feasible: FeasibilityOutcome::Unknown,
                    values: BTreeMap::new(),
                });
                return Err(Stop::unknown(
                    UnknownReason::FeasibilityUnknown { detail: r },
                    frontier,
                ));
            }
            Feasibility::Infeasible(core) => core,
        };
        self.pending.push_back(Event::Feasibility {
            iteration: it,
            feasible: FeasibilityOutcome::Infeasible,
            values: BTreeMap::new(),
        });
        self.recurrence.note(&self.program, it, &steps);
        self.ruled_out.push(RuledOut {
            iteration: it,
            word: word.clone(),
            path: self.path_summary(&steps),
        });
        // The bug hunter's slice, guided by the path the abstraction suspects.
        self.hunt(it, Some(&hunt::guide_of(&steps))).await?;
        let enc = Encoder::with_tables(&self.program, self.tables.clone());
        // Refinement: the portfolio, until the path is provably gone.
        let snapshot = (self.opts.counterexamples_per_iteration > 1).then(|| self.pcfas.clone());
        let ropts = self.refinement_options();
        let mut refined = refine_path(
            &mut self.session,
            &enc,
            &mut self.pcfas,
            &nt,
            &encoded,
            &core,
            &ropts,
            &mut self.stats.strategies,
        )
        .await
        .map_err(|e| Stop::solver(e, &frontier))?;
        // More counterexamples of the same grammar, refined in the same round.
        let mut batch = batch::BatchOutcome::default();
        if refined.kept.is_some() {
            if let Some(snapshot) = &snapshot {
                let first = batch::touched_methods(&refined);
                batch = self.batch(&pg, snapshot, first).await?;
            }
        }
        let mut also_refuted = Vec::new();
        for (ruled, r) in std::mem::take(&mut batch.refuted) {
            for (k, atoms) in r.psi {
                let entry = refined.psi.entry(k).or_default();
                for a in atoms {
                    if !entry.contains(&a) {
                        entry.push(a);
                    }
                }
            }
            refined.outcome.absorb(r.outcome);
            also_refuted.push(ruled);
        }
        // Travel (`travel.rs`): taken back when this path stayed, else applied.
        if refined.kept.is_none() || refined.path_stays {
            if let Some((before, added)) = self.travel_undo.take() {
                self.take_back_travel(it, before, added, refined.attempts);
                return Ok(());
            }
        }
        self.travel(&mut refined, &frontier).await?;
        let mut introduced = Vec::new();
        let per_location = refined
            .psi
            .iter()
            .map(|((m, loc), atoms)| {
                let formulas: Vec<Term> = atoms
                    .iter()
                    .map(|a| self.session.macros().expand(a))
                    .collect();
                LocationAtoms {
                    method: self.method_name(*m),
                    location: loc.index(),
                    atoms: formulas.iter().map(Term::to_string).collect(),
                    names: formulas
                        .iter()
                        .map(|t| self.predicate_names.name(t, &mut introduced))
                        .collect(),
                }
            })
            .collect();
        self.pending.push_back(Event::Interpolants {
            iteration: it,
            per_location,
            predicates: introduced,
            strategy: refined.kept.map(|s| s.name().to_string()),
            attempts: refined.attempts.clone(),
        });
        let attempts = refined
            .attempts
            .iter()
            .map(|a| format!("{}: {}", a.strategy.name(), attempt_text(&a.result)))
            .collect::<Vec<_>>()
            .join("; ");
        if refined.kept.is_none() {
            return Err(Stop::unknown(
                UnknownReason::RefinementStalled { word, attempts },
                frontier,
            ));
        }
        if refined.path_stays {
            self.stalled.insert((word, replay), attempts);
        }
        let out = refined.outcome;
        self.stats.refinements += 1;
        self.pending.push_back(Event::Refined {
            iteration: it,
            clones_added: out
                .clones_added
                .iter()
                .map(|(m, s)| StateRefOut {
                    method: self.method_name(*m),
                    state: s.index(),
                })
                .collect(),
            edges_removed: out
                .edges_removed
                .iter()
                .map(|(m, e)| EdgeRefOut {
                    method: self.method_name(*m),
                    edge: e.id.index(),
                    from: e.from.index(),
                    to: e.to.index(),
                })
                .collect(),
            predicates_added: out.predicates_added,
            also_refuted,
        });
        self.pcfa_views
            .refined(&out.clones_added, &out.edges_removed);
        if let Some(v) = batch.violation {
            self.pending.push_back(Event::Counterexample {
                iteration: it,
                word: v.word.clone(),
                derivation: v.derivation.clone(),
                trace: v.trace.clone(),
            });
            return Err(self.violation(
                it,
                v.word,
                v.derivation,
                v.trace,
                &v.values,
                v.replay,
                v.concrete,
                Engine::Cegar,
            ));
        }
        Ok(())
    }
}

/// A strategy attempt in an `unknown` reason.
fn attempt_text(r: &crate::refinement::AttemptResult) -> String {
    use crate::refinement::AttemptResult;
    match r {
        AttemptResult::Refuted => "removed the path".into(),
        AttemptResult::NoProgress => "the path stayed".into(),
        AttemptResult::NoNewPredicates => "no new predicates".into(),
        AttemptResult::Failed { reason } => reason.clone(),
    }
}

#[cfg(test)]
mod tests;

/// What rule (3)'s answer for a call depends on: the caller, the CFA call edge (its
/// arguments and result), the callee, and the predicates of the four states (the caller's
/// around the call, the callee's entry and exit). Refinement renumbers and clones states;
/// a state with the same predicates asks the same question, so the answer is reused.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct CallKey {
    caller: MethodId,
    edge: petgraph::graph::EdgeIndex,
    callee: MethodId,
    states: [Term; 4],
}

impl CallKey {
    fn of(pcfas: &Pcfas, q: &CallQuery) -> Option<CallKey> {
        let caller = pcfas.method(q.caller)?;
        let callee = pcfas.method(q.callee)?;
        Some(CallKey {
            caller: q.caller,
            edge: q.edge.cfa_edge,
            callee: q.callee,
            states: [
                caller.state_formula(q.edge.from),
                caller.state_formula(q.edge.to),
                callee.state_formula(q.callee_entry),
                callee.state_formula(q.callee_exit),
            ],
        })
    }
}
