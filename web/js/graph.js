// The PCFA graphs of the playground, laid out by Graphviz (@hpcc-js/wasm, its wasm inlined
// in this bundle) and drawn by d3-graphviz: bundled by esbuild (`cargo xtask dist`) into
// `dist/graph.js`, which sets the global `cfpGraph`. The Yew page (`web/src/app/pcfa.rs`)
// owns the DOT text (`web/src/app/pcfa/dot.rs`); this file owns the host element's
// contents.
//
//   cfpGraph.render(host, dot, { method, key, label })
//       draw `dot` in `host`. The same host re-rendered with the same method animates from
//       the graph shown to the new one (keyed by the DOT ids `pcfa-s<id>`, `pcfa-e<id>`:
//       new states and edges fade in, gone ones fade out, the others move); another method
//       is drawn without animation and with the default view. Layouts run when the page is
//       idle, at most one at a time, and only the newest request is drawn.
//   cfpGraph.fit(host), cfpGraph.reset(host), cfpGraph.zoomBy(host, factor)
//       the view: the whole graph / the default view / zoom about the centre.
//
// The view: wheel and pinch zoom, drag pans. The default view fits the graph to the panel
// but never below READABLE_PX text (a large graph then starts at its top left, pan to see
// the rest); "fit" shows the whole graph whatever the text size. Colours come from the
// page's CSS (`static/style.css`, `.pcfa-graph`), so both themes apply.
//
// When a render is done, the <svg> has `class="pcfa-svg"`, `data-method` and
// `data-dot` = the request's key; states are `g.node[data-state-id]`, edges
// `g.edge[data-edge-id]`, and the states the last refinement cloned and the edges it
// removed carry `data-testid="pcfa-cloned"` / `"pcfa-removed"` (browser tests read them).

import { select } from 'd3-selection';
import { zoomIdentity, zoomTransform } from 'd3-zoom';
import { transition } from 'd3-transition';
import 'd3-graphviz';
import { Graphviz } from '@hpcc-js/wasm/graphviz';

/** Graphviz's unit (pt) in CSS px at scale 1 (d3-graphviz draws 1 pt as 4/3 px). */
const PX_PER_PT = 4 / 3;
/** The smallest label size (CSS px) the default view shows. */
const READABLE_PX = 12;
/** Label size in the DOT (pt): `FONT_SIZE_PT` of `web/src/app/pcfa/dot.rs`. */
const FONT_PT = 11;
/** The height of the drawing area (CSS px): the graph's at the default scale, within. */
const MIN_HEIGHT = 160;
const MAX_HEIGHT = 560;
/** Margin around the graph in the default view and fit (pt). */
const PAD = 6;
/** Animation between iterations (ms). */
const MORPH_MS = 800;
const VIEW_MS = 300;

const reducedMotion = () => globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
const idle = (fn) => (globalThis.requestIdleCallback
  ? globalThis.requestIdleCallback(fn, { timeout: 250 })
  : setTimeout(fn, 16));

/** The Graphviz wasm, loaded once (decoded from this bundle, compiled by the browser). */
let graphvizLoad = null;
const loadGraphviz = () => (graphvizLoad ??= Graphviz.load());

/** Layouts run in a Web Worker (d3-graphviz's worker mode) on `graphviz-worker.js`, which
 * `cargo xtask dist` writes next to this bundle (@hpcc-js/wasm's Graphviz, standalone): the
 * page's main thread only draws. d3-graphviz finds the worker's script by a
 * `<script type="javascript/worker">` tag, whose URL must be absolute (the worker is a blob).
 * When the worker cannot start or fails, layouts fall back to this thread. */
const workerUrl = (() => {
  try {
    const base = document.currentScript?.src || document.baseURI;
    const url = new URL('graphviz-worker.js', base).href;
    const tag = document.createElement('script');
    tag.type = 'javascript/worker';
    tag.src = url;
    document.head.append(tag);
    return url;
  } catch (e) {
    return null;
  }
})();
let workerBroken = workerUrl === null || typeof Worker === 'undefined';

let viewCount = 0;

