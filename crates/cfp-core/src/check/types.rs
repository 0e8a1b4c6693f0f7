//! Public types of the CEGAR driver (ARCHITECTURE.md "Verdicts", "Events"): options,
//! events (one per phase of Fig. 11), verdicts with their evidence, statistics.
//!
//! Everything here is `Serialize + Deserialize`: these types are the protocol between the
//! core and its hosts — the CLI's `--record`, the page's worker messages and share-link
//! recordings all carry exactly them. Enums are internally tagged (`"kind"`) with
//! kebab-case names. Fields added since the first recordings are `#[serde(default)]`, and
//! a derivation recorded as text still reads ([`DerivationNode`]), so old recordings open.

pub use super::graphs::{DerivationNode, PcfaEdgeView, PcfaStateView, PcfaView, Production};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod unknown;
pub use unknown::*;

/// Limits of one `check` run. Time limits are the host's business (see
/// [`crate::check::Checker::request_stop`] and the stop hook).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckOptions {
    /// CEGAR iterations (ConstructCFG + inclusion) before `Unknown(MaxIterations)`.
    pub max_iterations: u32,
    /// Budget of each inclusion check.
    pub inclusion: cfp_grammar::InclusionOptions,
    /// Timeout of each SMT script, when the backend supports one.
    pub smt_timeout_ms: Option<u64>,
    /// The refinement portfolio and its limits.
    pub refinement: crate::refinement::RefinementOptions,
    /// Spurious counterexamples refined per iteration, at most (see
    /// [`crate::check`]'s batches): 1 refines one per ConstructCFG, as the paper.
    pub counterexamples_per_iteration: u32,
    /// How the program is sliced before the loop (paper §6); `None`: not sliced.
    pub slice: Option<crate::slice::SliceMode>,
    /// Run the bug hunter between refinements (random concrete runs looking for a
    /// violation; it can only ever answer `violation`).
    pub hunt: bool,
    /// Events carry what a viewer draws: [`Event::GrammarBuilt`]'s grammar text, rules,
    /// diff and PCFA views. Without it they are left empty (counts stay), which saves
    /// rendering the whole grammar every iteration for hosts that show only progress.
    pub views: bool,
}

/// The default of [`CheckOptions::counterexamples_per_iteration`].
pub const DEFAULT_COUNTEREXAMPLES_PER_ITERATION: u32 = 32;

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            max_iterations: 50,
            inclusion: cfp_grammar::InclusionOptions::default(),
            smt_timeout_ms: None,
            refinement: crate::refinement::RefinementOptions::default(),
            counterexamples_per_iteration: DEFAULT_COUNTEREXAMPLES_PER_ITERATION,
            slice: Some(crate::slice::SliceMode::default()),
            hunt: true,
            views: true,
        }
    }
}

/// One line of a (nested) counterexample trace, as shown to users.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceLine {
    /// The file of the line, when the program has several (`cfp check src/ models/`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// 1-based line of its file (0 when the step has no source position).
    #[serde(default)]
    pub line: u32,
    /// What the step does (`l.lock()`, `assume x > 0`, `call acquire`, `return`, ...).
    pub text: String,
    /// Call depth (0 = the entry method).
    #[serde(default)]
    pub depth: usize,
    /// The method the step belongs to.
    #[serde(default)]
    pub method: String,
}

/// What changed between the previous program grammar and this one (by rendered text).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GrammarDiff {
    /// Nonterminals new in this iteration.
    pub added_nonterminals: Vec<String>,
    /// Productions present before and gone now (rendered `A -> B c`).
    pub removed_productions: Vec<String>,
    /// Productions new in this iteration.
    pub added_productions: Vec<String>,
}

/// The answer of one inclusion check, as a string tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InclusionOutcome {
    /// L(G_P) ⊆ L(G_S).
    Included,
    /// A word of L(G_P) outside L(G_S).
    NotIncluded,
    /// Undecided.
    Unknown,
}

