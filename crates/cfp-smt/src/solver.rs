//! The solver boundary: SMT-LIB2 text in, the solver's textual answer out.
//!
//! Both transports (the native `z3 -in` process and Z3's wasm build in the browser) share
//! the printer and the answer reader, so only [`Solver::eval`] differs between them. The
//! trait is async because the browser's solver is: the native backend answers with an
//! immediately ready future, and the CLI drives it with [`block_on`].

use std::future::Future;

/// Why a solver call failed (as opposed to answering `unknown`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolverError {
    /// The solver could not be started or found.
    #[error("cannot start the SMT solver: {0}")]
    Unavailable(String),
    /// The solver process or module died or the transport broke.
    #[error("the SMT solver failed: {0}")]
    Crashed(String),
    /// The solver reported an error for the script.
    #[error("the SMT solver rejected the query: {0}")]
    Rejected(String),
    /// The answer could not be read.
    #[error("cannot read the SMT solver's answer: {0}")]
    Unreadable(String),
    /// The host cancelled the call.
    #[error("the SMT query was cancelled")]
    Cancelled,
    /// The call ran past its wall-clock limit ([`Solver::eval_within`]) and was stopped:
    /// a signal to try something else, not an answer.
    #[error("the SMT query ran past its limit: {0}")]
    TimedOut(String),
    /// The solver ran out of memory.
    #[error("the SMT solver ran out of memory: {0}")]
    OutOfMemory(String),
}

impl SolverError {
    /// The solver reported `message` for a script: [`SolverError::OutOfMemory`] when it
    /// says it ran out of memory, else [`SolverError::Rejected`].
    pub fn rejected(message: String) -> SolverError {
        if says_out_of_memory(&message) {
            SolverError::OutOfMemory(message)
        } else {
            SolverError::Rejected(message)
        }
    }

    /// The solver died with `message`: [`SolverError::OutOfMemory`] when it says it ran
    /// out of memory, else [`SolverError::Crashed`].
    pub fn crashed(message: String) -> SolverError {
        if says_out_of_memory(&message) {
            SolverError::OutOfMemory(message)
        } else {
            SolverError::Crashed(message)
        }
    }
}

/// Whether a solver's message means it ran out of memory (z3's "out of memory",
/// `std::bad_alloc`, Emscripten's "Cannot enlarge memory" / "OOM").
fn says_out_of_memory(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    m.contains("out of memory")
        || m.contains("bad_alloc")
        || m.contains("cannot enlarge memory")
        || message.contains("OOM")
}

/// A transport to an SMT solver.
///
/// `eval` runs one complete SMT-LIB2 script in a fresh solver state (implementations
/// reset between scripts) and returns everything the solver printed, in order.
pub trait Solver {
    /// Evaluate `script` and return the solver's output.
    fn eval(&mut self, script: &str) -> impl Future<Output = Result<String, SolverError>>;

    /// Evaluate independent scripts (each in a fresh state) and return their outputs in
    /// order. A backend with several solver instances may run them at once; the default
    /// runs them one after another.
    fn eval_all(
        &mut self,
        scripts: &[String],
    ) -> impl Future<Output = Result<Vec<String>, SolverError>> {
        async move {
            let mut out = Vec::with_capacity(scripts.len());
            for s in scripts {
                out.push(self.eval(s).await?);
            }
            Ok(out)
        }
    }

    /// Evaluate `script` like [`Solver::eval`], but stop it after about `limit_ms`
    /// milliseconds of wall-clock time with [`SolverError::TimedOut`] (the native backend
    /// kills and restarts its process, the browser's interrupts Z3). A safety net for
    /// queries whose own resource limit (`:rlimit`) might not stop them; the default runs
    /// the script without a limit.
    fn eval_within(
        &mut self,
        script: &str,
        limit_ms: u64,
    ) -> impl Future<Output = Result<String, SolverError>> {
        let _ = limit_ms;
        self.eval(script)
    }

    /// How many scripts [`Solver::eval_all`] runs at once (1: one after another).
    fn parallelism(&self) -> usize {
        1
    }

    /// Milliseconds on a monotonic clock of the host, if it has one. The core does no
    /// I/O and reads no clock itself: it measures the time of its phases (statistics only,
    /// never a decision) through this.
    fn now_ms(&self) -> Option<f64> {
        None
    }

    /// True once the host refuses further calls (its deadline passed, the run was
    /// cancelled): work between calls (building a batch of queries) asks this to stop
    /// early with [`SolverError::Cancelled`] instead of finishing work no answer will
    /// follow. The default never refuses.
    fn cancelled(&self) -> bool {
        false
    }
}

/// Drive a future to completion on the current thread, for hosts whose solver answers
/// synchronously (the native backend): polls with a no-op waker until ready.
pub fn block_on<F: Future>(fut: F) -> F::Output {
    let mut fut = std::pin::pin!(fut);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    loop {
        if let std::task::Poll::Ready(v) = fut.as_mut().poll(&mut cx) {
            return v;
        }
        std::thread::yield_now();
    }
}

#[cfg(test)]
mod tests {
    use super::SolverError;

    #[test]
    fn out_of_memory_is_told_apart() {
        for m in [
            "out of memory",
            "std::bad_alloc",
            "Cannot enlarge memory arrays to size 2305163264 bytes (OOM)",
        ] {
            assert!(matches!(
                SolverError::crashed(m.into()),
                SolverError::OutOfMemory(_)
            ));
            assert!(matches!(
                SolverError::rejected(m.into()),
                SolverError::OutOfMemory(_)
            ));
        }
        assert!(matches!(
            SolverError::rejected("unknown constant x".into()),
            SolverError::Rejected(_)
        ));
        assert!(matches!(
            SolverError::crashed("z3 exited (signal 9)".into()),
            SolverError::Crashed(_)
        ));
    }
}
