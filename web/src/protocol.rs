//! Messages between the page and the Web Worker that runs the checker.
//!
//! Every message is a JSON object with a `"type"` tag. The worker receives plain JS
//! objects (`postMessage({...})`) and posts the JSON *text* of its messages (one string
//! copy across threads instead of a structured clone that the page would walk again; the
//! page also accepts objects); in Rust both directions are (de)serialised with
//! `serde_json`, so the shapes below are exact.
//!
//! **Page → worker** ([`ToWorker`]):
//! ```text
//! {"type":"run","run":7,"program":"…","spec":"…","options":{"max_iterations":50|null,"timeout_ms":60000},"mode":"run"|"step"}
//! {"type":"step"}      // step mode: run the next iteration (ignored otherwise)
//! {"type":"cancel"}    // stop the current run
//! ```
//! **Worker → page** ([`FromWorker`]):
//! ```text
//! {"type":"status","z3":"loading"|"ready"|"error","detail":"…"}
//! {"type":"event","run":7,"event":{…}}   // a cfp_core Event, exactly as in `cfp check --record`
//! {"type":"diagnostics","run":7,"items":[{"file":"program"|"spec","line":L,"col":C,"message":"…"}]}
//! {"type":"done","run":7,"result":{…}}   // exactly the object `cfp check --json --no-timing` prints
//! {"type":"cancelled","run":7}
//! {"type":"error","run":7|null,"message":"…"}
//! {"type":"crashed","message":"…","cause":"panic"|"out-of-memory"|"solver"}  // the worker must be replaced
//! ```
//! Life of a run: `run` → any number of `event`s → exactly one of `done`, `cancelled`,
//! `diagnostics` (bad input: the run did not start), `error` (z3 unavailable) or
//! `crashed` (a panic in the checker; the page replaces the worker). Every message about
//! a run carries the id the page gave it in `run`, so the page drops whatever an older
//! run still had in flight when a new one started.
//! In `"step"` mode the worker runs one CEGAR iteration per `step` message (the first
//! iteration runs at once on `run`): the events of an iteration end with `refined` or
//! `finished`. A `run` while another run is active cancels the old one first (its
//! `cancelled` is posted before the new run's messages). The worker posts
//! `status` `loading` at start and `ready` (or `error`) once z3 is initialised; a `run`
//! received before that waits for it.
//!
//! Cancelling is cooperative: it takes effect at the next SMT call (and interrupts the
//! current one); a long inclusion check runs to its end. The page may
//! `terminate()` the worker and start a new one as a last resort.

use cfp_core::report_json::ResultJson;
use cfp_core::Event;
use serde::{Deserialize, Serialize};

/// A message from the page to the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ToWorker {
    /// Start checking `program` against `spec`.
    Run {
        /// The page's id for this run, echoed on every message about it (so a message of
        /// an older run that was still in flight is told apart; ids only grow).
        #[serde(default)]
        run: u32,
        /// The program text (Java subset).
        program: String,
        /// The protocol spec text.
        spec: String,
        /// Limits.
        #[serde(default)]
        options: RunOptions,
        /// Run to the end, or one iteration per [`ToWorker::Step`].
        #[serde(default)]
        mode: RunMode,
    },
    /// Step mode: run the next iteration.
    Step,
    /// Stop the current run; the worker answers [`FromWorker::Cancelled`].
    Cancel,
}

/// Options of a run (the CLI's flags of the same names).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunOptions {
    /// CEGAR iteration budget; `null`: the driver's default (50).
    #[serde(default)]
    pub max_iterations: Option<u32>,
    /// Wall-clock limit of the run in milliseconds (`cfp check --timeout`); past it the run
    /// ends `unknown` ("timeout of … s reached"). `null`: no limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// Entry method (`cfp check --entry`, e.g. `Player.onStart` or `C.m/2`); `null`:
    /// `main`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<String>,
    /// Generated driver (`cfp check --harness`: `android-activity` or `public-methods`);
    /// `null`: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harness: Option<String>,
    /// Which library calls may throw (`cfp check --library-throws`: `none`, `caught` or
    /// `any`); `null`: `caught`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub library_throws: Option<String>,
}

/// How a run advances.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunMode {
    /// To the end without pausing.
    #[default]
    Run,
    /// One iteration per `step` message.
    Step,
}

/// State of the worker's z3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Z3Status {
    /// `z3-built.wasm` is being fetched and compiled.
    Loading,
    /// Ready for runs.
    Ready,
    /// z3 could not be loaded (see `detail`); runs answer `error`.
    Error,
}

/// Which input a diagnostic is about (the core's type: `"program"` / `"spec"`).
pub use cfp_core::InputFile;

