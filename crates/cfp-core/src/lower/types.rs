//! Runtime types: every object's class as an integer code in the field `%type`, and
//! the subtype questions the JVM answers at run time — which implementation a virtual
//! call runs, whether a catch clause catches an exception, `instanceof`, casts.
//!
//! Codes: the program's classes first (a preorder of the superclass forest, so that a
//! class and its subclasses have consecutive codes), then every class outside the
//! program that the program allocates or names in a catch clause, an `instanceof` or a
//! cast, and the JVM's own exceptions, in name order. An object the program did not
//! allocate has an arbitrary code.
//!
//! A subtype question is answered [`Tri::Yes`], [`Tri::No`] or [`Tri::Unknown`]: the
//! hierarchy of the program is known, and so is that of the JDK's throwables
//! ([`crate::classes::jdk`]); a class outside both has an unknown place.

use crate::classes::{jdk, ClassTable, Type};
use crate::ir::{ClassId, Expr};
use cfp_syntax::ast::BinaryOp;
use std::collections::{BTreeMap, BTreeSet};

/// A three-valued answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tri {
    /// Certainly.
    Yes,
    /// Certainly not.
    No,
    /// Not known.
    Unknown,
}

/// The codes of `%type`.
#[derive(Clone, Debug, Default)]
pub(crate) struct TypeUniverse {
    /// Code of each program class (by class id).
    class_codes: Vec<i64>,
    /// Code of each class outside the program.
    external: BTreeMap<String, i64>,
    /// The name of code `k` at `names[k - 1]`.
    pub names: Vec<String>,
}

/// What a code stands for.
enum Coded<'n> {
    Class(ClassId),
    External(&'n str),
}

impl TypeUniverse {
    /// Codes for the program's classes and the given outside names (and the JVM's own
    /// exceptions and the throwables' superclasses, so a catch of `RuntimeException`
    /// can be decided for them).
    pub fn new(table: &ClassTable<'_>, outside: &BTreeSet<String>) -> TypeUniverse {
        let n = table.classes.len();
        let mut order = Vec::with_capacity(n);
        let mut visited = vec![false; n];
        // Roots: classes whose superclass is not in the program, in source order.
        for i in 0..n {
            if table.classes[i].superclass.is_none() {
                preorder(table, ClassId(i as u32), &mut visited, &mut order);
            }
        }
        for (i, seen) in visited.clone().into_iter().enumerate() {
            if !seen {
                preorder(table, ClassId(i as u32), &mut visited, &mut order);
            }
        }
        let mut u = TypeUniverse {
            class_codes: vec![0; n],
            ..TypeUniverse::default()
        };
        for c in order {
            u.names.push(table.class_name(c).to_owned());
            u.class_codes[c.index()] = u.names.len() as i64;
        }
        let mut ext: BTreeSet<String> = outside
            .iter()
            .filter(|n| table.class_by_name(n).is_none())
            .cloned()
            .collect();
        for name in jdk::IMPLICIT.iter().chain(&[
            "ExceptionInInitializerError",
            "NoClassDefFoundError",
            "AssertionError",
        ]) {
            ext.insert((*name).to_owned());
        }
        // The known ancestors of every outside throwable, and of the program's classes'
        // outside superclasses.
        let mut more = Vec::new();
        for e in ext.iter().cloned().chain(
            table
                .classes
                .iter()
                .flat_map(|c| c.external_supers.iter().cloned()),
        ) {
            if let Some(chain) = jdk::ancestors(&e) {
                more.extend(
                    chain
                        .into_iter()
                        .filter(|a| *a != "Object")
                        .map(str::to_owned),
                );
            }
        }
        ext.extend(more);
        for e in ext.into_iter().filter(|e| table.class_by_name(e).is_none()) {
            u.names.push(e.clone());
            u.external.insert(e, u.names.len() as i64);
        }
        u
    }

    /// The code of a program class.
    pub fn class_code(&self, c: ClassId) -> Option<i64> {
        self.class_codes.get(c.index()).copied().filter(|k| *k > 0)
    }

    /// The code of a class outside the program.
    pub fn external_code(&self, name: &str) -> Option<i64> {
        self.external.get(name).copied()
    }

    /// The number of codes (`1..=len`).
    pub fn len(&self) -> i64 {
        self.names.len() as i64
    }

