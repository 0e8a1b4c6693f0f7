//! `cfp cfa PROGRAM --spec SPEC [--dot]`: the (instrumented) control-flow automata.

use crate::error::{CliError, Exit};
use crate::input::{ProgramFiles, SourceFile};
use crate::output::print_stdout;
use cfp_core::LowerOptions;
use std::path::{Path, PathBuf};

/// Arguments of `cfp cfa`.
#[derive(clap::Args, Debug)]
pub struct CfaArgs {
    /// The program (Java subset): a file, or several files and directories read as one
    /// program (as `cfp check`).
    #[arg(required = true, value_name = "PROGRAM")]
    pub program: Vec<PathBuf>,
    /// The API protocol. A file, or the name of a built-in protocol: lock, wakelock,
    /// wifilock, canvas, json (`cfp specs` shows them; a file of that name wins).
    #[arg(long)]
    pub spec: PathBuf,
    /// Print Graphviz DOT instead of text.
    #[arg(long)]
    pub dot: bool,
    /// Entry method (default: `main`).
    #[arg(long, conflicts_with = "harness")]
    pub entry: Option<String>,
    #[command(flatten)]
    pub harness: super::check::HarnessArgs,
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
    let opts = LowerOptions {
        entry: args.entry.clone(),
        harness: args.harness.request(),
        no_models: args.harness.no_models,
        library_throws: args.harness.library_throws.option(),
        made_up_objects: false,
    };
    let paths = args.harness.with_models(&args.program);
    let (program, spec, opts) = load(&paths, &args.spec, &opts)?;
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
        cfp_core::render_dot_in(&shown, &program.file.sources)
    } else {
        cfp_core::render_text_in(&shown, &program.file.sources)
    };
    if let Some(h) = header {
        let comment = if args.dot { "//" } else { "#" };
        out = format!("{comment} slice: {h}\n{out}");
    }
    print_stdout(&out)?;
    Ok(Exit::Ok)
}

/// A source file and its parse.
pub struct Loaded<F, T> {
    /// The file.
    pub file: F,
    /// Its tree and syntax diagnostics.
    pub parsed: cfp_syntax::Parsed<T>,
}

/// The program (with its harness), the spec, and the options with the harness's entry.
pub type LoadedInputs = (
    Loaded<ProgramFiles, cfp_syntax::ast::CompilationUnit>,
    Loaded<SourceFile, cfp_syntax::spec_ast::Spec>,
    LowerOptions,
);

/// Read and parse a program (with the harness `opts` asks for) and a protocol spec,
/// reporting every syntax and spec diagnostic of both; an error when either cannot be
/// read or has an error. The options come back with the harness's entry.
pub fn load(
    program: &[PathBuf],
    spec: &Path,
    opts: &LowerOptions,
) -> Result<LoadedInputs, CliError> {
    let program_files = ProgramFiles::read(program)?;
    let spec_file = crate::input::read_spec(spec)?;
    let spec_parsed = cfp_syntax::parse_spec(&spec_file.text);
    let spec_diags = cfp_syntax::spec_diagnostics(&spec_parsed, cfp_syntax::SpecUse::Protocol);
    let spec_bad = spec_file.report(&spec_diags);
    let harnessed = cfp_core::parse_with_harness(program_files.sources, opts);
    let program_files = ProgramFiles {
        sources: harnessed.sources,
        name: program_files.name,
    };
    let mut files = program_files.report(&harnessed.parsed.diagnostics);
    if spec_bad {
        files.push(spec_file.name.clone());
    }
    if !files.is_empty() {
        return Err(CliError::Invalid { files });
    }
    Ok((
        Loaded {
            file: program_files,
            parsed: harnessed.parsed,
        },
        Loaded {
            file: spec_file,
            parsed: spec_parsed,
        },
        harnessed.options,
    ))
}
