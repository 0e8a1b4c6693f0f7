use crate::ir::{Edge, Program, Stmt};
use crate::testutil::{both, lower_ok, lower_src};
use crate::{instrument, render_text};
use cfp_syntax::Severity;

const LOCK_SPEC: &str = "wildcard $1 : ReentrantLock;\nS -> $1.lock() S $1.unlock() S | ε;\n";

/// The paper's Fig. 2(a), as a Java program.
pub(crate) const FIG2: &str = r#"import java.util.concurrent.locks.ReentrantLock;
class Main {
  void foo(ReentrantLock l) {
if (*) {
  acquire(l);
  foo(l);
  release(l);
}
  }
  void acquire(ReentrantLock l1) { l1.lock(); }
  void release(ReentrantLock l2) { l2.unlock(); }
  public static void main(String[] args) {
new Main().foo(new ReentrantLock());
  }
}
"#;

fn method<'p>(p: &'p Program, name: &str) -> &'p crate::ir::MethodCfa {
    p.methods
        .iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("no method {name}"))
}

fn codes(diags: &[cfp_syntax::Diagnostic]) -> Vec<&'static str> {
    diags.iter().map(|d| d.code).collect()
}

#[test]
fn fig2_lock() {
    insta::assert_snapshot!(both(FIG2, LOCK_SPEC));
}

