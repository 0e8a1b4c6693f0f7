//! Helpers shared by the end-to-end tests of the `cfp` binary over the workspace's
//! `tests/` corpora.

#![allow(dead_code)] // each test file uses a different subset

use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Files directly in `dir` (relative to the workspace) with one of `exts`, sorted.
pub fn files(dir: &str, exts: &[&str]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(workspace().join(dir))
        .expect("corpus directory exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| {
            p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| exts.contains(&e))
        })
        .collect();
    out.sort();
    out
}

/// The value of a `// key: value` (or `# key: value`) line among the first lines.
pub fn header(text: &str, key: &str) -> Option<String> {
    text.lines()
        .take(5)
        .find_map(|l| l.trim_start_matches(['/', '#', ' ']).strip_prefix(key))
        .map(|v| v.trim().to_string())
}

/// `path` relative to the workspace, as the CLI shows it.
pub fn rel(path: &Path) -> String {
    path.strip_prefix(workspace())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Run the `cfp` binary in the workspace root: exit code, stdout, stderr.
pub fn cfp(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cfp"))
        .args(args)
        .current_dir(workspace())
        .output()
        .expect("cfp runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
