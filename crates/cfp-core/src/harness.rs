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
//! * [`HarnessKind::PublicMethods`]: a most-general client of each class that can be
//!   built without an enclosing instance: one instance (from any of its constructors that
//!   is not private; an abstract class through a subclass of the harness, whose abstract
//!   methods then do nothing), then its public methods (when it has none: those that are
//!   not private; static ones included) in any order, any number of times.
//!
//! Every argument of a callback or method is an arbitrary value, fresh at each call
//! (the result of a call to a class outside the program).

mod entry_points;

pub use entry_points::{entry_points, EntryPoints};

use cfp_syntax::ast::{
    ClassDecl, CompilationUnit, ConstructorDecl, Member, MethodDecl, Param, TypeKind,
};
use std::fmt::Write as _;

/// Which driver to generate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HarnessKind {
    /// The Android activity lifecycle.
    AndroidActivity,
    /// Public methods in any order on one instance.
    #[default]
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
    /// Classes never driven (those of the library models added to the program).
    pub exclude: Vec<String>,
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
    let program = Classes::of(unit, text);
    let kind = req.kind.name();
    let wanted: Vec<&ClassDecl> = if req.classes.is_empty() {
        let fits: Vec<&ClassDecl> = program
            .classes
            .iter()
            .copied()
            .filter(|c| !c.is_interface && !req.exclude.contains(&c.name.name))
            .filter(|c| match req.kind {
                HarnessKind::AndroidActivity => !c.modifiers.is_abstract && program.is_activity(c),
                HarnessKind::PublicMethods => program.drivable(c),
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
                    HarnessKind::PublicMethods => "no class (top-level or static nested) has a \
                        method that is not private"
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
        driver: driver.clone(),
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
    let mut extra = String::new();
    for (c, d) in wanted.iter().zip(&drivers) {
        let _ = writeln!(g.out);
        match req.kind {
            HarnessKind::AndroidActivity => g.activity(c, d),
            HarnessKind::PublicMethods => {
                if let Some(sub) = g.client(c, d) {
                    extra.push_str(&sub);
                }
            }
        }
    }
    let _ = writeln!(g.out, "}}");
    g.out.push_str(&extra);
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

/// `c` and its nested classes, and for each whether it is an inner class (nested, not
/// static, not in an interface: it needs an enclosing instance).
fn flatten<'a>(
    c: &'a ClassDecl,
    outer: Option<&ClassDecl>,
    out: &mut Vec<&'a ClassDecl>,
    inner: &mut Vec<bool>,
) {
    out.push(c);
    inner.push(outer.is_some_and(|o| !o.is_interface) && !c.modifiers.is_static && !c.is_interface);
    for m in &c.members {
        if let Member::Class(nested) = m {
            flatten(nested, Some(c), out, inner);
        }
    }
}

/// The program's classes (nested ones flattened) and their text.
struct Classes<'a> {
    classes: Vec<&'a ClassDecl>,
    /// Parallel to `classes`: inner classes (see [`flatten`]).
    inner: Vec<bool>,
    text: &'a str,
}

impl<'a> Classes<'a> {
    /// The classes of `unit` (nested ones flattened); `text` is what its spans point into.
    fn of(unit: &'a CompilationUnit, text: &'a str) -> Classes<'a> {
        let mut classes: Vec<&ClassDecl> = Vec::new();
        let mut inner: Vec<bool> = Vec::new();
        for c in &unit.classes {
            flatten(c, None, &mut classes, &mut inner);
        }
        Classes {
            classes,
            inner,
            text,
        }
    }

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

    /// True when the `public-methods` harness can drive `c`: a class that needs no
    /// enclosing instance and has methods to call. (When all its constructors are
    /// private, the instance is an arbitrary object of the class: one its own factory made.)
    fn drivable(&self, c: &'a ClassDecl) -> bool {
        let inner = self
            .classes
            .iter()
            .position(|k| std::ptr::eq(*k, c))
            .is_some_and(|i| self.inner[i]);
        !c.is_interface && !inner && !self.client_methods(c).is_empty()
    }

    /// The methods a client of `c` calls, in source order: its public methods with a body
    /// (instance ones, own first and then inherited ones it does not override, and static
    /// ones); when it has none, those that are not private.
    fn client_methods(&self, c: &'a ClassDecl) -> Vec<&'a MethodDecl> {
        let mut all: Vec<&MethodDecl> = Vec::new();
        for (depth, k) in self.chain(c).into_iter().enumerate() {
            for m in &k.members {
                if let Member::Method(md) = m {
                    let overridden = all
                        .iter()
                        .any(|o| o.name.name == md.name.name && o.params.len() == md.params.len());
                    let inherited_static = depth > 0 && md.modifiers.is_static;
                    if md.body.is_some()
                        && !md.modifiers.is_private
                        && !overridden
                        && !inherited_static
                    {
                        all.push(md);
                    }
                }
            }
        }
        let public: Vec<&MethodDecl> = all
            .iter()
            .copied()
            .filter(|m| m.modifiers.is_public)
            .collect();
        if public.is_empty() {
            all
        } else {
            public
        }
    }

    /// The declared type of `p` as a variable's type (`T...` becomes `T[]`).
    fn type_text(&self, p: &Param) -> String {
        let text = self
            .text
            .get(p.ty.span.start as usize..p.ty.span.end as usize)
            .unwrap_or("Object")
            .trim();
        match text.strip_suffix("...") {
            Some(elem) => format!("{}[]", elem.trim_end()),
            None if p.is_varargs => format!("{text}[]"),
            None => text.to_owned(),
        }
    }
}

/// The driver being written.
struct Gen<'a> {
    out: String,
    /// The class outside the program whose calls give arbitrary values.
    any: String,
    /// The driver class's name.
    driver: String,
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

    fn client(&mut self, c: &ClassDecl, driver: &str) -> Option<String> {
        let name = &c.name.name;
        let methods = self.program.client_methods(c);
        let ctors: Vec<&ConstructorDecl> = constructors(c)
            .into_iter()
            .filter(|k| !k.modifiers.is_private)
            .collect();
        let only_private = ctors.is_empty() && !constructors(c).is_empty();
        // An abstract class is driven through a subclass of the harness's own (its
        // abstract methods then have arbitrary results and no effect).
        let (built, subclass) = if c.modifiers.is_abstract && !only_private {
            let sub = format!("{}Of{}", self.driver, name.replace('$', "_"));
            let mut text = format!(
                "\n// A subclass of the abstract `{name}`, for its client.\nclass {sub} extends {name} {{\n"
            );
            for k in &ctors {
                let params: Vec<String> = k
                    .params
                    .iter()
                    .map(|p| format!("{} {}", self.program.type_text(p), p.name.name))
                    .collect();
                let args: Vec<&str> = k.params.iter().map(|p| p.name.name.as_str()).collect();
                let _ = writeln!(
                    text,
                    "    {sub}({}) {{\n        super({});\n    }}",
                    params.join(", "),
                    args.join(", ")
                );
            }
            text.push_str("}\n");
            (sub, Some(text))
        } else {
            (name.clone(), None)
        };
        let _ = writeln!(
            self.out,
            "    // A client of `{name}`: one instance, then its methods in any order."
        );
        let _ = writeln!(self.out, "    static void {driver}() {{");
        let _ = writeln!(self.out, "        {name} object;");
        if only_private {
            let _ = writeln!(
                self.out,
                "        object = {}.value(); // client: an instance the class made itself",
                self.any
            );
        } else if ctors.is_empty() {
            let _ = writeln!(
                self.out,
                "        object = new {built}(); // client: new {name}()"
            );
        } else {
            for (i, k) in ctors.iter().enumerate() {
                let last = i + 1 == ctors.len();
                let head = match (i, last) {
                    (0, true) => "        {",
                    (0, false) => "        if (*) {",
                    (_, true) => "        } else {",
                    (_, false) => "        } else if (*) {",
                };
                let _ = writeln!(self.out, "{head}");
                let mut args = Vec::new();
                for (j, p) in k.params.iter().enumerate() {
                    let v = format!("newArg{i}x{j}");
                    let ty = self.program.type_text(p);
                    let _ = writeln!(self.out, "            {ty} {v} = {}.value();", self.any);
                    args.push(v);
                }
                let _ = writeln!(
                    self.out,
                    "            object = new {built}({}); // client: new {name}(…)",
                    args.join(", ")
                );
            }
            let _ = writeln!(self.out, "        }}");
        }
        let _ = writeln!(self.out, "        while (*) {{");
        for (i, m) in methods.iter().enumerate() {
            let head = match (i, i + 1 == methods.len()) {
                (0, true) => "            {",
                (0, false) => "            if (*) {",
                (_, true) => "            } else {",
                (_, false) => "            } else if (*) {",
            };
            let _ = writeln!(self.out, "{head}");
            let comment = format!("client: calls {}", m.name.name);
            let recv = if m.modifiers.is_static {
                name.clone()
            } else {
                "object".to_owned()
            };
            self.call("                ", &recv, m, &comment);
        }
        if !methods.is_empty() {
            let _ = writeln!(self.out, "            }}");
        }
        let _ = writeln!(self.out, "        }}");
        let _ = writeln!(self.out, "    }}");
        subclass
    }
}

/// The constructors `c` declares.
fn constructors(c: &ClassDecl) -> Vec<&ConstructorDecl> {
    c.members
        .iter()
        .filter_map(|m| match m {
            Member::Constructor(k) => Some(k),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gen(src: &str, kind: HarnessKind, classes: &[&str]) -> Result<Harness, HarnessError> {
        let unit = cfp_syntax::parse_program(src).tree;
        let req = HarnessRequest {
            kind,
            classes: classes.iter().map(|s| s.to_string()).collect(),
            exclude: Vec::new(),
        };
        generate(&unit, src, &req)
    }

    #[test]
    fn a_variable_arity_parameter_gets_an_array() {
        let src = "public class Log { public void write(String tag, Object... parts) {} }";
        let h = gen(src, HarnessKind::PublicMethods, &[]).expect("generated");
        assert!(
            h.text.contains("Object[] writeArg1 = CfpAny.value();"),
            "{}",
            h.text
        );
        let driver = cfp_syntax::parse_program(&h.text);
        assert!(driver.diagnostics.is_empty(), "{:?}", driver.diagnostics);
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
