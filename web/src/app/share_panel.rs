//! The share panel: the link, a Markdown link and the embed snippet for the current state
//! (issue 6), each with a copy button.

use super::page_url::{embed_snippet, embed_url, playground_url};
use crate::share::{encode_checked, markdown_link, Recording, ShareState, MAX_FRAGMENT};
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
        ShareTexts {
            markdown: markdown_link(&link, title),
            snippet: embed_snippet(&embed_link, title),
            link,
            embed_link,
            embed_has_record,
            notes,
        }
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
            if let Some(msg) = (*copied).clone() {
                <p class="small" data-testid="share-copied" role="status">{ msg }</p>
            }
            { for t.notes.iter().map(|n| html! { <p class="small warn" data-testid="share-warning">{ n.clone() }</p> }) }
        </section>
    }
}
