//! Layer 3 of the inclusion engine (ARCHITECTURE.md): effects of words on the real-time
//! nondeterministic machine of the spec, saturated over the program grammar's dotted items
//! in Knuth's shortest-derivation order (Knuth 1977, "A generalization of Dijkstra's
//! algorithm"; superior functions — here: sums of word lengths).
//!
//! **The machine.** From the ε-free Greibach form of S ([`crate::normal::greibach`]): a
//! configuration is a stack of GNF nonterminals (top first), the start configuration is
//! `[S]`; reading `a` with top `A` replaces `A` by `B1 … Bk` for each `A -> a B1 … Bk`. A
//! non-empty word is in L(S) iff `[S]` can reach the empty stack reading it; ε is handled by
//! `accepts_empty`. Every step reads a symbol (real time), so the machine never loops.
//!
//! **Entries and effects.** An [`Entry`] `(α, β)` says "from every stack α·γ the machine can
//! reach β·γ reading the word, without touching γ". Its meaning ⟦(α, β)⟧ is the set of
//! pairs (α·γ, β·γ). The *effect* of a word is the (exact) set of stack pairs it connects;
//! a [`Relation`] is a finite set of entries whose meaning is contained in the effect. We keep
//! relations *minimal* (no entry is a suffix-extension of another) and ordered by
//! `R1 ⊑ R2 ⟺ ⟦R1⟧ ⊆ ⟦R2⟧ ⟺ every entry of R1 extends an entry of R2` ([`leq`]).
//! Composition is exact on meanings: ⟦R1 ∘ R2⟧ = ⟦R1⟧ ; ⟦R2⟧ ([`compose`]).
//!
//! **Bound K.** Entries with |α| > K or |β| > K are *dropped*. Dropping only shrinks a
//! meaning, so computed relations stay under-approximations of the true effects: if every
//! relation found for G's start symbol accepts, every word of L(G) is accepted (a proof).
//! A rejecting relation may be an artefact of K; the caller confirms every rejecting word by
//! an exact Earley parse of S and raises K otherwise (iterative deepening).
//!
//! **Antichains.** Because the machine is nondeterministic, the effects of the words of a
//! nonterminal are not merged: each nonterminal keeps the ⊑-minimal relations found (a
//! smaller relation is harder to accept, so it subsumes bigger ones).
//!
//! **Inductive invariant (what [`check_invariant`] verifies).** For every nonterminal A of
//! G a set Anti(A) such that for every production `A -> X1 … Xk` and every choice
//! `Ri ∈ Anti(Xi)` (for a terminal: its exact one-step relation) the bounded composition
//! `R1 ∘ … ∘ Rk` is ⊒ some member of Anti(A). By induction on derivations, every word w of
//! L(A) has some R ∈ Anti(A) with ⟦R⟧ ⊆ effect(w); so if every member of Anti(start)
//! accepts, L(G) ⊆ L(S).

use crate::budget::{Budget, UnknownReason};
use crate::cfg::{
    derivation_from_arena, ArenaChild as Kid, Derivation, Grammar, NontermId, ProdId, Sym,
};
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, HashMap, HashSet};

mod certificate;
mod relation;

pub use certificate::{check_invariant, EffectsCertificate, NonterminalEffects};
pub use relation::{
    compose, compose_entry, extends, identity, leq, normalize, Entry, Machine, Relation,
};

