//! Replaying a recorded run without live Z3 (issue 6, DESIGN.md §5): the events of
//! `cfp check --record` (or of a recording inside a share link) are checked here and then
//! played through the same queue and [`super::model::RunModel`] as a live run's events.
//!
//! A recording comes from a link or a file anyone can write, so it is validated before any
//! of it is shown: every event must decode, iterations must start at 1 and grow by at most
//! one per event (the model allocates one record per iteration: a hostile `iteration:
//! 4000000000` must not allocate four billion), the counts are bounded, and the result must
//! be a `cfp check --json` object. Text in a recording is only ever shown as text.

use super::messages::{event_iteration, Event, RunResult};
use crate::share::Recording;
use serde::Deserialize;
use serde_json::Value;

/// At most this many events are replayed.
pub const MAX_EVENTS: usize = 200_000;

/// At most this many iterations are replayed.
pub const MAX_ITERATIONS: u32 = 10_000;

/// Why a recording cannot be replayed (shown to the user).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// No events.
    #[error("the recording has no events")]
    Empty,
    /// Too many events.
    #[error("the recording has {0} events; at most {MAX_EVENTS} can be replayed")]
    TooManyEvents(usize),
    /// An event does not decode.
    #[error("event {index} of the recording is invalid: {message}")]
    BadEvent {
        /// 1-based index of the event.
        index: usize,
        /// What is wrong.
        message: String,
    },
    /// Iterations do not go 1, 2, 3, … in order.
    #[error("event {index} of the recording jumps to iteration {iteration} after {previous}")]
    OutOfOrder {
        /// 1-based index of the event.
        index: usize,
        /// Its iteration.
        iteration: u32,
        /// The iteration before it.
        previous: u32,
    },
    /// The result is not a `cfp check --json` object.
    #[error("the recording's result is invalid: {0}")]
    BadResult(String),
}

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
    /// Validates `recording` (see the module docs).
    pub fn new(recording: Recording) -> Result<ReplayRun, ReplayError> {
        if recording.events.is_empty() {
            return Err(ReplayError::Empty);
        }
        if recording.events.len() > MAX_EVENTS {
            return Err(ReplayError::TooManyEvents(recording.events.len()));
        }
        let mut events = Vec::with_capacity(recording.events.len());
        let mut previous = 0u32;
        for (i, raw) in recording.events.iter().enumerate() {
            let index = i + 1;
            let event = Event::deserialize(raw).map_err(|e| ReplayError::BadEvent {
                index,
                message: e.to_string(),
            })?;
            if let Some(it) = event_iteration(&event) {
                if it < previous || it > previous.saturating_add(1) || it > MAX_ITERATIONS {
                    return Err(ReplayError::OutOfOrder {
                        index,
                        iteration: it,
                        previous,
                    });
                }
                previous = it;
            }
            events.push(event);
        }
        let result = RunResult::deserialize(&recording.result)
            .map_err(|e| ReplayError::BadResult(e.to_string()))?;
        Ok(ReplayRun {
            events,
            result,
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
