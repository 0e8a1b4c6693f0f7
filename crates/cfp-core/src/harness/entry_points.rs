//! Where a check of a program can start, for a front end that offers the choice: whether
//! it has a `main`, its methods, and the generated driver that fits it.

use super::{Classes, HarnessKind};
use cfp_syntax::ast::{CompilationUnit, Member};

/// A program's possible starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EntryPoints {
    /// Some class has a `static void main(…)` (the default entry).
    pub has_main: bool,
    /// Its methods with a body, as `Class.name` (nested classes by their own name), in
    /// source order, each once.
    pub methods: Vec<String>,
    /// The harness that fits: `android-activity` when a class extends an Android
    /// activity, else `public-methods`.
    pub harness: HarnessKind,
}

/// The starts `unit` offers; `text` is the text its spans point into.
pub fn entry_points(unit: &CompilationUnit, text: &str) -> EntryPoints {
    let program = Classes::of(unit, text);
    let mut out = EntryPoints::default();
    for c in &program.classes {
        for m in &c.members {
            let Member::Method(md) = m else { continue };
            if md.body.is_none() {
                continue;
            }
            if md.name.name == "main" && md.modifiers.is_static {
                out.has_main = true;
            }
            let name = format!("{}.{}", c.name.name, md.name.name);
            if !out.methods.contains(&name) {
                out.methods.push(name);
            }
        }
    }
    out.harness = if program
        .classes
        .iter()
        .any(|c| !c.is_interface && !c.modifiers.is_abstract && program.is_activity(c))
    {
        HarnessKind::AndroidActivity
    } else {
        HarnessKind::PublicMethods
    };
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn points(src: &str) -> EntryPoints {
        let unit = cfp_syntax::parse_sources(&cfp_syntax::SourceSet::single("", src));
        entry_points(&unit.tree, src)
    }

    #[test]
    fn a_class_without_main_offers_its_methods_and_public_methods() {
        let p = points("class Account { void deposit(int n) { } int balance() { return 0; } }");
        assert!(!p.has_main);
        assert_eq!(p.methods, ["Account.deposit", "Account.balance"]);
        assert_eq!(p.harness, HarnessKind::PublicMethods);
    }

    #[test]
    fn an_activity_offers_the_lifecycle_and_main_is_seen() {
        let p = points(
            "class Player extends AppCompatActivity { void onStart() { } }\n\
             class Main { public static void main(String[] a) { } }",
        );
        assert!(p.has_main);
        assert_eq!(p.harness, HarnessKind::AndroidActivity);
    }
}
