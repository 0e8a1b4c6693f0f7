// The web engine under Node: runs every tests/check/*.java and tests/real/*.java (with
// their harness or entry) through the wasm build's
// `check_json` (Z3 from npm `z3-solver`, through web/js/z3-bridge.js) and compares the
// verdict, the iteration count and the counterexample word with the native
// `cfp check … --json --no-timing` (also reports whether the whole text is identical and,
// if not, which fields differ: the native CLI splits large SMT batches over up to 4 z3
// processes, so `stats.smt_scripts` may be higher there).
// Also: a 1,400-level-deep expression (the wasm stack), and a burst of concurrent
// solver calls with distinct answers (the bridge's queue and heap copy).
//
// usage: node tests/wasm/node-corpus.mjs [FILTER]
// With CFP_BENCH=1 (`cargo xtask bench-wasm`) it also prints `BENCH {…}` figure lines:
// z3 init time, bridge time per call, native and wasm corpus totals and their ratio.
// env:   CFP_ROOT (repo root; default: two levels up), CFP_BIN (native cfp; default
//        target/release/cfp), CFP_Z3 (native z3), CFP_WASM_NODE (wasm-bindgen --target
//        nodejs output dir; default target/wasm-node)
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = process.env.CFP_ROOT || path.resolve(here, '..', '..');
const require = createRequire(import.meta.url);
const cfpBin = process.env.CFP_BIN || path.join(root, 'target', 'release', 'cfp');
const wasmDir = process.env.CFP_WASM_NODE || path.join(root, 'target', 'wasm-node');
const filter = process.argv[2] || '';

require(path.join(root, 'web', 'js', 'z3-bridge.js'));
const engine = require(path.join(wasmDir, 'cfp_web.js'));

