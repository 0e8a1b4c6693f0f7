//! End-to-end tests of `cfp check --record` (its `result`) and `cfp share` (links decoded with
//! `cfp_share::decode`), with the native z3 like `check_corpus.rs` (`CFP_Z3`, then
//! `target/tools/z3/bin/z3`, then `PATH`). The `--markdown` snapshot uses the fixed record
//! `tests/data/tiny.record.json` and needs no z3.

mod common;
use cfp_share::{decode, ShareState};
use common::{cfp, workspace};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::OnceLock;

/// A violation of the corpus (`// expect: violation`) that needs several iterations.
const PROGRAM: &str = "tests/check/02-paper-fig2-double-acquire.java";
const SPEC: &str = "tests/specs/lock-paper.cfg";

/// A scratch directory for this test process.
fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cfp-share-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The record of `PROGRAM` (made once per test process) and its path. The bug hunter is
/// off: the links below select iterations of a run the refinement takes three for.
fn recorded() -> &'static (String, Value) {
    static RECORD: OnceLock<(String, Value)> = OnceLock::new();
    RECORD.get_or_init(|| {
        let path = scratch().join("run.record.json").display().to_string();
        let (code, stdout, stderr) = cfp(&[
            "check",
            PROGRAM,
            "--spec",
            SPEC,
            "--record",
            &path,
            "--no-timing",
            "--no-hunt",
        ]);
        assert_eq!(code, 1, "{stdout}{stderr}");
        let text = std::fs::read_to_string(&path).expect("record written");
        let json = serde_json::from_str(&text).expect("record is JSON");
        (path, json)
    })
}

/// `cfp share RECORD args…` must succeed; returns its one line.
fn share(args: &[&str]) -> String {
    let (path, _) = recorded();
    let mut all = vec!["share", path.as_str()];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = cfp(&all);
    assert_eq!(code, 0, "cfp {all:?}: {stdout}{stderr}");
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    stdout.trim_end().to_string()
}

/// The state in a link's fragment.
fn state_of(url: &str) -> ShareState {
    let (_, fragment) = url.split_once('#').expect("the link has a fragment");
    let d = decode(fragment).unwrap_or_else(|e| panic!("{url}: {e}"));
    d.state
}

fn file_text(rel: &str) -> String {
    std::fs::read_to_string(workspace().join(rel)).expect("readable")
}

#[test]
fn record_result_is_the_json_output() {
    let (_, record) = recorded();
    let (code, stdout, stderr) = cfp(&[
        "check",
        PROGRAM,
        "--spec",
        SPEC,
        "--json",
        "--no-timing",
        "--no-hunt",
    ]);
    assert_eq!(code, 1, "{stderr}");
    let json: Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(record["result"], json);
    assert_eq!(record["result"]["verdict"], "violation");
    // Field order: `result` between `events` and the end (no `timings` under --no-timing).
    let keys: Vec<&str> = record
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    for k in ["version", "program", "spec", "options", "events", "result"] {
        assert!(keys.contains(&k), "{keys:?}");
    }
    assert!(record.get("timings").is_none());
    let text = std::fs::read_to_string(&recorded().0).expect("record");
    let events_at = text.find("\n  \"events\": ").expect("events");
    let result_at = text.find("\n  \"result\": ").expect("result");
    assert!(events_at < result_at);
    assert!(!text.contains("_ms\""), "no timings under --no-timing");
}

#[test]
fn share_link_carries_program_spec_and_options() {
    let (_, record) = recorded();
    let url = share(&[]);
    assert!(url.starts_with("http://127.0.0.1:8000/#v1."), "{url}");
    let s = state_of(&url);
    assert_eq!(s.program, file_text(PROGRAM));
    assert_eq!(s.spec, file_text(SPEC));
    assert_eq!(
        Some(u64::from(s.options.max_iterations.expect("budget"))),
        record["options"]["max_iterations"].as_u64()
    );
    assert_eq!(s.iteration, None);
    assert_eq!(s.embed, Default::default());
    assert_eq!(s.record, None);
    // Deterministic, and --base / --iteration.
    assert_eq!(share(&[]), url);
    let other = share(&["--base", "https://example.org/play/", "--iteration", "2"]);
    assert!(
        other.starts_with("https://example.org/play/#v1."),
        "{other}"
    );
    assert_eq!(state_of(&other).iteration, Some(2));
}

#[test]
fn with_record_carries_the_events_and_result() {
    let (_, record) = recorded();
    let s = state_of(&share(&["--with-record"]));
    let rec = s.record.expect("a recording");
    assert_eq!(Some(&rec.events), record["events"].as_array());
    assert_eq!(rec.result, record["result"]);
}

#[test]
fn embed_links_carry_the_embed_options() {
    let url = share(&["--embed", "--read-only", "--start-at", "2"]);
    assert!(url.contains("/?embed#v1."), "{url}");
    let s = state_of(&url);
    assert!(s.embed.read_only);
    assert_eq!(s.embed.start_at, Some(2));
    assert!(!s.embed.autoplay);
    let url = share(&["--embed", "--autoplay", "--base", "https://x.org/?lang=en"]);
    assert!(url.starts_with("https://x.org/?lang=en&embed#v1."), "{url}");
    assert!(state_of(&url).embed.autoplay);
}

