//! `cargo xtask bench-scale`: `cfp check` on generated realistic programs
//! ([`crate::realistic`]) of growing size, correct and with one injected bug, natively and —
//! up to `--wasm-max` lines — through the wasm engine under Node.
//!
//! For each size it prints lines, expected and actual verdict, time, iterations,
//! predicates, SMT queries and peak memory (the child's `VmHWM`), and the wasm time and
//! wasm/native ratio; it writes the table to `docs/scale.md` and a plot of time and
//! iterations against lines to `docs/scale.svg`, and returns the figures for
//! `target/bench/bench.json`.
//!
//! Options: `--sizes 150,500,…` (default 150, 500, 1000, 2000, 5000, 10000), `--seed S`
//! (default 1), `--timeout SECONDS` (per run, default 120), `--wasm-max LINES` (default 1000;
//! 0: no wasm runs), `--bugs KIND,…` (the injected bugs, one buggy program per kind and
//! size; default: every kind of [`crate::realistic::Bug`]; `seeded`: one chosen by the
//! seed), `--no-docs` (do not write `docs/`), and anything after `--` goes to `cfp check`
//! (e.g. `-- --no-hunt`).

use crate::bench::Metric;
use crate::realistic::{Bug, Injected};
use crate::{root, tools, Failed};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The sizes measured by default.
const DEFAULT_SIZES: &[usize] = &[150, 500, 1000, 2000, 5000, 10000];

/// Options of one scale run.
struct Options {
    sizes: Vec<usize>,
    seed: u64,
    timeout_s: u64,
    wasm_max: usize,
    docs: bool,
    bugs: Vec<Injected>,
    extra: Vec<String>,
}

fn parse_options(args: &[String]) -> Result<Options, Failed> {
    let mut o = Options {
        sizes: DEFAULT_SIZES.to_vec(),
        seed: 1,
        timeout_s: 120,
        wasm_max: 1000,
        docs: true,
        bugs: Bug::ALL.into_iter().map(Injected::Kind).collect(),
        extra: Vec::new(),
    };
    let mut it = args.iter();
    let bad = |what: &str| Failed::with_message(format!("bench-scale: {what}"));
    while let Some(a) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| bad(&format!("{name} needs a value")))
        };
        match a.as_str() {
            "--sizes" => {
                o.sizes = value("--sizes")?
                    .split(',')
                    .map(|s| s.trim().parse::<usize>())
                    .collect::<Result<_, _>>()
                    .map_err(|_| bad("--sizes takes numbers separated by commas"))?
            }
            "--seed" => {
                o.seed = value("--seed")?
                    .parse()
                    .map_err(|_| bad("--seed takes a number"))?
            }
            "--timeout" => {
                o.timeout_s = value("--timeout")?
                    .parse()
                    .map_err(|_| bad("--timeout takes seconds"))?
            }
            "--wasm-max" => {
                o.wasm_max = value("--wasm-max")?
                    .parse()
                    .map_err(|_| bad("--wasm-max takes a line count"))?
            }
            "--no-docs" => o.docs = false,
            "--bugs" => {
                o.bugs = value("--bugs")?
                    .split(',')
                    .map(|k| match k.trim() {
                        "seeded" => Some(Injected::Seeded),
                        k => Bug::from_name(k).map(Injected::Kind),
                    })
                    .collect::<Option<_>>()
                    .ok_or_else(|| bad("--bugs takes bug kinds separated by commas"))?
            }
            "--" => {
                o.extra = it.by_ref().cloned().collect();
            }
            other => return Err(bad(&format!("unknown option `{other}`"))),
        }
    }
    Ok(o)
}

/// One measured run.
#[derive(Clone, Debug, Default)]
struct Row {
    lines: usize,
    bug: bool,
    /// `ok`, `seeded` or the bug kind.
    kind: &'static str,
    verdict: String,
    reason: String,
    ms: f64,
    iterations: f64,
    predicates: f64,
    queries: f64,
    peak_mib: f64,
    wasm_ms: Option<f64>,
    wasm_verdict: Option<String>,
}

impl Row {
    fn expected(&self) -> &'static str {
        if self.bug {
            "violation"
        } else {
            "verified"
        }
    }
}

