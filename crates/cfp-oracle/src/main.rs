//! `cfp-oracle`: compare cfp's verdicts with the JVM's runs (see the crate docs).
//!
//! ```text
//! cfp-oracle [PATH…] [--program FILE]… [--generate N] [--seeds K] [-v] …
//! ```
//! Exit 0 when there is nothing to report, 1 on a disagreement or a failure (a program
//! that does not compile, a generated program cfp cannot parse, a crash of cfp; with
//! `--strict` also a program cfp rejects), 2 when the comparison could not be made.

use cfp_oracle::case::{Case, Origin};
use cfp_oracle::cfp::Cfp;
use cfp_oracle::jvm::Jdk;
use cfp_oracle::oracle::{self, Config};
use cfp_oracle::{generate, report, OracleError};
use clap::Parser;
use std::path::PathBuf;
use std::process::ExitCode;

/// Differential test: the JVM as the oracle of cfp's verdicts.
#[derive(Parser, Debug)]
#[command(name = "cfp-oracle")]
struct Args {
    /// Program files (with `// spec:` headers) or directories of them.
    paths: Vec<PathBuf>,
    /// One more program file (the same as a path; handy with `-v`).
    #[arg(long = "program", value_name = "FILE")]
    programs: Vec<PathBuf>,
    /// Generated programs to add.
    #[arg(long, default_value_t = 0, value_name = "N")]
    generate: u64,
    /// The first generator seed (programs use seeds S, S+1, …).
    #[arg(long, default_value_t = 1, value_name = "S")]
    gen_seed: u64,
    /// Generate programs of this one feature only (repeatable: one of them per program;
    /// `--list-features` names them).
    #[arg(long, value_name = "NAME")]
    feature: Vec<String>,
    /// Print the generator's features and stop.
    #[arg(long)]
    list_features: bool,
    /// Random JVM runs per program.
    #[arg(long, default_value_t = 30, value_name = "K")]
    seeds: u64,
    /// Work directory (kept); default: a fresh one under the system's temp dir, removed
    /// at the end.
    #[arg(long, value_name = "DIR")]
    work: Option<PathBuf>,
    /// Write the generated programs to DIR (as `gen-SEED.java`) and stop.
    #[arg(long, value_name = "DIR")]
    dump_generated: Option<PathBuf>,
    /// The `cfp` executable (default: next to this one, then PATH).
    #[arg(long, value_name = "PATH")]
    cfp: Option<PathBuf>,
    /// The z3 cfp uses (default: cfp's own lookup, `$CFP_Z3` first).
    #[arg(long, value_name = "PATH")]
    z3: Option<PathBuf>,
    /// cfp's `--timeout` per corpus program, in seconds (the slowest take 5–7 s alone and
    /// up to 4 times as long among the comparison's parallel processes).
    #[arg(long, default_value_t = 60.0, value_name = "SECS")]
    cfp_timeout: f64,
    /// cfp's `--timeout` per generated program, in seconds (most are decided in 1 s;
    /// those cfp does not decide take the whole time, most of the comparison's).
    #[arg(long, default_value_t = 4.0, value_name = "SECS")]
    gen_timeout: f64,
    /// Time limit of one JVM run, in milliseconds.
    #[arg(long, default_value_t = 2000, value_name = "MS")]
    run_timeout_ms: u64,
    /// Parallel `cfp check` processes (default: twice the number of cores: cfp waits on
    /// z3 much of the time); the JVM runs in half as many processes as there are cores.
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// Where `// spec:` files are (default: the workspace's tests/specs).
    #[arg(long, value_name = "DIR")]
    specs: Option<PathBuf>,
    /// A program cfp rejects (exit 3) is a failure too.
    #[arg(long)]
    strict: bool,
    /// Write every program's report as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Print each program's cfp answer and JVM runs.
    #[arg(short, long)]
    verbose: bool,
}

/// Up to this many disagreements are printed in full.
const FULL_DETAILS: usize = 30;

fn default_cfp() -> PathBuf {
    let exe = if cfg!(windows) { "cfp.exe" } else { "cfp" };
    std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(|d| d.join(exe)))
        .filter(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from(exe))
}