#[test]
fn fig2_structure_matches_fig3() {
    let p = instrument(&lower_ok(FIG2, LOCK_SPEC));
    // foo: branch at the entry, calls acquire, foo, release in sequence.
    let foo = method(&p, "Main.foo");
    let calls: Vec<String> = foo
        .edges()
        .filter_map(|(_, _, e)| match e {
            Edge::Call { callee, .. } => Some(p.methods[callee.index()].name.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(calls, ["Main.acquire", "Main.foo", "Main.release"]);
    assert_eq!(foo.graph.edges(foo.entry).count(), 2);
    // acquire: `if (l1 == $1) $1.lock()` — one Api edge guarded by `l1 == $1`.
    let acq = method(&p, "Main.acquire");
    let api: Vec<_> = acq
        .edges()
        .filter(|(_, _, e)| matches!(e, Edge::Api { .. }))
        .collect();
    assert_eq!(api.len(), 1);
    assert_eq!(api[0].1, acq.exit);
    let text = render_text(&p, FIG2);
    assert!(text.contains("assume l1 == $1"), "{text}");
    assert!(text.contains("assume l1 != $1"), "{text}");
    assert!(text.contains("emit $1.unlock()"), "{text}");
    assert!(!p
        .methods
        .iter()
        .any(|m| m.edges().any(|(_, _, e)| matches!(e, Edge::ApiCall { .. }))));
}

#[test]
fn try_finally_with_return_break_continue() {
    let src = r#"class Res { void open() {} void close() {} }
class Main {
  static int f(Res r, int x) {
r.open();
try {
  while (x > 0) {
    if (x == 5) return 1;
    if (x == 7) break;
    if (x == 9) { x -= 2; continue; }
    x--;
  }
} finally {
  r.close();
}
return 0;
  }
  public static void main(String[] args) { f(new Res(), Input.readInt()); }
}
"#;
    let spec = "wildcard $1 : Res;\nS -> $1.open() S $1.close() S | ε;\n";
    let p = lower_ok(src, spec);
    let f = method(&p, "Main.f");
    // close() runs on the return path and on the normal path (break and loop exit
    // share the normal completion): two API calls of close.
    let closes = f
        .edges()
        .filter(|(_, _, e)| matches!(e, Edge::ApiCall { method, .. } if method == "close"))
        .count();
    assert_eq!(closes, 2);
    // Every path from the entry to the exit goes through a close().
    insta::assert_snapshot!(both(src, spec));
}

#[test]
fn finally_runs_on_continue_inside_loop() {
    let src = r#"class Res { void open() {} void close() {} }
class Main {
  public static void main(String[] args) {
Res r = new Res();
for (int i = 0; i < 3; i++) {
  r.open();
  try { if (*) continue; if (*) break; } finally { r.close(); }
}
  }
}
"#;
    let spec = "wildcard $1 : Res;\nS -> $1.open() S $1.close() S | ε;\n";
    let p = lower_ok(src, spec);
    let m = method(&p, "Main.main");
    let closes = m
        .edges()
        .filter(|(_, _, e)| matches!(e, Edge::ApiCall { method, .. } if method == "close"))
        .count();
    assert_eq!(closes, 3, "{}", render_text(&p, src));
}

#[test]
fn constructors_and_field_initialisers() {
    let src = r#"class Base {
  int count = 1;
  boolean on;
  static int made = 10;
  static { made = made + 1; }
  Base(int c) { count = c; made++; }
}
class Derived extends Base {
  Base peer = null;
  int extra;
  { extra = 4; }
  Derived() { super(2); extra += 1; }
  Derived(int x) { this(); extra = x; }
}
class Plain { int z = 7; }
class Main {
  public static void main(String[] args) {
Base b = new Derived(5);
Plain p = new Plain();
int s = p.z + b.count;
  }
}
"#;
    insta::assert_snapshot!(both(src, LOCK_SPEC));
}

#[test]
fn inheritance_and_override_dispatch() {
    let src = r#"abstract class Shape {
  abstract int area();
  int twice() { return 2 * area(); }
}
class Square extends Shape {
  int side;
  int area() { return side * side; }
}
class Rect extends Square {
  int w;
  int area() { return side * w; }
}
class Circle extends Shape {
  int area() { return 3; }
  public String toString() { return "c"; }
}
class Main {
  public static void main(String[] args) {
Shape s = new Rect();
int a = s.area();
Square q = new Square();
int b = q.area() + s.twice();
Circle c = new Circle();
int h = c.hashCode();
  }
}
"#;
    let p = lower_ok(src, LOCK_SPEC);
    let m = method(&p, "Main.main");
    let callees: Vec<String> = m
        .edges()
        .filter_map(|(_, _, e)| match e {
            Edge::Call { callee, .. } => Some(p.methods[callee.index()].name.clone()),
            _ => None,
        })
        .collect();
    // s.area(): Square, Rect, Circle implementations; q.area(): Square, Rect.
    for want in ["Square.area", "Rect.area", "Circle.area", "Shape.twice"] {
        assert!(callees.iter().any(|c| c == want), "{callees:?}");
    }
    assert_eq!(callees.iter().filter(|c| *c == "Circle.area").count(), 1);
    assert_eq!(callees.iter().filter(|c| *c == "Rect.area").count(), 2);
    insta::assert_snapshot!(both(src, LOCK_SPEC));
}

#[test]
fn loops_with_break_and_continue() {
    let src = r#"class Main {
  static int g;
  public static void main(String[] args) {
int y = Input.readInt();
while (y > 0) { if (y == 3) break; if (y == 4) { y = y - 2; continue; } y--; }
do { y++; if (y == 10) continue; } while (y < 20);
for (int i = 0, j = 1; i < y; i++, j *= 2) { if (i == 2) continue; if (j > 100) break; g += i; }
outer:
for (int k : args) {
  for (;;) { if (*) break outer; else if (*) continue outer; else break; }
  g = k;
}
block: { if (y == 0) break block; g = 1; }
  }
}
"#;
    insta::assert_snapshot!(both(src, LOCK_SPEC));
}

#[test]
fn switch_with_fall_through() {
    let src = r#"class Main {
  static int g;
  public static void main(String[] args) {
int y = Input.readInt();
switch (y) {
  case 1: g = 1;
  case 2: case 3: g = 2; break;
  default: g = 0;
  case 4: g = 4;
}
  }
}
"#;
    insta::assert_snapshot!(both(src, LOCK_SPEC));
}

#[test]
fn short_circuit_conditions() {
    let src = r#"class Node { Node next; int v; }
class Main {
  static boolean check(int x) { return x > 0; }
  public static void main(String[] args) {
Node n = null;
int y = Input.readInt();
if (n != null && n.v > 0) y = 1;
if (y < 0 || check(y) && !(y == 2)) y = 2;
boolean b = y > 0 && check(y);
boolean c = y > 1 && y < 5;
int z = b ? y : -y;
int w = n == null ? 0 : n.v;
while (c || *) { c = !c; }
  }
}
"#;
    insta::assert_snapshot!(both(src, LOCK_SPEC));
}

