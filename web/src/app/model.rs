//! The run as the UI keeps it: one CEGAR event = one action on [`RunModel`]
//! (ARCHITECTURE.md; paper Fig. 11's phases). The timeline is the list of
//! [`IterationRecord`]s, so selecting an old iteration costs nothing.

use super::messages::{
    DerivationNode, Event, GrammarDiff, LocationAtoms, PcfaView, TraceLine, VerdictName,
};
use cfp_core::check::{EdgeRefOut, NamedPredicate, Production, StateRefOut, Verdict};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// An `Rc` compared by pointer, so Yew props holding big data compare in O(1) and a view
/// re-renders only when its data was replaced.
#[derive(Debug)]
pub struct Shared<T>(pub Rc<T>);

impl<T> Shared<T> {
    /// Wraps a value.
    pub fn new(value: T) -> Self {
        Shared(Rc::new(value))
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Rc::clone(&self.0))
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// The program grammar G_P of one iteration (ConstructCFG).
#[derive(Debug, PartialEq)]
pub struct GrammarSnapshot {
    /// Rendered grammar, one `A -> α | β;` rule per line.
    pub text: String,
    /// Nonterminal count.
    pub nonterminals: usize,
    /// Production count.
    pub productions: usize,
    /// Diff against the previous iteration.
    pub diff: GrammarDiff,
    /// The productions as data (empty in recordings made before events carried them).
    pub rules: Vec<Production>,
    /// Every method's PCFA, with the states cloned and edges removed by the refinement
    /// before this iteration (empty in recordings made before events carried them).
    pub pcfas: Vec<PcfaView>,
}

/// A counterexample of one iteration: the word, its derivation and the nested path.
#[derive(Debug, PartialEq)]
pub struct CounterexampleData {
    /// The word.
    pub word: Vec<String>,
    /// The derivation tree.
    pub derivation: DerivationNode,
    /// Nested path.
    pub trace: Vec<TraceLine>,
}

/// The refinement of one iteration (CloneStates + UpdateTransitions).
#[derive(Debug, PartialEq)]
pub struct Refinement {
    /// New states.
    pub clones_added: Vec<StateRefOut>,
    /// Removed edges.
    pub edges_removed: Vec<EdgeRefOut>,
    /// New predicates.
    pub predicates_added: usize,
    /// Further spurious counterexamples refined in the same round.
    pub also_refuted: usize,
}

/// The predicates that refined one iteration's path away.
#[derive(Debug, PartialEq)]
pub struct InterpolantsData {
    /// Atoms (with their names) per location.
    pub per_location: Vec<LocationAtoms>,
    /// The names this iteration introduced.
    pub introduced: BTreeSet<String>,
    /// Every name the run has defined up to this iteration.
    pub defined: Shared<BTreeMap<String, NamedPredicate>>,
}

/// Everything one CEGAR iteration produced so far.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct IterationRecord {
    /// 1-based iteration.
    pub iteration: u32,
    /// G_P.
    pub grammar: Option<Shared<GrammarSnapshot>>,
    /// Inclusion outcome tag.
    pub inclusion: Option<String>,
    /// The counterexample.
    pub counterexample: Option<Shared<CounterexampleData>>,
    /// Feasibility outcome tag.
    pub feasibility: Option<String>,
    /// Concrete values (feasible paths).
    pub values: Shared<BTreeMap<String, String>>,
    /// Interpolants: the predicates that refined this iteration's path away.
    pub interpolants: Option<Shared<InterpolantsData>>,
    /// Refinement.
    pub refined: Option<Shared<Refinement>>,
}

impl<K: Ord, V> Default for Shared<BTreeMap<K, V>> {
    fn default() -> Self {
        Shared::new(BTreeMap::new())
    }
}

/// The final verdict as the `finished` event carries it.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedVerdict {
    /// Which verdict.
    pub name: VerdictName,
    /// Iterations used.
    pub iterations: u32,
    /// The verdict with its evidence.
    pub verdict: Verdict,
}

/// The kebab-case tag a core enum serialises to (`not-included`, `infeasible`).
fn tag<T: serde::Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
}

/// The run's state after the events applied so far.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RunModel {
    /// One record per iteration, in order.
    pub iterations: Vec<IterationRecord>,
    /// Set by the `finished` event.
    pub finished: Option<FinishedVerdict>,
    /// Every predicate named so far (`p1` → its formula).
    pub predicates: Shared<BTreeMap<String, NamedPredicate>>,
}

