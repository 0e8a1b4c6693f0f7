//! `cfp check`'s text output: the verdict, a counterexample's word, nested trace (with
//! the source lines) and values, an `unknown`'s execution report, and `--stats`.

use super::*;

/// One trace line as `L12  text of line 12` (`src/A.java:12  …` when the program has
/// several files), indented by its depth.
/// Spurious paths an `unknown` lists in full (the first and last halves; JSON has all).
const RULED_OUT_SHOWN: usize = 8;

/// What a loop or recursion that came back once more each round means for the user.
const RECURRING_HINT: &str = "each round refuted one more pass with facts about that pass \
alone. Predicate abstraction keeps a finite state per method: it cannot count passes to \
match them against another loop's (n locks, then n unlocks). Two loops counted from 0 to the \
same int variable are paired automatically; otherwise such matching is provable when \
written as recursion (lock, recurse, unlock), or when each pass locks and unlocks.";

fn trace_line(t: &TraceLine, program: &ProgramFiles) -> String {
    let indent = "  ".repeat(t.depth + 1);
    let source = program
        .line_text(t.file.as_deref(), t.line)
        .map(str::trim)
        .filter(|s| !s.is_empty());
    let at = match &t.file {
        Some(f) => format!("{f}:{}", t.line),
        None => format!("L{:<4}", t.line),
    };
    match source {
        Some(s) if s != t.text => format!("{indent}{at} {s}    [{}]\n", t.text),
        Some(s) => format!("{indent}{at} {s}\n"),
        None => format!("{indent}{}\n", t.text),
    }
}

/// One story row: where, the code, then its values, events and mark; a folded loop's
/// first row says how often its pass ran.
fn story_line(r: &cfp_core::check::StoryRow) -> String {
    let indent = "  ".repeat(r.depth as usize + 1);
    let at = match &r.file {
        Some(f) => format!("{f}:{}", r.line),
        None => format!("L{:<4}", r.line),
    };
    let mut notes: Vec<String> = Vec::new();
    if !r.values.is_empty() {
        notes.push(r.values.join(", "));
    }
    if !r.events.is_empty() {
        notes.push(format!("→ {}", r.events.join(" ")));
    }
    if r.call {
        notes.push("← the summary's call".into());
    }
    if r.exit {
        notes.push("⏎ leaves the protocol unfinished".into());
    }
    let mut line = String::new();
    if r.times > 1 {
        let _ = writeln!(
            line,
            "{indent}↻ {} times (the next {} line(s)):",
            r.times, r.rows
        );
    }
    let code = format!("{at} {}", r.code);
    if notes.is_empty() {
        let _ = writeln!(line, "{indent}{code}");
    } else {
        let _ = writeln!(line, "{indent}{code:<48}  {}", notes.join("  "));
    }
    line
}

/// A counterexample's word, story, trace and values.
fn write_counterexample(out: &mut String, c: &Violation, file: &ProgramFiles) {
    let _ = writeln!(out, "word: {}", word_text(&c.word));
    if !c.story.is_empty() {
        let _ = writeln!(out, "story (the run, line by line):");
        for r in &c.story {
            out.push_str(&story_line(r));
        }
    }
    let _ = writeln!(out, "trace (the checker's steps):");
    for t in &c.trace {
        out.push_str(&trace_line(t, file));
    }
    if !c.values.is_empty() {
        let _ = writeln!(out, "values:");
        for (k, val) in &c.values {
            let _ = writeln!(out, "  {k} = {val}");
        }
    }
}

