//! `cfp check --format sarif`: a run as a SARIF 2.1.0 log (OASIS Static Analysis Results
//! Interchange Format), what GitHub code scanning, GitLab and most IDE plugins read.
//!
//! One run, one rule (the spec: its id is the built-in's name or the spec file's stem),
//! and at most one result:
//! * a violation is a result of level `error` at the offending API call (the summary's
//!   line and method), its message the summary sentence, and one `codeFlows` thread flow
//!   holding the nested trace: one location per trace line, in order, with its line, the
//!   source line as a snippet, the step's text as message and the call depth as
//!   `nestingLevel` (the same lines as the text trace);
//! * an `unknown` is a result of level `note` on the program file, its message the reason
//!   — or, when the run found a *possible* violation (a counterexample whose execution
//!   goes through what the model approximates), of level `warning` at its call, with its
//!   trace as code flow;
//! * a verified program has no result.
//!
//! `tool.driver` carries cfp's version and the rule the spec's digest, so a log says which
//! protocol text it was checked against. Pure formatting: the host passes the paths.

use crate::check::ViolationSummary;
use crate::report_json::{ResultJson, VerdictName};
use serde_json::{json, Value};

/// The program and the tool of a SARIF log.
#[derive(Clone, Copy, Debug)]
pub struct SarifProgram<'a> {
    /// The program's path as given (made a URI reference: `/` separators, escaped); for
    /// a program of several files, the first (results name their own files).
    pub path: &'a str,
    /// The program's files (for the snippets of trace lines); a trace line or summary
    /// naming a file is located in it, one naming none in the first file.
    pub sources: &'a cfp_syntax::SourceSet,
    /// cfp's version.
    pub tool_version: &'a str,
}

/// One spec's check: a rule and its result.
#[derive(Clone, Copy, Debug)]
pub struct SarifEntry<'a> {
    /// The rule id: the built-in spec's name or the spec file's stem (unique in the log).
    pub rule_id: &'a str,
    /// Where the spec came from (`builtin:lock`, or its path).
    pub spec_source: &'a str,
    /// The spec's text (its leading comment describes the rule; its digest is recorded).
    pub spec_text: &'a str,
    /// The check's result object.
    pub result: &'a ResultJson,
    /// A violation's summary (the offending call's line and method).
    pub summary: Option<&'a ViolationSummary>,
}

/// The schema URI of SARIF 2.1.0 logs.
pub const SARIF_SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The SARIF 2.1.0 log of one `cfp check` run over one or more specs: one SARIF run, one
/// rule per spec, the results in spec order.
pub fn sarif_log(program: &SarifProgram<'_>, entries: &[SarifEntry<'_>]) -> Value {
    let uri = uri_reference(program.path);
    let rules: Vec<Value> = entries.iter().map(rule).collect();
    let mut results: Vec<Value> = Vec::new();
    for (index, e) in entries.iter().enumerate() {
        match e.result.verdict {
            VerdictName::Verified => {}
            VerdictName::Violation => results.push(violation(e, index, program, &uri)),
            VerdictName::Unknown => results.push(unknown(e, index, program, &uri)),
        }
    }
    let verdicts: Vec<&str> = entries.iter().map(|e| e.result.verdict.as_str()).collect();
    json!({
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "cfp",
                    "fullName": "cfplay's cfp: context-free API protocol verifier",
                    "version": program.tool_version,
                    "semanticVersion": program.tool_version,
                    "rules": rules,
                }
            },
            "artifacts": artifacts(program, &uri),
            "invocations": [{ "executionSuccessful": true }],
            "results": results,
            "properties": { "verdicts": verdicts },
        }]
    })
}

/// The rule of one spec.
fn rule(e: &SarifEntry<'_>) -> Value {
    let description = leading_comment(e.spec_text);
    json!({
        "id": e.rule_id,
        "name": rule_name(e.rule_id),
        "shortDescription": {
            "text": format!("API protocol `{}`: every completed execution's API calls follow its grammar", e.rule_id)
        },
        "fullDescription": {
            "text": if description.is_empty() { format!("The API protocol of {}.", e.spec_source) } else { description }
        },
        "help": { "text": format!("The protocol's grammar ({}):\n{}", e.spec_source, e.spec_text) },
        "defaultConfiguration": { "level": "error" },
        "properties": {
            "spec": e.spec_source,
            "specDigest": format!("fnv1a64:{}", fnv1a64(e.spec_text)),
        }
    })
}

