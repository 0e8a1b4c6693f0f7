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
        "(field @5:19 final List<String> xs)",
        "(constructor @6:1 A ((param int x))",
        "(expr @6:12 (call _ this (name x) 1))",
        "(constructor @7:1 A ((param int x) (param int... ys))",
        "(expr @7:23 (call _ super (name x)))",
        "(method @8:1 static void main ((param String[] args)) (throws Exception)",
        "(method @9:1 abstract int f () no-body)",
        "(initializer @10:1 static",
        "(initializer @11:1",
        "(class @12:1 static Inner)",
        "(method @13:1 U id ((param U u))",
        "(interface @15:1 I (extends K) (implements L)",
        "(field @15:28 static int C 1)",
        "(method @15:39 abstract void m () no-body)",
        "(method @15:49 default void d ()",
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
               Object v = outer.new Inner();\n\
               record P(int x) { }\n\
               Class<?> c = String.class;\n\
               boolean b = o instanceof String s && Outer.this.ok();\n\
               ok();";
    let (d, e) = stmts(src);
    let codes: Vec<_> = e
        .iter()
        .map(|s| s.split(' ').take(2).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(codes, vec!["8:12 unsupported:"], "{e:#?}");
    assert!(d.contains("(lambda () calls: f writes: x ->\n"), "{d}");
    assert!(d.contains("(lambda (x) -> (+ (name x) 1))"), "{d}");
    assert!(d.contains("(lambda (a b) -> (name a))"), "{d}");
    assert!(
        d.contains("(method-ref (name String) valueOf calls: valueOf)"),
        "{d}"
    );
    assert!(d.contains("(method-ref (name Foo) new calls: Foo)"), "{d}");
    assert!(d.contains("(anonymous Object writes: z\n"), "{d}");
    assert!(d.contains("(instanceof (name o) String s)"), "{d}");
    assert!(d.contains("(outer-this Outer)"), "{d}");
    assert!(d.contains("(call _ ok)"), "{d}");
    assert!(d.contains("(call _ k)"), "{d}");
}

/// The statements of the method body of `stmts`' program.
fn body_stmts(p: &crate::Parsed<CompilationUnit>) -> &[Stmt] {
    let Some(Member::Method(m)) = p.tree.classes.first().and_then(|c| c.members.first()) else {
        panic!("no method")
    };
    &m.body.as_ref().expect("body").stmts
}

/// Parse `body` as the statements of a method: the parse and its text.
fn parse_stmts(body: &str) -> (crate::Parsed<CompilationUnit>, String) {
    let text = format!("class T {{ void m() {{\n{body}\n}} }}");
    (parse_program(&text), text)
}

/// The closure that expression `src` (as in [`expr`]) parses to.
fn closure_of(src: &str) -> Closure {
    let text = format!("class T {{ void m() {{ x = {src}; }} }}");
    let p = parse_program(&text);
    let errs = errors(&text, &p.diagnostics);
    assert!(errs.is_empty(), "{src}: {errs:?}");
    let Some(Stmt {
        kind:
            StmtKind::Expr(Expr {
                kind: ExprKind::Assign { value, .. },
                ..
            }),
        ..
    }) = body_stmts(&p).first()
    else {
        panic!("no assignment: {src}")
    };
    match &value.kind {
        ExprKind::Closure(c) => (**c).clone(),
        other => panic!("{src}: not a closure: {other:?}"),
    }
}

/// The text `span` covers in `text`.
fn spanned(text: &str, span: crate::Span) -> &str {
    &text[span.start as usize..span.end as usize]
}

