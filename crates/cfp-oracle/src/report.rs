//! The oracle's report: a table of counts (corpus, generated, total), the reasons of the
//! skipped and failed programs, the disagreements grouped by kind with the smallest
//! program of each kind, and each disagreement in full (program, cfp's answer, the JVM
//! run: inputs, events, outcome).

use crate::cfp::Verdict;
use crate::compare::Disagreement;
use crate::jvm::JvmRun;
use crate::oracle::{Outcome, ProgramReport, Status};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Counts of one column of the table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Programs.
    pub programs: usize,
    /// Skipped (harness programs, no main).
    pub skipped: usize,
    /// Not a program of cfp's language (generator bug).
    pub not_programs: usize,
    /// Not translated or not compiled by javac.
    pub not_compiled: usize,
    /// Compiled (and run).
    pub compiled: usize,
    /// cfp's verdicts on the compiled programs.
    pub verified: usize,
    /// See `verified`.
    pub violation: usize,
    /// See `verified`.
    pub unknown: usize,
    /// cfp exit 3.
    pub rejected: usize,
    /// cfp crashed.
    pub crashed: usize,
    /// Random JVM runs.
    pub runs: usize,
    /// Of those, completed.
    pub completed: usize,
    /// Completed runs with a word the spec rejects.
    pub rejected_words: usize,
    /// Programs with a disagreement (A).
    pub a: usize,
    /// Programs with a disagreement (B).
    pub b: usize,
    /// `// entry:` programs whose replay the JVM cannot reproduce (not counted).
    pub b_entry: usize,
}

impl Counts {
    fn add(&mut self, p: &ProgramReport) {
        self.programs += 1;
        match &p.status {
            Status::Skipped(_) => {
                self.skipped += 1;
                return;
            }
            Status::NotAProgram(_) => {
                self.not_programs += 1;
                return;
            }
            Status::NotTranslated(_) | Status::NotCompiled(_) => self.not_compiled += 1,
            Status::Compared => self.compiled += 1,
        }
        match p.cfp.as_ref().map(|c| c.verdict) {
            Some(Verdict::Verified) => self.verified += 1,
            Some(Verdict::Violation) => self.violation += 1,
            Some(Verdict::Unknown) => self.unknown += 1,
            Some(Verdict::Rejected) => self.rejected += 1,
            Some(Verdict::Crashed) => self.crashed += 1,
            None => {}
        }
        self.runs += p.runs;
        self.completed += p.completed;
        self.rejected_words += p.rejected_runs;
        if p.disagreements.iter().any(|d| d.check == 'A') {
            self.a += 1;
        }
        if p.disagreements.iter().any(|d| d.check == 'B' && d.counted) {
            self.b += 1;
        }
        if p.disagreements.iter().any(|d| d.check == 'B' && !d.counted) {
            self.b_entry += 1;
        }
    }

    /// The counts of `programs`.
    pub fn of<'a>(programs: impl IntoIterator<Item = &'a ProgramReport>) -> Counts {
        let mut c = Counts::default();
        for p in programs {
            c.add(p);
        }
        c
    }
}

