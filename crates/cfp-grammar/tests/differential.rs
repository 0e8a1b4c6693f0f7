//! Differential test of the inclusion engine against brute force (ARCHITECTURE.md: "an
//! exhaustive-enumeration test oracle for small grammars").
//!
//! `CFP_DIFF_CASES` (default 2,000) pairs (G, S) of small grammars over the alphabet
//! `$1.a()`, `$1.b()`, … are checked with [`check_inclusion`] and every answer is verified
//! independently:
//!
//! * `NotIncluded` — the word is in L(G) and not in L(S) (Earley), the derivation is one of
//!   G's own productions from its start symbol with the word as yield, and the word's length
//!   equals the shortest counterexample length found by enumerating G's words, whenever the
//!   enumeration is complete up to that length (≤ [`MAX_LEN`]);
//! * `Included` — [`recheck_certificate`] accepts the certificate and every enumerated word
//!   of G (all words up to [`MAX_LEN`] unless the enumeration hit its limit) is in L(S);
//! * `Unknown` — counted; the test fails when more than 5% of the answers are unknown.
//!
//! The pairs come in four families, in rotation: (1) G and S both random; (2) G random, S
//! one of a few fixed protocol-like specs, possibly mutated; (3) G a *sub-grammar* of a
//! fixed spec (productions dropped: always included, with a non-trivial proof); (4) G a
//! sub-grammar of a fixed spec plus a random production (usually not included).
//! Everything is deterministic in the case number. `CFP_DIFF_PROFILE=1` prints the cases
//! that take longer than 50 ms (engine and oracle time). Run with `-- --nocapture` to see
//! the statistics line (answers, unknown rate, confirmed shortest counterexamples).

use cfp_grammar::random::Rng;
use cfp_grammar::{
    check_inclusion, earley, enumerate, random_grammar, recheck_certificate, Grammar,
    InclusionOptions, InclusionResult, NontermId, RandomShape, Sym, TermId,
};
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::time::Instant;

/// Words up to this length are enumerated by the oracle.
const MAX_LEN: usize = 10;
/// At most this many words of G are enumerated per case.
const G_WORD_LIMIT: usize = 4_000;
/// Words of S up to this length are enumerated once per case for membership by set
/// lookup; longer words (and any beyond a truncated enumeration) are parsed by Earley.
const S_MAX_LEN: usize = 8;
/// At most this many words of S are enumerated per case.
const S_WORD_LIMIT: usize = 20_000;
/// Default number of pairs.
const DEFAULT_CASES: u64 = 2_000;

