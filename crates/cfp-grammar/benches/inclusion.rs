//! Inclusion benchmark (`cargo xtask bench-inclusion`, or
//! `cargo bench -p cfp-grammar --bench inclusion`): times [`check_inclusion`] on the
//! program-shaped grammars of [`cfp_grammar::bench_grammars`] with 40 and 400 methods
//! against the lock protocol, correct and buggy, and prints a table with the median time,
//! the result, the engine steps, and the ratio to the 40-method run of the same kind.
//!
//! It reports; it asserts nothing about time. A ratio near 10 for 10× the productions
//! means linear scaling.

#[path = "../../../xtask/bench_line.rs"]
mod bench_line;

use bench_line::{bench_line, Better};
use cfp_grammar::bench_grammars::{buggy_program_grammar, lock_spec, program_grammar};
use cfp_grammar::{check_inclusion, Grammar, InclusionOptions, InclusionResult};
use std::ops::ControlFlow;
use std::time::Instant;

/// Timed runs per row (the median is reported).
const RUNS: usize = 7;
/// Seed of the generated grammars.
const SEED: u64 = 1;

/// One measured configuration.
struct Row {
    kind: &'static str,
    methods: usize,
    productions: usize,
    median_ms: f64,
    result: &'static str,
    steps: u64,
}

fn measure(kind: &'static str, methods: usize, g: &Grammar, s: &Grammar) -> Row {
    let opts = InclusionOptions {
        progress_every: 1,
        ..InclusionOptions::default()
    };
    let mut times = Vec::with_capacity(RUNS);
    let mut steps = 0;
    let mut result = "";
    for _ in 0..RUNS {
        let mut last = 0;
        let started = Instant::now();
        let r = check_inclusion(g, s, &opts, &mut |p| {
            last = p.steps;
            ControlFlow::Continue(())
        });
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        steps = last;
        result = match r {
            InclusionResult::Included(_) => "included",
            InclusionResult::NotIncluded(_) => "not-included",
            InclusionResult::Unknown(_) => "unknown",
        };
    }
    times.sort_by(f64::total_cmp);
    Row {
        kind,
        methods,
        productions: g.productions.len(),
        median_ms: times[times.len() / 2],
        result,
        steps,
    }
}

fn main() {
    // `cargo bench` passes `--bench`; nothing to parse.
    let s = lock_spec();
    let mut rows = Vec::new();
    for (kind, build) in [
        ("correct", program_grammar as fn(usize, u64) -> Grammar),
        ("buggy", buggy_program_grammar),
    ] {
        for methods in [40, 400] {
            let g = build(methods, SEED);
            rows.push(measure(kind, methods, &g, &s));
        }
    }
    println!(
        "{:<8} {:>7} {:>11} {:>11} {:>13} {:>9} {:>14}",
        "grammar", "methods", "productions", "median ms", "result", "steps", "time ratio"
    );
    for row in &rows {
        let base = rows
            .iter()
            .find(|r| r.kind == row.kind && r.methods == 40)
            .map_or(row.median_ms, |r| r.median_ms);
        println!(
            "{:<8} {:>7} {:>11} {:>11.3} {:>13} {:>9} {:>13.1}x",
            row.kind,
            row.methods,
            row.productions,
            row.median_ms,
            row.result,
            row.steps,
            row.median_ms / base.max(1e-9)
        );
        let label = format!("{} {} methods", row.kind, row.methods);
        bench_line(
            "inclusion",
            &format!("{label} (median)"),
            row.median_ms,
            "ms",
            Better::Lower,
            None,
        );
        bench_line(
            "inclusion",
            &format!("{label} steps"),
            row.steps as f64,
            "",
            Better::Lower,
            None,
        );
        if row.methods != 40 {
            bench_line(
                "inclusion",
                &format!("{label} time / 40 methods"),
                row.median_ms / base.max(1e-9),
                "x",
                Better::Lower,
                None,
            );
        }
    }
    println!("(median of {RUNS} runs; time ratio = this row / the 40-method row of its kind)");
}
