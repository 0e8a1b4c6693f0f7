//! Which state symbol names each SSA constant, position after position of an encoded trace.
//!
//! Refinement asks, at every position `i` of a trace, which state symbols of the running
//! method's scope are bound to a given SSA constant ([`Naming::name`]: the first one in
//! scope order; [`Naming::bound_to`]: all of them). Every scope holds the globals, all
//! field arrays and their entry copies, so a scope has as many symbols as the program has
//! fields, and a trace through a long `main` has as many positions as `main` has calls:
//! walking the scope at every position costs their product. [`Naming`] instead keeps a
//! reverse index and moves it from one position to the next by the bindings that changed
//! ([`Names::changed_bindings`], which skips the structure consecutive positions share).
//! The running method's own symbols (variables, parameter entry copies) have an index of
//! their own: a call parks the caller's and indexes the callee's, a return takes the
//! caller's back, so a long `main` is indexed once, not at every call it makes.

use super::Position;
use crate::encode::{Names, Symbols};
use crate::ir::MethodId;
use cfp_smt::{Sort, Term, TermKind};
use std::collections::{BTreeMap, HashMap};

/// A symbol's place in scope order ([`Symbols::scope`]): the method's variables (by id),
/// the shared symbols, the parameters' entry copies, the shared symbols' entry copies.
pub type Rank = (u8, usize);

/// A scope symbol: its rank, name and sort.
type Entry<'a> = (Rank, &'a str, &'a Sort);

/// Symbols by rank and name, with their sorts and terms.
type Bound<'a> = BTreeMap<(Rank, &'a str), (&'a Sort, &'a Term)>;

/// The reverse index of one set of symbols (the shared ones, or one frame's own).
#[derive(Clone, Debug, Default)]
struct Index<'a> {
    /// The symbols indexed, with rank and sort.
    symbols: HashMap<&'a str, (Rank, &'a Sort)>,
    /// Per SSA constant, the symbols bound to it (with their sorts and terms).
    by_constant: BTreeMap<&'a str, Bound<'a>>,
    /// Symbols bound to a term that is not a constant, with their sorts and terms.
    other: Bound<'a>,
}

impl<'a> Index<'a> {
    fn insert(&mut self, rank: Rank, symbol: &'a str, sort: &'a Sort, term: &'a Term) {
        match term.kind() {
            TermKind::Var(c, _) => {
                self.by_constant
                    .entry(c.as_str())
                    .or_default()
                    .insert((rank, symbol), (sort, term));
            }
            _ => {
                self.other.insert((rank, symbol), (sort, term));
            }
        }
    }

    fn remove(&mut self, rank: Rank, symbol: &'a str, term: &'a Term) {
        match term.kind() {
            TermKind::Var(c, _) => {
                if let Some(set) = self.by_constant.get_mut(c.as_str()) {
                    set.remove(&(rank, symbol));
                    if set.is_empty() {
                        self.by_constant.remove(c.as_str());
                    }
                }
            }
            _ => {
                self.other.remove(&(rank, symbol));
            }
        }
    }

    /// Index every symbol of `self.symbols` bound in `names`.
    fn fill(&mut self, names: &'a Names) {
        let all: Vec<(&'a str, Rank, &'a Sort)> = self
            .symbols
            .iter()
            .map(|(n, (r, s))| (*n, *r, *s))
            .collect();
        for (n, r, s) in all {
            if let Ok(t) = names.get(n) {
                self.insert(r, n, s, t);
            }
        }
    }

    /// Move from the bindings of `old` to those of `new`.
    fn update(&mut self, old: &'a Names, new: &'a Names) {
        for (n, t) in old.changed_bindings(new) {
            let Some((&n, &(r, s))) = self.symbols.get_key_value(n) else {
                continue;
            };
            if let Ok(o) = old.get(n) {
                self.remove(r, n, o);
            }
            if let Some(t) = t {
                self.insert(r, n, s, t);
            }
        }
    }

