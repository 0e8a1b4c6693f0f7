//! Browser storage that may be refused.
//!
//! Embeds on other sites, private windows and strict privacy settings make
//! `window.localStorage` throw (a `SecurityError`) or return nothing. The page keeps its
//! draft, split and theme here only as a convenience: every read answers `None` and every
//! write is dropped when storage is refused, and the console says once, quietly, what is
//! not kept.

use serde::de::DeserializeOwned;
use serde::Serialize;
use std::cell::Cell;

thread_local! {
    /// Whether the console was already told that storage is refused.
    static TOLD: Cell<bool> = const { Cell::new(false) };
}

/// The page's local storage, if the browser grants it.
fn local() -> Option<web_sys::Storage> {
    match web_sys::window().map(|w| w.local_storage()) {
        Some(Ok(Some(storage))) => Some(storage),
        _ => {
            refused();
            None
        }
    }
}

/// Says once that nothing is kept across visits.
fn refused() {
    if !TOLD.with(|t| t.replace(true)) {
        web_sys::console::info_1(
            &"cfplay: browser storage is not available here; the draft, layout and theme \
              are not kept across visits"
                .into(),
        );
    }
}

/// The value under `key`, if storage is granted and it holds a `T`.
pub fn get<T: DeserializeOwned>(key: &str) -> Option<T> {
    let text = local()?.get_item(key).ok()??;
    serde_json::from_str(&text).ok()
}

/// Keeps `value` under `key` (dropped when storage is refused or full).
pub fn set<T: Serialize + ?Sized>(key: &str, value: &T) {
    let Some(storage) = local() else { return };
    let Ok(text) = serde_json::to_string(value) else {
        return;
    };
    if storage.set_item(key, &text).is_err() {
        refused();
    }
}
