//! Normal forms for the spec side: ε-removal, unit-production removal, useless-symbol
//! removal and Greibach normal form.
//!
//! These are the textbook constructions (Hopcroft & Ullman, *Introduction to Automata
//! Theory, Languages, and Computation*, 1979, §4.4–4.6):
//!
//! * ε-removal: for every production, every way of dropping nullable occurrences, minus the
//!   empty right-hand side; ε ∈ L is reported separately (Theorem 4.3).
//! * unit removal: A gets every non-unit production of every B with A ⇒* B by unit
//!   productions (closure by graph search, so unit *cycles* are fine) (Theorem 4.4).
//! * Greibach normal form (Theorem 4.6): order the nonterminals A₁ … Aₙ; for i = 1 … n,
//!   substitute leading Aⱼ (j < i) and eliminate the immediate left recursion of Aᵢ with a
//!   fresh Zᵢ (Lemma 4.4: `A -> A α | β` becomes `A -> β | β Z`, `Z -> α | α Z`); then
//!   substitute leading nonterminals back (Aₙ … A₁, then the Zs), and finally replace
//!   terminals after the first position by fresh nonterminals `[a] -> a`.
//!
//! The construction works for every CFG (left recursion, hidden left recursion, ε- and
//! unit cycles are removed by the first steps). It can be exponential; every step checks a
//! production budget and returns [`NormalFormError::TooLarge`] instead of blowing up.
//! Spec grammars are small, so this is the intended use; program grammars are never
//! normalised (ARCHITECTURE.md, layer 0).

use crate::cfg::{Grammar, NontermId, Production, Sym};
use crate::clean::{clean, nullable};
use std::collections::{HashMap, HashSet};

/// Default production budget of the normal-form constructions.
pub const DEFAULT_LIMIT: usize = 100_000;

/// Why a normal form could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NormalFormError {
    /// The result (or an intermediate grammar) would exceed the production budget.
    #[error("the normal form needs more than {limit} productions (step: {step})")]
    TooLarge {
        /// The budget.
        limit: usize,
        /// The construction step that exceeded it.
        step: &'static str,
    },
    /// An internal invariant of the construction failed (a bug; never a wrong grammar).
    #[error("internal error in the normal-form construction: {0}")]
    Internal(&'static str),
}

/// A grammar in Greibach normal form: every production is `A -> a B1 … Bk` (a terminal,
/// then zero or more nonterminals). Its language is L(g) \ {ε}; `accepts_empty` says
/// whether ε ∈ L(g).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gnf {
    /// The GNF grammar: same terminals (ids, names, order) as the input grammar; new
    /// nonterminals `A'` (left-recursion tails) and `[a]` (a terminal after the first
    /// position). When L(g) \ {ε} is empty it has only its start symbol.
    pub grammar: Grammar,
    /// ε ∈ L(g).
    pub accepts_empty: bool,
}

/// Productions grouped per nonterminal, with names (the working representation).
#[derive(Clone, Debug)]
struct Work {
    terminals: Vec<String>,
    names: Vec<String>,
    rules: Vec<Vec<Vec<Sym>>>,
    start: NontermId,
    limit: usize,
}

impl Work {
    fn from_grammar(g: &Grammar, limit: usize) -> Work {
        let mut rules = vec![Vec::new(); g.nonterminals.len()];
        for p in &g.productions {
            if let Some(r) = rules.get_mut(p.lhs.index()) {
                r.push(p.rhs.clone());
            }
        }
        let mut w = Work {
            terminals: g.terminals.clone(),
            names: g.nonterminals.clone(),
            rules,
            start: g.start,
            limit,
        };
        for r in &mut w.rules {
            dedup(r);
        }
        w
    }

    fn to_grammar(&self) -> Grammar {
        let mut productions = Vec::new();
        for (i, r) in self.rules.iter().enumerate() {
            for rhs in r {
                productions.push(Production {
                    lhs: NontermId(i as u32),
                    rhs: rhs.clone(),
                });
            }
        }
        Grammar {
            terminals: self.terminals.clone(),
            nonterminals: self.names.clone(),
            productions,
            start: self.start,
        }
    }

    fn size(&self) -> usize {
        self.rules.iter().map(Vec::len).sum()
    }

    fn too_large(&self, step: &'static str) -> NormalFormError {
        NormalFormError::TooLarge {
            limit: self.limit,
            step,
        }
    }

    fn check(&self, step: &'static str) -> Result<(), NormalFormError> {
        if self.size() > self.limit {
            Err(self.too_large(step))
        } else {
            Ok(())
        }
    }