fn cases() -> u64 {
    std::env::var("CFP_DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_CASES)
}

/// Parse a grammar written in the spec syntax (test fixtures only).
fn grammar(text: &str) -> Grammar {
    let parsed = cfp_syntax::parse_spec(text);
    assert!(!parsed.has_errors(), "{text}: {:?}", parsed.diagnostics);
    Grammar::from_spec(&parsed.tree)
}

/// Protocol-like specs over `$1.a()` … `$1.d()`.
fn fixed_specs() -> Vec<(&'static str, Grammar)> {
    [
        ("dyck", "S -> $1.a() S $1.b() S | ε;"),
        ("single-nest", "S -> $1.a() S $1.b() | ε;"),
        ("canvas", "S -> ε | $1.a() S $1.b() S | $1.a() S;"),
        (
            "two-dycks",
            "S -> $1.a() S $1.b() S | $1.c() S $1.d() S | ε;",
        ),
        (
            "open-close",
            "S -> S1 | ε; S1 -> A | $1.a() S1 $1.a(); A -> $1.b() | A $1.b();",
        ),
        (
            "regular-ab",
            "S -> $1.a() S | $1.b() T | ε; T -> $1.b() T | ε;",
        ),
        ("json-like", "S -> $1.c() | $1.a() V $1.b(); V -> ε | S V;"),
        (
            "wakelock-like",
            "S -> R | $1.c() N; N -> ε | M $1.b(); \
             M -> $1.a() M $1.b() M | $1.a() M | $1.a(); R -> $1.a() R $1.b() R | ε;",
        ),
    ]
    .into_iter()
    .map(|(name, text)| (name, grammar(text)))
    .collect()
}

/// A random right-hand side over `g`'s symbols (length 0..=3).
fn random_rhs(rng: &mut Rng, g: &Grammar) -> Vec<Sym> {
    let len = rng.range(0, 3);
    (0..len)
        .map(|_| {
            if g.terminals.is_empty() || (rng.chance(40) && !g.nonterminals.is_empty()) {
                Sym::N(NontermId(rng.range(0, g.nonterminals.len() - 1) as u32))
            } else {
                Sym::T(TermId(rng.range(0, g.terminals.len() - 1) as u32))
            }
        })
        .collect()
}

/// Mutate a spec: drop a production, add a random one, or replace a terminal.
fn mutate(rng: &mut Rng, g: &Grammar) -> Grammar {
    let mut m = g.clone();
    match rng.range(0, 3) {
        0 => {}
        1 if m.productions.len() > 1 => {
            let i = rng.range(0, m.productions.len() - 1);
            m.productions.remove(i);
        }
        2 => {
            let lhs = NontermId(rng.range(0, m.nonterminals.len() - 1) as u32);
            let rhs = random_rhs(rng, &m);
            m.add(lhs, rhs);
        }
        _ => {
            let i = rng.range(0, m.productions.len() - 1);
            let n = m.terminals.len();
            if let Some(s) = m.productions[i]
                .rhs
                .iter_mut()
                .find(|s| matches!(s, Sym::T(_)))
            {
                *s = Sym::T(TermId(rng.range(0, n - 1) as u32));
            }
        }
    }
    m
}

/// A sub-grammar: each production kept with probability 70% (L only shrinks).
fn sub_grammar(rng: &mut Rng, g: &Grammar) -> Grammar {
    let mut m = g.clone();
    m.productions.retain(|_| rng.chance(70));
    m
}

/// One (G, S) pair and a label for messages.
fn pair(case: u64, specs: &[(&'static str, Grammar)]) -> (String, Grammar, Grammar) {
    let mut rng = Rng::new(case ^ 0xD1FF_E4E7);
    let small = RandomShape {
        min_terminals: 2,
        max_terminals: 3,
        max_nonterminals: 4,
        max_productions: 3,
        max_rhs: 4,
        ..RandomShape::default()
    };
    let (name, spec) = &specs[rng.range(0, specs.len() - 1)];
    match case % 4 {
        0 => (
            format!("case {case}: random G, random S"),
            random_grammar(case.wrapping_mul(2), small),
            random_grammar(case.wrapping_mul(2) + 1, small),
        ),
        1 => (
            format!("case {case}: random G, mutated {name}"),
            random_grammar(case, small),
            mutate(&mut rng, spec),
        ),
        2 => (
            format!("case {case}: sub-grammar of {name}"),
            sub_grammar(&mut rng, spec),
            spec.clone(),
        ),
        _ => {
            let mut g = sub_grammar(&mut rng, spec);
            let lhs = NontermId(rng.range(0, g.nonterminals.len() - 1) as u32);
            let rhs = random_rhs(&mut rng, &g);
            g.add(lhs, rhs);
            (
                format!("case {case}: sub-grammar of {name} + 1"),
                g,
                spec.clone(),
            )
        }
    }
}

/// Membership in L(S) by word names: set lookup where S's enumeration is complete,
/// Earley otherwise.
struct SpecOracle<'a> {
    s: &'a Grammar,
    words: HashSet<Vec<String>>,
    complete_below: usize,
}

impl<'a> SpecOracle<'a> {
    fn new(s: &'a Grammar) -> SpecOracle<'a> {
        let e = enumerate(s, S_MAX_LEN, S_WORD_LIMIT);
        let complete_below = if e.truncated {
            e.complete_below
        } else {
            S_MAX_LEN + 1
        };
        let words = e
            .words
            .iter()
            .map(|w| w.iter().map(|t| s.terminal_name(*t).to_string()).collect())
            .collect();
        SpecOracle {
            s,
            words,
            complete_below,
        }
    }

    fn contains(&self, names: &[&str]) -> bool {
        if names.len() < self.complete_below {
            let key: Vec<String> = names.iter().map(|n| n.to_string()).collect();
            self.words.contains(&key)
        } else {
            earley::word_in(self.s, names)
        }
    }
}

/// Outcome counters.
#[derive(Default, Debug)]
struct Tally {
    included: u64,
    not_included: u64,
    unknown: u64,
    /// Included answers whose enumeration covered every word up to MAX_LEN.
    included_fully_enumerated: u64,
    /// Not-included answers whose minimality the oracle could confirm.
    shortest_confirmed: u64,
    longest_cex: usize,
}

fn names<'g>(g: &'g Grammar, w: &[TermId]) -> Vec<&'g str> {
    w.iter().map(|t| g.terminal_name(*t)).collect()
}

/// Check one answer; `Err` describes a wrong answer.
fn verify(g: &Grammar, s: &Grammar, r: &InclusionResult, tally: &mut Tally) -> Result<(), String> {
    let spec = SpecOracle::new(s);
    let e = enumerate(g, MAX_LEN, G_WORD_LIMIT);
    let g_complete_below = if e.truncated {
        e.complete_below
    } else {
        MAX_LEN + 1
    };
    // The oracle's shortest counterexample (words are sorted by length).
    let shortest = e.words.iter().find(|w| !spec.contains(&names(g, w)));
    match r {
        InclusionResult::NotIncluded(cex) => {
            tally.not_included += 1;
            tally.longest_cex = tally.longest_cex.max(cex.word.len());
            let word_names = names(g, &cex.word);
            if cex.word_names != word_names {
                return Err(format!(
                    "word_names {:?} do not spell {word_names:?}",
                    cex.word_names
                ));
            }
            if !earley::recognizes(g, &cex.word) {
                return Err(format!("{word_names:?} is not in L(G)"));
            }
            if earley::word_in(s, &word_names) {
                return Err(format!("{word_names:?} is in L(S)"));
            }
            if !earley::is_derivation_of(g, &cex.derivation, g.start)
                || cex.derivation.word() != cex.word
            {
                return Err(format!("bad derivation for {word_names:?}"));
            }
            // Every word shorter than g_complete_below was enumerated.
            match shortest {
                Some(w) if w.len() < g_complete_below => {
                    if w.len() != cex.word.len() {
                        return Err(format!(
                            "counterexample {word_names:?} has length {}, the shortest has {} ({:?})",
                            cex.word.len(),
                            w.len(),
                            names(g, w)
                        ));
                    }
                    tally.shortest_confirmed += 1;
                }
                _ if cex.word.len() < g_complete_below => {
                    return Err(format!(
                        "enumeration misses counterexample {word_names:?} (oracle: {:?})",
                        shortest.map(|w| names(g, w))
                    ));
                }
                _ => {}
            }
        }
        InclusionResult::Included(cert) => {
            tally.included += 1;
            recheck_certificate(g, s, cert).map_err(|e| format!("certificate rejected: {e}"))?;
            if let Some(w) = shortest {
                return Err(format!(
                    "included, but {:?} is in G and not in S",
                    names(g, w)
                ));
            }
            if g_complete_below > MAX_LEN {
                tally.included_fully_enumerated += 1;
            }
        }
        InclusionResult::Unknown(_) => tally.unknown += 1,
    }
    Ok(())
}

#[test]
fn engine_agrees_with_enumeration_on_random_pairs() {
    let n = cases();
    let specs = fixed_specs();
    let opts = InclusionOptions {
        max_steps: 200_000,
        ..InclusionOptions::default()
    };
    let profile = std::env::var_os("CFP_DIFF_PROFILE").is_some();
    let started = Instant::now();
    let mut tally = Tally::default();
    let (mut engine_total, mut oracle_total) = (0.0, 0.0);
    let mut wrong = Vec::new();
    let mut unknowns = Vec::new();
    for case in 0..n {
        let (label, g, s) = pair(case, &specs);
        let t0 = Instant::now();
        let r = check_inclusion(&g, &s, &opts, &mut |_| ControlFlow::Continue(()));
        let engine_s = t0.elapsed().as_secs_f64();
        if let InclusionResult::Unknown(reason) = &r {
            if unknowns.len() < 10 {
                unknowns.push(format!("{label}: {reason}\nG:\n{g}S:\n{s}"));
            }
        }
        if let Err(e) = verify(&g, &s, &r, &mut tally) {
            wrong.push(format!("{label}: {e}\nG:\n{g}S:\n{s}"));
        }
        let oracle_s = t0.elapsed().as_secs_f64() - engine_s;
        engine_total += engine_s;
        oracle_total += oracle_s;
        if profile && engine_s + oracle_s > 0.05 {
            eprintln!("slow {label}: engine {engine_s:.3}s oracle {oracle_s:.3}s");
        }
    }
    let unknown_rate = tally.unknown as f64 / n.max(1) as f64;
    eprintln!(
        "differential: {n} pairs in {:.1}s (engine {engine_total:.1}s, oracle {oracle_total:.1}s): {} included ({} fully enumerated to length {MAX_LEN}), \
         {} not included ({} shortest confirmed, longest {}), {} unknown ({:.2}%), {} wrong",
        started.elapsed().as_secs_f64(),
        tally.included,
        tally.included_fully_enumerated,
        tally.not_included,
        tally.shortest_confirmed,
        tally.longest_cex,
        tally.unknown,
        unknown_rate * 100.0,
        wrong.len()
    );
    for u in &unknowns {
        eprintln!("unknown: {u}");
    }
    assert!(
        wrong.is_empty(),
        "{} wrong answers:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert!(
        unknown_rate <= 0.05,
        "{:.2}% unknown answers (more than 5%)",
        unknown_rate * 100.0
    );
    // The families must exercise both answers.
    assert!(
        tally.included >= n / 10 && tally.not_included >= n / 10,
        "{tally:?}"
    );
}