/// The peak resident memory of process `pid` so far (MiB), from `/proc/PID/status`.
fn peak_mib(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Run `cmd` to its end (or `timeout`, then kill it), returning its stdout, wall time (ms)
/// and peak memory (MiB, polled).
fn measure(mut cmd: Command, timeout: Duration) -> (Vec<u8>, f64, f64) {
    cmd.stdout(Stdio::piped()).stderr(Stdio::null());
    let started = Instant::now();
    let Ok(mut child) = cmd.spawn() else {
        return (Vec::new(), 0.0, 0.0);
    };
    // Read stdout on a thread so a large output cannot block the child.
    let reader = child.stdout.take().map(|mut out| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = std::io::Read::read_to_end(&mut out, &mut buf);
            buf
        })
    });
    let mut peak = 0.0f64;
    loop {
        if let Some(p) = peak_mib(child.id()) {
            peak = peak.max(p);
        }
        match child.try_wait() {
            Ok(Some(_)) | Err(_) => break,
            Ok(None) if started.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                break;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
        }
    }
    let ms = started.elapsed().as_secs_f64() * 1e3;
    let out = reader.and_then(|r| r.join().ok()).unwrap_or_default();
    (out, ms, peak)
}

/// `cargo xtask bench-scale [OPTIONS]` (see the module doc).
pub fn scale(args: &[String]) -> Result<Vec<Metric>, Failed> {
    let o = parse_options(args)?;
    let z3 = tools::setup_z3()?;
    let cfp = crate::web::release_cli()?;
    let node_env = if o.wasm_max > 0 {
        Some(crate::web::node_engine()?)
    } else {
        None
    };
    let dir = root().join("target").join("bench").join("scale");
    std::fs::create_dir_all(&dir)
        .map_err(|e| Failed::with_message(format!("bench-scale: {}: {e}", dir.display())))?;
    let spec = root().join("tests").join("specs").join("lock.cfg");
    let timeout = Duration::from_secs(o.timeout_s);
    println!(
        "{:>6} {:<22} {:<9} {:<9} {:>9} {:>5} {:>6} {:>8} {:>8} {:>9} {:>6}",
        "lines",
        "program",
        "expected",
        "verdict",
        "time s",
        "iters",
        "preds",
        "queries",
        "peak MiB",
        "wasm s",
        "ratio"
    );
    let mut rows = Vec::new();
    for &size in &o.sizes {
        let variants = std::iter::once(Injected::None).chain(o.bugs.iter().copied());
        for injected in variants {
            let bug = injected != Injected::None;
            let kind = match injected {
                Injected::None => "ok",
                Injected::Seeded => "seeded",
                Injected::Kind(k) => k.name(),
            };
            let text = crate::realistic::generate_with(size, o.seed, injected);
            let lines = text.lines().count();
            let file = dir.join(format!("Scale{size}_{}.java", kind.replace('-', "_")));
            std::fs::write(&file, &text).map_err(|e| {
                Failed::with_message(format!("bench-scale: {}: {e}", file.display()))
            })?;
            let mut cmd = Command::new(&cfp);
            cmd.arg("check")
                .arg(&file)
                .arg("--spec")
                .arg(&spec)
                .args(["--json", "--timeout"])
                .arg(o.timeout_s.to_string())
                .args(&o.extra)
                .env("CFP_Z3", &z3);
            let (out, ms, peak) = measure(cmd, timeout + Duration::from_secs(10));
            let json: Value = serde_json::from_slice(&out).unwrap_or(Value::Null);
            let stats = &json["stats"];
            let num = |k: &str| stats[k].as_f64().unwrap_or(0.0);
            let mut row = Row {
                lines,
                bug,
                kind,
                verdict: json["verdict"].as_str().unwrap_or("error").to_owned(),
                reason: json["reason"].as_str().unwrap_or("").to_owned(),
                ms,
                iterations: json["iterations"].as_f64().unwrap_or(0.0),
                predicates: num("total_predicates"),
                queries: num("smt_queries"),
                peak_mib: peak,
                ..Row::default()
            };
            if let (Some((node, wasm_dir)), true) = (&node_env, size <= o.wasm_max) {
                let mut cmd = Command::new(node);
                cmd.current_dir(root())
                    .arg(root().join("tests").join("wasm").join("check-one.mjs"))
                    .arg(&file)
                    .arg(&spec)
                    .env("CFP_WASM_NODE", wasm_dir);
                let (out, _, _) = measure(cmd, timeout * 4);
                let json: Value = serde_json::from_slice(&out).unwrap_or(Value::Null);
                row.wasm_ms = json["ms"].as_f64();
                row.wasm_verdict = json["result"]["verdict"].as_str().map(str::to_owned);
            }
            print_row(&row);
            rows.push(row);
        }
    }
    if o.docs {
        write_docs(&rows, &o)?;
    }
    Ok(metrics(&rows))
}

