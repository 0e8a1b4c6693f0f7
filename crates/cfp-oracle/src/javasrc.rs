//! A program of cfp's language as Java sources of one package `pN`: each file of the
//! program (one, or one per `// -- path --` marker) becomes a `.java` file of the package,
//! with a copy of the stubs it needs ([`crate::stubs`]).
//!
//! Every line keeps its number: a file's text is the whole program's text with the
//! lines of the other files left empty, its `package` line becomes `package pN;` (or
//! `package pN; ` is put in front of its first line), imports of stubbed or program
//! classes are dropped or pointed into `pN`, imports from outside the JDK are dropped,
//! and a second `public` top-level class of a file loses its `public` (blanked). So a
//! line the JVM reports is the line cfp reports.
//!
//! A program's own class named like a wildcard's type (its own model of the API, e.g. a
//! `WakeLock` class) records its calls like a stub: each of its instance methods starts
//! with `cfporacle.Rt.event(this, "m", args…);` (inserted on the line of the method's `{`).
//!
//! A `native` method is library code in cfp's model (an arbitrary result, no effect on
//! the program, it may throw like any library call); the JVM has no code for it, so its
//! declaration gets a body on the same line that does just that
//! (`static int f() { return (int) cfporacle.Rt.nativeInt(); }`).

use crate::protocol::Protocol;
use crate::stubs::{self, Stub, NESTED};
use cfp_syntax::ast::{ClassDecl, Member, TypeKind};
use cfp_syntax::lexer::{lex_from, Keyword, Token, TokenKind};
use cfp_syntax::SourceSet;
use std::collections::{BTreeMap, BTreeSet};

/// A span's first byte offset.
fn lo(s: cfp_syntax::Span) -> usize {
    s.start as usize
}

/// A span's end byte offset.
fn hi(s: cfp_syntax::Span) -> usize {
    s.end as usize
}

/// One `.java` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JavaFile {
    /// Its file name (`Main.java`).
    pub name: String,
    /// Its text.
    pub text: String,
}

/// A program as Java sources.
#[derive(Clone, Debug)]
pub struct JavaProgram {
    /// The package (`p17`).
    pub package: String,
    /// The program's files, then the stubs'.
    pub files: Vec<JavaFile>,
    /// The stubs copied in (their top-level class names).
    pub stubs: Vec<String>,
    /// The class to start from: its binary name inside the package (`Main`, `Outer$Inner`).
    pub class: String,
    /// `main`, or the entry method's name.
    pub method: String,
    /// The program's classes that record their calls (named like a wildcard's type).
    pub instrumented: Vec<String>,
}

/// Why a program cannot be made into Java sources.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JavaSrcError {
    /// There is no `main` and no `// entry:`.
    #[error("no `main` method (and no `// entry:`)")]
    NoMain,
    /// The `// entry:` names no class of the program.
    #[error("entry `{0}`: no such class in the program")]
    NoEntryClass(String),
}

/// Edits of one file: byte offset → (end, replacement).
type Edits = BTreeMap<usize, (usize, String)>;

fn token_text<'a>(text: &'a str, t: &Token) -> &'a str {
    text.get(lo(t.span)..hi(t.span)).unwrap_or("")
}

/// The newlines of `s` (a replacement keeps the lines of what it replaces).
fn newlines(s: &str) -> String {
    s.chars().filter(|c| *c == '\n').collect()
}

/// All classes of the program (nested ones too) with their binary names.
fn binary_names(classes: &[ClassDecl], prefix: &str, out: &mut Vec<(String, String)>) {
    for c in classes {
        let binary = if prefix.is_empty() {
            c.name.name.clone()
        } else {
            format!("{prefix}${}", c.name.name)
        };
        out.push((c.name.name.clone(), binary.clone()));
        let nested: Vec<ClassDecl> = c
            .members
            .iter()
            .filter_map(|m| match m {
                Member::Class(k) => Some(k.clone()),
                _ => None,
            })
            .collect();
        binary_names(&nested, &binary, out);
    }
}

