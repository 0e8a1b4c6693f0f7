//! The library stubs: small Java classes of the protocols' APIs (and of the few other
//! library classes the corpora use) that record every protocol call and draw every
//! arbitrary result from the run's input source (`java/stubs/*.java`; they call the
//! runtime `java/runtime/cfporacle/Rt.java`). They follow cfp's models where cfp has one
//! (`tests/models/`: `isHeld()` follows `acquire()`/`release()`, `writeLock()` is the same
//! lock every time) and cfp's convention for external calls elsewhere (an arbitrary
//! result, no effect).
//!
//! A program gets a copy of each stub it mentions (and of the stubs those mention), in
//! its own package, except the classes it defines itself: a program's own class wins,
//! as with cfp's models.
//!
//! A library call may throw in cfp's model (what a catch clause around it or the
//! method's `throws` clause names): [`with_throw_points`] makes every stub method and
//! constructor end with `cfporacle.Rt.mayThrow()`, which throws in a replay when cfp's
//! path throws from that call, and does nothing otherwise.

use cfp_syntax::ast::{ClassDecl, Member, Stmt, StmtKind, TypeKind};
use cfp_syntax::lexer::{lex, TokenKind};
use std::collections::{BTreeMap, BTreeSet};

/// A span's first byte offset.
fn lo(s: cfp_syntax::Span) -> usize {
    s.start as usize
}

/// A span's end byte offset.
fn hi(s: cfp_syntax::Span) -> usize {
    s.end as usize
}

/// One stub class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stub {
    /// The top-level class it defines (also its file name).
    pub name: &'static str,
    /// Its text, without a `package` line.
    pub text: &'static str,
}

macro_rules! stub {
    ($name:literal) => {
        Stub {
            name: $name,
            text: include_str!(concat!("../java/stubs/", $name, ".java")),
        }
    };
}

/// Every stub, by name.
pub const STUBS: &[Stub] = &[
    stub!("Activity"),
    stub!("AlarmScheduler"),
    stub!("AttributeSet"),
    stub!("BackupQueue"),
    stub!("BroadcastReceiver"),
    stub!("Bundle"),
    stub!("Camera"),
    stub!("Canvas"),
    stub!("Context"),
    stub!("DiskStore"),
    stub!("HttpClient"),
    stub!("Input"),
    stub!("Intent"),
    stub!("Json"),
    stub!("JsonGenerator"),
    stub!("JsonSerializer"),
    stub!("Lib"),
    stub!("Lock"),
    stub!("Log"),
    stub!("NotificationFactory"),
    stub!("NotificationManager"),
    stub!("Paint"),
    stub!("Pool"),
    stub!("PowerManager"),
    stub!("ReadWriteLock"),
    stub!("RectF"),
    stub!("ReentrantLock"),
    stub!("ReentrantReadWriteLock"),
    stub!("ReminderStore"),
    stub!("Sensor"),
    stub!("SerializerProvider"),
    stub!("StdSerializer"),
    stub!("Uploader"),
    stub!("ValueAnimator"),
    stub!("View"),
    stub!("WifiManager"),
    stub!("Worker"),
    stub!("WorkerParameters"),
];

/// Jackson's `JsonGenerator` whose methods declare `IOException`, for programs that catch
/// it (the other programs get one that declares nothing: cfp's language does not check
/// exceptions, and the corpus writes calls of it outside any `throws`).
const THROWING_GENERATOR: Stub = Stub {
    name: "JsonGenerator",
    text: include_str!("../java/stubs/JsonGenerator.throwing.java"),
};

/// Whether the program catches an `IOException`.
fn catches_io(text: &str) -> bool {
    [
        "catch (IOException",
        "catch (java.io.IOException",
        "UncheckedIOException",
    ]
    .iter()
    .any(|p| text.contains(p))
}

/// The classes nested in stubs that a program may import or name as `Outer.Inner`.
pub const NESTED: &[(&str, &str)] = &[
    ("WakeLock", "PowerManager"),
    ("WifiLock", "WifiManager"),
    ("ReadLock", "ReentrantReadWriteLock"),
    ("WriteLock", "ReentrantReadWriteLock"),
];

/// The stub called `name`, if any.
pub fn stub(name: &str) -> Option<&'static Stub> {
    STUBS.iter().find(|s| s.name == name)
}

/// The identifiers of `text`.
pub fn identifiers(text: &str) -> BTreeSet<&str> {
    lex(text)
        .tokens
        .iter()
        .filter(|t| t.kind == TokenKind::Ident)
        .filter_map(|t| text.get(lo(t.span)..hi(t.span)))
        .collect()
}

