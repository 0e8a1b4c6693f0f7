//! `cfp models [NAME]`: the built-in library models (`cfp_core::models`).
//!
//! Without NAME: every model with its classes and what it models (its leading comment).
//! With NAME: its text, exactly as it is added to a program (`cfp models rwlock >
//! models/RW.java` starts a model of one's own, for `--models models`). `--json`: an array
//! of `{"name", "classes", "text"}`.

use crate::error::{CliError, Exit};
use crate::output::print_stdout;
use cfp_core::models::{builtin_model, BuiltinModel, BUILTIN_MODELS};
use std::fmt::Write as _;

/// Arguments of `cfp models`.
#[derive(clap::Args, Debug)]
pub struct ModelsArgs {
    /// Print only this model's text.
    pub name: Option<String>,
    /// Print JSON: an array of {"name", "classes", "text"}.
    #[arg(long)]
    pub json: bool,
}

/// Print the built-in models (or one); an unknown NAME is a bad option (exit 3).
pub fn run(args: &ModelsArgs) -> Result<Exit, CliError> {
    let chosen: Vec<&BuiltinModel> = match &args.name {
        Some(name) => vec![builtin_model(name).ok_or_else(|| {
            let names: Vec<&str> = BUILTIN_MODELS.iter().map(|m| m.name).collect();
            CliError::bad_option(
                "NAME",
                format!(
                    "`{name}` is not a built-in model (the built-ins: {})",
                    names.join(", ")
                ),
            )
        })?],
        None => BUILTIN_MODELS.iter().collect(),
    };
    let text = if args.json {
        let all: Vec<serde_json::Value> = chosen
            .iter()
            .map(|m| serde_json::json!({ "name": m.name, "classes": m.classes, "text": m.text }))
            .collect();
        format!("{}\n", serde_json::to_string_pretty(&all)?)
    } else if args.name.is_some() {
        chosen.iter().map(|m| m.text).collect()
    } else {
        listing(&chosen)
    };
    print_stdout(&text)?;
    Ok(Exit::Ok)
}

/// Every model: `name — classes` and its description.
fn listing(models: &[&BuiltinModel]) -> String {
    let mut out = String::from(
        "Built-in library models, added to a program that uses one of their classes and \
         defines none\n(`--no-models` leaves them out; `cfp models NAME` prints one):\n",
    );
    for m in models {
        let _ = writeln!(out, "\n{} — {}", m.name, m.classes.join(", "));
        let description: Vec<&str> = m
            .text
            .lines()
            .take_while(|l| l.starts_with("//"))
            .map(|l| l.trim_start_matches('/').trim())
            .collect();
        let _ = writeln!(out, "  {}", description.join(" "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listing_names_every_model_with_its_classes() {
        let all: Vec<&BuiltinModel> = BUILTIN_MODELS.iter().collect();
        let text = listing(&all);
        assert!(
            text.contains("\nrwlock — ReadWriteLock, ReentrantReadWriteLock\n"),
            "{text}"
        );
        assert!(
            text.contains("\npower-manager — PowerManager, WakeLock\n"),
            "{text}"
        );
        assert!(text.contains("return the same lock every time"), "{text}");
    }
}
