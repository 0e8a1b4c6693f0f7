//! Parser unit tests.

use super::parse_program;
use crate::ast::*;
use crate::ast_dump::{dump_expr, dump_program};
use crate::span::LineIndex;

/// Parse `body` as the statements of a method and dump the method's block.
fn stmts(body: &str) -> (String, Vec<String>) {
    let text = format!("class T {{ void m() {{\n{body}\n}} }}");
    let p = parse_program(&text);
    let dump = dump_program(&p.tree, &text);
    (dump, errors(&text, &p.diagnostics))
}

/// `line:col code: message` of each diagnostic.
fn errors(text: &str, diags: &[crate::Diagnostic]) -> Vec<String> {
    let idx = LineIndex::new(text);
    diags
        .iter()
        .map(|d| {
            let lc = idx.line_col(text, d.span.start as usize);
            format!("{}:{} {}: {}", lc.line, lc.column, d.code, d.message)
        })
        .collect()
}

/// Parse one expression (as `x = EXPR;`) and dump it.
fn expr(src: &str) -> String {
    let text = format!("class T {{ void m() {{ x = {src}; }} }}");
    let p = parse_program(&text);
    let errs = errors(&text, &p.diagnostics);
    assert!(errs.is_empty(), "{src}: {errs:?}");
    let Some(Member::Method(m)) = p.tree.classes.first().and_then(|c| c.members.first()) else {
        panic!("no method: {src}")
    };
    let body = m.body.as_ref().expect("body");
    let Some(StmtKind::Expr(Expr {
        kind: ExprKind::Assign { value, .. },
        ..
    })) = body.stmts.first().map(|s| &s.kind)
    else {
        panic!("no assignment: {src}")
    };
    dump_expr(value)
}

#[test]
fn precedence_and_associativity() {
    assert_eq!(expr("1 + 2 * 3"), "(+ 1 (* 2 3))");
    assert_eq!(expr("1 - 2 - 3"), "(- (- 1 2) 3)");
    assert_eq!(
        expr("a || b && c | d ^ e & f"),
        "(|| (name a) (&& (name b) (| (name c) (^ (name d) (& (name e) (name f))))))"
    );
    assert_eq!(
        expr("a == b < c << d + e"),
        "(== (name a) (< (name b) (<< (name c) (+ (name d) (name e)))))"
    );
    assert_eq!(expr("a = b += c"), "(= (name a) (+= (name b) (name c)))");
    assert_eq!(
        expr("c ? a : d ? e : f"),
        "(? (name c) (name a) (? (name d) (name e) (name f)))"
    );
    assert_eq!(
        expr("-a.b[i]++"),
        "(- (post++ (index (field (name a) b) (name i))))"
    );
    assert_eq!(expr("!x instanceof Foo"), "(instanceof (! (name x)) Foo)");
    assert_eq!(
        expr("a < b == c > d"),
        "(== (< (name a) (name b)) (> (name c) (name d)))"
    );
    assert_eq!(expr("a >>> 2 >> 1"), "(>> (>>> (name a) 2) 1)");
    assert_eq!(expr("-2147483648"), "-2147483648");
    assert_eq!(expr("-9223372036854775808L"), "-9223372036854775808L");
    assert_eq!(expr("- 5"), "(- 5)");
    assert_eq!(expr("0x8000_0000"), "-2147483648");
    assert_eq!(expr("0xFFFF_FFFF_FFFF_FFFFL"), "-1L");
    assert_eq!(expr("0xFFFFFFFF"), "-1");
    assert_eq!(expr("'a' + \"s\\n\""), "(+ 'a' \"s\\n\")");
}

#[test]
fn casts_versus_parentheses() {
    assert_eq!(expr("(int) x"), "(cast int (name x))");
    assert_eq!(expr("(int) -x"), "(cast int (- (name x)))");
    assert_eq!(expr("(Foo) x"), "(cast Foo (name x))");
    assert_eq!(expr("(Foo) (x)"), "(cast Foo (name x))");
    assert_eq!(expr("(Foo) -x"), "(- (name Foo) (name x))");
    assert_eq!(expr("(a) + b"), "(+ (name a) (name b))");
    assert_eq!(expr("(a) * b"), "(* (name a) (name b))");
    assert_eq!(expr("(a < b)"), "(< (name a) (name b))");
    assert_eq!(expr("(List<String>) o"), "(cast List<String> (name o))");
    assert_eq!(expr("(int[]) o"), "(cast int[] (name o))");
    assert_eq!(
        expr("(java.util.Random) new Object()"),
        "(cast java.util.Random (new Object))"
    );
    assert_eq!(expr("(String) this.f"), "(cast String (field this f))");
    assert_eq!(expr("(a.b) !c"), "(cast a.b (! (name c)))");
}