/// The stubs a program of `text` needs: those it mentions (a stub's name, or a class
/// nested in it) and does not define (`defined`), and the stubs those mention, by name.
pub fn select(text: &str, defined: &BTreeSet<String>) -> Vec<Stub> {
    let throwing = catches_io(text);
    let pick = |s: &'static Stub| -> Stub {
        if throwing && s.name == THROWING_GENERATOR.name {
            THROWING_GENERATOR
        } else {
            *s
        }
    };
    let mut wanted: BTreeSet<&str> = BTreeSet::new();
    let mentioned = identifiers(text);
    for s in STUBS {
        let nested_named = NESTED
            .iter()
            .any(|(inner, outer)| *outer == s.name && mentioned.contains(inner));
        if mentioned.contains(s.name) || nested_named {
            wanted.insert(s.name);
        }
    }
    // The stubs' own uses of other stubs.
    let mut todo: Vec<&str> = wanted.iter().copied().collect();
    while let Some(name) = todo.pop() {
        if defined.contains(name) {
            continue;
        }
        let Some(s) = stub(name) else { continue };
        for other in identifiers(pick(s).text) {
            if stub(other).is_some() && wanted.insert(stub(other).map_or(other, |o| o.name)) {
                todo.push(other);
            }
        }
    }
    wanted
        .into_iter()
        .filter(|n| !defined.contains(*n))
        .filter_map(stub)
        .map(pick)
        .collect()
}

/// The statement that ends a library call: it throws what cfp's path throws there.
const MAY_THROW: &str = "cfporacle.Rt.mayThrow();";

/// `text` (a stub's classes) with a throw point at the end of every method and
/// constructor body: `return e;` becomes `return cfporacle.Rt.thrownOr(e);` (the result is
/// computed first), `return;` and the end of a body that completes normally call
/// `cfporacle.Rt.mayThrow()`. A body that calls `mayThrow` itself is left as written.
pub fn with_throw_points(text: &str) -> String {
    let parsed = cfp_syntax::parse_program(text);
    let mut edits: BTreeMap<usize, (usize, String)> = BTreeMap::new();
    for c in &parsed.tree.classes {
        class_throw_points(text, c, &mut edits);
    }
    let mut out = String::with_capacity(text.len() + edits.len() * 32);
    let mut at = 0;
    for (from, (to, new)) in edits {
        if from < at {
            continue;
        }
        out.push_str(&text[at..from]);
        out.push_str(&new);
        at = to;
    }
    out.push_str(&text[at..]);
    out
}

fn class_throw_points(text: &str, c: &ClassDecl, edits: &mut BTreeMap<usize, (usize, String)>) {
    for m in &c.members {
        let (body, completes) = match m {
            Member::Method(m) => match &m.body {
                Some(b) => (b, m.ret.kind == TypeKind::Void),
                None => continue,
            },
            Member::Constructor(k) => (&k.body, true),
            Member::Class(inner) => {
                class_throw_points(text, inner, edits);
                continue;
            }
            Member::Field(_) | Member::Initializer(_) => continue,
        };
        let (lo_b, hi_b) = (lo(body.span), hi(body.span));
        if text[lo_b..hi_b].contains("Rt.mayThrow") {
            continue;
        }
        for s in &body.stmts {
            return_points(s, edits);
        }
        let ends_abruptly = body
            .stmts
            .last()
            .is_some_and(|s| matches!(s.kind, StmtKind::Return(_) | StmtKind::Throw(_)));
        if completes && !ends_abruptly && hi_b > lo_b {
            let close = hi_b - 1;
            edits.insert(close, (close, format!("{MAY_THROW} ")));
        }
    }
}