    /// A fresh nonterminal named `base`, `base'`, `base''`, … (first unused).
    fn fresh(&mut self, base: &str, used: &mut HashSet<String>) -> NontermId {
        let mut name = base.to_string();
        while used.contains(&name) {
            name.push('\'');
        }
        used.insert(name.clone());
        self.names.push(name);
        self.rules.push(Vec::new());
        NontermId(self.names.len() as u32 - 1)
    }
}

/// Remove duplicate right-hand sides, keeping first occurrences (deterministic).
fn dedup(r: &mut Vec<Vec<Sym>>) {
    let mut seen = HashSet::new();
    r.retain(|rhs| seen.insert(rhs.clone()));
}

/// Remove useless symbols (unproductive first, then unreachable); see [`clean`].
pub fn remove_useless(g: &Grammar) -> Grammar {
    clean(g).grammar
}

/// ε-removal (Hopcroft–Ullman Theorem 4.3): a grammar without ε-productions for
/// L(g) \ {ε}, and whether ε ∈ L(g). Self-loops `A -> A` are dropped. Errors when a
/// production with many nullable occurrences would expand beyond `limit` productions.
pub fn remove_epsilon(g: &Grammar, limit: usize) -> Result<(Grammar, bool), NormalFormError> {
    let null = nullable(g);
    let is_null = |n: NontermId| null.get(n.index()).copied().unwrap_or(false);
    let accepts_empty = is_null(g.start);
    let mut out = g.clone();
    out.productions.clear();
    let mut seen: HashSet<(NontermId, Vec<Sym>)> = HashSet::new();
    for p in &g.productions {
        let mut variants: Vec<Vec<Sym>> = vec![Vec::new()];
        for s in &p.rhs {
            let optional = matches!(s, Sym::N(n) if is_null(*n));
            if optional {
                let kept: Vec<Vec<Sym>> = variants
                    .iter()
                    .map(|v| {
                        let mut v = v.clone();
                        v.push(*s);
                        v
                    })
                    .collect();
                variants.extend(kept);
            } else {
                for v in &mut variants {
                    v.push(*s);
                }
            }
            if variants.len() + out.productions.len() > limit {
                return Err(NormalFormError::TooLarge {
                    limit,
                    step: "ε-removal",
                });
            }
        }
        for v in variants {
            if v.is_empty() || v == [Sym::N(p.lhs)] {
                continue;
            }
            if seen.insert((p.lhs, v.clone())) {
                out.productions.push(Production { lhs: p.lhs, rhs: v });
            }
        }
    }
    Ok((out, accepts_empty))
}

/// Unit-production removal (Hopcroft–Ullman Theorem 4.4): A gets every non-unit
/// production of every B reachable from A by unit productions (graph search, so unit
/// cycles are handled). The language is unchanged.
pub fn remove_units(g: &Grammar, limit: usize) -> Result<Grammar, NormalFormError> {
    let n = g.nonterminals.len();
    let mut unit: Vec<Vec<NontermId>> = vec![Vec::new(); n];
    let mut proper: Vec<Vec<&Vec<Sym>>> = vec![Vec::new(); n];
    for p in &g.productions {
        if p.lhs.index() >= n {
            continue;
        }
        match p.rhs.as_slice() {
            [Sym::N(b)] if b.index() < n => unit[p.lhs.index()].push(*b),
            _ => proper[p.lhs.index()].push(&p.rhs),
        }
    }
    let mut out = g.clone();
    out.productions.clear();
    for a in 0..n {
        let mut seen = vec![false; n];
        let mut order = vec![a];
        seen[a] = true;
        let mut k = 0;
        while k < order.len() {
            let b = order[k];
            k += 1;
            for c in &unit[b] {
                if !seen[c.index()] {
                    seen[c.index()] = true;
                    order.push(c.index());
                }
            }
        }
        let mut have = HashSet::new();
        for b in order {
            for rhs in &proper[b] {
                if have.insert(*rhs) {
                    out.productions.push(Production {
                        lhs: NontermId(a as u32),
                        rhs: (*rhs).clone(),
                    });
                }
            }
            if out.productions.len() > limit {
                return Err(NormalFormError::TooLarge {
                    limit,
                    step: "unit removal",
                });
            }
        }
    }
    Ok(out)
}

/// A *proper* grammar for L(g) \ {ε}: no ε-productions, no unit productions, no useless
/// symbols (clean → ε-removal → unit removal → clean), and whether ε ∈ L(g).
pub fn proper(g: &Grammar, limit: usize) -> Result<(Grammar, bool), NormalFormError> {
    let c = clean(g);
    let (noeps, accepts_empty) = remove_epsilon(&c.grammar, limit)?;
    let nounit = remove_units(&noeps, limit)?;
    Ok((clean(&nounit).grammar, accepts_empty))
}

