//! The words of a JVM run: its recorded events projected onto the spec's terminals for
//! each binding of the wildcards to objects, the way cfp defines API calls — an event
//! `o.m(a1…an)` is the first terminal `$k.m(…)` (in the spec's order) with `n` arguments
//! (or `(..)`) whose receiver wildcard is bound to `o` and each of whose `$j` arguments is
//! bound to the object passed there (`_` takes anything) — and their membership in the
//! spec's language.

use crate::protocol::Protocol;
use cfp_syntax::spec_ast::TermArg;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// One recorded call of a protocol class.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// The receiver's object id (ids number the objects of a run from 1).
    pub obj: u32,
    /// The method.
    pub method: String,
    /// The arguments: `#N` an object, `=text` a value (number, string, boolean), `null`.
    pub args: Vec<Option<String>>,
}

impl Event {
    /// The object id of argument `i`, if it is an object.
    fn arg_object(&self, i: usize) -> Option<u32> {
        self.args
            .get(i)?
            .as_deref()?
            .strip_prefix('#')?
            .parse()
            .ok()
    }
}

/// The objects of a run's events: id → the simple names of its class, superclasses and
/// interfaces.
pub type Objects = BTreeMap<u32, Vec<String>>;

/// A binding of the spec's wildcards: `k` → an object id, or `None` for an object that
/// appears in no event.
pub type Binding = BTreeMap<u32, Option<u32>>;

/// The word of a binding and whether the spec accepts it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Word {
    /// The binding (the first one found with this word).
    pub binding: Binding,
    /// The terminals, as the spec spells them.
    pub word: Vec<String>,
    /// Whether the word is in the spec's language.
    pub accepted: bool,
}

/// At most this many bindings are tried per run.
pub const MAX_BINDINGS: usize = 4096;

/// The objects wildcard `k` may be bound to: those of its declared class (every object
/// when it has none), and `None`.
fn candidates(protocol: &Protocol, k: u32, objects: &Objects) -> Vec<Option<u32>> {
    let ty = protocol.wildcard_types.get(&k);
    let mut out: Vec<Option<u32>> = objects
        .iter()
        .filter(|(_, classes)| ty.is_none_or(|t| classes.iter().any(|c| c == t)))
        .map(|(id, _)| Some(*id))
        .collect();
    out.push(None);
    out
}

/// Every binding of the spec's wildcards (up to [`MAX_BINDINGS`]), in a fixed order.
pub fn bindings(protocol: &Protocol, objects: &Objects) -> Vec<Binding> {
    let mut out: Vec<Binding> = vec![Binding::new()];
    for &k in &protocol.wildcards {
        let cands = candidates(protocol, k, objects);
        let mut next = Vec::with_capacity(out.len() * cands.len());
        'outer: for b in &out {
            for c in &cands {
                if next.len() >= MAX_BINDINGS {
                    break 'outer;
                }
                let mut b = b.clone();
                b.insert(k, *c);
                next.push(b);
            }
        }
        out = next;
    }
    out
}

/// The word of `events` under `binding`.
pub fn project(protocol: &Protocol, events: &[Event], binding: &Binding) -> Vec<String> {
    let bound = |k: u32| binding.get(&k).copied().flatten();
    let mut word = Vec::new();
    for e in events {
        let hit = protocol.terminals.iter().find(|t| {
            t.method == e.method
                && cfp_core::api::takes(t, e.args.len())
                && bound(t.receiver) == Some(e.obj)
                && t.args.iter().enumerate().all(|(i, a)| match a {
                    TermArg::Wildcard(j) => bound(*j).is_some() && e.arg_object(i) == bound(*j),
                    TermArg::Any | TermArg::Rest => true,
                })
        });
        if let Some(t) = hit {
            word.push(t.to_string());
        }
    }
    word
}

/// Whether the spec accepts `word`.
pub fn accepts(protocol: &Protocol, word: &[String]) -> bool {
    let refs: Vec<&str> = word.iter().map(String::as_str).collect();
    cfp_grammar::word_in(&protocol.grammar, &refs)
}

