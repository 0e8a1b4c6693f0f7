//! `cfp include GRAMMAR --spec SPEC`: decide L(GRAMMAR) ⊆ L(SPEC) with the inclusion
//! engine of `cfp-grammar` (ARCHITECTURE.md).
//!
//! Exit codes: 0 included, 1 not included (a counterexample word is printed), 2 unknown
//! (budget, timeout), 3 bad input (diagnostics on stderr).
//!
//! Output is deterministic: the only varying datum is the wall-clock time, which appears
//! only as `stats.time_ms` in `--json` output and in the `stats:` line of the human output,
//! and `--no-timing` leaves it out so that two runs print byte-identical text.
//!
//! `--json` prints exactly one object, fields in this order:
//! ```text
//! {"result": "included" | "not-included" | "unknown",
//!  "counterexample": {"length": N, "word": ["$1.lock()", ...], "derivation": TREE},  // not-included only
//!  "reason": "...", "reason_kind": "budget|timeout|undecided",                       // unknown only
//!  "certificate": {...},                                                             // included only
//!  "stats": {"steps": N, "time_ms": T}}
//! ```
//! where `TREE` is `{"production": "F1 -> A F2", "children": [CHILD, ...]}` with one child
//! per right-hand-side symbol: a terminal as its spec spelling (`"$1.lock()"`), a
//! nonterminal as its subtree. ε-productions print as `"F8 -> ε"` with no children.

use crate::commands::check::validate_timeout;
use crate::error::{CliError, Exit};
use crate::input::SourceFile;
use crate::output::print_stdout;
use cfp_core::check::ReasonKind;
use cfp_grammar::{
    check_inclusion, Certificate, Derivation, DerivationChild, Grammar, InclusionOptions,
    InclusionResult, Progress, UnknownReason,
};
use serde::Serialize;
use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Read the clock on every this many progress reports (one report per engine step).
const CLOCK_EVERY: u64 = 256;

/// Arguments of `cfp include`.
#[derive(clap::Args, Debug)]
pub struct IncludeArgs {
    /// The grammar G, in the spec syntax (wildcard declarations optional).
    pub grammar: PathBuf,
    /// The spec S. A file, or the name of a built-in protocol: lock, wakelock,
    /// wifilock, canvas, json (`cfp specs` shows them; a file of that name wins).
    #[arg(long)]
    pub spec: PathBuf,
    /// Print one JSON object: result, counterexample, reason, certificate, stats.
    #[arg(long)]
    pub json: bool,
    /// Budget of engine steps before answering `unknown`.
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
    /// Wall-clock limit in seconds before answering `unknown`.
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
    /// Leave the wall-clock time out of the output, so reruns print identical bytes.
    #[arg(long)]
    pub no_timing: bool,
}

