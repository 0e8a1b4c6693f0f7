//! The violation's story: one row per source line the run executes (calls indented, loop
//! passes folded with a count), each with the values that decide it, the protocol events
//! it makes and the summary's marks. The default view of a violation; the checker's
//! steps are behind a toggle.

use super::editor_lines::EditorLines;
use cfp_core::check::StoryRow;
use yew::prelude::*;

/// The story as a list; a row shows its line in the editor when clicked (or on Enter or
/// Space).
pub fn story_view(rows: &[StoryRow], lines: &EditorLines, on_line: &Callback<u32>) -> Html {
    html! {
        <ol class="story" data-testid="story" aria-label="the run, line by line">
            { for rows.iter().map(|r| story_row(r, lines.line(r.file.as_deref(), r.line), on_line)) }
        </ol>
    }
}

fn story_row(r: &StoryRow, line: u32, on_line: &Callback<u32>) -> Html {
    let (onclick, onkeydown) = super::trace_rows::line_handlers(line, on_line);
    let indent = format!("padding-left: {}em", f64::from(r.depth) * 1.2);
    let marks: Vec<&str> = [
        (r.call, "← the summary's call"),
        (r.exit, "⏎ leaves the protocol unfinished"),
    ]
    .into_iter()
    .filter_map(|(on, text)| on.then_some(text))
    .collect();
    let at = match &r.file {
        Some(f) => format!("{f}:{}", r.line),
        None => format!("line {}", r.line),
    };
    html! {
        <>
            if r.times > 1 {
                <li class="story-loop muted small" style={indent.clone()} data-testid="story-loop">
                    { format!("↻ {} times: the next {} line(s)", r.times, r.rows) }
                </li>
            }
            <li class={classes!("story-row", r.call.then_some("mark-call"), r.exit.then_some("mark-exit"), (!r.events.is_empty()).then_some("emit"))}
                style={indent} {onclick} {onkeydown} tabindex="0" data-line={line.to_string()}
                title={format!("{at} ({})", r.method)}>
                <span class="story-at">{ at }</span>
                <code class="story-code">{ r.code.clone() }</code>
                if !r.values.is_empty() {
                    <span class="story-values">{ r.values.join(", ") }</span>
                }
                if !r.events.is_empty() {
                    <span class="story-events">{ format!("→ {}", r.events.join(" ")) }</span>
                }
                { for marks.iter().map(|m| html! { <span class="story-mark">{ *m }</span> }) }
            </li>
        </>
    }
}
