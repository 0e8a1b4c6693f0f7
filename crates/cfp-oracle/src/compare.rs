//! The two checks between cfp's answer and the JVM's runs of one program:
//!
//! * (A) a JVM run that completes and records a word the spec rejects shows a violation:
//!   cfp must not say `verified`;
//! * (B) a violation cfp reports must replay on the JVM: with the inputs of cfp's path
//!   ([`crate::replay`]) the run completes and records cfp's word for some binding of the
//!   wildcards, a word the spec rejects.

use crate::cfp::{CfpAnswer, Verdict};
use crate::jvm::JvmRun;
use crate::protocol::Protocol;
use crate::replay::{ReplayError, ReplayInput};
use crate::words::{self, Word};
use serde::Serialize;

/// A disagreement between cfp and the JVM.
#[derive(Clone, Debug, Serialize)]
pub struct Disagreement {
    /// `A` or `B`.
    pub check: char,
    /// A short name of its kind (the report groups by it).
    pub kind: String,
    /// What happened, in a sentence.
    pub detail: String,
    /// The JVM run that shows it (a rejected word's run, or the replay).
    pub run: Option<JvmRun>,
    /// The rejected word and its binding (A), or the replay's words (B).
    pub words: Vec<Word>,
    /// The inputs of cfp's path (B).
    pub inputs: Vec<ReplayInput>,
    /// False for a replay of an `// entry:` program that the JVM cannot reproduce: cfp
    /// starts it from an arbitrary receiver and arguments (fields, arrays and collections
    /// of any content), the JVM's driver from objects its constructors make. Reported, not
    /// counted as a disagreement.
    pub counted: bool,
}

/// Check (A) over the random runs: the first completed run with a rejected word, when
/// cfp said `verified`. Also returns how many completed runs had a rejected word.
pub fn check_a(
    protocol: &Protocol,
    cfp: &CfpAnswer,
    runs: &[JvmRun],
) -> (usize, Option<Disagreement>) {
    let mut rejected = 0;
    let mut first = None;
    for r in runs.iter().filter(|r| r.completed) {
        let ws = words::words(protocol, &r.events, &r.object_classes());
        let bad: Vec<Word> = ws.into_iter().filter(|w| !w.accepted).collect();
        if bad.is_empty() {
            continue;
        }
        rejected += 1;
        if first.is_none() && cfp.verdict == Verdict::Verified {
            first = Some(Disagreement {
                check: 'A',
                kind: "A: cfp verified, a JVM run completes with a word the spec rejects".into(),
                detail: format!(
                    "seed {}: the run completes with [{}]",
                    r.seed,
                    bad[0].word.join(" ")
                ),
                run: Some(r.clone()),
                words: bad,
                inputs: Vec::new(),
                counted: true,
            });
        }
    }
    (rejected, first)
}

/// Check (B) for a violation: `inputs` are the replay's inputs (or why there are none),
/// `run` the JVM's replay run; `entry` for a program started at an `// entry:` method
/// (its JVM-side failures are not counted, see [`Disagreement::counted`]).
pub fn check_b(
    protocol: &Protocol,
    cfp: &CfpAnswer,
    inputs: &Result<Vec<ReplayInput>, ReplayError>,
    run: Option<&JvmRun>,
    entry: bool,
) -> Option<Disagreement> {
    if cfp.verdict != Verdict::Violation {
        return None;
    }
    let word = cfp.word();
    let shown = word.join(" ");
    let fail = |kind: &str,
                detail: String,
                run: Option<&JvmRun>,
                words: Vec<Word>,
                ins: &[ReplayInput]| {
        let kind = if entry {
            format!("B (entry program, not counted): {kind}")
        } else {
            format!("B: {kind}")
        };
        Some(Disagreement {
            check: 'B',
            kind,
            detail,
            run: run.cloned(),
            words,
            inputs: ins.to_vec(),
            counted: !entry,
        })
    };
    let inputs = match inputs {
        Ok(i) => i,
        Err(e @ ReplayError::NotReceived { made, .. }) => {
            // No JVM run has the path: counted, but for an object there before an
            // `// entry:` method ran (its library may have received it before).
            let counted = *made || !entry;
            let kind = if counted {
                "B: cfp's path calls back an object no library call received"
            } else {
                "B (entry program, not counted): cfp's path calls back an object there before the entry"
            };
            return Some(Disagreement {
                check: 'B',
                kind: kind.into(),
                detail: format!("{e} (cfp's word [{shown}])"),
                run: None,
                words: Vec::new(),
                inputs: Vec::new(),
                counted,
            });
        }
        Err(e) => {
            // cfp's own interpreter: counted for every program.
            return Some(Disagreement {
                check: 'B',
                kind: "B: cfp's counterexample cannot be replayed by cfp's interpreter".into(),
                detail: format!("{e} (cfp's word [{shown}])"),
                run: None,
                words: Vec::new(),
                inputs: Vec::new(),
                counted: true,
            });
        }
    };
    let Some(run) = run else {
        return fail(
            "no JVM replay run",
            "the driver printed no replay run".into(),
            None,
            Vec::new(),
            inputs,
        );
    };
    let unthrown = if run.unthrown.is_empty() {
        String::new()
    } else {
        format!(
            "; throws of cfp's path no call of the JVM run made: {}",
            run.unthrown.join(", ")
        )
    };
    if let Some(d) = &run.divergence {
        return fail(
            "the JVM leaves cfp's path",
            format!("{d} (cfp's word [{shown}]){unthrown}"),
            Some(run),
            Vec::new(),
            inputs,
        );
    }
    if !run.completed {
        let what = run.exception.clone().unwrap_or_else(|| run.outcome.clone());
        let class = what.split(':').next().unwrap_or("").to_string();
        return fail(
            &format!("the JVM replay does not complete ({} {class})", run.outcome),
            format!(
                "the replay ends with {} ({what}); cfp's word [{shown}]{unthrown}",
                run.outcome
            ),
            Some(run),
            Vec::new(),
            inputs,
        );
    }
    let ws = words::words(protocol, &run.events, &run.object_classes());
    match ws.iter().find(|w| w.word == word) {
        Some(w) if !w.accepted => None,
        Some(_) => fail(
            "cfp's word is in the spec",
            format!("the spec accepts cfp's word [{shown}]"),
            Some(run),
            ws,
            inputs,
        ),
        None => fail(
            "the JVM replay records another word",
            format!(
                "no object of the replay has cfp's word [{shown}]; the JVM's words: {}{unthrown}",
                ws.iter()
                    .map(|w| format!("[{}]", w.word.join(" ")))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Some(run),
            ws,
            inputs,
        ),
    }
}