#[test]
fn lambdas_keep_their_parameters_and_bodies() {
    assert_eq!(expr("() -> 1"), "(lambda () -> 1)");
    assert_eq!(expr("x -> x"), "(lambda (x) -> (name x))");
    assert_eq!(
        expr("(x, y) -> x + y"),
        "(lambda (x y) -> (+ (name x) (name y)))"
    );
    assert_eq!(
        expr("(int x, String y) -> y"),
        "(lambda ((int x) (String y)) -> (name y))"
    );
    assert_eq!(expr("(var x) -> x"), "(lambda ((var x)) -> (name x))");
    assert_eq!(
        expr("(final @A List<String> l, int a[], int... r) -> l"),
        "(lambda ((List<String> l) (int[] a) (int... r)) -> (name l))"
    );
    assert_eq!(
        expr("x -> y -> f(x, y)"),
        "(lambda (x) calls: f -> (lambda (y) calls: f -> (call _ f (name x) (name y))))"
    );
    assert_eq!(
        expr("(String s) -> s.length() > 0 ? a::m : () -> { }"),
        "(lambda ((String s)) calls: length -> (? (> (call (name s) length) 0) \
         (method-ref (name a) m calls: m) (lambda () ->\n  (block))))"
    );

    let c = closure_of("(int x, y) -> { return x; }");
    let ClosureCode::Lambda { params, body } = &c.code else {
        panic!("{c:?}")
    };
    assert_eq!(c.kind, ClosureKind::Lambda);
    assert_eq!(params.len(), 2);
    assert_eq!(params[0].name.name, "x");
    assert!(matches!(
        params[0].ty,
        Some(TypeRef {
            kind: TypeKind::Int,
            ..
        })
    ));
    assert_eq!(params[1].ty, None);
    let LambdaBody::Block(b) = body else {
        panic!("{body:?}")
    };
    assert!(matches!(b.stmts[0].kind, StmtKind::Return(Some(_))));
    let c = closure_of("(var v, String... rest) -> v");
    let ClosureCode::Lambda { params, body } = &c.code else {
        panic!("{c:?}")
    };
    assert!(matches!(
        params[0].ty,
        Some(TypeRef {
            kind: TypeKind::Inferred,
            ..
        })
    ));
    assert!(params[1].is_varargs);
    assert!(matches!(
        params[1].ty,
        Some(TypeRef {
            kind: TypeKind::Array(_),
            ..
        })
    ));
    assert!(matches!(body, LambdaBody::Expr(e) if matches!(e.kind, ExprKind::Name(_))));

    // A block body is parsed like any block: statements, local classes, nested closures.
    let (d, e) = stmts(
        "run(() -> {\n  int n = 0;\n  for (String s : xs) n++;\n  \
         list.forEach(s -> { log(s); });\n});",
    );
    assert!(e.is_empty(), "{e:?}");
    assert!(
        d.contains(
            "(expr @2:1 (call _ run (lambda () calls: forEach log writes: n n ->\n\
             \x20       (block\n\
             \x20         (local @3:3 int n 0)\n"
        ),
        "{d}"
    );
    assert!(
        d.contains("(expr @5:3 (call (name list) forEach (lambda (s) calls: log ->\n"),
        "{d}"
    );
}

#[test]
fn closure_effects_are_scanned_as_written() {
    // The bodies of anonymous classes and block lambdas are scanned before they are
    // parsed: `>>` closing type arguments there stays one token for the scan (so
    // `make(` after it counts as a call), as when those bodies were skipped unparsed.
    let c = closure_of("new Object() { Map<K, List<V>> make() { return build(); } }");
    assert_eq!(names(&c.calls), ["make", "build"]);
    let c = closure_of("() -> { List<List<X>> l = make(); l.add(y); n++; }");
    assert_eq!(names(&c.calls), ["make", "add"]);
    assert_eq!(names(&c.writes), ["l", "n"]);
    let c = closure_of(
        "x -> new Base<Map<A, List<B>>>() { Map<K, List<V>> make() { call(); return null; } }",
    );
    assert_eq!(names(&c.calls), ["make", "call"]);
    // An expression body is scanned after it is parsed (as it always was).
    let c = closure_of("x -> Collections.<List<X>>foo(x).bar()");
    assert_eq!(names(&c.calls), ["bar"]);
}

/// The names of `ids`.
fn names(ids: &[Ident]) -> Vec<&str> {
    ids.iter().map(|i| i.name.as_str()).collect()
}

