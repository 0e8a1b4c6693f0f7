//! A violation told in the program's words: one row per source line its run executes
//! (on the program itself, so `return` statements and code the slice left out are there),
//! calls nested, loops folded with a count, each row with the values that decide its
//! branch and the protocol events it makes — "line 15 `if (amount > balance) {` amount =
//! 101, balance = 100 → line 16 `return false;`, the lock still held".
//!
//! Values come from the solver's model, which names the checked path's steps (the
//! counterexample's trace): the n-th time the story runs a line of a method is matched
//! with the n-th time the trace does, and a name on the line shows its latest value up to
//! that step. A line the slice left out has no values.

use super::program_run::{executed, Executed};
use super::types::{ReplayEdge, StoryRow, TraceLine};
use crate::ir::Program;
use cfp_syntax::SourceSet;
use std::collections::BTreeMap;

/// Longest loop pass folded (rows).
const MAX_PASS_ROWS: usize = 8;

/// Longest code quoted in a row (characters).
const MAX_CODE: usize = 100;

/// What the story needs of the counterexample.
pub(crate) struct Inputs<'a> {
    /// Its replay edges on `program`.
    pub replay: &'a [ReplayEdge],
    /// The checked path's trace (the model's steps).
    pub trace: &'a [TraceLine],
    /// The model's values (`step   7: amount` → `101`).
    pub values: &'a BTreeMap<String, String>,
    /// The event the summary blames (its index in the word), if any.
    pub blamed_event: Option<usize>,
    /// Where the run leaves the protocol unfinished (line, file), if it does.
    pub exit: Option<(u32, Option<&'a str>)>,
}

/// The story of a counterexample's run on `program` (empty when its edges do not fit).
pub(crate) fn story(program: &Program, sources: &SourceSet, inputs: &Inputs<'_>) -> Vec<StoryRow> {
    let Some(run) = executed(program, inputs.replay) else {
        return Vec::new();
    };
    let mut rows = rows(program, sources, &run, inputs.blamed_event);
    if rows.is_empty() {
        return rows;
    }
    let base = rows.iter().map(|r| r.depth).min().unwrap_or(0);
    for r in &mut rows {
        r.depth -= base;
    }
    // Object references are numbers in the model: they tell a reader nothing.
    let is_ref = |method: &str, name: &str| {
        let global = program
            .globals
            .iter()
            .find(|g| g.name == name)
            .map(|g| g.sort);
        let local = || {
            program
                .methods
                .iter()
                .find(|m| m.name == method)
                .and_then(|m| m.vars.iter().find(|v| v.name == name))
                .map(|v| v.sort)
        };
        global.or_else(local) == Some(crate::ir::Sort::Ref)
    };
    add_values(&mut rows, inputs.trace, inputs.values, &is_ref);
    if let Some((line, file)) = inputs.exit {
        if let Some(r) = rows
            .iter_mut()
            .rev()
            .find(|r| r.line == line && (file.is_none() || r.file.as_deref() == file))
        {
            r.exit = true;
        }
    }
    fold_loops(rows)
}

/// One row per run of consecutive statements on one line of one frame; model code is left
/// out (its events go to the row that called into it).
fn rows(
    program: &Program,
    sources: &SourceSet,
    run: &[Executed],
    blamed_event: Option<usize>,
) -> Vec<StoryRow> {
    let mut out: Vec<StoryRow> = Vec::new();
    // The frame and line of the last row.
    let mut last: Option<(usize, usize, u32)> = None;
    let mut events = 0usize;
    for e in run {
        // The synthetic root (static defaults, class initialisation, the entry call) is
        // no line of the program.
        if e.method == program.root {
            continue;
        }
        let located = sources
            .locate(e.span.start as usize)
            .filter(|_| e.span.end > 0);
        let in_model = located
            .and_then(|(i, _)| sources.files().get(i))
            .is_some_and(|f| f.name.starts_with("<model:"));
        let event = e
            .terminal
            .and_then(|t| program.terminals.get(t.index()))
            .map(|t| t.to_string());
        let blamed = e.event && blamed_event == Some(events);
        if e.event {
            events += 1;
        }
        let Some((file, lc)) = located.filter(|_| !in_model) else {
            // Model code, or no line: its event is the calling row's.
            if let (Some(ev), Some(row)) = (event, out.last_mut()) {
                row.events.push(ev);
                if blamed {
                    row.call = true;
                }
            }
            continue;
        };
        let key = (e.frame, file, lc.line);
        if last != Some(key) {
            last = Some(key);
            let code: String = sources
                .file_text(file)
                .lines()
                .nth(lc.line.saturating_sub(1) as usize)
                .map(str::trim)
                .unwrap_or("")
                .chars()
                .take(MAX_CODE)
                .collect();
            out.push(StoryRow {
                depth: u32::try_from(e.depth).unwrap_or(u32::MAX),
                file: sources
                    .is_multi()
                    .then(|| sources.files().get(file).map(|f| f.name.clone()))
                    .flatten(),
                line: lc.line,
                method: program
                    .method(e.method)
                    .map(|m| m.name.clone())
                    .unwrap_or_default(),
                code,
                ..StoryRow::default()
            });
        }
        if let Some(row) = out.last_mut() {
            row.returns |= e.leave;
            if let Some(ev) = event {
                row.events.push(ev);
            }
            if blamed {
                row.call = true;
            }
        }
    }
    out
}

