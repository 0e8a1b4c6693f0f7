//! The page⇄worker messages as the UI sees them (JSON over `postMessage`).
//!
//! The envelopes are [`crate::protocol`]'s types (page→worker [`ToWorker`], worker→page
//! `protocol::FromWorker`, whose `event` and `result` are raw JSON). This module decodes
//! those payloads: `event` is `cfp_core::check::Event` serialised (tagged by `kind`);
//! `cfp_core`'s types are `Serialize` only, so [`UiEvent`] mirrors them with
//! `Deserialize`, and [`RunResult`] mirrors the `cfp check --json` object. Every field the UI does not strictly need is
//! `#[serde(default)]`, and anything malformed becomes an `Err(String)` shown on the page.

use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

pub use crate::protocol::{
    DiagnosticItem as Diagnostic, InputFile, RunMode, RunOptions, ToWorker, Z3Status,
};

/// One line of a nested counterexample trace.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct TraceLine {
    /// 1-based source line (0 = no position).
    #[serde(default)]
    pub line: u32,
    /// What the step does.
    pub text: String,
    /// Call depth.
    #[serde(default)]
    pub depth: usize,
    /// The method (absent in the CLI's `--json` result).
    #[serde(default)]
    pub method: String,
}

/// Grammar change since the previous iteration (by rendered text).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct GrammarDiff {
    /// New nonterminals.
    #[serde(default)]
    pub added_nonterminals: Vec<String>,
    /// Productions gone.
    #[serde(default)]
    pub removed_productions: Vec<String>,
    /// New productions.
    #[serde(default)]
    pub added_productions: Vec<String>,
}

/// Interpolant atoms at one (method, CFA location).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct LocationAtoms {
    /// The method.
    pub method: String,
    /// CFA location index.
    pub location: usize,
    /// SMT-LIB atoms.
    #[serde(default)]
    pub atoms: Vec<String>,
}

/// A PCFA state created by CloneStates.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct StateRef {
    /// The method.
    pub method: String,
    /// The new state's index.
    pub state: usize,
}

/// A PCFA edge removed by UpdateTransitions.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct EdgeRef {
    /// The method.
    pub method: String,
    /// Source state index.
    pub from: usize,
    /// Target state index.
    pub to: usize,
}

/// `cfp_core::check::Event`, as it arrives in the page.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum UiEvent {
    /// ConstructCFG produced G_P.
    GrammarBuilt {
        /// 1-based iteration.
        iteration: u32,
        /// The rendered grammar.
        grammar: String,
        /// Number of nonterminals.
        #[serde(default)]
        nonterminals: usize,
        /// Number of productions.
        #[serde(default)]
        productions: usize,
        /// Change since the previous iteration.
        #[serde(default)]
        diff: GrammarDiff,
    },
    /// Inclusion check answered (`included` / `not-included` / `unknown`).
    Inclusion {
        /// Iteration.
        iteration: u32,
        /// The outcome tag.
        result: String,
        /// The counterexample word.
        #[serde(default)]
        word: Option<Vec<String>>,
    },
    /// The counterexample as a derivation and nested path.
    Counterexample {
        /// Iteration.
        iteration: u32,
        /// The word.
        #[serde(default)]
        word: Vec<String>,
        /// The derivation, rendered with two-space indentation.
        #[serde(default)]
        derivation: String,
        /// The nested path.
        #[serde(default)]
        trace: Vec<TraceLine>,
    },
    /// Feasibility of the path (`feasible` / `infeasible` / `unknown`).
    Feasibility {
        /// Iteration.
        iteration: u32,
        /// The outcome tag.
        feasible: String,
        /// Concrete values when feasible.
        #[serde(default)]
        values: BTreeMap<String, String>,
    },
    /// Interpolant atoms of a spurious path.
    Interpolants {
        /// Iteration.
        iteration: u32,
        /// Atoms per location.
        #[serde(default)]
        per_location: Vec<LocationAtoms>,
    },
    /// PCFAs refined.
    Refined {
        /// Iteration.
        iteration: u32,
        /// States created.
        #[serde(default)]
        clones_added: Vec<StateRef>,
        /// Edges removed.
        #[serde(default)]
        edges_removed: Vec<EdgeRef>,
        /// New predicates.
        #[serde(default)]
        predicates_added: usize,
    },
    /// The run ended (`verdict` is `cfp_core::check::Verdict` serialised).
    Finished {
        /// The verdict object (`{"verdict": "...", "iterations": n, ...}`).
        verdict: Value,
    },
}