/// Run `cfp include`: the answer's exit code, or an error for bad input.
pub fn run(args: &IncludeArgs) -> Result<Exit, CliError> {
    if args.max_steps == Some(0) {
        return Err(CliError::bad_option("--max-steps", "must be at least 1"));
    }
    let timeout = validate_timeout(args.timeout)?;
    let (g, s) = CliError::both(
        load(&args.grammar, Role::Grammar),
        load(&args.spec, Role::Spec),
    )?;

    let mut opts = InclusionOptions::default();
    if let Some(n) = args.max_steps {
        opts.max_steps = n;
    }
    // A report on every step: the last one is the exact step count for `stats`, and the
    // clock is read on every `CLOCK_EVERY`-th report so a timeout is honoured promptly.
    opts.progress_every = 1;

    let started = Instant::now();
    let deadline = timeout.map(|t| started + t);
    let mut last_steps = 0u64;
    let mut until_clock = CLOCK_EVERY;
    let mut timed_out = false;
    let result = check_inclusion(&g, &s, &opts, &mut |p: &Progress| {
        last_steps = last_steps.max(p.steps);
        until_clock -= 1;
        if until_clock > 0 {
            return ControlFlow::Continue(());
        }
        until_clock = CLOCK_EVERY;
        match deadline {
            Some(d) if Instant::now() >= d => {
                timed_out = true;
                ControlFlow::Break(())
            }
            _ => ControlFlow::Continue(()),
        }
    });
    let elapsed = started.elapsed();

    let steps = match &result {
        InclusionResult::Unknown(
            UnknownReason::StepBudget { steps } | UnknownReason::Stopped { steps },
        ) => (*steps).max(last_steps),
        _ => last_steps,
    };
    let stats = Stats {
        steps,
        time_ms: (!args.no_timing).then(|| (elapsed.as_secs_f64() * 1e6).round() / 1e3),
    };
    let reason = match &result {
        InclusionResult::Unknown(r @ UnknownReason::Stopped { .. }) if timed_out => {
            let secs = timeout.map_or(0.0, |t| t.as_secs_f64());
            Some((
                format!("timeout of {secs} s reached: {r}"),
                ReasonKind::Timeout,
            ))
        }
        InclusionResult::Unknown(r) => Some((r.to_string(), reason_kind(r))),
        _ => None,
    };

    let text = if args.json {
        let report = JsonReport::new(&g, &result, reason.clone(), stats);
        serde_json::to_string(&report)? + "\n"
    } else {
        render_text(
            &g,
            &result,
            reason.as_ref().map(|(r, _)| r.as_str()),
            &stats,
        )
    };
    print_stdout(&text)?;
    Ok(match result {
        InclusionResult::Included(_) => Exit::Ok,
        InclusionResult::NotIncluded(_) => Exit::Violation,
        InclusionResult::Unknown(_) => Exit::Unknown,
    })
}

/// The class of an engine's `unknown`.
fn reason_kind(r: &UnknownReason) -> ReasonKind {
    match r {
        UnknownReason::StepBudget { .. } => ReasonKind::Budget,
        UnknownReason::Stopped { .. } => ReasonKind::Cancelled,
        _ => ReasonKind::Undecided,
    }
}

/// Which side of the inclusion a file is on: it decides how wildcards are checked.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// G: wildcard declarations optional.
    Grammar,
    /// S: a protocol when it declares wildcards (then every wildcard must be declared),
    /// else a plain grammar.
    Spec,
}

/// Read, parse and check one grammar file, printing its diagnostics.
fn load(path: &Path, role: Role) -> Result<Grammar, CliError> {
    let file = match role {
        Role::Spec => crate::input::read_spec(path)?,
        Role::Grammar => SourceFile::read(path)?,
    };
    let parsed = cfp_syntax::parse_spec(&file.text);
    let usage = if role == Role::Spec && !parsed.tree.wildcards.is_empty() {
        cfp_syntax::SpecUse::Protocol
    } else {
        cfp_syntax::SpecUse::Grammar
    };
    let diags = cfp_syntax::spec_diagnostics(&parsed, usage);
    file.require_no_errors(&diags)?;
    Ok(Grammar::from_spec(&parsed.tree))
}

/// Counters of one run.
#[derive(Serialize)]
struct Stats {
    /// Engine steps (as last reported through progress, or by the unknown reason).
    steps: u64,
    /// Wall-clock milliseconds; absent with `--no-timing`.
    #[serde(skip_serializing_if = "Option::is_none")]
    time_ms: Option<f64>,
}

/// The `--json` object (field order is the output order).
#[derive(Serialize)]
struct JsonReport<'a> {
    result: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    counterexample: Option<CounterexampleJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason_kind: Option<ReasonKind>,
    #[serde(skip_serializing_if = "Option::is_none")]
    certificate: Option<&'a Certificate>,
    stats: Stats,
}

/// A counterexample as printed: the word in spec spelling and its derivation over G.
#[derive(Serialize)]
struct CounterexampleJson {
    length: usize,
    word: Vec<String>,
    derivation: DerivationJson,
}

/// One derivation node: the production applied (`"F1 -> A F2"`) and one child per
/// right-hand-side symbol.
#[derive(Serialize)]
struct DerivationJson {
    production: String,
    children: Vec<ChildJson>,
}

/// A terminal leaf (its spelling) or a subtree.
#[derive(Serialize)]
#[serde(untagged)]
enum ChildJson {
    Terminal(String),
    Node(DerivationJson),
}