/// Values of each row's names, from the model's values at the matching trace step.
fn add_values(
    rows: &mut [StoryRow],
    trace: &[TraceLine],
    values: &BTreeMap<String, String>,
    is_ref: &dyn Fn(&str, &str) -> bool,
) {
    // The trace's runs of one line of one method: (method, line) → last step of each run.
    let mut trace_runs: BTreeMap<(&str, u32), Vec<usize>> = BTreeMap::new();
    let mut prev: Option<(&str, u32, usize)> = None;
    for (k, t) in trace.iter().enumerate() {
        if t.line == 0 || t.text.starts_with("return from ") {
            prev = None;
            continue;
        }
        let key = (t.method.as_str(), t.line, t.depth);
        let runs = trace_runs.entry((key.0, key.1)).or_default();
        if prev == Some(key) {
            if let Some(last) = runs.last_mut() {
                *last = k;
            }
        } else {
            runs.push(k);
        }
        prev = Some(key);
    }
    // The model's values: name → [(step, value)], in step order.
    let mut by_name: BTreeMap<&str, Vec<(usize, &str)>> = BTreeMap::new();
    for (key, value) in values {
        let Some((step, name)) = key
            .strip_prefix("step ")
            .and_then(|rest| rest.split_once(": "))
        else {
            continue;
        };
        let Ok(step) = step.trim().parse::<usize>() else {
            continue;
        };
        // Checker temporaries and whole field arrays say nothing a reader can use.
        if name.starts_with('%') || value.contains('[') {
            continue;
        }
        by_name
            .entry(name)
            .or_default()
            .push((step, value.as_str()));
    }
    for list in by_name.values_mut() {
        list.sort_unstable();
    }
    let mut seen: BTreeMap<(String, u32), usize> = BTreeMap::new();
    for row in rows.iter_mut() {
        let n = seen.entry((row.method.clone(), row.line)).or_default();
        let occurrence = *n;
        *n += 1;
        let Some(&step) = trace_runs
            .get(&(row.method.as_str(), row.line))
            .and_then(|runs| runs.get(occurrence))
        else {
            continue;
        };
        for ident in names_read(&row.code) {
            let value = by_name
                .iter()
                .filter(|(name, _)| {
                    **name == ident
                        || name
                            .rsplit_once('.')
                            .is_some_and(|(owner, last)| last == ident && owner != "this")
                })
                .filter(|(name, _)| !is_ref(&row.method, name))
                .filter_map(|(_, list)| list.iter().rev().find(|(s, _)| *s <= step))
                .max_by_key(|(s, _)| *s);
            if let Some((_, v)) = value {
                let text = format!("{ident} = {v}");
                if !row.values.contains(&text) {
                    row.values.push(text);
                }
            }
        }
    }
}

/// The names a line of code reads: identifiers that are not keywords, not method names
/// (followed by `(`) and not types (capitalised), in order, once each.
fn names_read(code: &str) -> Vec<String> {
    const KEYWORDS: &[&str] = &[
        "if",
        "else",
        "while",
        "for",
        "do",
        "return",
        "new",
        "this",
        "super",
        "true",
        "false",
        "null",
        "int",
        "long",
        "short",
        "byte",
        "char",
        "boolean",
        "float",
        "double",
        "void",
        "final",
        "static",
        "var",
        "instanceof",
        "switch",
        "case",
        "default",
        "break",
        "continue",
        "throw",
        "try",
        "catch",
        "finally",
        "synchronized",
        "public",
        "private",
        "protected",
        "class",
        "assert",
    ];
    let code = code.split("//").next().unwrap_or(code);
    let chars: Vec<char> = code.chars().collect();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    let mut in_string = false;
    while i < chars.len() {
        let c = chars[i];
        if c == '"' {
            in_string = !in_string;
            i += 1;
            continue;
        }
        if in_string || !(c.is_alphabetic() || c == '_') {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
            i += 1;
        }
        let word: String = chars[start..i].iter().collect();
        let next = chars[i..].iter().find(|c| !c.is_whitespace());
        let called = next == Some(&'(');
        let typed = word.chars().next().is_some_and(char::is_uppercase);
        if !called && !typed && !KEYWORDS.contains(&word.as_str()) && !out.contains(&word) {
            out.push(word);
        }
    }
    out
}