/// Feasibility of a counterexample path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FeasibilityOutcome {
    /// A real execution (bug).
    Feasible,
    /// Spurious.
    Infeasible,
    /// Undecided.
    Unknown,
}

/// Interpolant atoms at one location (a trace position's PCFA state's CFA location).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocationAtoms {
    /// The method.
    pub method: String,
    /// The CFA location (node index).
    pub location: usize,
    /// The atoms, printed as SMT-LIB terms.
    pub atoms: Vec<String>,
    /// Their names (`p1`, …; defined by [`Event::Interpolants`]' `predicates`), in the
    /// order of `atoms` (empty in recordings made before predicates were named).
    #[serde(default)]
    pub names: Vec<String>,
}

/// A predicate of the abstraction, named once for the whole run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamedPredicate {
    /// `p1`, `p2`, … in the order the run first met the formulas.
    pub name: String,
    /// The formula (SMT-LIB).
    pub smt: String,
    /// The formula as readable infix text (`l == $1`).
    pub text: String,
}

/// A PCFA state created by CloneStates.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateRefOut {
    /// The method.
    pub method: String,
    /// The new state's index.
    pub state: usize,
}

/// A PCFA edge removed by UpdateTransitions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EdgeRefOut {
    /// The method.
    pub method: String,
    /// The edge's id (absent in recordings made before edges were named).
    #[serde(default)]
    pub edge: usize,
    /// Source state index.
    pub from: usize,
    /// Target state index.
    pub to: usize,
}

/// One step of the CEGAR loop (paper Fig. 11), with what a UI needs to draw it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Event {
    /// ConstructCFG produced the program grammar G_P.
    GrammarBuilt {
        /// 1-based iteration.
        iteration: u32,
        /// The grammar, rendered.
        grammar: String,
        /// Number of nonterminals.
        #[serde(default)]
        nonterminals: usize,
        /// Number of productions.
        #[serde(default)]
        productions: usize,
        /// Change since the previous iteration.
        #[serde(default)]
        diff: GrammarDiff,
        /// The productions, in the grammar's order.
        #[serde(default)]
        rules: Vec<Production>,
        /// Every method's PCFA as ConstructCFG read it, with the states cloned and the
        /// edges removed by the refinement before this iteration.
        #[serde(default)]
        pcfas: Vec<PcfaView>,
    },
    /// The inclusion check L(G_P) ⊆ L(G_S) answered.
    Inclusion {
        /// Iteration.
        iteration: u32,
        /// `included` / `not-included` / `unknown`.
        result: InclusionOutcome,
        /// The counterexample word, when not included.
        #[serde(default)]
        word: Option<Vec<String>>,
    },
    /// The counterexample as a derivation and a nested path.
    Counterexample {
        /// Iteration.
        iteration: u32,
        /// The word.
        #[serde(default)]
        word: Vec<String>,
        /// The derivation over G_P.
        #[serde(default)]
        derivation: DerivationNode,
        /// The nested path.
        #[serde(default)]
        trace: Vec<TraceLine>,
    },
    /// The path's feasibility.
    Feasibility {
        /// Iteration.
        iteration: u32,
        /// Feasible / infeasible / unknown.
        feasible: FeasibilityOutcome,
        /// Concrete values when feasible (`name -> value`).
        #[serde(default)]
        values: BTreeMap<String, String>,
    },
    /// The predicates that refine a spurious path away, per location.
    Interpolants {
        /// Iteration.
        iteration: u32,
        /// Atoms grouped by (method, location).
        #[serde(default)]
        per_location: Vec<LocationAtoms>,
        /// The predicates first met in this iteration, defining their names.
        #[serde(default)]
        predicates: Vec<NamedPredicate>,
        /// The strategy that produced them (`wp`, `horn`, `sp`, `path-facts`, `union`).
        #[serde(default)]
        strategy: Option<String>,
        /// Every strategy tried on the path, and what it did.
        #[serde(default)]
        attempts: Vec<crate::refinement::Attempt>,
    },
    /// The PCFAs were refined.
    Refined {
        /// Iteration.
        iteration: u32,
        /// States created.
        #[serde(default)]
        clones_added: Vec<StateRefOut>,
        /// Edges removed.
        #[serde(default)]
        edges_removed: Vec<EdgeRefOut>,
        /// New predicates added (over all locations).
        #[serde(default)]
        predicates_added: usize,
        /// The further spurious counterexamples of this iteration's batch, refined in
        /// the same round (the first is the `counterexample` event's).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        also_refuted: Vec<RuledOut>,
    },
    /// The run ended.
    Finished {
        /// The verdict.
        verdict: Verdict,
    },
}

