//! The CLI's one error format and its exit codes: every failing command ends with exactly one
//! `cfp <command>: …` line (after any `file:line:col: error: …` diagnostics) and exits 3; a
//! reader that closes the pipe early ends the command quietly with its normal exit code.

mod common;
use common::{cfp, workspace};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

/// A scratch directory for this test process.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cfp-cli-errors-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The lines of `stderr` that are not diagnostics' snippets (`  |`, carets, source).
fn message_lines(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with(' ') && !l.contains(" | "))
        .filter(|l| !l.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .collect()
}

#[test]
fn every_error_is_one_prefixed_line_and_exit_3() {
    let dir = scratch("format");
    let bad_java = dir.join("bad.java");
    std::fs::write(&bad_java, "class A { void m() { int x = ; } }\n").expect("write");
    let bad_utf8 = dir.join("latin1.java");
    std::fs::write(&bad_utf8, b"class A {}\n// caf\xe9\n").expect("write");
    let bad_spec = dir.join("bad.cfg");
    std::fs::write(&bad_spec, "wildcard $1 : Lock;\nS -> $1.lock( S\n").expect("write");
    let bad_record = dir.join("bad.record.json");
    std::fs::write(&bad_record, "{\"version\": 1,\n \"program\" 3}\n").expect("write");
    let (bad_java, bad_utf8, bad_spec, bad_record) = (
        bad_java.display().to_string(),
        bad_utf8.display().to_string(),
        bad_spec.display().to_string(),
        bad_record.display().to_string(),
    );
    let unwritable = dir.join("no/such/dir/run.json").display().to_string();
    let program = "tests/check/01-paper-fig2.java";
    let spec = "tests/specs/lock-paper.cfg";
    let cases: Vec<(Vec<&str>, &str, &str)> = vec![
        (vec!["parse", "nope.java"], "parse", "cannot read nope.java"),
        (vec!["parse", &bad_java], "parse", "has errors"),
        (vec!["parse", &bad_utf8], "parse", "has errors"),
        (
            vec!["cfa", program, "--spec", &bad_spec],
            "cfa",
            "has errors",
        ),
        (
            vec!["cfa", &bad_java, "--spec", &bad_spec],
            "cfa",
            "have errors",
        ),
        (
            vec!["check", "nope.java", "--spec", spec],
            "check",
            "cannot read",
        ),
        (
            vec!["check", program, "--spec", spec, "--timeout", "-1"],
            "check",
            "--timeout must be a positive number",
        ),
        (
            vec!["check", program, "--spec", spec, "--z3", "/nonexistent/z3"],
            "check",
            "cargo xtask setup-z3",
        ),
        (
            vec!["check", program, "--spec", spec, "--record", &unwritable],
            "check",
            "cannot write the record",
        ),
        (
            vec!["include", spec, "--spec", spec, "--max-steps", "0"],
            "include",
            "--max-steps must be at least 1",
        ),
        (vec!["share", &bad_record], "share", "has errors"),
        (
            vec!["share", &bad_record, "--base", "ftp://x/"],
            "share",
            "--base must be",
        ),
        (
            vec!["check", program, "--spec", "lok"],
            "check",
            "`lok` is not a built-in spec (lock, wakelock",
        ),
        (
            vec!["specs", "lok"],
            "specs",
            "`lok` is not a built-in spec",
        ),
        (
            vec![
                "check",
                program,
                "--spec",
                spec,
                "--spec",
                "lock",
                "--record",
                &unwritable,
            ],
            "check",
            "--record records one run",
        ),
        (vec!["check", "--no-such-flag"], "check", "--no-such-flag"),
        (vec!["frobnicate"], "", "frobnicate"),
    ];
    for (args, command, needle) in cases {
        let (code, stdout, stderr) = cfp(&args);
        assert_eq!(code, 3, "{args:?}: exit {code}\n{stdout}{stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        let prefix = if command.is_empty() {
            "cfp: ".to_string()
        } else {
            format!("cfp {command}: ")
        };
        let messages = message_lines(&stderr);
        let prefixed: Vec<&&str> = messages.iter().filter(|l| l.starts_with("cfp")).collect();
        assert_eq!(prefixed.len(), 1, "{args:?}: one `cfp …:` line\n{stderr}");
        assert!(prefixed[0].starts_with(&prefix), "{args:?}: {stderr}");
        assert!(
            stderr.contains(needle),
            "{args:?}: wanted {needle:?}\n{stderr}"
        );
        // Everything else on stderr is a positioned diagnostic (or clap's usage text).
        for l in &messages {
            let positioned = l
                .split(':')
                .nth(1)
                .is_some_and(|n| n.parse::<u32>().is_ok());
            let usage = l.starts_with("Usage:") || l.starts_with("For more information");
            assert!(
                l.starts_with(&prefix) || positioned || usage,
                "{args:?}: stray line {l:?}\n{stderr}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diagnostics_come_before_the_summary_with_positions() {
    let dir = scratch("positions");
    let latin1 = dir.join("latin1.java");
    std::fs::write(&latin1, b"class A {}\n// caf\xe9\n").expect("write");
    let latin1 = latin1.display().to_string();
    let (code, _, stderr) = cfp(&["parse", &latin1]);
    assert_eq!(code, 3);
    assert!(
        stderr.starts_with(&format!("{latin1}:2:7: error: ")),
        "{stderr}"
    );
    assert!(
        stderr.trim_end().ends_with("(see the diagnostics above)"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A program whose CFAs print far more than a pipe buffer holds (64 KiB on Linux).
fn big_program() -> String {
    let mut s = String::from("class Main {\n  static ReentrantLock l = new ReentrantLock();\n");
    for i in 0..400 {
        s.push_str(&format!(
            "  static void m{i}(int x) {{ if (x > {i}) {{ l.lock(); x = x + 1; l.unlock(); }} }}\n"
        ));
    }
    s.push_str("  public static void main(String[] a) { m0(1); }\n}\n");
    s
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let dir = scratch("pipe");
    let program = dir.join("Big.java");
    std::fs::write(&program, big_program()).expect("write");
    for format in [&["--dot"][..], &[]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cfp"))
            .arg("cfa")
            .arg(&program)
            .args(["--spec", "tests/specs/lock.cfg"])
            .args(format)
            .current_dir(workspace())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("cfp runs");
        // Drain stderr meanwhile, so that a full stderr pipe cannot block the command.
        let mut stderr_pipe = child.stderr.take().expect("stderr");
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = std::io::Read::read_to_string(&mut stderr_pipe, &mut text);
            text
        });
        let mut first = String::new();
        {
            // Like `| head -1`: read one line, then close the pipe.
            let stdout = child.stdout.take().expect("stdout");
            BufReader::new(stdout)
                .read_line(&mut first)
                .expect("a line");
        }
        let status = child.wait().expect("cfp ends");
        let stderr = stderr.join().expect("stderr reader");
        assert!(!first.is_empty());
        assert_eq!(status.code(), Some(0), "{format:?}: {stderr}");
        assert!(stderr.is_empty(), "{format:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn exit_codes_are_named_by_outcome() {
    let (code, _, _) = cfp(&[
        "include",
        "tests/inclusion/nin-02-paper-fig4.cfg",
        "--spec",
        "tests/specs/lock-paper.cfg",
    ]);
    assert_eq!(code, 1, "not included");
    let (code, stdout, _) = cfp(&[
        "include",
        "tests/inclusion/nin-02-paper-fig4.cfg",
        "--spec",
        "tests/specs/lock-paper.cfg",
        "--max-steps",
        "1",
        "--json",
    ]);
    assert_eq!(code, 2, "unknown: {stdout}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(json["reason_kind"], "budget", "{json}");
    let (code, _, _) = cfp(&[
        "parse",
        "tests/specs/lock.cfg",
        "tests/check/01-paper-fig2.java",
    ]);
    assert_eq!(code, 0);
    let (code, stdout, _) = cfp(&["--version"]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("cfp "), "{stdout}");
}

#[test]
fn an_error_in_code_the_check_does_not_reach_is_a_warning() {
    let dir = scratch("unreached");
    let unused = "    static void unused() {\n        frobnicate(3);\n    }\n";
    let program = |extra: &str, call: &str| {
        format!(
            "import java.util.concurrent.locks.ReentrantLock;\nclass Main {{\n    static ReentrantLock l = new ReentrantLock();\n    public static void main(String[] args) {{\n        l.lock();\n        {call}\n        l.unlock();\n    }}\n{extra}}}\n"
        )
    };
    let quiet = dir.join("Quiet.java");
    std::fs::write(&quiet, program(unused, "")).expect("write");
    let (code, stdout, stderr) = cfp(&["check", &quiet.display().to_string(), "--spec", "lock"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stderr.contains("Quiet.java:10:9: warning: cannot find method `frobnicate`")
            && stderr.contains("does not reach"),
        "{stderr}"
    );
    // Reached, the same error stops the check.
    let loud = dir.join("Loud.java");
    std::fs::write(&loud, program(unused, "unused();")).expect("write");
    let (code, _, stderr) = cfp(&["check", &loud.display().to_string(), "--spec", "lock"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(
        stderr.contains("Loud.java:10:9: error: cannot find method"),
        "{stderr}"
    );
}

#[test]
fn an_unsupported_construct_out_of_reach_keeps_the_harness_and_the_models() {
    let dir = scratch("deferred");
    let file = dir.join("Account.java");
    std::fs::write(
        &file,
        "import java.util.concurrent.locks.ReentrantLock;\n\
         public class Account {\n\
         \x20   private final ReentrantLock lock = new ReentrantLock();\n\
         \x20   public void deposit() {\n\
         \x20       if (lock.tryLock()) {\n\
         \x20           lock.unlock();\n\
         \x20       }\n\
         \x20   }\n\
         \x20   class Inner { }\n\
         \x20   private Object unused(Account a) {\n\
         \x20       return a.new Inner();\n\
         \x20   }\n\
         }\n",
    )
    .expect("write");
    let path = file.display().to_string();
    let args = [
        "check",
        &path,
        "--spec",
        "lock",
        "--harness",
        "public-methods",
    ];
    let (code, stdout, stderr) = cfp(&args);
    // The harness drives `deposit`, and the reentrant-lock model makes `tryLock` true
    // only when it takes the lock: verified.
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stderr.contains("Account.java:11:16: warning: qualified `new`")
            && stderr.contains("does not reach"),
        "{stderr}"
    );
}
