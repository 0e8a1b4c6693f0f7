//! Code editors: CodeMirror 6 (`web/js/editor.js`, bundled into `dist/editor.js`, global
//! `cfpEditor`) bound through wasm-bindgen. The page owns the text (it arrives as the
//! `value` prop and leaves through `on_change`); CodeMirror owns editing: Java and spec
//! highlighting, auto-indent, Tab indents (Escape then Tab leaves), bracket matching and
//! closing, search, comment toggle, diagnostics as squiggles and gutter markers, and the
//! gutter marks of a violation (the offending call, the exit).
//!
//! When the bundle did not load, the editor is a plain `<textarea>` with a notice, so the
//! page stays usable.

use super::messages::Diagnostic;
use crate::protocol::DiagSeverity;
use serde::Serialize;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::{Element, HtmlTextAreaElement};
use yew::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// A CodeMirror editor made by `cfpEditor.create`.
    type EditorHandle;

    #[wasm_bindgen(catch, js_namespace = cfpEditor, js_name = create)]
    fn create_editor(host: &Element, options: &JsValue) -> Result<EditorHandle, JsValue>;
    #[wasm_bindgen(method, js_name = setText)]
    fn set_text(this: &EditorHandle, text: &str);
    #[wasm_bindgen(method, js_name = setDiagnostics)]
    fn set_diagnostics(this: &EditorHandle, json: &str);
    #[wasm_bindgen(method, js_name = setMarks)]
    fn set_marks(this: &EditorHandle, json: &str);
    #[wasm_bindgen(method)]
    fn reveal(this: &EditorHandle, line: u32);
    #[wasm_bindgen(method, js_name = setReadOnly)]
    fn set_read_only(this: &EditorHandle, read_only: bool);
    #[wasm_bindgen(method)]
    fn destroy(this: &EditorHandle);
}

/// Which language an editor holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// The Java-like program language.
    Java,
    /// The spec grammar language.
    Spec,
}

impl Lang {
    fn id(self) -> &'static str {
        match self {
            Lang::Java => "java",
            Lang::Spec => "spec",
        }
    }
}

/// The gutter marks of a violation: the offending API call and the exit of the method
/// that ends holding the protocol open.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ViolationMarks {
    /// The offending call's line (0: none).
    pub call_line: u32,
    /// The exit's line (0: none).
    pub exit_line: u32,
    /// The violation's sentence (the markers' tooltip).
    pub text: String,
}

/// Properties of [`Editor`].
#[derive(Properties, PartialEq)]
pub struct EditorProps {
    /// The text.
    pub value: AttrValue,
    /// Called with the new text on every edit.
    pub on_change: Callback<String>,
    /// The language (for highlighting, indentation and comments).
    pub lang: Lang,
    /// `data-testid` of the editor's host element.
    pub testid: AttrValue,
    /// The title above the editor.
    pub title: AttrValue,
    /// Diagnostics of this file.
    #[prop_or_default]
    pub diagnostics: Vec<Diagnostic>,
    /// A line to highlight and scroll to (1-based), with a counter so re-clicking the same
    /// line scrolls again.
    #[prop_or_default]
    pub highlight: Option<(u32, u32)>,
    /// The violation's marks in the gutter.
    #[prop_or_default]
    pub marks: ViolationMarks,
    /// The text cannot be edited (embed mode's read-only option).
    #[prop_or_default]
    pub read_only: bool,
    /// Its diagnostics are listed above the text, not below.
    #[prop_or_default]
    pub diagnostics_first: bool,
}

/// A diagnostic as `editor.js` takes it.
#[derive(Serialize)]
struct JsDiagnostic<'a> {
    line: u32,
    col: u32,
    severity: &'static str,
    message: &'a str,
}

/// The marks as `editor.js` takes them.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsMarks {
    highlight: u32,
    call: u32,
    exit: u32,
    call_title: String,
    exit_title: String,
}