#[test]
fn nondet_star() {
    let (d, e) = stmts("if (*) { x = *; } foo(*, 1); y = a * b; z = * && *;");
    assert!(e.is_empty(), "{e:?}");
    assert!(d.contains("(if @2:1 *"), "{d}");
    assert!(d.contains("(= (name x) *)"), "{d}");
    assert!(d.contains("(call _ foo * 1)"), "{d}");
    assert!(d.contains("(* (name a) (name b))"), "{d}");
    assert!(d.contains("(&& * *)"), "{d}");
}

#[test]
fn generics_and_shift_splitting() {
    let (d, e) = stmts(
        "Map<K, List<V>> m = new HashMap<>(); List<List<List<X>>> l; \
         Map<String, Map<String, Integer>>[] arr; x = a >> b; y >>>= 2; \
         List<? extends Number> w = Collections.<Number>emptyList(); ok = i < n;",
    );
    assert!(e.is_empty(), "{e:?}");
    assert!(
        d.contains("(local @2:1 Map<K, List<V>> m (new HashMap))"),
        "{d}"
    );
    assert!(d.contains("List<List<List<X>>> l)"), "{d}");
    assert!(
        d.contains("Map<String, Map<String, Integer>>[] arr)"),
        "{d}"
    );
    assert!(d.contains("(>> (name a) (name b))"), "{d}");
    assert!(d.contains("(>>>= (name y) 2)"), "{d}");
    assert!(
        d.contains("List<Object> w (call (name Collections) emptyList)"),
        "{d}"
    );
    assert!(d.contains("(= (name ok) (< (name i) (name n)))"), "{d}");
}

#[test]
fn declarations_and_statements() {
    let src = "int a[] = {1, 2}, b; var v = new int[3][]; final String s = \"x\";\n\
               for (int i = 0, j = 1; i < j; i++, j--) { continue; }\n\
               for (String t : list) break;\n\
               for (;;) {}\n\
               do { i--; } while (i > 0);\n\
               out: while (true) { break out; }\n\
               try { f(); } catch (A | B e) { } finally { g(); }\n\
               switch (k) { case 1, 2: case 3: f(); break; default: g(); }\n\
               if (a) x(); else if (b) y(); else z();\n\
               return;";
    let (d, e) = stmts(src);
    assert!(e.is_empty(), "{e:?}");
    for needle in [
        "(local @2:1 int (a:int[] (array 1 2)) (b))",
        "(local @2:22 var v (new-array int[][] (dims 3)))",
        "(for @3:1 (init (local @3:6 int (i 0) (j 1))) (< (name i) (name j)) (update (post++ (name i)) (post-- (name j)))",
        "(for-each @4:1 String t (name list)",
        "(for @5:1 (init) _ (update)",
        "(do-while @6:1 (> (name i) 0)",
        "(labeled @7:1 out",
        "(break @7:21 out)",
        "(catch @8:14 (A | B) e",
        "(case @9:14 1 2 3",
        "(case @9:45 default",
        "(else (if @10:18 (name b)",
        "(return @11:1)",
    ] {
        assert!(d.contains(needle), "missing {needle} in\n{d}");
    }
}