/// Whether every production of g is `A -> a B1 … Bk` (Greibach normal form).
pub fn is_greibach(g: &Grammar) -> bool {
    g.productions.iter().all(|p| {
        matches!(p.rhs.first(), Some(Sym::T(_)))
            && p.rhs[1..].iter().all(|s| matches!(s, Sym::N(_)))
    })
}

/// Greibach normal form with the default budget ([`DEFAULT_LIMIT`] productions).
pub fn greibach(g: &Grammar) -> Result<Gnf, NormalFormError> {
    greibach_with_limit(g, DEFAULT_LIMIT)
}

/// Greibach normal form (Hopcroft–Ullman Theorem 4.6, after [`proper`]); see the module
/// documentation. L(result) = L(g) \ {ε}; errors instead of exceeding `limit` productions.
pub fn greibach_with_limit(g: &Grammar, limit: usize) -> Result<Gnf, NormalFormError> {
    let (pg, accepts_empty) = proper(g, limit)?;
    let mut w = Work::from_grammar(&pg, limit);
    let n = w.names.len();
    let mut used: HashSet<String> = w.names.iter().cloned().collect();

    // Phase 1: for i = 0..n, make every Aᵢ-production start with a terminal or Aₖ, k > i.
    for i in 0..n {
        for j in 0..i {
            if !w.rules[i].iter().any(|r| r.first() == Some(&Sym::N(nt(j)))) {
                continue;
            }
            let old = std::mem::take(&mut w.rules[i]);
            let room = w.limit.saturating_sub(w.size());
            let mut new = Vec::with_capacity(old.len());
            for rhs in old {
                if rhs.first() == Some(&Sym::N(nt(j))) {
                    for delta in &w.rules[j] {
                        let mut r = delta.clone();
                        r.extend_from_slice(&rhs[1..]);
                        new.push(r);
                    }
                } else {
                    new.push(rhs);
                }
                if new.len() > room {
                    return Err(w.too_large("substitution"));
                }
            }
            dedup(&mut new);
            w.rules[i] = new;
            w.check("substitution")?;
        }
        // Immediate left recursion: A -> A α | β  ⇒  A -> β | β Z,  Z -> α | α Z.
        let (alphas, betas): (Vec<_>, Vec<_>) = std::mem::take(&mut w.rules[i])
            .into_iter()
            .partition(|r| r.first() == Some(&Sym::N(nt(i))));
        let alphas: Vec<Vec<Sym>> = alphas
            .into_iter()
            .map(|r| r[1..].to_vec())
            .filter(|a| !a.is_empty())
            .collect();
        if alphas.is_empty() || betas.is_empty() {
            // No left recursion, or only left recursion (then Aᵢ is unproductive and the
            // final cleaning removes it).
            w.rules[i] = betas;
            continue;
        }
        let base = format!("{}'", w.names[i]);
        let z = w.fresh(&base, &mut used);
        let mut a_rules = betas.clone();
        for b in &betas {
            let mut r = b.clone();
            r.push(Sym::N(z));
            a_rules.push(r);
        }
        let mut z_rules = alphas.clone();
        for a in &alphas {
            let mut r = a.clone();
            r.push(Sym::N(z));
            z_rules.push(r);
        }
        dedup(&mut a_rules);
        dedup(&mut z_rules);
        w.rules[i] = a_rules;
        w.rules[z.index()] = z_rules;
        w.check("left-recursion elimination")?;
    }

    // Phase 2: substitute leading nonterminals whose productions are already in GNF
    // (Aₙ … A₁ first, then the Zs; done as a dependency-driven worklist).
    substitute_leading(&mut w)?;

    // Phase 3: terminals after the first position become `[a] -> a`.
    let mut helper: HashMap<u32, NontermId> = HashMap::new();
    let total = w.names.len();
    for i in 0..total {
        for r in 0..w.rules[i].len() {
            for k in 1..w.rules[i][r].len() {
                if let Sym::T(t) = w.rules[i][r][k] {
                    let h = match helper.get(&t.0) {
                        Some(h) => *h,
                        None => {
                            let name = format!("[{}]", w.terminals[t.index()]);
                            let h = w.fresh(&name, &mut used);
                            w.rules[h.index()].push(vec![Sym::T(t)]);
                            helper.insert(t.0, h);
                            h
                        }
                    };
                    w.rules[i][r][k] = Sym::N(h);
                }
            }
        }
    }
    w.check("terminal helpers")?;

    let out = clean(&w.to_grammar()).grammar;
    if !is_greibach(&out) {
        return Err(NormalFormError::Internal("result is not in Greibach form"));
    }
    Ok(Gnf {
        grammar: out,
        accepts_empty,
    })
}

