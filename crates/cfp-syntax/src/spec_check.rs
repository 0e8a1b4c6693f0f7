//! Static checks of a parsed spec ([`check_spec`]) and the API signatures it declares
//! ([`api_signatures`]).
//!
//! Codes reported by [`check_spec`]:
//!
//! | code | severity | when |
//! |---|---|---|
//! | `empty-spec` | error | the file has no rule |
//! | `undefined-nonterminal` | error | a nonterminal is used (each use site) but has no rule |
//! | `unproductive-nonterminal` | warning | a nonterminal derives no terminal word (undefined nonterminals count as productive, to avoid cascades) |
//! | `empty-language` | warning | the start symbol derives no terminal word |
//! | `unreachable-nonterminal` | warning | a nonterminal cannot be reached from the start symbol |
//! | `undeclared-wildcard` | error ([`SpecUse::Protocol`] only) | a wildcard is used but not declared (first use) |
//! | `conflicting-wildcard` | error | a wildcard is declared again with another type |
//! | `duplicate-wildcard` | warning | a wildcard is declared again with the same type |
//! | `unused-wildcard` | warning | a declared wildcard appears in no terminal |
//! | `arity-conflict` | warning | one method of one class is used with different numbers of arguments |
//!
//! Diagnostics about a terminal point at the terminal
//! ([`Alternative::symbol_span`](crate::spec_ast::Alternative::symbol_span)).

use crate::diagnostic::Diagnostic;
use crate::span::Span;
use crate::spec_ast::{Spec, Symbol, Terminal};
use serde::Serialize;
use std::collections::{HashMap, HashSet};

/// What a spec is used for; decides whether wildcard declarations are required.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpecUse {
    /// A protocol for `cfp check`: every wildcard used must be declared with its class.
    Protocol,
    /// A grammar for `cfp include`: wildcard declarations are optional.
    Grammar,
}

/// Check a parsed spec. Returns diagnostics sorted by position (deterministic; ties keep
/// the order in which the checks run). Does not repeat the parser's diagnostics.
pub fn check_spec(spec: &Spec, usage: SpecUse) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    check_wildcards(spec, usage, &mut diags);
    check_arities(spec, &mut diags);
    if spec.rules.is_empty() {
        diags.push(Diagnostic::error(
            "empty-spec",
            Span {
                start: spec.span.start,
                end: spec.span.start,
            },
            "the spec has no rules (a rule looks like `S -> $1.lock() S $1.unlock() | ε;`)",
        ));
    } else {
        check_nonterminals(spec, &mut diags);
    }
    diags.sort_by_key(|d| d.span.start);
    diags
}

/// Every terminal occurrence in source order, with its span.
fn terminals(spec: &Spec) -> impl Iterator<Item = (&Terminal, Span)> {
    spec.rules.iter().flat_map(|r| {
        r.alternatives.iter().flat_map(|a| {
            a.symbols
                .iter()
                .enumerate()
                .filter_map(move |(i, s)| match s {
                    Symbol::Terminal(t) => Some((t, a.symbol_span(i))),
                    Symbol::Nonterminal(_) => None,
                })
        })
    })
}

fn check_wildcards(spec: &Spec, usage: SpecUse, diags: &mut Vec<Diagnostic>) {
    let mut declared: HashMap<u32, &str> = HashMap::new();
    for w in &spec.wildcards {
        match declared.get(&w.index) {
            None => {
                declared.insert(w.index, &w.ty.name);
            }
            Some(ty) if *ty == w.ty.name => diags.push(Diagnostic::warning(
                "duplicate-wildcard",
                w.span,
                format!("wildcard `${}` is declared twice", w.index),
            )),
            Some(ty) => diags.push(Diagnostic::error(
                "conflicting-wildcard",
                w.span,
                format!(
                    "wildcard `${}` is declared again with type `{}` (it was declared `{}`)",
                    w.index, w.ty.name, ty
                ),
            )),
        }
    }
    let mut used: HashSet<u32> = HashSet::new();
    for (t, span) in terminals(spec) {
        for k in t.wildcards() {
            if used.insert(k) && usage == SpecUse::Protocol && !declared.contains_key(&k) {
                diags.push(Diagnostic::error(
                    "undeclared-wildcard",
                    span,
                    format!(
                        "wildcard `${k}` (in `{t}`) is not declared; add `wildcard ${k} : Type;`"
                    ),
                ));
            }
        }
    }
    let mut reported: HashSet<u32> = HashSet::new();
    for w in &spec.wildcards {
        if !used.contains(&w.index) && reported.insert(w.index) {
            diags.push(Diagnostic::warning(
                "unused-wildcard",
                w.span,
                format!("wildcard `${}` is declared but never used", w.index),
            ));
        }
    }
}

