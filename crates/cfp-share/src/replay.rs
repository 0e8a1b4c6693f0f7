//! The rules a recorded run must follow before it is replayed (the playground) or put
//! into a link (`cfp share --with-record`) — defined once, here.
//!
//! A recording comes from a link or a file anyone can write, so it is checked before any of
//! it is shown: every event must decode as the core's own event type, iterations must start
//! at 1 and grow by at most one per event (a replay allocates one record per iteration: a
//! hostile `iteration: 4000000000` must not allocate four billion), the counts are bounded,
//! and the result must be a `cfp check --json` object. Recordings made before events
//! carried PCFAs and derivation trees still pass (the core's types read them).

use crate::state::Recording;
use cfp_core::check::Event;
use cfp_core::report_json::ResultJson;
use serde::Deserialize;

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

/// A recording that follows the rules, decoded.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidRecording {
    /// The events, in order.
    pub events: Vec<Event>,
    /// The result object.
    pub result: ResultJson,
}

/// The iteration of an event (`None` for `finished`).
pub fn event_iteration(e: &Event) -> Option<u32> {
    match e {
        Event::GrammarBuilt { iteration, .. }
        | Event::Inclusion { iteration, .. }
        | Event::Counterexample { iteration, .. }
        | Event::Feasibility { iteration, .. }
        | Event::Interpolants { iteration, .. }
        | Event::Refined { iteration, .. } => Some(*iteration),
        Event::Finished { .. } => None,
    }
}

impl Recording {
    /// Checks the recording (see the module docs) and decodes it.
    pub fn validate(&self) -> Result<ValidRecording, ReplayError> {
        if self.events.is_empty() {
            return Err(ReplayError::Empty);
        }
        if self.events.len() > MAX_EVENTS {
            return Err(ReplayError::TooManyEvents(self.events.len()));
        }
        let mut events = Vec::with_capacity(self.events.len());
        let mut previous = 0u32;
        for (i, raw) in self.events.iter().enumerate() {
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
        let result = ResultJson::deserialize(&self.result)
            .map_err(|e| ReplayError::BadResult(e.to_string()))?;
        Ok(ValidRecording { events, result })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn recording(events: Vec<serde_json::Value>) -> Recording {
        Recording {
            events,
            result: json!({"verdict": "verified", "iterations": 1}),
        }
    }

    fn built(iteration: u32) -> serde_json::Value {
        json!({"kind": "grammar-built", "iteration": iteration, "grammar": "S -> ε;\n"})
    }

    #[test]
    fn iterations_go_one_by_one() {
        assert!(recording(vec![built(1), built(2), built(2)])
            .validate()
            .is_ok());
        assert_eq!(
            recording(vec![built(1), built(3)]).validate(),
            Err(ReplayError::OutOfOrder {
                index: 2,
                iteration: 3,
                previous: 1
            })
        );
        assert!(matches!(
            recording(vec![built(4_000_000_000)]).validate(),
            Err(ReplayError::OutOfOrder { index: 1, .. })
        ));
    }

    #[test]
    fn events_and_results_must_decode() {
        assert!(matches!(
            recording(vec![json!({"kind": "<script>"})]).validate(),
            Err(ReplayError::BadEvent { index: 1, .. })
        ));
        let mut r = recording(vec![built(1)]);
        r.result = json!({"verdict": "maybe"});
        assert!(matches!(r.validate(), Err(ReplayError::BadResult(_))));
        assert_eq!(recording(Vec::new()).validate(), Err(ReplayError::Empty));
        assert!(matches!(
            recording(vec![built(1); MAX_EVENTS + 1]).validate(),
            Err(ReplayError::TooManyEvents(_))
        ));
    }
}