#[test]
fn lambda_spans() {
    let (p, text) = parse_stmts("f((a, int b) -> a + b, x -> { g(); });");
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let StmtKind::Expr(Expr {
        kind: ExprKind::Call { args, .. },
        ..
    }) = &body_stmts(&p)[0].kind
    else {
        panic!("call")
    };
    assert_eq!(spanned(&text, args[0].span), "(a, int b) -> a + b");
    assert_eq!(spanned(&text, args[1].span), "x -> { g(); }");
    let ExprKind::Closure(c) = &args[0].kind else {
        panic!("closure")
    };
    let ClosureCode::Lambda { params, body } = &c.code else {
        panic!("lambda")
    };
    assert_eq!(spanned(&text, params[0].span), "a");
    assert_eq!(spanned(&text, params[1].span), "int b");
    assert_eq!(spanned(&text, params[1].name.span), "b");
    let LambdaBody::Expr(body) = body else {
        panic!("expression body")
    };
    assert_eq!(spanned(&text, body.span), "a + b");
    let ExprKind::Closure(c) = &args[1].kind else {
        panic!("closure")
    };
    let ClosureCode::Lambda {
        body: LambdaBody::Block(b),
        ..
    } = &c.code
    else {
        panic!("block lambda")
    };
    assert_eq!(spanned(&text, b.span), "{ g(); }");
}

#[test]
fn unfinished_lambdas_are_reported_and_recovered_from() {
    // No body.
    let (d, e) = stmts("Runnable r = () -> ;\nok();");
    assert_eq!(
        e,
        ["2:20 expected-expression: expected an expression, found `;`"]
    );
    assert!(
        d.contains("(local @2:1 Runnable r (lambda () -> <error>))"),
        "{d}"
    );
    assert!(d.contains("(call _ ok)"), "{d}");
    // A block body without its `}`: the method's brace closes it.
    let text = "class T { void m() { run(() -> { f(); ); }\n void n() { ok(); } }";
    let p = parse_program(text);
    let errs = errors(text, &p.diagnostics);
    assert!(!errs.is_empty());
    assert!(
        errs[0].starts_with("1:39 expected-expression: expected an expression, found `)`"),
        "{errs:?}"
    );
    assert!(dump_program(&p.tree, text).contains("(call _ f)"));
    // A missing `)` after the parameters.
    let (d, e) = stmts("f((a, b -> a);\nok();");
    assert_eq!(e, ["2:9 expected-token: expected `,` or `)`, found `->`"]);
    assert!(d.contains("(call _ f (lambda (a b) -> (name a)))"), "{d}");
    assert!(d.contains("(call _ ok)"), "{d}");
    // A missing parameter.
    let (d, e) = stmts("f((int x, ) -> x);\nok();");
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with("2:11 "), "{e:?}");
    assert!(d.contains("(call _ ok)"), "{d}");
}

