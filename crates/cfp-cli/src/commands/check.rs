//! `cfp check PROGRAM --spec SPEC`: the CEGAR verifier (ARCHITECTURE.md).
//!
//! Exit codes: 0 verified, 1 violation, 2 unknown (budget, timeout, undecided), 3 bad input
//! (diagnostics on stderr as `file:line:col: message`; also a missing z3, with the install
//! hint, and an unwritable `--record`).
//!
//! `--json` prints exactly one object, fields in this order:
//! ```text
//! {"verdict": "verified" | "violation" | "unknown",
//!  "iterations": N,
//!  "counterexample": {"summary": "...", "word": [...],
//!                     "trace": [{"line": L, "text": "...", "depth": D}, ...],
//!                     "values": {...}, "derivation": "...",
//!                     "replay": {"edges": [[method, edge], ...], "globals": [...]}},  // violation
//!  "reason": "...", "reason_kind": "budget|timeout|cancelled|solver|memory|approximation|undecided",
//!  "report": {"ruled_out": [...], "frontier": "..."},                                 // unknown
//!  "stats": {"steps", "refinements", "total_predicates", "predicates_per_block_avg",
//!            "predicates_per_block_max", "inclusion_queries", "inclusion_steps",
//!            "smt_queries", "smt_scripts", "smt_cache_hits", "smt_decided",
//!            "time_ms", "grammar_and_inclusion_ms", "smt_ms",
//!            "strategies": [{"strategy", "tried", "refuted", "queries", "predicates",
//!                            "time_ms"}, ...]}}
//! ```
//! The `*_ms` fields are the only varying data; `--no-timing` leaves them out so reruns
//! print byte-identical text.
//!
//! `--record FILE` writes one JSON document (pretty-printed; the layout is
//! `cfp_share::RecordFile`, read back by `cfp share` and by the playground's replay):
//! ```text
//! {"version": 1,
//!  "program": {"path": "...", "text": "..."},
//!  "spec": {"path": "...", "text": "..."},
//!  "options": {"max_iterations": N, "entry"?: "...", "timeout_secs"?: S},
//!  "events": [...],
//!  "result": {...},
//!  "timings"?: {"total_ms": T, "step_ms": [...]}}
//! ```
//! `events` are the driver's events in order (the last is `finished`); `result` is exactly
//! the object `--json` prints for the run (without the `*_ms` fields under `--no-timing`);
//! `timings` (absent with `--no-timing`) holds the wall-clock time of the run and of each
//! step (parallel to `events`).

mod text;

use crate::error::{CliError, Exit};
use crate::input::{ProgramFiles, SourceFile};
use crate::output::print_stdout;
use cfp_core::check::{
    CheckOptions, CheckStats, Event, StopCause, StopHook, TraceLine, Verdict, Violation,
};
use cfp_core::refinement::Strategy;
use cfp_core::report_json::{ResultJson, StatsJson, TimingsMs, VerdictName};
use cfp_core::LowerOptions;
use cfp_core::{InputDiagnostic, InputFile, Prepared};
use cfp_share::record::{RecordFile, RecordOptions, RecordedFile, RECORD_VERSION};
use cfp_smt::NativeZ3;
use cfp_smt::{Solver, SolverError};
use serde::Serialize;
use std::cell::Cell;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};
use text::render_text;