fn run(args: Args) -> Result<ExitCode, OracleError> {
    if args.list_features {
        for f in generate::feature_names() {
            println!("{f}");
        }
        return Ok(ExitCode::SUCCESS);
    }
    let only: Vec<&str> = args.feature.iter().map(String::as_str).collect();
    if let Some(bad) = only.iter().find(|f| !generate::feature_names().contains(f)) {
        return Err(OracleError::BadProgram {
            program: "--feature".into(),
            message: format!("no feature `{bad}` (--list-features names them)"),
        });
    }
    let program_of = |s: u64| generate::generate_with(s, &only);
    if let Some(dir) = &args.dump_generated {
        for s in args.gen_seed..args.gen_seed + args.generate {
            cfp_oracle::error::write(&dir.join(format!("gen-{s}.java")), &program_of(s))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut paths = args.paths.clone();
    paths.extend(args.programs.iter().cloned());
    let mut cases = oracle::cases_of(&paths)?;
    for s in args.gen_seed..args.gen_seed + args.generate {
        let mut case = Case::from_text(&format!("gen-{s}"), Origin::Generated(s), program_of(s))?;
        for f in &only {
            case.rerun.push_str(&format!(" --feature {f}"));
        }
        cases.push(case);
    }
    let jdk = Jdk::find();
    if !jdk.available() {
        return Err(OracleError::Tool {
            tool: jdk.javac.display().to_string(),
            message:
                "no JDK: install one (`cargo xtask test-jvm` installs openjdk-17-jdk-headless)"
                    .into(),
        });
    }
    let temp = args.work.is_none();
    let work = args
        .work
        .clone()
        .unwrap_or_else(|| std::env::temp_dir().join(format!("cfp-oracle-{}", std::process::id())));
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2);
    let jobs = args.jobs.unwrap_or(2 * cores);
    let config = Config {
        specs_dir: args
            .specs
            .clone()
            .unwrap_or_else(|| oracle::workspace_root().join("tests").join("specs")),
        work: work.clone(),
        cfp: Cfp {
            exe: args.cfp.clone().unwrap_or_else(default_cfp),
            timeout_secs: args.cfp_timeout,
            generated_timeout_secs: args.gen_timeout,
            z3: args.z3.clone(),
        },
        jdk,
        seeds: args.seeds,
        run_timeout_ms: args.run_timeout_ms,
        jobs,
        jvm_shards: (cores / 2).max(1),
        verbose: args.verbose,
        keep_runs: args.verbose,
    };
    let outcome = oracle::compare_all(cases, &config);
    if temp {
        let _ = std::fs::remove_dir_all(&work);
    }
    let outcome = outcome?;
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&outcome).map_err(|e| OracleError::BadOutput {
            tool: "cfp-oracle".into(),
            message: e.to_string(),
        })?;
        cfp_oracle::error::write(path, &text)?;
    }
    if args.verbose {
        for p in &outcome.programs {
            print!("{}", report::verbose(p));
        }
    }
    let all: String = outcome.programs.iter().map(report::details).collect();
    if let Some(dir) = &args.work {
        cfp_oracle::error::write(&dir.join("disagreements.txt"), &all)?;
    }
    let count: usize = outcome.programs.iter().map(|p| p.disagreements.len()).sum();
    if count <= FULL_DETAILS || args.verbose {
        print!("{all}");
    } else {
        // The smallest program of each kind in full, the others one line each.
        print!("{}", report::smallest_details(&outcome));
        println!("\nthe other disagreements (all of them in full with -v, or in DIR/disagreements.txt with --work DIR):");
        print!("{}", report::one_line_each(&outcome));
    }
    let reasons = report::reasons(&outcome, args.strict);
    if !reasons.is_empty() {
        println!("\n{reasons}");
    }
    let features = report::by_feature(&outcome);
    if !features.is_empty() {
        println!("{features}");
    }
    let kinds = report::kinds(&outcome);
    if !kinds.is_empty() {
        println!("disagreements by kind:\n{kinds}");
    }
    println!("{}", report::table(&outcome));
    print!("{}", report::cfp_time(&outcome));
    let failures = report::failures(&outcome, args.strict);
    if failures > 0 {
        println!("cfp-oracle: {failures} program(s) with a disagreement or a failure");
        Ok(ExitCode::from(1))
    } else {
        Ok(ExitCode::SUCCESS)
    }
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("cfp-oracle: {e}");
            ExitCode::from(2)
        }
    }
}
