use crate::ast_dump::dump_program;
use crate::sources::{parse_sources, SourceSet};

/// Resolve the files `(name, text)` and dump the merged program.
fn resolved(files: &[(&str, &str)]) -> String {
    let mut set = SourceSet::new();
    for (name, text) in files {
        set.add(*name, text);
    }
    let parsed = parse_sources(&set);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    dump_program(&parsed.tree, set.text())
}

#[test]
fn same_named_classes_of_two_packages_are_two_classes() {
    insta::assert_snapshot!(resolved(&[
        (
            "util/concurrent/Lock.java",
            "package util.concurrent;\npublic class Lock { public void lock() {} }\n",
        ),
        ("app/Lock.java", "package app;\nclass Lock { void lock() {} }\n"),
        (
            "app/Main.java",
            "package app;\nimport util.concurrent.Lock;\nclass Main {\n  void m() {\n    Lock l = new Lock();\n    util.concurrent.Lock q = null;\n    app.Lock r = new app.Lock();\n  }\n}\n",
        ),
    ]));
}

#[test]
fn nested_classes_of_the_same_name_are_told_apart_by_their_outer_class() {
    insta::assert_snapshot!(resolved(&[
        (
            "net/Request.java",
            "package net;\npublic class Request {\n  public static class Builder { Request build() { return new Request(); } }\n  static Builder builder() { return new Builder(); }\n}\n",
        ),
        (
            "net/Response.java",
            "package net;\npublic class Response {\n  public static class Builder { }\n  Builder b = new Response.Builder();\n}\n",
        ),
        (
            "app/Main.java",
            "package app;\nimport net.Request;\nimport net.Response.Builder;\nclass Main {\n  void m() {\n    Request.Builder a = new Request.Builder();\n    Builder b = new Builder();\n    Request r = net.Request.builder().build();\n  }\n}\n",
        ),
    ]));
}

#[test]
fn a_library_class_stays_one_beside_a_program_class_of_its_name() {
    insta::assert_snapshot!(resolved(&[
        (
            "com/x/SystemClock.java",
            "package com.x;\npublic class SystemClock { public static long now() { return 1; } }\n",
        ),
        (
            "com/x/Timer.java",
            "package com.x;\nclass Timer { long t = SystemClock.now(); }\n",
        ),
        (
            "app/Main.java",
            "package app;\nimport android.os.SystemClock;\nclass Main { long t = SystemClock.elapsedRealtime(); long u = android.os.SystemClock.uptimeMillis(); }\n",
        ),
    ]));
}

#[test]
fn static_imports_qualify_the_members_they_bring() {
    insta::assert_snapshot!(resolved(&[
        (
            "util/Locks.java",
            "package util;\npublic class Locks { public static final int N = 2; public static void grab() {} public static void drop() {} }\n",
        ),
        (
            "app/Main.java",
            "package app;\nimport static util.Locks.grab;\nimport static util.Locks.*;\nclass Main {\n  int own = 1;\n  void drop() {}\n  void m(int N) { grab(); drop(); int k = N + own; }\n  void n() { int k = N; }\n}\n",
        ),
    ]));
}

#[test]
fn variables_win_over_classes_and_models_stand_for_library_classes() {
    insta::assert_snapshot!(resolved(&[
        (
            "app/Main.java",
            "package app;\nimport android.os.PowerManager;\nimport android.os.PowerManager.WakeLock;\nclass Main {\n  PowerManager pm;\n  void m(Lock Lock) {\n    WakeLock w = pm.newWakeLock(1, \"t\");\n    PowerManager.WakeLock v = w;\n    Lock.lock();\n  }\n}\nclass Lock { static void lock() {} }\n",
        ),
        (
            "<model:power-manager>",
            "class PowerManager { WakeLock newWakeLock(int f, String t) { return new WakeLock(); }\n  static class WakeLock { void acquire() {} } }\n",
        ),
    ]));
}

