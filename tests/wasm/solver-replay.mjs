// Where the wasm engine's solver time goes, with the engine taken out: runs every
// tests/check/*.java through the wasm build (as node-corpus.mjs does), records each SMT
// script it sends, then replays exactly those scripts
//   1. through Z3's wasm build (npm `z3-solver`), one fresh context per script, serially;
//   2. the same with the scripts' push/pop batches split over two Z3 modules at once (what
//      a pool of modules would buy on two cores);
//   3. through the native z3 (`CFP_Z3`), one process, `(reset)` between scripts;
// and prints the totals and the wasm/native ratio of the solver alone, then the time of
// the scripts' commands with `(check-sat)` removed (parsing, declaring, push/pop) per side.
//
// usage: node tests/wasm/solver-replay.mjs [FILTER]   (after `cargo xtask test-wasm`,
//        which builds target/wasm-node; env as node-corpus.mjs: CFP_ROOT, CFP_Z3,
//        CFP_WASM_NODE)
// Informational (a benchmark, not a test): it asserts only that both sides answered the
// same `sat`/`unsat` sequence.
import { createRequire } from 'node:module';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = process.env.CFP_ROOT || path.resolve(here, '..', '..');
const require = createRequire(path.join(root, 'web', 'package.json'));
const wasmDir = process.env.CFP_WASM_NODE || path.join(root, 'target', 'wasm-node');
const z3 = process.env.CFP_Z3 || path.join(root, 'target', 'tools', 'z3', 'bin', 'z3');
const filter = process.argv[2] || '';

require(path.join(root, 'web', 'js', 'z3-bridge.js'));
const engine = require(path.join(wasmDir, 'cfp_web.js'));

// 1. Record.
const scripts = [];
const evalScript = globalThis.cfpZ3.eval;
globalThis.cfpZ3.eval = (s, limit) => { scripts.push(String(s)); return evalScript(s, limit); };
const dir = path.join(root, 'tests', 'check');
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.java') && f.includes(filter)).sort()) {
  const program = fs.readFileSync(path.join(dir, f), 'utf8');
  const spec = /^\/\/ spec:\s*(\S+)/m.exec(program)?.[1];
  if (!spec) continue;
  await engine.check_json(program, fs.readFileSync(path.join(root, 'tests', 'specs', spec), 'utf8'), '{"max_iterations":null}');
}
const bytes = scripts.reduce((n, s) => n + s.length, 0);
console.log(`recorded ${scripts.length} scripts, ${(bytes / 1e6).toFixed(1)} MB`);

// 2. Replay through wasm modules.
const modules = [await require('z3-solver/build/z3-built')({}), await require('z3-solver/build/z3-built')({})];
const encoder = new TextEncoder();
async function evalOn(mod, script) {
  const cfg = mod._Z3_mk_config();
  const ctx = mod._Z3_mk_context(cfg);
  mod._Z3_del_config(cfg);
  mod._set_noop_error_handler(ctx);
  const b = encoder.encode(`(reset)\n${script}`);
  const ptr = mod._malloc(b.length + 1);
  mod.HEAPU8.set(b, ptr);
  mod.HEAPU8[ptr + b.length] = 0;
  try {
    return await mod.async_call(mod._async_Z3_eval_smtlib2_string, ctx, ptr);
  } finally {
    mod._free(ptr);
    mod._Z3_del_context(ctx);
  }
}
/** A batch script (declarations, then `(push 1)…(pop 1)` blocks) split in `k` scripts. */
function split(script, k) {
  const at = script.indexOf('(push 1)\n');
  if (at < 0) return [script];
  const head = script.slice(0, at);
  const blocks = script.slice(at).split(/(?<=\(pop 1\)\n\(echo "@cfp:sep"\)\n)/).filter((b) => b.trim());
  if (blocks.length < 64) return [script];
  const size = Math.ceil(blocks.length / k);
  const out = [];
  for (let i = 0; i < blocks.length; i += size) out.push(head + blocks.slice(i, i + size).join(''));
  return out;
}
const answers = (text) => (text.match(/^(sat|unsat)$/gm) || []).join(',');
let t = performance.now();
const wasmOut = [];
for (const s of scripts) wasmOut.push(await evalOn(modules[0], s));
const wasmMs = performance.now() - t;
t = performance.now();
for (const s of scripts) {
  const parts = split(s, 2);
  await Promise.all(parts.map((p, i) => evalOn(modules[i % 2], p)));
}
const pairMs = performance.now() - t;
t = performance.now();
const strip = (s) => s.replaceAll('(check-sat)\n', '');
for (const s of scripts) await evalOn(modules[0], strip(s));
const wasmParseMs = performance.now() - t;

// 3. Replay through native z3.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cfp-replay-'));
const all = path.join(tmp, 'all.smt2');
fs.writeFileSync(all, scripts.map((s) => `(reset)\n${s}\n`).join(''));
t = performance.now();
// (z3 exits with 1 when a command printed an error, e.g. `(get-model)` after `unsat`: the
// answers are what matters.)
const runZ3 = (file) => spawnSync(z3, [file], { encoding: 'utf8', maxBuffer: 1 << 30 }).stdout ?? '';
const nativeOut = runZ3(all);
const nativeMs = performance.now() - t;
fs.writeFileSync(all, scripts.map((s) => `(reset)\n${strip(s)}\n`).join(''));
t = performance.now();
runZ3(all);
const nativeParseMs = performance.now() - t;
fs.rmSync(tmp, { recursive: true, force: true });
const version = execFileSync(z3, ['-version'], { encoding: 'utf8' }).trim();

const same = answers(wasmOut.join('')) === answers(nativeOut);
console.log(`wasm (${await globalThis.cfpZ3.init()}), serially:  ${(wasmMs / 1000).toFixed(1)} s`);
console.log(`wasm, batches split over 2 modules: ${(pairMs / 1000).toFixed(1)} s`);
console.log(`native (${version}), one process: ${(nativeMs / 1000).toFixed(1)} s`);
console.log(`solver alone, wasm / native: ${(wasmMs / nativeMs).toFixed(2)}`);
console.log(`without check-sat (parse, declare, push/pop): wasm ${(wasmParseMs / 1000).toFixed(1)} s, native ${(nativeParseMs / 1000).toFixed(1)} s`);
console.log(`${same ? 'ok  ' : 'FAIL'} the same sat/unsat answers on both sides`);
process.exit(same ? 0 : 1);
