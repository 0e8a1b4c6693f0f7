//! Grammar cleaning: productive, reachable and nullable nonterminals, FIRST sets.
//!
//! Everything here is linear (or linear times the alphabet, for FIRST) in the size of the
//! grammar: the fixpoints are the classic counter-based worklists (Dowling–Gallier style
//! unit propagation: each production keeps a count of right-hand-side occurrences not yet
//! known to have the property; when it reaches zero the left side gets the property).
//!
//! [`clean`] drops unproductive nonterminals *first* and unreachable ones *second*: the
//! other order can leave junk behind (a nonterminal reachable only through a production
//! that mentions an unproductive one).

use crate::cfg::{Grammar, NontermId, ProdId, Production, Sym, TermId};
use std::collections::BTreeSet;

/// A cleaned grammar and how it relates to the original one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cleaned {
    /// The cleaned grammar: same terminals (ids and order), the kept nonterminals in their
    /// original relative order, the kept productions in their original relative order.
    /// When the language is empty it has only its start symbol and no productions.
    pub grammar: Grammar,
    /// New production id → original production id.
    pub prod_map: Vec<ProdId>,
    /// Original nonterminal id → new id (`None` when dropped).
    pub nt_map: Vec<Option<NontermId>>,
    /// The language is empty (the start symbol is unproductive).
    pub empty: bool,
}

impl Cleaned {
    /// The original production behind a production of the cleaned grammar.
    pub fn original_prod(&self, p: ProdId) -> Option<ProdId> {
        self.prod_map.get(p.index()).copied()
    }
}

/// For each nonterminal, the occurrences (production ids, with multiplicity) of it on
/// right-hand sides. Shared by the counter-based fixpoints.
fn occurrences(g: &Grammar) -> Vec<Vec<u32>> {
    let mut occ = vec![Vec::new(); g.nonterminals.len()];
    for (i, p) in g.productions.iter().enumerate() {
        for s in &p.rhs {
            if let Sym::N(n) = s {
                if let Some(v) = occ.get_mut(n.index()) {
                    v.push(i as u32);
                }
            }
        }
    }
    occ
}

/// Counter-based least fixpoint: a production "fires" when every right-hand-side
/// nonterminal has the property and `base(production)` holds; then its left side gets the
/// property. Returns the property per nonterminal and, for each nonterminal that has it,
/// the production that fired first (a well-founded witness).
fn counter_fixpoint(
    g: &Grammar,
    base: impl Fn(&Production) -> bool,
) -> (Vec<bool>, Vec<Option<ProdId>>) {
    let n = g.nonterminals.len();
    let occ = occurrences(g);
    let mut has = vec![false; n];
    let mut witness = vec![None; n];
    let mut pending: Vec<usize> = Vec::with_capacity(g.productions.len());
    let mut work: Vec<NontermId> = Vec::new();
    let fire = |pi: usize,
                has: &mut Vec<bool>,
                witness: &mut Vec<Option<ProdId>>,
                work: &mut Vec<NontermId>| {
        let lhs = g.productions[pi].lhs;
        if let Some(h) = has.get_mut(lhs.index()) {
            if !*h {
                *h = true;
                witness[lhs.index()] = Some(ProdId(pi as u32));
                work.push(lhs);
            }
        }
    };
    for (i, p) in g.productions.iter().enumerate() {
        let count = if base(p) {
            p.rhs.iter().filter(|s| matches!(s, Sym::N(_))).count()
        } else {
            usize::MAX // never fires
        };
        pending.push(count);
        if count == 0 {
            fire(i, &mut has, &mut witness, &mut work);
        }
    }
    while let Some(a) = work.pop() {
        for &pi in &occ[a.index()] {
            let c = &mut pending[pi as usize];
            if *c != usize::MAX && *c > 0 {
                *c -= 1;
                if *c == 0 {
                    fire(pi as usize, &mut has, &mut witness, &mut work);
                }
            }
        }
    }
    (has, witness)
}