#[test]
fn method_references_keep_their_targets() {
    assert_eq!(
        expr("String::valueOf"),
        "(method-ref (name String) valueOf calls: valueOf)"
    );
    assert_eq!(
        expr("java.util.Objects::isNull"),
        "(method-ref (field (field (name java) util) Objects) isNull calls: isNull)"
    );
    assert_eq!(
        expr("Outer.Inner::m"),
        "(method-ref (field (name Outer) Inner) m calls: m)"
    );
    assert_eq!(expr("f()::g"), "(method-ref (call _ f) g calls: g)");
    assert_eq!(expr("this::m"), "(method-ref this m calls: m)");
    assert_eq!(expr("super::m"), "(method-ref super m calls: m)");
    assert_eq!(expr("Foo::new"), "(method-ref (name Foo) new calls: Foo)");
    assert_eq!(
        expr("List<String>::size"),
        "(method-ref (type List<String>) size calls: size)"
    );
    assert_eq!(
        expr("Map.Entry<K, V>::getKey"),
        "(method-ref (type Map.Entry<K, V>) getKey calls: getKey)"
    );
    assert_eq!(
        expr("ArrayList<String>::new"),
        "(method-ref (type ArrayList<String>) new calls: ArrayList)"
    );
    assert_eq!(expr("int[]::new"), "(method-ref (type int[]) new)");
    assert_eq!(
        expr("String[][]::new"),
        "(method-ref (type String[][]) new)"
    );
    assert_eq!(
        expr("int[]::clone"),
        "(method-ref (type int[]) clone calls: clone)"
    );
    assert_eq!(
        expr("Collections::<String>emptyList"),
        "(method-ref (name Collections) emptyList calls: emptyList)"
    );
    assert_eq!(
        expr("a[i]::m"),
        "(method-ref (index (name a) (name i)) m calls: m)"
    );
    // Comparisons are not mistaken for type arguments.
    assert_eq!(
        expr("i < n ? a::f : b::g"),
        "(? (< (name i) (name n)) (method-ref (name a) f calls: f) (method-ref (name b) g calls: g))"
    );

    let c = closure_of("Outer.Inner::m");
    let ClosureCode::MethodRef { target, name } = &c.code else {
        panic!("{c:?}")
    };
    assert_eq!(c.kind, ClosureKind::MethodRef);
    assert_eq!(name.name, "m");
    assert!(matches!(target, MethodRefTarget::Expr(e) if matches!(e.kind, ExprKind::Field { .. })));
    let c = closure_of("int[]::new");
    let ClosureCode::MethodRef { target, name } = &c.code else {
        panic!("{c:?}")
    };
    assert_eq!(name.name, "new");
    assert!(matches!(
        target,
        MethodRefTarget::Type(TypeRef {
            kind: TypeKind::Array(_),
            ..
        })
    ));
    assert!(matches!(
        closure_of("super::m").code,
        ClosureCode::MethodRef {
            target: MethodRefTarget::Super,
            ..
        }
    ));

    // Spans.
    let (p, text) = parse_stmts("f(List<String>::size, a.b::c);");
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let StmtKind::Expr(Expr {
        kind: ExprKind::Call { args, .. },
        ..
    }) = &body_stmts(&p)[0].kind
    else {
        panic!("call")
    };
    assert_eq!(spanned(&text, args[0].span), "List<String>::size");
    assert_eq!(spanned(&text, args[1].span), "a.b::c");
    let ExprKind::Closure(c) = &args[1].kind else {
        panic!("closure")
    };
    let ClosureCode::MethodRef { name, .. } = &c.code else {
        panic!("method ref")
    };
    assert_eq!(spanned(&text, name.span), "c");

    // A missing name.
    let (d, e) = stmts("f(a::);\nok();");
    assert_eq!(
        e,
        ["2:6 expected-token: expected a method name or `new` after `::`, found `)`"]
    );
    assert!(d.contains("(method-ref (name a) <error>)"), "{d}");
    assert!(d.contains("(call _ ok)"), "{d}");
}

#[test]
fn anonymous_classes_keep_their_members() {
    let (d, e) = stmts(
        "Runnable r = new Base(1, x) {\n\
         \x20 int count = 0;\n\
         \x20 { count = 1; }\n\
         \x20 @Override public void run() { count++; helper(); }\n\
         \x20 int helper() { return count; }\n\
         \x20 class Inner { }\n\
         };\n\
         new Thread() { }.start();\n\
         new Object() { };",
    );
    assert!(e.is_empty(), "{e:?}");
    assert!(
        d.contains(
            "(local @2:1 Runnable r (anonymous Base 1 (name x) calls: helper writes: count count count\n\
             \x20       (field @3:3 int count 0)\n\
             \x20       (initializer @4:3\n\
             \x20         (block\n\
             \x20           (expr @4:5 (= (name count) 1))))\n\
             \x20       (method @5:3 void run ()\n"
        ),
        "{d}"
    );
    assert!(d.contains("(method @6:3 int helper ()"), "{d}");
    assert!(d.contains("        (class @7:3 Inner)))"), "{d}");
    assert!(
        d.contains("(expr @9:1 (call (anonymous Thread) start))"),
        "{d}"
    );
    assert!(d.contains("(expr @10:1 (anonymous Object))"), "{d}");

    let c = closure_of(
        "new Comparator<String>() { public int compare(String a, String b) { return 0; } }",
    );
    assert_eq!(c.kind, ClosureKind::Anonymous);
    let ClosureCode::Anonymous { members } = &c.code else {
        panic!("{c:?}")
    };
    let [Member::Method(m)] = members.as_slice() else {
        panic!("{members:?}")
    };
    assert_eq!(m.name.name, "compare");
    assert_eq!(m.params.len(), 2);
    assert!(m.modifiers.is_public);

    // An anonymous class has no constructor.
    let (_, e) = stmts("Object o = new Object() { Object() { } };");
    assert_eq!(
        e,
        ["2:27 missing-return-type: method `Object` needs a return type (an anonymous class has no constructors)"]
    );
    // Errors inside the body are reported and recovered from.
    let (d, e) = stmts("Object o = new Object() { void f() { x = ; } void g() { } };\nok();");
    assert_eq!(
        e,
        ["2:42 expected-expression: expected an expression, found `;`"]
    );
    assert!(d.contains("(method @2:46 void g ()"), "{d}");
    assert!(d.contains("(call _ ok)"), "{d}");
}