/// Arguments of `cfp check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The program (Java subset): a file, or several files and directories (their
    /// `*.java` files, recursively) read as one program.
    #[arg(required = true, value_name = "PROGRAM")]
    pub program: Vec<PathBuf>,
    /// The API protocol. A file, or the name of a built-in protocol: lock, wakelock,
    /// wifilock, canvas, json (`cfp specs` shows them; a file of that name wins). Several
    /// `--spec`: the program is checked against each (each with the whole `--timeout`),
    /// and the exit code is the worst verdict (violation, then unknown, then verified).
    #[arg(long, required = true)]
    pub spec: Vec<PathBuf>,
    /// Print one JSON object: verdict, iterations, counterexample, reason, stats (the same
    /// as `--format json`).
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// The output: `text` (default), `json` (one object, as `--json`) or `sarif` (a SARIF
    /// 2.1.0 log for code scanning: a violation is an error at the offending call with the
    /// nested trace as code flow, `unknown` a note; the exit code is the same).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<Format>,
    /// Budget of CEGAR iterations before answering `unknown`.
    #[arg(long, value_name = "N")]
    pub max_iterations: Option<u32>,
    /// Wall-clock limit in seconds before answering `unknown`; reading, lowering and
    /// slicing the program count against it (each `--spec` has the whole limit).
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
    /// Write every step of the CEGAR loop to FILE as one JSON document.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Print statistics (iterations, predicates, inclusion and SMT time).
    #[arg(long)]
    pub stats: bool,
    /// Entry method (default: `main`).
    #[arg(long, conflicts_with = "harness")]
    pub entry: Option<String>,
    #[command(flatten)]
    pub harness: HarnessArgs,
    /// The z3 executable (default: `$CFP_Z3`, then `target/tools/z3/bin/z3`, then PATH).
    #[arg(long, value_name = "PATH")]
    pub z3: Option<PathBuf>,
    /// Leave wall-clock times out of the output and the record (byte-identical reruns).
    #[arg(long)]
    pub no_timing: bool,
    /// The refinement strategies to try on a spurious counterexample, in order (comma
    /// separated: wp, horn, sp, path-facts; default: all four in that order).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub refine: Option<Vec<String>>,
    /// Z3's resource limit for one Horn (interpolation) query: past it, the next strategy
    /// is tried (0: no limit; default: 1500000, a few seconds). The same on every machine.
    #[arg(long, value_name = "N")]
    pub horn_rlimit: Option<u64>,
    /// Spurious counterexamples refined per iteration, at most: after the first, the
    /// grammar without calls into the methods just refined is asked for more (default: 32;
    /// 1: one per iteration, as the paper).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub batch: Option<u32>,
    /// Do not try a learned predicate in the other methods where its variables are in
    /// scope (by default it travels: one refinement then serves every similar method).
    #[arg(long)]
    pub no_travel: bool,
    /// Do not run the bug hunter (random concrete runs between refinements, looking for
    /// a violation; it can only ever answer `violation`, confirmed by the solver).
    #[arg(long)]
    pub no_hunt: bool,
    /// How to slice the program before refinement (paper §6): `summarise` (default) also
    /// drops calls that emit no event, change nothing a guard reads and always return;
    /// `summarise-all` drops them even when they may not return, and confirms a violation
    /// through one on the `exact` slice; `exact` only drops statements nothing reads; `off`.
    #[arg(long, value_name = "MODE", value_enum, default_value = "summarise")]
    pub slice: SliceArg,
}

/// `--harness`, `--harness-class`, `--models` and `--no-models` (shared by `check` and
/// `cfa`).
#[derive(clap::Args, Debug, Clone)]
pub struct HarnessArgs {
    /// Start from a generated driver instead of `main`: `android-activity` walks the
    /// Android lifecycle of every class extending an activity (the process may be killed
    /// after onPause or onStop); `public-methods` calls a class's public methods in any
    /// order, any number of times, on one instance. The driver is shown by `cfp cfa`.
    #[arg(long, value_name = "KIND", value_parser = ["android-activity", "public-methods"])]
    pub harness: Option<String>,
    /// The classes the harness drives (default: every class that fits).
    #[arg(long, value_name = "CLASS", requires = "harness")]
    pub harness_class: Vec<String>,
    /// Library models of one's own: a folder (or file) of classes read with the program;
    /// a class defined there replaces the built-in model of that class.
    #[arg(long, value_name = "DIR")]
    pub models: Vec<PathBuf>,
    /// Do not add the built-in library models (`cfp models` lists them).
    #[arg(long)]
    pub no_models: bool,
    /// Which library calls may throw: `caught` (default) — what a catch clause around the
    /// call in the same method catches, or what the method declares it throws; `none`;
    /// `any` — also a `RuntimeException` from every library call.
    #[arg(long, value_name = "WHICH", value_enum, default_value = "caught")]
    pub library_throws: LibraryThrowsArg,
}