impl UiEvent {
    /// The event's iteration (`None` for `finished`).
    pub fn iteration(&self) -> Option<u32> {
        match self {
            UiEvent::GrammarBuilt { iteration, .. }
            | UiEvent::Inclusion { iteration, .. }
            | UiEvent::Counterexample { iteration, .. }
            | UiEvent::Feasibility { iteration, .. }
            | UiEvent::Interpolants { iteration, .. }
            | UiEvent::Refined { iteration, .. } => Some(*iteration),
            UiEvent::Finished { .. } => None,
        }
    }
}

/// The three verdicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VerdictName {
    /// L(G_P) ⊆ L(G_S).
    Verified,
    /// A real counterexample.
    Violation,
    /// Undecided.
    Unknown,
}

impl VerdictName {
    /// The exact text shown in the verdict banner.
    pub fn as_str(self) -> &'static str {
        match self {
            VerdictName::Verified => "verified",
            VerdictName::Violation => "violation",
            VerdictName::Unknown => "unknown",
        }
    }
}

/// The counterexample of a `violation` result.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct ResultCounterexample {
    /// The word.
    #[serde(default)]
    pub word: Vec<String>,
    /// The nested path.
    #[serde(default)]
    pub trace: Vec<TraceLine>,
    /// Concrete values.
    #[serde(default)]
    pub values: BTreeMap<String, String>,
    /// The derivation.
    #[serde(default)]
    pub derivation: String,
}

/// The `cfp check --json` object.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct RunResult {
    /// The verdict.
    pub verdict: VerdictName,
    /// Iterations used.
    #[serde(default)]
    pub iterations: u32,
    /// Present for `violation`.
    #[serde(default)]
    pub counterexample: Option<ResultCounterexample>,
    /// Present for `unknown` (a string in the CLI; tolerated as any JSON).
    #[serde(default)]
    pub reason: Option<Value>,
    /// Present for `unknown`: what was established.
    #[serde(default)]
    pub report: Option<Value>,
    /// Table 2 counters (numbers; timing fields may be absent).
    #[serde(default)]
    pub stats: BTreeMap<String, Value>,
}

impl RunResult {
    /// The reason as display text (empty when there is none).
    pub fn reason_text(&self) -> String {
        match &self.reason {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
        }
    }
}

/// A worker→page message, with its `event` / `result` payloads decoded.
#[derive(Clone, Debug, PartialEq)]
pub enum FromWorker {
    /// Z3 loading progress.
    Status {
        /// The state.
        z3: Z3Status,
        /// Details (error text, load time).
        detail: String,
    },
    /// One core event.
    Event {
        /// The event.
        event: UiEvent,
        /// The event as it arrived (kept for recordings in share links).
        raw: Value,
    },
    /// The inputs have errors; the run did not start.
    Diagnostics {
        /// The diagnostics.
        items: Vec<Diagnostic>,
    },
    /// The run's result.
    Done {
        /// `cfp check --json` object.
        result: RunResult,
        /// The object as it arrived (kept for recordings in share links).
        raw: Value,
    },
    /// The run was cancelled.
    Cancelled,
    /// The worker failed.
    Error {
        /// What failed.
        message: String,
    },
}

/// The wire envelope, decoded here rather than with `protocol::FromWorker`: serde cannot
/// buffer a `RawValue` inside an internally tagged enum, so payloads are `Value`s.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
enum Wire {
    Status {
        z3: Z3Status,
        #[serde(default)]
        detail: Option<Value>,
    },
    Event {
        event: Value,
    },
    Diagnostics {
        #[serde(default)]
        items: Vec<Diagnostic>,
    },
    Done {
        result: Value,
    },
    Cancelled,
    Error {
        message: String,
    },
}

