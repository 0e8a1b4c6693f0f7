//! The workspace's spec corpora at the parser level: every `tests/specs/*.cfg` parses and
//! checks without errors and round-trips through the printer; every
//! `tests/malformed/*.cfg` yields errors (parse errors, or else check errors) at exactly
//! the `line:col` positions of its `// expect:` header, first one first.

use cfp_syntax::{check_spec, parse_spec, print_spec, strip_spans, LineIndex, Severity, SpecUse};
use std::path::{Path, PathBuf};

fn cfg_files(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(dir);
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "cfg"))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

#[test]
fn valid_specs() {
    for path in cfg_files("tests/specs") {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let parsed = parse_spec(&text);
        assert!(!parsed.has_errors(), "{path:?}: {:?}", parsed.diagnostics);
        let checks = check_spec(&parsed.tree, SpecUse::Protocol);
        assert!(
            checks.iter().all(|d| d.severity != Severity::Error),
            "{path:?}: {checks:?}"
        );
        let again = parse_spec(&print_spec(&parsed.tree));
        assert_eq!(
            strip_spans(&again.tree),
            strip_spans(&parsed.tree),
            "{path:?}"
        );
    }
}

#[test]
fn malformed_specs() {
    for path in cfg_files("tests/malformed") {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let Some(expect) = text
            .lines()
            .next()
            .and_then(|l| l.split_once("expect:"))
            .map(|(_, e)| e.split_whitespace().collect::<Vec<_>>())
        else {
            continue;
        };
        let parsed = parse_spec(&text);
        let diags = if parsed.has_errors() {
            parsed.diagnostics
        } else {
            check_spec(&parsed.tree, SpecUse::Protocol)
        };
        let index = LineIndex::new(&text);
        let got: Vec<String> = diags
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| {
                let p = d.to_data(&text, &index);
                format!("{}:{}", p.line, p.column)
            })
            .collect();
        assert!(
            got.len() >= expect.len() && got[..expect.len()] == expect[..],
            "{path:?}: wanted errors at {expect:?}, got {got:?}: {diags:?}"
        );
    }
}
