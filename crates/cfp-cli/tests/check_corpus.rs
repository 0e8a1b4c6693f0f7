//! End-to-end tests of `cfp check` over the verdict corpus `tests/check/*.java` (headers
//! `// spec:`, `// expect: verified|violation|unknown <reason kind>`, `// word:`), with
//! the native z3 (`CFP_Z3`,
//! exported by `cargo xtask test`; otherwise `target/tools/z3/bin/z3` or `PATH`).
//!
//! * every program gets exactly its expected verdict, with the exit code of that verdict
//!   (the corpus runs once; the table is printed with `--nocapture`; times are measured by
//!   `cargo xtask bench-check`, not here);
//! * every violation is confirmed independently: the reported path and initial values are
//!   replayed through the concrete interpreter (`cfp_core::interp`) on a program we lower
//!   ourselves; the run must complete, follow the whole path, emit the reported word, and
//!   that word must be outside the spec (Earley);
//! * `--json` and `--record` output is byte-identical across runs (`--no-timing`);
//! * `--timeout` and `--max-iterations 0/1` give exit 2 with a reason and its kind; a
//!   missing z3 gives exit 3 with the install hint.

mod common;
use cfp_core::interp::{self, EdgeCursor, EdgeQuery, InterpError, Oracle, Step, Value, ValueQuery};
use cfp_core::interp::{Limits, ValueSource};
use cfp_core::{MethodId, Sort};
use common::{cfp, files, header, rel, workspace};
use std::path::Path;

struct Case {
    name: String,
    program: String,
    spec: String,
    expect: String,
    word: Option<String>,
    /// `// exit: N`: the line where the summary says the run leaves the protocol
    /// unfinished.
    exit: Option<String>,
}

fn cases() -> Vec<Case> {
    files("tests/check", &["java"])
        .into_iter()
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            let spec = header(&text, "spec:").unwrap_or_else(|| panic!("{name}: no spec"));
            let expect = header(&text, "expect:").unwrap_or_else(|| panic!("{name}: no expect"));
            Case {
                name,
                program: rel(&path),
                spec: format!("tests/specs/{spec}"),
                expect,
                word: header(&text, "word:"),
                exit: header(&text, "exit:"),
            }
        })
        .collect()
}

fn check_json(case: &Case, extra: &[&str]) -> (i32, serde_json::Value, String) {
    let mut args = vec![
        "check",
        case.program.as_str(),
        "--spec",
        case.spec.as_str(),
        "--json",
        "--no-timing",
    ];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = cfp(&args);
    let json = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{}: bad JSON ({e}):\n{stdout}\n{stderr}", case.name));
    (code, json, stderr)
}