#[test]
fn external_calls_and_opaque_values() {
    let src = r#"import java.util.Random;
class Main {
  static int f;
  public static void main(String[] args) {
Random r = new Random(42);
int x = r.nextInt(10);
String s = "a" + x;
System.out.println(s);
int[] arr = new int[x];
arr[0] = 5;
int k = arr[1] + arr.length;
double d = 1.5 * x;
char c = 'A';
if (s instanceof String) f = c;
long big = java.lang.Math.max(x, 3);
  }
}
"#;
    let p = lower_ok(src, LOCK_SPEC);
    let m = method(&p, "Main.main");
    assert!(m.edges().all(|(_, _, e)| !matches!(e, Edge::Call { .. })));
    insta::assert_snapshot!(both(src, LOCK_SPEC));
}

pub(crate) const WAKELOCK: &str = r#"class WakeLock {
  int count;
  void acquire() { count++; }
  void release() { count--; }
  boolean isHeld() { return count > 0; }
}
class Main {
  static void work(WakeLock wl) {
wl.acquire();
if (Input.readBool()) { wl.release(); return; }
if (wl.isHeld()) wl.release();
  }
  public static void main(String[] a) {
WakeLock wl = new WakeLock();
work(wl);
  }
}
"#;
pub(crate) const WAKELOCK_SPEC: &str =
    "wildcard $1 : WakeLock;\nS -> $1.acquire() S $1.release() S | ε;\n";

#[test]
fn wakelock_model_class_emits_and_runs_the_body() {
    let p = lower_ok(WAKELOCK, WAKELOCK_SPEC);
    let work = method(&p, "Main.work");
    // Every ApiCall edge is immediately followed by the call of the model's body.
    for (_, b, e) in work.edges() {
        if let Edge::ApiCall { method: name, .. } = e {
            let next: Vec<_> = work.graph.edges(b).collect();
            assert_eq!(next.len(), 1);
            match next[0].weight() {
                Edge::Call { callee, .. } => {
                    assert_eq!(p.methods[callee.index()].name, format!("WakeLock.{name}"))
                }
                other => panic!("expected the model call, got {other:?}"),
            }
        }
    }
    // isHeld is not a terminal: a plain call.
    let text = render_text(&p, WAKELOCK);
    assert!(text.contains(":= call WakeLock.isHeld(wl)"), "{text}");
    insta::assert_snapshot!(both(WAKELOCK, WAKELOCK_SPEC));
}

#[test]
fn api_calls_through_subclasses_and_unknown_receivers() {
    let src = r#"import java.util.concurrent.locks.ReentrantLock;
class MyLock extends ReentrantLock {
  int n;
  void lock() { super.lock(); n++; }
}
class Main {
  public static void main(String[] args) {
MyLock m = new MyLock();
m.lock();
m.unlock();
var u = Factory.make();
u.lock();
java.util.concurrent.locks.Lock l = m;
l.unlock();
  }
}
"#;
    let (p, diags) = lower_src(src, LOCK_SPEC, None);
    let p = p.expect("lowers");
    assert!(codes(&diags).contains(&"untyped-api-call"), "{diags:?}");
    // `Lock` is a supertype of the wildcard's `ReentrantLock` (api::KNOWN_SUPERTYPES): a
    // call through it is an API call, not an approximation.
    assert!(!codes(&diags).contains(&"possible-api-call"), "{diags:?}");
    assert!(p.approximations.is_empty(), "{:?}", p.approximations);
    let m = method(&p, "Main.main");
    let apis: Vec<&str> = m
        .edges()
        .filter_map(|(_, _, e)| match e {
            Edge::ApiCall { method, .. } => Some(method.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(apis, ["lock", "unlock", "lock", "unlock"]);
    // super.lock() inside the override emits nothing more.
    let ml = method(&p, "MyLock.lock");
    assert!(ml
        .edges()
        .all(|(_, _, e)| !matches!(e, Edge::ApiCall { .. })));
    insta::assert_snapshot!(both(src, LOCK_SPEC));
}

#[test]
fn hoisted_calls_keep_java_evaluation_order() {
    let src = r#"class Main {
  static int x;
  static int bump() { x = x + 1; return x; }
  public static void main(String[] args) {
int a = x + bump();
int b = bump() + x;
  }
}
"#;
    let p = lower_ok(src, LOCK_SPEC);
    let text = render_text(&p, src);
    // `x` is read before bump() runs: it is saved first.
    assert!(text.contains("%t1 := Main.x"), "{text}");
    assert!(text.contains("a := %t1 + %t2"), "{text}");
    assert!(text.contains("b := %t3 + Main.x"), "{text}");
}

#[test]
fn undefined_names_are_errors_with_spans() {
    let src = "class Main {\n  public static void main(String[] a) {\n    int x = yy + 1;\n    zz(x);\n    Main m = null;\n    m.nope = 3;\n    m.missing();\n  }\n}\n";
    let (p, diags) = lower_src(src, LOCK_SPEC, None);
    assert!(p.is_none());
    let errs: Vec<(&str, &str)> = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| (d.code, &src[d.span.start as usize..d.span.end as usize]))
        .collect();
    assert_eq!(
        errs,
        [
            ("undefined-variable", "yy"),
            ("undefined-method", "zz"),
            ("undefined-field", "nope"),
            ("undefined-method", "missing"),
        ]
    );
}

#[test]
fn redeclared_locals_are_errors_but_sibling_scopes_are_not() {
    let src = "class Main {\n  static void f(int p) {\n    int p = 1;\n    { int a = 1; } { int a = 2; }\n    for (int i = 0; i < 2; i++) { }\n    for (int i = 0; i < 2; i++) { int a; for (int a : new int[1]) { } }\n    try { } catch (RuntimeException p) { }\n  }\n  public static void main(String[] a) { f(1); }\n}\n";
    let (p, diags) = lower_src(src, LOCK_SPEC, None);
    assert!(p.is_none());
    let errs: Vec<(&str, u32)> = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| (d.code, d.span.start))
        .collect();
    let at = |needle: &str| src.find(needle).unwrap() as u32;
    assert_eq!(
        errs,
        [
            ("duplicate-variable", at("p = 1")),
            ("duplicate-variable", at("a : new")),
            ("duplicate-variable", at("RuntimeException p") + 17),
        ]
    );
}