    fn first(&self, c: &str) -> Option<(Rank, &'a str, &'a Sort)> {
        let ((r, n), (s, _)) = self.by_constant.get(c)?.first_key_value()?;
        Some((*r, *n, *s))
    }
}

/// Which state symbol names each SSA constant at one position (see the module doc).
#[derive(Debug)]
pub struct Naming<'a> {
    symbols: &'a Symbols,
    /// The shared symbols and their entry copies (in every scope).
    common: Index<'a>,
    /// The running method's own symbols: variables and parameter entry copies.
    own: Index<'a>,
    /// The callers' own indexes, each with the caller's position at the call.
    parked: Vec<(&'a Position, Index<'a>)>,
    /// The position described.
    at: Option<&'a Position>,
}

impl<'a> Naming<'a> {
    /// An index before the first position.
    pub fn new(symbols: &'a Symbols) -> Naming<'a> {
        let mut common = Index::default();
        for (k, (n, s)) in symbols.shared().iter().enumerate() {
            common.symbols.insert(n.as_str(), ((1, k), s));
        }
        for (k, (n, s)) in symbols.shared_entry().iter().enumerate() {
            common.symbols.insert(n.as_str(), ((3, k), s));
        }
        Naming {
            symbols,
            common,
            own: Index::default(),
            parked: Vec::new(),
            at: None,
        }
    }

    /// An empty index of the own symbols of `m` (its scope is variables, shared symbols,
    /// parameter entry copies, shared entry copies).
    fn own_index(&self, m: MethodId) -> Index<'a> {
        let mut out = Index::default();
        let (Ok(scope), Ok(vars), Ok(params)) = (
            self.symbols.scope(m),
            self.symbols.vars(m),
            self.symbols.params(m),
        ) else {
            return out;
        };
        let shared = self.symbols.shared().len();
        for (k, (n, s)) in scope.iter().take(vars.len()).enumerate() {
            out.symbols.insert(n.as_str(), ((0, k), s));
        }
        let entries = scope.iter().skip(vars.len() + shared).take(params.len());
        for (k, (n, s)) in entries.enumerate() {
            out.symbols.insert(n.as_str(), ((2, k), s));
        }
        out
    }

    /// Describe `pos` from scratch (any position; costs its whole scope).
    pub fn at(&mut self, pos: &'a Position) {
        self.common.by_constant.clear();
        self.common.other.clear();
        self.common.fill(&pos.names);
        self.own = self.own_index(pos.method);
        self.own.fill(&pos.names);
        self.parked.clear();
        self.at = Some(pos);
    }

    /// Move to `pos`, the position after the one described (or the first position of a
    /// trace): the cost is what changed between them, and at a call the callee's own
    /// symbols.
    pub fn advance(&mut self, pos: &'a Position) {
        let Some(prev) = self.at else {
            return self.at(pos);
        };
        if pos.depth == prev.depth + 1 {
            // A call: park the caller's own index.
            let callee = self.own_index(pos.method);
            let caller = std::mem::replace(&mut self.own, callee);
            self.parked.push((prev, caller));
            self.own.fill(&pos.names);
        } else if pos.depth + 1 == prev.depth && !self.parked.is_empty() {
            // A return: the caller's own index, as at the call, moved to now.
            if let Some((caller_pos, caller)) = self.parked.pop() {
                self.own = caller;
                self.own.update(&caller_pos.names, &pos.names);
            }
        } else if pos.depth == prev.depth && pos.method == prev.method {
            self.own.update(&prev.names, &pos.names);
        } else {
            return self.at(pos);
        }
        self.common.update(&prev.names, &pos.names);
        self.at = Some(pos);
    }

