//! Reading input files and reporting their diagnostics on the terminal.

use cfp_syntax::{Diagnostic, LineIndex, Severity};
use std::path::{Path, PathBuf};

/// The two input languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    /// The Java subset.
    Program,
    /// The spec / grammar language.
    Spec,
}

/// Why an input file could not be used at all.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The file could not be read.
    #[error("{path}: cannot read: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file is not UTF-8 text.
    #[error("{path}:{line}:{column}: error: file is not valid UTF-8 text")]
    NotUtf8 {
        /// The file.
        path: PathBuf,
        /// Line of the first bad byte.
        line: usize,
        /// Column of the first bad byte.
        column: usize,
    },
}

/// A source file loaded in memory.
pub struct SourceFile {
    /// The name shown in diagnostics (as given on the command line).
    pub name: String,
    /// The text.
    pub text: String,
    /// Line starts of `text`.
    pub index: LineIndex,
}

impl SourceFile {
    /// Read `path` as UTF-8 text.
    pub fn read(path: &Path) -> Result<SourceFile, InputError> {
        let bytes = std::fs::read(path).map_err(|source| InputError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let text = match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
                let good = String::from_utf8_lossy(good);
                let line = good.matches('\n').count() + 1;
                let column = good.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
                return Err(InputError::NotUtf8 {
                    path: path.to_path_buf(),
                    line,
                    column,
                });
            }
        };
        let index = LineIndex::new(&text);
        Ok(SourceFile {
            name: path.display().to_string(),
            text,
            index,
        })
    }

    /// Print `diags` on stderr in terminal form; returns true when any is an error.
    pub fn report(&self, diags: &[Diagnostic]) -> bool {
        let mut errors = false;
        for d in diags {
            errors |= d.severity == Severity::Error;
            eprint!("{}", d.render(&self.name, &self.text, &self.index));
        }
        errors
    }
}

/// Guess the language of `path` from its extension (`.java` → program; `.cfg`, `.spec`,
/// `.grammar`, `.g` → spec), else from its text.
pub fn guess_lang(path: &Path, text: &str) -> Lang {
    match path.extension().and_then(|e| e.to_str()) {
        Some("java") => Lang::Program,
        Some("cfg" | "spec" | "grammar" | "g") => Lang::Spec,
        _ => {
            if text.contains("->") && !text.contains("class ") {
                Lang::Spec
            } else {
                Lang::Program
            }
        }
    }
}
