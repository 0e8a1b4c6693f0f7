//! The whole comparison: programs → translated text → `cfp check` (and the replay inputs
//! of its violations) and Java packages → one `javac` → the JVM's runs → checks (A) and
//! (B) → one [`ProgramReport`] per program.

use crate::case::{Case, Origin};
use crate::cfp::{Cfp, CfpAnswer, Verdict};
use crate::compare::{self, Disagreement};
use crate::error::{write, OracleError};
use crate::javasrc::{java_program, JavaProgram};
use crate::jvm::{self, Jdk, Job, JvmRun};
use crate::protocol::Protocol;
use crate::replay::{self, ReplayError, ReplayInput};
use crate::translate::translate;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// What to compare and how.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where `// spec:` files are looked up (`tests/specs`).
    pub specs_dir: PathBuf,
    /// The work directory (sources, classes, job files).
    pub work: PathBuf,
    /// How cfp is run.
    pub cfp: Cfp,
    /// The JDK.
    pub jdk: Jdk,
    /// Random JVM runs per program (seeds `0..seeds`).
    pub seeds: u64,
    /// Time limit of one JVM run.
    pub run_timeout_ms: u64,
    /// Parallel `cfp check` processes.
    pub jobs: usize,
    /// `java` processes for the random runs.
    pub jvm_shards: usize,
    /// Print progress to stderr.
    pub verbose: bool,
    /// Keep every random run in the reports (for `--program FILE -v`).
    pub keep_runs: bool,
}

/// How far a program got.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "status", content = "reason", rename_all = "kebab-case")]
pub enum Status {
    /// Not compared, for a reason that is no failure (a harness program, no `main`).
    Skipped(String),
    /// A generated program cfp's parser rejects (a bug of the generator).
    NotAProgram(String),
    /// The Java sources could not be made.
    NotTranslated(String),
    /// `javac` rejects the sources (its messages).
    NotCompiled(String),
    /// Compiled and run.
    Compared,
}

/// Everything about one program.
#[derive(Clone, Debug, Serialize)]
pub struct ProgramReport {
    /// Its name.
    pub name: String,
    /// Its file, or `generated (seed N)`.
    pub origin: String,
    /// True for a generated program.
    pub generated: bool,
    /// Its spec.
    pub spec: String,
    /// How far it got.
    pub status: Status,
    /// The text cfp and the JVM were given (with `*` translated).
    pub text: String,
    /// The text cfp checked, as a file of the work directory.
    pub cfp_file: String,
    /// The `cfp-oracle` arguments that compare this program alone again.
    pub rerun: String,
    /// cfp's answer.
    pub cfp: Option<CfpAnswer>,
    /// Random JVM runs made.
    pub runs: usize,
    /// Of those, completed.
    pub completed: usize,
    /// Of those, with a word the spec rejects.
    pub rejected_runs: usize,
    /// The replay of cfp's violation, when there was one.
    pub replay: Option<JvmRun>,
    /// The inputs of cfp's path, or why there are none.
    pub replay_inputs: Option<Result<Vec<ReplayInput>, String>>,
    /// How long finding them took (cfp's interpreter following the path).
    pub replay_search_ms: u64,
    /// The disagreements.
    pub disagreements: Vec<Disagreement>,
    /// The random runs (kept only with `keep_runs`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub all_runs: Vec<JvmRun>,
}

/// Times of the phases, in milliseconds.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Timings {
    /// Translation and Java sources.
    pub prepare_ms: u64,
    /// `cfp check` of every program (and the replay inputs of its violations).
    pub cfp_ms: u64,
    /// `javac` (at the same time as cfp).
    pub javac_ms: u64,
    /// The JVM's random runs (at the same time as cfp).
    pub jvm_ms: u64,
    /// The JVM's replays of cfp's violations.
    pub replay_ms: u64,
}

/// The result of [`compare_all`].
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// One report per program, in the given order.
    pub programs: Vec<ProgramReport>,
    /// Phase times.
    pub timings: Timings,
}

struct Prepared {
    case: Case,
    protocol: Protocol,
    text: String,
    cfp_file: PathBuf,
    spec_file: PathBuf,
    java: Option<JavaProgram>,
    status: Status,
}

