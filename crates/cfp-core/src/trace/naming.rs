//! Which state symbol names each SSA constant, position after position of an encoded trace.
//!
//! Refinement asks, at every position `i` of a trace, which state symbols of the running
//! method's scope are bound to a given SSA constant ([`Naming::name`]: the first one in
//! scope order; [`Naming::bound_to`]: all of them). Every scope holds the globals, all
//! field arrays and their entry copies, so a scope has as many symbols as the program has
//! fields, and a trace through a long `main` has as many positions as `main` has calls:
//! walking the scope at every position costs their product. [`Naming`] instead keeps a
//! reverse index and moves it from one position to the next by the bindings that changed
//! ([`Names::changed_bindings`], which skips the structure consecutive positions share),
//! plus the method's own variables when a call or return changes the method.

use super::Position;
use crate::encode::{entry_copy, Names, Symbols};
use crate::ir::MethodId;
use cfp_smt::{Sort, Term, TermKind};
use std::collections::BTreeMap;

/// A symbol's place in scope order ([`Symbols::scope`]): the method's variables (by id),
/// the shared symbols, the parameters' entry copies, the shared symbols' entry copies.
pub type Rank = (u8, usize);

/// A scope symbol: its rank, name and sort.
type Entry<'a> = (Rank, &'a str, &'a Sort);

/// The reverse index of one position (see the module doc).
#[derive(Debug)]
pub struct Naming<'a> {
    symbols: &'a Symbols,
    /// The symbols in every scope (shared symbols and their entry copies).
    common: BTreeMap<&'a str, (Rank, &'a Sort)>,
    /// The position the index describes, and its method's own symbols (variables and
    /// parameter entry copies; owned names because entry copies are built).
    at: Option<(&'a Position, BTreeMap<String, (Rank, &'a Sort)>)>,
    /// Per SSA constant, the scope symbols bound to it (with their sorts).
    by_constant: BTreeMap<&'a str, BTreeMap<(Rank, String), (&'a Sort, &'a Term)>>,
    /// Scope symbols bound to a term that is not a constant, with their sorts and terms.
    other: BTreeMap<(Rank, String), (&'a Sort, &'a Term)>,
}

impl<'a> Naming<'a> {
    /// An index before the first position.
    pub fn new(symbols: &'a Symbols) -> Naming<'a> {
        let mut common = BTreeMap::new();
        for (k, (n, s)) in symbols.shared().iter().enumerate() {
            common.insert(n.as_str(), ((1, k), s));
        }
        for (k, (n, s)) in symbols.shared_entry().iter().enumerate() {
            common.insert(n.as_str(), ((3, k), s));
        }
        Naming {
            symbols,
            common,
            at: None,
            by_constant: BTreeMap::new(),
            other: BTreeMap::new(),
        }
    }

    /// The own symbols of `m`: variables and parameter entry copies.
    fn own(&self, m: MethodId) -> BTreeMap<String, (Rank, &'a Sort)> {
        let mut out = BTreeMap::new();
        if let Ok(vars) = self.symbols.vars(m) {
            for (k, (n, s)) in vars.iter().enumerate() {
                out.insert(n.clone(), ((0, k), s));
            }
        }
        if let Ok(params) = self.symbols.params(m) {
            for (k, p) in params.iter().enumerate() {
                if let Ok((n, s)) = self.symbols.local(m, *p) {
                    out.insert(entry_copy(n), ((2, k), s));
                }
            }
        }
        out
    }

    fn insert(&mut self, rank: Rank, symbol: &str, sort: &'a Sort, term: &'a Term) {
        match term.kind() {
            TermKind::Var(c, _) => {
                self.by_constant
                    .entry(c.as_str())
                    .or_default()
                    .insert((rank, symbol.to_string()), (sort, term));
            }
            _ => {
                self.other.insert((rank, symbol.to_string()), (sort, term));
            }
        }
    }

    fn remove(&mut self, rank: Rank, symbol: &str, term: &'a Term) {
        match term.kind() {
            TermKind::Var(c, _) => {
                if let Some(set) = self.by_constant.get_mut(c.as_str()) {
                    set.remove(&(rank, symbol.to_string()));
                    if set.is_empty() {
                        self.by_constant.remove(c.as_str());
                    }
                }
            }
            _ => {
                self.other.remove(&(rank, symbol.to_string()));
            }
        }
    }

    fn insert_all(&mut self, names: &'a Names, symbols: Vec<(String, Rank, &'a Sort)>) {
        for (n, rank, s) in symbols {
            if let Ok(t) = names.get(&n) {
                self.insert(rank, &n, s, t);
            }
        }
    }

