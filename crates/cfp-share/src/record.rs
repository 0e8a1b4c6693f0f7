//! The record file: the JSON document `cfp check --record FILE` writes, and the share link
//! made from it (`cfp share FILE`).
//!
//! ```text
//! {"version": 1,
//!  "program": {"path": "...", "text": "..."},
//!  "spec": {"path": "...", "text": "..."},
//!  "options": {"max_iterations": N, "entry"?: "...", "timeout_secs"?: S},
//!  "events": [...],      // the driver's events in order (`cfp_core::check::Event`)
//!  "result": {...},      // exactly the `cfp check --json` object of the run
//!  "timings"?: {...}}    // wall-clock times; absent with `--no-timing`
//! ```
//!
//! [`RecordFile`] is generic over the types of the events, the result and the timings so that
//! the CLI can write its own typed values (keeping their field order) while readers get plain
//! JSON values; the layout is defined once, here.

use crate::state::{Recording, ShareOptions, ShareState};
use serde::de::{Deserializer, IgnoredAny};
use serde::{Deserialize, Serialize};

/// The only record version this crate reads and writes.
pub const RECORD_VERSION: u32 = 1;

/// A `cfp check --record` document. Field order is the serialised order.
///
/// `E`, `R` and `T` are the types of one event, of the result object and of the timings;
/// [`RecordFile::parse`] reads them as [`serde_json::Value`]s.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordFile<E = serde_json::Value, R = serde_json::Value, T = serde_json::Value> {
    /// Always [`RECORD_VERSION`].
    pub version: u32,
    /// The checked program.
    pub program: RecordedFile,
    /// The protocol spec.
    pub spec: RecordedFile,
    /// The options of the run.
    pub options: RecordOptions,
    /// The checker's events, in order; the last one is `finished`.
    pub events: Vec<E>,
    /// The `cfp check --json` object of the run (without `*_ms` fields under `--no-timing`).
    pub result: R,
    /// Wall-clock times of the run; `None` with `--no-timing`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timings: Option<T>,
}

/// An input file of the run: the path as given on the command line, and its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedFile {
    /// The path, as given to `cfp check`.
    pub path: String,
    /// The file's text, verbatim.
    pub text: String,
}

/// The options of a recorded run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordOptions {
    /// The CEGAR iteration budget in effect.
    pub max_iterations: u32,
    /// The entry method (`--entry`), when not `main`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<String>,
    /// The generated driver (`--harness`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harness: Option<String>,
    /// The wall-clock limit (`--timeout`), in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_secs: Option<f64>,
}

/// Why a text is not a usable record file. Displayed as `line:column: message` (1-based), so
/// that a caller can prefix the file name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct RecordError {
    /// 1-based line of the problem.
    pub line: usize,
    /// 1-based column of the problem.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl RecordError {
    fn from_json(e: &serde_json::Error) -> Self {
        let full = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let message = full.strip_suffix(&suffix).unwrap_or(&full).to_string();
        RecordError {
            line: e.line().max(1),
            column: e.column().max(1),
            message,
        }
    }
}

impl RecordFile {
    /// Parses a record file, checking what a replay needs: valid JSON of the record layout,
    /// `version` 1, at least one event, and a `result` object with a `verdict` string (records
    /// written before `result` existed are refused with a hint to re-record), then the
    /// replay rules of [`Recording::validate`] (reported at the `events` key).
    pub fn parse(text: &str) -> Result<RecordFile, RecordError> {
        let record = Self::parse_layout(text)?;
        if let Err(e) = record.recording().validate() {
            let (line, column) = key_position(text, "\"events\"");
            return Err(RecordError {
                line,
                column,
                message: e.to_string(),
            });
        }
        Ok(record)
    }

    fn parse_layout(text: &str) -> Result<RecordFile, RecordError> {
        // First the checks, in document order, so that e.g. a record of a newer version is
        // reported as such rather than as a shape error.
        let checks: Checks =
            cfp_core::deep_json::from_str(text).map_err(|e| RecordError::from_json(&e))?;
        if checks.result.is_none() {
            let (line, column) = end_position(text);
            return Err(RecordError {
                line,
                column,
                message: "the record has no `result` (it was made by an older cfp); \
                          re-run `cfp check --record`"
                    .into(),
            });
        }
        cfp_core::deep_json::from_str(text).map_err(|e| RecordError::from_json(&e))
    }
}

impl<E, R, T> RecordFile<E, R, T> {
    /// The share state of the run: program, spec and iteration budget, no recording (add one
    /// with [`ShareState::record`] and [`RecordFile::recording`]).
    pub fn share_state(&self) -> ShareState {
        ShareState {
            program: self.program.text.clone(),
            spec: self.spec.text.clone(),
            options: ShareOptions {
                max_iterations: Some(self.options.max_iterations),
                entry: self.options.entry.clone(),
                harness: self.options.harness.clone(),
            },
            ..ShareState::default()
        }
    }
}

