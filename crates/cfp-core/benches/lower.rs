//! Lowering benchmark (`cargo xtask bench-parse`, or `cargo bench -p cfp-core --bench
//! lower`): the front end (lowering and instrumentation) on one method of 1,500 `if`/`while`
//! pairs, median of 5 runs. Reports;
//! asserts nothing about time.

#[path = "../../../xtask/bench_line.rs"]
mod bench_line;

use bench_line::{bench_line, Better};
use std::time::Instant;

const RUNS: usize = 5;
const LOCK_SPEC: &str = "wildcard $1 : ReentrantLock;\nS -> $1.lock() S $1.unlock() S | ε;\n";

/// Median milliseconds of the front end on `src`, and the number of CFA edges.
fn measure(src: &str) -> (f64, usize) {
    let unit = cfp_syntax::parse_program(src).tree;
    let spec = cfp_syntax::parse_spec(LOCK_SPEC).tree;
    let mut times = Vec::with_capacity(RUNS);
    let mut edges = 0;
    for _ in 0..RUNS {
        let started = Instant::now();
        let lowered = cfp_core::front_end(&unit, &spec, &Default::default());
        times.push(started.elapsed().as_secs_f64() * 1e3);
        match lowered {
            Ok((p, _)) => edges = p.methods.iter().map(|m| m.graph.edge_count()).sum(),
            Err(e) => {
                eprintln!("lower bench: the program does not lower: {e}");
                std::process::exit(1);
            }
        }
    }
    times.sort_by(f64::total_cmp);
    (times[RUNS / 2], edges)
}

fn main() {
    let mut body = String::new();
    for i in 0..1500 {
        body.push_str(&format!(
            "    if (x > {i}) {{ x = x + 1; }} else {{ y = y - 1; }}\n    while (y < {i}) {{ y++; if (*) break; }}\n"
        ));
    }
    let long = format!(
        "class Main {{\n  public static void main(String[] a) {{\n    int x = 0; int y = 0;\n{body}  }}\n}}\n"
    );
    let (ms, edges) = measure(&long);
    println!("front end, one method of 1,500 if/while pairs: median {ms:.1} ms ({edges} edges)");
    bench_line(
        "parse",
        "lower a 1,500-pair method (median)",
        ms,
        "ms",
        Better::Lower,
        None,
    );
}
