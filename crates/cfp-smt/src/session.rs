//! A [`Session`]: typed queries over any [`Solver`] backend.
//!
//! Each call builds one complete, deterministic SMT-LIB2 script (declarations sorted by
//! name, options first), evaluates it, and reads the answer. Answers to several commands
//! are separated by `(echo "@cfp:sep")`, so an error printed for one of them (e.g.
//! `(get-model)` after `unsat`) never shifts the reading of another.
//!
//! The session keeps counts only (scripts, queries, cache hits/misses); timing is the
//! host's business (there is no clock in the browser's wasm).

use crate::answer::{
    check_errors, parse_check_sat, parse_horn_solution, parse_model, parse_reason_unknown,
    parse_unsat_core, split_sections, CheckSat, HornSolution, Model,
};
use crate::solver::{Solver, SolverError};
use crate::term::{quote_symbol, Op, Sort, Term, TermKind};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

/// How a batch checks each query: the equation solving and simplification a fresh
/// `check-sat` would do, then Z3's SMT core (a `check-sat` inside `push` would skip
/// them).
pub const BATCH_CHECK: &str = "(check-sat-using (then simplify solve-eqs smt))";

/// The line separating answers in a script's output.
pub const SEPARATOR: &str = "@cfp:sep";

/// Limits of one query ([`Session::solve_horn_within`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct QueryLimits {
    /// `(set-option :rlimit N)`: Z3's resource limit, which counts solver work rather than
    /// time, so the same query stops at the same point on every machine and build (the
    /// native z3 and the browser's wasm answer alike; a time limit would not).
    pub rlimit: Option<u64>,
    /// A wall-clock safety net in milliseconds ([`Solver::eval_within`]): the call is
    /// stopped with [`SolverError::TimedOut`] if the resource limit did not stop it.
    pub wall_ms: Option<u64>,
    /// Leave out Spacer's eager inlining of clauses (`fp.xform.inline_eager`): on the
    /// systems of whole applications (hundreds of predicates of a hundred arguments) it
    /// ran for minutes and took gigabytes before the resource limit counted any work.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub no_eager_inlining: bool,
}

/// Options applied to every script of a session.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SessionOptions {
    /// `(set-option :timeout ms)` per `check-sat` (none = no limit).
    pub timeout_ms: Option<u64>,
}

/// What to ask for besides the `check-sat` answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Want {
    /// A model when `sat`.
    pub model: bool,
    /// An unsat core (names of named assertions) when `unsat`.
    pub core: bool,
}

/// The result of [`Session::check`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckOutcome {
    /// `sat`, `unsat` or `unknown` (with the reason).
    pub result: CheckSat,
    /// The model, when asked for and `sat` (assertion names are left out of it).
    pub model: Option<Model>,
    /// The unsat core, when asked for and `unsat`.
    pub core: Option<Vec<String>>,
}

/// Counters of a session.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SessionStats {
    /// Scripts sent to the solver (calls of [`Solver::eval`]).
    pub scripts: u64,
    /// `check-sat` commands sent to the solver (Horn queries included).
    pub queries: u64,
    /// Horn systems sent to the solver.
    pub horn_queries: u64,
    /// Queries stopped by their resource limit or wall-clock safety net.
    pub limited: u64,
    /// Batch queries answered from the memo cache.
    pub cache_hits: u64,
    /// Batch queries that went to the solver.
    pub cache_misses: u64,
    /// Batch queries decided without the solver: a conjunction with a conjunct and its
    /// negation is unsatisfiable ([`contradicts_itself`]).
    pub decided: u64,
}

/// Batches with at least this many uncached queries are split across the solver's
/// instances ([`Solver::parallelism`]).
pub const PARALLEL_MIN: usize = 64;

