//! `cargo xtask bench` — every benchmark of the project, one table.
//!
//! Benchmarks measure; they never fail a build on a time. Each group runs a program that
//! prints its own human table and, for the record, one line per figure:
//!
//! ```text
//! BENCH {"group": "check", "name": "01-paper-fig2.java time", "value": 41.2, "unit": "ms",
//!        "better": "lower", "target": 2000}
//! ```
//! (`better`: `lower`, `higher` or `none`; `target` optional). This module collects those
//! lines from every group, writes `target/bench/bench.json` (the previous one is kept as
//! `bench.prev.json`) and `target/bench/bench.md`, and prints the Markdown table; with
//! `--compare OLD.json` the table gets the old value and the ratio new/old per figure.
//!
//! Groups (`--only parse,check`, or `cargo xtask bench-<group>`):
//! * `parse` — `cfp_syntax::parse_program` on a 5,000-line program; lowering a method of
//!   1,500 branches and loops (`crates/cfp-syntax/benches/parse.rs`,
//!   `crates/cfp-core/benches/lower.rs`);
//! * `inclusion` — the inclusion engine on 40- and 400-method program grammars;
//! * `check` — the release `cfp check` on every program of `tests/check/` (time,
//!   iterations, predicates, SMT queries; target 2 s per program);
//! * `realistic` — `cfp check` on the programs of `cargo xtask gen-program --realistic` at
//!   150 and 300 lines, seeds 1–5, correct and with one bug (verdicts right, time,
//!   iterations, predicates per block, SMT queries); extra arguments go to `cfp check`
//!   (`cargo xtask bench-realistic --refine horn`), and `CFP_BENCH_CFP=PATH` measures
//!   another build of `cfp` (an older commit's) on the same programs;
//! * `codec` — the share-link codec: refusing deflate bombs, decoding 20,000 hostile links;
//! * `wasm` — the wasm engine under Node against the native CLI on `tests/check/`;
//! * `browser` — cancel latency, click-to-verdict and the longest main-thread task in
//!   headless Chromium (targets 1 s, 1 s, 100 ms).

use crate::{cargo, root, tools, Failed};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The benchmark groups, in the order `bench` runs them.
const GROUPS: &[&str] = &[
    "parse",
    "inclusion",
    "check",
    "realistic",
    "codec",
    "wasm",
    "browser",
];

/// One measured figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Metric {
    /// The benchmark group.
    pub group: String,
    /// What was measured.
    pub name: String,
    /// The figure.
    pub value: f64,
    /// Its unit (`ms`, `s`, `x`, `steps`, …).
    pub unit: String,
    /// `lower`, `higher` or `none`: which direction is an improvement.
    pub better: String,
    /// The figure the project aims for, if any.
    pub target: Option<f64>,
}

impl Metric {
    /// Read a `BENCH {…}` line.
    fn parse(line: &str) -> Option<Metric> {
        let v: Value = serde_json::from_str(line.strip_prefix("BENCH ")?).ok()?;
        Some(Metric {
            group: v["group"].as_str()?.to_string(),
            name: v["name"].as_str()?.to_string(),
            value: v["value"].as_f64()?,
            unit: v["unit"].as_str().unwrap_or("").to_string(),
            better: v["better"].as_str().unwrap_or("lower").to_string(),
            target: v["target"].as_f64(),
        })
    }

    fn to_json(&self) -> Value {
        let mut v = json!({
            "group": self.group, "name": self.name, "value": self.value,
            "unit": self.unit, "better": self.better,
        });
        if let Some(t) = self.target {
            v["target"] = json!(t);
        }
        v
    }

    fn key(&self) -> (String, String) {
        (self.group.clone(), self.name.clone())
    }

    /// `ok` / `missed` against the target, if there is one.
    fn verdict(&self) -> &'static str {
        match (self.target, self.better.as_str()) {
            (Some(t), "lower") if self.value <= t => "ok",
            (Some(t), "higher") if self.value >= t => "ok",
            (Some(_), "lower" | "higher") => "MISSED",
            _ => "",
        }
    }
}

