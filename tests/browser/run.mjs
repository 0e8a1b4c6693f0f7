// The playground's browser tests. Usage:
//   node tests/browser/run.mjs URL [--only NAME,NAME…] [--list] [--bench]
// The timing checks assert behaviour with limits 5x the targets (cancel < 1 s,
// click-to-verdict < 1 s, no main-thread task > 100 ms), so that a loaded machine does not
// fail them; the measured figures and the targets are printed as `BENCH {…}` lines with
// CFP_BENCH=1, and `--bench` (`cargo xtask bench-browser`) runs only those checks.
// normally through `cargo xtask test-browser`, which builds dist/, serves it with COOP/COEP
// and sets CFP_* (see lib.mjs). Prints one line per check and `N passed, N failed`;
// exits 1 if any check failed.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadavg } from 'node:os';
import * as L from './lib.mjs';
import { registerShareChecks } from './share-checks.mjs';

const argv = process.argv.slice(2);
const url = argv.find((a) => /^https?:/.test(a));
const onlyArg = argv.indexOf('--only');
const only = onlyArg >= 0 ? argv[onlyArg + 1].split(',') : null;
const here = new URL('.', import.meta.url).pathname;
const fixtures = join(here, 'fixtures');

const checks = [];
const check = (name, fn) => checks.push({ name, fn });

/** The targets of the timing checks (ms) and the factor their assertions allow. */
const TARGET = { cancelMs: 1000, clickToVerdictMs: 1000, longTaskMs: 100 };
const SLACK = 5;
/** A figure for `cargo xtask bench` (only with CFP_BENCH=1). */
function bench(name, value, unit, target) {
  if (!process.env.CFP_BENCH) return;
  console.log(`BENCH ${JSON.stringify({ group: 'browser', name, value: Number(value.toFixed(1)), unit, better: 'lower', target })}`);
}

/** Open the app and wait until the editors are attached. */
async function openApp(ctx, opts = {}) {
  const page = await L.newPage(ctx);
  if (opts.beforeGoto) await opts.beforeGoto(page);
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await page.locator(L.tid('program-editor')).first().waitFor({ state: 'attached', timeout: 30000 });
  return page;
}

/** Load the app with `lines` appended to the worker script (test hooks inside the worker). */
async function openAppWithWorkerLines(ctx, lines) {
  return openApp(ctx, {
    beforeGoto: (p) => p.route(/\/worker\.js(\?.*)?$/, async (route) => {
      const res = await route.fetch();
      await route.fulfill({ response: res, body: (await res.text()) + lines });
    }),
  });
}

/** Load the app, run the selected example once so Z3 is loaded (the warm-up). */
async function warmApp(ctx) {
  const page = await openApp(ctx);
  await L.runToVerdict(page, { timeout: 120000 });
  return page;
}

const running = () => L.galleryExamples().find((e) => /fig2|running|paper/i.test(`${e.id} ${e.title}`)
  && !/bug|double/i.test(`${e.id} ${e.title}`)) ?? L.galleryExamples()[0];

// a. cross-origin isolation (z3-solver needs SharedArrayBuffer)
check('isolation', async (ctx) => {
  const page = await openApp(ctx);
  const coi = await page.evaluate(() => globalThis.crossOriginIsolated);
  assert.equal(coi, true, 'crossOriginIsolated is not true');
  assert.equal(await page.evaluate(() => typeof SharedArrayBuffer), 'function');
  await L.screenshot(page, '01-loaded');
  if (L.env.plainUrl) {
    const plain = await L.newPage(ctx);
    // ?nosw: without it the page installs its service worker and becomes isolated.
    await plain.goto(new URL('?nosw', L.env.plainUrl).href, { waitUntil: 'domcontentloaded' });
    assert.equal(await plain.evaluate(() => globalThis.crossOriginIsolated), false,
      '--no-isolation server should not be isolated');
  }
  return 'crossOriginIsolated === true';
});

// b. editors usable before Z3 has loaded: the z3 wasm is held back until we have typed.
check('editors-before-z3', async (ctx) => {
  let release;
  const held = new Promise((r) => { release = r; });
  let z3Requested = false;
  const page = await openApp(ctx, {
    beforeGoto: (p) => p.route(/z3-built\.(wasm|js)(\?.*)?$/, async (route) => {
      z3Requested = true;
      await held;
      await route.continue();
    }),
  });
  const ed = await L.editor(page, 'program-editor');
  const t0 = Date.now();
  await ed.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n// typed before z3\n');
  const typedMs = Date.now() - t0;
  const text = await L.editorText(page, 'program-editor');
  assert.ok(text.includes('// typed before z3'), 'typed text is not in the program editor');
  const spec = await L.editor(page, 'spec-editor');
  await spec.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n// spec typed before z3');
  assert.ok((await L.editorText(page, 'spec-editor')).includes('// spec typed before z3'),
    'typed text is not in the spec editor');
  // The UI's own status agrees (if it shows one).
  const status = page.locator(L.tid('z3-status'));
  const statusText = (await status.count()) ? (await status.first().textContent()).trim() : null;
  if (statusText !== null) assert.ok(!/ready/i.test(statusText), `z3-status says ${statusText} while z3 is held back`);
  release();
  return `typed in ${typedMs} ms while z3 ${z3Requested ? 'was held back' : 'was not requested yet'}${statusText ? ` (status: ${statusText})` : ''}`;
});

// c. verdicts and iteration counts equal the native CLI's
check('verdicts-match-cli', async (ctx) => {
  const all = L.galleryExamples();
  assert.ok(all.length >= 9, `examples/index.json lists ${all.length} examples, need >= 9`);
  const first = running();
  const list = [first, ...all.filter((e) => e.id !== first.id)];
  const page = await openApp(ctx);
  const rows = [];
  const bad = [];
  let shotViolation = false;
  for (const ex of list) {
    const want = L.nativeCheck(ex.programPath, ex.specPath);
    await L.selectExample(page, ex);
    const programText = readFileSync(ex.programPath, 'utf8');
    await page.waitForFunction(
      ({ sel, text }) => {
        const o = document.querySelector(sel);
        if (!o) return false;
        const v = o.cfpEditor ? o.cfpEditor.text() : o.value;
        return v.trim() === text.trim();
      },
      { sel: L.tid('program-editor'), text: programText },
      { timeout: 10000 },
    ).catch(() => { throw new Error(`selecting ${ex.id} did not load its program into the editor`); });
    const got = await L.runToVerdict(page, { timeout: 180000 });
    const ok = got.verdict === want.verdict && got.iterations === want.iterations;
    rows.push(`${ok ? 'ok ' : 'BAD'} ${ex.id}: browser ${got.verdict}/${got.iterations} cli ${want.verdict}/${want.iterations} (${got.ms.toFixed(0)} ms)`);
    if (!ok) bad.push(ex.id);
    if (ex === list[0]) await L.screenshot(page, '02-running-example-verified');
    if (got.verdict === 'violation' && !shotViolation) {
      shotViolation = true;
      await L.screenshot(page, `02-violation-${ex.id}`);
    }
  }
  for (const r of rows) console.log(`    ${r}`);
  assert.deepEqual(bad, [], `mismatches: ${bad.join(', ')}`);
  return `${list.length} examples match`;
});

// d. stepping shows a grammar diff and a cloned PCFA state
check('step-diff-and-clone', async (ctx) => {
  const all = L.galleryExamples();
  // An example that needs refinements (native iterations >= 2).
  let ex = null;
  for (const e of all) {
    if (L.nativeCheck(e.programPath, e.specPath).iterations >= 2) { ex = e; break; }
  }
  assert.ok(ex, 'no gallery example needs a refinement');
  const page = await openApp(ctx);
  await L.selectExample(page, ex);
  let sawDiff = false;
  let sawClone = false;
  const progress = () => page.evaluate(() => [
    document.querySelector('[data-testid="iteration-count"]')?.textContent,
    document.querySelectorAll('[data-testid="timeline-item"]').length,
    document.querySelectorAll('[data-testid="grammar-diff"]').length,
    document.querySelectorAll('[data-testid="pcfa-cloned"]').length,
    document.querySelector('[data-testid="verdict"]')?.textContent,
  ].join('|'));
  let steps = 0;
  for (; steps < 20 && !(sawDiff && sawClone); steps++) {
    const before = await progress();
    await page.locator(L.tid('step')).first().click({ timeout: 120000 });
    // One step = the page shows something new (first one also loads Z3).
    await page.waitForFunction(
      ({ before }) => [
        document.querySelector('[data-testid="iteration-count"]')?.textContent,
        document.querySelectorAll('[data-testid="timeline-item"]').length,
        document.querySelectorAll('[data-testid="grammar-diff"]').length,
        document.querySelectorAll('[data-testid="pcfa-cloned"]').length,
        document.querySelector('[data-testid="verdict"]')?.textContent,
      ].join('|') !== before,
      { before }, { timeout: 60000, polling: 50 },
    ).catch(() => {});
    // Let the animation play what the step brought (the verdict shows when it reaches it).
    await settled(page);
    await graphDrawn(page);
    const diff = page.locator(L.tid('grammar-diff'));
    sawDiff ||= (await diff.count()) > 0 && (await diff.first().innerText()).trim().length > 0;
    sawClone ||= (await page.locator(L.tid('pcfa-cloned')).count()) > 0;
    if (sawDiff && sawClone) await L.screenshot(page, '03-step-diff-clone');
    const v = (await page.locator(L.tid('verdict')).first().textContent())?.trim();
    if (L.FINAL.includes(v)) break;
  }
  assert.ok(sawDiff, 'no non-empty [data-testid="grammar-diff"] after stepping');
  assert.ok(sawClone, 'no [data-testid="pcfa-cloned"] after stepping');
  return `example ${ex.id}, ${steps + 1} step clicks`;
});

