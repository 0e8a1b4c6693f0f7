//! Several program files read as one program (`cfp check src/ models/`).
//!
//! A [`SourceSet`] lays its files end to end in one text, each starting on a line of its
//! own, so that every span of every file is an offset into that one text (the front end,
//! the lowering and the traces keep working with plain [`Span`]s). [`SourceSet::locate`]
//! turns an offset back into the file and its own line and column, and
//! [`parse_sources`] parses each file within the text and merges their classes into one
//! [`CompilationUnit`], rejecting two classes of the same name (the program language has
//! no packages: such a tree cannot be read as one program without renaming).
//!
//! This module reads no files: the hosts read them and hand over names and texts.

use crate::ast::{ClassDecl, CompilationUnit, Member};
use crate::diagnostic::Diagnostic;
use crate::parser::parse_program_in;
use crate::span::{LineCol, LineIndex, Span};
use crate::Parsed;

/// One file of a [`SourceSet`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SourceEntry {
    /// The name shown in messages (a path as given, or `<harness>`).
    pub name: String,
    /// Where the file starts in the combined text.
    pub start: usize,
    /// Where it ends (exclusive; a separating newline may follow).
    pub end: usize,
    /// 1-based line of the combined text on which the file starts.
    pub first_line: u32,
}

/// Program files laid end to end in one text (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceSet {
    text: String,
    files: Vec<SourceEntry>,
}

impl SourceSet {
    /// An empty set.
    pub fn new() -> SourceSet {
        SourceSet::default()
    }

    /// A set of one file: its text is the combined text, unchanged.
    pub fn single(name: impl Into<String>, text: impl Into<String>) -> SourceSet {
        let mut s = SourceSet::new();
        s.add(name, &text.into());
        s
    }

    /// Append a file; returns its index. It starts on a new line of the combined text.
    pub fn add(&mut self, name: impl Into<String>, text: &str) -> usize {
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.text.push('\n');
        }
        let first_line = u32::try_from(self.text.matches('\n').count() + 1).unwrap_or(u32::MAX);
        let start = self.text.len();
        self.text.push_str(text);
        self.files.push(SourceEntry {
            name: name.into(),
            start,
            end: self.text.len(),
            first_line,
        });
        self.files.len() - 1
    }

    /// The combined text every span points into.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The files, in the order they were added.
    pub fn files(&self) -> &[SourceEntry] {
        &self.files
    }

    /// True when file `i` was added by the tool, not given by the user: a library model
    /// (`<model:…>`) or a harness (`<harness:…>`).
    pub fn is_generated(&self, i: usize) -> bool {
        self.files.get(i).is_some_and(|f| f.name.starts_with('<'))
    }

    /// True when the set has more than one file (messages then name the file).
    pub fn is_multi(&self) -> bool {
        self.files.len() > 1
    }

    /// The text of file `i`.
    pub fn file_text(&self, i: usize) -> &str {
        self.files
            .get(i)
            .and_then(|f| self.text.get(f.start..f.end))
            .unwrap_or("")
    }

    /// The file holding byte `offset` of the combined text (an offset between two files
    /// belongs to the one before; past the end, to the last).
    pub fn file_of(&self, offset: usize) -> Option<usize> {
        match self.files.partition_point(|f| f.start <= offset) {
            0 => (!self.files.is_empty()).then_some(0),
            k => Some(k - 1),
        }
    }

    /// The file holding `offset` and the 1-based line and column there.
    pub fn locate(&self, offset: usize) -> Option<(usize, LineCol)> {
        let i = self.file_of(offset)?;
        let f = &self.files[i];
        let local = offset.clamp(f.start, f.end) - f.start;
        let text = self.file_text(i);
        Some((i, LineIndex::new(text).line_col(text, local)))
    }

    /// The file and its own 1-based line for line `line` of the combined text.
    pub fn locate_line(&self, line: u32) -> Option<(usize, u32)> {
        let k = self.files.partition_point(|f| f.first_line <= line);
        let i = k.checked_sub(1)?;
        Some((i, line - self.files[i].first_line + 1))
    }

    /// `span` of file `i` as a span into that file's own text.
    pub fn local_span(&self, i: usize, span: Span) -> Span {
        let Some(f) = self.files.get(i) else {
            return span;
        };
        let clamp = |o: u32| (o as usize).clamp(f.start, f.end) - f.start;
        Span::new(clamp(span.start), clamp(span.end))
    }
}