/// The result of an `unknown`: a `note` on the program file with the reason; when the
/// run found a *possible* violation (a counterexample through what the model
/// approximates), a `warning` at its call with its trace as code flow instead.
fn unknown(e: &SarifEntry<'_>, index: usize, program: &SarifProgram<'_>, uri: &str) -> Value {
    let reason = e.result.reason.as_deref().unwrap_or("undecided");
    let possible = e
        .result
        .report
        .as_ref()
        .and_then(|r| r.possible_violation.as_deref());
    let mut out = match possible {
        Some(p) => {
            let trace: Vec<(Option<&str>, u32, &str, usize)> = p
                .trace
                .iter()
                .map(|t| (t.file.as_deref(), t.line, t.text.as_str(), t.depth))
                .collect();
            let mut out = flow_result(
                program,
                uri,
                Some(&p.summary),
                &trace,
                &format!(
                    "cfp found a possible violation of `{}`: {reason}",
                    e.rule_id
                ),
                "the execution that may break the protocol (nested trace)",
            );
            out["level"] = json!("warning");
            out["properties"]["word"] = json!(p.word);
            out
        }
        None => json!({
            "message": {
                "text": format!(
                    "cfp could not decide whether the program follows `{}`: {reason}",
                    e.rule_id
                )
            },
            "locations": [{ "physicalLocation": { "artifactLocation": { "uri": uri } } }],
            "level": "note",
        }),
    };
    out["ruleId"] = json!(e.rule_id);
    out["ruleIndex"] = json!(index);
    out["properties"]["verdict"] = json!("unknown");
    out["properties"]["iterations"] = json!(e.result.iterations);
    out["properties"]["reasonKind"] = json!(e.result.reason_kind);
    out
}

/// The result of a violation: at the offending call, with the nested trace as code flow.
fn violation(e: &SarifEntry<'_>, index: usize, program: &SarifProgram<'_>, uri: &str) -> Value {
    let cex = e.result.counterexample.as_ref();
    let trace: Vec<(Option<&str>, u32, &str, usize)> = cex
        .map(|c| &c.trace[..])
        .unwrap_or_default()
        .iter()
        .map(|t| (t.file.as_deref(), t.line, t.text.as_str(), t.depth))
        .collect();
    let message = match cex {
        Some(c) if !c.summary.is_empty() => c.summary.clone(),
        Some(c) => format!(
            "An execution breaks the protocol `{}`: {}",
            e.rule_id,
            c.word.join(" ")
        ),
        None => format!("An execution breaks the protocol `{}`.", e.rule_id),
    };
    let mut out = flow_result(
        program,
        uri,
        e.summary,
        &trace,
        &message,
        "the execution that breaks the protocol (nested trace)",
    );
    out["ruleId"] = json!(e.rule_id);
    out["ruleIndex"] = json!(index);
    out["level"] = json!("error");
    out["properties"] = json!({
        "verdict": "violation",
        "iterations": e.result.iterations,
        "word": cex.map(|c| c.word.clone()).unwrap_or_default(),
    });
    out
}

/// A result at the offending call of `summary` (else the first trace line with a line),
/// with `trace` — (file, line, step, depth) — as its code flow.
fn flow_result(
    program: &SarifProgram<'_>,
    uri: &str,
    summary: Option<&ViolationSummary>,
    trace: &[(Option<&str>, u32, &str, usize)],
    message: &str,
    flow: &str,
) -> Value {
    let at = summary
        .filter(|s| s.call_line > 0)
        .map(|s| (s.call_file.as_deref(), s.call_line))
        .or_else(|| {
            trace
                .iter()
                .find(|t| t.1 > 0)
                .map(|&(file, line, _, _)| (file, line))
        });
    let mut location = json!({ "physicalLocation": match at {
        Some((file, line)) => physical(program, uri, file, Some(line)),
        None => physical(program, uri, None, None),
    } });
    if let Some(method) = summary.map(|s| s.method.as_str()).filter(|m| !m.is_empty()) {
        location["logicalLocations"] =
            json!([{ "fullyQualifiedName": method, "kind": "function" }]);
    }
    let steps: Vec<Value> = trace
        .iter()
        .map(|&(file, line, text, depth)| {
            let mut loc = json!({ "message": { "text": text } });
            if line > 0 {
                loc["physicalLocation"] = physical(program, uri, file, Some(line));
            }
            json!({ "location": loc, "nestingLevel": depth })
        })
        .collect();
    let mut out = json!({
        "message": { "text": message },
        "locations": [location],
        "properties": {},
    });
    if !steps.is_empty() {
        out["codeFlows"] = json!([{
            "message": { "text": flow },
            "threadFlows": [{ "locations": steps }]
        }]);
    }
    out
}

