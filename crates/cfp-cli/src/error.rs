//! Exit codes and the one error type of every `cfp` command.
//!
//! Each command returns `Result<Exit, CliError>`; `main` turns the result into the process
//! exit code and prints an error once, as `cfp <command>: <message>`. Diagnostics about the
//! input files (`file:line:col: severity: message`, with a caret snippet where there is
//! source to show: syntax errors, a byte that is not UTF-8, a malformed record) are printed
//! by the command as it finds them; the error that follows them ([`CliError::Invalid`]) only
//! names the files.

use cfp_smt::SolverError;
use std::path::PathBuf;

/// The exit codes of `cfp` (ARCHITECTURE.md, "CLI contract"). A panic exits 101 (Rust's
/// default); nothing else does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    /// Verified / included / the command did what was asked.
    Ok = 0,
    /// A violation / a word outside the spec was found.
    Violation = 1,
    /// Undecided: a budget, a timeout, a cancellation, a solver failure or an approximation.
    Unknown = 2,
    /// Bad input or environment: unreadable or invalid files, bad options, no z3, an
    /// unwritable output file.
    BadInput = 3,
}

impl Exit {
    /// The process exit code.
    pub fn code(self) -> u8 {
        self as u8
    }
}

/// Why a command could not do its work. Every variant exits [`Exit::BadInput`].
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// An input file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file, as given.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// `--spec` names neither a readable file nor a built-in protocol.
    #[error("cannot read {}: {source}; and `{}` is not a built-in spec ({}; `cfp specs` shows them)", path.display(), path.display(), cfp_syntax::builtin_spec_names())]
    NoSpec {
        /// The argument, as given.
        path: PathBuf,
        /// The OS error of reading it as a file.
        source: std::io::Error,
    },
    /// A directory given as program holds no `*.java` file.
    #[error("{} holds no .java file", path.display())]
    NoJavaFiles {
        /// The directory, as given.
        path: PathBuf,
    },
    /// Input files have errors; their diagnostics were printed above.
    #[error("{} (see the diagnostics above)", invalid_summary(.files))]
    Invalid {
        /// The files with errors, as given.
        files: Vec<String>,
    },
    /// An option has a value the command cannot use.
    #[error("{flag} {message}")]
    BadOption {
        /// The option, e.g. `--timeout`.
        flag: &'static str,
        /// What is wrong with its value.
        message: String,
    },
    /// The SMT solver cannot be found or started.
    #[error("{0}")]
    Solver(#[from] SolverError),
    /// An output file could not be written.
    #[error("cannot write {what} {}: {source}", path.display())]
    Write {
        /// What the file is (`the record`).
        what: &'static str,
        /// The file, as given.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// Standard output could not be written (other than a closed pipe, which is quiet).
    #[error("cannot write the output: {0}")]
    Output(std::io::Error),
    /// The result could not be serialised as JSON.
    #[error("cannot print JSON: {0}")]
    Json(#[from] serde_json::Error),
}

fn invalid_summary(files: &[String]) -> String {
    match files {
        [one] => format!("{one} has errors"),
        many => format!("{} have errors", many.join(" and ")),
    }
}

impl CliError {
    /// The exit code this error ends the command with.
    pub fn exit_code(&self) -> Exit {
        Exit::BadInput
    }

    /// Both results, or one error: when both are [`CliError::Invalid`], one naming the
    /// files of both (so that the diagnostics of two inputs are all reported at once).
    pub fn both<A, B>(a: Result<A, CliError>, b: Result<B, CliError>) -> Result<(A, B), CliError> {
        match (a, b) {
            (Ok(a), Ok(b)) => Ok((a, b)),
            (Err(CliError::Invalid { mut files }), Err(CliError::Invalid { files: more })) => {
                files.extend(more);
                Err(CliError::Invalid { files })
            }
            (Err(e), _) | (_, Err(e)) => Err(e),
        }
    }

    /// A bad option value.
    pub fn bad_option(flag: &'static str, message: impl Into<String>) -> Self {
        CliError::BadOption {
            flag,
            message: message.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_files_and_options() {
        let e = CliError::Invalid {
            files: vec!["a.java".into()],
        };
        assert_eq!(
            e.to_string(),
            "a.java has errors (see the diagnostics above)"
        );
        let e = CliError::Invalid {
            files: vec!["a.java".into(), "b.cfg".into()],
        };
        assert_eq!(
            e.to_string(),
            "a.java and b.cfg have errors (see the diagnostics above)"
        );
        let e = CliError::bad_option("--timeout", "must be a positive number of seconds, got -1");
        assert_eq!(
            e.to_string(),
            "--timeout must be a positive number of seconds, got -1"
        );
        assert_eq!(e.exit_code(), Exit::BadInput);
        assert_eq!(Exit::Unknown.code(), 2);
    }
}