/// The class a receiver wildcard stands for: its (first) declared type, else `$k`.
fn class_of(spec: &Spec, k: u32) -> String {
    spec.wildcards
        .iter()
        .find(|w| w.index == k)
        .map_or_else(|| format!("${k}"), |w| w.ty.name.clone())
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        "argument"
    } else {
        "arguments"
    }
}

fn check_arities(spec: &Spec, diags: &mut Vec<Diagnostic>) {
    // (class, method) -> first terminal seen; reported keys.
    let mut first: HashMap<(String, &str), &Terminal> = HashMap::new();
    let mut reported: HashSet<(String, &str)> = HashSet::new();
    for (t, span) in terminals(spec) {
        let key = (class_of(spec, t.receiver), t.method.as_str());
        match first.get(&key) {
            None => {
                first.insert(key, t);
            }
            Some(f) if f.args.len() != t.args.len() && !reported.contains(&key) => {
                diags.push(Diagnostic::warning(
                    "arity-conflict",
                    span,
                    format!(
                        "method `{}` of `{}` is used with {} {} in `{t}` but with {} {} in `{f}`; \
                         calls are matched by arity, so these are two different API methods",
                        t.method,
                        key.0,
                        t.args.len(),
                        plural(t.args.len()),
                        f.args.len(),
                        plural(f.args.len()),
                    ),
                ));
                reported.insert(key);
            }
            Some(_) => {}
        }
    }
}

fn check_nonterminals(spec: &Spec, diags: &mut Vec<Diagnostic>) {
    // Nonterminals numbered by first definition.
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut first_def: Vec<Span> = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    for r in &spec.rules {
        if !index.contains_key(r.lhs.name.as_str()) {
            index.insert(&r.lhs.name, names.len());
            names.push(&r.lhs.name);
            first_def.push(r.lhs.span);
        }
    }
    let n = names.len();
    // Undefined uses.
    for r in &spec.rules {
        for a in &r.alternatives {
            for s in &a.symbols {
                if let Symbol::Nonterminal(id) = s {
                    if !index.contains_key(id.name.as_str()) {
                        diags.push(Diagnostic::error(
                            "undefined-nonterminal",
                            id.span,
                            format!("nonterminal `{}` has no rule", id.name),
                        ));
                    }
                }
            }
        }
    }
    // Productivity (least fixpoint).
    let mut productive = vec![false; n];
    let mut changed = true;
    while changed {
        changed = false;
        for r in &spec.rules {
            let Some(&l) = index.get(r.lhs.name.as_str()) else {
                continue;
            };
            if productive[l] {
                continue;
            }
            let ok = r.alternatives.iter().any(|a| {
                a.symbols.iter().all(|s| match s {
                    Symbol::Terminal(_) => true,
                    // Undefined nonterminals (already errors) count as productive,
                    // so that one missing rule does not cascade into warnings.
                    Symbol::Nonterminal(id) => {
                        !matches!(index.get(id.name.as_str()), Some(&i) if !productive[i])
                    }
                })
            });
            if ok {
                productive[l] = true;
                changed = true;
            }
        }
    }
    // Reachability from the start symbol (index 0).
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    for r in &spec.rules {
        let Some(&l) = index.get(r.lhs.name.as_str()) else {
            continue;
        };
        for a in &r.alternatives {
            for s in &a.symbols {
                if let Symbol::Nonterminal(id) = s {
                    if let Some(&i) = index.get(id.name.as_str()) {
                        succ[l].push(i);
                    }
                }
            }
        }
    }
    let mut reachable = vec![false; n];
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        if i < n && !reachable[i] {
            reachable[i] = true;
            stack.extend(succ[i].iter().copied());
        }
    }
    for i in 0..n {
        if !productive[i] {
            if i == 0 {
                diags.push(Diagnostic::warning(
                    "empty-language",
                    first_def[i],
                    format!(
                        "the start symbol `{}` derives no word made of terminals: the language is empty",
                        names[i]
                    ),
                ));
            } else {
                diags.push(Diagnostic::warning(
                    "unproductive-nonterminal",
                    first_def[i],
                    format!(
                        "nonterminal `{}` derives no word made of terminals (every derivation from it goes on forever)",
                        names[i]
                    ),
                ));
            }
        }
        if !reachable[i] {
            diags.push(Diagnostic::warning(
                "unreachable-nonterminal",
                first_def[i],
                format!(
                    "nonterminal `{}` is unreachable from the start symbol `{}`",
                    names[i], names[0]
                ),
            ));
        }
    }
}

