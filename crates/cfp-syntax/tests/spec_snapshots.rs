//! Snapshot tests of the spec parser, checker, printer and API signatures.
//! Regenerate with `INSTA_UPDATE=always cargo test -p cfp-syntax --test spec_snapshots`.

mod spec_common;

use cfp_syntax::{
    api_signatures, check_spec, parse_spec, print_spec, strip_spans, Diagnostic, LineIndex, SpecUse,
};
use std::fmt::Write as _;

fn render_all(name: &str, text: &str, diags: &[Diagnostic]) -> String {
    let index = LineIndex::new(text);
    if diags.is_empty() {
        return "(none)\n".to_string();
    }
    diags
        .iter()
        .map(|d| format!("[{}] {}", d.code, d.render(name, text, &index)))
        .collect()
}

/// Printed form, parse + check diagnostics, API signatures.
fn report(name: &str, text: &str, usage: SpecUse) -> String {
    let parsed = parse_spec(text);
    let mut diags = parsed.diagnostics.clone();
    diags.extend(check_spec(&parsed.tree, usage));
    diags.sort_by_key(|d| d.span.start);
    let mut out = String::new();
    let _ = writeln!(out, "--- printed ---\n{}", print_spec(&parsed.tree));
    let _ = writeln!(
        out,
        "--- diagnostics ---\n{}",
        render_all(name, text, &diags)
    );
    let _ = writeln!(out, "--- api ---");
    for s in api_signatures(&parsed.tree) {
        let ts: Vec<String> = s.terminals.iter().map(ToString::to_string).collect();
        let _ = writeln!(
            out,
            "{}.{}/{}: {}",
            s.class,
            s.method,
            s.arity,
            ts.join(" ")
        );
    }
    out
}

#[test]
fn protocols() {
    for (name, text) in spec_common::ALL {
        let parsed = parse_spec(text);
        assert!(
            parsed.diagnostics.is_empty(),
            "{name}: {:?}",
            parsed.diagnostics
        );
        assert!(
            check_spec(&parsed.tree, SpecUse::Protocol).is_empty(),
            "{name}"
        );
        // Round trip.
        let printed = print_spec(&parsed.tree);
        let again = parse_spec(&printed);
        assert!(again.diagnostics.is_empty(), "{name}");
        assert_eq!(
            strip_spans(&again.tree),
            strip_spans(&parsed.tree),
            "{name}"
        );
        insta::assert_snapshot!(
            format!("protocol_{name}"),
            report(&format!("{name}.spec"), text, SpecUse::Protocol)
        );
    }
}

#[test]
fn lock_ast() {
    insta::assert_debug_snapshot!("lock_ast", parse_spec(spec_common::LOCK).tree);
}

const MALFORMED: [(&str, &str); 12] = [
    (
        "several_errors",
        "wildcard $1 : Lock;\nS -> $1.lock( S $1.unlock() | ε;\nT -> @ T;\nU -> $1.f($2,) | $1.g();\nV W;\n",
    ),
    ("bad_wildcards", "wildcard 1 : A;\nwildcard $0 : A;\nS -> $x.f() | $99999999999.g() | $.h();\n"),
    ("missing_semicolons", "wildcard $1 : A\nS -> $1.a() T\nT -> $1.b()\n"),
    ("reserved_names", "eps -> a;\n_ -> b;\nwildcard -> c;\nS -> _ | wildcard;\n"),
    ("undefined_unproductive_unreachable", "S -> A $1.a() | B;\nB -> $1.b() B;\nC -> ε;\n"),
    ("empty_language", "wildcard $1 : A;\nS -> $1.a() S;\n"),
    ("wildcards", "wildcard $1 : A; wildcard $1 : A; wildcard $1 : B;\nwildcard $4 : D;\nS -> $1.f($2) $3.g();\n"),
    ("arity", "wildcard $1 : Map; wildcard $2 : Map;\nS -> $1.put(_, _) $2.put(_) $1.put(_);\n"),
    ("empty", "// nothing here\n"),
    ("unicode", "S → é $1.ø() | ε ε;\nT ::= \u{a0}\u{2028}x;\n"),
    ("eps_in_sequence", "wildcard $1 : A;\nS -> $1.a() ε S | eps;\n"),
    ("junk_top_level", "$1.lock();\n) S -> ;\nS -> ;;\n"),
];

#[test]
fn malformed() {
    for (name, text) in MALFORMED {
        insta::assert_snapshot!(
            format!("malformed_{name}"),
            report(&format!("{name}.spec"), text, SpecUse::Protocol)
        );
    }
}

#[test]
fn grammar_usage_allows_undeclared_wildcards() {
    let text = "S -> $1.lock() S $1.unlock() S | ε;";
    let parsed = parse_spec(text);
    assert!(check_spec(&parsed.tree, SpecUse::Grammar).is_empty());
    insta::assert_snapshot!(
        "grammar_undeclared",
        report("g.spec", text, SpecUse::Grammar)
    );
}