fn ms(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// Run `f` on every item with `jobs` threads; results in the items' order.
pub fn parallel<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    f: impl Fn(usize, &T) -> R + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(item) = items.get(i) else { break };
                let r = f(i, item);
                let mut v = out
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                v[i] = Some(r);
            });
        }
    });
    out.into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .into_iter()
        .flatten()
        .collect()
}

fn prepare_case(
    i: usize,
    case: Case,
    cfg: &Config,
    protocols: &mut BTreeMap<String, Protocol>,
) -> Result<Prepared, OracleError> {
    let protocol = match protocols.get(&case.spec) {
        Some(p) => p.clone(),
        None => {
            let p = Protocol::resolve(&case.spec, &cfg.specs_dir)?;
            protocols.insert(case.spec.clone(), p.clone());
            p
        }
    };
    let package = format!("p{i}");
    let spec_file = cfg
        .work
        .join("specs")
        .join(format!("{}.cfg", protocol.name.trim_end_matches(".cfg")));
    if !spec_file.is_file() {
        write(&spec_file, &protocol.text)?;
    }
    let translated = translate(&case.text).text;
    let cfp_file = cfg.work.join("cfp").join(format!("{package}.java"));
    write(&cfp_file, &translated)?;
    let mut status = Status::Compared;
    let mut java = None;
    if let Some(why) = &case.no_jvm {
        status = Status::Skipped(format!("not for the JVM: {why}"));
    } else if let Some(h) = &case.harness {
        status = Status::Skipped(format!(
            "harness program (`// harness: {h}`): cfp generates its driver, the JVM has no main"
        ));
    } else if matches!(case.origin, Origin::Generated(_)) {
        let parsed = cfp_syntax::parse_program(&translated);
        // A construct cfp reports as unsupported is cfp's to take later (exit 3 now).
        if let Some(d) = parsed
            .diagnostics
            .iter()
            .find(|d| d.severity == cfp_syntax::Severity::Error && d.code != "unsupported")
        {
            status = Status::NotAProgram(d.message.clone());
        }
    }
    if status == Status::Compared {
        match java_program(&translated, &package, &protocol, case.entry.as_deref()) {
            Ok(j) => java = Some(j),
            Err(crate::javasrc::JavaSrcError::NoMain)
                if !matches!(case.origin, Origin::Generated(_)) =>
            {
                status = Status::Skipped("no `main` and no `// entry:`".into());
            }
            Err(e) => status = Status::NotTranslated(e.to_string()),
        }
    }
    Ok(Prepared {
        case,
        protocol,
        text: translated,
        cfp_file,
        spec_file,
        java,
        status,
    })
}

/// cfp's answer and, for a violation, the replay inputs of its path (and the time
/// finding them took, in milliseconds).
type Checked = (
    Option<CfpAnswer>,
    Option<Result<Vec<ReplayInput>, ReplayError>>,
    u64,
);

fn check_one(p: &Prepared, cfg: &Config) -> Result<Checked, OracleError> {
    if matches!(p.status, Status::Skipped(_) | Status::NotAProgram(_)) {
        return Ok((None, None, 0));
    }
    let generated = matches!(p.case.origin, Origin::Generated(_));
    let answer = cfg.cfp.check(
        &p.cfp_file,
        &p.spec_file,
        p.case.entry.as_deref(),
        generated,
    )?;
    let started = Instant::now();
    let inputs = (answer.verdict == Verdict::Violation).then(|| {
        let cex = answer
            .json
            .as_ref()
            .map(|j| j["counterexample"].clone())
            .unwrap_or_default();
        // A panic of cfp's core on this program is a finding, not the oracle's end.
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            replay::replay_inputs(&p.text, &p.protocol.text, p.case.entry.as_deref(), &cex)
        }))
        .unwrap_or_else(|e| {
            let what = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| (*s).to_string()))
                .unwrap_or_default();
            Err(ReplayError::Panic(what))
        })
    });
    Ok((Some(answer), inputs, ms(started)))
}

