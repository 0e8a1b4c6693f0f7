//! The JVM side: the runtime (`java/runtime/cfporacle/`: the driver and the state the
//! stubs share) compiled once, every program's package compiled in as few `javac`
//! invocations as possible (a program that fails is taken out and the rest compiled
//! again), and all runs made by one `java` process per shard, each run in a fresh class
//! loader, one JSON line each.

use crate::error::{write, OracleError};
use crate::javasrc::JavaProgram;
use crate::words::{Event, Objects};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

const RT: &str = include_str!("../java/runtime/cfporacle/Rt.java");
const DRIVER: &str = include_str!("../java/runtime/cfporacle/Driver.java");
const JSON: &str = include_str!("../java/runtime/cfporacle/Json.java");

/// The JDK tools.
#[derive(Clone, Debug)]
pub struct Jdk {
    /// `javac`.
    pub javac: PathBuf,
    /// `java`.
    pub java: PathBuf,
}

impl Jdk {
    /// `javac` and `java` from `$JAVA_HOME/bin`, else from `PATH`.
    pub fn find() -> Jdk {
        let home = std::env::var_os("JAVA_HOME").map(PathBuf::from);
        let tool = |name: &str| {
            home.as_ref()
                .map(|h| h.join("bin").join(name))
                .filter(|p| p.is_file())
                .unwrap_or_else(|| PathBuf::from(name))
        };
        Jdk {
            javac: tool("javac"),
            java: tool("java"),
        }
    }

    /// Whether `javac -version` runs.
    pub fn available(&self) -> bool {
        Command::new(&self.javac)
            .arg("-version")
            .output()
            .is_ok_and(|o| o.status.success())
    }
}

fn spawn_err(tool: &Path, e: std::io::Error) -> OracleError {
    OracleError::Spawn {
        tool: tool.display().to_string(),
        source: e,
    }
}

/// Compile the runtime into `dir/runtime`; returns that class directory.
pub fn compile_runtime(jdk: &Jdk, dir: &Path) -> Result<PathBuf, OracleError> {
    let src = dir.join("runtime-src").join("cfporacle");
    let classes = dir.join("runtime");
    let files = [
        ("Rt.java", RT),
        ("Driver.java", DRIVER),
        ("Json.java", JSON),
    ];
    let mut paths = Vec::new();
    for (name, text) in files {
        let p = src.join(name);
        write(&p, text)?;
        paths.push(p);
    }
    let out = Command::new(&jdk.javac)
        .args(["-nowarn", "-Xlint:none", "-encoding", "UTF-8", "-d"])
        .arg(&classes)
        .args(&paths)
        .output()
        .map_err(|e| spawn_err(&jdk.javac, e))?;
    if !out.status.success() {
        return Err(OracleError::Tool {
            tool: "javac (runtime)".into(),
            message: String::from_utf8_lossy(&out.stderr).into_owned(),
        });
    }
    Ok(classes)
}

/// Write each program's files under `src/<package>/`.
pub fn write_sources(src: &Path, programs: &[&JavaProgram]) -> Result<(), OracleError> {
    for p in programs {
        let dir = src.join(&p.package);
        for f in &p.files {
            write(&dir.join(&f.name), &f.text)?;
        }
    }
    Ok(())
}

/// The package of a `javac` error line `…/src/<package>/File.java:12: error: …`.
fn error_package<'a>(line: &'a str, src: &str) -> Option<&'a str> {
    let at = line.find(": error: ")?;
    let path = &line[..at];
    let rest = &path[path.find(src)? + src.len()..];
    rest.trim_start_matches(['/', '\\'])
        .split(['/', '\\'])
        .next()
}