fn words(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn corpus_has_the_verdict_programs() {
    let cases = cases();
    assert!(cases.len() >= 36, "{} programs", cases.len());
    for c in &cases {
        assert!(
            c.expect == "verified"
                || c.expect == "violation"
                || c.expect.strip_prefix("unknown ").is_some(),
            "{}: expect {}",
            c.name,
            c.expect
        );
    }
}

/// Every program once: exactly its `// expect:` verdict, the exit code of that verdict, and
/// an independent confirmation of every violation (replayed through the concrete
/// interpreter, its word outside the spec). Prints the table.
#[test]
fn corpus_verdicts_are_right_and_violations_replay() {
    let mut failures = Vec::new();
    let mut table = String::new();
    for case in cases() {
        let (code, json, stderr) = check_json(&case, &[]);
        let name = &case.name;
        let verdict = json["verdict"].as_str().unwrap_or("?");
        table += &format!(
            "{name:<40} {:<10} {verdict:<10} {:>3} it {:>5} q\n",
            case.expect,
            json["iterations"].as_u64().unwrap_or(0),
            json["stats"]["smt_queries"].as_u64().unwrap_or(0)
        );
        let expected_code = match verdict {
            "verified" => 0,
            "violation" => 1,
            "unknown" => 2,
            other => {
                failures.push(format!("{name}: verdict {other}\n{stderr}"));
                continue;
            }
        };
        if code != expected_code {
            failures.push(format!("{name}: exit {code} for {verdict}"));
        }
        let got = match json["reason_kind"].as_str() {
            Some(kind) if verdict == "unknown" => format!("unknown {kind}"),
            _ => verdict.to_owned(),
        };
        if got != case.expect {
            let wrong = if verdict == "unknown" || case.expect.starts_with("unknown") {
                ""
            } else {
                "WRONG VERDICT "
            };
            failures.push(format!(
                "{name}: {wrong}expected {}, got {verdict} {}",
                case.expect,
                json["reason"].as_str().unwrap_or("")
            ));
        }
        if verdict == "unknown"
            && (json["reason"].as_str().is_none_or(str::is_empty)
                || json["reason_kind"].as_str().is_none())
        {
            failures.push(format!("{name}: unknown without a reason and its kind"));
        }
        if verdict == "violation" {
            if let Err(e) = confirm_violation(&case, &json["counterexample"]) {
                failures.push(format!("{name}: replay: {e}"));
            }
            if let Err(e) = exit_is_in_the_source(&case, &json["counterexample"]["summary"]) {
                failures.push(format!("{name}: summary: {e}"));
            }
            if let Err(e) = story_marks_the_lines(&json["counterexample"]) {
                failures.push(format!("{name}: story: {e}"));
            }
        }
    }
    eprintln!("{table}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A summary that says where the run leaves the protocol unfinished names a line of the
/// program that is there: "returns at line N (`return x`)" quotes line N's `return`,
/// "returns after line N" / "ends after line N" name a line with code on it.
fn exit_is_in_the_source(case: &Case, summary: &serde_json::Value) -> Result<(), String> {
    let text = summary.as_str().ok_or("no summary")?;
    if !text.contains(" is never followed by ") {
        return Ok(());
    }
    let Some((_, ending)) = text.rsplit_once(": ") else {
        return Err(format!("no ending: {text}"));
    };
    if let Some(line) = &case.exit {
        if !ending.contains(&format!(" line {line} "))
            && !ending.contains(&format!(" line {line}."))
        {
            return Err(format!("the exit is not line {line}: {ending}"));
        }
    }
    let source = std::fs::read_to_string(common::workspace().join(&case.program))
        .map_err(|e| e.to_string())?;
    let line_text = |n: usize| source.lines().nth(n.wrapping_sub(1)).unwrap_or("").trim();
    let number = |s: &str| {
        s.split(|c: char| !c.is_ascii_digit())
            .next()?
            .parse::<usize>()
            .ok()
    };
    if let Some(rest) = ending.split(" at line ").nth(1) {
        let n = number(rest).ok_or(format!("no line: {ending}"))?;
        // (A line with more than the `return` on it is named, not quoted.)
        let quoted = rest.split('`').nth(1).unwrap_or("return");
        if !quoted.starts_with("return") || !line_text(n).contains(quoted) {
            return Err(format!("line {n} is `{}`, not `{quoted}`", line_text(n)));
        }
    } else if let Some(rest) = ending.split(" after line ").nth(1) {
        let n = number(rest).ok_or(format!("no line: {ending}"))?;
        let code = line_text(n);
        if code.is_empty() || code.starts_with("//") || code == "}" {
            return Err(format!("line {n} has no statement: `{code}`"));
        }
    } else if !ending.contains(".java:") {
        return Err(format!("no exit line: {ending}"));
    }
    Ok(())
}

/// The story of a violation marks the call the summary names, on its line, and the exit
/// when the summary names one.
fn story_marks_the_lines(cex: &serde_json::Value) -> Result<(), String> {
    let story = cex["story"].as_array().ok_or("no story")?;
    let summary = cex["summary"].as_str().unwrap_or_default();
    let line_after = |text: &str, key: &str| -> Option<u64> {
        let rest = text.split(key).nth(1)?;
        rest.split(|c: char| !c.is_ascii_digit())
            .next()?
            .parse()
            .ok()
    };
    let marked = |mark: &str| -> Vec<u64> {
        story
            .iter()
            .filter(|r| r[mark] == true)
            .filter_map(|r| r["line"].as_u64())
            .collect()
    };
    let call = marked("call");
    match line_after(summary, " at line ") {
        Some(n) if !call.contains(&n) => {
            return Err(format!("the call of line {n} is marked on {call:?}"));
        }
        None if call.is_empty() => return Err("no call marked".into()),
        _ => {}
    }
    if summary.contains(" is never followed by ") {
        let ending = summary.rsplit_once(": ").map_or("", |(_, e)| e);
        let exit = [" at line ", " after line "]
            .iter()
            .find_map(|k| line_after(ending, k));
        if let Some(n) = exit {
            if !marked("exit").contains(&n) {
                return Err(format!(
                    "the exit at line {n} is not marked: {:?}",
                    marked("exit")
                ));
            }
        }
    }
    Ok(())
}

/// Most runs of the replay search of one counterexample.
const MAX_REPLAYS: usize = 20_000;
/// Most total candidate index the replay search tries (see `confirm_violation`).
const MAX_DISCREPANCY: usize = 12;

/// Follows the reported edges; initial globals from the report; every other value (havocs,
/// unknown initial contents) by chronological backtracking over a few candidates.
struct ReplayPath<'a> {
    path: EdgeCursor,
    /// The integers of the report's values, tried after the small candidates.
    reported: &'a [i64],
    globals: &'a [Option<i64>],
    /// Candidate index for each free value query, in order (the prefix being tried).
    choices: Vec<usize>,
    /// How many candidates each free query had.
    arity: Vec<usize>,
    asked: usize,
}

/// Values to try for a free query: a few small ones, then the integers of the report's
/// values (the solver's model may number objects from anywhere).
fn candidates(q: &ValueQuery, reported: &[i64]) -> Vec<Value> {
    let mut out: Vec<i64> = match q.sort {
        Sort::Bool => return vec![Value::Bool(false), Value::Bool(true)],
        Sort::Int => vec![0, 1, -1, 2, 3, 10],
        Sort::Ref => (1..=q.allocated.max(0) + 3).chain([0]).collect(),
    };
    for v in reported {
        if !out.contains(v) {
            out.push(*v);
        }
    }
    out.into_iter().map(Value::Int).collect()
}

/// Every integer in the report's `values` (scalars and array cells).
fn reported_ints(cex: &serde_json::Value) -> Vec<i64> {
    let mut out = Vec::new();
    if let Some(values) = cex["values"].as_object() {
        for v in values.values() {
            let text = v.as_str().unwrap_or_default();
            for tok in text.split(|c: char| !(c.is_ascii_digit() || c == '-')) {
                if let Ok(n) = tok.parse::<i64>() {
                    if !out.contains(&n) {
                        out.push(n);
                    }
                }
            }
        }
    }
    out
}

impl Oracle for ReplayPath<'_> {
    fn value(&mut self, q: &ValueQuery) -> Option<Value> {
        if let ValueSource::GlobalInit(g) = q.source {
            if let Some(Some(v)) = self.globals.get(g.index()) {
                return Some(match q.sort {
                    Sort::Bool => Value::Bool(*v != 0),
                    _ => Value::Int(*v),
                });
            }
        }
        let cands = candidates(q, self.reported);
        let i = self.asked;
        self.asked += 1;
        if self.choices.len() <= i {
            self.choices.push(0);
        }
        self.arity.truncate(i);
        self.arity.push(cands.len());
        cands.get(self.choices[i]).copied()
    }

    fn edge(&mut self, q: &EdgeQuery) -> Option<usize> {
        self.path.edge(q)
    }

    fn observe(&mut self, step: &Step) {
        self.path.observe(step);
    }
}

fn confirm_violation(case: &Case, cex: &serde_json::Value) -> Result<(), String> {
    let word = words(&cex["word"]);
    if let Some(expected) = &case.word {
        // The header's word is a shortest violating word; the reported one must be no longer.
        let n = expected.split_whitespace().count();
        if word.len() > n {
            return Err(format!(
                "reported word [{}] is longer than the shortest one [{expected}]",
                word.join(" ")
            ));
        }
    }
    let edges: Vec<(MethodId, usize)> = cex["replay"]["edges"]
        .as_array()
        .ok_or("no replay edges")?
        .iter()
        .map(|e| {
            let m = e[0].as_u64().unwrap_or(u64::MAX) as u32;
            (MethodId(m), e[1].as_u64().unwrap_or(u64::MAX) as usize)
        })
        .collect();
    let globals: Vec<Option<i64>> = cex["replay"]["globals"]
        .as_array()
        .ok_or("no replay globals")?
        .iter()
        .map(serde_json::Value::as_i64)
        .collect();

    let root = workspace();
    let program_text = std::fs::read_to_string(root.join(&case.program)).unwrap();
    let spec_text = std::fs::read_to_string(root.join(&case.spec)).unwrap();
    // (A program of several files in one text is read as its files.)
    let unit =
        cfp_syntax::parse_sources(&cfp_syntax::SourceSet::from_marked("", &program_text)).tree;
    let spec = cfp_syntax::parse_spec(&spec_text).tree;
    let (program, _) = cfp_core::front_end(&unit, &spec, &Default::default())
        .map_err(|e| format!("front end: {e}"))?;

    let reported = reported_ints(cex);
    let mut last_error = String::from("no run");
    let mut runs = 0;
    // Limited discrepancy: the candidates are ordered best first, so the combinations
    // whose candidate indices sum to at most `limit` are tried for limit 0, 1, 2, …
    for limit in 0..=MAX_DISCREPANCY {
        let mut choices: Vec<usize> = Vec::new();
        loop {
            runs += 1;
            if runs > MAX_REPLAYS {
                return Err(format!("replay search gave up: {last_error}"));
            }
            let mut oracle = ReplayPath {
                path: EdgeCursor::new(edges.clone()),
                reported: &reported,
                globals: &globals,
                choices: choices.clone(),
                arity: Vec::new(),
                asked: 0,
            };
            let limits = Limits {
                max_steps: edges.len() + 10,
                ..Limits::default()
            };
            let result = interp::run(&program, &mut oracle, limits);
            match result {
                Ok(run) if run.completed && !oracle.path.diverged && oracle.path.done() => {
                    if run.word != word {
                        return Err(format!(
                            "replay emits [{}], reported [{}]",
                            run.word.join(" "),
                            word.join(" ")
                        ));
                    }
                    let g = cfp_grammar::Grammar::from_spec(&spec);
                    if cfp_grammar::word_in(&g, &run.word_refs()) {
                        return Err(format!("word [{}] is in the spec", word.join(" ")));
                    }
                    return Ok(());
                }
                Ok(run) => {
                    last_error = format!(
                        "run ended (completed {}, diverged {}, {} of {} edges)",
                        run.completed,
                        oracle.path.diverged,
                        oracle.path.next,
                        edges.len()
                    );
                }
                Err(e @ InterpError::BadId(_)) => return Err(e.to_string()),
                Err(e) => last_error = e.to_string(),
            }
            // Backtrack: the last free value with an untried candidate within the limit.
            let mut next = oracle.choices;
            next.truncate(oracle.arity.len());
            let advanced = loop {
                match next.pop() {
                    None => break false,
                    Some(c)
                        if c + 1 < oracle.arity[next.len()]
                            && next.iter().sum::<usize>() + c < limit =>
                    {
                        next.push(c + 1);
                        break true;
                    }
                    Some(_) => {}
                }
            };
            if !advanced {
                break;
            }
            choices = next;
        }
    }
    Err(format!("no replay follows the path: {last_error}"))
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn json_and_record_are_deterministic() {
    let dir = std::env::temp_dir().join(format!("cfp-check-det-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let all = cases();
    let picked = ["01-", "02-", "18-", "31-"];
    for case in all
        .iter()
        .filter(|c| picked.iter().any(|p| c.name.starts_with(p)))
    {
        let mut outputs = Vec::new();
        for i in 0..2 {
            let rec = dir.join(format!("{}.{i}.json", case.name));
            let rec_s = rec.display().to_string();
            let (code, stdout, stderr) = cfp(&[
                "check",
                &case.program,
                "--spec",
                &case.spec,
                "--json",
                "--no-timing",
                "--record",
                &rec_s,
            ]);
            assert!(code <= 2, "{}: exit {code}\n{stderr}", case.name);
            let record: serde_json::Value = serde_json::from_slice(&read(&rec)).unwrap();
            assert_eq!(record["version"], 1);
            assert!(record["events"].as_array().is_some_and(|e| !e.is_empty()));
            assert!(record.get("timings").is_none(), "{}", case.name);
            outputs.push((stdout, read(&rec)));
        }
        assert!(
            outputs[0] == outputs[1],
            "{}: two runs differ in --json or --record output",
            case.name
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn record_has_timings_only_without_no_timing() {
    let dir = std::env::temp_dir().join(format!("cfp-check-rec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rec = dir.join("r.json");
    let rec_s = rec.display().to_string();
    let (code, _, stderr) = cfp(&[
        "check",
        "tests/check/02-paper-fig2-double-acquire.java",
        "--spec",
        "tests/specs/lock-paper.cfg",
        "--record",
        &rec_s,
    ]);
    assert!(code <= 2, "exit {code}\n{stderr}");
    let record: serde_json::Value = serde_json::from_slice(&read(&rec)).unwrap();
    let events = record["events"].as_array().unwrap().len();
    assert_eq!(
        record["timings"]["step_ms"].as_array().unwrap().len(),
        events
    );
    let last = &record["events"][events - 1];
    assert_eq!(last["kind"], "finished");
    let _ = std::fs::remove_dir_all(&dir);
}

fn paper_case() -> Case {
    cases()
        .into_iter()
        .find(|c| c.name.starts_with("01-"))
        .unwrap()
}

#[test]
fn budgets_give_unknown_with_a_reason() {
    let case = paper_case();
    // The paper's example needs the interpolants of a spurious path: more than one
    // iteration, so a budget of 1 cannot verify it.
    let (_, full, _) = check_json(&case, &[]);
    let needed = full["iterations"].as_u64().unwrap_or(0);
    let mut budgets = vec!["0"];
    if needed >= 2 {
        budgets.push("1");
    }
    for n in budgets {
        let (code, json, stderr) = check_json(&case, &["--max-iterations", n]);
        assert_eq!(code, 2, "--max-iterations {n}: {json}\n{stderr}");
        assert_eq!(json["verdict"], "unknown");
        assert_eq!(json["reason_kind"], "budget");
        let reason = json["reason"].as_str().unwrap_or("");
        assert!(
            reason.contains("iteration"),
            "--max-iterations {n}: {reason}"
        );
    }
    let (code, json, stderr) = check_json(&case, &["--timeout", "0.000001"]);
    assert_eq!(code, 2, "{json}\n{stderr}");
    assert_eq!(json["verdict"], "unknown");
    let reason = json["reason"].as_str().unwrap_or("");
    assert!(reason.contains("timeout"), "{reason}");
    assert_eq!(json["reason_kind"], "timeout");
}

#[test]
fn missing_z3_is_bad_input_with_the_install_hint() {
    let case = paper_case();
    let (code, stdout, stderr) = cfp(&[
        "check",
        &case.program,
        "--spec",
        &case.spec,
        "--z3",
        "/nonexistent/z3",
    ]);
    assert_eq!(code, 3, "{stdout}{stderr}");
    assert!(stderr.contains("cargo xtask setup-z3"), "{stderr}");
}

#[test]
fn bad_inputs_exit_3() {
    let (code, _, stderr) = cfp(&[
        "check",
        "tests/check/does-not-exist.java",
        "--spec",
        "tests/specs/lock.cfg",
    ]);
    assert_eq!(code, 3, "{stderr}");
    let (code, _, stderr) = cfp(&[
        "check",
        "tests/check/01-paper-fig2.java",
        "--spec",
        "tests/specs/lock.cfg",
        "--timeout=-1",
    ]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("--timeout"), "{stderr}");
}

#[test]
fn human_output_shows_the_verdict() {
    let (code, stdout, stderr) = cfp(&[
        "check",
        "tests/check/02-paper-fig2-double-acquire.java",
        "--spec",
        "tests/specs/lock-paper.cfg",
        "--stats",
    ]);
    assert!(code <= 2, "{stderr}");
    let banner = ["VERIFIED", "VIOLATION", "UNKNOWN"][code as usize];
    assert!(stdout.starts_with(banner), "{stdout}");
    assert!(stdout.contains("SMT queries"), "{stdout}");
    if code == 1 {
        assert!(stdout.contains("word: "), "{stdout}");
        assert!(
            stdout.contains("story (the run, line by line):")
                && stdout.contains("trace (the checker's steps):"),
            "{stdout}"
        );
        assert!(stdout.contains("    L"), "{stdout}");
    }
}