impl RunModel {
    /// The record of `iteration`, created when new. Iterations arrive in order; a gap is
    /// filled with empty records so indices stay `iteration - 1`.
    fn record(&mut self, iteration: u32) -> &mut IterationRecord {
        let idx = iteration.max(1) as usize - 1;
        while self.iterations.len() <= idx {
            let n = self.iterations.len() as u32 + 1;
            self.iterations.push(IterationRecord {
                iteration: n,
                ..IterationRecord::default()
            });
        }
        &mut self.iterations[idx]
    }

    /// Applies one event (the reducer).
    pub fn apply(&mut self, event: Event) {
        match event {
            Event::GrammarBuilt {
                iteration,
                grammar,
                nonterminals,
                productions,
                diff,
                rules,
                pcfas,
            } => {
                self.record(iteration).grammar = Some(Shared::new(GrammarSnapshot {
                    text: grammar,
                    nonterminals,
                    productions,
                    diff,
                    rules,
                    pcfas,
                }));
            }
            Event::Inclusion {
                iteration, result, ..
            } => self.record(iteration).inclusion = Some(tag(&result)),
            Event::Counterexample {
                iteration,
                word,
                derivation,
                trace,
            } => {
                self.record(iteration).counterexample = Some(Shared::new(CounterexampleData {
                    word,
                    derivation,
                    trace,
                }));
            }
            Event::Feasibility {
                iteration,
                feasible,
                values,
            } => {
                let r = self.record(iteration);
                r.feasibility = Some(tag(&feasible));
                r.values = Shared::new(values);
            }
            Event::Interpolants {
                iteration,
                per_location,
                predicates,
                ..
            } => {
                let introduced = predicates.iter().map(|p| p.name.clone()).collect();
                if !predicates.is_empty() {
                    let mut defined = (*self.predicates).clone();
                    defined.extend(predicates.into_iter().map(|p| (p.name.clone(), p)));
                    self.predicates = Shared::new(defined);
                }
                self.record(iteration).interpolants = Some(Shared::new(InterpolantsData {
                    per_location,
                    introduced,
                    defined: self.predicates.clone(),
                }));
            }
            Event::Refined {
                iteration,
                clones_added,
                edges_removed,
                predicates_added,
                also_refuted,
            } => {
                self.record(iteration).refined = Some(Shared::new(Refinement {
                    clones_added,
                    edges_removed,
                    predicates_added,
                    also_refuted: also_refuted.len(),
                }));
            }
            Event::Finished { verdict } => {
                let name = match &verdict {
                    Verdict::Verified { .. } => VerdictName::Verified,
                    Verdict::Violation { .. } => VerdictName::Violation,
                    Verdict::Unknown { .. } => VerdictName::Unknown,
                };
                self.finished = Some(FinishedVerdict {
                    name,
                    iterations: verdict.iterations(),
                    verdict,
                });
            }
        }
    }

    /// The grammar of the iteration before `iteration` (for PCFA diffs).
    pub fn previous_grammar(&self, iteration: u32) -> Option<Shared<GrammarSnapshot>> {
        let idx = iteration.checked_sub(2)? as usize;
        self.iterations.get(idx).and_then(|r| r.grammar.clone())
    }

    /// The record of `iteration`.
    pub fn get(&self, iteration: u32) -> Option<&IterationRecord> {
        let idx = iteration.checked_sub(1)? as usize;
        self.iterations.get(idx)
    }
}

#[cfg(test)]
mod tests {
    use super::super::messages::{parse_message_text, FromWorker};
    use super::*;

    fn ev(json: &str) -> Event {
        serde_json::from_str(json).expect("event")
    }

    fn replay(recording: &str) -> RunModel {
        let rec: serde_json::Value = serde_json::from_str(recording).expect("recording");
        let mut m = RunModel::default();
        for e in rec["events"].as_array().expect("events") {
            let msg = serde_json::json!({"type": "event", "run": 1, "event": e}).to_string();
            match parse_message_text(&msg) {
                Ok(FromWorker::Event { event, .. }) => m.apply(*event),
                other => panic!("{other:?}"),
            }
        }
        m
    }

    #[test]
    fn events_fill_iterations_in_order() {
        let mut m = RunModel::default();
        m.apply(ev(
            r#"{"kind":"grammar-built","iteration":1,"grammar":"A -> ε;\n","nonterminals":1,"productions":1,"diff":{"added_nonterminals":[],"removed_productions":[],"added_productions":[]}}"#,
        ));
        m.apply(ev(
            r#"{"kind":"inclusion","iteration":1,"result":"not-included","word":["$1.lock()"]}"#,
        ));
        m.apply(ev(
            r#"{"kind":"grammar-built","iteration":2,"grammar":"B -> ε;\n","nonterminals":1,"productions":1,"diff":{"added_nonterminals":["B"],"removed_productions":[],"added_productions":["B -> ε"]}}"#,
        ));
        m.apply(ev(
            r#"{"kind":"finished","verdict":{"verdict":"verified","iterations":2,"certificate":{}}}"#,
        ));
        assert_eq!(m.iterations.len(), 2);
        assert_eq!(m.iterations[0].inclusion.as_deref(), Some("not-included"));
        assert!(m.previous_grammar(2).is_some());
        let f = m.finished.expect("finished");
        assert_eq!(f.name, VerdictName::Verified);
        assert_eq!(f.iterations, 2);
    }