fn print_row(r: &Row) {
    let wasm = r
        .wasm_ms
        .map_or_else(|| "—".to_owned(), |w| format!("{:.1}", w / 1e3));
    let ratio = r
        .wasm_ms
        .map_or_else(|| "—".to_owned(), |w| format!("{:.2}", w / r.ms.max(1.0)));
    println!(
        "{:>6} {:<22} {:<9} {:<9} {:>9.2} {:>5} {:>6} {:>8} {:>8.0} {:>9} {:>6}{}",
        r.lines,
        r.kind,
        r.expected(),
        r.verdict,
        r.ms / 1e3,
        r.iterations,
        r.predicates,
        r.queries,
        r.peak_mib,
        wasm,
        ratio,
        if r.verdict == r.expected() {
            String::new()
        } else {
            format!("  <-- {}", r.reason)
        }
    );
}

fn metrics(rows: &[Row]) -> Vec<Metric> {
    let m = |name: String, value: f64, unit: &str| Metric {
        group: "scale".into(),
        name,
        value,
        unit: unit.into(),
        better: "lower".into(),
        target: None,
    };
    let mut out = Vec::new();
    for r in rows {
        let tag = format!("{} lines {}", r.lines, r.kind);
        out.push(m(format!("{tag} time"), r.ms, "ms"));
        out.push(m(format!("{tag} iterations"), r.iterations, ""));
        out.push(m(format!("{tag} peak memory"), r.peak_mib, "MiB"));
        if let Some(w) = r.wasm_ms {
            out.push(m(format!("{tag} wasm/native"), w / r.ms.max(1.0), "x"));
        }
    }
    let right = rows.iter().filter(|r| r.verdict == r.expected()).count();
    out.push(Metric {
        group: "scale".into(),
        name: "right verdicts".into(),
        value: right as f64,
        unit: String::new(),
        better: "higher".into(),
        target: Some(rows.len() as f64),
    });
    out
}

/// `docs/scale.md` (the table) and `docs/scale.svg` (the plot).
fn write_docs(rows: &[Row], o: &Options) -> Result<(), Failed> {
    let docs = root().join("docs");
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# Scale: `cargo xtask bench-scale`\n\nGenerated realistic lock programs (`cargo xtask gen-program N --realistic --seed {} [--bug KIND]`: correct, and one program per injected bug kind), \
         spec `tests/specs/lock.cfg`, options `{}`, per-run limit {} s; native `cfp` with the z3 of the \
         PyPI wheel; wasm: the engine under Node with npm `z3-solver`. Machine: {}.\n",
        o.seed,
        if o.extra.is_empty() {
            "default".to_owned()
        } else {
            o.extra.join(" ")
        },
        o.timeout_s,
        crate::bench::machine()
    );
    let _ = writeln!(
        md,
        "| lines | program | expected | verdict | time s | iterations | predicates | SMT queries | peak MiB | wasm s | wasm/native |\n|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|"
    );
    for r in rows {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {}{} | {:.2} | {} | {} | {} | {:.0} | {} | {} |",
            r.lines,
            r.kind,
            r.expected(),
            r.verdict,
            if r.verdict == r.expected() {
                ""
            } else {
                " ✗"
            },
            r.ms / 1e3,
            r.iterations,
            r.predicates,
            r.queries,
            r.peak_mib,
            r.wasm_ms
                .map_or_else(|| "—".to_owned(), |w| format!("{:.2}", w / 1e3)),
            r.wasm_ms
                .map_or_else(|| "—".to_owned(), |w| format!("{:.2}", w / r.ms.max(1.0))),
        );
    }
    let _ = writeln!(md, "\n![time and iterations against lines](scale.svg)");
    let write = |p: PathBuf, text: &str| {
        std::fs::write(&p, text)
            .map_err(|e| Failed::with_message(format!("bench-scale: {}: {e}", p.display())))
    };
    write(docs.join("scale.md"), &md)?;
    write(docs.join("scale.svg"), &svg(rows))?;
    eprintln!("    wrote docs/scale.md and docs/scale.svg");
    Ok(())
}