/// Productive nonterminals (deriving at least one terminal word), by the linear
/// counter-based worklist.
pub fn productive(g: &Grammar) -> Vec<bool> {
    counter_fixpoint(g, |_| true).0
}

/// Nullable nonterminals (deriving ε), by the linear counter-based worklist.
pub fn nullable(g: &Grammar) -> Vec<bool> {
    counter_fixpoint(g, |p| p.rhs.iter().all(|s| matches!(s, Sym::N(_)))).0
}

/// Nullable nonterminals with, for each nullable one, the production that first made it
/// nullable: following these productions from any nullable nonterminal gives a finite
/// ε-derivation tree (the witnesses are well-founded by construction of the worklist).
pub fn nullable_witnesses(g: &Grammar) -> (Vec<bool>, Vec<Option<ProdId>>) {
    counter_fixpoint(g, |p| p.rhs.iter().all(|s| matches!(s, Sym::N(_))))
}

/// Production ids grouped by left side, ignoring productions whose left side is out of
/// range (unlike [`Grammar::by_lhs`], never panics on a malformed grammar).
pub fn by_lhs_checked(g: &Grammar) -> Vec<Vec<ProdId>> {
    let mut out = vec![Vec::new(); g.nonterminals.len()];
    for (i, p) in g.productions.iter().enumerate() {
        if let Some(v) = out.get_mut(p.lhs.index()) {
            v.push(ProdId(i as u32));
        }
    }
    out
}

/// Nonterminals reachable from the start symbol through productions accepted by `keep`.
fn reachable_with(g: &Grammar, keep: impl Fn(&Production) -> bool) -> Vec<bool> {
    let n = g.nonterminals.len();
    let by_lhs = by_lhs_checked(g);
    let mut seen = vec![false; n];
    let mut stack = Vec::new();
    if g.start.index() < n {
        seen[g.start.index()] = true;
        stack.push(g.start);
    }
    while let Some(a) = stack.pop() {
        for &pi in &by_lhs[a.index()] {
            let p = g.production(pi);
            if !keep(p) {
                continue;
            }
            for s in &p.rhs {
                if let Sym::N(b) = s {
                    if let Some(flag) = seen.get_mut(b.index()) {
                        if !*flag {
                            *flag = true;
                            stack.push(*b);
                        }
                    }
                }
            }
        }
    }
    seen
}

/// Nonterminals reachable from the start symbol (graph search over all productions).
pub fn reachable(g: &Grammar) -> Vec<bool> {
    reachable_with(g, |_| true)
}

/// Whether every symbol of a production is in range of its grammar.
fn in_range(g: &Grammar, p: &Production) -> bool {
    p.lhs.index() < g.nonterminals.len()
        && p.rhs.iter().all(|s| match s {
            Sym::T(t) => t.index() < g.terminals.len(),
            Sym::N(n) => n.index() < g.nonterminals.len(),
        })
}