/** One host element's graph: its toolbar, drawing, view and render queue. */
class GraphView {
  constructor(host) {
    this.host = host;
    this.pending = null;
    this.busy = false;
    this.method = null;
    this.userView = false;
    this.gv = null;
    this.opts = {};
    this.size = { width: 0, height: 0 };
    this.stats = null;
    this.transitionName = `pcfa-morph-${++viewCount}`;
    const bar = document.createElement('div');
    bar.className = 'pcfa-toolbar';
    const button = (text, title, testid, onclick) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = text;
      b.title = title;
      // Symbol buttons get a name; word buttons are named by their text (WCAG 2.5.3).
      if (!/\w/.test(text)) b.setAttribute('aria-label', title);
      b.dataset.testid = testid;
      b.addEventListener('click', onclick);
      bar.append(b);
    };
    button('Fit', 'Fit the whole graph in view', 'pcfa-fit', () => this.setView('fit'));
    button('Reset', 'Back to the default view (readable text)', 'pcfa-reset', () => this.setView('default'));
    button('+', 'Zoom in', 'pcfa-zoom-in', () => this.zoomBy(1.25));
    button('−', 'Zoom out', 'pcfa-zoom-out', () => this.zoomBy(0.8));
    const hint = document.createElement('span');
    hint.className = 'pcfa-hint';
    hint.textContent = 'wheel to zoom, drag to pan; hover for statements and predicates';
    bar.append(hint);
    this.canvas = document.createElement('div');
    this.canvas.className = 'pcfa-canvas';
    this.status = document.createElement('p');
    this.status.className = 'pcfa-status muted small';
    this.status.setAttribute('role', 'status');
    host.replaceChildren(bar, this.canvas, this.status);
    // A panel that changes width (window, panes, phone rotation) gets the drawing redone
    // at the new width, once it has settled.
    this.width = 0;
    if (globalThis.ResizeObserver) {
      let timer = null;
      new ResizeObserver(() => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          const w = this.host.clientWidth;
          if (this.last && this.width && Math.abs(w - this.width) > 16) this.request(this.last.dot, this.last.opts);
        }, 250);
      }).observe(host);
    }
  }

  /** Queue `dot` (the newest request replaces any not drawn yet). */
  request(dot, opts) {
    this.pending = { dot, opts: opts ?? {} };
    if (!this.busy) this.schedule();
  }

  schedule() {
    this.busy = true;
    idle(() => this.next());
  }

  showStatus(text, isError) {
    this.status.textContent = text;
    this.status.classList.toggle('error', !!isError);
  }

  async next() {
    const job = this.pending;
    this.pending = null;
    this.last = job ?? this.last;
    if (!job || !this.host.isConnected) {
      this.busy = false;
      return;
    }
    try {
      if (workerBroken) await loadGraphviz();
    } catch (e) {
      this.busy = false;
      this.showStatus(`The graph cannot be drawn: Graphviz did not load (${e?.message ?? e}).`, true);
      return;
    }
    const sameMethod = this.gv !== null && this.method === job.opts.method;
    // Another method: a fresh drawing (ids are per method, so nothing morphs into the
    // other method's graph, and d3-graphviz has no old graph to match and tween).
    if (!sameMethod) this.create();
    this.method = job.opts.method;
    this.opts = job.opts;
    this.animate = sameMethod && !reducedMotion();
    this.gv.dot(job.dot, () => {
      const t1 = performance.now();
      // The drawing's size: the panel's width, the graph's height at the default scale.
      const root = this.gv.data();
      const pt = (v) => Number.parseFloat(String(v ?? '0').replace('pt', '')) || 0;
      const gw = pt(root?.attributes?.width);
      const gh = pt(root?.attributes?.height);
      const width = Math.max(200, Math.floor(this.canvas.clientWidth || this.host.clientWidth || 600));
      const k = clamp(width / PX_PER_PT / (gw + 2 * PAD), minScale(), 1);
      const height = Math.round(clamp((gh + 2 * PAD) * k * PX_PER_PT, MIN_HEIGHT, MAX_HEIGHT));
      this.size = { width, height };
      this.width = this.host.clientWidth;
      this.gv.width(width).height(height).fit(false);
      this.gv.render(() => {
        // Graphviz's layout (synchronous, on this thread) and the drawing with its
        // transition (ms).
        this.stats = { layoutMs: this.layoutMs, drawMs: performance.now() - t1, widthPt: gw, heightPt: gh };
        this.finish(job);
      });
    });
  }

  create() {
    const view = this;
    this.gv?.destroy();
    const canvas = document.createElement('div');
    canvas.className = 'pcfa-canvas';
    this.canvas.replaceWith(canvas);
    this.canvas = canvas;
    this.zoomHooked = false;
    this.userView = false;
    this.morphing = false;
    this.gv = select(this.canvas).graphviz({
      useWorker: !workerBroken,
      keyMode: 'id',
      fade: true,
      // d3-graphviz grows entering edges only for `class="edge"` exactly; ours carry
      // more classes (pcfa-edge, pcfa-removed), so new edges fade in instead.
      growEnteringEdges: false,
      tweenShapes: false,
      // Morph edges through 20 points each (the default samples every point of the
      // path: seconds on a graph of hundreds of edges); the final drawing is exact.
      tweenPrecision: '5%',
      zoom: true,
      zoomScaleExtent: [0.05, 8],
    });
    this.gv
      .attributer(function (d) { view.attribute(d); })
      .on('layoutStart', () => { this.layoutStart = performance.now(); })
      .on('layoutEnd', () => { this.layoutMs = performance.now() - this.layoutStart; })
      .onerror((e) => {
        // A fresh d3-graphviz for the next request (this one may be stuck mid-render);
        // a worker that failed is not used again.
        if (!workerBroken) {
          workerBroken = true;
          this.gv = null;
          this.method = null;
          this.pending ??= this.last;
          this.schedule();
          return;
        }
        this.gv = null;
        this.method = null;
        this.showStatus(`The graph cannot be drawn: ${e}`, true);
        if (this.pending) this.schedule();
        else this.busy = false;
      });
  }

  /** Attributes the page and the tests read, added as d3-graphviz draws each element (so
   * they never flicker during a transition). */
  attribute(d) {
    const a = d.attributes;
    if (d.tag === 'svg') {
      a.class = 'pcfa-svg';
      a['data-method'] = this.opts.method ?? '';
      a.role = 'img';
      a['aria-label'] = this.opts.label ?? `PCFA of ${this.opts.method ?? 'a method'}`;
      return;
    }
    if (d.tag !== 'g' || typeof a.class !== 'string' || typeof a.id !== 'string') return;
    const classes = a.class.split(/\s+/);
    const state = /^pcfa-s(\d+)$/.exec(a.id);
    if (state && classes.includes('node')) {
      a['data-state-id'] = state[1];
      if (classes.includes('pcfa-cloned')) a['data-testid'] = 'pcfa-cloned';
    }
    const edge = /^pcfa-e(\d+)$/.exec(a.id);
    if (edge && classes.includes('edge')) {
      a['data-edge-id'] = edge[1];
      if (classes.includes('pcfa-removed')) a['data-testid'] = 'pcfa-removed';
    }
  }

  finish(job) {
    const svg = this.canvas.querySelector('svg');
    if (svg) {
      // Tooltips: Graphviz puts them on <a xlink:title>, which Chromium does not show;
      // the group's own <title> (the DOT node name) gets the text.
      for (const g of svg.querySelectorAll('g.node, g.edge')) {
        const a = g.querySelector('a');
        const tip = a?.getAttribute('xlink:title') ?? a?.getAttributeNS('http://www.w3.org/1999/xlink', 'title');
        // The text node, not `textContent`: d3-graphviz keeps its data on that node.
        const text = g.querySelector(':scope > title')?.firstChild;
        if (tip && text?.nodeType === Node.TEXT_NODE) text.nodeValue = tip;
      }
      if (!this.morphing) {
        // From the second drawing of a method on, iterations morph into each other.
        // d3-graphviz derives its transitions from this one, made on the document root
        // (it looks the timing up among the ancestors of what it animates).
        this.morphing = true;
        this.gv.transition(() => transition(this.transitionName).duration(this.animate ? MORPH_MS : 0));
      }
      if (!this.zoomHooked && this.gv.zoomBehavior()) {
        this.zoomHooked = true;
        // A zoom or pan by the user (not ours) keeps the view across iterations.
        this.gv.zoomBehavior().on('zoom.cfp', (ev) => { if (ev.sourceEvent) this.userView = true; });
      }
      if (!this.userView) this.setView('default', this.animate);
      svg.setAttribute('data-dot', job.opts.key ?? '');
    }
    this.showStatus('', false);
    if (this.pending) {
      this.schedule();
    } else {
      this.busy = false;
    }
  }

  /** The transform that shows the graph: `fit` (all of it, at most natural size) or
   * `default` (fit, but never below readable text). */
  viewTransform(kind) {
    const svg = this.canvas.querySelector('svg');
    const g = svg?.querySelector(':scope > g');
    if (!g) return null;
    const box = g.getBBox();
    const vw = this.size.width / PX_PER_PT;
    const vh = this.size.height / PX_PER_PT;
    const bw = Math.max(box.width, 1) + 2 * PAD;
    const bh = Math.max(box.height, 1) + 2 * PAD;
    let k = Math.min(1, vw / bw, vh / bh);
    if (kind === 'default') k = Math.max(k, minScale());
    // Centred when it fits; else the entry state in view (centred across, at the top),
    // without showing more than a margin beyond the graph's edges.
    const entry = g.querySelector('g.node.pcfa-entry')?.getBBox() ?? { x: box.x, y: box.y, width: 0, height: 0 };
    const place = (size, view, lo, at) => {
      if (size * k <= view) return (view - size * k) / 2 + (PAD - lo) * k;
      const min = view - (lo + size - PAD) * k; // the far edge at the view's edge
      const max = (PAD - lo) * k; // the near edge at the view's edge
      return clamp(at, min, max);
    };
    const x = place(bw, vw, box.x, vw / 2 - (entry.x + entry.width / 2) * k);
    const y = place(bh, vh, box.y, (2 * PAD - entry.y) * k);
    return zoomIdentity.translate(x, y).scale(k);
  }

  setView(kind, animate = true) {
    const t = this.viewTransform(kind);
    const zb = this.gv?.zoomBehavior();
    const sel = this.gv?.zoomSelection();
    if (!t || !zb || !sel) return;
    if (kind === 'default') this.userView = false;
    else this.userView = true;
    const ms = animate && !reducedMotion() ? VIEW_MS : 0;
    if (ms) sel.transition('pcfa-view').duration(ms).call(zb.transform, t);
    else sel.call(zb.transform, t);
  }

  zoomBy(factor) {
    const zb = this.gv?.zoomBehavior();
    const sel = this.gv?.zoomSelection();
    if (!zb || !sel) return;
    this.userView = true;
    sel.transition('pcfa-view').duration(reducedMotion() ? 0 : 200).call(zb.scaleBy, factor);
  }
}

