//! `cargo xtask bench-paper SOURCES_DIR [--only ROW,…] [--timeout SECS]` — the paper's
//! Table 2 (CFPChecker, POPL'21) on the applications it analysed, at the paper's
//! commits, side by side with `cfp check`.
//!
//! `SOURCES_DIR` holds the applications' git repositories, each as `OWNER+NAME/repo` (the
//! layout of a mirror) or `OWNER+NAME` (a clone or a bare repository): `google+ExoPlayer`,
//! `connectbot+connectbot`, `Netflix+Hystrix`, `google+guice`, `bitcoinj+bitcoinj`,
//! `bumptech+glide`, `Tamsiree+RxTool`, `facebook+litho`, `apache+hadoop-mapreduce`, and
//! the paper's benchmark repository `utopia-group+cfp-checker-bench-slicer` (the ExoPlayer
//! fix is its patch). CI never needs them. For each row the source directories the paper
//! analysed are extracted at the paper's commit (for RxTool and Hadoop, the nearest code
//! that runs here: see each row's `instead`) into `SOURCES_DIR/trees/ROW` (once), and the
//! release `cfp check` runs on the whole directories with the row's harness — the paper's
//! harnesses rewritten in the program language (`tests/paper/harnesses/ROW`), or the
//! built-in `android-activity` harness where the paper's harness is that lifecycle — and
//! the row's protocol, with no iteration budget (the `--timeout` alone ends a run). Wall
//! time and peak memory (`VmHWM`) are measured here; the figures of the run come from its
//! `--json --stats`. A row whose repository is missing is listed as such. The table goes
//! to stdout and to `target/bench/paper.md`.

use crate::{cargo, root, tools, Failed};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The paper's figures for one row.
struct Paper {
    output: &'static str,
    time_s: f64,
    steps: u32,
    preds_per_block: &'static str,
    preds: u32,
}

/// How a row's program is driven.
enum Driver {
    /// A harness of ours: the files of `tests/paper/harnesses/ROW`.
    Files,
    /// The built-in Android activity lifecycle.
    Activity,
}

/// One row of Table 2.
struct Row {
    id: &'static str,
    api: &'static str,
    spec: &'static str,
    repo: &'static str,
    commit: &'static str,
    dirs: &'static [&'static str],
    driver: Driver,
    /// A patch of the benchmark repository applied to the extracted tree.
    patch: Option<&'static str>,
    /// What the row runs on instead of the paper's code, when that cannot run here.
    instead: Option<&'static str>,
    paper: Paper,
}

const EXO: &str = "google/ExoPlayer";
const EXO_AT: &str = "49910fe72579c4e55e14b47b0cf3d3ced9474219";
const EXO_DIRS: &[&str] = &["testutils/src/main/java", "library/core/src/main/java"];
const EXO_FIX: &str = "bench-repos/harnesses/ExoPlayer/hostactivity-fix.patch";
const HYSTRIX: &str = "Netflix/Hystrix";
const HYSTRIX_AT: &str = "3cb21589895e9f8f87cfcdbc9d96d9f63d48b848";
const HYSTRIX_JSON: &[&str] = &[
    "hystrix-core/src/main/java",
    "hystrix-serialization/src/main/java",
];
const BENCH_REPO: &str = "utopia-group/cfp-checker-bench-slicer";

const fn paper(
    output: &'static str,
    time_s: f64,
    steps: u32,
    preds_per_block: &'static str,
    preds: u32,
) -> Paper {
    Paper {
        output,
        time_s,
        steps,
        preds_per_block,
        preds,
    }
}

