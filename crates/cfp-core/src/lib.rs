//! # cfp-core
//!
//! The verifier core of cfplay (ARCHITECTURE.md). This part is the front half of the CEGAR
//! loop of the paper (Fig. 11): the program is lowered to one control-flow automaton per
//! method ([`lower`]), then instrumented with the spec's wildcards ([`instrument()`],
//! paper §4 Fig. 10). [`render`] draws the result as text or Graphviz DOT.
//!
//! Architecture invariant: no I/O, no processes, no browser types; everything is
//! deterministic (no hash-map iteration reaches an output).
//!
//! ```text
//! CompilationUnit + Spec --lower_program--> Program (ApiCall edges)
//!                        --instrument-----> Program (guarded Api edges)
//! ```

pub mod api;
pub mod call_check;
pub mod check;
pub mod classes;
pub mod construct_cfg;
pub mod counted_loops;
pub mod deep_json;
pub mod desugar;
pub mod encode;
pub mod feasibility;
pub mod harness;
pub mod instrument;
pub mod interp;
pub mod ir;
pub mod lower;
pub mod models;
pub mod nested_path;
pub mod pcfa;
pub mod prepare;
pub mod qe;
pub mod refine;
pub mod refinement;
pub mod render;
pub mod report_json;
pub mod report_sarif;
pub mod run;
pub mod slice;
pub mod trace;

pub use api::ApiTable;
pub use check::{CheckOptions, CheckStats, Checker, Event, StopCause, StopHook, Verdict};
pub use instrument::instrument;
pub use ir::{
    AllocKind, ClassDef, ClassId, Edge, Expr, FieldDef, FieldId, GlobalDef, GlobalId, GlobalKind,
    Located, MethodCfa, MethodId, Node, OpaqueSource, Place, Program, Sort, Stmt, TerminalId,
    VarDef, VarId, VarKind,
};
pub use lower::{lower_program, LowerOptions};
pub use prepare::{
    parse_with_harness, prepare, prepare_sources, Diagnostics, InputDiagnostic, InputFile, Prepared,
};
pub use render::{render_dot, render_dot_in, render_text, render_text_in};
pub use run::Run;

use cfp_syntax::Diagnostic;

/// Why a front-end run produced no program.
#[derive(Debug, thiserror::Error)]
pub enum FrontEndError {
    /// The program or spec has errors (see the diagnostics).
    #[error("the input has {} error(s)", .0.iter().filter(|d| d.severity == cfp_syntax::Severity::Error).count())]
    Invalid(Vec<Diagnostic>),
}

/// Parse-free convenience: lower and instrument in one step. Returns the instrumented
/// program and the warnings, or the diagnostics when there are errors.
pub fn front_end(
    unit: &cfp_syntax::ast::CompilationUnit,
    spec: &cfp_syntax::spec_ast::Spec,
    opts: &LowerOptions,
) -> Result<(Program, Vec<Diagnostic>), FrontEndError> {
    match lower_program(unit, spec, opts) {
        (Some(p), diags) => Ok((instrument(&p), diags)),
        (None, diags) => Err(FrontEndError::Invalid(diags)),
    }
}

/// Helpers shared by the unit tests.
#[cfg(test)]
pub(crate) mod testutil {
    use super::*;

    /// The native z3 the tests run: `$CFP_Z3` (set by `cargo xtask test`), else the copy
    /// `cargo xtask setup-z3` installs in the workspace's `target/tools`.
    pub fn z3() -> cfp_smt::NativeZ3 {
        let path = std::env::var_os("CFP_Z3")
            .filter(|v| !v.is_empty())
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| {
                std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("../../target/tools/z3/bin/z3")
            });
        match cfp_smt::NativeZ3::new(&path) {
            Ok(z) => z,
            Err(e) => panic!(
                "these tests need z3 at {} (run `cargo xtask setup-z3` or set CFP_Z3): {e}",
                path.display()
            ),
        }
    }

    /// Parse `program` and `spec` (both must parse without errors) and lower them.
    pub fn lower_src(
        program: &str,
        spec: &str,
        entry: Option<&str>,
    ) -> (Option<Program>, Vec<Diagnostic>) {
        let p = cfp_syntax::parse_program(program);
        assert!(!p.has_errors(), "program parse errors: {:?}", p.diagnostics);
        let s = cfp_syntax::parse_spec(spec);
        assert!(!s.has_errors(), "spec parse errors: {:?}", s.diagnostics);
        let opts = LowerOptions {
            entry: entry.map(str::to_string),
            ..LowerOptions::default()
        };
        lower_program(&p.tree, &s.tree, &opts)
    }

    /// Lower (no errors allowed) and return the program.
    pub fn lower_ok(program: &str, spec: &str) -> Program {
        let (p, diags) = lower_src(program, spec, None);
        match p {
            Some(p) => p,
            None => panic!("lowering failed: {diags:#?}"),
        }
    }

    /// Lowered and instrumented text rendering.
    pub fn both(program: &str, spec: &str) -> String {
        let p = lower_ok(program, spec);
        let i = instrument(&p);
        format!(
            "{}\n==== instrumented ====\n{}",
            render_text(&p, program),
            render_text(&i, program)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_end_instruments_or_reports_errors() {
        let spec = cfp_syntax::parse_spec("wildcard $1 : Lock;\nS -> $1.lock() | ε;\n").tree;
        let ok = cfp_syntax::parse_program(
            "class Main {\n  public static void main(String[] a) {\n    Lock l = new Lock();\n    l.lock();\n  }\n}\n",
        )
        .tree;
        let (p, warnings) = front_end(&ok, &spec, &LowerOptions::default()).expect("valid");
        assert!(p.instrumented && warnings.is_empty());
        let bad = cfp_syntax::parse_program("class Main {\n  void f() { x = 1; }\n}\n").tree;
        match front_end(&bad, &spec, &LowerOptions::default()) {
            Err(e @ FrontEndError::Invalid(_)) => {
                // No `main` and an undefined variable.
                assert_eq!(e.to_string(), "the input has 2 error(s)");
            }
            Ok(_) => panic!("expected errors"),
        }
    }
}
