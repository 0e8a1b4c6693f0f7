//! Random concrete runs of every program of `tests/check` (the verdict corpus) with the
//! interpreter of `cfp_core::interp`: a sanity check of the expected verdicts.
//!
//! * `// expect: verified`: no completed run may emit a word outside the spec (Earley).
//! * `// expect: violation`: a completed run whose word is outside the spec is searched
//!   for; it must be found (the corpus is built so that random search succeeds), its
//!   decisions replayed with a `ReplayOracle` (same word), and its length may not be
//!   shorter than the file's `// word:` (which is claimed to be a shortest one); the
//!   `// word:` itself must be outside the spec.
//! * `// expect: unknown vacuous` (with `// runs: none`): no run completes.
//! * `// expect: unknown approximation`: a possible violation; the runs are only counted.

use cfp_core::interp::{run, Limits, RandomOracle, ReplayOracle};
use cfp_core::{front_end, LowerOptions};
use cfp_grammar::earley::word_in;
use cfp_grammar::Grammar;
use std::path::{Path, PathBuf};

const RUNS: u64 = 1000;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn header<'a>(src: &'a str, key: &str) -> Option<&'a str> {
    src.lines()
        .take_while(|l| l.starts_with("//"))
        .find_map(|l| l.strip_prefix(&format!("// {key}:")))
        .map(str::trim)
}

#[derive(Debug)]
struct Outcome {
    file: String,
    expect: String,
    completed: usize,
    /// Completed runs that emitted a non-empty word (the wildcard met an API object).
    nonempty: usize,
    bad_words: Vec<Vec<String>>,
}

fn check_file(path: &Path) -> Outcome {
    let src = std::fs::read_to_string(path).expect("read program");
    let file = path.file_name().unwrap().to_string_lossy().to_string();
    let spec_name = header(&src, "spec").unwrap_or_else(|| panic!("{file}: no // spec:"));
    let expect = header(&src, "expect")
        .unwrap_or_else(|| panic!("{file}: no // expect:"))
        .to_string();
    assert!(
        expect == "verified" || expect == "violation" || expect.starts_with("unknown "),
        "{file}: expect {expect}"
    );
    assert!(header(&src, "why").is_some(), "{file}: no // why:");
    let spec_src =
        std::fs::read_to_string(root().join("tests/specs").join(spec_name)).expect("read spec");
    let spec = cfp_syntax::parse_spec(&spec_src);
    assert!(!spec.has_errors(), "{spec_name}: {:?}", spec.diagnostics);
    // (A program of several files in one text is read as its files.)
    let unit = cfp_syntax::parse_sources(&cfp_syntax::SourceSet::from_marked(&file, &src));
    assert!(!unit.has_errors(), "{file}: {:?}", unit.diagnostics);
    let (program, warnings) = front_end(&unit.tree, &spec.tree, &LowerOptions::default())
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    // (A program expected to end `unknown approximation` is approximated on purpose.)
    if expect != "unknown approximation" {
        assert!(warnings.is_empty(), "{file}: warnings {warnings:?}");
        assert!(
            program.approximations.is_empty(),
            "{file}: approximations {:?}",
            program.approximations
        );
    }
    let grammar = Grammar::from_spec(&spec.tree);
    let limits = Limits {
        max_steps: 3000,
        max_depth: 60,
    };
    if expect == "violation" {
        let w = header(&src, "word").unwrap_or_else(|| panic!("{file}: no // word:"));
        let names: Vec<&str> = split_word(w);
        assert!(
            !word_in(&grammar, &names),
            "{file}: the // word: {w} is in the spec"
        );
    }
    let mut completed = 0;
    let mut nonempty = 0;
    let mut bad_words: Vec<Vec<String>> = Vec::new();
    for seed in 0..RUNS {
        let mut oracle = RandomOracle::new(seed);
        let Ok(r) = run(&program, &mut oracle, limits) else {
            continue;
        };
        assert!(r.completed);
        completed += 1;
        if !r.word.is_empty() {
            nonempty += 1;
        }
        if !word_in(&grammar, &r.word_refs()) {
            // Replaying the decisions reproduces the run.
            let mut replay = ReplayOracle::new(r.decisions.clone());
            let again = run(&program, &mut replay, limits).expect("replay completes");
            assert_eq!(again.word, r.word, "{file}: replay differs");
            assert_eq!(again.steps, r.steps, "{file}: replay differs");
            if !bad_words.contains(&r.word) {
                bad_words.push(r.word);
            }
        }
    }
    bad_words.sort_by_key(|w| (w.len(), w.clone()));
    Outcome {
        file,
        expect,
        completed,
        nonempty,
        bad_words,
    }
}

/// Split a `// word:` line into terminal names (`$1.m(_, $2)` may contain spaces after
/// commas inside the parentheses).
fn split_word(w: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = None;
    for (i, c) in w.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if c.is_whitespace() && depth == 0 {
            if let Some(s) = start.take() {
                out.push(&w[s..i]);
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push(&w[s..]);
    }
    out
}

#[test]
fn check_corpus_random_runs_agree_with_expectations() {
    let dir = root().join("tests/check");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/check")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .collect();
    files.sort();
    assert!(files.len() >= 32, "only {} corpus files", files.len());
    let mut failures = Vec::new();
    for f in &files {
        let o = check_file(f);
        let src = std::fs::read_to_string(f).unwrap();
        let found = o
            .bad_words
            .first()
            .map(|w| w.join(" "))
            .unwrap_or_else(|| "-".into());
        eprintln!(
            "{:40} {:9} completed {:3}/{RUNS} non-empty {:3}  violating words {:2}  shortest: {found}",
            o.file,
            o.expect,
            o.completed,
            o.nonempty,
            o.bad_words.len()
        );
        if header(&src, "runs") == Some("none") {
            // A program whose `// runs: none` says no execution completes.
            if o.completed > 0 {
                failures.push(format!(
                    "{}: `// runs: none`, but {} runs completed",
                    o.file, o.completed
                ));
            }
            continue;
        }
        if o.nonempty == 0 {
            failures.push(format!(
                "{}: no completed run with a non-empty word",
                o.file
            ));
        }
        match o.expect.as_str() {
            // A possible violation through an approximated construct: the runs of the
            // model may or may not break the protocol.
            e if e.starts_with("unknown ") && e != "unknown vacuous" => {}
            "verified" | "unknown vacuous" => {
                if let Some(w) = o.bad_words.first() {
                    failures.push(format!(
                        "{}: expected verified, but a run emits {}",
                        o.file,
                        w.join(" ")
                    ));
                }
            }
            _ => {
                let claimed = split_word(header(&src, "word").unwrap()).len();
                match o.bad_words.first() {
                    None => failures.push(format!("{}: no violating run found", o.file)),
                    Some(w) if w.len() < claimed => failures.push(format!(
                        "{}: // word: has length {claimed}, but a run found {} (length {})",
                        o.file,
                        w.join(" "),
                        w.len()
                    )),
                    Some(_) => {}
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn split_word_keeps_argument_lists() {
    assert_eq!(
        split_word("$1.lock()  $1.m(_, $2) $1.unlock()"),
        vec!["$1.lock()", "$1.m(_, $2)", "$1.unlock()"]
    );
}