    fn coded(&self, code: i64) -> Option<Coded<'_>> {
        if let Some(i) = self.class_codes.iter().position(|k| *k == code) {
            return Some(Coded::Class(ClassId(i as u32)));
        }
        self.external
            .iter()
            .find(|(_, k)| **k == code)
            .map(|(n, _)| Coded::External(n.as_str()))
    }

    /// Whether an object of the class of `code` is an instance of `target`.
    pub fn relation(&self, table: &ClassTable<'_>, code: i64, target: &Type) -> Tri {
        let Some(coded) = self.coded(code) else {
            return Tri::Unknown;
        };
        match (coded, target) {
            (_, Type::External(t)) if t == "Object" => Tri::Yes,
            (Coded::Class(a), Type::Class(b)) => {
                if table.is_subclass(a, *b) {
                    Tri::Yes
                } else {
                    Tri::No
                }
            }
            (Coded::External(_), Type::Class(_)) => Tri::No,
            (Coded::Class(a), Type::External(t)) => class_below_external(table, a, t),
            (Coded::External(e), Type::External(t)) => external_below(e, t),
            _ => Tri::Unknown,
        }
    }

    /// The codes of `candidates` split by their answer to "an instance of `target`?".
    ///
    /// For an object that was thrown (`thrown`), a class that cannot be thrown counts
    /// as "no": a class below `Throwable`, or of unknown place but named like a throwable
    /// (`…Exception`, `…Error`, `…Throwable`), may be thrown; others are taken not to be.
    pub fn partition(&self, table: &ClassTable<'_>, target: &Type, thrown: bool) -> Partition {
        let throwable = Type::External("Throwable".to_owned());
        let mut p = Partition::default();
        for code in 1..=self.len() {
            let answer = match self.relation(table, code, target) {
                Tri::Unknown if thrown && !self.may_be_thrown(table, code, &throwable) => Tri::No,
                other => other,
            };
            match answer {
                Tri::Yes => p.yes.push(code),
                Tri::No => p.no.push(code),
                Tri::Unknown => p.unknown.push(code),
            }
        }
        p
    }

    fn may_be_thrown(&self, table: &ClassTable<'_>, code: i64, throwable: &Type) -> bool {
        match self.relation(table, code, throwable) {
            Tri::Yes => true,
            Tri::No => false,
            Tri::Unknown => self.names.get(code as usize - 1).is_some_and(|n| {
                n.ends_with("Exception") || n.ends_with("Error") || n.ends_with("Throwable")
            }),
        }
    }
}

/// Codes split by a subtype question; an object with no code (not allocated by the
/// program) is in no list and its answer is unknown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Partition {
    /// Instances.
    pub yes: Vec<i64>,
    /// Not instances.
    pub no: Vec<i64>,
    /// Not known.
    pub unknown: Vec<i64>,
}

fn preorder(table: &ClassTable<'_>, c: ClassId, visited: &mut [bool], out: &mut Vec<ClassId>) {
    let mut stack = vec![c];
    while let Some(k) = stack.pop() {
        if visited[k.index()] {
            continue;
        }
        visited[k.index()] = true;
        out.push(k);
        // Direct subclasses, in source order (pushed reversed so the first comes next).
        let subs: Vec<ClassId> = (0..table.classes.len())
            .map(|i| ClassId(i as u32))
            .filter(|s| table.classes[s.index()].superclass == Some(k))
            .collect();
        stack.extend(subs.into_iter().rev());
    }
}

/// Is program class `a` below the outside type `t`?
fn class_below_external(table: &ClassTable<'_>, a: ClassId, t: &str) -> Tri {
    let names = table.supertype_names(a);
    if names.iter().any(|n| n == t) {
        return Tri::Yes;
    }
    let mut answer = Tri::No;
    for anc in table.ancestors(a) {
        for e in &table.classes[anc.index()].external_supers {
            match external_below(e, t) {
                Tri::Yes => return Tri::Yes,
                Tri::Unknown => answer = Tri::Unknown,
                Tri::No => {}
            }
        }
    }
    answer
}