#[test]
fn enum_constant_bodies_are_kept() {
    let text = "enum Op {\n  PLUS { int apply(int a, int b) { return a + b; } },\n  \
                TIMES(2) { int apply(int a, int b) { return a * b; } };\n  \
                abstract int apply(int a, int b);\n}";
    let p = parse_program(text);
    let errs = errors(text, &p.diagnostics);
    assert!(errs.is_empty(), "{errs:?}");
    let d = dump_program(&p.tree, text);
    assert!(
        d.contains(
            "(field @2:3 static final Op PLUS (anonymous Op\n\
             \x20   (method @2:10 int apply ((param int a) (param int b))\n\
             \x20     (block\n\
             \x20       (return @2:36 (+ (name a) (name b)))))))"
        ),
        "{d}"
    );
    assert!(
        d.contains("(field @3:3 static final Op TIMES (anonymous Op 2\n"),
        "{d}"
    );
    let Member::Field(f) = &p.tree.classes[0].members[1] else {
        panic!("field")
    };
    let Some(Expr {
        kind: ExprKind::Closure(c),
        span,
    }) = &f.declarators[0].init
    else {
        panic!("closure")
    };
    assert_eq!(
        spanned(text, *span),
        "TIMES(2) { int apply(int a, int b) { return a * b; } }"
    );
    assert!(matches!(&c.code, ClosureCode::Anonymous { members } if members.len() == 1));
}

#[test]
fn local_classes_are_statements() {
    let (d, e) = stmts(
        "int k = 1;\n\
         class Local<T> extends Base implements Runnable {\n\
         \x20 int f = k;\n\
         \x20 Local(int x) { super(x); }\n\
         \x20 public void run() { ok(); }\n\
         }\n\
         abstract class A { abstract void g(); }\n\
         final class F { }\n\
         @Deprecated class D { }\n\
         interface I { void h(); }\n\
         enum E { X, Y }\n\
         new Local<String>(k).run();",
    );
    assert!(e.is_empty(), "{e:?}");
    assert!(
        d.contains(
            "(local @2:1 int k 1)\n\
             \x20     (class @3:1 Local (extends Base) (implements Runnable)\n\
             \x20       (field @4:3 int f (name k))\n\
             \x20       (constructor @5:3 Local ((param int x))\n"
        ),
        "{d}"
    );
    assert!(d.contains("(class @8:1 abstract A\n"), "{d}");
    assert!(d.contains("(class @9:1 final F)"), "{d}");
    assert!(d.contains("(class @10:1 D)"), "{d}");
    assert!(d.contains("(interface @11:1 I\n"), "{d}");
    assert!(d.contains("(class @12:1 static E (extends Enum)"), "{d}");
    assert!(
        d.contains("(expr @13:1 (call (new Local<String> (name k)) run))"),
        "{d}"
    );

    let (p, text) = parse_stmts("final class L { void m() { class M { } } }\nok();");
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let s = &body_stmts(&p)[0];
    assert_eq!(
        spanned(&text, s.span),
        "final class L { void m() { class M { } } }"
    );
    let StmtKind::LocalClass(c) = &s.kind else {
        panic!("{s:?}")
    };
    assert_eq!(c.name.name, "L");
    assert!(c.modifiers.is_final);
    let Member::Method(m) = &c.members[0] else {
        panic!("method")
    };
    assert!(matches!(
        m.body.as_ref().map(|b| &b.stmts[0].kind),
        Some(StmtKind::LocalClass(_))
    ));

    // A local record is a local class; a `static` local that is no class is unsupported.
    let (d, e) = stmts("record R(int x) { }\nstatic int y;\nok();");
    assert_eq!(e, ["3:1 unsupported: local classes are not supported"]);
    assert!(d.contains("(class @2:1 static final R"), "{d}");
    // An error inside a local class is reported, and the statements after it parse.
    let (d, e) = stmts("class L { void m() { x = ; } }\nok();");
    assert_eq!(
        e,
        ["2:26 expected-expression: expected an expression, found `;`"]
    );
    assert!(d.contains("(call _ ok)"), "{d}");
}

