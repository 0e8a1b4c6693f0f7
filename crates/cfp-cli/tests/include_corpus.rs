//! End-to-end tests of `cfp include` over the corpus `tests/inclusion/*.cfg`.
//!
//! Each file is a grammar G in the spec syntax with two header lines:
//! `// spec: lock.cfg` names S (a file in `tests/inclusion/specs/`, else in `tests/specs/`)
//! and `// expect: included` or `// expect: not-included N`, N being the length of the
//! shortest word of L(G) \ L(S) (computed by hand; this test re-derives it by enumeration).
//!
//! For every file, `cfp include G --spec S --json --no-timing` runs twice (the two outputs
//! must be byte-identical) and its exit code and `result` must match the expectation. Then:
//!
//! * **not included** — the word is in L(G) and not in L(S) (Earley), has length N, N is
//!   the shortest counterexample length found by enumerating G's words, and the printed
//!   derivation is a derivation over G's own productions, rooted at G's start symbol,
//!   whose yield is the word;
//! * **included** — the certificate, obtained from the library on the same grammars, passes
//!   [`cfp_grammar::recheck_certificate`] and equals the printed one, and every word of G
//!   up to length 10 is in L(S).
//!
//! Timing appears only as `stats.time_ms`, which `--no-timing` leaves out.

mod common;
use cfp_grammar::{
    check_inclusion, earley, enumerate, recheck_certificate, Derivation, DerivationChild, Grammar,
    InclusionOptions, InclusionResult, ProdId,
};
use common::{cfp, files, header, rel, workspace};
use serde_json::Value;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// Words of G up to this length must all be in S when inclusion is proved.
const ENUMERATE_INCLUDED_UP_TO: usize = 10;

fn corpus() -> Vec<PathBuf> {
    files("tests/inclusion", &["cfg"])
}

fn spec_path(name: &str) -> PathBuf {
    let local = workspace().join("tests/inclusion/specs").join(name);
    if local.exists() {
        local
    } else {
        workspace().join("tests/specs").join(name)
    }
}

fn grammar(path: &Path) -> Grammar {
    let text = std::fs::read_to_string(path).expect("readable grammar");
    let parsed = cfp_syntax::parse_spec(&text);
    assert!(
        !parsed.has_errors(),
        "{}: {:?}",
        rel(path),
        parsed.diagnostics
    );
    Grammar::from_spec(&parsed.tree)
}

/// What a corpus file expects.
#[derive(Debug, PartialEq)]
enum Expect {
    Included,
    NotIncluded(usize),
}

fn expectation(file: &str, text: &str) -> Expect {
    let e = header(text, "expect:").unwrap_or_else(|| panic!("{file}: no `// expect:` line"));
    if e == "included" {
        return Expect::Included;
    }
    let n = e
        .strip_prefix("not-included")
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("{file}: bad expectation `{e}`"));
    Expect::NotIncluded(n)
}

/// Rebuild a [`Derivation`] over `g` from its JSON form, matching each node's
/// `"production"` text against g's productions. `Err` says what does not match.
fn derivation_from_json(g: &Grammar, v: &Value) -> Result<Derivation, String> {
    let text = v["production"]
        .as_str()
        .ok_or_else(|| format!("node without a production: {v}"))?;
    let kids = v["children"]
        .as_array()
        .ok_or_else(|| format!("node without children: {v}"))?;
    let mut children = Vec::new();
    for k in kids {
        children.push(match k {
            Value::String(t) => DerivationChild::Terminal(
                g.find_terminal(t)
                    .ok_or_else(|| format!("`{t}` is not a terminal of G"))?,
            ),
            _ => DerivationChild::Node(derivation_from_json(g, k)?),
        });
    }
    // Among productions with this text, the one whose shape matches the children.
    let production = (0..g.productions.len())
        .map(|i| ProdId(i as u32))
        .find(|&p| {
            let prod = g.production(p);
            let shown = format!(
                "{} -> {}",
                g.nonterminal_name(prod.lhs),
                g.rhs_to_string(&prod.rhs)
            );
            shown == text
        })
        .ok_or_else(|| format!("`{text}` is not a production of G"))?;
    Ok(Derivation {
        production,
        children,
    })
}

/// The shortest length of a word of L(g) \ L(s) up to `max_len`, by enumeration.
fn shortest_counterexample(g: &Grammar, s: &Grammar, max_len: usize) -> Option<usize> {
    let e = enumerate(g, max_len, 1_000_000);
    assert!(
        !e.truncated || e.complete_below > max_len,
        "enumeration truncated"
    );
    e.words
        .iter()
        .find(|w| {
            let names: Vec<&str> = w.iter().map(|t| g.terminal_name(*t)).collect();
            !earley::word_in(s, &names)
        })
        .map(Vec::len)
}

