//! The checker's lines as lines of the editor's text. The checker numbers a line within
//! its file; the editor may hold several files (marker lines `// -- path/Name.java --`,
//! [`cfp_syntax::SourceSet::add_marked`]), and the library models and the harness the
//! checker adds are in no editor line at all.

use cfp_syntax::SourceSet;

/// The files of the editor's program, to map the checker's lines back to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditorLines {
    files: SourceSet,
}

impl EditorLines {
    /// The files of `program` (the editor's text).
    pub fn new(program: &str) -> EditorLines {
        EditorLines {
            files: SourceSet::from_marked("", program),
        }
    }

    /// The editor line of line `line` of `file` (as the checker names files: none or empty
    /// for a program of one file); 0 when the file is not in the editor (a library model,
    /// the harness) or there is no line.
    pub fn line(&self, file: Option<&str>, line: u32) -> u32 {
        match file {
            _ if line == 0 => 0,
            None | Some("") => line,
            Some(f) => self.files.combined_line(f, line).unwrap_or(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_each_file_map_to_the_editor() {
        let one = EditorLines::new("class A { }\n");
        assert_eq!(one.line(None, 3), 3);
        assert_eq!(one.line(Some(""), 3), 3);
        assert_eq!(one.line(Some("<model:rwlock>"), 3), 0);
        let two =
            EditorLines::new("// -- a/A.java --\nclass A { }\n// -- b/B.java --\nclass B { }\n");
        assert_eq!(two.line(Some("a/A.java"), 1), 2);
        assert_eq!(two.line(Some("b/B.java"), 1), 4);
        assert_eq!(two.line(Some("b/B.java"), 0), 0);
        assert_eq!(two.line(Some("<harness>"), 5), 0);
    }
}
