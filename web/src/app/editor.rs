//! Code editors: a `<textarea>` over a highlighted `<div>` overlay of the same metrics
//! (monospace, fixed 20 px lines, no wrapping), a gutter with line numbers and diagnostic
//! markers, and the diagnostics listed under the editor.

use super::messages::Diagnostic;
use crate::protocol::DiagSeverity;
use web_sys::{Element, HtmlTextAreaElement};
use yew::prelude::*;

/// Pixel height of one editor line (must match `--line-h` in `style.css`).
pub const LINE_HEIGHT_PX: i32 = 20;

/// Above this many characters the overlay is plain text (highlighting is per keystroke).
const HIGHLIGHT_LIMIT: usize = 60_000;

/// Which language an editor holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// The Java-like program language.
    Java,
    /// The spec grammar language.
    Spec,
}

/// A highlighting class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    /// Plain text.
    Plain,
    /// Keyword (`class`, `if`, `wildcard`, ...).
    Keyword,
    /// Comment.
    Comment,
    /// String or char literal.
    Str,
    /// Number.
    Number,
    /// Spec terminal (`$1.lock()`).
    Terminal,
    /// Spec nonterminal or `ε`.
    Nonterminal,
    /// Operator of the spec language (`->`, `|`, `;`).
    Punct,
}

impl Tok {
    fn class(self) -> Option<&'static str> {
        match self {
            Tok::Plain => None,
            Tok::Keyword => Some("tk-kw"),
            Tok::Comment => Some("tk-com"),
            Tok::Str => Some("tk-str"),
            Tok::Number => Some("tk-num"),
            Tok::Terminal => Some("tk-term"),
            Tok::Nonterminal => Some("tk-nt"),
            Tok::Punct => Some("tk-punct"),
        }
    }
}

const JAVA_KEYWORDS: &[&str] = &[
    "abstract",
    "boolean",
    "break",
    "case",
    "catch",
    "char",
    "class",
    "continue",
    "default",
    "do",
    "else",
    "extends",
    "false",
    "final",
    "finally",
    "for",
    "if",
    "implements",
    "int",
    "interface",
    "long",
    "new",
    "null",
    "private",
    "protected",
    "public",
    "return",
    "static",
    "super",
    "switch",
    "this",
    "throw",
    "throws",
    "true",
    "try",
    "void",
    "while",
    "String",
];

/// Splits `text` into lines of highlighted tokens. Block comments may span lines.
pub fn highlight(text: &str, lang: Lang) -> Vec<Vec<(Tok, String)>> {
    let mut lines = Vec::new();
    let mut in_block = false;
    for line in text.split('\n') {
        let mut toks: Vec<(Tok, String)> = Vec::new();
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        let push = |toks: &mut Vec<(Tok, String)>, t: Tok, s: String| match toks.last_mut() {
            Some((lt, ls)) if *lt == t => ls.push_str(&s),
            _ => toks.push((t, s)),
        };
        while i < chars.len() {
            let c = chars[i];
            let rest: String = chars[i..].iter().take(2).collect();
            if in_block {
                let start = i;
                while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                    i += 1;
                }
                if i < chars.len() {
                    i += 2;
                    in_block = false;
                }
                push(&mut toks, Tok::Comment, chars[start..i].iter().collect());
            } else if rest == "//" {
                push(&mut toks, Tok::Comment, chars[i..].iter().collect());
                i = chars.len();
            } else if rest == "/*" {
                in_block = true;
                push(&mut toks, Tok::Comment, "/*".to_owned());
                i += 2;
            } else if c == '"' || c == '\'' {
                let start = i;
                i += 1;
                while i < chars.len() && chars[i] != c {
                    if chars[i] == '\\' {
                        i += 1;
                    }
                    i += 1;
                }
                i = (i + 1).min(chars.len());
                push(&mut toks, Tok::Str, chars[start..i].iter().collect());
            } else if c.is_ascii_digit() {
                let start = i;
                while i < chars.len() && chars[i].is_ascii_alphanumeric() {
                    i += 1;
                }
                push(&mut toks, Tok::Number, chars[start..i].iter().collect());
            } else if lang == Lang::Spec && c == '$' {
                // A terminal: `$1.name(args)`.
                let start = i;
                while i < chars.len() && !chars[i].is_whitespace() && chars[i] != ';' {
                    let ch = chars[i];
                    i += 1;
                    if ch == ')' {
                        break;
                    }
                }
                push(&mut toks, Tok::Terminal, chars[start..i].iter().collect());
            } else if c.is_alphabetic() || c == '_' {
                let start = i;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                let tok = match lang {
                    Lang::Java if JAVA_KEYWORDS.contains(&word.as_str()) => Tok::Keyword,
                    Lang::Spec if word == "wildcard" => Tok::Keyword,
                    Lang::Spec if word == "ε" => Tok::Nonterminal,
                    Lang::Spec => Tok::Nonterminal,
                    Lang::Java => Tok::Plain,
                };
                push(&mut toks, tok, word);
            } else if lang == Lang::Spec && (rest == "->" || c == '|' || c == ';') {
                let n = if rest == "->" { 2 } else { 1 };
                push(&mut toks, Tok::Punct, chars[i..i + n].iter().collect());
                i += n;
            } else {
                push(&mut toks, Tok::Plain, c.to_string());
                i += 1;
            }
        }
        lines.push(toks);
    }
    lines
}