/// Values of `--library-throws`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LibraryThrowsArg {
    /// Library calls never throw.
    None,
    /// What the program prepared for: a catch clause around the call, a `throws` clause.
    Caught,
    /// As `caught`, and a `RuntimeException` from any library call.
    Any,
}

impl LibraryThrowsArg {
    /// The core's option.
    pub fn option(self) -> cfp_core::lower::LibraryThrows {
        match self {
            LibraryThrowsArg::None => cfp_core::lower::LibraryThrows::None,
            LibraryThrowsArg::Caught => cfp_core::lower::LibraryThrows::Caught,
            LibraryThrowsArg::Any => cfp_core::lower::LibraryThrows::Any,
        }
    }
}

impl HarnessArgs {
    /// The program's paths followed by the `--models` folders.
    pub fn with_models(&self, program: &[PathBuf]) -> Vec<PathBuf> {
        program.iter().chain(&self.models).cloned().collect()
    }

    /// The core's request.
    pub fn request(&self) -> Option<cfp_core::harness::HarnessRequest> {
        let kind = cfp_core::harness::HarnessKind::from_name(self.harness.as_deref()?)?;
        Some(cfp_core::harness::HarnessRequest {
            kind,
            classes: self.harness_class.clone(),
            exclude: Vec::new(),
        })
    }
}

/// Values of `--format`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The verdict, the summary, the word and the trace, for people.
    Text,
    /// One JSON object (ARCHITECTURE.md).
    Json,
    /// A SARIF 2.1.0 log.
    Sarif,
}

/// Values of `--slice`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliceArg {
    /// Drop calls that cannot matter and always return too.
    Summarise,
    /// Drop calls that cannot matter, even when they may not return; a violation through
    /// one is confirmed on the exact slice.
    SummariseAll,
    /// Keep every call; drop statements nothing kept reads.
    Exact,
    /// Check the whole program.
    Off,
}

impl SliceArg {
    /// The core's option.
    pub fn mode(self) -> Option<cfp_core::slice::SliceMode> {
        match self {
            SliceArg::Summarise => Some(cfp_core::slice::SliceMode::Summarise),
            SliceArg::SummariseAll => Some(cfp_core::slice::SliceMode::SummariseAll),
            SliceArg::Exact => Some(cfp_core::slice::SliceMode::Exact),
            SliceArg::Off => None,
        }
    }
}

