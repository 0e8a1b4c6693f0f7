//! The run as the UI keeps it: one CEGAR event = one action on [`RunModel`]
//! (DESIGN.md §5; paper Fig. 11's phases). The timeline is the list of
//! [`IterationRecord`]s, so selecting an old iteration costs nothing.

use super::messages::{
    EdgeRef, GrammarDiff, LocationAtoms, StateRef, TraceLine, UiEvent, VerdictName,
};
use serde_json::Value;
use std::collections::BTreeMap;
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
}

/// A counterexample of one iteration: the word, its derivation and the nested path.
#[derive(Debug, PartialEq)]
pub struct CounterexampleData {
    /// The word.
    pub word: Vec<String>,
    /// Derivation (two-space indented).
    pub derivation: String,
    /// Nested path.
    pub trace: Vec<TraceLine>,
}

/// The refinement of one iteration (CloneStates + UpdateTransitions).
#[derive(Debug, PartialEq)]
pub struct Refinement {
    /// New states.
    pub clones_added: Vec<StateRef>,
    /// Removed edges.
    pub edges_removed: Vec<EdgeRef>,
    /// New predicates.
    pub predicates_added: usize,
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
    /// Interpolant atoms per location.
    pub interpolants: Option<Shared<Vec<LocationAtoms>>>,
    /// Refinement.
    pub refined: Option<Shared<Refinement>>,
}

impl Default for Shared<BTreeMap<String, String>> {
    fn default() -> Self {
        Shared::new(BTreeMap::new())
    }
}

/// The final verdict as the `finished` event carries it.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedVerdict {
    /// Which verdict.
    pub name: Option<VerdictName>,
    /// Iterations used.
    pub iterations: u32,
    /// The raw verdict object.
    pub raw: Value,
}

/// The run's state after the events applied so far.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RunModel {
    /// One record per iteration, in order.
    pub iterations: Vec<IterationRecord>,
    /// Set by the `finished` event.
    pub finished: Option<FinishedVerdict>,
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
    pub fn apply(&mut self, event: UiEvent) {
        match event {
            UiEvent::GrammarBuilt {
                iteration,
                grammar,
                nonterminals,
                productions,
                diff,
            } => {
                self.record(iteration).grammar = Some(Shared::new(GrammarSnapshot {
                    text: grammar,
                    nonterminals,
                    productions,
                    diff,
                }));
            }
            UiEvent::Inclusion {
                iteration, result, ..
            } => self.record(iteration).inclusion = Some(result),
            UiEvent::Counterexample {
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
            UiEvent::Feasibility {
                iteration,
                feasible,
                values,
            } => {
                let r = self.record(iteration);
                r.feasibility = Some(feasible);
                r.values = Shared::new(values);
            }
            UiEvent::Interpolants {
                iteration,
                per_location,
            } => self.record(iteration).interpolants = Some(Shared::new(per_location)),
            UiEvent::Refined {
                iteration,
                clones_added,
                edges_removed,
                predicates_added,
            } => {
                self.record(iteration).refined = Some(Shared::new(Refinement {
                    clones_added,
                    edges_removed,
                    predicates_added,
                }));
            }
            UiEvent::Finished { verdict } => {
                let name = verdict
                    .get("verdict")
                    .cloned()
                    .and_then(|v| serde_json::from_value::<VerdictName>(v).ok());
                let iterations = verdict
                    .get("iterations")
                    .and_then(Value::as_u64)
                    .map_or(0, |n| n as u32);
                self.finished = Some(FinishedVerdict {
                    name,
                    iterations,
                    raw: verdict,
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
    use super::*;

    fn ev(json: &str) -> UiEvent {
        serde_json::from_str(json).expect("event")
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
        assert_eq!(f.name, Some(VerdictName::Verified));
        assert_eq!(f.iterations, 2);
    }

    /// A real `cfp check --record --no-timing` of the paper's example (3 iterations,
    /// verified): every event decodes, and the views' parsers accept its data.
    #[test]
    fn a_real_recording_replays() {
        let rec: serde_json::Value = serde_json::from_str(include_str!(
            "../../../static/examples/records/paper-fig2.record.json"
        ))
        .expect("recording");
        let events = rec["events"].as_array().expect("events");
        let mut m = RunModel::default();
        for e in events {
            let msg = serde_json::json!({"type": "event", "event": e}).to_string();
            match super::super::messages::parse_message_text(&msg) {
                Ok(super::super::messages::FromWorker::Event { event, .. }) => m.apply(event),
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(m.iterations.len(), 2);
        assert_eq!(
            m.finished.as_ref().and_then(|f| f.name),
            Some(VerdictName::Verified)
        );
        let g1 = m.iterations[0].grammar.clone().expect("g1");
        let g2 = m.iterations[1].grammar.clone().expect("g2");
        let p1 = super::super::pcfa::pcfas_from_grammar(&g1.text);
        let p2 = super::super::pcfa::pcfas_from_grammar(&g2.text);
        // Refinement 1 cloned states of Main.foo: iteration 2 shows a clone not in 1.
        let foo1 = &p1["Main.foo"];
        let foo2 = &p2["Main.foo"];
        assert!(foo2
            .states
            .iter()
            .any(|s| s.clone > 0 && !foo1.states.contains(s)));
        // ... and some edge of iteration 1 is gone in 2.
        assert!(p1
            .iter()
            .any(|(k, g)| g.edges.iter().any(|e| !p2[k].edges.contains(e))));
        let cex = m.iterations[0].counterexample.clone().expect("cex");
        let roots = super::super::views::parse_derivation(&cex.derivation);
        assert_eq!(roots.len(), 1);
        assert_eq!(roots[0].text, "<root> -> <root>:n0");
    }
}