/// Remove useless symbols: first every production that mentions an unproductive
/// nonterminal, then every nonterminal unreachable from the start through the remaining
/// productions (Hopcroft–Ullman, Lemma 4.1/4.2 — in this order). Linear time.
///
/// The start symbol is always kept (it is the new start); productions that refer to
/// out-of-range symbols are dropped.
pub fn clean(g: &Grammar) -> Cleaned {
    let prod = productive(g);
    let is_prod = |n: NontermId| prod.get(n.index()).copied().unwrap_or(false);
    let keep_prod = |p: &Production| {
        in_range(g, p)
            && is_prod(p.lhs)
            && p.rhs.iter().all(|s| match s {
                Sym::T(_) => true,
                Sym::N(n) => is_prod(*n),
            })
    };
    let start_ok = is_prod(g.start);
    let reach = if start_ok {
        reachable_with(g, keep_prod)
    } else {
        vec![false; g.nonterminals.len()]
    };
    let mut nt_map = vec![None; g.nonterminals.len()];
    let mut out = Grammar {
        terminals: g.terminals.clone(),
        nonterminals: Vec::new(),
        productions: Vec::new(),
        start: NontermId(0),
    };
    for (i, name) in g.nonterminals.iter().enumerate() {
        let keep = (reach[i] && prod[i]) || i == g.start.index();
        if keep {
            nt_map[i] = Some(NontermId(out.nonterminals.len() as u32));
            out.nonterminals.push(name.clone());
        }
    }
    if out.nonterminals.is_empty() {
        // Out-of-range start symbol: an empty grammar with a start named like the original.
        out.nonterminals.push("S".to_string());
    }
    out.start = nt_map
        .get(g.start.index())
        .copied()
        .flatten()
        .unwrap_or(NontermId(0));
    let mut prod_map = Vec::new();
    if start_ok {
        for (i, p) in g.productions.iter().enumerate() {
            if !keep_prod(p) || !reach[p.lhs.index()] {
                continue;
            }
            let map = |n: NontermId| nt_map[n.index()].unwrap_or(NontermId(0));
            let rhs = p
                .rhs
                .iter()
                .map(|s| match s {
                    Sym::T(t) => Sym::T(*t),
                    Sym::N(n) => Sym::N(map(*n)),
                })
                .collect();
            out.productions.push(Production {
                lhs: map(p.lhs),
                rhs,
            });
            prod_map.push(ProdId(i as u32));
        }
    }
    Cleaned {
        grammar: out,
        prod_map,
        nt_map,
        empty: !start_ok,
    }
}

/// Whether L(g) is empty (the start symbol is unproductive).
pub fn is_empty(g: &Grammar) -> bool {
    !productive(g).get(g.start.index()).copied().unwrap_or(false)
}

