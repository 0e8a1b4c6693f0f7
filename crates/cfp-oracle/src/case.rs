//! The programs the oracle compares: files with `// spec:` headers (the corpora
//! `tests/check/`, `tests/real/`) and generated ones.

use crate::error::{read, OracleError};
use std::path::{Path, PathBuf};

/// Where a program comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A file of a corpus.
    File(PathBuf),
    /// The generator, from this seed.
    Generated(u64),
}

/// One program to compare, with its headers.
#[derive(Clone, Debug)]
pub struct Case {
    /// A short unique name (the file name, or `gen-SEED`).
    pub name: String,
    /// Where it comes from.
    pub origin: Origin,
    /// Its text, as written.
    pub text: String,
    /// The `// spec:` header: a spec file name of `tests/specs/` or a built-in's name.
    pub spec: String,
    /// The `// entry:` header (`Class.method`), if any.
    pub entry: Option<String>,
    /// The `// harness:` header, if any (such programs are skipped: no `main` to run).
    pub harness: Option<String>,
    /// The `// jvm:` header: why the JVM cannot run the program (it names on purpose a
    /// class that is not among its files); such programs are skipped.
    pub no_jvm: Option<String>,
    /// The `cfp-oracle` arguments that compare this program alone again.
    pub rerun: String,
}

/// The value of a `// key: value` line among the first lines of `text`.
pub fn header(text: &str, key: &str) -> Option<String> {
    text.lines()
        .take(8)
        .find_map(|l| {
            l.trim_start()
                .strip_prefix("//")
                .map(str::trim_start)
                .and_then(|l| l.strip_prefix(key))
                .and_then(|l| l.strip_prefix(':'))
        })
        .map(|v| v.trim().to_string())
}

impl Case {
    /// A case from a program's text (`name` is how reports call it).
    pub fn from_text(name: &str, origin: Origin, text: String) -> Result<Case, OracleError> {
        let spec = header(&text, "spec").ok_or_else(|| OracleError::BadProgram {
            program: name.to_string(),
            message: "no `// spec:` header".into(),
        })?;
        let rerun = match &origin {
            Origin::File(f) => format!("--program {}", f.display()),
            Origin::Generated(seed) => format!("--generate 1 --gen-seed {seed}"),
        };
        Ok(Case {
            name: name.to_string(),
            origin,
            rerun,
            entry: header(&text, "entry"),
            harness: header(&text, "harness"),
            no_jvm: header(&text, "jvm"),
            spec,
            text,
        })
    }

    /// A case read from a file.
    pub fn from_file(path: &Path) -> Result<Case, OracleError> {
        let text = read(path)?;
        // `dir/file.java`: unique across the corpora's directories.
        let file = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        let name = match path.parent().and_then(Path::file_name) {
            Some(dir) => format!("{}/{file}", dir.to_string_lossy()),
            None => file,
        };
        Case::from_text(&name, Origin::File(path.to_path_buf()), text)
    }
}

/// The `*.java` files directly in `dir`, sorted by name.
pub fn java_files(dir: &Path) -> Result<Vec<PathBuf>, OracleError> {
    let entries = std::fs::read_dir(dir).map_err(|e| OracleError::io(dir, e))?;
    let mut out = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| OracleError::io(dir, e))?.path();
        if path.extension().is_some_and(|e| e == "java") && path.is_file() {
            out.push(path);
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_read_from_the_first_comment_lines() {
        let text = "// spec: lock.cfg\n// expect: any\n// entry: A.run\nclass A {}\n";
        assert_eq!(header(text, "spec").as_deref(), Some("lock.cfg"));
        assert_eq!(header(text, "entry").as_deref(), Some("A.run"));
        assert_eq!(header(text, "harness"), None);
        let case = Case::from_text("a", Origin::Generated(1), text.into()).expect("has a spec");
        assert_eq!(case.spec, "lock.cfg");
        assert!(Case::from_text("b", Origin::Generated(1), "class B {}".into()).is_err());
    }
}
