//! Tests that need a JDK: they are skipped, with a message, when `javac` does not run.
//!
//! * every generated program (a few hundred seeds) compiles with `javac` against the
//!   stubs, in its own package;
//! * the driver runs a program in a fresh class loader per run (static initialisers run
//!   every time), records its events and inputs, replays a list of inputs, notices a
//!   replay that leaves it, and stops a run that does not end;
//! * in a replay, library calls throw, call back and answer (`native` methods too) as
//!   cfp's path says, and never in a random run.

use cfp_oracle::generate::generate;
use cfp_oracle::javasrc::{java_program, JavaProgram};
use cfp_oracle::jvm::{self, Jdk, Job, JvmRun};
use cfp_oracle::protocol::Protocol;
use cfp_oracle::translate::translate;
use std::path::{Path, PathBuf};

fn jdk() -> Option<Jdk> {
    let jdk = Jdk::find();
    if jdk.available() {
        Some(jdk)
    } else {
        eprintln!("skipped: javac does not run (install a JDK, or run `cargo xtask test-jvm`)");
        None
    }
}

fn specs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/specs")
}

fn work(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cfp-oracle-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn compile(jdk: &Jdk, dir: &Path, programs: &[JavaProgram]) -> (PathBuf, PathBuf) {
    let runtime = jvm::compile_runtime(jdk, dir).expect("the runtime compiles");
    let src = dir.join("src");
    let classes = dir.join("classes");
    std::fs::create_dir_all(&classes).expect("classes dir");
    let refs: Vec<&JavaProgram> = programs.iter().collect();
    jvm::write_sources(&src, &refs).expect("sources written");
    let packages: Vec<String> = programs.iter().map(|p| p.package.clone()).collect();
    let failed =
        jvm::compile_programs(jdk, &src, &classes, &runtime, &packages).expect("javac runs");
    assert!(failed.is_empty(), "javac rejects: {failed:#?}");
    (runtime, classes)
}

#[test]
fn generated_programs_compile_with_javac() {
    let Some(jdk) = jdk() else { return };
    let dir = work("gen");
    let mut programs = Vec::new();
    for seed in 0..300 {
        let text = generate(seed);
        let spec = cfp_oracle::case::header(&text, "spec").expect("a spec header");
        let protocol = Protocol::resolve(&spec, &specs()).expect("a spec");
        let translated = translate(&text).text;
        let p = java_program(&translated, &format!("p{seed}"), &protocol, None)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        programs.push(p);
    }
    compile(&jdk, &dir, &programs);
    let _ = std::fs::remove_dir_all(&dir);
}

const PROGRAM: &str = "// spec: lock.cfg
class Early {
    static {
        Main.L.lock();
    }

    static void touch() {
    }
}
class Main {
    static ReentrantLock L = new ReentrantLock();

    public static void main(String[] args) {
        Early.touch();
        if (*) {
            L.unlock();
        }
        int n = Input.readInt();
        if (n > 100) {
            L.lock();
        }
    }
}
";

const LOOP: &str = "// spec: lock.cfg
class Main {
    public static void main(String[] args) {
        int n = 0;
        while (n >= 0) {
            n = n + 1;
            if (n > 1000) {
                n = 0;
            }
        }
    }
}
";

fn job(
    name: &str,
    package: &str,
    p: &JavaProgram,
    seeds: Vec<u64>,
    replays: Vec<(String, Vec<String>)>,
) -> Job {
    Job {
        name: name.into(),
        package: package.into(),
        class: p.class.clone(),
        method: p.method.clone(),
        stubs: p.stubs.clone(),
        timeout_ms: 500,
        seeds,
        replays,
    }
}

#[test]
fn the_driver_runs_replays_and_stops_programs() {
    let Some(jdk) = jdk() else { return };
    let dir = work("driver");
    let lock = Protocol::resolve("lock", &specs()).expect("built-in");
    let main = java_program(&translate(PROGRAM).text, "p0", &lock, None).expect("java");
    let spin = java_program(&translate(LOOP).text, "p1", &lock, None).expect("java");
    let (runtime, classes) = compile(&jdk, &dir, &[main.clone(), spin.clone()]);
    let jobs = vec![
        job(
            "main",
            "p0",
            &main,
            (0..6).collect(),
            vec![
                (
                    "ok".into(),
                    vec!["input:15::b1".into(), "input:18::i3".into()],
                ),
                (
                    "off".into(),
                    vec!["input:15::b1".into(), "input:17::i3".into()],
                ),
            ],
        ),
        job("spin", "p1", &spin, vec![0], Vec::new()),
    ];
    let runs: Vec<JvmRun> =
        jvm::run_jobs(&jdk, &runtime, &classes, &dir, &jobs, 1).expect("the driver runs");
    let main_runs: Vec<&JvmRun> = runs.iter().filter(|r| r.program == "main").collect();
    assert_eq!(main_runs.len(), 8);
    for r in &main_runs[..6] {
        // A fresh class loader per run: `Early`'s static initialiser locks every time.
        assert!(r.completed, "{r:?}");
        assert_eq!(r.events.first().map(|e| e.method.as_str()), Some("lock"));
        assert_eq!(r.inputs.len(), 2, "{r:?}");
        assert_eq!((r.inputs[0].kind.as_str(), r.inputs[0].line), ("input", 15));
        assert_eq!((r.inputs[1].kind.as_str(), r.inputs[1].line), ("input", 18));
    }
    let both: Vec<bool> = main_runs[..6]
        .iter()
        .map(|r| r.inputs[0].value == serde_json::json!(true))
        .collect();
    assert!(both.contains(&true) && both.contains(&false), "{both:?}");
    let ok = main_runs[6];
    assert!(ok.completed && ok.divergence.is_none(), "{ok:?}");
    let methods: Vec<&str> = ok.events.iter().map(|e| e.method.as_str()).collect();
    assert_eq!(methods, ["lock", "unlock"]);
    let off = main_runs[7];
    assert!(!off.completed, "{off:?}");
    assert!(
        off.divergence
            .as_deref()
            .is_some_and(|d| d.contains("line 18")),
        "{off:?}"
    );
    let spin_run = runs.iter().find(|r| r.program == "spin").expect("a run");
    assert!(!spin_run.completed);
    assert_eq!(spin_run.outcome, "timeout");
    let _ = std::fs::remove_dir_all(&dir);
}

const LIBRARY: &str = "// spec: lock.cfg
class Main {
    static ReentrantLock L = new ReentrantLock();

    static native int level();

    public static void main(String[] args) {
        try {
            int n = Input.readInt();
            L.lock();
        } catch (RuntimeException e) {
            L.lock();
            L.lock();
        }
        try {
            Lib.work();
        } catch (Exception e) {
            L.unlock();
        }
        if (level() > 5) {
            L.unlock();
        }
        Lib.run(() -> L.lock());
        Lib.later(() -> L.unlock());
    }
}
";

#[test]
fn replays_make_library_calls_throw_call_back_and_natives_answer() {
    let Some(jdk) = jdk() else { return };
    let dir = work("library");
    let lock = Protocol::resolve("lock", &specs()).expect("built-in");
    let p = java_program(&translate(LIBRARY).text, "p0", &lock, None).expect("java");
    let (runtime, classes) = compile(&jdk, &dir, std::slice::from_ref(&p));
    let tokens = |t: &[&str]| -> Vec<String> { t.iter().map(|s| s.to_string()).collect() };
    let path = [
        "input:9::i0",
        "throw:9:readInt:cRuntimeException",
        "throw:16:work:cException",
        "ext:20:level:i7",
        "calls:23:run:i2",
        "later:24:later:i0",
        "later:24:later:i0",
    ];
    let jobs = vec![job(
        "library",
        "p0",
        &p,
        (0..4).collect(),
        vec![
            ("path".into(), tokens(&path)),
            ("quiet".into(), tokens(&["input:9::i0", "ext:20:level:i0"])),
            (
                "none".into(),
                tokens(&["input:9::i0", "ext:20:level:i0", "later:24:later:i1"]),
            ),
        ],
    )];
    let runs = jvm::run_jobs(&jdk, &runtime, &classes, &dir, &jobs, 1).expect("the driver runs");
    assert_eq!(runs.len(), 7);
    let methods =
        |r: &JvmRun| -> Vec<String> { r.events.iter().map(|e| e.method.clone()).collect() };
    for r in &runs[..4] {
        // Random runs: no library call throws; the native's result is drawn at its call.
        assert!(r.completed, "{r:?}");
        assert_eq!(
            methods(r).first().map(String::as_str),
            Some("lock"),
            "{r:?}"
        );
        assert!(!r.inputs.iter().any(|i| i.kind == "throw"), "{r:?}");
        assert!(
            r.inputs.iter().any(|i| i.kind == "ext" && i.line == 20),
            "{r:?}"
        );
    }
    let path_run = &runs[4];
    assert!(
        path_run.completed && path_run.divergence.is_none(),
        "{path_run:?}"
    );
    assert_eq!(
        methods(path_run),
        ["lock", "lock", "unlock", "unlock", "lock", "lock", "unlock", "unlock"],
        "{path_run:?}"
    );
    let thrown: Vec<(u32, serde_json::Value)> = path_run
        .inputs
        .iter()
        .filter(|i| i.kind == "throw")
        .map(|i| (i.line, i.value.clone()))
        .collect();
    assert_eq!(
        thrown,
        [
            (9, serde_json::json!("RuntimeException")),
            (16, serde_json::json!("Exception"))
        ]
    );
    assert!(path_run.unthrown.is_empty(), "{path_run:?}");
    let quiet = &runs[5];
    assert!(quiet.completed && quiet.divergence.is_none(), "{quiet:?}");
    assert_eq!(methods(quiet), ["lock"], "{quiet:?}");
    let none = &runs[6];
    assert!(
        none.divergence
            .as_deref()
            .is_some_and(|d| d.contains("object #2") && d.contains("line 24")),
        "{none:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