#[test]
fn classes_members_and_constructors() {
    let text = "package a.b;\nimport java.util.*;\nimport static x.Y.z;\n\
                @Ann(x = {1, 2}) public abstract class A<T extends Comparable<T>> extends B implements I, J {\n\
                  static int n = 0; private final List<String> xs;\n\
                  A(int x) { this(x, 1); }\n\
                  A(int x, int... ys) { super(x); }\n\
                  public static void main(String[] args) throws Exception { }\n\
                  abstract int f();\n\
                  static { n = 1; }\n\
                  { n++; }\n\
                  static class Inner { }\n\
                  <U> U id(U u) { return u; }\n\
                }\n\
                interface I extends K, L { int C = 1; void m(); default void d() {} }";
    let p = parse_program(text);
    let errs = errors(text, &p.diagnostics);
    assert!(errs.is_empty(), "{errs:?}");
    let d = dump_program(&p.tree, text);
    for needle in [
        "(class @4:1 abstract A (extends B) (implements I J)",
        "(field @5:1 static int n 0)",
        "(field @5:19 List<String> xs)",
        "(constructor @6:1 A ((param int x))",
        "(expr @6:12 (call _ this (name x) 1))",
        "(constructor @7:1 A ((param int x) (param int[] ys))",
        "(expr @7:23 (call _ super (name x)))",
        "(method @8:1 static void main ((param String[] args))",
        "(method @9:1 abstract int f () no-body)",
        "(initializer @10:1 static",
        "(initializer @11:1",
        "(class @12:1 static Inner)",
        "(method @13:1 U id ((param U u))",
        "(interface @15:1 I (extends K) (implements L)",
        "(field @15:28 static int C 1)",
        "(method @15:39 abstract void m () no-body)",
        "(method @15:49 void d ()",
    ] {
        assert!(d.contains(needle), "missing {needle} in\n{d}");
    }
}

#[test]
fn missing_semicolon_points_after_previous_token() {
    let text =
        "class A {\n  void m() {\n    int x = 1\n    foo();\n    y = 2 3;\n    bar();\n  }\n}";
    let p = parse_program(text);
    let errs = errors(text, &p.diagnostics);
    assert_eq!(
        errs,
        vec![
            "3:14 expected-token: expected `;`, found `foo`",
            "5:10 expected-token: expected `;`, found `3`",
        ]
    );
    // Recovery kept the following statements.
    let d = dump_program(&p.tree, text);
    assert!(d.contains("(call _ foo)"), "{d}");
    assert!(d.contains("(call _ bar)"), "{d}");
}

#[test]
fn two_mistakes_give_two_errors_at_the_right_places() {
    let text = "class A {\n  void m() {\n    x = ;\n    if (a {\n      b();\n    }\n    c() d;\n  }\n  int f( { }\n  void g() { 1 + 2; }\n}\n";
    let p = parse_program(text);
    let errs = errors(text, &p.diagnostics);
    assert_eq!(
        errs,
        vec![
            "3:9 expected-expression: expected an expression, found `;`",
            "4:11 expected-token: expected `)`, found `{`",
            "7:8 expected-token: expected `;`, found `d`",
            "9:10 expected-type: expected a parameter type, found `{`",
            "10:14 not-a-statement: not a statement",
        ]
    );
    let d = dump_program(&p.tree, text);
    assert!(d.contains("(call _ b)"), "{d}");
    assert!(d.contains("(method @10:3 void g ()"), "{d}");
}

#[test]
fn not_a_statement_and_bad_targets() {
    let (_, e) = stmts("x;\na.b;\n1 = 2;\nf()++;\nnew A();\ni++;");
    assert_eq!(
        e,
        vec![
            "2:1 not-a-statement: not a statement",
            "3:1 not-a-statement: not a statement",
            "4:1 invalid-assignment-target: invalid left-hand side of assignment",
            "5:1 invalid-assignment-target: invalid operand of increment/decrement",
        ]
    );
}

