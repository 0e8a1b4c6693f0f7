//! `cargo xtask test-jvm [--programs N] [--seeds K] [--corpus-only] [--keep DIR] [--strict]`:
//! the JVM as the oracle of cfp's verdicts (crate `cfp-oracle`). Installs a JDK when
//! `javac` is missing (Debian's `openjdk-17-jdk-headless`) and z3, builds `cfp` and
//! `cfp-oracle` in release, then compares cfp with the JVM on `tests/check/`, `tests/real/`
//! (harness programs are listed as skipped) and N generated programs (default 1,000), K
//! random runs each (default 30). Fails on any disagreement, on a corpus program that does
//! not compile, on a generated program cfp cannot parse, on a crash of cfp (and, with
//! `--strict`, on a program cfp rejects). `--keep DIR` keeps the work directory, with every
//! program's report as JSON in `DIR/report.json`.

use crate::{cargo, root, run, tools, Failed};
use std::path::PathBuf;
use std::process::Command;

/// Where cargo puts its builds (`CARGO_TARGET_DIR`, else `target/`).
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|p| if p.is_absolute() { p } else { root().join(p) })
        .unwrap_or_else(|| root().join("target"))
}

/// The options of `test-jvm`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Options {
    programs: u64,
    seeds: u64,
    corpus_only: bool,
    keep: Option<PathBuf>,
    strict: bool,
}

fn parse(args: &[String]) -> Result<Options, Failed> {
    let mut o = Options {
        programs: 1000,
        seeds: 30,
        corpus_only: false,
        keep: None,
        strict: false,
    };
    let mut it = args.iter();
    let number = |flag: &str, v: Option<&String>| -> Result<u64, Failed> {
        v.and_then(|s| s.parse().ok())
            .ok_or_else(|| Failed::with_message(format!("test-jvm: {flag} needs a number")))
    };
    while let Some(a) = it.next() {
        match a.as_str() {
            "--programs" => o.programs = number("--programs", it.next())?,
            "--seeds" => o.seeds = number("--seeds", it.next())?,
            "--corpus-only" => o.corpus_only = true,
            "--strict" => o.strict = true,
            "--keep" => {
                o.keep = Some(PathBuf::from(it.next().ok_or_else(|| {
                    Failed::with_message("test-jvm: --keep needs a directory")
                })?));
            }
            other => {
                return Err(Failed::with_message(format!(
                    "test-jvm: unknown argument `{other}` (--programs N, --seeds K, --corpus-only, --keep DIR, --strict)"
                )))
            }
        }
    }
    Ok(o)
}

/// `cargo xtask test-jvm` (see the module docs).
pub fn test_jvm(args: &[String]) -> Result<(), Failed> {
    let o = parse(args)?;
    tools::ensure_jdk()?;
    // A z3 named by CFP_Z3 (as cfp itself takes it) is used as it is.
    let z3 = match std::env::var_os("CFP_Z3").map(PathBuf::from) {
        Some(z3) if z3.is_file() => z3,
        _ => tools::setup_z3()?,
    };
    let mut build = cargo();
    build.args(["build", "--release", "-p", "cfp-cli", "-p", "cfp-oracle"]);
    run("cargo build --release -p cfp-cli -p cfp-oracle", build)?;
    let release = target_dir().join("release");
    let mut oracle = Command::new(release.join("cfp-oracle"));
    oracle
        .current_dir(root())
        .args(["tests/check", "tests/real", "--seeds"])
        .arg(o.seeds.to_string())
        .arg("--cfp")
        .arg(release.join("cfp"))
        .env("CFP_Z3", &z3);
    if !o.corpus_only {
        oracle.args(["--generate", &o.programs.to_string()]);
    }
    if let Some(dir) = &o.keep {
        oracle.arg("--work").arg(dir);
        oracle.arg("--json").arg(dir.join("report.json"));
    }
    if o.strict {
        oracle.arg("--strict");
    }
    let what = if o.corpus_only {
        format!("cfp-oracle: the corpus, {} runs each", o.seeds)
    } else {
        format!(
            "cfp-oracle: the corpus and {} generated programs, {} runs each",
            o.programs, o.seeds
        )
    };
    run(&what, oracle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options() {
        let args: Vec<String> = [
            "--programs",
            "10",
            "--seeds",
            "3",
            "--keep",
            "/tmp/x",
            "--strict",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let o = parse(&args).expect("valid");
        assert_eq!(
            o,
            Options {
                programs: 10,
                seeds: 3,
                corpus_only: false,
                keep: Some(PathBuf::from("/tmp/x")),
                strict: true
            }
        );
        assert!(parse(&["--seeds".to_string()]).is_err());
        assert!(parse(&["--bogus".to_string()]).is_err());
        assert_eq!(parse(&[]).map(|o| (o.programs, o.seeds)), Ok((1000, 30)));
    }
}
