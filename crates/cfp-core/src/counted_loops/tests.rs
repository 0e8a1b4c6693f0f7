use super::*;

fn events() -> BTreeSet<String> {
    ["lock", "unlock"].into_iter().map(String::from).collect()
}

fn parse(src: &str) -> CompilationUnit {
    let unit = cfp_syntax::parse_sources(&cfp_syntax::SourceSet::single("", src));
    assert!(!unit.has_errors(), "{:?}", unit.diagnostics);
    unit.tree
}

/// The names of the methods of the first class after the rewrite (`None`: unchanged).
fn methods_after(src: &str) -> Option<Vec<String>> {
    let out = rewrite(&parse(src), &events())?;
    Some(
        out.classes[0]
            .members
            .iter()
            .filter_map(|m| match m {
                Member::Method(d) => Some(d.name.name.clone()),
                _ => None,
            })
            .collect(),
    )
}

fn with_loops(decls: &str, first: &str, second: &str) -> String {
    format!(
        "class Main {{\n  static int f;\n  public static void main(String[] args) {{\n    ReentrantLock l = new ReentrantLock();\n    {decls}\n    {first}\n    {second}\n  }}\n}}\n"
    )
}

#[test]
fn a_pair_over_one_bound_becomes_two_methods() {
    let src = with_loops(
        "int n = Input.readInt();",
        "for (int i = 0; i < n; i++) { l.lock(); }",
        "for (int j = 0; j < n; j++) { l.unlock(); }",
    );
    assert_eq!(
        methods_after(&src),
        Some(vec![
            "main".to_owned(),
            "main$loops1$back".to_owned(),
            "main$loops1".to_owned()
        ])
    );
}

#[test]
fn the_same_counter_name_and_a_literal_bound_are_fine() {
    let src = with_loops(
        "",
        "for (int i = 0; i < 3; ++i) { l.lock(); }",
        "for (int i = 0; i < 3; i++) { l.unlock(); }",
    );
    assert!(methods_after(&src).is_some());
}

#[test]
fn what_the_rewrite_does_not_take_stays_a_loop() {
    let cases = [
        // Different bounds.
        (
            "int n = 2; int m = 2;",
            "for (int i = 0; i < n; i++) { l.lock(); }",
            "for (int j = 0; j < m; j++) { l.unlock(); }",
        ),
        // The bound changes in a body.
        (
            "int n = 2;",
            "for (int i = 0; i < n; i++) { l.lock(); n--; }",
            "for (int j = 0; j < n; j++) { l.unlock(); }",
        ),
        // A local of the method is assigned.
        (
            "int n = 2; int s = 0;",
            "for (int i = 0; i < n; i++) { l.lock(); s += i; }",
            "for (int j = 0; j < n; j++) { l.unlock(); }",
        ),
        // A counter is assigned.
        (
            "int n = 2;",
            "for (int i = 0; i < n; i++) { l.lock(); i++; }",
            "for (int j = 0; j < n; j++) { l.unlock(); }",
        ),
        // break.
        (
            "int n = 2;",
            "for (int i = 0; i < n; i++) { l.lock(); if (f > 0) break; }",
            "for (int j = 0; j < n; j++) { l.unlock(); }",
        ),
        // return.
        (
            "int n = 2;",
            "for (int i = 0; i < n; i++) { l.lock(); }",
            "for (int j = 0; j < n; j++) { l.unlock(); if (f > 0) return; }",
        ),
        // No call in a body.
        (
            "int n = 2;",
            "for (int i = 0; i < n; i++) { f++; }",
            "for (int j = 0; j < n; j++) { l.unlock(); }",
        ),
        // No call of the spec or the program in a body.
        (
            "int n = 2;",
            "for (int i = 0; i < n; i++) { System.out.println(i); }",
            "for (int j = 0; j < n; j++) { l.unlock(); }",
        ),
        // A literal bound too deep for the concrete runs' call depth.
        (
            "",
            "for (int i = 0; i < 500; i++) { l.lock(); }",
            "for (int j = 0; j < 500; j++) { l.unlock(); }",
        ),
        // Not counted up from 0.
        (
            "int n = 2;",
            "for (int i = 1; i < n; i++) { l.lock(); }",
            "for (int j = 0; j < n; j++) { l.unlock(); }",
        ),
        // A field as the bound.
        (
            "",
            "for (int i = 0; i < f; i++) { l.lock(); }",
            "for (int j = 0; j < f; j++) { l.unlock(); }",
        ),
        // Something between the loops.
        (
            "int n = 2;",
            "for (int i = 0; i < n; i++) { l.lock(); }",
            "f = 1; for (int j = 0; j < n; j++) { l.unlock(); }",
        ),
    ];
    for (decls, first, second) in cases {
        let src = with_loops(decls, first, second);
        assert_eq!(methods_after(&src), None, "{src}");
    }
}

#[test]
fn read_locals_are_passed_and_the_second_counter_counts_up() {
    let src = with_loops(
        "int n = Input.readInt(); ReentrantLock m = l;",
        "for (int i = 0; i < n; i++) { m.lock(); }",
        "for (int j = 0; j < n; j++) { if (j >= 0) l.unlock(); }",
    );
    let out = rewrite(&parse(&src), &events()).expect("rewritten");
    let params = |name: &str| -> Vec<String> {
        out.classes[0]
            .members
            .iter()
            .find_map(|m| match m {
                Member::Method(d) if d.name.name == name => {
                    Some(d.params.iter().map(|p| p.name.name.clone()).collect())
                }
                _ => None,
            })
            .expect("method")
    };
    assert_eq!(params("main$loops1"), ["i", "m", "l", "n"]);
    assert_eq!(params("main$loops1$back"), ["j", "l"]);
}

#[test]
fn new_names_are_unique_in_the_unit_and_varargs_are_passed() {
    let src = "class A {\n  A(ReentrantLock l, int n) {\n    for (int i = 0; i < n; i++) { l.lock(); }\n    for (int j = 0; j < n; j++) { l.lock(); }\n  }\n}\nclass B extends A {\n  B(int n, ReentrantLock... ls) {\n    super(ls[0], n);\n    for (int i = 0; i < n; i++) { ls[0].lock(); }\n    for (int j = 0; j < n; j++) { ls[0].unlock(); }\n  }\n}\n";
    let out = rewrite(&parse(src), &events()).expect("rewritten");
    let methods = |k: usize| -> Vec<(String, Vec<String>)> {
        out.classes[k]
            .members
            .iter()
            .filter_map(|m| match m {
                Member::Method(d) => Some((
                    d.name.name.clone(),
                    d.params.iter().map(|p| p.name.name.clone()).collect(),
                )),
                _ => None,
            })
            .collect()
    };
    let a: Vec<String> = methods(0).into_iter().map(|(n, _)| n).collect();
    let b = methods(1);
    assert_eq!(a, ["init$loops1$back", "init$loops1"]);
    assert_eq!(b[1].0, "init$loops2");
    assert_eq!(b[1].1, ["i", "ls", "n"]);
}