/// Run `cfp check`: the verdict's exit code, or an error for bad input or environment.
pub fn run(args: &CheckArgs) -> Result<Exit, CliError> {
    let timeout = validate_timeout(args.timeout)?;
    let mut opts = CheckOptions::default();
    if let Some(n) = args.max_iterations {
        opts.max_iterations = n;
    }
    if let Some(names) = &args.refine {
        opts.refinement.strategies = names
            .iter()
            .map(|n| {
                Strategy::from_name(n.trim()).ok_or_else(|| {
                    CliError::bad_option(
                        "--refine",
                        format!("has no strategy `{n}` (wp, horn, sp, path-facts)"),
                    )
                })
            })
            .collect::<Result<_, _>>()?;
    }
    if let Some(n) = args.batch {
        opts.counterexamples_per_iteration = n;
    }
    opts.slice = args.slice.mode();
    if args.no_travel {
        opts.refinement.travel = false;
    }
    if args.no_hunt {
        opts.hunt = false;
    }
    // Only a record keeps what a viewer draws; progress needs the counts alone.
    opts.views = args.record.is_some();
    if let Some(r) = args.horn_rlimit {
        opts.refinement.horn_limits.rlimit = (r > 0).then_some(r);
        if r == 0 {
            opts.refinement.horn_limits.wall_ms = None;
        }
    }
    if let Some(t) = timeout {
        // No single SMT script may outlive the whole budget.
        opts.smt_timeout_ms = Some(u64::try_from(t.as_millis()).unwrap_or(u64::MAX).max(1));
    }
    let mut program = ProgramFiles::read(&args.harness.with_models(&args.program))?;
    let specs: Vec<SourceFile> = args
        .spec
        .iter()
        .map(|p| crate::input::read_spec(p))
        .collect::<Result<_, _>>()?;
    if specs.len() > 1 && args.record.is_some() {
        return Err(CliError::bad_option(
            "--record",
            "records one run: give one --spec with it",
        ));
    }
    let lower = LowerOptions {
        entry: args.entry.clone(),
        harness: args.harness.request(),
        no_models: args.harness.no_models,
        library_throws: args.harness.library_throws.option(),
        made_up_objects: false,
    };
    // Every input's diagnostics first, before any check runs.
    let mut prepared = Vec::with_capacity(specs.len());
    let mut bad: Vec<String> = Vec::new();
    for spec in &specs {
        // Reading, lowering and slicing count against the spec's `--timeout`.
        let started = Instant::now();
        match cfp_core::prepare_sources(program.sources.clone(), &spec.text, &lower) {
            Ok(p) => {
                let files = ProgramFiles {
                    sources: p.sources().clone(),
                    name: program.name.clone(),
                };
                report(&files, spec, p.warnings());
                prepared.push((p, started.elapsed()));
            }
            Err(diags) => {
                let files = ProgramFiles {
                    sources: diags.sources.clone(),
                    name: program.name.clone(),
                };
                for name in report(&files, spec, &diags.items) {
                    if !bad.contains(&name) {
                        bad.push(name);
                    }
                }
            }
        }
    }
    if !bad.is_empty() {
        return Err(CliError::Invalid { files: bad });
    }
    // The files as prepared: with the harness's, when there is one.
    if let Some((p, _)) = prepared.first() {
        program.sources = p.sources().clone();
    }
    // The record is written after the run: refuse an unwritable path before spending it.
    if let Some(path) = &args.record {
        probe_writable(path)?;
    }
    let mut runs: Vec<SpecRun> = Vec::with_capacity(specs.len());
    for (spec, (prepared, spent)) in specs.iter().zip(prepared) {
        let budget = Budget { timeout, spent };
        runs.push(check_one(
            args,
            &program,
            spec,
            prepared,
            opts.clone(),
            budget,
        )?);
    }
    let format = if args.json {
        Format::Json
    } else {
        args.format.unwrap_or(Format::Text)
    };
    let text = match (format, &runs[..]) {
        (Format::Json, [one]) => serde_json::to_string(&one.result)? + "\n",
        (Format::Json, many) => {
            let results: Vec<SpecResultJson> = many
                .iter()
                .map(|r| SpecResultJson {
                    spec: &r.spec.name,
                    result: &r.result,
                })
                .collect();
            let all = MultiResultJson {
                verdict: worst(many).as_str(),
                results,
            };
            serde_json::to_string(&all)? + "\n"
        }
        (Format::Sarif, many) => {
            let ids = rule_ids(args, many);
            let entries: Vec<cfp_core::report_sarif::SarifEntry> = many
                .iter()
                .zip(&ids)
                .map(|(r, id)| cfp_core::report_sarif::SarifEntry {
                    rule_id: id,
                    spec_source: &r.spec.name,
                    spec_text: &r.spec.text,
                    result: &r.result,
                    summary: match &r.verdict {
                        Verdict::Violation { counterexample, .. } => Some(&counterexample.summary),
                        _ => None,
                    },
                })
                .collect();
            let tool = cfp_core::report_sarif::SarifProgram {
                path: &program.name,
                sources: &program.sources,
                tool_version: env!("CARGO_PKG_VERSION"),
            };
            serde_json::to_string_pretty(&cfp_core::report_sarif::sarif_log(&tool, &entries))?
                + "\n"
        }
        (Format::Text, [one]) => render_text(
            &one.verdict,
            one.result.reason.as_deref(),
            &program,
            args.stats.then_some(&one.result.stats),
        ),
        (Format::Text, many) => {
            let mut out = String::new();
            for (i, r) in many.iter().enumerate() {
                if i > 0 {
                    out.push('\n');
                }
                let _ = writeln!(out, "== {}", r.spec.name);
                out.push_str(&render_text(
                    &r.verdict,
                    r.result.reason.as_deref(),
                    &program,
                    args.stats.then_some(&r.result.stats),
                ));
            }
            out
        }
    };
    print_stdout(&text)?;
    Ok(match worst(&runs) {
        VerdictName::Verified => Exit::Ok,
        VerdictName::Violation => Exit::Violation,
        VerdictName::Unknown => Exit::Unknown,
    })
}

