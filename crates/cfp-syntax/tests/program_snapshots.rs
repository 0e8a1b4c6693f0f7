//! Golden snapshots of `dump_program` (and of diagnostics for erroneous input).
//! Update with `INSTA_UPDATE=always cargo test -p cfp-syntax --test program_snapshots`
//! and review the `.snap` files.

use cfp_syntax::{dump_program, parse_program, LineIndex};

/// The dump followed by the rendered diagnostics (if any).
fn dump_with_diagnostics(text: &str) -> String {
    let parsed = parse_program(text);
    let mut out = dump_program(&parsed.tree, text);
    let idx = LineIndex::new(text);
    for d in &parsed.diagnostics {
        out.push_str(&d.render("input.java", text, &idx));
    }
    out
}

#[test]
fn lock_example() {
    let text = r#"import java.util.concurrent.locks.ReentrantLock;

class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        int n = Input.readInt();
        for (int i = 0; i < n; i++) {
            l.lock();
            if (*) {
                l.unlock();
                continue;
            }
            l.unlock();
        }
    }
}
"#;
    insta::assert_snapshot!(dump_with_diagnostics(text));
}

#[test]
fn wakelock_model_with_constructor_and_fields() {
    let text = r#"package demo;

public class WakeLock {
    private int count;
    private static int instances = 0;
    boolean referenceCounted = true;

    WakeLock(int initial) { this.count = initial; instances += 1; }

    public boolean isHeld() { return count > 0; }
    public void acquire() { count++; }
    public void release() {
        if (!referenceCounted || count == 1) count = 0;
        else if (count > 1) count--;
        else throw new RuntimeException("under-locked");
    }
}

interface Task extends Runnable { void run(); }
"#;
    insta::assert_snapshot!(dump_with_diagnostics(text));
}

#[test]
fn statements_showcase() {
    let text = r#"class S {
    void m(int[] xs, Canvas c) {
        int a[] = {1, 2}, b = 0x10, d;
        var list = new java.util.ArrayList<String>();
        long big = -9223372036854775808L;
        String s = "tab\t" + 'q' + (char) 65;
        outer:
        for (String t : list) {
            switch (t.length()) {
                case 0, 1:
                case 2: c.save(); break;
                default: c.restore(); continue outer;
            }
        }
        do { b >>>= 1; } while (b != 0 && *);
        try { c.save(); } catch (IllegalStateException | RuntimeException e) { } finally { c.restore(); }
        xs[0] = b > 0 ? xs[1] : -xs[2];
        boolean ok = c instanceof Canvas;
        int[][] grid = new int[2][3];
        ;
        return;
    }
}
"#;
    insta::assert_snapshot!(dump_with_diagnostics(text));
}

#[test]
fn recovery_reports_each_mistake() {
    let text = r#"class Broken {
    void a() {
        int x = ;
        foo(1 2);
        y = 3
        bar();
    }
    void b( { }
    enum E { P, Q }
    void c() { synchronized (this) { z(); } Runnable r = () -> z(); }
    int ok() { return 1; }
}
"#;
    insta::assert_snapshot!(dump_with_diagnostics(text));
}