/// Run `cmd`, echoing its output, and collect its `BENCH` lines. A command that fails is
/// reported and yields what it printed before failing: benchmarks never end the run.
fn collect(step: &str, mut cmd: Command) -> Vec<Metric> {
    eprintln!("==> {step}");
    cmd.stdout(Stdio::piped());
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("xtask bench: cannot start `{step}`: {e}");
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    if let Some(stdout) = child.stdout.take() {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            match Metric::parse(&line) {
                Some(m) => out.push(m),
                None => println!("{line}"),
            }
        }
    }
    match child.wait() {
        Ok(s) if s.success() => {}
        Ok(s) => eprintln!("xtask bench: `{step}` ended with {s}; its figures so far are kept"),
        Err(e) => eprintln!("xtask bench: `{step}`: {e}"),
    }
    out
}

/// `cargo bench -p PACKAGE --bench NAME` in release, collecting its figures.
fn cargo_bench(package: &str, name: &str, extra: &[String], env: &[(&str, &Path)]) -> Vec<Metric> {
    let mut cmd = cargo();
    cmd.args(["bench", "-p", package, "--bench", name, "--"])
        .args(extra);
    for (k, v) in env {
        cmd.env(k, v);
    }
    collect(&format!("cargo bench -p {package} --bench {name}"), cmd)
}

/// Run one group.
fn run_group(group: &str, extra: &[String]) -> Result<Vec<Metric>, Failed> {
    Ok(match group {
        "parse" => {
            let mut m = cargo_bench("cfp-syntax", "parse", extra, &[]);
            m.extend(cargo_bench("cfp-core", "lower", extra, &[]));
            m
        }
        "inclusion" => cargo_bench("cfp-grammar", "inclusion", extra, &[]),
        "check" => {
            let z3 = tools::setup_z3()?;
            cargo_bench("cfp-cli", "corpus", extra, &[("CFP_Z3", &z3)])
        }
        "realistic" => realistic(extra)?,
        "scale" => crate::scale::scale(extra)?,
        "codec" => cargo_bench("cfp-share", "codec", extra, &[]),
        "wasm" => {
            let mut node = crate::web::node_corpus(extra)?;
            node.env("CFP_BENCH", "1");
            collect("node tests/wasm/node-corpus.mjs (bench)", node)
        }
        "browser" => {
            let mut args: Vec<String> = vec!["--".into(), "--bench".into()];
            args.extend(extra.iter().cloned());
            let mut run = crate::browser::prepare(&args)?;
            run.node.env("CFP_BENCH", "1");
            collect("node tests/browser/run.mjs --bench", run.node)
        }
        other => {
            return Err(Failed::with_message(format!(
                "no benchmark group `{other}` (groups: {})",
                GROUPS.join(", ")
            )))
        }
    })
}

