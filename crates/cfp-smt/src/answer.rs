//! Reading solver answers into types: `check-sat` results, models, unsat cores, Horn
//! solutions, and `(error "…")` reports.
//!
//! Everything here works on the text a solver printed (Z3 5.x as the reference: models
//! with or without the leading `model` keyword, arrays as `(store … ((as const …) v))`
//! chains or `(_ as-array k!0)` with a helper function). Nothing panics on odd input:
//! what cannot be read is an [`SolverError::Unreadable`] or, for values, [`Value::Other`].

use crate::sexp::{self, Sexp};
use crate::solver::SolverError;
use crate::term::{Op, Quantifier, Sort, Term};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

/// The answer to `(check-sat)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum CheckSat {
    /// `sat`
    Sat,
    /// `unsat`
    Unsat,
    /// `unknown`, with the solver's reason (`(get-info :reason-unknown)`) when known.
    Unknown(String),
}

/// A value in a model.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Value {
    /// An integer.
    Int(i128),
    /// A boolean.
    Bool(bool),
    /// An array `Int → T`: `entries` where it differs from `default`.
    Array {
        /// The value at every index not in `entries`.
        default: Box<Value>,
        /// Explicit entries (never equal to `default`).
        entries: BTreeMap<i128, Value>,
    },
    /// Anything else, as the solver printed it.
    Other(String),
}

impl fmt::Display for Value {
    /// `3`, `true`, `[1 ↦ 5, 2 ↦ 7, else ↦ 0]`, or the solver's text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Array { default, entries } => {
                f.write_str("[")?;
                for (i, v) in entries {
                    write!(f, "{i} ↦ {v}, ")?;
                }
                write!(f, "else ↦ {default}]")
            }
            Value::Other(s) => f.write_str(s),
        }
    }
}

/// A model: the value of each constant (and, as [`Value::Other`] with their `lambda`
/// text, of functions with arguments).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Model {
    /// Values by constant name.
    pub values: BTreeMap<String, Value>,
}

impl Model {
    /// The value of `name`, if the model has one.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.values.get(name)
    }
}

/// A solution of a Horn system: for each predicate, its parameters and its body.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct HornSolution {
    /// Predicate name → (parameters, body over the parameters as [`Term::var`]s).
    pub preds: BTreeMap<String, (Vec<(String, Sort)>, Term)>,
}

impl HornSolution {
    /// The body of predicate `name` with its parameters replaced by `args` (positionally);
    /// `None` if the predicate is not in the solution or the arity differs.
    pub fn instantiate(&self, name: &str, args: &[Term]) -> Option<Term> {
        let (params, body) = self.preds.get(name)?;
        if params.len() != args.len() {
            return None;
        }
        Some(body.substitute(&|n| {
            params
                .iter()
                .position(|(p, _)| p == n)
                .and_then(|i| args.get(i).cloned())
        }))
    }
}

fn unreadable(what: &str, text: impl fmt::Display) -> SolverError {
    let mut t = text.to_string();
    if t.len() > 400 {
        let mut cut = 400;
        while !t.is_char_boundary(cut) {
            cut -= 1;
        }
        t.truncate(cut);
        t.push('…');
    }
    SolverError::Unreadable(format!("{what}: {t}"))
}

/// Parse solver output into S-expressions, mapping reader errors to
/// [`SolverError::Unreadable`].
pub fn read_sexps(text: &str) -> Result<Vec<Sexp>, SolverError> {
    sexp::parse(text).map_err(|e| unreadable(&format!("malformed answer ({e})"), text))
}

/// The first `(error "…")` in `text` as [`SolverError::Rejected`] (also a bare
/// `unsupported`, Z3's answer to commands it does not know). Text that is not a sequence of
/// S-expressions is [`SolverError::Unreadable`].
pub fn check_errors(text: &str) -> Result<(), SolverError> {
    for s in read_sexps(text)? {
        if let Some(msg) = error_message(&s) {
            return Err(SolverError::rejected(msg));
        }
        if s.is_symbol("unsupported") {
            return Err(SolverError::Rejected("unsupported command".into()));
        }
    }
    Ok(())
}

fn error_message(s: &Sexp) -> Option<String> {
    match s.as_list()? {
        [h, rest @ ..] if h.is_symbol("error") => Some(
            rest.iter()
                .map(|x| match x {
                    Sexp::Str(m) => m.clone(),
                    other => other.to_string(),
                })
                .collect::<Vec<_>>()
                .join(" "),
        ),
        _ => None,
    }
}