/// One spec's check: its verdict and result object (and the record, when asked for).
struct SpecRun<'a> {
    spec: &'a SourceFile,
    verdict: Verdict,
    result: ResultJson,
}

/// `--json` with several specs: the worst verdict and each spec's result object.
#[derive(serde::Serialize)]
struct MultiResultJson<'a> {
    verdict: &'static str,
    results: Vec<SpecResultJson<'a>>,
}

/// One spec's entry of [`MultiResultJson`].
#[derive(serde::Serialize)]
struct SpecResultJson<'a> {
    spec: &'a str,
    result: &'a ResultJson,
}

/// The worst verdict of the runs: a violation, else an unknown, else verified.
fn worst(runs: &[SpecRun<'_>]) -> VerdictName {
    let names: Vec<VerdictName> = runs.iter().map(|r| r.result.verdict).collect();
    if names.contains(&VerdictName::Violation) {
        VerdictName::Violation
    } else if names.contains(&VerdictName::Unknown) {
        VerdictName::Unknown
    } else {
        VerdictName::Verified
    }
}

/// SARIF rule ids: the built-in's name or the spec file's stem, made unique (`lock`,
/// `lock-2`, …).
fn rule_ids(args: &CheckArgs, runs: &[SpecRun<'_>]) -> Vec<String> {
    let mut ids: Vec<String> = Vec::with_capacity(runs.len());
    for (r, arg) in runs.iter().zip(&args.spec) {
        let base = r.spec.name.strip_prefix("builtin:").map_or_else(
            || {
                arg.file_stem()
                    .map_or_else(|| "spec".to_owned(), |s| s.to_string_lossy().into_owned())
            },
            str::to_owned,
        );
        let mut id = base.clone();
        let mut k = 2;
        while ids.contains(&id) {
            id = format!("{base}-{k}");
            k += 1;
        }
        ids.push(id);
    }
    ids
}

/// Check `program` against one prepared spec: start z3, drive the loop, write the record.
fn check_one<'a>(
    args: &CheckArgs,
    program: &ProgramFiles,
    spec: &'a SourceFile,
    prepared: Prepared,
    opts: CheckOptions,
    budget: Budget,
) -> Result<SpecRun<'a>, CliError> {
    let mut z3 = crate::z3::start_z3(args.z3.as_deref())?;
    // Large batches of independent queries go to up to 4 z3 processes at once.
    z3.set_parallelism(std::thread::available_parallelism().map_or(1, |n| n.get().min(4)));
    let options = RecordOptions {
        max_iterations: opts.max_iterations,
        entry: args.entry.clone(),
        harness: args.harness.harness.clone(),
        timeout_secs: args.timeout,
    };
    let progress = crate::progress::Progress::on_terminal(&spec.name);
    let outcome = drive(prepared, opts, TimedSolver::new(z3), budget, &progress);
    progress.finish();
    let timings = (!args.no_timing).then(|| TimingsMs {
        total: ms(outcome.total),
        grammar_and_inclusion: ms(outcome.outside_smt),
        smt: ms(outcome.smt),
    });
    let stats = StatsJson::new(&outcome.stats, timings);
    let result = ResultJson::new(&outcome.verdict, stats);
    if let Some(path) = &args.record {
        let record = RecordFile {
            version: RECORD_VERSION,
            program: recorded_program(program),
            spec: recorded(spec),
            options,
            events: outcome.events.iter().collect(),
            result: &result,
            timings: (!args.no_timing).then(|| TimingsJson {
                total_ms: ms(outcome.total),
                step_ms: outcome.step_times.iter().map(|d| ms(*d)).collect(),
            }),
        };
        write_record(path, &record)?;
    }
    Ok(SpecRun {
        spec,
        verdict: outcome.verdict,
        result,
    })
}