/// The `realistic` group (see the module doc).
fn realistic(extra: &[String]) -> Result<Vec<Metric>, Failed> {
    let z3 = tools::setup_z3()?;
    let cfp = crate::web::release_cli()?;
    let dir = root().join("target").join("bench").join("realistic");
    std::fs::create_dir_all(&dir)
        .map_err(|e| Failed::with_message(format!("bench: {}: {e}", dir.display())))?;
    let spec = root().join("tests").join("specs").join("lock.cfg");
    let mut out = Vec::new();
    let metric = |name: String, value: f64, unit: &str, better: &str, target: Option<f64>| Metric {
        group: "realistic".into(),
        name,
        value,
        unit: unit.into(),
        better: better.into(),
        target,
    };
    println!(
        "{:<26} {:<10} {:<10} {:>9} {:>5} {:>6} {:>5} {:>4} {:>8}",
        "program", "expected", "verdict", "time ms", "iters", "preds", "avg", "max", "queries"
    );
    let (mut right, mut total, mut total_ms, mut worst_max, mut sum_avg) = (0, 0, 0.0, 0.0f64, 0.0);
    for lines in [150usize, 300] {
        for seed in 1..=5u64 {
            for bug in [false, true] {
                let name = format!("{lines}-s{seed}-{}", if bug { "bug" } else { "ok" });
                let file = dir.join(format!("Realistic{}.java", name.replace('-', "_")));
                std::fs::write(&file, crate::realistic::generate(lines, seed, bug))
                    .map_err(|e| Failed::with_message(format!("bench: {}: {e}", file.display())))?;
                let started = std::time::Instant::now();
                let output = Command::new(&cfp)
                    .arg("check")
                    .arg(&file)
                    .arg("--spec")
                    .arg(&spec)
                    .args(["--json", "--timeout", "120"])
                    .args(extra)
                    .env("CFP_Z3", &z3)
                    .output();
                let ms = started.elapsed().as_secs_f64() * 1e3;
                let json: Value = output
                    .ok()
                    .and_then(|o| serde_json::from_slice(&o.stdout).ok())
                    .unwrap_or(Value::Null);
                let verdict = json["verdict"].as_str().unwrap_or("error");
                let expected = if bug { "violation" } else { "verified" };
                let stats = &json["stats"];
                let num = |k: &str| stats[k].as_f64().unwrap_or(0.0);
                total += 1;
                right += usize::from(verdict == expected);
                total_ms += ms;
                worst_max = worst_max.max(num("predicates_per_block_max"));
                sum_avg += num("predicates_per_block_avg");
                println!(
                    "{name:<26} {expected:<10} {verdict:<10} {ms:>9.0} {:>5} {:>6} {:>5.2} {:>4} {:>8}{}",
                    json["iterations"].as_u64().unwrap_or(0),
                    num("total_predicates"),
                    num("predicates_per_block_avg"),
                    num("predicates_per_block_max"),
                    num("smt_queries"),
                    if verdict == expected {
                        String::new()
                    } else {
                        format!("  <-- {}", json["reason"].as_str().unwrap_or(""))
                    }
                );
                out.push(metric(format!("{name} time"), ms, "ms", "lower", None));
                out.push(metric(
                    format!("{name} iterations"),
                    json["iterations"].as_f64().unwrap_or(0.0),
                    "",
                    "lower",
                    None,
                ));
                out.push(metric(
                    format!("{name} predicates"),
                    num("total_predicates"),
                    "",
                    "lower",
                    None,
                ));
                out.push(metric(
                    format!("{name} SMT queries"),
                    num("smt_queries"),
                    "",
                    "lower",
                    None,
                ));
            }
        }
    }
    out.push(metric(
        "right verdicts".into(),
        right as f64,
        "",
        "higher",
        Some(total as f64),
    ));
    out.push(metric("total time".into(), total_ms, "ms", "lower", None));
    out.push(metric(
        "predicates per block, mean of averages".into(),
        sum_avg / total.max(1) as f64,
        "",
        "lower",
        Some(3.0),
    ));
    out.push(metric(
        "predicates per block, max".into(),
        worst_max,
        "",
        "lower",
        Some(9.0),
    ));
    Ok(out)
}

/// `cargo xtask bench-GROUP [ARGS…]`: one group; ARGS go to its program.
pub fn bench_group(group: &str, extra: &[String]) -> Result<(), Failed> {
    let metrics = run_group(group, extra)?;
    report(&metrics, None)
}

/// `cargo xtask bench [--compare OLD.json] [--only GROUP,…]`.
pub fn bench(args: &[String]) -> Result<(), Failed> {
    let mut compare: Option<PathBuf> = None;
    let mut only: Option<Vec<String>> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--compare" => compare = it.next().map(PathBuf::from),
            "--only" => only = it.next().map(|v| v.split(',').map(String::from).collect()),
            other => {
                return Err(Failed::with_message(format!(
                    "bench: unknown argument `{other}`\n\
                     usage: cargo xtask bench [--compare OLD.json] [--only GROUP,…]"
                )))
            }
        }
    }
    let old = match &compare {
        None => None,
        Some(path) => Some(read_metrics(path)?),
    };
    let mut metrics = Vec::new();
    for group in GROUPS {
        if only.as_ref().is_some_and(|o| !o.iter().any(|g| g == group)) {
            continue;
        }
        metrics.extend(run_group(group, &[])?);
    }
    report(&metrics, old.as_deref())
}

/// Read a `bench.json` written earlier.
fn read_metrics(path: &Path) -> Result<Vec<Metric>, Failed> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failed::with_message(format!("bench: cannot read {}: {e}", path.display())))?;
    let v: Value = serde_json::from_str(&text).map_err(|e| {
        Failed::with_message(format!("bench: {} is not bench JSON: {e}", path.display()))
    })?;
    Ok(v["metrics"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|m| Metric::parse(&format!("BENCH {m}")))
                .collect()
        })
        .unwrap_or_default())
}