/// Read a `check-sat` answer: the text must hold exactly one of `sat`, `unsat`,
/// `unknown` (errors before it are [`SolverError::Rejected`]). An `unknown` gets an empty
/// reason; see [`parse_reason_unknown`].
pub fn parse_check_sat(text: &str) -> Result<CheckSat, SolverError> {
    let items = read_sexps(text)?;
    let mut found = None;
    for s in &items {
        if let Some(msg) = error_message(s) {
            return Err(SolverError::rejected(msg));
        }
        let r = match s.as_symbol() {
            Some("sat") => CheckSat::Sat,
            Some("unsat") => CheckSat::Unsat,
            Some("unknown") => CheckSat::Unknown(String::new()),
            Some("unsupported") => return Err(SolverError::Rejected("unsupported command".into())),
            _ => return Err(unreadable("unexpected check-sat answer", s)),
        };
        if found.is_some() {
            return Err(unreadable("more than one check-sat answer", text));
        }
        found = Some(r);
    }
    found.ok_or_else(|| unreadable("no check-sat answer", text))
}

/// Read the answer to `(get-info :reason-unknown)`: `(:reason-unknown "timeout")` →
/// `timeout`. Anything else gives `None`.
pub fn parse_reason_unknown(text: &str) -> Option<String> {
    let items = sexp::parse(text).ok()?;
    items.iter().find_map(|s| match s.as_list()? {
        [k, Sexp::Str(r)] if k.is_symbol(":reason-unknown") => Some(r.clone()),
        [k, v] if k.is_symbol(":reason-unknown") => Some(v.to_string()),
        _ => None,
    })
}

/// Read `(get-unsat-core)`'s answer: a list of assertion names, in the solver's order.
pub fn parse_unsat_core(text: &str) -> Result<Vec<String>, SolverError> {
    let items = read_sexps(text)?;
    match items.as_slice() {
        [s] if error_message(s).is_some() => {
            Err(SolverError::rejected(error_message(s).unwrap_or_default()))
        }
        [Sexp::List(names)] => names
            .iter()
            .map(|n| match n {
                Sexp::Symbol(s) => Ok(s.clone()),
                other => Err(unreadable("unexpected unsat core element", other)),
            })
            .collect(),
        _ => Err(unreadable("unexpected unsat core", text)),
    }
}

/// A `define-fun` of a model: name, parameters, result sort, body.
struct Define<'a> {
    name: &'a str,
    params: &'a [Sexp],
    body: &'a Sexp,
}

