// Shared helpers of the browser tests: launching Debian's Chromium through playwright-core,
// the page instrumentation (long tasks, verdict timeline) and the UI contract (test ids).
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync, readFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { execFileSync } from 'node:child_process';

export const env = {
  root: process.env.CFP_ROOT ?? join(dirname(new URL(import.meta.url).pathname), '..', '..'),
  chromium: process.env.CFP_CHROMIUM ?? '/usr/bin/chromium',
  shots: process.env.CFP_SCREENSHOTS ?? 'target/browser-screenshots',
  cfp: process.env.CFP_BIN ?? 'target/release/cfp',
  z3: process.env.CFP_Z3 ?? 'target/tools/z3/bin/z3',
  dist: process.env.CFP_DIST ?? 'dist',
  plainUrl: process.env.CFP_PLAIN_URL,
  // Another isolated server (a different origin), for cross-origin embeds.
  otherUrl: process.env.CFP_OTHER_URL,
};

export const FINAL = ['verified', 'violation', 'unknown'];

/** Launch Chromium with a fresh profile (ARCHITECTURE.md flags). */
export async function launch() {
  const profile = mkdtempSync(join(tmpdir(), 'cfp-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: env.chromium,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
  // Instrumentation injected before any page script runs.
  await context.addInitScript(() => {
    window.__longtasks = [];
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          window.__longtasks.push({ start: e.startTime, duration: e.duration, name: e.name });
        }
      }).observe({ type: 'longtask', buffered: true });
    } catch (e) {
      window.__longtasks = null; // not supported
    }
    // When each test-id'd element was clicked (event time, performance.now() clock).
    window.__clicks = [];
    addEventListener('click', (e) => {
      const el = e.target && e.target.closest && e.target.closest('[data-testid]');
      if (el) window.__clicks.push({ t: e.timeStamp, id: el.getAttribute('data-testid') });
    }, true);
    // Timeline of the verdict's text: [{t, text}] whenever it changes.
    window.__verdicts = [];
    const watch = () => {
      let last;
      const check = () => {
        const el = document.querySelector('[data-testid="verdict"]');
        const text = el ? el.textContent.trim().toLowerCase() : null;
        if (text !== last) {
          last = text;
          window.__verdicts.push({ t: performance.now(), text });
        }
      };
      new MutationObserver(check).observe(document, {
        subtree: true, childList: true, characterData: true, attributes: true,
      });
      check();
    };
    if (document.readyState === 'loading') {
      document.addEventListener('DOMContentLoaded', watch);
    } else {
      watch();
    }
  });
  const errors = [];
  context.on('page', (p) => attachLogging(p, errors));
  return {
    context,
    errors,
    async close() {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

function attachLogging(page, errors) {
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    if (process.env.CFP_VERBOSE) console.log(`    [console.${m.type()}] ${m.text()}`);
  });
}

/** A new page of the context, logging attached. */
export async function newPage(ctx) {
  const page = await ctx.context.newPage();
  return page;
}

export const tid = (id) => `[data-testid="${id}"]`;

/** Opens the counterexample's "Checker steps" (the nested trace; collapsed under a
 * violation's story) of a page or frame, if it is there and closed. */
export async function showCheckerSteps(page) {
  const clicked = await page.evaluate(() => {
    const d = document.querySelector('[data-testid="checker-steps"]');
    if (!d || d.open) return false;
    d.querySelector('summary')?.click();
    return true;
  });
  if (clicked) {
    await page.waitForFunction(() => document.querySelector('[data-testid="checker-steps"]')?.open, null,
      { timeout: 3000 });
  }
}

/** The element of an editor test id: CodeMirror's host (with its `cfpEditor` handle), or
 * the plain textarea the page falls back to. */
export async function editor(page, id) {
  const outer = page.locator(tid(id)).first();
  await outer.waitFor({ state: 'attached', timeout: 15000 });
  return outer;
}

/** The whole text of an editor (CodeMirror renders only the lines in view, so read it
 * from the editor, not the DOM). */
export async function editorText(page, id) {
  const el = await editor(page, id);
  return el.evaluate((e) => (e.cfpEditor ? e.cfpEditor.text() : e.value));
}

/** Replace an editor's whole text, as a user pasting it would (the page sees an edit). */
export async function setEditor(page, id, text) {
  const el = await editor(page, id);
  const pasted = await el.evaluate((e, t) => {
    if (!e.cfpEditor) return false;
    e.cfpEditor.paste(t);
    return true;
  }, text);
  if (!pasted) await el.fill(text);
}

/** Whether an editor refuses edits. */
export async function editorReadOnly(page, id) {
  const el = await editor(page, id);
  return el.evaluate((e) => (e.cfpEditor
    ? e.querySelector('.cm-content')?.getAttribute('contenteditable') === 'false'
    : e.readOnly));
}

/** The 1-based editor lines of the elements `selector` matches inside editor `id`. */
export async function editorLinesOf(page, id, selector) {
  const el = await editor(page, id);
  return el.evaluate((e, sel) => {
    const view = e.cfpEditor?.view;
    if (!view) return [];
    return [...e.querySelectorAll(sel)].map((m) => {
      // Content by DOM position; gutter markers by height (they are outside the content).
      const pos = view.contentDOM.contains(m)
        ? view.posAtDOM(m)
        : view.lineBlockAtHeight(m.getBoundingClientRect().top + 2 - view.documentTop).from;
      return view.state.doc.lineAt(pos).number;
    });
  }, selector);
}

/** The examples index of the gallery (`examples/index.json` in dist). Returns
 * [{id, title, program, spec, programText, specText}] with file texts read from disk. */