/// What the JVM side made of the programs.
struct JvmSide {
    runtime: PathBuf,
    classes: PathBuf,
    /// Packages javac rejects, with its messages.
    failed: BTreeMap<String, String>,
    /// The random runs.
    runs: Vec<JvmRun>,
    javac_ms: u64,
    jvm_ms: u64,
}

fn job_of(p: &Prepared, j: &JavaProgram, cfg: &Config) -> Job {
    Job {
        name: p.case.name.clone(),
        package: j.package.clone(),
        class: j.class.clone(),
        method: j.method.clone(),
        stubs: j.stubs.clone(),
        timeout_ms: cfg.run_timeout_ms,
        seeds: (0..cfg.seeds).collect(),
        replays: Vec::new(),
    }
}

/// Compile every program's package, then make its random runs.
fn compile_and_run(prepared: &[Prepared], cfg: &Config) -> Result<JvmSide, OracleError> {
    let started = Instant::now();
    let runtime = jvm::compile_runtime(&cfg.jdk, &cfg.work)?;
    let src = cfg.work.join("src");
    let classes = cfg.work.join("classes");
    let _ = std::fs::remove_dir_all(&src);
    let _ = std::fs::remove_dir_all(&classes);
    std::fs::create_dir_all(&classes).map_err(|e| OracleError::io(&classes, e))?;
    let javas: Vec<&JavaProgram> = prepared
        .iter()
        .filter(|p| p.status == Status::Compared)
        .filter_map(|p| p.java.as_ref())
        .collect();
    jvm::write_sources(&src, &javas)?;
    let packages: Vec<String> = javas.iter().map(|j| j.package.clone()).collect();
    let failed = if packages.is_empty() {
        BTreeMap::new()
    } else {
        jvm::compile_programs(&cfg.jdk, &src, &classes, &runtime, &packages)?
    };
    let javac_ms = ms(started);
    let started = Instant::now();
    let jobs: Vec<Job> = prepared
        .iter()
        .filter(|p| p.status == Status::Compared)
        .filter_map(|p| p.java.as_ref().map(|j| (p, j)))
        .filter(|(_, j)| !failed.contains_key(&j.package))
        .map(|(p, j)| job_of(p, j, cfg))
        .collect();
    let shards = cfg.jvm_shards.max(1);
    let runs = if jobs.is_empty() || cfg.seeds == 0 {
        Vec::new()
    } else {
        jvm::run_jobs(&cfg.jdk, &runtime, &classes, &cfg.work, &jobs, shards)?
    };
    Ok(JvmSide {
        runtime,
        classes,
        failed,
        runs,
        javac_ms,
        jvm_ms: ms(started),
    })
}