/// Run `f` on the `define-fun`s of a `(get-model)` answer (with or without the `model`
/// keyword).
fn with_defines<R>(
    text: &str,
    f: impl FnOnce(&[Define<'_>]) -> Result<R, SolverError>,
) -> Result<R, SolverError> {
    let items = read_sexps(text)?;
    let list: &[Sexp] = match items.as_slice() {
        [s] if error_message(s).is_some() => {
            return Err(SolverError::rejected(error_message(s).unwrap_or_default()))
        }
        [Sexp::List(v)] => v,
        _ => return Err(unreadable("unexpected model", text)),
    };
    let list = match list.first() {
        Some(s) if s.is_symbol("model") => &list[1..],
        _ => list,
    };
    let mut defs = Vec::new();
    for d in list {
        match d.as_list() {
            Some([h, name, params, _sort, body]) if h.is_symbol("define-fun") => {
                let (Some(name), Some(params)) = (name.as_symbol(), params.as_list()) else {
                    return Err(unreadable("malformed define-fun", d));
                };
                defs.push(Define { name, params, body });
            }
            // Declarations of uninterpreted sorts' elements, comments as forms, etc.
            Some([h, ..]) if h.is_symbol("declare-fun") || h.is_symbol("declare-sort") => {}
            Some([h, ..]) if h.is_symbol("forall") => {}
            _ => return Err(unreadable("unexpected model element", d)),
        }
    }
    f(&defs)
}

/// Read `(get-model)`'s answer. Constants get their [`Value`]; helper functions that
/// arrays refer to with `(_ as-array k!0)` are folded into those arrays and left out;
/// other functions appear as [`Value::Other`] holding a `lambda` text.
pub fn parse_model(text: &str) -> Result<Model, SolverError> {
    with_defines(text, |defs| {
        let helpers: BTreeMap<&str, &Define<'_>> = defs.iter().map(|d| (d.name, d)).collect();
        let mut used_helpers = Vec::new();
        let mut values = BTreeMap::new();
        for d in defs {
            if d.params.is_empty() {
                let v = value_of(d.body, &helpers, &mut used_helpers);
                values.insert(d.name.to_string(), v);
            }
        }
        for d in defs {
            if !d.params.is_empty() && !used_helpers.contains(&d.name) {
                let params: Vec<String> = d.params.iter().map(|p| p.to_string()).collect();
                values.insert(
                    d.name.to_string(),
                    Value::Other(format!("(lambda ({}) {})", params.join(" "), d.body)),
                );
            }
        }
        Ok(Model { values })
    })
}

fn int_value(s: &Sexp) -> Option<i128> {
    match s {
        Sexp::Numeral(_) => s.as_numeral(),
        Sexp::List(v) => match v.as_slice() {
            [m, n] if m.is_symbol("-") => n.as_numeral().and_then(i128::checked_neg),
            _ => None,
        },
        _ => None,
    }
}

fn scalar_value(s: &Sexp) -> Option<Value> {
    if let Some(i) = int_value(s) {
        return Some(Value::Int(i));
    }
    match s.as_symbol() {
        Some("true") => Some(Value::Bool(true)),
        Some("false") => Some(Value::Bool(false)),
        _ => None,
    }
}

/// The value printed as `s`; arrays in the common forms, else [`Value::Other`].
fn value_of<'a>(
    s: &'a Sexp,
    helpers: &BTreeMap<&'a str, &'a Define<'a>>,
    used: &mut Vec<&'a str>,
) -> Value {
    if let Some(v) = scalar_value(s) {
        return v;
    }
    array_value(s, helpers, used).unwrap_or_else(|| Value::Other(s.to_string()))
}

fn array_value<'a>(
    s: &'a Sexp,
    helpers: &BTreeMap<&'a str, &'a Define<'a>>,
    used: &mut Vec<&'a str>,
) -> Option<Value> {
    // Unwind a `store` chain (outermost store last applied, so it wins).
    let mut stores: Vec<(&Sexp, &Sexp)> = Vec::new();
    let mut base = s;
    while let Some([h, a, i, v]) = base.as_list() {
        if !h.is_symbol("store") {
            break;
        }
        stores.push((i, v));
        base = a;
    }
    let (default, mut entries) = match base.as_list()? {
        // ((as const (Array Int T)) v)
        [Sexp::List(k), v] if k.first().is_some_and(|x| x.is_symbol("as")) => {
            if !k.get(1).is_some_and(|x| x.is_symbol("const")) {
                return None;
            }
            (scalar_value(v)?, BTreeMap::new())
        }
        // (_ as-array k!0)
        [u, a, k] if u.is_symbol("_") && a.is_symbol("as-array") => {
            let name = k.as_symbol()?;
            let def = helpers.get(name)?;
            let r = ite_table(def.params, def.body)?;
            used.push(def.name);
            r
        }
        // (lambda ((x!1 Int)) body)
        [l, Sexp::List(params), body] if l.is_symbol("lambda") => ite_table(params, body)?,
        _ => return None,
    };
    for (i, v) in stores.into_iter().rev() {
        entries.insert(int_value(i)?, scalar_value(v)?);
    }
    entries.retain(|_, v| *v != default);
    Some(Value::Array {
        default: Box::new(default),
        entries,
    })
}

/// `(ite (= x!0 1) 5 (ite (= x!0 2) 7 0))` over one parameter → (default, entries).
fn ite_table(params: &[Sexp], body: &Sexp) -> Option<(Value, BTreeMap<i128, Value>)> {
    let [p] = params else { return None };
    let pname = p.as_list()?.first()?.as_symbol()?;
    let mut entries = BTreeMap::new();
    let mut t = body;
    loop {
        if let Some(v) = scalar_value(t) {
            return Some((v, entries));
        }
        let [h, c, a, b] = t.as_list()? else {
            return None;
        };
        if !h.is_symbol("ite") {
            return None;
        }
        let idx = match c.as_list()? {
            [e, x, n] if e.is_symbol("=") && x.is_symbol(pname) => int_value(n)?,
            [e, n, x] if e.is_symbol("=") && x.is_symbol(pname) => int_value(n)?,
            _ => return None,
        };
        entries.entry(idx).or_insert(scalar_value(a)?);
        t = b;
    }
}

