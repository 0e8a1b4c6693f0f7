use super::*;

fn unit(src: &str) -> CompilationUnit {
    let p = cfp_syntax::parse_program(src);
    assert!(!p.has_errors(), "{:?}", p.diagnostics);
    p.tree
}

/// A unit that lives as long as the test (a desugared unit may borrow it).
fn leak(u: CompilationUnit) -> &'static CompilationUnit {
    Box::leak(Box::new(u))
}

fn classes(d: &Desugared) -> Vec<String> {
    let mut all = Vec::new();
    for c in &d.unit.classes {
        collect(c, &mut all);
    }
    all.iter().map(|c| c.name.name.clone()).collect()
}

#[test]
fn a_lambda_becomes_a_class_implementing_its_target_with_its_captures() {
    let d = desugar(
        leak(unit(
            "class Main { void f() { ReentrantLock l = new ReentrantLock(); int n = 3; \
             Runnable r = () -> { l.unlock(); }; r.run(); } }",
        )),
        &TargetHints::default(),
    );
    assert_eq!(classes(&d), ["Main", "Main$1"]);
    let c = &d.closures[0];
    assert_eq!(c.captures, ["l"]);
    assert_eq!(c.method.as_deref(), Some("run"));
    assert_eq!(c.target.as_deref(), Some("Runnable"));
    let Member::Class(k) = &d.unit.classes[0].members[1] else {
        panic!("no nested class");
    };
    assert!(!k.modifiers.is_static);
    assert_eq!(k.implements.len(), 1);
    assert!(k
        .members
        .iter()
        .any(|m| matches!(m, Member::Method(md) if md.name.name == "run")));
}

#[test]
fn this_in_a_lambda_is_the_enclosing_instance_and_static_code_makes_static_classes() {
    let d = desugar(
        leak(unit(
            "interface Job { void go(int k); } class Main { int x; \
             void f() { Job j = k -> this.x = k; } \
             static void g() { Job j = k -> {}; } }",
        )),
        &TargetHints::default(),
    );
    let nested: Vec<&ClassDecl> = d.unit.classes[1]
        .members
        .iter()
        .filter_map(|m| match m {
            Member::Class(c) => Some(c),
            _ => None,
        })
        .collect();
    assert_eq!(nested.len(), 2);
    assert!(!nested[0].modifiers.is_static && nested[1].modifiers.is_static);
    let Some(Member::Method(go)) = nested[0]
        .members
        .iter()
        .find(|m| matches!(m, Member::Method(_)))
    else {
        panic!("no method");
    };
    assert_eq!(go.name.name, "go");
    assert_eq!(go.params[0].ty.kind, TypeKind::Int);
    let text = format!("{:?}", go.body);
    assert!(text.contains("OuterThis(\"Main\")"), "{text}");
}

#[test]
fn anonymous_local_and_method_reference_closures() {
    let d = desugar(
        leak(unit(
            "abstract class Task { int id; Task(int id) { this.id = id; } abstract void run(); } \
             class Main { static void work(int k) {} \
             void f(ReentrantLock l) { \
               Task t = new Task(7) { void run() { l.lock(); } }; \
               class Local { void go() { l.unlock(); } } \
               java.util.function.IntConsumer c = Main::work; } }",
        )),
        &TargetHints::default(),
    );
    let kinds: Vec<(ClosureKind, bool, Vec<String>)> = d
        .closures
        .iter()
        .map(|c| (c.kind, c.is_local_class, c.captures.clone()))
        .collect();
    assert_eq!(
        kinds,
        [
            (ClosureKind::Anonymous, false, vec!["l".to_owned()]),
            (ClosureKind::Anonymous, true, vec!["l".to_owned()]),
            (ClosureKind::MethodRef, false, vec![]),
        ]
    );
    // The anonymous class extends Task and passes the argument on.
    let main = &d.unit.classes[1];
    let anon = main
        .members
        .iter()
        .find_map(|m| match m {
            Member::Class(c) if c.name.name == d.closures[0].name => Some(c),
            _ => None,
        })
        .expect("anonymous class");
    assert!(matches!(&anon.extends, Some(t) if type_name(t) == Some("Task")));
    assert!(anon
        .members
        .iter()
        .any(|m| matches!(m, Member::Constructor(c) if c.params.len() == 1)));
    assert_eq!(d.closures[2].method.as_deref(), Some("accept"));
}

#[test]
fn a_hint_gives_a_lambda_passed_to_a_method_its_target() {
    let src = "interface Job { void go(); } class Main { static void run(Job j) { j.go(); } \
               void f() { run(() -> {}); } }";
    let d = desugar(leak(unit(src)), &TargetHints::default());
    assert_eq!(d.closures[0].method.as_deref(), Some("lambda$"));
    let mut hints = TargetHints::default();
    hints.targets.insert(0, named("Job", Span::default()));
    let d = desugar(leak(unit(src)), &hints);
    assert_eq!(d.closures[0].method.as_deref(), Some("go"));
    assert_eq!(d.closures[0].target.as_deref(), Some("Job"));
}

#[test]
fn a_name_declared_in_one_inner_scope_is_still_captured_where_it_is_used_free() {
    let d = desugar(
        leak(unit(
            "interface Cb { void done(int item); } class Main { void f(int item, int k) { \
             Runnable r = () -> { use(new Cb() { public void done(int item) { int k = item; } }); \
             use(item, k); }; } }",
        )),
        &TargetHints::default(),
    );
    let lambda = d
        .closures
        .iter()
        .find(|c| c.method.as_deref() == Some("run"))
        .expect("the lambda's class");
    assert_eq!(lambda.captures, ["item", "k"]);
}
