//! The shape of `cfp check --json`'s result object, shared by every host (the CLI prints it,
//! the web playground returns it from `check_json` and in its worker's `done` message).
//!
//! Field order is part of the contract (ARCHITECTURE.md "CLI contract"):
//! ```text
//! {"verdict", "iterations", "counterexample"?, "reason"?, "reason_kind"?, "report"?, "stats"}
//! ```
//! The types are `Serialize + Deserialize`: the CLI prints them, the worker sends them and
//! the page (and a share link's recording) reads them back as the same types. Fields added
//! after the first recordings are `#[serde(default)]`. This module does no I/O and reads
//! no clock: the host passes its wall-clock measurements in [`TimingsMs`] (or none, as
//! `--no-timing`).

use crate::check::{CheckStats, ExecutionReport, ReasonKind, Verdict};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Wall-clock measurements of a run, in milliseconds (rounded to microseconds by the host).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimingsMs {
    /// Whole run.
    pub total: f64,
    /// Outside the SMT solver: ConstructCFG, inclusion and bookkeeping.
    pub grammar_and_inclusion: f64,
    /// Inside the SMT solver.
    pub smt: f64,
}

/// The `stats` object (paper Table 2 columns plus SMT counters).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct StatsJson {
    /// CEGAR iterations (the paper's "steps").
    pub steps: u32,
    /// Refinements done.
    pub refinements: u32,
    /// Predicates tried in other methods than the one that learned them and kept.
    pub travelled: u64,
    /// Times travelled predicates were taken back (the next path could not be refined
    /// away on the abstraction they made); travel then stops for the run.
    pub travel_rollbacks: u32,
    /// Predicates over all locations of the final abstraction.
    pub total_predicates: usize,
    /// Average predicates per location that has any (two decimals).
    pub predicates_per_block_avg: f64,
    /// Most predicates at one location.
    pub predicates_per_block_max: usize,
    /// Inclusion checks run.
    pub inclusion_queries: u64,
    /// Steps of the inclusion engine.
    pub inclusion_steps: u64,
    /// SMT queries asked.
    pub smt_queries: u64,
    /// SMT scripts sent.
    pub smt_scripts: u64,
    /// SMT queries answered from the memo cache.
    pub smt_cache_hits: u64,
    /// SMT queries decided without the solver (a conjunct and its negation: unsat).
    #[serde(default)]
    pub smt_decided: u64,
    /// Whole run (absent without timings).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<f64>,
    /// Outside the solver (absent without timings).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grammar_and_inclusion_ms: Option<f64>,
    /// Inside the solver (absent without timings).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub smt_ms: Option<f64>,
    /// Per refinement strategy: paths tried and refuted, SMT queries, predicates kept and
    /// (with timings) milliseconds.
    pub strategies: Vec<StrategyJson>,
    /// What the slice the verdict comes from kept (absent when not sliced).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slice: Option<crate::slice::SliceStats>,
    /// Iterations on a summarised slice before its violation went to the exact slice.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub summarised_iterations: u32,
    /// The program's size: files, lines, classes, methods, those reached.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<crate::check::ProgramStats>,
    /// The bug hunter's slices, runs and finds.
    #[serde(default)]
    pub hunter: crate::check::HuntStats,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// One strategy's counters in the `stats` object.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct StrategyJson {
    /// `wp`, `horn`, `sp`, `path-facts` or `union`.
    pub strategy: String,
    /// Spurious paths it was tried on.
    pub tried: u32,
    /// Paths its predicates removed from the abstraction.
    pub refuted: u32,
    /// SMT queries it caused.
    pub queries: u64,
    /// Predicates it added.
    pub predicates: u64,
    /// Milliseconds (absent without timings).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<f64>,
}

impl StatsJson {
    /// The same object with each strategy's time (from the solver host's clock, `s`'s
    /// counters) even though no overall timings are given: what a page shows, where the
    /// CLI's `--no-timing` output must stay byte-identical across runs.
    pub fn with_strategy_times(mut self, s: &CheckStats) -> Self {
        for (j, st) in self.strategies.iter_mut().zip(&s.strategies) {
            j.time_ms = st.time_ms.map(|t| (t * 1e3).round() / 1e3);
        }
        self
    }

    /// The stats object of a run with counters `s`, with `timings` when the host has them.
    pub fn new(s: &CheckStats, timings: Option<TimingsMs>) -> Self {
        StatsJson {
            steps: s.iterations,
            refinements: s.refinements,
            travelled: s.travelled,
            travel_rollbacks: s.travel_rollbacks,
            total_predicates: s.total_predicates,
            predicates_per_block_avg: (s.predicates_per_location_avg * 100.0).round() / 100.0,
            predicates_per_block_max: s.predicates_per_location_max,
            inclusion_queries: s.inclusion_queries,
            inclusion_steps: s.inclusion_steps,
            smt_queries: s.smt_queries,
            smt_scripts: s.smt_scripts,
            smt_cache_hits: s.smt_cache_hits,
            smt_decided: s.smt_decided,
            time_ms: timings.map(|t| t.total),
            grammar_and_inclusion_ms: timings.map(|t| t.grammar_and_inclusion),
            smt_ms: timings.map(|t| t.smt),
            strategies: s
                .strategies
                .iter()
                .map(|st| StrategyJson {
                    strategy: st.strategy.clone(),
                    tried: st.tried,
                    refuted: st.refuted,
                    queries: st.queries,
                    predicates: st.predicates,
                    time_ms: timings.and(st.time_ms).map(|t| (t * 1e3).round() / 1e3),
                })
                .collect(),
            slice: s.slice,
            summarised_iterations: s.summarised_iterations,
            program: s.program,
            hunter: s.hunter.clone(),
        }
    }
}