function native(program, spec, extra = []) {
  try {
    return execFileSync(cfpBin, ['check', program, '--spec', spec, '--json', '--no-timing', ...extra], {
      encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (e) {
    if (e.status === 1 || e.status === 2) return e.stdout;
    throw new Error(`native cfp failed on ${program} (exit ${e.status}): ${e.stderr}`);
  }
}

function summary(o) {
  return {
    verdict: o.verdict,
    iterations: o.iterations,
    word: o.counterexample ? o.counterexample.word : null,
  };
}

let failures = 0;
/** A figure for `cargo xtask bench` (only with CFP_BENCH=1). */
function bench(name, value, unit, target) {
  if (!process.env.CFP_BENCH) return;
  const line = { group: 'wasm', name, value: Number(value.toFixed(3)), unit, better: 'lower' };
  if (target !== undefined) line.target = target;
  console.log(`BENCH ${JSON.stringify(line)}`);
}
function fail(msg) { failures++; console.log(`FAIL ${msg}`); }

// `run`: the entry and the harness (`cfp check --entry/--harness`, the engine's options).
async function compare(name, programFile, specFile, run = {}) {
  const program = fs.readFileSync(programFile, 'utf8');
  const spec = fs.readFileSync(specFile, 'utf8');
  const extra = [];
  if (run.harness) extra.push('--harness', run.harness);
  if (run.entry) extra.push('--entry', run.entry);
  if (run.max_iterations) extra.push('--max-iterations', String(run.max_iterations));
  let t = performance.now();
  const nat = native(programFile, specFile, extra);
  const natMs = performance.now() - t;
  t = performance.now();
  let web;
  try {
    web = await engine.check_json(program, spec, JSON.stringify({ max_iterations: null, ...run }));
  } catch (e) {
    fail(`${name}: check_json rejected: ${e && e.message}`);
    return;
  }
  const webMs = performance.now() - t;
  const a = summary(JSON.parse(nat));
  const b = summary(JSON.parse(web));
  const same = JSON.stringify(a) === JSON.stringify(b);
  const identical = nat === web;
  let diff = '';
  if (!identical) {
    const x = JSON.parse(nat), y = JSON.parse(web);
    const keys = [];
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
      if (k === 'stats') {
        for (const s of new Set([...Object.keys(x.stats), ...Object.keys(y.stats)])) {
          const [u, v] = [JSON.stringify(x.stats[s]), JSON.stringify(y.stats[s])];
          if (u !== v) keys.push(typeof x.stats[s] === 'object' ? `stats.${s}` : `stats.${s} ${u}/${v}`);
        }
      } else if (JSON.stringify(x[k]) !== JSON.stringify(y[k])) keys.push(k);
    }
    diff = ` (${keys.join(', ')})`;
  }
  console.log(`${same ? 'ok  ' : 'FAIL'} ${name.padEnd(40)} ${a.verdict.padEnd(9)} it=${String(a.iterations).padStart(2)}  native ${natMs.toFixed(0).padStart(6)} ms  wasm ${webMs.toFixed(0).padStart(6)} ms  ${identical ? 'text identical' : 'text differs'}${diff}`);
  if (!same) {
    failures++;
    console.log(`     native: ${JSON.stringify(a)}\n     wasm:   ${JSON.stringify(b)}`);
  }
  return { natMs, webMs, identical, verdict: a.verdict };
}

async function main() {
  const started = performance.now();
  const t0 = performance.now();
  console.log(`z3: ${await globalThis.cfpZ3.init()} (init ${(performance.now() - t0).toFixed(0)} ms)`);
  bench('z3 init', performance.now() - t0, 'ms');

  // 1. Burst of concurrent calls with distinct answers: a garbled script or a reordered
  //    answer shows up as a mismatch.
  {
    const n = 300;
    const t = performance.now();
    const answers = await Promise.all(Array.from({ length: n }, (_, i) =>
      globalThis.cfpZ3.eval(`(declare-const v${i} Int)(assert (= v${i} (+ ${i} 1)))(check-sat)(get-value (v${i}))`)));
    const bad = answers.filter((a, i) => a !== `sat\n((v${i} ${i + 1}))\n`).length;
    console.log(`${bad === 0 ? 'ok  ' : 'FAIL'} bridge burst: ${n} concurrent evals, ${bad} wrong answers (${((performance.now() - t) / n).toFixed(2)} ms/call)`);
    bench('bridge time per call (300 concurrent)', (performance.now() - t) / n, 'ms');
    if (bad) failures++;
  }

  // 1b. A query past its wall-clock limit is interrupted (`cfp:timeout`), and the bridge
  //     answers the next one.
  {
    const hard = '(set-logic HORN)(declare-fun inv (Int Int) Bool)'
      + '(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 0)) (inv x y))))'
      + '(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int)) (=> (and (inv x y) (= x1 (+ x 1)) (= y1 (+ y (* 2 x) 1))) (inv x1 y1))))'
      + '(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (not (= y (* x x)))) false)))(check-sat)';
    const t = performance.now();
    let outcome;
    try {
      outcome = `answered ${JSON.stringify(await globalThis.cfpZ3.eval(hard, 300))}`;
    } catch (e) {
      outcome = String(e && e.message);
    }
    const stopped = /^cfp:timeout/.test(outcome);
    const next = await globalThis.cfpZ3.eval('(declare-const a Int)(assert (= a 1))(check-sat)');
    const ok = stopped && next === 'sat\n';
    console.log(`${ok ? 'ok  ' : 'FAIL'} a query past its limit: ${outcome.slice(0, 60)} after ${(performance.now() - t).toFixed(0)} ms; next query: ${JSON.stringify(next)}`);
    if (!ok) failures++;
  }

  // 2. The corpus.
  const dir = path.join(root, 'tests', 'check');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.java') && f.includes(filter)).sort();
  let nat = 0, web = 0, identical = 0, count = 0;
  const before = globalThis.cfpZ3.stats();
  for (const f of files) {
    const file = path.join(dir, f);
    const m = /^\/\/ spec:\s*(\S+)/m.exec(fs.readFileSync(file, 'utf8'));
    if (!m) { fail(`${f}: no // spec: header`); continue; }
    const r = await compare(f, file, path.join(root, 'tests', 'specs', m[1]));
    if (r) { nat += r.natMs; web += r.webMs; identical += r.identical ? 1 : 0; count++; }
  }
  console.log(`corpus: ${count}/${files.length} compared, ${identical} byte-identical; native total ${(nat / 1000).toFixed(1)} s, wasm total ${(web / 1000).toFixed(1)} s`);
  bench(`native corpus total (${count} programs)`, nat / 1000, 's');
  bench(`wasm corpus total (${count} programs)`, web / 1000, 's');
  if (nat > 0) bench('wasm / native time', web / nat, 'x');
  // Where the wasm time goes: Z3's eval, context making, the rest (the engine).
  const after = globalThis.cfpZ3.stats();
  const evalMs = after.evalMs - before.evalMs;
  const contextMs = after.contextMs - before.contextMs + after.copyMs - before.copyMs;
  const calls = after.calls - before.calls;
  console.log(`wasm breakdown: ${calls} solver calls, ${((after.bytes - before.bytes) / 1e6).toFixed(1)} MB of scripts; Z3 eval ${(evalMs / 1000).toFixed(1)} s, contexts and copies ${(contextMs / 1000).toFixed(1)} s, engine ${((web - evalMs - contextMs) / 1000).toFixed(1)} s`);
  bench('wasm corpus: Z3 eval', evalMs / 1000, 's');
  bench('wasm corpus: contexts and copies', contextMs / 1000, 's');
  bench('wasm corpus: engine (the rest)', (web - evalMs - contextMs) / 1000, 's');
  if (calls > 0) bench('wasm corpus: context per call', contextMs / calls, 'ms');

  // 2b. The real-style corpus (tests/real: code without main, through a harness or an
  //     entry; built-in protocols by name), against the native CLI and its `// expect:`.
  {
    const rdir = path.join(root, 'tests', 'real');
    const rfiles = fs.readdirSync(rdir).filter((f) => f.endsWith('.java') && f.includes(filter)).sort();
    let rnat = 0, rweb = 0, rcount = 0;
    for (const f of rfiles) {
      const file = path.join(rdir, f);
      const head = fs.readFileSync(file, 'utf8').split('\n').slice(0, 5).join('\n');
      const header = (key) => new RegExp(`^// ${key}:\\s*(\\S+)`, 'm').exec(head)?.[1];
      const [spec, expect] = [header('spec'), header('expect')];
      if (!spec || !expect) { fail(`${f}: no // spec: or // expect: header`); continue; }
      const specFile = spec.includes('/') ? path.join(root, spec) : path.join(root, 'tests', 'specs', `${spec}.cfg`);
      const run = {};
      if (header('harness')) run.harness = header('harness');
      if (header('entry')) run.entry = header('entry');
      if (header('max-iterations')) run.max_iterations = Number(header('max-iterations'));
      const r = await compare(`real/${f}`, file, specFile, run);
      if (!r) continue;
      rnat += r.natMs; rweb += r.webMs; rcount++;
      if (r.verdict !== expect) fail(`real/${f}: expected ${expect}, got ${r.verdict}`);
    }
    console.log(`real corpus: ${rcount}/${rfiles.length} compared; native total ${(rnat / 1000).toFixed(1)} s, wasm total ${(rweb / 1000).toFixed(1)} s`);
  }

  // 3. Deep trees (cfp_syntax MAX_TREE_DEPTH is 1,500): left-nested chains of 1,490
  //    links. With wasm's default 1 MiB stack the call chain overflows in lowering
  //    (measured: "memory access out of bounds" in cfp_core::lower); .cargo/config.toml
  //    gives the wasm 16 MiB.
  if (!filter || 'deep'.includes(filter)) {
    const tmp = fs.mkdtempSync(path.join(root, 'target', 'wasm-deep-'));
    const n = 1490;
    const cases = [
      ['deep-sum-const', '', Array(n).fill('1').join(' + ')],
      ['deep-sum-var', 'int y = 1;', Array(n).fill('y').join(' + ')],
      ['deep-call-chain', 'Foo f = new Foo();', 'f' + '.g()'.repeat(n)],
      ['deep-index-chain', 'int[] arr = new int[3];', 'arr' + '[0]'.repeat(n)],
    ];
    for (const [name, init, expr] of cases) {
      const prog = path.join(tmp, `${name}.java`);
      fs.writeFileSync(prog, `class Main {\n  public static void main(String[] args) {\n    Lock l = new Lock();\n    ${init}\n    int x = ${expr};\n    if (x > 5) { l.lock(); }\n    if (x > 5) { l.unlock(); }\n  }\n}\n`);
      await compare(`${name} (${n} levels)`, prog, path.join(root, 'tests', 'specs', 'lock-paper.cfg'));
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  // 4. Bad input: check_json rejects with the diagnostics.
  try {
    await engine.check_json('class A { void m() { int x = ; } }', 'S -> ;', '');
    fail('bad input: check_json resolved');
  } catch (e) {
    const ok = /^program:1:\d+: /m.test(e.message);
    console.log(`${ok ? 'ok  ' : 'FAIL'} bad input rejected: ${JSON.stringify(e.message)}`);
    if (!ok) failures++;
  }

  console.log(`${failures === 0 ? 'PASS' : 'FAILED'} (${failures} failure(s), ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  process.exit(failures === 0 ? 0 : 1);
}

main().catch((e) => { console.error(e); process.exit(1); });
