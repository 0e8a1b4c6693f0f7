//! Where a check starts: the program's `main`, a method of it (`cfp check --entry`), or
//! a generated driver (`cfp check --harness`). The choice goes into runs, share links,
//! embeds and recordings, so that a link re-runs the same check.

use cfp_core::harness::{EntryPoints, HarnessKind};

/// The start of a check.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum EntryChoice {
    /// `main`.
    #[default]
    Main,
    /// This method (`Class.name`).
    Method(String),
    /// This harness (`android-activity`, `public-methods`).
    Harness(String),
}

impl EntryChoice {
    /// The choice a link or recording names (a harness wins over an entry, as in the CLI
    /// they exclude each other).
    pub fn from_options(entry: Option<&str>, harness: Option<&str>) -> EntryChoice {
        match (harness, entry) {
            (Some(h), _) => EntryChoice::Harness(h.to_owned()),
            (None, Some(e)) if e != "main" => EntryChoice::Method(e.to_owned()),
            _ => EntryChoice::Main,
        }
    }

    /// `--entry`, if any.
    pub fn entry(&self) -> Option<String> {
        match self {
            EntryChoice::Method(m) => Some(m.clone()),
            _ => None,
        }
    }

    /// `--harness`, if any.
    pub fn harness(&self) -> Option<String> {
        match self {
            EntryChoice::Harness(h) => Some(h.clone()),
            _ => None,
        }
    }

    /// The value of its `<option>`.
    pub fn value(&self) -> String {
        match self {
            EntryChoice::Main => String::new(),
            EntryChoice::Method(m) => format!("method:{m}"),
            EntryChoice::Harness(h) => format!("harness:{h}"),
        }
    }

    /// The choice of an `<option>` value.
    pub fn from_value(v: &str) -> EntryChoice {
        if let Some(m) = v.strip_prefix("method:") {
            EntryChoice::Method(m.to_owned())
        } else if let Some(h) = v.strip_prefix("harness:") {
            EntryChoice::Harness(h.to_owned())
        } else {
            EntryChoice::Main
        }
    }

    /// Its text in the menu.
    pub fn label(&self) -> String {
        match self {
            EntryChoice::Main => "main".to_owned(),
            EntryChoice::Method(m) => format!("{m}()"),
            EntryChoice::Harness(h) => format!("{h} harness"),
        }
    }
}

/// The choices the menu offers for a program: `main`, both harnesses (the fitting one
/// first) and its methods; `current` too, should the program not have it.
pub fn menu(points: &EntryPoints, current: &EntryChoice) -> Vec<EntryChoice> {
    let other = match points.harness {
        HarnessKind::AndroidActivity => HarnessKind::PublicMethods,
        HarnessKind::PublicMethods => HarnessKind::AndroidActivity,
    };
    let mut out = vec![
        EntryChoice::Main,
        EntryChoice::Harness(points.harness.name().to_owned()),
        EntryChoice::Harness(other.name().to_owned()),
    ];
    out.extend(
        points
            .methods
            .iter()
            .filter(|m| !m.ends_with(".main"))
            .map(|m| EntryChoice::Method(m.clone())),
    );
    if !out.contains(current) {
        out.push(current.clone());
    }
    out
}

/// The entry points of a program text (`None` when it does not parse).
pub fn entry_points(program: &str) -> Option<EntryPoints> {
    let sources = cfp_syntax::SourceSet::from_marked("", program);
    let parsed = cfp_syntax::parse_sources(&sources);
    (!parsed.has_errors()).then(|| cfp_core::harness::entry_points(&parsed.tree, sources.text()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_round_trip_through_values_and_options() {
        for c in [
            EntryChoice::Main,
            EntryChoice::Method("A.m".into()),
            EntryChoice::Harness("public-methods".into()),
        ] {
            assert_eq!(EntryChoice::from_value(&c.value()), c);
            assert_eq!(
                EntryChoice::from_options(c.entry().as_deref(), c.harness().as_deref()),
                c
            );
        }
    }

    #[test]
    fn a_class_without_main_offers_the_fitting_harness_first() {
        let p = entry_points("class Account { void deposit(int n) { } }").unwrap_or_default();
        assert!(entry_points("class {").is_none());
        assert!(!p.has_main);
        let m = menu(&p, &EntryChoice::Main);
        assert_eq!(m[1], EntryChoice::Harness("public-methods".into()));
        assert!(m.contains(&EntryChoice::Method("Account.deposit".into())));
    }
}
