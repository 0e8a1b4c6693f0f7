// One program through the wasm engine under Node (`cargo xtask bench-scale`): prints one
// JSON line `{"ms": …, "z3_init_ms": …, "solver": <cfpZ3.stats()>, "result": <check_json's
// object>}` (`solver`: calls, script bytes, and the milliseconds in contexts, copies and
// Z3's eval: the rest of `ms` is the engine).
//
// usage: node tests/wasm/check-one.mjs PROGRAM SPEC
// env:   CFP_ROOT (repo root), CFP_WASM_NODE (wasm-bindgen --target nodejs output dir)
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = process.env.CFP_ROOT || path.resolve(here, '..', '..');
const wasmDir = process.env.CFP_WASM_NODE || path.join(root, 'target', 'wasm-node');
const require = createRequire(import.meta.url);
const [programPath, specPath] = process.argv.slice(2);
if (!programPath || !specPath) {
  console.error('usage: node tests/wasm/check-one.mjs PROGRAM SPEC');
  process.exit(2);
}
require(path.join(root, 'web', 'js', 'z3-bridge.js'));
const engine = require(path.join(wasmDir, 'cfp_web.js'));
const t0 = performance.now();
await globalThis.cfpZ3.init();
const initMs = performance.now() - t0;
const program = fs.readFileSync(programPath, 'utf8');
const spec = fs.readFileSync(specPath, 'utf8');
const t1 = performance.now();
const out = await engine.check_json(program, spec, '{"max_iterations":null}');
const ms = performance.now() - t1;
// Exit only once the line is written: writes to a pipe are asynchronous, and exiting
// earlier truncates a long result.
process.stdout.write(`${JSON.stringify({ ms, z3_init_ms: initMs, solver: globalThis.cfpZ3.stats(), result: JSON.parse(out) })}\n`, () => process.exit(0));
