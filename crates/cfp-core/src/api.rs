//! API-call detection (ARCHITECTURE.md, paper §3.2): which program calls are calls of the
//! spec's API, and which terminals `T_m` each one may emit.
//!
//! A call `x.m(a1..an)` is an API call when the static type of `x` — or one of its
//! supertypes, for an in-file class — is the declared type of the receiver wildcard of a
//! terminal `$k.m(…)` with `n` arguments. When `x`'s static type is unknown, name and
//! arity alone decide (and the lowering warns). A terminal whose receiver wildcard has no
//! declared type (a spec without `wildcard` lines) matches any receiver by name and arity.

use crate::ir::TerminalId;
use cfp_syntax::spec_ast::{Spec, Symbol, TermArg, Terminal};
use std::collections::BTreeMap;

/// Supertypes of the APIs' classes outside the program (the JDK's), by simple name: a
/// call through one of them (`Lock l = new ReentrantLock(); l.lock()`) may be a call of
/// the API.
pub const KNOWN_SUPERTYPES: &[(&str, &[&str])] = &[
    ("ReentrantLock", &["Lock"]),
    ("ReadLock", &["Lock"]),
    ("WriteLock", &["Lock"]),
];

/// JDK classes whose objects the built-in models give as objects of a wildcard's class:
/// `ReentrantReadWriteLock`'s `readLock()` and `writeLock()` (of static types `ReadLock`
/// and `WriteLock`) are reentrant locks of their own (`cfp models rwlock`).
pub const KNOWN_VIEWS: &[(&str, &[&str])] = &[("ReentrantLock", &["ReadLock", "WriteLock"])];

/// Whether a receiver of static type `ty` (a program name) is an object of the wildcard
/// class `wildcard` (as the spec writes it: a class of another package or outer class
/// with the same simple name is one too).
fn is_of(ty: &str, wildcard: &str) -> bool {
    let simple = cfp_syntax::resolve::simple_name(ty);
    cfp_syntax::resolve::names_class(wildcard, ty)
        || KNOWN_VIEWS
            .iter()
            .any(|(w, views)| *w == wildcard && views.contains(&simple))
}

/// True when terminal `t` is written with `arity` arguments, or with `(..)`.
pub fn takes(t: &Terminal, arity: usize) -> bool {
    t.args == [TermArg::Rest] || t.args.len() == arity
}

/// The spec's terminals and wildcard types, indexed for API-call detection.
#[derive(Clone, Debug, Default)]
pub struct ApiTable {
    /// Terminals in order of first appearance in the spec (the `TerminalId` table).
    pub terminals: Vec<Terminal>,
    /// Declared wildcard types: `k` → simple class name.
    pub wildcard_types: BTreeMap<u32, String>,
    /// Every wildcard declared or used, ascending.
    pub wildcards: Vec<u32>,
}

impl ApiTable {
    /// Collect the terminals and wildcards of `spec`.
    pub fn from_spec(spec: &Spec) -> ApiTable {
        let mut t = ApiTable::default();
        for w in &spec.wildcards {
            t.wildcard_types
                .entry(w.index)
                .or_insert_with(|| w.ty.name.clone());
            if !t.wildcards.contains(&w.index) {
                t.wildcards.push(w.index);
            }
        }
        for r in &spec.rules {
            for alt in &r.alternatives {
                for s in &alt.symbols {
                    if let Symbol::Terminal(term) = s {
                        if !t.terminals.contains(term) {
                            t.terminals.push(term.clone());
                        }
                        for k in term.wildcards() {
                            if !t.wildcards.contains(&k) {
                                t.wildcards.push(k);
                            }
                        }
                    }
                }
            }
        }
        t.wildcards.sort_unstable();
        t
    }

    /// The declared type of the receiver wildcard of terminal `t`.
    pub fn receiver_type(&self, t: &Terminal) -> Option<&str> {
        self.wildcard_types.get(&t.receiver).map(String::as_str)
    }

    /// Terminals `$k.method(…)` with `arity` arguments whose receiver type is one of
    /// `types` (or undeclared).
    pub fn matching(&self, types: &[String], method: &str, arity: usize) -> Vec<TerminalId> {
        self.select(method, arity, |t| match self.receiver_type(t) {
            Some(ty) => types.iter().any(|x| is_of(x, ty)),
            None => true,
        })
    }

    /// The terminals `$k.method(…)` of any arity whose receiver type is one of `types` (not
    /// undeclared): for a call with an arity none of them has, the warning that the call
    /// is not an event.
    pub fn same_name(&self, types: &[String], method: &str) -> Vec<&Terminal> {
        self.terminals
            .iter()
            .filter(|t| {
                t.method == method
                    && self
                        .receiver_type(t)
                        .is_some_and(|ty| types.iter().any(|x| is_of(x, ty)))
            })
            .collect()
    }

    /// Terminals `$k.method(…)` with `arity` arguments whose receiver type has `ty` among
    /// its supertypes, as `supers` gives them (with [`KNOWN_SUPERTYPES`]): a call through
    /// an interface the API's class implements. Treating it as an API call is sound: when
    /// the receiver is the wildcard's object, the call is that object's.
    pub fn matching_through_super(
        &self,
        ty: &str,
        method: &str,
        arity: usize,
        supers: &dyn Fn(&str) -> Vec<String>,
    ) -> Vec<TerminalId> {
        self.select(method, arity, |t| {
            self.receiver_type(t).is_some_and(|w| {
                let simple = cfp_syntax::resolve::simple_name(ty);
                !cfp_syntax::resolve::names_class(w, ty)
                    && (supers(w).iter().any(|s| s == ty)
                        || KNOWN_SUPERTYPES
                            .iter()
                            .any(|(c, ss)| *c == w && ss.contains(&simple)))
            })
        })
    }

    /// Terminals matching by method name and arity only.
    pub fn matching_untyped(&self, method: &str, arity: usize) -> Vec<TerminalId> {
        self.select(method, arity, |_| true)
    }

    fn select(
        &self,
        method: &str,
        arity: usize,
        ok: impl Fn(&Terminal) -> bool,
    ) -> Vec<TerminalId> {
        self.terminals
            .iter()
            .enumerate()
            .filter(|(_, t)| t.method == method && takes(t, arity) && ok(t))
            .map(|(i, _)| TerminalId(i as u32))
            .collect()
    }
}