#[test]
fn bad_options_exit_3() {
    let (path, _) = recorded();
    for args in [
        &["--iteration", "999"][..],
        &["--iteration", "0"],
        &["--embed", "--start-at", "999"],
        &["--base", "ftp://example.org/"],
        &["--base", "https://example.org/#x"],
        &["--read-only"],
    ] {
        let mut all = vec!["share", path.as_str()];
        all.extend_from_slice(args);
        let (code, stdout, stderr) = cfp(&all);
        assert_eq!(code, 3, "{args:?}: {stdout}{stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert!(!stderr.is_empty());
    }
    let (_, _, stderr) = cfp(&["share", path, "--iteration", "999"]);
    assert!(stderr.contains("--iteration 999"), "{stderr}");
}

#[test]
fn bad_records_exit_3_with_a_position() {
    let dir = scratch();
    let broken = dir.join("broken.json");
    std::fs::write(&broken, "{\n  \"version\": 1,\n  \"program\" {}\n}\n").expect("write");
    let broken_s = broken.display().to_string();
    let (code, stdout, stderr) = cfp(&["share", &broken_s]);
    assert_eq!(code, 3, "{stdout}{stderr}");
    assert!(
        stderr.starts_with(&format!("{broken_s}:3:13: ")),
        "{stderr}"
    );
    let v2 = dir.join("v2.json");
    std::fs::write(&v2, "{\"version\": 2}\n").expect("write");
    let (code, _, stderr) = cfp(&["share", &v2.display().to_string()]);
    assert_eq!(code, 3, "{stderr}");
    assert!(
        stderr.contains(":1:") && stderr.contains("version 2"),
        "{stderr}"
    );
    let (code, _, stderr) = cfp(&["share", "tests/check/does-not-exist.record.json"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("does-not-exist.record.json"), "{stderr}");
}

#[test]
fn markdown_link_of_a_fixed_record() {
    let rec = "crates/cfp-cli/tests/data/tiny.record.json";
    let (code, stdout, stderr) = cfp(&["share", rec, "--markdown"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    assert!(stdout.starts_with("[cfplay: violation — tiny.java](http://127.0.0.1:8000/#v1."));
    insta::assert_snapshot!("share_markdown_tiny", stdout);
    let (code, stdout, _) = cfp(&[
        "share",
        rec,
        "--markdown",
        "--title",
        "Lock [demo]",
        "--embed",
        "--base",
        "https://example.org/cfplay/",
    ]);
    assert_eq!(code, 0);
    assert!(
        stdout.starts_with(r"[Lock \[demo\]](https://example.org/cfplay/?embed#v1."),
        "{stdout}"
    );
}

#[test]
fn long_links_warn_on_stderr_and_still_succeed() {
    let (path, _) = recorded();
    let (code, stdout, stderr) = cfp(&["share", path, "--with-record"]);
    assert_eq!(code, 0, "{stderr}");
    let url = stdout.trim_end();
    let fragment = url.split_once('#').expect("fragment").1;
    assert!(
        fragment.len() > cfp_share::WARN_FRAGMENT,
        "{}",
        fragment.len()
    );
    assert!(
        stderr.contains("warning") && stderr.contains("long"),
        "{stderr}"
    );
}

/// A run through a harness (`--harness`) or from a method (`--entry`) shares as a link
/// that makes the page run the same check.
#[test]
fn harness_and_entry_runs_share_their_start() {
    let dir = scratch();
    let program = dir.join("account.java");
    std::fs::write(
        &program,
        "import java.util.concurrent.locks.ReentrantLock;\n\
         class Account {\n    final ReentrantLock lock = new ReentrantLock();\n\
         \x20   public void deposit(int n) { lock.lock(); if (n > 0) { return; } lock.unlock(); }\n}\n",
    )
    .expect("write program");
    let program = program.display().to_string();
    for (flags, entry, harness) in [
        (
            &["--harness", "public-methods"][..],
            None,
            Some("public-methods"),
        ),
        (
            &["--entry", "Account.deposit"][..],
            Some("Account.deposit"),
            None,
        ),
    ] {
        let record = dir.join("start.record.json").display().to_string();
        let mut args = vec![
            "check",
            program.as_str(),
            "--spec",
            "lock",
            "--record",
            &record,
        ];
        args.extend_from_slice(flags);
        let (code, stdout, stderr) = cfp(&args);
        assert_eq!(code, 1, "{flags:?}: {stdout}{stderr}");
        let (code, url, stderr) = cfp(&["share", &record]);
        assert_eq!(code, 0, "{stderr}");
        assert!(!stderr.contains("warning"), "{stderr}");
        let s = state_of(url.trim());
        assert_eq!(s.options.entry.as_deref(), entry, "{flags:?}");
        assert_eq!(s.options.harness.as_deref(), harness, "{flags:?}");
    }
}
