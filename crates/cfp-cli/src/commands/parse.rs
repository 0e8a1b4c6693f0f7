//! `cfp parse FILE...`: diagnostics only.

use crate::input::{guess_lang, Lang, SourceFile};
use crate::EXIT_BAD_INPUT;
use cfp_syntax::{has_errors, Diagnostic};
use std::path::PathBuf;

/// Parse each file and print its diagnostics; exit 0 when no file has an error, else 3.
pub fn run(files: &[PathBuf], lang: Option<Lang>, json: bool) -> u8 {
    let mut failed = false;
    let mut reports = Vec::new();
    for path in files {
        let file = match SourceFile::read(path) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("{e}");
                failed = true;
                continue;
            }
        };
        let lang = lang.unwrap_or_else(|| guess_lang(path, &file.text));
        let diags = diagnostics_of(&file.text, lang);
        failed |= has_errors(&diags);
        if json {
            let data: Vec<_> = diags
                .iter()
                .map(|d| d.to_data(&file.text, &file.index))
                .collect();
            reports.push(serde_json::json!({ "file": file.name, "diagnostics": data }));
        } else {
            file.report(&diags);
        }
    }
    if json {
        println!("{}", serde_json::Value::Array(reports));
    }
    if failed {
        EXIT_BAD_INPUT
    } else {
        0
    }
}

/// All diagnostics of `text` read as `lang`: syntax, and for specs the well-formedness
/// checks of a protocol.
fn diagnostics_of(text: &str, lang: Lang) -> Vec<Diagnostic> {
    match lang {
        Lang::Program => cfp_syntax::parse_program(text).diagnostics,
        Lang::Spec => {
            let parsed = cfp_syntax::parse_spec(text);
            // A file that declares wildcards is a protocol: every wildcard it uses must be
            // declared. Without declarations it is a plain grammar.
            let usage = if parsed.tree.wildcards.is_empty() {
                cfp_syntax::SpecUse::Grammar
            } else {
                cfp_syntax::SpecUse::Protocol
            };
            cfp_syntax::spec_diagnostics(&parsed, usage)
        }
    }
}
