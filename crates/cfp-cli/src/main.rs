//! `cfp` — the command-line driver of cfplay (DESIGN.md §2, "CLI contract").
//!
//! ```text
//! cfp parse FILE...                         diagnostics only (exit 0, or 3 on errors)
//! cfp cfa PROGRAM --spec SPEC [--dot]       the instrumented control-flow automata
//! cfp include GRAMMAR --spec SPEC [--json]   decide L(GRAMMAR) ⊆ L(SPEC)
//! cfp check PROGRAM --spec SPEC [--json]     verify PROGRAM against the protocol SPEC
//! cfp share RECORD [--embed] [--markdown]    a playground link for a `check --record` run
//! ```
//! Exit codes: 0 success / verified, 1 violation, 2 unknown, 3 bad input (diagnostics on
//! stderr as `file:line:col: message`). Only this crate touches files and processes.

mod commands;
mod input;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Exit code for bad input: unreadable files, syntax errors, bad flags.
pub const EXIT_BAD_INPUT: u8 = 3;

#[derive(Parser, Debug)]
#[command(
    name = "cfp",
    version,
    about = "Verify that a Java program uses an API according to a context-free protocol"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Parse programs (`.java`) or specs (`.cfg`, `.spec`, `.grammar`) and print diagnostics.
    Parse {
        /// Files to parse.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Force the language instead of guessing it from the file extension.
        #[arg(long, value_enum)]
        lang: Option<input::Lang>,
        /// Print diagnostics as JSON on stdout (line, column, end, severity, code, message).
        #[arg(long)]
        json: bool,
    },
    /// Print the control-flow automata of PROGRAM, instrumented for SPEC.
    Cfa {
        /// The program (Java subset).
        program: PathBuf,
        /// The API protocol.
        #[arg(long)]
        spec: PathBuf,
        /// Print Graphviz DOT instead of text.
        #[arg(long)]
        dot: bool,
        /// Entry method (default: `main`).
        #[arg(long)]
        entry: Option<String>,
        /// Show the CFAs before instrumentation (API calls not yet split by wildcard guards).
        #[arg(long)]
        no_instrument: bool,
    },
    /// Verify that every completed execution of PROGRAM follows the protocol SPEC.
    ///
    /// Exit 0 verified, 1 violation (prints the word, the nested trace and concrete
    /// values), 2 unknown (budget, timeout or undecided; prints the reason and what was
    /// ruled out), 3 bad input or no z3.
    Check {
        /// The program (Java subset).
        program: PathBuf,
        /// The API protocol.
        #[arg(long)]
        spec: PathBuf,
        /// Print one JSON object: verdict, iterations, counterexample, reason, stats.
        #[arg(long)]
        json: bool,
        /// Budget of CEGAR iterations before answering `unknown`.
        #[arg(long, value_name = "N")]
        max_iterations: Option<u32>,
        /// Wall-clock limit in seconds before answering `unknown`.
        #[arg(long, value_name = "SECS")]
        timeout: Option<f64>,
        /// Write every step of the CEGAR loop to FILE as one JSON document.
        #[arg(long, value_name = "FILE")]
        record: Option<PathBuf>,
        /// Print statistics (iterations, predicates, inclusion and SMT time).
        #[arg(long)]
        stats: bool,
        /// Entry method (default: `main`).
        #[arg(long)]
        entry: Option<String>,
        /// The z3 executable (default: `$CFP_Z3`, then `target/tools/z3/bin/z3`, then PATH).
        #[arg(long, value_name = "PATH")]
        z3: Option<PathBuf>,
        /// Leave wall-clock times out of the output and the record (byte-identical reruns).
        #[arg(long)]
        no_timing: bool,
    },
    /// Decide whether every word of GRAMMAR is in SPEC (L(GRAMMAR) ⊆ L(SPEC)).
    ///
    /// Exit 0 included, 1 not included (prints a shortest counterexample word and its
    /// derivation over GRAMMAR), 2 unknown (budget or timeout), 3 bad input.
    Include {
        /// The grammar G, in the spec syntax (wildcard declarations optional).
        grammar: PathBuf,
        /// The spec S.
        #[arg(long)]
        spec: PathBuf,
        /// Print one JSON object: result, counterexample, reason, certificate, stats.
        #[arg(long)]
        json: bool,
        /// Budget of engine steps before answering `unknown`.
        #[arg(long, value_name = "N")]
        max_steps: Option<u64>,
        /// Wall-clock limit in seconds before answering `unknown`.
        #[arg(long, value_name = "SECS")]
        timeout: Option<f64>,
        /// Leave the wall-clock time out of the output, so reruns print identical bytes.
        #[arg(long)]
        no_timing: bool,
    },
    /// Print a playground share link for a run recorded by `cfp check --record FILE`.
    ///
    /// The link carries the program, the spec and the iteration budget (the page re-runs
    /// the check; runs are deterministic) and, with --with-record, the recorded run itself
    /// (replayed without Z3; makes the link long). Prints one line; a warning on stderr
    /// when the link is long. Exit 0, or 3 for a bad record or bad options.
    Share(commands::share::ShareArgs),
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
        Ok(Err(_)) => ExitCode::from(101),
        Err(e) => {
            eprintln!("cfp: cannot start the worker thread: {e}");
            ExitCode::from(101)
        }
    }
}

fn run() -> u8 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_BAD_INPUT } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        Command::Parse { files, lang, json } => commands::parse::run(&files, lang, json),
        Command::Cfa {
            program,
            spec,
            dot,
            entry,
            no_instrument,
        } => commands::cfa::run(&commands::cfa::CfaArgs {
            program,
            spec,
            dot,
            entry,
            instrument: !no_instrument,
        }),
        Command::Check {
            program,
            spec,
            json,
            max_iterations,
            timeout,
            record,
            stats,
            entry,
            z3,
            no_timing,
        } => commands::check::run(&commands::check::CheckArgs {
            program,
            spec,
            json,
            max_iterations,
            timeout,
            record,
            stats,
            entry,
            z3,
            no_timing,
        }),
        Command::Include {
            grammar,
            spec,
            json,
            max_steps,
            timeout,
            no_timing,
        } => commands::include::run(&commands::include::IncludeArgs {
            grammar,
            spec,
            json,
            max_steps,
            timeout,
            no_timing,
        }),
        Command::Share(args) => commands::share::run(&args),
    }
}
