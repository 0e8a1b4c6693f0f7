//! Exploration on small programs.

use super::*;

fn lower(source: &str) -> Program {
    let unit = cfp_syntax::parse_sources(&cfp_syntax::SourceSet::single("", source));
    assert!(!unit.has_errors(), "{:?}", unit.diagnostics);
    let spec =
        cfp_syntax::parse_spec("wildcard $1 : ReentrantLock; S -> ε | $1.lock() S $1.unlock() S;");
    assert!(!spec.has_errors(), "{:?}", spec.diagnostics);
    let (program, _) = crate::front_end(&unit.tree, &spec.tree, &crate::LowerOptions::default())
        .expect("valid program");
    program
}

fn line_of(source: &str) -> impl Fn(Span) -> String + '_ {
    move |span: Span| {
        let line = source[..span.start as usize].matches('\n').count() + 1;
        format!("line {line}")
    }
}

#[test]
fn a_program_with_inputs_behind_null_checks_completes() {
    let src = "class Main {
        static Object get() { return *; }
        public static void main(String[] args) {
            Object a = get(); Object b = get(); Object c = get();
            if (a == null || b == null || c == null) throw new IllegalStateException();
            ReentrantLock l = new ReentrantLock();
            l.lock(); l.unlock();
        }
    }";
    assert!(explore(&lower(src)).completed);
}

#[test]
fn a_null_dereference_in_an_initializer_is_named() {
    let src = "class Main {
        static final String TAG = ((Object) null).toString();
        public static void main(String[] args) {
            ReentrantLock l = new ReentrantLock();
            l.lock();
        }
    }";
    let p = lower(src);
    let e = explore(&p);
    assert!(!e.completed);
    let text = e.main_stop().expect("a stop").describe(&p, &line_of(src));
    assert!(text.contains("`Main.<clinit>`"), "{text}");
    assert!(text.contains("null is dereferenced"), "{text}");
    assert!(text.contains("line 2"), "{text}");
}

#[test]
fn an_exception_nothing_catches_is_named() {
    let src = "class Main {
        static void f() { throw new IllegalStateException(); }
        public static void main(String[] args) {
            ReentrantLock l = new ReentrantLock();
            l.lock();
            try { f(); } catch (IllegalArgumentException e) { }
        }
    }";
    let p = lower(src);
    let e = explore(&p);
    assert!(!e.completed);
    let text = e.main_stop().expect("a stop").describe(&p, &line_of(src));
    assert_eq!(
        text,
        "`Main.f` throws an IllegalStateException at line 2 that nothing catches"
    );
}

#[test]
fn a_method_that_cannot_return_is_named() {
    let src = "class Main {
        public static void main(String[] args) {
            while (true) { }
        }
    }";
    let p = lower(src);
    let e = explore(&p);
    assert!(!e.completed);
    let text = e.main_stop().expect("a stop").describe(&p, &line_of(src));
    assert!(text.contains("`Main.main`"), "{text}");
    assert!(text.contains("no path from here reaches the end"), "{text}");
}

#[test]
fn an_endless_loop_is_named() {
    let src = "class Main {
        public static void main(String[] args) {
            int i = 0;
            while (i >= 0) { i = i + 1; }
        }
    }";
    let p = lower(src);
    let e = explore(&p);
    assert!(!e.completed);
    let text = e.main_stop().expect("a stop").describe(&p, &line_of(src));
    assert!(text.contains("without end"), "{text}");
    assert!(text.contains("line 4"), "{text}");
}
