//! Earley recognition and parsing over a grammar's own productions.
//!
//! The recogniser is Earley's algorithm (Earley 1970) with the Aycock–Horspool fix for
//! ε-productions (Aycock & Horspool, "Practical Earley Parsing", 2002): when an item
//! predicts a *nullable* nonterminal, the dot also moves over it at once, so completions of
//! empty spans are never missed. It is cubic in the word length in the worst case and
//! handles every CFG, including left recursion, ε-cycles and cyclic unit rules.
//!
//! Parse trees come from back-pointers: every chart item remembers the *first* way it was
//! derived, and that justification only refers to items inserted earlier. Following the
//! back-pointers therefore always terminates, even on cyclic grammars (`A -> B`, `B -> A`),
//! and yields a non-cyclic tree. Empty spans of nullable nonterminals are filled with the
//! well-founded ε-witnesses of [`crate::clean::nullable_witnesses`]. Trees are built with
//! explicit stacks (no recursion on the word or grammar depth).

use crate::cfg::{Derivation, DerivationChild, Grammar, NontermId, ProdId, Sym, TermId};
use crate::clean::nullable_witnesses;
use std::collections::HashMap;

/// How a chart item was first derived.
#[derive(Clone, Copy, Debug)]
enum Back {
    /// A predicted item (dot at 0).
    Predict,
    /// Scanned a terminal from the item before.
    Scan(u32),
    /// Moved over a nonterminal completed by the second item.
    Complete(u32, u32),
    /// Moved over a nullable nonterminal deriving ε.
    Nullable(u32, NontermId),
}

#[derive(Clone, Copy, Debug)]
struct Item {
    prod: u32,
    dot: u32,
    origin: u32,
    /// The chart position (set) of the item.
    pos: u32,
    back: Back,
}

/// The Earley chart of one word.
struct Chart<'g> {
    g: &'g Grammar,
    items: Vec<Item>,
    /// Per position: item ids in insertion order.
    sets: Vec<Vec<u32>>,
    /// Per position: (prod, dot, origin) → item id.
    index: Vec<HashMap<(u32, u32, u32), u32>>,
    /// Per position: nonterminal → ids of items in that set whose dot is before it.
    waiting: Vec<HashMap<u32, Vec<u32>>>,
    nullable: Vec<bool>,
    null_witness: Vec<Option<ProdId>>,
}

impl<'g> Chart<'g> {
    fn add(&mut self, pos: usize, prod: u32, dot: u32, origin: u32, back: Back) {
        let key = (prod, dot, origin);
        if self.index[pos].contains_key(&key) {
            return;
        }
        let id = self.items.len() as u32;
        self.items.push(Item {
            prod,
            dot,
            origin,
            pos: pos as u32,
            back,
        });
        self.index[pos].insert(key, id);
        self.sets[pos].push(id);
    }

