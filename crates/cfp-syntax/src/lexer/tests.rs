use super::*;

fn kinds(text: &str) -> Vec<TokenKind> {
    lex(text).tokens.iter().map(|t| t.kind).collect()
}

#[test]
fn operators_use_maximal_munch() {
    use TokenKind::*;
    assert_eq!(
        kinds("a >>>= b >>= c >> d >>> e -> ... :: @ != <<="),
        vec![
            Ident, UShrEq, Ident, ShrEq, Ident, Shr, Ident, UShr, Ident, Arrow, Ellipsis,
            ColonColon, At, Ne, ShlEq, Eof
        ]
    );
}

#[test]
fn comments_and_keywords() {
    use TokenKind::*;
    let l = lex("/** doc */ class // line\n A /* x */ { var }");
    assert!(l.diagnostics.is_empty());
    assert_eq!(
        l.tokens.iter().map(|t| t.kind).collect::<Vec<_>>(),
        vec![
            Keyword(super::Keyword::Class),
            Ident,
            LBrace,
            Ident,
            RBrace,
            Eof
        ]
    );
    assert_eq!(l.tokens[1].span, Span::new(26, 27));
}

#[test]
fn integer_literals() {
    let cases: &[(&str, u64, bool, bool)] = &[
        ("0", 0, false, true),
        ("1_000", 1000, false, true),
        ("0x1F", 31, false, false),
        ("0XFFFF_FFFF", 0xFFFF_FFFF, false, false),
        ("017", 15, false, false),
        ("0b1010", 10, false, false),
        ("42L", 42, true, true),
        ("2147483648", 1 << 31, false, true),
        ("0xFFFFFFFFFFFFFFFFL", u64::MAX, true, false),
    ];
    for (text, value, is_long, decimal) in cases {
        let l = lex(text);
        assert!(l.diagnostics.is_empty(), "{text}: {:?}", l.diagnostics);
        assert_eq!(
            l.tokens[0].kind,
            TokenKind::Int {
                value: *value,
                is_long: *is_long,
                decimal: *decimal
            },
            "{text}"
        );
    }
    for bad in [
        "2147483649",
        "0x1_0000_0000",
        "09",
        "0x",
        "12abc",
        "1_",
        "99999999999999999999L",
    ] {
        assert_eq!(lex(bad).diagnostics.len(), 1, "{bad}");
    }
}

#[test]
fn float_literals() {
    for text in [
        "1.5", "1.", ".5", "1e10", "2e-3f", "3f", "4D", "0x1.8p3", "1_0.0_1",
    ] {
        let l = lex(text);
        assert!(l.diagnostics.is_empty(), "{text}: {:?}", l.diagnostics);
        assert_eq!(l.tokens[0].kind, TokenKind::Float, "{text}");
        assert_eq!(l.tokens.len(), 2, "{text}");
    }
    assert_eq!(lex("1e").diagnostics.len(), 1);
}

#[test]
fn string_and_char_escapes() {
    let l = lex(r#""a\tb\"\\\u0041\uD83D\uDE00\101" '\n' '\u0042' 'x' '\''"#);
    assert!(l.diagnostics.is_empty(), "{:?}", l.diagnostics);
    assert_eq!(l.strings[0], "a\tb\"\\A😀A");
    let chars: Vec<_> = l.tokens[1..5].iter().map(|t| t.kind).collect();
    assert_eq!(
        chars,
        vec![
            TokenKind::Char(10),
            TokenKind::Char(0x42),
            TokenKind::Char('x' as u32),
            TokenKind::Char('\'' as u32)
        ]
    );
}

#[test]
fn text_block() {
    let l = lex("\"\"\"\n  hi \\\"there\\\"\n  \"\"\" x");
    assert!(l.diagnostics.is_empty(), "{:?}", l.diagnostics);
    assert_eq!(l.strings[0], "  hi \"there\"\n  ");
    assert_eq!(l.tokens[1].kind, TokenKind::Ident);
}

#[test]
fn lexical_errors_are_diagnosed() {
    let l = lex("\"abc\nx /* never");
    let codes: Vec<_> = l.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, vec!["unterminated-string", "unterminated-comment"]);
    let l = lex("a # ## \\ b '' 'ab;\n'\\q'");
    let codes: Vec<_> = l.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(
        codes,
        vec![
            "unexpected-character",
            "unexpected-character",
            "unexpected-character",
            "empty-char",
            "unterminated-char",
            "invalid-escape"
        ]
    );
    assert_eq!(l.diagnostics[1].span, Span::new(4, 6));
}

#[test]
fn never_panics_on_odd_input() {
    for text in [
        "'",
        "\"",
        "\\",
        "\"\\u12",
        "'\\u",
        "0x.p",
        "\"\"\"",
        "é€𝄞",
        "0b",
        ".",
        "'\u{1F600}'",
    ] {
        let l = lex(text);
        assert_eq!(l.tokens.last().map(|t| t.kind), Some(TokenKind::Eof));
    }
}