/// The distinct words of a run over every binding, each with its membership.
pub fn words(protocol: &Protocol, events: &[Event], objects: &Objects) -> Vec<Word> {
    let mut seen: BTreeSet<Vec<String>> = BTreeSet::new();
    let mut out = Vec::new();
    for b in bindings(protocol, objects) {
        let word = project(protocol, events, &b);
        if seen.insert(word.clone()) {
            let accepted = accepts(protocol, &word);
            out.push(Word {
                binding: b,
                word,
                accepted,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(obj: u32, method: &str, args: &[Option<&str>]) -> Event {
        Event {
            obj,
            method: method.into(),
            args: args.iter().map(|a| a.map(String::from)).collect(),
        }
    }

    fn objs(list: &[(u32, &str)]) -> Objects {
        list.iter()
            .map(|(id, c)| (*id, vec![c.to_string(), "Object".to_string()]))
            .collect()
    }

    fn lock() -> Protocol {
        Protocol::resolve("lock", std::path::Path::new("/nonexistent")).expect("built-in")
    }

    #[test]
    fn one_wildcard_projects_per_object() {
        let p = lock();
        let events = [ev(1, "lock", &[]), ev(2, "lock", &[]), ev(1, "unlock", &[])];
        let o = objs(&[(1, "ReentrantLock"), (2, "ReentrantLock")]);
        let ws = words(&p, &events, &o);
        let shown: Vec<(String, bool)> =
            ws.iter().map(|w| (w.word.join(" "), w.accepted)).collect();
        assert_eq!(
            shown,
            [
                ("$1.lock() $1.unlock()".to_string(), true),
                ("$1.lock()".to_string(), false),
                (String::new(), true)
            ]
        );
    }

    #[test]
    fn wildcards_range_over_their_class() {
        let p = lock();
        let o = objs(&[(1, "Canvas"), (2, "ReentrantLock")]);
        let b = bindings(&p, &o);
        assert_eq!(b.len(), 2);
        assert_eq!(b[0].get(&1), Some(&Some(2)));
    }

    #[test]
    fn several_wildcards_and_wildcard_arguments() {
        let p = Protocol::parse(
            "map",
            "wildcard $1 : Map;\nwildcard $2 : Key;\nS -> $1.put($2, _) S $1.remove($2) S | $1.clear() S | ε;\n",
        )
        .expect("spec");
        let o = objs(&[(1, "Map"), (2, "Key"), (3, "Key")]);
        let events = [
            ev(1, "put", &[Some("#2"), Some("=1")]),
            ev(1, "put", &[Some("#3"), None]),
            ev(1, "remove", &[Some("#3")]),
            ev(1, "clear", &[]),
        ];
        let b: Binding = [(1, Some(1)), (2, Some(3))].into();
        assert_eq!(
            project(&p, &events, &b).join(" "),
            "$1.put($2, _) $1.remove($2) $1.clear()"
        );
        let b: Binding = [(1, Some(1)), (2, Some(2))].into();
        assert_eq!(
            project(&p, &events, &b).join(" "),
            "$1.put($2, _) $1.clear()"
        );
        let ws = words(&p, &events, &o);
        assert_eq!(bindings(&p, &o).len(), 2 * 3);
        assert!(ws.iter().any(|w| !w.accepted && w.word.len() == 2));
        assert!(ws.iter().any(|w| w.accepted && w.word.len() == 3));
    }

    #[test]
    fn arities_and_any_arguments() {
        let p = Protocol::resolve(
            "json-any-args.cfg",
            std::path::Path::new("../../tests/specs"),
        )
        .expect("corpus spec");
        let events = [
            ev(1, "writeStartObject", &[Some("=1"), Some("=2")]),
            ev(1, "writeFieldName", &[Some("=a")]),
            ev(1, "writeFieldName", &[Some("=a"), Some("=b")]),
            ev(1, "writeNumber", &[Some("=1")]),
            ev(1, "writeEndObject", &[]),
        ];
        let b: Binding = [(1, Some(1))].into();
        let w = project(&p, &events, &b);
        assert_eq!(
            w.join(" "),
            "$1.writeStartObject(..) $1.writeFieldName(_) $1.writeNumber(_) $1.writeEndObject()"
        );
        assert!(accepts(&p, &w));
    }
}