fn check_file(path: &Path) -> Result<Expect, String> {
    let file = rel(path);
    let text = std::fs::read_to_string(path).map_err(|e| format!("{file}: {e}"))?;
    let spec_name = header(&text, "spec:").ok_or(format!("{file}: no `// spec:` line"))?;
    let spec = spec_path(&spec_name);
    let expect = expectation(&file, &text);
    let spec_arg = rel(&spec);
    let args = [
        "include",
        &file,
        "--spec",
        &spec_arg,
        "--json",
        "--no-timing",
    ];
    let (code, stdout, stderr) = cfp(&args);
    let (code2, stdout2, _) = cfp(&args);
    if stderr.contains("panicked") {
        return Err(format!("{file}: panic\n{stderr}"));
    }
    if (code, &stdout) != (code2, &stdout2) {
        return Err(format!("{file}: two runs differ:\n{stdout}\n{stdout2}"));
    }
    let json: Value = serde_json::from_str(&stdout)
        .map_err(|e| format!("{file}: output is not one JSON object ({e}):\n{stdout}"))?;
    if json["stats"].get("time_ms").is_some() {
        return Err(format!("{file}: --no-timing still prints time_ms"));
    }
    let g = grammar(path);
    let s = grammar(&spec);
    let result = json["result"].as_str().unwrap_or("?");
    match expect {
        Expect::NotIncluded(n) => {
            if (code, result) != (1, "not-included") {
                return Err(format!(
                    "{file}: expected not-included (exit 1), got {result} (exit {code}):\n{stdout}{stderr}"
                ));
            }
            if json.get("reason").is_some() || json.get("certificate").is_some() {
                return Err(format!("{file}: stray fields:\n{stdout}"));
            }
            let cex = &json["counterexample"];
            let names: Vec<&str> = cex["word"]
                .as_array()
                .ok_or(format!("{file}: no word"))?
                .iter()
                .map(|w| w.as_str().unwrap_or("<not a string>"))
                .collect();
            let word = earley::word_of_names(&g, &names)
                .ok_or(format!("{file}: {names:?} uses letters G does not have"))?;
            if !earley::recognizes(&g, &word) {
                return Err(format!("{file}: {names:?} is not in L(G)"));
            }
            if earley::word_in(&s, &names) {
                return Err(format!("{file}: {names:?} is in L(S)"));
            }
            if names.len() != n || cex["length"] != n {
                return Err(format!(
                    "{file}: counterexample {names:?} has length {}, expected {n}",
                    names.len()
                ));
            }
            let d = derivation_from_json(&g, &cex["derivation"])
                .map_err(|e| format!("{file}: derivation: {e}"))?;
            if !earley::is_derivation_of(&g, &d, g.start) {
                return Err(format!(
                    "{file}: the derivation is not one of G from its start"
                ));
            }
            if d.word() != word {
                return Err(format!("{file}: the derivation's yield is not the word"));
            }
            let oracle = shortest_counterexample(&g, &s, n);
            if oracle != Some(n) {
                return Err(format!(
                    "{file}: enumeration finds the shortest counterexample at {oracle:?}, expected {n}"
                ));
            }
        }
        Expect::Included => {
            if (code, result) != (0, "included") {
                return Err(format!(
                    "{file}: expected included (exit 0), got {result} (exit {code}):\n{stdout}{stderr}"
                ));
            }
            if json.get("counterexample").is_some() || json.get("reason").is_some() {
                return Err(format!("{file}: stray fields:\n{stdout}"));
            }
            let lib = check_inclusion(&g, &s, &InclusionOptions::default(), &mut |_| {
                ControlFlow::Continue(())
            });
            let InclusionResult::Included(cert) = lib else {
                return Err(format!("{file}: the library answers {lib:?}"));
            };
            recheck_certificate(&g, &s, &cert)
                .map_err(|e| format!("{file}: certificate rejected: {e}"))?;
            let printed = serde_json::to_value(&cert).map_err(|e| e.to_string())?;
            if json["certificate"] != printed {
                return Err(format!(
                    "{file}: printed certificate differs from the library's"
                ));
            }
            if let Some(len) = shortest_counterexample(&g, &s, ENUMERATE_INCLUDED_UP_TO) {
                return Err(format!(
                    "{file}: a word of length {len} of G is not in S (enumeration)"
                ));
            }
        }
    }
    Ok(expect)
}