/// The program's files as SARIF artifacts (the program's own path for one file).
fn artifacts(program: &SarifProgram<'_>, uri: &str) -> Value {
    if program.sources.is_multi() {
        let files: Vec<Value> = program
            .sources
            .files()
            .iter()
            .map(|f| json!({ "location": { "uri": uri_reference(&f.name) } }))
            .collect();
        Value::Array(files)
    } else {
        json!([{ "location": { "uri": uri } }])
    }
}

/// A physical location in the program: the file (`file`, else the program's `uri`), and
/// the line with its text as snippet.
fn physical(program: &SarifProgram<'_>, uri: &str, file: Option<&str>, line: Option<u32>) -> Value {
    let sources = program.sources;
    let found = file.and_then(|f| sources.files().iter().position(|e| e.name == f));
    let (uri, text) = match (file, found) {
        (Some(f), Some(i)) => (uri_reference(f), sources.file_text(i)),
        _ => (uri.to_owned(), sources.file_text(0)),
    };
    let mut loc = json!({ "artifactLocation": { "uri": uri } });
    if let Some(line) = line.filter(|&l| l > 0) {
        let mut region = json!({ "startLine": line });
        if let Some(source) = usize::try_from(line)
            .ok()
            .and_then(|l| text.lines().nth(l - 1))
            .filter(|s| !s.trim().is_empty())
        {
            region["snippet"] = json!({ "text": source.trim() });
        }
        loc["region"] = region;
    }
    loc
}

/// `lock` → `LockProtocol`, `wifi-lock` → `WifiLockProtocol` (SARIF's rule names are
/// identifier-like).
fn rule_name(id: &str) -> String {
    let mut out = String::new();
    for part in id.split(|c: char| !c.is_ascii_alphanumeric()) {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars);
        }
    }
    out.push_str("Protocol");
    out
}

/// The text of the spec's leading `//`/`#` comment lines, joined into one paragraph.
fn leading_comment(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        let Some(rest) = t.strip_prefix("//").or_else(|| t.strip_prefix('#')) else {
            break;
        };
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(rest.trim());
    }
    out
}

