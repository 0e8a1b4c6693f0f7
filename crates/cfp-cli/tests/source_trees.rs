//! Source trees (`cfp check DIR... --spec SPEC`): every folder of `tests/projects/` is
//! checked with the arguments of its `expect` file (first line, relative to the folder)
//! and must end with the exit code of its second line. Also: the trace of a multi-file
//! program names each line's file, the harness's steps are trace lines, and the SARIF
//! log points into the right files.

mod common;
use common::workspace;
use std::path::Path;
use std::process::Command;

fn cfp_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cfp"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("cfp runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn project(name: &str) -> std::path::PathBuf {
    workspace().join("tests/projects").join(name)
}

#[test]
fn every_project_gets_its_expected_exit_code() {
    let mut dirs: Vec<_> = std::fs::read_dir(workspace().join("tests/projects"))
        .expect("tests/projects")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 3, "{dirs:?}");
    for dir in dirs {
        let expect = std::fs::read_to_string(dir.join("expect")).expect("an expect file");
        let mut lines = expect.lines();
        let args: Vec<&str> = lines
            .next()
            .expect("arguments")
            .split_whitespace()
            .collect();
        let code: i32 = lines
            .next()
            .expect("exit code")
            .trim()
            .parse()
            .expect("a number");
        let mut full = vec!["check"];
        full.extend(args);
        let (got, stdout, stderr) = cfp_in(&dir, &full);
        assert_eq!(got, code, "{}:\n{stdout}\n{stderr}", dir.display());
    }
}

#[test]
fn the_lifecycle_leak_is_reported_through_the_harness() {
    let dir = project("android-wakelock-leak");
    let args = [
        "check",
        "app",
        "models",
        "--spec",
        "wakelock",
        "--harness",
        "android-activity",
    ];
    let (code, stdout, stderr) = cfp_in(&dir, &args);
    assert_eq!(code, 1, "{stdout}{stderr}");
    let activity = "app/src/com/example/player/PlayerActivity.java";
    assert!(
        stdout.contains(&format!("`wakeLock.acquire()` at {activity}:")),
        "{stdout}"
    );
    assert!(stdout.contains("// lifecycle: onStart"), "{stdout}");
    assert!(
        stdout.contains("<harness:android-activity>:")
            && stdout.contains("lifecycle: after onPause, the process is killed"),
        "{stdout}"
    );
    // The same run as JSON: trace lines carry their files.
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let (_, json, _) = cfp_in(&dir, &json_args);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    let files: Vec<&str> = v["counterexample"]["trace"]
        .as_array()
        .expect("trace")
        .iter()
        .filter_map(|t| t["file"].as_str())
        .collect();
    assert!(files.contains(&activity), "{files:?}");
    assert!(files.contains(&"<harness:android-activity>"), "{files:?}");
    // SARIF: the result is located in the activity's file, every file is an artifact.
    let mut sarif_args = args.to_vec();
    sarif_args.extend(["--format", "sarif"]);
    let (_, sarif, _) = cfp_in(&dir, &sarif_args);
    let log: serde_json::Value = serde_json::from_str(&sarif).expect("sarif");
    let run = &log["runs"][0];
    let loc = &run["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], activity, "{loc}");
    assert_eq!(run["artifacts"].as_array().map(Vec::len), Some(3), "{run}");
}

#[test]
fn one_class_in_two_files_names_both_files() {
    let dir = std::env::temp_dir().join(format!("cfp-dup-class-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["a", "b"] {
        std::fs::create_dir_all(dir.join(sub)).expect("mkdir");
        std::fs::write(
            dir.join(sub).join("Lock.java"),
            "package util;\n\npublic class Lock {}\n",
        )
        .expect("write");
    }
    let (code, _, stderr) = cfp_in(&dir, &["check", "a", "b", "--spec", "lock"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 3, "{stderr}");
    assert!(
        stderr.starts_with("b/Lock.java:3:14: error:")
            && stderr.contains("`util.Lock`")
            && stderr.contains("a/Lock.java"),
        "{stderr}"
    );
}

#[test]
fn the_harness_is_visible_in_cfa_and_needs_a_class() {
    let dir = project("android-wakelock-fixed");
    let (code, stdout, stderr) = cfp_in(
        &dir,
        &[
            "cfa",
            "app",
            "models",
            "--spec",
            "wakelock",
            "--harness",
            "android-activity",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("method CfpHarness.drivePlayerActivity()"),
        "{stdout}"
    );
    assert!(
        stdout.contains("call PlayerActivity.onResume(activity)"),
        "{stdout}"
    );
    // Edges are labelled with their file and its own lines.
    let acquire =
        std::fs::read_to_string(dir.join("app/src/com/example/player/PlayerActivity.java"))
            .expect("read")
            .lines()
            .position(|l| l.contains("wakeLock.acquire()"))
            .expect("an acquire")
            + 1;
    let label = format!("app/src/com/example/player/PlayerActivity.java:L{acquire}: ");
    assert!(
        stdout
            .lines()
            .any(|l| l.contains(&label) && l.contains("$1.acquire()")),
        "no edge labelled {label} emits the acquire:\n{stdout}"
    );
    assert!(stdout.contains("<harness:android-activity>:L"), "{stdout}");
    // A tree without an activity: exit 3 with the reason.
    let (code, _, stderr) = cfp_in(
        &dir,
        &[
            "check",
            "models",
            "--spec",
            "wakelock",
            "--harness",
            "android-activity",
        ],
    );
    assert_eq!(code, 3, "{stderr}");
    assert!(
        stderr.contains("no class extends an Android activity"),
        "{stderr}"
    );
    // --entry and --harness exclude each other; an empty folder is an error.
    let (code, _, _) = cfp_in(
        &dir,
        &[
            "check",
            "app",
            "--spec",
            "wakelock",
            "--harness",
            "android-activity",
            "--entry",
            "m",
        ],
    );
    assert_eq!(code, 3, "a usage error is bad input");
    let empty = std::env::temp_dir().join(format!("cfp-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).expect("temp dir");
    let (code, _, stderr) = cfp_in(
        &dir,
        &["check", empty.to_str().expect("utf-8"), "--spec", "lock"],
    );
    let _ = std::fs::remove_dir(&empty);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("holds no .java file"), "{stderr}");
}