#[test]
fn try_with_resources_keeps_its_resources() {
    let (d, e) = stmts(
        "try (Reader r = open(); final var w = r.writer(); existing; this.field;) {\n\
         \x20 use(r);\n\
         } catch (IOException e) { } finally { done(); }\n\
         try (In i = a()) { }",
    );
    assert!(e.is_empty(), "{e:?}");
    assert!(
        d.contains(
            "(try @2:1 (resources (Reader r (call _ open)) (var w (call (name r) writer)) \
             (name existing) (field this field))\n"
        ),
        "{d}"
    );
    assert!(d.contains("(try @5:1 (resources (In i (call _ a)))"), "{d}");

    let (p, text) = parse_stmts("try (R r = open(); s) { }");
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let StmtKind::Try {
        resources,
        catches,
        finally,
        ..
    } = &body_stmts(&p)[0].kind
    else {
        panic!("try")
    };
    assert!(catches.is_empty() && finally.is_none());
    let [Resource::Decl {
        ty,
        name,
        init,
        span,
    }, second] = resources.as_slice()
    else {
        panic!("{resources:?}")
    };
    assert_eq!(spanned(&text, *span), "R r = open()");
    assert_eq!(spanned(&text, ty.span), "R");
    assert_eq!(name.name, "r");
    assert_eq!(spanned(&text, init.span), "open()");
    assert!(matches!(second, Resource::Expr(e) if spanned(&text, e.span) == "s"));
    assert_eq!(spanned(&text, second.span()), "s");

    // A missing `)`: reported, and the block still parses.
    let (d, e) = stmts("try (R r = open() { use(r); }\nok();");
    assert_eq!(e, ["2:19 expected-token: expected `;` or `)`, found `{`"]);
    assert!(d.contains("(call _ use (name r))"), "{d}");
    assert!(d.contains("(call _ ok)"), "{d}");
    // No resource, a missing initialiser, something that is no resource.
    let (_, e) = stmts("try () { }\ntry (R r) { }\ntry (f()) { }\nok();");
    assert_eq!(
        e,
        [
            "2:6 expected-token: expected a resource, found `)`",
            "3:9 expected-token: expected `=`, found `)`",
            "4:6 invalid-resource: a resource must be a declaration `T r = e`, a variable or a field",
        ]
    );
}