#[test]
fn closures_are_kept_and_unsupported_constructs_reported() {
    let src = "Runnable r = () -> { f(); x = 1; };\n\
               g(x -> x + 1, (a, b) -> a);\n\
               h(String::valueOf, Foo::new);\n\
               k();\n\
               ;\n\
               Object o = new Object() { int y; void run() { z++; } };\n\
               switch (k) { case 1 -> f(); default -> g(); }\n\
               try (R r = open()) { }\n\
               Class<?> c = String.class;\n\
               boolean b = o instanceof String s && Outer.this.ok();\n\
               ok();";
    let (d, e) = stmts(src);
    let codes: Vec<_> = e
        .iter()
        .map(|s| s.split(' ').take(2).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(
        codes,
        vec!["8:21 unsupported:", "8:37 unsupported:", "9:5 unsupported:"],
        "{e:#?}"
    );
    assert!(d.contains("(lambda calls: f writes: x)"), "{d}");
    assert!(d.contains("(lambda)"), "{d}");
    assert!(d.contains("(method-ref calls: valueOf)"), "{d}");
    assert!(d.contains("(method-ref calls: Foo)"), "{d}");
    assert!(d.contains("(anonymous Object writes: z)"), "{d}");
    assert!(d.contains("(instanceof (name o) String s)"), "{d}");
    assert!(d.contains("(outer-this Outer)"), "{d}");
    assert!(d.contains("(call _ ok)"), "{d}");
    assert!(d.contains("(call _ k)"), "{d}");
}

#[test]
fn synchronized_blocks_and_asserts() {
    let src = "synchronized (this) { k(); }\n\
               synchronized (lockOf(a)) { }\n\
               assert x > 0 : \"msg\";\n\
               assert ok();";
    let (d, e) = stmts(src);
    assert!(e.is_empty(), "{e:#?}");
    // (`stmts` puts the source in a method: line 1 is line 2.)
    assert!(d.contains("(synchronized @2:1 this\n"), "{d}");
    assert!(d.contains("(call _ k)"), "{d}");
    assert!(
        d.contains("(synchronized @3:1 (call _ lockOf (name a)))"),
        "{d}"
    );
    assert!(d.contains("(assert @4:1 (> (name x) 0) : \"msg\")"), "{d}");
    assert!(d.contains("(assert @5:1 (call _ ok))"), "{d}");
    // Errors inside are reported and recovered from.
    let (d, e) = stmts("synchronized this { k(); }\nassert : 1;\nok();");
    assert_eq!(
        e,
        [
            "2:14 expected-token: expected `(`, found `this`",
            "3:8 expected-expression: expected an expression, found `:`",
        ]
    );
    assert!(d.contains("(call _ ok)"), "{d}");
}

#[test]
fn class_literals() {
    assert_eq!(expr("String.class"), "(class-literal String)");
    assert_eq!(
        expr("Logger.getLogger(java.util.List.class)"),
        "(call (name Logger) getLogger (class-literal java.util.List))"
    );
    let (d, e) = stmts("synchronized (Main.class) { k(); }");
    assert!(e.is_empty(), "{e:#?}");
    assert!(d.contains("(synchronized @2:1 (class-literal Main)"), "{d}");
    // Only a (qualified) name has a class literal.
    let (_, e) = stmts("Object o = f().class;");
    assert_eq!(e, ["2:12 unsupported: class literals are not supported"]);
}

#[test]
fn enums_are_classes_with_constant_fields() {
    let text = "enum E implements I { A, B(2) { void f() { lock(); } }, ; void f() {} }\n\
                class M { enum F { X } void g() { switch (e) { case A: break; } } }";
    let p = parse_program(text);
    let errs = errors(text, &p.diagnostics);
    assert!(errs.is_empty(), "{errs:?}");
    let d = dump_program(&p.tree, text);
    assert!(d.contains("(method @2:24 void g ()"), "{d}");
    assert!(d.contains("(new E)"), "{d}");
    assert!(d.contains("(anonymous E 2 calls: lock)"), "{d}");
    assert!(
        d.contains("(class @1:1 static E (extends Enum) (implements I)"),
        "{d}"
    );
}

#[test]
fn arrays() {
    assert_eq!(expr("new int[] {1, 2}"), "(new-array int[] (init 1 2))");
    assert_eq!(
        expr("new String[n][m][]"),
        "(new-array String[][][] (dims (name n) (name m)))"
    );
    assert_eq!(
        expr("a[i][j]"),
        "(index (index (name a) (name i)) (name j))"
    );
    assert_eq!(
        expr("new int[][] {{1}, {}}"),
        "(new-array int[][] (init (array 1) (array)))"
    );
}

#[test]
fn deep_nesting_is_cut_off() {
    // (prefix, suffix, is a statement); each nested 20,000 times, parsed on a 2 MiB
    // stack (the default for test threads) in the debug profile.
    let cases: &[(&str, &str, bool)] = &[
        ("(", ")", false),
        ("- ", "", false),
        ("!", "", false),
        ("(int)", "", false),
        ("a = ", "", false),
        ("c ? d : ", "", false),
        ("f(", ")", false),
        ("a.m(", ")", false),
        ("a[", "]", false),
        ("new int[] {", "}", false),
        ("{", "}", true),
        ("if (x) ", "", true),
        ("for (;;) ", "", true),
        ("while (x) ", "", true),
        ("do ", " while (x);", true),
        ("l: ", "", true),
        ("try {", "} finally {}", true),
        ("switch (x) { case 1: ", "}", true),
        // Left-nested chains: no recursion in the parser, but a deep tree for every
        // consumer (and for `Drop`), so they count against MAX_TREE_DEPTH.
        ("1 + ", "", false),
        ("y * ", "", false),
        ("", "[0]", false),
    ];
    for &(open, close, is_stmt) in cases {
        let n = 20_000;
        let nested = format!(
            "{}{}{}",
            open.repeat(n),
            if is_stmt { ";" } else { "1" },
            close.repeat(n)
        );
        let text = if is_stmt {
            format!("class T {{ void m() {{ {nested} }} void after() {{ ok(); }} }}")
        } else {
            format!("class T {{ void m() {{ x = {nested}; }} void after() {{ ok(); }} }}")
        };
        let (errs, dump) = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let p = parse_program(&text);
                let errs: Vec<_> = p.diagnostics.iter().map(|d| d.code).collect();
                (errs, dump_program(&p.tree, &text))
            })
            .expect("spawn")
            .join()
            .expect("no stack overflow");
        assert_eq!(errs, vec!["nesting-too-deep"], "{open}");
        assert!(
            dump.contains("(call _ ok)"),
            "{open}: recovery lost the next member"
        );
    }
}