/// Read a sort: `Int`, `Bool`, `(Array S T)`.
pub fn parse_sort(s: &Sexp) -> Result<Sort, SolverError> {
    // Arrays of arrays nest shallowly; recursion here is bounded by `sexp::MAX_DEPTH`.
    match s {
        Sexp::Symbol(n) if n == "Int" => Ok(Sort::Int),
        Sexp::Symbol(n) if n == "Bool" => Ok(Sort::Bool),
        Sexp::List(v) => match v.as_slice() {
            [a, i, e] if a.is_symbol("Array") => Ok(Sort::Array(
                Box::new(parse_sort(i)?),
                Box::new(parse_sort(e)?),
            )),
            _ => Err(unreadable("unsupported sort", s)),
        },
        _ => Err(unreadable("unsupported sort", s)),
    }
}

fn parse_params(params: &[Sexp]) -> Result<Vec<(String, Sort)>, SolverError> {
    params
        .iter()
        .map(|p| match p.as_list() {
            Some([Sexp::Symbol(n), s]) => Ok((n.clone(), parse_sort(s)?)),
            _ => Err(unreadable("malformed parameter", p)),
        })
        .collect()
}

/// Read `(get-model)`'s answer after a Horn query's `sat`: every `define-fun` becomes a
/// predicate with its parameters and its body as a [`Term`].
pub fn parse_horn_solution(text: &str) -> Result<HornSolution, SolverError> {
    with_defines(text, |defs| {
        let mut preds = BTreeMap::new();
        for d in defs {
            let params = parse_params(d.params)?;
            let scope: Vec<(String, Term)> = params
                .iter()
                .map(|(n, s)| (n.clone(), Term::var(n.clone(), s.clone())))
                .collect();
            let body = parse_term(d.body, &scope)?;
            preds.insert(d.name.to_string(), (params, body));
        }
        Ok(HornSolution { preds })
    })
}

