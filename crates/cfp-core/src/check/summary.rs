//! A violation in the program's terms: one sentence from the word, the spec and the trace
//! ("`l.lock()` at line 8 (Main.process) is never followed by `$1.unlock()`: Main.process
//! returns after line 9 without it"), with the lines a reader should look at. In the
//! second case the call named is the one that opened what is never finished: the first
//! after the last point where the calls so far formed a complete word of the protocol.
//!
//! Two cases, decided on the spec grammar: a call the protocol does not allow at that
//! point (the word leaves the spec's prefixes there: [`cfp_grammar::viable_prefix`]), or a
//! run that ends before the protocol is complete (the whole word is a prefix of the spec;
//! what is missing is the shortest completion, [`cfp_grammar::shortest_completions`]).

mod exit;

pub(crate) use exit::name_exit;

use super::types::{TraceLine, ViolationSummary};
use cfp_grammar::earley::word_of_names;
use cfp_grammar::Grammar;
use cfp_syntax::SourceSet;

/// Longest completion searched for (terminals).
const MAX_COMPLETION: usize = 4;

/// Longest source excerpt quoted (characters).
const MAX_EXCERPT: usize = 60;

/// The summary of a violation with `word`, its `trace`, against `spec`; `sources` are the
/// program's files (quoted by line when known).
pub(super) fn summarize(
    word: &[String],
    trace: &[TraceLine],
    spec: &Grammar,
    sources: Option<&SourceSet>,
) -> ViolationSummary {
    // The steps that emit the word's symbols, in order (a step may emit several).
    let events: Vec<usize> = trace
        .iter()
        .enumerate()
        .flat_map(|(i, t)| {
            let n = t
                .text
                .split("; ")
                .filter(|p| p.starts_with("emit "))
                .count();
            std::iter::repeat_n(i, n)
        })
        .collect();
    let names: Vec<&str> = word.iter().map(String::as_str).collect();
    let terms = word_of_names(spec, &names);
    let (Some(terms), true) = (terms, events.len() == word.len()) else {
        return ViolationSummary {
            text: format!(
                "The program can make the calls `{}`, which the protocol does not allow.",
                word.join(" ")
            ),
            ..ViolationSummary::default()
        };
    };
    let quote = |step: &TraceLine| -> String {
        let line = sources
            .and_then(|s| {
                let file = match &step.file {
                    Some(name) => s.files().iter().position(|f| &f.name == name)?,
                    None => 0,
                };
                s.file_text(file)
                    .lines()
                    .nth(step.line.checked_sub(1)? as usize)
            })
            .map(|l| l.trim().trim_end_matches(';').trim())
            .filter(|l| !l.is_empty());
        match line {
            Some(l) if l.chars().count() <= MAX_EXCERPT => format!("`{l}`"),
            Some(l) => format!("`{}…`", l.chars().take(MAX_EXCERPT).collect::<String>()),
            None => "the call".to_owned(),
        }
    };
    let viable = cfp_grammar::viable_prefix(spec, &terms);
    if viable < word.len() {
        let step = &trace[in_program(trace, events[viable])];
        let after = if viable == 0 {
            "as the first call".to_owned()
        } else {
            let from = viable.saturating_sub(3);
            let dots = if from > 0 { "… " } else { "" };
            format!("after `{dots}{}`", word[from..viable].join(" "))
        };
        return ViolationSummary {
            text: format!(
                "{} at {} ({}) calls `{}`, which the protocol does not allow {after}.",
                quote(step),
                at_line(step.file.as_deref(), step.line),
                step.method,
                word[viable]
            ),
            call_line: step.line,
            call_file: step.file.clone(),
            method: step.method.clone(),
            exit_line: 0,
            exit_file: None,
        };
    }
    let need = missing(spec, &terms).map(|w| w.join(" "));
    let need_text = need.map_or("the calls the protocol still needs".to_owned(), |n| {
        format!("`{n}`")
    });
    let Some(&last) = events.last() else {
        return ViolationSummary {
            text: format!("The program ends without any call, but the protocol needs {need_text}."),
            ..ViolationSummary::default()
        };
    };
    // The call that opened what is never finished: the first one after the last point
    // where the calls so far were a complete word of the protocol.
    let opened = opened(spec, &terms).map_or(last, |k| events[k]);
    let step = &trace[in_program(trace, opened)];
    // Where the method of the last call is left: its last step, then its return.
    let exit = trace[last..]
        .iter()
        .rev()
        .find(|t| {
            t.method == step.method
                && t.depth == step.depth
                && t.line > 0
                && !t.text.starts_with("return from ")
        })
        .map_or((step.file.as_deref(), step.line), |t| {
            (t.file.as_deref(), t.line)
        });
    // The exit is named by its line alone when it is in the call's file.
    let exit_at = at_line(exit.0.filter(|f| Some(*f) != step.file.as_deref()), exit.1);
    let returns = trace[last..]
        .iter()
        .any(|t| t.text == format!("return from {}", step.method));
    let ending = if returns {
        format!("{} returns after {exit_at}", step.method)
    } else {
        format!("the program ends after {exit_at}")
    };
    ViolationSummary {
        text: format!(
            "{} at {} ({}) is never followed by {need_text}: {ending} without it.",
            quote(step),
            at_line(step.file.as_deref(), step.line),
            step.method
        ),
        call_line: step.line,
        call_file: step.file.clone(),
        method: step.method.clone(),
        exit_line: exit.1,
        exit_file: exit
            .0
            .filter(|f| Some(*f) != step.file.as_deref())
            .map(str::to_owned),
    }
}

