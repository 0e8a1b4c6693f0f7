//! Exhaustive enumeration of short words: the test oracle for every other algorithm.
//!
//! Dynamic programming over (nonterminal, length): `W[A][l]` is the set of words of length
//! `l` that A derives. Lengths are processed in increasing order. For length `l`, a
//! production `A -> X1 … Xk` contributes (i) every concatenation in which each
//! nonterminal part is shorter than `l` — those sets are final — and (ii) `W[B][l]` when
//! the production is `α B β` with α, β nullable nonterminal strings. Part (ii) is a
//! graph of inclusions `W[B][l] ⊆ W[A][l]`, closed by a worklist, so left recursion, unit
//! cycles and ε-cycles need nothing special and no derivation search is involved.

use crate::cfg::{Grammar, Sym, TermId};
use crate::clean::{clean, nullable};
use std::collections::BTreeSet;

/// Stored words (over all nonterminals and lengths) after which enumeration stops and
/// reports truncation.
pub const WORK_BUDGET: usize = 2_000_000;

/// The words of a language up to some length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enumeration {
    /// Distinct words, sorted by length, then lexicographically by terminal id.
    pub words: Vec<Vec<TermId>>,
    /// Some words of length ≤ `max_len` are missing (the word limit or the work budget
    /// was reached). Every word of length < `complete_below` is present regardless.
    pub truncated: bool,
    /// All words shorter than this are listed.
    pub complete_below: usize,
}

/// Words of L(g) of length ≤ `max_len`, at most `limit` of them, sorted by length then
/// lexicographically (see [`enumerate`] for the truncation flag).
pub fn words_up_to(g: &Grammar, max_len: usize, limit: usize) -> Vec<Vec<TermId>> {
    enumerate(g, max_len, limit).words
}

type Sets = Vec<BTreeSet<Vec<TermId>>>;

/// Enumerate the words of L(g) of length ≤ `max_len` by dynamic programming over
/// (nonterminal, length) (module documentation). Stops after `limit` words or when
/// [`WORK_BUDGET`] words are stored, and then says so.
pub fn enumerate(g: &Grammar, max_len: usize, limit: usize) -> Enumeration {
    let c = clean(g);
    let g = &c.grammar;
    let mut out = Enumeration {
        words: Vec::new(),
        truncated: false,
        complete_below: max_len + 1,
    };
    if c.empty || limit == 0 {
        out.truncated = !c.empty;
        out.complete_below = if c.empty { max_len + 1 } else { 0 };
        return out;
    }
    let n = g.nonterminals.len();
    let null = nullable(g);
    // w[a][l]: words of length l derived by a.
    let mut w: Vec<Sets> = vec![vec![BTreeSet::new(); max_len + 1]; n];
    for a in 0..n {
        if null[a] {
            w[a][0].insert(Vec::new());
        }
    }
    // Inclusion edges B -> A for productions α B β with α β nullable nonterminals.
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    for p in &g.productions {
        for (i, s) in p.rhs.iter().enumerate() {
            if let Sym::N(b) = s {
                let others_null = p
                    .rhs
                    .iter()
                    .enumerate()
                    .all(|(j, t)| j == i || matches!(t, Sym::N(x) if null[x.index()]));
                if others_null {
                    succ[b.index()].push(p.lhs.index());
                }
            }
        }
    }
    for v in &mut succ {
        v.sort_unstable();
        v.dedup();
    }
    // Shortest word length per nonterminal (Bellman–Ford style relaxation to a
    // fixpoint), to prune concatenations that cannot fit in length l.
    let minlen = min_lengths(g);
    let sym_min = |s: &Sym| match s {
        Sym::T(_) => 1,
        Sym::N(b) => minlen[b.index()],
    };
    let mut stored = 0usize;
    let start = g.start.index();
    let emit = |out: &mut Enumeration, set: &BTreeSet<Vec<TermId>>, len: usize| -> bool {
        for word in set {
            if out.words.len() >= limit {
                out.truncated = true;
                out.complete_below = len;
                return false;
            }
            out.words.push(word.clone());
        }
        true
    };
    if !emit(&mut out, &w[start][0], 0) {
        return out;
    }
    for l in 1..=max_len {
        // (i) proper concatenations: nonterminal parts shorter than l.
        for p in &g.productions {
            // rest[k]: shortest length of rhs[k..].
            let mut rest = vec![0usize; p.rhs.len() + 1];
            for k in (0..p.rhs.len()).rev() {
                rest[k] = rest[k + 1].saturating_add(sym_min(&p.rhs[k]));
            }
            if rest[0] > l {
                continue;
            }
            let mut partial: Sets = vec![BTreeSet::new(); l + 1];
            partial[0].insert(Vec::new());
            for (k, s) in p.rhs.iter().enumerate() {
                let mut next: Sets = vec![BTreeSet::new(); l + 1];
                for (m1, left) in partial.iter().enumerate() {
                    if left.is_empty() || m1.saturating_add(rest[k]) > l {
                        continue;
                    }
                    match s {
                        Sym::T(t) => {
                            if m1 < l {
                                for x in left {
                                    let mut y = x.clone();
                                    y.push(*t);
                                    next[m1 + 1].insert(y);
                                }
                            }
                        }
                        Sym::N(b) => {
                            // Nonterminal parts of length l are not final yet: part (ii).
                            let hi = (l - m1 - rest[k + 1].min(l - m1)).min(l - 1);
                            for m2 in 0..=hi {
                                for x in left {
                                    for y in &w[b.index()][m2] {
                                        let mut z = x.clone();
                                        z.extend_from_slice(y);
                                        next[m1 + m2].insert(z);
                                    }
                                }
                            }
                        }
                    }
                }
                partial = next;
                if partial.iter().all(BTreeSet::is_empty) {
                    break;
                }
            }
            let words = std::mem::take(&mut partial[l]);
            let set = &mut w[p.lhs.index()][l];
            let before = set.len();
            set.extend(words);
            stored += set.len() - before;
        }
        // (ii) close under the inclusion edges.
        let mut work: Vec<usize> = (0..n).filter(|&a| !w[a][l].is_empty()).collect();
        let mut queued = vec![false; n];
        for &a in &work {
            queued[a] = true;
        }
        while let Some(b) = work.pop() {
            queued[b] = false;
            for &a in &succ[b] {
                if a == b {
                    continue;
                }
                let add: Vec<Vec<TermId>> = w[b][l]
                    .iter()
                    .filter(|x| !w[a][l].contains(*x))
                    .cloned()
                    .collect();
                if add.is_empty() {
                    continue;
                }
                stored += add.len();
                w[a][l].extend(add);
                if !queued[a] {
                    queued[a] = true;
                    work.push(a);
                }
            }
        }
        if stored > WORK_BUDGET {
            out.truncated = true;
            out.complete_below = l;
            return out;
        }
        if !emit(&mut out, &w[start][l], l) {
            return out;
        }
    }
    out
}

