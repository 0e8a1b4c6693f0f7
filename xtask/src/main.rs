//! `cargo xtask` — everything a contributor runs, with no tools beyond cargo.
//!
//! * `cargo xtask test` — the README's test command: installs Z3 (`setup-z3`), then
//!   formatting, clippy with `-D warnings`, every test of the workspace with `CFP_Z3` set
//!   to the installed solver, then `test-wasm` and `test-browser` (skipped when extra
//!   arguments are passed through to `cargo test`).
//! * `cargo xtask setup-z3` — installs the `z3` binary of the PyPI wheel `z3-solver`
//!   (pinned, see [`Z3_WHEEL`]) into `target/tools/z3` unless it is already there and runs.
//! * `cargo xtask bench-parse` — times `cfp parse` on a generated 5,000-line program.
//! * `cargo xtask bench-inclusion` — times the inclusion engine on program-shaped grammars
//!   of 40 and 400 methods (release build) and prints the table with the ratio.
//! * `cargo xtask bench-check [FILTER]` — runs `cfp check` (release) on every program of
//!   `tests/check/` and prints file, verdict, time, iterations and SMT queries.
//! * `cargo xtask serve [--port N] [--dir DIR] [--no-isolation] [--no-build]` — builds
//!   `dist/` and serves it with COOP/COEP/CORP and gzip (the README's playground command).
//! * `cargo xtask dist` — builds the playground into `dist/` (see `web.rs`).
//! * `cargo xtask test-wasm [FILTER]` — the wasm engine under Node (real z3-solver) against
//!   the native `cfp check` on every program of `tests/check/`.
//! * `cargo xtask test-browser [--dir DIR] [--no-build] [-- --only NAME,…]` — the browser
//!   tests of `tests/browser/` in headless Debian Chromium.
//!
//! Each step prints what it runs; the first failing step ends the run with its exit code.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

mod browser;
mod genprog;
mod serve;
mod web;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("test") => test(&args[1..]),
        Some("setup-z3") => setup_z3().map(|z3| println!("{}", z3.display())),
        Some("bench-parse") => bench_parse(),
        Some("bench-inclusion") => bench_inclusion(),
        Some("bench-check") => bench_check(&args[1..]),
        Some("serve") => serve::serve(&args[1..]),
        Some("test-browser") => browser::test_browser(&args[1..]),
        Some("dist") => web::dist().map(|_| ()),
        Some("test-wasm") => web::test_wasm(&args[1..]),
        Some("gen-program") => {
            let lines = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(5000);
            print!("{}", genprog::generate(lines));
            Ok(())
        }
        _ => {
            eprintln!(
                "usage: cargo xtask <command>\n\n\
                 commands:\n  \
                 test            run every check and test (the README's test command)\n  \
                 setup-z3        install z3 (PyPI z3-solver wheel) into target/tools/z3\n  \
                 bench-parse     time `cfp parse` on a generated 5,000-line program\n  \
                 bench-inclusion time the inclusion engine on 40- and 400-method grammars\n  \
                 bench-check     time `cfp check` on every program of tests/check/\n  \
                 gen-program N   print a generated program of about N lines\n  \
                 serve           build dist/ and serve it with COOP/COEP/CORP (--port N --dir D --no-isolation --no-build)\n  \
                 test-browser    build dist/, serve it, run tests/browser in headless Chromium\n  \
                 dist            build the playground into dist/ (wasm, wasm-bindgen, static, z3)\n  \
                 test-wasm [F]   the wasm engine under Node vs native cfp on tests/check/ (filter F)"
            );
            Err(2)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => ExitCode::from(code),
    }
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

fn run(step: &str, mut cmd: Command) -> Result<(), u8> {
    eprintln!("==> {step}");
    let started = Instant::now();
    let status = cmd.status().map_err(|e| {
        eprintln!("xtask: cannot start `{step}`: {e}");
        1u8
    })?;
    eprintln!("    ({step}: {:.1}s)", started.elapsed().as_secs_f64());
    if status.success() {
        Ok(())
    } else {
        eprintln!("xtask: `{step}` failed ({status})");
        Err(status
            .code()
            .and_then(|c| u8::try_from(c).ok())
            .unwrap_or(1)
            .max(1))
    }
}