/// The `return` statements of `s` (not those of nested classes or lambdas).
fn return_points(s: &Stmt, edits: &mut BTreeMap<usize, (usize, String)>) {
    let mut each = |list: &[Stmt]| {
        for s in list {
            return_points(s, edits);
        }
    };
    match &s.kind {
        StmtKind::Return(Some(e)) => {
            edits.insert(lo(e.span), (lo(e.span), "cfporacle.Rt.thrownOr(".into()));
            edits.insert(hi(e.span), (hi(e.span), ")".into()));
        }
        StmtKind::Return(None) => {
            edits.insert(
                lo(s.span),
                (hi(s.span), format!("{{ {MAY_THROW} return; }}")),
            );
        }
        StmtKind::Block(b) => each(&b.stmts),
        StmtKind::If {
            then_branch,
            else_branch,
            ..
        } => {
            each(std::slice::from_ref(then_branch));
            if let Some(e) = else_branch {
                each(std::slice::from_ref(e));
            }
        }
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::For { body, .. }
        | StmtKind::ForEach { body, .. }
        | StmtKind::Labeled { body, .. } => each(std::slice::from_ref(body)),
        StmtKind::Synchronized { body, .. } => each(&body.stmts),
        StmtKind::Try {
            body,
            catches,
            finally,
            ..
        } => {
            each(&body.stmts);
            for c in catches {
                each(&c.body.stmts);
            }
            if let Some(f) = finally {
                each(&f.stmts);
            }
        }
        StmtKind::Switch { cases, .. } => {
            for c in cases {
                each(&c.body);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(stubs: &[Stub]) -> Vec<&str> {
        stubs.iter().map(|s| s.name).collect()
    }

    #[test]
    fn mentioned_stubs_and_their_dependencies() {
        let none = BTreeSet::new();
        let s = select(
            "class A { void f() { ReentrantLock l = Pool.get(); } }",
            &none,
        );
        assert_eq!(names(&s), ["Lock", "Pool", "ReentrantLock"]);
        let s = select("class A { PowerManager.WakeLock w; }", &none);
        assert_eq!(names(&s), ["PowerManager"]);
        let s = select("class A { WakeLock w; }", &none);
        assert_eq!(names(&s), ["PowerManager"]);
    }

    #[test]
    fn a_class_the_program_defines_is_not_stubbed() {
        let defined: BTreeSet<String> = ["PowerManager".to_string()].into();
        let s = select("class A extends Activity { }", &defined);
        assert_eq!(
            names(&s),
            [
                "Activity",
                "Bundle",
                "Context",
                "NotificationManager",
                "WifiManager"
            ]
        );
    }

    #[test]
    fn programs_catching_io_exceptions_get_a_throwing_generator() {
        let none = BTreeSet::new();
        let plain = select("class A { JsonGenerator g; }", &none);
        assert!(!plain[0].text.contains("throws java.io.IOException"));
        let throwing = select(
            "class A { void f(JsonGenerator g) { try { g.flush(); } catch (IOException e) { } } }",
            &none,
        );
        assert!(throwing[0].text.contains("throws java.io.IOException"));
    }

    #[test]
    fn every_stub_method_ends_with_a_throw_point() {
        let text = "class A {\n    A() {\n    }\n\n    int f(boolean b) {\n        if (b) {\n            return 1;\n        }\n        return g();\n    }\n\n    void h(int n) {\n        if (n > 0) {\n            return;\n        }\n        n++;\n    }\n\n    void own() {\n        cfporacle.Rt.mayThrow();\n        work();\n    }\n\n    interface I {\n        void m();\n    }\n}\n";
        let out = with_throw_points(text);
        assert!(
            out.contains("A() {\n    cfporacle.Rt.mayThrow(); }"),
            "{out}"
        );
        assert!(out.contains("return cfporacle.Rt.thrownOr(1);"), "{out}");
        assert!(out.contains("return cfporacle.Rt.thrownOr(g());"), "{out}");
        assert!(
            out.contains("{ cfporacle.Rt.mayThrow(); return; }"),
            "{out}"
        );
        assert!(
            out.contains("n++;\n    cfporacle.Rt.mayThrow(); }"),
            "{out}"
        );
        assert_eq!(out.matches("mayThrow").count(), 4, "{out}");
        assert_eq!(out.lines().count(), text.lines().count());
    }

    #[test]
    fn every_stub_parses_and_gets_its_throw_points() {
        for s in STUBS.iter().chain([&THROWING_GENERATOR]) {
            let parsed = cfp_syntax::parse_program(s.text);
            let errors: Vec<&str> = parsed
                .diagnostics
                .iter()
                .filter(|d| d.severity == cfp_syntax::Severity::Error)
                .map(|d| d.message.as_str())
                .collect();
            assert!(errors.is_empty(), "{}: {errors:?}", s.name);
            let out = with_throw_points(s.text);
            let bodies = s.text.matches(") {").count();
            assert!(
                out.matches("mayThrow").count() + out.matches("thrownOr").count() >= bodies / 2,
                "{}:\n{out}",
                s.name
            );
        }
    }

    #[test]
    fn every_stub_defines_its_class() {
        for s in STUBS.iter().chain([&THROWING_GENERATOR]) {
            let decl = [
                format!("class {} ", s.name),
                format!("class {}<", s.name),
                format!("interface {} ", s.name),
            ];
            assert!(
                decl.iter().any(|d| s.text.contains(d.as_str())),
                "{} does not define its class",
                s.name
            );
        }
    }
}
