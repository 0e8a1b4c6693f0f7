//! Reading input files and reporting their diagnostics on the terminal.

use crate::error::CliError;
use cfp_syntax::{Diagnostic, LineIndex, Severity};
use std::path::Path;

/// The two input languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    /// The Java subset.
    Program,
    /// The spec / grammar language.
    Spec,
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
    pub fn read(path: &Path) -> Result<SourceFile, CliError> {
        let bytes = std::fs::read(path).map_err(|source| CliError::Read {
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
                let name = path.display().to_string();
                eprintln!("{name}:{line}:{column}: error: the file is not valid UTF-8 text");
                return Err(CliError::Invalid { files: vec![name] });
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

    /// Print `diags` and fail with [`CliError::Invalid`] when any is an error.
    pub fn require_no_errors(&self, diags: &[Diagnostic]) -> Result<(), CliError> {
        if self.report(diags) {
            Err(CliError::Invalid {
                files: vec![self.name.clone()],
            })
        } else {
            Ok(())
        }
    }
}

/// The spec named by a `--spec` argument: the file at `arg` when there is one, else the
/// built-in protocol of that name (`lock`, `wakelock`, …; its diagnostics name it
/// `builtin:NAME`), else [`CliError::NoSpec`].
pub fn read_spec(arg: &Path) -> Result<SourceFile, CliError> {
    match SourceFile::read(arg) {
        Err(CliError::Read { path, source }) if source.kind() == std::io::ErrorKind::NotFound => {
            match arg.to_str().and_then(cfp_syntax::builtin_spec) {
                Some(b) => Ok(SourceFile {
                    name: format!("builtin:{}", b.name),
                    text: b.text.to_owned(),
                    index: LineIndex::new(b.text),
                }),
                None => Err(CliError::NoSpec { path, source }),
            }
        }
        other => other,
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