    /// Interpolants name their predicates: each name is defined once, in the iteration that
    /// introduced it, and later iterations refer to it (paper-fig2-bug: `p1` = `l == $1`).
    #[test]
    fn interpolants_carry_named_predicates() {
        let m = replay(include_str!(
            "../../../tests/fixtures/paper-fig2-bug.refinement.record.json"
        ));
        let it1 = m.iterations[0]
            .interpolants
            .clone()
            .expect("iteration 1 refined");
        let it2 = m.iterations[1]
            .interpolants
            .clone()
            .expect("iteration 2 refined");
        assert!(it1.introduced.contains("p1"));
        assert_eq!(
            it1.defined.get("p1").map(|p| p.text.as_str()),
            Some("l == $1")
        );
        assert_eq!(
            it1.defined.get("p1").map(|p| p.smt.as_str()),
            Some("(= l $1)")
        );
        assert!(
            !it2.introduced.contains("p1"),
            "p1 is not new at iteration 2"
        );
        for l in it1.per_location.iter().chain(&it2.per_location) {
            assert_eq!(l.names.len(), l.atoms.len());
            for (name, smt) in l.names.iter().zip(&l.atoms) {
                let def = it2.defined.get(name).expect("every name is defined");
                assert_eq!(&def.smt, smt);
            }
        }
        assert!(it2.defined.len() > it1.defined.len());
    }

    /// The gallery's `cfp check --record --no-timing` of the paper's example: every event
    /// decodes as the core's own type, and iteration 2's PCFA of `Main.foo` names the
    /// states the refinement cloned and the edges it removed, by id.
    #[test]
    fn a_real_recording_replays_with_its_pcfas() {
        let m = replay(include_str!(
            "../../../static/examples/records/paper-fig2.record.json"
        ));
        assert_eq!(m.iterations.len(), 2);
        assert_eq!(
            m.finished.as_ref().map(|f| f.name),
            Some(VerdictName::Verified)
        );
        let g1 = m.iterations[0].grammar.clone().expect("g1");
        let g2 = m.iterations[1].grammar.clone().expect("g2");
        assert!(!g2.rules.is_empty());
        let foo1 = g1
            .pcfas
            .iter()
            .find(|p| p.method == "Main.foo")
            .expect("foo 1");
        let foo2 = g2
            .pcfas
            .iter()
            .find(|p| p.method == "Main.foo")
            .expect("foo 2");
        assert!(foo1.cloned.is_empty() && foo1.removed.is_empty());
        assert!(!foo2.cloned.is_empty(), "{foo2:?}");
        for id in &foo2.cloned {
            assert!(foo2.states.iter().any(|s| s.id == *id && s.clone > 0));
            assert!(!foo1.states.iter().any(|s| s.id == *id));
        }
        // Removed edges are gone now, and join states of this iteration or the last (an
        // edge can be created by cloning and removed in the same refinement).
        assert!(!foo2.removed.is_empty(), "{foo2:?}");
        for e in &foo2.removed {
            assert!(!foo2.edges.iter().any(|now| now.id == e.id));
            for end in [e.from, e.to] {
                assert!(foo2.states.iter().chain(&foo1.states).any(|s| s.id == end));
            }
        }
        let cex = m.iterations[0].counterexample.clone().expect("cex");
        assert_eq!(cex.derivation.production.text(), "<root> -> <root>:n0");
    }

    /// A recording made before events carried trees and PCFAs (and before refinement
    /// strategies were named) still replays: derivations are read from their text.
    #[test]
    fn an_old_recording_still_replays() {
        let m = replay(include_str!(
            "../../../tests/fixtures/paper-fig2.before-structured-events.record.json"
        ));
        assert_eq!(m.iterations.len(), 3);
        assert_eq!(m.finished.as_ref().map(|f| f.iterations), Some(3));
        let g1 = m.iterations[0].grammar.clone().expect("g1");
        assert!(g1.pcfas.is_empty() && g1.rules.is_empty());
        let cex = m.iterations[0].counterexample.clone().expect("cex");
        assert_eq!(cex.derivation.production.text(), "<root> -> <root>:n0");
        assert!(cex.derivation.size() > 10);
    }
}