/// A path as a relative URI reference: `\` becomes `/`, and every byte outside the
/// unreserved set and `/` is percent-encoded (spaces, `#`, `?`, non-ASCII).
pub fn uri_reference(path: &str) -> String {
    let mut out = String::new();
    for b in path.replace('\\', "/").bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// FNV-1a (64 bits) of `text`, in hex: a short stable digest of the spec text.
fn fnv1a64(text: &str) -> String {
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report_json::{CounterexampleJson, StatsJson, TraceJson};

    const SPEC: &str = "// Locks are released.\nwildcard $1 : Lock;\nS -> ;\n";

    fn program(sources: &cfp_syntax::SourceSet) -> SarifProgram<'_> {
        SarifProgram {
            path: "src/My App.java",
            sources,
            tool_version: "0.1.0",
        }
    }

    fn entry<'a>(r: &'a ResultJson, summary: Option<&'a ViolationSummary>) -> SarifEntry<'a> {
        SarifEntry {
            rule_id: "lock",
            spec_source: "builtin:lock",
            spec_text: SPEC,
            result: r,
            summary,
        }
    }

    fn result(verdict: VerdictName) -> ResultJson {
        ResultJson {
            verdict,
            iterations: 2,
            counterexample: None,
            reason: None,
            reason_kind: None,
            report: None,
            stats: StatsJson::default(),
        }
    }

    #[test]
    fn a_violation_is_an_error_at_the_call_with_the_trace_as_code_flow() {
        let text = "class A {\n  void m() {\n    l.lock();\n  }\n}\n";
        let mut r = result(VerdictName::Violation);
        r.counterexample = Some(CounterexampleJson {
            summary: "`l.lock()` at line 3 (A.m) is never followed by `$1.unlock()`".into(),
            word: vec!["$1.lock()".into()],
            trace: vec![
                TraceJson {
                    file: None,
                    line: 2,
                    text: "enter A.m".into(),
                    depth: 0,
                },
                TraceJson {
                    file: None,
                    line: 3,
                    text: "l.lock()".into(),
                    depth: 1,
                },
                TraceJson {
                    file: None,
                    line: 0,
                    text: "return".into(),
                    depth: 1,
                },
            ],
            values: Default::default(),
            derivation: String::new(),
            replay: Default::default(),
            found_by: Default::default(),
            story: Vec::new(),
        });
        let summary = ViolationSummary {
            text: String::new(),
            call_line: 3,
            method: "A.m".into(),
            exit_line: 4,
            exit_file: None,
            call_file: None,
        };
        let log = sarif_log(
            &program(&cfp_syntax::SourceSet::single("", text)),
            &[entry(&r, Some(&summary))],
        );
        let res = &log["runs"][0]["results"][0];
        assert_eq!(res["level"], "error");
        assert_eq!(res["ruleId"], "lock");
        let loc = &res["locations"][0]["physicalLocation"];
        assert_eq!(loc["artifactLocation"]["uri"], "src/My%20App.java");
        assert_eq!(loc["region"]["startLine"], 3);
        assert_eq!(loc["region"]["snippet"]["text"], "l.lock();");
        assert_eq!(
            res["locations"][0]["logicalLocations"][0]["fullyQualifiedName"],
            "A.m"
        );
        let flow = res["codeFlows"][0]["threadFlows"][0]["locations"]
            .as_array()
            .expect("locations");
        let lines: Vec<(Value, Value)> = flow
            .iter()
            .map(|l| {
                (
                    l["location"]["physicalLocation"]["region"]["startLine"].clone(),
                    l["nestingLevel"].clone(),
                )
            })
            .collect();
        assert_eq!(
            lines,
            [
                (json!(2), json!(0)),
                (json!(3), json!(1)),
                (Value::Null, json!(1))
            ]
        );
        let driver = &log["runs"][0]["tool"]["driver"];
        assert_eq!(driver["version"], "0.1.0");
        assert_eq!(
            driver["rules"][0]["fullDescription"]["text"],
            "Locks are released."
        );
        assert_eq!(driver["rules"][0]["name"], "LockProtocol");
        assert!(driver["rules"][0]["properties"]["specDigest"]
            .as_str()
            .is_some_and(|d| d.starts_with("fnv1a64:")));
    }

    #[test]
    fn unknown_is_a_note_and_verified_has_no_result() {
        let mut r = result(VerdictName::Unknown);
        r.reason = Some("the budget of 2 iterations is used up".into());
        let log = sarif_log(&program(&cfp_syntax::SourceSet::new()), &[entry(&r, None)]);
        let res = &log["runs"][0]["results"][0];
        assert_eq!(res["level"], "note");
        assert!(res["message"]["text"]
            .as_str()
            .is_some_and(|t| t.ends_with("the budget of 2 iterations is used up")));
        let ok = result(VerdictName::Verified);
        let log = sarif_log(&program(&cfp_syntax::SourceSet::new()), &[entry(&ok, None)]);
        assert_eq!(log["runs"][0]["results"], json!([]));
        assert_eq!(log["version"], "2.1.0");
        // Two specs: two rules, the unknown's result points at the second.
        let mut second = entry(&r, None);
        second.rule_id = "lock-2";
        let log = sarif_log(
            &program(&cfp_syntax::SourceSet::new()),
            &[entry(&ok, None), second],
        );
        assert_eq!(log["runs"][0]["tool"]["driver"]["rules"][1]["id"], "lock-2");
        assert_eq!(log["runs"][0]["results"][0]["ruleIndex"], 1);
        assert_eq!(
            log["runs"][0]["properties"]["verdicts"],
            json!(["verified", "unknown"])
        );
    }

    #[test]
    fn uris_and_names() {
        assert_eq!(uri_reference("a\\b c#?.java"), "a/b%20c%23%3F.java");
        assert_eq!(uri_reference("tests/ä.java"), "tests/%C3%A4.java");
        assert_eq!(rule_name("wifi-lock"), "WifiLockProtocol");
        assert_eq!(leading_comment("# a\n// b\nS -> ;"), "a b");
    }
}