/// The rows, in the paper's order.
const ROWS: &[Row] = &[
    Row {
        id: "exoplayer-wifi-bug",
        api: "WifiLock",
        spec: "wifilock",
        repo: EXO,
        commit: EXO_AT,
        dirs: EXO_DIRS,
        driver: Driver::Activity,
        patch: None,
        instead: None,
        paper: paper("Cex", 63.8, 27, "2/6", 40),
    },
    Row {
        id: "exoplayer-wifi-fix",
        api: "WifiLock",
        spec: "wifilock",
        repo: EXO,
        commit: EXO_AT,
        dirs: EXO_DIRS,
        driver: Driver::Activity,
        patch: Some(EXO_FIX),
        instead: None,
        paper: paper("Safe", 35.2, 20, "1/4", 44),
    },
    Row {
        id: "exoplayer-wakelock-bug",
        api: "WakeLock",
        spec: "wakelock",
        repo: EXO,
        commit: EXO_AT,
        dirs: EXO_DIRS,
        driver: Driver::Activity,
        patch: None,
        instead: None,
        paper: paper("Cex", 66.6, 24, "2/6", 40),
    },
    Row {
        id: "exoplayer-wakelock-fix",
        api: "WakeLock",
        spec: "wakelock",
        repo: EXO,
        commit: EXO_AT,
        dirs: EXO_DIRS,
        driver: Driver::Activity,
        patch: Some(EXO_FIX),
        instead: None,
        paper: paper("Safe", 47.0, 20, "2/6", 39),
    },
    Row {
        id: "connectbot-bug",
        api: "WakeLock",
        spec: "wakelock",
        repo: "connectbot/connectbot",
        commit: "b8ec5e60fd3231c1fe96c3fc7dbd9cc2e640ce4d",
        dirs: &["src"],
        driver: Driver::Activity,
        patch: None,
        instead: None,
        paper: paper("Cex", 392.0, 42, "3/9", 107),
    },
    Row {
        id: "connectbot-fix",
        api: "WakeLock",
        spec: "wakelock",
        repo: "connectbot/connectbot",
        commit: "f5d392e3a334d230fb782a1faff37bda8153750f",
        dirs: &["src"],
        driver: Driver::Activity,
        patch: None,
        instead: None,
        paper: paper("Safe", 2336.5, 48, "3/12", 133),
    },
    Row {
        id: "hystrix-relock",
        api: "ReLock",
        spec: "lock",
        repo: HYSTRIX,
        commit: HYSTRIX_AT,
        dirs: &["hystrix-core/src/main/java"],
        driver: Driver::Files,
        patch: None,
        instead: None,
        paper: paper("Safe", 20.7, 9, "1/3", 21),
    },
    Row {
        id: "guice",
        api: "ReLock",
        spec: "lock",
        repo: "google/guice",
        commit: "485191facbbf3c7f46b7ccffa43071da337f2383",
        dirs: &["core/src"],
        driver: Driver::Files,
        patch: None,
        instead: None,
        paper: paper("Safe", 221.5, 25, "3/9", 92),
    },
    Row {
        id: "bitcoinj",
        api: "ReLock",
        spec: "lock",
        repo: "bitcoinj/bitcoinj",
        commit: "47a2335a73d841b89b53f993ca000d5657c7a5dd",
        dirs: &["core/src/main/java"],
        driver: Driver::Files,
        patch: None,
        instead: None,
        paper: paper("Safe", 3175.3, 79, "1/5", 115),
    },
    Row {
        id: "glide",
        api: "Canvas",
        spec: "canvas",
        repo: "bumptech/glide",
        commit: "52726e2a0d0fbdf123c59b15a935aa2d9d6dd3c6",
        dirs: &["library/src/main/java"],
        driver: Driver::Files,
        patch: None,
        instead: None,
        paper: paper("Safe", 562.6, 8, "1/3", 19),
    },
    Row {
        id: "rxtool",
        api: "Canvas",
        spec: "canvas",
        repo: "Tamsiree/RxTool",
        // The paper analysed the Kotlin classes of commit dcf01a27 (through the Java stubs
        // and bytecode of a build). Four days before it, the same classes were still Java,
        // in the package `progressing` (later renamed `loadingview`).
        commit: "0c0cf5618b28fddb1df73ae3861b127832675019",
        dirs: &["RxUI/src/main/java"],
        driver: Driver::Files,
        patch: None,
        instead: Some(
            "the classes' last Java version (0c0cf561, 4 days before the paper's Kotlin \
             commit dcf01a27; package `progressing`, later `loadingview`): RxUI's Java files",
        ),
        paper: paper("Safe", 56.4, 1, "1/1", 3),
    },
    Row {
        id: "litho",
        api: "Canvas",
        spec: "canvas",
        repo: "facebook/litho",
        commit: "05953181a9d38dd5ced2179c12ce5c13b8c8a2bd",
        dirs: &["litho-core/src/main/java"],
        driver: Driver::Files,
        patch: None,
        instead: None,
        paper: paper("Safe", 14.4, 5, "1/3", 11),
    },
    Row {
        id: "hadoop",
        api: "Json",
        spec: "json",
        // The paper analysed hadoop-mapreduce-client-core at apache/hadoop 36123170, a
        // repository larger than can be fetched here. The same class, `QueueManager`, with
        // the same `dumpConfiguration` writing JSON, is in the MapReduce source tree of
        // apache/hadoop-mapreduce (Jackson 1's `JsonGenerator`, of the same methods).
        repo: "apache/hadoop-mapreduce",
        commit: "307cb5b316e10defdbbc228d8cdcdb627191ea15",
        dirs: &["src/java"],
        driver: Driver::Files,
        patch: None,
        instead: Some(
            "apache/hadoop is too large to fetch here: the MapReduce tree of \
             apache/hadoop-mapreduce (307cb5b3, 2011), whose `QueueManager.dumpConfiguration` \
             the paper's harness calls",
        ),
        paper: paper("Safe", 140.2, 49, "1/4", 65),
    },
    Row {
        id: "hystrix-json1",
        api: "Json",
        spec: "json",
        repo: HYSTRIX,
        commit: HYSTRIX_AT,
        dirs: HYSTRIX_JSON,
        driver: Driver::Files,
        patch: None,
        instead: None,
        paper: paper("Safe", 64.4, 48, "2/4", 62),
    },
    Row {
        id: "hystrix-json2",
        api: "Json",
        spec: "json",
        repo: HYSTRIX,
        commit: HYSTRIX_AT,
        dirs: HYSTRIX_JSON,
        driver: Driver::Files,
        patch: None,
        instead: None,
        paper: paper("Safe", 24.2, 31, "1/4", 55),
    },
];