enum Task<'a> {
    Eval(&'a Sexp),
    Apply(&'a Sexp, usize),
    Bind(Vec<String>),
    Scope(Vec<(String, Term)>),
    PopScope,
    Quant(Quantifier, Vec<(String, Sort)>),
}

/// Convert a solver-printed term to a [`Term`]. Symbols resolve to `scope` (innermost
/// last), `let` binders and quantified variables; `let` is expanded by substitution.
/// Supports `and or not => = distinct < <= > >= + - * div mod ite select store let exists
/// forall true false` and integer literals (`(- 3)` folds to the literal −3). Iterative:
/// nesting depth does not consume stack.
pub fn parse_term(s: &Sexp, scope: &[(String, Term)]) -> Result<Term, SolverError> {
    let mut scopes: Vec<Vec<(String, Term)>> = vec![scope.to_vec()];
    let mut tasks: Vec<Task<'_>> = vec![Task::Eval(s)];
    let mut vals: Vec<Term> = Vec::new();
    while let Some(task) = tasks.pop() {
        match task {
            Task::Eval(e) => match e {
                Sexp::Numeral(_) => {
                    let i = e
                        .as_numeral()
                        .ok_or_else(|| unreadable("integer too large", e))?;
                    vals.push(Term::int(i));
                }
                Sexp::Symbol(n) if n == "true" => vals.push(Term::tt()),
                Sexp::Symbol(n) if n == "false" => vals.push(Term::ff()),
                Sexp::Symbol(n) => {
                    let t = scopes
                        .iter()
                        .rev()
                        .find_map(|sc| sc.iter().rev().find(|(m, _)| m == n))
                        .map(|(_, t)| t.clone())
                        .ok_or_else(|| unreadable("unknown symbol", e))?;
                    vals.push(t);
                }
                Sexp::Decimal(_) | Sexp::Str(_) => {
                    return Err(unreadable("unsupported literal", e))
                }
                Sexp::List(items) => {
                    let Some((head, args)) = items.split_first() else {
                        return Err(unreadable("empty application", e));
                    };
                    match head.as_symbol() {
                        Some("let") => {
                            let [Sexp::List(binds), body] = args else {
                                return Err(unreadable("malformed let", e));
                            };
                            let mut names = Vec::new();
                            let mut exprs = Vec::new();
                            for b in binds {
                                match b.as_list() {
                                    Some([Sexp::Symbol(n), x]) => {
                                        names.push(n.clone());
                                        exprs.push(x);
                                    }
                                    _ => return Err(unreadable("malformed let binding", b)),
                                }
                            }
                            tasks.push(Task::PopScope);
                            tasks.push(Task::Eval(body));
                            tasks.push(Task::Bind(names));
                            tasks.extend(exprs.into_iter().rev().map(Task::Eval));
                        }
                        Some(q @ ("forall" | "exists")) => {
                            let [Sexp::List(vars), body] = args else {
                                return Err(unreadable("malformed quantifier", e));
                            };
                            let vars = parse_params(vars)?;
                            let q = if q == "forall" {
                                Quantifier::Forall
                            } else {
                                Quantifier::Exists
                            };
                            let binds = vars
                                .iter()
                                .map(|(n, s)| (n.clone(), Term::var(n.clone(), s.clone())))
                                .collect();
                            tasks.push(Task::Quant(q, vars));
                            tasks.push(Task::PopScope);
                            tasks.push(Task::Eval(body));
                            tasks.push(Task::Scope(binds));
                        }
                        Some("!") => match args.first() {
                            Some(t) => tasks.push(Task::Eval(t)),
                            None => return Err(unreadable("malformed annotation", e)),
                        },
                        Some(_) => {
                            tasks.push(Task::Apply(e, args.len()));
                            tasks.extend(args.iter().rev().map(Task::Eval));
                        }
                        None => return Err(unreadable("unsupported application", e)),
                    }
                }
            },
            Task::Bind(names) => {
                let at = vals.len().saturating_sub(names.len());
                let values = vals.split_off(at);
                scopes.push(names.into_iter().zip(values).collect());
            }
            Task::Scope(binds) => scopes.push(binds),
            Task::PopScope => {
                scopes.pop();
            }
            Task::Quant(q, vars) => {
                let body = vals.pop().ok_or_else(|| unreadable("malformed term", s))?;
                vals.push(Term::new(crate::term::TermKind::Quant(q, vars, body)));
            }
            Task::Apply(e, n) => {
                if vals.len() < n {
                    return Err(unreadable("malformed term", e));
                }
                let args = vals.split_off(vals.len() - n);
                let head = e.head().unwrap_or("");
                vals.push(apply(head, args).ok_or_else(|| unreadable("unsupported term", e))?);
            }
        }
    }
    match (vals.pop(), vals.is_empty()) {
        (Some(t), true) => Ok(t),
        _ => Err(unreadable("malformed term", s)),
    }
}

/// Chain a binary relation over n arguments: `(< a b c)` = `(and (< a b) (< b c))`.
fn chain(op: Op, args: Vec<Term>) -> Option<Term> {
    if args.len() < 2 {
        return None;
    }
    Some(Term::and(
        args.windows(2)
            .map(|w| Term::app(op, vec![w[0].clone(), w[1].clone()])),
    ))
}

fn apply(head: &str, mut args: Vec<Term>) -> Option<Term> {
    let n = args.len();
    Some(match head {
        "and" => Term::and(args),
        "or" => Term::or(args),
        "not" if n == 1 => Term::negate(args.pop()?),
        "=>" if n >= 2 => {
            let mut acc = args.pop()?;
            while let Some(a) = args.pop() {
                acc = Term::app(Op::Implies, vec![a, acc]);
            }
            acc
        }
        "=" => chain(Op::Eq, args)?,
        "<" => chain(Op::Lt, args)?,
        "<=" => chain(Op::Le, args)?,
        ">" => chain(Op::Gt, args)?,
        ">=" => chain(Op::Ge, args)?,
        "distinct" if n >= 2 => Term::app(Op::Distinct, args),
        "-" if n == 1 => {
            let a = args.pop()?;
            match a.as_int().and_then(i128::checked_neg) {
                Some(i) => Term::int(i),
                None => Term::app(Op::Neg, vec![a]),
            }
        }
        "-" if n >= 2 => {
            let mut it = args.into_iter();
            let mut acc = it.next()?;
            for b in it {
                acc = Term::app(Op::Sub, vec![acc, b]);
            }
            acc
        }
        "+" if n >= 1 => {
            if n == 1 {
                args.pop()?
            } else {
                Term::app(Op::Add, args)
            }
        }
        "*" if n >= 1 => {
            if n == 1 {
                args.pop()?
            } else {
                Term::app(Op::Mul, args)
            }
        }
        "div" if n == 2 => Term::app(Op::Div, args),
        "mod" if n == 2 => Term::app(Op::Mod, args),
        "ite" if n == 3 => Term::app(Op::Ite, args),
        "select" if n == 2 => Term::app(Op::Select, args),
        "store" if n == 3 => Term::app(Op::Store, args),
        _ => return None,
    })
}

/// Split solver output at lines equal to `marker` (as printed by `(echo "marker")`):
/// the text before the first marker, then between markers, then after the last.
pub fn split_sections<'a>(text: &'a str, marker: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_end_matches(['\n', '\r']) == marker {
            out.push(&text[start..pos]);
            start = pos + line.len();
        }
        pos += line.len();
    }
    out.push(&text[start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Verbatim output of `z3 -in` 5.4.1 (see the module tests for the scripts).
    const MODEL_5_4_1: &str = "(\n  (define-fun b () Bool\n    true)\n  (define-fun a () (Array Int Int)\n    (store ((as const (Array Int Int)) (- 7)) 1 5))\n  (define-fun c () (Array Int Bool)\n    ((as const (Array Int Bool)) true))\n  (define-fun a1 () Bool\n    (= (select a 1) 5))\n  (define-fun x () Int\n    (- 3))\n  (define-fun f ((x!0 Int)) Int\n    9)\n)\n";

    const HORN_5_4_1: &str = "(\n  (define-fun I2 ((x!0 Int) (x!1 Int) (x!2 Int)) Bool\n    (and (= x!1 x!0) (= x!2 x!0)))\n  (define-fun I1 ((x!0 Int) (x!1 Int)) Bool\n    (= x!1 x!0))\n  (define-fun I0 ((x!0 Int) (x!1 Int)) Bool\n    (= x!1 x!0))\n)\n";

    #[test]
    fn check_sat_answers() {
        assert_eq!(parse_check_sat("sat\n").unwrap(), CheckSat::Sat);
        assert_eq!(parse_check_sat("unsat\n").unwrap(), CheckSat::Unsat);
        assert_eq!(
            parse_check_sat("unknown\n").unwrap(),
            CheckSat::Unknown(String::new())
        );
        assert_eq!(
            parse_reason_unknown("(:reason-unknown \"timeout\")\n").as_deref(),
            Some("timeout")
        );
        assert!(matches!(
            parse_check_sat("(error \"line 3 column 10: unknown constant y\")\nsat\n"),
            Err(SolverError::Rejected(m)) if m.contains("unknown constant y")
        ));
        assert!(matches!(
            parse_check_sat(""),
            Err(SolverError::Unreadable(_))
        ));
        assert!(matches!(
            parse_check_sat("sat sat"),
            Err(SolverError::Unreadable(_))
        ));
        assert!(matches!(
            parse_check_sat("(sat"),
            Err(SolverError::Unreadable(_))
        ));
        assert!(matches!(
            check_errors("unsupported\n"),
            Err(SolverError::Rejected(_))
        ));
    }

    #[test]
    fn z3_5_model_without_keyword() {
        let m = parse_model(MODEL_5_4_1).unwrap();
        assert_eq!(m.get("x"), Some(&Value::Int(-3)));
        assert_eq!(m.get("b"), Some(&Value::Bool(true)));
        assert_eq!(
            m.get("a"),
            Some(&Value::Array {
                default: Box::new(Value::Int(-7)),
                entries: [(1, Value::Int(5))].into_iter().collect()
            })
        );
        assert_eq!(m.get("a").unwrap().to_string(), "[1 ↦ 5, else ↦ -7]");
        assert_eq!(
            m.get("c"),
            Some(&Value::Array {
                default: Box::new(Value::Bool(true)),
                entries: BTreeMap::new()
            })
        );
        assert_eq!(
            m.get("f"),
            Some(&Value::Other("(lambda ((x!0 Int)) 9)".into()))
        );
        assert_eq!(
            m.get("a1"),
            Some(&Value::Other("(= (select a 1) 5)".into()))
        );
    }

    #[test]
    fn older_model_forms() {
        let text = "(model\n  (define-fun y () Int 3)\n  (define-fun a () (Array Int Int) (_ as-array k!0))\n  (define-fun k!0 ((x!0 Int)) Int (ite (= x!0 1) 5 (ite (= 2 x!0) (- 1) 0)))\n  (define-fun s () (Array Int Int) (store (store ((as const (Array Int Int)) 0) 1 2) 1 3))\n  (define-fun l () (Array Int Int) (lambda ((x!1 Int)) (ite (= x!1 4) 9 1)))\n  (define-fun w () (Array Int Int) (_ as-array nope))\n)";
        let m = parse_model(text).unwrap();
        assert_eq!(m.get("y"), Some(&Value::Int(3)));
        assert_eq!(m.get("a").unwrap().to_string(), "[1 ↦ 5, 2 ↦ -1, else ↦ 0]");
        assert_eq!(m.get("s").unwrap().to_string(), "[1 ↦ 3, else ↦ 0]");
        assert_eq!(m.get("l").unwrap().to_string(), "[4 ↦ 9, else ↦ 1]");
        assert_eq!(m.get("w"), Some(&Value::Other("(_ as-array nope)".into())));
        assert!(m.get("k!0").is_none());
        assert_eq!(parse_model("(model)").unwrap(), Model::default());
        assert!(matches!(
            parse_model("(error \"line 28 column 10: model is not available\")"),
            Err(SolverError::Rejected(_))
        ));
        assert!(parse_model("(foo)").is_err());
    }

    #[test]
    fn unsat_cores() {
        assert_eq!(parse_unsat_core("(p1 |p 2|)\n").unwrap(), vec!["p1", "p 2"]);
        assert_eq!(parse_unsat_core("()\n").unwrap(), Vec::<String>::new());
        assert!(matches!(
            parse_unsat_core("(error \"line 18 column 15: unsat core is not available\")"),
            Err(SolverError::Rejected(_))
        ));
    }

    #[test]
    fn horn_solution_bodies() {
        let sol = parse_horn_solution(HORN_5_4_1).unwrap();
        let (params, body) = &sol.preds["I2"];
        assert_eq!(params.len(), 3);
        assert_eq!(body.to_string(), "(and (= x!1 x!0) (= x!2 x!0))");
        let l = Term::var("l", Sort::Int);
        let p = Term::var("$1", Sort::Int);
        assert_eq!(
            sol.instantiate("I0", &[l, p]).unwrap().to_string(),
            "(= $1 l)"
        );
        // let, quantifiers, negative literals, chains, n-ary minus.
        let text = "((define-fun I ((x!0 Int) (x!1 (Array Int Int))) Bool (let ((a!1 (select x!1 x!0)) (a!2 (- 3))) (and (<= a!2 a!1 5) (exists ((y Int)) (= (- x!0 y 1) (* (- 1) a!1))) (not (>= x!0 (- 2))) (=> true (distinct x!0 a!2))))))";
        let sol = parse_horn_solution(text).unwrap();
        assert_eq!(
            sol.preds["I"].1.to_string(),
            "(and (<= (- 3) (select x!1 x!0)) (<= (select x!1 x!0) 5) (exists ((y Int)) (= (- (- x!0 y) 1) (* (- 1) (select x!1 x!0)))) (not (>= x!0 (- 2))) (=> true (distinct x!0 (- 3))))"
        );
        // Let shadowing and parallel binding.
        let t = parse_term(
            &sexp::parse("(let ((a 1)) (let ((a 2) (b a)) (+ a b)))").unwrap()[0],
            &[],
        )
        .unwrap();
        assert_eq!(t.to_string(), "(+ 2 1)");
        for bad in [
            "(foo 1)",
            "y",
            "(let (a) 1)",
            "()",
            "1.5",
            "(- )",
            "(ite 1 2)",
        ] {
            assert!(
                parse_term(&sexp::parse(bad).unwrap()[0], &[]).is_err(),
                "{bad}"
            );
        }
        // Deep nesting does not use the stack.
        let deep = format!("{}0{}", "(- ".repeat(1500), ")".repeat(1500));
        assert!(parse_term(&sexp::parse(&deep).unwrap()[0], &[]).is_ok());
    }

    #[test]
    fn sections() {
        let out = "sat\n(:reason-unknown \"unknown\")\n@s\n(\n)\n@s\n(error \"x\")\n";
        assert_eq!(
            split_sections(out, "@s"),
            vec![
                "sat\n(:reason-unknown \"unknown\")\n",
                "(\n)\n",
                "(error \"x\")\n"
            ]
        );
        assert_eq!(split_sections("a", "@s"), vec!["a"]);
    }
}
