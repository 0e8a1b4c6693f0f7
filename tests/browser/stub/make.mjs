// Build target/browser-stub/: the harness stub page, the gallery (static/examples/index.json) with
// the native verdicts as the stub's answers, and a dummy z3-built.wasm.
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
const root = new URL('../../..', import.meta.url).pathname;
const out = join(root, 'target', 'browser-stub');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
cpSync(join(root, 'tests/browser/stub/index.html'), join(out, 'index.html'));
cpSync(join(root, 'static/examples'), join(out, 'examples'), { recursive: true });
// The gallery's programs and specs are the corpus's own files (as `cargo xtask dist` copies them).
for (const e of JSON.parse(readFileSync(join(root, 'static/examples/index.json'), 'utf8'))) {
  cpSync(join(root, 'tests/check', e.program), join(out, 'examples', e.program));
  cpSync(join(root, 'tests/specs', e.spec), join(out, 'examples', e.spec));
}
// The real z3-solver build and bridge when installed (for the z3-bridge-stress check);
// otherwise a dummy wasm that the stub only fetches.
const z3 = join(root, 'web/node_modules/z3-solver/build');
if (existsSync(join(z3, 'z3-built.js')) && existsSync(join(root, 'web/js/z3-bridge.js'))) {
  for (const f of ['z3-built.js', 'z3-built.wasm']) cpSync(join(z3, f), join(out, f));
  cpSync(join(root, 'web/js/z3-bridge.js'), join(out, 'z3-bridge.js'));
} else {
  writeFileSync(join(out, 'z3-built.wasm'), Buffer.alloc(1 << 20, 7));
}
const idx = JSON.parse(readFileSync(join(out, 'examples/index.json'), 'utf8'));
for (const e of idx) {
  let o;
  try {
    o = execFileSync(join(root, 'target/release/cfp'), ['check', join(out, 'examples', e.program), '--spec',
      join(out, 'examples', e.spec), '--json', '--no-timing'], { env: { ...process.env, CFP_Z3: join(root, 'target/tools/z3/bin/z3') }, encoding: 'utf8' });
  } catch (err) { o = err.stdout; }
  const j = JSON.parse(o);
  e.stub = { verdict: j.verdict, iterations: j.iterations };
}
writeFileSync(join(out, 'examples/index.json'), JSON.stringify(idx, null, 1));
console.log(`stub in ${out}`);
