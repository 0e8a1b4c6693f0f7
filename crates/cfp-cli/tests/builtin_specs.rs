//! Built-in protocols: `--spec NAME` reads the spec the corpus's own file holds (the same
//! answer, byte for byte), a file of that name wins over the built-in, and `cfp specs`
//! lists them (text and JSON) or prints one.

mod common;
use common::{cfp, workspace};
use std::process::Command;

#[test]
fn specs_lists_the_builtins_and_prints_one() {
    let (code, stdout, stderr) = cfp(&["specs", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let all: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    let names: Vec<&str> = all
        .as_array()
        .expect("an array")
        .iter()
        .filter_map(|s| s["name"].as_str())
        .collect();
    assert_eq!(names, ["lock", "wakelock", "wifilock", "canvas", "json"]);
    for s in all.as_array().expect("an array") {
        let name = s["name"].as_str().expect("a name");
        let file = std::fs::read_to_string(workspace().join(format!("tests/specs/{name}.cfg")))
            .expect("the corpus spec");
        assert_eq!(s["text"].as_str(), Some(file.as_str()), "{name}");
        let (code, one, _) = cfp(&["specs", name]);
        assert_eq!((code, one.as_str()), (0, file.as_str()), "cfp specs {name}");
    }
    let (code, listing, _) = cfp(&["specs"]);
    assert_eq!(code, 0);
    assert!(listing.contains("\njson — JsonGenerator\n"), "{listing}");
    assert!(
        listing.contains("    Obj  -> $1.writeStartObject() Fld $1.writeEndObject();"),
        "{listing}"
    );
}

#[test]
fn a_builtin_answers_as_its_file_does() {
    for (program, name) in [
        ("tests/check/24-try-finally.java", "lock"),
        ("tests/check/32-canvas-double-restore.java", "canvas"),
    ] {
        let by_name = cfp(&["check", program, "--spec", name, "--json", "--no-timing"]);
        let file = format!("tests/specs/{name}.cfg");
        let by_file = cfp(&["check", program, "--spec", &file, "--json", "--no-timing"]);
        assert_eq!(by_name.0, by_file.0, "{program}: {}", by_name.2);
        assert_eq!(by_name.1, by_file.1, "{program}");
        assert!(by_name.0 == 0 || by_name.0 == 1, "{program}: {}", by_name.2);
    }
    let (code, stdout, stderr) = cfp(&[
        "include",
        "tests/inclusion/nin-02-paper-fig4.cfg",
        "--spec",
        "lock",
        "--json",
    ]);
    assert!(code == 0 || code == 1, "{stdout}{stderr}");
}

#[test]
fn a_file_named_like_a_builtin_wins() {
    let dir = std::env::temp_dir().join(format!("cfp-builtin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    std::fs::write(dir.join("lock"), "wildcard $1 : Lock;\nS -> $1.lock( S\n").expect("write");
    let program = workspace().join("tests/check/24-try-finally.java");
    let out = Command::new(env!("CARGO_BIN_EXE_cfp"))
        .arg("cfa")
        .arg(&program)
        .args(["--spec", "lock"])
        .current_dir(&dir)
        .output()
        .expect("cfp runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.starts_with("lock:2:"),
        "the file's diagnostics: {stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn several_specs_check_each_and_exit_with_the_worst() {
    let program = "tests/check/32-canvas-double-restore.java";
    // canvas: violation; lock: verified (no ReentrantLock) → the worst is the violation.
    let (code, stdout, stderr) = cfp(&[
        "check",
        program,
        "--spec",
        "lock",
        "--spec",
        "canvas",
        "--json",
        "--no-timing",
    ]);
    assert_eq!(code, 1, "{stderr}");
    let all: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(all["verdict"], "violation");
    let specs: Vec<(&str, &str)> = all["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["spec"].as_str().unwrap_or(""),
                r["result"]["verdict"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        specs,
        [
            ("builtin:lock", "verified"),
            ("builtin:canvas", "violation")
        ]
    );
    // Each result is what the spec alone answers.
    let (_, alone, _) = cfp(&[
        "check",
        program,
        "--spec",
        "canvas",
        "--json",
        "--no-timing",
    ]);
    let alone: serde_json::Value = serde_json::from_str(&alone).expect("json");
    assert_eq!(all["results"][1]["result"], alone);
    // Text: one section per spec, in order.
    let (code, text, _) = cfp(&["check", program, "--spec", "lock", "--spec", "canvas"]);
    assert_eq!(code, 1);
    let lock = text
        .find("== builtin:lock\nVERIFIED")
        .expect("the lock section");
    let canvas = text
        .find("== builtin:canvas\nVIOLATION")
        .expect("the canvas section");
    assert!(lock < canvas, "{text}");
    // A budget too small for the lock spec: unknown beats verified, not violation.
    let (code, _, _) = cfp(&[
        "check",
        "tests/check/24-try-finally.java",
        "--spec",
        "canvas",
        "--spec",
        "lock",
        "--max-iterations",
        "1",
    ]);
    assert_eq!(code, 2);
}
