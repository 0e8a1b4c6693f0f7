//! Deterministic property test of the spec parser, checker and printer (no extra
//! dependencies: a xorshift PRNG). Over 100,000 inputs — random bytes, token soups from the
//! spec alphabet, mutations of valid specs, and randomly generated valid specs — it checks:
//! no panic; every diagnostic span lies within the text on character boundaries; and for
//! every input that parses without errors, printing and re-parsing gives an error-free parse,
//! an equal tree modulo spans, and the same printed text.

mod spec_common;

mod fuzz_rng;
use cfp_syntax::{
    api_signatures, check_spec, parse_spec, print_spec, strip_spans, Diagnostic, LineIndex, SpecUse,
};
use fuzz_rng::Rng;

const FRAGMENTS: &[&str] = &[
    "S",
    "A",
    "B'",
    "_x",
    "<F0>",
    "<",
    ">",
    "->",
    "-",
    "→",
    "::=",
    ":",
    "::",
    "|",
    ";",
    "ε",
    "eps",
    "$1",
    "$2",
    "$0",
    "$",
    "$x",
    "$99999999999",
    "$4294967295",
    ".",
    "(",
    ")",
    ",",
    "_",
    "wildcard",
    "Lock",
    "lock",
    "java.util.X",
    "12",
    "//c\n",
    "#c\n",
    " ",
    "\n",
    "\r\n",
    "\r",
    "\t",
    "é",
    "\u{a0}",
    "\u{feff}",
    "@",
    "\"",
    "\\",
    "𝄞",
    "\u{2028}",
    "$1.lock()",
    "$1.put($2, _)",
    "wildcard $1 : T;",
    "S -> ",
    "/",
    "/*",
    "\0",
];

fn check_diagnostics(text: &str, diags: &[Diagnostic], index: &LineIndex) {
    for d in diags {
        let (s, e) = (d.span.start as usize, d.span.end as usize);
        assert!(
            s <= e && e <= text.len(),
            "{text:?}: span {s}..{e} out of range: {d:?}"
        );
        assert!(
            text.is_char_boundary(s) && text.is_char_boundary(e),
            "{text:?}: span {s}..{e} not on char boundaries: {d:?}"
        );
        assert!(!d.message.is_empty() && !d.code.is_empty());
        let _ = d.to_data(text, index);
    }
}

/// Run every property on one input; returns whether it parsed without errors.
fn run(text: &str) -> bool {
    let parsed = parse_spec(text);
    let index = LineIndex::new(text);
    check_diagnostics(text, &parsed.diagnostics, &index);
    for usage in [SpecUse::Protocol, SpecUse::Grammar] {
        check_diagnostics(text, &check_spec(&parsed.tree, usage), &index);
    }
    for alt in parsed.tree.rules.iter().flat_map(|r| &r.alternatives) {
        assert_eq!(alt.symbol_spans.len(), alt.symbols.len(), "{text:?}");
        for sp in alt.symbol_spans.iter().chain([&alt.span]) {
            let (s, e) = (sp.start as usize, sp.end as usize);
            assert!(s <= e && e <= text.len(), "{text:?}: {sp:?}");
            assert!(text.is_char_boundary(s) && text.is_char_boundary(e));
        }
    }
    let _ = api_signatures(&parsed.tree);
    let printed = print_spec(&parsed.tree);
    if parsed.has_errors() {
        return false;
    }
    let again = parse_spec(&printed);
    assert!(
        !again.has_errors(),
        "{text:?} printed as {printed:?} re-parses with errors: {:?}",
        again.diagnostics
    );
    assert_eq!(
        strip_spans(&again.tree),
        strip_spans(&parsed.tree),
        "{text:?} printed as {printed:?}"
    );
    assert_eq!(print_spec(&again.tree), printed);
    true
}