/** Removed edges a PCFA drawing shows at most (`MAX_REMOVED_DRAWN`, web/src/app/pcfa/dot.rs). */
const MAX_REMOVED_DRAWN = 60;

/** Wait until the page has shown every event of the run (its animation is over). */
async function settled(page) {
  await page.waitForFunction(() => document.querySelector('.app')?.getAttribute('data-pending') === '0',
    null, { timeout: 60000, polling: 50 });
}

/** Wait until the PCFA panel's drawing is the one the page asked for (whatever method),
 * or there is no graph to draw. */
async function graphDrawn(page, timeout = 20000) {
  await page.waitForFunction(() => {
    const host = document.querySelector('.pcfa-graph');
    if (!host) return true;
    const svg = host.querySelector('svg.pcfa-svg');
    return !!svg && svg.getAttribute('data-dot') === host.getAttribute('data-dot');
  }, null, { timeout, polling: 50 }).catch(() => {});
}

/** Wait until the PCFA panel shows `method`'s graph as the page asked for it: graph.js
 * marks its <svg> with the key of the DOT it finished drawing (`data-dot`), the page
 * marks the host with the key of the DOT it wants. */
async function waitForGraph(page, method, timeout = 20000) {
  await page.waitForFunction((m) => {
    const host = document.querySelector('.pcfa-graph');
    const svg = host?.querySelector('svg.pcfa-svg');
    return !!host && host.getAttribute('data-method') === m && !!svg
      && svg.getAttribute('data-method') === m
      && svg.getAttribute('data-dot') === host.getAttribute('data-dot');
  }, method, { timeout, polling: 50 }).catch(async () => {
    const why = await page.evaluate(() => document.querySelector('.pcfa')?.innerText.slice(0, 300));
    throw new Error(`the PCFA of ${method} was not drawn: ${why}`);
  });
}

// d2. The PCFA view draws what the core's refinement did, by id: for every iteration of a
//     gallery example, the states shown as cloned and the edges shown as removed are
//     exactly those of the `grammar-built` event in the example's recording.
check('pcfa-ids-match-the-core', async (ctx) => {
  // (The correct running example: the refinement runs before the verdict; the buggy one's
  // violation is found by the bug hunter in the first iteration.)
  const ex = L.galleryExamples().find((e) => e.id === 'paper-fig2') ?? L.galleryExamples()[0];
  const rec = JSON.parse(readFileSync(join(L.env.dist, 'examples', 'records', `${ex.id}.record.json`), 'utf8'));
  const built = rec.events.filter((e) => e.kind === 'grammar-built');
  assert.ok(built.length >= 2 && built.every((e) => Array.isArray(e.pcfas) && e.pcfas.length > 0),
    'the recording has no PCFAs');
  const page = await openApp(ctx);
  await L.selectExample(page, ex);
  await L.runToVerdict(page, { timeout: 120000 });
  await settled(page);
  const seen = [];
  for (const g of built.slice(1)) {
    const changed = g.pcfas.filter((p) => p.cloned.length + p.removed.length > 0);
    assert.ok(changed.length > 0, `iteration ${g.iteration}: the recording shows no change`);
    await page.locator(L.tid('timeline-item')).nth(g.iteration - 1).click();
    await page.waitForFunction((i) => document.querySelector('.app')?.getAttribute('data-shown-iteration') === String(i),
      g.iteration, { timeout: 5000, polling: 20 });
    for (const p of changed) {
      await page.locator('.pcfa .tabs button', { hasText: p.method }).first().click();
      await page.waitForSelector(`.pcfa .tabs button.selected >> text="${p.method}"`, { timeout: 10000 });
      await waitForGraph(page, p.method);
      // Removed edges are hidden until asked for (the choice stays while the page lives).
      const toggle = page.locator(L.tid('pcfa-show-removed'));
      assert.equal(await toggle.count(), p.removed.length > 0 ? 1 : 0, `${p.method}: the removed-edges toggle`);
      if (p.removed.length > 0 && !(await toggle.isChecked())) {
        const hiddenFirst = await page.evaluate(() => document.querySelectorAll('svg.pcfa-svg [data-testid="pcfa-removed"]').length);
        assert.equal(hiddenFirst, 0, `iteration ${g.iteration}, ${p.method}: removed edges drawn while hidden`);
        await toggle.check();
        await waitForGraph(page, p.method);
      }
      const shown = await page.evaluate(() => ({
        cloned: [...document.querySelectorAll('svg.pcfa-svg [data-testid="pcfa-cloned"]')].map((e) => Number(e.getAttribute('data-state-id'))),
        removed: [...document.querySelectorAll('svg.pcfa-svg [data-testid="pcfa-removed"]')].map((e) => Number(e.getAttribute('data-edge-id'))),
      }));
      const sort = (a) => [...a].sort((x, y) => x - y);
      assert.deepEqual(sort(shown.cloned), sort(p.cloned), `iteration ${g.iteration}, ${p.method}: cloned states`);
      // A removed edge is drawn when its ends are placed (live now, or live before) and
      // the refinement removed at most MAX_REMOVED_DRAWN (web/src/app/pcfa/dot.rs) edges.
      const before = built.find((b) => b.iteration === g.iteration - 1)?.pcfas.find((q) => q.method === p.method);
      const placed = new Set([...p.states, ...(before?.states ?? [])].map((st) => st.id));
      const drawable = p.removed.length > MAX_REMOVED_DRAWN ? []
        : p.removed.filter((e) => placed.has(e.from) && placed.has(e.to)).map((e) => e.id);
      assert.deepEqual(sort(shown.removed), sort(drawable), `iteration ${g.iteration}, ${p.method}: removed edges`);
      seen.push(`it${g.iteration} ${p.method}: ${p.cloned.length} cloned, ${p.removed.length} removed`);
    }
  }
  // The interpolants table names each predicate as the core defined it, marking the new ones.
  const interp = rec.events.find((e) => e.kind === 'interpolants' && e.iteration === 1);
  assert.ok(interp?.predicates?.length > 0, 'the recording names no predicate at iteration 1');
  await page.locator(L.tid('timeline-item')).nth(0).click();
  await page.locator('summary', { hasText: 'Interpolants per location' }).first().click();
  await page.waitForSelector('[data-testid="interpolants"] [data-predicate]', { timeout: 10000 });
  const shownNew = await page.evaluate(() => [...document.querySelectorAll('[data-testid="interpolants"] .predicate.new')]
    .map((e) => `${e.getAttribute('data-predicate')}: ${e.querySelector('code')?.textContent}`));
  const wanted = interp.predicates.map((p) => `${p.name}: ${p.text}`);
  assert.deepEqual([...new Set(shownNew)].sort(), [...wanted].sort(), 'named predicates of iteration 1');
  seen.push(`it1 predicates ${wanted.join(', ')}`);
  await L.screenshot(page, '04-pcfa-ids');
  return `${ex.id}: ${seen.join('; ')}`;
});

// A code editor (CodeMirror 6): labelled, highlighted, auto-indent, closing and matching
// brackets, Tab indents, comment toggle, search; Escape then Tab leaves; a newly chosen
// example starts at the first column even after scrolling sideways.
check('code-editor-keys', async (ctx) => {
  const page = await openApp(ctx);
  const id = 'program-editor';
  const host = page.locator(L.tid(id));
  assert.equal(await host.locator('.cm-content').getAttribute('aria-label'), 'Program editor');
  assert.equal(await page.locator(`${L.tid('spec-editor')} .cm-content`).getAttribute('aria-label'), 'Spec editor');
  await L.setEditor(page, id, 'class Main {\n    void m() {\n    }\n}\n');
  await host.locator('.tk-kw', { hasText: 'class' }).first().waitFor({ timeout: 3000 });
  const line = async (n) => (await L.editorText(page, id)).split('\n')[n - 1];
  await page.evaluate(() => {
    const v = document.querySelector('[data-testid="program-editor"]').cfpEditor.view;
    v.dispatch({ selection: { anchor: v.state.doc.line(2).to } });
    v.focus();
  });
  await page.keyboard.press('Enter');
  await page.keyboard.type('foo(');
  assert.equal(await line(3), '        foo()', 'Enter does not indent or ( is not closed');
  assert.ok(await host.locator('.cm-matchingBracket').count() >= 1, 'the brackets around the cursor are not matched');
  await page.keyboard.press('Tab');
  assert.equal(await line(3), '            foo()', 'Tab does not indent');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Control+/');
  assert.match(await line(3), /^\s*\/\/ ?foo\(\)$/, 'Ctrl+/ does not comment the line');
  await page.keyboard.press('Control+/');
  assert.equal(await line(3), '        foo()', 'Ctrl+/ does not uncomment the line');
  await page.keyboard.press('Control+f');
  await host.locator('.cm-search').waitFor({ timeout: 3000 });
  await page.keyboard.press('Escape');
  await host.locator('.cm-search').waitFor({ state: 'detached', timeout: 3000 });
  const inEditor = () => page.evaluate(() => !!document.activeElement?.closest('[data-testid="program-editor"]'));
  assert.ok(await inEditor(), 'closing search does not return to the editor');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  assert.ok(!(await inEditor()), 'Escape then Tab does not leave the editor');
  // Spec mode: terminals and nonterminals coloured.
  await L.setEditor(page, 'spec-editor', 'S -> $1.lock() S $1.unlock() S | eps;');
  await page.locator(`${L.tid('spec-editor')} .tk-term`).first().waitFor({ timeout: 3000 });
  // Sideways scroll, then an example: it shows from column 1.
  await L.setEditor(page, id, `class Main { ${'int x; '.repeat(80)} }\n`);
  await page.evaluate(() => { document.querySelector('[data-testid="program-editor"] .cm-scroller').scrollLeft = 600; });
  const ex = L.galleryExamples()[0];
  await L.selectExample(page, ex);
  await page.waitForFunction((t) => document.querySelector('[data-testid="program-editor"]').cfpEditor.text() === t,
    readFileSync(ex.programPath, 'utf8'), { timeout: 5000 });
  const left = await page.evaluate(() => document.querySelector('[data-testid="program-editor"] .cm-scroller').scrollLeft);
  assert.equal(left, 0, `the new example shows scrolled ${left}px sideways`);
  await L.screenshot(page, '03-code-editor');
  return 'label, highlighting, auto-indent, ( closed and matched, Tab/Shift+Tab, Ctrl+/, Ctrl+F, Escape+Tab leaves, scroll reset';
});