#[test]
fn static_context_errors() {
    let src = "class Main {\n  int f;\n  void g() {}\n  public static void main(String[] a) {\n    f = 1;\n    g();\n    this.g();\n  }\n}\n";
    let (p, diags) = lower_src(src, LOCK_SPEC, None);
    assert!(p.is_none());
    assert_eq!(
        codes(&diags),
        [
            "instance-field-in-static-context",
            "instance-method-in-static-context",
            "this-in-static-context"
        ]
    );
}

#[test]
fn entry_selection() {
    let src =
        "class A { static void run() {} }\nclass B { static void run() {} void go(int n) {} }\n";
    let (p, diags) = lower_src(src, LOCK_SPEC, None);
    assert!(p.is_none());
    assert_eq!(codes(&diags), ["entry-not-found"]);
    let (p, diags) = lower_src(src, LOCK_SPEC, Some("run"));
    assert!(p.is_none());
    assert_eq!(codes(&diags), ["ambiguous-entry"]);
    assert!(
        diags[0].message.contains("A.run, B.run"),
        "{}",
        diags[0].message
    );
    let p = lower_src(src, LOCK_SPEC, Some("B.run")).0.expect("B.run");
    assert_eq!(p.methods[p.entry.index()].name, "B.run");
    // An instance entry gets an arbitrary non-null receiver and arbitrary arguments.
    let p = lower_src(src, LOCK_SPEC, Some("go")).0.expect("go");
    let text = render_text(&p, src);
    assert!(
        text.contains("havoc %recv; assume %recv != null; havoc n"),
        "{text}"
    );
    assert!(text.contains("call B.go(%recv, n)"), "{text}");
}