/// The shortest calls that would complete the protocol after `terms`, if any is short.
fn missing(spec: &Grammar, terms: &[cfp_grammar::TermId]) -> Option<Vec<String>> {
    cfp_grammar::shortest_completions(spec, terms, MAX_COMPLETION)
        .into_iter()
        .next()
        .map(|w| {
            w.iter()
                .map(|t| spec.terminal_name(*t).to_owned())
                .collect()
        })
}

/// The event left open in `terms`: the first one after the last point where the events
/// so far were a complete word of the protocol.
fn opened(spec: &Grammar, terms: &[cfp_grammar::TermId]) -> Option<usize> {
    (0..terms.len())
        .rev()
        .find(|&k| cfp_grammar::recognizes(spec, &terms[..k]))
}

/// The event the summary blames: the call out of place, or the one left unfinished.
pub(crate) fn blamed_event(word: &[String], spec: &Grammar) -> Option<usize> {
    let names: Vec<&str> = word.iter().map(String::as_str).collect();
    let terms = word_of_names(spec, &names)?;
    let viable = cfp_grammar::viable_prefix(spec, &terms);
    if viable < word.len() {
        Some(viable)
    } else {
        opened(spec, &terms)
    }
}

/// For a word that ends before the protocol is complete: the event left open and the
/// events still needed (`None` for a call out of place or a word the spec cannot read).
pub(crate) fn unfinished(word: &[String], spec: &Grammar) -> Option<(usize, Vec<String>)> {
    let names: Vec<&str> = word.iter().map(String::as_str).collect();
    let terms = word_of_names(spec, &names)?;
    if cfp_grammar::viable_prefix(spec, &terms) < word.len() {
        return None;
    }
    Some((
        opened(spec, &terms)?,
        missing(spec, &terms).unwrap_or_default(),
    ))
}

/// The step a reader should look at for step `i`: itself, or, when it runs in a library
/// model (`<model:…>`), the call in the program that led into the model.
fn in_program(trace: &[TraceLine], i: usize) -> usize {
    let is_model = |t: &TraceLine| t.file.as_deref().is_some_and(|f| f.starts_with("<model:"));
    let mut k = i;
    let mut depth = trace[i].depth;
    while is_model(&trace[k]) {
        // The nearest earlier step at a smaller depth: the call into this method.
        match (0..k).rev().find(|&j| trace[j].depth < depth) {
            Some(j) => {
                k = j;
                depth = trace[j].depth;
            }
            None => return i,
        }
    }
    k
}

/// "line 8", or "src/A.java:8" when the program has several files.
fn at_line(file: Option<&str>, line: u32) -> String {
    match file {
        Some(f) if !f.is_empty() => format!("{f}:{line}"),
        _ => format!("line {line}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cfp_grammar::Grammar;

    fn spec() -> Grammar {
        Grammar::from_spec(&cfp_syntax::parse_spec("S -> $1.lock() S $1.unlock() S | ε;").tree)
    }

    fn step(line: u32, text: &str, depth: usize, method: &str) -> TraceLine {
        TraceLine {
            file: None,
            line,
            text: text.into(),
            depth,
            method: method.into(),
        }
    }

    const SOURCE: &str = "class Main {\n  static void process(ReentrantLock l, boolean skip) {\n    l.lock();\n    if (skip) {\n      return;\n    }\n    l.unlock();\n  }\n}\n";

    #[test]
    fn a_lock_never_released_names_its_line_and_the_return() {
        let trace = vec![
            step(3, "assume l == $1", 1, "Main.process"),
            step(3, "emit $1.lock()", 1, "Main.process"),
            step(4, "assume skip", 1, "Main.process"),
            step(12, "return from Main.process", 0, "Main.main"),
        ];
        let s = summarize(
            &["$1.lock()".into()],
            &trace,
            &spec(),
            Some(&SourceSet::single("", SOURCE)),
        );
        assert_eq!(
            s.text,
            "`l.lock()` at line 3 (Main.process) is never followed by `$1.unlock()`: \
             Main.process returns after line 4 without it."
        );
        assert_eq!((s.call_line, s.exit_line), (3, 4));
        assert_eq!(s.method, "Main.process");
    }

    #[test]
    fn a_call_out_of_place_names_what_came_before() {
        let trace = vec![
            step(7, "emit $1.unlock()", 1, "Main.process"),
            step(3, "emit $1.lock()", 1, "Main.process"),
        ];
        let s = summarize(
            &["$1.unlock()".into(), "$1.lock()".into()],
            &trace,
            &spec(),
            Some(&SourceSet::single("", SOURCE)),
        );
        assert_eq!(
            s.text,
            "`l.unlock()` at line 7 (Main.process) calls `$1.unlock()`, which the protocol \
             does not allow as the first call."
        );
        assert_eq!(s.call_line, 7);
    }

    #[test]
    fn the_call_left_open_is_the_one_named() {
        // lock lock unlock: the first lock is never released.
        let trace = vec![
            step(3, "emit $1.lock()", 1, "Main.process"),
            step(3, "emit $1.lock()", 1, "Main.process"),
            step(7, "emit $1.unlock()", 1, "Main.process"),
        ];
        let word: Vec<String> = ["$1.lock()", "$1.lock()", "$1.unlock()"]
            .map(String::from)
            .to_vec();
        let s = summarize(&word, &trace, &spec(), Some(&SourceSet::single("", SOURCE)));
        assert_eq!(
            s.text,
            "`l.lock()` at line 3 (Main.process) is never followed by `$1.unlock()`: \
             the program ends after line 7 without it."
        );
    }

    #[test]
    fn unknown_shapes_fall_back_to_the_word() {
        let s = summarize(&["$1.other()".into()], &[], &spec(), None);
        assert!(s.text.contains("`$1.other()`"), "{}", s.text);
        assert_eq!(s.call_line, 0);
    }
}
