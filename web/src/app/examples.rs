//! The examples gallery: `static/examples/index.json` and the files it names, embedded
//! at compile time (no fetch, so the gallery works before anything else loads).
//!
//! The programs and specs are the verdict corpus's own files (`tests/check/*.java`,
//! `tests/specs/*.cfg`), so the gallery cannot drift from what the tests check; `cargo
//! xtask dist` copies the same files into `dist/examples/`.

use serde::Deserialize;

/// One gallery entry (a line of `index.json`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct ExampleEntry {
    /// Stable id (the `<option>` value).
    pub id: String,
    /// Shown in the select.
    pub title: String,
    /// Program file name in `tests/check/`.
    pub program: String,
    /// Spec file name in `tests/specs/`.
    pub spec: String,
    /// `verified` or `violation`.
    pub expected: String,
}

/// An entry with its texts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    /// The index entry.
    pub entry: ExampleEntry,
    /// Program text.
    pub program: &'static str,
    /// Spec text.
    pub spec: &'static str,
}

const INDEX: &str = include_str!("../../../static/examples/index.json");

/// Every file `index.json` may name, by file name.
const FILES: &[(&str, &str)] = &[
    (
        "01-paper-fig2.java",
        include_str!("../../../tests/check/01-paper-fig2.java"),
    ),
    (
        "02-paper-fig2-double-acquire.java",
        include_str!("../../../tests/check/02-paper-fig2-double-acquire.java"),
    ),
    (
        "24-try-finally.java",
        include_str!("../../../tests/check/24-try-finally.java"),
    ),
    (
        "25-early-return-bug.java",
        include_str!("../../../tests/check/25-early-return-bug.java"),
    ),
    (
        "26-wakelock-refcounted-ok.java",
        include_str!("../../../tests/check/26-wakelock-refcounted-ok.java"),
    ),
    (
        "27-wakelock-refcounted-bug.java",
        include_str!("../../../tests/check/27-wakelock-refcounted-bug.java"),
    ),
    (
        "28-wakelock-nonrefcounted-ok.java",
        include_str!("../../../tests/check/28-wakelock-nonrefcounted-ok.java"),
    ),
    (
        "96-wakelock-nonrefcounted-release-twice-bug.java",
        include_str!("../../../tests/check/96-wakelock-nonrefcounted-release-twice-bug.java"),
    ),
    (
        "48-android-lifecycle-leak-bug.java",
        include_str!("../../../tests/check/48-android-lifecycle-leak-bug.java"),
    ),
    (
        "49-android-lifecycle-fixed.java",
        include_str!("../../../tests/check/49-android-lifecycle-fixed.java"),
    ),
    (
        "50-model-folder-lifecycle-bug.java",
        include_str!("../../../tests/check/50-model-folder-lifecycle-bug.java"),
    ),
    (
        "30-canvas-balanced.java",
        include_str!("../../../tests/check/30-canvas-balanced.java"),
    ),
    (
        "32-canvas-double-restore.java",
        include_str!("../../../tests/check/32-canvas-double-restore.java"),
    ),
    (
        "33-json-nested.java",
        include_str!("../../../tests/check/33-json-nested.java"),
    ),
    (
        "34-json-missing-end.java",
        include_str!("../../../tests/check/34-json-missing-end.java"),
    ),
    (
        "lock-paper.cfg",
        include_str!("../../../tests/specs/lock-paper.cfg"),
    ),
    ("lock.cfg", include_str!("../../../tests/specs/lock.cfg")),
    (
        "canvas.cfg",
        include_str!("../../../tests/specs/canvas.cfg"),
    ),
    ("json.cfg", include_str!("../../../tests/specs/json.cfg")),
    (
        "wakelock.cfg",
        include_str!("../../../tests/specs/wakelock.cfg"),
    ),
];

fn file(name: &str) -> Option<&'static str> {
    FILES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The gallery, in `index.json` order. Entries naming a file that is not embedded are
/// reported as errors (the unit test keeps this list and `FILES` in sync).
pub fn gallery() -> Result<Vec<Example>, String> {
    let entries: Vec<ExampleEntry> =
        serde_json::from_str(INDEX).map_err(|e| format!("examples/index.json: {e}"))?;
    entries
        .into_iter()
        .map(|entry| {
            let program = file(&entry.program)
                .ok_or_else(|| format!("examples: {} is not embedded", entry.program))?;
            let spec = file(&entry.spec)
                .ok_or_else(|| format!("examples: {} is not embedded", entry.spec))?;
            Ok(Example {
                entry,
                program,
                spec,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_matches_embedded_files_and_headers() {
        let g = gallery().expect("gallery");
        assert_eq!(g.len(), 15);
        assert_eq!(g[0].entry.program, "01-paper-fig2.java");
        for ex in &g {
            // Each program keeps its `// spec:` and `// expect:` headers, consistent with
            // the index.
            let spec_header = format!("// spec: {}", ex.entry.spec);
            assert!(ex.program.starts_with(&spec_header), "{}", ex.entry.id);
            let expect_header = format!("// expect: {}", ex.entry.expected);
            assert!(ex.program.contains(&expect_header), "{}", ex.entry.id);
        }
        // Every embedded file is used.
        for (name, _) in FILES {
            assert!(
                g.iter()
                    .any(|e| e.entry.program == *name || e.entry.spec == *name),
                "{name} unused"
            );
        }
    }
}
