//! The corpus of programs in the style of real projects, `tests/real/*.java`:
//! the Java people write (anonymous classes, lambdas, enums, inner classes, framework
//! superclasses, `synchronized`, class literals, boxed values, library models, …) against
//! the built-in protocols. Headers: `// spec: NAME` (a built-in), `// expect:
//! verified|violation|unknown`, optionally `// harness: KIND`, `// entry: C.m` and
//! `// max-iterations: N` (a budget, for a program the prover does not settle), and
//! `// why:`.
//!
//! Every program must parse and lower (never exit 3), get exactly its expected verdict,
//! and give the same JSON twice (`--no-timing`). A violation's SARIF result must point at
//! a line of the program.

mod common;
use common::{cfp, files, header, rel};

#[test]
fn every_real_style_program_gets_its_verdict() {
    let programs = files("tests/real", &["java"]);
    assert!(programs.len() >= 30, "{} programs", programs.len());
    let mut wrong = Vec::new();
    for path in programs {
        let name = rel(&path);
        let text = std::fs::read_to_string(&path).expect("readable");
        let spec = header(&text, "spec:").unwrap_or_else(|| panic!("{name}: no // spec:"));
        let expect = header(&text, "expect:").unwrap_or_else(|| panic!("{name}: no // expect:"));
        assert!(header(&text, "why:").is_some(), "{name}: no // why:");
        let mut args = vec![
            "check".to_owned(),
            name.clone(),
            "--spec".to_owned(),
            spec,
            "--json".to_owned(),
            "--no-timing".to_owned(),
        ];
        if let Some(h) = header(&text, "harness:") {
            args.extend(["--harness".to_owned(), h]);
        }
        if let Some(e) = header(&text, "entry:") {
            args.extend(["--entry".to_owned(), e]);
        }
        if let Some(n) = header(&text, "max-iterations:") {
            args.extend(["--max-iterations".to_owned(), n]);
        }
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, stdout, stderr) = cfp(&argv);
        assert_ne!(code, 3, "{name}: bad input\n{stderr}");
        let v: serde_json::Value = serde_json::from_str(&stdout)
            .unwrap_or_else(|e| panic!("{name}: {e}\n{stdout}\n{stderr}"));
        let got = v["verdict"].as_str().unwrap_or("?").to_owned();
        let want_code = match expect.as_str() {
            "verified" => 0,
            "violation" => 1,
            _ => 2,
        };
        if got != expect || code != want_code {
            wrong.push(format!(
                "{name}: expected {expect}, got {got} (exit {code})"
            ));
            continue;
        }
        let (_, again, _) = cfp(&argv);
        assert_eq!(stdout, again, "{name}: not deterministic");
        if expect == "violation" {
            let mut sarif = argv.clone();
            sarif.retain(|a| *a != "--json");
            sarif.extend(["--format", "sarif"]);
            let (_, log, _) = cfp(&sarif);
            let log: serde_json::Value = serde_json::from_str(&log).expect("sarif");
            let region =
                &log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
            assert!(
                region["startLine"].as_u64().is_some_and(|l| l > 0),
                "{name}: {log}"
            );
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