/// Decodes a worker message from JSON text (the shapes of [`crate::protocol::FromWorker`]);
/// a malformed message becomes a readable error, never a panic.
pub fn parse_message_text(text: &str) -> Result<FromWorker, String> {
    let wire: Wire =
        serde_json::from_str(text).map_err(|e| format!("malformed worker message: {e}"))?;
    Ok(match wire {
        Wire::Status { z3, detail } => FromWorker::Status {
            z3,
            detail: match detail {
                None | Some(Value::Null) => String::new(),
                Some(Value::String(s)) => s,
                Some(v) => v.to_string(),
            },
        },
        Wire::Event { event } => FromWorker::Event {
            event: UiEvent::deserialize(&event)
                .map_err(|e| format!("malformed event from the worker: {e}"))?,
            raw: event,
        },
        Wire::Diagnostics { items } => FromWorker::Diagnostics { items },
        // A malformed result still ends the run: it becomes an `error` (shown, run over).
        Wire::Done { result } => match RunResult::deserialize(&result) {
            Ok(parsed) => FromWorker::Done {
                result: parsed,
                raw: result,
            },
            Err(e) => FromWorker::Error {
                message: format!("malformed result from the worker: {e}"),
            },
        },
        Wire::Cancelled => FromWorker::Cancelled,
        Wire::Error { message } => FromWorker::Error { message },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_message_has_the_agreed_shape() {
        let m = ToWorker::Run {
            program: "p".into(),
            spec: "s".into(),
            options: RunOptions {
                max_iterations: None,
            },
            mode: RunMode::Step,
        };
        let v = serde_json::to_value(&m).expect("serialise");
        assert_eq!(
            v,
            serde_json::json!({"type":"run","program":"p","spec":"s",
                "options":{"max_iterations":null},"mode":"step"})
        );
        assert_eq!(
            serde_json::to_value(ToWorker::Step).expect("serialise"),
            serde_json::json!({"type":"step"})
        );
    }

    #[test]
    fn status_and_diagnostics_decode() {
        let m = parse_message_text(r#"{"type":"status","z3":"loading","detail":"fetching"}"#);
        assert_eq!(
            m,
            Ok(FromWorker::Status {
                z3: Z3Status::Loading,
                detail: "fetching".into()
            })
        );
        let m = parse_message_text(
            r#"{"type":"diagnostics","items":[{"file":"spec","line":2,"col":5,"message":"m"}]}"#,
        );
        match m {
            Ok(FromWorker::Diagnostics { items }) => assert_eq!(items[0].file, InputFile::Spec),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn events_from_the_core_decode() {
        let msg = r#"{"type":"event","event":{"kind":"refined","iteration":1,
            "clones_added":[{"method":"Main.foo","state":4}],
            "edges_removed":[{"method":"Main.foo","from":0,"to":6}],"predicates_added":19}}"#;
        match parse_message_text(msg) {
            Ok(FromWorker::Event {
                event: UiEvent::Refined { clones_added, .. },
                ..
            }) => assert_eq!(clones_added[0].state, 4),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn malformed_messages_are_errors() {
        assert!(parse_message_text("{\"type\":\"bogus\"}").is_err());
        assert!(matches!(
            parse_message_text(r#"{"type":"done","result":{"verdict":"maybe"}}"#),
            Ok(FromWorker::Error { .. })
        ));
        assert!(parse_message_text("not json").is_err());
    }

    #[test]
    fn done_result_decodes_the_cli_json() {
        let msg = r#"{"type":"done","result":{"verdict":"unknown","iterations":3,
            "reason":"the iteration budget of 3 ran out","stats":{"steps":3}}}"#;
        match parse_message_text(msg) {
            Ok(FromWorker::Done { result, .. }) => {
                assert_eq!(result.verdict, VerdictName::Unknown);
                assert_eq!(result.reason_text(), "the iteration budget of 3 ran out");
            }
            other => panic!("unexpected {other:?}"),
        }
    }
}