    fn run(g: &'g Grammar, word: &[TermId]) -> Chart<'g> {
        let n = word.len();
        let (nullable, null_witness) = nullable_witnesses(g);
        let by_lhs = crate::clean::by_lhs_checked(g);
        let nts = g.nonterminals.len();
        let mut ch = Chart {
            g,
            items: Vec::new(),
            sets: vec![Vec::new(); n + 1],
            index: vec![HashMap::new(); n + 1],
            waiting: vec![HashMap::new(); n + 1],
            nullable,
            null_witness,
        };
        if g.start.index() >= nts {
            return ch;
        }
        for &p in &by_lhs[g.start.index()] {
            ch.add(0, p.0, 0, 0, Back::Predict);
        }
        for pos in 0..=n {
            let mut k = 0;
            while k < ch.sets[pos].len() {
                let id = ch.sets[pos][k];
                k += 1;
                let it = ch.items[id as usize];
                let prod = &g.productions[it.prod as usize];
                match prod.rhs.get(it.dot as usize) {
                    Some(Sym::T(t)) => {
                        if word.get(pos) == Some(t) {
                            ch.add(pos + 1, it.prod, it.dot + 1, it.origin, Back::Scan(id));
                        }
                    }
                    Some(Sym::N(b)) => {
                        let b = *b;
                        if b.index() >= nts {
                            continue;
                        }
                        ch.waiting[pos].entry(b.0).or_default().push(id);
                        for &q in &by_lhs[b.index()] {
                            ch.add(pos, q.0, 0, pos as u32, Back::Predict);
                        }
                        if ch.nullable[b.index()] {
                            ch.add(pos, it.prod, it.dot + 1, it.origin, Back::Nullable(id, b));
                        }
                    }
                    None => {
                        // Complete: advance every item of the origin set waiting on lhs.
                        let lhs = prod.lhs.0;
                        let origin = it.origin as usize;
                        let mut w = 0;
                        while let Some(&wid) = ch.waiting[origin].get(&lhs).and_then(|v| v.get(w)) {
                            w += 1;
                            let wi = ch.items[wid as usize];
                            ch.add(pos, wi.prod, wi.dot + 1, wi.origin, Back::Complete(wid, id));
                        }
                    }
                }
            }
        }
        ch
    }

    /// The first completed start item spanning the whole word.
    fn accepting(&self) -> Option<u32> {
        let n = self.sets.len() - 1;
        self.sets[n].iter().copied().find(|&id| {
            let it = self.items[id as usize];
            let p = &self.g.productions[it.prod as usize];
            it.origin == 0 && p.lhs == self.g.start && it.dot as usize == p.rhs.len()
        })
    }
}

/// Whether `word` is in L(g) (Earley with Aycock–Horspool nullable completion).
pub fn recognizes(g: &Grammar, word: &[TermId]) -> bool {
    Chart::run(g, word).accepting().is_some()
}

/// How much of `word` begins some word of L(g): the length of the longest prefix of
/// `word` that is also a prefix of a word in L(g) (0 when L(g) is empty). Unproductive
/// nonterminals are removed first, so a surviving chart item always has a completion.
pub fn viable_prefix(g: &Grammar, word: &[TermId]) -> usize {
    let c = crate::clean::clean(g);
    if c.empty {
        return 0;
    }
    let ch = Chart::run(&c.grammar, word);
    (0..=word.len())
        .rev()
        .find(|&i| !ch.sets[i].is_empty())
        .unwrap_or(0)
}

/// The shortest continuations: the shortest words `w` (at most `max_len` terminals) with
/// `prefix · w` in L(g), in terminal order; empty when there is none that short.
pub fn shortest_completions(g: &Grammar, prefix: &[TermId], max_len: usize) -> Vec<Vec<TermId>> {
    let c = crate::clean::clean(g);
    if c.empty {
        return Vec::new();
    }
    let g = &c.grammar;
    // Breadth first over the terminals each chart can scan next.
    let mut layer: Vec<Vec<TermId>> = vec![Vec::new()];
    for _ in 0..=max_len {
        let mut done = Vec::new();
        let mut next = std::collections::BTreeSet::new();
        for tail in &layer {
            let mut w = prefix.to_vec();
            w.extend(tail);
            let ch = Chart::run(g, &w);
            if ch.accepting().is_some() {
                done.push(tail.clone());
            }
            for &id in &ch.sets[w.len()] {
                let it = ch.items[id as usize];
                if let Some(Sym::T(t)) = g.productions[it.prod as usize].rhs.get(it.dot as usize) {
                    let mut longer = tail.clone();
                    longer.push(*t);
                    next.insert(longer);
                }
            }
        }
        if !done.is_empty() {
            done.sort();
            return done;
        }
        layer = next.into_iter().collect();
    }
    Vec::new()
}

/// What a tree node stands for before it is materialised.
#[derive(Clone, Copy)]
enum NodeSrc {
    /// A completed chart item.
    Item(u32),
    /// An ε-derivation of a nullable nonterminal.
    Eps(NontermId),
}

/// A child before materialisation.
enum ChildSrc {
    Term(TermId),
    Node(NodeSrc),
}

impl Chart<'_> {
    /// The production and children of a node (children in left-to-right order).
    fn expand(&self, src: NodeSrc) -> Option<(ProdId, Vec<ChildSrc>)> {
        match src {
            NodeSrc::Eps(b) => {
                let p = self.null_witness.get(b.index()).copied().flatten()?;
                let kids = self
                    .g
                    .production(p)
                    .rhs
                    .iter()
                    .map(|s| match s {
                        Sym::T(t) => ChildSrc::Term(*t),
                        Sym::N(c) => ChildSrc::Node(NodeSrc::Eps(*c)),
                    })
                    .collect();
                Some((p, kids))
            }
            NodeSrc::Item(id) => {
                let prod = self.items[id as usize].prod;
                let mut kids = Vec::new();
                let mut cur = id;
                loop {
                    let it = self.items[cur as usize];
                    match it.back {
                        Back::Predict => break,
                        Back::Scan(prev) => {
                            let p = &self.g.productions[it.prod as usize];
                            let Some(Sym::T(t)) = p.rhs.get(it.dot as usize - 1) else {
                                return None;
                            };
                            kids.push(ChildSrc::Term(*t));
                            cur = prev;
                        }
                        Back::Complete(prev, child) => {
                            let c = self.items[child as usize];
                            if c.origin == c.pos {
                                // Empty span: use the canonical ε-witness tree.
                                let lhs = self.g.productions[c.prod as usize].lhs;
                                kids.push(ChildSrc::Node(NodeSrc::Eps(lhs)));
                            } else {
                                kids.push(ChildSrc::Node(NodeSrc::Item(child)));
                            }
                            cur = prev;
                        }
                        Back::Nullable(prev, b) => {
                            kids.push(ChildSrc::Node(NodeSrc::Eps(b)));
                            cur = prev;
                        }
                    }
                }
                kids.reverse();
                Some((ProdId(prod), kids))
            }
        }
    }

