//! The CEGAR driver for the browser and Node: input checking with editor diagnostics,
//! a stepping handle ([`Run`]) and the wasm-bindgen export `check_json` (wasm32 only).
//!
//! Everything except the exports is generic over the [`Solver`], so it is also built
//! and unit-tested natively.

use crate::protocol::{DiagSeverity, DiagnosticItem, InputFile, RunOptions};
use cfp_core::check::CheckOptions;
use cfp_core::report_json::{ResultJson, StatsJson, TimingsMs};
use cfp_core::{LowerOptions, Prepared, Run};
use cfp_smt::Solver;
use cfp_syntax::{Diagnostic, LineIndex, Severity};

/// Why a check could not produce a result.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The program or spec has errors.
    #[error("{}", render_items(.0))]
    BadInput(Vec<DiagnosticItem>),
    /// The options object is not `{"max_iterations": n | null, "entry"?: …, "harness"?: …}`.
    #[error("bad options: {0}")]
    BadOptions(String),
    /// The result could not be serialised (a bug).
    #[error("cannot print JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// The errors, one `file:line:col: message` per line (warnings left out).
fn render_items(items: &[DiagnosticItem]) -> String {
    items
        .iter()
        .filter(|d| d.severity == DiagSeverity::Error)
        .map(|d| {
            let file = match d.file {
                InputFile::Program => "program",
                InputFile::Spec => "spec",
            };
            format!("{file}:{}:{}: {}", d.line, d.col, d.message)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn items(file: InputFile, text: &str, diags: &[&Diagnostic]) -> Vec<DiagnosticItem> {
    let index = LineIndex::new(text);
    diags
        .iter()
        // Spans past the text are in the library models added to the program.
        .filter(|d| d.span.start as usize <= text.len())
        .map(|d| {
            let data = d.to_data(text, &index);
            DiagnosticItem {
                file,
                line: data.line,
                col: data.column,
                message: data.message,
                severity: if d.severity == Severity::Error {
                    DiagSeverity::Error
                } else {
                    DiagSeverity::Warning
                },
            }
        })
        .collect()
}

/// The warnings of inputs that can be checked, as editor diagnostics.
pub fn warnings(prepared: &Prepared, program: &str, spec: &str) -> Vec<DiagnosticItem> {
    let of = |file: InputFile, text: &str| {
        let d: Vec<&Diagnostic> = prepared
            .warnings()
            .iter()
            .filter(|w| w.file == file)
            .map(|w| &w.diagnostic)
            .collect();
        items(file, text, &d)
    };
    let mut all = of(InputFile::Spec, spec);
    all.extend(of(InputFile::Program, program));
    all
}

/// The lowering options of `options`: its entry and harness (`cfp check --entry`,
/// `--harness`).
pub fn lower_options(options: &RunOptions) -> Result<LowerOptions, EngineError> {
    let harness = match options.harness.as_deref() {
        None => None,
        Some(name) => Some(cfp_core::harness::HarnessRequest {
            kind: cfp_core::harness::HarnessKind::from_name(name).ok_or_else(|| {
                EngineError::BadOptions(format!(
                    "unknown harness `{name}` (android-activity or public-methods)"
                ))
            })?,
            classes: Vec::new(),
            exclude: Vec::new(),
        }),
    };
    let library_throws = match options.library_throws.as_deref() {
        None => cfp_core::lower::LibraryThrows::default(),
        Some(name) => cfp_core::lower::LibraryThrows::from_name(name).ok_or_else(|| {
            EngineError::BadOptions(format!(
                "unknown library-throws mode `{name}` (none, caught or any)"
            ))
        })?,
    };
    Ok(LowerOptions {
        entry: options.entry.clone(),
        harness,
        no_models: false,
        library_throws,
        made_up_objects: false,
    })
}

/// [`cfp_core::prepare`] with its errors as editor diagnostics (spec first, then the
/// program; warnings are not shown in the editors).
pub fn prepare(program: &str, spec: &str, options: &RunOptions) -> Result<Prepared, EngineError> {
    let lower = lower_options(options)?;
    cfp_core::prepare(program, spec, &lower).map_err(|d| {
        let mut bad = items(
            InputFile::Spec,
            spec,
            &d.of(InputFile::Spec).collect::<Vec<_>>(),
        );
        bad.extend(items(
            InputFile::Program,
            program,
            &d.of(InputFile::Program).collect::<Vec<_>>(),
        ));
        EngineError::BadInput(bad)
    })
}

/// The checker's options for the page's run options (the CLI's flags of the same names).
pub fn check_options(options: &RunOptions) -> CheckOptions {
    let mut opts = CheckOptions::default();
    if let Some(n) = options.max_iterations {
        opts.max_iterations = n;
    }
    opts
}

/// The `cfp check --json --no-timing` object of a finished run; `None` before the end.
pub fn result<S: Solver>(run: &Run<S>) -> Option<ResultJson> {
    let v = run.verdict()?;
    Some(ResultJson::new(v, StatsJson::new(&run.stats(), None)))
}

/// [`result`] with the run's times (`total_ms` from start to end, `smt_ms` inside Z3)
/// and each refinement strategy's time: the page's statistics.
pub fn result_for_page<S: Solver>(run: &Run<S>, total_ms: f64, smt_ms: f64) -> Option<ResultJson> {
    let v = run.verdict()?;
    let s = run.stats();
    let timings = TimingsMs {
        total: total_ms,
        grammar_and_inclusion: (total_ms - smt_ms).max(0.0),
        smt: smt_ms,
    };
    Some(ResultJson::new(
        v,
        StatsJson::new(&s, Some(timings)).with_strategy_times(&s),
    ))
}

/// Parse the options object (`{"max_iterations": n | null, "entry"?: "C.m", "harness"?:
/// "android-activity" | "public-methods"}`; empty text: defaults).
pub fn parse_options(options_json: &str) -> Result<RunOptions, EngineError> {
    if options_json.trim().is_empty() {
        return Ok(RunOptions::default());
    }
    serde_json::from_str(options_json).map_err(|e| EngineError::BadOptions(e.to_string()))
}

/// Check `program` against `spec` on `solver` and return exactly the text
/// `cfp check --json --no-timing` prints (one JSON object and a newline).
pub async fn check_with<S: Solver>(
    program: &str,
    spec: &str,
    options: &RunOptions,
    solver: S,
) -> Result<String, EngineError> {
    let prepared = prepare(program, spec, options)?;
    let mut run = prepared.run(solver, check_options(options), None);
    run.finish(&mut |_| {}).await;
    let text = match result(&run) {
        Some(r) => serde_json::to_string(&r)?,
        None => String::from("{}"),
    };
    Ok(text + "\n")
}

/// `check_json(program, spec, options_json) -> Promise<string>`: exactly what
/// `cfp check --json --no-timing` prints for the same input, on the z3 of
/// `globalThis.cfpZ3` (initialised on first use). Rejects with an `Error` whose message
/// lists the diagnostics (`program:L:C: message`, one a line) on bad input.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub async fn check_json(
    program: String,
    spec: String,
    options_json: String,
) -> Result<String, wasm_bindgen::JsValue> {
    use crate::solver_js::{init_z3, CancelFlag, JsSolver};
    let to_js = |e: String| wasm_bindgen::JsValue::from(js_sys::Error::new(&e));
    let options = parse_options(&options_json).map_err(|e| to_js(e.to_string()))?;
    init_z3().await.map_err(|e| to_js(e.to_string()))?;
    check_with(&program, &spec, &options, JsSolver::new(CancelFlag::new()))
        .await
        .map_err(|e| to_js(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagnostics_name_the_file() {
        let Err(EngineError::BadInput(items)) = prepare(
            "class A { void m() { int x = ; } }",
            "S -> ;",
            &RunOptions::default(),
        ) else {
            panic!("expected diagnostics");
        };
        assert!(items
            .iter()
            .any(|d| d.file == InputFile::Program && d.line == 1));
    }

    #[test]
    fn options_parse() {
        assert_eq!(parse_options("").unwrap(), RunOptions::default());
        assert_eq!(
            parse_options(r#"{"max_iterations":3}"#)
                .unwrap()
                .max_iterations,
            Some(3)
        );
        assert!(parse_options(r#""x""#).is_err());
        let o =
            parse_options(r#"{"max_iterations":null,"entry":"A.m","harness":"public-methods"}"#)
                .unwrap();
        assert_eq!(o.entry.as_deref(), Some("A.m"));
        let lower = lower_options(&o).unwrap();
        assert_eq!(lower.entry.as_deref(), Some("A.m"));
        assert!(lower.harness.is_some());
        let bad = RunOptions {
            harness: Some("servlet".into()),
            ..RunOptions::default()
        };
        assert!(matches!(
            lower_options(&bad),
            Err(EngineError::BadOptions(_))
        ));
    }

    #[test]
    fn a_harness_drives_code_without_main() {
        let program = "public class Pool {\n  private Lock l = new Lock();\n  public void get() { l.lock(); }\n  public void put() { l.unlock(); }\n}\n";
        let spec = "wildcard $1 : Lock;\nS -> $1.lock() S $1.unlock() S | ε;";
        assert!(
            prepare(program, spec, &RunOptions::default()).is_err(),
            "no main"
        );
        let options = RunOptions {
            harness: Some("public-methods".into()),
            ..RunOptions::default()
        };
        assert!(prepare(program, spec, &options).is_ok());
    }
}
