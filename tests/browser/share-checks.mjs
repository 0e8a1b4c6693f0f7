// Browser checks of share links, embeds, replay, the service-worker shim and
// hostile links. Registered into run.mjs's list (same runner, fresh profile per check).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import * as L from './lib.mjs';

const FINAL_RE = /^(verified|violation|unknown)/;

/** Everything a round trip compares, read from the page. */
export async function pageState(page) {
  await L.showCheckerSteps(page);
  return page.evaluate(() => {
    const q = (id) => document.querySelector(`[data-testid="${id}"]`);
    const app = document.querySelector('.app');
    return {
      program: q('program-editor')?.cfpEditor?.text() ?? q('program-editor')?.value ?? null,
      spec: q('spec-editor')?.cfpEditor?.text() ?? q('spec-editor')?.value ?? null,
      budget: q('max-iterations')?.value ?? null,
      verdict: (q('verdict')?.textContent ?? '').trim().toLowerCase(),
      iterations: Number((q('iteration-count')?.textContent ?? '').trim()),
      shown: app?.getAttribute('data-shown-iteration') ?? null,
      mode: (q('mode-badge')?.textContent ?? '').trim(),
      word: (q('cex-word')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
      trace: [...document.querySelectorAll('[data-testid="trace"] li')].map((li) => li.textContent.trim()),
      story: [...document.querySelectorAll('[data-testid="story"] li')].map((li) => li.textContent.trim()),
      proof: !!q('proof'),
      errors: (q('errors')?.textContent ?? '').trim(),
      notices: (q('notices')?.textContent ?? '').trim(),
    };
  });
}

/** Wait until a run (live or replay) is over and every event has been played. */
export async function settle(page, timeout = 180000) {
  await page.waitForFunction(() => {
    const app = document.querySelector('.app');
    const v = (document.querySelector('[data-testid="verdict"]')?.textContent ?? '').trim().toLowerCase();
    const phase = (document.querySelector('[data-testid="phase"]')?.textContent ?? '').trim();
    return app && /^(verified|violation|unknown)/.test(v) && phase === 'done'
      && app.getAttribute('data-pending') === '0';
  }, null, { timeout, polling: 100 });
  return pageState(page);
}

/** Open a URL in a new page of `ctx` and wait for the editors. */
async function open(ctx, href) {
  const page = await L.newPage(ctx);
  await page.goto(href, { waitUntil: 'domcontentloaded' });
  await page.locator(L.tid('program-editor')).first().waitFor({ state: 'attached', timeout: 60000 });
  return page;
}

/** Open the share panel and return the link texts. */
async function shareTexts(page) {
  await page.locator(L.tid('share')).click();
  await page.locator(L.tid('share-panel')).waitFor({ timeout: 10000 });
  const val = (id) => page.locator(L.tid(id)).first().inputValue();
  return {
    link: await val('share-link'),
    markdown: await val('share-markdown'),
    snippet: await val('share-embed'),
    embedLink: await val('share-embed-link'),
  };
}

/** `cfp check --record` then `cfp share` for an example; returns {record, result, link}. */
function cliLink(ex, base, extra = []) {
  const dir = join(L.env.root, 'target', 'browser-records');
  mkdirSync(dir, { recursive: true });
  const record = join(dir, `${ex.id}.record.json`);
  try {
    execFileSync(L.env.cfp, ['check', ex.programPath, '--spec', ex.specPath, '--record', record, '--no-timing'], {
      env: { ...process.env, CFP_Z3: L.env.z3 }, encoding: 'utf8', timeout: 120000,
    });
  } catch (e) {
    if (e.status !== 1 && e.status !== 0 && e.status !== 2) throw e; // 0/1/2 are verdicts
  }
  // (stderr: the long-link warning of --with-record links.)
  const link = execFileSync(L.env.cfp, ['share', record, '--base', base, ...extra],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  const result = JSON.parse(readFileSync(record, 'utf8')).result;
  return { record, result, link };
}

const base = (u) => new URL('./', u).href;

/** A run of several iterations with refinements (the paper's example). */
const paper = () => L.galleryExamples().find((e) => /01-paper|fig2/.test(e.id) && !/double|bug/.test(e.id))
  ?? L.galleryExamples()[0];
/** The first gallery example whose shipped recording has at least `n` iterations, so that an
 *  animation has something to show between the first frame and the verdict. */
const withIterations = (n) => L.galleryExamples().find((e) => {
  const rec = join(L.env.dist, 'examples', 'records', `${e.id}.record.json`);
  return existsSync(rec) && (JSON.parse(readFileSync(rec, 'utf8')).result?.iterations ?? 0) >= n;
}) ?? paper();
/** A violation with a counterexample. */
const buggy = () => L.galleryExamples().find((e) => e.expected === 'violation') ?? L.galleryExamples()[1];

export function registerShareChecks(check, url) {
  // j. Round trip for every gallery example: state → link → fresh profile, same editors,
  //    options, verdict and selected iteration.
  check('share-round-trip', async (ctx) => {
    const examples = L.galleryExamples();
    assert.ok(examples.length >= 12, `gallery has ${examples.length} examples`);
    const fresh = await L.launch();
    const notes = [];
    await ctx.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
    try {
      const page = await open(ctx, url);
      for (const [i, ex] of examples.entries()) {
        await L.selectExample(page, ex);
        if (i % 3 === 1) await page.locator(L.tid('max-iterations')).selectOption('20');
        if (i % 3 === 2) await page.locator(L.tid('max-iterations')).selectOption('');
        const r = await L.runToVerdict(page, { timeout: 180000 });
        const before = await settle(page);
        // Select a non-final iteration when there is one (the link must land there).
        if (r.iterations > 1) {
          await page.locator(`${L.tid('timeline-item')}[data-iteration="1"]`).click();
        }
        const picked = await pageState(page);
        const texts = await shareTexts(page);
        assert.match(texts.link, /#v1\.[A-Za-z0-9_-]+$/, `${ex.id}: link ${texts.link.slice(0, 80)}`);
        // The share button copied the link; the address bar holds it too.
        await page.locator(L.tid('share-copied')).filter({ hasText: 'Copied the link' }).waitFor({ timeout: 5000 });
        assert.equal(await page.evaluate(() => navigator.clipboard.readText()), texts.link, `${ex.id}: clipboard`);
        assert.equal(await page.evaluate(() => location.hash), new URL(texts.link).hash, `${ex.id}: address bar`);
        assert.ok(texts.markdown.startsWith('[') && texts.markdown.includes(`](${texts.link})`), `${ex.id}: markdown`);
        assert.ok(texts.snippet.startsWith('<iframe ') && texts.snippet.includes('?embed#v1.'), `${ex.id}: snippet`);
        await page.locator(L.tid('share-close')).click();
        const other = await open(fresh, texts.link);
        const after = await settle(other);
        for (const k of ['program', 'spec', 'budget', 'verdict', 'iterations', 'shown']) {
          assert.deepEqual(after[k], picked[k], `${ex.id}: ${k} differs after the round trip`);
        }
        assert.equal(after.mode, 'live', `${ex.id}: mode`);
        assert.equal(before.verdict, ex.expected, `${ex.id}: verdict ${before.verdict}, expected ${ex.expected}`);
        if (after.verdict === 'verified' && r.iterations === 1) {
          assert.ok(after.proof, `${ex.id}: a verified link lands on the proof`);
        }
        notes.push(`${ex.id.slice(0, 2)}:${after.verdict.slice(0, 4)}${after.iterations}@${after.shown}`);
        await other.close();
      }
    } finally {
      await fresh.close();
    }
    return `${notes.length} examples round-tripped (${notes.join(' ')})`;
  });

  // k. The CLI's recorded run and the page make links that show the same counterexample in
  //    a fresh profile; the CLI link with the recording inside replays it without Z3.
  check('cli-and-page-links-agree', async (ctx) => {
    const ex = buggy();
    const cli = cliLink(ex, base(url));
    assert.equal(cli.result.verdict, 'violation');
    const cliWord = cli.result.counterexample.word.join(' ');
    // The page's own link.
    const page = await open(ctx, url);
    await L.selectExample(page, ex);
    await L.runToVerdict(page);
    await settle(page);
    const pageLink = (await shareTexts(page)).link;
    // The panel's "download the recorded run" file, saved beside the page for `?record=`.
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 10000 }),
      page.locator(L.tid('download-record')).click(),
    ]);
    const downloaded = join(L.env.root, 'target', 'browser-records', 'page-download.record.json');
    await download.saveAs(downloaded);
    const seen = [];
    for (const [name, link] of [['cli', cli.link], ['page', pageLink]]) {
      const fresh = await L.launch();
      try {
        const p = await open(fresh, link);
        const s = await settle(p);
        assert.equal(s.verdict, 'violation', `${name} link: verdict`);
        assert.equal(s.mode, 'live', `${name} link: mode`);
        seen.push({ name, word: s.word, trace: s.trace, story: s.story });
      } finally {
        await fresh.close();
      }
    }
    assert.equal(seen[0].word, seen[1].word, 'counterexample words differ');
    assert.deepEqual(seen[0].trace, seen[1].trace, 'nested traces differ');
    assert.ok(seen[0].story.length > 0, 'no story of the violation');
    assert.deepEqual(seen[0].story, seen[1].story, 'stories differ');
    assert.ok(seen[0].word.includes(cliWord), `page shows "${seen[0].word}", CLI says "${cliWord}"`);
    // The CLI link with the recording, opened where Z3 cannot run: the same counterexample.
    const withRec = cliLink(ex, base(L.env.plainUrl), ['--with-record']);
    const fresh = await L.launch();
    try {
      const p = await open(fresh, withRec.link.replace('#', '?nosw#'));
      const s = await settle(p);
      assert.equal(s.mode, 'replay');
      assert.equal(s.word, seen[0].word, 'replayed counterexample differs');
      assert.deepEqual(s.trace, seen[0].trace, 'replayed trace differs');
      assert.deepEqual(s.story, seen[0].story, 'replayed story differs');
      // The page's downloaded recording, replayed from beside the page.
      const d = await open(fresh, new URL('?nosw&record=/__records__/page-download.record.json', L.env.plainUrl).href);
      const ds = await settle(d);
      assert.equal(ds.mode, 'replay');
      assert.equal(ds.word, seen[0].word, 'downloaded recording: counterexample differs');
      assert.deepEqual(ds.trace, seen[0].trace, 'downloaded recording: trace differs');
    } finally {
      await fresh.close();
    }
    return `${ex.id}: "${cliWord}" (${seen[0].trace.length} trace steps) in the CLI link, the page link, the CLI recording and the page's downloaded recording (replayed)`;
  });

  // l. An embed in a page without COOP/COEP replays and animates; in an isolated page the
  //    same embed runs live — with the playground on the docs page's origin or another one.
  check('embed-replay-and-live', async (ctx) => {
    assert.ok(L.env.plainUrl, 'needs the non-isolated server (CFP_PLAIN_URL)');
    const ex = withIterations(3);
    const out = [];
    // [name, docs page server, playground server, expected mode]
    const cases = [
      ['plain', L.env.plainUrl, L.env.plainUrl, 'replay'],
      ['plain-cross-origin', L.env.plainUrl, url, 'replay'],
      ['isolated', url, url, 'live'],
      ...(L.env.otherUrl ? [['isolated-cross-origin', url, L.env.otherUrl, 'live']] : []),
    ];
    for (const [name, docs, server, want] of cases) {
      const cli = cliLink(ex, base(server), ['--embed', '--with-record', '--autoplay', '--read-only']);
      assert.match(cli.link, /\?embed#v1\./);
      const parent = await L.newPage(ctx);
      await parent.goto(new URL(`__tests__/embed-parent.html?src=${encodeURIComponent(cli.link)}`, docs).href);
      const frameEl = await parent.waitForSelector('#cfplay', { timeout: 30000 });
      const frame = await frameEl.contentFrame();
      await frame.waitForSelector(L.tid('mode-badge'), { timeout: 60000 });
      assert.equal(await parent.evaluate(() => globalThis.crossOriginIsolated), want === 'live', `${name}: parent isolation`);
      assert.equal(await frame.evaluate(() => globalThis.crossOriginIsolated), want === 'live', `${name}: frame isolation`);
      // Animation: the iteration count and the timeline grow over time before the verdict.
      const counts = new Set();
      let cloned = false;
      const t0 = Date.now();
      while (Date.now() - t0 < 120000) {
        const s = await frame.evaluate(() => ({
          n: document.querySelectorAll('[data-testid="timeline-item"]').length,
          v: (document.querySelector('[data-testid="verdict"]')?.textContent ?? '').trim(),
          cloned: !!document.querySelector('[data-testid="pcfa-cloned"]'),
          pending: document.querySelector('.app')?.getAttribute('data-pending'),
        }));
        counts.add(s.n);
        cloned ||= s.cloned;
        if (s.v && s.pending === '0') break;
        await frame.waitForTimeout(60);
      }
      const s = await settle(frame);
      assert.equal(s.mode, want, `${name}: mode badge`);
      assert.equal(s.verdict, cli.result.verdict, `${name}: verdict`);
      assert.equal(s.iterations, cli.result.iterations, `${name}: iterations`);
      assert.ok(counts.size >= 3, `${name}: not animated (timeline sizes seen: ${[...counts].join(',')})`);
      assert.ok(cloned, `${name}: no PCFA clone was shown`);
      assert.ok(await L.editorReadOnly(frame, 'program-editor'), `${name}: read-only embed has an editable program`);
      // Live runs start the worker (which loads Z3); a replay never does.
      const worker = await frame.evaluate(() => performance.getEntriesByType('resource').some((e) => /\/worker\.js$/.test(e.name)));
      assert.equal(worker, want === 'live', `${name}: worker started = ${worker}`);
      out.push(`${name}: ${ex.id} ${want}, ${s.verdict} in ${s.iterations} iterations, timeline sizes ${[...counts].sort().join('→')}`);
      if (name === 'plain') await L.screenshot(parent, '09-embed-replay');
      await parent.close();
    }
    // A recording beside the page (`?record=`), replayed in the non-isolated page.
    const cli = cliLink(ex, base(url));
    const rel = '/__records__/' + cli.record.split('/').pop();
    const p = await open(ctx, new URL(`?embed&nosw&record=${encodeURIComponent(rel)}`, L.env.plainUrl).href);
    const s = await settle(p);
    assert.equal(s.mode, 'replay');
    assert.equal(s.verdict, cli.result.verdict);
    out.push(`record= file: ${s.verdict}`);
    // start=2 without autoplay: iteration 2 at once, paused there until Play.
    const q = await open(ctx, new URL(`?embed&nosw&start=2&autoplay=0&record=${encodeURIComponent(rel)}`, L.env.plainUrl).href);
    await q.waitForFunction(() => {
      const app = document.querySelector('.app');
      const phase = document.querySelector('[data-testid="phase"]')?.textContent ?? '';
      return app?.getAttribute('data-shown-iteration') === '2' && /paused/.test(phase);
    }, null, { timeout: 30000 });
    const waiting = await pageState(q);
    assert.equal(waiting.verdict, '', 'a paused embed already shows the verdict');
    assert.ok(Number(await q.locator('.app').getAttribute('data-pending')) > 0, 'nothing left to play at the start');
    await q.locator(L.tid('pause')).click();
    const played = await settle(q);
    assert.equal(played.verdict, cli.result.verdict);
    assert.equal(played.shown, String(cli.result.iterations));
    out.push('start=2: paused at 2, Play finished the run');
    return out.join('; ');
  });

  // l2. Browsers that refuse storage to third-party frames (Safari, Firefox strict, Brave,
  //     incognito): every storage API throws, yet the embed mounts, runs and shows the
  //     CLI's verdict, replayed and live; the top-level page too (theme and edits are
  //     simply not kept).
  check('embed-storage-refused', async (ctx) => {
    assert.ok(L.env.plainUrl, 'needs the non-isolated server (CFP_PLAIN_URL)');
    await ctx.context.addInitScript(() => {
      const deny = () => { throw new DOMException('The operation is insecure.', 'SecurityError'); };
      for (const name of ['localStorage', 'sessionStorage', 'indexedDB', 'caches']) {
        try { Object.defineProperty(window, name, { get: deny, configurable: true }); } catch {}
      }
      try { Object.defineProperty(Document.prototype, 'cookie', { get: deny, set: deny, configurable: true }); } catch {}
      try { Object.defineProperty(Navigator.prototype, 'serviceWorker', { get: deny, configurable: true }); } catch {}
    });
    const ex = withIterations(3);
    const out = [];
    const cases = [
      ['plain-cross-origin', L.env.plainUrl, url, 'replay'],
      ...(L.env.otherUrl ? [['isolated-cross-origin', url, L.env.otherUrl, 'live']] : []),
    ];
    for (const [name, docs, server, want] of cases) {
      const cli = cliLink(ex, base(server), ['--embed', '--with-record', '--autoplay']);
      const parent = await L.newPage(ctx);
      await parent.goto(new URL(`__tests__/embed-parent.html?src=${encodeURIComponent(cli.link)}`, docs).href);
      const frame = await (await parent.waitForSelector('#cfplay', { timeout: 30000 })).contentFrame();
      await frame.waitForSelector(L.tid('mode-badge'), { timeout: 60000 });
      const refused = await frame.evaluate(() => { try { return !localStorage; } catch { return true; } });
      assert.ok(refused, `${name}: the test did not take storage away`);
      const s = await settle(frame);
      assert.equal(s.mode, want, `${name}: mode badge`);
      assert.equal(s.verdict, cli.result.verdict, `${name}: verdict`);
      assert.equal(s.iterations, cli.result.iterations, `${name}: iterations`);
      out.push(`${name}: ${s.mode}, ${s.verdict} in ${s.iterations} iterations`);
      await parent.close();
    }
    // The playground itself, storage refused: edit, change the theme, run.
    const page = await open(ctx, url);
    await page.locator(L.tid('theme-toggle')).click();
    await L.setEditor(page, 'program-editor', await L.editorText(page, 'program-editor') + '\n');
    const v = await L.runToVerdict(page, { timeout: 120000 });
    assert.match(v.verdict ?? '', FINAL_RE, 'top-level page without storage: no verdict');
    out.push(`top-level page: ${v.verdict} in ${v.iterations} iterations`);
    const broken = ctx.errors.filter((e) => /pageerror|panicked|local_storage|unreachable/i.test(e));
    assert.deepEqual(broken, [], 'errors with storage refused');
    return out.join('; ');
  });

  // A class without `main`: the page says so and offers the harness that fits; the run
  //    goes through it (the CLI's verdict with --harness), and the share link re-runs the
  //    same check in a fresh profile.
  check('no-main-harness-and-its-link', async (ctx) => {
    const program = [
      'import java.util.concurrent.locks.ReentrantLock;',
      '',
      'class Account {',
      '    final ReentrantLock lock = new ReentrantLock();',
      '    int balance;',
      '',
      '    public boolean withdraw(int amount) {',
      '        lock.lock();',
      '        if (amount > balance) {',
      '            return false;',
      '        }',
      '        balance -= amount;',
      '        lock.unlock();',
      '        return true;',
      '    }',
      '}',
      '',
    ].join('\n');
    const dir = join(L.env.root, 'target', 'browser-records');
    mkdirSync(dir, { recursive: true });
    const programPath = join(dir, 'Account.java');
    writeFileSync(programPath, program);
    const specPath = join(L.env.root, 'tests', 'specs', 'lock.cfg');
    const native = L.nativeCheck(programPath, specPath, ['--harness', 'public-methods']);
    assert.equal(native.verdict, 'violation', `native: ${JSON.stringify(native)}`);
    const page = await L.newPage(ctx);
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    await page.locator(L.tid('program-editor')).first().waitFor({ state: 'attached', timeout: 30000 });
    await L.setEditor(page, 'spec-editor', readFileSync(specPath, 'utf8'));
    await L.setEditor(page, 'program-editor', program);
    await page.locator(L.tid('no-main')).waitFor({ timeout: 10000 });
    await L.screenshot(page, '10-no-main');
    await page.locator(L.tid('use-harness')).click();
    await page.waitForFunction(() => !document.querySelector('[data-testid="no-main"]'), null, { timeout: 3000 });
    assert.equal(await page.locator(L.tid('entry-select')).inputValue(), 'harness:public-methods');
    const r = await L.runToVerdict(page, { timeout: 120000 });
    assert.equal(r.verdict, native.verdict, 'the page and the CLI disagree');
    const reason = (await page.locator(L.tid('verdict-reason')).first().textContent()).trim();
    assert.equal(reason, native.summary.split(`${programPath}:`).join('line ').replace(/`/g, ''), 'summary');
    const texts = await shareTexts(page);
    const fresh = await L.launch();
    try {
      const p = await open(fresh, texts.link);
      const s = await settle(p);
      assert.equal(s.verdict, native.verdict, 'the link re-ran another check');
      assert.equal(await p.locator(L.tid('entry-select')).inputValue(), 'harness:public-methods', 'the link lost the harness');
    } finally {
      await fresh.close();
    }
    return `no main → public-methods harness offered; ${r.verdict} as the CLI with --harness; the link re-runs it`;
  });

  // m. Malformed, truncated, oversized and hostile links: a clear message, nothing runs, no hang.
  check('hostile-links', async (ctx) => {
    const b64 = (buf) => buf.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const frag = (json) => 'v1.' + b64(deflateRawSync(Buffer.from(typeof json === 'string' ? json : JSON.stringify(json))));
    const payload = '</textarea><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"><svg onload="window.__pwned=3">';
    const good = frag({ program: 'class A {}', spec: 'S -> ε;' });
    const bomb = 'v1.' + b64(deflateRawSync(Buffer.alloc(20 * 1024 * 1024)));
    const cases = [
      ['malformed', '#v1.!!!not*base64', /cannot be opened.*(damaged|base64)/i],
      ['truncated', '#' + good.slice(0, Math.floor(good.length / 2)), /cannot be opened.*(damaged|truncated)/i],
      ['oversized', '#v1.' + 'A'.repeat(70000), /cannot be opened.*too long/i],
      ['deflate-bomb', '#' + bomb, /cannot be opened.*expands to more than/i],
      ['future-version', '#v9.abc', /cannot be opened.*version/i],
      ['not-a-link', '#hello', /cannot be opened.*not a playground share link/i],
      ['bad-json', '#' + frag('{"program": 1}'), /cannot be opened.*invalid at line 1, column/i],
      ['hostile-code', '#' + frag({ program: payload, spec: payload }), null],
      ['hostile-recording', '#' + frag({ program: payload, spec: 'S -> ε;',
        record: { events: [{ kind: 'inclusion', iteration: 4000000000, result: 'included' }], result: { verdict: 'verified' } } }),
      /recorded run in this link cannot be replayed/i],
    ];
    const out = [];
    for (const [name, hash, want] of cases) {
      for (const server of [url, L.env.plainUrl].filter(Boolean)) {
        const page = await L.newPage(ctx);
        let dialog = false;
        page.on('dialog', async (d) => { dialog = true; await d.dismiss(); });
        const t0 = Date.now();
        await page.goto(new URL(`?nosw${hash}`, server).href, { waitUntil: 'domcontentloaded' });
        await page.locator(L.tid('program-editor')).waitFor({ state: 'attached', timeout: 30000 });
        await page.waitForTimeout(300);
        const s = await pageState(page);
        const ms = Date.now() - t0;
        assert.ok(ms < 20000, `${name}: page took ${ms} ms`);
        if (want) assert.match(s.errors, want, `${name}: message "${s.errors}"`);
        else assert.equal(s.errors, '', `${name}: unexpected error ${s.errors}`);
        const pwned = await page.evaluate(() => window.__pwned ?? null);
        assert.equal(pwned, null, `${name}: content executed (${pwned})`);
        assert.equal(dialog, false, `${name}: a dialog opened`);
        assert.equal(await page.locator('img[src="x"], svg[onload]').count(), 0, `${name}: markup injected`);
        if (name.startsWith('hostile')) assert.equal(s.program, payload, `${name}: code not shown as text`);
        // Responsive: typing into the editor still works.
        await L.setEditor(page, 'spec-editor', 'S -> ε;');
        assert.equal(await L.editorText(page, 'spec-editor'), 'S -> ε;');
        await page.close();
      }
      out.push(name);
    }
    return `${out.length} links handled (${out.join(', ')})`;
  });

  // n. Static hosting: on a server without COOP/COEP the service worker makes the page
  //    isolated (live); `?nosw` leaves it non-isolated (no live Z3, said so).
  check('service-worker-shim', async (ctx) => {
    assert.ok(L.env.plainUrl, 'needs the non-isolated server (CFP_PLAIN_URL)');
    const page = await L.newPage(ctx);
    await page.goto(L.env.plainUrl, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => globalThis.crossOriginIsolated === true
      && document.querySelector('[data-testid="mode-badge"]'), null, { timeout: 30000 });
    assert.equal(await page.evaluate(() => !!navigator.serviceWorker.controller), true, 'not controlled by the service worker');
    const r = await L.runToVerdict(page);
    const s = await settle(page);
    assert.equal(s.mode, 'live');
    // The service worker stays registered in this profile (?nosw only skips registering
    // it); a fresh profile shows the non-isolated case.
    const fresh = await L.launch();
    let note;
    try {
      const p = await open(fresh, new URL('?nosw', L.env.plainUrl).href);
      assert.equal(await p.evaluate(() => globalThis.crossOriginIsolated), false);
      // The gallery example replays its shipped recording …
      const st = await settle(p);
      assert.equal(st.mode, 'replay');
      const first = L.galleryExamples()[0];
      assert.equal(st.verdict, first.expected, 'replayed gallery verdict');
      // … and edited code cannot run here, which the page says.
      await L.setEditor(p, 'program-editor', `${st.program}\n// edited\n`);
      await p.waitForTimeout(200);
      const edited = await pageState(p);
      assert.match(edited.notices, /not cross-origin isolated/);
      assert.equal(await p.locator(L.tid('run')).isDisabled(), true, 'run enabled without Z3');
      note = `?nosw: the gallery replays (${st.verdict}), edited code: Run disabled, said why`;
    } finally {
      await fresh.close();
    }
    return `service worker: isolated and live (${r.verdict} in ${r.ms.toFixed(0)} ms); ${note}`;
  });

  // o. Without isolation (no service worker), every gallery example replays its shipped
  //    recording: same verdict and iteration count as the native CLI.
  check('gallery-replays-without-isolation', async (ctx) => {
    assert.ok(L.env.plainUrl, 'needs the non-isolated server (CFP_PLAIN_URL)');
    const page = await open(ctx, new URL('?nosw', L.env.plainUrl).href);
    await page.locator(L.tid('speed')).selectOption('0');
    const notes = [];
    for (const ex of L.galleryExamples()) {
      await L.selectExample(page, ex);
      await page.waitForFunction((id) => document.querySelector('[data-testid="example-select"]')?.value === id, ex.id);
      const s = await settle(page);
      const want = L.nativeCheck(ex.programPath, ex.specPath);
      assert.equal(s.mode, 'replay', `${ex.id}: mode`);
      assert.equal(s.program, readFileSync(ex.programPath, 'utf8'), `${ex.id}: editor`);
      assert.equal(s.verdict, want.verdict, `${ex.id}: verdict`);
      assert.equal(s.iterations, want.iterations, `${ex.id}: iterations`);
      notes.push(`${ex.id.slice(0, 2)}:${s.verdict.slice(0, 4)}${s.iterations}`);
    }
    return `${notes.length} gallery examples replayed like the CLI (${notes.join(' ')})`;
  });
}