/// Consecutive passes of a loop (the same rows, with the same events, at the same depth)
/// become one pass with a count.
fn fold_loops(rows: Vec<StoryRow>) -> Vec<StoryRow> {
    let key = |r: &StoryRow| {
        (
            r.depth,
            r.method.clone(),
            r.line,
            r.events.clone(),
            r.call,
            r.exit,
        )
    };
    let mut out = Vec::with_capacity(rows.len());
    let mut i = 0;
    while i < rows.len() {
        let mut folded = false;
        for k in 1..=MAX_PASS_ROWS.min((rows.len() - i) / 2) {
            let pass = &rows[i..i + k];
            if pass.iter().any(|r| r.depth < rows[i].depth) {
                break;
            }
            let same = |j: usize| (0..k).all(|d| key(&rows[j + d]) == key(&pass[d]));
            let mut times = 1;
            while i + (times + 1) * k <= rows.len() && same(i + times * k) {
                times += 1;
            }
            if times >= 2 {
                let mut first = pass.to_vec();
                first[0].times = u32::try_from(times).unwrap_or(u32::MAX);
                first[0].rows = u32::try_from(k).unwrap_or(u32::MAX);
                out.extend(first);
                i += times * k;
                folded = true;
                break;
            }
        }
        if !folded {
            out.push(rows[i].clone());
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(depth: u32, line: u32, events: &[&str]) -> StoryRow {
        StoryRow {
            depth,
            line,
            method: "M.m".into(),
            events: events.iter().map(|e| (*e).to_owned()).collect(),
            ..StoryRow::default()
        }
    }

    #[test]
    fn names_read_skips_calls_types_keywords_and_strings() {
        assert_eq!(
            names_read("if (amount > balance && lock.isHeld(\"x y\")) { // n"),
            ["amount", "balance", "lock"]
        );
        assert_eq!(names_read("Foo f = new Foo(count);"), ["f", "count"]);
    }

    #[test]
    fn loop_passes_fold_with_their_count() {
        let rows = vec![
            row(0, 3, &[]),
            row(0, 4, &[]),
            row(0, 5, &["$1.lock()"]),
            row(0, 4, &[]),
            row(0, 5, &["$1.lock()"]),
            row(0, 4, &[]),
            row(0, 5, &["$1.lock()"]),
            row(0, 7, &[]),
        ];
        let folded = fold_loops(rows);
        let lines: Vec<(u32, u32, u32)> =
            folded.iter().map(|r| (r.line, r.times, r.rows)).collect();
        assert_eq!(lines, [(3, 0, 0), (4, 3, 2), (5, 0, 0), (7, 0, 0)]);
    }

    #[test]
    fn a_pass_with_other_events_is_not_folded() {
        let rows = vec![row(0, 5, &["$1.lock()"]), row(0, 5, &["$1.unlock()"])];
        assert_eq!(fold_loops(rows).len(), 2);
    }

    #[test]
    fn values_come_from_the_matching_trace_step() {
        let t = |line: u32, method: &str| TraceLine {
            file: None,
            line,
            text: "x".into(),
            depth: 1,
            method: method.into(),
        };
        let trace = vec![
            t(2, "B.w"),
            t(8, "B.w"),
            t(9, "B.w"),
            t(8, "B.w"),
            t(9, "B.w"),
        ];
        let values: BTreeMap<String, String> = [
            ("step   0: Bank.balance", "100"),
            ("step   1: amount", "7"),
            ("step   3: amount", "101"),
            ("step   3: %t1", "3"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        let mut rows = vec![
            StoryRow {
                line: 9,
                method: "B.w".into(),
                code: "if (amount > balance) {".into(),
                ..StoryRow::default()
            },
            StoryRow {
                line: 9,
                method: "B.w".into(),
                code: "if (amount > balance) {".into(),
                ..StoryRow::default()
            },
        ];
        add_values(&mut rows, &trace, &values, &|_, _| false);
        assert_eq!(rows[0].values, ["amount = 7", "balance = 100"]);
        assert_eq!(rows[1].values, ["amount = 101", "balance = 100"]);
    }
}
