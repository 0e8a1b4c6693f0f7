// The playground's code editors: CodeMirror 6, bundled by esbuild (`cargo xtask dist`) into
// `dist/editor.js`, which sets the global `cfpEditor`. The Yew page binds to it through
// wasm-bindgen (`web/src/app/editor.rs`); the page owns the text, this file owns editing.
//
//   const ed = cfpEditor.create(host, { doc, lang: 'java' | 'spec', label, readOnly, onChange })
//   ed.text()                 the whole text
//   ed.setText(text)          replace it from outside (an example, a link): no onChange, scroll home
//   ed.paste(text)            replace it as a user's paste would (onChange fires; tests use it)
//   ed.setDiagnostics(json)   [{line, col, severity: 'error' | 'warning', message}], 1-based,
//                             columns in characters: squiggles, gutter markers, tooltips
//   ed.setMarks(json)         {highlight, call, exit, callTitle, exitTitle}: lines (0 = none);
//                             `highlight` is scrolled into view when it changes
//   ed.setReadOnly(bool), ed.focus(), ed.destroy()
//
// `host.cfpEditor` is the handle (browser tests read and paste through it).

import { EditorState, Compartment, StateEffect, StateField, RangeSet, Annotation } from '@codemirror/state';
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
  drawSelection, dropCursor, highlightSpecialChars, Decoration, gutter, GutterMarker,
} from '@codemirror/view';
import {
  defaultKeymap, history, historyKeymap, indentWithTab,
} from '@codemirror/commands';
import {
  syntaxHighlighting, HighlightStyle, indentOnInput, bracketMatching, StreamLanguage,
  indentUnit, foldGutter, foldKeymap,
} from '@codemirror/language';
import { searchKeymap, highlightSelectionMatches } from '@codemirror/search';
import { closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { setDiagnostics, lintGutter } from '@codemirror/lint';
import { java } from '@codemirror/lang-java';
import { tags as t } from '@lezer/highlight';

// ---- the spec language (ARCHITECTURE.md; lexer: crates/cfp-syntax/src/spec_lexer.rs) -------

const specLanguage = StreamLanguage.define({
  name: 'cfp-spec',
  startState: () => ({ inTerminal: false }),
  // A terminal is `$N.name(args)`: from the `$` through its closing `)`.
  token(stream, state) {
    if (stream.eatSpace()) return null;
    if (stream.match('//') || stream.match('#')) { stream.skipToEnd(); return 'comment'; }
    if (state.inTerminal) {
      if (stream.eat(')')) { state.inTerminal = false; return 'atom'; }
      if (stream.match(/^[.(,_]/) || stream.match(/^\$?[A-Za-z0-9_']+/)) return 'atom';
      state.inTerminal = false;
    }
    if (stream.match(/^\$\d*/)) { state.inTerminal = !!stream.match(/^\s*(?=\.)/, false); return 'atom'; }
    if (stream.match('->') || stream.match('→') || stream.match('::=')) return 'operator';
    if (stream.match(/^[;|:.(),]/)) return 'punctuation';
    if (stream.match(/^<[A-Za-z0-9_'.]+>/)) return 'typeName';
    if (stream.match('ε') || stream.match(/^eps\b/) || stream.match(/^wildcard\b/)) return 'keyword';
    if (stream.match(/^[A-Za-z_][A-Za-z0-9_']*/)) return 'typeName';
    if (stream.match(/^\d+/)) return 'number';
    stream.next();
    return null;
  },
  languageData: { commentTokens: { line: '//' } },
});

// Highlighting by class names, so `static/style.css` colours both themes (`.tk-*`).
const javaHighlight = HighlightStyle.define([
  { tag: [t.keyword, t.modifier, t.controlKeyword, t.definitionKeyword, t.operatorKeyword, t.bool, t.null, t.self], class: 'tk-kw' },
  { tag: [t.typeName, t.standard(t.typeName)], class: 'tk-type' },
  { tag: [t.lineComment, t.blockComment, t.comment], class: 'tk-com' },
  { tag: [t.string, t.character], class: 'tk-str' },
  { tag: [t.number, t.integer, t.float], class: 'tk-num' },
]);
const specHighlight = HighlightStyle.define([
  { tag: t.keyword, class: 'tk-kw' },
  { tag: t.comment, class: 'tk-com' },
  { tag: t.atom, class: 'tk-term' },
  { tag: t.typeName, class: 'tk-nt' },
  { tag: [t.operator, t.punctuation], class: 'tk-punct' },
  { tag: t.number, class: 'tk-num' },
]);

// ---- marks: the highlighted line, the offending call, the exit -------------------------

const setMarksEffect = StateEffect.define();

class MarkGutter extends GutterMarker {
  constructor(kind, title) { super(); this.kind = kind; this.title = title; }
  eq(other) { return other.kind === this.kind && other.title === this.title; }
  toDOM() {
    const el = document.createElement('span');
    el.className = `cfp-mark cfp-mark-${this.kind}`;
    el.dataset.testid = `mark-${this.kind}`;
    el.textContent = this.kind === 'call' ? '⚑' : '⏎';
    el.title = this.title;
    el.setAttribute('aria-label', this.title);
    return el;
  }
}

/** The marks as {decorations, gutter} range sets for `state`. */
function buildMarks(state, marks) {
  const lines = [];
  const markers = [];
  const lineAt = (n) => (n >= 1 && n <= state.doc.lines ? state.doc.line(n) : null);
  const add = (n, cls, kind, title) => {
    const line = lineAt(n);
    if (!line) return;
    lines.push(Decoration.line({ class: cls, attributes: { 'data-line': String(n) } }).range(line.from));
    if (kind) markers.push(new MarkGutter(kind, title).range(line.from));
  };
  add(marks.highlight, 'cfp-hl-line', null, '');
  add(marks.call, 'cfp-call-line', 'call', marks.callTitle || 'the offending API call');
  add(marks.exit, 'cfp-exit-line', 'exit', marks.exitTitle || 'the method exits here');
  return {
    decorations: Decoration.set(lines, true),
    gutter: RangeSet.of(markers, true),
  };
}

const marksField = StateField.define({
  create: () => ({ decorations: Decoration.none, gutter: RangeSet.empty }),
  update(value, tr) {
    let v = { decorations: value.decorations.map(tr.changes), gutter: value.gutter.map(tr.changes) };
    for (const e of tr.effects) if (e.is(setMarksEffect)) v = buildMarks(tr.state, e.value);
    return v;
  },
  provide: (f) => EditorView.decorations.from(f, (v) => v.decorations),
});

const marksGutter = gutter({
  class: 'cfp-marks-gutter',
  markers: (view) => view.state.field(marksField).gutter,
});

// ---- theme: colours from the page's CSS variables (both themes) ------------------------

const theme = EditorView.theme({
  '&': { height: '100%', color: 'var(--fg)', backgroundColor: 'var(--code-bg)', fontSize: '13px' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '20px' },
  '.cm-content': { caretColor: 'var(--fg)' },
  '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '-2px' },
  '.cm-gutters': { backgroundColor: 'var(--gutter-bg)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine': { backgroundColor: 'var(--active-line)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--active-line)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': { backgroundColor: 'var(--selection)' },
  '.cm-cursor': { borderLeftColor: 'var(--fg)' },
  '.cm-matchingBracket': { backgroundColor: 'var(--bracket)', outline: '1px solid var(--muted)' },
  '.cm-panels': { backgroundColor: 'var(--panel)', color: 'var(--fg)' },
  '.cm-tooltip': { backgroundColor: 'var(--panel)', color: 'var(--fg)', border: '1px solid var(--border)' },
});

// ---- the handle ----------------------------------------------------------------------

/** Marks a transaction as coming from the page, not the user. */
const External = Annotation.define();

/** The document offset of 1-based `line`, `col` (characters, not UTF-16 units). */
function offsetOf(doc, line, col) {
  const l = doc.line(Math.min(Math.max(line, 1), doc.lines));
  let off = 0;
  let chars = 1;
  for (const ch of l.text) {
    if (chars >= col) break;
    off += ch.length;
    chars += 1;
  }
  return l.from + off;
}

/** A diagnostic's range: from its position to the end of the word there (at least one
 *  character, within the line). */
function diagnosticRange(doc, d) {
  const from = offsetOf(doc, d.line, d.col);
  const line = doc.lineAt(from);
  const rest = line.text.slice(from - line.from);
  const word = /^[\w$]+/.exec(rest);
  const len = word ? word[0].length : Math.min(1, rest.length);
  return { from, to: from + len };
}

/** Read-only: no edits, and not contenteditable (still focusable and selectable). */
const readOnlyExtension = (ro) => [EditorState.readOnly.of(ro), EditorView.editable.of(!ro)];

function create(host, opts) {
  const readOnly = new Compartment();
  let onChange = typeof opts.onChange === 'function' ? opts.onChange : () => {};
  const lang = opts.lang === 'spec'
    ? [specLanguage, syntaxHighlighting(specHighlight)]
    : [java(), syntaxHighlighting(javaHighlight)];
  const state = EditorState.create({
    doc: opts.doc || '',
    extensions: [
      lineNumbers(),
      highlightActiveLineGutter(),
      marksGutter,
      lintGutter(),
      foldGutter(),
      highlightSpecialChars(),
      history(),
      drawSelection(),
      dropCursor(),
      EditorState.allowMultipleSelections.of(true),
      indentOnInput(),
      indentUnit.of('    '),
      EditorState.tabSize.of(4),
      bracketMatching(),
      closeBrackets(),
      highlightActiveLine(),
      highlightSelectionMatches(),
      lang,
      marksField,
      theme,
      keymap.of([
        ...closeBracketsKeymap,
        ...defaultKeymap,
        ...searchKeymap,
        ...historyKeymap,
        ...foldKeymap,
        indentWithTab,
      ]),
      readOnly.of(readOnlyExtension(!!opts.readOnly)),
      EditorView.contentAttributes.of({
        'aria-label': opts.label || 'code editor',
        'aria-multiline': 'true',
        // Focusable also when read-only (axe: scrollable regions take the keyboard).
        tabindex: '0',
        spellcheck: 'false',
        autocorrect: 'off',
        autocapitalize: 'off',
      }),
      EditorView.updateListener.of((u) => {
        if (u.docChanged && !u.transactions.every((tr) => tr.annotation(External))) {
          onChange(u.state.doc.toString());
        }
      }),
    ],
  });
  const view = new EditorView({ state, parent: host });
  let lastHighlight = 0;
  const handle = {
    view,
    text: () => view.state.doc.toString(),
    setText(text) {
      if (text === view.state.doc.toString()) return;
      view.dispatch({
        changes: { from: 0, to: view.state.doc.length, insert: text },
        selection: { anchor: 0 },
        annotations: [External.of(true)],
      });
      // A new text starts at its first line and column (not where the old one was scrolled).
      view.requestMeasure({
        read() {},
        write() { view.scrollDOM.scrollTop = 0; view.scrollDOM.scrollLeft = 0; },
      });
    },
    paste(text) {
      view.dispatch({
        changes: { from: 0, to: view.state.doc.length, insert: text },
        selection: { anchor: text.length },
        userEvent: 'input.paste',
      });
    },
    setDiagnostics(json) {
      const list = JSON.parse(json);
      const doc = view.state.doc;
      const diags = list.map((d) => ({
        ...diagnosticRange(doc, d),
        severity: d.severity === 'warning' ? 'warning' : 'error',
        message: `${d.line}:${d.col}: ${d.message}`,
      }));
      view.dispatch(setDiagnostics(view.state, diags));
    },
    setMarks(json) {
      const marks = JSON.parse(json);
      const effects = [setMarksEffect.of(marks)];
      const hl = marks.highlight || 0;
      if (hl && hl !== lastHighlight && hl <= view.state.doc.lines) {
        effects.push(EditorView.scrollIntoView(view.state.doc.line(hl).from, { y: 'center' }));
      }
      lastHighlight = hl;
      view.dispatch({ effects });
    },
    /** Scroll `line` into view even when it is already the highlighted one. */
    reveal(line) {
      if (line >= 1 && line <= view.state.doc.lines) {
        view.dispatch({ effects: EditorView.scrollIntoView(view.state.doc.line(line).from, { y: 'center' }) });
      }
    },
    setOnChange(f) { onChange = typeof f === 'function' ? f : () => {}; },
    setReadOnly(ro) {
      view.dispatch({ effects: readOnly.reconfigure(readOnlyExtension(!!ro)) });
    },
    focus: () => view.focus(),
    destroy() { view.destroy(); delete host.cfpEditor; },
  };
  host.cfpEditor = handle;
  return handle;
}

globalThis.cfpEditor = { create };