#[test]
fn one_qualified_name_twice_is_an_error_naming_both_files() {
    let mut set = SourceSet::new();
    set.add("a/Lock.java", "package a;\nclass Lock {}\n");
    set.add("b/Lock.java", "package a;\nclass Lock {}\n");
    let parsed = parse_sources(&set);
    let [d] = &parsed.diagnostics[..] else {
        panic!("{:?}", parsed.diagnostics)
    };
    assert_eq!(d.code, "duplicate-class-in-tree");
    assert!(d.message.contains("a/Lock.java") && d.message.contains("b/Lock.java"));
    assert!(d.message.contains("`a.Lock`"), "{}", d.message);
    assert_eq!(set.file_of(d.span.start as usize), Some(1));
}

#[test]
fn a_default_package_program_keeps_its_names() {
    let text = "class Main { void m() { Lock l = new Lock(); l.lock(); } }\nclass Lock { void lock() {} }\n";
    let set = SourceSet::single("Main.java", text);
    let parsed = parse_sources(&set);
    let plain = crate::parse_program(text);
    assert_eq!(parsed.tree.classes, plain.tree.classes);
}

#[test]
fn written_names_denote_program_names() {
    use super::{names_class, simple_name};
    assert_eq!(simple_name("Request$Builder"), "Builder");
    assert_eq!(simple_name("Main"), "Main");
    assert!(names_class("Builder", "Request$Builder"));
    assert!(names_class("Request.Builder", "Request$Builder"));
    assert!(names_class("net.Request.Builder", "Request$Builder"));
    assert!(names_class("app.Main", "Main"));
    assert!(names_class("Main", "Main"));
    assert!(!names_class("Response.Builder", "Request$Builder"));
    assert!(!names_class("xMain", "Main"));
    assert!(!names_class("app.xMain", "Main"));
}

#[test]
fn anonymous_and_local_classes_see_what_their_supertypes_inherit() {
    let dump = resolved(&[
        (
            "net/Task.java",
            "package net;\npublic abstract class Task {\n  public static class Guard { public static void hold() {} }\n  protected int ticks;\n  public abstract void run();\n}\n",
        ),
        (
            "net/Job.java",
            "package net;\npublic class Job { public static class Guard { } }\n",
        ),
        (
            "app/Main.java",
            "package app;\nimport net.Task;\nimport static app.Util.ticks;\nclass Main {\n  void m() {\n    new Task() { public void run() { Guard.hold(); int t = ticks; } }.run();\n    class Local extends Task { public void run() { Guard.hold(); } }\n  }\n}\nclass Util { static int ticks = 0; }\n",
        ),
    ]);
    assert_eq!(
        dump.matches("(call (name Task$Guard) hold)").count(),
        2,
        "{dump}"
    );
    // `ticks` is the field the anonymous class inherits, not the static import.
    assert!(dump.contains("(local @14:52 int t (name ticks))"), "{dump}");
}

#[test]
fn a_package_qualified_library_class_is_not_a_program_class_of_its_name() {
    let dump = resolved(&[
        (
            "com/app/util/SystemClock.java",
            "package com.app.util;\npublic class SystemClock { public static long now() { return 1; } }\n",
        ),
        (
            "app/Main.java",
            "package app;\nclass Main { long t = android.os.SystemClock.uptimeMillis(); long u = com.app.util.SystemClock.now(); }\n",
        ),
    ]);
    assert!(dump.contains("(class @2:1 util$SystemClock"), "{dump}");
    assert!(
        dump.contains("(call (field (field (name android) os) SystemClock) uptimeMillis)"),
        "{dump}"
    );
    assert!(
        dump.contains("(call (name util$SystemClock) now)"),
        "{dump}"
    );
}

#[test]
fn a_bounded_type_variable_is_written_as_its_erasure() {
    insta::assert_snapshot!(resolved(&[
        (
            "dec/Buffer.java",
            "package dec;\npublic class Buffer { public void release() {} }\n",
        ),
        (
            "dec/Decoder.java",
            "package dec;\nimport java.util.ArrayDeque;\nabstract class Decoder<I, O extends Buffer & Comparable<O>> {\n  ArrayDeque<O> queue;\n  O[] all;\n  void drop(O o) { o.release(); queue.removeFirst().release(); }\n  I keep(I i) { return i; }\n  <T extends Buffer> T pass(T t) { return t; }\n  <O> O shadow(O o) { return o; }\n  void local() {\n    class O { }\n    O o = new O();\n  }\n}\n",
        ),
    ]));
}