/// `--timeout` as a duration: a positive, finite number of seconds.
pub fn validate_timeout(t: Option<f64>) -> Result<Option<Duration>, CliError> {
    match t {
        None => Ok(None),
        Some(s) => Duration::try_from_secs_f64(s)
            .ok()
            .filter(|d| !d.is_zero())
            .map(Some)
            .ok_or_else(|| {
                CliError::bad_option(
                    "--timeout",
                    format!("must be a positive number of seconds, got {s}"),
                )
            }),
    }
}

fn ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

/// The record document as `cfp check` writes it: typed events, result and timings.
type Record<'a> = RecordFile<&'a Event, &'a ResultJson, TimingsJson>;

fn write_record(path: &Path, record: &Record<'_>) -> Result<(), CliError> {
    let mut text = serde_json::to_string_pretty(record)?;
    text.push('\n');
    std::fs::write(path, text).map_err(|source| record_error(path, source))
}

fn record_error(path: &Path, source: std::io::Error) -> CliError {
    CliError::Write {
        what: "the record",
        path: path.to_path_buf(),
        source,
    }
}

/// Fail early when `path` cannot be created or written (an existing file is left as is).
fn probe_writable(path: &Path) -> Result<(), CliError> {
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|source| record_error(path, source))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// A solver wrapper that adds the time spent in the solver to a shared clock (the
/// checker owns the solver, the host reads the clock) and enforces the run's deadline:
/// z3 is killed at that instant ([`NativeZ3::set_kill_at`]), so `--timeout` takes effect
/// even inside one long query or a long batch of them (the process is killed and
/// restarted), and every call after the deadline is refused with
/// [`SolverError::Cancelled`].
pub struct TimedSolver {
    inner: NativeZ3,
    time: Rc<Cell<Duration>>,
    deadline: Option<Instant>,
}

impl TimedSolver {
    fn new(inner: NativeZ3) -> Self {
        TimedSolver {
            inner,
            time: Rc::new(Cell::new(Duration::ZERO)),
            deadline: None,
        }
    }

    /// The time left before the deadline; `Cancelled` once it has passed.
    fn left(&self) -> Result<Option<Duration>, SolverError> {
        match self.deadline {
            None => Ok(None),
            Some(d) => match d.checked_duration_since(Instant::now()) {
                Some(left) if !left.is_zero() => Ok(Some(left)),
                _ => Err(SolverError::Cancelled),
            },
        }
    }

    /// The run's deadline: z3 is killed when it is reached.
    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.inner.set_kill_at(deadline);
    }

    /// Run `call` (with the per-call kill deadline lowered to `limit`, if any), timing
    /// it; a call refused or killed because the run's deadline passed is `Cancelled`.
    fn timed<T>(
        &mut self,
        limit: Option<Duration>,
        call: impl FnOnce(&mut NativeZ3) -> Result<T, SolverError>,
    ) -> Result<T, SolverError> {
        self.left()?;
        let saved = self.inner.deadline();
        if let Some(limit) = limit {
            self.inner
                .set_deadline(Some(saved.map_or(limit, |d| d.min(limit))));
        }
        let started = Instant::now();
        let answer = call(&mut self.inner);
        self.time.set(self.time.get() + started.elapsed());
        self.inner.set_deadline(saved);
        match answer {
            Err(SolverError::TimedOut(_)) if self.left().is_err() => Err(SolverError::Cancelled),
            other => other,
        }
    }
}

impl Solver for TimedSolver {
    async fn eval(&mut self, script: &str) -> Result<String, SolverError> {
        self.timed(None, |z| z.eval_sync(script))
    }

    async fn eval_all(&mut self, scripts: &[String]) -> Result<Vec<String>, SolverError> {
        self.timed(None, |z| cfp_smt::block_on(z.eval_all(scripts)))
    }

