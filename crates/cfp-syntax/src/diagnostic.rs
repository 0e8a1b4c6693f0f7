//! Diagnostics: what the parsers and checkers report, for terminals and for editors.
//!
//! Parsing never fails: every parser returns a tree plus a list of [`Diagnostic`]s.
//! [`Diagnostic::render`] formats one for a terminal (`file:line:col: severity: message`
//! and a caret snippet); [`Diagnostic::to_data`] gives the editor form
//! ([`DiagnosticData`]: line, column, end, severity, message).

use crate::span::{LineIndex, Span};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// How serious a diagnostic is. Errors make the input unusable (exit code 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The input is accepted; something looks unintended.
    Warning,
    /// The input is rejected.
    Error,
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// One message about a span of the source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// Where in the source; may be empty (a point), e.g. at end of input.
    pub span: Span,
    /// Stable machine-readable code, e.g. `expected-token`, `undefined-nonterminal`.
    pub code: &'static str,
    /// Human-readable message (one line, no trailing period).
    pub message: String,
}

/// A diagnostic resolved to 1-based lines and columns, for editors and JSON output.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiagnosticData {
    /// 1-based start line.
    pub line: u32,
    /// 1-based start column (characters).
    pub column: u32,
    /// 1-based end line.
    pub end_line: u32,
    /// 1-based end column (characters, exclusive).
    pub end_column: u32,
    /// `error` or `warning`.
    pub severity: Severity,
    /// Stable machine-readable code.
    pub code: String,
    /// Human-readable message.
    pub message: String,
}

impl Diagnostic {
    /// An error diagnostic.
    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            span,
            code,
            message: message.into(),
        }
    }

    /// A warning diagnostic.
    pub fn warning(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            span,
            code,
            message: message.into(),
        }
    }

    /// Resolve the span against `text` (the source the span points into).
    pub fn to_data(&self, text: &str, index: &LineIndex) -> DiagnosticData {
        let start = index.line_col(text, self.span.start as usize);
        let end = index.line_col(text, self.span.end as usize);
        DiagnosticData {
            line: start.line,
            column: start.column,
            end_line: end.line,
            end_column: end.column,
            severity: self.severity,
            code: self.code.to_string(),
            message: self.message.clone(),
        }
    }

    /// Terminal form: `file:line:col: severity: message`, the source line, and carets
    /// under the span (first line of the span only).
    pub fn render(&self, file: &str, text: &str, index: &LineIndex) -> String {
        let d = self.to_data(text, index);
        let mut out = format!(
            "{file}:{}:{}: {}: {}\n",
            d.line, d.column, d.severity, d.message
        );
        if let Some(line_text) = index.line_text(text, d.line) {
            let chars: Vec<char> = line_text
                .chars()
                .map(|c| if c == '\t' { ' ' } else { c })
                .collect();
            let col0 = (d.column as usize).saturating_sub(1).min(chars.len());
            let width = if d.end_line == d.line {
                (d.end_column.saturating_sub(d.column)).max(1) as usize
            } else {
                (chars.len() + 1).saturating_sub(col0).max(1)
            };
            // Long lines are shown as a window around the span, marked with `…`.
            let start = col0.saturating_sub(SNIPPET_CONTEXT);
            let end = (col0 + width.min(SNIPPET_CONTEXT) + SNIPPET_CONTEXT).min(chars.len());
            let mut shown: String = chars[start..end].iter().collect();
            let mut caret_col = col0 - start;
            if start > 0 {
                shown.insert(0, '…');
                caret_col += 1;
            }
            if end < chars.len() {
                shown.push('…');
            }
            let width = width
                .min(shown.chars().count().saturating_sub(caret_col))
                .max(1);
            let gutter = d.line.to_string();
            let pad = " ".repeat(gutter.len());
            let _ = writeln!(out, "{pad} |");
            let _ = writeln!(out, "{gutter} | {shown}");
            let _ = writeln!(
                out,
                "{pad} | {}{}",
                " ".repeat(caret_col),
                "^".repeat(width)
            );
        }
        out
    }
}

/// Characters of context shown on each side of a span in a snippet of a long line.
const SNIPPET_CONTEXT: usize = 60;

/// True when any diagnostic in `diags` is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(|d| d.severity == Severity::Error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_points_at_the_span() {
        let text = "class A {\n  int x = ;\n}\n";
        let idx = LineIndex::new(text);
        let at = text.find(';').unwrap();
        let d = Diagnostic::error(
            "expected-expression",
            Span::new(at, at + 1),
            "expected an expression, found `;`",
        );
        let out = d.render("A.java", text, &idx);
        assert_eq!(
            out,
            "A.java:2:11: error: expected an expression, found `;`\n  |\n2 |   int x = ;\n  |           ^\n"
        );
        let data = d.to_data(text, &idx);
        assert_eq!(
            (data.line, data.column, data.end_line, data.end_column),
            (2, 11, 2, 12)
        );
    }

    #[test]
    fn render_windows_long_lines() {
        let text = format!("{}BAD{}", "x".repeat(500), "y".repeat(500));
        let idx = LineIndex::new(&text);
        let d = Diagnostic::error("bad", Span::new(500, 503), "bad");
        let out = d.render("f", &text, &idx);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "f:1:501: error: bad");
        assert!(lines[2].chars().count() < 140, "{}", lines[2]);
        let caret = lines[3].chars().position(|c| c == '^').unwrap();
        let marked: String = lines[2].chars().skip(caret).take(3).collect();
        assert_eq!(marked, "BAD");
        assert_eq!(lines[3].matches('^').count(), 3);
    }
}
