//! cfplay's browser playground.
//!
//! * [`protocol`]: the messages between the page and the Web Worker (serde, JSON-shaped);
//! * [`solver_js`]: a [`cfp_smt::Solver`] over the z3-solver bridge (`web/js/z3-bridge.js`);
//! * [`engine`]: the CEGAR driver behind wasm-bindgen exports (worker and Node);
//! * [`worker`]: the Web Worker's message loop;
//! * [`app`]: the Yew UI (main thread).

pub mod app;
pub mod engine;
pub mod protocol;
pub mod share;
pub mod solver_js;
pub mod worker;
