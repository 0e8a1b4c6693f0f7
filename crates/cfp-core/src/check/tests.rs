//! Driver tests with the native z3 (`$CFP_Z3`, `cargo xtask setup-z3` or `PATH`).

use super::*;
use cfp_smt::{block_on, NativeZ3};
use std::path::PathBuf;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn solver() -> NativeZ3 {
    crate::testutil::z3()
}

struct Case {
    program: Program,
    spec: cfp_grammar::Grammar,
    source: String,
}

fn load(file: &str, spec_file: &str) -> Case {
    let source = std::fs::read_to_string(repo().join(file)).expect("program file");
    let spec_src =
        std::fs::read_to_string(repo().join("tests/specs").join(spec_file)).expect("spec");
    let unit = cfp_syntax::parse_sources(&cfp_syntax::SourceSet::from_marked(file, &source));
    assert!(!unit.has_errors(), "{file}: {:?}", unit.diagnostics);
    let spec = cfp_syntax::parse_spec(&spec_src);
    assert!(!spec.has_errors(), "{spec_file}: {:?}", spec.diagnostics);
    let (program, _) =
        crate::front_end(&unit.tree, &spec.tree, &crate::LowerOptions::default()).expect("valid");
    Case {
        program,
        spec: cfp_grammar::Grammar::from_spec(&spec.tree),
        source,
    }
}

fn header(source: &str, key: &str) -> Option<String> {
    source
        .lines()
        .take_while(|l| l.starts_with("//"))
        .find_map(|l| {
            l.strip_prefix(&format!("// {key}:"))
                .map(|v| v.trim().to_string())
        })
}

fn run_case(case: Case, opts: CheckOptions) -> (Vec<Event>, Verdict, Program) {
    let program = case.program.clone();
    let mut c = Checker::new(case.program, case.spec, opts, solver()).with_source(case.source);
    let mut events = Vec::new();
    let v = block_on(c.run(&mut |e| events.push(e.clone())));
    (events, v, program)
}

/// A compact, human-readable log: one line per event.
fn log(events: &[Event]) -> String {
    let mut out = String::new();
    for e in events {
        let line = match e {
            Event::GrammarBuilt {
                iteration,
                nonterminals,
                productions,
                diff,
                ..
            } => format!(
                "{iteration} grammar: {nonterminals} nonterminals, {productions} productions (+{} -{})",
                diff.added_productions.len(),
                diff.removed_productions.len()
            ),
            Event::Inclusion {
                iteration,
                result,
                word,
            } => format!("{iteration} inclusion: {result:?} {:?}", word.clone().unwrap_or_default()),
            Event::Counterexample {
                iteration, trace, ..
            } => {
                let t: Vec<String> = trace
                    .iter()
                    .map(|l| format!("{}{}:{} {}", "  ".repeat(l.depth), l.method, l.line, l.text))
                    .collect();
                format!("{iteration} counterexample:\n    {}", t.join("\n    "))
            }
            Event::Feasibility {
                iteration,
                feasible,
                ..
            } => format!("{iteration} feasibility: {feasible:?}"),
            Event::Interpolants {
                iteration,
                per_location,
                strategy,
                ..
            } => {
                let t: Vec<String> = per_location
                    .iter()
                    .map(|l| format!("{}@n{}: {}", l.method, l.location, l.atoms.join(", ")))
                    .collect();
                format!(
                    "{iteration} predicates ({}):\n    {}",
                    strategy.as_deref().unwrap_or("none"),
                    t.join("\n    ")
                )
            }
            Event::Refined {
                iteration,
                clones_added,
                edges_removed,
                predicates_added,
                also_refuted,
            } => format!(
                "{iteration} refined: {} clones, {} edges removed, {predicates_added} predicates{}",
                clones_added.len(),
                edges_removed.len(),
                if also_refuted.is_empty() {
                    String::new()
                } else {
                    format!(", {} more spurious paths", also_refuted.len())
                }
            ),
            Event::Finished { verdict } => format!("finished: {}", verdict.name()),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The paper's running example (§2): the first counterexample is `$1.lock()` (through
/// `release`'s else-branch), as in the paper, and its refinement tracks exactly the paper's
/// predicates — `l = $1` in `foo`, `l1 = $1` in `acquire`, `l2 = $1` in `release`
/// (weakest preconditions of the sliced path, one atom per location). With them
/// ConstructCFG's call check, which ties `release`'s entry clones to the call context
/// (`Main.release@n0#1`, ...), also excludes the paper's second counterexample
/// (`$1.unlock()`), so the second iteration proves inclusion.
#[test]
fn paper_running_example_follows_the_paper() {
    let case = load("tests/check/01-paper-fig2.java", "lock-paper.cfg");
    let (events, v, _) = run_case(case, CheckOptions::default());
    let words: Vec<Vec<String>> = events
        .iter()
        .filter_map(|e| match e {
            Event::Counterexample { word, .. } => Some(word.clone()),
            _ => None,
        })
        .collect();
    insta::assert_snapshot!("paper_fig2_log", log(&events));
    assert_eq!(v.name(), "verified", "{v:#?}");
    assert!(
        matches!(v, Verdict::Verified { iterations: 2, .. }),
        "{v:#?}"
    );
    assert_eq!(words, vec![vec!["$1.lock()".to_string()]]);
    // The paper's predicates, and nothing else.
    let predicates: BTreeSet<(String, String)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Interpolants { per_location, .. } => Some(per_location),
            _ => None,
        })
        .flatten()
        .flat_map(|l| l.atoms.iter().map(|a| (l.method.clone(), a.clone())))
        .collect();
    let paper: BTreeSet<(String, String)> = [
        ("Main.foo", "(= l $1)"),
        ("Main.acquire", "(= l1 $1)"),
        ("Main.release", "(= l2 $1)"),
    ]
    .into_iter()
    .map(|(m, a)| (m.to_string(), a.to_string()))
    .collect();
    assert_eq!(predicates, paper);
    // The final grammar enters `release` only through the entry clone that matches the
    // caller's context.
    let last = events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::GrammarBuilt { grammar, .. } => Some(grammar.clone()),
            _ => None,
        })
        .unwrap_or_default();
    assert!(last.contains("Main.release@n0"), "{last}");
    insta::assert_snapshot!("paper_fig2_final_grammar", last);
}

