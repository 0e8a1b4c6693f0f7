//! cfp's answer for a program: the release `cfp check FILE --spec SPEC --json
//! --no-timing` run as a process (a crash of cfp is then a result, not the oracle's end).

use crate::error::OracleError;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// What cfp said.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Exit 0.
    Verified,
    /// Exit 1.
    Violation,
    /// Exit 2.
    Unknown,
    /// Exit 3: cfp does not take the program (a construct it does not parse or lower).
    Rejected,
    /// Anything else (a panic is exit 101).
    Crashed,
}

impl Verdict {
    /// Its name in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Verified => "verified",
            Verdict::Violation => "violation",
            Verdict::Unknown => "unknown",
            Verdict::Rejected => "rejected",
            Verdict::Crashed => "crashed",
        }
    }
}

/// One `cfp check`.
#[derive(Clone, Debug, Serialize)]
pub struct CfpAnswer {
    /// The verdict.
    pub verdict: Verdict,
    /// The exit code (-1 when killed by a signal).
    pub exit: i32,
    /// The `--json` object (absent when cfp printed none).
    pub json: Option<serde_json::Value>,
    /// The first lines of stderr (the diagnostics of a rejected program).
    pub stderr: String,
    /// Wall-clock time of the process.
    pub millis: u64,
}

impl CfpAnswer {
    /// The counterexample's word (empty unless a violation).
    pub fn word(&self) -> Vec<String> {
        self.json
            .as_ref()
            .and_then(|j| j["counterexample"]["word"].as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The reason of an `unknown`, or the first diagnostic of a rejected program.
    pub fn reason(&self) -> String {
        match self.verdict {
            Verdict::Rejected | Verdict::Crashed => first_error(&self.stderr),
            _ => self
                .json
                .as_ref()
                .and_then(|j| j["reason"].as_str())
                .unwrap_or("")
                .to_string(),
        }
    }
}

/// The first `error:` line of cfp's stderr (or its first line).
pub fn first_error(stderr: &str) -> String {
    stderr
        .lines()
        .find(|l| l.contains("error"))
        .or_else(|| stderr.lines().next())
        .unwrap_or("")
        .trim()
        .to_string()
}

/// How to run cfp.
#[derive(Clone, Debug)]
pub struct Cfp {
    /// The `cfp` executable.
    pub exe: PathBuf,
    /// `--timeout` in seconds (corpus programs).
    pub timeout_secs: f64,
    /// `--timeout` in seconds for generated programs.
    pub generated_timeout_secs: f64,
    /// `--z3`, when given.
    pub z3: Option<PathBuf>,
}

impl Cfp {
    /// `cfp check program --spec spec --json --no-timing [--entry entry]`.
    pub fn check(
        &self,
        program: &Path,
        spec: &Path,
        entry: Option<&str>,
        generated: bool,
    ) -> Result<CfpAnswer, OracleError> {
        let timeout = if generated {
            self.generated_timeout_secs
        } else {
            self.timeout_secs
        };
        let mut cmd = Command::new(&self.exe);
        cmd.arg("check")
            .arg(program)
            .arg("--spec")
            .arg(spec)
            .args(["--json", "--no-timing", "--timeout"])
            .arg(format!("{timeout}"));
        if let Some(e) = entry {
            cmd.args(["--entry", e]);
        }
        if let Some(z3) = &self.z3 {
            cmd.arg("--z3").arg(z3);
        }
        let started = Instant::now();
        let out = cmd.output().map_err(|e| OracleError::Spawn {
            tool: self.exe.display().to_string(),
            source: e,
        })?;
        let millis = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let exit = out.status.code().unwrap_or(-1);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr: String = String::from_utf8_lossy(&out.stderr)
            .lines()
            .take(40)
            .collect::<Vec<_>>()
            .join("\n");
        let json: Option<serde_json::Value> = serde_json::from_str(stdout.trim()).ok();
        let named = json
            .as_ref()
            .and_then(|j| j["verdict"].as_str())
            .map(|v| match v {
                "verified" => Verdict::Verified,
                "violation" => Verdict::Violation,
                _ => Verdict::Unknown,
            });
        let verdict = match (exit, named) {
            (0, Some(Verdict::Verified)) => Verdict::Verified,
            (1, Some(Verdict::Violation)) => Verdict::Violation,
            (2, Some(Verdict::Unknown)) => Verdict::Unknown,
            (3, _) => Verdict::Rejected,
            _ => Verdict::Crashed,
        };
        Ok(CfpAnswer {
            verdict,
            exit,
            json,
            stderr,
            millis,
        })
    }
}

/// A program every working cfp verifies.
const PROBE: &str = "class Main {\n    public static void main(String[] args) {\n    }\n}\n";

impl Cfp {
    /// Check that cfp runs and can verify (finds its z3): a trivial program must verify.
    pub fn probe(&self, dir: &Path) -> Result<(), OracleError> {
        let program = dir.join("probe.java");
        let spec = dir.join("probe.cfg");
        crate::error::write(&program, PROBE)?;
        crate::error::write(
            &spec,
            "wildcard $1 : Lock;\nS -> $1.lock() S $1.unlock() S | ε;\n",
        )?;
        let a = self.check(&program, &spec, None, false)?;
        if a.verdict == Verdict::Verified {
            Ok(())
        } else {
            Err(OracleError::Tool {
                tool: self.exe.display().to_string(),
                message: format!(
                    "cfp does not verify a trivial program (exit {}): {}",
                    a.exit,
                    a.stderr.lines().take(5).collect::<Vec<_>>().join("\n")
                ),
            })
        }
    }
}