/// What one run of `cfp check` gave.
#[derive(Default)]
struct Outcome {
    /// `Cex`, `Safe`, `Unknown`, or why the row did not run.
    output: String,
    wall_s: f64,
    peak_mb: Option<u64>,
    steps: Option<u64>,
    preds_per_block: Option<String>,
    preds: Option<u64>,
    lines: Option<u64>,
    classes: Option<u64>,
    reason: Option<String>,
}

/// `cargo xtask bench-paper SOURCES_DIR [--only ROW,…] [--timeout SECS]`.
pub fn bench_paper(args: &[String]) -> Result<(), Failed> {
    let usage = "usage: cargo xtask bench-paper SOURCES_DIR [--only ROW,…] [--timeout SECS]";
    let mut sources: Option<PathBuf> = None;
    let mut only: Option<Vec<String>> = None;
    let mut timeout = 600u64;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--only" => only = it.next().map(|v| v.split(',').map(String::from).collect()),
            "--timeout" => {
                timeout = it
                    .next()
                    .and_then(|v| v.parse().ok())
                    .ok_or_else(|| Failed::with_message(usage))?;
            }
            s if !s.starts_with('-') && sources.is_none() => sources = Some(PathBuf::from(s)),
            _ => return Err(Failed::with_message(usage)),
        }
    }
    let sources = sources.ok_or_else(|| Failed::with_message(usage))?;
    let z3 = tools::setup_z3()?;
    let mut build = cargo();
    build.args(["build", "--release", "-p", "cfp-cli"]);
    crate::run("build the release cfp", build)?;
    let cfp = root().join("target/release/cfp");
    let mut table = header();
    for row in ROWS {
        if only
            .as_ref()
            .is_some_and(|o| !o.iter().any(|id| id == row.id))
        {
            continue;
        }
        eprintln!("==> {}", row.id);
        let outcome = match prepare_tree(&sources, row) {
            Ok(tree) => check(&cfp, &z3, row, &tree, timeout),
            Err(why) => Outcome {
                output: "not run".into(),
                reason: Some(why),
                ..Outcome::default()
            },
        };
        let line = table_row(row, &outcome);
        eprintln!("{line}");
        table.push_str(&line);
        table.push('\n');
    }
    println!("{table}");
    let out = root().join("target/bench/paper.md");
    if let Some(dir) = out.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    std::fs::write(&out, &table)
        .map_err(|e| Failed::with_message(format!("cannot write {}: {e}", out.display())))?;
    eprintln!("==> written to {}", out.display());
    Ok(())
}