    /// The first scope symbol (in scope order) bound to the constant `c` here, with its sort.
    pub fn name(&self, c: &str) -> Option<(&'a str, &'a Sort)> {
        let best = match (self.own.first(c), self.common.first(c)) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b)?,
        };
        Some((best.1, best.2))
    }

    /// Every scope symbol bound to the constant `c` here, in scope order, with its term.
    pub fn bound_to(&self, c: &str) -> Vec<(Entry<'a>, &'a Term)> {
        let mut out: Vec<(Entry<'a>, &'a Term)> = [&self.own, &self.common]
            .into_iter()
            .filter_map(|ix| ix.by_constant.get(c))
            .flatten()
            .map(|((r, n), (s, t))| ((*r, *n, *s), *t))
            .collect();
        out.sort_by_key(|e| e.0 .0);
        out
    }

    /// The scope symbols bound to terms that are not constants here, with the terms, in
    /// scope order.
    pub fn compound(&self) -> Vec<(Entry<'a>, &'a Term)> {
        let mut out: Vec<(Entry<'a>, &'a Term)> = [&self.own, &self.common]
            .into_iter()
            .flat_map(|ix| ix.other.iter())
            .map(|((r, n), (s, t))| ((*r, *n, *s), *t))
            .collect();
        out.sort_by_key(|e| e.0 .0);
        out
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
    use crate::ir::MethodId;
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
                    .into_iter()
                    .map(|((r, n, _), t)| (r, format!("{n}={t}")))
            })
            .chain(
                naming
                    .compound()
                    .into_iter()
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

    /// A program whose calls return values into the caller's variables and write fields.
    const RESULTS: &str = r#"
class Counter {
    int n;
    int bump(int x) { n = n + x; int y = x + 1; return y; }
}
class Main {
    void run(Lock l, Counter c) {
        int a = 1;
        a = c.bump(a);
        l.lock();
        int b = c.bump(a);
        l.unlock();
        a = c.bump(b);
    }
    public static void main(String[] args) { new Main().run(new Lock(), new Counter()); }
}
"#;

    /// The only path of a program without branches: every method's edges in order,
    /// entering every call.
    fn straight_line(p: &crate::ir::Program) -> crate::trace::Trace {
        use crate::ir::Edge;
        use crate::trace::TraceStep;
        fn walk(p: &crate::ir::Program, m: MethodId, steps: &mut Vec<TraceStep>) {
            let cfa = &p.methods[m.index()];
            let mut at = cfa.entry;
            while at != cfa.exit {
                let e = cfa.graph.edges(at).next().expect("a straight-line method");
                let edge = petgraph::visit::EdgeRef::id(&e);
                match e.weight() {
                    Edge::Call { callee, .. } => {
                        let call = steps.len();
                        steps.push(TraceStep::Call { method: m, edge });
                        walk(p, *callee, steps);
                        steps.push(TraceStep::Return { call });
                    }
                    Edge::Api { .. } => steps.push(TraceStep::Api { method: m, edge }),
                    _ => steps.push(TraceStep::Intra { method: m, edge }),
                }
                at = petgraph::visit::EdgeRef::target(&e);
            }
        }
        let mut steps = Vec::new();
        walk(p, p.root, &mut steps);
        crate::trace::Trace {
            start: p.root,
            steps,
        }
    }

    fn results() -> crate::ir::Program {
        let p = cfp_syntax::parse_program(RESULTS);
        assert!(!p.has_errors(), "{:?}", p.diagnostics);
        let s = cfp_syntax::parse_spec(crate::trace::tests::LOCK);
        assert!(!s.has_errors(), "{:?}", s.diagnostics);
        match crate::front_end(&p.tree, &s.tree, &crate::LowerOptions::default()) {
            Ok((p, _)) => p,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn the_index_agrees_with_walking_the_scope() {
        let fig2 = fig2();
        let results = results();
        let cases = [
            (&fig2, spurious(&fig2)),
            (&fig2, lock_unlock(&fig2)),
            (&results, straight_line(&results)),
        ];
        for (p, trace) in cases {
            let enc = Encoder::new(p);
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