/// Compare cfp with the JVM on every case.
pub fn compare_all(cases: Vec<Case>, cfg: &Config) -> Result<Outcome, OracleError> {
    let mut timings = Timings::default();
    let started = Instant::now();
    std::fs::create_dir_all(&cfg.work).map_err(|e| OracleError::io(&cfg.work, e))?;
    let mut protocols = BTreeMap::new();
    let mut prepared = Vec::with_capacity(cases.len());
    for (i, case) in cases.into_iter().enumerate() {
        prepared.push(prepare_case(i, case, cfg, &mut protocols)?);
    }
    timings.prepare_ms = ms(started);
    if cfg.verbose {
        eprintln!("cfp-oracle: {} programs prepared", prepared.len());
    }

    // cfp on every program (and the replay inputs of its violations) and, meanwhile,
    // javac and the JVM's random runs.
    cfg.cfp.probe(&cfg.work)?;
    let started = Instant::now();
    let (checked, jvm_side) = std::thread::scope(|scope| {
        let jvm = scope.spawn(|| compile_and_run(&prepared, cfg));
        let checked: Vec<Result<Checked, OracleError>> =
            parallel(&prepared, cfg.jobs, |_, p| check_one(p, cfg));
        let jvm = jvm.join().unwrap_or_else(|_| {
            Err(OracleError::Tool {
                tool: "javac/java".into(),
                message: "the JVM side's thread panicked".into(),
            })
        });
        (checked, jvm)
    });
    timings.cfp_ms = ms(started);
    let mut answers = Vec::with_capacity(checked.len());
    for c in checked {
        answers.push(c?);
    }
    let side = jvm_side?;
    timings.javac_ms = side.javac_ms;
    timings.jvm_ms = side.jvm_ms;
    for p in &mut prepared {
        if let Some(j) = &p.java {
            if let Some(msg) = side.failed.get(&j.package) {
                p.status = Status::NotCompiled(msg.clone());
            }
        }
    }
    if cfg.verbose {
        eprintln!(
            "cfp-oracle: cfp checked them ({} ms); meanwhile javac ({} ms, {} package(s) rejected) and the JVM's random runs ({} ms)",
            timings.cfp_ms,
            timings.javac_ms,
            side.failed.len(),
            timings.jvm_ms
        );
    }

    // The JVM's replays of cfp's violations.
    let started = Instant::now();
    let mut jobs = Vec::new();
    for (p, (answer, inputs, _)) in prepared.iter().zip(&answers) {
        let (Some(j), Status::Compared, Some(a), Some(Ok(ins))) =
            (&p.java, &p.status, answer, inputs)
        else {
            continue;
        };
        if a.verdict != Verdict::Violation {
            continue;
        }
        let mut job = job_of(p, j, cfg);
        job.seeds.clear();
        job.replays.push((
            "cfp".to_string(),
            ins.iter().map(ReplayInput::job_token).collect(),
        ));
        jobs.push(job);
    }
    let runs = if jobs.is_empty() {
        Vec::new()
    } else {
        jvm::run_jobs(&cfg.jdk, &side.runtime, &side.classes, &cfg.work, &jobs, 1)?
    };
    let mut by_program: BTreeMap<String, Vec<JvmRun>> = BTreeMap::new();
    for r in side.runs.into_iter().chain(runs) {
        by_program.entry(r.program.clone()).or_default().push(r);
    }
    timings.replay_ms = ms(started);
    if cfg.verbose {
        eprintln!("cfp-oracle: JVM replays ({} ms)", timings.replay_ms);
    }

    let mut programs = Vec::with_capacity(prepared.len());
    for (p, (answer, inputs, search_ms)) in prepared.into_iter().zip(answers) {
        let runs = by_program.remove(&p.case.name).unwrap_or_default();
        let (replay_runs, random): (Vec<JvmRun>, Vec<JvmRun>) =
            runs.into_iter().partition(|r| r.run.starts_with("replay"));
        let replay = replay_runs.into_iter().next();
        let mut disagreements = Vec::new();
        let mut rejected_runs = 0;
        if let (Some(a), Status::Compared) = (&answer, &p.status) {
            let (n, d) = compare::check_a(&p.protocol, a, &random);
            rejected_runs = n;
            disagreements.extend(d);
            if let Some(ins) = &inputs {
                disagreements.extend(compare::check_b(
                    &p.protocol,
                    a,
                    ins,
                    replay.as_ref(),
                    p.case.entry.is_some(),
                ));
            }
        }
        let origin = match &p.case.origin {
            Origin::File(f) => f.display().to_string(),
            Origin::Generated(s) => format!("generated (seed {s})"),
        };
        programs.push(ProgramReport {
            name: p.case.name.clone(),
            origin,
            generated: matches!(p.case.origin, Origin::Generated(_)),
            spec: p.case.spec.clone(),
            status: p.status,
            text: p.text,
            cfp_file: p.cfp_file.display().to_string(),
            rerun: p.case.rerun.clone(),
            cfp: answer,
            runs: random.len(),
            completed: random.iter().filter(|r| r.completed).count(),
            rejected_runs,
            replay,
            replay_inputs: inputs.map(|r| r.map_err(|e| e.to_string())),
            replay_search_ms: search_ms,
            disagreements,
            all_runs: if cfg.keep_runs { random } else { Vec::new() },
        });
    }
    Ok(Outcome { programs, timings })
}

/// The cases of `paths` (files, or directories of `*.java` files).
pub fn cases_of(paths: &[PathBuf]) -> Result<Vec<Case>, OracleError> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            for f in crate::case::java_files(p)? {
                out.push(Case::from_file(&f)?);
            }
        } else {
            out.push(Case::from_file(p)?);
        }
    }
    Ok(out)
}

/// The workspace root this crate is built in (`tests/specs` lives there).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}