fn has_main(c: &ClassDecl) -> bool {
    c.members.iter().any(|m| {
        matches!(m, Member::Method(m) if m.name.name == "main" && m.modifiers.is_static && m.params.len() == 1 && m.body.is_some())
    })
}

fn find_main(classes: &[ClassDecl], prefix: &str) -> Option<String> {
    for c in classes {
        let binary = if prefix.is_empty() {
            c.name.name.clone()
        } else {
            format!("{prefix}${}", c.name.name)
        };
        if has_main(c) {
            return Some(binary);
        }
        let nested: Vec<ClassDecl> = c
            .members
            .iter()
            .filter_map(|m| match m {
                Member::Class(k) => Some(k.clone()),
                _ => None,
            })
            .collect();
        if let Some(b) = find_main(&nested, &binary) {
            return Some(b);
        }
    }
    None
}

/// What to do with one `import` line.
fn import_edit(
    path: &[&str],
    is_static: bool,
    package: &str,
    stubbed: &BTreeSet<&str>,
    defined_top: &BTreeSet<String>,
) -> Option<String> {
    let st = if is_static { "static " } else { "" };
    for (i, seg) in path.iter().enumerate() {
        let rest = &path[i..];
        if stubbed.contains(seg) || defined_top.contains(*seg) {
            return Some(if rest.len() == 1 && !is_static {
                String::new()
            } else {
                format!("import {st}{package}.{};", rest.join("."))
            });
        }
        if let Some((_, outer)) = NESTED.iter().find(|(inner, _)| inner == seg) {
            if stubbed.contains(outer) {
                return Some(format!("import {st}{package}.{outer}.{};", rest.join(".")));
            }
        }
    }
    let jdk = matches!(path.first(), Some(&("java" | "javax")));
    if jdk {
        None
    } else {
        Some(String::new())
    }
}

