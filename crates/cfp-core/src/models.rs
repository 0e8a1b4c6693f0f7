//! Built-in library models (`cfp models`): the APIs' own classes written in the program
//! language, added to a program that uses them without defining them, so that
//! `rw.writeLock()` returns the same lock every time and `wakeLock.isHeld()` follows
//! `acquire()`/`release()`. The texts are `tests/models/*.java`, compiled in.
//!
//! A model is used when the program mentions one of its classes and defines none of them
//! (a program's own model, or a `--models` folder, wins). Its classes extend
//! `CfpLibraryModel`, a class outside every program: their methods the model does not
//! write are external (arbitrary results, no effect).

use cfp_syntax::ast::{ClassDecl, CompilationUnit, Member};
use cfp_syntax::lexer::{lex, TokenKind};
use std::collections::BTreeSet;

/// The superclass of every model class: a class outside every program.
pub const MODEL_BASE: &str = "CfpLibraryModel";

/// One built-in model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuiltinModel {
    /// Its name (`cfp models NAME`).
    pub name: &'static str,
    /// The classes it defines (nested ones included).
    pub classes: &'static [&'static str],
    /// The names whose mention makes a program need it (none: its classes).
    pub triggers: &'static [&'static str],
    /// Its text.
    pub text: &'static str,
}

/// The built-in models, in the order `cfp models` lists them.
pub const BUILTIN_MODELS: &[BuiltinModel] = &[
    BuiltinModel {
        name: "reentrant-lock",
        classes: &["Lock", "ReentrantLock"],
        triggers: &["tryLock", "lockInterruptibly"],
        text: include_str!("../../../tests/models/reentrant-lock.java"),
    },
    BuiltinModel {
        name: "rwlock",
        classes: &["ReadWriteLock", "ReentrantReadWriteLock"],
        triggers: &[],
        text: include_str!("../../../tests/models/rwlock.java"),
    },
    BuiltinModel {
        name: "power-manager",
        classes: &["PowerManager", "WakeLock"],
        triggers: &[],
        text: include_str!("../../../tests/models/power-manager.java"),
    },
    BuiltinModel {
        name: "jackson-provider",
        classes: &["SerializerProvider"],
        triggers: &["defaultSerializeField", "defaultSerializeValue"],
        text: include_str!("../../../tests/models/jackson-provider.java"),
    },
    BuiltinModel {
        name: "wifi-manager",
        classes: &["WifiManager", "WifiLock"],
        triggers: &[],
        text: include_str!("../../../tests/models/wifi-manager.java"),
    },
];

/// The built-in model called `name`.
pub fn builtin_model(name: &str) -> Option<&'static BuiltinModel> {
    BUILTIN_MODELS.iter().find(|m| m.name == name)
}

/// The models a program needs: those with a trigger (by default, a class) the program's
/// text mentions and no class the program defines. `text` is the text `unit`'s spans point into.
pub fn models_for(unit: &CompilationUnit, text: &str) -> Vec<&'static BuiltinModel> {
    let mut defined: BTreeSet<&str> = BTreeSet::new();
    for c in &unit.classes {
        class_names(c, &mut defined);
    }
    let mentioned: BTreeSet<&str> = lex(text)
        .tokens
        .iter()
        .filter(|t| t.kind == TokenKind::Ident)
        .filter_map(|t| text.get(t.span.start as usize..t.span.end as usize))
        .collect();
    BUILTIN_MODELS
        .iter()
        .filter(|m| {
            let triggers = if m.triggers.is_empty() {
                m.classes
            } else {
                m.triggers
            };
            triggers.iter().any(|c| mentioned.contains(c))
                && !m.classes.iter().any(|c| defined.contains(c))
        })
        .collect()
}

fn class_names<'a>(c: &'a ClassDecl, out: &mut BTreeSet<&'a str>) {
    out.insert(cfp_syntax::resolve::simple_name(&c.name.name));
    for m in &c.members {
        if let Member::Class(inner) = m {
            class_names(inner, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_model_parses_and_lists_its_classes() {
        for m in BUILTIN_MODELS {
            let p = cfp_syntax::parse_program(m.text);
            assert!(p.diagnostics.is_empty(), "{}: {:?}", m.name, p.diagnostics);
            let mut names = BTreeSet::new();
            for c in &p.tree.classes {
                class_names(c, &mut names);
            }
            let listed: BTreeSet<&str> = m.classes.iter().copied().collect();
            assert_eq!(names, listed, "{}", m.name);
        }
    }

    #[test]
    fn a_model_is_used_when_mentioned_and_not_defined() {
        let uses = "class A { void m(ReentrantReadWriteLock rw) { rw.writeLock().lock(); } }";
        let unit = cfp_syntax::parse_program(uses).tree;
        let names: Vec<&str> = models_for(&unit, uses).iter().map(|m| m.name).collect();
        assert_eq!(names, ["rwlock"]);
        let own = "class WakeLock { void acquire() {} } class A { PowerManager pm; }";
        let unit = cfp_syntax::parse_program(own).tree;
        assert!(
            models_for(&unit, own).is_empty(),
            "the program's own model wins"
        );
        let none = "class A { int x; }";
        let unit = cfp_syntax::parse_program(none).tree;
        assert!(models_for(&unit, none).is_empty());
    }
}