#[test]
fn parameters_modifiers_and_throws() {
    let text = "abstract class A {\n\
                \x20 A(int... xs) throws E1, a.E2 { }\n\
                \x20 static void f(final String fmt, Object... args) throws java.io.IOException { }\n\
                \x20 native int g();\n\
                \x20 abstract int h();\n\
                \x20 final void k(int[] plain) { }\n\
                }\n\
                interface I { default void d() { } void e(); static void s() { } }";
    let p = parse_program(text);
    let errs = errors(text, &p.diagnostics);
    assert!(errs.is_empty(), "{errs:?}");
    let d = dump_program(&p.tree, text);
    assert!(
        d.contains("(constructor @2:3 A ((param int... xs)) (throws E1 a.E2)"),
        "{d}"
    );
    assert!(
        d.contains(
            "(method @3:3 static void f ((param String fmt) (param Object... args)) (throws java.io.IOException)"
        ),
        "{d}"
    );
    assert!(d.contains("(method @4:3 native int g () no-body)"), "{d}");
    assert!(d.contains("(method @5:3 abstract int h () no-body)"), "{d}");
    assert!(
        d.contains("(method @6:3 final void k ((param int[] plain))"),
        "{d}"
    );
    assert!(d.contains("(method @8:15 default void d ()"), "{d}");
    assert!(
        d.contains("(method @8:36 abstract void e () no-body)"),
        "{d}"
    );

    let members = &p.tree.classes[0].members;
    let Member::Constructor(ctor) = &members[0] else {
        panic!("constructor")
    };
    assert!(ctor.params[0].is_varargs);
    assert!(matches!(ctor.params[0].ty.kind, TypeKind::Array(_)));
    assert_eq!(spanned(text, ctor.params[0].ty.span), "int...");
    assert_eq!(ctor.throws.len(), 2);
    assert_eq!(spanned(text, ctor.throws[1].span), "a.E2");
    let Member::Method(f) = &members[1] else {
        panic!("method")
    };
    assert!(!f.params[0].is_varargs && f.params[1].is_varargs);
    assert_eq!(f.throws.len(), 1);
    let (Member::Method(g), Member::Method(h)) = (&members[2], &members[3]) else {
        panic!("methods")
    };
    // A native method has no body and is not abstract.
    assert!(g.body.is_none() && g.modifiers.is_native && !g.modifiers.is_abstract);
    assert!(h.body.is_none() && !h.modifiers.is_native && h.modifiers.is_abstract);
    let Member::Method(k) = &members[4] else {
        panic!("method")
    };
    assert!(k.modifiers.is_final && k.throws.is_empty() && !k.params[0].is_varargs);
}