/// Compile the packages `packages` (written under `src`) into `classes`. Returns, for
/// each package that does not compile, javac's messages about it; the others are compiled.
pub fn compile_programs(
    jdk: &Jdk,
    src: &Path,
    classes: &Path,
    runtime: &Path,
    packages: &[String],
) -> Result<BTreeMap<String, String>, OracleError> {
    let mut failed: BTreeMap<String, String> = BTreeMap::new();
    let src_key = src.display().to_string();
    for _round in 0..8 {
        let todo: Vec<&String> = packages
            .iter()
            .filter(|p| !failed.contains_key(*p))
            .collect();
        if todo.is_empty() {
            break;
        }
        let mut list = String::new();
        for p in &todo {
            let dir = src.join(p);
            let entries = std::fs::read_dir(&dir).map_err(|e| OracleError::io(&dir, e))?;
            let mut files: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "java"))
                .collect();
            files.sort();
            for f in files {
                list.push('"');
                list.push_str(&f.display().to_string().replace('\\', "\\\\"));
                list.push_str("\"\n");
            }
        }
        let argfile = src.with_extension("args");
        write(&argfile, &list)?;
        let out = Command::new(&jdk.javac)
            .args([
                "-nowarn",
                "-Xlint:none",
                "-proc:none",
                "-implicit:none",
                "-encoding",
                "UTF-8",
                "-Xmaxerrs",
                "100000",
                "-J-XX:+UseSerialGC",
                "-J-XX:TieredStopAtLevel=1",
                "-J-Xss8m",
                "-d",
            ])
            .arg(classes)
            .arg("-cp")
            .arg(runtime)
            .arg(format!("@{}", argfile.display()))
            .output()
            .map_err(|e| spawn_err(&jdk.javac, e))?;
        if out.status.success() {
            return Ok(failed);
        }
        let stderr = String::from_utf8_lossy(&out.stderr);
        let mut this_round: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut current: Option<String> = None;
        for line in stderr.lines() {
            if let Some(p) = error_package(line, &src_key) {
                current = Some(p.to_string());
            } else if line.contains(": error: ") || line.contains(": warning: ") {
                current = None;
            }
            if let Some(p) = &current {
                let msgs = this_round.entry(p.clone()).or_default();
                if msgs.len() < 30 {
                    msgs.push(line.replace(&src_key, "src"));
                }
            }
        }
        let known: BTreeSet<&str> = todo.iter().map(|s| s.as_str()).collect();
        let new: Vec<(String, Vec<String>)> = this_round
            .into_iter()
            .filter(|(p, _)| known.contains(p.as_str()))
            .collect();
        if new.is_empty() {
            return Err(OracleError::Tool {
                tool: "javac".into(),
                message: stderr.lines().take(30).collect::<Vec<_>>().join("\n"),
            });
        }
        for (p, msgs) in new {
            failed.insert(p, msgs.join("\n"));
        }
    }
    Ok(failed)
}

/// The runs to make of one compiled program.
#[derive(Clone, Debug)]
pub struct Job {
    /// The program's name (echoed in every run).
    pub name: String,
    /// Its package.
    pub package: String,
    /// The class to start and its method (see [`JavaProgram`]).
    pub class: String,
    /// `main` or the entry method.
    pub method: String,
    /// The stubs in its package (a draw's line is that of the innermost other frame).
    pub stubs: Vec<String>,
    /// Time limit of one run.
    pub timeout_ms: u64,
    /// The seeds of the random runs.
    pub seeds: Vec<u64>,
    /// Replays: a label and the driver's input tokens.
    pub replays: Vec<(String, Vec<String>)>,
}

/// One input a JVM run drew.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
pub struct Drawn {
    /// `input`, `ext`, `lib`, `model` or `param`.
    pub kind: String,
    /// The program line that drew it (0: none, e.g. the driver).
    pub line: u32,
    /// A boolean or an integer.
    pub value: serde_json::Value,
}

/// One JVM run, as the driver printed it.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
pub struct JvmRun {
    /// The program's name.
    pub program: String,
    /// `seed` or `replay:LABEL`.
    pub run: String,
    /// The seed (-1 for a replay).
    pub seed: i64,
    /// True when `main` (and the library's later callbacks) returned normally.
    pub completed: bool,
    /// `returned`, `exception`, `timeout`, `limit` or `diverged`.
    pub outcome: String,
    /// The uncaught exception (class: message), or why the run was stopped.
    pub exception: Option<String>,
    /// How a replay left cfp's path.
    pub divergence: Option<String>,
    /// In a replay, the throws of cfp's path no library call of the run made
    /// (`line:method:class`): calls of code the stubs do not have (the JDK's, say).
    #[serde(default)]
    pub unthrown: Vec<String>,
    /// The inputs drawn, in order.
    pub inputs: Vec<Drawn>,
    /// The protocol events, in order.
    pub events: Vec<Event>,
    /// The events' objects: id (as a string) → class names.
    pub objects: BTreeMap<String, Vec<String>>,
}

