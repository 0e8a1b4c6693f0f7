//! The `BENCH {…}` line every benchmark program prints per figure, read by `cargo xtask
//! bench` (`xtask/src/bench.rs`). Included by the bench programs of the crates with
//! `#[path = "../../../xtask/bench_line.rs"] mod bench_line;` so that they need no
//! dependency for it.

/// Which direction of a figure is an improvement.
#[allow(dead_code)] // each bench program uses some of them
#[derive(Clone, Copy)]
pub enum Better {
    /// Smaller is better (times, queries).
    Lower,
    /// Larger is better (throughput).
    Higher,
    /// Neither (counts that describe the input).
    None,
}

/// Print one figure: `group`, `name` (no `"` or `\`), `value`, `unit`, direction and an
/// optional target.
#[allow(dead_code)]
pub fn bench_line(
    group: &str,
    name: &str,
    value: f64,
    unit: &str,
    better: Better,
    target: Option<f64>,
) {
    let better = match better {
        Better::Lower => "lower",
        Better::Higher => "higher",
        Better::None => "none",
    };
    let clean = |s: &str| s.replace(['"', '\\'], "'");
    let value = if value.is_finite() { value } else { -1.0 };
    let target = target.map_or(String::new(), |t| format!(", \"target\": {t}"));
    println!(
        "BENCH {{\"group\": \"{}\", \"name\": \"{}\", \"value\": {value}, \"unit\": \"{}\", \"better\": \"{better}\"{target}}}",
        clean(group),
        clean(name),
        clean(unit)
    );
}