/// The table: one row per count, columns corpus, generated, total.
pub fn table(outcome: &Outcome) -> String {
    let corpus = Counts::of(outcome.programs.iter().filter(|p| !p.generated));
    let generated = Counts::of(outcome.programs.iter().filter(|p| p.generated));
    let total = Counts::of(&outcome.programs);
    type Row = (&'static str, fn(&Counts) -> usize);
    let rows: [Row; 16] = [
        ("programs", |c| c.programs),
        ("skipped", |c| c.skipped),
        ("not a program of cfp (generator)", |c| c.not_programs),
        ("not translated/compiled", |c| c.not_compiled),
        ("compiled", |c| c.compiled),
        ("cfp verified", |c| c.verified),
        ("cfp violation", |c| c.violation),
        ("cfp unknown", |c| c.unknown),
        ("rejected by cfp (exit 3)", |c| c.rejected),
        ("cfp crashed", |c| c.crashed),
        ("JVM runs", |c| c.runs),
        ("JVM runs completed", |c| c.completed),
        ("JVM-rejected words (runs)", |c| c.rejected_words),
        ("disagreements (A)", |c| c.a),
        ("disagreements (B)", |c| c.b),
        ("entry replays not reproduced", |c| c.b_entry),
    ];
    let mut out = format!(
        "{:<34} {:>8} {:>10} {:>8}\n",
        "", "corpus", "generated", "total"
    );
    for (name, f) in rows {
        let _ = writeln!(
            out,
            "{name:<34} {:>8} {:>10} {:>8}",
            f(&corpus),
            f(&generated),
            f(&total)
        );
    }
    let t = &outcome.timings;
    let _ = writeln!(
        out,
        "time: prepare {:.1}s, cfp {:.1}s (meanwhile javac {:.1}s, JVM runs {:.1}s), JVM replays {:.1}s",
        t.prepare_ms as f64 / 1000.0,
        t.cfp_ms as f64 / 1000.0,
        t.javac_ms as f64 / 1000.0,
        t.jvm_ms as f64 / 1000.0,
        t.replay_ms as f64 / 1000.0
    );
    out
}

/// Where cfp's time goes: per verdict (an `unknown` per its reason's kind: a timeout, an
/// approximation, …), the programs and the summed time of their `cfp check` processes
/// (they run in parallel), and the summed time of the replay searches.
pub fn cfp_time(outcome: &Outcome) -> String {
    let mut rows: BTreeMap<String, (usize, u64)> = BTreeMap::new();
    let mut search_ms = 0u64;
    for p in &outcome.programs {
        search_ms += p.replay_search_ms;
        let Some(a) = &p.cfp else { continue };
        let mut kind = a.verdict.as_str().to_string();
        if a.verdict == Verdict::Unknown {
            let why = a
                .json
                .as_ref()
                .and_then(|j| j["reason_kind"].as_str())
                .unwrap_or("other");
            kind = format!("unknown ({why})");
        }
        let r = rows.entry(kind).or_default();
        r.0 += 1;
        r.1 += a.millis;
    }
    if rows.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = rows
        .iter()
        .map(|(k, (n, ms))| format!("{k} {n} in {:.1}s", *ms as f64 / 1000.0))
        .collect();
    format!(
        "cfp check, summed over its processes: {}; replay searches {:.1}s\n",
        parts.join(", "),
        search_ms as f64 / 1000.0
    )
}

/// The skipped programs and the failures (not a program, not compiled, cfp crashed, and
/// with `strict` rejected by cfp), each with its reason.
pub fn reasons(outcome: &Outcome, strict: bool) -> String {
    let mut out = String::new();
    for p in &outcome.programs {
        let line = match &p.status {
            Status::Skipped(r) => format!("skipped      {}: {r}", p.name),
            Status::NotAProgram(r) => format!("NOT A PROGRAM {}: {r}", p.name),
            Status::NotTranslated(r) => format!("NOT TRANSLATED {}: {r}", p.name),
            Status::NotCompiled(r) => {
                let first: Vec<&str> = r.lines().take(6).collect();
                format!("NOT COMPILED {}:\n    {}", p.name, first.join("\n    "))
            }
            Status::Compared => match p.cfp.as_ref().map(|c| (c.verdict, c.reason())) {
                Some((Verdict::Crashed, r)) => format!("CFP CRASHED  {}: {r}", p.name),
                Some((Verdict::Rejected, r)) => {
                    let tag = if strict { "REJECTED" } else { "rejected" };
                    format!("{tag:<12} {}: {r}", p.name)
                }
                _ => continue,
            },
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// What makes the run fail: disagreements, programs that do not compile (or that the
/// generator got wrong), cfp crashes, and with `strict` programs cfp rejects.
pub fn failures(outcome: &Outcome, strict: bool) -> usize {
    outcome
        .programs
        .iter()
        .filter(|p| {
            p.disagreements.iter().any(|d| d.counted)
                || matches!(
                    p.status,
                    Status::NotAProgram(_) | Status::NotTranslated(_) | Status::NotCompiled(_)
                )
                || p.cfp.as_ref().is_some_and(|c| {
                    c.verdict == Verdict::Crashed || (strict && c.verdict == Verdict::Rejected)
                })
        })
        .count()
}

/// The generator's features of a generated program (from its header), without `(bug)`.
fn features_of(text: &str) -> Vec<String> {
    text.lines()
        .take(4)
        .find_map(|l| l.strip_prefix("// generated by cfp-oracle from seed "))
        .and_then(|l| l.split_once(": "))
        .map(|(_, list)| {
            list.split(", ")
                .map(|f| f.trim_end_matches(" (bug)").to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Per generator feature: the generated programs with it, those cfp rejects, and those
/// with a disagreement (A) and (B) — a disagreement counts for every feature of its
/// program (`--feature NAME` makes programs of one feature).
pub fn by_feature(outcome: &Outcome) -> String {
    let mut rows: BTreeMap<String, [usize; 4]> = BTreeMap::new();
    for p in outcome.programs.iter().filter(|p| p.generated) {
        let rejected = p
            .cfp
            .as_ref()
            .is_some_and(|c| c.verdict == Verdict::Rejected);
        let a = p.disagreements.iter().any(|d| d.check == 'A');
        let b = p.disagreements.iter().any(|d| d.check == 'B' && d.counted);
        for f in features_of(&p.text) {
            let r = rows.entry(f).or_default();
            r[0] += 1;
            r[1] += usize::from(rejected);
            r[2] += usize::from(a);
            r[3] += usize::from(b);
        }
    }
    if rows.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "{:<34} {:>8} {:>9} {:>5} {:>5}\n",
        "generator feature", "programs", "rejected", "A", "B"
    );
    for (f, r) in rows {
        let _ = writeln!(
            out,
            "{f:<34} {:>8} {:>9} {:>5} {:>5}",
            r[0], r[1], r[2], r[3]
        );
    }
    out
}

/// The smallest program of each kind of disagreement, in full.
pub fn smallest_details(outcome: &Outcome) -> String {
    let mut smallest: BTreeMap<&str, &ProgramReport> = BTreeMap::new();
    for p in &outcome.programs {
        for d in &p.disagreements {
            let e = smallest.entry(d.kind.as_str()).or_insert(p);
            if (p.text.lines().count(), &p.name) < (e.text.lines().count(), &e.name) {
                *e = p;
            }
        }
    }
    let mut shown: Vec<&str> = Vec::new();
    let mut out = String::new();
    for p in smallest.values() {
        if !shown.contains(&p.name.as_str()) {
            shown.push(&p.name);
            out.push_str(&details(p));
        }
    }
    out
}

/// Every disagreement on one line: program, kind, the command that re-runs it.
pub fn one_line_each(outcome: &Outcome) -> String {
    let mut out = String::new();
    for p in &outcome.programs {
        for d in &p.disagreements {
            let _ = writeln!(out, "  {:<12} {} — {}", p.name, d.kind, rerun(p));
        }
    }
    out
}

/// The disagreements by kind: count and the smallest program of each.
pub fn kinds(outcome: &Outcome) -> String {
    let mut groups: BTreeMap<&str, Vec<(&ProgramReport, &Disagreement)>> = BTreeMap::new();
    for p in &outcome.programs {
        for d in &p.disagreements {
            groups.entry(d.kind.as_str()).or_default().push((p, d));
        }
    }
    let mut out = String::new();
    for (kind, list) in &groups {
        let smallest = list
            .iter()
            .min_by_key(|(p, _)| (p.text.lines().count(), p.name.clone()));
        let _ = writeln!(out, "{:>5}  {kind}", list.len());
        if let Some((p, _)) = smallest {
            let _ = writeln!(
                out,
                "       smallest: {} ({} lines)",
                p.name,
                p.text.lines().count()
            );
        }
    }
    out
}

fn values(run: &JvmRun) -> String {
    run.inputs
        .iter()
        .map(|i| format!("{}@L{}={}", i.kind, i.line, i.value))
        .collect::<Vec<_>>()
        .join(" ")
}

fn events(run: &JvmRun) -> String {
    run.events
        .iter()
        .map(|e| {
            let args: Vec<String> = e
                .args
                .iter()
                .map(|a| a.clone().unwrap_or_else(|| "null".into()))
                .collect();
            format!("#{}.{}({})", e.obj, e.method, args.join(", "))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A JVM run in a few lines.
pub fn run_text(run: &JvmRun) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "    run {}: {}{}",
        run.run,
        run.outcome,
        run.exception
            .as_ref()
            .map(|e| format!(" ({e})"))
            .unwrap_or_default()
    );
    if let Some(d) = &run.divergence {
        let _ = writeln!(out, "    diverged: {d}");
    }
    let _ = writeln!(out, "    inputs: {}", values(run));
    let _ = writeln!(out, "    events: {}", events(run));
    let objects: Vec<String> = run
        .objects
        .iter()
        .map(|(k, v)| format!("#{k}: {}", v.first().cloned().unwrap_or_default()))
        .collect();
    let _ = writeln!(out, "    objects: {}", objects.join(", "));
    out
}

/// The command that compares this one program again, with every run shown.
pub fn rerun(p: &ProgramReport) -> String {
    format!("cfp-oracle {} -v", p.rerun)
}

/// One program's disagreements in full.
pub fn details(p: &ProgramReport) -> String {
    let mut out = String::new();
    for d in &p.disagreements {
        let _ = writeln!(
            out,
            "== {} — {} ({}, spec {})",
            d.kind, p.name, p.origin, p.spec
        );
        let _ = writeln!(out, "  {}", d.detail);
        if let Some(c) = &p.cfp {
            let summary = c
                .json
                .as_ref()
                .and_then(|j| j["counterexample"]["summary"].as_str())
                .unwrap_or("");
            let _ = writeln!(
                out,
                "  cfp: {} [{}] {summary}{}",
                c.verdict.as_str(),
                c.word().join(" "),
                if c.verdict == Verdict::Unknown {
                    format!(" ({})", c.reason())
                } else {
                    String::new()
                }
            );
        }
        if !d.inputs.is_empty() {
            let ins: Vec<String> = d
                .inputs
                .iter()
                .map(|i| format!("{}@L{} {} = {:?}", i.kind.as_str(), i.line, i.text, i.value))
                .collect();
            let _ = writeln!(out, "  cfp's path draws: {}", ins.join("; "));
        }
        for w in &d.words {
            let _ = writeln!(
                out,
                "  JVM word {:?}: [{}] {}",
                w.binding,
                w.word.join(" "),
                if w.accepted { "accepted" } else { "REJECTED" }
            );
        }
        if let Some(r) = &d.run {
            out.push_str(&run_text(r));
        }
        let _ = writeln!(out, "  re-run: {}", rerun(p));
        let _ = writeln!(out, "  program ({}):", p.cfp_file);
        for (i, l) in p.text.lines().enumerate() {
            let _ = writeln!(out, "  {:>4} | {l}", i + 1);
        }
    }
    out
}

/// One program's whole story (for `--program FILE -v`).
pub fn verbose(p: &ProgramReport) -> String {
    let mut out = format!("== {} ({}, spec {})\n", p.name, p.origin, p.spec);
    let _ = writeln!(out, "  status: {:?}", p.status);
    if let Some(c) = &p.cfp {
        let _ = writeln!(
            out,
            "  cfp: {} (exit {}, {} ms) [{}] {}",
            c.verdict.as_str(),
            c.exit,
            c.millis,
            c.word().join(" "),
            c.reason()
        );
    }
    match &p.replay_inputs {
        Some(Ok(ins)) => {
            let shown: Vec<String> = ins
                .iter()
                .map(|i| format!("{}@L{}={:?}", i.kind.as_str(), i.line, i.value))
                .collect();
            let _ = writeln!(out, "  cfp's path draws: {}", shown.join(" "));
        }
        Some(Err(e)) => {
            let _ = writeln!(out, "  cfp's path: {e}");
        }
        None => {}
    }
    for r in p.all_runs.iter().chain(&p.replay) {
        out.push_str(&run_text(r));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_come_from_the_generated_header() {
        let text = "// spec: lock.cfg\n// expect: any\n// generated by cfp-oracle from seed 4: recursion (bug), static-late\nclass Main {}\n";
        assert_eq!(features_of(text), ["recursion", "static-late"]);
        assert!(features_of("class Main {}\n").is_empty());
    }
}
