//! Program-shaped grammars for benchmarks and scale tests of the inclusion engine.
//!
//! [`program_grammar`] builds the kind of grammar ConstructCFG (paper §5.4, Fig. 14)
//! produces for a program of `methods` mutually calling methods that use a lock correctly:
//! per method `m` one nonterminal `Mm` for the method (as `Foo`, `Acquire` in Fig. 4) and a
//! chain of nonterminals `Mm_0 .. Mm_4` for its PCFA states, with
//!
//! ```text
//! Mm   -> Mm_0                              entry
//! Mm_0 -> $1.lock() Mm_1                    API call (a non-locking method: Mm_0 -> Mm_1)
//! Mm_1 -> M(2m+1) Mm_2                      call to its first child in a call tree
//! Mm_2 -> M(2m+2) Mm_3 | M(r) Mm_3          call to the second child, or to a random
//!                                           method r (recursion, mutual recursion)
//! Mm_3 -> $1.unlock() Mm_4                  API call (a non-locking method: Mm_3 -> Mm_4)
//! Mm_4 -> Mm_0 | ε                          loop back edge, return
//! ```
//!
//! Methods without a child in the call tree (`2m+1 >= methods`) get `Mm_1 -> Mm_2` and an
//! extra `Mm_2 -> Mm_3`, so every method is productive and every method is reachable from
//! the start symbol `M0` (the call tree). That is 8 productions per method: 400 methods
//! give about 3,200 productions. Every method leaves the lock count unchanged, so the
//! language is included in [`lock_spec`]; [`buggy_program_grammar`] adds one path that
//! skips an `unlock()` deep in the call tree, so inclusion fails.
//!
//! Deterministic: the same arguments give the same grammar.

use crate::cfg::{Grammar, Sym};

/// The lock protocol `S -> $1.lock() S $1.unlock() S | ε` (tests/specs/lock.cfg).
pub fn lock_spec() -> Grammar {
    let mut g = Grammar::new("S");
    let s = g.start;
    let lock = g.terminal("$1.lock()");
    let unlock = g.terminal("$1.unlock()");
    g.add(s, vec![Sym::T(lock), Sym::N(s), Sym::T(unlock), Sym::N(s)]);
    g.add(s, vec![]);
    g
}

/// A correct program-shaped grammar of `methods` methods (at least 1); `seed` chooses
/// which methods lock and where the random recursive calls go. See the module docs.
pub fn program_grammar(methods: usize, seed: u64) -> Grammar {
    build(methods, seed, false)
}

/// Like [`program_grammar`], but the deepest locking method of the call tree may return
/// without its `unlock()` (an extra `Mm_3 -> Mm_4`): L(G) is not included in
/// [`lock_spec`].
pub fn buggy_program_grammar(methods: usize, seed: u64) -> Grammar {
    build(methods, seed, true)
}

/// splitmix64: a small, well-mixed deterministic generator.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn build(methods: usize, seed: u64, bug: bool) -> Grammar {
    let n = methods.max(1);
    let mut rng = SplitMix(seed);
    let mut g = Grammar::new("M0");
    let lock = g.terminal("$1.lock()");
    let unlock = g.terminal("$1.unlock()");
    // Intern every method nonterminal first so that ids follow method numbers.
    let method: Vec<_> = (0..n).map(|m| g.nonterminal(&format!("M{m}"))).collect();
    // Two methods in three lock; the root always does.
    let locks: Vec<bool> = (0..n).map(|m| m == 0 || rng.below(3) != 0).collect();
    // The buggy method: the locking method with the largest index (deep in the tree).
    let bug_at = if bug {
        (0..n).rev().find(|&m| locks[m])
    } else {
        None
    };
    for m in 0..n {
        let st: Vec<_> = (0..5)
            .map(|i| g.nonterminal(&format!("M{m}_{i}")))
            .collect();
        let child1 = 2 * m + 1;
        let child2 = 2 * m + 2;
        let random = rng.below(n);
        g.add(method[m], vec![Sym::N(st[0])]);
        if locks[m] {
            g.add(st[0], vec![Sym::T(lock), Sym::N(st[1])]);
        } else {
            g.add(st[0], vec![Sym::N(st[1])]);
        }
        if child1 < n {
            g.add(st[1], vec![Sym::N(method[child1]), Sym::N(st[2])]);
        } else {
            g.add(st[1], vec![Sym::N(st[2])]);
        }
        if child2 < n {
            g.add(st[2], vec![Sym::N(method[child2]), Sym::N(st[3])]);
        } else {
            g.add(st[2], vec![Sym::N(st[3])]);
        }
        g.add(st[2], vec![Sym::N(method[random]), Sym::N(st[3])]);
        if locks[m] {
            g.add(st[3], vec![Sym::T(unlock), Sym::N(st[4])]);
            if bug_at == Some(m) {
                g.add(st[3], vec![Sym::N(st[4])]);
            }
        } else {
            g.add(st[3], vec![Sym::N(st[4])]);
        }
        g.add(st[4], vec![Sym::N(st[0])]);
        g.add(st[4], vec![]);
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_determinism() {
        let g = program_grammar(400, 7);
        assert_eq!(g.productions.len(), 400 * 8);
        assert_eq!(g, program_grammar(400, 7));
        assert_eq!(buggy_program_grammar(400, 7).productions.len(), 400 * 8 + 1);
        assert_eq!(g.nonterminal_name(g.start), "M0");
    }

    #[test]
    fn text_form_parses_back() {
        let g = program_grammar(12, 1);
        let parsed = cfp_syntax::parse_spec(&g.to_string());
        assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
        assert_eq!(
            Grammar::from_spec(&parsed.tree).productions.len(),
            g.productions.len()
        );
    }
}
