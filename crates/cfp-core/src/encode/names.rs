//! The SSA name maps: the current term of each state symbol and its version counters.

use super::EncodeError;
use cfp_smt::{Sort, Term};

/// Current SSA term of each state symbol, and the version counters that make fresh
/// versions unique. For Refine's checks, [`Names::identity`] maps every symbol to itself;
/// after [`edge_formula`] the post map sends written symbols to `<symbol>@<k>`.
///
/// The maps are persistent ([`imbl::OrdMap`]): a clone is O(1) and shares structure, so a
/// trace of `n` steps over a scope of `s` symbols costs O(n log s), not O(n s). The
/// names are shared strings: the nodes a change copies copy no text (a trace of a
/// million steps keeps millions of such nodes).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    cur: imbl::OrdMap<std::sync::Arc<str>, Term>,
    versions: imbl::OrdMap<std::sync::Arc<str>, u32>,
}

impl Names {
    /// Every symbol mapped to its own constant.
    pub fn identity(symbols: &[(String, Sort)]) -> Names {
        Names {
            cur: symbols
                .iter()
                .map(|(n, s)| {
                    (
                        std::sync::Arc::from(n.as_str()),
                        Term::var(n.clone(), s.clone()),
                    )
                })
                .collect(),
            versions: imbl::OrdMap::new(),
        }
    }

    /// An empty map (no symbol bound) with no version used.
    pub fn new() -> Names {
        Names::default()
    }

    /// The current term of `symbol`.
    pub fn get(&self, symbol: &str) -> Result<&Term, EncodeError> {
        self.cur
            .get(symbol)
            .ok_or_else(|| EncodeError::Unbound(symbol.to_string()))
    }

    /// Bind `symbol` to `term`.
    pub fn set(&mut self, symbol: &str, term: Term) {
        match self.cur.get_mut(symbol) {
            Some(t) => *t = term,
            None => {
                self.cur.insert(std::sync::Arc::from(symbol), term);
            }
        }
    }

    /// Remove every binding, keeping the version counters.
    pub fn clear_bindings(&mut self) {
        self.cur.clear();
    }

    /// The bound symbols and their terms, in name order.
    pub fn bindings(&self) -> impl Iterator<Item = (&str, &Term)> {
        self.cur.iter().map(|(n, t)| (&**n, t))
    }

    /// A fresh version `<symbol>@<k>` (not bound).
    pub fn fresh_term(&mut self, symbol: &str, sort: Sort) -> Term {
        let k = match self.versions.get_mut(symbol) {
            Some(k) => {
                *k += 1;
                *k - 1
            }
            None => {
                self.versions.insert(std::sync::Arc::from(symbol), 1);
                0
            }
        };
        Term::var(format!("{symbol}@{k}"), sort)
    }

    /// A fresh version of `symbol`, bound as its current term.
    pub fn fresh(&mut self, symbol: &str, sort: Sort) -> Term {
        let t = self.fresh_term(symbol, sort);
        self.set(symbol, t.clone());
        t
    }

    /// Take over the larger version counters of `other` (so fresh versions stay unique).
    ///
    /// Only the counters in which the two maps differ are visited (the maps share
    /// structure along a trace), so a merge costs the changes, not the symbols.
    pub fn merge_versions(&mut self, other: &Names) {
        let raised: Vec<(std::sync::Arc<str>, u32)> = self
            .versions
            .diff(&other.versions)
            .filter_map(|d| match d {
                imbl::ordmap::DiffItem::Add(n, k) => Some((n.clone(), *k)),
                imbl::ordmap::DiffItem::Update {
                    old: (_, mine),
                    new: (n, theirs),
                } => (theirs > mine).then(|| (n.clone(), *theirs)),
                imbl::ordmap::DiffItem::Remove(..) => None,
            })
            .collect();
        for (n, k) in raised {
            self.versions.insert(n, k);
        }
    }

    /// Unbind `symbol` (its version counter stays).
    pub fn remove(&mut self, symbol: &str) {
        self.cur.remove(symbol);
    }

    /// The bindings in which `other` differs from `self`, in name order: the symbol and
    /// its term in `other` (`None`: unbound there). Shared structure is skipped, so this
    /// costs the differences when `other` was derived from `self` (or the reverse).
    pub fn changed_bindings<'a>(
        &'a self,
        other: &'a Names,
    ) -> impl Iterator<Item = (&'a str, Option<&'a Term>)> + 'a {
        self.cur.diff(&other.cur).map(|d| match d {
            imbl::ordmap::DiffItem::Add(n, t) => (&**n, Some(t)),
            imbl::ordmap::DiffItem::Update { new: (n, t), .. } => (&**n, Some(t)),
            imbl::ordmap::DiffItem::Remove(n, _) => (&**n, None),
        })
    }

    /// Replace the state symbols of `t` by their current terms (unbound names stay).
    pub fn rename(&self, t: &Term) -> Term {
        t.substitute(&|n| self.cur.get(n).cloned())
    }
}
