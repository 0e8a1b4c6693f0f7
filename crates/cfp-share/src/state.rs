//! What a share link carries: the state of the playground.

use serde::{Deserialize, Serialize};

/// Everything a share link carries: enough to re-run the same check deterministically and land
/// on the same iteration.
///
/// Unknown fields are ignored when decoding (a link from a newer playground still opens), and
/// optional fields that are absent take their defaults.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ShareState {
    /// The Java program, verbatim (never interpreted by the codec).
    pub program: String,
    /// The specification grammar (`.cfg` text), verbatim.
    pub spec: String,
    /// Checker options that affect the run's outcome.
    #[serde(default, skip_serializing_if = "ShareOptions::is_default")]
    pub options: ShareOptions,
    /// The selected iteration (1-based, as in the checker's events) to show after the run;
    /// `None` shows the final one (the counterexample or the proof).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iteration: Option<u32>,
    /// How the page presents itself when embedded (`?embed`).
    #[serde(default, skip_serializing_if = "EmbedOptions::is_default")]
    pub embed: EmbedOptions,
    /// A recorded run to replay without live Z3 (small runs only: it makes the link long).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<Recording>,
}

/// A recorded run: the checker's events in order and the final result, exactly as
/// `cfp check --record` writes them (`events`, `result`) and as the worker posts them.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Recording {
    /// `cfp_core::check::Event`s, serialised (each tagged by `kind`).
    pub events: Vec<serde_json::Value>,
    /// The `cfp check --json --no-timing` object of the run.
    pub result: serde_json::Value,
}

/// Checker options carried by a link.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ShareOptions {
    /// Bound on refinement iterations; `None` uses the playground's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_iterations: Option<u32>,
    /// The entry method (`cfp check --entry`, e.g. `Account.deposit`); `None`: `main`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<String>,
    /// The generated driver (`cfp check --harness`: `android-activity` or
    /// `public-methods`); `None`: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harness: Option<String>,
}

impl ShareOptions {
    fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

/// Presentation options for embed mode (an iframe with minimal chrome).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct EmbedOptions {
    /// The editors are read-only.
    #[serde(default, skip_serializing_if = "is_false")]
    pub read_only: bool,
    /// Start the animation at this iteration (1-based) instead of the first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_at: Option<u32>,
    /// Start playing the run as soon as the page loads.
    #[serde(default, skip_serializing_if = "is_false")]
    pub autoplay: bool,
}

impl EmbedOptions {
    fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}
