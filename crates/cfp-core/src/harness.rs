//! Entry points for code without a `main` (`cfp check --harness …`): a generated driver
//! class, written in the program language and added to the program as one more file
//! (`<harness:android-activity>`), so that it is lowered, instrumented, sliced and shown
//! (`cfp cfa`) like any other code, and its steps appear as trace lines.
//!
//! * [`HarnessKind::AndroidActivity`]: for each class extending an Android activity
//!   (a superclass outside the program whose name ends in `Activity`, directly or through
//!   classes of the program), a driver walks the documented lifecycle: `onCreate`, then
//!   any number of rounds of `onStart`, `onResume`, (`onPause`, `onResume`)*, `onPause`,
//!   `onStop`, `onRestart`, ending with `onDestroy`, and the process may be killed after
//!   any `onPause` or `onStop` (the execution then ends there: its calls must form a
//!   complete word of the protocol). Only the callbacks the class (or a superclass in
//!   the program) defines are called.
//! * [`HarnessKind::PublicMethods`]: a most-general client: one instance (from each
//!   constructor of the class, or the default one), then its public methods in any order,
//!   any number of times.
//!
//! Every argument of a callback or method is an arbitrary value, fresh at each call
//! (the result of a call to a class outside the program).

use cfp_syntax::ast::{ClassDecl, CompilationUnit, Member, MethodDecl, Param, TypeKind};
use std::fmt::Write as _;

/// Which driver to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HarnessKind {
    /// The Android activity lifecycle.
    AndroidActivity,
    /// Public methods in any order on one instance.
    PublicMethods,
}

impl HarnessKind {
    /// The name used on the command line and in the harness file's name.
    pub fn name(self) -> &'static str {
        match self {
            HarnessKind::AndroidActivity => "android-activity",
            HarnessKind::PublicMethods => "public-methods",
        }
    }

    /// The kind named `name` (`android-activity`, `public-methods`).
    pub fn from_name(name: &str) -> Option<HarnessKind> {
        [HarnessKind::AndroidActivity, HarnessKind::PublicMethods]
            .into_iter()
            .find(|k| k.name() == name)
    }
}

/// A harness request: the kind, and the classes to drive (none: every class that fits).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HarnessRequest {
    /// Which driver.
    pub kind: HarnessKind,
    /// The classes to drive, by simple name; empty: every activity (android-activity) or
    /// every public class with a public method (public-methods).
    pub classes: Vec<String>,
}

/// A generated driver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Harness {
    /// The file's name in messages and traces (`<harness:android-activity>`).
    pub file_name: String,
    /// Its text (program language).
    pub text: String,
    /// The entry method (`CfpHarness.main`).
    pub entry: String,
    /// The classes it drives.
    pub driven: Vec<String>,
}

/// Why no harness could be generated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HarnessError {
    /// No class fits the harness.
    #[error("the harness `{kind}` found no class to drive: {what}")]
    NothingToDrive {
        /// The harness's name.
        kind: &'static str,
        /// What it looked for.
        what: String,
    },
    /// A named class is not in the program.
    #[error(
        "the harness `{kind}` was asked to drive `{class}`, which the program does not define"
    )]
    NoSuchClass {
        /// The harness's name.
        kind: &'static str,
        /// The class asked for.
        class: String,
    },
}

/// The lifecycle callbacks, in the order of the documentation.
const CALLBACKS: [&str; 7] = [
    "onCreate",
    "onStart",
    "onResume",
    "onPause",
    "onStop",
    "onRestart",
    "onDestroy",
];

