//! The share panel: the link, a Markdown link and the embed snippet for the current state
//!, each with a copy button.

use super::page_url::{embed_snippet, embed_url, playground_url};
use crate::share::{
    encode_checked, markdown_link, RecordFile, RecordOptions, RecordedFile, Recording, ShareState,
    MAX_FRAGMENT, RECORD_VERSION,
};
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use yew::prelude::*;

/// Above this many characters a fragment is not offered with the recording inside (the
/// hard decode limit is [`MAX_FRAGMENT`]; leave room for the base URL).
pub const MAX_RECORD_FRAGMENT: usize = MAX_FRAGMENT / 2;

/// The texts the panel shows, computed once when it opens (or its options change).
#[derive(Clone, Debug, PartialEq)]
pub struct ShareTexts {
    /// The playground link (re-runs live).
    pub link: String,
    /// `[title](link)`.
    pub markdown: String,
    /// The embed link (with the recording when it fits).
    pub embed_link: String,
    /// The `<iframe>` snippet of `embed_link`.
    pub snippet: String,
    /// Whether `embed_link` carries the recorded run.
    pub embed_has_record: bool,
    /// Remarks (long link, recording left out and why).
    pub notes: Vec<String>,
    /// The run as a `cfp check --record` file (for `?record=`), when there is a recording.
    pub record_file: Option<String>,
}

impl ShareTexts {
    /// Builds the texts for `state` (its `record` is ignored) at page address `base`;
    /// `recording` goes into the embed link when the result fits [`MAX_RECORD_FRAGMENT`].
    pub fn new(
        base: &str,
        state: &ShareState,
        recording: Option<&Recording>,
        title: &str,
    ) -> ShareTexts {
        let mut notes = Vec::new();
        let plain = ShareState {
            record: None,
            ..state.clone()
        };
        let encoded = encode_checked(&plain);
        notes.extend(encoded.warnings.iter().map(ToString::to_string));
        let link = playground_url(base, &encoded.fragment);
        let embed_state = ShareState {
            embed: crate::share::EmbedOptions {
                read_only: true,
                autoplay: true,
                ..state.embed.clone()
            },
            ..plain
        };
        let mut embed_fragment = crate::share::encode(&embed_state);
        let mut embed_has_record = false;
        match recording {
            Some(rec) => {
                let with = crate::share::encode(&ShareState {
                    record: Some(rec.clone()),
                    ..embed_state.clone()
                });
                if with.len() <= MAX_RECORD_FRAGMENT {
                    embed_fragment = with;
                    embed_has_record = true;
                } else {
                    notes.push(format!(
                        "the recorded run is too large for a link ({} KiB); the embed runs live \
                         where the page is cross-origin isolated — or save the run with \
                         `cfp check --record FILE` and add `&record=FILE` to the embed link",
                        with.len() / 1024
                    ));
                }
            }
            None => notes.push(
                "no finished run of these inputs: the embed link carries no recording, so it \
                 replays nothing on pages without cross-origin isolation (run first to include it)"
                    .into(),
            ),
        }
        let embed_link = embed_url(base, &embed_fragment);
        let record_file = recording.and_then(|rec| record_file_text(state, rec));
        ShareTexts {
            record_file,
            markdown: markdown_link(&link, title),
            snippet: embed_snippet(&embed_link, title),
            link,
            embed_link,
            embed_has_record,
            notes,
        }
    }
}

/// The recording as a `cfp check --record` document (what `?record=` loads).
fn record_file_text(state: &ShareState, rec: &Recording) -> Option<String> {
    let file: RecordFile = RecordFile {
        version: RECORD_VERSION,
        program: RecordedFile {
            path: "program.java".into(),
            text: state.program.clone(),
        },
        spec: RecordedFile {
            path: "spec.cfg".into(),
            text: state.spec.clone(),
        },
        options: RecordOptions {
            max_iterations: state
                .options
                .max_iterations
                .unwrap_or(cfp_core::check::CheckOptions::default().max_iterations),
            entry: state.options.entry.clone(),
            harness: state.options.harness.clone(),
            timeout_secs: None,
        },
        events: rec.events.clone(),
        result: rec.result.clone(),
        timings: None,
    };
    serde_json::to_string_pretty(&file).ok().map(|t| t + "\n")
}

/// An object URL for `text` as a JSON file (revoked when the returned guard drops).
struct ObjectUrl(String);

impl ObjectUrl {
    fn json(text: &str) -> Option<ObjectUrl> {
        let parts = js_sys::Array::of1(&JsValue::from_str(text));
        let opts = web_sys::BlobPropertyBag::new();
        opts.set_type("application/json");
        let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).ok()?;
        web_sys::Url::create_object_url_with_blob(&blob)
            .ok()
            .map(ObjectUrl)
    }
}