export function galleryExamples() {
  const dir = join(env.dist, 'examples');
  const file = join(dir, 'index.json');
  if (!existsSync(file)) return [];
  let idx = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(idx)) idx = idx.examples ?? [];
  return idx.map((e) => {
    const program = e.program ?? e.program_file ?? e.file;
    const spec = e.spec ?? e.spec_file;
    return {
      ...e,
      id: e.id,
      title: e.title ?? e.id,
      programPath: join(dir, program),
      specPath: join(dir, spec),
    };
  });
}

/** The native CLI's verdict and iteration count. */
export function nativeCheck(programPath, specPath, extra = []) {
  let out;
  try {
    out = execFileSync(env.cfp, ['check', programPath, '--spec', specPath, '--json', '--no-timing', ...extra], {
      env: { ...process.env, CFP_Z3: env.z3 },
      encoding: 'utf8',
      timeout: 120000,
    });
  } catch (e) {
    out = e.stdout; // exit 1/2 are verdicts, not failures
  }
  const j = JSON.parse(out);
  return { verdict: j.verdict, iterations: j.iterations, summary: j.counterexample?.summary ?? null };
}

/** Select a gallery example by id in `example-select` (a <select> or a list of buttons). */
export async function selectExample(page, ex) {
  const sel = page.locator(tid('example-select')).first();
  await sel.waitFor({ state: 'visible', timeout: 15000 });
  const tag = await sel.evaluate((el) => el.tagName.toLowerCase());
  if (tag === 'select') {
    const values = await sel.evaluate((el) => [...el.options].map((o) => o.value));
    if (values.includes(ex.id)) await sel.selectOption({ value: ex.id });
    else await sel.selectOption({ label: ex.title });
  } else {
    const item = sel.locator(`[data-example="${ex.id}"], [value="${ex.id}"]`).first();
    if (await item.count()) await item.click();
    else await sel.getByText(ex.title, { exact: true }).first().click();
  }
}

/** Click a test id and return the page's performance.now() at the click. */
export async function clickAt(page, id) {
  const btn = page.locator(tid(id)).first();
  await btn.waitFor({ state: 'visible', timeout: 15000 });
  const before = await page.evaluate(() => performance.now());
  await btn.click({ timeout: 30000 });
  // The click event's timestamp, on the page clock.
  return page.evaluate(
    ({ before, id }) => (window.__clicks || []).find((c) => c.t >= before && c.id === id)?.t ?? before,
    { before, id },
  );
}

/** Click `run` and wait for a final verdict that appears after the click.
 * Returns {verdict, iterations, t0, t1, ms}. The UI must change the verdict's text when a
 * run starts (e.g. to `running` or empty), so a repeated verdict is still detected. */
export async function runToVerdict(page, { timeout = 120000, button = 'run' } = {}) {
  const before = await page.evaluate(() => performance.now());
  await page.locator(tid(button)).first().click({ timeout: 60000 });
  const handle = await page.waitForFunction(
    ({ before, FINAL }) => {
      const v = window.__verdicts || [];
      // A final verdict whose entry came after the click.
      const hit = v.find((e) => e.t >= before && e.text && FINAL.some((f) => e.text.startsWith(f)));
      return hit || null;
    },
    { before, FINAL },
    { timeout, polling: 50 },
  );
  const hit = await handle.jsonValue();
  const iterations = await iterationCount(page);
  const verdict = FINAL.find((f) => hit.text.startsWith(f));
  // Measure from the click event itself (not from before Playwright's actionability checks).
  const clicked = await page.evaluate(
    ({ before, button }) => (window.__clicks || []).find((c) => c.t >= before && c.id === button)?.t,
    { before, button },
  );
  const t0 = clicked ?? before;
  return { verdict, iterations, t0, t1: hit.t, ms: hit.t - t0 };
}

export async function iterationCount(page) {
  const el = page.locator(tid('iteration-count')).first();
  if (!(await el.count())) return null;
  const text = await el.textContent();
  const m = /\d+/.exec(text ?? '');
  return m ? Number(m[0]) : null;
}

export async function longTasks(page, from, to) {
  return page.evaluate(
    ({ from, to }) =>
      window.__longtasks === null
        ? null
        : window.__longtasks.filter((t) => t.start + t.duration >= from && t.start <= to),
    { from, to },
  );
}

/** Find a file by name under a folder (first match, breadth-first). */
export function findFile(root, name) {
  const queue = [root];
  while (queue.length) {
    const d = queue.shift();
    let entries;
    try { entries = readdirSync(d); } catch { continue; }
    for (const e of entries) {
      const p = join(d, e);
      if (e === name) return p;
      try { if (statSync(p).isDirectory() && e !== 'node_modules') queue.push(p); } catch {}
    }
  }
  return null;
}

export async function screenshot(page, name) {
  const { mkdirSync } = await import('node:fs');
  mkdirSync(env.shots, { recursive: true });
  const path = join(env.shots, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** axe-core (npm, pinned in package.json) on the page as it is now: the violations of
 * impact `critical` or `serious`, as readable lines (`rule: target — summary`). */
export async function axeSerious(page) {
  const here = dirname(new URL(import.meta.url).pathname);
  const has = await page.evaluate(() => typeof window.axe === 'object');
  if (!has) await page.addScriptTag({ path: join(here, 'node_modules', 'axe-core', 'axe.min.js') });
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations
      .filter((v) => v.impact === 'critical' || v.impact === 'serious')
      .flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id}: ${n.target.join(' ')} — ${(n.failureSummary ?? '').split('\n').slice(1, 2).join('').trim()}`));
  });
  return found;
}