/// FIRST sets: for each nonterminal A, the terminals that begin some word derived from A
/// (ε membership is [`nullable`]). Computed by propagation over the "A begins with B" graph
/// (edge when B follows a nullable prefix of an A-production): O(|G| · |Σ|).
pub fn first_sets(g: &Grammar) -> Vec<BTreeSet<TermId>> {
    let n = g.nonterminals.len();
    let null = nullable(g);
    let mut first: Vec<BTreeSet<TermId>> = vec![BTreeSet::new(); n];
    // preds[b] = nonterminals a with an edge a -> b (FIRST(b) ⊆ FIRST(a)).
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    for p in &g.productions {
        if !in_range(g, p) {
            continue;
        }
        for s in &p.rhs {
            match s {
                Sym::T(t) => {
                    first[p.lhs.index()].insert(*t);
                    break;
                }
                Sym::N(b) => {
                    preds[b.index()].push(p.lhs.0);
                    if !null[b.index()] {
                        break;
                    }
                }
            }
        }
    }
    for v in &mut preds {
        v.sort_unstable();
        v.dedup();
    }
    let mut work: Vec<usize> = (0..n).filter(|&i| !first[i].is_empty()).collect();
    let mut queued = vec![false; n];
    for &i in &work {
        queued[i] = true;
    }
    while let Some(b) = work.pop() {
        queued[b] = false;
        let fb = first[b].clone();
        for &a in &preds[b] {
            let a = a as usize;
            let before = first[a].len();
            first[a].extend(fb.iter().copied());
            if first[a].len() != before && !queued[a] {
                queued[a] = true;
                work.push(a);
            }
        }
    }
    first
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn g(text: &str) -> Grammar {
        let spec = cfp_syntax::parse_spec(text);
        assert!(!spec.has_errors(), "{:?}", spec.diagnostics);
        Grammar::from_spec(&spec.tree)
    }

    #[test]
    fn unproductive_then_unreachable() {
        // B is reachable only through the production with unproductive C: after dropping
        // unproductive first, B becomes unreachable too.
        let gr = g("S -> $1.a() | B C;\nB -> $1.b();\nC -> C $1.c();\nD -> $1.d();");
        let c = clean(&gr);
        assert!(!c.empty);
        assert_eq!(c.grammar.nonterminals, ["S"]);
        assert_eq!(c.grammar.to_string(), "S -> $1.a();\n");
        assert_eq!(c.prod_map, [ProdId(0)]);
        assert_eq!(c.grammar.terminals, gr.terminals);
        assert_eq!(c.nt_map, [Some(NontermId(0)), None, None, None]);
    }

    #[test]
    fn empty_language() {
        let gr = g("S -> S $1.a() | A;\nA -> S;");
        let c = clean(&gr);
        assert!(c.empty);
        assert!(is_empty(&gr));
        assert_eq!(c.grammar.nonterminals, ["S"]);
        assert!(c.grammar.productions.is_empty());
    }

    #[test]
    fn nullable_and_first() {
        let gr = g("S -> A B $1.c();\nA -> ε | $1.a();\nB -> A A | $1.b() S;");
        assert_eq!(nullable(&gr), [false, true, true]);
        let f = first_sets(&gr);
        let names = |s: &BTreeSet<TermId>| -> Vec<String> {
            s.iter().map(|t| gr.terminal_name(*t).to_string()).collect()
        };
        assert_eq!(names(&f[0]), ["$1.c()", "$1.a()", "$1.b()"]);
        assert_eq!(names(&f[1]), ["$1.a()"]);
        assert_eq!(names(&f[2]), ["$1.a()", "$1.b()"]);
        let (null, wit) = nullable_witnesses(&gr);
        assert!(null[1] && null[2]);
        assert_eq!(wit[1], Some(ProdId(1)));
        assert_eq!(wit[2], Some(ProdId(3)));
    }

    #[test]
    fn malformed_ids_do_not_panic() {
        let mut gr = Grammar::new("S");
        let a = gr.terminal("a");
        gr.add(NontermId(0), vec![Sym::T(a)]);
        gr.add(NontermId(0), vec![Sym::N(NontermId(9)), Sym::T(TermId(4))]);
        gr.add(NontermId(7), vec![Sym::T(a)]);
        let c = clean(&gr);
        assert_eq!(c.grammar.to_string(), "S -> a;\n");
        assert!(!nullable(&gr)[0]);
        assert!(crate::earley::recognizes(&gr, &[a]));
        assert!(!crate::earley::recognizes(&gr, &[a, a]));
        let gnf = crate::normal::greibach(&gr).expect("small");
        assert_eq!(gnf.grammar.to_string(), "S -> a;\n");
        assert_eq!(crate::enumerate::words_up_to(&gr, 3, 10), [vec![a]]);
        let _ = first_sets(&gr);
        let mut bad_start = gr.clone();
        bad_start.start = NontermId(40);
        assert!(clean(&bad_start).empty);
        assert!(!crate::earley::recognizes(&bad_start, &[a]));
    }

    #[test]
    fn linear_on_long_chain() {
        // A0 -> A1 x, A1 -> A2 x, …, A_{n-1} -> x: a long chain must stay fast.
        let n = 20_000;
        let mut gr = Grammar::new("A0");
        let x = gr.terminal("x");
        gr.nonterminals = (0..n).map(|i| format!("A{i}")).collect();
        let ids: Vec<NontermId> = (0..n).map(|i| NontermId(i as u32)).collect();
        for i in 0..n {
            if i + 1 < n {
                gr.add(ids[i], vec![Sym::N(ids[i + 1]), Sym::T(x)]);
            } else {
                gr.add(ids[i], vec![Sym::T(x)]);
            }
            gr.add(ids[i], vec![Sym::N(ids[i])]);
        }
        let c = clean(&gr);
        assert_eq!(c.grammar.productions.len(), 2 * n);
        assert!(nullable(&gr).iter().all(|b| !b));
        assert_eq!(first_sets(&gr)[0].len(), 1);
    }
}