/// Whether `t` is a conjunction with a conjunct and its negation among its top-level
/// conjuncts (nested conjunctions included), or `false`: unsatisfiable in every theory.
/// Syntactic only (terms compare structurally); `false` when unsure.
pub fn contradicts_itself(t: &Term) -> bool {
    let mut conjuncts: Vec<&Term> = Vec::new();
    let mut stack = vec![t];
    while let Some(x) = stack.pop() {
        match x.kind() {
            TermKind::Bool(false) => return true,
            TermKind::App(Op::And, args) => stack.extend(args.iter()),
            _ => conjuncts.push(x),
        }
    }
    let negated: Vec<&Term> = conjuncts
        .iter()
        .filter_map(|c| match c.kind() {
            TermKind::App(Op::Not, args) if args.len() == 1 => Some(&args[0]),
            _ => None,
        })
        .collect();
    if negated.is_empty() {
        return false;
    }
    let positive: std::collections::HashSet<&Term> = conjuncts.into_iter().collect();
    negated.iter().any(|n| positive.contains(n))
}

/// A constrained Horn clause `forall vars. (and body) => head`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct HornClause {
    /// Universally quantified variables.
    pub vars: Vec<(String, Sort)>,
    /// Conjuncts: predicate applications (`Term::uf(name, args, Sort::Bool)`) and
    /// constraints.
    pub body: Vec<Term>,
    /// The head: a predicate application, or `None` for `false` (a query).
    pub head: Option<Term>,
}

/// A system of constrained Horn clauses over declared predicates.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct HornSystem {
    /// Predicates and their argument sorts.
    pub preds: Vec<(String, Vec<Sort>)>,
    /// The clauses.
    pub clauses: Vec<HornClause>,
}

/// The answer to a Horn system (Spacer's convention).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum HornAnswer {
    /// `sat`: the system has a solution (for a trace: the interpolants).
    Sat(HornSolution),
    /// `unsat`: no solution (for a trace: the path is feasible).
    Unsat,
    /// `unknown`, with the solver's reason.
    Unknown(String),
}

/// Typed queries over a solver backend, with a memo cache for batched checks.
pub struct Session<S: Solver> {
    solver: S,
    options: SessionOptions,
    stats: SessionStats,
    cache: HashMap<String, CheckSat>,
    macros: Macros,
}

/// Named Boolean formulas ("macros"): a query mentions a macro by an application
/// `(name args…)`, and every script that uses one starts with its `define-fun`. Large
/// predicates that occur in many queries are then printed, sent and parsed once per
/// script instead of once per occurrence. Names are `cfp!p<k>`, never redefined, so the
/// memo cache (keyed by the printed query) stays valid.
#[derive(Clone, Debug, Default)]
pub struct Macros {
    /// name → (parameters, body).
    defs: BTreeMap<String, (Vec<(String, Sort)>, Term)>,
    /// printed body → name.
    by_body: HashMap<String, String>,
}

impl Macros {
    /// The application of the macro for `body` (defined on first use) to its free
    /// constants, in first-occurrence order. A body without free constants is returned
    /// as is.
    pub fn apply(&mut self, body: &Term) -> Term {
        let params = body.free_vars();
        if params.is_empty() {
            return body.clone();
        }
        let key = body.to_string();
        let name = match self.by_body.get(&key) {
            Some(n) => n.clone(),
            None => {
                let n = format!("cfp!p{}", self.defs.len());
                self.defs.insert(n.clone(), (params.clone(), body.clone()));
                self.by_body.insert(key, n.clone());
                n
            }
        };
        let args = params.into_iter().map(|(n, s)| Term::var(n, s)).collect();
        Term::uf(name, args, Sort::Bool)
    }

    /// `t` with every macro application replaced by the macro's body (for display).
    pub fn expand(&self, t: &Term) -> Term {
        match t.kind() {
            TermKind::Uf(name, args, _) => match self.defs.get(name) {
                Some((params, body)) => body.substitute(&|n| {
                    params
                        .iter()
                        .position(|(p, _)| p == n)
                        .and_then(|k| args.get(k).map(|a| self.expand(a)))
                }),
                None => t.clone(),
            },
            TermKind::App(op, args) => {
                Term::app(*op, args.iter().map(|a| self.expand(a)).collect())
            }
            _ => t.clone(),
        }
    }

