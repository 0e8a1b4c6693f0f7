//! Parser benchmark (`cargo xtask bench-parse`, or `cargo bench -p cfp-syntax --bench
//! parse`): `parse_program` on a generated 5,000-line program, median of 10 runs (target:
//! 200 ms). Reports; asserts nothing about time.

#[path = "../../../xtask/bench_line.rs"]
mod bench_line;

use bench_line::{bench_line, Better};
use cfp_syntax::parse_program;
use std::time::Instant;

/// Runs measured (the median is reported).
const RUNS: usize = 10;

/// A program of about `lines` lines of lock-using methods with arithmetic, loops and calls.
fn big_program(lines: usize) -> String {
    let mut s = String::from("class Big {\n    static int counter = 0;\n");
    let mut n = 2;
    let mut m = 0;
    while n + 12 < lines {
        s.push_str(&format!(
            "    static int m{m}(Lock l, int x) {{\n        int y = x * 2 + (x - 1) / 3;\n        l.lock();\n        if (y > {m} && *) {{\n            counter += y;\n        }} else {{\n            y = m{prev}(l, y - 1);\n        }}\n        for (int i = 0; i < y; i++) {{ l.unlock(); l.lock(); }}\n        l.unlock();\n        return y;\n    }}\n",
            prev = m.max(1) - 1
        ));
        n += 12;
        m += 1;
    }
    s.push_str("}\n");
    s
}

fn main() {
    let text = big_program(5_000);
    let lines = text.lines().count();
    let mut times = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let started = Instant::now();
        let parsed = parse_program(&text);
        times.push(started.elapsed().as_secs_f64() * 1e3);
        if !parsed.diagnostics.is_empty() {
            eprintln!(
                "parse bench: the generated program has errors: {:?}",
                parsed.diagnostics[0]
            );
            std::process::exit(1);
        }
    }
    times.sort_by(f64::total_cmp);
    let median = times[RUNS / 2];
    println!(
        "parse_program, {lines} lines: median {median:.2} ms, min {:.2} ms, max {:.2} ms ({RUNS} runs)",
        times[0],
        times[RUNS - 1]
    );
    bench_line(
        "parse",
        "parse 5,000 lines (median)",
        median,
        "ms",
        Better::Lower,
        Some(200.0),
    );
}
