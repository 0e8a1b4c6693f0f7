//! The native backend: one long-lived `z3 -in` subprocess over pipes (feature `native`).
//!
//! Each [`Solver::eval`] sends `(reset)`, the script and `(echo "<unique marker>")`, and
//! reads stdout up to the marker line. A reader thread drains stdout (so a large script
//! never deadlocks against a full output pipe) and another keeps the tail of stderr. A
//! dead process is restarted on the next call; an optional hard deadline kills a process
//! whose answer to one call takes longer than it, and an optional instant (the end of a
//! whole run) kills any call still running then. Dropping the backend kills the process.
//!
//! Which executable to run is the host's choice (the CLI looks in `--z3`, `$CFP_Z3`,
//! `target/tools` and `PATH`); this module only runs it.

use crate::solver::{Solver, SolverError};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Most bytes of stderr kept.
const STDERR_KEEP: usize = 16 * 1024;

struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Process {
    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `z3 -in` as a [`Solver`].
pub struct NativeZ3 {
    path: PathBuf,
    process: Option<Process>,
    stderr: Arc<Mutex<String>>,
    evals: u64,
    starts: u64,
    deadline: Option<Duration>,
    /// No call runs past this instant ([`NativeZ3::set_kill_at`]).
    kill_at: Option<Instant>,
    /// Extra processes for [`Solver::eval_all`], started on first use.
    helpers: Vec<NativeZ3>,
    parallelism: usize,
}

fn lock(m: &Mutex<String>) -> std::sync::MutexGuard<'_, String> {
    match m.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    }
}

impl NativeZ3 {
    /// Start `z3 -in` at `path`.
    pub fn new(path: impl Into<PathBuf>) -> Result<Self, SolverError> {
        let mut z = NativeZ3 {
            path: path.into(),
            process: None,
            stderr: Arc::new(Mutex::new(String::new())),
            evals: 0,
            starts: 0,
            deadline: None,
            kill_at: None,
            helpers: Vec::new(),
            parallelism: 1,
        };
        z.start()?;
        Ok(z)
    }

    /// Kill the process and fail the call ([`SolverError::TimedOut`]) when the answer to
    /// one call (one script, also inside [`Solver::eval_all`]) takes longer than
    /// `deadline` (a safety net; use `:rlimit` or `:timeout` for ordinary limits). The
    /// next call starts a new process.
    pub fn set_deadline(&mut self, deadline: Option<Duration>) {
        self.deadline = deadline;
    }

    /// The current kill deadline.
    pub fn deadline(&self) -> Option<Duration> {
        self.deadline
    }

    /// Kill the process and fail the call ([`SolverError::TimedOut`]) when it is still
    /// running at `at`, and fail every call made after it without starting it: the end
    /// of a whole run (a `--timeout`), which a batch of many calls must not outlast.
    pub fn set_kill_at(&mut self, at: Option<Instant>) {
        self.kill_at = at;
    }

