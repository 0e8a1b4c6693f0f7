//! Where a run that ends with the protocol unfinished leaves it, read from the run's
//! edges on the program (not its slice, which drops `return` statements and what does not
//! matter to the verdict).
//!
//! The call left open is in some method. When that method (or a method it calls) could
//! have finished the protocol, the culprit is where it returns: its `return` statement
//! ([`Stmt::Leave`]), or its last statement when it falls off its end — "`Bank.withdraw`
//! returns at line 10 (`return false`)". Otherwise the protocol is meant to be finished
//! elsewhere (a lifecycle's `onStop`), and the culprit is where the program ends: the last
//! statement of the outermost method of the run — "the program ends at line 67 (`return`)".

use crate::check::program_run::executed;
use crate::check::types::{ReplayEdge, ViolationSummary};
use crate::ir::{Edge, MethodId, Program};
use cfp_syntax::{SourceSet, Span};
use std::collections::BTreeSet;

/// The methods `m` may call (itself included).
fn reach(program: &Program, m: MethodId) -> BTreeSet<MethodId> {
    let mut seen = BTreeSet::from([m]);
    let mut todo = vec![m];
    while let Some(m) = todo.pop() {
        let Some(cfa) = program.method(m) else {
            continue;
        };
        for (_, _, e) in cfa.edges() {
            if let Edge::Call { callee, .. } = e {
                if seen.insert(*callee) {
                    todo.push(*callee);
                }
            }
        }
    }
    seen
}

/// Whether a method in `methods` has an event named in `names`.
fn emits_any(program: &Program, methods: &BTreeSet<MethodId>, names: &[String]) -> bool {
    methods
        .iter()
        .filter_map(|m| program.method(*m))
        .any(|cfa| {
            cfa.edges().any(|(_, _, e)| match e {
                Edge::Api { terminal, .. } => program
                    .terminals
                    .get(terminal.index())
                    .is_some_and(|t| names.contains(&t.to_string())),
                _ => false,
            })
        })
}

/// Names the exit of a run that ends with the protocol unfinished in `summary` (its
/// sentence's ending and `exit_line`): the run is `replay` on `program`, the call left
/// open is event number `opened` of the word, and `missing` are the events the protocol
/// still needs. Leaves `summary` as it is when the run does not fit.
pub(crate) fn name_exit(
    summary: &mut ViolationSummary,
    program: &Program,
    replay: &[ReplayEdge],
    opened: usize,
    missing: &[String],
    sources: &SourceSet,
) {
    let Some(run) = executed(program, replay) else {
        return;
    };
    let in_model = |span: Span| {
        sources
            .file_of(span.start as usize)
            .and_then(|i| sources.files().get(i))
            .is_some_and(|f| f.name.starts_with("<model:"))
    };
    let Some(open_at) = run
        .iter()
        .enumerate()
        .filter(|(_, e)| e.event)
        .nth(opened)
        .map(|(i, _)| i)
    else {
        return;
    };
    // The frame of the call left open: the nearest one in the program's own code.
    let mut k = open_at;
    while in_model(run[k].span) {
        let depth = run[k].depth;
        match (0..k).rev().find(|&j| run[j].depth < depth) {
            Some(j) => k = j,
            None => break,
        }
    }
    let open = run[k];
    let after = &run[open_at..];
    let (exit, returns) = if emits_any(program, &reach(program, open.method), missing) {
        // The method could have finished it: where this activation is left.
        let last = after
            .iter()
            .rev()
            .find(|e| e.frame == open.frame && !in_model(e.span));
        (last.copied(), true)
    } else {
        // Finished elsewhere: where the outermost method of the run ends.
        let outer = after
            .iter()
            .filter(|e| !in_model(e.span))
            .map(|e| e.depth)
            .min();
        let last = after
            .iter()
            .rev()
            .find(|e| Some(e.depth) == outer && !in_model(e.span));
        (last.copied(), false)
    };
    let Some(exit) = exit else { return };
    let Some((file, lc)) = sources.locate(exit.span.start as usize) else {
        return;
    };
    let file_name = sources
        .is_multi()
        .then(|| sources.files().get(file).map(|f| f.name.clone()))
        .flatten();
    let at = super::at_line(
        file_name
            .as_deref()
            .filter(|f| Some(*f) != summary.call_file.as_deref()),
        lc.line,
    );
    let how = if exit.leave {
        let statement = sources
            .file_text(file)
            .lines()
            .nth(lc.line.saturating_sub(1) as usize)
            .map(|l| {
                let code = l.split("//").next().unwrap_or(l);
                code.trim().trim_end_matches(';').trim().to_owned()
            })
            .filter(|l| l.starts_with("return") && l.chars().count() <= super::MAX_EXCERPT);
        match statement {
            Some(s) => format!("at {at} (`{s}`)"),
            None => format!("at {at}"),
        }
    } else {
        format!("after {at}")
    };
    let method = program.method(exit.method).map(|m| m.name.clone());
    let ending = match (returns, method) {
        (true, Some(m)) => format!("{m} returns {how}"),
        _ => format!("the program ends {how}"),
    };
    if let Some(cut) = summary.text.rfind(": ") {
        summary.text = format!("{}: {ending} without it.", &summary.text[..cut]);
        summary.exit_line = lc.line;
        summary.exit_file = file_name.filter(|f| Some(f) != summary.call_file.as_ref());
    }
}
