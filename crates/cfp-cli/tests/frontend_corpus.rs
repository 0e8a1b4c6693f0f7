//! End-to-end tests of the front end over the corpora under the workspace's `tests/`:
//!
//! * `tests/frontend/*.java` — valid programs covering every construct of the language;
//!   the first line names the spec (`// spec: lock.cfg`, a file in `tests/specs/`). Each
//!   gets a golden snapshot of its AST and of its instrumented CFAs (`cfp cfa`).
//! * `tests/malformed/*` — bad programs and specs; the first line lists the `line:col` of
//!   each expected error (`// expect: 4:17 5:17`). `cfp parse` (or `cfp cfa` when a
//!   `// spec:` line follows) must exit 3 and report errors at exactly those positions,
//!   first one first.
//!
//! * slices (`cfp cfa --slice MODE`) of a few `tests/check/` programs, golden too.
//!
//! Refresh snapshots with `INSTA_UPDATE=always cargo test -p cfp-cli --test frontend_corpus`
//! and review the diff.

mod common;
use common::{cfp, files, header, rel, workspace};

#[test]
fn frontend_corpus_has_enough_programs() {
    assert!(files("tests/frontend", &["java"]).len() >= 25);
    assert!(files("tests/malformed", &["java", "cfg"]).len() >= 30);
}

#[test]
fn frontend_programs_parse_and_lower_to_golden_asts_and_cfas() {
    for path in files("tests/frontend", &["java"]) {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let spec = header(&text, "spec:").unwrap_or_else(|| panic!("{name}: no `// spec:` line"));

        let parsed = cfp_syntax::parse_program(&text);
        assert!(
            parsed.diagnostics.is_empty(),
            "{name}: unexpected diagnostics {:?}",
            parsed.diagnostics
        );
        let ast = cfp_syntax::ast_dump::dump_program(&parsed.tree, &text);

        let spec_path = format!("tests/specs/{spec}");
        let (code, cfa, stderr) = cfp(&["cfa", &rel(&path), "--spec", &spec_path]);
        assert_eq!(code, 0, "{name}: cfp cfa failed:\n{stderr}");
        let (code, dot, stderr) = cfp(&["cfa", &rel(&path), "--spec", &spec_path, "--dot"]);
        assert_eq!(code, 0, "{name}: cfp cfa --dot failed:\n{stderr}");
        assert!(
            dot.starts_with("digraph"),
            "{name}: DOT output starts with `digraph`"
        );

        insta::with_settings!({
            snapshot_path => "../../../tests/snapshots/frontend",
            prepend_module_to_snapshot => false,
            omit_expression => true,
            description => format!("{name}.java"),
        }, {
            insta::assert_snapshot!(format!("{name}.ast"), ast);
            insta::assert_snapshot!(format!("{name}.cfa"), format!("{cfa}{stderr}"));
        });
    }
}

#[test]
fn slices_are_golden() {
    for name in [
        "02-paper-fig2-double-acquire",
        "15-shared-lock-fields",
        "45-growing-loop-helper",
    ] {
        let path = format!("tests/check/{name}.java");
        let text = std::fs::read_to_string(workspace().join(&path)).unwrap();
        let spec = header(&text, "spec:").unwrap_or_else(|| panic!("{name}: no `// spec:` line"));
        let spec_path = format!("tests/specs/{spec}");
        for mode in ["exact", "summarise", "summarise-all"] {
            let (code, out, stderr) = cfp(&["cfa", &path, "--spec", &spec_path, "--slice", mode]);
            assert_eq!(code, 0, "{name} --slice {mode}: {stderr}");
            assert!(out.starts_with("# slice: kept "), "{name}: {out}");
            insta::with_settings!({
                snapshot_path => "../../../tests/snapshots/frontend",
                prepend_module_to_snapshot => false,
                omit_expression => true,
                description => format!("cfp cfa {name}.java --slice {mode}"),
            }, {
                insta::assert_snapshot!(format!("slice-{name}-{mode}"), out);
            });
        }
    }
}

#[test]
fn malformed_inputs_are_rejected_at_the_right_positions() {
    for path in files("tests/malformed", &["java", "cfg"]) {
        let text = std::fs::read_to_string(&path).unwrap();
        let file = rel(&path);
        let expect = header(&text, "expect:").unwrap_or_else(|| panic!("{file}: no `expect:`"));
        let (code, stdout, stderr) = match header(&text, "spec:") {
            Some(spec) => cfp(&["cfa", &file, "--spec", &format!("tests/specs/{spec}")]),
            None => cfp(&["parse", &file]),
        };
        assert_eq!(code, 3, "{file}: exit code (stderr: {stderr})");
        assert!(stdout.is_empty() || header(&text, "spec:").is_some());
        assert!(!stderr.contains("panicked"), "{file}: panic\n{stderr}");
        let errors: Vec<&str> = stderr
            .lines()
            .filter(|l| l.starts_with(&file) && l.contains(": error: "))
            .collect();
        let positions: Vec<String> = errors
            .iter()
            .map(|l| {
                let rest = &l[file.len() + 1..];
                rest.split(": ").next().unwrap_or("").to_string()
            })
            .collect();
        let wanted: Vec<&str> = expect.split_whitespace().collect();
        assert!(
            positions.len() >= wanted.len() && positions[..wanted.len()] == wanted[..],
            "{file}: wanted errors at {wanted:?}, got {positions:?}\n{stderr}"
        );
    }
}