#[test]
fn throw_and_catch_run_as_in_java() {
    let src = r#"class Res { void open() {} void close() {} }
class Main {
  public static void main(String[] a) {
Res r = new Res();
try {
  r.open();
  if (*) throw new RuntimeException();
  r.close();
} catch (RuntimeException e) {
  r.close();
}
  }
}
"#;
    let spec = "wildcard $1 : Res;\nS -> $1.open() S $1.close() S | ε;\n";
    let p = lower_ok(src, spec);
    assert!(p.approximations.is_empty(), "{:?}", p.approximations);
    // (An exception object the program did not allocate has an unknown class: the catch
    // clause's test for one is an approximation site.)
    assert!(p.approx_sites.iter().all(|d| d.code == "unknown-type"));
    // Both the try block and the catch clause close the resource.
    let m = method(&p, "Main.main");
    let closes = m
        .edges()
        .filter(|(_, _, e)| matches!(e, Edge::ApiCall { method, .. } if method == "close"))
        .count();
    assert_eq!(closes, 2);
    // The thrown exception is tested against the catch clause by its runtime class.
    let text = render_text(&p, src);
    assert!(text.contains("%exc := %t"), "{text}");
    assert!(text.contains("%exc.%type"), "{text}");
    // An uncaught throw: the execution does not complete. `main` ends by throwing
    // through its throw exit; the root's call has no way on from there.
    let src2 = "class Main {\n  public static void main(String[] a) {\n    if (*) throw new IllegalStateException();\n  }\n}\n";
    let p2 = lower_ok(src2, spec);
    assert!(p2.approximations.is_empty());
    assert!(method(&p2, "Main.main").throw_exit.is_some());
    let root = &p2.methods[p2.root.index()];
    assert!(!root
        .edges()
        .any(|(_, _, e)| matches!(e, Edge::Call { unwind: true, .. })));
}

#[test]
fn alloc_is_fresh_and_receivers_are_assumed_non_null() {
    let src = "class C { int f; void m() {} }\nclass Main {\n  public static void main(String[] a) {\n    C c = new C();\n    C d = c;\n    d.m();\n    d.f = 1;\n    c.f = d.f + 1;\n  }\n}\n";
    let p = lower_ok(src, LOCK_SPEC);
    let m = method(&p, "Main.main");
    let stmts: Vec<&Stmt> = m
        .edges()
        .flat_map(|(_, _, e)| match e {
            Edge::Block(b) => b.iter().map(|s| &s.node).collect(),
            _ => Vec::new(),
        })
        .collect();
    assert!(stmts.iter().any(|s| matches!(s, Stmt::Alloc { .. })));
    let text = render_text(&p, src);
    assert!(text.contains("assume d != null"), "{text}");
    assert!(
        text.contains("d.f := 1; assume c != null; c.f := d.f + 1"),
        "{text}"
    );
}

#[test]
fn lowering_is_deterministic() {
    let a = both(FIG2, LOCK_SPEC);
    let b = both(FIG2, LOCK_SPEC);
    assert_eq!(a, b);
}

/// Truncated and garbled inputs never panic the lowering, the instrumentation or the
/// renderers.
#[test]
fn no_panic_on_truncated_programs() {
    let spec = cfp_syntax::parse_spec(WAKELOCK_SPEC).tree;
    for src in [FIG2, WAKELOCK] {
        for cut in (0..src.len()).step_by(7) {
            if !src.is_char_boundary(cut) {
                continue;
            }
            let text = &src[..cut];
            let unit = cfp_syntax::parse_program(text).tree;
            for entry in [None, Some("work".to_string())] {
                let (p, _) = crate::lower_program(
                    &unit,
                    &spec,
                    &crate::LowerOptions {
                        entry,
                        ..Default::default()
                    },
                );
                if let Some(p) = p {
                    let i = instrument(&p);
                    let _ = render_text(&i, text);
                    let _ = crate::render_dot(&i, text);
                }
            }
        }
    }
}

/// A long method of branches and loops lowers to exactly six edges per `if`/`while`
/// pair (the time of a 1,500-pair method is measured by `cargo xtask bench-parse`; the
/// first, quadratic simplification took 27 s on it).
#[test]
fn long_methods_lower_to_six_edges_per_pair() {
    let mut body = String::new();
    for i in 0..300 {
        body.push_str(&format!(
            "    if (x > {i}) {{ x = x + 1; }} else {{ y = y - 1; }}\n    while (y < {i}) {{ y++; if (*) break; }}\n"
        ));
    }
    let src = format!(
        "class Main {{\n  public static void main(String[] a) {{\n    int x = 0; int y = 0;\n{body}  }}\n}}\n"
    );
    let p = lower_ok(&src, LOCK_SPEC);
    // Six edges per `if`/`while` pair, plus the first block.
    assert_eq!(p.methods[p.entry.index()].graph.edge_count(), 300 * 6 + 1);
}