/// Properties of [`Editor`].
#[derive(Properties, PartialEq)]
pub struct EditorProps {
    /// The text.
    pub value: AttrValue,
    /// Called with the new text on every input.
    pub on_change: Callback<String>,
    /// The language (for highlighting).
    pub lang: Lang,
    /// `data-testid` of the textarea.
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
    /// The text cannot be edited (embed mode's read-only option).
    #[prop_or_default]
    pub read_only: bool,
}

/// A highlighted code editor with inline diagnostics.
#[function_component(Editor)]
pub fn editor(props: &EditorProps) -> Html {
    let textarea = use_node_ref();
    let overlay = use_node_ref();
    let gutter = use_node_ref();

    let onscroll = {
        let (overlay, gutter) = (overlay.clone(), gutter.clone());
        Callback::from(move |e: Event| {
            if let Some(t) = e.target_dyn_into::<Element>() {
                if let Some(o) = overlay.cast::<Element>() {
                    o.set_scroll_top(t.scroll_top());
                    o.set_scroll_left(t.scroll_left());
                }
                if let Some(g) = gutter.cast::<Element>() {
                    g.set_scroll_top(t.scroll_top());
                }
            }
        })
    };
    let oninput = {
        let cb = props.on_change.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(t) = e.target_dyn_into::<HtmlTextAreaElement>() {
                cb.emit(t.value());
            }
        })
    };
    {
        let textarea = textarea.clone();
        use_effect_with(props.highlight, move |h| {
            if let (Some((line, _)), Some(t)) = (h, textarea.cast::<HtmlTextAreaElement>()) {
                let top = (*line as i32 - 3).max(0) * LINE_HEIGHT_PX;
                t.set_scroll_top(top);
                // Scroll events do not fire synchronously; dispatching keeps overlay in sync.
                if let Ok(ev) = web_sys::Event::new("scroll") {
                    let _ = t.dispatch_event(&ev);
                }
            }
        });
    }

    let text = props.value.as_str();
    let hl_line = props.highlight.map(|(l, _)| l);
    let is_error = |d: &&Diagnostic| d.severity == DiagSeverity::Error;
    let diag_lines = line_messages(props.diagnostics.iter().filter(is_error));
    let warn_lines = line_messages(props.diagnostics.iter().filter(|d| !is_error(d)));
    let line_count = text.split('\n').count();
    let overlay_lines: Html = if text.len() > HIGHLIGHT_LIMIT {
        text.split('\n')
            .enumerate()
            .map(|(i, l)| line_div(i as u32 + 1, hl_line, &diag_lines, html! { l.to_owned() }))
            .collect()
    } else {
        highlight(text, props.lang)
            .into_iter()
            .enumerate()
            .map(|(i, toks)| {
                let content: Html = toks
                    .into_iter()
                    .map(|(t, s)| match t.class() {
                        Some(c) => html! { <span class={c}>{ s }</span> },
                        None => html! { s },
                    })
                    .collect();
                line_div(i as u32 + 1, hl_line, &diag_lines, content)
            })
            .collect()
    };
    let gutter_lines = (1..=line_count as u32).map(|n| {
        let diag = diag_lines.get(&n);
        let warn = warn_lines.get(&n).filter(|_| diag.is_none());
        let class = classes!(
            "gutter-line",
            diag.map(|_| "has-diag"),
            warn.map(|_| "has-warn")
        );
        html! {
            <div class={class} title={diag.or(warn).cloned()}>
                if diag.is_some() { <span class="diag-marker" data-testid="diag-marker">{ "●" }</span> }
                if warn.is_some() { <span class="warn-marker" data-testid="warn-marker">{ "▲" }</span> }
                { n }
            </div>
        }
    });
    let diag_list = props.diagnostics.iter().map(|d| {
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
    });
    html! {
        <section class="editor-panel">
            <h2>{ props.title.clone() }</h2>
            <div class="editor">
                <div class="gutter" ref={gutter} aria-hidden="true">{ for gutter_lines }</div>
                <div class="code">
                    <div class="overlay" ref={overlay} aria-hidden="true">{ overlay_lines }</div>
                    <textarea ref={textarea} data-testid={props.testid.clone()}
                        aria-label={format!("{} editor", props.title)}
                        spellcheck="false" wrap="off" autocomplete="off"
                        readonly={props.read_only} aria-readonly={props.read_only.to_string()}
                        value={props.value.clone()} {oninput} {onscroll} />
                </div>
            </div>
            if !props.diagnostics.is_empty() {
                <ul class="diagnostics">{ for diag_list }</ul>
            }
        </section>
    }
}