impl<T> RecordFile<serde_json::Value, serde_json::Value, T> {
    /// The run as a [`Recording`] (events and result) to replay without a solver.
    pub fn recording(&self) -> Recording {
        Recording {
            events: self.events.clone(),
            result: self.result.clone(),
        }
    }

    /// The verdict of the run (`verified`, `violation` or `unknown`), from `result`.
    pub fn verdict(&self) -> Option<&str> {
        self.result
            .get("verdict")
            .and_then(serde_json::Value::as_str)
    }

    /// The number of CEGAR iterations of the run: the largest `iteration` of an event, or the
    /// result's `iterations` if larger.
    pub fn iterations(&self) -> u32 {
        let of = |v: Option<&serde_json::Value>| {
            v.and_then(serde_json::Value::as_u64)
                .map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX))
        };
        let events = self
            .events
            .iter()
            .map(|e| of(e.get("iteration")))
            .max()
            .unwrap_or(0);
        events.max(of(self.result.get("iterations")))
    }
}

/// The parts of a record [`RecordFile::parse`] checks beyond its shape, each while it is
/// deserialised (so that a failed check points at its place); other fields are skipped.
#[derive(Deserialize)]
struct Checks {
    #[allow(dead_code)] // checked by its `Deserialize`
    version: CheckedVersion,
    #[allow(dead_code)]
    events: NonEmptyEvents,
    #[serde(default)]
    result: Option<ResultWithVerdict>,
}

/// A `version` that is [`RECORD_VERSION`].
struct CheckedVersion;

impl<'de> Deserialize<'de> for CheckedVersion {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = u64::deserialize(d)?;
        if v == u64::from(RECORD_VERSION) {
            Ok(CheckedVersion)
        } else {
            Err(serde::de::Error::custom(format!(
                "unsupported record version {v}: this cfp reads version {RECORD_VERSION} records \
                 (made by a newer cfp?)"
            )))
        }
    }
}

/// An `events` array with at least one element.
struct NonEmptyEvents;

impl<'de> Deserialize<'de> for NonEmptyEvents {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if Vec::<IgnoredAny>::deserialize(d)?.is_empty() {
            Err(serde::de::Error::custom(
                "the record has no events (`events` is empty); there is no run to share",
            ))
        } else {
            Ok(NonEmptyEvents)
        }
    }
}

/// A `result` object whose `verdict` is a string.
struct ResultWithVerdict;

impl<'de> Deserialize<'de> for ResultWithVerdict {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        /// Fails inside the object (not after it), so the error points at `result`.
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = ResultWithVerdict;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("the result object of `cfp check --json`")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Self::Value, A::Error> {
                let mut verdict = false;
                while let Some(key) = map.next_key::<String>()? {
                    if key == "verdict" {
                        verdict = map.next_value::<serde_json::Value>()?.is_string();
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                if verdict {
                    Ok(ResultWithVerdict)
                } else {
                    Err(serde::de::Error::custom(
                        "the record's `result` has no `verdict` string",
                    ))
                }
            }
        }
        d.deserialize_map(Visitor)
    }
}

/// The 1-based line and column of the last non-blank character of `text` (where a missing
/// field is noticed), or 1:1.
/// 1-based line and column of the first `key` in `text` (1:1 when absent).
fn key_position(text: &str, key: &str) -> (usize, usize) {
    match text.find(key) {
        Some(at) => {
            let before = &text[..at];
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            (line, column)
        }
        None => (1, 1),
    }
}