/// Possible machine stack tops when each nonterminal of G starts (an over-approximation,
/// context-insensitive): a forward analysis over G's live productions where a state is a
/// set of tops (GNF nonterminals, plus `M` = the empty stack). Reading `a` with top `A`
/// gives `B1` for `A -> a B1 …`, or any symbol that can lie directly below `A` for
/// `A -> a`; a nonterminal Y of G maps its entry tops to its exit tops. Entries of X's
/// relations whose first popped symbol is not a possible top at X's start never fire in a
/// run from `[S]`, so [`Saturation`] drops them (a sound under-approximation that keeps
/// relations small; an imprecise analysis can only cause artefacts, never wrong answers).
fn entry_tops(g: &Grammar, live: &[bool], m: &Machine) -> Vec<Vec<bool>> {
    let mg = &m.grammar;
    let nm = mg.nonterminals.len();
    let n = g.nonterminals.len();
    // The analysis is quadratic in the machine; a huge machine gets no filtering (all tops).
    if (mg.productions.len() + g.productions.len()).saturating_mul(nm + 1) > 4_000_000 {
        return vec![vec![true; nm + 1]; n];
    }
    let bottom = nm;
    // below[A]: symbols that can lie directly under A in a stack.
    let mut below = vec![vec![false; nm + 1]; nm + 1];
    if mg.start.index() < nm {
        below[mg.start.index()][bottom] = true;
    }
    loop {
        let mut changed = false;
        for p in &mg.productions {
            let rest: Vec<usize> = p
                .rhs
                .iter()
                .skip(1)
                .filter_map(|s| match s {
                    Sym::N(n) if n.index() < nm => Some(n.index()),
                    _ => None,
                })
                .collect();
            for w in rest.windows(2) {
                if !below[w[0]][w[1]] {
                    below[w[0]][w[1]] = true;
                    changed = true;
                }
            }
            if let Some(&last) = rest.last() {
                let lhs = p.lhs.index();
                if lhs < nm && lhs != last {
                    let src = below[lhs].clone();
                    for (d, s) in below[last].iter_mut().zip(&src) {
                        if *s && !*d {
                            *d = true;
                            changed = true;
                        }
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    // One-step successors of a top reading terminal t (by G's terminal id).
    let step_t: Vec<Vec<Vec<usize>>> = g
        .terminals
        .iter()
        .map(|name| {
            let mut next = vec![Vec::new(); nm + 1];
            if let Some(t) = mg.find_terminal(name) {
                for p in &mg.productions {
                    if p.rhs.first() != Some(&Sym::T(t)) || p.lhs.index() >= nm {
                        continue;
                    }
                    let a = p.lhs.index();
                    match p.rhs.get(1) {
                        Some(Sym::N(b)) if b.index() < nm => next[a].push(b.index()),
                        _ => next[a].extend((0..=nm).filter(|&x| below[a][x])),
                    }
                }
            }
            next
        })
        .collect();
    let mut entry = vec![vec![false; nm + 1]; n];
    let mut exit = vec![vec![false; nm + 1]; n];
    if g.start.index() < n && mg.start.index() < nm {
        entry[g.start.index()][mg.start.index()] = true;
    }
    let or_into = |dst: &mut Vec<bool>, src: &[bool]| {
        let mut ch = false;
        for (d, s) in dst.iter_mut().zip(src) {
            if *s && !*d {
                *d = true;
                ch = true;
            }
        }
        ch
    };
    // A worklist over the live productions: a production is looked at again when the
    // entry tops of its left-hand side or the exit tops of a nonterminal on its right grow
    // (a round-robin sweep needs as many rounds as the longest chain of calls).
    let live_prod = |pi: usize| live.get(pi).copied().unwrap_or(false);
    let mut by_lhs: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (pi, p) in g.productions.iter().enumerate() {
        if !live_prod(pi) || p.lhs.index() >= n {
            continue;
        }
        by_lhs[p.lhs.index()].push(pi);
        for s in &p.rhs {
            if let Sym::N(y) = s {
                if y.index() < n && users[y.index()].last() != Some(&pi) {
                    users[y.index()].push(pi);
                }
            }
        }
    }
    let mut queued = vec![false; g.productions.len()];
    let mut work: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
    for list in &by_lhs {
        for &pi in list {
            queued[pi] = true;
            work.push_back(pi);
        }
    }
    while let Some(pi) = work.pop_front() {
        queued[pi] = false;
        let p = &g.productions[pi];
        let mut cur = entry[p.lhs.index()].clone();
        let mut grown: Vec<usize> = Vec::new();
        for s in &p.rhs {
            match s {
                Sym::T(t) => {
                    let mut next = vec![false; nm + 1];
                    if let Some(st) = step_t.get(t.index()) {
                        for a in 0..nm {
                            if cur[a] {
                                for &b in &st[a] {
                                    next[b] = true;
                                }
                            }
                        }
                    }
                    cur = next;
                }
                Sym::N(y) if y.index() < n => {
                    if or_into(&mut entry[y.index()], &cur) {
                        grown.extend(by_lhs[y.index()].iter().copied());
                    }
                    cur = exit[y.index()].clone();
                }
                Sym::N(_) => cur = vec![false; nm + 1],
            }
        }
        if or_into(&mut exit[p.lhs.index()], &cur) {
            grown.extend(users[p.lhs.index()].iter().copied());
        }
        for q in grown {
            if !queued[q] {
                queued[q] = true;
                work.push_back(q);
            }
        }
    }
    entry
}

/// Entry-level operations (pairs composed or compared) counted as one budget step.
const WORK_PER_STEP: u64 = 64;

/// Interned relations with memoised composition and order.
struct Rels {
    list: Vec<Relation>,
    index: HashMap<Relation, u32>,
    compose_memo: HashMap<(u32, u32), u32>,
    leq_memo: HashMap<(u32, u32), bool>,
    k: usize,
    /// Entry-level work done since last taken (charged to the step budget).
    work: u64,
}

impl Rels {
    fn new(k: usize) -> Rels {
        Rels {
            list: Vec::new(),
            index: HashMap::new(),
            compose_memo: HashMap::new(),
            leq_memo: HashMap::new(),
            k,
            work: 0,
        }
    }

    fn intern(&mut self, r: Relation) -> u32 {
        if let Some(&i) = self.index.get(&r) {
            return i;
        }
        let i = self.list.len() as u32;
        self.list.push(r.clone());
        self.index.insert(r, i);
        i
    }

    fn compose(&mut self, a: u32, b: u32) -> u32 {
        if let Some(&c) = self.compose_memo.get(&(a, b)) {
            return c;
        }
        let (ra, rb) = (&self.list[a as usize], &self.list[b as usize]);
        let r = compose(ra, rb, self.k);
        let pairs = (ra.len() as u64).saturating_mul(rb.len() as u64);
        let out = (r.len() as u64).saturating_mul(r.len() as u64);
        self.work = self.work.saturating_add(pairs).saturating_add(out);
        let c = self.intern(r);
        self.compose_memo.insert((a, b), c);
        c
    }

    fn leq(&mut self, a: u32, b: u32) -> bool {
        if a == b {
            return true;
        }
        if let Some(&x) = self.leq_memo.get(&(a, b)) {
            return x;
        }
        let (ra, rb) = (&self.list[a as usize], &self.list[b as usize]);
        self.work = self
            .work
            .saturating_add((ra.len() as u64).saturating_mul(rb.len() as u64));
        let x = leq(ra, rb);
        self.leq_memo.insert((a, b), x);
        x
    }
}

/// How a finalized item was derived.
#[derive(Clone, Copy, Debug)]
enum ItemBack {
    /// Dot at 0.
    Start,
    /// Moved over a terminal from the item.
    Term(u32),
    /// Moved over a nonterminal: the item before and the node of the nonterminal.
    Nt(u32, u32),
}

#[derive(Clone, Copy, Debug)]
struct Item {
    prod: u32,
    dot: u32,
    rel: u32,
    len: u64,
    back: ItemBack,
}

#[derive(Clone, Copy, Debug)]
struct Node {
    nt: u32,
    rel: u32,
    len: u64,
    /// The completed item it came from.
    item: u32,
}

#[derive(Clone, Copy, Debug)]
enum Cand {
    Item(Item),
    Node(Node),
}

/// What a saturation run ended with.
pub(crate) enum SatOutcome {
    /// The queue ran empty and every start relation accepts: the antichain per nonterminal
    /// of G (empty for nonterminals outside the live part).
    Proved(Vec<Vec<Relation>>),
    /// A start relation rejects: its shortest word's derivation over G (and length).
    Rejected(Derivation),
    /// A budget ended the run.
    Stopped(UnknownReason),
}

/// One saturation over the live productions of G with the machine and bound `k`.
pub(crate) struct Saturation<'a> {
    g: &'a Grammar,
    machine: &'a Machine,
    rels: Rels,
    term_rel: Vec<u32>,
    items: Vec<Item>,
    item_best: HashMap<(u32, u32, u32), u64>,
    item_final: HashSet<(u32, u32, u32)>,
    nodes: Vec<Node>,
    node_best: HashMap<(u32, u32), u64>,
    node_final: HashSet<(u32, u32)>,
    by_nt: Vec<Vec<u32>>,
    waiting: Vec<Vec<u32>>,
    heap: BinaryHeap<Reverse<(u64, u64)>>,
    cands: Vec<Option<Cand>>,
    /// Possible machine tops at the start of each nonterminal of G ([`entry_tops`]).
    tops: Vec<Vec<bool>>,
    filter_memo: HashMap<(u32, u32), u32>,
}

impl<'a> Saturation<'a> {
    /// Drop the entries of `rel` whose first popped symbol cannot be on top when `nt`
    /// starts (see [`entry_tops`]).
    fn filter(&mut self, rel: u32, nt: u32) -> u32 {
        if let Some(&r) = self.filter_memo.get(&(rel, nt)) {
            return r;
        }
        let tops = &self.tops[nt as usize];
        let kept: Relation = self.rels.list[rel as usize]
            .iter()
            .filter(|e| match e.pop.first() {
                None => true,
                Some(&a) => tops.get(a as usize).copied().unwrap_or(false),
            })
            .cloned()
            .collect();
        let r = if kept.len() == self.rels.list[rel as usize].len() {
            rel
        } else {
            self.rels.intern(kept)
        };
        self.filter_memo.insert((rel, nt), r);
        r
    }

    /// Prepare a run: `live_prod[p]` says which productions of `g` take part (the cleaned
    /// grammar), `k` is the bound.
    pub(crate) fn new(
        g: &'a Grammar,
        live_prod: &[bool],
        machine: &'a Machine,
        k: usize,
    ) -> Saturation<'a> {
        let mut rels = Rels::new(k);
        let id = rels.intern(identity());
        let term_rel = g
            .terminals
            .iter()
            .map(|name| {
                let r = machine.step_relation(name);
                let r = normalize(r, k);
                rels.intern(r)
            })
            .collect();
        let mut s = Saturation {
            g,
            machine,
            rels,
            term_rel,
            items: Vec::new(),
            item_best: HashMap::new(),
            item_final: HashSet::new(),
            nodes: Vec::new(),
            node_best: HashMap::new(),
            node_final: HashSet::new(),
            by_nt: vec![Vec::new(); g.nonterminals.len()],
            waiting: vec![Vec::new(); g.nonterminals.len()],
            heap: BinaryHeap::new(),
            cands: Vec::new(),
            tops: entry_tops(g, live_prod, machine),
            filter_memo: HashMap::new(),
        };
        for (p, live) in live_prod.iter().enumerate().take(g.productions.len()) {
            if *live {
                s.push_item(Item {
                    prod: p as u32,
                    dot: 0,
                    rel: id,
                    len: 0,
                    back: ItemBack::Start,
                });
            }
        }
        s
    }

    fn push_cand(&mut self, len: u64, c: Cand) {
        let seq = self.cands.len() as u64;
        self.cands.push(Some(c));
        self.heap.push(Reverse((len, seq)));
    }

    fn push_item(&mut self, it: Item) {
        let key = (it.prod, it.dot, it.rel);
        if self.item_final.contains(&key) {
            return;
        }
        match self.item_best.get(&key) {
            Some(&l) if l <= it.len => return,
            _ => {}
        }
        self.item_best.insert(key, it.len);
        self.push_cand(it.len, Cand::Item(it));
    }

    fn push_node(&mut self, n: Node) {
        let key = (n.nt, n.rel);
        if self.node_final.contains(&key) {
            return;
        }
        match self.node_best.get(&key) {
            Some(&l) if l <= n.len => return,
            _ => {}
        }
        self.node_best.insert(key, n.len);
        self.push_cand(n.len, Cand::Node(n));
    }

    fn combine(&mut self, item_id: u32, node_id: u32) {
        let it = self.items[item_id as usize];
        let nd = self.nodes[node_id as usize];
        let rel = self.rels.compose(it.rel, nd.rel);
        let rel = self.filter(rel, self.g.productions[it.prod as usize].lhs.0);
        self.push_item(Item {
            prod: it.prod,
            dot: it.dot + 1,
            rel,
            len: it.len.saturating_add(nd.len),
            back: ItemBack::Nt(item_id, node_id),
        });
    }

    /// Run to the end of the queue, or stop at the first (shortest) rejecting relation of
    /// the start symbol.
    pub(crate) fn run(&mut self, budget: &mut Budget<'_>) -> SatOutcome {
        let start = self.g.start.0;
        let mut rejecting: Option<u32> = None;
        while let Some(Reverse((_, seq))) = self.heap.pop() {
            if let Err(r) = budget.tick(1) {
                return SatOutcome::Stopped(r);
            }
            let work = std::mem::take(&mut self.rels.work) / WORK_PER_STEP;
            if let Err(r) = budget.tick(work) {
                return SatOutcome::Stopped(r);
            }
            let Some(cand) = self.cands.get_mut(seq as usize).and_then(Option::take) else {
                continue;
            };
            match cand {
                Cand::Item(it) => {
                    let key = (it.prod, it.dot, it.rel);
                    if !self.item_final.insert(key) {
                        continue;
                    }
                    let id = self.items.len() as u32;
                    self.items.push(it);
                    let prod = &self.g.productions[it.prod as usize];
                    match prod.rhs.get(it.dot as usize) {
                        None => {
                            self.push_node(Node {
                                nt: prod.lhs.0,
                                rel: it.rel,
                                len: it.len,
                                item: id,
                            });
                        }
                        Some(Sym::T(t)) => {
                            let tr = self.term_rel.get(t.index()).copied().unwrap_or(0);
                            let rel = self.rels.compose(it.rel, tr);
                            let rel = self.filter(rel, prod.lhs.0);
                            self.push_item(Item {
                                prod: it.prod,
                                dot: it.dot + 1,
                                rel,
                                len: it.len.saturating_add(1),
                                back: ItemBack::Term(id),
                            });
                        }
                        Some(Sym::N(x)) => {
                            let x = x.index();
                            self.waiting[x].push(id);
                            let nodes = self.by_nt[x].clone();
                            if let Err(r) = budget.tick(nodes.len() as u64) {
                                return SatOutcome::Stopped(r);
                            }
                            for nid in nodes {
                                self.combine(id, nid);
                            }
                        }
                    }
                }
                Cand::Node(nd) => {
                    let key = (nd.nt, nd.rel);
                    if self.node_final.contains(&key) {
                        continue;
                    }
                    let existing = self.by_nt[nd.nt as usize].clone();
                    if existing
                        .iter()
                        .any(|&o| self.rels.leq(self.nodes[o as usize].rel, nd.rel))
                    {
                        continue;
                    }
                    self.node_final.insert(key);
                    let id = self.nodes.len() as u32;
                    self.nodes.push(nd);
                    self.by_nt[nd.nt as usize].push(id);
                    if nd.nt == start
                        && rejecting.is_none()
                        && !self.machine.accepts(&self.rels.list[nd.rel as usize])
                    {
                        rejecting = Some(id);
                        break;
                    }
                    let waiting = self.waiting[nd.nt as usize].clone();
                    if let Err(r) = budget.tick(waiting.len() as u64) {
                        return SatOutcome::Stopped(r);
                    }
                    for iid in waiting {
                        self.combine(iid, id);
                    }
                }
            }
        }
        if let Some(id) = rejecting {
            return match self.unfold(id, budget) {
                Ok(d) => SatOutcome::Rejected(d),
                Err(r) => SatOutcome::Stopped(r),
            };
        }
        let mut anti = vec![Vec::new(); self.g.nonterminals.len()];
        for (nt, ids) in self.by_nt.iter().enumerate() {
            // Keep only the ⊑-minimal members (a later, smaller relation may have made an
            // earlier one redundant); the invariant holds for the minimal ones as well.
            let mut mins: Vec<u32> = Vec::new();
            for &i in ids {
                let r = self.nodes[i as usize].rel;
                let dominated = ids.iter().any(|&j| {
                    let o = self.nodes[j as usize].rel;
                    o != r && self.rels.leq(o, r)
                });
                if !dominated {
                    mins.push(r);
                }
            }
            mins.sort_unstable();
            mins.dedup();
            anti[nt] = mins
                .into_iter()
                .map(|r| self.rels.list[r as usize].clone())
                .collect();
        }
        SatOutcome::Proved(anti)
    }

    /// Length of the word of a finalized node.
    fn node_len(&self, id: u32) -> u64 {
        self.nodes[id as usize].len
    }

    /// The derivation tree (over G's productions) of a finalized node, built without
    /// recursion: first an arena of (production, children) in creation order (children after
    /// parents), then the trees bottom-up.
    fn unfold(&self, root: u32, budget: &mut Budget<'_>) -> Result<Derivation, UnknownReason> {
        budget.tick(self.node_len(root))?;
        let mut arena: Vec<(ProdId, Vec<Kid>)> = Vec::new();
        let mut work: Vec<(usize, u32)> = Vec::new();
        arena.push((ProdId(0), Vec::new()));
        work.push((0, root));
        while let Some((slot, nid)) = work.pop() {
            budget.tick(1)?;
            let nd = self.nodes[nid as usize];
            let mut kids_rev: Vec<Kid> = Vec::new();
            let mut cur = nd.item;
            let prod = self.items[cur as usize].prod;
            loop {
                let it = self.items[cur as usize];
                match it.back {
                    ItemBack::Start => break,
                    ItemBack::Term(prev) => {
                        let p = &self.g.productions[it.prod as usize];
                        match p.rhs.get(it.dot as usize - 1) {
                            Some(Sym::T(t)) => kids_rev.push(Kid::T(*t)),
                            _ => return Err(internal("terminal back-pointer")),
                        }
                        cur = prev;
                    }
                    ItemBack::Nt(prev, child) => {
                        let s = arena.len();
                        arena.push((ProdId(0), Vec::new()));
                        work.push((s, child));
                        kids_rev.push(Kid::N(s));
                        cur = prev;
                    }
                }
            }
            kids_rev.reverse();
            arena[slot] = (ProdId(prod), kids_rev);
        }
        derivation_from_arena(arena).ok_or_else(|| internal("unfold order"))
    }
}

fn internal(what: &str) -> UnknownReason {
    UnknownReason::Internal {
        detail: format!("effects layer: {what}"),
    }
}