/// Predicates of one CFA location in the final abstraction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocationPredicates {
    /// The method.
    pub method: String,
    /// The CFA location.
    pub location: usize,
    /// The predicates (SMT-LIB).
    pub predicates: Vec<String>,
    /// Their names (see [`NamedPredicate`]), in the order of `predicates`.
    #[serde(default)]
    pub names: Vec<String>,
}

/// Evidence of a `verified` verdict: the final grammar (included in the spec) and the
/// abstraction's predicates.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerifiedCertificate {
    /// The final program grammar, rendered.
    #[serde(default)]
    pub grammar: String,
    /// Predicates per location.
    #[serde(default)]
    pub predicates: Vec<LocationPredicates>,
}

/// One executed CFA edge of a violation, for replay with [`crate::interp::PathOracle`].
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ReplayEdge {
    /// Method index ([`crate::ir::MethodId`]'s index).
    pub method: usize,
    /// Graph edge index in that method's CFA.
    pub edge: usize,
}

/// A real counterexample.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violation {
    /// The word outside the spec.
    pub word: Vec<String>,
    /// Its derivation over G_P.
    pub derivation: DerivationNode,
    /// The nested path.
    pub trace: Vec<TraceLine>,
    /// Concrete values from the model (`$1 -> 3`, `step 4: x -> 1`, ...).
    pub values: BTreeMap<String, String>,
    /// The executed edges, calls included, returns implicit (for `PathOracle`).
    pub replay_edges: Vec<ReplayEdge>,
    /// Initial value of every global in `Program::globals` order (wildcards' objects
    /// first among them), as far as the model fixes them.
    pub replay_globals: Vec<Option<i64>>,
    /// What went wrong, in the program's terms (empty in recordings made before).
    #[serde(default)]
    pub summary: ViolationSummary,
    /// The engine that found it.
    #[serde(default)]
    pub found_by: Engine,
    /// The run told line by line in the program's words (empty when its edges do not
    /// fit the program, and in recordings made before).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub story: Vec<StoryRow>,
}

/// One row of a violation's story: a source line the run executes (consecutive steps on
/// the same line are one row), with what decides its branch and the events it makes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoryRow {
    /// Call depth (0: the outermost method with source lines).
    pub depth: u32,
    /// The file, when the program has several.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The line (1-based).
    pub line: u32,
    /// The method.
    pub method: String,
    /// The line's code, trimmed (empty when the source is not at hand).
    pub code: String,
    /// Values of the line's variables as it runs (`amount = 101`), where the solver's
    /// model has them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
    /// The protocol events it makes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<String>,
    /// It leaves its method (a `return` statement).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub returns: bool,
    /// A loop folded: the `rows` rows from this one are one pass, run `times` times in a
    /// row (0: not folded).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub times: u32,
    /// See [`StoryRow::times`].
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rows: u32,
    /// It makes the call the summary names (out of place, or left unfinished).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub call: bool,
    /// The run leaves the protocol unfinished here (the summary's exit).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exit: bool,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A violation in one sentence, with the source lines to look at.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViolationSummary {
    /// The sentence (`l.lock()` at line 8 (Main.process) is never followed by …).
    pub text: String,
    /// The line of the call that breaks the protocol, or of the last call before the run
    /// ends too early (0: none).
    #[serde(default)]
    pub call_line: u32,
    /// The file of `call_line`, when the program has several.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_file: Option<String>,
    /// The method making that call.
    #[serde(default)]
    pub method: String,
    /// Where the run leaves the protocol unfinished, when it ends too early (0: the
    /// violation is a call out of place): the `return` (or last line) of the method that
    /// could have finished it, or the program's last line.
    #[serde(default)]
    pub exit_line: u32,
    /// The file of `exit_line`, when the program has several and it is not `call_file`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_file: Option<String>,
}