/// The messages per line (`line:col: message`, several joined by newlines).
fn line_messages<'a>(
    diagnostics: impl Iterator<Item = &'a Diagnostic>,
) -> std::collections::BTreeMap<u32, String> {
    let mut m = std::collections::BTreeMap::new();
    for d in diagnostics {
        let e: &mut String = m.entry(d.line.max(1)).or_default();
        if !e.is_empty() {
            e.push('\n');
        }
        e.push_str(&format!("{}:{}: {}", d.line, d.col, d.message));
    }
    m
}

fn line_div(
    n: u32,
    hl: Option<u32>,
    diags: &std::collections::BTreeMap<u32, String>,
    content: Html,
) -> Html {
    let diag = diags.get(&n);
    let class = classes!(
        "line",
        (hl == Some(n)).then_some("hl-line"),
        diag.map(|_| "diag-line")
    );
    html! {
        <div class={class} data-line={n.to_string()}>
            { content }
            if let Some(msg) = diag {
                <span class="inline-diag">{ format!("  ◀ {}", msg.lines().next().unwrap_or_default()) }</span>
            }
            { "\u{200b}" }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_keywords_comments_and_strings() {
        let lines = highlight(
            "class A { // hi\n  /* a\n b */ int x = \"s\"; }",
            Lang::Java,
        );
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0][0], (Tok::Keyword, "class".to_owned()));
        assert!(lines[0].contains(&(Tok::Comment, "// hi".to_owned())));
        assert_eq!(lines[1].last().map(|t| t.0), Some(Tok::Comment));
        assert_eq!(lines[2][0], (Tok::Comment, " b */".to_owned()));
        assert!(lines[2].contains(&(Tok::Str, "\"s\"".to_owned())));
        // Highlighting never changes the text.
        let joined: Vec<String> = lines
            .iter()
            .map(|l| l.iter().map(|t| t.1.as_str()).collect())
            .collect();
        assert_eq!(
            joined.join("\n"),
            "class A { // hi\n  /* a\n b */ int x = \"s\"; }"
        );
    }

    #[test]
    fn spec_terminals() {
        let lines = highlight("S -> $1.lock() S $1.unlock() S | ε;", Lang::Spec);
        assert!(lines[0].contains(&(Tok::Terminal, "$1.lock()".to_owned())));
        assert!(lines[0].contains(&(Tok::Punct, "->".to_owned())));
    }
}