/// A plot of time (left axis) and iterations (right axis) against lines (log scale), one
/// line per series (correct, buggy); a run with a wrong verdict is a hollow point.
fn svg(rows: &[Row]) -> String {
    let (w, h, left, right, top, bottom) = (720.0, 380.0, 60.0, 60.0, 30.0, 50.0);
    let pw = w - left - right;
    let ph = h - top - bottom;
    let min_l = rows.iter().map(|r| r.lines).min().unwrap_or(1).max(1) as f64;
    let max_l = rows.iter().map(|r| r.lines).max().unwrap_or(2).max(2) as f64;
    let span = (max_l.ln() - min_l.ln()).max(1e-9);
    let x = |lines: usize| left + (((lines.max(1) as f64).ln() - min_l.ln()) / span) * pw;
    let max_t = rows.iter().map(|r| r.ms / 1e3).fold(1.0f64, f64::max) * 1.1;
    let max_i = rows.iter().map(|r| r.iterations).fold(1.0f64, f64::max) * 1.1;
    let yt = |t: f64| top + ph - t / max_t * ph;
    let yi = |i: f64| top + ph - i / max_i * ph;
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">
<rect width="{w}" height="{h}" fill="#ffffff"/>
<text x="{cx}" y="18" text-anchor="middle" font-size="14">cfp check on generated programs: time and iterations against lines</text>
<line x1="{left}" y1="{b}" x2="{r}" y2="{b}" stroke="#333"/>
<line x1="{left}" y1="{top}" x2="{left}" y2="{b}" stroke="#333"/>
<line x1="{r}" y1="{top}" x2="{r}" y2="{b}" stroke="#333"/>
<text x="{cx}" y="{lx}" text-anchor="middle">lines (log scale)</text>
<text x="16" y="{cy}" transform="rotate(-90 16 {cy})" text-anchor="middle">time (s)</text>
<text x="{rx}" y="{cy}" transform="rotate(90 {rx} {cy})" text-anchor="middle">iterations</text>
"##,
        cx = w / 2.0,
        b = top + ph,
        r = left + pw,
        lx = h - 12.0,
        cy = top + ph / 2.0,
        rx = w - 14.0,
    );
    let mut sizes: Vec<usize> = rows.iter().map(|r| r.lines).collect();
    sizes.sort_unstable();
    sizes.dedup();
    for l in &sizes {
        let _ = writeln!(
            s,
            r##"<line x1="{0:.1}" y1="{1:.1}" x2="{0:.1}" y2="{2:.1}" stroke="#ddd"/><text x="{0:.1}" y="{3:.1}" text-anchor="middle">{l}</text>"##,
            x(*l),
            top,
            top + ph,
            top + ph + 16.0
        );
    }
    for k in 0..=4 {
        let f = k as f64 / 4.0;
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end">{:.1}</text><text x="{:.1}" y="{:.1}">{:.0}</text>"##,
            left - 6.0,
            top + ph - f * ph + 4.0,
            f * max_t,
            left + pw + 6.0,
            top + ph - f * ph + 4.0,
            f * max_i
        );
    }
    let series: [(&str, bool, bool, &str); 4] = [
        ("time, correct", false, true, "#2f6fdf"),
        ("time, buggy", true, true, "#c62828"),
        ("iterations, correct", false, false, "#2f6fdf"),
        ("iterations, buggy", true, false, "#c62828"),
    ];
    for (k, (name, bug, time, colour)) in series.iter().enumerate() {
        let pts: Vec<&Row> = rows.iter().filter(|r| r.bug == *bug).collect();
        let y = |r: &Row| {
            if *time {
                yt(r.ms / 1e3)
            } else {
                yi(r.iterations)
            }
        };
        let path: Vec<String> = pts
            .iter()
            .map(|r| format!("{:.1},{:.1}", x(r.lines), y(r)))
            .collect();
        let dash = if *time {
            ""
        } else {
            r#" stroke-dasharray="5 4""#
        };
        let _ = writeln!(
            s,
            r##"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>"##,
            path.join(" ")
        );
        for r in &pts {
            let fill = if r.verdict == r.expected() {
                *colour
            } else {
                "#ffffff"
            };
            let _ = writeln!(
                s,
                r##"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{fill}" stroke="{colour}"/>"##,
                x(r.lines),
                y(r)
            );
        }
        let ly = top + 14.0 + k as f64 * 16.0;
        let _ = writeln!(
            s,
            r##"<line x1="{0:.1}" y1="{1:.1}" x2="{2:.1}" y2="{1:.1}" stroke="{colour}" stroke-width="2"{dash}/><text x="{3:.1}" y="{4:.1}">{name}</text>"##,
            left + 12.0,
            ly,
            left + 40.0,
            left + 46.0,
            ly + 4.0
        );
    }
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" font-size="11" fill="#555">hollow point: wrong verdict (unknown)</text>"##,
        left + 12.0,
        top + 14.0 + 4.0 * 16.0 + 4.0
    );
    s.push_str("</svg>\n");
    s
}
