//! `cargo xtask` — everything a contributor runs, with no tools beyond cargo, node and npm
//! (everything else is installed by the command that needs it: see [`tools`]).
//!
//! * `cargo xtask test` — the README's test command (also `.ci/run`): installs Z3
//!   (`setup-z3`), then formatting, clippy with `-D warnings`, every test of the workspace
//!   with `CFP_Z3` set to the installed solver, then `test-wasm`, `test-browser` and
//!   `test-jvm` (skipped when extra arguments are passed through to `cargo test`). No test
//!   asserts on wall-clock time; speed is what the benchmarks measure.
//! * `cargo xtask setup-z3` — installs the `z3` binary of the PyPI wheel `z3-solver`
//!   (pinned, see [`tools::Z3_WHEEL`]) into `target/tools/z3` unless it is already there.
//! * `cargo xtask bench [--compare OLD.json] [--only GROUP,…]` — every benchmark (parse,
//!   inclusion, check corpus, share codec, wasm vs native, browser) into one table,
//!   written to `target/bench/bench.{json,md}` and printed; `bench-parse`,
//!   `bench-inclusion`, `bench-check`, `bench-codec`, `bench-wasm` and `bench-browser` run
//!   one group each (see [`bench`]). Benchmarks report; they never fail on a time.
//! * `cargo xtask serve [--port N] [--dir DIR] [--no-isolation] [--no-build]` — builds
//!   `dist/` and serves it with COOP/COEP/CORP and gzip (the README's playground command).
//! * `cargo xtask dist` — builds the playground into `dist/` (see `web.rs`).
//! * `cargo xtask test-wasm [FILTER]` — the wasm engine under Node (real z3-solver) against
//!   the native `cfp check` on every program of `tests/check/`.
//! * `cargo xtask test-browser [--dir DIR] [--no-build] [-- --only NAME,…]` — the browser
//!   tests of `tests/browser/` in headless Debian Chromium.
//! * `cargo xtask test-jvm [--programs N] [--seeds K] [--corpus-only] [--keep DIR]
//!   [--strict]` — the JVM as the oracle of cfp's verdicts on the corpus and generated
//!   programs (see `jvm.rs` and the crate `cfp-oracle`).
//! * `cargo xtask gen-program [N]` — print a generated program of about N lines.
//! * `cargo xtask measure-real DIR [--check SECS]` — real Java files kept outside the
//!   repository: how many parse and lower, and what the checks answer (see `real_files`).
//!
//! Each step prints what it runs; the first failing step ends the run with its exit code.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

mod bench;
mod browser;
mod genprog;
mod jvm;
mod paper;
mod real_files;
mod realistic;
mod scale;
mod serve;
mod tools;
mod web;

/// A failed xtask step. Its message has been printed; `code` is the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failed(pub u8);

impl Failed {
    /// Print `message` (as `xtask: …`) and fail with exit code 1.
    pub fn with_message(message: impl std::fmt::Display) -> Failed {
        eprintln!("xtask: {message}");
        Failed(1)
    }
}

impl From<u8> for Failed {
    fn from(code: u8) -> Failed {
        Failed(code.max(1))
    }
}

const USAGE: &str = "usage: cargo xtask <command>

