//! `cfp` — the command-line driver of cfplay (ARCHITECTURE.md, "CLI contract").
//!
//! ```text
//! cfp parse FILE...                         diagnostics only
//! cfp cfa PROGRAM --spec SPEC [--dot]       the instrumented control-flow automata
//! cfp include GRAMMAR --spec SPEC [--json]   decide L(GRAMMAR) ⊆ L(SPEC)
//! cfp check PROGRAM --spec SPEC [--json]     verify PROGRAM against the protocol SPEC
//! cfp share RECORD [--embed] [--markdown]    a playground link for a `check --record` run
//! cfp specs [NAME] [--json]                  the built-in protocols (`--spec lock`, …)
//! ```
//! Exit codes ([`Exit`]): 0 verified / included / done, 1 violation / not included,
//! 2 unknown, 3 bad input or environment; 101 only for a panic. Diagnostics about input
//! files go to stderr as `file:line:col: severity: message` with a snippet; every other
//! error is printed once by [`main`] as `cfp <command>: <message>`.
//!
//! Only this crate touches files, the environment and processes.

mod commands;
mod error;
mod input;
mod output;
mod progress;
mod z3;

use clap::{Parser, Subcommand};
use error::{CliError, Exit};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "cfp",
    version,
    about = "Verify that a Java program uses an API according to a context-free protocol",
    after_help = "Exit codes: 0 verified/included, 1 violation/not included, 2 unknown, \
                  3 bad input or environment."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Parse programs (`.java`) or specs (`.cfg`, `.spec`, `.grammar`) and print diagnostics.
    ///
    /// Exit 0 when no file has an error, else 3.
    Parse(commands::parse::ParseArgs),
    /// Print the control-flow automata of PROGRAM, instrumented for SPEC.
    Cfa(commands::cfa::CfaArgs),
    /// Verify that every completed execution of PROGRAM follows the protocol SPEC.
    ///
    /// Exit 0 verified, 1 violation (prints the word, the nested trace and concrete
    /// values), 2 unknown (budget, timeout or undecided; prints the reason and what was
    /// ruled out), 3 bad input or no z3.
    #[command(allow_negative_numbers = true)]
    Check(commands::check::CheckArgs),
    /// Decide whether every word of GRAMMAR is in SPEC (L(GRAMMAR) ⊆ L(SPEC)).
    ///
    /// Exit 0 included, 1 not included (prints a shortest counterexample word and its
    /// derivation over GRAMMAR), 2 unknown (budget or timeout), 3 bad input.
    #[command(allow_negative_numbers = true)]
    Include(commands::include::IncludeArgs),
    /// Print a playground share link for a run recorded by `cfp check --record FILE`.
    ///
    /// The link carries the program, the spec and the iteration budget (the page re-runs
    /// the check; runs are deterministic) and, with --with-record, the recorded run itself
    /// (replayed without Z3; makes the link long). Prints one line; a warning on stderr
    /// when the link is long. Exit 0, or 3 for a bad record or bad options.
    Share(commands::share::ShareArgs),
    /// List the built-in protocols that `--spec` accepts by name (lock, wakelock, wifilock,
    /// canvas, json: the paper's Table 1) with their grammars, or print one.
    ///
    /// `cfp specs lock > my.cfg` starts a spec of one's own. Exit 0, or 3 for an unknown
    /// name.
    Specs(commands::specs::SpecsArgs),
    /// List the built-in library models (ReentrantReadWriteLock, PowerManager and its
    /// WakeLock, WifiManager and its WifiLock) with their classes, or print one.
    ///
    /// A model is added to a program that mentions one of its classes and defines none of
    /// them; `--models DIR` adds models of one's own, `--no-models` leaves the built-ins
    /// out. Exit 0, or 3 for an unknown name.
    Models(commands::models::ModelsArgs),
}

impl Command {
    /// The subcommand's name, for the `cfp <command>: ` prefix of its errors.
    fn name(&self) -> &'static str {
        match self {
            Command::Parse(_) => "parse",
            Command::Cfa(_) => "cfa",
            Command::Check(_) => "check",
            Command::Include(_) => "include",
            Command::Share(_) => "share",
            Command::Specs(_) => "specs",
            Command::Models(_) => "models",
        }
    }

    fn run(&self) -> Result<Exit, CliError> {
        match self {
            Command::Parse(args) => commands::parse::run(args),
            Command::Cfa(args) => commands::cfa::run(args),
            Command::Check(args) => commands::check::run(args),
            Command::Include(args) => commands::include::run(args),
            Command::Share(args) => commands::share::run(args),
            Command::Specs(args) => commands::specs::run(args),
            Command::Models(args) => commands::models::run(args),
        }
    }
}

/// Stack for the worker thread: trees may be up to `cfp_syntax::parser::MAX_TREE_DEPTH`
/// levels deep and every stage walks them recursively.
const STACK_BYTES: usize = 256 * 1024 * 1024;

fn main() -> ExitCode {
    let worker = std::thread::Builder::new()
        .name("cfp".into())
        .stack_size(STACK_BYTES)
        .spawn(run);
    match worker.map(|w| w.join()) {
        Ok(Ok(code)) => ExitCode::from(code),
        // The panic hook has printed the message.
        Ok(Err(_)) => ExitCode::from(101),
        Err(e) => {
            eprintln!("cfp: cannot start the worker thread: {e}");
            ExitCode::from(Exit::BadInput.code())
        }
    }
}

fn run() -> u8 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    let name = cli.command.name();
    match cli.command.run() {
        Ok(exit) => exit.code(),
        Err(e) => {
            eprintln!("cfp {name}: {e}");
            e.exit_code().code()
        }
    }
}

/// Print a command-line parsing error (or `--help`/`--version`, exit 0) as clap renders it,
/// under the same `cfp <command>: ` prefix as every other error.
fn usage_error(e: &clap::Error) -> u8 {
    if !e.use_stderr() {
        let _ = output::print_stdout(&e.to_string());
        return Exit::Ok.code();
    }
    let text = e.to_string();
    let message = text.strip_prefix("error: ").unwrap_or(&text);
    let prefix = std::env::args()
        .nth(1)
        .filter(|a| {
            <Cli as clap::CommandFactory>::command()
                .find_subcommand(a)
                .is_some()
        })
        .map_or_else(|| "cfp".to_string(), |c| format!("cfp {c}"));
    eprint!("{prefix}: {message}");
    Exit::BadInput.code()
}
