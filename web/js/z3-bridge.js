// cfplay's bridge to Z3's official wasm build (npm `z3-solver`, pinned in web/package.json).
//
// Defines `globalThis.cfpZ3 = { init(), eval(script, limitMs?), interrupt(), stats(), … }` for the Rust side
// (`web/src/solver_js.rs`). Works in a classic Web Worker, after
// `importScripts('z3-built.js')` (which defines the Emscripten factory `initZ3`), and in
// Node (`require('z3-solver/build/z3-built')`).
//
// * One Z3 module for the whole worker and a fresh Z3 context per script (see evalNow);
//   `init()` is idempotent and resolves with a description ("Z3 5.1.0").
// * A single-flight queue: Z3's async exports allow one call at a time, so `eval` calls
//   run strictly one after another, in call order.
// * Every script starts from `(reset)`: the core's scripts assume a fresh solver state.
// * Heap copy (ARCHITECTURE.md): `Z3.eval_smtlib2_string` of the high-level wrapper passes a
//   *stack* copy of the script (ccall 'string') to the thread that runs it; the stack
//   frame is gone by the time the thread reads it and ~3% of answers came back garbled in
//   Chromium. We copy the script into `_malloc`ed memory, call the module's export
//   `_async_Z3_eval_smtlib2_string(ctx, ptr)` through `async_call`, and free the copy once
//   the call has settled.
// * `interrupt()` calls `Z3_interrupt(ctx)`: the running call ends early (its answer is
//   then `unknown`/an error, which the Rust side maps to `Cancelled`).
// * Errors in a script come back as `(error "...")` text inside the answer; a rejected
//   promise means the module failed.
// * Memory: the module's heap is fixed at 2 GiB and cannot grow; past it Z3 aborts and takes
//   the worker with it. Z3's own allocations are capped below that (`memory_max_size`,
//   MEMORY_CAP_MB), and `diagnose()` tells afterwards whether a failure was Z3 running out
//   of memory (its allocation reached the cap, or Emscripten said it could not grow the
//   heap): the worker reports that as an out-of-memory crash, and the page restarts it.
(function (root) {
  'use strict';
  if (root.cfpZ3) return;

  const isNode = typeof process !== 'undefined' && process.versions != null &&
    process.versions.node != null && typeof importScripts !== 'function';

  let mod = null;      // the Emscripten module
  let ctx = 0;         // Z3_context
  let initPromise = null;
  let queue = Promise.resolve();
  let version = '';
  const encoder = new TextEncoder();
  // Z3's allocation cap in MiB (the heap is 2 GiB; threads' stacks and the scripts live there too).
  const MEMORY_CAP_MB = 1536;
  let capMb = MEMORY_CAP_MB;
  const errLines = [];   // the last lines Emscripten printed to stderr
  let exhausted = false; // Z3 went past its cap (the module is not usable after that)
  let capPending = false; // setMemoryCap changed the cap since it was applied
  // Where the solver time goes (`stats()`): calls, script bytes, and milliseconds spent
  // making and deleting contexts, copying scripts in, and in Z3's eval (the wait for the
  // answer, including the hop to Z3's thread).
  const totals = { calls: 0, bytes: 0, contextMs: 0, copyMs: 0, evalMs: 0 };

  function remember(text) {
    errLines.push(String(text));
    if (errLines.length > 20) errLines.shift();
  }

  function cString(text) {
    const bytes = encoder.encode(text);
    const ptr = mod._malloc(bytes.length + 1);
    if (!ptr) throw new Error('out of memory copying a string');
    mod.HEAPU8.set(bytes, ptr);
    mod.HEAPU8[ptr + bytes.length] = 0;
    return ptr;
  }

  // Sets Z3's memory cap for the contexts made from now on.
  function applyCap() {
    const k = cString('memory_max_size');
    const v = cString(String(capMb));
    try { mod._Z3_global_param_set(k, v); } finally { mod._free(k); mod._free(v); }
  }

  function factory() {
    if (isNode) {
      // eslint-disable-next-line no-undef
      return require('z3-solver/build/z3-built');
    }
    if (typeof root.initZ3 !== 'function') {
      throw new Error("initZ3 is missing: load z3-built.js first (importScripts('z3-built.js'))");
    }
    return root.initZ3;
  }

  function overrides() {
    if (isNode || typeof location === 'undefined') return {};
    // In a worker, Emscripten cannot find its own script (no document.currentScript):
    // tell it where z3-built.js/.wasm live (beside the worker script) for its pthreads.
    const base = location.href.replace(/[?#].*$/, '').replace(/[^/]*$/, '');
    return {
      locateFile: (file) => base + file,
      mainScriptUrlOrBlob: base + 'z3-built.js',
      printErr: (text) => { remember(text); console.warn(text); },
    };
  }

  async function init() {
    if (initPromise) return initPromise;
    initPromise = (async () => {
      const m = await factory()(overrides());
      mod = m;
      try {
        const out = m._malloc(16);
        m._Z3_get_version(out, out + 4, out + 8, out + 12);
        const v = new Uint32Array(m.HEAPU8.buffer, out, 3);
        version = `Z3 ${v[0]}.${v[1]}.${v[2]}`;
        m._free(out);
      } catch (e) {
        version = 'Z3';
      }
      applyCap();
      return version;
    })();
    initPromise.catch(() => { initPromise = null; });
    return initPromise;
  }

  async function evalNow(script, limitMs) {
    await init();
    // Past the cap already (a lowered cap, or a failure that left memory behind): no call.
    if (overCap()) throw new Error(`out of memory: Z3 passed its ${capMb} MB limit`);
    if (capPending) {
      capPending = false;
      applyCap();
    }
    const text = '(reset)\n' + script;
    // A fresh context per script: `(reset)` alone does not clear everything in the
    // cmd_context behind Z3_eval_smtlib2_string (named assertions of an earlier script
    // leaked into a later HORN model with z3-solver 5.2.0).
    let t = performance.now();
    const cfg = mod._Z3_mk_config();
    ctx = mod._Z3_mk_context(cfg);
    mod._Z3_del_config(cfg);
    // Errors become `(error …)` text / rejected promises instead of aborts.
    mod._set_noop_error_handler(ctx);
    totals.contextMs += performance.now() - t;
    t = performance.now();
    const bytes = encoder.encode(text);
    const ptr = mod._malloc(bytes.length + 1);
    if (!ptr) throw new Error('out of memory copying an SMT script');
    totals.calls += 1;
    totals.bytes += bytes.length;
    try {
      // The heap may have grown (new buffer): take the view now.
      const heap = mod.HEAPU8;
      heap.set(bytes, ptr);
      heap[ptr + bytes.length] = 0;
      totals.copyMs += performance.now() - t;
      t = performance.now();
      // A wall-clock safety net: past `limitMs` the call is interrupted and fails with a
      // `cfp:timeout` error (the Rust side's `SolverError::TimedOut`).
      let timedOut = false;
      const timer = limitMs > 0 ? setTimeout(() => { timedOut = true; interrupt(); }, limitMs) : null;
      let answer;
      let failure = null;
      try {
        answer = await mod.async_call(mod._async_Z3_eval_smtlib2_string, ctx, ptr);
      } catch (e) {
        failure = e;
      } finally {
        if (timer !== null) clearTimeout(timer);
        totals.evalMs += performance.now() - t;
      }
      // Z3 past its memory cap fails in more than one way (an abort, a trap, a truncated
      // answer): its allocation counter tells (see `failed`).
      if (failure !== null) throw failure;
      if (overCap()) throw new Error(`out of memory: Z3 passed its ${capMb} MB limit`);
      if (timedOut) throw new Error(`cfp:timeout: no answer within ${limitMs} ms`);
      return typeof answer === 'string' ? answer : String(answer);
    } finally {
      mod._free(ptr);
      const c = ctx;
      ctx = 0;
      const d = performance.now();
      mod._Z3_del_context(c);
      totals.contextMs += performance.now() - d;
    }
  }

  // A failed call: out of memory when Z3 went past its cap; an abort, a trap or running
  // out of memory makes the module unusable, which the host learns at once (the worker
  // reports a crash), not at the next call.
  function failed(e) {
    const error = overCap() ? new Error(`out of memory: Z3 passed its ${capMb} MB limit`) : e;
    if (/Aborted\(|RuntimeError|out of memory/.test(String(error)) &&
        typeof root.cfpZ3OnFatal === 'function') {
      root.cfpZ3OnFatal(error);
    }
    throw error;
  }

  function evalScript(script, limitMs) {
    const run = queue.then(() => evalNow(String(script), Number(limitMs) || 0)).catch(failed);
    // The queue continues after failures too.
    queue = run.then(() => undefined, () => undefined);
    return run;
  }

  function interrupt() {
    if (mod && ctx) mod._Z3_interrupt(ctx);
  }

  // Z3's allocations in bytes (null when the module cannot say).
  function allocBytes() {
    try {
      return mod ? Number(mod._Z3_get_estimated_alloc_size()) : null;
    } catch (e) {
      return null;   // the module is gone
    }
  }

  // Whether Z3 went past its cap (it only does so when an allocation failed there); once
  // seen, it stays so (the context that held the memory is deleted after the call).
  function overCap() {
    const b = allocBytes();
    if (b !== null && b > capMb * 1024 * 1024) exhausted = true;
    return exhausted;
  }

  // After a failure: did Z3 run out of memory? Z3's allocation counter still reads after
  // an abort (the heap is intact); Emscripten's "Cannot enlarge memory" went to stderr.
  function diagnose() {
    const b = allocBytes();
    const allocMb = b === null ? null : Math.round(b / (1024 * 1024));
    const said = errLines.join('\n');
    const outOfMemory = overCap() ||
      /Cannot enlarge memory|out of memory|\bOOM\b|bad_alloc/i.test(said);
    return { outOfMemory, allocMb, capMb, lastErrors: errLines.slice() };
  }

  // Lowers Z3's memory cap (MiB) for the contexts made from now on: the browser tests use
  // it to make a real run exhaust the solver's memory quickly.
  // Applied by the next call, in the queue (never while Z3 is running one).
  function setMemoryCap(mb) {
    capMb = Math.max(1, Math.floor(Number(mb)) || MEMORY_CAP_MB);
    capPending = true;
  }

  // The solver-time totals since the module started (see `totals`), in whole units.
  function stats() {
    const r = (x) => Math.round(x * 10) / 10;
    return {
      calls: totals.calls,
      bytes: totals.bytes,
      contextMs: r(totals.contextMs),
      copyMs: r(totals.copyMs),
      evalMs: r(totals.evalMs),
    };
  }

  root.cfpZ3 = { init, eval: evalScript, interrupt, diagnose, setMemoryCap, stats };
  if (typeof module !== 'undefined' && module.exports) module.exports = root.cfpZ3;
})(typeof globalThis !== 'undefined' ? globalThis : self);