#[test]
fn long_else_if_chains_are_not_nesting() {
    let mut body = String::from("if (a) f();");
    for _ in 0..2000 {
        body.push_str(" else if (b) g();");
    }
    body.push_str(" else h();");
    let (_, e) = std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || stmts(&body))
        .expect("spawn")
        .join()
        .expect("no stack overflow");
    assert!(e.is_empty(), "{e:?}");
}

#[test]
fn missing_statement_bodies() {
    let (d, e) = stmts("if (x) { } else");
    assert_eq!(
        e,
        vec!["3:1 expected-statement: expected a statement, found `}`"]
    );
    assert!(d.contains("(else (error @3:1))"), "{d}");
    let (d, e) = stmts("int.class.getName();");
    assert!(e.is_empty(), "{e:?}");
    assert!(d.contains("(class-literal int)"), "{d}");
}

#[test]
fn out_of_range_literals() {
    let (_, e) = stmts("x = 2147483648; y = -(2147483648); z = 9223372036854775808L;");
    assert_eq!(
        e,
        vec![
            "2:5 number-too-large: integer literal `2147483648` is too large for type `int`",
            "2:23 number-too-large: integer literal `2147483648` is too large for type `int`",
            "2:40 number-too-large: integer literal `9223372036854775808L` is too large for type `long`",
        ]
    );
}

#[test]
fn lexical_errors_do_not_cascade() {
    let text = "class A { void m() { x = #; s = \"abc\n; } }";
    let p = parse_program(text);
    let errs = errors(text, &p.diagnostics);
    assert_eq!(
        errs,
        vec![
            "1:26 unexpected-character: unexpected character `#`",
            "1:33 unterminated-string: unterminated string literal",
        ]
    );
}

#[test]
fn spans_of_statements_and_exprs() {
    let text = "class A { void m() { foo(1, 2); } }";
    let p = parse_program(text);
    let Member::Method(m) = &p.tree.classes[0].members[0] else {
        panic!("method expected")
    };
    let s = &m.body.as_ref().expect("body").stmts[0];
    assert_eq!(
        &text[s.span.start as usize..s.span.end as usize],
        "foo(1, 2);"
    );
    let StmtKind::Expr(e) = &s.kind else {
        panic!("expr stmt")
    };
    assert_eq!(
        &text[e.span.start as usize..e.span.end as usize],
        "foo(1, 2)"
    );
    assert_eq!(
        &text[m.span.start as usize..m.span.end as usize],
        "void m() { foo(1, 2); }"
    );
}
