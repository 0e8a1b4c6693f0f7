//! What the page starts with: its URL (query and share fragment), whether it is
//! cross-origin isolated, and recordings fetched with `?record=FILE`.

use super::page_url::{parse_query, PageParams};
use super::replay::ReplayRun;
use crate::share::{decode, RecordFile, Recording, ShareState, ShareWarning};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Largest recording file fetched with `?record=` (bytes).
pub const MAX_RECORD_FILE: usize = 16 * 1024 * 1024;

/// The page's address and what it asks for.
pub struct Startup {
    /// The query parameters.
    pub params: PageParams,
    /// The state from the `#v1.…` fragment, if there is a valid one.
    pub state: Option<ShareState>,
    /// The fragment as read (`#…`, or empty).
    pub hash: String,
    /// The page's address without query and fragment (base of the links it hands out).
    pub base: String,
    /// `crossOriginIsolated` (live Z3 possible).
    pub isolated: bool,
    /// Fatal problems with the link (shown as errors; the default example is loaded).
    pub errors: Vec<String>,
    /// Non-fatal remarks (long link, ignored settings, bad query values).
    pub notices: Vec<String>,
    /// The editors' texts as the page last saved them (local storage).
    pub draft: Option<Draft>,
}

/// The editors' texts, kept in local storage so a reload does not lose them.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Draft {
    /// Program text.
    pub program: String,
    /// Spec text.
    pub spec: String,
}

/// The local-storage key of the [`Draft`].
pub const DRAFT_KEY: &str = "cfplay.draft";

/// The saved draft, if any (none when storage is unavailable or holds something else).
fn read_draft() -> Option<Draft> {
    super::storage::get(DRAFT_KEY)
}

/// Saves the draft (best effort: private modes may refuse storage).
pub fn save_draft(draft: &Draft) {
    super::storage::set(DRAFT_KEY, draft);
}

/// Reads `location` and `crossOriginIsolated`.
pub fn read_page() -> Startup {
    let window = gloo::utils::window();
    let location = window.location();
    let search = location.search().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    let base = format!(
        "{}{}",
        location.origin().unwrap_or_default(),
        location.pathname().unwrap_or_default()
    );
    let isolated = js_sys::Reflect::get(&window, &"crossOriginIsolated".into())
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    let params = parse_query(&search);
    let mut notices = params.problems.clone();
    let mut errors = Vec::new();
    let mut state = None;
    if !hash.is_empty() && hash != "#" {
        match decode(&hash) {
            Ok(d) => {
                // The length remark is for whoever shares a link (the share panel shows it),
                // not for whoever opened it.
                notices.extend(
                    d.warnings
                        .iter()
                        .filter(|w| !matches!(w, ShareWarning::LongLink { .. }))
                        .map(ToString::to_string),
                );
                state = Some(d.state);
            }
            Err(e) => errors.push(format!(
                "This link cannot be opened: {e}. The default example is shown instead."
            )),
        }
    }
    Startup {
        params,
        state,
        hash,
        base,
        isolated,
        errors,
        notices,
        draft: read_draft(),
    }
}

/// The inputs a recording belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedInputs {
    /// Program text.
    pub program: String,
    /// Spec text.
    pub spec: String,
    /// Iteration budget of the recorded run.
    pub max_iterations: Option<u32>,
    /// Where the recorded check started.
    pub entry: super::entry_choice::EntryChoice,
}

/// A recording ready to replay, with the inputs it was made from.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedRecord {
    /// The inputs.
    pub inputs: RecordedInputs,
    /// The validated run.
    pub run: ReplayRun,
}

/// Validates the recording inside a share link.
pub fn record_from_link(state: &ShareState, recording: Recording) -> Result<LoadedRecord, String> {
    let run = ReplayRun::new(recording)
        .map_err(|e| format!("The recorded run in this link cannot be replayed: {e}"))?;
    Ok(LoadedRecord {
        inputs: RecordedInputs {
            program: state.program.clone(),
            spec: state.spec.clone(),
            max_iterations: state.options.max_iterations,
            entry: super::entry_choice::EntryChoice::from_options(
                state.options.entry.as_deref(),
                state.options.harness.as_deref(),
            ),
        },
        run,
    })
}

/// Parses and validates a `cfp check --record` file.
pub fn record_from_file(path: &str, text: &str) -> Result<LoadedRecord, String> {
    let file =
        RecordFile::parse(text).map_err(|e| format!("The recording {path} is invalid: {e}"))?;
    let inputs = RecordedInputs {
        program: file.program.text.clone(),
        spec: file.spec.text.clone(),
        max_iterations: Some(file.options.max_iterations),
        entry: super::entry_choice::EntryChoice::from_options(
            file.options.entry.as_deref(),
            file.options.harness.as_deref(),
        ),
    };
    let run = ReplayRun::new(Recording {
        events: file.events,
        result: file.result,
    })
    .map_err(|e| format!("The recording {path} cannot be replayed: {e}"))?;
    Ok(LoadedRecord { inputs, run })
}

/// Fetches `path` (already checked to be a relative path) and validates it as a recording.
pub async fn fetch_record(path: String) -> Result<LoadedRecord, String> {
    let window = gloo::utils::window();
    // Resolve against the page and insist on the page's own origin.
    let href = window.location().href().unwrap_or_default();
    let url = web_sys::Url::new_with_base(&path, &href)
        .map_err(|_| format!("The recording path {path} is not a valid URL"))?;
    if url.origin() != window.location().origin().unwrap_or_default() {
        return Err(format!(
            "The recording {path} is not on this site; only recordings served next to the page are loaded"
        ));
    }
    let fail = |what: &str| format!("The recording {path} could not be loaded: {what}");
    let response = JsFuture::from(window.fetch_with_str(&url.href()))
        .await
        .map_err(|_| fail("network error"))?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| fail("no response"))?;
    if !response.ok() {
        return Err(fail(&format!("HTTP {}", response.status())));
    }
    let text = JsFuture::from(response.text().map_err(|_| fail("unreadable body"))?)
        .await
        .map_err(|_| fail("unreadable body"))?
        .as_string()
        .ok_or_else(|| fail("not text"))?;
    if text.len() > MAX_RECORD_FILE {
        return Err(fail(&format!(
            "it is larger than {} MiB",
            MAX_RECORD_FILE / (1024 * 1024)
        )));
    }
    record_from_file(&path, &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAPER: &str = include_str!("../../../static/examples/records/paper-fig2.record.json");

    #[test]
    fn a_cli_record_file_loads_with_its_inputs() {
        let r = record_from_file("paper.json", PAPER).expect("valid record");
        assert!(r.inputs.program.contains("class Main"));
        assert!(r.inputs.spec.contains("$1.lock()"));
        assert_eq!(r.inputs.max_iterations, Some(50));
        assert_eq!(r.run.result.iterations, 2);
        assert_eq!(r.run.result.verdict.as_str(), "verified");
    }

    #[test]
    fn bad_record_files_say_where() {
        let e = record_from_file("runs/x.json", "{\n  \"version\": 1,\n  oops").unwrap_err();
        assert!(
            e.starts_with("The recording runs/x.json is invalid: 3:"),
            "{e}"
        );
        let mut v: serde_json::Value = serde_json::from_str(PAPER).expect("json");
        v["events"][3]["iteration"] = serde_json::json!(77);
        let e = record_from_file("x.json", &v.to_string()).unwrap_err();
        assert!(
            e.contains("invalid") && e.contains("event 4 of the recording jumps to iteration 77"),
            "{e}"
        );
    }
}