pub(super) fn render_text(
    v: &Verdict,
    reason_text: Option<&str>,
    file: &ProgramFiles,
    stats: Option<&StatsJson>,
) -> String {
    let mut out = String::new();
    match v {
        Verdict::Verified { iterations, .. } => {
            let _ = writeln!(
                out,
                "VERIFIED: every completed execution follows the protocol ({iterations} iteration(s))"
            );
        }
        Verdict::Violation {
            iterations,
            counterexample: c,
        } => {
            let _ = writeln!(
                out,
                "VIOLATION: an execution breaks the protocol (found in iteration {iterations})"
            );
            if !c.summary.text.is_empty() {
                let _ = writeln!(out, "{}", c.summary.text);
            }
            if c.found_by == cfp_core::check::Engine::Hunter {
                let _ = writeln!(out, "found by {}", c.found_by.describe());
            }
            write_counterexample(&mut out, c, file);
        }
        Verdict::Unknown {
            iterations,
            reason,
            report,
        } => {
            let reason = reason_text.map_or_else(|| reason.to_string(), String::from);
            let _ = writeln!(out, "UNKNOWN after {iterations} iteration(s): {reason}");
            if !report.recurring.is_empty() {
                let _ = writeln!(out, "what kept the refinement going:");
                for r in &report.recurring {
                    let _ = writeln!(out, "  {}", r.describe());
                }
                let _ = writeln!(out, "  {RECURRING_HINT}");
            }
            if report.ruled_out.is_empty() {
                let _ = writeln!(out, "ruled out: nothing yet");
            } else {
                let _ = writeln!(out, "ruled out (spurious counterexamples refined away):");
                let n = report.ruled_out.len();
                for (i, r) in report.ruled_out.iter().enumerate() {
                    if n > RULED_OUT_SHOWN && i == RULED_OUT_SHOWN / 2 {
                        let _ = writeln!(
                            out,
                            "  … {} more (--format json lists them all)",
                            n - RULED_OUT_SHOWN
                        );
                    }
                    if n > RULED_OUT_SHOWN
                        && i >= RULED_OUT_SHOWN / 2
                        && i < n - RULED_OUT_SHOWN / 2
                    {
                        continue;
                    }
                    let _ = writeln!(
                        out,
                        "  iteration {}: {}\n      path {}",
                        r.iteration,
                        word_text(&r.word),
                        r.path
                    );
                }
            }
            if !report.frontier.is_empty() {
                let _ = writeln!(out, "frontier: {}", report.frontier);
            }
            if let Some(c) = &report.possible_violation {
                let _ = writeln!(
                    out,
                    "possible violation (its execution goes through what the model approximates):"
                );
                write_counterexample(&mut out, c, file);
            }
        }
    }
    if let Some(s) = stats {
        let _ = writeln!(out, "stats:");
        if let Some(p) = &s.program {
            let _ = writeln!(out, "  program                     {}", p.summary());
        }
        let _ = writeln!(out, "  steps (CEGAR iterations)    {}", s.steps);
        let _ = writeln!(out, "  refinements                 {}", s.refinements);
        let _ = writeln!(
            out,
            "  predicates per block        avg {:.2}, max {}",
            s.predicates_per_block_avg, s.predicates_per_block_max
        );
        if let Some(sl) = &s.slice {
            let _ = writeln!(out, "  slice                       {}", sl.summary());
            if s.summarised_iterations > 0 {
                let _ = writeln!(
                    out,
                    "  summarised slice            violation in {} iteration(s), confirmed on the exact slice",
                    s.summarised_iterations
                );
            }
        }
        let _ = writeln!(out, "  total predicates            {}", s.total_predicates);
        let _ = match s.travel_rollbacks {
            0 => writeln!(out, "  travelled predicates        {}", s.travelled),
            n => writeln!(
                out,
                "  travelled predicates        {} (taken back {n} time(s): the next path stayed)",
                s.travelled
            ),
        };
        let h = &s.hunter;
        let _ = writeln!(
            out,
            "  bug hunter                  {} slice(s), {} run(s), {} completed, {} edges{}",
            h.slices,
            h.runs,
            h.completed,
            h.edges,
            if h.found { "; found the violation" } else { "" }
        );
        let _ = writeln!(
            out,
            "  inclusion checks            {} ({} steps){} (time: all work outside the SMT solver)",
            s.inclusion_queries,
            s.inclusion_steps,
            s.grammar_and_inclusion_ms
                .map_or(String::new(), |t| format!(", {t:.1} ms"))
        );
        let _ = writeln!(
            out,
            "  SMT queries                 {} in {} script(s), {} cached, {} decided by their literals{}",
            s.smt_queries,
            s.smt_scripts,
            s.smt_cache_hits,
            s.smt_decided,
            s.smt_ms.map_or(String::new(), |t| format!(", {t:.1} ms"))
        );
        if let Some(t) = s.time_ms {
            let _ = writeln!(out, "  total time                  {t:.1} ms");
        }
        let _ = writeln!(
            out,
            "  refinement strategies       tried  refuted  queries  predicates{}",
            if s.time_ms.is_some() {
                "      time"
            } else {
                ""
            }
        );
        for st in s.strategies.iter().filter(|st| st.tried > 0) {
            let _ = writeln!(
                out,
                "    {:<25} {:>5}  {:>7}  {:>7}  {:>10}{}",
                st.strategy,
                st.tried,
                st.refuted,
                st.queries,
                st.predicates,
                st.time_ms
                    .map_or(String::new(), |t| format!("  {t:>6.1} ms"))
            );
        }
    }
    out
}

fn word_text(w: &[String]) -> String {
    if w.is_empty() {
        "ε".into()
    } else {
        w.join(" ")
    }
}
