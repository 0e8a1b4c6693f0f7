//! Class names as javac resolves them, for a tree of files read as one program.
//!
//! The checker's program has one flat namespace of class names. A source tree has
//! packages, nested classes and imports: two classes `Builder` nested in different
//! classes, two classes `Lock` in different packages, and a program class `SystemClock`
//! beside the library's `android.os.SystemClock` are different classes. This pass gives
//! every class of the tree its *program name* and writes it wherever a name resolves to
//! that class:
//!
//! - a class keeps its simple name when no other class of the tree has it and no
//!   reference of the tree resolves to a library class of that name;
//! - otherwise each class of that simple name is known by the shortest tail of its
//!   qualified name, joined by `$`, that tells them apart (`Request$Builder` and
//!   `Response$Builder`; `app$Lock` and `concurrent$Lock`), like the JVM's names of
//!   nested classes.
//!
//! A simple name is looked up in javac's order: type variables and local classes (left
//! to the desugaring), the enclosing classes and their member classes (inherited ones
//! too), the file's own classes and single-type imports, its package, on-demand imports
//! and `java.lang`. A qualified name is a class in scope followed by member classes, or a
//! package-qualified name. A name that the tree does not define is a library class, and
//! stays one even when the tree has a class of that simple name elsewhere, with one
//! exception: a class of the default package stands for the library class whose qualified
//! name ends with its own (a model of it: `PowerManager.WakeLock` for
//! `android.os.PowerManager.WakeLock`). A name no rule finds (code written for a flat
//! namespace) is the one class of the tree with that simple name, if there is exactly
//! one. In expressions, a variable in scope wins over a class (`lock.lock()`), and an
//! unqualified member that only a static import provides is qualified with its class.
//! Files the tool wrote (library models, harnesses) already use the program's names.

mod index;
mod rewrite;

use crate::ast::CompilationUnit;
use crate::diagnostic::Diagnostic;
use index::Index;
use rewrite::Rewriter;
use std::collections::BTreeMap;

/// Resolve the class names of `units` (one per file, named `file_names`; `generated`
/// tells the files the tool wrote) and write the program's names (see the module docs).
/// Two classes of the same qualified name are an error at the second, naming both files.
pub fn resolve(
    units: &mut [CompilationUnit],
    generated: &[bool],
    file_names: &[&str],
) -> Vec<Diagnostic> {
    let mut ix = Index::build(units, generated);
    ix.resolve_supers();
    for apply in [false, true] {
        if apply {
            let diags = assign_names(&mut ix, file_names);
            if !diags.is_empty() {
                return diags;
            }
        }
        for (f, unit) in units.iter_mut().enumerate() {
            let mut walk = Rewriter::new(&mut ix, f, apply);
            for c in &mut unit.classes {
                walk.class(c);
            }
        }
    }
    Vec::new()
}

/// Give every class its program name (see the module docs).
fn assign_names(ix: &mut Index, file_names: &[&str]) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let groups: Vec<(String, Vec<usize>)> = ix
        .by_simple
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    for (simple, ids) in groups {
        let library = ix.library_names.contains(&simple);
        if ids.len() == 1 && !library {
            continue;
        }
        let segments: Vec<Vec<String>> = ids.iter().map(|&c| ix.classes[c].segments()).collect();
        let mut first_of: BTreeMap<&[String], usize> = BTreeMap::new();
        for (i, s) in segments.iter().enumerate() {
            if let Some(&j) = first_of.get(s.as_slice()) {
                diags.push(duplicate(ix, ids[j], ids[i], file_names));
            } else {
                first_of.insert(s, i);
            }
        }
        let longest = segments.iter().map(Vec::len).max().unwrap_or(1);
        let tail = |s: &[String], k: usize| s[s.len().saturating_sub(k)..].join("$");
        let k = (2..=longest)
            .find(|&k| {
                let names: std::collections::BTreeSet<String> =
                    segments.iter().map(|s| tail(s, k)).collect();
                names.len() == first_of.len() && !names.contains(&simple)
            })
            .unwrap_or(longest.max(2));
        for (&c, s) in ids.iter().zip(&segments) {
            ix.classes[c].program = tail(s, k);
        }
    }
    ix.by_program = ix
        .classes
        .iter()
        .enumerate()
        .map(|(i, c)| (c.program.clone(), i))
        .collect();
    diags
}

fn duplicate(ix: &Index, first: usize, second: usize, file_names: &[&str]) -> Diagnostic {
    let (a, b) = (&ix.classes[first], &ix.classes[second]);
    let file = |c: &index::ClassEntry| file_names.get(c.file).copied().unwrap_or("?");
    Diagnostic::error(
        "duplicate-class-in-tree",
        b.span,
        format!(
            "class `{}` is defined both in `{}` and in `{}`: leave one of the two files out",
            b.qualified(),
            file(a),
            file(b),
        ),
    )
}

/// The simple name of the class known by `program` (its last `$`-separated part:
/// `Builder` of `Request$Builder`).
pub fn simple_name(program: &str) -> &str {
    program.rsplit('$').next().unwrap_or(program)
}

/// True when `written` — a simple name, `Outer.Inner` or a qualified name, as a user
/// writes it in a spec or an option — can denote the class known by `program`: the
/// same name, its simple name, or a qualified name whose tail is the program name.
pub fn names_class(written: &str, program: &str) -> bool {
    if written == program || (!written.contains('.') && simple_name(program) == written) {
        return true;
    }
    let joined = written.replace('.', "$");
    joined == program
        || joined
            .strip_suffix(program)
            .is_some_and(|head| head.ends_with('$'))
}

#[cfg(test)]
mod tests;