/// Shortest word length derivable from each nonterminal (`usize::MAX` when
/// unproductive), by Bellman–Ford-style relaxation to a fixpoint (Knuth 1977's
/// shortest-derivation problem solved naively: a shortest derivation has height ≤ |N|,
/// so at most |N| + 1 rounds are needed).
pub fn min_lengths(g: &Grammar) -> Vec<usize> {
    let n = g.nonterminals.len();
    let mut best = vec![usize::MAX; n];
    loop {
        let mut changed = false;
        for p in &g.productions {
            let mut sum = 0usize;
            for s in &p.rhs {
                let v = match s {
                    Sym::T(_) => 1,
                    Sym::N(b) => best.get(b.index()).copied().unwrap_or(usize::MAX),
                };
                sum = sum.saturating_add(v);
            }
            if let Some(cur) = best.get_mut(p.lhs.index()) {
                if sum < *cur {
                    *cur = sum;
                    changed = true;
                }
            }
        }
        if !changed {
            return best;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean::tests::g;

    fn names(gr: &Grammar, words: &[Vec<TermId>]) -> Vec<String> {
        words
            .iter()
            .map(|w| {
                w.iter()
                    .map(|t| gr.terminal_name(*t).trim_start_matches("$1.").to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    #[test]
    fn dyck_counts_are_catalan() {
        let gr = g("S -> $1.lock() S $1.unlock() S | ε;");
        let e = enumerate(&gr, 8, 1000);
        assert!(!e.truncated);
        let by_len: Vec<usize> = (0..=8)
            .map(|l| e.words.iter().filter(|w| w.len() == l).count())
            .collect();
        assert_eq!(by_len, [1, 0, 1, 0, 2, 0, 5, 0, 14]);
        assert_eq!(
            names(&gr, &e.words[..4]),
            [
                "",
                "lock() unlock()",
                "lock() lock() unlock() unlock()",
                "lock() unlock() lock() unlock()"
            ]
        );
    }

    #[test]
    fn left_recursion_and_cycles() {
        let gr = g("A -> A $1.a() | $1.b();");
        assert_eq!(
            names(&gr, &words_up_to(&gr, 3, 100)),
            ["b()", "b() a()", "b() a() a()"]
        );
        let gr = g("A -> B | $1.a();\nB -> A | ε;");
        assert_eq!(names(&gr, &words_up_to(&gr, 5, 100)), ["", "a()"]);
        // Hidden ε-cycles around a unit path: S -> N S N | x, N -> ε | N N.
        let gr = g("S -> N S N | $1.x();\nN -> ε | N N;");
        assert_eq!(names(&gr, &words_up_to(&gr, 5, 100)), ["x()"]);
    }

    #[test]
    fn truncation_is_reported() {
        let gr = g("S -> $1.a() S | $1.b() S | ε;");
        let e = enumerate(&gr, 4, 5);
        assert!(e.truncated);
        assert_eq!(e.words.len(), 5);
        assert_eq!(e.complete_below, 2);
        assert_eq!(
            names(&gr, &e.words),
            ["", "a()", "b()", "a() a()", "a() b()"]
        );
        let empty = g("S -> S;");
        let e = enumerate(&empty, 4, 5);
        assert!(!e.truncated && e.words.is_empty());
    }
}