/// One trace line of the counterexample object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceJson {
    /// The line's file, when the program has several.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// 1-based line of its file (0: none).
    #[serde(default)]
    pub line: u32,
    /// What the step does.
    pub text: String,
    /// Call depth.
    #[serde(default)]
    pub depth: usize,
}

/// What the concrete interpreter needs to replay a counterexample.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayJson {
    /// `[method, edge]` pairs in order.
    #[serde(default)]
    pub edges: Vec<[usize; 2]>,
    /// Initial values of the wildcard globals.
    #[serde(default)]
    pub globals: Vec<Option<i64>>,
}

/// The `counterexample` object of a violation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CounterexampleJson {
    /// What went wrong, in one sentence of the program's terms.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub summary: String,
    /// The word (terminals as in the spec).
    #[serde(default)]
    pub word: Vec<String>,
    /// The nested path.
    #[serde(default)]
    pub trace: Vec<TraceJson>,
    /// Concrete values.
    #[serde(default)]
    pub values: BTreeMap<String, String>,
    /// The derivation over the program grammar, rendered (one production a line, two
    /// spaces of indentation per level).
    #[serde(default)]
    pub derivation: String,
    /// Replay data.
    #[serde(default)]
    pub replay: ReplayJson,
    /// The engine that found it: `cegar` or `hunter`.
    #[serde(default)]
    pub found_by: crate::check::Engine,
    /// The run line by line in the program's words (absent when it cannot be told).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub story: Vec<crate::check::StoryRow>,
}

/// The three verdicts, as the result object names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VerdictName {
    /// Every completed execution follows the protocol.
    Verified,
    /// A real counterexample.
    Violation,
    /// Undecided.
    Unknown,
}

impl VerdictName {
    /// `verified`, `violation` or `unknown`.
    pub fn as_str(self) -> &'static str {
        match self {
            VerdictName::Verified => "verified",
            VerdictName::Violation => "violation",
            VerdictName::Unknown => "unknown",
        }
    }

    /// The name of `v`.
    pub fn of(v: &Verdict) -> VerdictName {
        match v {
            Verdict::Verified { .. } => VerdictName::Verified,
            Verdict::Violation { .. } => VerdictName::Violation,
            Verdict::Unknown { .. } => VerdictName::Unknown,
        }
    }
}

/// The whole result object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultJson {
    /// `verified` / `violation` / `unknown`.
    pub verdict: VerdictName,
    /// CEGAR iterations.
    #[serde(default)]
    pub iterations: u32,
    /// Present for a violation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counterexample: Option<CounterexampleJson>,
    /// Present when unknown: why, for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Present when unknown: why, for scripts
    /// (`budget|timeout|cancelled|solver|memory|approximation|undecided`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason_kind: Option<ReasonKind>,
    /// Present when unknown: what was ruled out and the frontier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<ExecutionReport>,
    /// Counters (and times).
    #[serde(default)]
    pub stats: StatsJson,
}

impl ResultJson {
    /// The result object of verdict `v`.
    pub fn new(v: &Verdict, stats: StatsJson) -> Self {
        let mut r = ResultJson {
            verdict: VerdictName::of(v),
            iterations: v.iterations(),
            counterexample: None,
            reason: None,
            reason_kind: None,
            report: None,
            stats,
        };
        match v {
            Verdict::Verified { .. } => {}
            Verdict::Violation { counterexample, .. } => {
                let c = counterexample;
                r.counterexample = Some(CounterexampleJson {
                    summary: c.summary.text.clone(),
                    word: c.word.clone(),
                    trace: c
                        .trace
                        .iter()
                        .map(|t| TraceJson {
                            file: t.file.clone(),
                            line: t.line,
                            text: t.text.clone(),
                            depth: t.depth,
                        })
                        .collect(),
                    values: c.values.clone(),
                    derivation: c.derivation.text(),
                    replay: ReplayJson {
                        edges: c.replay_edges.iter().map(|e| [e.method, e.edge]).collect(),
                        globals: c.replay_globals.clone(),
                    },
                    found_by: c.found_by,
                    story: c.story.clone(),
                });
            }
            Verdict::Unknown { reason, report, .. } => {
                r.reason = Some(reason.to_string());
                r.reason_kind = Some(reason.kind());
                r.report = Some(report.clone());
            }
        }
        r
    }
}