impl Drop for ObjectUrl {
    fn drop(&mut self) {
        let _ = web_sys::Url::revoke_object_url(&self.0);
    }
}

/// Copies `text` to the clipboard (`navigator.clipboard.writeText`) and reports whether it
/// worked; `false` when the API is missing or the browser refuses (no permission, no user
/// gesture). The text fields stay selectable either way.
pub async fn copy_to_clipboard(text: String) -> bool {
    let nav = gloo::utils::window().navigator();
    let Ok(clipboard) = js_sys::Reflect::get(&nav, &JsValue::from_str("clipboard")) else {
        return false;
    };
    let Ok(write) = js_sys::Reflect::get(&clipboard, &JsValue::from_str("writeText")) else {
        return false;
    };
    let Ok(write) = write.dyn_into::<js_sys::Function>() else {
        return false;
    };
    match write.call1(&clipboard, &JsValue::from_str(&text)) {
        Ok(p) => match p.dyn_into::<js_sys::Promise>() {
            Ok(p) => JsFuture::from(p).await.is_ok(),
            Err(_) => false,
        },
        Err(_) => false,
    }
}

/// Properties of [`SharePanel`].
#[derive(Properties, PartialEq)]
pub struct SharePanelProps {
    /// What to show.
    pub texts: ShareTexts,
    /// Close the panel.
    pub on_close: Callback<()>,
    /// Copy the link as soon as the panel opens (it opens on a click: the browser allows
    /// clipboard writes right after a user gesture).
    #[prop_or_default]
    pub copy_on_open: bool,
}

/// The share panel.
#[function_component(SharePanel)]
pub fn share_panel(props: &SharePanelProps) -> Html {
    let copied = use_state(|| None::<String>);
    let copy = {
        let copied = copied.clone();
        move |what: &'static str, text: String| {
            let copied = copied.clone();
            wasm_bindgen_futures::spawn_local(async move {
                copied.set(Some(if copy_to_clipboard(text).await {
                    format!("Copied {what}.")
                } else {
                    format!("Could not copy {what} (the clipboard is not available here): select the text and copy it.")
                }));
            });
        }
    };
    {
        let copy = copy.clone();
        let link = props.texts.link.clone();
        let on_open = props.copy_on_open;
        use_effect_with((), move |_| {
            if on_open {
                copy("the link", link);
            }
        });
    }
    let copy_button = |what: &'static str, text: String| {
        let copy = copy.clone();
        Callback::from(move |_| copy(what, text.clone()))
    };
    let download = {
        let text = props.texts.record_file.clone();
        use_memo(text, |t| {
            t.as_deref().and_then(ObjectUrl::json).map(Rc::new)
        })
    };
    let t = &props.texts;
    let on_close = props.on_close.reform(|_| ());
    html! {
        <section class="share-panel panel" data-testid="share-panel" aria-label="Share">
            <h2>{ "Share this run" }
                <button class="link" data-testid="share-close" onclick={on_close}>{ "close" }</button>
            </h2>
            <label class="share-row">{ "Link (re-runs the check and opens the selected iteration)" }
                <span class="share-field">
                    <input readonly=true data-testid="share-link" value={t.link.clone()} />
                    <button data-testid="copy-link" onclick={copy_button("the link", t.link.clone())}>{ "Copy" }</button>
                </span>
            </label>
            <label class="share-row">{ "Markdown" }
                <span class="share-field">
                    <input readonly=true data-testid="share-markdown" value={t.markdown.clone()} />
                    <button data-testid="copy-markdown" onclick={copy_button("the Markdown link", t.markdown.clone())}>{ "Copy" }</button>
                </span>
            </label>
            <label class="share-row">
                { if t.embed_has_record { "Embed (HTML; replays the recorded run where live Z3 is unavailable)" } else { "Embed (HTML)" } }
                <span class="share-field">
                    <textarea readonly=true rows="3" data-testid="share-embed" value={t.snippet.clone()} />
                    <button data-testid="copy-embed" onclick={copy_button("the embed snippet", t.snippet.clone())}>{ "Copy" }</button>
                </span>
            </label>
            <input type="hidden" data-testid="share-embed-link" value={t.embed_link.clone()} />
            if let Some(url) = download.as_ref() {
                <p class="small">
                    <a href={url.0.clone()} download="cfplay-run.record.json" data-testid="download-record">
                        { "Download the recorded run" }</a>
                    { " — a `cfp check --record` file: put it next to the playground and embed with `?embed&record=FILE` when the run is too large for a link." }
                </p>
            }
            if let Some(msg) = (*copied).clone() {
                <p class="small" data-testid="share-copied" role="status">{ msg }</p>
            }
            { for t.notes.iter().map(|n| html! { <p class="small warn" data-testid="share-warning">{ n.clone() }</p> }) }
        </section>
    }
}