// Accessibility: axe-core finds no critical or serious violation, in both themes, on the
// page as a user meets it (examples, help open) and after a violation run (trace, values,
// PCFAs, grammar); every trace step takes the keyboard focus and shows a focus ring.
check('axe-no-serious-violations', async (ctx) => {
  const page = await warmApp(ctx);
  const bug = L.galleryExamples().find((e) => /bug/.test(e.id));
  const found = [];
  const scan = async (what) => {
    for (const theme of ['light', 'dark']) {
      await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
      // Let entrance animations (opacity) finish: axe measures colours as drawn.
      await page.waitForTimeout(600);
      for (const v of await L.axeSerious(page)) found.push(`${what}/${theme}: ${v}`);
    }
  };
  await page.locator('details.help summary, [data-testid="help"] summary').first().click().catch(() => {});
  await scan('start');
  await L.selectExample(page, bug);
  await page.locator(L.tid('speed')).selectOption('0');
  const r = await L.runToVerdict(page, { timeout: 120000 });
  assert.equal(r.verdict, 'violation');
  await scan('violation');
  await L.showCheckerSteps(page);
  await scan('violation, checker steps open');
  const steps = page.locator('[data-testid="trace"] li[tabindex]');
  const n = await steps.count();
  assert.ok(n > 0, 'no focusable trace step');
  // From one step to the next with the keyboard: the focused step shows a ring.
  await steps.first().focus();
  await page.keyboard.press('Tab');
  const ring = await page.evaluate(() => {
    const e = document.activeElement;
    return { step: !!e?.closest('[data-testid="trace"]'), outline: getComputedStyle(e).outlineStyle };
  });
  assert.ok(ring.step, 'Tab from a trace step leaves the trace');
  assert.notEqual(ring.outline, 'none', 'a focused trace step shows no focus ring');
  await page.evaluate(() => document.documentElement.removeAttribute('data-theme'));
  assert.deepEqual(found, [], `axe: ${found.length} critical/serious:\n${found.join('\n')}`);
  return `0 critical/serious in light and dark, at start and after ${bug.id}; ${n} trace steps focusable`;
});

// The "How it works" strip lights the CEGAR step the animation shows: on an example that
// refines, every step of the loop lights in turn and the verdict last.
check('loop-strip-follows-the-animation', async (ctx) => {
  const page = await warmApp(ctx);
  const ex = L.galleryExamples().find((e) => e.id === 'paper-fig2');
  await L.selectExample(page, ex);
  await page.locator(L.tid('speed')).selectOption('150');
  // Every change of the strip's phase, recorded in the page as it happens.
  await page.evaluate(() => {
    const el = document.querySelector('[data-testid="loop-strip"]');
    window.__phases = [];
    new MutationObserver(() => {
      const p = el.getAttribute('data-phase');
      if (window.__phases[window.__phases.length - 1] !== p) window.__phases.push(p);
    }).observe(el, { attributes: true, attributeFilter: ['data-phase'] });
  });
  const r = await L.runToVerdict(page, { timeout: 120000 });
  await page.waitForFunction(() => document.querySelector('[data-testid="loop-strip"]')?.getAttribute('data-phase') === 'verdict',
    null, { timeout: 30000 });
  const phases = await page.evaluate(() => window.__phases);
  const lit = await page.locator(`${L.tid('loop-strip')} .lit`).allTextContents();
  assert.deepEqual(lit, [r.verdict], `the strip lights ${lit} at the end`);
  for (const p of ['inclusion', 'feasibility', 'refine']) assert.ok(phases.includes(p), `the strip never lit ${p}: ${phases.join(' → ')}`);
  assert.equal(phases[phases.length - 1], 'verdict', `the strip ends on ${phases[phases.length - 1]}: ${phases.join(' → ')}`);
  return phases.join(' → ');
});

// Resizable panes: the separator between editors and results moves with the pointer and
// the arrow keys, and the split survives a reload; the editors resize in height.
check('panes-resize', async (ctx) => {
  const page = await openApp(ctx);
  const width = () => page.evaluate(() => document.querySelector('.col.editors').getBoundingClientRect().width);
  const w0 = await width();
  const sep = page.locator(L.tid('splitter'));
  const box = await sep.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + 100);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 200, box.y + 100, { steps: 5 });
  await page.mouse.up();
  const w1 = await width();
  assert.ok(w1 < w0 - 150, `dragging 200 px left: editors ${w0.toFixed(0)} → ${w1.toFixed(0)} px`);
  await sep.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const w2 = await width();
  assert.ok(w2 > w1 + 20, `ArrowRight does not widen the editors (${w1.toFixed(0)} → ${w2.toFixed(0)})`);
  await page.reload();
  await page.locator(L.tid('program-editor')).first().waitFor({ state: 'attached', timeout: 30000 });
  const w3 = await width();
  assert.ok(Math.abs(w3 - w2) < 4, `the split did not survive a reload (${w2.toFixed(0)} → ${w3.toFixed(0)})`);
  assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('[data-testid="program-editor"]')).resize), 'vertical');
  await page.locator(L.tid('splitter')).dblclick();
  return `editors ${w0.toFixed(0)} → drag ${w1.toFixed(0)} → keys ${w2.toFixed(0)} → reload ${w3.toFixed(0)} px`;
});

