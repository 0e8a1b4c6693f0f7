//! Reading input files and reporting their diagnostics on the terminal.

use crate::error::CliError;
use cfp_syntax::{Diagnostic, LineIndex, Severity, SourceSet};
use std::path::{Path, PathBuf};

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

/// The program of a `cfp check`/`cfp cfa`: one file, or the `*.java` files of several
/// files and directories read as one program (ARCHITECTURE.md; [`cfp_syntax::SourceSet`]).
pub struct ProgramFiles {
    /// The files, laid end to end.
    pub sources: SourceSet,
    /// The first file's name as given (the record's and SARIF's program path).
    pub name: String,
}

impl ProgramFiles {
    /// Read `paths`: files as they are, directories recursively (their `*.java` files in
    /// path order, hidden directories skipped). A file reached twice is read once; a
    /// directory without Java files is an error. A file with file marker lines
    /// (`// -- path/Name.java --`, the playground's several files in one text) is the
    /// files it marks, named by their markers.
    pub fn read(paths: &[PathBuf]) -> Result<ProgramFiles, CliError> {
        let files = expand_paths(paths)?;
        let mut seen: Vec<PathBuf> = Vec::new();
        let mut sources = SourceSet::new();
        let mut name = String::new();
        for f in files {
            let key = std::fs::canonicalize(&f).unwrap_or_else(|_| f.clone());
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            let file = SourceFile::read(&f)?;
            if name.is_empty() {
                name.clone_from(&file.name);
            }
            sources.add_marked(file.name, &file.text);
        }
        Ok(ProgramFiles { sources, name })
    }

    /// Print `diags` (spans into the combined text) on stderr, each against its own
    /// file; returns the names of the files with errors (empty: none).
    pub fn report(&self, diags: &[Diagnostic]) -> Vec<String> {
        let mut bad: Vec<String> = Vec::new();
        for d in diags {
            let i = self.sources.file_of(d.span.start as usize).unwrap_or(0);
            // Warnings about the built-in models and the harness are not the user's.
            if d.severity == Severity::Warning && self.sources.is_generated(i) {
                continue;
            }
            let name = self.sources.files().get(i).map_or("", |f| f.name.as_str());
            let text = self.sources.file_text(i);
            let local = Diagnostic {
                span: self.sources.local_span(i, d.span),
                ..d.clone()
            };
            eprint!("{}", local.render(name, text, &LineIndex::new(text)));
            if d.severity == Severity::Error && !bad.iter().any(|b| b == name) {
                bad.push(name.to_owned());
            }
        }
        bad
    }

    /// Print `diags` and fail with [`CliError::Invalid`] when any is an error.
    pub fn require_no_errors(&self, diags: &[Diagnostic]) -> Result<(), CliError> {
        let bad = self.report(diags);
        if bad.is_empty() {
            Ok(())
        } else {
            Err(CliError::Invalid { files: bad })
        }
    }

    /// The text of line `line` of `file` (the first file when `None`).
    pub fn line_text(&self, file: Option<&str>, line: u32) -> Option<&str> {
        let i = match file {
            Some(name) => self.sources.files().iter().position(|f| f.name == name)?,
            None => 0,
        };
        let l = usize::try_from(line).ok()?.checked_sub(1)?;
        self.sources.file_text(i).lines().nth(l)
    }
}

/// `paths` with each directory replaced by the `*.java` files under it (recursively, in
/// path order); a directory without any is an error.
pub fn expand_paths(paths: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut files: Vec<PathBuf> = Vec::new();
    for p in paths {
        if p.is_dir() {
            let before = files.len();
            java_files_under(p, &mut files)?;
            if files.len() == before {
                return Err(CliError::NoJavaFiles { path: p.clone() });
            }
        } else {
            files.push(p.clone());
        }
    }
    Ok(files)
}

/// The `*.java` files under `dir`, recursively, in path order (hidden entries and
/// symbolic links to directories skipped).
fn java_files_under(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), CliError> {
    let read = |e| CliError::Read {
        path: dir.to_path_buf(),
        source: e,
    };
    let mut entries: Vec<(PathBuf, std::fs::FileType)> = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(read)? {
        let entry = entry.map_err(read)?;
        let ty = entry.file_type().map_err(read)?;
        entries.push((entry.path(), ty));
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (path, ty) in entries {
        let hidden = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with('.'));
        if hidden {
            continue;
        }
        if ty.is_dir() {
            java_files_under(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "java") && !path.is_dir() {
            out.push(path);
        }
    }
    Ok(())
}