/// One API method a spec talks about: calls `x.method(a1..an)` with `x` of static type
/// `class` and `n == arity` are API calls.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ApiSignature {
    /// The declared type of the receiver wildcard (`$k` when the wildcard is undeclared,
    /// which [`check_spec`] reports for protocols).
    pub class: String,
    /// The method name.
    pub method: String,
    /// The number of arguments.
    pub arity: usize,
    /// The distinct terminals of this signature, in order of first appearance.
    pub terminals: Vec<Terminal>,
}

/// The API signatures of a spec, in order of first appearance of their first terminal;
/// each terminal belongs to the signature `(class of its receiver, method, arity)`.
pub fn api_signatures(spec: &Spec) -> Vec<ApiSignature> {
    let mut out: Vec<ApiSignature> = Vec::new();
    let mut index: HashMap<(String, String, usize), usize> = HashMap::new();
    for (t, _) in terminals(spec) {
        let key = (class_of(spec, t.receiver), t.method.clone(), t.args.len());
        match index.get(&key) {
            Some(&i) => {
                if !out[i].terminals.contains(t) {
                    out[i].terminals.push(t.clone());
                }
            }
            None => {
                index.insert(key.clone(), out.len());
                out.push(ApiSignature {
                    class: key.0,
                    method: key.1,
                    arity: key.2,
                    terminals: vec![t.clone()],
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec_parser::parse_spec;

    fn check(text: &str, usage: SpecUse) -> Vec<(&'static str, u32)> {
        let p = parse_spec(text);
        assert!(!p.has_errors(), "{:?}", p.diagnostics);
        check_spec(&p.tree, usage)
            .iter()
            .map(|d| (d.code, d.span.start))
            .collect()
    }

    #[test]
    fn clean_lock_spec() {
        let lock = "wildcard $1 : ReentrantLock; S -> $1.lock() S $1.unlock() S | ε;";
        assert!(check(lock, SpecUse::Protocol).is_empty());
    }

    #[test]
    fn nonterminal_checks() {
        // A undefined (two uses), B unproductive, C unreachable.
        let text = "S -> A | B A | $1.a(); B -> $1.b() B; C -> ;";
        assert_eq!(
            check(text, SpecUse::Grammar),
            vec![
                ("undefined-nonterminal", 5),
                ("undefined-nonterminal", 11),
                ("unproductive-nonterminal", 23),
                ("unreachable-nonterminal", 38)
            ]
        );
        assert_eq!(
            check("S -> S $1.a();", SpecUse::Grammar),
            vec![("empty-language", 0)]
        );
    }

    #[test]
    fn wildcard_checks() {
        let text =
            "wildcard $1 : A; wildcard $1 : A; wildcard $1 : B; wildcard $3 : C;\nS -> $1.f($2);";
        assert_eq!(
            check(text, SpecUse::Protocol),
            vec![
                ("duplicate-wildcard", 17),
                ("conflicting-wildcard", 34),
                ("unused-wildcard", 51),
                ("undeclared-wildcard", 73)
            ]
        );
        assert_eq!(
            check(text, SpecUse::Grammar),
            vec![
                ("duplicate-wildcard", 17),
                ("conflicting-wildcard", 34),
                ("unused-wildcard", 51)
            ]
        );
        let empty = parse_spec("wildcard $1 : A;");
        let d = check_spec(&empty.tree, SpecUse::Protocol);
        let c: Vec<_> = d.iter().map(|d| d.code).collect();
        assert_eq!(c, vec!["unused-wildcard", "empty-spec"]);
    }

    #[test]
    fn arity_conflicts_and_signatures() {
        let text = "wildcard $1 : M; wildcard $2 : M; wildcard $3 : K;\n\
                    S -> $1.put($3, _) $2.put(_) $1.put(_, _) $1.get($3) $2.put($3);";
        assert_eq!(check(text, SpecUse::Protocol), vec![("arity-conflict", 70)]);
        let sigs = api_signatures(&parse_spec(text).tree);
        let short: Vec<_> = sigs
            .iter()
            .map(|s| {
                let ts: Vec<_> = s.terminals.iter().map(ToString::to_string).collect();
                format!("{}.{}/{} {}", s.class, s.method, s.arity, ts.join(" "))
            })
            .collect();
        assert_eq!(
            short,
            vec![
                "M.put/2 $1.put($3, _) $1.put(_, _)",
                "M.put/1 $2.put(_) $2.put($3)",
                "M.get/1 $1.get($3)"
            ]
        );
    }
}