fn diagnostics_json(diagnostics: &[Diagnostic]) -> String {
    let list: Vec<JsDiagnostic> = diagnostics
        .iter()
        .map(|d| JsDiagnostic {
            line: d.line.max(1),
            col: d.col.max(1),
            severity: match d.severity {
                DiagSeverity::Error => "error",
                DiagSeverity::Warning => "warning",
            },
            message: &d.message,
        })
        .collect();
    serde_json::to_string(&list).unwrap_or_else(|_| "[]".to_owned())
}

fn marks_json(highlight: Option<(u32, u32)>, marks: &ViolationMarks) -> String {
    let m = JsMarks {
        highlight: highlight.map_or(0, |(l, _)| l),
        call: marks.call_line,
        exit: marks.exit_line,
        call_title: format!("line {}: {}", marks.call_line, marks.text),
        exit_title: format!(
            "line {}: the run leaves the protocol unfinished here",
            marks.exit_line
        ),
    };
    serde_json::to_string(&m).unwrap_or_else(|_| "{}".to_owned())
}

/// The live CodeMirror of one [`Editor`]: its handle and the change callback it calls
/// (which forwards to the latest `on_change`).
struct Live {
    handle: EditorHandle,
    _on_change: Closure<dyn FnMut(String)>,
}

/// A code editor with diagnostics listed under it.
#[function_component(Editor)]
pub fn editor(props: &EditorProps) -> Html {
    let host = use_node_ref();
    let live = use_mut_ref(|| None::<Live>);
    let failed = use_state(|| None::<String>);
    // The latest change callback, read by the closure CodeMirror holds.
    let on_change = use_mut_ref(|| props.on_change.clone());
    *on_change.borrow_mut() = props.on_change.clone();

    {
        // Create once; destroy on unmount.
        let (host, live, failed, on_change) = (
            host.clone(),
            live.clone(),
            failed.clone(),
            on_change.clone(),
        );
        let (lang, value, title, read_only) = (
            props.lang,
            props.value.clone(),
            props.title.clone(),
            props.read_only,
        );
        use_effect_with((), move |_| {
            if let Some(el) = host.cast::<Element>() {
                match mount(&el, lang, &value, &title, read_only, on_change) {
                    Ok(l) => *live.borrow_mut() = Some(l),
                    Err(e) => failed.set(Some(e)),
                }
            }
            move || {
                if let Some(l) = live.borrow_mut().take() {
                    l.handle.destroy();
                }
            }
        });
    }
    {
        let live = live.clone();
        use_effect_with(props.value.clone(), move |v| {
            if let Some(l) = live.borrow().as_ref() {
                l.handle.set_text(v);
            }
        });
    }
    {
        let live = live.clone();
        // After the text (effects run in order), so positions refer to the new text.
        use_effect_with(
            (props.value.clone(), props.diagnostics.clone()),
            move |(_, d)| {
                if let Some(l) = live.borrow().as_ref() {
                    l.handle.set_diagnostics(&diagnostics_json(d));
                }
            },
        );
    }
    {
        let live = live.clone();
        use_effect_with(
            (props.value.clone(), props.highlight, props.marks.clone()),
            move |(_, h, m)| {
                if let Some(l) = live.borrow().as_ref() {
                    l.handle.set_marks(&marks_json(*h, m));
                    if let Some((line, _)) = h {
                        l.handle.reveal(*line);
                    }
                }
            },
        );
    }
    {
        let live = live.clone();
        use_effect_with(props.read_only, move |ro| {
            if let Some(l) = live.borrow().as_ref() {
                l.handle.set_read_only(*ro);
            }
        });
    }

    let is_error = |d: &&Diagnostic| d.severity == DiagSeverity::Error;
    let diag_list: Vec<Html> = props
        .diagnostics
        .iter()
        .map(|d| {
            let (class, testid, label) = if is_error(&d) {
                ("diag", "diagnostic", "error")
            } else {
                ("diag warn", "diagnostic-warning", "warning")
            };
            html! {
                <li class={class} data-testid={testid} data-line={d.line.to_string()}>
                    <span class="diag-pos">{ format!("{}:{}", d.line, d.col) }</span>
                    { format!(" {label}: ") }{ d.message.clone() }
                </li>
            }
        })
        .collect();
    let fallback = failed.as_ref().map(|why| {
        let cb = props.on_change.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            if let Some(t) = e.target_dyn_into::<HtmlTextAreaElement>() {
                cb.emit(t.value());
            }
        });
        html! {
            <>
                <p class="notice small" data-testid="editor-fallback">
                    { format!("The code editor did not load ({why}); this is a plain text box.") }
                </p>
                <textarea class="plain-editor" data-testid={props.testid.clone()}
                    aria-label={format!("{} editor", props.title)}
                    spellcheck="false" wrap="off" autocomplete="off"
                    readonly={props.read_only} value={props.value.clone()} {oninput} />
            </>
        }
    });
    let has_fallback = fallback.is_some();
    html! {
        <section class="editor-panel">
            <h2>{ props.title.clone() }</h2>
            // A tall editor's errors go above it, where they are seen.
            if props.diagnostics_first && !props.diagnostics.is_empty() {
                <ul class="diagnostics">{ for diag_list.clone() }</ul>
            }
            { fallback.unwrap_or_default() }
            <div class="editor" ref={host} hidden={has_fallback}
                data-testid={(!has_fallback).then(|| props.testid.clone())}
                data-lang={props.lang.id()} />
            if !props.diagnostics_first && !props.diagnostics.is_empty() {
                <ul class="diagnostics">{ for diag_list }</ul>
            }
        </section>
    }
}