impl CheckStats {
    /// Add the counters of an earlier run that this one went on from (the summarised
    /// slice's, [`crate::Run`]): queries, steps, scripts, refinements, strategies. The
    /// iterations and predicates are this run's own (they count on from the earlier
    /// run's, and describe the final abstraction).
    pub fn add_earlier(&mut self, earlier: &CheckStats) {
        self.inclusion_queries += earlier.inclusion_queries;
        self.inclusion_steps += earlier.inclusion_steps;
        self.smt_queries += earlier.smt_queries;
        self.smt_scripts += earlier.smt_scripts;
        self.smt_cache_hits += earlier.smt_cache_hits;
        self.smt_decided += earlier.smt_decided;
        self.refinements += earlier.refinements;
        self.travelled += earlier.travelled;
        self.travel_rollbacks += earlier.travel_rollbacks;
        for e in &earlier.strategies {
            match self
                .strategies
                .iter_mut()
                .find(|s| s.strategy == e.strategy)
            {
                Some(s) => s.add(e),
                None => self.strategies.push(e.clone()),
            }
        }
    }
}

/// The result of a run. Serialises with `"verdict": "verified" | "violation" | "unknown"`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Verdict {
    /// L(G_P) ⊆ L(G_S) for the final abstraction.
    Verified {
        /// Iterations used.
        iterations: u32,
        /// Why.
        #[serde(default)]
        certificate: VerifiedCertificate,
    },
    /// A feasible execution producing a word outside the spec.
    Violation {
        /// Iterations used.
        iterations: u32,
        /// The counterexample.
        counterexample: Violation,
    },
    /// Neither.
    Unknown {
        /// Iterations used.
        iterations: u32,
        /// Why (typed).
        reason: UnknownReason,
        /// What was established.
        #[serde(default)]
        report: ExecutionReport,
    },
}

impl Verdict {
    /// `"verified"`, `"violation"` or `"unknown"`.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Verified { .. } => "verified",
            Verdict::Violation { .. } => "violation",
            Verdict::Unknown { .. } => "unknown",
        }
    }

    /// Iterations used.
    pub fn iterations(&self) -> u32 {
        match self {
            Verdict::Verified { iterations, .. }
            | Verdict::Violation { iterations, .. }
            | Verdict::Unknown { iterations, .. } => *iterations,
        }
    }

    /// CLI exit code of ARCHITECTURE.md: 0 verified, 1 violation, 2 unknown.
    pub fn exit_code(&self) -> i32 {
        match self {
            Verdict::Verified { .. } => 0,
            Verdict::Violation { .. } => 1,
            Verdict::Unknown { .. } => 2,
        }
    }
}

/// The size of a checked program (`--stats`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramStats {
    /// The files given (library models and harnesses not counted).
    pub files: usize,
    /// Their lines.
    pub lines: usize,
    /// Classes of the program (models, harness and closure classes included).
    pub classes: usize,
    /// Methods with code, synthetic ones (initialisers, closures, the root) included.
    pub methods: usize,
    /// Of those, the ones the root reaches through calls.
    pub reachable_methods: usize,
}