/// Make the program `text` (already translated) into Java sources of `package`.
pub fn java_program(
    text: &str,
    package: &str,
    protocol: &Protocol,
    entry: Option<&str>,
) -> Result<JavaProgram, JavaSrcError> {
    let sources = SourceSet::from_marked("", text);
    let parsed = cfp_syntax::parse_sources(&sources);
    let unit = &parsed.tree;
    let mut all = Vec::new();
    binary_names(&unit.classes, "", &mut all);
    let defined: BTreeSet<String> = all.iter().map(|(n, _)| n.clone()).collect();
    let defined_top: BTreeSet<String> = unit.classes.iter().map(|c| c.name.name.clone()).collect();
    let (class, method) = match entry {
        Some(e) => {
            let (c, m) = e.rsplit_once('.').unwrap_or(("", e));
            let simple = c.rsplit('.').next().unwrap_or(c);
            let binary = all
                .iter()
                .find(|(n, _)| n == simple)
                .map(|(_, b)| b.clone())
                .ok_or_else(|| JavaSrcError::NoEntryClass(e.to_string()))?;
            (binary, m.to_string())
        }
        None => (
            find_main(&unit.classes, "").ok_or(JavaSrcError::NoMain)?,
            "main".to_string(),
        ),
    };
    let stub_list: Vec<Stub> = stubs::select(text, &defined);
    let stubbed: BTreeSet<&str> = stub_list.iter().map(|s| s.name).collect();
    let api: BTreeSet<&str> = protocol.api_classes().into_iter().collect();
    let mut files = Vec::new();
    let mut instrumented = Vec::new();
    for (k, f) in sources.files().iter().enumerate() {
        let classes: Vec<&ClassDecl> = unit
            .classes
            .iter()
            .filter(|c| lo(c.span) >= f.start && lo(c.span) < f.end)
            .collect();
        if classes.is_empty() {
            continue;
        }
        let tokens: Vec<Token> = lex_from(text, f.start)
            .tokens
            .into_iter()
            .filter(|t| lo(t.span) < f.end && t.kind != TokenKind::Eof)
            .collect();
        let mut edits = Edits::new();
        let mut has_package = false;
        let mut i = 0;
        while i < tokens.len() {
            let t = &tokens[i];
            let is_package = t.kind == TokenKind::Keyword(Keyword::Package);
            let is_import = t.kind == TokenKind::Keyword(Keyword::Import);
            if !is_package && !is_import {
                i += 1;
                continue;
            }
            let Some(semi) = tokens[i..].iter().position(|x| x.kind == TokenKind::Semi) else {
                break;
            };
            let decl = &tokens[i..i + semi + 1];
            let (start, end) = (lo(t.span), hi(decl[decl.len() - 1].span));
            let nl = newlines(&text[start..end]);
            if is_package {
                has_package = true;
                edits.insert(start, (end, format!("package {package};{nl}")));
            } else {
                let is_static = decl
                    .get(1)
                    .is_some_and(|x| x.kind == TokenKind::Keyword(Keyword::Static));
                let path: Vec<&str> = decl[1..decl.len() - 1]
                    .iter()
                    .filter(|x| matches!(x.kind, TokenKind::Ident | TokenKind::Star))
                    .map(|x| token_text(text, x))
                    .collect();
                if let Some(new) = import_edit(&path, is_static, package, &stubbed, &defined_top) {
                    edits.insert(start, (end, format!("{new}{nl}")));
                }
            }
            i += semi + 1;
        }
        if !has_package {
            let prefix = format!("package {package}; ");
            match edits.get_mut(&f.start) {
                Some((_, new)) => new.insert_str(0, &prefix),
                None => {
                    edits.insert(f.start, (f.start, prefix));
                }
            }
        }
        // One public top-level class per file: the first keeps `public` and names the file.
        let mut public_name: Option<String> = None;
        for c in &classes {
            if !c.modifiers.is_public {
                continue;
            }
            if public_name.is_none() {
                public_name = Some(c.name.name.clone());
                continue;
            }
            for t in tokens
                .iter()
                .filter(|t| lo(t.span) >= lo(c.span) && lo(t.span) < lo(c.name.span))
            {
                if t.kind == TokenKind::Keyword(Keyword::Public) {
                    edits.insert(lo(t.span), (hi(t.span), " ".repeat(t.span.len())));
                }
            }
        }
        for c in &classes {
            instrument(c, &api, &mut edits, &mut instrumented);
            native_bodies(c, text, &tokens, &mut edits);
        }
        let name = match public_name {
            Some(n) => format!("{n}.java"),
            None => format!("Src{k}.java"),
        };
        files.push(JavaFile {
            name,
            text: render(text, f.start, f.end, &edits),
        });
    }
    for s in &stub_list {
        files.push(JavaFile {
            name: format!("{}.java", s.name),
            text: format!("package {package};\n{}", stubs::with_throw_points(s.text)),
        });
    }
    Ok(JavaProgram {
        package: package.to_string(),
        files,
        stubs: stub_list.iter().map(|s| s.name.to_string()).collect(),
        class,
        method,
        instrumented,
    })
}

/// Insert the recording call into each instance method of `c` (and of its nested
/// classes) when `c` is named like a wildcard's type.
fn instrument(c: &ClassDecl, api: &BTreeSet<&str>, edits: &mut Edits, done: &mut Vec<String>) {
    let is_api = api.contains(c.name.name.as_str()) && !c.is_interface;
    for m in &c.members {
        match m {
            Member::Method(m) if is_api && !m.modifiers.is_static => {
                let Some(body) = &m.body else { continue };
                let mut call = format!("cfporacle.Rt.event(this, \"{}\"", m.name.name);
                for p in &m.params {
                    call.push_str(", ");
                    call.push_str(&p.name.name);
                }
                call.push_str(");");
                let at = lo(body.span) + 1;
                edits.insert(at, (at, format!(" {call}")));
            }
            Member::Class(inner) => instrument(inner, api, edits, done),
            _ => {}
        }
    }
    if is_api {
        done.push(c.name.name.clone());
    }
}

