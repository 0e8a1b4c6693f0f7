//! Several program files read as one program (`cfp check src/ models/`).
//!
//! A [`SourceSet`] lays its files end to end in one text, each starting on a line of its
//! own, so that every span of every file is an offset into that one text (the front end,
//! the lowering and the traces keep working with plain [`Span`]s). [`SourceSet::locate`]
//! turns an offset back into the file and its own line and column, and
//! [`parse_sources`] parses each file within the text, resolves the class names of the
//! files as javac does (packages, imports, nested classes: [`crate::resolve`]) and merges
//! their classes into one [`CompilationUnit`] in which every class has a name of its own.
//!
//! One text can also hold several files, each starting at a marker line
//! `// -- path/Name.java --` (the playground's editor, a file saved from it):
//! [`SourceSet::add_marked`] splits it in place, so the combined text is that text
//! unchanged and a file's lines are numbered within the file. The markers are comments,
//! so a marked text is a program of its own too.
//!
//! This module reads no files: the hosts read them and hand over names and texts.

use crate::ast::CompilationUnit;
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

    /// A set of the files of `text` ([`SourceSet::add_marked`]).
    pub fn from_marked(name: impl Into<String>, text: &str) -> SourceSet {
        let mut s = SourceSet::new();
        s.add_marked(name, text);
        s
    }

    /// Append the files of `text`: one file named `name` when it has no marker line;
    /// else one file per marker (`// -- path/Name.java --`, see the module docs), named by
    /// it, from the line after the marker to the next marker line (inclusive: a marker
    /// is a comment closing the file before it), so that a file's lines are numbered as
    /// in the file it stands for. The lines up to the first marker are a file named
    /// `name`. Returns how many files were added; together they are the text unchanged.
    pub fn add_marked(&mut self, name: impl Into<String>, text: &str) -> usize {
        let markers = file_markers(text);
        if markers.is_empty() {
            self.add(name, text);
            return 1;
        }
        let mut start = 0;
        let mut file = name.into();
        for (end, next) in &markers {
            self.add(
                std::mem::replace(&mut file, (*next).to_owned()),
                &text[start..*end],
            );
            start = *end;
        }
        self.add(file, &text[start..]);
        markers.len() + 1
    }

    /// The 1-based line of the combined text of line `line` of file `name` (the first
    /// file of that name), if there is one.
    pub fn combined_line(&self, name: &str, line: u32) -> Option<u32> {
        let f = self.files.iter().find(|f| f.name == name)?;
        Some(f.first_line + line.checked_sub(1)?)
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

/// The name a marker line gives its file: `// -- path/Name.java --` (spaces around it
/// allowed) names `path/Name.java`.
pub fn file_marker(line: &str) -> Option<&str> {
    let name = line
        .trim()
        .strip_prefix("// -- ")?
        .strip_suffix(" --")?
        .trim();
    (!name.is_empty() && !name.contains("--")).then_some(name)
}

/// The marker lines of `text`: where each ends (after its newline), and the name it
/// gives.
fn file_markers(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        at += line.len();
        if let Some(name) = file_marker(line) {
            out.push((at, name));
        }
    }
    out
}

/// Parse every file of `sources`, resolve their class names as javac does
/// ([`crate::resolve`]: each class gets its program name, unique in the tree) and merge
/// their classes, in file order, into one unit whose spans point into
/// [`SourceSet::text`]. Diagnostics are in file order; two classes of the same qualified
/// name are an error at the second that names both files.
pub fn parse_sources(sources: &SourceSet) -> Parsed<CompilationUnit> {
    let mut units = Vec::new();
    let mut diagnostics = Vec::new();
    for f in sources.files() {
        let parsed = parse_program_in(sources.text(), f.start..f.end);
        diagnostics.extend(parsed.diagnostics);
        units.push(parsed.tree);
    }
    let generated: Vec<bool> = (0..units.len()).map(|i| sources.is_generated(i)).collect();
    let names: Vec<&str> = sources.files().iter().map(|f| f.name.as_str()).collect();
    diagnostics.extend(crate::resolve::resolve(&mut units, &generated, &names));
    let mut merged = CompilationUnit {
        package: None,
        imports: Vec::new(),
        classes: Vec::new(),
        span: Span::new(0, sources.text().len()),
        closures: 0,
        unsupported: Vec::new(),
    };
    for unit in units {
        merged.unsupported.extend(unit.unsupported);
        merged.imports.extend(unit.imports);
        merged.classes.extend(unit.classes);
        merged.closures += unit.closures;
    }
    Parsed {
        tree: merged,
        diagnostics,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marked_text_is_split_in_place() {
        let text = "// a bundle\n// -- app/A.java --\nclass A { }\n\n  // -- lib/B.java --  \nclass B { }\n";
        let set = SourceSet::from_marked("bundle.java", text);
        assert_eq!(set.text(), text, "the combined text is the text unchanged");
        let names: Vec<&str> = set.files().iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["bundle.java", "app/A.java", "lib/B.java"]);
        assert_eq!(set.file_text(0), "// a bundle\n// -- app/A.java --\n");
        assert_eq!(set.file_text(1), "class A { }\n\n  // -- lib/B.java --  \n");
        assert_eq!(set.files()[2].first_line, 6);
        assert_eq!(set.combined_line("lib/B.java", 1), Some(6));
        assert_eq!(set.combined_line("app/A.java", 1), Some(3));
        assert_eq!(set.combined_line("C.java", 1), None);
        let offset = text.find("class B").unwrap();
        let (i, lc) = set.locate(offset).unwrap();
        assert_eq!((i, lc.line, lc.column), (2, 1, 1));
        let parsed = parse_sources(&set);
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        assert_eq!(parsed.tree.classes.len(), 2);
        let first = SourceSet::from_marked("", "// -- A.java --\nclass A { }");
        assert_eq!(first.file_text(0), "// -- A.java --\n");
        assert_eq!(first.file_text(1), "class A { }");
    }

    #[test]
    fn text_without_markers_is_one_file() {
        for text in [
            "class A { }",
            "// -- --\nclass A { }",
            "x = a -- b --;",
            "// --A.java--",
        ] {
            let set = SourceSet::from_marked("A.java", text);
            assert_eq!(set.files().len(), 1, "{text}");
            assert_eq!(set.files()[0].name, "A.java");
        }
        assert_eq!(file_marker(" // -- p/Q.java -- \n"), Some("p/Q.java"));
        assert_eq!(file_marker("// -- a -- b --"), None);
    }

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
    fn same_named_classes_of_two_packages_get_names_of_their_own() {
        let mut s = SourceSet::new();
        s.add("x/Lock.java", "package x;\nclass Lock {}\n");
        s.add("y/Lock.java", "package y;\nclass Lock {}\n");
        let p = parse_sources(&s);
        assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
        let names: Vec<&str> = p
            .tree
            .classes
            .iter()
            .map(|c| c.name.name.as_str())
            .collect();
        assert_eq!(names, ["x$Lock", "y$Lock"]);
    }

    #[test]
    fn a_single_file_is_its_own_text() {
        let s = SourceSet::single("p.java", "class A {}");
        assert_eq!(s.text(), "class A {}");
        assert!(!s.is_multi());
        assert_eq!(parse_sources(&s).tree.classes.len(), 1);
    }
}