impl ProgramStats {
    /// The figures of `program`, read from `sources`.
    pub fn of(program: &crate::Program, sources: &cfp_syntax::SourceSet) -> ProgramStats {
        let given: Vec<usize> = (0..sources.files().len())
            .filter(|&i| !sources.is_generated(i))
            .collect();
        let with_code = |m: &&crate::ir::MethodCfa| !m.is_abstract;
        let reachable = crate::lower::reachable_methods(&program.methods);
        ProgramStats {
            files: given.len(),
            lines: given
                .iter()
                .map(|&i| sources.file_text(i).lines().count())
                .sum(),
            classes: program.classes.len(),
            methods: program.methods.iter().filter(with_code).count(),
            reachable_methods: program
                .methods
                .iter()
                .filter(with_code)
                .filter(|m| reachable.get(m.id.index()).copied().unwrap_or(false))
                .count(),
        }
    }

    /// One line: `3 files, 120 lines; 7 classes, 25 methods (12 reached)`.
    pub fn summary(&self) -> String {
        format!(
            "{} file(s), {} lines; {} classes, {} methods ({} reached from the entry)",
            self.files, self.lines, self.classes, self.methods, self.reachable_methods
        )
    }
}

/// Counters of a run (paper Table 2 columns; times are measured by the host).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CheckStats {
    /// CEGAR iterations started.
    pub iterations: u32,
    /// Inclusion checks run.
    pub inclusion_queries: u64,
    /// Inclusion saturation steps over all checks (from progress reports).
    pub inclusion_steps: u64,
    /// SMT queries (check-sat) issued.
    pub smt_queries: u64,
    /// SMT scripts sent to the solver.
    pub smt_scripts: u64,
    /// Memoised answers reused.
    pub smt_cache_hits: u64,
    /// Queries decided without the solver (a conjunct and its negation).
    #[serde(default)]
    pub smt_decided: u64,
    /// Predicates over all locations.
    pub total_predicates: usize,
    /// Average predicates per location that has any (paper: per basic block).
    pub predicates_per_location_avg: f64,
    /// Largest number of predicates at one location.
    pub predicates_per_location_max: usize,
    /// Spurious counterexamples refined away.
    pub refinements: u32,
    /// Predicates added to other methods than the one that learned them (travelled).
    #[serde(default)]
    pub travelled: u64,
    /// Times the travelled predicates were taken back: the next spurious path could not
    /// be refined away on the abstraction they made (travel then stops for the run).
    #[serde(default)]
    pub travel_rollbacks: u32,
    /// Per refinement strategy: paths tried and refuted, queries, time, predicates.
    pub strategies: Vec<crate::refinement::StrategyStats>,
    /// What the slice the loop ran on kept (`None`: not sliced).
    #[serde(default)]
    pub slice: Option<crate::slice::SliceStats>,
    /// The program checked: files, lines, classes, methods and those the entry reaches.
    #[serde(default)]
    pub program: Option<ProgramStats>,
    /// Iterations spent on a summarised slice whose violation was then confirmed on the
    /// exact slice (not counted in `iterations`, which are the confirming run's).
    #[serde(default)]
    pub summarised_iterations: u32,
    /// What the bug hunter did.
    #[serde(default)]
    pub hunter: HuntStats,
}

/// The bug hunter's counters ([`crate::check`]'s `hunt`: random concrete runs between
/// refinements).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct HuntStats {
    /// Slices run (one after each spurious counterexample, one more before `unknown`).
    pub slices: u32,
    /// Concrete runs made.
    pub runs: u64,
    /// Of those, runs that completed.
    pub completed: u64,
    /// Edges executed over all runs.
    pub edges: u64,
    /// Runs with a word outside the spec that the solver did not confirm.
    pub refused: u32,
    /// The violation was found by the hunter.
    pub found: bool,
}

/// Which engine found a violation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Engine {
    /// The abstraction refinement loop: a counterexample of the inclusion check that the
    /// solver found feasible.
    #[default]
    Cegar,
    /// The bug hunter: a random concrete run, confirmed by the solver and replayed.
    Hunter,
}

impl Engine {
    /// How reports name it.
    pub fn describe(self) -> &'static str {
        match self {
            Engine::Cegar => "abstraction refinement (CEGAR)",
            Engine::Hunter => "the bug hunter (a random run, confirmed by the solver)",
        }
    }
}