impl JvmRun {
    /// The objects with numeric ids.
    pub fn object_classes(&self) -> Objects {
        self.objects
            .iter()
            .filter_map(|(k, v)| Some((k.parse().ok()?, v.clone())))
            .collect()
    }
}

fn job_text(jobs: &[&Job], classes: &Path) -> String {
    let mut out = String::new();
    for j in jobs {
        out.push_str(&format!(
            "P\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            j.name,
            j.package,
            classes.display(),
            j.class,
            j.method,
            j.timeout_ms,
            j.stubs.join(",")
        ));
        for s in &j.seeds {
            out.push_str(&format!("S\t{s}\n"));
        }
        for (label, tokens) in &j.replays {
            out.push_str(&format!("R\t{label}\t{}\n", tokens.join(" ")));
        }
    }
    out
}

/// Make every run of `jobs` with `shards` `java` processes at once; the runs come back
/// in the jobs' order.
pub fn run_jobs(
    jdk: &Jdk,
    runtime: &Path,
    classes: &Path,
    work: &Path,
    jobs: &[Job],
    shards: usize,
) -> Result<Vec<JvmRun>, OracleError> {
    let shards = shards.clamp(1, jobs.len().max(1));
    let mut parts: Vec<Vec<&Job>> = vec![Vec::new(); shards];
    for (i, j) in jobs.iter().enumerate() {
        parts[i % shards].push(j);
    }
    let results: Vec<Result<Vec<JvmRun>, OracleError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = parts
            .iter()
            .enumerate()
            .map(|(k, part)| {
                let file = work.join(format!("jobs-{k}.txt"));
                let text = job_text(part, classes);
                scope.spawn(move || -> Result<Vec<JvmRun>, OracleError> {
                    write(&file, &text)?;
                    let out = Command::new(&jdk.java)
                        .args([
                            "-XX:+UseSerialGC",
                            "-XX:TieredStopAtLevel=1",
                            "-Xshare:auto",
                            "-Xmx1g",
                            "-cp",
                        ])
                        .arg(runtime)
                        .arg("cfporacle.Driver")
                        .arg(&file)
                        .output()
                        .map_err(|e| spawn_err(&jdk.java, e))?;
                    let stdout = String::from_utf8_lossy(&out.stdout);
                    let mut runs = Vec::new();
                    for line in stdout.lines().filter(|l| l.starts_with('{')) {
                        let run: JvmRun =
                            serde_json::from_str(line).map_err(|e| OracleError::BadOutput {
                                tool: "the JVM driver".into(),
                                message: format!("{e}: {line}"),
                            })?;
                        runs.push(run);
                    }
                    if !out.status.success() {
                        return Err(OracleError::Tool {
                            tool: "java (driver)".into(),
                            message: String::from_utf8_lossy(&out.stderr)
                                .lines()
                                .take(30)
                                .collect::<Vec<_>>()
                                .join("\n"),
                        });
                    }
                    Ok(runs)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(OracleError::Tool {
                        tool: "java (driver)".into(),
                        message: "a shard's thread panicked".into(),
                    })
                })
            })
            .collect()
    });
    let order: BTreeMap<&str, usize> = jobs
        .iter()
        .enumerate()
        .map(|(i, j)| (j.name.as_str(), i))
        .collect();
    let mut all = Vec::new();
    for r in results {
        all.extend(r?);
    }
    all.sort_by_key(|r| order.get(r.program.as_str()).copied().unwrap_or(usize::MAX));
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn javac_errors_name_their_package() {
        let src = "/tmp/w/src";
        assert_eq!(
            error_package("/tmp/w/src/p12/Main.java:5: error: cannot find symbol", src),
            Some("p12")
        );
        assert_eq!(error_package("  symbol: class Foo", src), None);
    }
}