/// The body a `native` method of return type `ret` gets: its result drawn from the run's
/// inputs like a library call's, and a throw when cfp's path throws there.
fn native_body(ret: &TypeKind) -> String {
    let value = match ret {
        TypeKind::Void => return " { cfporacle.Rt.nativeVoid(); }".into(),
        TypeKind::Boolean => "cfporacle.Rt.nativeBool()".to_string(),
        TypeKind::Int
        | TypeKind::Long
        | TypeKind::Short
        | TypeKind::Byte
        | TypeKind::Char
        | TypeKind::Float
        | TypeKind::Double => {
            let cast = match ret {
                TypeKind::Int => "int",
                TypeKind::Long => "long",
                TypeKind::Short => "short",
                TypeKind::Byte => "byte",
                TypeKind::Char => "char",
                TypeKind::Float => "float",
                _ => "double",
            };
            format!("({cast}) cfporacle.Rt.nativeInt()")
        }
        TypeKind::Named { name, .. } if name == "Boolean" => {
            "Boolean.valueOf(cfporacle.Rt.nativeBool())".to_string()
        }
        TypeKind::Named { name, .. } if name == "Integer" => {
            "Integer.valueOf(cfporacle.Rt.nativeInt())".to_string()
        }
        TypeKind::Named { name, .. } if name == "Long" => {
            "Long.valueOf(cfporacle.Rt.nativeInt())".to_string()
        }
        TypeKind::Named { name, .. } if name == "String" => {
            "cfporacle.Rt.nativeRef() ? \"s\" : null".to_string()
        }
        // Another object: none the JVM could make up; whether it is null is still drawn.
        _ => "cfporacle.Rt.nativeRef() ? null : null".to_string(),
    };
    format!(" {{ return {value}; }}")
}

/// Give every `native` method of `c` (and of its nested classes) a body: its `native`
/// is blanked and its `;` becomes [`native_body`].
fn native_bodies(c: &ClassDecl, text: &str, tokens: &[Token], edits: &mut Edits) {
    for m in &c.members {
        match m {
            Member::Method(m) if m.modifiers.is_native && m.body.is_none() => {
                let inside: Vec<&Token> = tokens
                    .iter()
                    .filter(|t| lo(t.span) >= lo(m.span) && hi(t.span) <= hi(m.span))
                    .collect();
                let Some(semi) = inside.iter().rev().find(|t| t.kind == TokenKind::Semi) else {
                    continue;
                };
                for t in &inside {
                    if t.kind == TokenKind::Keyword(Keyword::Native) {
                        let blank = " ".repeat(token_text(text, t).len());
                        edits.insert(lo(t.span), (hi(t.span), blank));
                    }
                }
                edits.insert(lo(semi.span), (hi(semi.span), native_body(&m.ret.kind)));
            }
            Member::Class(inner) => native_bodies(inner, text, tokens, edits),
            _ => {}
        }
    }
}