#[test]
fn inclusion_corpus_is_large_and_labelled() {
    let files = corpus();
    assert!(files.len() >= 30, "only {} corpus files", files.len());
    let mut included = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable");
        let file = rel(path);
        let spec = header(&text, "spec:").unwrap_or_else(|| panic!("{file}: no spec"));
        assert!(spec_path(&spec).exists(), "{file}: no spec file {spec}");
        included += usize::from(expectation(&file, &text) == Expect::Included);
    }
    assert!(included >= 10 && files.len() - included >= 10);
}

#[test]
fn inclusion_corpus_verdicts_are_right_and_checked() {
    let mut failures = Vec::new();
    let mut passed = 0;
    for path in corpus() {
        match check_file(&path) {
            Ok(_) => passed += 1,
            Err(e) => failures.push(e),
        }
    }
    eprintln!("include corpus: {passed} passed, {} failed", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn human_output_shows_verdict_word_and_derivation() {
    let (code, out, err) = cfp(&[
        "include",
        "tests/inclusion/nin-02-paper-fig4.cfg",
        "--spec",
        "tests/specs/lock-paper.cfg",
        "--no-timing",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("not included"), "{out}");
    assert!(lines[1].starts_with("word: $1."), "{out}");
    assert_eq!(lines[2], "derivation:");
    assert_eq!(lines[3], "  Foo -> F0", "{out}");
    assert!(out.ends_with("steps\n"), "{out}");

    let (code, out, err) = cfp(&[
        "include",
        "tests/inclusion/inc-01-dyck-single-nest.cfg",
        "--spec",
        "tests/specs/lock.cfg",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("included"), "{out}");
    assert!(out.contains(" ms\n"), "{out}");
}

#[test]
fn bad_input_exits_3_with_diagnostics() {
    let dir = std::env::temp_dir().join(format!("cfp-include-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("bad.cfg");
    std::fs::write(&bad, "S -> $1.lock( S;\n").expect("write");
    let undeclared = dir.join("undeclared.cfg");
    std::fs::write(&undeclared, "wildcard $1 : Lock;\nS -> $2.lock() | ε;\n").expect("write");
    let bad = bad.display().to_string();
    let undeclared = undeclared.display().to_string();
    for args in [
        vec!["include", &bad, "--spec", "tests/specs/lock.cfg"],
        vec!["include", "tests/specs/lock.cfg", "--spec", &bad],
        vec!["include", "tests/specs/lock.cfg", "--spec", &undeclared],
        vec![
            "include",
            "tests/specs/lock.cfg",
            "--spec",
            "no/such/file.cfg",
        ],
        vec![
            "include",
            "tests/specs/lock.cfg",
            "--spec",
            "tests/specs/lock.cfg",
            "--timeout",
            "0",
        ],
        vec![
            "include",
            "tests/specs/lock.cfg",
            "--spec",
            "tests/specs/lock.cfg",
            "--max-steps",
            "0",
        ],
        vec!["include", "tests/specs/lock.cfg"],
    ] {
        let (code, out, err) = cfp(&args);
        assert_eq!(code, 3, "{args:?}: {out}{err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(
            !err.is_empty() && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
    // A grammar (not a spec) may use undeclared wildcards.
    let (code, out, err) = cfp(&[
        "include",
        &undeclared,
        "--spec",
        "tests/specs/lock.cfg",
        "--json",
    ]);
    assert!(code == 1 || code == 2, "{out}{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tiny_budgets_give_unknown_with_a_reason_or_a_checked_answer() {
    for args in [["--max-steps", "1"], ["--timeout", "0.000001"]] {
        let mut all = vec![
            "include",
            "tests/inclusion/inc-15-json-recursive-writers.cfg",
            "--spec",
            "tests/specs/json.cfg",
            "--json",
        ];
        all.extend(args);
        let (code, out, err) = cfp(&all);
        let json: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
        match code {
            2 => {
                assert_eq!(json["result"], "unknown");
                assert!(
                    json["reason"].as_str().is_some_and(|r| !r.is_empty()),
                    "{out}"
                );
                assert!(json.get("counterexample").is_none());
            }
            0 => assert_eq!(json["result"], "included"),
            _ => panic!("{args:?}: exit {code}: {out}{err}"),
        }
        assert!(json["stats"]["time_ms"].is_number(), "{out}");
    }
}
