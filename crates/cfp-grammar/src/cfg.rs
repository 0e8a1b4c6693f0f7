//! The context-free grammar type shared by every part of the engine.
//!
//! Symbols are interned: terminals and nonterminals are dense indices into the grammar's
//! name tables, productions are dense indices into `productions`. Terminal names are the
//! canonical spelling of spec terminals (`$1.lock()`, `$1.put($2, _)`), which is how two
//! grammars (program and spec) agree on an alphabet.

use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

macro_rules! index_type {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
        pub struct $name(pub u32);

        impl $name {
            /// The index as `usize`.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

index_type!(
    /// A terminal of one grammar (index into [`Grammar::terminals`]).
    TermId
);
index_type!(
    /// A nonterminal of one grammar (index into [`Grammar::nonterminals`]).
    NontermId
);
index_type!(
    /// A production of one grammar (index into [`Grammar::productions`]).
    ProdId
);

/// A symbol on a right-hand side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Sym {
    /// A terminal.
    T(TermId),
    /// A nonterminal.
    N(NontermId),
}

/// `lhs -> rhs`; an empty `rhs` is ε.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Production {
    /// Left-hand side.
    pub lhs: NontermId,
    /// Right-hand side, left to right.
    pub rhs: Vec<Sym>,
}

/// A context-free grammar with interned symbols.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Grammar {
    /// Terminal names (canonical terminal spelling), indexed by [`TermId`].
    pub terminals: Vec<String>,
    /// Nonterminal names, indexed by [`NontermId`].
    pub nonterminals: Vec<String>,
    /// Productions, indexed by [`ProdId`], in insertion order.
    pub productions: Vec<Production>,
    /// The start symbol.
    pub start: NontermId,
}

impl Grammar {
    /// A grammar with start symbol `start` and nothing else.
    pub fn new(start: &str) -> Grammar {
        Grammar {
            terminals: Vec::new(),
            nonterminals: vec![start.to_string()],
            productions: Vec::new(),
            start: NontermId(0),
        }
    }

    /// The id of terminal `name`, adding it when new.
    pub fn terminal(&mut self, name: &str) -> TermId {
        match self.terminals.iter().position(|t| t == name) {
            Some(i) => TermId(i as u32),
            None => {
                self.terminals.push(name.to_string());
                TermId(self.terminals.len() as u32 - 1)
            }
        }
    }

    /// The id of nonterminal `name`, adding it when new.
    pub fn nonterminal(&mut self, name: &str) -> NontermId {
        match self.nonterminals.iter().position(|t| t == name) {
            Some(i) => NontermId(i as u32),
            None => {
                self.nonterminals.push(name.to_string());
                NontermId(self.nonterminals.len() as u32 - 1)
            }
        }
    }

    /// Look up a terminal by name.
    pub fn find_terminal(&self, name: &str) -> Option<TermId> {
        self.terminals
            .iter()
            .position(|t| t == name)
            .map(|i| TermId(i as u32))
    }

    /// Look up a nonterminal by name.
    pub fn find_nonterminal(&self, name: &str) -> Option<NontermId> {
        self.nonterminals
            .iter()
            .position(|t| t == name)
            .map(|i| NontermId(i as u32))
    }

    /// Add `lhs -> rhs` (duplicates are kept: callers that need a set deduplicate).
    pub fn add(&mut self, lhs: NontermId, rhs: Vec<Sym>) -> ProdId {
        self.productions.push(Production { lhs, rhs });
        ProdId(self.productions.len() as u32 - 1)
    }

    /// Name of a terminal.
    pub fn terminal_name(&self, t: TermId) -> &str {
        &self.terminals[t.index()]
    }

    /// Name of a nonterminal.
    pub fn nonterminal_name(&self, n: NontermId) -> &str {
        &self.nonterminals[n.index()]
    }

    /// A production.
    pub fn production(&self, p: ProdId) -> &Production {
        &self.productions[p.index()]
    }

    /// Production ids grouped by left-hand side (index = nonterminal), in id order.
    pub fn by_lhs(&self) -> Vec<Vec<ProdId>> {
        let mut out = vec![Vec::new(); self.nonterminals.len()];
        for (i, p) in self.productions.iter().enumerate() {
            out[p.lhs.index()].push(ProdId(i as u32));
        }
        out
    }

