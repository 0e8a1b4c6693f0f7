//! `cargo bench -p cfp-cli --bench corpus` (or `cargo xtask bench-check`): run `cfp check
//! --json` on every program of the verdict corpora `tests/check/*.java` and
//! `tests/real/*.java` (with their `// entry:` and `// harness:` headers) and print a table
//! of verdict, wall-clock time (the whole process, z3 start included; target 2 s), CEGAR
//! iterations, predicates and SMT queries (each run with `--timeout 120`), with one `BENCH`
//! line per figure for `cargo xtask bench`. z3 is found as by the CLI (`CFP_Z3`, `target/tools/z3/bin/z3`, `PATH`);
//! `CFP_BENCH_CFP=/path/to/cfp` measures another build (an older commit's, for a
//! before/after table: `cargo xtask bench-check` with it, then without it and
//! `cargo xtask bench --compare target/bench/bench.prev.json --only check`).
//!
//! Asserts nothing about time; exits 1 when a verdict differs from the file's `// expect:`
//! header (its first word; the tests fail on that too).

#[path = "../../../xtask/bench_line.rs"]
mod bench_line;

use bench_line::{bench_line, Better};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn header(text: &str, key: &str) -> Option<String> {
    text.lines()
        .take_while(|l| l.starts_with("//"))
        .find_map(|l| l.trim_start_matches(['/', '#', ' ']).strip_prefix(key))
        .map(|v| v.trim().to_string())
}

fn main() -> ExitCode {
    // `cargo bench` passes `--bench`; a further argument filters the files by name.
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let mut files: Vec<PathBuf> = Vec::new();
    for corpus in ["check", "real"] {
        let dir = workspace().join("tests").join(corpus);
        match std::fs::read_dir(&dir) {
            Ok(rd) => {
                let mut these: Vec<PathBuf> = rd
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|e| e == "java"))
                    .collect();
                these.sort();
                files.extend(these);
            }
            Err(e) => {
                eprintln!("corpus: cannot read {}: {e}", dir.display());
                return ExitCode::FAILURE;
            }
        }
    }
    let cfp = std::env::var_os("CFP_BENCH_CFP")
        .map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_cfp")), PathBuf::from);
    println!(
        "{:<56} {:<10} {:<10} {:>9} {:>6} {:>6} {:>8}",
        "file", "expected", "verdict", "time ms", "iters", "preds", "queries"
    );
    let (mut total_ms, mut mismatches, mut count) = (0.0, 0, 0);
    for path in files {
        let corpus = path
            .parent()
            .and_then(|d| d.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let file = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = format!("{corpus}/{file}");
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let expected = header(&text, "expect:").unwrap_or_else(|| "?".into());
        let spec = header(&text, "spec:").unwrap_or_default();
        // A file of tests/specs or of the workspace, or a built-in protocol's name.
        let spec = [
            workspace().join("tests").join("specs").join(&spec),
            workspace().join(&spec),
        ]
        .into_iter()
        .find(|f| f.is_file())
        .map_or_else(|| spec.into(), PathBuf::into_os_string);
        let mut cmd = Command::new(&cfp);
        cmd.arg("check")
            .arg(&path)
            .arg("--spec")
            .arg(&spec)
            .arg("--json")
            .args(["--timeout", "120"]);
        for key in ["entry", "harness"] {
            if let Some(v) = header(&text, &format!("{key}:")) {
                cmd.arg(format!("--{key}")).arg(v);
            }
        }
        let started = Instant::now();
        let out = cmd.output();
        let ms = started.elapsed().as_secs_f64() * 1e3;
        total_ms += ms;
        let json: serde_json::Value = match out {
            Ok(o) => serde_json::from_slice(&o.stdout).unwrap_or_else(
                |_| serde_json::json!({"verdict": format!("error (exit {:?})", o.status.code())}),
            ),
            Err(e) => serde_json::json!({ "verdict": format!("cannot run: {e}") }),
        };
        let verdict = json["verdict"].as_str().unwrap_or("?").to_string();
        let iterations = json["iterations"]
            .as_u64()
            .map_or("-".into(), |n| n.to_string());
        let queries = json["stats"]["smt_queries"]
            .as_u64()
            .map_or("-".into(), |n| n.to_string());
        let predicates = json["stats"]["total_predicates"]
            .as_u64()
            .map_or("-".into(), |n| n.to_string());
        count += 1;
        bench_line(
            "check",
            &format!("{name} time"),
            ms,
            "ms",
            Better::Lower,
            Some(2000.0),
        );
        for (figure, key) in [
            ("iterations", "steps"),
            ("predicates", "total_predicates"),
            ("SMT queries", "smt_queries"),
        ] {
            if let Some(n) = json["stats"][key].as_u64() {
                bench_line(
                    "check",
                    &format!("{name} {figure}"),
                    n as f64,
                    "",
                    Better::Lower,
                    None,
                );
            }
        }
        let mark = if expected.split_whitespace().next() == Some(verdict.as_str()) {
            ""
        } else {
            mismatches += 1;
            "  <-- MISMATCH"
        };
        println!(
            "{name:<56} {expected:<10} {verdict:<10} {ms:>9.1} {iterations:>6} {predicates:>6} {queries:>8}{mark}"
        );
    }
    println!("total {total_ms:.1} ms, {mismatches} mismatch(es)");
    bench_line(
        "check",
        "corpus total time",
        total_ms,
        "ms",
        Better::Lower,
        None,
    );
    bench_line(
        "check",
        "programs",
        f64::from(count),
        "",
        Better::None,
        None,
    );
    bench_line(
        "check",
        "wrong or unknown verdicts",
        f64::from(mismatches),
        "",
        Better::Lower,
        Some(0.0),
    );
    if mismatches == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