/// Parse every file of `sources` and merge their classes, in file order, into one unit
/// whose spans point into [`SourceSet::text`]. Diagnostics are in file order; two classes
/// (top-level or nested) of the same name in different files are an error at the second
/// that names both files.
pub fn parse_sources(sources: &SourceSet) -> Parsed<CompilationUnit> {
    let mut classes: Vec<ClassDecl> = Vec::new();
    let mut imports = Vec::new();
    let mut diagnostics = Vec::new();
    // (simple name, file, package) of every class seen so far.
    let mut seen: Vec<(String, usize, Option<String>)> = Vec::new();
    for (i, f) in sources.files().iter().enumerate() {
        let parsed = parse_program_in(sources.text(), f.start..f.end);
        diagnostics.extend(parsed.diagnostics);
        let unit = parsed.tree;
        let mut names = Vec::new();
        for c in &unit.classes {
            class_names(c, &mut names);
        }
        for (name, span) in names {
            if let Some((_, j, pkg)) = seen.iter().find(|(n, j, _)| *n == name && *j != i) {
                let in_pkg = |p: &Option<String>| {
                    p.as_ref()
                        .map_or(String::new(), |p| format!(" (package `{p}`)"))
                };
                diagnostics.push(Diagnostic::error(
                    "duplicate-class-in-tree",
                    span,
                    format!(
                        "class `{name}` is defined both in `{}`{} and in `{}`{}: the \
                         files are read as one program, in which a class name stands for one \
                         class; leave one of the two files out",
                        sources.files()[*j].name,
                        in_pkg(pkg),
                        f.name,
                        in_pkg(&unit.package),
                    ),
                ));
            }
            seen.push((name, i, unit.package.clone()));
        }
        imports.extend(unit.imports);
        classes.extend(unit.classes);
    }
    let end = sources.text().len();
    Parsed {
        tree: CompilationUnit {
            package: None,
            imports,
            classes,
            span: Span::new(0, end),
        },
        diagnostics,
    }
}

/// The names (with their spans) of `c` and of the classes nested in it.
fn class_names(c: &ClassDecl, out: &mut Vec<(String, Span)>) {
    out.push((c.name.name.clone(), c.name.span));
    for m in &c.members {
        if let Member::Class(inner) = m {
            class_names(inner, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two() -> SourceSet {
        let mut s = SourceSet::new();
        s.add("a/A.java", "package a;\nclass A {}");
        s.add("b/B.java", "package b;\n\nclass B { void m() { x = ; } }\n");
        s
    }

    #[test]
    fn files_start_on_their_own_lines() {
        let s = two();
        assert_eq!(s.files()[1].first_line, 3);
        assert_eq!(s.locate_line(1), Some((0, 1)));
        assert_eq!(s.locate_line(2), Some((0, 2)));
        assert_eq!(s.locate_line(5), Some((1, 3)));
        let off = s.text().find("x =").expect("in text");
        let (i, lc) = s.locate(off).expect("located");
        assert_eq!((i, lc.line, lc.column), (1, 3, 22));
    }

    #[test]
    fn spans_of_every_file_point_into_the_combined_text() {
        let s = two();
        let p = parse_sources(&s);
        assert_eq!(p.tree.classes.len(), 2);
        let b = &p.tree.classes[1];
        assert_eq!(
            &s.text()[b.name.span.start as usize..b.name.span.end as usize],
            "B"
        );
        assert_eq!(p.diagnostics.len(), 1, "{:?}", p.diagnostics);
        let (file, lc) = s
            .locate(p.diagnostics[0].span.start as usize)
            .expect("located");
        assert_eq!((file, lc.line), (1, 3));
    }

    #[test]
    fn same_named_classes_in_two_files_name_both() {
        let mut s = SourceSet::new();
        s.add("x/Lock.java", "package x;\nclass Lock {}\n");
        s.add("y/Lock.java", "package y;\nclass Lock {}\n");
        let p = parse_sources(&s);
        let [d] = &p.diagnostics[..] else {
            panic!("{:?}", p.diagnostics)
        };
        assert!(d.message.contains("x/Lock.java") && d.message.contains("y/Lock.java"));
        assert!(d.message.contains("package `y`"), "{}", d.message);
        assert_eq!(s.file_of(d.span.start as usize), Some(1));
    }

    #[test]
    fn a_single_file_is_its_own_text() {
        let s = SourceSet::single("p.java", "class A {}");
        assert_eq!(s.text(), "class A {}");
        assert!(!s.is_multi());
        assert_eq!(parse_sources(&s).tree.classes.len(), 1);
    }
}