    /// When this call, started now, must be answered by: the earlier of the deadline
    /// and the kill instant.
    fn answer_by(&self) -> Option<Instant> {
        let by_deadline = self.deadline.map(|d| Instant::now() + d);
        match (by_deadline, self.kill_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// [`NativeZ3::eval_sync`] with the kill deadline lowered to `limit` for this call.
    pub fn eval_sync_within(
        &mut self,
        script: &str,
        limit: Duration,
    ) -> Result<String, SolverError> {
        let saved = self.deadline;
        self.deadline = Some(saved.map_or(limit, |d| d.min(limit)));
        let answer = self.eval_sync(script);
        self.deadline = saved;
        answer
    }

    /// Run up to `n` (≥ 1) scripts of one [`Solver::eval_all`] at once, on `n - 1` extra
    /// z3 processes started on first use.
    pub fn set_parallelism(&mut self, n: usize) {
        self.parallelism = n.max(1);
    }

    fn eval_all_sync(&mut self, scripts: &[String]) -> Result<Vec<String>, SolverError> {
        let p = self.parallelism.min(scripts.len());
        if p <= 1 {
            return scripts.iter().map(|s| self.eval_sync(s)).collect();
        }
        while self.helpers.len() < p - 1 {
            let h = NativeZ3::new(self.path.clone())?;
            self.helpers.push(h);
        }
        for h in &mut self.helpers {
            h.deadline = self.deadline;
            h.kill_at = self.kill_at;
        }
        // Worker `w` runs scripts `w, w + p, …` in order on its own process; worker 0 is
        // this one, on the calling thread.
        let mut helpers = std::mem::take(&mut self.helpers);
        let mut results: Vec<Option<Result<String, SolverError>>> = Vec::new();
        results.resize_with(scripts.len(), || None);
        std::thread::scope(|scope| {
            let handles: Vec<_> = helpers
                .iter_mut()
                .take(p - 1)
                .enumerate()
                .map(|(w, h)| {
                    scope.spawn(move || {
                        (w + 1..scripts.len())
                            .step_by(p)
                            .map(|i| (i, h.eval_sync(&scripts[i])))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            for i in (0..scripts.len()).step_by(p) {
                results[i] = Some(self.eval_sync(&scripts[i]));
            }
            for h in handles {
                if let Ok(v) = h.join() {
                    for (i, r) in v {
                        results[i] = Some(r);
                    }
                }
            }
        });
        self.helpers = helpers;
        results
            .into_iter()
            .map(|r| {
                r.unwrap_or_else(|| Err(SolverError::Crashed("a solver thread panicked".into())))
            })
            .collect()
    }

    /// The executable.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How many times a process was started (1 + restarts).
    pub fn starts(&self) -> u64 {
        self.starts
    }

    /// The last bytes the solver wrote to stderr.
    pub fn stderr_tail(&self) -> String {
        lock(&self.stderr).clone()
    }

    fn start(&mut self) -> Result<(), SolverError> {
        let mut child = Command::new(&self.path)
            .args(["-in", "-smt2"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| {
                SolverError::Unavailable(format!("cannot run {}: {e}", self.path.display()))
            })?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(SolverError::Unavailable("no pipes to z3".into()));
        };
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let sink = Arc::clone(&self.stderr);
        std::thread::spawn(move || {
            let mut r = stderr;
            let mut buf = [0u8; 4096];
            while let Ok(n) = r.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let mut s = lock(&sink);
                s.push_str(&String::from_utf8_lossy(&buf[..n]));
                if s.len() > STDERR_KEEP {
                    let mut cut = s.len() - STDERR_KEEP;
                    while !s.is_char_boundary(cut) {
                        cut += 1;
                    }
                    s.drain(..cut);
                }
            }
        });
        self.starts += 1;
        self.process = Some(Process {
            child,
            stdin,
            lines: rx,
        });
        Ok(())
    }

    fn crashed(&mut self, what: &str) -> SolverError {
        let status = match self.process.take() {
            Some(mut p) => {
                let _ = p.child.kill();
                p.child
                    .wait()
                    .map(|s| s.to_string())
                    .unwrap_or_else(|e| e.to_string())
            }
            None => "not running".into(),
        };
        let tail = self.stderr_tail();
        let tail = tail.trim();
        if tail.is_empty() {
            SolverError::Crashed(format!("z3 {what} ({status})"))
        } else {
            SolverError::crashed(format!("z3 {what} ({status}); stderr: {tail}"))
        }
    }

    /// Run `script` and return its output (what [`Solver::eval`] does, synchronously).
    pub fn eval_sync(&mut self, script: &str) -> Result<String, SolverError> {
        // An unbalanced script would swallow the marker and hang the conversation.
        crate::sexp::parse(script)
            .map_err(|e| SolverError::Rejected(format!("malformed script: {e}")))?;
        let answer_by = self.answer_by();
        if answer_by.is_some_and(|t| t <= Instant::now()) {
            return Err(SolverError::TimedOut(
                "the run's time was up before z3 was asked".into(),
            ));
        }
        let alive = match self.process.as_mut() {
            Some(p) => matches!(p.child.try_wait(), Ok(None)),
            None => false,
        };
        if !alive {
            if let Some(p) = self.process.take() {
                p.kill();
            }
            self.start()?;
        }
        self.evals += 1;
        let marker = format!("@cfp:done:{}:{}", std::process::id(), self.evals);
        let input = format!("(reset)\n{script}\n(echo \"{marker}\")\n");
        let Some(p) = self.process.as_mut() else {
            return Err(SolverError::Crashed("z3 is not running".into()));
        };
        if p.stdin.write_all(input.as_bytes()).is_err() || p.stdin.flush().is_err() {
            return Err(self.crashed("closed its input"));
        }
        let mut out = String::new();
        loop {
            let Some(p) = self.process.as_mut() else {
                return Err(SolverError::Crashed("z3 is not running".into()));
            };
            let line = match answer_by {
                Some(t) => match p
                    .lines
                    .recv_timeout(t.saturating_duration_since(Instant::now()))
                {
                    Ok(l) => l,
                    Err(RecvTimeoutError::Timeout) => {
                        let what = match self.deadline {
                            Some(d) if self.kill_at.is_none_or(|k| k > t) => {
                                format!("gave no answer within {d:?}")
                            }
                            _ => "gave no answer before the run's time was up".to_string(),
                        };
                        return Err(match self.crashed(&what) {
                            SolverError::Crashed(m) => SolverError::TimedOut(m),
                            other => other,
                        });
                    }
                    Err(RecvTimeoutError::Disconnected) => return Err(self.crashed("exited")),
                },
                None => match p.lines.recv() {
                    Ok(l) => l,
                    Err(_) => return Err(self.crashed("exited")),
                },
            };
            if line.trim_end_matches(['\n', '\r']) == marker {
                return Ok(out);
            }
            out.push_str(&line);
        }
    }
}

impl Solver for NativeZ3 {
    fn eval(
        &mut self,
        script: &str,
    ) -> impl std::future::Future<Output = Result<String, SolverError>> {
        std::future::ready(self.eval_sync(script))
    }

    fn eval_all(
        &mut self,
        scripts: &[String],
    ) -> impl std::future::Future<Output = Result<Vec<String>, SolverError>> {
        std::future::ready(self.eval_all_sync(scripts))
    }

    fn eval_within(
        &mut self,
        script: &str,
        limit_ms: u64,
    ) -> impl std::future::Future<Output = Result<String, SolverError>> {
        std::future::ready(self.eval_sync_within(script, Duration::from_millis(limit_ms)))
    }

    fn parallelism(&self) -> usize {
        self.parallelism
    }

    fn now_ms(&self) -> Option<f64> {
        Some(clock_ms())
    }
}

/// Milliseconds since the first call in this process (a monotonic clock).
fn clock_ms() -> f64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
        * 1e3
}

impl Drop for NativeZ3 {
    fn drop(&mut self) {
        if let Some(p) = self.process.take() {
            p.kill();
        }
    }
}