impl<'a> JsonReport<'a> {
    fn new(
        g: &Grammar,
        result: &'a InclusionResult,
        reason: Option<(String, ReasonKind)>,
        stats: Stats,
    ) -> JsonReport<'a> {
        let (name, counterexample, certificate) = match result {
            InclusionResult::Included(c) => ("included", None, Some(c)),
            InclusionResult::NotIncluded(cex) => (
                "not-included",
                Some(CounterexampleJson {
                    length: cex.word.len(),
                    word: word_names(g, cex),
                    derivation: derivation_json(g, &cex.derivation),
                }),
                None,
            ),
            InclusionResult::Unknown(_) => ("unknown", None, None),
        };
        JsonReport {
            result: name,
            counterexample,
            reason_kind: reason.as_ref().map(|(_, k)| *k),
            reason: reason.map(|(r, _)| r),
            certificate,
            stats,
        }
    }
}

/// The counterexample word in spec spelling (G's terminal names; the engine's own
/// spelling when it provides one for every letter).
fn word_names(g: &Grammar, cex: &cfp_grammar::Counterexample) -> Vec<String> {
    if cex.word_names.len() == cex.word.len() {
        cex.word_names.clone()
    } else {
        cex.word
            .iter()
            .map(|t| g.terminal_name(*t).to_string())
            .collect()
    }
}

/// `lhs -> rhs` of production `d.production` of `g`.
fn production_text(g: &Grammar, d: &Derivation) -> String {
    let p = g.production(d.production);
    format!(
        "{} -> {}",
        g.nonterminal_name(p.lhs),
        g.rhs_to_string(&p.rhs)
    )
}

fn derivation_json(g: &Grammar, d: &Derivation) -> DerivationJson {
    DerivationJson {
        production: production_text(g, d),
        children: d
            .children
            .iter()
            .map(|c| match c {
                DerivationChild::Terminal(t) => ChildJson::Terminal(g.terminal_name(*t).into()),
                DerivationChild::Node(n) => ChildJson::Node(derivation_json(g, n)),
            })
            .collect(),
    }
}

/// The human-readable report: verdict line, then the word and an indented derivation
/// (not included), the reason (unknown) or the proof kind (included), then statistics.
fn render_text(
    g: &Grammar,
    result: &InclusionResult,
    reason: Option<&str>,
    stats: &Stats,
) -> String {
    let mut out = String::new();
    match result {
        InclusionResult::Included(cert) => {
            out.push_str("included: every word of the grammar is in the spec\n");
            let kind = serde_json::to_value(&cert.proof)
                .ok()
                .and_then(|v| v.get("kind").and_then(|k| k.as_str()).map(str::to_string))
                .unwrap_or_else(|| "proof".to_string());
            let _ = writeln!(out, "proof: {kind}");
        }
        InclusionResult::NotIncluded(cex) => {
            let words = word_names(g, cex);
            let _ = writeln!(
                out,
                "not included: a word of length {} is in the grammar but not in the spec",
                words.len()
            );
            let shown = if words.is_empty() {
                "ε".to_string()
            } else {
                words.join(" ")
            };
            let _ = writeln!(out, "word: {shown}");
            out.push_str("derivation:\n");
            render_tree(g, &cex.derivation, 1, &mut out);
        }
        InclusionResult::Unknown(r) => {
            let _ = writeln!(
                out,
                "unknown: {}",
                reason.map_or_else(|| r.to_string(), str::to_string)
            );
        }
    }
    let _ = write!(out, "stats: {} steps", stats.steps);
    if let Some(ms) = stats.time_ms {
        let _ = write!(out, ", {ms:.1} ms");
    }
    out.push('\n');
    out
}

fn render_tree(g: &Grammar, d: &Derivation, depth: usize, out: &mut String) {
    let indent = "  ".repeat(depth);
    let _ = writeln!(out, "{indent}{}", production_text(g, d));
    for c in &d.children {
        match c {
            DerivationChild::Terminal(t) => {
                let _ = writeln!(out, "{indent}  {}", g.terminal_name(*t));
            }
            DerivationChild::Node(n) => render_tree(g, n, depth + 1, out),
        }
    }
}