/// Generate the driver of `req` for `unit`; `text` is the text its spans point into (the
/// types of parameters are copied from it).
pub fn generate(
    unit: &CompilationUnit,
    text: &str,
    req: &HarnessRequest,
) -> Result<Harness, HarnessError> {
    let mut classes: Vec<&ClassDecl> = Vec::new();
    for c in &unit.classes {
        flatten(c, &mut classes);
    }
    let program = Classes { classes, text };
    let kind = req.kind.name();
    let wanted: Vec<&ClassDecl> = if req.classes.is_empty() {
        let fits: Vec<&ClassDecl> = program
            .classes
            .iter()
            .copied()
            .filter(|c| !c.is_interface && !c.modifiers.is_abstract)
            .filter(|c| match req.kind {
                HarnessKind::AndroidActivity => program.is_activity(c),
                HarnessKind::PublicMethods => {
                    c.modifiers.is_public && !program.public_methods(c).is_empty()
                }
            })
            .collect();
        if fits.is_empty() {
            return Err(HarnessError::NothingToDrive {
                kind,
                what: match req.kind {
                    HarnessKind::AndroidActivity => "no class extends an Android activity (a \
                        superclass outside the program named `…Activity`); name one with \
                        --harness-class"
                        .to_owned(),
                    HarnessKind::PublicMethods => "no public class has a public method; name \
                        one with --harness-class"
                        .to_owned(),
                },
            });
        }
        fits
    } else {
        req.classes
            .iter()
            .map(|name| {
                program.find(name).ok_or_else(|| HarnessError::NoSuchClass {
                    kind,
                    class: name.clone(),
                })
            })
            .collect::<Result<_, _>>()?
    };
    let taken = |n: &str| program.find(n).is_some();
    let driver = fresh_name("CfpHarness", &taken);
    let any = fresh_name("CfpAny", &taken);
    let mut g = Gen {
        out: String::new(),
        any,
        program: &program,
    };
    let _ = writeln!(
        g.out,
        "// Generated by `--harness {kind}`: the driver of {}.",
        wanted
            .iter()
            .map(|c| format!("`{}`", c.name.name))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(g.out, "class {driver} {{");
    let _ = writeln!(g.out, "    public static void main(String[] args) {{");
    let drivers: Vec<String> = wanted
        .iter()
        .map(|c| format!("drive{}", c.name.name.replace('$', "_")))
        .collect();
    for (i, d) in drivers.iter().enumerate() {
        if i + 1 < drivers.len() {
            let _ = writeln!(g.out, "        if (*) {{ {d}(); return; }}");
        } else {
            let _ = writeln!(g.out, "        {d}();");
        }
    }
    let _ = writeln!(g.out, "    }}");
    for (c, d) in wanted.iter().zip(&drivers) {
        let _ = writeln!(g.out);
        match req.kind {
            HarnessKind::AndroidActivity => g.activity(c, d),
            HarnessKind::PublicMethods => g.client(c, d),
        }
    }
    let _ = writeln!(g.out, "}}");
    Ok(Harness {
        file_name: format!("<harness:{kind}>"),
        text: g.out,
        entry: format!("{driver}.main"),
        driven: wanted.iter().map(|c| c.name.name.clone()).collect(),
    })
}

/// `base`, or `base2`, `base3`, … when the program has a class of that name.
fn fresh_name(base: &str, taken: &dyn Fn(&str) -> bool) -> String {
    let mut name = base.to_owned();
    let mut k = 2;
    while taken(&name) {
        name = format!("{base}{k}");
        k += 1;
    }
    name
}

fn flatten<'a>(c: &'a ClassDecl, out: &mut Vec<&'a ClassDecl>) {
    out.push(c);
    for m in &c.members {
        if let Member::Class(inner) = m {
            flatten(inner, out);
        }
    }
}

/// The program's classes (nested ones flattened) and their text.
struct Classes<'a> {
    classes: Vec<&'a ClassDecl>,
    text: &'a str,
}

impl<'a> Classes<'a> {
    fn find(&self, name: &str) -> Option<&'a ClassDecl> {
        self.classes.iter().copied().find(|c| c.name.name == name)
    }

    /// `c` and its superclasses in the program, nearest first (cycles cut).
    fn chain(&self, c: &'a ClassDecl) -> Vec<&'a ClassDecl> {
        let mut out = vec![c];
        let mut cur = c;
        while let Some(TypeKind::Named { name, .. }) = cur.extends.as_ref().map(|t| &t.kind) {
            match self.find(name) {
                Some(s) if !out.iter().any(|o| std::ptr::eq(*o, s)) => {
                    out.push(s);
                    cur = s;
                }
                _ => break,
            }
        }
        out
    }

    /// True when the first superclass outside the program is named `…Activity`.
    fn is_activity(&self, c: &'a ClassDecl) -> bool {
        let chain = self.chain(c);
        let last = chain.last().copied().unwrap_or(c);
        match last.extends.as_ref().map(|t| &t.kind) {
            Some(TypeKind::Named { name, .. }) => {
                self.find(name).is_none() && name.ends_with("Activity")
            }
            _ => false,
        }
    }

    /// The instance method `name` with a body that `c` has (its own or inherited from a
    /// class of the program).
    fn method(&self, c: &'a ClassDecl, name: &str) -> Option<&'a MethodDecl> {
        self.chain(c).into_iter().find_map(|k| {
            k.members.iter().find_map(|m| match m {
                Member::Method(md)
                    if md.name.name == name && md.body.is_some() && !md.modifiers.is_static =>
                {
                    Some(md)
                }
                _ => None,
            })
        })
    }

    /// The public instance methods with a body of `c` (its own first, then inherited
    /// ones it does not override), in source order.
    fn public_methods(&self, c: &'a ClassDecl) -> Vec<&'a MethodDecl> {
        let mut out: Vec<&MethodDecl> = Vec::new();
        for k in self.chain(c) {
            for m in &k.members {
                if let Member::Method(md) = m {
                    let overridden = out
                        .iter()
                        .any(|o| o.name.name == md.name.name && o.params.len() == md.params.len());
                    if md.modifiers.is_public
                        && !md.modifiers.is_static
                        && md.body.is_some()
                        && !overridden
                    {
                        out.push(md);
                    }
                }
            }
        }
        out
    }

    fn type_text(&self, p: &Param) -> &'a str {
        self.text
            .get(p.ty.span.start as usize..p.ty.span.end as usize)
            .unwrap_or("Object")
    }
}

/// The driver being written.
struct Gen<'a> {
    out: String,
    /// The class outside the program whose calls give arbitrary values.
    any: String,
    program: &'a Classes<'a>,
}