/// The Markdown table of `metrics`, with old values and ratios when `old` is given.
fn markdown(metrics: &[Metric], old: Option<&[Metric]>) -> String {
    let old: BTreeMap<(String, String), &Metric> = old
        .unwrap_or_default()
        .iter()
        .map(|m| (m.key(), m))
        .collect();
    let compare = !old.is_empty();
    let mut out = String::new();
    let mut group = "";
    for m in metrics {
        if m.group != group {
            group = &m.group;
            out.push_str(&format!("\n### {group}\n\n"));
            if compare {
                out.push_str(
                    "| figure | value | old | new/old | target |\n|---|---:|---:|---:|---|\n",
                );
            } else {
                out.push_str("| figure | value | target |\n|---|---:|---|\n");
            }
        }
        let target = m.target.map_or(String::new(), |t| {
            let sign = if m.better == "higher" { "≥" } else { "≤" };
            format!("{sign} {} {}: {}", fmt_value(t), m.unit, m.verdict())
        });
        let value = format!("{} {}", fmt_value(m.value), m.unit);
        if compare {
            let (before, ratio) = match old.get(&m.key()) {
                Some(o) => (
                    format!("{} {}", fmt_value(o.value), o.unit),
                    if o.value != 0.0 {
                        format!("{:.2}", m.value / o.value)
                    } else {
                        "—".into()
                    },
                ),
                None => ("—".into(), "—".into()),
            };
            out.push_str(&format!(
                "| {} | {value} | {before} | {ratio} | {target} |\n",
                m.name
            ));
        } else {
            out.push_str(&format!("| {} | {value} | {target} |\n", m.name));
        }
    }
    out
}

fn fmt_value(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else if v.abs() >= 100.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.3}")
    }
}

/// Write `target/bench/bench.{json,md}` (keeping the previous JSON as `bench.prev.json`)
/// and print the table.
fn report(metrics: &[Metric], old: Option<&[Metric]>) -> Result<(), Failed> {
    let dir = root().join("target").join("bench");
    let io = |e: std::io::Error| Failed::with_message(format!("bench: {}: {e}", dir.display()));
    std::fs::create_dir_all(&dir).map_err(io)?;
    let json_path = dir.join("bench.json");
    if json_path.is_file() {
        std::fs::rename(&json_path, dir.join("bench.prev.json")).map_err(io)?;
    }
    let doc = json!({
        "version": 1,
        "machine": machine(),
        "metrics": metrics.iter().map(Metric::to_json).collect::<Vec<_>>(),
    });
    let text = serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n";
    std::fs::write(&json_path, text).map_err(io)?;
    let table = format!(
        "# cfplay benchmarks\n\nMachine: {}\n{}",
        doc["machine"].as_str().unwrap_or(""),
        markdown(metrics, old)
    );
    std::fs::write(dir.join("bench.md"), &table).map_err(io)?;
    println!("{table}");
    println!(
        "({} figures; written to {} and bench.md; compare a later run with \
         `cargo xtask bench --compare {}`)",
        metrics.len(),
        json_path.display(),
        dir.join("bench.prev.json").display()
    );
    Ok(())
}

/// A one-line description of the machine (cores and load), for the table's header.
pub(crate) fn machine() -> String {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(String::from))
        .unwrap_or_else(|| "?".into());
    format!("{cores} cores, load average {load} at the end of the run")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metric(name: &str, value: f64, target: Option<f64>) -> Metric {
        Metric {
            group: "check".into(),
            name: name.into(),
            value,
            unit: "ms".into(),
            better: "lower".into(),
            target,
        }
    }

    #[test]
    fn bench_lines_round_trip() {
        let m = metric("a time", 41.5, Some(2000.0));
        let line = format!("BENCH {}", m.to_json());
        assert_eq!(Metric::parse(&line), Some(m));
        assert_eq!(Metric::parse("BENCH {}"), None);
        assert_eq!(Metric::parse("a table line"), None);
    }

    #[test]
    fn tables_show_targets_and_ratios() {
        let new = [
            metric("a", 50.0, Some(100.0)),
            metric("b", 300.0, Some(100.0)),
        ];
        let old = [metric("a", 100.0, Some(100.0))];
        let plain = markdown(&new, None);
        assert!(plain.contains("| a | 50 ms | ≤ 100 ms: ok |"), "{plain}");
        assert!(
            plain.contains("| b | 300 ms | ≤ 100 ms: MISSED |"),
            "{plain}"
        );
        let cmp = markdown(&new, Some(&old));
        assert!(cmp.contains("| a | 50 ms | 100 ms | 0.50 |"), "{cmp}");
        assert!(cmp.contains("| b | 300 ms | — | — |"), "{cmp}");
    }
}