    fn is_macro(&self, name: &str) -> bool {
        self.defs.contains_key(name)
    }

    /// `define-fun`s of the macros used in `decls` (removed from them), in name order.
    fn write_used(&self, out: &mut String, decls: &mut BTreeMap<String, Decl>) {
        let used: Vec<String> = decls.keys().filter(|n| self.is_macro(n)).cloned().collect();
        for name in used {
            decls.remove(&name);
            if let Some((params, body)) = self.defs.get(&name) {
                let ps: Vec<String> = params
                    .iter()
                    .map(|(n, s)| format!("({} {s})", quote_symbol(n)))
                    .collect();
                let _ = writeln!(
                    out,
                    "(define-fun {} ({}) Bool {body})",
                    quote_symbol(&name),
                    ps.join(" ")
                );
            }
        }
    }
}

/// A declaration derived from the terms of a script.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Decl {
    Const(Sort),
    Fun(Vec<Sort>, Sort),
}

fn declare(decls: &mut BTreeMap<String, Decl>, name: &str, d: Decl) -> Result<(), SolverError> {
    match decls.get(name) {
        Some(old) if *old != d => Err(SolverError::Rejected(format!(
            "`{name}` is used with two different sorts"
        ))),
        Some(_) => Ok(()),
        None => {
            decls.insert(name.to_string(), d);
            Ok(())
        }
    }
}

/// Collect the free constants and uninterpreted functions of `t` into `decls`.
fn collect_decls(t: &Term, decls: &mut BTreeMap<String, Decl>) -> Result<(), SolverError> {
    let mut stack: Vec<(&Term, Vec<&str>)> = vec![(t, Vec::new())];
    while let Some((t, bound)) = stack.pop() {
        match t.kind() {
            TermKind::Var(n, s) if !bound.contains(&n.as_str()) => {
                declare(decls, n, Decl::Const(s.clone()))?
            }
            TermKind::Var(..) | TermKind::Bool(_) | TermKind::Int(_) => {}
            TermKind::App(_, args) => stack.extend(args.iter().map(|a| (a, bound.clone()))),
            TermKind::Uf(n, args, s) => {
                let d = if args.is_empty() {
                    Decl::Const(s.clone())
                } else {
                    Decl::Fun(args.iter().map(Term::sort).collect(), s.clone())
                };
                declare(decls, n, d)?;
                stack.extend(args.iter().map(|a| (a, bound.clone())));
            }
            TermKind::Quant(_, vars, body) => {
                let mut b = bound.clone();
                b.extend(vars.iter().map(|(n, _)| n.as_str()));
                stack.push((body, b));
            }
        }
    }
    Ok(())
}

fn write_decls(out: &mut String, decls: &BTreeMap<String, Decl>) {
    for (name, d) in decls {
        let name = quote_symbol(name);
        let _ = match d {
            Decl::Const(s) => writeln!(out, "(declare-const {name} {s})"),
            Decl::Fun(args, s) => {
                let args: Vec<String> = args.iter().map(Sort::to_string).collect();
                writeln!(out, "(declare-fun {name} ({}) {s})", args.join(" "))
            }
        };
    }
}

fn sep(out: &mut String) {
    let _ = writeln!(out, "(echo \"{SEPARATOR}\")");
}

/// The `check-sat` answer and, for `unknown`, the reason from the next section.
fn read_result(answer: &str, reason: &str) -> Result<CheckSat, SolverError> {
    Ok(match parse_check_sat(answer)? {
        CheckSat::Unknown(_) => {
            CheckSat::Unknown(parse_reason_unknown(reason).unwrap_or_else(|| "unknown".into()))
        }
        r => r,
    })
}