// d3. PCFAs laid out by Graphviz. For every gallery example, at its last
//     iteration, every method's graph has no two edge labels whose boxes overlap, and
//     labels are at least 12 px in the default view; wheel zoom changes the view, Reset
//     brings the default view back, Fit shows the whole graph. Screenshots in both themes.
check('pcfa-graphviz-labels-do-not-overlap', async (ctx) => {
  const page = await openApp(ctx);
  const rows = [];
  const bad = [];
  let slowest = { ms: 0, task: 0, what: '' };
  let longest = { ms: 0, what: '' };
  let minPx = Infinity;
  const collapsedSeen = [];
  for (const ex of L.galleryExamples()) {
    await L.selectExample(page, ex);
    await page.locator(L.tid('speed')).selectOption('0');
    await L.runToVerdict(page, { timeout: 180000 });
    await settled(page);
    const methods = await page.locator('.pcfa .tabs button').allTextContents();
    assert.ok(methods.length > 0, `${ex.id}: no PCFA tabs`);
    const notes = [];
    for (const [i, method] of methods.map((m) => m.trim()).entries()) {
      const from = await page.evaluate(() => performance.now());
      await page.locator('.pcfa .tabs button').nth(i).click();
      await waitForGraph(page, method);
      const to = await page.evaluate(() => performance.now());
      const task = Math.max(0, ...((await L.longTasks(page, from, to)) ?? []).map((t) => t.duration));
      // Removed edges are hidden unless asked for; large graphs collapse quiet runs.
      const drawn = await page.evaluate(() => ({
        removed: document.querySelectorAll('.pcfa-graph [data-testid="pcfa-removed"]').length,
        collapsed: document.querySelectorAll('.pcfa-graph g.edge.pcfa-collapsed').length,
      }));
      assert.equal(drawn.removed, 0, `${ex.id} ${method}: removed edges drawn by default`);
      if (drawn.collapsed) collapsedSeen.push(`${ex.id} ${method}: ${drawn.collapsed}`);
      const m = await page.evaluate(() => {
        const host = document.querySelector('.pcfa-graph');
        const svg = host.querySelector('svg.pcfa-svg');
        const boxes = [];
        let px = Infinity;
        for (const g of svg.querySelectorAll('g.edge')) {
          const texts = [...g.querySelectorAll('text')];
          if (!texts.length) continue;
          const rs = texts.map((t) => t.getBoundingClientRect());
          boxes.push({
            id: g.id, text: texts.map((t) => t.textContent).join(' '),
            x0: Math.min(...rs.map((r) => r.left)), y0: Math.min(...rs.map((r) => r.top)),
            x1: Math.max(...rs.map((r) => r.right)), y1: Math.max(...rs.map((r) => r.bottom)),
          });
          for (const t of texts) px = Math.min(px, Number.parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a);
        }
        const overlaps = [];
        const EPS = 0.5;
        for (let a = 0; a < boxes.length; a++) {
          for (let b = a + 1; b < boxes.length; b++) {
            const p = boxes[a], q = boxes[b];
            if (Math.min(p.x1, q.x1) - Math.max(p.x0, q.x0) > EPS && Math.min(p.y1, q.y1) - Math.max(p.y0, q.y0) > EPS) {
              overlaps.push(`${p.id} "${p.text}" / ${q.id} "${q.text}"`);
            }
          }
        }
        const stats = globalThis.cfpGraph.stats(host);
        return { labels: boxes.length, overlaps, px, layoutMs: stats?.layoutMs ?? 0, size: stats ? `${Math.round(stats.widthPt)}x${Math.round(stats.heightPt)}pt` : '?' };
      });
      if (m.overlaps.length) bad.push(`${ex.id} ${method}: ${m.overlaps.length} overlapping pair(s), e.g. ${m.overlaps[0]}`);
      if (m.labels) minPx = Math.min(minPx, m.px);
      if (m.labels && m.px < 12 - 0.01) bad.push(`${ex.id} ${method}: labels ${m.px.toFixed(1)} px in the default view`);
      if (m.layoutMs > slowest.ms) slowest = { ms: m.layoutMs, task, what: `${ex.id} ${method} (${m.size}, ${m.labels} labels)` };
      if (task > longest.ms) longest = { ms: task, what: `${ex.id} ${method}` };
      notes.push(`${method} ${m.labels} labels/${m.overlaps.length} overlaps`);
    }
    rows.push(`${ex.id}: ${notes.join(', ')}`);
  }
  for (const r of rows) console.log(`    ${r}`);
  assert.deepEqual(bad, [], bad.join('; '));
  // Zoom, reset and fit, on the running example's default method.
  const ex = running();
  await L.selectExample(page, ex);
  await L.runToVerdict(page, { timeout: 120000 });
  await settled(page);
  // A method the last refinement changed (cloned states, removed edges), else the selected.
  const tab = page.locator('.pcfa .tabs button.changed, .pcfa .tabs button.selected').first();
  await tab.click();
  const method = (await tab.textContent()).trim();
  await waitForGraph(page, method);
  await page.locator('.pcfa-graph svg.pcfa-svg').scrollIntoViewIfNeeded();
  const transform = () => page.evaluate(() => globalThis.cfpGraph.transform(document.querySelector('.pcfa-graph')));
  const t0 = await transform();
  const box = await page.locator('.pcfa-graph svg.pcfa-svg').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -400);
  await page.waitForFunction((k) => Math.abs(globalThis.cfpGraph.transform(document.querySelector('.pcfa-graph')).k - k) > 1e-3,
    t0.k, { timeout: 5000, polling: 50 });
  const t1 = await transform();
  await page.locator(L.tid('pcfa-reset')).click();
  // The default view is computed again from the drawing's measured size: the same view up
  // to float noise (seen: k off by 2e-5, y by 0.002 px), far below a visible difference.
  await page.waitForFunction((t) => {
    const now = globalThis.cfpGraph.transform(document.querySelector('.pcfa-graph'));
    return Math.abs(now.k - t.k) < 1e-4 * t.k && Math.abs(now.x - t.x) < 0.1 && Math.abs(now.y - t.y) < 0.1;
  }, t0, { timeout: 5000, polling: 50 }).catch(async () => {
    throw new Error(`Reset did not bring the default view back: ${JSON.stringify(t0)} before zooming, ${JSON.stringify(await transform())} after Reset`);
  });
  await page.mouse.wheel(0, 600);
  await page.locator(L.tid('pcfa-fit')).click();
  await page.waitForTimeout(500); // the view's transition
  const fits = await page.evaluate(() => {
    const svg = document.querySelector('.pcfa-graph svg.pcfa-svg');
    const s = svg.getBoundingClientRect();
    const g = svg.querySelector(':scope > g').getBoundingClientRect();
    return g.left >= s.left - 1 && g.top >= s.top - 1 && g.right <= s.right + 1 && g.bottom <= s.bottom + 1;
  });
  assert.ok(fits, 'Fit does not show the whole graph');
  await page.locator(L.tid('pcfa-reset')).click();
  await page.waitForTimeout(500);
  await page.locator('.pcfa-graph').scrollIntoViewIfNeeded();
  const panel = page.locator('.pcfa').first();
  await L.screenshot(page, '10-pcfa-graphviz-light');
  await panel.screenshot({ path: join(L.env.shots, '10-pcfa-graphviz-light-panel.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(300);
  await L.screenshot(page, '10-pcfa-graphviz-dark');
  await panel.screenshot({ path: join(L.env.shots, '10-pcfa-graphviz-dark-panel.png') });
  return `${L.galleryExamples().length} examples, 0 overlapping labels; smallest label ${minPx.toFixed(1)} px in the default view; `
    + `slowest layout ${slowest.ms.toFixed(0)} ms (${slowest.what}); longest main-thread task while drawing a graph `
    + `${longest.ms.toFixed(0)} ms (${longest.what}); wheel zoom k ${t0.k.toFixed(2)}→${t1.k.toFixed(2)}, Reset and Fit work; `
    + `no removed edge drawn by default; collapsed runs in ${collapsedSeen.length ? collapsedSeen.join(', ') : 'none'}`;
});

// e. a syntax error shows its diagnostic at the right line
// The built-in protocols of `cfp specs` are a choice away from the spec editor.
check('builtin-spec-picker', async (ctx) => {
  const page = await openApp(ctx);
  const picker = page.locator(L.tid('builtin-spec')).first();
  await picker.waitFor({ state: 'attached', timeout: 10000 });
  const names = await picker.locator('option').evaluateAll((os) => os.map((o) => o.value).filter(Boolean));
  assert.deepEqual(names, ['lock', 'wakelock', 'wifilock', 'canvas', 'json'], `options ${names}`);
  await picker.selectOption('wakelock');
  const want = readFileSync(join(L.env.root, 'tests/specs/wakelock.cfg'), 'utf8');
  let text = '';
  for (let i = 0; i < 50 && text.trim() !== want.trim(); i++) {
    text = await L.editorText(page, 'spec-editor');
    if (text.trim() !== want.trim()) await page.waitForTimeout(100);
  }
  assert.equal(text.trim(), want.trim(), 'the spec editor holds tests/specs/wakelock.cfg');
  assert.equal(await picker.inputValue(), '', 'the picker goes back to its prompt');
  return 'wakelock loaded into the spec editor';
});

check('syntax-error-line', async (ctx) => {
  const page = await openApp(ctx);
  const program = 'class Main {\n    public static void main(String[] args) {\n        int x = 1\n    }\n}\n';
  const line = 3; // `cfp parse`: 3:18: expected `;`
  await L.setEditor(page, 'program-editor', program);
  const diag = page.locator('[data-testid="diagnostic"], [data-testid="diagnostics"] [data-line]').first();
  // Live diagnostics if the UI has them; otherwise the run reports them.
  const live = await diag.waitFor({ state: 'attached', timeout: 2000 }).then(() => true, () => false);
  if (!live) {
    await page.locator(L.tid('run')).first().click();
    await diag.waitFor({ state: 'attached', timeout: 60000 }).catch(() => {
      throw new Error('no [data-testid="diagnostic"] appeared for a program with a syntax error');
    });
  }
  const info = await diag.evaluate((el) => ({ line: el.getAttribute('data-line'), text: el.textContent }));
  const atLine = info.line !== null ? Number(info.line) === line
    : new RegExp(`(^|\\D)${line}(:|\\D)`).test(info.text) && /line|:/i.test(info.text);
  await L.screenshot(page, '04-syntax-error');
  assert.ok(atLine, `diagnostic not at line ${line}: data-line=${info.line} text=${JSON.stringify(info.text)}`);
  // The editor squiggles and marks the same line in its gutter.
  await page.locator(`${L.tid('program-editor')} .cm-lintRange-error, ${L.tid('program-editor')} .cm-lintPoint-error`).first().waitFor({ state: 'attached', timeout: 5000 });
  const squiggled = await L.editorLinesOf(page, 'program-editor', '.cm-lintRange-error, .cm-lintPoint-error');
  assert.deepEqual([...new Set(squiggled)], [line], `squiggles on lines ${squiggled}`);
  const marked = await L.editorLinesOf(page, 'program-editor', '.cm-gutter-lint .cm-lint-marker-error');
  assert.deepEqual(marked, [line], `gutter marks lines ${marked}`);
  return `line ${line} (${live ? 'live' : 'after run'}): ${info.text.trim().replace(/\s+/g, ' ').slice(0, 60)}`;
});

// f. cancel stops a long run within 1 s
check('cancel-within-1s', async (ctx) => {
  const page = await warmApp(ctx);
  await L.setEditor(page, 'program-editor', readFileSync(join(fixtures, 'long-run.java'), 'utf8'));
  await L.setEditor(page, 'spec-editor', readFileSync(join(fixtures, 'lock.cfg'), 'utf8'));
  const before = await page.evaluate(() => performance.now());
  await page.locator(L.tid('run')).first().click();
  await page.waitForTimeout(1500);
  const finishedEarly = await page.evaluate(({ before, FINAL }) => (window.__verdicts || [])
    .some((e) => e.t >= before && e.text && FINAL.some((f) => e.text.startsWith(f))), { before, FINAL: L.FINAL });
  assert.ok(!finishedEarly, 'the long run finished before cancel (fixture too short)');
  await L.screenshot(page, '05-running');
  const state = await page.evaluate(() => ({
    cancel: !document.querySelector('[data-testid="cancel"]')?.disabled,
    diags: document.querySelectorAll('[data-testid="diagnostic"]').length,
    iterations: document.querySelector('[data-testid="iteration-count"]')?.textContent,
  }));
  assert.ok(state.cancel && state.diags === 0, `the long run is not running: ${JSON.stringify(state)}`);
  const tCancel = await L.clickAt(page, 'cancel');
  // Stopped = run is clickable again, or cancel is disabled/hidden, or a verdict shows.
  const h = await page.waitForFunction(({ FINAL }) => {
    const run = document.querySelector('[data-testid="run"]');
    const cancel = document.querySelector('[data-testid="cancel"]');
    const v = document.querySelector('[data-testid="verdict"]')?.textContent.trim().toLowerCase() ?? '';
    const stopped = (run && !run.disabled) && (!cancel || cancel.disabled || cancel.offsetParent === null
      || FINAL.some((f) => v.startsWith(f)) || /cancel/.test(v));
    return stopped ? performance.now() : null;
  }, { FINAL: L.FINAL }, { timeout: 10000, polling: 20 });
  const ms = (await h.jsonValue()) - tCancel;
  await L.screenshot(page, '06-cancelled');
  bench('cancel to stopped', ms, 'ms', TARGET.cancelMs);
  assert.ok(ms < TARGET.cancelMs * SLACK, `cancel took ${ms.toFixed(0)} ms (target ${TARGET.cancelMs} ms)`);
  // Nothing moves after the stop (the worker really stopped, not only the buttons).
  const frozen = await L.iterationCount(page);
  await page.waitForTimeout(1500);
  assert.equal(await L.iterationCount(page), frozen, 'iterations still advance after cancel');
  // And the engine is usable again: the running example verifies right after.
  const ex = running();
  if (ex) {
    await L.selectExample(page, ex);
    const r = await L.runToVerdict(page, { timeout: 30000 });
    const want = L.nativeCheck(ex.programPath, ex.specPath);
    assert.equal(r.verdict, want.verdict, 'run after cancel gave a different verdict');
    return `stopped ${ms.toFixed(0)} ms after the click; next run ${r.verdict} in ${r.ms.toFixed(0)} ms`;
  }
  return `stopped ${ms.toFixed(0)} ms after the click`;
});

// f2. A panic in the checker (wasm) reaches the page as an error and ends the run; the
//     page replaces the worker and the next run works. worker.js is served with a line
//     that calls the checker's self-test panic when a run's program carries a marker.
check('worker-panic-ends-the-run', async (ctx) => {
  const page = await openAppWithWorkerLines(ctx, `
self.addEventListener('message', (ev) => {
  if (ev.data && ev.data.type === 'run' && String(ev.data.program).includes('CFP_SELF_TEST_PANIC')) {
    setTimeout(() => wasm_bindgen.worker_self_test_panic(), 0);
  }
});`);
  await L.runToVerdict(page, { timeout: 120000 }); // Z3 loaded
  const program = await L.editorText(page, 'program-editor');
  await L.setEditor(page, 'program-editor', program + '\n// CFP_SELF_TEST_PANIC\n');
  await page.locator(L.tid('run')).first().click();
  const h = await page.waitForFunction(() => {
    const errors = document.querySelector('[data-testid="errors"]')?.textContent ?? '';
    const run = document.querySelector('[data-testid="run"]');
    return /checker crashed/.test(errors) && run && !run.disabled ? errors : null;
  }, null, { timeout: 20000, polling: 50 });
  const message = String(await h.jsonValue()).replace(/\s+/g, " ").trim();
  assert.match(message, /worker_self_test_panic was called/);
  await L.screenshot(page, '07-worker-panic');
  // A new worker serves the next run.
  await L.setEditor(page, 'program-editor', program);
  const r = await L.runToVerdict(page, { timeout: 60000 });
  assert.ok(L.FINAL.includes(r.verdict), `no verdict after the crash: ${JSON.stringify(r)}`);
  return `the page said "${message.slice(0, 80)}…", the run ended, the next run: ${r.verdict}`;
});

// edits survive a reload, the selector says "edited", choosing an example over
// edits can be undone, and share titles name the program's class.
check('edits-survive-reload-and-undo', async (ctx) => {
  const page = await openApp(ctx);
  const mine = 'class Bank {\n    public static void main(String[] args) {\n        ReentrantLock l = new ReentrantLock();\n        l.lock();\n        l.unlock();\n    }\n}\n';
  await L.setEditor(page, 'program-editor', mine);
  await page.waitForTimeout(1000); // past the save debounce
  await page.reload({ waitUntil: 'domcontentloaded' });
  await page.locator(L.tid('program-editor')).first().waitFor({ state: 'attached', timeout: 30000 });
  assert.equal(await L.editorText(page, 'program-editor'), mine, 'the edits did not survive the reload');
  const label = await page.locator(L.tid('example-select')).first()
    .evaluate((el) => el.options[el.selectedIndex]?.textContent ?? '');
  assert.match(label, /edited/, `the selector says ${JSON.stringify(label)}`);
  await page.locator(L.tid('share')).first().click();
  const md = await page.locator(L.tid('share-markdown')).inputValue();
  assert.match(md, /^\[cfplay: class Bank\]\(/, `share Markdown: ${md.slice(0, 120)}`);
  await page.locator(L.tid('share')).first().click();
  await L.selectExample(page, L.galleryExamples()[0]);
  assert.notEqual(await L.editorText(page, 'program-editor'), mine);
  await page.locator(L.tid('undo-example')).click();
  assert.equal(await L.editorText(page, 'program-editor'), mine, 'undo did not put the edits back');
  return 'kept across a reload, selector "edited", share title "class Bank", example replaced and undone';
});

// a violation says what went wrong in the program's terms — the same sentence
// as `cfp check --json`, naming the offending call's line — marks that line in the editor
// and opens the PCFA view on its method.
check('violation-summary-names-the-lines', async (ctx) => {
  const page = await warmApp(ctx);
  const bugs = L.galleryExamples().filter((e) => /bug/.test(e.id)).slice(0, 3);
  assert.ok(bugs.length === 3, 'fewer than 3 buggy gallery examples');
  const seen = [];
  for (const ex of bugs) {
    await L.selectExample(page, ex);
    await page.locator(L.tid('speed')).selectOption('0');
    const r = await L.runToVerdict(page, { timeout: 120000 });
    assert.equal(r.verdict, 'violation', `${ex.id}: ${JSON.stringify(r)}`);
    const want = L.nativeCheck(ex.programPath, ex.specPath).summary;
    const got = (await page.locator(L.tid('verdict-reason')).first().textContent()).trim();
    // The page shows the sentence's `code` as code.
    assert.equal(got, want.replace(/`/g, ''), `${ex.id}: the page and the CLI say different things`);
    const codes = await page.locator(`${L.tid('verdict-reason')} code`).count();
    assert.equal(codes, (want.match(/`/g) ?? []).length / 2, `${ex.id}: backticks not shown as code`);
    const m = /^`([^`]+)` at line (\d+) \(([^)]+)\)/.exec(want);
    assert.ok(m, `${ex.id}: the summary names no call and line: ${got}`);
    const [, call, line, method] = m;
    const program = readFileSync(ex.programPath, 'utf8').split('\n');
    assert.ok(program[Number(line) - 1].includes(call), `${ex.id}: line ${line} is not \`${call}\`: ${program[Number(line) - 1]}`);
    const marked = await page.evaluate(() => document.querySelector('[data-testid="program-editor"] .cfp-hl-line')
      ?.getAttribute('data-line') ?? null);
    assert.equal(marked, line, `${ex.id}: the editor marks line ${marked}, not ${line}`);
    // The gutter marks the offending call and, when the run ends too early, the exit.
    await page.locator(`${L.tid('program-editor')} [data-testid="mark-call"]`).first().waitFor({ state: 'attached', timeout: 3000 });
    const callMarks = await L.editorLinesOf(page, 'program-editor', '[data-testid="mark-call"]');
    assert.deepEqual(callMarks, [Number(line)], `${ex.id}: the call mark is on lines ${callMarks}`);
    const exitLine = Number(/(?:returns|ends) (?:at|after) line (\d+)/.exec(want)?.[1] ?? 0);
    if (exitLine > 0) {
      await page.evaluate((l) => document.querySelector('[data-testid="program-editor"]').cfpEditor.reveal(l), exitLine);
      await page.locator(`${L.tid('program-editor')} [data-testid="mark-exit"]`).first().waitFor({ state: 'attached', timeout: 3000 });
      const exitMarks = await L.editorLinesOf(page, 'program-editor', '[data-testid="mark-exit"]');
      assert.deepEqual(exitMarks, [exitLine], `${ex.id}: the exit mark is on lines ${exitMarks}, not ${exitLine}`);
    }
    // Values: only the witness's variables (no checker temporaries, no raw model keys).
    const valueNames = await page.evaluate(() => [...document.querySelectorAll('[data-testid="values"] tbody tr td:first-child')]
      .map((td) => td.textContent.trim()));
    assert.ok(valueNames.length > 0, `${ex.id}: no values for the witness`);
    assert.deepEqual(valueNames.filter((n) => /^%|^step\b/.test(n)), [], `${ex.id}: values list checker names`);
    // The story (the default view) marks the call's row, and the exit's when the run ends
    // too early.
    const storyCall = await page.locator(`${L.tid('story')} li.mark-call`).first().getAttribute('data-line');
    assert.equal(storyCall, line, `${ex.id}: the story marks line ${storyCall} as the call`);
    if (exitLine > 0) {
      const storyExit = await page.locator(`${L.tid('story')} li.mark-exit`).last().getAttribute('data-line');
      assert.equal(Number(storyExit), exitLine, `${ex.id}: the story marks line ${storyExit} as the exit`);
    }
    // The trace shows the call's source line as written, and its steps take the keyboard.
    await L.showCheckerSteps(page);
    const step = page.locator(`[data-testid="trace"] li[data-line="${line}"] .trace-src`).first();
    assert.ok((await step.textContent()).includes(call), `${ex.id}: the trace does not show \`${call}\` at line ${line}`);
    const other = page.locator('[data-testid="trace"] li[data-line]:not([data-line="0"]):not([data-line="' + line + '"])').first();
    const otherLine = await other.getAttribute('data-line');
    await other.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction((l) => document.querySelector('[data-testid="program-editor"] .cfp-hl-line')
      ?.getAttribute('data-line') === l, otherLine, { timeout: 3000 });
    const tab = await page.locator('.pcfa .tabs button.selected').first().textContent();
    assert.equal(tab.trim(), method, `${ex.id}: the PCFA view opened on ${tab}`);
    seen.push(`${ex.id}: line ${line} ${method}`);
  }
  await L.screenshot(page, '08-violation-summary');
  return seen.join('; ');
});