/// Runs every tests/check/*.java and prints expected vs actual verdicts (a report, not a
/// gate yet).
#[test]
#[ignore = "report: cargo test -p cfp-core --lib corpus_report -- --ignored --nocapture"]
fn corpus_report() {
    let mut files: Vec<_> = std::fs::read_dir(repo().join("tests/check"))
        .expect("dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .collect();
    files.sort();
    for f in files {
        let rel = format!(
            "tests/check/{}",
            f.file_name().unwrap_or_default().to_string_lossy()
        );
        let src = std::fs::read_to_string(&f).unwrap_or_default();
        let (Some(spec), Some(expect)) = (header(&src, "spec"), header(&src, "expect")) else {
            continue;
        };
        let case = load(&rel, &spec);
        let opts = CheckOptions::default();
        let (_, v, _) = run_case(case, opts);
        let why = match &v {
            Verdict::Unknown { reason, .. } => reason.to_string(),
            _ => String::new(),
        };
        eprintln!("{rel}: expect {expect}, got {} {why}", v.name());
    }
}

/// Prints the event log of one file: `CFP_CASE=tests/check/14-instance-field-flag.java
/// cargo test -p cfp-core --lib debug_case -- --ignored --nocapture`.
#[test]
#[ignore = "debugging aid: set CFP_CASE"]
fn debug_case() {
    let Ok(rel) = std::env::var("CFP_CASE") else {
        return;
    };
    let src = std::fs::read_to_string(repo().join(&rel)).expect("program file");
    let spec = header(&src, "spec").expect("spec header");
    let (events, v, _) = run_case(
        load(&rel, &spec),
        CheckOptions {
            max_iterations: std::env::var("CFP_MAX")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(10),
            ..CheckOptions::default()
        },
    );
    eprintln!("{}", log(&events));
    for e in &events {
        if let Event::GrammarBuilt {
            iteration, grammar, ..
        } = e
        {
            if std::env::var("CFP_GRAMMAR").is_ok() {
                eprintln!("--- grammar {iteration}\n{grammar}");
            }
        }
    }
    eprintln!("{v:#?}");
}

/// Two loops whose passes must match (n locks, then n unlocks) are beyond a finite
/// abstraction: the paths come back with one more pass each round, and the `unknown`
/// names both loops with their lines and growing pass counts.
#[test]
fn an_unknown_names_the_loops_the_paths_kept_going_around() {
    let case = load("tests/fixtures/counted-loops.java", "lock.cfg");
    let opts = CheckOptions {
        max_iterations: 8,
        ..CheckOptions::default()
    };
    let (_, v, _) = run_case(case, opts);
    let Verdict::Unknown { reason, report, .. } = &v else {
        panic!("expected unknown, got {v:#?}");
    };
    assert!(
        matches!(reason, UnknownReason::MaxIterations { limit: 8 }),
        "{reason}"
    );
    let at: Vec<(&str, RecurringKind)> = report
        .recurring
        .iter()
        .map(|r| (r.at.as_str(), r.kind))
        .collect();
    assert_eq!(
        at,
        [
            ("line 10", RecurringKind::Loop),
            ("line 13", RecurringKind::Loop)
        ],
        "{:#?}",
        report.recurring
    );
    for r in &report.recurring {
        assert!(r.passes.windows(2).any(|w| w[1] > w[0]), "{r:?}");
        assert!(r.describe().contains("Counted.main"), "{}", r.describe());
    }
}