    /// Materialise the tree rooted at `root` with an explicit stack.
    fn tree(&self, root: NodeSrc) -> Option<Derivation> {
        struct Frame {
            prod: ProdId,
            todo: std::vec::IntoIter<ChildSrc>,
            done: Vec<DerivationChild>,
        }
        let (prod, kids) = self.expand(root)?;
        let mut stack = vec![Frame {
            prod,
            todo: kids.into_iter(),
            done: Vec::new(),
        }];
        loop {
            let top = stack.last_mut()?;
            match top.todo.next() {
                Some(ChildSrc::Term(t)) => top.done.push(DerivationChild::Terminal(t)),
                Some(ChildSrc::Node(src)) => {
                    let (prod, kids) = self.expand(src)?;
                    stack.push(Frame {
                        prod,
                        todo: kids.into_iter(),
                        done: Vec::new(),
                    });
                }
                None => {
                    let f = stack.pop()?;
                    let node = Derivation {
                        production: f.prod,
                        children: f.done,
                    };
                    match stack.last_mut() {
                        Some(parent) => parent.done.push(DerivationChild::Node(node)),
                        None => return Some(node),
                    }
                }
            }
        }
    }
}

/// A derivation tree of `word` over g's own productions, rooted at g's start symbol, or
/// `None` when `word ∉ L(g)`. Any one tree is returned (the first found by the chart).
/// It never repeats a (nonterminal, span) pair along a root-to-leaf path — every
/// non-empty span is justified by the *first* completed chart item for it, and every empty
/// span by the well-founded ε-witness — so it is finite and free of unit/ε cycles on
/// cyclic grammars.
pub fn parse(g: &Grammar, word: &[TermId]) -> Option<Derivation> {
    let ch = Chart::run(g, word);
    let acc = ch.accepting()?;
    if word.is_empty() {
        return ch.tree(NodeSrc::Eps(g.start));
    }
    ch.tree(NodeSrc::Item(acc))
}

/// Map terminal names to the terminals of `s`; `None` when `s` does not know one of them.
pub fn word_of_names(s: &Grammar, names: &[&str]) -> Option<Vec<TermId>> {
    names.iter().map(|n| s.find_terminal(n)).collect()
}

/// Whether the word spelled by `names` (terminal names, e.g. `$1.lock()`) is in L(s).
/// A name `s` does not know makes the answer `false`.
pub fn word_in(s: &Grammar, names: &[&str]) -> bool {
    match word_of_names(s, names) {
        Some(w) => recognizes(s, &w),
        None => false,
    }
}