/// Create the CodeMirror in `el`.
fn mount(
    el: &Element,
    lang: Lang,
    value: &str,
    title: &str,
    read_only: bool,
    on_change: Rc<RefCell<Callback<String>>>,
) -> Result<Live, String> {
    let cb = Closure::<dyn FnMut(String)>::new(move |text: String| {
        let cb = on_change.borrow().clone();
        cb.emit(text);
    });
    let options = js_sys::Object::new();
    let set = |k: &str, v: &JsValue| js_sys::Reflect::set(&options, &JsValue::from_str(k), v);
    let ok = set("doc", &JsValue::from_str(value)).is_ok()
        && set("lang", &JsValue::from_str(lang.id())).is_ok()
        && set("label", &JsValue::from_str(&format!("{title} editor"))).is_ok()
        && set("readOnly", &JsValue::from_bool(read_only)).is_ok()
        && set("onChange", cb.as_ref()).is_ok();
    if !ok {
        return Err("cannot pass its options".to_owned());
    }
    let handle = create_editor(el, &options).map_err(|e| {
        e.as_string()
            .or_else(|| {
                js_sys::Reflect::get(&e, &JsValue::from_str("message"))
                    .ok()
                    .and_then(|m| m.as_string())
            })
            .unwrap_or_else(|| "editor.js is missing".to_owned())
    })?;
    Ok(Live {
        handle,
        _on_change: cb,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::InputFile;

    #[test]
    fn diagnostics_reach_the_editor_with_their_severity() {
        let d = |line, col, severity| Diagnostic {
            file: InputFile::Program,
            line,
            col,
            message: "expected `;`".to_owned(),
            severity,
        };
        let json =
            diagnostics_json(&[d(3, 7, DiagSeverity::Error), d(0, 0, DiagSeverity::Warning)]);
        assert_eq!(
            json,
            r#"[{"line":3,"col":7,"severity":"error","message":"expected `;`"},{"line":1,"col":1,"severity":"warning","message":"expected `;`"}]"#
        );
    }

    #[test]
    fn marks_name_the_lines() {
        let m = ViolationMarks {
            call_line: 16,
            exit_line: 18,
            text: "`l.lock()` at line 16 is never released".to_owned(),
        };
        let json = marks_json(Some((9, 2)), &m);
        assert!(
            json.starts_with(r#"{"highlight":9,"call":16,"exit":18,"#),
            "{json}"
        );
        assert!(json.contains("line 16: `l.lock()` at line 16 is never released"));
    }
}