fn random_bytes(rng: &mut Rng) -> String {
    let len = rng.below(48);
    let bytes: Vec<u8> = (0..len)
        .map(|_| {
            if rng.chance(60) {
                // printable ASCII, biased towards the spec alphabet
                rng.pick(b"$1234_.(),:;|->#/ SABabcwildcardeps\n<>'")
            } else {
                rng.next() as u8
            }
        })
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

fn token_soup(rng: &mut Rng) -> String {
    let n = rng.below(24);
    let mut s = String::new();
    for _ in 0..n {
        s.push_str(rng.pick(FRAGMENTS));
        if rng.chance(50) {
            s.push(' ');
        }
    }
    s
}

fn mutate(rng: &mut Rng) -> String {
    let (_, base) = rng.pick(&spec_common::ALL);
    let mut bytes = base.as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        let len = bytes.len();
        let at = rng.below(len + 1);
        match rng.below(5) {
            0 => {
                let end = (at + 1 + rng.below(8)).min(len);
                bytes.drain(at.min(end)..end);
            }
            1 => {
                let frag = rng.pick(FRAGMENTS).as_bytes();
                bytes.splice(at..at, frag.iter().copied());
            }
            2 if at < len => bytes[at] = rng.next() as u8,
            3 => {
                let end = (at + rng.below(16)).min(len);
                let copy: Vec<u8> = bytes[at.min(end)..end].to_vec();
                let to = rng.below(len + 1);
                bytes.splice(to..to, copy);
            }
            _ => {
                // swap two bytes
                if len > 1 {
                    let other = rng.below(len);
                    bytes.swap(at.min(len - 1), other);
                }
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A random spec written with random (but valid) spellings and spacing.
fn valid_spec(rng: &mut Rng) -> String {
    const NAMES: &[&str] = &["S", "A", "B'", "_n", "<F0>", "<x.1>", "Expr2"];
    const METHODS: &[&str] = &["lock", "unlock", "put", "eps", "wildcard", "m_1"];
    fn ws(rng: &mut Rng) -> &'static str {
        rng.pick(&["", " ", "  ", "\n", "\t", " // c\n", " #c\n", "\u{a0}"])
    }
    let mut s = String::new();
    for _ in 0..rng.below(3) {
        s.push_str(&format!(
            "wildcard{}${}{}:{}{}{};{}",
            rng.pick(&[" ", "\n", "  "]),
            1 + rng.below(3),
            ws(rng),
            ws(rng),
            rng.pick(&["Lock", "Map", "java.util.Map"]),
            ws(rng),
            ws(rng)
        ));
    }
    for _ in 0..1 + rng.below(4) {
        s.push_str(rng.pick(NAMES));
        s.push_str(ws(rng));
        s.push_str(rng.pick(&["->", "→", "::="]));
        for a in 0..1 + rng.below(3) {
            if a > 0 {
                s.push_str(ws(rng));
                s.push('|');
            }
            for _ in 0..rng.below(4) {
                s.push_str(ws(rng));
                s.push(' ');
                match rng.below(4) {
                    0 => s.push_str(rng.pick(NAMES)),
                    1 => s.push_str(rng.pick(&["ε", "eps"])),
                    _ => {
                        let sep = ws(rng);
                        s.push_str(&format!(
                            "${}{sep}.{sep}{}{sep}(",
                            1 + rng.below(3),
                            rng.pick(METHODS)
                        ));
                        for i in 0..rng.below(3) {
                            if i > 0 {
                                s.push(',');
                            }
                            s.push_str(sep);
                            if rng.chance(50) {
                                s.push('_');
                            } else {
                                s.push_str(&format!("${}", 1 + rng.below(3)));
                            }
                        }
                        s.push_str(sep);
                        s.push(')');
                    }
                }
            }
        }
        s.push_str(ws(rng));
        s.push(';');
        s.push_str(ws(rng));
    }
    s
}

#[test]
fn fuzz_parser_checker_printer() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut clean = 0usize;
    let mut total = 0usize;
    let mut per_kind = [0usize; 4];
    for i in 0..104_000usize {
        let text = match i % 4 {
            0 => random_bytes(&mut rng),
            1 => token_soup(&mut rng),
            2 => mutate(&mut rng),
            _ => valid_spec(&mut rng),
        };
        let ok = run(&text);
        if i % 4 == 3 {
            assert!(ok, "generated valid spec has errors: {text:?}");
        }
        clean += usize::from(ok);
        per_kind[i % 4] += usize::from(ok);
        total += 1;
    }
    eprintln!("clean inputs per generator (bytes, soup, mutation, valid): {per_kind:?} of {total}");
    assert!(total >= 100_000);
    // Sanity: the generators reach both outcomes.
    assert!(clean > total / 4, "{clean} clean of {total}");
    assert!(clean < total, "{clean} clean of {total}");
}

#[test]
fn pathological_inputs() {
    let long_name = "S".repeat(100_000);
    let deep = format!("S -> {};", "S ".repeat(50_000));
    let many_errors = "@ ".repeat(20_000);
    let many_rules = "A -> $1.a() | ;\n".repeat(5_000);
    let huge_numbers = "S -> $99999999999999999999999999999999999999.f($1234567890123);";
    for text in [
        long_name.as_str(),
        deep.as_str(),
        many_errors.as_str(),
        many_rules.as_str(),
        huge_numbers,
        "\u{feff}",
        "ε",
        "→",
        "$",
        "<",
        "<<>>",
        "wildcard",
        "wildcard $1",
        "wildcard $1 :",
        "S ->",
        "S -> $1.",
        "S -> $1.f(",
        "S -> $1.f($2,",
    ] {
        run(text);
    }
}
