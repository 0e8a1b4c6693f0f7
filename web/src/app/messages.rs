//! The page⇄worker messages as the UI sees them (JSON over `postMessage`).
//!
//! There is one definition of each: the envelopes are [`crate::protocol`]'s types
//! (page→worker [`ToWorker`], worker→page [`FromWorker`]), and their payloads are the
//! core's own protocol types — `cfp_core::check::Event` and the `cfp check --json` object
//! `cfp_core::report_json::ResultJson` — so renaming a field of an event breaks this
//! crate's build. Anything malformed becomes an `Err(String)` shown on the page.

pub use crate::protocol::{
    DiagnosticItem as Diagnostic, InputFile, RunMode, RunOptions, ToWorker, Z3Status,
};

pub use cfp_core::check::{
    DerivationNode, Event, FeasibilityOutcome, GrammarDiff, InclusionOutcome, LocationAtoms,
    PcfaEdgeView, PcfaStateView, PcfaView, TraceLine,
};

/// The iteration of a core event (`None` for `finished`).
pub use cfp_share::replay::event_iteration;

/// The `cfp check --json` object (the core's own type) and its verdict names.
pub use cfp_core::report_json::{ResultJson as RunResult, VerdictName};

/// The worker→page message: [`crate::protocol::FromWorker`] itself.
pub use crate::protocol::FromWorker;

/// Decodes a worker message from JSON text; a malformed message becomes a readable
/// error, never a panic.
pub fn parse_message_text(text: &str) -> Result<FromWorker, String> {
    cfp_core::deep_json::from_str(text).map_err(|e| format!("malformed worker message: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_message_has_the_agreed_shape() {
        let m = ToWorker::Run {
            run: 1,
            program: "p".into(),
            spec: "s".into(),
            options: RunOptions {
                max_iterations: None,
                timeout_ms: Some(60_000),
                ..RunOptions::default()
            },
            mode: RunMode::Step,
        };
        let v = serde_json::to_value(&m).expect("serialise");
        assert_eq!(
            v,
            serde_json::json!({"type":"run","run":1,"program":"p","spec":"s",
                "options":{"max_iterations":null,"timeout_ms":60000},"mode":"step"})
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
            r#"{"type":"diagnostics","run":1,"items":[{"file":"spec","line":2,"col":5,"message":"m"}]}"#,
        );
        match m {
            Ok(FromWorker::Diagnostics { items, .. }) => assert_eq!(items[0].file, InputFile::Spec),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn events_from_the_core_decode() {
        let msg = r#"{"type":"event","run":1,"event":{"kind":"refined","iteration":1,
            "clones_added":[{"method":"Main.foo","state":4}],
            "edges_removed":[{"method":"Main.foo","from":0,"to":6}],"predicates_added":19}}"#;
        match parse_message_text(msg).map(|m| match m {
            FromWorker::Event { event, .. } => Some(*event),
            _ => None,
        }) {
            Ok(Some(Event::Refined { clones_added, .. })) => assert_eq!(clones_added[0].state, 4),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn malformed_messages_are_errors() {
        assert!(parse_message_text("{\"type\":\"bogus\"}").is_err());
        assert!(
            parse_message_text(r#"{"type":"done","run":1,"result":{"verdict":"maybe"}}"#).is_err()
        );
        // Messages about a run must say which run.
        assert!(parse_message_text(r#"{"type":"cancelled"}"#).is_err());
        assert!(parse_message_text("not json").is_err());
    }

    #[test]
    fn done_result_decodes_the_cli_json() {
        let msg = r#"{"type":"done","run":1,"result":{"verdict":"unknown","iterations":3,
            "reason":"the iteration budget of 3 ran out","stats":{"steps":3}}}"#;
        match parse_message_text(msg) {
            Ok(FromWorker::Done { result, .. }) => {
                assert_eq!(result.verdict, VerdictName::Unknown);
                assert_eq!(
                    result.reason.as_deref(),
                    Some("the iteration budget of 3 ran out")
                );
                assert_eq!(result.stats.steps, 3);
            }
            other => panic!("unexpected {other:?}"),
        }
    }
}
