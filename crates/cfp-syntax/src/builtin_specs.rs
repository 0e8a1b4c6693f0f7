//! The built-in protocols: the API protocols of the paper's Table 1, shipped in the binary
//! and the page, so that `cfp check Prog.java --spec lock` needs no spec file.
//!
//! The texts are the corpus's own spec files (`tests/specs/*.cfg`, compiled in), so the
//! built-ins, the tests and the playground's gallery always agree. `cfp specs` lists them;
//! `cfp specs NAME` prints one (a starting point for a spec of one's own).

use crate::spec_ast::Spec;
use crate::Parsed;

/// One built-in protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuiltinSpec {
    /// The name `--spec` takes (`lock`, `wakelock`, …).
    pub name: &'static str,
    /// The spec text (spec language, ARCHITECTURE.md).
    pub text: &'static str,
}

/// The built-in protocols, in the order `cfp specs` lists them.
pub const BUILTIN_SPECS: &[BuiltinSpec] = &[
    BuiltinSpec {
        name: "lock",
        text: include_str!("../../../tests/specs/lock.cfg"),
    },
    BuiltinSpec {
        name: "wakelock",
        text: include_str!("../../../tests/specs/wakelock.cfg"),
    },
    BuiltinSpec {
        name: "wifilock",
        text: include_str!("../../../tests/specs/wifilock.cfg"),
    },
    BuiltinSpec {
        name: "canvas",
        text: include_str!("../../../tests/specs/canvas.cfg"),
    },
    BuiltinSpec {
        name: "json",
        text: include_str!("../../../tests/specs/json.cfg"),
    },
];

/// The built-in protocol called `name` (exact, lower case), if any.
pub fn builtin_spec(name: &str) -> Option<&'static BuiltinSpec> {
    BUILTIN_SPECS.iter().find(|s| s.name == name)
}

/// The names of the built-in protocols, comma separated (for messages).
pub fn builtin_spec_names() -> String {
    BUILTIN_SPECS
        .iter()
        .map(|s| s.name)
        .collect::<Vec<_>>()
        .join(", ")
}

impl BuiltinSpec {
    /// The text of the spec's leading `//` comment, joined into one paragraph.
    pub fn description(&self) -> String {
        let mut out = String::new();
        for line in self.text.lines() {
            let Some(rest) = line.trim_start().strip_prefix("//") else {
                break;
            };
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(rest.trim());
        }
        out
    }

    /// The classes of the spec's wildcards (`ReentrantLock`, `WakeLock`, …), in order.
    pub fn classes(&self) -> Vec<String> {
        self.parse()
            .tree
            .wildcards
            .iter()
            .map(|w| w.ty.name.clone())
            .collect()
    }

    /// The spec, parsed.
    pub fn parse(&self) -> Parsed<Spec> {
        crate::parse_spec(self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{spec_diagnostics, SpecUse};

    #[test]
    fn every_builtin_is_a_clean_protocol() {
        for s in BUILTIN_SPECS {
            let parsed = s.parse();
            let diags = spec_diagnostics(&parsed, SpecUse::Protocol);
            assert!(diags.is_empty(), "{}: {diags:?}", s.name);
            assert!(!s.classes().is_empty(), "{}: no wildcard", s.name);
            assert!(!s.description().is_empty(), "{}: no description", s.name);
        }
    }

    #[test]
    fn names_are_unique_and_found() {
        for (i, s) in BUILTIN_SPECS.iter().enumerate() {
            assert_eq!(builtin_spec(s.name), Some(s));
            assert!(BUILTIN_SPECS[..i].iter().all(|t| t.name != s.name));
            assert!(s.name.chars().all(|c| c.is_ascii_lowercase()));
        }
        assert_eq!(builtin_spec("Lock"), None);
        assert_eq!(builtin_spec("lock.cfg"), None);
        assert_eq!(
            builtin_spec_names(),
            "lock, wakelock, wifilock, canvas, json"
        );
    }

    #[test]
    fn table_1_classes() {
        let classes: Vec<Vec<String>> = BUILTIN_SPECS.iter().map(BuiltinSpec::classes).collect();
        assert_eq!(
            classes,
            [
                ["ReentrantLock"],
                ["WakeLock"],
                ["WifiLock"],
                ["Canvas"],
                ["JsonGenerator"]
            ]
        );
        assert!(builtin_spec("lock")
            .is_some_and(|s| s.description().starts_with("ReentrantLock (paper Table 1")));
    }
}
