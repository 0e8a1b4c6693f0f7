//! Effect relations over the spec machine's stack: entries (pop, push), their
//! composition and order, and the machine itself (the ε-free Greibach form of the spec).

use super::*;

/// One entry of an effect relation: pop `pop`, push `push` (stacks written top first,
/// symbols are GNF nonterminal ids of the machine).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Entry {
    /// The stack prefix that is consumed (top first).
    pub pop: Vec<u32>,
    /// The stack prefix that replaces it (top first).
    pub push: Vec<u32>,
}

/// A set of entries, sorted and minimal (see the module documentation).
pub type Relation = Vec<Entry>;

/// The real-time nondeterministic machine of a spec: its ε-free Greibach form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Machine {
    /// The GNF grammar (every production `A -> a B1 … Bk`), same terminals as S.
    pub grammar: Grammar,
    /// ε ∈ L(S).
    pub accepts_empty: bool,
}

impl Machine {
    /// The machine of a spec grammar, via [`crate::normal::greibach`].
    pub fn of_spec(s: &Grammar) -> Result<Machine, String> {
        let gnf = crate::normal::greibach(s).map_err(|e| e.to_string())?;
        let m = Machine {
            grammar: gnf.grammar,
            accepts_empty: gnf.accepts_empty,
        };
        m.validate()?;
        Ok(m)
    }

    /// Check the Greibach shape and that every id is in range.
    pub fn validate(&self) -> Result<(), String> {
        let g = &self.grammar;
        if g.start.index() >= g.nonterminals.len() {
            return Err("machine start symbol out of range".into());
        }
        for (i, p) in g.productions.iter().enumerate() {
            let ok_lhs = p.lhs.index() < g.nonterminals.len();
            let ok_first =
                matches!(p.rhs.first(), Some(Sym::T(t)) if t.index() < g.terminals.len());
            let ok_rest = p.rhs.iter().skip(1).all(|s| match s {
                Sym::N(n) => n.index() < g.nonterminals.len(),
                Sym::T(_) => false,
            });
            if !(ok_lhs && ok_first && ok_rest) {
                return Err(format!("machine production {i} is not in Greibach form"));
            }
        }
        Ok(())
    }

    /// The exact one-step relation of the terminal named `name`: `([A], [B1 … Bk])` for each
    /// `A -> a B1 … Bk` (empty when the machine does not know the name).
    pub fn step_relation(&self, name: &str) -> Relation {
        let Some(t) = self.grammar.find_terminal(name) else {
            return Vec::new();
        };
        let mut es = Vec::new();
        for p in &self.grammar.productions {
            if p.rhs.first() != Some(&Sym::T(t)) {
                continue;
            }
            let push = p
                .rhs
                .iter()
                .skip(1)
                .filter_map(|s| match s {
                    Sym::N(n) => Some(n.0),
                    Sym::T(_) => None,
                })
                .collect();
            es.push(Entry {
                pop: vec![p.lhs.0],
                push,
            });
        }
        normalize(es, usize::MAX)
    }

    /// Whether a relation witnesses acceptance: it contains `([start], [])`, or it contains
    /// the identity `([], [])` (only ε has it: the machine is real-time) and ε ∈ L(S).
    pub fn accepts(&self, r: &[Entry]) -> bool {
        let s = self.grammar.start.0;
        r.iter().any(|e| {
            (e.pop.len() == 1 && e.pop[0] == s && e.push.is_empty())
                || (self.accepts_empty && e.pop.is_empty() && e.push.is_empty())
        })
    }
}

/// Compose two entries (`a` then `b`); `None` when the stacks do not fit.
pub fn compose_entry(a: &Entry, b: &Entry) -> Option<Entry> {
    if a.push.len() >= b.pop.len() {
        if a.push[..b.pop.len()] != b.pop[..] {
            return None;
        }
        let mut push = b.push.clone();
        push.extend_from_slice(&a.push[b.pop.len()..]);
        Some(Entry {
            pop: a.pop.clone(),
            push,
        })
    } else {
        if b.pop[..a.push.len()] != a.push[..] {
            return None;
        }
        let mut pop = a.pop.clone();
        pop.extend_from_slice(&b.pop[a.push.len()..]);
        Some(Entry {
            pop,
            push: b.push.clone(),
        })
    }
}

/// Whether `e` is `f` extended by a common bottom part δ (possibly empty): ⟦e⟧ ⊆ ⟦f⟧.
pub fn extends(e: &Entry, f: &Entry) -> bool {
    e.pop.len() >= f.pop.len()
        && e.push.len() >= f.push.len()
        && e.pop.len() - f.pop.len() == e.push.len() - f.push.len()
        && e.pop.starts_with(&f.pop)
        && e.push.starts_with(&f.push)
        && e.pop[f.pop.len()..] == e.push[f.push.len()..]
}

/// Drop entries longer than `k`, sort, and remove entries that extend another one.
pub fn normalize(mut es: Vec<Entry>, k: usize) -> Relation {
    es.retain(|e| e.pop.len() <= k && e.push.len() <= k);
    es.sort_by(|a, b| {
        (a.pop.len() + a.push.len())
            .cmp(&(b.pop.len() + b.push.len()))
            .then_with(|| a.cmp(b))
    });
    es.dedup();
    let mut kept: Vec<Entry> = Vec::with_capacity(es.len());
    for e in es {
        if !kept.iter().any(|f| extends(&e, f)) {
            kept.push(e);
        }
    }
    kept.sort();
    kept
}

/// `r1 ⊑ r2`: ⟦r1⟧ ⊆ ⟦r2⟧ (every entry of r1 extends one of r2).
pub fn leq(r1: &[Entry], r2: &[Entry]) -> bool {
    r1.iter().all(|e| r2.iter().any(|f| extends(e, f)))
}

/// The bounded composition `r1 ∘ r2` (first r1, then r2), entries longer than `k` dropped.
pub fn compose(r1: &[Entry], r2: &[Entry], k: usize) -> Relation {
    let mut out = Vec::new();
    for a in r1 {
        for b in r2 {
            if let Some(c) = compose_entry(a, b) {
                if c.pop.len() <= k && c.push.len() <= k {
                    out.push(c);
                }
            }
        }
    }
    normalize(out, k)
}

/// The identity relation (effect of ε).
pub fn identity() -> Relation {
    vec![Entry {
        pop: Vec::new(),
        push: Vec::new(),
    }]
}
