//! `cfp parse FILE...`: diagnostics only.

use crate::error::{CliError, Exit};
use crate::input::{guess_lang, Lang, SourceFile};
use crate::output::print_stdout;
use cfp_syntax::{has_errors, Diagnostic};
use std::path::PathBuf;

/// Arguments of `cfp parse`.
#[derive(clap::Args, Debug)]
pub struct ParseArgs {
    /// Files to parse; a directory stands for the `*.java` files under it.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Force the language instead of guessing it from the file extension.
    #[arg(long, value_enum)]
    pub lang: Option<Lang>,
    /// Print diagnostics as JSON on stdout (line, column, end, severity, code, message).
    #[arg(long)]
    pub json: bool,
}

/// Parse each file and print its diagnostics: [`Exit::Ok`] when no file has an error,
/// else [`CliError::Invalid`] naming the files with errors. An unreadable file is reported
/// and the others are still parsed.
pub fn run(args: &ParseArgs) -> Result<Exit, CliError> {
    let mut bad: Vec<String> = Vec::new();
    let mut unreadable: Option<CliError> = None;
    let mut reports = Vec::new();
    for path in &crate::input::expand_paths(&args.files)? {
        let file = match SourceFile::read(path) {
            Ok(f) => f,
            Err(e) => {
                if let Some(earlier) = unreadable.replace(e) {
                    eprintln!("cfp parse: {earlier}");
                }
                continue;
            }
        };
        let lang = args.lang.unwrap_or_else(|| guess_lang(path, &file.text));
        let diags = diagnostics_of(&file.text, lang);
        if has_errors(&diags) {
            bad.push(file.name.clone());
        }
        if args.json {
            let data: Vec<_> = diags
                .iter()
                .map(|d| d.to_data(&file.text, &file.index))
                .collect();
            reports.push(serde_json::json!({ "file": file.name, "diagnostics": data }));
        } else {
            file.report(&diags);
        }
    }
    if args.json {
        print_stdout(&format!("{}\n", serde_json::Value::Array(reports)))?;
    }
    if let Some(e) = unreadable {
        if !bad.is_empty() {
            eprintln!("cfp parse: {}", CliError::Invalid { files: bad });
        }
        return Err(e);
    }
    if bad.is_empty() {
        Ok(Exit::Ok)
    } else {
        Err(CliError::Invalid { files: bad })
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