fn section<'a>(sections: &[&'a str], i: usize) -> Result<&'a str, SolverError> {
    sections.get(i).copied().ok_or_else(|| {
        SolverError::Unreadable(format!(
            "expected {} answers separated by `{SEPARATOR}`, got {}",
            i + 1,
            sections.len()
        ))
    })
}

impl<S: Solver> Session<S> {
    /// A session over `solver` with default options.
    pub fn new(solver: S) -> Self {
        Self::with_options(solver, SessionOptions::default())
    }

    /// A session over `solver` with `options`.
    pub fn with_options(solver: S, options: SessionOptions) -> Self {
        Session {
            solver,
            options,
            stats: SessionStats::default(),
            cache: HashMap::new(),
            macros: Macros::default(),
        }
    }

    /// The options.
    pub fn options(&self) -> &SessionOptions {
        &self.options
    }

    /// Change the options (the memo cache is kept: a cached answer is `sat`/`unsat`, which
    /// no option changes).
    pub fn set_options(&mut self, options: SessionOptions) {
        self.options = options;
    }

    /// The counters so far.
    pub fn stats(&self) -> &SessionStats {
        &self.stats
    }

    /// The backend.
    pub fn solver_mut(&mut self) -> &mut S {
        &mut self.solver
    }

    /// Give the backend back.
    pub fn into_solver(self) -> S {
        self.solver
    }

    /// The macros of this session (see [`Macros`]).
    pub fn macros(&self) -> &Macros {
        &self.macros
    }

    /// The macros, to define new ones.
    pub fn macros_mut(&mut self) -> &mut Macros {
        &mut self.macros
    }

    /// Empty the memo cache of [`Session::check_batch`].
    pub fn clear_cache(&mut self) {
        self.cache.clear();
    }

    fn timeout_option(&self, out: &mut String) {
        if let Some(ms) = self.options.timeout_ms {
            let _ = writeln!(out, "(set-option :timeout {ms})");
        }
    }

    async fn run(&mut self, script: &str, queries: u64) -> Result<String, SolverError> {
        self.stats.scripts += 1;
        self.stats.queries += queries;
        self.solver.eval(script).await
    }

    /// The script [`Session::check`] sends for an unsat core (for logs and tests).
    pub fn check_script(
        &self,
        assertions: &[(Option<String>, Term)],
        want: Want,
    ) -> Result<String, SolverError> {
        self.script(assertions, want, true)
    }

    /// The script of [`Session::check`]: with the assertions' names (and unsat cores on)
    /// or without.
    fn script(
        &self,
        assertions: &[(Option<String>, Term)],
        want: Want,
        names: bool,
    ) -> Result<String, SolverError> {
        let mut decls = BTreeMap::new();
        for (_, t) in assertions {
            collect_decls(t, &mut decls)?;
        }
        let named = names && assertions.iter().any(|(n, _)| n.is_some());
        let mut out = String::new();
        if want.model {
            out.push_str("(set-option :produce-models true)\n");
        }
        // Also without names, so that asking for a core on `unsat` gives `()`.
        if named || want.core {
            out.push_str("(set-option :produce-unsat-cores true)\n");
        }
        self.timeout_option(&mut out);
        let mut defs = String::new();
        self.macros.write_used(&mut defs, &mut decls);
        write_decls(&mut out, &decls);
        out.push_str(&defs);
        for (name, t) in assertions {
            let _ = match name {
                Some(n) if names => {
                    writeln!(out, "(assert (! {t} :named {}))", quote_symbol(n))
                }
                _ => writeln!(out, "(assert {t})"),
            };
        }
        out.push_str("(check-sat)\n");
        sep(&mut out);
        out.push_str("(get-info :reason-unknown)\n");
        if want.model {
            sep(&mut out);
            out.push_str("(get-model)\n");
        }
        if want.core {
            sep(&mut out);
            out.push_str("(get-unsat-core)\n");
        }
        Ok(out)
    }

