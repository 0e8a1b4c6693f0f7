//! The concrete values worth showing next to a feasible counterexample: those of the
//! variables the witness involves (the guards it passes and the calls it makes), not the
//! solver's whole model (`%alloc`, temporaries, every variable at every step).
//!
//! The model's keys are `$N` (a wildcard's object), `%…` (checker temporaries, the
//! allocation counter) and `step N: name` (a variable's value at step N of the path).

use super::messages::TraceLine;
use std::collections::{BTreeMap, BTreeSet};

/// One shown value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShownValue {
    /// The variable (`l`, `this.lock`, `$1`).
    pub name: String,
    /// Its value.
    pub value: String,
    /// The path step it holds from (`None` for wildcards).
    pub step: Option<u32>,
}

/// The identifiers (and their dotted prefixes) in the trace's guards and events.
fn involved(trace: &[TraceLine]) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for t in trace {
        let text = t.text.as_str();
        if !(text.starts_with("assume") || text.starts_with("emit")) {
            continue;
        }
        let mut word = String::new();
        for c in text.chars().chain(std::iter::once(' ')) {
            if c.is_alphanumeric() || matches!(c, '_' | '$' | '%' | '.') {
                word.push(c);
                continue;
            }
            let w = word.trim_matches('.');
            if !w.is_empty() {
                let mut prefix = String::new();
                for (i, part) in w.split('.').enumerate() {
                    if i > 0 {
                        prefix.push('.');
                    }
                    prefix.push_str(part);
                    names.insert(prefix.clone());
                }
            }
            word.clear();
        }
    }
    names
}

/// Splits `step   N: name` into (N, name).
fn step_key(key: &str) -> Option<(u32, &str)> {
    let rest = key.strip_prefix("step")?;
    let (n, name) = rest.split_once(':')?;
    Some((n.trim().parse().ok()?, name.trim()))
}

/// The values of the variables the witness involves: every wildcard, and each source
/// variable of a guard or event at the steps where its value changes (never checker
/// temporaries).
pub fn relevant_values(values: &BTreeMap<String, String>, trace: &[TraceLine]) -> Vec<ShownValue> {
    let names = involved(trace);
    let mut shown: Vec<ShownValue> = values
        .iter()
        .filter(|(k, _)| k.starts_with('$'))
        .map(|(k, v)| ShownValue {
            name: k.clone(),
            value: v.clone(),
            step: None,
        })
        .collect();
    let mut steps: Vec<(u32, &str, &String)> = values
        .iter()
        .filter_map(|(k, v)| step_key(k).map(|(n, name)| (n, name, v)))
        .filter(|(_, name, _)| !name.starts_with('%') && names.contains(*name))
        .collect();
    steps.sort();
    let mut last: BTreeMap<&str, &String> = BTreeMap::new();
    for (n, name, v) in steps {
        if last.insert(name, v) != Some(v) {
            shown.push(ShownValue {
                name: name.to_owned(),
                value: v.clone(),
                step: Some(n),
            });
        }
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(text: &str) -> TraceLine {
        TraceLine {
            file: None,
            line: 1,
            text: text.to_owned(),
            depth: 0,
            method: String::new(),
        }
    }

    #[test]
    fn only_the_witness_variables_where_they_change() {
        let values: BTreeMap<String, String> = [
            ("$1", "1"),
            ("%alloc", "0"),
            ("step   0: %alloc", "0"),
            ("step   0: args", "0"),
            ("step   2: %t1", "1"),
            ("step   2: l", "1"),
            ("step   2: skip", "true"),
            ("step   3: l", "1"),
            ("step   3: skip", "true"),
            ("step   8: skip", "false"),
            ("step   8: this.lock", "1"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        let trace = [
            step("%t1 := new ReentrantLock (external); l := %t1"),
            step("assume l == $1"),
            step("emit $1.lock()"),
            step("assume skip"),
            step("assume this.lock != null"),
        ];
        let got: Vec<String> = relevant_values(&values, &trace)
            .into_iter()
            .map(|v| format!("{}={}@{:?}", v.name, v.value, v.step))
            .collect();
        assert_eq!(
            got,
            [
                "$1=1@None",
                "l=1@Some(2)",
                "skip=true@Some(2)",
                "skip=false@Some(8)",
                "this.lock=1@Some(8)"
            ]
        );
    }

    #[test]
    fn step_keys_parse_with_padding() {
        assert_eq!(step_key("step  12: this.x"), Some((12, "this.x")));
        assert_eq!(step_key("$1"), None);
        assert_eq!(step_key("step x: y"), None);
    }
}
