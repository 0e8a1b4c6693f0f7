//! Replaying a recorded run without live Z3 (ARCHITECTURE.md): the events of
//! `cfp check --record` (or of a recording inside a share link) are checked by the rules
//! `cfp share` also applies (`cfp_share::replay`: events decode as the core's type,
//! iterations 1, 2, … in order and bounded, a `cfp check --json` result) and then played
//! through the same queue and [`super::model::RunModel`] as a live run's events. Text in a
//! recording is only ever shown as text.

use super::messages::{Event, RunResult};
use crate::share::Recording;
use serde_json::Value;

pub use cfp_share::replay::{ReplayError, MAX_EVENTS};

/// A validated recording, ready to play.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayRun {
    /// The events, decoded, in order.
    pub events: Vec<Event>,
    /// The final result.
    pub result: RunResult,
    /// The recording as given (to put back into share links).
    pub recording: Recording,
}

impl ReplayRun {
    /// Validates `recording` with the rules every host shares
    /// ([`cfp_share::Recording::validate`]).
    pub fn new(recording: Recording) -> Result<ReplayRun, ReplayError> {
        let valid = recording.validate()?;
        Ok(ReplayRun {
            events: valid.events,
            result: valid.result,
            recording,
        })
    }

    /// The raw result object.
    pub fn result_value(&self) -> &Value {
        &self.recording.result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn paper() -> Recording {
        let rec: Value = serde_json::from_str(include_str!(
            "../../../static/examples/records/paper-fig2.record.json"
        ))
        .expect("json");
        Recording {
            events: rec["events"].as_array().cloned().unwrap_or_default(),
            result: rec["result"].clone(),
        }
    }

    #[test]
    fn a_cli_recording_validates() {
        let r = ReplayRun::new(paper()).expect("valid");
        assert_eq!(r.result.iterations, 2);
        assert!(r.events.len() >= 9);
        assert!(matches!(r.events.last(), Some(Event::Finished { .. })));
    }

    /// Links made before events carried trees and PCFAs hold recordings in the older
    /// shape: they still validate and replay (derivations read from their text).
    #[test]
    fn an_older_recording_still_validates() {
        let rec: Value = serde_json::from_str(include_str!(
            "../../../tests/fixtures/paper-fig2.before-structured-events.record.json"
        ))
        .expect("json");
        let r = ReplayRun::new(Recording {
            events: rec["events"].as_array().cloned().unwrap_or_default(),
            result: rec["result"].clone(),
        })
        .expect("valid");
        assert_eq!(r.result.iterations, 3);
        let Some(Event::Counterexample { derivation, .. }) = r.events.get(2) else {
            panic!("{:?}", r.events.get(2));
        };
        assert!(derivation.size() > 10);
    }

    #[test]
    fn hostile_recordings_are_refused() {
        let mut r = paper();
        r.events.insert(
            1,
            json!({"kind": "inclusion", "iteration": 4_000_000_000u32, "result": "included"}),
        );
        assert!(matches!(
            ReplayRun::new(r),
            Err(ReplayError::OutOfOrder { index: 2, .. })
        ));
        let mut r = paper();
        r.events[0] = json!({"kind": "<script>alert(1)</script>"});
        assert!(matches!(
            ReplayRun::new(r),
            Err(ReplayError::BadEvent { index: 1, .. })
        ));
        let mut r = paper();
        r.result = json!({"verdict": "maybe"});
        assert!(matches!(ReplayRun::new(r), Err(ReplayError::BadResult(_))));
        assert_eq!(
            ReplayRun::new(Recording::default()),
            Err(ReplayError::Empty)
        );
        let r = Recording {
            events: vec![json!({"kind": "finished", "verdict": {}}); MAX_EVENTS + 1],
            result: json!({"verdict": "verified"}),
        };
        assert!(matches!(
            ReplayRun::new(r),
            Err(ReplayError::TooManyEvents(_))
        ));
    }
}