    /// Check the conjunction of `assertions` (each optionally named, for unsat cores) and
    /// read the model or core asked for in `want`.
    ///
    /// The conjunction is first checked without names: z3 solves a
    /// script with unsat cores on under one assumption per named assertion, which can make
    /// a satisfiable one thousands of times slower (a 500-step path: 55 s against 50 ms).
    /// Only an `unsat` answer is checked again, with names, for its core (without one
    /// when that second run does not end).
    pub async fn check(
        &mut self,
        assertions: &[(Option<String>, Term)],
        want: Want,
    ) -> Result<CheckOutcome, SolverError> {
        self.stop_if_cancelled()?;
        let plain = Want {
            core: false,
            ..want
        };
        let first = self.check_once(assertions, plain, false).await?;
        if !want.core || first.result != CheckSat::Unsat {
            return Ok(first);
        }
        self.stop_if_cancelled()?;
        // The answer is known: a second run that does not end gives it without a core.
        match self.check_once(assertions, want, true).await {
            Ok(o) if o.result == CheckSat::Unsat => Ok(o),
            Ok(_) | Err(SolverError::TimedOut(_)) => Ok(first),
            Err(e) => Err(e),
        }
    }

    /// One script of [`Session::check`].
    async fn check_once(
        &mut self,
        assertions: &[(Option<String>, Term)],
        want: Want,
        names: bool,
    ) -> Result<CheckOutcome, SolverError> {
        let script = self.script(assertions, want, names)?;
        let output = self.run(&script, 1).await?;
        let sections = split_sections(&output, SEPARATOR);
        let result = read_result(section(&sections, 0)?, section(&sections, 1)?)?;
        let mut next = 2;
        let mut model = None;
        if want.model {
            let text = section(&sections, next)?;
            next += 1;
            if result == CheckSat::Sat {
                let mut m = parse_model(text)?;
                for (n, _) in assertions {
                    if let Some(n) = n {
                        m.values.remove(n);
                    }
                }
                model = Some(m);
            }
        }
        let mut core = None;
        if want.core {
            let text = section(&sections, next)?;
            if result == CheckSat::Unsat {
                core = Some(parse_unsat_core(text)?);
            }
        }
        Ok(CheckOutcome {
            result,
            model,
            core,
        })
    }

    /// The script for the (uncached, deduplicated) `queries` of a batch: each query in its
    /// own `push`/`pop` scope, checked by [`BATCH_CHECK`].
    pub fn batch_script(&self, queries: &[&Term]) -> Result<String, SolverError> {
        let mut decls = BTreeMap::new();
        for q in queries {
            collect_decls(q, &mut decls)?;
        }
        let mut out = String::new();
        self.timeout_option(&mut out);
        // Macro parameters shadow nothing: their bodies are closed over the parameters.
        let mut defs = String::new();
        self.macros.write_used(&mut defs, &mut decls);
        write_decls(&mut out, &decls);
        out.push_str(&defs);
        // Each query is checked by a tactic, not by `check-sat`: after a `push`, Z3's
        // `check-sat` uses its incremental core, which skips the preprocessing that solves
        // equations away, and a block that allocates a thousand arrays (a chain of a
        // thousand `store`s) then takes more than 40 s instead of 0.2 s.
        for q in queries {
            let _ = writeln!(out, "(push 1)\n(assert {q})\n{BATCH_CHECK}");
            sep(&mut out);
            out.push_str("(get-info :reason-unknown)\n(pop 1)\n");
            sep(&mut out);
        }
        Ok(out)
    }