    /// Move the index to `pos` (the next position, or any position: the cost is the
    /// difference to the previous one).
    pub fn advance(&mut self, pos: &'a Position) {
        let Some((prev, prev_own)) = self.at.take() else {
            let own = self.own(pos.method);
            let all: Vec<(String, Rank, &'a Sort)> = own
                .iter()
                .map(|(n, (r, s))| (n.clone(), *r, *s))
                .chain(
                    self.common
                        .iter()
                        .map(|(n, (r, s))| (n.to_string(), *r, *s)),
                )
                .collect();
            self.insert_all(&pos.names, all);
            self.at = Some((pos, own));
            return;
        };
        let same = prev.method == pos.method;
        let own = if same {
            prev_own
        } else {
            for (n, (r, _)) in &prev_own {
                if let Ok(t) = prev.names.get(n) {
                    self.remove(*r, n, t);
                }
            }
            self.own(pos.method)
        };
        let changed: Vec<(&'a str, Option<&'a Term>)> =
            prev.names.changed_bindings(&pos.names).collect();
        for (n, new) in changed {
            let known = match self.common.get(n) {
                Some(&(r, s)) => Some((r, s)),
                None if same => own.get(n).map(|&(r, s)| (r, s)),
                // A new method's own symbols are inserted below.
                None => None,
            };
            let Some((r, s)) = known else { continue };
            if let Ok(old) = prev.names.get(n) {
                self.remove(r, n, old);
            }
            if let Some(t) = new {
                self.insert(r, n, s, t);
            }
        }
        if !same {
            let fresh: Vec<(String, Rank, &'a Sort)> =
                own.iter().map(|(n, (r, s))| (n.clone(), *r, *s)).collect();
            self.insert_all(&pos.names, fresh);
        }
        self.at = Some((pos, own));
    }

    /// The first scope symbol (in scope order) bound to the constant `c` here, with its sort.
    pub fn name(&self, c: &str) -> Option<(&str, &'a Sort)> {
        let ((_, n), (s, _)) = self.by_constant.get(c)?.first_key_value()?;
        Some((n.as_str(), *s))
    }

    /// Every scope symbol bound to the constant `c` here, in scope order, with its term.
    pub fn bound_to(&self, c: &str) -> impl Iterator<Item = (Entry<'_>, &'a Term)> + '_ {
        self.by_constant
            .get(c)
            .into_iter()
            .flatten()
            .map(|((r, n), (s, t))| ((*r, n.as_str(), *s), *t))
    }

    /// The scope symbols bound to terms that are not constants here, with the terms, in
    /// scope order.
    pub fn compound(&self) -> impl Iterator<Item = (Entry<'_>, &'a Term)> + '_ {
        self.other
            .iter()
            .map(|((r, n), (s, t))| ((*r, n.as_str(), *s), *t))
    }
}

/// The state symbols naming SSA constants at one position, computed by walking the scope
/// (the reference [`Naming`] must agree with; used by the tests).
#[cfg(test)]
pub fn nameable_by_scope(symbols: &Symbols, pos: &Position) -> BTreeMap<String, Term> {
    let mut out = BTreeMap::new();
    for (n, s) in symbols.scope(pos.method).unwrap_or_default() {
        if let Ok(t) = pos.names.get(n) {
            if let TermKind::Var(c, _) = t.kind() {
                out.entry(c.clone())
                    .or_insert_with(|| Term::var(n.clone(), s.clone()));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::Encoder;
    use crate::trace::encode_trace;
    use crate::trace::tests::{fig2, lock_unlock, spurious};

    /// What the index says at one position: the naming symbol of each constant, and every
    /// bound (symbol, term) in scope order.
    fn seen(naming: &Naming<'_>, consts: &[String]) -> (BTreeMap<String, Term>, Vec<String>) {
        let names = consts
            .iter()
            .filter_map(|c| {
                let (n, s) = naming.name(c)?;
                Some((c.clone(), Term::var(n, s.clone())))
            })
            .collect();
        let mut all: Vec<(Rank, String)> = consts
            .iter()
            .flat_map(|c| {
                naming
                    .bound_to(c)
                    .map(|((r, n, _), t)| (r, format!("{n}={t}")))
            })
            .chain(
                naming
                    .compound()
                    .map(|((r, n, _), t)| (r, format!("{n}={t}"))),
            )
            .collect();
        all.sort();
        (names, all.into_iter().map(|(_, s)| s).collect())
    }

    /// The same by walking the scope.
    fn walked(symbols: &Symbols, pos: &Position) -> (BTreeMap<String, Term>, Vec<String>) {
        let all = symbols
            .scope(pos.method)
            .unwrap_or_default()
            .iter()
            .filter_map(|(n, _)| Some(format!("{n}={}", pos.names.get(n).ok()?)))
            .collect();
        (nameable_by_scope(symbols, pos), all)
    }

    #[test]
    fn the_index_agrees_with_walking_the_scope_in_any_order() {
        let p = fig2();
        let enc = Encoder::new(&p);
        for trace in [spurious(&p), lock_unlock(&p)] {
            let t = encode_trace(&enc, &trace).expect("encodes");
            let consts: Vec<String> = t
                .positions
                .iter()
                .flat_map(|pos| pos.names.bindings().flat_map(|(_, t)| t.free_vars()))
                .map(|(c, _)| c)
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            let forward: Vec<usize> = (0..t.positions.len()).collect();
            let backward: Vec<usize> = forward.iter().rev().copied().collect();
            let jumping: Vec<usize> = forward.iter().map(|i| (i * 7) % forward.len()).collect();
            for order in [forward, backward, jumping] {
                let mut naming = Naming::new(enc.symbols());
                for i in order {
                    let pos = &t.positions[i];
                    naming.advance(pos);
                    assert_eq!(
                        seen(&naming, &consts),
                        walked(enc.symbols(), pos),
                        "position {i}"
                    );
                }
            }
        }
    }
}