/// The git directory of `repo` (`owner/name`) under `sources`.
fn git_dir(sources: &Path, repo: &str) -> Option<PathBuf> {
    let base = sources.join(repo.replace('/', "+"));
    [
        base.join("repo"),
        base.join("repo/.git"),
        base.clone(),
        base.join(".git"),
    ]
    .into_iter()
    .find(|d| d.join("HEAD").is_file() && d.join("objects").is_dir())
}

/// Extract the row's directories at its commit (and apply its patch), once.
fn prepare_tree(sources: &Path, row: &Row) -> Result<PathBuf, String> {
    let git = git_dir(sources, row.repo)
        .ok_or_else(|| format!("{} is not in {}", row.repo, sources.display()))?;
    let tree = sources.join("trees").join(row.id);
    let stamp = tree.join(".cfp-extracted");
    if stamp.is_file() {
        return Ok(tree);
    }
    let _ = std::fs::remove_dir_all(&tree);
    std::fs::create_dir_all(&tree).map_err(|e| e.to_string())?;
    let archive = Command::new("git")
        .arg("--git-dir")
        .arg(&git)
        .args(["archive", "--format=tar", row.commit])
        .args(row.dirs)
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("git archive: {e}"))?;
    let tar = Command::new("tar")
        .arg("-x")
        .arg("-C")
        .arg(&tree)
        .stdin(archive.stdout.ok_or("git archive: no output")?)
        .status()
        .map_err(|e| format!("tar: {e}"))?;
    if !tar.success() {
        return Err(format!(
            "{} {} {:?}: not extracted",
            row.repo, row.commit, row.dirs
        ));
    }
    if let Some(patch) = row.patch {
        let bench = git_dir(sources, BENCH_REPO).ok_or_else(|| {
            format!(
                "{BENCH_REPO} (the fix's patch) is not in {}",
                sources.display()
            )
        })?;
        let text = Command::new("git")
            .arg("--git-dir")
            .arg(&bench)
            .args(["show", &format!("HEAD:{patch}")])
            .output()
            .map_err(|e| e.to_string())?;
        let file = tree.join(".fix.patch");
        std::fs::write(&file, &text.stdout).map_err(|e| e.to_string())?;
        let ok = Command::new("git")
            .args(["apply", ".fix.patch"])
            .current_dir(&tree)
            .status()
            .map_err(|e| e.to_string())?;
        if !ok.success() {
            return Err(format!("the patch {patch} does not apply"));
        }
    }
    std::fs::write(&stamp, row.commit).map_err(|e| e.to_string())?;
    Ok(tree)
}

/// The class of a harness directory's only `.java` file (its stem), if it has one.
fn harness_class(dir: &Path) -> Option<String> {
    let mut stems = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()));
    let first = stems.next()?;
    stems.next().is_none().then_some(first)
}