/// The pinned PyPI wheel whose static `z3` executable the native backend uses
/// (DESIGN.md §4: closest to the browser's wasm build).
const Z3_WHEEL: &str = "z3-solver==5.4.1.0";

/// `target/tools/z3/bin/z3` under the workspace.
fn z3_path() -> PathBuf {
    let exe = if cfg!(windows) { "z3.exe" } else { "z3" };
    root()
        .join("target")
        .join("tools")
        .join("z3")
        .join("bin")
        .join(exe)
}

/// Whether `z3 -version` runs.
fn z3_runs(z3: &Path) -> bool {
    Command::new(z3)
        .arg("-version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Install Z3 into `target/tools/z3` (unless it already runs) and return its absolute path.
fn setup_z3() -> Result<PathBuf, u8> {
    let z3 = z3_path();
    if z3_runs(&z3) {
        eprintln!("==> z3 already installed: {}", z3.display());
        return Ok(z3);
    }
    let target = root().join("target").join("tools").join("z3");
    let mut pip = Command::new("python3");
    pip.current_dir(root()).args([
        "-m",
        "pip",
        "install",
        "--disable-pip-version-check",
        "--upgrade",
        "--target",
    ]);
    pip.arg(&target).arg(Z3_WHEEL);
    run(&format!("pip install {Z3_WHEEL} into target/tools/z3"), pip)?;
    if !z3_runs(&z3) {
        eprintln!(
            "xtask: {} does not run after installing {Z3_WHEEL}; install z3 5.4.x yourself \
             and set CFP_Z3=/path/to/z3",
            z3.display()
        );
        return Err(1);
    }
    Ok(z3)
}

/// The full test suite.
fn test(extra: &[String]) -> Result<(), u8> {
    let z3 = setup_z3()?;

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
        // headless Chromium (both build what they need: wasm target, wasm-bindgen-cli,
        // npm packages, Debian chromium).
        web::test_wasm(&[])?;
        browser::test_browser(&[])?;
    }
    Ok(())
}

/// Run the inclusion benchmark (`crates/cfp-grammar/benches/inclusion.rs`) in release:
/// a table of times, results and steps for 40 and 400 methods, and their ratio.
fn bench_inclusion() -> Result<(), u8> {
    let mut bench = cargo();
    bench.args(["bench", "-p", "cfp-grammar", "--bench", "inclusion"]);
    run("cargo bench -p cfp-grammar --bench inclusion", bench)
}

/// Run the verdict-corpus benchmark (`crates/cfp-cli/benches/corpus.rs`) in release, with
/// `CFP_Z3` set to the installed solver: one line per program of `tests/check/`.
fn bench_check(extra: &[String]) -> Result<(), u8> {
    let z3 = setup_z3()?;
    let mut bench = cargo();
    bench
        .args(["bench", "-p", "cfp-cli", "--bench", "corpus", "--"])
        .args(extra);
    bench.env("CFP_Z3", &z3);
    run("cargo bench -p cfp-cli --bench corpus", bench)
}

/// Build `cfp` in release and time `cfp parse` on a generated 5,000-line program.
fn bench_parse() -> Result<(), u8> {
    let mut build = cargo();
    build.args(["build", "--release", "-p", "cfp-cli"]);
    run("cargo build --release -p cfp-cli", build)?;
    let dir = root().join("target").join("bench");
    std::fs::create_dir_all(&dir).map_err(|e| {
        eprintln!("xtask: {e}");
        1u8
    })?;
    let file = dir.join("Generated5000.java");
    let text = genprog::generate(5000);
    std::fs::write(&file, &text).map_err(|e| {
        eprintln!("xtask: {e}");
        1u8
    })?;
    let exe = root().join("target").join("release").join("cfp");
    let mut times = Vec::new();
    for _ in 0..10 {
        let t = Instant::now();
        let status = Command::new(&exe)
            .arg("parse")
            .arg(&file)
            .status()
            .map_err(|e| {
                eprintln!("xtask: {e}");
                1u8
            })?;
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        if !status.success() {
            eprintln!("xtask: cfp parse failed on the generated program ({status})");
            return Err(1);
        }
    }
    times.sort_by(f64::total_cmp);
    println!(
        "cfp parse, {} lines: median {:.1} ms, min {:.1} ms, max {:.1} ms (10 runs)",
        text.lines().count(),
        times[times.len() / 2],
        times[0],
        times[times.len() - 1]
    );
    Ok(())
}