#[test]
fn api_calls_with_an_arity_the_spec_lacks_are_warned_about() {
    let spec =
        "wildcard $1 : JsonGenerator;\nS -> $1.writeStartObject() $1.writeEndObject() | ε;\n";
    let src = r#"class Main {
  public static void main(String[] args) {
JsonGenerator gen = Factory.json();
gen.writeStartObject(args, 0);
gen.writeEndObject();
Other o = Factory.other();
o.writeStartObject(1);
  }
}
"#;
    let (p, diags) = lower_src(src, spec, None);
    let p = p.expect("lowers");
    let arity: Vec<&cfp_syntax::Diagnostic> =
        diags.iter().filter(|d| d.code == "api-arity").collect();
    // Only the JsonGenerator call (line 4), not the call on another class.
    assert_eq!(arity.len(), 1, "{diags:?}");
    assert_eq!(arity[0].severity, Severity::Warning);
    assert_eq!(
        arity[0].message,
        "`writeStartObject` is called with 2 argument(s) here; the spec has 0 \
         ($1.writeStartObject()): this call is not an event of the protocol"
    );
    assert_eq!(
        &src[arity[0].span.start as usize..][..20],
        "gen.writeStartObject"
    );
    let apis: Vec<&str> = method(&p, "Main.main")
        .edges()
        .filter_map(|(_, _, e)| match e {
            Edge::ApiCall { method, .. } => Some(method.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(apis, ["writeEndObject"]);
}

#[test]
fn entry_overloads_by_arity_or_parameter_types() {
    let src = "class Svc {\n  void run(int n) { }\n  void run(String name, int n) { }\n  void run(java.util.List<String> xs, long k, boolean b) { }\n}\n";
    // The entry's parameters, `this` included, tell the overloads apart.
    for (entry, params) in [
        ("Svc.run/2", Some(3)),
        ("Svc.run(java.lang.String, int)", Some(3)),
        ("Svc.run(short)", Some(2)),
        ("run(List<Integer>, long, boolean)", Some(4)),
        ("Svc.run(long)", None),
        ("Svc.run", None),
    ] {
        let (p, diags) = lower_src(src, LOCK_SPEC, Some(entry));
        match (p, params) {
            (Some(p), Some(n)) => {
                let m = &p.methods[p.entry.index()];
                assert_eq!(m.params.len(), n, "{entry}: {}", m.name);
            }
            (None, None) => {
                let code = diags
                    .iter()
                    .find(|d| d.severity == Severity::Error)
                    .map(|d| d.code);
                assert!(
                    matches!(code, Some("entry-not-found" | "ambiguous-entry")),
                    "{entry}: {diags:?}"
                );
            }
            (p, n) => panic!(
                "{entry}: lowered {} but wanted {n:?}: {diags:?}",
                p.is_some()
            ),
        }
    }
}

#[test]
fn a_closure_handed_to_library_code_is_called_back() {
    let src = "class Main {\n  ReentrantLock l = new ReentrantLock();\n  void used(Executor ex) { ex.execute(() -> l.unlock()); }\n  void unused(Executor ex) { ex.execute(() -> l.unlock()); }\n  public static void main(String[] a) { new Main().used(null); }\n}\n";
    let (p, diags) = lower_src(src, LOCK_SPEC, None);
    let p = p.expect("lowers");
    // The closures run: no approximation, no warning.
    assert!(p.approximations.is_empty(), "{:?}", p.approximations);
    assert!(
        !diags.iter().any(|d| d.code == "closure-not-run"),
        "{diags:?}"
    );
    // `used` calls its lambda back (any number of times, from the library call), and the
    // root may call an escaped closure once the entry has returned.
    let calls = |m: &crate::ir::MethodCfa| -> Vec<String> {
        m.edges()
            .filter_map(|(_, _, e)| match e {
                Edge::Call { callee, .. } => Some(p.methods[callee.index()].name.clone()),
                _ => None,
            })
            .collect()
    };
    let used = calls(method(&p, "Main.used"));
    assert!(
        used.iter()
            .any(|n| n.starts_with("Main$") && n.ends_with(".lambda$")),
        "{used:?}"
    );
    // Only the closure of `used` is ever created (nothing calls `unused`), so only it
    // may be called back.
    let root = calls(&p.methods[p.root.index()]);
    assert!(
        root.iter().filter(|n| n.ends_with(".lambda$")).count() == 1,
        "{root:?}"
    );
}