/// Check that `d` is a derivation of g rooted at `root`: every node's production exists,
/// its children match the right-hand side (terminal for terminal, subtree with the right
/// left side for nonterminal). Iterative. Useful to validate trees from any source.
pub fn is_derivation_of(g: &Grammar, d: &Derivation, root: NontermId) -> bool {
    let mut stack: Vec<(&Derivation, NontermId)> = vec![(d, root)];
    while let Some((node, want)) = stack.pop() {
        let Some(p) = g.productions.get(node.production.index()) else {
            return false;
        };
        if p.lhs != want || p.rhs.len() != node.children.len() {
            return false;
        }
        for (s, c) in p.rhs.iter().zip(&node.children) {
            match (s, c) {
                (Sym::T(t), DerivationChild::Terminal(u)) if t == u => {}
                (Sym::N(n), DerivationChild::Node(sub)) => stack.push((sub, *n)),
                _ => return false,
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean::tests::g;

    fn w(gr: &Grammar, names: &[&str]) -> Vec<TermId> {
        word_of_names(gr, names).expect("known names")
    }

    fn check_parse(gr: &Grammar, names: &[&str]) {
        let word = w(gr, names);
        let d = parse(gr, &word).unwrap_or_else(|| panic!("no parse of {names:?}"));
        assert_eq!(d.word(), word);
        assert!(is_derivation_of(gr, &d, gr.start));
    }

    #[test]
    fn dyck() {
        let gr = g("S -> $1.lock() S $1.unlock() S | ε;");
        let (l, u) = ("$1.lock()", "$1.unlock()");
        assert!(word_in(&gr, &[]));
        assert!(word_in(&gr, &[l, u]));
        assert!(word_in(&gr, &[l, l, u, u, l, u]));
        assert!(!word_in(&gr, &[l]));
        assert!(!word_in(&gr, &[u, l]));
        assert!(!word_in(&gr, &[l, u, "$1.other()"]));
        check_parse(&gr, &[]);
        check_parse(&gr, &[l, l, u, u, l, u]);
    }

    #[test]
    fn epsilon_and_unit_cycles() {
        // A -> B | a; B -> A | ε: L = {ε, a}; the trees must be finite.
        let gr = g("A -> B | $1.a();\nB -> A | ε;");
        assert!(word_in(&gr, &[]));
        assert!(word_in(&gr, &["$1.a()"]));
        assert!(!word_in(&gr, &["$1.a()", "$1.a()"]));
        check_parse(&gr, &[]);
        check_parse(&gr, &["$1.a()"]);
    }

    #[test]
    fn hidden_nullable_and_left_recursion() {
        // The classic Aycock–Horspool trap: S -> A A x; A -> ε, plus left recursion.
        let gr = g("S -> A A $1.x() | S $1.y();\nA -> ε | E;\nE -> A;");
        check_parse(&gr, &["$1.x()"]);
        check_parse(&gr, &["$1.x()", "$1.y()", "$1.y()"]);
        assert!(!word_in(&gr, &["$1.y()"]));
    }

    #[test]
    fn unproductive_start_and_bad_ids() {
        let gr = g("S -> S $1.a();");
        assert!(!word_in(&gr, &["$1.a()"]));
        assert!(parse(&gr, &[TermId(7)]).is_none());
        let empty = Grammar::new("S");
        assert!(!recognizes(&empty, &[]));
    }

    #[test]
    fn viable_prefixes_and_shortest_completions() {
        let gr = g("S -> $1.lock() S $1.unlock() S | ε;");
        let (l, u) = (w(&gr, &["$1.lock()"])[0], w(&gr, &["$1.unlock()"])[0]);
        assert_eq!(viable_prefix(&gr, &[l, l, u]), 3);
        assert_eq!(
            viable_prefix(&gr, &[l, u, u, l]),
            2,
            "the second unlock has no lock"
        );
        assert_eq!(viable_prefix(&gr, &[u]), 0);
        assert_eq!(shortest_completions(&gr, &[l, l, u], 4), vec![vec![u]]);
        assert_eq!(
            shortest_completions(&gr, &[l, u], 4),
            vec![Vec::<TermId>::new()]
        );
        assert_eq!(
            shortest_completions(&gr, &[l, l, l], 2),
            Vec::<Vec<TermId>>::new()
        );
        assert_eq!(
            shortest_completions(&gr, &[l, l, l], 3),
            vec![vec![u, u, u]]
        );
        // Unproductive alternatives do not make a prefix viable.
        let gr = g("S -> $1.a() T | $1.b();\nT -> T $1.c();");
        let (a, b) = (w(&gr, &["$1.a()"])[0], w(&gr, &["$1.b()"])[0]);
        assert_eq!(viable_prefix(&gr, &[a]), 0);
        assert_eq!(viable_prefix(&gr, &[b]), 1);
    }

    #[test]
    fn long_word_is_fine() {
        let gr = g("S -> $1.lock() S $1.unlock() S | ε;");
        let (l, u) = (w(&gr, &["$1.lock()"])[0], w(&gr, &["$1.unlock()"])[0]);
        let mut word = vec![l; 150];
        word.extend(vec![u; 150]);
        let d = parse(&gr, &word).expect("balanced");
        assert_eq!(d.word(), word);
        word.push(u);
        assert!(!recognizes(&gr, &word));
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use crate::clean::clean;
    use crate::enumerate::enumerate;
    use crate::random::{random_grammar, RandomShape, Rng};
    use std::collections::BTreeSet;

    /// Some (nonterminal, start, length) repeats along a root-to-leaf path.
    fn repeats_on_path(g: &Grammar, d: &Derivation) -> bool {
        // Frames: (node, offset, index into path). Spans computed from yields.
        fn len(d: &Derivation) -> usize {
            d.word().len()
        }
        type Path = Vec<(NontermId, usize, usize)>;
        let mut stack: Vec<(&Derivation, usize, Path)> = vec![(d, 0, Vec::new())];
        while let Some((node, off, mut path)) = stack.pop() {
            let key = (g.production(node.production).lhs, off, len(node));
            if path.contains(&key) {
                return true;
            }
            path.push(key);
            let mut o = off;
            for c in &node.children {
                match c {
                    DerivationChild::Terminal(_) => o += 1,
                    DerivationChild::Node(sub) => {
                        stack.push((sub, o, path.clone()));
                        o += len(sub);
                    }
                }
            }
        }
        false
    }

    /// (b) every enumerated word is recognised and parsed into a valid, cycle-free tree;
    /// (c) random words agree with the enumeration (in ⇔ recognised).
    #[test]
    fn earley_agrees_with_enumeration() {
        let shape = RandomShape::default();
        let mut rng = Rng::new(42);
        let (mut parsed, mut rejected) = (0, 0);
        for seed in 0..500 {
            let g = random_grammar(seed, shape);
            let e = enumerate(&g, 6, 100_000);
            assert!(!e.truncated);
            for word in e.words.iter().take(150) {
                assert!(recognizes(&g, word), "seed {seed} {word:?}\n{g}");
                let d = parse(&g, word).expect("parse");
                assert_eq!(&d.word(), word, "seed {seed}");
                assert!(is_derivation_of(&g, &d, g.start), "seed {seed}");
                assert!(!repeats_on_path(&g, &d), "seed {seed} {word:?}\n{g}");
                parsed += 1;
            }
            let inside: BTreeSet<&Vec<TermId>> = e.words.iter().collect();
            let nt = g.terminals.len();
            for _ in 0..30 {
                let len = rng.range(0, 6);
                let word: Vec<TermId> = (0..len)
                    .map(|_| TermId(rng.range(0, nt - 1) as u32))
                    .collect();
                let want = inside.contains(&word);
                assert_eq!(recognizes(&g, &word), want, "seed {seed} {word:?}\n{g}");
                assert_eq!(parse(&g, &word).is_some(), want);
                rejected += usize::from(!want);
            }
        }
        assert!(parsed > 5_000 && rejected > 5_000, "{parsed} {rejected}");
    }

    /// (d) cleaning preserves the language (checked exhaustively up to length 4 with
    /// Earley on both grammars, and against the enumeration), and `prod_map`/`nt_map`
    /// relate the productions.
    #[test]
    fn clean_preserves_language() {
        let shape = RandomShape::default();
        for seed in 0..500 {
            let g = random_grammar(seed, shape);
            let c = clean(&g);
            assert_eq!(c.grammar.terminals, g.terminals);
            for (new, old) in c.prod_map.iter().enumerate() {
                let (pn, po) = (&c.grammar.productions[new], g.production(*old));
                assert_eq!(Some(pn.lhs), c.nt_map[po.lhs.index()]);
                assert_eq!(pn.rhs.len(), po.rhs.len());
                for (a, b) in pn.rhs.iter().zip(&po.rhs) {
                    match (a, b) {
                        (Sym::T(x), Sym::T(y)) => assert_eq!(x, y),
                        (Sym::N(x), Sym::N(y)) => assert_eq!(Some(*x), c.nt_map[y.index()]),
                        _ => panic!("seed {seed}: symbol kinds differ"),
                    }
                }
            }
            let e: BTreeSet<Vec<TermId>> = enumerate(&g, 4, 100_000).words.into_iter().collect();
            let nt = g.terminals.len() as u32;
            let mut frontier: Vec<Vec<TermId>> = vec![Vec::new()];
            for _ in 0..=4 {
                let mut next = Vec::new();
                for w in &frontier {
                    let a = recognizes(&g, w);
                    assert_eq!(a, recognizes(&c.grammar, w), "seed {seed} {w:?}");
                    assert_eq!(a, e.contains(w), "seed {seed} {w:?}");
                    for t in 0..nt {
                        let mut x = w.clone();
                        x.push(TermId(t));
                        next.push(x);
                    }
                }
                frontier = next;
            }
            assert_eq!(c.empty, e.is_empty() && crate::clean::is_empty(&g));
        }
    }
}