/// Run the release `cfp check` on the row's tree, measuring wall time and peak memory.
fn check(cfp: &Path, z3: &Path, row: &Row, tree: &Path, timeout: u64) -> Outcome {
    let mut cmd = Command::new(cfp);
    cmd.arg("check");
    for d in row.dirs {
        cmd.arg(tree.join(d));
    }
    match row.driver {
        Driver::Files => {
            let dir = root().join("tests/paper/harnesses").join(row.id);
            // The harness's `main` is the entry (a tree may have `main` methods of its own).
            if let Some(class) = harness_class(&dir) {
                cmd.args(["--entry", &format!("{class}.main")]);
            }
            cmd.arg(dir);
        }
        Driver::Activity => {
            cmd.args(["--harness", "android-activity"]);
        }
    }
    // The row's limit is its time: no iteration budget before it (the CLI's default of
    // 50 would end a row the paper ran for 79 steps).
    cmd.args(["--spec", row.spec, "--json", "--stats", "--max-iterations"])
        .arg(u32::MAX.to_string())
        .arg("--timeout")
        .arg(timeout.to_string())
        .env("CFP_Z3", z3)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let started = Instant::now();
    let Ok(mut child) = cmd.spawn() else {
        return Outcome {
            output: "not run".into(),
            reason: Some("cfp did not start".into()),
            ..Outcome::default()
        };
    };
    let status_file = PathBuf::from(format!("/proc/{}/status", child.id()));
    let mut peak_kb: Option<u64> = None;
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let out_reader = std::thread::spawn(move || read_all(stdout));
    let err_reader = std::thread::spawn(move || read_all(stderr));
    loop {
        if let Some(kb) = std::fs::read_to_string(&status_file)
            .ok()
            .and_then(|s| vm_hwm_kb(&s))
        {
            peak_kb = Some(peak_kb.map_or(kb, |p| p.max(kb)));
        }
        match child.try_wait() {
            Ok(Some(_)) | Err(_) => break,
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
    let wall_s = started.elapsed().as_secs_f64();
    let stdout = out_reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    let mut outcome = Outcome {
        wall_s,
        peak_mb: peak_kb.map(|kb| kb / 1024),
        ..Outcome::default()
    };
    let Ok(v) = serde_json::from_str::<Value>(&stdout) else {
        outcome.output = "rejected".into();
        outcome.reason = stderr
            .lines()
            .find(|l| l.contains("error"))
            .map(str::to_owned);
        return outcome;
    };
    outcome.output = match v["verdict"].as_str() {
        Some("verified") => "Safe",
        Some("violation") => "Cex",
        _ => "Unknown",
    }
    .into();
    outcome.reason = v["reason"].as_str().map(str::to_owned);
    let s = &v["stats"];
    outcome.steps = s["steps"].as_u64();
    outcome.preds = s["total_predicates"].as_u64();
    outcome.preds_per_block = s["predicates_per_block_avg"].as_f64().map(|avg| {
        format!(
            "{avg:.0}/{}",
            s["predicates_per_block_max"].as_u64().unwrap_or(0)
        )
    });
    outcome.lines = s["program"]["lines"].as_u64();
    outcome.classes = s["program"]["classes"].as_u64();
    outcome
}

fn read_all(pipe: Option<impl std::io::Read>) -> String {
    let mut s = String::new();
    if let Some(mut p) = pipe {
        let _ = p.read_to_string(&mut s);
    }
    s
}

/// `VmHWM:  123 kB` of a `/proc/PID/status` text.
fn vm_hwm_kb(status: &str) -> Option<u64> {
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
}

fn header() -> String {
    let mut t = String::new();
    t.push_str("| row | API | paper: output | time (s) | steps | preds/BB | preds | cfp: output | time (s) | steps | preds/BB | preds | lines | classes | peak MB | note |\n");
    t.push_str("|---|---|---|---:|---:|---|---:|---|---:|---:|---|---:|---:|---:|---:|---|\n");
    t
}

fn table_row(row: &Row, o: &Outcome) -> String {
    let opt = |v: Option<u64>| v.map_or("–".to_owned(), |v| v.to_string());
    let mut line = String::new();
    let _ = write!(
        line,
        "| {} | {} | {} | {:.1} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
        row.id,
        row.api,
        row.paper.output,
        row.paper.time_s,
        row.paper.steps,
        row.paper.preds_per_block,
        row.paper.preds,
        o.output,
        if o.wall_s > 0.0 {
            format!("{:.1}", o.wall_s)
        } else {
            "–".into()
        },
        opt(o.steps),
        o.preds_per_block.clone().unwrap_or_else(|| "–".into()),
        opt(o.preds),
        opt(o.lines),
        opt(o.classes),
        opt(o.peak_mb),
        row.instead
            .into_iter()
            .chain(o.reason.as_deref())
            .collect::<Vec<_>>()
            .join("; ")
            .replace('|', "/"),
    );
    line
}