fn nt(i: usize) -> NontermId {
    NontermId(i as u32)
}

/// Repeatedly replace a leading nonterminal B by B's productions once all of B's
/// productions start with a terminal. Errors if the leading-nonterminal relation has a
/// cycle (cannot happen after phase 1).
fn substitute_leading(w: &mut Work) -> Result<(), NormalFormError> {
    let total = w.names.len();
    let starts_ok = |r: &[Vec<Sym>]| r.iter().all(|rhs| matches!(rhs.first(), Some(Sym::T(_))));
    let mut done: Vec<bool> = w.rules.iter().map(|r| starts_ok(r)).collect();
    loop {
        let mut progress = false;
        let mut all = true;
        // Highest index first: the textbook order Aₙ … A₁, then the Zs.
        for i in (0..total).rev() {
            if done[i] {
                continue;
            }
            let ready = w.rules[i].iter().all(|rhs| match rhs.first() {
                Some(Sym::N(b)) => done.get(b.index()).copied().unwrap_or(false),
                Some(Sym::T(_)) => true,
                None => false,
            });
            if !ready {
                all = false;
                continue;
            }
            let old = std::mem::take(&mut w.rules[i]);
            let room = w.limit.saturating_sub(w.size());
            let mut new = Vec::new();
            for rhs in old {
                match rhs.first() {
                    Some(Sym::N(b)) => {
                        for delta in &w.rules[b.index()] {
                            let mut r = delta.clone();
                            r.extend_from_slice(&rhs[1..]);
                            new.push(r);
                        }
                    }
                    _ => new.push(rhs),
                }
                if new.len() > room {
                    return Err(w.too_large("back-substitution"));
                }
            }
            dedup(&mut new);
            w.rules[i] = new;
            done[i] = true;
            progress = true;
            w.check("back-substitution")?;
        }
        if all {
            return Ok(());
        }
        if !progress {
            return Err(NormalFormError::Internal(
                "cyclic leading nonterminals after left-recursion elimination",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean::tests::g;
    use crate::earley::word_in;

    fn gnf(text: &str) -> Gnf {
        let gr = g(text);
        let out = greibach(&gr).expect("small grammar");
        assert!(is_greibach(&out.grammar), "{}", out.grammar);
        assert_eq!(out.grammar.terminals, gr.terminals);
        out
    }

    #[test]
    fn left_recursive() {
        // A -> A a | b: L = b a*.
        let out = gnf("A -> A $1.a() | $1.b();");
        assert!(!out.accepts_empty);
        let (a, b) = ("$1.a()", "$1.b()");
        assert!(word_in(&out.grammar, &[b]));
        assert!(word_in(&out.grammar, &[b, a, a]));
        assert!(!word_in(&out.grammar, &[a, b]));
        assert_eq!(
            out.grammar.to_string(),
            "A -> $1.b() | $1.b() A';\nA' -> $1.a() | $1.a() A';\n"
        );
    }

    #[test]
    fn epsilon_and_unit_cycle() {
        // A -> B | a; B -> A | ε: L = {ε, a}.
        let out = gnf("A -> B | $1.a();\nB -> A | ε;");
        assert!(out.accepts_empty);
        assert_eq!(out.grammar.to_string(), "A -> $1.a();\n");
    }

    #[test]
    fn dyck() {
        let out = gnf("S -> $1.lock() S $1.unlock() S | ε;");
        assert!(out.accepts_empty);
        let (l, u) = ("$1.lock()", "$1.unlock()");
        assert!(word_in(&out.grammar, &[l, u, l, l, u, u]));
        assert!(!word_in(&out.grammar, &[]));
        assert!(!word_in(&out.grammar, &[l, u, u]));
    }

    #[test]
    fn hidden_and_indirect_left_recursion() {
        // S -> A S b | c; A -> S a | ε  (hidden left recursion through nullable A).
        let out = gnf("S -> A S $1.b() | $1.c();\nA -> S $1.a() | ε;");
        let (a, b, c) = ("$1.a()", "$1.b()", "$1.c()");
        assert!(!out.accepts_empty);
        assert!(word_in(&out.grammar, &[c]));
        assert!(word_in(&out.grammar, &[c, b]));
        assert!(word_in(&out.grammar, &[c, a, c, b]));
        assert!(!word_in(&out.grammar, &[b]));
    }

    #[test]
    fn empty_languages() {
        let out = gnf("S -> S $1.a();");
        assert!(!out.accepts_empty);
        assert!(out.grammar.productions.is_empty());
        let out = gnf("S -> ε | S S;");
        assert!(out.accepts_empty);
        assert!(out.grammar.productions.is_empty());
    }

    #[test]
    fn budget_is_enforced() {
        let gr = g("S -> S S | $1.a() | $1.b() S $1.c();");
        let err = greibach_with_limit(&gr, 3).unwrap_err();
        assert!(
            matches!(err, NormalFormError::TooLarge { limit: 3, .. }),
            "{err}"
        );
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use crate::enumerate::enumerate;
    use crate::random::{random_grammar, RandomShape};

    /// (a) For 500 random grammars: the GNF is in GNF, keeps the alphabet, and has the
    /// same words up to length 7 (plus ε when `accepts_empty`).
    #[test]
    fn greibach_preserves_language_on_random_grammars() {
        let shape = RandomShape::default();
        let (mut checked, mut too_large, mut nonempty) = (0, 0, 0);
        for seed in 0..500 {
            let g = random_grammar(seed, shape);
            let gnf = match greibach_with_limit(&g, 5_000) {
                Ok(x) => x,
                Err(NormalFormError::TooLarge { .. }) => {
                    too_large += 1;
                    continue;
                }
                Err(e) => panic!("seed {seed}: {e}\n{g}"),
            };
            assert!(is_greibach(&gnf.grammar), "seed {seed}");
            assert_eq!(gnf.grammar.terminals, g.terminals);
            let want = enumerate(&g, 7, 200_000);
            let got = enumerate(&gnf.grammar, 7, 200_000);
            assert!(!want.truncated && !got.truncated, "seed {seed}");
            let mut got = got.words;
            if gnf.accepts_empty {
                got.insert(0, Vec::new());
            }
            assert_eq!(got, want.words, "seed {seed}\n{g}\nGNF:\n{}", gnf.grammar);
            checked += 1;
            nonempty += usize::from(want.words.len() > 1);
        }
        assert!(
            checked >= 450 && nonempty >= 150,
            "{checked} {too_large} {nonempty}"
        );
    }

    /// ε-removal and unit removal on their own.
    #[test]
    fn proper_form_on_random_grammars() {
        let shape = RandomShape::default();
        for seed in 1000..1300 {
            let g = random_grammar(seed, shape);
            let (p, eps) = proper(&g, 50_000).expect("small");
            assert!(p
                .productions
                .iter()
                .all(|q| !q.rhs.is_empty() && !matches!(q.rhs.as_slice(), [Sym::N(_)])));
            let mut got = enumerate(&p, 6, 100_000).words;
            if eps {
                got.insert(0, Vec::new());
            }
            assert_eq!(got, enumerate(&g, 6, 100_000).words, "seed {seed}");
        }
    }
}

#[cfg(test)]
mod spec_snapshots {
    use super::*;
    use crate::earley::recognizes;
    use crate::enumerate::enumerate;

    fn spec(name: &str) -> Grammar {
        let path = format!(
            "{}/../../tests/specs/{name}.cfg",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).expect("spec file");
        let parsed = cfp_syntax::parse_spec(&text);
        assert!(!parsed.has_errors(), "{name}: {:?}", parsed.diagnostics);
        Grammar::from_spec(&parsed.tree)
    }

    /// GNF of every protocol spec: snapshot, and same words as the spec up to length 8.
    #[test]
    fn protocol_specs_in_greibach_form() {
        for name in [
            "canvas",
            "json",
            "lock",
            "lock-paper",
            "wakelock",
            "wifilock",
        ] {
            let g = spec(name);
            let gnf = greibach(&g).expect("specs are small");
            assert!(is_greibach(&gnf.grammar));
            assert_eq!(gnf.grammar.terminals, g.terminals);
            let mut got = enumerate(&gnf.grammar, 8, 1_000_000).words;
            if gnf.accepts_empty {
                got.insert(0, Vec::new());
            }
            let want = enumerate(&g, 8, 1_000_000).words;
            assert_eq!(got, want, "{name}");
            for w in want.iter().filter(|w| !w.is_empty()).take(200) {
                assert!(recognizes(&gnf.grammar, w), "{name}");
            }
            let text = format!(
                "accepts_empty: {}\nproductions: {}\n{}",
                gnf.accepts_empty,
                gnf.grammar.productions.len(),
                gnf.grammar
            );
            insta::assert_snapshot!(format!("gnf_{name}"), text);
        }
    }
}
