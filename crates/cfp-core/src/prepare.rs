//! The front door of a check (ARCHITECTURE.md): [`prepare`] turns the two texts a user
//! gives — the program and the protocol spec — into a [`Prepared`] input, or into the
//! [`Diagnostics`] that say what is wrong and where; [`Prepared::run`] starts the CEGAR
//! loop on it. The CLI (`cfp check`) and the page's worker both go through here, so the
//! same input gets the same checks, the same diagnostics and the same run.
//!
//! ```text
//! program text ─┐                                  ┌─ Run::next_event / step ─> Events
//!               ├─ prepare ─> Prepared ─ run(solver, options, stop) ─┤
//! spec text ────┘     │                            └─ Run::verdict ─> Verdict
//!                     └─> Diagnostics (file, span, message; errors and warnings)
//! ```

use crate::check::{CheckOptions, StopHook};
use crate::run::Run;
use crate::{FrontEndError, LowerOptions, Program};
use cfp_smt::Solver;
use cfp_syntax::{Diagnostic, Severity, SourceSet};
use serde::{Deserialize, Serialize};

/// Which of the two inputs a diagnostic is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InputFile {
    /// The program (Java subset).
    Program,
    /// The protocol spec.
    Spec,
}

/// A diagnostic (error or warning) about one input, with its span in that input's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputDiagnostic {
    /// The input it is about.
    pub file: InputFile,
    /// What and where.
    pub diagnostic: Diagnostic,
}

/// The diagnostics of an input that cannot be checked: at least one is an error. In
/// order: the spec's, then the program's (syntax, then lowering), each in source order.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the input has {} error(s)", self.errors().count())]
pub struct Diagnostics {
    /// Errors and warnings.
    pub items: Vec<InputDiagnostic>,
    /// The program's files the spans point into: those given, and the library models and
    /// harness added to them (see [`parse_with_harness`]).
    pub sources: SourceSet,
}

impl Diagnostics {
    /// The errors among the items.
    pub fn errors(&self) -> impl Iterator<Item = &InputDiagnostic> {
        self.items
            .iter()
            .filter(|d| d.diagnostic.severity == Severity::Error)
    }

    /// The diagnostics about `file`, in order.
    pub fn of(&self, file: InputFile) -> impl Iterator<Item = &Diagnostic> {
        self.items
            .iter()
            .filter(move |d| d.file == file)
            .map(|d| &d.diagnostic)
    }
}

/// A checked input, ready to run: the instrumented program, the spec's grammar, the
/// program text (trace lines carry its line numbers) and the warnings found on the way.
#[derive(Clone, Debug)]
pub struct Prepared {
    program: Program,
    spec: cfp_grammar::Grammar,
    source: SourceSet,
    warnings: Vec<InputDiagnostic>,
}

/// Parse and check `program` and `spec` the way every host does: the spec's syntax and
/// its checks as a protocol, the program's syntax, then lowering (from `options.entry`)
/// and instrumentation with the spec's wildcards.
///
/// Both inputs are always parsed, so one call reports the errors of both. A program
/// with file marker lines (`// -- path/Name.java --`) is the files they mark
/// ([`SourceSet::add_marked`]).
pub fn prepare(program: &str, spec: &str, options: &LowerOptions) -> Result<Prepared, Diagnostics> {
    prepare_sources(SourceSet::from_marked("", program), spec, options)
}

/// [`prepare`] for a program of several files (`cfp check src/ models/`): they are read
/// as one program ([`cfp_syntax::parse_sources`]); every span of the diagnostics and of
/// the run points into [`SourceSet::text`], which [`SourceSet::locate`] maps back to a
/// file.
pub fn prepare_sources(
    program: SourceSet,
    spec: &str,
    options: &LowerOptions,
) -> Result<Prepared, Diagnostics> {
    let spec_parsed = cfp_syntax::parse_spec(spec);
    let spec_diags = cfp_syntax::spec_diagnostics(&spec_parsed, cfp_syntax::SpecUse::Protocol);
    let Harnessed {
        sources: program,
        parsed: program_parsed,
        options,
    } = parse_with_harness(program, options);
    let options = &options;
    let mut items: Vec<InputDiagnostic> = tag(InputFile::Spec, spec_diags)
        .chain(tag(InputFile::Program, program_parsed.diagnostics))
        .collect();
    let is_error = |d: &InputDiagnostic| d.diagnostic.severity == Severity::Error;
    // Unsupported constructs matter only where the check reaches them: the lowering
    // reports them (an error there, a warning elsewhere).
    let deferred = |d: &InputDiagnostic| d.diagnostic.code == cfp_syntax::parser::UNSUPPORTED;
    if items.iter().any(|d| is_error(d) && !deferred(d)) {
        return Err(Diagnostics {
            items,
            sources: program,
        });
    }
    items.retain(|d| !deferred(d));
    match crate::front_end(&program_parsed.tree, &spec_parsed.tree, options) {
        Ok((lowered, warnings)) => {
            items.extend(tag(InputFile::Program, warnings));
            Ok(Prepared {
                program: lowered,
                spec: cfp_grammar::Grammar::from_spec(&spec_parsed.tree),
                source: program,
                warnings: items,
            })
        }
        Err(FrontEndError::Invalid(diags)) => {
            items.extend(tag(InputFile::Program, diags));
            Err(Diagnostics {
                items,
                sources: program,
            })
        }
    }
}

