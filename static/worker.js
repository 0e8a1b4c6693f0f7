// cfplay's Web Worker (classic script): Z3 (z3-built.js from npm z3-solver), the bridge
// that defines globalThis.cfpZ3, and the checker (wasm-bindgen --target no-modules build
// of web/, which defines the global `wasm_bindgen`). The protocol is documented in
// web/src/protocol.rs. Must be served from a cross-origin-isolated page (COOP/COEP):
// Z3's wasm build uses SharedArrayBuffer threads.
importScripts('z3-built.js', 'z3-bridge.js', 'cfp_web.js');

// Anything uncaught in this worker (Z3 aborting in one of its threads — out of memory or
// otherwise —, a trap in the checker) leaves it unusable: say so once, as a `crashed`
// message with the cause, instead of a bare error event, and the page ends the run as
// `unknown` and starts a new worker. The checker's panic hook reports panics itself and
// sets `self.cfpCrashed`.
function describe(e) {
  if (e == null) return 'unknown error';
  if (typeof e === 'string') return e;
  if (e.message && typeof e.message === 'string') return e.message;
  if (e.error) return describe(e.error);
  return String(e);
}
function reportCrash(detail) {
  if (self.cfpCrashed) return;
  self.cfpCrashed = true;
  let d = { outOfMemory: false, allocMb: null, capMb: null, lastErrors: [] };
  try { d = self.cfpZ3.diagnose(); } catch (e) { /* no bridge */ }
  const said = d.lastErrors.length ? d.lastErrors[d.lastErrors.length - 1] : detail;
  const message = d.outOfMemory
    ? `the solver ran out of memory (Z3 had allocated ${d.allocMb ?? '?'} MB; its limit is ${d.capMb ?? '?'} MB)`
    : `the solver failed: ${said}`;
  self.postMessage({ type: 'crashed', cause: d.outOfMemory ? 'out-of-memory' : 'solver', message });
}
self.addEventListener('error', (e) => { e.preventDefault(); reportCrash(describe(e)); });
self.addEventListener('unhandledrejection', (e) => {
  const text = describe(e.reason);
  if (/Aborted\(|RuntimeError/.test(text)) { e.preventDefault(); reportCrash(text); }
});
self.cfpZ3OnFatal = (e) => reportCrash(describe(e));

// Messages that arrive while the checker's wasm is still compiling are replayed once
// worker_main has installed its own handler.
const early = [];
self.onmessage = (ev) => { early.push(ev.data); };

wasm_bindgen({ module_or_path: 'cfp_web_bg.wasm' })
  .then(() => {
    wasm_bindgen.worker_main();
    for (const data of early.splice(0)) {
      self.onmessage(new MessageEvent('message', { data }));
    }
  })
  .catch((err) => {
    self.postMessage({ type: 'status', z3: 'error', detail: 'cannot load cfp_web_bg.wasm: ' + err });
  });
