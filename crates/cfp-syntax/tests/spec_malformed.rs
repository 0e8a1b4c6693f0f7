//! Malformed specs: each asserts the code and `line:col` of its first diagnostic
//! (parser diagnostics first; the checks run only when the parse has no error).

use cfp_syntax::{check_spec, parse_spec, LineIndex, Severity, SpecUse};

/// (spec, code, line, column, severity of the first diagnostic)
const CASES: &[(&str, &str, u32, u32, Severity)] = &[
    ("S -> $1.lock( S;", "expected-token", 1, 15, Severity::Error),
    (
        "wildcard 1 : T;\nS -> ;",
        "bad-wildcard",
        1,
        10,
        Severity::Error,
    ),
    ("S -> a @ b;", "unexpected-character", 1, 8, Severity::Error),
    (
        "wildcard $1 : T;\nS -> $0.f();",
        "bad-wildcard",
        2,
        6,
        Severity::Error,
    ),
    (
        "S -> $99999999999.f();",
        "bad-wildcard",
        1,
        6,
        Severity::Error,
    ),
    ("S a;", "expected-token", 1, 3, Severity::Error),
    (
        "wildcard $1 : T;\nS -> $1.lock;",
        "expected-token",
        2,
        13,
        Severity::Error,
    ),
    ("S -> $1 lock();", "expected-token", 1, 9, Severity::Error),
    ("\n\n  eps -> a;", "reserved-name", 3, 3, Severity::Error),
    ("S -> _;", "expected-token", 1, 6, Severity::Error),
    (
        "wildcard $1 ReentrantLock;",
        "expected-token",
        1,
        13,
        Severity::Error,
    ),
    ("S -> $1.f($2,);", "expected-token", 1, 14, Severity::Error),
    ("S -> $x.f();", "bad-wildcard", 1, 6, Severity::Error),
    ("S -> a - b;", "unexpected-character", 1, 8, Severity::Error),
    (
        "wildcard $1 : T;\nS -> $1.a() \n  | $1.b(;\n",
        "expected-token",
        3,
        10,
        Severity::Error,
    ),
    ("S -> 12;", "expected-token", 1, 6, Severity::Error),
    ("S -> ε é;", "unexpected-character", 1, 8, Severity::Error),
    ("S -> (a);", "expected-token", 1, 6, Severity::Error),
    (
        "wildcard $1 : T\n$1.f();",
        "expected-token",
        2,
        1,
        Severity::Error,
    ),
    (
        "S → $1.f()\n  $2.g() ::= ;",
        "expected-token",
        2,
        10,
        Severity::Error,
    ),
    (
        "wildcard $1 : List<String>;\nS -> ;",
        "expected-token",
        1,
        19,
        Severity::Error,
    ),
    (
        "S -> $1 .f( _ _ );",
        "expected-token",
        1,
        15,
        Severity::Error,
    ),
    // Parse is clean; the first diagnostic comes from the checks.
    ("", "empty-spec", 1, 1, Severity::Error),
    (
        "wildcard $1 : T;\nS -> $1.a() A;",
        "undefined-nonterminal",
        2,
        13,
        Severity::Error,
    ),
    (
        "wildcard $1 : T;\nwildcard $1 : U;\nS -> $1.a();",
        "conflicting-wildcard",
        2,
        1,
        Severity::Error,
    ),
    ("S -> $1.a();", "undeclared-wildcard", 1, 6, Severity::Error),
    (
        "wildcard $1 : T;\nS -> $1.a() | $1.a(_);",
        "arity-conflict",
        2,
        15,
        Severity::Warning,
    ),
    (
        "wildcard $1 : T;\nS -> $1.a()\n",
        "missing-semicolon",
        2,
        12,
        Severity::Warning,
    ),
    (
        "wildcard $1 : T;\nS -> $1.a() S;",
        "empty-language",
        2,
        1,
        Severity::Warning,
    ),
];

#[test]
fn first_diagnostic_position_and_code() {
    assert!(CASES.len() >= 15);
    for &(text, code, line, column, severity) in CASES {
        let parsed = parse_spec(text);
        let diags = if parsed.has_errors() {
            parsed.diagnostics.clone()
        } else {
            let mut d = parsed.diagnostics.clone();
            d.extend(check_spec(&parsed.tree, SpecUse::Protocol));
            d.sort_by_key(|d| d.span.start);
            d
        };
        let Some(first) = diags.first() else {
            panic!("{text:?}: no diagnostic");
        };
        let data = first.to_data(text, &LineIndex::new(text));
        assert_eq!(
            (first.code, data.line, data.column, first.severity),
            (code, line, column, severity),
            "{text:?}: {}",
            first.message
        );
    }
}

#[test]
fn every_mistake_gets_its_own_diagnostic() {
    let text = "wildcard $1 : T;\n\
                S -> $1.( | $1.a();\n\
                T -> @;\n\
                U -> $1.f(,) | $1.b();\n\
                wildcard $2 T;\n\
                V -> $1.c( | W;\n\
                W -> $1 d;\n";
    let parsed = parse_spec(text);
    let index = LineIndex::new(text);
    let got: Vec<(u32, u32, &str)> = parsed
        .diagnostics
        .iter()
        .map(|d| {
            let p = d.to_data(text, &index);
            (p.line, p.column, d.code)
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (2, 9, "expected-token"),
            (3, 6, "unexpected-character"),
            (4, 11, "expected-token"),
            (5, 13, "expected-token"),
            (6, 12, "expected-token"),
            (7, 9, "expected-token"),
        ]
    );
    // What could be recovered is kept.
    let names: Vec<_> = parsed
        .tree
        .rules
        .iter()
        .map(|r| r.lhs.name.as_str())
        .collect();
    assert_eq!(names, vec!["S", "T", "U", "V", "W"]);
    assert_eq!(parsed.tree.rules[0].alternatives.len(), 1);
    assert_eq!(parsed.tree.rules[3].alternatives.len(), 1);
}
