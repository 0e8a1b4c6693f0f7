// cfplay's Web Worker (classic script): Z3 (z3-built.js from npm z3-solver), the bridge
// that defines globalThis.cfpZ3, and the checker (wasm-bindgen --target no-modules build
// of web/, which defines the global `wasm_bindgen`). The protocol is documented in
// web/src/protocol.rs. Must be served from a cross-origin-isolated page (COOP/COEP):
// Z3's wasm build uses SharedArrayBuffer threads.
importScripts('z3-built.js', 'z3-bridge.js', 'cfp_web.js');

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