/// A program parsed, with its harness (if one was asked for) added as its last file.
#[derive(Clone, Debug)]
pub struct Harnessed {
    /// The program's files, and the harness's.
    pub sources: SourceSet,
    /// Their merged tree and diagnostics (a harness that cannot be generated is an error
    /// at the start of the first file).
    pub parsed: cfp_syntax::Parsed<cfp_syntax::ast::CompilationUnit>,
    /// The options, with the entry set to the harness's.
    pub options: LowerOptions,
}

/// Parse `program`. When it parses: add the built-in library models it needs (unless
/// `options.no_models`; [`crate::models::models_for`]) as files `<model:NAME>`; then,
/// when `options` asks for a harness, generate it ([`crate::harness::generate`]) and add
/// it as the last file.
pub fn parse_with_harness(program: SourceSet, options: &LowerOptions) -> Harnessed {
    let mut program = program;
    let mut parsed = cfp_syntax::parse_sources(&program);
    let mut model_classes: Vec<String> = Vec::new();
    if !options.no_models && !blocking_errors(&parsed.diagnostics) {
        let models = crate::models::models_for(&parsed.tree, program.text());
        if !models.is_empty() {
            for m in models {
                program.add(format!("<model:{}>", m.name), m.text);
                model_classes.extend(m.classes.iter().map(|c| (*c).to_owned()));
            }
            parsed = cfp_syntax::parse_sources(&program);
        }
    }
    let Some(req) = options
        .harness
        .as_ref()
        .filter(|_| !blocking_errors(&parsed.diagnostics))
    else {
        return Harnessed {
            sources: program,
            parsed,
            options: options.clone(),
        };
    };
    let mut req = req.clone();
    req.exclude.extend(model_classes);
    match crate::harness::generate(&parsed.tree, program.text(), &req) {
        Ok(h) => {
            let mut sources = program;
            sources.add(h.file_name, &h.text);
            let parsed = cfp_syntax::parse_sources(&sources);
            Harnessed {
                sources,
                parsed,
                options: LowerOptions {
                    entry: Some(h.entry),
                    harness: None,
                    no_models: options.no_models,
                    library_throws: options.library_throws,
                    // The lifecycle's arguments are the platform's objects.
                    made_up_objects: options.made_up_objects
                        || req.kind != crate::harness::HarnessKind::AndroidActivity,
                },
            }
        }
        Err(e) => {
            let mut parsed = parsed;
            parsed.diagnostics.push(Diagnostic::error(
                "harness",
                cfp_syntax::Span::new(0, 0),
                e.to_string(),
            ));
            Harnessed {
                sources: program,
                parsed,
                options: options.clone(),
            }
        }
    }
}

/// True when `diags` has an error other than an unsupported construct's (which the
/// lowering reports only where the check reaches it).
fn blocking_errors(diags: &[Diagnostic]) -> bool {
    diags
        .iter()
        .any(|d| d.severity == Severity::Error && d.code != cfp_syntax::parser::UNSUPPORTED)
}

fn tag(file: InputFile, diags: Vec<Diagnostic>) -> impl Iterator<Item = InputDiagnostic> {
    diags
        .into_iter()
        .map(move |diagnostic| InputDiagnostic { file, diagnostic })
}

impl Prepared {
    /// The warnings of both inputs (the program is still checked; an approximation the
    /// front end made shows again in an `unknown` verdict instead of `verified`).
    pub fn warnings(&self) -> &[InputDiagnostic] {
        &self.warnings
    }

    /// The instrumented program.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// The program's files (one, unless it was prepared by [`prepare_sources`]).
    pub fn sources(&self) -> &SourceSet {
        &self.source
    }

    /// The spec's grammar.
    pub fn spec(&self) -> &cfp_grammar::Grammar {
        &self.spec
    }

    /// Start the CEGAR loop on `solver`. `options` holds the budget (iterations, the
    /// inclusion step budget, per-query limits, the refinement portfolio); `stop` is
    /// polled between phases and inside inclusion checks, and the cause it returns
    /// becomes the reason of the `unknown` verdict.
    pub fn run<S: Solver>(
        self,
        solver: S,
        options: CheckOptions,
        stop: Option<StopHook>,
    ) -> Run<S> {
        Run::new(self.program, self.spec, self.source, options, solver, stop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_of_both_inputs_in_one_call() {
        let Err(d) = prepare(
            "class A { void m() { int x = ; } }",
            "S -> a",
            &LowerOptions::default(),
        ) else {
            panic!("expected diagnostics");
        };
        assert!(d.of(InputFile::Spec).count() > 0, "{d:?}");
        assert!(d.of(InputFile::Program).count() > 0, "{d:?}");
        // Spec first, then the program.
        assert_eq!(d.items[0].file, InputFile::Spec);
    }

    #[test]
    fn lowering_errors_are_program_diagnostics() {
        let Err(d) = prepare(
            "class Main { public static void main(String[] a) { undefined(); } }",
            "wildcard $1 : Lock;\nS -> $1.lock() S $1.unlock() S | ε;\n",
            &LowerOptions::default(),
        ) else {
            panic!("expected diagnostics");
        };
        assert!(d.errors().all(|e| e.file == InputFile::Program), "{d:?}");
        assert!(d.errors().count() > 0);
    }

    #[test]
    fn a_good_input_is_prepared() {
        let p = prepare(
            "class Main { public static void main(String[] a) { Lock l = new Lock(); l.lock(); l.unlock(); } }",
            "wildcard $1 : Lock;\nS -> $1.lock() S $1.unlock() S | ε;\n",
            &LowerOptions::default(),
        )
        .expect("prepared");
        assert!(p.program().methods.len() >= 2, "main and <root>");
    }
}
