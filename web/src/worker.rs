//! The Web Worker's message loop (`static/worker.js` calls `worker_main`, wasm32 only).
//!
//! The worker loads Z3 at start (posting `status` `loading`, then `ready` or `error`),
//! then serves the page's [`ToWorker`](crate::protocol::ToWorker) messages with the
//! replies of [`FromWorker`](crate::protocol::FromWorker) (see [`crate::protocol`] for
//! the life of a run).
//!
//! Cancel: the run's [`CancelFlag`](crate::solver_js::CancelFlag) is set (the solver
//! refuses further scripts, the checker's stop hook fires), the running Z3 call is
//! interrupted, `cancelled` is posted at once and the run is detached: whatever it still
//! does posts nothing. The bridge's queue makes the next run wait for the interrupted call.

#[cfg(target_arch = "wasm32")]
pub use imp::{worker_main, worker_self_test_panic};

#[cfg(target_arch = "wasm32")]
mod imp {
    use crate::engine::{check_options, prepare, result_for_page, EngineError};
    use crate::protocol::{CrashCause, FromWorker, RunMode, RunOptions, ToWorker, Z3Status};
    use crate::solver_js::{init_z3, interrupt_z3, CancelFlag, JsSolver};
    use cfp_core::StopCause;
    use std::cell::{Cell, RefCell};
    use std::rc::Rc;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    #[wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(js_name = setTimeout)]
        fn set_timeout(f: &js_sys::Function, ms: i32) -> JsValue;
    }

    /// Z3's state in this worker.
    enum Z3 {
        Loading,
        Ready,
        Failed(String),
    }

    /// A run the page started and has not cancelled.
    struct Active {
        id: u64,
        /// The page's id of the run (echoed on every message about it).
        run: u32,
        cancel: CancelFlag,
        /// Step messages received before the run asked for them.
        steps_pending: u32,
        /// Resolves the promise the run is waiting on for the next `step`.
        step_waiter: Option<js_sys::Function>,
    }

    struct State {
        z3: Z3,
        next_id: u64,
        active: Option<Active>,
        /// A run received while Z3 was loading.
        queued: Option<Request>,
    }

    thread_local! {
        static STATE: RefCell<State> = const { RefCell::new(State {
            z3: Z3::Loading,
            next_id: 1,
            active: None,
            queued: None,
        }) };
    }

    /// Posts `msg` as its JSON text: a string crosses to the page as one copy, where an
    /// object would be cloned field by field and the page would walk it again to decode
    /// it (a large program's `grammar-built` event is close to 1 MB: tens of ms of the
    /// page's main thread).
    fn post(msg: &FromWorker) {
        let json = msg.to_json();
        let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        if let Err(e) = scope.post_message(&JsValue::from_str(&json)) {
            web_sys::console::error_1(&e);
        }
    }

    /// Wait for the next macrotask, so `cancel` messages are handled between phases.
    async fn yield_now() {
        let p = js_sys::Promise::new(&mut |resolve, _| {
            set_timeout(&resolve, 0);
        });
        let _ = wasm_bindgen_futures::JsFuture::from(p).await;
    }

    fn is_current(id: u64) -> bool {
        STATE.with(|s| s.borrow().active.as_ref().is_some_and(|a| a.id == id))
    }

    /// Wait until the page sends `step` (or the run is cancelled).
    async fn wait_for_step(id: u64) {
        let promise = STATE.with(|s| {
            let mut s = s.borrow_mut();
            let a = s.active.as_mut().filter(|a| a.id == id)?;
            if a.steps_pending > 0 {
                a.steps_pending -= 1;
                return None;
            }
            let mut waiter = None;
            let p = js_sys::Promise::new(&mut |resolve, _| waiter = Some(resolve));
            a.step_waiter = waiter;
            Some(p)
        });
        if let Some(p) = promise {
            let _ = wasm_bindgen_futures::JsFuture::from(p).await;
        }
    }

    /// A `run` message.
    struct Request {
        run: u32,
        program: String,
        spec: String,
        options: RunOptions,
        mode: RunMode,
    }

    fn cancel_active() {
        let old = STATE.with(|s| s.borrow_mut().active.take());
        if let Some(a) = old {
            a.cancel.cancel();
            interrupt_z3();
            if let Some(w) = a.step_waiter {
                let _ = w.call0(&JsValue::NULL);
            }
            post(&FromWorker::Cancelled { run: a.run });
        }
    }

    /// Drops the run waiting for Z3, if any (it is cancelled).
    fn cancel_queued() {
        if let Some(q) = STATE.with(|s| s.borrow_mut().queued.take()) {
            post(&FromWorker::Cancelled { run: q.run });
        }
    }

    fn start_run(request: Request) {
        cancel_active();
        let Request {
            run: tag,
            program,
            spec,
            options,
            mode,
        } = request;
        let prepared = match prepare(&program, &spec, &options) {
            Ok(p) => p,
            Err(EngineError::BadInput(items)) => {
                post(&FromWorker::Diagnostics { run: tag, items });
                return;
            }
            Err(e) => {
                post(&FromWorker::Error {
                    run: Some(tag),
                    message: e.to_string(),
                });
                return;
            }
        };
        let cancel = CancelFlag::new();
        let id = STATE.with(|s| {
            let mut s = s.borrow_mut();
            let id = s.next_id;
            s.next_id += 1;
            s.active = Some(Active {
                id,
                run: tag,
                cancel: cancel.clone(),
                steps_pending: 0,
                step_waiter: None,
            });
            id
        });
        // The time limit: at the deadline the run is stopped like a cancel (the solver
        // refuses further scripts, the running call is interrupted) and says `timeout`.
        let timed_out = Rc::new(Cell::new(false));
        if let Some(limit_ms) = options.timeout_ms {
            let (flag, stop) = (timed_out.clone(), cancel.clone());
            let deadline = Closure::once_into_js(move || {
                if is_current(id) {
                    flag.set(true);
                    stop.cancel();
                    interrupt_z3();
                }
            });
            set_timeout(
                deadline.unchecked_ref(),
                limit_ms.min(i32::MAX as u64) as i32,
            );
        }
        let (hook_flag, hook_timed_out) = (cancel.clone(), timed_out);
        let limit_ms = options.timeout_ms.unwrap_or(0);
        let solver = JsSolver::new(cancel);
        let smt_clock = solver.clock();
        let started_ms = js_sys::Date::now();
        let mut run = prepared.run(
            solver,
            check_options(&options),
            Some(Box::new(move || {
                if hook_timed_out.get() {
                    Some(StopCause::Timeout { limit_ms })
                } else {
                    hook_flag.is_cancelled().then_some(StopCause::Cancelled)
                }
            })),
        );
        wasm_bindgen_futures::spawn_local(async move {
            let mut first = true;
            loop {
                let events = match mode {
                    RunMode::Step => {
                        if !first {
                            wait_for_step(id).await;
                            if !is_current(id) {
                                return;
                            }
                        }
                        run.step().await
                    }
                    RunMode::Run => run.next_event().await.into_iter().collect(),
                };
                first = false;
                if !is_current(id) {
                    return;
                }
                for e in events {
                    post(&FromWorker::Event {
                        run: tag,
                        event: Box::new(e),
                    });
                }
                if run.is_finished() {
                    STATE.with(|s| s.borrow_mut().active = None);
                    let total_ms = js_sys::Date::now() - started_ms;
                    match result_for_page(&run, total_ms, smt_clock.total_ms()) {
                        Some(result) => post(&FromWorker::Done {
                            run: tag,
                            result: Box::new(result),
                        }),
                        None => post(&FromWorker::Error {
                            run: Some(tag),
                            message: "the run ended without a verdict".into(),
                        }),
                    }
                    return;
                }
                if mode == RunMode::Run {
                    yield_now().await;
                }
            }
        });
    }

    fn on_message(msg: ToWorker) {
        match msg {
            ToWorker::Run {
                run,
                program,
                spec,
                options,
                mode,
            } => {
                let request = Request {
                    run,
                    program,
                    spec,
                    options,
                    mode,
                };
                let z3 = STATE.with(|s| match &s.borrow().z3 {
                    Z3::Loading => None,
                    Z3::Ready => Some(Ok(())),
                    Z3::Failed(e) => Some(Err(e.clone())),
                });
                match z3 {
                    None => {
                        cancel_active();
                        cancel_queued();
                        STATE.with(|s| s.borrow_mut().queued = Some(request));
                    }
                    Some(Ok(())) => start_run(request),
                    Some(Err(e)) => post(&FromWorker::Error {
                        run: Some(request.run),
                        message: format!("Z3 is not available: {e}"),
                    }),
                }
            }
            ToWorker::Step => STATE.with(|s| {
                let mut s = s.borrow_mut();
                if let Some(a) = s.active.as_mut() {
                    match a.step_waiter.take() {
                        Some(w) => {
                            let _ = w.call0(&JsValue::NULL);
                        }
                        None => a.steps_pending += 1,
                    }
                }
            }),
            ToWorker::Cancel => {
                cancel_queued();
                cancel_active();
            }
        }
    }

    /// Panic at once. Not called by the page: the browser tests call it inside the worker
    /// to check that a panic in the checker reaches the page as `crashed` and does not
    /// leave the run hanging.
    #[wasm_bindgen]
    pub fn worker_self_test_panic() {
        panic!("worker_self_test_panic was called");
    }

    /// The worker's entry point: install the panic hook and the message handler, load Z3.
    #[wasm_bindgen]
    pub fn worker_main() {
        // A panic aborts the wasm call that hit it and leaves this worker's state (its
        // `RefCell`s, the detached run) unusable: tell the page, which ends the run and
        // starts a new worker, instead of leaving it waiting for a `done`.
        std::panic::set_hook(Box::new(|info| {
            // The trap that follows reaches worker.js's error handler: it must not report
            // this crash a second time.
            let _ = js_sys::Reflect::set(
                &js_sys::global(),
                &JsValue::from_str("cfpCrashed"),
                &JsValue::TRUE,
            );
            post(&FromWorker::Crashed {
                message: format!("the checker crashed (a bug): {info}"),
                cause: CrashCause::Panic,
            });
        }));
        let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        let handler =
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(|ev: web_sys::MessageEvent| {
                let data = ev.data();
                let text = js_sys::JSON::stringify(&data)
                    .ok()
                    .and_then(|s| s.as_string())
                    .unwrap_or_default();
                match serde_json::from_str::<ToWorker>(&text) {
                    Ok(msg) => on_message(msg),
                    Err(e) => post(&FromWorker::Error {
                        run: None,
                        message: format!("bad message {text}: {e}"),
                    }),
                }
            });
        scope.set_onmessage(Some(handler.as_ref().unchecked_ref()));
        handler.forget();
        post(&FromWorker::Status {
            z3: Z3Status::Loading,
            detail: "loading z3-built.wasm".into(),
        });
        wasm_bindgen_futures::spawn_local(async {
            let started = js_sys::Date::now();
            match init_z3().await {
                Ok(detail) => {
                    STATE.with(|s| s.borrow_mut().z3 = Z3::Ready);
                    let ms = js_sys::Date::now() - started;
                    post(&FromWorker::Status {
                        z3: Z3Status::Ready,
                        detail: format!("{detail} (loaded in {ms:.0} ms)"),
                    });
                    if let Some(request) = STATE.with(|s| s.borrow_mut().queued.take()) {
                        start_run(request);
                    }
                }
                Err(e) => {
                    let text = e.to_string();
                    STATE.with(|s| s.borrow_mut().z3 = Z3::Failed(text.clone()));
                    post(&FromWorker::Status {
                        z3: Z3Status::Error,
                        detail: text.clone(),
                    });
                    if let Some(q) = STATE.with(|s| s.borrow_mut().queued.take()) {
                        post(&FromWorker::Error {
                            run: Some(q.run),
                            message: format!("Z3 is not available: {text}"),
                        });
                    }
                }
            }
        });
    }
}