/// One front-end diagnostic (parse, spec check, lowering), 1-based line and column
/// (characters).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiagnosticItem {
    /// The input it is about.
    pub file: InputFile,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (characters).
    pub col: u32,
    /// The message (one line).
    pub message: String,
    /// Error (the input cannot be checked) or warning (it is checked anyway).
    #[serde(default, skip_serializing_if = "DiagSeverity::is_error")]
    pub severity: DiagSeverity,
}

/// How bad a [`DiagnosticItem`] is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DiagSeverity {
    /// The input cannot be checked.
    #[default]
    Error,
    /// The input is checked anyway (a missing `;`, an unreachable nonterminal, …).
    Warning,
}

impl DiagSeverity {
    fn is_error(&self) -> bool {
        *self == DiagSeverity::Error
    }
}

/// A message from the worker to the page.
///
/// `event` and `result` are kept as raw JSON text so they are exactly what the CLI
/// prints (field order included). Serialise-only: serde cannot buffer a `RawValue` in an
/// internally tagged enum, so the page decodes these messages with its own types (the
/// variant payloads [`Z3Status`] and [`DiagnosticItem`] are `Deserialize`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum FromWorker {
    /// z3's state.
    Status {
        /// Loading, ready or error.
        z3: Z3Status,
        /// Human-readable detail (the error, the load time).
        #[serde(default)]
        detail: String,
    },
    /// One driver event (as in `cfp check --record`'s `events`): the core's own type.
    Event {
        /// The run's id (from [`ToWorker::Run`]).
        run: u32,
        /// The event (`{"kind": "grammar-built", …}`).
        event: Box<Event>,
    },
    /// The input has errors; the run did not start.
    Diagnostics {
        /// The run's id.
        run: u32,
        /// The errors, in source order per file (spec first).
        items: Vec<DiagnosticItem>,
    },
    /// The run finished.
    Done {
        /// The run's id.
        run: u32,
        /// The `cfp check --json --no-timing` object (with each strategy's time).
        result: Box<ResultJson>,
    },
    /// The run was cancelled.
    Cancelled {
        /// The run's id.
        run: u32,
    },
    /// Something failed outside the checker's verdicts (z3 unavailable, a bad message).
    Error {
        /// The run it ends (`None`: not about a run, e.g. a malformed message).
        #[serde(default)]
        run: Option<u32>,
        /// What failed.
        message: String,
    },
    /// The worker cannot go on: the checker panicked (a bug), or Z3 aborted (out of memory,
    /// or otherwise). The page ends the run as `unknown` with this message and starts a new
    /// worker.
    Crashed {
        /// What happened, for people.
        message: String,
        /// Why (`panic` when absent).
        #[serde(default)]
        cause: CrashCause,
    },
}

/// Why a worker crashed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CrashCause {
    /// A panic in the checker (a bug).
    #[default]
    Panic,
    /// Z3 ran out of memory.
    OutOfMemory,
    /// Z3 aborted for another reason, or the worker failed outside the checker.
    Solver,
}

impl FromWorker {
    /// The message as JSON text.
    pub fn to_json(&self) -> String {
        // Serialising these types cannot fail (string keys, no non-finite floats); keep a
        // valid message anyway.
        serde_json::to_string(self).unwrap_or_else(|e| {
            format!(
                r#"{{"type":"error","message":{}}}"#,
                serde_json::Value::String(e.to_string())
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_message_parses() {
        let m: ToWorker = serde_json::from_str(
            r#"{"type":"run","run":4,"program":"p","spec":"s","options":{"max_iterations":null},"mode":"step"}"#,
        )
        .unwrap();
        assert_eq!(
            m,
            ToWorker::Run {
                run: 4,
                program: "p".into(),
                spec: "s".into(),
                options: RunOptions::default(),
                mode: RunMode::Step
            }
        );
        let m: ToWorker = serde_json::from_str(r#"{"type":"cancel"}"#).unwrap();
        assert_eq!(m, ToWorker::Cancel);
    }

    #[test]
    fn outgoing_shapes() {
        let s = FromWorker::Status {
            z3: Z3Status::Ready,
            detail: "ok".into(),
        };
        assert_eq!(
            s.to_json(),
            r#"{"type":"status","z3":"ready","detail":"ok"}"#
        );
        let d = FromWorker::Diagnostics {
            run: 2,
            items: vec![DiagnosticItem {
                file: InputFile::Spec,
                line: 1,
                col: 2,
                message: "m".into(),
                severity: DiagSeverity::Error,
            }],
        };
        assert_eq!(
            d.to_json(),
            r#"{"type":"diagnostics","run":2,"items":[{"file":"spec","line":1,"col":2,"message":"m"}]}"#
        );
        // Every message reads back as itself (the page decodes exactly these types).
        for m in [s, d] {
            let back: FromWorker = serde_json::from_str(&m.to_json()).unwrap();
            assert_eq!(back, m);
        }
        assert_eq!(
            FromWorker::Cancelled { run: 3 }.to_json(),
            r#"{"type":"cancelled","run":3}"#
        );
    }
}