    /// Check each of `queries` independently, in one script. Answers are memoised by the
    /// printed formula (`sat`/`unsat` only): hits do not reach the solver.
    ///
    /// A query that is a conjunction with a conjunct and its negation is answered
    /// `unsat` without printing or sending it (counted in [`SessionStats::decided`]): most
    /// of UpdateTransitions' edge questions are of that kind (a predicate the edge does
    /// not change, true before and false after).
    pub async fn check_batch(&mut self, queries: &[Term]) -> Result<Vec<CheckSat>, SolverError> {
        self.stop_if_cancelled()?;
        let decided: Vec<bool> = queries.iter().map(contradicts_itself).collect();
        let keys: Vec<String> = queries
            .iter()
            .zip(&decided)
            .map(|(q, &d)| if d { String::new() } else { q.to_string() })
            .collect();
        let mut todo: Vec<&Term> = Vec::new();
        let mut todo_keys: Vec<&str> = Vec::new();
        let mut in_batch: std::collections::HashSet<&str> = std::collections::HashSet::new();
        for ((q, k), &d) in queries.iter().zip(&keys).zip(&decided) {
            if d {
                self.stats.decided += 1;
            } else if self.cache.contains_key(k) {
                self.stats.cache_hits += 1;
            } else if !in_batch.insert(k.as_str()) {
                // A repeat within this batch: answered by the first occurrence.
                self.stats.cache_hits += 1;
            } else {
                self.stats.cache_misses += 1;
                todo.push(q);
                todo_keys.push(k);
            }
        }
        let mut fresh: HashMap<&str, CheckSat> = HashMap::new();
        if !todo.is_empty() {
            // Large batches are split into one script per solver instance; answers are
            // the same either way (each query is checked on its own).
            let p = self.solver.parallelism().max(1);
            let chunks = if p > 1 && todo.len() >= PARALLEL_MIN {
                p.min(todo.len())
            } else {
                1
            };
            let size = todo.len().div_ceil(chunks);
            let parts: Vec<&[&Term]> = todo.chunks(size).collect();
            let scripts = parts
                .iter()
                .map(|c| self.batch_script(c))
                .collect::<Result<Vec<_>, _>>()?;
            self.stats.scripts += scripts.len() as u64;
            self.stats.queries += todo.len() as u64;
            let outputs = if scripts.len() == 1 {
                vec![self.solver.eval(&scripts[0]).await?]
            } else {
                self.solver.eval_all(&scripts).await?
            };
            let mut next = 0;
            for (part, output) in parts.iter().zip(&outputs) {
                let sections = split_sections(output, SEPARATOR);
                for i in 0..part.len() {
                    let r =
                        read_result(section(&sections, 2 * i)?, section(&sections, 2 * i + 1)?)?;
                    fresh.insert(todo_keys[next], r);
                    next += 1;
                }
                // Anything after the last separator (e.g. an error from `pop`) is a failure.
                check_errors(section(&sections, 2 * part.len())?)?;
            }
        }
        let mut out = Vec::with_capacity(queries.len());
        for (k, &d) in keys.iter().zip(&decided) {
            if d {
                out.push(CheckSat::Unsat);
                continue;
            }
            let r = match self.cache.get(k) {
                Some(r) => r.clone(),
                None => fresh
                    .get(k.as_str())
                    .cloned()
                    .ok_or_else(|| SolverError::Unreadable(format!("no answer for query {k}")))?,
            };
            out.push(r);
        }
        for (k, r) in fresh {
            if matches!(r, CheckSat::Sat | CheckSat::Unsat) {
                self.cache.insert(k.to_string(), r);
            }
        }
        Ok(out)
    }

    /// The script [`Session::solve_horn`] sends.
    pub fn horn_script(&self, system: &HornSystem) -> String {
        self.horn_script_within(system, QueryLimits::default())
    }

