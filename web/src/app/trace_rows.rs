//! The counterexample's trace at source level: consecutive checker steps of one source line
//! (same method and call depth) become one row showing that line as written, with the
//! checker's statements folded into a small note and a tooltip.

use super::editor_lines::EditorLines;
use super::messages::TraceLine;
use yew::prelude::*;

/// One row of the source-level trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceRow<'a> {
    /// 1-based source line (0: no position).
    pub line: u32,
    /// Call depth.
    pub depth: usize,
    /// The method.
    pub method: &'a str,
    /// The checker's statements of this row, in order.
    pub steps: Vec<&'a str>,
}

impl TraceRow<'_> {
    /// Whether the row makes an API call of the protocol.
    pub fn emits(&self) -> bool {
        self.steps.iter().any(|s| s.starts_with("emit"))
    }
}

/// Groups consecutive steps of the same line, depth and method (steps without a line stay
/// alone). Lines are the editor's (`lines`).
pub fn merge_steps<'a>(trace: &'a [TraceLine], lines: &EditorLines) -> Vec<TraceRow<'a>> {
    let mut rows: Vec<TraceRow> = Vec::new();
    for t in trace {
        // A line of a library model added to the program (`<model:…>`) is not a line of
        // the editor's text: the row shows its steps only.
        let line = lines.line(t.file.as_deref(), t.line);
        match rows.last_mut() {
            Some(r)
                if line > 0
                    && r.line == line
                    && r.depth == t.depth
                    && r.method == t.method.as_str() =>
            {
                r.steps.push(&t.text)
            }
            _ => rows.push(TraceRow {
                line,
                depth: t.depth,
                method: &t.method,
                steps: vec![&t.text],
            }),
        }
    }
    rows
}

/// The handlers of a row that shows `line` in the editor: a click, or Enter or Space
/// (nothing for line 0).
pub fn line_handlers(
    line: u32,
    on_line: &Callback<u32>,
) -> (Callback<MouseEvent>, Callback<KeyboardEvent>) {
    let show = {
        let cb = on_line.clone();
        move || {
            if line > 0 {
                cb.emit(line)
            }
        }
    };
    let onclick = {
        let show = show.clone();
        Callback::from(move |_: MouseEvent| show())
    };
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Enter" || e.key() == " " {
            e.prevent_default();
            show();
        }
    });
    (onclick, onkeydown)
}

/// One row: its source line as written (the checker's statements small beside it and as
/// tooltip), clickable and keyboard-reachable (Enter or Space shows the line).
pub fn trace_row(row: &TraceRow, source: &[&str], on_line: &Callback<u32>) -> Html {
    let line = row.line;
    let (onclick, onkeydown) = line_handlers(line, on_line);
    let indent = format!("padding-left: {}em", row.depth as f64 * 1.2);
    let written = (line as usize)
        .checked_sub(1)
        .and_then(|i| source.get(i))
        .map(|l| l.trim())
        .filter(|l| !l.is_empty());
    let ir = row.steps.join("; ");
    html! {
        <li class={classes!("trace-step", row.emits().then_some("emit"))}
            style={indent} {onclick} {onkeydown} tabindex="0" data-line={line.to_string()}
            data-steps={row.steps.len().to_string()} title={row.steps.join("\n")}>
            <span class="trace-line">{ if line > 0 { format!("L{line}") } else { "—".to_owned() } }</span>
            if let Some(w) = written {
                <code class="trace-src">{ w.to_owned() }</code>
                <span class="trace-ir muted small">{ format!("  {ir}") }</span>
            } else {
                <code>{ ir }</code>
            }
            if !row.method.is_empty() { <span class="muted small">{ format!("  ({})", row.method) }</span> }
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(line: u32, depth: usize, method: &str, text: &str) -> TraceLine {
        TraceLine {
            file: None,
            line,
            text: text.to_owned(),
            depth,
            method: method.to_owned(),
        }
    }

    #[test]
    fn steps_of_one_line_become_one_row() {
        let trace = [
            step(18, 1, "Main.main", "call Main.process(l, skip)"),
            step(8, 2, "Main.process", "assume l != null"),
            step(8, 2, "Main.process", "assume l == $1"),
            step(8, 2, "Main.process", "emit $1.lock()"),
            step(9, 2, "Main.process", "assume skip"),
            step(0, 2, "Main.process", "havoc x"),
            step(0, 2, "Main.process", "havoc y"),
            step(18, 1, "Main.main", "return from Main.process"),
        ];
        let rows = merge_steps(&trace, &EditorLines::new(""));
        let shape: Vec<(u32, usize, bool)> = rows
            .iter()
            .map(|r| (r.line, r.steps.len(), r.emits()))
            .collect();
        assert_eq!(
            shape,
            [
                (18, 1, false),
                (8, 3, true),
                (9, 1, false),
                (0, 1, false),
                (0, 1, false),
                (18, 1, false)
            ]
        );
    }
}
