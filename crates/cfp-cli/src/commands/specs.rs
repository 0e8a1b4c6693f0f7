//! `cfp specs [NAME]`: the built-in protocols (`--spec lock`, …) and their grammars.
//!
//! Without NAME: every built-in with its classes, its description and its grammar. With
//! NAME: that spec's text exactly as `--spec NAME` reads it (`cfp specs lock > my.cfg` is a
//! starting point for a spec of one's own). `--json`: an array of
//! `{"name", "classes", "description", "text"}`.

use crate::error::{CliError, Exit};
use crate::output::print_stdout;
use cfp_syntax::{builtin_spec, builtin_spec_names, BuiltinSpec, BUILTIN_SPECS};
use serde::Serialize;
use std::fmt::Write as _;

/// Arguments of `cfp specs`.
#[derive(clap::Args, Debug)]
pub struct SpecsArgs {
    /// Print only this built-in spec's text.
    pub name: Option<String>,
    /// Print JSON: an array of {"name", "classes", "description", "text"}.
    #[arg(long)]
    pub json: bool,
}

/// One built-in as `--json` prints it.
#[derive(Serialize)]
struct SpecJson<'a> {
    name: &'a str,
    classes: Vec<String>,
    description: String,
    text: &'a str,
}

impl<'a> SpecJson<'a> {
    fn of(s: &'a BuiltinSpec) -> Self {
        SpecJson {
            name: s.name,
            classes: s.classes(),
            description: s.description(),
            text: s.text,
        }
    }
}

/// Print the built-ins (or one); an unknown NAME is a bad option (exit 3).
pub fn run(args: &SpecsArgs) -> Result<Exit, CliError> {
    let chosen: Vec<&BuiltinSpec> = match &args.name {
        Some(name) => vec![builtin_spec(name).ok_or_else(|| {
            CliError::bad_option(
                "NAME",
                format!(
                    "`{name}` is not a built-in spec (the built-ins: {})",
                    builtin_spec_names()
                ),
            )
        })?],
        None => BUILTIN_SPECS.iter().collect(),
    };
    let text = if args.json {
        let all: Vec<SpecJson> = chosen.iter().map(|s| SpecJson::of(s)).collect();
        format!("{}\n", serde_json::to_string_pretty(&all)?)
    } else if args.name.is_some() {
        chosen.iter().map(|s| s.text).collect()
    } else {
        listing(&chosen)
    };
    print_stdout(&text)?;
    Ok(Exit::Ok)
}

/// Every spec: a heading line (`name — classes`), its description, its grammar.
fn listing(specs: &[&BuiltinSpec]) -> String {
    let mut out = String::from(
        "Built-in specs (`cfp check PROGRAM --spec NAME`; `cfp specs NAME` prints one):\n",
    );
    for s in specs {
        let _ = writeln!(out, "\n{} — {}", s.name, s.classes().join(", "));
        let _ = writeln!(out, "  {}", s.description());
        for line in s.text.lines() {
            if line.trim_start().starts_with("//") || line.trim().is_empty() {
                continue;
            }
            let _ = writeln!(out, "    {line}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listing_names_every_builtin_with_its_grammar() {
        let all: Vec<&BuiltinSpec> = BUILTIN_SPECS.iter().collect();
        let text = listing(&all);
        for s in BUILTIN_SPECS {
            assert!(text.contains(&format!("\n{} — ", s.name)), "{}", s.name);
        }
        assert!(text.contains("    S -> $1.lock() S $1.unlock() S"));
        assert!(text.contains("    wildcard $1 : JsonGenerator;"));
        assert!(!text.contains("//"));
    }
}
