//! The page's handle on the Web Worker (`worker.js`, next to `index.html`): spawn, post
//! JSON messages, decode replies, terminate. Replies are decoded here and handed to the
//! app as `Result<FromWorker, String>`; a malformed message is an `Err`, never a panic.

use super::messages::{parse_message_text, FromWorker, ToWorker};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{MessageEvent, Worker};
use yew::Callback;

/// The worker script, relative to the page.
pub const WORKER_URL: &str = "worker.js";

/// A running worker and the closures it calls back into.
pub struct WorkerHost {
    worker: Worker,
    _onmessage: Closure<dyn FnMut(MessageEvent)>,
    _onerror: Closure<dyn FnMut(JsValue)>,
}

fn js_error_text(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| {
            js_sys::Reflect::get(e, &JsValue::from_str("message"))
                .ok()
                .and_then(|m| m.as_string())
        })
        .unwrap_or_else(|| format!("{e:?}"))
}

/// Decodes `MessageEvent.data`: JSON text or a structured-cloned object.
pub fn decode_data(data: JsValue) -> Result<FromWorker, String> {
    if let Some(text) = data.as_string() {
        return parse_message_text(&text);
    }
    let text = js_sys::JSON::stringify(&data)
        .map_err(|e| format!("worker message is not JSON-shaped: {}", js_error_text(&e)))?;
    match text.as_string() {
        Some(t) => parse_message_text(&t),
        None => Err("worker message is not JSON-shaped".to_owned()),
    }
}

impl WorkerHost {
    /// Starts `worker.js`; every message (decoded) goes to `on_message`, a load or runtime
    /// error of the worker goes there as `Err`.
    pub fn spawn(on_message: Callback<Result<FromWorker, String>>) -> Result<WorkerHost, String> {
        let worker = Worker::new(WORKER_URL)
            .map_err(|e| format!("cannot start {WORKER_URL}: {}", js_error_text(&e)))?;
        let cb = on_message.clone();
        let onmessage = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            cb.emit(decode_data(e.data()));
        });
        let onerror = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| {
            on_message.emit(Err(format!("worker error: {}", js_error_text(&e))));
        });
        worker.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
        worker.set_onerror(Some(onerror.as_ref().unchecked_ref()));
        Ok(WorkerHost {
            worker,
            _onmessage: onmessage,
            _onerror: onerror,
        })
    }

    /// Posts a message as a plain JS object (JSON-compatible).
    pub fn post(&self, msg: &ToWorker) -> Result<(), String> {
        let json = serde_json::to_string(msg).map_err(|e| format!("cannot encode message: {e}"))?;
        let value = js_sys::JSON::parse(&json)
            .map_err(|e| format!("cannot encode message: {}", js_error_text(&e)))?;
        self.worker
            .post_message(&value)
            .map_err(|e| format!("postMessage failed: {}", js_error_text(&e)))
    }

    /// Stops the worker at once.
    pub fn terminate(&self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

impl Drop for WorkerHost {
    fn drop(&mut self) {
        self.terminate();
    }
}