// After an edit the result is marked out of date and its marks are hidden (they would
// point at the wrong lines); the verdict is announced in a live region; Pause is off when
// nothing runs or plays.
check('stale-after-edit-and-live-region', async (ctx) => {
  const page = await warmApp(ctx);
  const ex = L.galleryExamples().find((e) => e.id === 'lock-bug');
  assert.ok(ex, 'no lock-bug example');
  await L.selectExample(page, ex);
  await page.locator(L.tid('speed')).selectOption('0');
  const r = await L.runToVerdict(page, { timeout: 120000 });
  assert.equal(r.verdict, 'violation');
  const announced = (await page.locator(L.tid('verdict-announce')).textContent()).trim();
  assert.match(announced, /^violation: .+ at line \d+/, `live region: ${announced}`);
  assert.equal(await page.locator(L.tid('verdict-announce')).getAttribute('aria-live'), 'polite');
  assert.equal(await page.locator(L.tid('stale')).count(), 0, 'stale right after the run');
  await page.locator(`${L.tid('program-editor')} [data-testid="mark-call"]`).first().waitFor({ state: 'attached', timeout: 3000 });
  assert.ok(await page.locator(L.tid('pause')).first().isDisabled(), 'Pause enabled with nothing running');
  const text = await L.editorText(page, 'program-editor');
  await L.setEditor(page, 'program-editor', `// an edit\n${text}`);
  await page.locator(L.tid('stale')).waitFor({ timeout: 3000 });
  await page.waitForFunction(() => !document.querySelector('[data-testid="program-editor"] [data-testid="mark-call"]'),
    null, { timeout: 3000 });
  await L.setEditor(page, 'program-editor', text);
  await page.waitForFunction(() => !document.querySelector('[data-testid="stale"]'), null, { timeout: 3000 });
  return `announced "${announced.slice(0, 60)}…"; an edit marks the result out of date and hides its marks; undoing it brings them back`;
});

