//! `cargo xtask measure-real DIR [--check SECS]`: the release `cfp` on real Java files kept
//! outside the repository (what share of real files parse and
//! lower, and what the checks answer).
//!
//! Every `*.java` of DIR (in name order) is lowered with `cfp cfa` against its protocol
//! and, with `--check SECS`, checked with that wall-clock limit. The protocol is the
//! `api` column of `DIR/MANIFEST.tsv` (`file<TAB>repo<TAB>path<TAB>api…`, header line
//! first) when there is one (`rwlock` means `lock`), else guessed from the text
//! (WakeLock, WifiLock, JsonGenerator, Canvas, else lock). The entry is `--harness
//! android-activity` for a class extending an `…Activity`, else `--harness
//! public-methods`. Prints a line per file and the totals; fails only when it cannot run.

use crate::{root, tools, Failed};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// The protocol of a file: the manifest's, else guessed from its text.
fn spec_of(text: &str, manifest: Option<&str>) -> &'static str {
    match manifest {
        Some("wakelock") => "wakelock",
        Some("wifilock") => "wifilock",
        Some("canvas") => "canvas",
        Some("json") => "json",
        Some(_) => "lock",
        None if text.contains("WakeLock") => "wakelock",
        None if text.contains("WifiLock") => "wifilock",
        None if text.contains("JsonGenerator") => "json",
        None if text.contains("Canvas") => "canvas",
        None => "lock",
    }
}

/// `android-activity` when a class extends an `…Activity`, else `public-methods`.
fn harness_of(text: &str) -> &'static str {
    let activity = text.split("extends").skip(1).any(|rest| {
        rest.split_whitespace()
            .next()
            .map(|t| t.trim_end_matches('{').split('<').next().unwrap_or(""))
            .is_some_and(|t| t.ends_with("Activity"))
    });
    if activity {
        "android-activity"
    } else {
        "public-methods"
    }
}

/// `cargo xtask measure-real DIR [--check SECS]`.
pub fn measure_real(args: &[String]) -> Result<(), Failed> {
    let mut dir = None;
    let mut check: Option<u32> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--check" => {
                check = Some(it.next().and_then(|s| s.parse().ok()).ok_or_else(|| {
                    Failed::with_message("measure-real: --check needs a number of seconds")
                })?);
            }
            d => dir = Some(d.to_owned()),
        }
    }
    let dir = dir.ok_or_else(|| {
        Failed::with_message("usage: cargo xtask measure-real DIR [--check SECS]")
    })?;
    let dir = Path::new(&dir);
    let z3 = tools::setup_z3()?;
    let cfp = crate::web::release_cli()?;
    let manifest: BTreeMap<String, String> = std::fs::read_to_string(dir.join("MANIFEST.tsv"))
        .map(|t| {
            t.lines()
                .skip(1)
                .filter_map(|l| {
                    let cols: Vec<&str> = l.split('\t').collect();
                    Some((cols.first()?.to_string(), cols.get(3)?.to_string()))
                })
                .collect()
        })
        .unwrap_or_default();
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| Failed::with_message(format!("measure-real: {}: {e}", dir.display())))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .collect();
    files.sort();
    let (mut parsed, mut lowered) = (0usize, 0usize);
    let mut verdicts: BTreeMap<String, usize> = BTreeMap::new();
    for f in &files {
        let name = f
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let spec = spec_of(&text, manifest.get(&name).map(String::as_str));
        let harness = harness_of(&text);
        let parse_ok = Command::new(&cfp)
            .arg("parse")
            .arg(f)
            .output()
            .is_ok_and(|o| o.status.success());
        let lower = Command::new(&cfp)
            .args(["cfa"])
            .arg(f)
            .args(["--spec", spec, "--harness", harness])
            .output()
            .map_err(|e| Failed::with_message(format!("measure-real: cfp: {e}")))?;
        let lower_ok = lower.status.success();
        parsed += usize::from(parse_ok);
        lowered += usize::from(lower_ok);
        let mut verdict = String::new();
        if let (Some(secs), true) = (check, lower_ok) {
            let started = std::time::Instant::now();
            let out = Command::new(&cfp)
                .arg("check")
                .arg(f)
                .args([
                    "--spec",
                    spec,
                    "--harness",
                    harness,
                    "--json",
                    "--no-timing",
                ])
                .args(["--timeout", &secs.to_string()])
                .env("CFP_Z3", &z3)
                .output()
                .map_err(|e| Failed::with_message(format!("measure-real: cfp: {e}")))?;
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
            let name = v["verdict"].as_str().unwrap_or("error").to_owned();
            let why = v["reason_kind"]
                .as_str()
                .map(|k| format!(" ({k})"))
                .unwrap_or_default();
            verdict = format!("{name}{why} {:.1} s", started.elapsed().as_secs_f64());
            *verdicts.entry(name).or_default() += 1;
        }
        let first_error = String::from_utf8_lossy(&lower.stderr)
            .lines()
            .find(|l| l.contains(": error:"))
            .map(|l| l.chars().take(100).collect::<String>())
            .unwrap_or_default();
        println!(
            "{name:<55} {spec:<8} {harness:<16} parse {:<4} lower {:<4} {verdict} {first_error}",
            if parse_ok { "ok" } else { "FAIL" },
            if lower_ok { "ok" } else { "FAIL" },
        );
    }
    let n = files.len().max(1);
    println!(
        "\n{} files: {parsed} parse ({:.0} %), {lowered} lower ({:.0} %)",
        files.len(),
        100.0 * parsed as f64 / n as f64,
        100.0 * lowered as f64 / n as f64
    );
    if check.is_some() {
        let parts: Vec<String> = verdicts.iter().map(|(k, v)| format!("{v} {k}")).collect();
        println!("verdicts: {}", parts.join(", "));
    }
    let _ = root();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_and_harness_are_guessed_from_the_text() {
        assert_eq!(spec_of("PowerManager.WakeLock w;", None), "wakelock");
        assert_eq!(spec_of("Canvas c;", Some("rwlock")), "lock");
        assert_eq!(spec_of("class A {}", None), "lock");
        assert_eq!(
            harness_of("class A extends AppCompatActivity {"),
            "android-activity"
        );
        assert_eq!(harness_of("class A extends View {"), "public-methods");
    }
}
