//! The parser against the workspace corpora (`tests/frontend`, `tests/malformed`):
//! valid programs parse without diagnostics; each malformed program `p*.java` reports
//! errors first at exactly the positions of its `// expect: L:C …` header.

use cfp_syntax::{has_errors, parse_program, LineIndex};
use std::path::{Path, PathBuf};

fn corpus(dir: &str, prefix: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests")
        .join(dir);
    let Ok(entries) = std::fs::read_dir(&root) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|e| e == "java")
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(prefix))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn frontend_programs_parse_cleanly() {
    let files = corpus("frontend", "");
    assert!(files.len() >= 25, "corpus not found");
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        let parsed = parse_program(&text);
        assert!(
            parsed.diagnostics.is_empty(),
            "{}: {:?}",
            path.display(),
            parsed.diagnostics
        );
    }
}

#[test]
fn malformed_programs_report_errors_at_the_expected_positions() {
    let files = corpus("malformed", "p");
    assert!(files.len() >= 20, "corpus not found");
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        let expect: Vec<&str> = text
            .lines()
            .next()
            .and_then(|l| l.trim_start_matches(['/', ' ']).strip_prefix("expect:"))
            .map(|v| v.split_whitespace().collect())
            .unwrap_or_default();
        let parsed = parse_program(&text);
        assert!(
            has_errors(&parsed.diagnostics),
            "{}: no error",
            path.display()
        );
        let idx = LineIndex::new(&text);
        let got: Vec<String> = parsed
            .diagnostics
            .iter()
            .map(|d| {
                let lc = idx.line_col(&text, d.span.start as usize);
                format!("{}:{}", lc.line, lc.column)
            })
            .collect();
        assert!(
            got.len() >= expect.len() && got[..expect.len()] == expect[..],
            "{}: wanted {expect:?}, got {got:?}: {:#?}",
            path.display(),
            parsed.diagnostics
        );
    }
}