fn end_position(text: &str) -> (usize, usize) {
    let end = text.trim_end();
    let line = end.matches('\n').count() + 1;
    let column = end.rsplit('\n').next().map_or(0, |l| l.chars().count());
    (line, column.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A small, valid record with `result` at `key_result` (to build broken variants).
    fn record_text(version: &str, events: &str, result: &str) -> String {
        format!(
            r#"{{
  "version": {version},
  "program": {{"path": "a.java", "text": "class Main {{ void main() {{ }} }}\n"}},
  "spec": {{"path": "lock.cfg", "text": "S -> ε;\n"}},
  "options": {{"max_iterations": 7, "entry": "main"}},
  "events": {events},
  "result": {result}
}}
"#
        )
    }

    const EVENTS: &str = r#"[{"kind": "grammar-built", "iteration": 1, "grammar": "S -> ε;\n"}, {"kind": "inclusion", "iteration": 2, "result": "included"}, {"kind": "finished", "verdict": {"verdict": "verified", "iterations": 2}}]"#;
    const RESULT: &str = r#"{"verdict": "verified", "iterations": 2}"#;

    #[test]
    fn parses_a_record_and_makes_its_share_state() {
        let r = RecordFile::parse(&record_text("1", EVENTS, RESULT)).expect("parses");
        assert_eq!(r.program.path, "a.java");
        assert_eq!(r.options.entry.as_deref(), Some("main"));
        assert_eq!(r.timings, None);
        assert_eq!(r.verdict(), Some("verified"));
        assert_eq!(r.iterations(), 2);
        let s = r.share_state();
        assert_eq!(s.program, "class Main { void main() { } }\n");
        assert_eq!(s.spec, "S -> ε;\n");
        assert_eq!(s.options.max_iterations, Some(7));
        assert_eq!(s.record, None);
        let rec = r.recording();
        assert_eq!(rec.events.len(), 3);
        assert_eq!(rec.result["verdict"], "verified");
        // With the recording attached, the link carries the run.
        let with = ShareState {
            record: Some(rec.clone()),
            ..s
        };
        let d = crate::decode(&crate::encode(&with)).expect("decodes");
        assert_eq!(d.state.record, Some(rec));
    }

    #[test]
    fn typed_records_serialise_in_field_order() {
        #[derive(Serialize)]
        struct Ev {
            kind: &'static str,
        }
        let r: RecordFile<Ev, serde_json::Value, serde_json::Value> = RecordFile {
            version: RECORD_VERSION,
            program: RecordedFile {
                path: "p".into(),
                text: "P".into(),
            },
            spec: RecordedFile {
                path: "s".into(),
                text: "S".into(),
            },
            options: RecordOptions {
                max_iterations: 3,
                entry: None,
                harness: None,
                timeout_secs: Some(1.5),
            },
            events: vec![Ev { kind: "finished" }],
            result: json!({"verdict": "unknown"}),
            timings: None,
        };
        assert_eq!(
            serde_json::to_string(&r).expect("json"),
            r#"{"version":1,"program":{"path":"p","text":"P"},"spec":{"path":"s","text":"S"},"options":{"max_iterations":3,"timeout_secs":1.5},"events":[{"kind":"finished"}],"result":{"verdict":"unknown"}}"#
        );
    }

    #[test]
    fn broken_json_reports_line_and_column() {
        let text = record_text("1", EVENTS, RESULT).replace("\"spec\": {", "\"spec\" {");
        let e = RecordFile::parse(&text).expect_err("broken");
        assert_eq!((e.line, e.column), (4, 10), "{e}");
        assert!(e.to_string().starts_with("4:10: expected `:`"), "{e}");
        let e = RecordFile::parse("").expect_err("empty");
        assert_eq!(e.line, 1);
        assert!(e.to_string().starts_with("1:"), "{e}");
        // Wrong shape: a string where the options object should be.
        let text = record_text("1", EVENTS, RESULT)
            .replace(r#"{"max_iterations": 7, "entry": "main"}"#, r#""fast""#);
        let e = RecordFile::parse(&text).expect_err("shape");
        assert_eq!(e.line, 5, "{e}");
        assert!(e.message.contains("invalid type"), "{e}");
    }

    #[test]
    fn events_follow_the_replay_rules() {
        let bad = EVENTS.replace(r#""iteration": 2"#, r#""iteration": 9"#);
        let e = RecordFile::parse(&record_text("1", &bad, RESULT)).expect_err("jump");
        assert_eq!((e.line, e.column), (6, 3), "{e}");
        assert!(e.message.contains("jumps to iteration 9"), "{e}");
        let bad = EVENTS.replace(r#""kind": "inclusion""#, r#""kind": "bogus""#);
        let e = RecordFile::parse(&record_text("1", &bad, RESULT)).expect_err("kind");
        assert!(
            e.message.contains("event 2 of the recording is invalid"),
            "{e}"
        );
    }

    #[test]
    fn other_versions_are_refused_clearly() {
        let e = RecordFile::parse(&record_text("2", EVENTS, RESULT)).expect_err("v2");
        assert_eq!(e.line, 2, "{e}");
        assert!(
            e.message.contains("unsupported record version 2"),
            "{}",
            e.message
        );
        // Even when the rest of the layout is unknown.
        let e = RecordFile::parse(r#"{"version": 3, "runs": []}"#).expect_err("v3");
        assert!(e.message.contains("version 3"), "{e}");
        assert!(RecordFile::parse(&record_text("\"1\"", EVENTS, RESULT)).is_err());
    }

    #[test]
    fn empty_events_and_missing_verdicts_are_refused() {
        let e = RecordFile::parse(&record_text("1", "[]", RESULT)).expect_err("no events");
        assert_eq!(e.line, 6, "{e}");
        assert!(e.message.contains("no events"), "{e}");
        for bad in [r#"{"iterations": 2}"#, r#"{"verdict": 1}"#] {
            let e = RecordFile::parse(&record_text("1", EVENTS, bad)).expect_err("no verdict");
            assert_eq!(e.line, 7, "{e}");
            assert!(e.message.contains("`verdict`"), "{e}");
        }
        // A record from before `result` existed.
        let old =
            record_text("1", EVENTS, RESULT).replace(&format!(",\n  \"result\": {RESULT}"), "");
        let e = RecordFile::parse(&old).expect_err("old record");
        assert_eq!((e.line, e.column), (7, 1), "{e}");
        assert!(e.message.contains("re-run `cfp check --record`"), "{e}");
    }
}