// several files in one text (marker lines `// -- path --`, what a source tree
// is for the CLI): the summary names the file and its own line, as `cfp check` does, and
// the page maps that line back to the editor — the call mark, the trace rows (of every
// file, the model's too) and a click on a row.
check('several-files-in-one-text', async (ctx) => {
  const page = await warmApp(ctx);
  const ex = L.galleryExamples().find((e) => e.id === 'android-model-folder');
  assert.ok(ex, 'no android-model-folder gallery example');
  await L.selectExample(page, ex);
  await page.locator(L.tid('speed')).selectOption('0');
  const r = await L.runToVerdict(page, { timeout: 120000 });
  assert.equal(r.verdict, 'violation', JSON.stringify(r));
  const want = L.nativeCheck(ex.programPath, ex.specPath).summary;
  const got = (await page.locator(L.tid('verdict-reason')).first().textContent()).trim();
  assert.equal(got, want.replace(/`/g, ''), 'the page and the CLI say different things');
  const m = /^`([^`]+)` at (\S+\.java):(\d+) \(([^)]+)\)/.exec(want);
  assert.ok(m, `the summary names no file and line: ${got}`);
  const [, call, file, local] = m;
  const lines = readFileSync(ex.programPath, 'utf8').split('\n');
  const marker = lines.findIndex((l) => l.trim() === `// -- ${file} --`);
  assert.ok(marker >= 0, `no marker line for ${file}`);
  const line = marker + 1 + Number(local); // the marker is line marker+1; the file starts after it
  assert.ok(lines[line - 1].includes(call), `editor line ${line} is not \`${call}\`: ${lines[line - 1]}`);
  await page.locator(`${L.tid('program-editor')} [data-testid="mark-call"]`).first().waitFor({ state: 'attached', timeout: 3000 });
  const callMarks = await L.editorLinesOf(page, 'program-editor', '[data-testid="mark-call"]');
  assert.deepEqual(callMarks, [line], `the call mark is on lines ${callMarks}, not ${line}`);
  // The story's rows are editor lines too.
  const storyCall = await page.locator(`${L.tid('story')} li.mark-call`).first().getAttribute('data-line');
  assert.equal(Number(storyCall), line, `the story marks editor line ${storyCall}, not ${line}`);
  await L.showCheckerSteps(page);
  const step = page.locator(`[data-testid="trace"] li[data-line="${line}"] .trace-src`).first();
  assert.ok((await step.textContent()).includes(call), `the trace does not show \`${call}\` at editor line ${line}`);
  // Rows of the model file show its lines as written.
  const model = lines.findIndex((l) => l.trim() === '// -- models/android/os/PowerManager.java --') + 1;
  const rows = await page.evaluate(() => [...document.querySelectorAll('[data-testid="trace"] li[data-line]')]
    .map((li) => [Number(li.getAttribute('data-line')), li.querySelector('.trace-src')?.textContent ?? '']));
  const inModel = rows.filter(([l]) => l > model);
  assert.ok(inModel.length > 0, `no trace row in the model file (rows ${JSON.stringify(rows.map(([l]) => l))})`);
  for (const [l, text] of rows.filter(([l]) => l > 0)) {
    assert.ok(text.trim() === '' || lines[l - 1].includes(text.trim().slice(0, 20)), `row at line ${l} shows ${JSON.stringify(text)}, not ${JSON.stringify(lines[l - 1])}`);
  }
  const [modelLine] = inModel[0];
  await page.locator(`[data-testid="trace"] li[data-line="${modelLine}"]`).first().focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction((l) => document.querySelector('[data-testid="program-editor"] .cfp-hl-line')
    ?.getAttribute('data-line') === String(l), modelLine, { timeout: 3000 });
  return `${file}:${local} is editor line ${line}; ${inModel.length} row(s) in the model file, a click shows line ${modelLine}`;
});

// a live run shows its progress (iteration, phase, time against the limit,
// predicates) and stops at the time limit with `unknown`; Escape cancels.
check('progress-time-limit-and-escape', async (ctx) => {
  const page = await warmApp(ctx);
  await L.setEditor(page, 'program-editor', readFileSync(join(fixtures, 'long-run.java'), 'utf8'));
  await L.setEditor(page, 'spec-editor', readFileSync(join(fixtures, 'lock.cfg'), 'utf8'));
  await page.locator(L.tid('time-limit')).selectOption('10');
  await page.locator(L.tid('max-iterations')).selectOption('100'); // more than 10 s of work
  const t0 = Date.now();
  await page.locator(L.tid('run')).first().click();
  const h = await page.waitForFunction(() => {
    const p = document.querySelector('[data-testid="phase"]')?.textContent ?? '';
    return /^running… iteration \d+ · [①②③④] [^·]+ · \d+\.\d s of 10 s · \d+ predicate\(s\)$/.test(p) && /[1-9]\.\d s/.test(p) ? p : null;
  }, null, { timeout: 30000, polling: 100 });
  const progress = await h.jsonValue();
  await page.waitForFunction(() => /^unknown/.test(document.querySelector('[data-testid="verdict"]')?.textContent ?? ''),
    null, { timeout: 30000, polling: 100 });
  const took = (Date.now() - t0) / 1000;
  const reason = (await page.locator(L.tid('verdict-reason')).first().textContent()).trim();
  assert.equal(reason, 'timeout of 10 s reached');
  assert.ok(took < 10 * SLACK, `the 10 s limit stopped the run after ${took.toFixed(1)} s`);
  // Escape cancels a run wherever the focus is.
  await page.locator(L.tid('time-limit')).selectOption('60');
  await page.locator(L.tid('run')).first().click();
  await page.waitForFunction(() => /^running…/.test(document.querySelector('[data-testid="phase"]')?.textContent ?? ''),
    null, { timeout: 10000, polling: 50 });
  await page.waitForTimeout(500);
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => /^cancelled/.test(document.querySelector('[data-testid="phase"]')?.textContent ?? '')
    && !document.querySelector('[data-testid="run"]')?.disabled, null, { timeout: 5000, polling: 50 });
  return `progress "${progress}"; stopped at the limit after ${took.toFixed(1)} s: ${reason}; Escape cancelled`;
});

// on a phone (390x844) nothing scrolls sideways, and after Run the verdict is
// in view (the results are below the editors there).
check('phone-layout', async (ctx) => {
  const page = await L.newPage(ctx);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await page.locator(L.tid('program-editor')).first().waitFor({ state: 'attached', timeout: 30000 });
  const sideways = () => page.evaluate(() => {
    const el = document.scrollingElement;
    return el.scrollWidth - el.clientWidth;
  });
  assert.ok(await sideways() <= 1, `the page scrolls sideways by ${await sideways()} px on load`);
  const r = await L.runToVerdict(page, { timeout: 120000 });
  await page.waitForTimeout(300);
  const box = await page.locator(L.tid('verdict')).first().boundingBox();
  assert.ok(box && box.y >= 0 && box.y + box.height <= 844, `the verdict is off screen: ${JSON.stringify(box)}`);
  assert.ok(await sideways() <= 1, `the page scrolls sideways by ${await sideways()} px after the run`);
  await L.screenshot(page, '09-phone');
  return `390x844: no sideways scroll; ${r.verdict} in view at y=${Math.round(box.y)}`;
});

// The README's pictures (docs/*.png), as a user sees the page (viewport, not full page):
// `cargo xtask test-browser -- --only docs-screenshots`, then copy
// target/browser-screenshots/docs-*.png to docs/. Each asserts what it is meant to show.
check('docs-screenshots', async (ctx) => {
  const shot = (page, name) => page.screenshot({ path: join(L.env.shots, `docs-${name}.png`) });
  const scrollTo = (page, sel) => page.evaluate((s) => {
    const el = document.querySelector(s);
    window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 70);
  }, sel);
  const page = await warmApp(ctx);
  const bug = L.galleryExamples().find((e) => /lock-bug/.test(e.id));
  await L.selectExample(page, bug);
  await page.locator(L.tid('speed')).selectOption('0');
  assert.equal((await L.runToVerdict(page, { timeout: 120000 })).verdict, 'violation');
  await page.locator(`${L.tid('program-editor')} [data-testid="mark-call"]`).first().waitFor({ timeout: 5000 });
  await page.waitForTimeout(700);
  await shot(page, 'violation');
  await scrollTo(page, '[data-testid="cex-word"]');
  await page.waitForTimeout(300);
  await shot(page, 'trace');
  // Stepping the running example: the refinement's clones in the PCFA view.
  const fig = L.galleryExamples().find((e) => e.id === 'paper-fig2');
  await L.selectExample(page, fig);
  await page.locator(L.tid('speed')).selectOption('500');
  await L.runToVerdict(page, { timeout: 120000 });
  await page.locator('[data-testid="timeline-item"][data-iteration="2"]').click();
  await page.locator('.pcfa .tabs button', { hasText: 'Main.acquire' }).first().click();
  await page.locator('[data-testid="pcfa-cloned"]').first().waitFor({ timeout: 10000 });
  // The removed edges too (hidden by default).
  const showRemoved = page.locator(L.tid('pcfa-show-removed'));
  if (await showRemoved.count()) await showRemoved.check();
  await waitForGraph(page, 'Main.acquire');
  await scrollTo(page, '.pcfa');
  await page.waitForTimeout(1500);
  await shot(page, 'pcfa');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(500);
  await shot(page, 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  // A class without main: the page says so and offers the harness that fits.
  await L.setEditor(page, 'spec-editor', readFileSync(join(L.env.root, 'tests', 'specs', 'lock.cfg'), 'utf8'));
  await L.setEditor(page, 'program-editor', 'import java.util.concurrent.locks.ReentrantLock;\n\nclass Account {\n    final ReentrantLock lock = new ReentrantLock();\n    int balance;\n\n    public boolean withdraw(int amount) {\n        lock.lock();\n        if (amount > balance) {\n            return false;\n        }\n        balance -= amount;\n        lock.unlock();\n        return true;\n    }\n}\n');
  await page.locator(L.tid('no-main')).waitFor({ timeout: 5000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await shot(page, 'no-main');
  // A syntax error: squiggle, gutter marker, the message under the editor.
  await L.setEditor(page, 'program-editor', 'class Main {\n    public static void main(String[] args) {\n        ReentrantLock l = new ReentrantLock();\n        l.lock()\n        l.unlock();\n    }\n}\n');
  await page.locator(L.tid('diagnostic')).first().waitFor({ timeout: 5000 });
  await page.waitForTimeout(300);
  await shot(page, 'syntax-error');
  // The phone layout after Run.
  const phone = await L.newPage(ctx);
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto(url, { waitUntil: 'domcontentloaded' });
  // Not the broken draft the previous shot left in local storage.
  await phone.evaluate(() => localStorage.clear());
  await phone.reload({ waitUntil: 'domcontentloaded' });
  await phone.locator(L.tid('program-editor')).first().waitFor({ state: 'attached', timeout: 30000 });
  assert.equal((await L.runToVerdict(phone, { timeout: 120000 })).verdict, 'verified');
  await phone.waitForTimeout(500);
  await shot(phone, 'phone');
  return 'docs-{violation,trace,pcfa,dark,no-main,syntax-error,phone}.png';
});

// Z3 running out of memory ends the run `unknown` with a plain reason, a new
// worker starts, and the next run verifies. The test lowers Z3's memory cap (the bridge's
// setMemoryCap, the same mechanism as the default 1.5 GB cap) to 1 MB for one run — below
// what any query needs —, so the solver's allocations really go past it and fail, as a
// large program's do at the default cap.
check('solver-out-of-memory-ends-unknown', async (ctx) => {
  const page = await openAppWithWorkerLines(ctx, `
self.addEventListener('message', (ev) => {
  const m = /CFP_SELF_TEST_MEMORY_MB=(\\d+)/.exec(String(ev.data && ev.data.program));
  if (ev.data && ev.data.type === 'run' && m) self.cfpZ3.setMemoryCap(Number(m[1]));
}, { capture: true }); // before the checker's own handler starts the run`);
  const ex = running();
  if (ex) await L.selectExample(page, ex);
  const first = await L.runToVerdict(page, { timeout: 120000 }); // Z3 loaded
  const program = await L.editorText(page, 'program-editor');
  await L.setEditor(page, 'program-editor', program + '\n// CFP_SELF_TEST_MEMORY_MB=1\n');
  const r = await L.runToVerdict(page, { timeout: 60000 });
  assert.equal(r.verdict, 'unknown', `a run past the memory cap: ${JSON.stringify(r)}`);
  const reason = (await page.locator(L.tid('verdict-reason')).first().textContent()).trim();
  assert.match(reason, /^the solver ran out of memory in iteration \d+$/, `reason: ${reason}`);
  await page.waitForFunction(() => !document.querySelector('[data-testid="run"]')?.disabled, null,
    { timeout: 5000, polling: 50 });
  await L.screenshot(page, '07-solver-out-of-memory');
  // The new worker (default cap) serves the next run.
  await L.setEditor(page, 'program-editor', program);
  const next = await L.runToVerdict(page, { timeout: 120000 });
  assert.equal(next.verdict, first.verdict, `the next run: ${JSON.stringify(next)}`);
  return `"${reason}"; the next run: ${next.verdict} in ${next.iterations} iteration(s)`;
});

// g + h. no long main-thread task during a run; click-to-verdict once Z3 is loaded (median
// of 5 runs after a warm-up; the 2-core machine is shared, so the load is printed). Targets
// 100 ms and 1 s; the assertions allow 5x.
check('longtasks-and-latency', async (ctx) => {
  const page = await openApp(ctx);
  const ex = running();
  if (ex) await L.selectExample(page, ex);
  await L.runToVerdict(page, { timeout: 120000 }); // warm-up: loads Z3
  const times = [];
  const long = [];
  for (let i = 0; i < 5; i++) {
    const r = await L.runToVerdict(page, { timeout: 60000 });
    times.push(r.ms);
    const tasks = await L.longTasks(page, r.t0, r.t1);
    assert.notEqual(tasks, null, 'Long Tasks API unsupported');
    long.push(...tasks.map((t) => ({ ...t, run: `${ex?.id ?? 'run'} #${i + 1}` })));
  }
  await L.screenshot(page, '07-running-example-verdict');
  // Also the gallery's longest run (most native iterations): the page stays responsive.
  const heavy = L.galleryExamples()
    .map((e) => ({ e, n: L.nativeCheck(e.programPath, e.specPath).iterations }))
    .sort((a, b) => b.n - a.n)[0];
  let heavyNote = '';
  if (heavy) {
    await L.selectExample(page, heavy.e);
    const r = await L.runToVerdict(page, { timeout: 120000 });
    const tasks = await L.longTasks(page, r.t0, r.t1);
    long.push(...tasks.map((t) => ({ ...t, run: heavy.e.id })));
    const max = Math.max(0, ...tasks.map((t) => t.duration));
    heavyNote = `; ${heavy.e.id} (${r.iterations} iterations, ${r.ms.toFixed(0)} ms): longest task ${max.toFixed(0)} ms`;
  }
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(300);
  await L.screenshot(page, '08-dark-theme');
  const best = Math.min(...times);
  const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
  const longest = Math.max(0, ...long.map((t) => t.duration));
  const load = loadavg()[0].toFixed(1);
  bench('click-to-verdict (median of 5)', median, 'ms', TARGET.clickToVerdictMs);
  bench('longest main-thread task during runs', longest, 'ms', TARGET.longTaskMs);
  const tooLong = long.filter((t) => t.duration > TARGET.longTaskMs * SLACK);
  assert.equal(tooLong.length, 0, `main-thread tasks > ${TARGET.longTaskMs * SLACK} ms during a run: ${tooLong
    .map((t) => `${Math.round(t.duration)} ms (${t.run})`).join(', ')}; load average ${load}`);
  assert.ok(median < TARGET.clickToVerdictMs * SLACK, `click-to-verdict median ${median.toFixed(0)} ms (${times.map((t) => t.toFixed(0)).join('/')}; target ${TARGET.clickToVerdictMs} ms; load average ${load})`);
  const over = long.filter((t) => t.duration > TARGET.longTaskMs).length;
  return `click-to-verdict ${times.map((t) => t.toFixed(0)).join('/')} ms (median ${median.toFixed(0)}, best ${best.toFixed(0)}; target ${TARGET.clickToVerdictMs}); longest task ${longest.toFixed(0)} ms, ${over} over the ${TARGET.longTaskMs} ms target${heavyNote}; load average ${load}`;
});

// a generated 500-line program runs to its verdict (the native CLI's) with the
// page responsive (no main-thread task over 100 ms; the assertion allows 5x) and showing
// progress (the phase and the iteration count change before the verdict).
check('large-program', async (ctx) => {
  const programPath = join(fixtures, 'realistic-500.java');
  const specPath = join(fixtures, 'lock.cfg');
  const page = await openApp(ctx);
  await L.setEditor(page, 'spec-editor', readFileSync(specPath, 'utf8'));
  await L.setEditor(page, 'program-editor', readFileSync(programPath, 'utf8'));
  // Record every change of the phase and the iteration count, with the page's clock.
  await page.evaluate(() => {
    window.__progress = [];
    const seen = {};
    window.__deferred = 0;
    const look = () => {
      if (document.querySelector('[data-testid="pcfa-deferred"]')) window.__deferred += 1;
      for (const id of ['phase', 'iteration-count']) {
        const el = document.querySelector(`[data-testid="${id}"]`);
        const text = el ? el.textContent.trim() : null;
        if (text !== seen[id]) {
          seen[id] = text;
          window.__progress.push({ id, text, t: performance.now() });
        }
      }
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const r = await L.runToVerdict(page, { timeout: 300000 });
  const native = L.nativeCheck(programPath, specPath);
  assert.equal(r.verdict, native.verdict, `page ${r.verdict}, native ${native.verdict}`);
  const progress = await page.evaluate(({ t0, t1 }) => window.__progress.filter((p) => p.t >= t0 && p.t < t1), r);
  const phases = [...new Set(progress.filter((p) => p.id === 'phase' && p.text).map((p) => p.text))];
  const counts = [...new Set(progress.filter((p) => p.id === 'iteration-count' && p.text).map((p) => p.text))];
  assert.ok(phases.length >= 2, `the phase did not change before the verdict: ${JSON.stringify(phases)}`);
  assert.ok(counts.length >= 1, 'no iteration count was shown before the verdict');
  const tasks = await L.longTasks(page, r.t0, r.t1);
  assert.notEqual(tasks, null, 'Long Tasks API unsupported');
  const longest = Math.max(0, ...tasks.map((t) => t.duration));
  const load = loadavg()[0].toFixed(1);
  bench('500-line program: time to verdict', r.ms, 'ms');
  bench('500-line program: longest main-thread task', longest, 'ms', TARGET.longTaskMs);
  assert.ok(longest <= TARGET.longTaskMs * SLACK,
    `a main-thread task of ${longest.toFixed(0)} ms during the run (target ${TARGET.longTaskMs} ms; load average ${load})`);
  await L.screenshot(page, '09-large-program');
  // A graph too large to draw during the run (pcfa.rs, LIVE_DRAW_MAX) is drawn once the
  // run has ended, and the note about it is gone.
  await settled(page);
  const method = await page.locator('.pcfa-graph').first().getAttribute('data-method');
  await waitForGraph(page, method, 60000);
  assert.equal(await page.locator(L.tid('pcfa-deferred')).count(), 0, 'the deferred-graph note stayed after the run');
  const deferred = await page.evaluate(() => window.__deferred > 0);
  const over = tasks.filter((t) => t.duration > TARGET.longTaskMs).length;
  return `${r.verdict} in ${r.iterations} iteration(s), ${(r.ms / 1000).toFixed(1)} s; ${phases.length} phases and ${counts.length} iteration counts shown on the way; longest task ${longest.toFixed(0)} ms (${over} over ${TARGET.longTaskMs} ms)${deferred ? '; a large PCFA waited for the end of the run' : ''}; ${method} drawn after it; load average ${load}`;
});

// A ~180-line Android-style service (tests/fixtures/android-service-early-return-leak.java:
// its own `main` walks the service's lifecycle) whose worker returns early with the wake
// lock held: the page reports the violation the CLI reports, with the same sentence. Timed
// from the click in a freshly opened page (what is left of Z3's loading included; target
// 10 s), then once more with Z3 loaded.
check('android-service-leak', async (ctx) => {
  const programPath = join(L.env.root, 'tests', 'fixtures', 'android-service-early-return-leak.java');
  const specPath = join(L.env.root, 'tests', 'specs', 'wakelock.cfg');
  const page = await openApp(ctx);
  await L.setEditor(page, 'spec-editor', readFileSync(specPath, 'utf8'));
  await L.setEditor(page, 'program-editor', readFileSync(programPath, 'utf8'));
  const first = await L.runToVerdict(page, { timeout: 120000 });
  const native = L.nativeCheck(programPath, specPath);
  assert.equal(native.verdict, 'violation', `native ${native.verdict}`);
  assert.equal(first.verdict, 'violation', `the page: ${JSON.stringify(first)}`);
  // The CLI names the file (the program is read with the PowerManager model); the page, with
  // one file in its editor, the line.
  const reason = (await page.locator(L.tid('verdict-reason')).first().textContent()).trim();
  const want = native.summary.split(`${programPath}:`).join('line ').replace(/`/g, '');
  assert.equal(reason, want, `the page and the CLI say different things: ${reason} / ${want}`);
  await L.screenshot(page, '09-android-service-leak');
  const warm = await L.runToVerdict(page, { timeout: 120000 });
  assert.equal(warm.verdict, 'violation', `the second run: ${JSON.stringify(warm)}`);
  const load = loadavg()[0].toFixed(1);
  bench('Android service with an early-return leak: time to violation', first.ms, 'ms', 10000);
  bench('Android service with an early-return leak: time to violation, Z3 loaded', warm.ms, 'ms');
  return `${first.verdict} in ${first.iterations} iteration(s): ${(first.ms / 1000).toFixed(2)} s from the click in a fresh page (target 10 s; ${(first.t1 / 1000).toFixed(2)} s after the page started loading), ${(warm.ms / 1000).toFixed(2)} s with Z3 loaded; load average ${load}`;
});

// i. >= 1,000 calls through the z3 bridge in Chromium, zero garbled answers
check('z3-bridge-stress', async (ctx) => {
  const built = L.findFile(L.env.dist, 'z3-built.js');
  const bridge = L.findFile(L.env.dist, 'z3-bridge.js');
  assert.ok(built && bridge, `dist/ lacks z3-built.js (${built}) or z3-bridge.js (${bridge})`);
  const rel = (p) => '/' + relative(L.env.dist, p).split('\\').join('/');
  const stress = async (mode) => {
    const page = await L.newPage(ctx);
    const q = new URLSearchParams({ built: rel(built), bridge: rel(bridge), n: '1000', mode });
    await page.goto(new URL(`__tests__/stress.html?${q}`, url).href);
    assert.equal(await page.evaluate(() => globalThis.crossOriginIsolated), true, 'stress page not isolated');
    const h = await page.waitForFunction(() => window.stressResult, null, { timeout: 300000, polling: 200 });
    const r = await h.jsonValue();
    await page.close();
    if (r.error) throw new Error(`stress page (${mode}): ${r.error.split('\n')[0]}`);
    return r;
  };
  const r = await stress('bridge');
  for (const g of r.garbled.slice(0, 5)) console.log(`    garbled #${g.i}: want ${g.want} got ${JSON.stringify(g.got).slice(0, 200)}`);
  assert.ok(r.calls >= 1000, `only ${r.calls} calls`);
  assert.equal(r.garbled.length, 0, `${r.garbled.length} garbled answers of ${r.calls}`);
  // Control: the z3-solver wrapper's own call (stack copy) through the same test, to show
  // the test can see the bug (informational; ARCHITECTURE.md measured ~3% garbled).
  let control = '';
  if (!process.env.CFP_SKIP_STRESS_CONTROL) {
    const c = await stress('naive');
    control = `; control without the heap copy: ${c.garbled.length}/${c.calls} garbled`;
    if (c.garbled[0]) console.log(`    control example: want ${c.garbled[0].want} got ${JSON.stringify(c.garbled[0].got).slice(0, 160)}`);
  }
  return `${r.calls} calls, 0 garbled, ${r.ms.toFixed(0)} ms (${(r.ms / r.calls).toFixed(2)} ms/call)${control}`;
});

// j–n. Share links, embeds, replay, the service-worker shim, hostile links.
registerShareChecks(check, url);

// ---------------------------------------------------------------------------------------
if (argv.includes('--list')) {
  for (const c of checks) console.log(c.name);
  process.exit(0);
}
if (!url) {
  console.error('usage: node tests/browser/run.mjs URL [--only NAME,…] [--list]');
  process.exit(2);
}
// Stale failure screenshots of an earlier run would mislead.
try { for (const f of readdirSync(L.env.shots)) if (f.startsWith('fail-')) rmSync(join(L.env.shots, f)); } catch {}
let passed = 0;
let failed = 0;
// `--bench`: only the checks that measure the timing targets.
const BENCH_CHECKS = ['cancel-within-1s', 'longtasks-and-latency', 'large-program', 'android-service-leak'];
const selected = checks.filter((c) => (!only || only.includes(c.name))
  && (!argv.includes('--bench') || BENCH_CHECKS.includes(c.name)));
// Timing checks measure a shared 2-core machine: one retry, and the first attempt's
// failure is printed (a retry never hides a functional failure: the other checks get none).
const TIMING = new Set(['longtasks-and-latency', 'large-program']);
for (const c of selected) {
  const attempts = TIMING.has(c.name) ? 2 : 1;
  for (let a = 1; a <= attempts; a++) {
    const ctx = await L.launch();
    const started = Date.now();
    try {
      const note = await c.fn(ctx);
      passed++;
      console.log(`PASS ${c.name} (${((Date.now() - started) / 1000).toFixed(1)} s)${a > 1 ? ` [attempt ${a}]` : ''}${note ? ` — ${note}` : ''}`);
      break;
    } catch (e) {
      const last = a === attempts;
      if (last) failed++;
      console.log(`${last ? 'FAIL' : 'RETRY'} ${c.name} (${((Date.now() - started) / 1000).toFixed(1)} s) — ${e.message.split('\n')[0]}`);
      if (process.env.CFP_VERBOSE) console.log(e.stack);
      for (const err of ctx.errors.slice(0, 5)) console.log(`    ${err}`);
      // The newest page that shows something (the context's first page is about:blank).
      const shown = ctx.context.pages().filter((p) => p.url() !== 'about:blank').pop();
      if (shown) await L.screenshot(shown, `fail-${c.name}`).catch(() => {});
    } finally {
      await ctx.close();
    }
  }
}
console.log(`browser: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