function clamp(v, lo, hi) {
  return Math.min(hi, Math.max(lo, v));
}

/** The scale at which labels are READABLE_PX tall. */
function minScale() {
  return READABLE_PX / (FONT_PT * PX_PER_PT);
}

function viewOf(host) {
  if (!(host instanceof Element)) throw new TypeError('cfpGraph: the host is not an element');
  return (host.cfpGraphView ??= new GraphView(host));
}

globalThis.cfpGraph = {
  render(host, dot, opts) {
    if (typeof dot !== 'string') throw new TypeError('cfpGraph.render: the DOT is not a string');
    viewOf(host).request(dot, opts);
  },
  fit(host) { viewOf(host).setView('fit'); },
  reset(host) { viewOf(host).setView('default'); },
  zoomBy(host, factor) { viewOf(host).zoomBy(factor); },
  /** The current zoom transform of `host`'s graph ({k, x, y}), for tests. */
  transform(host) {
    const svg = host?.cfpGraphView?.canvas.querySelector('svg');
    if (!svg) return null;
    const { k, x, y } = zoomTransform(svg);
    return { k, x, y };
  },
  /** The last layout's figures of `host` ({layoutMs, drawMs, widthPt, heightPt}). */
  stats(host) { return host?.cfpGraphView?.stats ?? null; },
  /** Label size of the DOT (pt) and at scale 1 (px). */
  fontPt: FONT_PT,
  readablePx: READABLE_PX,
};
// Warm-up: d3-graphviz loads Graphviz's wasm on this thread for every drawing (even with
// its worker; the load is cached after the first), and decoding the inlined wasm takes
// ~90 ms: done once while the page is idle after loading, not in the middle of the first
// run's first drawing.
idle(() => { loadGraphviz().catch(() => {}); });
// The page may have asked before this script ran (it loads with `defer`).
globalThis.dispatchEvent(new Event('cfp-graph-ready'));