impl Gen<'_> {
    /// `recv.name(args);` with fresh arbitrary arguments declared first, and a comment.
    fn call(&mut self, indent: &str, recv: &str, m: &MethodDecl, comment: &str) {
        let mut args = Vec::new();
        for (i, p) in m.params.iter().enumerate() {
            let v = format!("{}Arg{i}", m.name.name);
            let ty = self.program.type_text(p);
            let _ = writeln!(self.out, "{indent}{ty} {v} = {}.value();", self.any);
            args.push(v);
        }
        let _ = writeln!(
            self.out,
            "{indent}{recv}.{}({}); // {comment}",
            m.name.name,
            args.join(", ")
        );
    }

    fn callback(&mut self, indent: &str, c: &ClassDecl, name: &str, comment: &str) {
        if let Some(m) = self.program.method(c, name) {
            self.call(indent, "activity", m, comment);
        }
    }

    fn activity(&mut self, c: &ClassDecl, driver: &str) {
        let name = &c.name.name;
        let has = |n: &str| self.program.method(c, n).is_some();
        let defined: Vec<&str> = CALLBACKS.iter().copied().filter(|n| has(n)).collect();
        let _ = writeln!(
            self.out,
            "    // The lifecycle of `{name}` (callbacks it defines: {}).",
            if defined.is_empty() {
                "none".to_owned()
            } else {
                defined.join(", ")
            }
        );
        let _ = writeln!(self.out, "    static void {driver}() {{");
        let _ = writeln!(
            self.out,
            "        {name} activity = new {name}(); // lifecycle: the system creates the activity"
        );
        self.callback("        ", c, "onCreate", "lifecycle: onCreate");
        let _ = writeln!(self.out, "        while (true) {{");
        let i3 = "            ";
        self.callback(i3, c, "onStart", "lifecycle: onStart");
        self.callback(i3, c, "onResume", "lifecycle: onResume");
        self.callback(i3, c, "onPause", "lifecycle: onPause");
        let _ = writeln!(self.out, "{i3}while (*) {{");
        self.callback(
            "                ",
            c,
            "onResume",
            "lifecycle: back to the foreground, onResume",
        );
        self.callback("                ", c, "onPause", "lifecycle: onPause");
        let _ = writeln!(self.out, "{i3}}}");
        let _ = writeln!(
            self.out,
            "{i3}if ({}.choice()) {{ return; }} // lifecycle: after onPause, the process is killed",
            self.any
        );
        self.callback(i3, c, "onStop", "lifecycle: onStop");
        let _ = writeln!(
            self.out,
            "{i3}if ({}.choice()) {{ return; }} // lifecycle: after onStop, the process is killed",
            self.any
        );
        let _ = writeln!(self.out, "{i3}if (*) {{");
        self.callback("                ", c, "onDestroy", "lifecycle: onDestroy");
        let _ = writeln!(
            self.out,
            "                return; // lifecycle: the activity is finished"
        );
        let _ = writeln!(self.out, "{i3}}}");
        self.callback(i3, c, "onRestart", "lifecycle: onRestart");
        let _ = writeln!(self.out, "        }}");
        let _ = writeln!(self.out, "    }}");
    }

    fn client(&mut self, c: &ClassDecl, driver: &str) {
        let name = &c.name.name;
        let methods = self.program.public_methods(c);
        let ctors: Vec<&cfp_syntax::ast::ConstructorDecl> = c
            .members
            .iter()
            .filter_map(|m| match m {
                Member::Constructor(k) => Some(k),
                _ => None,
            })
            .collect();
        let _ = writeln!(
            self.out,
            "    // A client of `{name}`: one instance, then its public methods in any order."
        );
        let _ = writeln!(self.out, "    static void {driver}() {{");
        let _ = writeln!(self.out, "        {name} object;");
        if ctors.is_empty() {
            let _ = writeln!(
                self.out,
                "        object = new {name}(); // client: new {name}()"
            );
        } else {
            for (i, k) in ctors.iter().enumerate() {
                let open = if i == 0 {
                    "        ".to_owned()
                } else {
                    "        } else ".to_owned()
                };
                let last = i + 1 == ctors.len();
                let _ = if last {
                    writeln!(self.out, "{open}{{")
                } else {
                    writeln!(self.out, "{open}if (*) {{")
                };
                let mut args = Vec::new();
                for (j, p) in k.params.iter().enumerate() {
                    let v = format!("newArg{i}x{j}");
                    let ty = self.program.type_text(p);
                    let _ = writeln!(self.out, "            {ty} {v} = {}.value();", self.any);
                    args.push(v);
                }
                let _ = writeln!(
                    self.out,
                    "            object = new {name}({}); // client: new {name}(…)",
                    args.join(", ")
                );
            }
            let _ = writeln!(self.out, "        }}");
        }
        let _ = writeln!(self.out, "        while (*) {{");
        for (i, m) in methods.iter().enumerate() {
            let head = match (i, i + 1 == methods.len()) {
                (0, true) => "            {".to_owned(),
                (0, false) => "            if (*) {".to_owned(),
                (_, true) => "            } else {".to_owned(),
                (_, false) => "            } else if (*) {".to_owned(),
            };
            let _ = writeln!(self.out, "{head}");
            let comment = format!("client: calls {}", m.name.name);
            self.call("                ", "object", m, &comment);
        }
        if !methods.is_empty() {
            let _ = writeln!(self.out, "            }}");
        }
        let _ = writeln!(self.out, "        }}");
        let _ = writeln!(self.out, "    }}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gen(src: &str, kind: HarnessKind, classes: &[&str]) -> Result<Harness, HarnessError> {
        let unit = cfp_syntax::parse_program(src).tree;
        let req = HarnessRequest {
            kind,
            classes: classes.iter().map(|s| s.to_string()).collect(),
        };
        generate(&unit, src, &req)
    }

    #[test]
    fn an_activity_gets_its_lifecycle_with_its_own_callbacks() {
        let src = "class Base extends AppCompatActivity { void onPause() {} }\n\
                   class Player extends Base { void onCreate(Bundle b) {} void onStop() {} }\n\
                   class Other {}";
        let h = gen(src, HarnessKind::AndroidActivity, &[]).expect("generated");
        assert_eq!(h.driven, ["Base", "Player"]);
        assert_eq!(h.entry, "CfpHarness.main");
        assert!(
            h.text.contains("Bundle onCreateArg0 = CfpAny.value();"),
            "{}",
            h.text
        );
        let player = &h.text[h.text.find("drivePlayer() {").expect("driver")..];
        assert!(player.contains("activity.onPause(); // lifecycle: onPause"));
        assert!(!player.contains("activity.onResume()"), "{player}");
        // The driver is a program of the language.
        let parsed = cfp_syntax::parse_program(&h.text);
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    }

    #[test]
    fn no_activity_is_an_error_and_names_are_fresh() {
        let e = gen("class A {}", HarnessKind::AndroidActivity, &[]).expect_err("none");
        assert!(e.to_string().contains("--harness-class"), "{e}");
        let e = gen("class A {}", HarnessKind::AndroidActivity, &["B"]).expect_err("none");
        assert!(matches!(e, HarnessError::NoSuchClass { .. }));
        let h = gen(
            "class CfpHarness extends Activity { void onStart() {} }",
            HarnessKind::AndroidActivity,
            &[],
        )
        .expect("generated");
        assert_eq!(h.entry, "CfpHarness2.main");
    }

    #[test]
    fn a_client_calls_public_methods_in_any_order() {
        let src = "public class Pool { Pool(int n) {} Pool() {} \
                   public void take(int k) {} public void give() {} void hidden() {} }";
        let h = gen(src, HarnessKind::PublicMethods, &[]).expect("generated");
        assert!(h
            .text
            .contains("object.take(takeArg0); // client: calls take"));
        assert!(h.text.contains("object.give(); // client: calls give"));
        assert!(!h.text.contains("hidden"));
        let parsed = cfp_syntax::parse_program(&h.text);
        assert!(
            parsed.diagnostics.is_empty(),
            "{:?}\n{}",
            parsed.diagnostics,
            h.text
        );
    }
}
