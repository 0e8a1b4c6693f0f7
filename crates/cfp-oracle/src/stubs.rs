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

use cfp_syntax::lexer::{lex, TokenKind};
use std::collections::BTreeSet;

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
