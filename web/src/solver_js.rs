//! [`JsSolver`]: a [`cfp_smt::Solver`] over the JS bridge `globalThis.cfpZ3`
//! (`web/js/z3-bridge.js`), which runs Z3's official wasm build (npm `z3-solver`).
//!
//! The bridge queues calls (one async Z3 call at a time), starts every script from
//! `(reset)` and copies the script to heap memory (ARCHITECTURE.md), so this side only maps
//! promises to futures and JS errors to [`SolverError`]s. A shared [`CancelFlag`] makes
//! every later call fail with [`SolverError::Cancelled`], turns the failure of an
//! interrupted call into `Cancelled` too, and stops the checker's long work between calls
//! ([`Solver::cancelled`]).

use cfp_smt::{Solver, SolverError};
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// `globalThis.cfpZ3.eval(script, limitMs) -> Promise<string>` (`limitMs` 0: none).
    #[wasm_bindgen(js_namespace = cfpZ3, js_name = eval, catch)]
    fn cfp_z3_eval(script: &str, limit_ms: f64) -> Result<js_sys::Promise, JsValue>;

    /// `globalThis.cfpZ3.interrupt()`: stop the running Z3 call.
    #[wasm_bindgen(js_namespace = cfpZ3, js_name = interrupt, catch)]
    fn cfp_z3_interrupt() -> Result<(), JsValue>;

    /// `globalThis.cfpZ3.init() -> Promise<string>` (resolves with a description).
    #[wasm_bindgen(js_namespace = cfpZ3, js_name = init, catch)]
    fn cfp_z3_init() -> Result<js_sys::Promise, JsValue>;
}

/// A cancellation flag shared by the host (which sets it) and the solver and the
/// checker's stop hook (which read it).
#[derive(Clone, Debug, Default)]
pub struct CancelFlag(Rc<Cell<bool>>);

impl CancelFlag {
    /// A flag that is not set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Set the flag.
    pub fn cancel(&self) {
        self.0.set(true);
    }

    /// Whether the flag is set.
    pub fn is_cancelled(&self) -> bool {
        self.0.get()
    }
}

/// The text of a JS error value (its `message`, else its string form).
pub fn js_error_text(e: &JsValue) -> String {
    if let Some(err) = e.dyn_ref::<js_sys::Error>() {
        return String::from(err.message());
    }
    e.as_string().unwrap_or_else(|| format!("{e:?}"))
}

/// Load and initialise Z3 through the bridge; resolves with the bridge's description.
pub async fn init_z3() -> Result<String, SolverError> {
    let promise = cfp_z3_init().map_err(|e| SolverError::Unavailable(js_error_text(&e)))?;
    let v = wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(|e| SolverError::Unavailable(js_error_text(&e)))?;
    Ok(v.as_string().unwrap_or_default())
}

/// Interrupt the running Z3 call, if any (errors ignored: nothing to stop).
pub fn interrupt_z3() {
    let _ = cfp_z3_interrupt();
}

/// Milliseconds spent inside the solver, shared by the solver (which adds to it) and the
/// host (which reads it for the run's timing statistics).
#[derive(Clone, Debug, Default)]
pub struct SmtClock(Rc<Cell<f64>>);

impl SmtClock {
    /// The time so far, ms.
    pub fn total_ms(&self) -> f64 {
        self.0.get()
    }
}

/// The browser's (and Node's) solver: `globalThis.cfpZ3.eval` per script.
#[derive(Clone, Debug, Default)]
pub struct JsSolver {
    cancel: CancelFlag,
    clock: SmtClock,
}

impl JsSolver {
    /// A solver that stops answering once `cancel` is set.
    pub fn new(cancel: CancelFlag) -> Self {
        JsSolver {
            cancel,
            clock: SmtClock::default(),
        }
    }

    /// The clock of the time this solver spends in Z3.
    pub fn clock(&self) -> SmtClock {
        self.clock.clone()
    }
}

impl JsSolver {
    /// One script through the bridge, with a wall-clock limit (0: none).
    async fn call(&mut self, script: &str, limit_ms: u64) -> Result<String, SolverError> {
        if self.cancel.is_cancelled() {
            return Err(SolverError::Cancelled);
        }
        let promise = cfp_z3_eval(script, limit_ms as f64).map_err(|e| {
            SolverError::Unavailable(format!(
                "globalThis.cfpZ3 is missing: {}",
                js_error_text(&e)
            ))
        })?;
        let started = js_sys::Date::now();
        let answer = wasm_bindgen_futures::JsFuture::from(promise).await;
        let clock = &self.clock.0;
        clock.set(clock.get() + (js_sys::Date::now() - started).max(0.0));
        if self.cancel.is_cancelled() {
            return Err(SolverError::Cancelled);
        }
        match answer {
            Ok(v) => v
                .as_string()
                .ok_or_else(|| SolverError::Unreadable(format!("not a string: {v:?}"))),
            Err(e) => {
                let text = js_error_text(&e);
                if text.starts_with("cfp:timeout") {
                    Err(SolverError::TimedOut(text))
                } else {
                    Err(SolverError::crashed(text))
                }
            }
        }
    }
}

impl Solver for JsSolver {
    async fn eval(&mut self, script: &str) -> Result<String, SolverError> {
        self.call(script, 0).await
    }

    async fn eval_within(&mut self, script: &str, limit_ms: u64) -> Result<String, SolverError> {
        self.call(script, limit_ms.max(1)).await
    }

    fn now_ms(&self) -> Option<f64> {
        Some(js_sys::Date::now())
    }

    fn cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }
}
