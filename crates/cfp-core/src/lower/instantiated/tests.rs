use crate::ir::{Edge, Program};
use crate::testutil::lower_ok;

const SPEC: &str = "wildcard $1 : ReentrantLock;\nS -> $1.lock() S $1.unlock() S | ε;\n";

/// The names of the methods `caller` calls.
fn callees(p: &Program, caller: &str) -> Vec<String> {
    let Some(m) = p.methods.iter().find(|m| m.name == caller) else {
        return Vec::new();
    };
    let mut out: Vec<String> = m
        .edges()
        .filter_map(|(_, _, e)| match e {
            Edge::Call { callee, .. } => p.method(*callee).map(|c| c.name.clone()),
            _ => None,
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

const TASKS: &str = r#"
import java.util.concurrent.locks.ReentrantLock;
interface Task { void run(ReentrantLock l); }
class Balanced implements Task {
    public void run(ReentrantLock l) { l.lock(); l.unlock(); }
}
class Leaky implements Task {
    public void run(ReentrantLock l) { l.lock(); }
}
class Maker implements Task {
    Task made;
    public void run(ReentrantLock l) { made = new Made(); }
}
class Made implements Task {
    public void run(ReentrantLock l) { }
}
class Main {
    static void go(Task t, ReentrantLock l) { t.run(l); }
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        Task t = new Balanced();
        go(t, l);
        if (t instanceof Leaky) { l.lock(); }
        go(new Maker(), l);
    }
}
"#;

#[test]
fn a_virtual_call_runs_only_classes_that_are_instantiated() {
    let p = lower_ok(TASKS, SPEC);
    let go = callees(&p, "Main.go");
    assert!(go.contains(&"Balanced.run".to_owned()), "{go:?}");
    assert!(go.contains(&"Maker.run".to_owned()), "{go:?}");
    assert!(!go.contains(&"Leaky.run".to_owned()), "{go:?}");
}

#[test]
fn a_class_instantiated_only_by_reached_code_of_another_counts() {
    // `Made` is created only in `Maker.run`, which `go` reaches once `Maker` is created.
    let p = lower_ok(TASKS, SPEC);
    let go = callees(&p, "Main.go");
    assert!(go.contains(&"Made.run".to_owned()), "{go:?}");
}

#[test]
fn instanceof_a_class_nothing_instantiates_is_false() {
    let p = lower_ok(TASKS, SPEC);
    let main = p
        .methods
        .iter()
        .find(|m| m.name == "Main.main")
        .expect("main");
    let events = main
        .edges()
        .filter(|(_, _, e)| matches!(e, Edge::ApiCall { .. } | Edge::Api { .. }))
        .count();
    assert_eq!(events, 0, "the branch of `t instanceof Leaky` is gone");
}

#[test]
fn a_class_that_extends_a_library_class_may_be_created_by_the_platform() {
    let src = r#"
import java.util.concurrent.locks.ReentrantLock;
interface Task { void run(ReentrantLock l); }
class Balanced implements Task {
    public void run(ReentrantLock l) { l.lock(); l.unlock(); }
}
class Screen extends android.view.View implements Task {
    public void run(ReentrantLock l) { l.lock(); }
}
class Main {
    static void go(Task t, ReentrantLock l) { t.run(l); }
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        go(new Balanced(), l);
    }
}
"#;
    let p = lower_ok(src, SPEC);
    let go = callees(&p, "Main.go");
    assert!(go.contains(&"Screen.run".to_owned()), "{go:?}");
}

/// `Runner.go` dispatches on a `Task` argument; neither task is created by the program.
const UNCREATED: &str = r#"
import java.util.concurrent.locks.ReentrantLock;
abstract class Task { abstract void run(ReentrantLock l); }
class Balanced extends Task { void run(ReentrantLock l) { l.lock(); l.unlock(); } }
class Leaky extends Task { void run(ReentrantLock l) { l.lock(); } }
public class Runner {
    private final ReentrantLock l = new ReentrantLock();
    public void go(Task t) { if (t != null) t.run(l); }
}
"#;

fn prepared_callees(src: &str, opts: &crate::LowerOptions, caller: &str) -> Vec<String> {
    let p = crate::prepare(src, SPEC, opts).expect("prepares");
    callees(p.program(), caller)
}

#[test]
fn a_harness_that_makes_up_arguments_keeps_every_class() {
    let opts = crate::LowerOptions {
        harness: Some(crate::harness::HarnessRequest {
            kind: crate::harness::HarnessKind::PublicMethods,
            classes: vec!["Runner".to_owned()],
            exclude: Vec::new(),
        }),
        ..Default::default()
    };
    let go = prepared_callees(UNCREATED, &opts, "Runner.go");
    assert!(go.contains(&"Leaky.run".to_owned()), "{go:?}");
}

#[test]
fn an_instance_entry_keeps_every_class() {
    let opts = crate::LowerOptions {
        entry: Some("Runner.go".to_owned()),
        ..Default::default()
    };
    let go = prepared_callees(UNCREATED, &opts, "Runner.go");
    assert!(go.contains(&"Leaky.run".to_owned()), "{go:?}");
}

/// `main` gets a `Task` from library code; which classes may it be?
fn from_library(decl: &str, get: &str) -> String {
    format!(
        r#"
import java.util.concurrent.locks.ReentrantLock;
interface Task {{ void run(ReentrantLock l); }}
class Balanced implements Task {{ public void run(ReentrantLock l) {{ l.lock(); l.unlock(); }} }}
{decl}
class Main {{
    static void go(Task t, ReentrantLock l) {{ t.run(l); }}
    public static void main(String[] a) throws Exception {{
        ReentrantLock l = new ReentrantLock();
        go(new Balanced(), l);
        Task t = (Task) {get};
        go(t, l);
    }}
}}
"#
    )
}

#[test]
fn a_serialisable_class_may_be_created_by_a_deserialiser() {
    let src = from_library(
        "class Leaky implements Task, java.io.Serializable { public void run(ReentrantLock l) { l.lock(); } }",
        "new java.io.ObjectInputStream(System.in).readObject()",
    );
    let go = callees(&lower_ok(&src, SPEC), "Main.go");
    assert!(go.contains(&"Leaky.run".to_owned()), "{go:?}");
}

#[test]
fn a_class_named_by_a_class_literal_may_be_created_by_library_code() {
    let src = from_library(
        "class Leaky implements Task { public void run(ReentrantLock l) { l.lock(); } }",
        "java.util.ServiceLoader.load(Task.class).iterator().next()",
    );
    let go = callees(&lower_ok(&src, SPEC), "Main.go");
    assert!(go.contains(&"Leaky.run".to_owned()), "{go:?}");
}

#[test]
fn loading_a_class_by_name_keeps_every_class() {
    let src = from_library(
        "class Leaky implements Task { public void run(ReentrantLock l) { l.lock(); } }",
        "Class.forName(a[0]).getDeclaredConstructor().newInstance()",
    );
    let go = callees(&lower_ok(&src, SPEC), "Main.go");
    assert!(go.contains(&"Leaky.run".to_owned()), "{go:?}");
}

#[test]
fn a_class_library_code_cannot_create_is_still_left_out() {
    // The same shape with a plain library result: `Leaky` is not serialisable, no class
    // literal names it and nothing loads classes by name.
    let src = from_library(
        "class Leaky implements Task { public void run(ReentrantLock l) { l.lock(); } }",
        "java.util.Collections.emptyList().get(0)",
    );
    let go = callees(&lower_ok(&src, SPEC), "Main.go");
    assert!(!go.contains(&"Leaky.run".to_owned()), "{go:?}");
}

#[test]
fn a_class_loaded_by_a_constant_name_is_that_class() {
    let leaky = "class Leaky implements Task { public void run(ReentrantLock l) { l.lock(); } }";
    let named = from_library(
        leaky,
        "Class.forName(\"app.Leaky\").getDeclaredConstructor().newInstance()",
    );
    let go = callees(&lower_ok(&named, SPEC), "Main.go");
    assert!(go.contains(&"Leaky.run".to_owned()), "{go:?}");
    let other = from_library(
        leaky,
        "Class.forName(\"org.ext.Renderer\").getDeclaredConstructor().newInstance()",
    );
    let go = callees(&lower_ok(&other, SPEC), "Main.go");
    assert!(!go.contains(&"Leaky.run".to_owned()), "{go:?}");
}

#[test]
fn a_for_name_of_another_class_than_class_loads_nothing() {
    let src = from_library(
        "class Leaky implements Task { public void run(ReentrantLock l) { l.lock(); } }",
        "java.nio.charset.Charset.forName(a[0]).aliases().iterator().next()",
    );
    let go = callees(&lower_ok(&src, SPEC), "Main.go");
    assert!(!go.contains(&"Leaky.run".to_owned()), "{go:?}");
}

#[test]
fn loading_a_class_by_name_in_code_nothing_reaches_loads_nothing() {
    let src = from_library(
        "class Leaky implements Task { public void run(ReentrantLock l) { l.lock(); } }\n\
         class Plugins { static Object make(String n) throws Exception { return Class.forName(n).getDeclaredConstructor().newInstance(); } }",
        "java.util.Collections.emptyList().get(0)",
    );
    let go = callees(&lower_ok(&src, SPEC), "Main.go");
    assert!(!go.contains(&"Leaky.run".to_owned()), "{go:?}");
}