#[test]
fn switch_arrow_rules() {
    let (d, e) = stmts(
        "switch (k) {\n\
         \x20 case 1, 2 -> f();\n\
         \x20 case 3 -> { g(); break; }\n\
         \x20 case 4 -> throw new E();\n\
         \x20 default -> h();\n\
         }",
    );
    assert!(e.is_empty(), "{e:?}");
    assert!(
        d.contains(
            "(switch @2:1 (name k)\n\
             \x20       (case @3:3 1 2 ->\n\
             \x20         (expr @3:16 (call _ f)))\n\
             \x20       (case @4:3 3 ->\n\
             \x20         (block @4:13\n"
        ),
        "{d}"
    );
    assert!(
        d.contains("(case @5:3 4 ->\n          (throw @5:13 (new E)))"),
        "{d}"
    );
    assert!(
        d.contains("(case @6:3 default ->\n          (expr @6:14 (call _ h)))"),
        "{d}"
    );

    let (p, text) = parse_stmts("switch (k) { case A -> f(); case B: g(); }");
    let StmtKind::Switch { cases, .. } = &body_stmts(&p)[0].kind else {
        panic!("switch")
    };
    assert!(cases[0].is_arrow() && !cases[1].is_arrow());
    assert_eq!(cases[0].arrow.map(|s| spanned(&text, s)), Some("->"));
    assert_eq!(
        errors(&text, &p.diagnostics),
        ["2:35 mixed-switch-labels: a switch cannot mix `case …:` groups and `case … ->` rules"]
    );
    let (_, e) = stmts("switch (k) { case 1 -> int x = 1; case 2: case 3 -> f(); }");
    assert_eq!(
        e,
        [
            "2:24 expected-statement: expected an expression, a block or `throw` after `->`",
            "2:50 mixed-switch-labels: a switch cannot mix `case …:` groups and `case … ->` rules",
        ]
    );
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
    assert!(d.contains("(anonymous E 2 calls: lock\n"), "{d}");
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
        ("switch (x) { case 1 -> { ", "} }", true),
        ("try (R r = o) {", "}", true),
        // Closures and local classes: their code is nesting too.
        ("x -> ", "", false),
        ("(a, b) -> ", "", false),
        ("() -> { return ", "; }", false),
        ("new A() { int f = ", "; }", false),
        ("new A() { void m() { x = ", "; } }", false),
        ("class L { void m() { ", "} }", true),
        ("class L { class M { void m() { ", "} } }", true),
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
fn deeply_nested_classes_are_cut_off() {
    let n = 20_000;
    let text = format!(
        "{}{} class B {{ void after() {{ ok(); }} }}",
        "class A { ".repeat(n),
        "} ".repeat(n)
    );
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
    assert_eq!(errs, vec!["nesting-too-deep"]);
    assert!(dump.contains("(call _ ok)"), "recovery lost the next class");
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

#[test]
fn java_17_corners_a_project_has() {
    // Array class literals.
    assert_eq!(expr("String[].class"), "(class-literal String[])");
    assert_eq!(expr("a.B[][].class"), "(class-literal a.B[][])");
    // Qualified `super`: an enclosing class's, or a superinterface's default method.
    assert_eq!(
        expr("Outer.super.close()"),
        "(call (qualified-super Outer) close)"
    );
    // Type annotations on array dimensions and on qualified types.
    let (d, e) = stmts("Object @Deprecated [] xs = null;\njava.util.Map.@Deprecated Entry<String, String> en = null;");
    assert!(e.is_empty(), "{e:#?}");
    assert!(d.contains("xs"), "{d}");
    assert!(d.contains("Entry"), "{d}");
    // An annotated package (package-info.java).
    let text = "@Deprecated\npackage com.ex;\n";
    let p = parse_program(text);
    assert!(
        errors(text, &p.diagnostics).is_empty(),
        "{:?}",
        p.diagnostics
    );
    assert_eq!(p.tree.package.as_deref(), Some("com.ex"));
}

#[test]
fn records_are_final_classes_with_fields_constructor_and_accessors() {
    let text = "record Point(int x, int y) implements Shape {\n\
                \x20   static Point origin() { return new Point(0, 0); }\n\
                \x20   Point { if (x < 0) throw new IllegalArgumentException(); }\n\
                \x20   public int y() { return y + 0; }\n\
                }\n\
                record Pair<A, B>(A first, B... rest) { }\n\
                class Outer { record Inner(String s) { Inner(String s) { this.s = s.trim(); } } }\n";
    let p = parse_program(text);
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    insta::assert_snapshot!(dump_program(&p.tree, text));
}

#[test]
fn switch_expressions_yield_their_values() {
    let text = "class S {\n\
                \x20   int f(int k, Mode m) {\n\
                \x20       int a = switch (k) { case 1, 2 -> 10; case 3 -> { int y = k; yield y + 1; } default -> throw new E(); };\n\
                \x20       int b = switch (m) { case A: yield 1; case B: { yield 2; } };\n\
                \x20       int yield = 3;\n\
                \x20       yield = yield + 1;\n\
                \x20       return switch (k) { default -> switch (a) { case 0 -> b; default -> yield; }; };\n\
                \x20   }\n\
                }\n";
    let p = parse_program(text);
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    insta::assert_snapshot!(dump_program(&p.tree, text));
}

#[test]
fn annotation_types_keep_their_elements_and_nested_types() {
    let text = "@interface Element {\n\
                \x20   String setName() default \"\";\n\
                \x20   int[] sizes() default {1, 2};\n\
                \x20   Kind type() default @Other(x = 1).value;\n\
                \x20   enum Kind { A, B }\n\
                \x20   int LIMIT = 3;\n\
                }\n";
    let p = parse_program(text);
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let d = dump_program(&p.tree, text);
    for part in [
        "(method @2:5 abstract String setName () no-body)",
        "(method @3:5 abstract int[] sizes () no-body)",
        "(method @4:5 abstract Kind type () no-body)",
        "(class @5:5 static Kind",
        "(field @6:5 static int LIMIT 3)",
    ] {
        assert!(d.contains(part), "{part}\n{d}");
    }
}