commands:
  test             run every check and test (the README's test command)
  setup-z3         install z3 (PyPI z3-solver wheel) into target/tools/z3
  bench            run every benchmark; table in target/bench/ (--compare OLD.json, --only G,…)
  bench-parse      parse a 5,000-line program; lower a 1,500-branch method
  bench-inclusion  the inclusion engine on 40- and 400-method grammars
  bench-check [F]  `cfp check` on every program of tests/check/ (filter F)
  bench-realistic  `cfp check` on generated realistic programs (150/300 lines, 5 seeds, ok/bug)
  bench-scale      generated programs of 150 to 10,000 lines, native and wasm: verdict, time,
                   iterations, memory; writes docs/scale.md and docs/scale.svg (not in `bench`)
  bench-codec      share-link codec: deflate bomb refusal, 20,000 hostile links
  bench-wasm       the wasm engine under Node vs native cfp on tests/check/
  bench-browser    cancel, click-to-verdict and main-thread tasks in headless Chromium
  bench-paper DIR  the paper's Table 2 on its applications (git repositories in DIR)
  measure-real DIR real Java files kept outside the repository: how many parse and lower
                   (--check SECS: and the verdicts)
  gen-program N    print a generated program of about N lines
                   (--realistic [--seed S] [--bug [KIND]]: varied lock-using code, known
                   verdict; KIND: early-return, unheld-unlock, unlock-after-loop,
                   double-lock, callee-missing-unlock, loop-early-return, catch-path)
  serve            build dist/ and serve it with COOP/COEP/CORP (--port N --dir D --no-isolation --no-build)
  dist             build the playground into dist/ (wasm, wasm-bindgen, static, z3)
  test-wasm [F]    the wasm engine under Node vs native cfp on tests/check/ (filter F)
  test-browser     build dist/, serve it, run tests/browser in headless Chromium
  test-jvm         the JVM as the oracle of cfp's verdicts: the corpus and generated programs
                   (--programs N --seeds K --corpus-only --keep DIR --strict)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rest = args.get(1..).unwrap_or_default();
    let result = match args.first().map(String::as_str) {
        Some("test") => test(rest),
        Some("setup-z3") => tools::setup_z3().map(|z3| println!("{}", z3.display())),
        Some("bench") => bench::bench(rest),
        Some("bench-paper") => paper::bench_paper(rest),
        Some(cmd) if cmd.starts_with("bench-") => bench::bench_group(&cmd["bench-".len()..], rest),
        Some("serve") => serve::serve(rest),
        Some("test-browser") => browser::test_browser(rest),
        Some("dist") => web::dist().map(|_| ()),
        Some("test-wasm") => web::test_wasm(rest),
        Some("test-jvm") => jvm::test_jvm(rest),
        Some("gen-program") => gen_program(rest),
        Some("measure-real") => real_files::measure_real(rest),
        _ => {
            eprintln!("{USAGE}");
            Err(Failed(2))
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failed(code)) => ExitCode::from(code),
    }
}

/// `cargo xtask gen-program [N] [--realistic] [--seed S] [--bug [KIND]]`.
fn gen_program(args: &[String]) -> Result<(), Failed> {
    let mut lines = 5000;
    let (mut realistic, mut seed) = (false, 1u64);
    let mut bug = realistic::Injected::None;
    let mut it = args.iter().peekable();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--realistic" => realistic = true,
            "--bug" => {
                bug = match it.peek().and_then(|k| realistic::Bug::from_name(k)) {
                    Some(kind) => {
                        it.next();
                        realistic::Injected::Kind(kind)
                    }
                    None => realistic::Injected::Seeded,
                }
            }
            "--seed" => {
                seed = it
                    .next()
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| Failed::with_message("gen-program: --seed needs a number"))?;
            }
            n => {
                lines = n.parse().map_err(|_| {
                    Failed::with_message(format!("gen-program: `{n}` is not a line count"))
                })?;
            }
        }
    }
    if realistic {
        print!("{}", realistic::generate_with(lines, seed, bug));
    } else {
        print!("{}", genprog::generate(lines));
    }
    Ok(())
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(root());
    cmd
}

/// Run one step, printing `==> step` and its time; a failure prints why and carries the
/// command's exit code.
pub(crate) fn run(step: &str, mut cmd: Command) -> Result<(), Failed> {
    eprintln!("==> {step}");
    let started = Instant::now();
    let status = cmd
        .status()
        .map_err(|e| Failed::with_message(format!("cannot start `{step}`: {e}")))?;
    eprintln!("    ({step}: {:.1}s)", started.elapsed().as_secs_f64());
    if status.success() {
        Ok(())
    } else {
        eprintln!("xtask: `{step}` failed ({status})");
        Err(Failed::from(
            status
                .code()
                .and_then(|c| u8::try_from(c).ok())
                .unwrap_or(1),
        ))
    }
}

/// The full test suite.
fn test(extra: &[String]) -> Result<(), Failed> {
    let z3 = tools::setup_z3()?;

    let mut fmt = cargo();
    fmt.args(["fmt", "--all", "--", "--check"]);
    run("cargo fmt --check", fmt)?;

    let mut clippy = cargo();
    clippy.args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]);
    run("cargo clippy -D warnings", clippy)?;

    let mut tests = cargo();
    tests.args(["test", "--workspace"]).args(extra);
    tests.env("CFP_Z3", &z3);
    run("cargo test --workspace", tests)?;
    if extra.is_empty() {
        // The wasm build under Node against the native CLI, then the playground in
        // headless Chromium (both install what they need: wasm target, wasm-bindgen-cli,
        // npm packages, Debian chromium), then the JVM as the oracle of cfp's verdicts
        // (a JDK from Debian when javac is missing).
        web::test_wasm(&[])?;
        browser::test_browser(&[])?;
        jvm::test_jvm(&[])?;
    }
    Ok(())
}