/// Is the outside class `e` below the outside type `t`?
fn external_below(e: &str, t: &str) -> Tri {
    if e == t || t == "Object" {
        return Tri::Yes;
    }
    if e == "Object" {
        return Tri::No;
    }
    match jdk::ancestors(e) {
        // A throwable of the table: its superclasses are all known (the interfaces it
        // implements are not listed; catch clauses name classes).
        Some(chain) if chain.contains(&t) => Tri::Yes,
        Some(_) => Tri::No,
        None => Tri::Unknown,
    }
}

/// `obj.%type ∈ codes`, as ranges of consecutive codes (`false` when empty).
pub(crate) fn in_codes(ty: Expr, codes: &[i64]) -> Expr {
    let mut sorted = codes.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j + 1 < sorted.len() && sorted[j + 1] == sorted[j] + 1 {
            j += 1;
        }
        let (lo, hi) = (sorted[i], sorted[j]);
        parts.push(if lo == hi {
            Expr::binary(BinaryOp::Eq, ty.clone(), Expr::Int(lo))
        } else {
            Expr::binary(
                BinaryOp::And,
                Expr::binary(BinaryOp::Le, Expr::Int(lo), ty.clone()),
                Expr::binary(BinaryOp::Le, ty.clone(), Expr::Int(hi)),
            )
        });
        i = j + 1;
    }
    let mut it = parts.into_iter();
    match it.next() {
        None => Expr::Bool(false),
        Some(first) => it.fold(first, |a, b| Expr::binary(BinaryOp::Or, a, b)),
    }
}

/// `obj.%type` is no code of `1..=n` (an object the program did not allocate).
pub(crate) fn uncoded(ty: Expr, n: i64) -> Expr {
    Expr::binary(
        BinaryOp::Or,
        Expr::binary(BinaryOp::Lt, ty.clone(), Expr::Int(1)),
        Expr::binary(BinaryOp::Gt, ty, Expr::Int(n)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(src: &str) -> cfp_syntax::ast::CompilationUnit {
        let p = cfp_syntax::parse_program(src);
        assert!(!p.has_errors(), "{:?}", p.diagnostics);
        p.tree
    }

    #[test]
    fn subclasses_have_consecutive_codes_and_catch_questions_are_decided() {
        let unit = table(
            "class A {} class E1 extends IllegalStateException {} class B extends A {} \
             class C extends B {} class D extends A {} class U extends SomeLibraryThing {}",
        );
        let t = ClassTable::new(&unit);
        let outside: BTreeSet<String> = ["IOException".to_owned(), "Weird".to_owned()].into();
        let u = TypeUniverse::new(&t, &outside);
        let code = |n: &str| {
            t.class_by_name(n)
                .and_then(|c| u.class_code(c))
                .or_else(|| u.external_code(n))
                .unwrap_or(0)
        };
        // A, B, C, D in preorder: consecutive.
        assert_eq!([code("A"), code("B"), code("C"), code("D")], [1, 2, 3, 4]);
        let a = t.class_by_name("A").map(Type::Class).unwrap();
        let p = u.partition(&t, &a, false);
        assert_eq!(p.yes, [1, 2, 3, 4]);
        assert!(p.unknown.is_empty());
        let rte = Type::External("RuntimeException".into());
        assert_eq!(u.relation(&t, code("E1"), &rte), Tri::Yes);
        assert_eq!(u.relation(&t, code("IOException"), &rte), Tri::No);
        assert_eq!(u.relation(&t, code("NullPointerException"), &rte), Tri::Yes);
        assert_eq!(u.relation(&t, code("Weird"), &rte), Tri::Unknown);
        assert_eq!(u.relation(&t, code("U"), &rte), Tri::Unknown);
        assert_eq!(u.relation(&t, code("A"), &rte), Tri::No);
        let thr = Type::External("Throwable".into());
        assert_eq!(u.relation(&t, code("IOException"), &thr), Tri::Yes);
        assert_eq!(
            in_codes(Expr::Int(0), &[4, 1, 2, 3, 7]).to_owned(),
            Expr::binary(
                BinaryOp::Or,
                Expr::binary(
                    BinaryOp::And,
                    Expr::binary(BinaryOp::Le, Expr::Int(1), Expr::Int(0)),
                    Expr::binary(BinaryOp::Le, Expr::Int(0), Expr::Int(4)),
                ),
                Expr::binary(BinaryOp::Eq, Expr::Int(0), Expr::Int(7)),
            )
        );
    }
}
