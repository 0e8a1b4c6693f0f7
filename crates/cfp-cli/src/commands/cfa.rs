//! `cfp cfa PROGRAM --spec SPEC [--dot]`: the (instrumented) control-flow automata.

use crate::input::SourceFile;
use crate::EXIT_BAD_INPUT;
use cfp_core::LowerOptions;
use std::path::PathBuf;

/// Arguments of `cfp cfa`.
pub struct CfaArgs {
    /// The program file.
    pub program: PathBuf,
    /// The spec file.
    pub spec: PathBuf,
    /// DOT instead of text.
    pub dot: bool,
    /// Entry method name.
    pub entry: Option<String>,
    /// Apply the wildcard instrumentation.
    pub instrument: bool,
}

/// Run `cfp cfa`: exit 0 with the CFAs on stdout, or 3 with diagnostics on stderr.
pub fn run(args: &CfaArgs) -> u8 {
    let Some((program, spec)) = load(&args.program, &args.spec) else {
        return EXIT_BAD_INPUT;
    };
    let opts = LowerOptions {
        entry: args.entry.clone(),
    };
    let (lowered, diags) = cfp_core::lower_program(&program.parsed.tree, &spec.parsed.tree, &opts);
    let has_errors = program.file.report(&diags);
    let Some(lowered) = lowered.filter(|_| !has_errors) else {
        return EXIT_BAD_INPUT;
    };
    let shown = if args.instrument {
        cfp_core::instrument(&lowered)
    } else {
        lowered
    };
    let out = if args.dot {
        cfp_core::render_dot(&shown, &program.file.text)
    } else {
        cfp_core::render_text(&shown, &program.file.text)
    };
    print!("{out}");
    0
}

/// A source file and its parse.
pub struct Loaded<T> {
    /// The file.
    pub file: SourceFile,
    /// Its tree and syntax diagnostics.
    pub parsed: cfp_syntax::Parsed<T>,
}

/// Read and parse a program and a protocol spec, reporting every syntax and spec
/// diagnostic; `None` when either has an error.
pub fn load(
    program: &std::path::Path,
    spec: &std::path::Path,
) -> Option<(
    Loaded<cfp_syntax::ast::CompilationUnit>,
    Loaded<cfp_syntax::spec_ast::Spec>,
)> {
    let read = |p: &std::path::Path| match SourceFile::read(p) {
        Ok(f) => Some(f),
        Err(e) => {
            eprintln!("{e}");
            None
        }
    };
    let (program_file, spec_file) = (read(program), read(spec));
    let (program_file, spec_file) = (program_file?, spec_file?);
    let spec_parsed = cfp_syntax::parse_spec(&spec_file.text);
    let spec_diags = cfp_syntax::spec_diagnostics(&spec_parsed, cfp_syntax::SpecUse::Protocol);
    let spec_bad = spec_file.report(&spec_diags);
    let program_parsed = cfp_syntax::parse_program(&program_file.text);
    let program_bad = program_file.report(&program_parsed.diagnostics);
    if spec_bad || program_bad {
        return None;
    }
    Some((
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