    /// Build a grammar from a parsed spec or grammar file (the left side of the first
    /// rule is the start symbol; terminals get their canonical spelling). Nonterminals
    /// without rules stay without productions (unproductive).
    pub fn from_spec(spec: &cfp_syntax::spec_ast::Spec) -> Grammar {
        use cfp_syntax::spec_ast::Symbol;
        let start = spec
            .rules
            .first()
            .map_or("S".to_string(), |r| r.lhs.name.clone());
        let mut g = Grammar::new(&start);
        for rule in &spec.rules {
            let lhs = g.nonterminal(&rule.lhs.name);
            for alt in &rule.alternatives {
                let rhs = alt
                    .symbols
                    .iter()
                    .map(|s| match s {
                        Symbol::Nonterminal(n) => Sym::N(g.nonterminal(&n.name)),
                        Symbol::Terminal(t) => Sym::T(g.terminal(&t.to_string())),
                    })
                    .collect();
                g.add(lhs, rhs);
            }
        }
        g
    }

    /// Productions grouped by left side, as `BTreeMap` for stable printing.
    fn grouped(&self) -> BTreeMap<NontermId, Vec<&Production>> {
        let mut m: BTreeMap<NontermId, Vec<&Production>> = BTreeMap::new();
        for p in &self.productions {
            m.entry(p.lhs).or_default().push(p);
        }
        m
    }

    /// Render a right-hand side (`ε` when empty).
    pub fn rhs_to_string(&self, rhs: &[Sym]) -> String {
        if rhs.is_empty() {
            return "ε".to_string();
        }
        rhs.iter()
            .map(|s| match s {
                Sym::T(t) => self.terminal_name(*t).to_string(),
                Sym::N(n) => self.nonterminal_name(*n).to_string(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Spec-language rendering: start symbol's rules first, then the others by id; one line
/// per left side, `A -> x y | ε;`. Parses back with `cfp_syntax::parse_spec`.
impl fmt::Display for Grammar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let groups = self.grouped();
        let order =
            std::iter::once(self.start).chain(groups.keys().copied().filter(|n| *n != self.start));
        for lhs in order {
            let Some(prods) = groups.get(&lhs) else {
                continue;
            };
            let alts: Vec<String> = prods.iter().map(|p| self.rhs_to_string(&p.rhs)).collect();
            writeln!(f, "{} -> {};", self.nonterminal_name(lhs), alts.join(" | "))?;
        }
        Ok(())
    }
}

/// A derivation tree over a grammar's own productions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Derivation {
    /// The production applied at this node.
    pub production: ProdId,
    /// One child per right-hand-side symbol, in order.
    pub children: Vec<DerivationChild>,
}

/// A child of a derivation node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum DerivationChild {
    /// A terminal leaf.
    Terminal(TermId),
    /// A subtree for a nonterminal.
    Node(Derivation),
}

/// A child of a node in a flat derivation arena (see [`derivation_from_arena`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArenaChild {
    /// A terminal leaf.
    T(TermId),
    /// The arena index of a child node.
    N(usize),
}

/// Build a tree from a flat arena of `(production, children)` nodes, root at index 0,
/// where every node's child nodes have larger indices (as an unfolding worklist produces
/// them). Iterative, so deep trees need no stack. `None` when a child index is not larger
/// than its parent's, is out of range, or is used twice.
pub fn derivation_from_arena(mut arena: Vec<(ProdId, Vec<ArenaChild>)>) -> Option<Derivation> {
    let mut built: Vec<Option<Derivation>> = (0..arena.len()).map(|_| None).collect();
    for i in (0..arena.len()).rev() {
        let (production, kids) = std::mem::take(&mut arena[i]);
        let mut children = Vec::with_capacity(kids.len());
        for k in kids {
            match k {
                ArenaChild::T(t) => children.push(DerivationChild::Terminal(t)),
                ArenaChild::N(j) if j > i => {
                    children.push(DerivationChild::Node(built.get_mut(j)?.take()?))
                }
                ArenaChild::N(_) => return None,
            }
        }
        built[i] = Some(Derivation {
            production,
            children,
        });
    }
    built.into_iter().next().flatten()
}

