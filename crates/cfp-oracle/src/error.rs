//! The oracle's errors: everything that stops it from comparing at all (as opposed to a
//! program that fails to compile or a disagreement, which are results it reports).

use std::path::PathBuf;

/// Why the oracle could not do its work.
#[derive(Debug, thiserror::Error)]
pub enum OracleError {
    /// A file or directory could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A tool (`javac`, `java`, `cfp`) could not be started.
    #[error("cannot run `{tool}`: {source}")]
    Spawn {
        /// The tool.
        tool: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A tool ran but did not do its job (e.g. the runtime did not compile).
    #[error("`{tool}` failed: {message}")]
    Tool {
        /// The tool.
        tool: String,
        /// Its complaint.
        message: String,
    },
    /// A program file has no usable `// spec:` header, or names an unknown spec.
    #[error("{program}: {message}")]
    BadProgram {
        /// The program's name.
        program: String,
        /// What is wrong with it.
        message: String,
    },
    /// A spec does not parse.
    #[error("spec {name}: {message}")]
    BadSpec {
        /// The spec's name.
        name: String,
        /// The first error.
        message: String,
    },
    /// Output of a tool that is not what it should be.
    #[error("bad output from {tool}: {message}")]
    BadOutput {
        /// The tool.
        tool: String,
        /// What was wrong.
        message: String,
    },
}

impl OracleError {
    /// An I/O error about `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> OracleError {
        OracleError::Io {
            path: path.into(),
            source,
        }
    }
}

/// Read a file as text.
pub fn read(path: &std::path::Path) -> Result<String, OracleError> {
    std::fs::read_to_string(path).map_err(|e| OracleError::io(path, e))
}

/// Write a file, creating its directory.
pub fn write(path: &std::path::Path, text: &str) -> Result<(), OracleError> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| OracleError::io(dir, e))?;
    }
    std::fs::write(path, text).map_err(|e| OracleError::io(path, e))
}
