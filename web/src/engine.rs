//! The CEGAR driver for the browser and Node: input checking with editor diagnostics,
//! a stepping handle ([`Run`]) and the wasm-bindgen export `check_json` (wasm32 only).
//!
//! Everything except the exports is generic over the [`Solver`], so it is also built
//! and unit-tested natively.

use crate::protocol::{DiagnosticItem, InputFile, RunOptions};
use cfp_core::check::{CheckOptions, Checker, Event, UnknownReason, Verdict};
use cfp_core::report_json::{ResultJson, StatsJson};
use cfp_core::LowerOptions;
use cfp_smt::Solver;
use cfp_syntax::{Diagnostic, LineIndex, Severity};

/// Why a check could not produce a result.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The program or spec has errors.
    #[error("{}", render_items(.0))]
    BadInput(Vec<DiagnosticItem>),
    /// The options object is not `{"max_iterations": n | null}`.
    #[error("bad options: {0}")]
    BadOptions(String),
    /// The result could not be serialised (a bug).
    #[error("cannot print JSON: {0}")]
    Json(#[from] serde_json::Error),
}

fn render_items(items: &[DiagnosticItem]) -> String {
    items
        .iter()
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

/// A checked input, ready to run: the instrumented program, the spec grammar and the
/// program text (for trace line numbers).
pub struct Prepared {
    program: cfp_core::Program,
    spec: cfp_grammar::Grammar,
    source: String,
    opts: CheckOptions,
}

fn items(file: InputFile, text: &str, diags: &[Diagnostic]) -> Vec<DiagnosticItem> {
    let index = LineIndex::new(text);
    diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| {
            let data = d.to_data(text, &index);
            DiagnosticItem {
                file,
                line: data.line,
                col: data.column,
                message: data.message,
            }
        })
        .collect()
}

/// Parse and check `program` and `spec` as `cfp check` does (spec syntax and protocol
/// checks, program syntax, then lowering and instrumentation); the errors as editor
/// diagnostics otherwise.
pub fn prepare(program: &str, spec: &str, options: &RunOptions) -> Result<Prepared, EngineError> {
    let spec_parsed = cfp_syntax::parse_spec(spec);
    let spec_diags = cfp_syntax::spec_diagnostics(&spec_parsed, cfp_syntax::SpecUse::Protocol);
    let program_parsed = cfp_syntax::parse_program(program);
    let mut bad = items(InputFile::Spec, spec, &spec_diags);
    bad.extend(items(
        InputFile::Program,
        program,
        &program_parsed.diagnostics,
    ));
    if !bad.is_empty() {
        return Err(EngineError::BadInput(bad));
    }
    let lowered = match cfp_core::front_end(
        &program_parsed.tree,
        &spec_parsed.tree,
        &LowerOptions::default(),
    ) {
        Ok((p, _warnings)) => p,
        Err(cfp_core::FrontEndError::Invalid(diags)) => {
            return Err(EngineError::BadInput(items(
                InputFile::Program,
                program,
                &diags,
            )))
        }
    };
    let mut opts = CheckOptions::default();
    if let Some(n) = options.max_iterations {
        opts.max_iterations = n;
    }
    Ok(Prepared {
        program: lowered,
        spec: cfp_grammar::Grammar::from_spec(&spec_parsed.tree),
        source: program.to_string(),
        opts,
    })
}

/// One run of the CEGAR loop, advanced by the host.
pub struct Run<S: Solver> {
    checker: Checker<S>,
    verdict: Option<Verdict>,
}

impl<S: Solver> Run<S> {
    /// A run of `prepared` on `solver`; `stop` is polled between phases and during
    /// inclusion checks (`true` ends the run with `unknown`, reason `stopped`).
    pub fn new(prepared: Prepared, solver: S, stop: Option<Box<dyn FnMut() -> bool>>) -> Self {
        let mut checker = Checker::new(prepared.program, prepared.spec, prepared.opts, solver)
            .with_source(prepared.source);
        if let Some(hook) = stop {
            checker.set_stop_hook(hook);
        }
        Run {
            checker,
            verdict: None,
        }
    }

    /// The verdict, once the run has finished.
    pub fn verdict(&self) -> Option<&Verdict> {
        self.verdict.as_ref()
    }

    /// Whether the run has finished.
    pub fn is_finished(&self) -> bool {
        self.verdict.is_some()
    }

    /// The next event (one phase), or `None` once finished.
    pub async fn next_event(&mut self) -> Option<Event> {
        if self.verdict.is_some() {
            return None;
        }
        let e = self.checker.step().await;
        match &e {
            Some(Event::Finished { verdict }) => self.verdict = Some(verdict.clone()),
            Some(_) => {}
            None => {
                self.verdict = Some(Verdict::Unknown {
                    iterations: self.checker.stats().iterations,
                    reason: UnknownReason::Internal {
                        detail: "the checker stopped without a verdict".into(),
                    },
                    report: Default::default(),
                })
            }
        }
        e
    }

    /// Run one CEGAR iteration: the events up to and including `refined` or `finished`.
    pub async fn step(&mut self) -> Vec<Event> {
        let mut out = Vec::new();
        while let Some(e) = self.next_event().await {
            let last = matches!(e, Event::Refined { .. } | Event::Finished { .. });
            out.push(e);
            if last {
                break;
            }
        }
        out
    }

    /// The `cfp check --json --no-timing` text of the finished run (without the final
    /// newline); `None` before the end.
    pub fn result_json(&self) -> Option<Result<String, serde_json::Error>> {
        let v = self.verdict.as_ref()?;
        let stats = StatsJson::new(&self.checker.stats(), None);
        Some(serde_json::to_string(&ResultJson::new(v, None, stats)))
    }

    /// [`Run::result_json`] with each refinement strategy's time (the page's statistics).
    pub fn result_json_for_page(&self) -> Option<Result<String, serde_json::Error>> {
        let v = self.verdict.as_ref()?;
        let s = self.checker.stats();
        let stats = StatsJson::new(&s, None).with_strategy_times(&s);
        Some(serde_json::to_string(&ResultJson::new(v, None, stats)))
    }
}

/// Parse the options object (`{"max_iterations": n | null}`; empty text: defaults).
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
    let mut run = Run::new(prepared, solver, None);
    while run.next_event().await.is_some() {}
    let text = run
        .result_json()
        .unwrap_or_else(|| Ok(String::from("{}")))?;
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
    }
}
