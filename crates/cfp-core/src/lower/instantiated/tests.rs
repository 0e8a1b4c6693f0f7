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
