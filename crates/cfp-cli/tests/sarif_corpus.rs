//! `cfp check --format sarif` on every program of `tests/check/`: each log validates against
//! the official SARIF 2.1.0 schema (vendored in `tests/sarif/`), says the same as the run's
//! result object (written by `--record` in the same run), and a violation's code flow has
//! exactly the trace's lines: the same line numbers and nesting depths, in order.

mod common;
use common::{cfp, files, header, rel, workspace};
use serde_json::Value;

fn schema() -> jsonschema::Validator {
    let text = std::fs::read_to_string(workspace().join("tests/sarif/sarif-schema-2.1.0.json"))
        .expect("the vendored schema");
    let mut schema: Value = serde_json::from_str(&text).expect("schema JSON");
    // A known erratum of the official schema: the pattern of the `language` properties
    // (`^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$`) has a stray `]`, which ECMAScript reads
    // as a literal and Rust's regex engines reject, so the schema fails its own
    // meta-schema check. It is replaced by the pattern meant (`cfp` writes no `language`);
    // every other keyword is as published.
    assert_eq!(fix_language_pattern(&mut schema), 2, "the erratum moved");
    jsonschema::validator_for(&schema).expect("the schema compiles")
}

/// Replace the erroneous `language` pattern wherever it is; returns how many were replaced.
fn fix_language_pattern(v: &mut Value) -> usize {
    const BROKEN: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";
    match v {
        Value::Object(map) => map
            .iter_mut()
            .map(|(k, x)| {
                if k == "pattern" && x.as_str() == Some(BROKEN) {
                    *x = Value::from("^[a-zA-Z]{2}(-[a-zA-Z]{2})?$");
                    1
                } else {
                    fix_language_pattern(x)
                }
            })
            .sum(),
        Value::Array(items) => items.iter_mut().map(fix_language_pattern).sum(),
        _ => 0,
    }
}

/// Check the programs whose index modulo `parts` is `part` (two tests share the corpus).
fn check_part(part: usize, parts: usize) {
    let validator = schema();
    let scratch = std::env::temp_dir().join(format!("cfp-sarif-{}-{part}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    let mut checked = 0;
    for (i, path) in files("tests/check", &["java"]).into_iter().enumerate() {
        if i % parts != part {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        let spec = header(&text, "spec:").expect("a // spec: header");
        let program = rel(&path);
        let record = scratch.join("run.json");
        let (code, stdout, stderr) = cfp(&[
            "check",
            &program,
            "--spec",
            &format!("tests/specs/{spec}"),
            "--format",
            "sarif",
            "--no-timing",
            "--record",
            &record.display().to_string(),
        ]);
        assert!((0..=2).contains(&code), "{program}: exit {code}\n{stderr}");
        let log: Value = serde_json::from_str(&stdout).expect("SARIF is JSON");
        let errors: Vec<String> = validator
            .iter_errors(&log)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{program}: not valid SARIF 2.1.0:\n{}",
            errors.join("\n")
        );
        let rec: Value = serde_json::from_str(&std::fs::read_to_string(&record).expect("record"))
            .expect("record JSON");
        let result = &rec["result"];
        let run = &log["runs"][0];
        assert_eq!(
            run["properties"]["verdicts"][0], result["verdict"],
            "{program}"
        );
        assert_eq!(
            run["tool"]["driver"]["rules"][0]["id"],
            spec.trim_end_matches(".cfg")
        );
        let results = run["results"].as_array().expect("results");
        match result["verdict"].as_str() {
            Some("verified") => assert!(results.is_empty(), "{program}"),
            Some("unknown") if result["report"]["possible_violation"].is_object() => {
                // A possible violation: a warning at its call, its trace as code flow.
                assert_eq!(results[0]["level"], "warning", "{program}");
                let steps = results[0]["codeFlows"][0]["threadFlows"][0]["locations"]
                    .as_array()
                    .map_or(0, Vec::len);
                let trace = result["report"]["possible_violation"]["trace"]
                    .as_array()
                    .map_or(0, Vec::len);
                assert!(steps > 0 && steps == trace, "{program}: code flow vs trace");
            }
            Some("unknown") => assert_eq!(results[0]["level"], "note", "{program}"),
            Some("violation") => {
                assert_eq!(results.len(), 1, "{program}");
                assert_eq!(results[0]["level"], "error", "{program}");
                assert_eq!(code, 1, "{program}");
                let trace: Vec<(u64, u64)> = result["counterexample"]["trace"]
                    .as_array()
                    .expect("a trace")
                    .iter()
                    .map(|t| {
                        (
                            t["line"].as_u64().unwrap_or(0),
                            t["depth"].as_u64().unwrap_or(0),
                        )
                    })
                    .collect();
                let flow: Vec<(u64, u64)> = results[0]["codeFlows"][0]["threadFlows"][0]
                    ["locations"]
                    .as_array()
                    .expect("code flow locations")
                    .iter()
                    .map(|l| {
                        let line = l["location"]["physicalLocation"]["region"]["startLine"]
                            .as_u64()
                            .unwrap_or(0);
                        (line, l["nestingLevel"].as_u64().unwrap_or(0))
                    })
                    .collect();
                assert_eq!(flow, trace, "{program}: code flow vs trace");
                let line = results[0]["locations"][0]["physicalLocation"]["region"]["startLine"]
                    .as_u64()
                    .expect("the offending call's line");
                assert!(
                    trace.iter().any(|(l, _)| *l == line),
                    "{program}: line {line} not in the trace"
                );
            }
            other => panic!("{program}: verdict {other:?}"),
        }
        checked += 1;
    }
    assert!(checked > 10, "only {checked} programs");
    let _ = std::fs::remove_dir_all(&scratch);
}

#[test]
fn sarif_of_the_corpus_even() {
    check_part(0, 2);
}

#[test]
fn sarif_of_the_corpus_odd() {
    check_part(1, 2);
}

#[test]
fn the_schema_tells_a_broken_log() {
    let validator = schema();
    let log = |level: &str| {
        serde_json::json!({
            "version": "2.1.0",
            "runs": [{
                "tool": { "driver": { "name": "cfp" } },
                "results": [{ "level": level, "message": { "text": "x" } }]
            }]
        })
    };
    assert!(validator.is_valid(&log("error")));
    assert!(!validator.is_valid(&log("fatal")));
    assert!(!validator.is_valid(&serde_json::json!({ "version": "2.0.0", "runs": [] })));
}