    async fn eval_within(&mut self, script: &str, limit_ms: u64) -> Result<String, SolverError> {
        self.timed(Some(Duration::from_millis(limit_ms)), |z| {
            z.eval_sync(script)
        })
    }

    fn parallelism(&self) -> usize {
        self.inner.parallelism()
    }

    fn now_ms(&self) -> Option<f64> {
        self.inner.now_ms()
    }

    fn cancelled(&self) -> bool {
        self.left().is_err()
    }
}

/// Everything a run produced.
struct Outcome {
    verdict: Verdict,
    events: Vec<Event>,
    /// Wall-clock time of each step (parallel to `events`).
    step_times: Vec<Duration>,
    stats: CheckStats,
    total: Duration,
    /// Wall-clock time outside the solver: everything but the SMT scripts (grammar,
    /// inclusion, encoding, refinement, the bug hunter).
    outside_smt: Duration,
    smt: Duration,
}

/// Print the diagnostics of both inputs, each against its own file; the names of the
/// files with errors.
fn report(program: &ProgramFiles, spec: &SourceFile, items: &[InputDiagnostic]) -> Vec<String> {
    let mut bad = Vec::new();
    for d in items {
        let one = std::slice::from_ref(&d.diagnostic);
        match d.file {
            InputFile::Program => bad.extend(program.report(one)),
            InputFile::Spec => {
                if spec.report(one) {
                    bad.push(spec.name.clone());
                }
            }
        }
    }
    bad
}

/// Run the CEGAR loop event by event, timing each step and stopping at the deadline.
fn drive(
    prepared: Prepared,
    opts: CheckOptions,
    mut solver: TimedSolver,
    budget: Budget,
    progress: &crate::progress::Progress,
) -> Outcome {
    let started = Instant::now();
    let timeout = budget.timeout;
    let deadline = timeout.map(|t| started + t.saturating_sub(budget.spent));
    solver.set_deadline(deadline);
    let smt_clock = Rc::clone(&solver.time);
    let stop = match (deadline, timeout) {
        (Some(d), Some(t)) => {
            let limit_ms = u64::try_from(t.as_millis()).unwrap_or(u64::MAX).max(1);
            let hook: StopHook =
                Box::new(move || (Instant::now() >= d).then_some(StopCause::Timeout { limit_ms }));
            Some(hook)
        }
        _ => None,
    };
    let mut run = prepared.run(solver, opts, stop);
    let mut events = Vec::new();
    let mut step_times = Vec::new();
    loop {
        let t = Instant::now();
        let Some(event) = cfp_smt::block_on(run.next_event()) else {
            break;
        };
        // The driver runs a whole iteration per step (its events are queued), so the time
        // of the inclusion check alone is not observable: what is reported is the time
        // outside the SMT solver (ConstructCFG + inclusion + bookkeeping).
        progress.event(&event);
        events.push(event);
        step_times.push(t.elapsed());
    }
    let total = started.elapsed();
    let stats = run.stats();
    let smt = smt_clock.get();
    let outside_smt = total.saturating_sub(smt);
    let verdict = cfp_smt::block_on(run.finish(&mut |_| {}));
    Outcome {
        verdict,
        events,
        step_times,
        stats,
        total,
        outside_smt,
        smt,
    }
}

/// A spec's `--timeout` and what its preparation (reading, lowering, slicing) already
/// took of it.
#[derive(Clone, Copy, Debug)]
struct Budget {
    timeout: Option<Duration>,
    spent: Duration,
}

fn recorded_program(p: &ProgramFiles) -> RecordedFile {
    RecordedFile {
        path: p.name.clone(),
        text: p.sources.text().to_owned(),
    }
}

fn recorded(f: &SourceFile) -> RecordedFile {
    RecordedFile {
        path: f.name.clone(),
        text: f.text.clone(),
    }
}

#[derive(Serialize)]
struct TimingsJson {
    total_ms: f64,
    /// Per event, in order.
    step_ms: Vec<f64>,
}
