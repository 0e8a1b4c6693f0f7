//! `cfp cfa PROGRAM --spec SPEC [--dot]`: the (instrumented) control-flow automata.

use crate::error::{CliError, Exit};
use crate::input::SourceFile;
use crate::output::print_stdout;
use cfp_core::LowerOptions;
use std::path::{Path, PathBuf};

/// Arguments of `cfp cfa`.
#[derive(clap::Args, Debug)]
pub struct CfaArgs {
    /// The program (Java subset).
    pub program: PathBuf,
    /// The API protocol. A file, or the name of a built-in protocol: lock, wakelock,
    /// wifilock, canvas, json (`cfp specs` shows them; a file of that name wins).
    #[arg(long)]
    pub spec: PathBuf,
    /// Print Graphviz DOT instead of text.
    #[arg(long)]
    pub dot: bool,
    /// Entry method (default: `main`).
    #[arg(long)]
    pub entry: Option<String>,
    /// Show the CFAs before instrumentation (API calls not yet split by wildcard guards).
    #[arg(long)]
    pub no_instrument: bool,
    /// Show the slice the checker runs on (paper §6; `summarise` when no mode is given)
    /// and, first, what it kept.
    #[arg(long, value_name = "MODE", value_enum, num_args = 0..=1, default_missing_value = "summarise")]
    pub slice: Option<super::check::SliceArg>,
}

/// Run `cfp cfa`: the CFAs on stdout, or diagnostics on stderr and an error.
pub fn run(args: &CfaArgs) -> Result<Exit, CliError> {
    let (program, spec) = load(&args.program, &args.spec)?;
    let opts = LowerOptions {
        entry: args.entry.clone(),
    };
    let (lowered, diags) = cfp_core::lower_program(&program.parsed.tree, &spec.parsed.tree, &opts);
    program.file.require_no_errors(&diags)?;
    let Some(lowered) = lowered else {
        return Err(CliError::Invalid {
            files: vec![program.file.name.clone()],
        });
    };
    let shown = if args.no_instrument {
        lowered
    } else {
        cfp_core::instrument(&lowered)
    };
    let (shown, header) = match args.slice.and_then(super::check::SliceArg::mode) {
        Some(mode) => {
            let sliced = cfp_core::slice::slice(&shown, mode);
            let summary = sliced.stats.summary();
            (sliced.program, Some(summary))
        }
        None => (shown, None),
    };
    let mut out = if args.dot {
        cfp_core::render_dot(&shown, &program.file.text)
    } else {
        cfp_core::render_text(&shown, &program.file.text)
    };
    if let Some(h) = header {
        let comment = if args.dot { "//" } else { "#" };
        out = format!("{comment} slice: {h}\n{out}");
    }
    print_stdout(&out)?;
    Ok(Exit::Ok)
}

/// A source file and its parse.
pub struct Loaded<T> {
    /// The file.
    pub file: SourceFile,
    /// Its tree and syntax diagnostics.
    pub parsed: cfp_syntax::Parsed<T>,
}

/// Read and parse a program and a protocol spec, reporting every syntax and spec
/// diagnostic of both; an error when either cannot be read or has an error.
pub fn load(
    program: &Path,
    spec: &Path,
) -> Result<
    (
        Loaded<cfp_syntax::ast::CompilationUnit>,
        Loaded<cfp_syntax::spec_ast::Spec>,
    ),
    CliError,
> {
    let program_file = SourceFile::read(program)?;
    let spec_file = crate::input::read_spec(spec)?;
    let spec_parsed = cfp_syntax::parse_spec(&spec_file.text);
    let spec_diags = cfp_syntax::spec_diagnostics(&spec_parsed, cfp_syntax::SpecUse::Protocol);
    let spec_bad = spec_file.report(&spec_diags);
    let program_parsed = cfp_syntax::parse_program(&program_file.text);
    let program_bad = program_file.report(&program_parsed.diagnostics);
    let files: Vec<String> = [(&program_file, program_bad), (&spec_file, spec_bad)]
        .into_iter()
        .filter(|(_, bad)| *bad)
        .map(|(f, _)| f.name.clone())
        .collect();
    if !files.is_empty() {
        return Err(CliError::Invalid { files });
    }
    Ok((
        Loaded {
            file: program_file,
            parsed: program_parsed,
        },
        Loaded {
            file: spec_file,
            parsed: spec_parsed,
        },
    ))
}