/// Dropping is iterative: counterexample trees over program grammars can be thousands of
/// levels deep, deeper than the default recursive drop can take on a small stack (wasm).
impl Drop for Derivation {
    fn drop(&mut self) {
        let mut stack: Vec<Derivation> = Vec::new();
        let take = |children: &mut Vec<DerivationChild>, stack: &mut Vec<Derivation>| {
            for c in children.drain(..) {
                if let DerivationChild::Node(d) = c {
                    stack.push(d);
                }
            }
        };
        take(&mut self.children, &mut stack);
        while let Some(mut d) = stack.pop() {
            take(&mut d.children, &mut stack);
        }
    }
}

impl Derivation {
    /// The word this tree derives (iterative: trees may be deep).
    pub fn word(&self) -> Vec<TermId> {
        let mut out = Vec::new();
        let mut stack: Vec<std::slice::Iter<'_, DerivationChild>> = vec![self.children.iter()];
        while let Some(top) = stack.last_mut() {
            match top.next() {
                None => {
                    stack.pop();
                }
                Some(DerivationChild::Terminal(t)) => out.push(*t),
                Some(DerivationChild::Node(d)) => stack.push(d.children.iter()),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_spec_interns_and_prints() {
        let spec = cfp_syntax::parse_spec(
            "wildcard $1 : Lock;\nS -> $1.lock() S $1.unlock() S | ε;\nT -> S S;",
        );
        assert!(!spec.has_errors(), "{:?}", spec.diagnostics);
        let g = Grammar::from_spec(&spec.tree);
        assert_eq!(g.terminals, ["$1.lock()", "$1.unlock()"]);
        assert_eq!(g.nonterminals, ["S", "T"]);
        assert_eq!(g.productions.len(), 3);
        assert_eq!(
            g.to_string(),
            "S -> $1.lock() S $1.unlock() S | ε;\nT -> S S;\n"
        );
        let reparsed = cfp_syntax::parse_spec(&g.to_string());
        assert!(!reparsed.has_errors());
        assert_eq!(Grammar::from_spec(&reparsed.tree), g);
    }

    #[test]
    fn deep_derivations_drop_without_recursion() {
        let mut d = Derivation {
            production: ProdId(0),
            children: vec![],
        };
        for _ in 0..1_000_000 {
            d = Derivation {
                production: ProdId(0),
                children: vec![
                    DerivationChild::Terminal(TermId(0)),
                    DerivationChild::Node(d),
                ],
            };
        }
        assert_eq!(d.word().len(), 1_000_000);
        std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(move || drop(d))
            .expect("spawn")
            .join()
            .expect("dropped on a 64 KiB stack");
    }

    #[test]
    fn arena_builds_trees_and_rejects_bad_indices() {
        use ArenaChild::{N, T};
        let arena = vec![
            (ProdId(0), vec![T(TermId(0)), N(1), T(TermId(1)), N(2)]),
            (ProdId(1), vec![]),
            (ProdId(2), vec![T(TermId(2))]),
        ];
        let d = derivation_from_arena(arena).unwrap();
        assert_eq!(d.word(), [TermId(0), TermId(1), TermId(2)]);
        assert_eq!(d.children.len(), 4);
        // A child index not after its parent, reused, or out of range: no tree.
        assert!(derivation_from_arena(vec![(ProdId(0), vec![N(0)])]).is_none());
        assert!(
            derivation_from_arena(vec![(ProdId(0), vec![N(1), N(1)]), (ProdId(1), vec![])])
                .is_none()
        );
        assert!(derivation_from_arena(vec![(ProdId(0), vec![N(5)])]).is_none());
    }

    #[test]
    fn reparse_keeps_grammar() {
        let spec = cfp_syntax::parse_spec("S -> a S | ε;");
        let g = Grammar::from_spec(&spec.tree);
        let reparsed = cfp_syntax::parse_spec(&g.to_string());
        assert!(!reparsed.has_errors());
        assert_eq!(Grammar::from_spec(&reparsed.tree), g);
    }
}
