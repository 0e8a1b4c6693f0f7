//! A tiny deterministic generator of small random grammars for differential tests.
//!
//! The randomness is Marsaglia's xorshift64* (Vigna 2016 variant), seeded through
//! splitmix64 so that consecutive seeds give unrelated grammars. No dependencies; the same
//! seed and shape always give the same grammar on every platform.

use crate::cfg::{Grammar, NontermId, Sym, TermId};

/// The shape of a random grammar: each count is drawn uniformly from its range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomShape {
    /// Number of terminals (`$1.a()`, `$1.b()`, …), from `min_terminals..=max_terminals`.
    pub min_terminals: usize,
    /// See `min_terminals`.
    pub max_terminals: usize,
    /// Number of nonterminals (`S`, `A`, `B`, …), from 1 to this.
    pub max_nonterminals: usize,
    /// Productions per nonterminal, from 1 to this.
    pub max_productions: usize,
    /// Right-hand-side length, from 0 (ε) to this.
    pub max_rhs: usize,
    /// Percent chance that a non-empty right-hand side starts with its own left side
    /// (direct left recursion; indirect left recursion and unit cycles arise by chance).
    pub left_recursion_percent: u64,
    /// Percent chance that a right-hand-side symbol is a terminal.
    pub terminal_percent: u64,
}

impl Default for RandomShape {
    /// 2–4 terminals, 1–5 nonterminals, 1–4 productions each, right sides of length 0–4.
    fn default() -> Self {
        RandomShape {
            min_terminals: 2,
            max_terminals: 4,
            max_nonterminals: 5,
            max_productions: 4,
            max_rhs: 4,
            left_recursion_percent: 15,
            terminal_percent: 50,
        }
    }
}

/// xorshift64* seeded by splitmix64.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed` (any value, including 0).
    pub fn new(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Rng(if z == 0 { 0x2545_F491_4F6C_DD1D } else { z })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform-ish in `lo..=hi` (returns `lo` when `hi < lo`).
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        if hi <= lo {
            return lo;
        }
        lo + (self.next_u64() % (hi - lo + 1) as u64) as usize
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
}

/// Name of the i-th random terminal: `$1.a()`, `$1.b()`, …, `$1.t26()`, ….
pub fn terminal_name(i: usize) -> String {
    match u8::try_from(i) {
        Ok(k) if k < 26 => format!("$1.{}()", (b'a' + k) as char),
        _ => format!("$1.t{i}()"),
    }
}

/// Name of the i-th random nonterminal: `S`, `A`, `B`, …, `N25`, ….
pub fn nonterminal_name(i: usize) -> String {
    const NAMES: [&str; 12] = ["S", "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K"];
    NAMES
        .get(i)
        .map_or_else(|| format!("N{i}"), |s| (*s).to_string())
}

/// A small random CFG (deterministic in `seed` and `shape`). Every terminal of the drawn
/// alphabet is interned (ids in order, even when unused), the start symbol is `S`
/// (id 0). The grammar may contain ε-productions, unit rules and cycles, left recursion,
/// unproductive and unreachable nonterminals — and may have an empty language.
pub fn random_grammar(seed: u64, shape: RandomShape) -> Grammar {
    let mut rng = Rng::new(seed);
    let nt = rng.range(shape.min_terminals.max(1), shape.max_terminals.max(1));
    let nn = rng.range(1, shape.max_nonterminals.max(1));
    let mut g = Grammar::new(&nonterminal_name(0));
    g.terminals = (0..nt).map(terminal_name).collect();
    g.nonterminals = (0..nn).map(nonterminal_name).collect();
    for a in 0..nn {
        let np = rng.range(1, shape.max_productions.max(1));
        for _ in 0..np {
            let len = rng.range(0, shape.max_rhs);
            let mut rhs = Vec::with_capacity(len);
            for k in 0..len {
                let s = if k == 0 && rng.chance(shape.left_recursion_percent) {
                    Sym::N(NontermId(a as u32))
                } else if rng.chance(shape.terminal_percent) {
                    Sym::T(TermId(rng.range(0, nt - 1) as u32))
                } else {
                    Sym::N(NontermId(rng.range(0, nn - 1) as u32))
                };
                rhs.push(s);
            }
            g.add(NontermId(a as u32), rhs);
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_in_shape() {
        let shape = RandomShape::default();
        for seed in 0..200 {
            let g = random_grammar(seed, shape);
            assert_eq!(g, random_grammar(seed, shape));
            assert!((2..=4).contains(&g.terminals.len()));
            assert!((1..=5).contains(&g.nonterminals.len()));
            assert_eq!(g.start, NontermId(0));
            for p in &g.productions {
                assert!(p.rhs.len() <= 4);
                for s in &p.rhs {
                    match s {
                        Sym::T(t) => assert!(t.index() < g.terminals.len()),
                        Sym::N(n) => assert!(n.index() < g.nonterminals.len()),
                    }
                }
            }
        }
        assert_ne!(random_grammar(1, shape), random_grammar(2, shape));
        // Snapshot of one grammar: guards the generator against accidental changes.
        insta::assert_snapshot!(
            "random_grammar_seed_7",
            random_grammar(7, shape).to_string()
        );
    }

    #[test]
    fn covers_interesting_features() {
        let shape = RandomShape::default();
        let (mut eps, mut unit, mut left) = (0, 0, 0);
        for seed in 0..200 {
            let g = random_grammar(seed, shape);
            for p in &g.productions {
                eps += usize::from(p.rhs.is_empty());
                unit += usize::from(matches!(p.rhs.as_slice(), [Sym::N(_)]));
                left += usize::from(p.rhs.first() == Some(&Sym::N(p.lhs)));
            }
        }
        assert!(eps > 50 && unit > 20 && left > 50, "{eps} {unit} {left}");
    }
}