    /// The script [`Session::solve_horn_within`] sends.
    pub fn horn_script_within(&self, system: &HornSystem, limits: QueryLimits) -> String {
        let mut out = String::from("(set-logic HORN)\n");
        self.timeout_option(&mut out);
        if let Some(r) = limits.rlimit {
            let _ = writeln!(out, "(set-option :rlimit {r})");
        }
        if limits.no_eager_inlining {
            out.push_str("(set-option :fp.xform.inline_eager false)\n");
        }
        for (name, sorts) in &system.preds {
            let sorts: Vec<String> = sorts.iter().map(Sort::to_string).collect();
            let _ = writeln!(
                out,
                "(declare-fun {} ({}) Bool)",
                quote_symbol(name),
                sorts.join(" ")
            );
        }
        for c in &system.clauses {
            let body = match c.body.as_slice() {
                [] => "true".to_string(),
                [b] => b.to_string(),
                bs => {
                    let parts: Vec<String> = bs.iter().map(Term::to_string).collect();
                    format!("(and {})", parts.join(" "))
                }
            };
            let head = c
                .head
                .as_ref()
                .map_or_else(|| "false".to_string(), Term::to_string);
            let clause = format!("(=> {body} {head})");
            if c.vars.is_empty() {
                let _ = writeln!(out, "(assert {clause})");
            } else {
                let vars: Vec<String> = c
                    .vars
                    .iter()
                    .map(|(n, s)| format!("({} {s})", quote_symbol(n)))
                    .collect();
                let _ = writeln!(out, "(assert (forall ({}) {clause}))", vars.join(" "));
            }
        }
        out.push_str("(check-sat)\n");
        sep(&mut out);
        out.push_str("(get-info :reason-unknown)\n");
        sep(&mut out);
        out.push_str("(get-model)\n");
        // Z3 keeps these options past `(reset)`: give the scripts that follow in this
        // process their defaults back (a later feasibility query answered `unknown` at
        // the Horn query's resource limit).
        if limits.rlimit.is_some() {
            out.push_str("(set-option :rlimit 0)\n");
        }
        if limits.no_eager_inlining {
            out.push_str("(set-option :fp.xform.inline_eager true)\n");
        }
        out
    }

    /// Solve a Horn system with the solver's Horn engine (Spacer).
    pub async fn solve_horn(&mut self, system: &HornSystem) -> Result<HornAnswer, SolverError> {
        self.solve_horn_within(system, QueryLimits::default()).await
    }

    /// [`Session::solve_horn`] within `limits`: past the resource limit the answer is
    /// `unknown`; past the wall-clock safety net the call fails with
    /// [`SolverError::TimedOut`] (both counted in [`SessionStats::limited`]).
    pub async fn solve_horn_within(
        &mut self,
        system: &HornSystem,
        limits: QueryLimits,
    ) -> Result<HornAnswer, SolverError> {
        self.stop_if_cancelled()?;
        let script = self.horn_script_within(system, limits);
        self.stats.horn_queries += 1;
        self.stats.scripts += 1;
        self.stats.queries += 1;
        let output = match limits.wall_ms {
            Some(ms) => self.solver.eval_within(&script, ms).await,
            None => self.solver.eval(&script).await,
        };
        let output = match output {
            Err(e @ SolverError::TimedOut(_)) => {
                self.stats.limited += 1;
                return Err(e);
            }
            other => other?,
        };
        let sections = split_sections(&output, SEPARATOR);
        let result = read_result(section(&sections, 0)?, section(&sections, 1)?)?;
        let model = section(&sections, 2)?;
        Ok(match result {
            CheckSat::Sat => HornAnswer::Sat(parse_horn_solution(model)?),
            CheckSat::Unsat => HornAnswer::Unsat,
            CheckSat::Unknown(r) => {
                if r.contains("resource limit") || r.contains("timeout") || r.contains("canceled") {
                    self.stats.limited += 1;
                }
                HornAnswer::Unknown(r)
            }
        })
    }

    /// The host's clock ([`Solver::now_ms`]).
    pub fn now_ms(&self) -> Option<f64> {
        self.solver.now_ms()
    }

    /// [`SolverError::Cancelled`] once the host refuses further calls
    /// ([`Solver::cancelled`]); every query asks this first (a batch answered from the
    /// cache too), and long work between queries polls it.
    pub fn stop_if_cancelled(&self) -> Result<(), SolverError> {
        if self.solver.cancelled() {
            Err(SolverError::Cancelled)
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests;
