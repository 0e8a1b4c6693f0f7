use super::{is_final_object_method, ClassTable, Type};

fn table_of(
    src: &str,
) -> (
    cfp_syntax::ast::CompilationUnit,
    Vec<cfp_syntax::Diagnostic>,
) {
    let p = cfp_syntax::parse_program(src);
    assert!(!p.has_errors(), "{:?}", p.diagnostics);
    (p.tree, p.diagnostics)
}

#[test]
fn nested_classes_supertypes_and_members() {
    let (unit, _) = table_of(
        "class Outer {\n  static class Inner extends Base implements Runnable { int q; }\n}\n\
         class Base extends java.util.concurrent.locks.ReentrantLock { int b; static int s; \
         void f(int x) {} void f(Base y) {} void f(int x, int y) {} }\n\
         interface Runnable { void run(); }\n",
    );
    let t = ClassTable::new(&unit);
    assert!(t.diagnostics.is_empty(), "{:?}", t.diagnostics);
    let names: Vec<&str> = t.defs.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["Outer", "Inner", "Base", "Runnable"]);
    let inner = t.class_by_name("Inner").expect("Inner");
    let base = t.class_by_name("Base").expect("Base");
    assert_eq!(t.classes[inner.index()].outer, t.class_by_name("Outer"));
    assert_eq!(
        t.supertype_names(inner),
        ["Inner", "Base", "ReentrantLock", "Runnable"]
    );
    assert!(t.has_external_ancestor(inner));
    // Fields: inherited and own; statics through the subclass.
    let all: Vec<&str> = t
        .all_fields(inner)
        .iter()
        .map(|f| t.fields[f.index()].name.as_str())
        .collect();
    assert_eq!(all, ["b", "q"]);
    assert!(t.lookup_static(inner, "s").is_some());
    // Overloads by arity, then by argument type.
    let f_int = t.lookup_method(inner, "f", &[Type::Int]).expect("f(int)");
    let f_base = t
        .lookup_method(inner, "f", &[Type::Class(inner)])
        .expect("f(Base)");
    assert_ne!(f_int, f_base);
    assert_eq!(t.methods[f_int.index()].display, "Base.f/1#1");
    assert_eq!(t.methods[f_base.index()].display, "Base.f/1#2");
    assert_eq!(t.methods[f_base.index()].params[0].1, Type::Class(base));
    assert!(t
        .lookup_method(inner, "f", &[Type::Int, Type::Int])
        .is_some());
    assert!(t.lookup_method(inner, "run", &[]).is_some());
    assert!(t.lookup_method(inner, "g", &[]).is_none());
    // Default constructors, none for interfaces.
    assert_eq!(t.classes[inner.index()].ctors.len(), 1);
    let runnable = t.class_by_name("Runnable").expect("Runnable");
    assert!(t.classes[runnable.index()].ctors.is_empty());
}

#[test]
fn duplicate_and_cyclic_classes_are_diagnosed() {
    let (unit, _) = table_of("class A extends B {}\nclass B extends A {}\nclass A {}\n");
    let t = ClassTable::new(&unit);
    let codes: Vec<&str> = t.diagnostics.iter().map(|d| d.code).collect();
    assert!(codes.contains(&"duplicate-class"), "{codes:?}");
    assert!(codes.contains(&"cyclic-inheritance"), "{codes:?}");
    // Lookups terminate despite the cycle.
    let a = t.class_by_name("A").expect("A");
    assert!(t.lookup_method(a, "x", &[]).is_none());
    assert!(t.lookup_field(a, "x").is_none());
}

#[test]
fn implementations_cover_concrete_subclasses() {
    let (unit, _) = table_of(
        "abstract class S { abstract void m(); }\nclass A extends S { void m() {} }\n\
         class B extends A {}\nclass C extends A { void m() {} }\n\
         class D extends S { void m() {} }\n",
    );
    let t = ClassTable::new(&unit);
    let s = t.class_by_name("S").expect("S");
    let a = t.class_by_name("A").expect("A");
    let decl = t.lookup_method(s, "m", &[]).expect("S.m");
    let names = |c| -> Vec<String> {
        t.implementations(c, decl)
            .into_iter()
            .map(|m| m.map_or("external".into(), |m| t.methods[m.index()].display.clone()))
            .collect()
    };
    assert_eq!(names(s), ["A.m", "C.m", "D.m"]);
    assert_eq!(names(a), ["A.m", "C.m"]);
}

#[test]
fn only_objects_final_methods_are_final() {
    for (name, arity) in [
        ("getClass", 0),
        ("notify", 0),
        ("notifyAll", 0),
        ("wait", 0),
    ] {
        assert!(is_final_object_method(name, arity), "{name}/{arity}");
    }
    // Overridable, or with arguments (it may be a program's own overload, `wait(String)`).
    for (name, arity) in [
        ("equals", 1),
        ("hashCode", 0),
        ("toString", 0),
        ("getClass", 1),
        ("wait", 1),
        ("wait", 2),
        ("clone", 0),
    ] {
        assert!(!is_final_object_method(name, arity), "{name}/{arity}");
    }
}

#[test]
fn supertype_names_are_cached_and_equal_to_a_fresh_computation() {
    let (unit, _) = table_of(
        "interface I {}\nclass A implements I {}\nclass B extends A implements Runnable {}\n",
    );
    let t = ClassTable::new(&unit);
    let b = t.class_by_name("B").expect("B");
    let first = t.supertype_names(b);
    assert_eq!(first, ["B", "Runnable", "A", "I"]);
    assert_eq!(t.supertypes_of(b).as_ref(), first.as_slice());
}