/// `text[start..end]` with `edits` applied, and the rest of `text` as empty lines.
fn render(text: &str, start: usize, end: usize, edits: &Edits) -> String {
    let mut out = String::with_capacity(text.len() + 256);
    out.push_str(&newlines(&text[..start]));
    let mut at = start;
    for (&from, (to, new)) in edits.range(start..=end) {
        if from < at {
            continue;
        }
        out.push_str(&text[at..from]);
        out.push_str(new);
        at = *to;
    }
    out.push_str(&text[at..end]);
    out.push_str(&newlines(&text[end..]));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lock() -> Protocol {
        Protocol::parse(
            "lock",
            "wildcard $1 : ReentrantLock;\nS -> $1.lock() S $1.unlock() S | ε;\n",
        )
        .expect("spec")
    }

    #[test]
    fn one_file_keeps_its_lines_and_gets_the_package() {
        let text = "// spec: lock\nimport java.util.concurrent.locks.ReentrantLock;\nimport java.util.List;\nclass Main {\n  public static void main(String[] a) {\n    ReentrantLock l = new ReentrantLock();\n  }\n}\n";
        let p = java_program(text, "p3", &lock(), None).expect("java");
        assert_eq!(p.class, "Main");
        assert_eq!(p.method, "main");
        assert_eq!(p.stubs, ["Lock", "ReentrantLock"]);
        let main = &p.files[0];
        assert_eq!(main.name, "Src0.java");
        assert!(
            main.text
                .starts_with("package p3; // spec: lock\n\nimport java.util.List;\n"),
            "{}",
            main.text
        );
        assert_eq!(main.text.lines().count(), text.lines().count());
        assert!(p.files[1].text.starts_with("package p3;\n"));
    }

    #[test]
    fn marked_files_are_files_of_the_package_on_their_own_lines() {
        let text = "// spec: wakelock\n// -- a/A.java --\npackage com.a;\nimport android.os.PowerManager;\nimport android.os.PowerManager.WakeLock;\npublic class A {\n  static void main(String[] x) { }\n}\n// -- b/B.java --\npackage com.b;\npublic class B { }\npublic class C { }\n";
        let p = java_program(text, "p1", &lock(), None).expect("java");
        let names: Vec<&str> = p.files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["A.java", "B.java", "PowerManager.java"]);
        let a = &p.files[0].text;
        assert!(
            a.contains("\npackage p1;\n\nimport p1.PowerManager.WakeLock;\npublic class A"),
            "{a}"
        );
        assert!(!a.contains("class B"));
        let b = &p.files[1].text;
        assert_eq!(b.lines().position(|l| l.contains("package p1;")), Some(9));
        assert!(b.contains("public class B { }\n       class C { }"), "{b}");
    }

    #[test]
    fn a_program_model_of_the_api_records_its_calls() {
        let spec = Protocol::parse(
            "wakelock",
            "wildcard $1 : WakeLock;\nS -> $1.acquire() S $1.release() S | ε;\n",
        )
        .expect("spec");
        let text = "class WakeLock {\n  int n;\n  void acquire(long t) { n++; }\n  static void s() { }\n}\nclass Main { public static void main(String[] a) { } }\n";
        let p = java_program(text, "p2", &spec, None).expect("java");
        assert_eq!(p.instrumented, ["WakeLock"]);
        assert!(p.files[0]
            .text
            .contains("void acquire(long t) { cfporacle.Rt.event(this, \"acquire\", t); n++; }"));
        assert!(p.files[0].text.contains("static void s() { }"));
    }

    #[test]
    fn native_methods_get_a_body_on_their_line() {
        let text = "class Main {\n    static native int nat1();\n    native void hook(int x);\n    private static native boolean ok();\n    static native String name();\n    public static void main(String[] a) { }\n}\n";
        let p = java_program(text, "p5", &lock(), None).expect("java");
        let main = &p.files[0].text;
        assert!(
            main.contains("static        int nat1() { return (int) cfporacle.Rt.nativeInt(); }"),
            "{main}"
        );
        assert!(
            main.contains("       void hook(int x) { cfporacle.Rt.nativeVoid(); }"),
            "{main}"
        );
        assert!(
            main.contains("boolean ok() { return cfporacle.Rt.nativeBool(); }"),
            "{main}"
        );
        assert!(
            main.contains("String name() { return cfporacle.Rt.nativeRef() ? \"s\" : null; }"),
            "{main}"
        );
        assert!(!main.contains("native "), "{main}");
        assert_eq!(main.lines().count(), text.lines().count());
    }

    #[test]
    fn entries_and_missing_mains() {
        let text = "class Outer { static class View { void draw(int x) { } } }\n";
        let p = java_program(text, "p4", &lock(), Some("View.draw")).expect("java");
        assert_eq!(
            (p.class.as_str(), p.method.as_str()),
            ("Outer$View", "draw")
        );
        assert_eq!(
            java_program(text, "p4", &lock(), None).err(),
            Some(JavaSrcError::NoMain)
        );
    }
}
