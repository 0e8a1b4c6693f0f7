//! The inclusion engine's public face: decide L(G) ⊆ L(S) (ARCHITECTURE.md).
//!
//! Answers are sound: `Included` comes with a [`Certificate`] that
//! [`recheck_certificate`] verifies independently; `NotIncluded` comes with a word of
//! L(G) \ L(S) — confirmed by an exact Earley parse of S — and its derivation over G's own
//! productions; anything else is `Unknown` with the reason.
//!
//! The layers (ARCHITECTURE.md "Inclusion engine"):
//!
//! * **Layer 0** — clean G (unproductive, then unreachable; [`crate::clean::clean`]); an
//!   empty L(G) is included. A terminal of cleaned G that cleaned S lacks refutes inclusion:
//!   the shortest word through one ([`crate::shortest`], Knuth 1977) is the counterexample.
//! * **Layer 2** — when S has exactly two live terminals and L(S) ⊆ C for C the Dyck language
//!   D(o,c) or its prefix language P(o,c) (exact counter test on S) *and* C ⊆ L(S) (a layer-3
//!   proof with C's canonical grammar as left side), L(S) = C and the counter test on G
//!   ([`crate::counter`]) decides inclusion exactly; a proof is certified by G's counter
//!   bounds (a post-fixpoint) plus the layer-3 certificate of C ⊆ L(S). A refutation is
//!   exact but still needs its shortest word: layer 3 finds it.
//! * **Layer 3** — effects on the spec's Greibach machine, saturated shortest-first with a
//!   stack bound K and iterative deepening ([`crate::effects`]). Every rejecting word is
//!   confirmed by Earley on S ([`crate::earley::recognizes`]) before it is reported.

use crate::budget::Budget;
pub use crate::budget::{Progress, UnknownReason};
use crate::cfg::{Derivation, Grammar, NontermId, Sym, TermId};
use crate::counter::{counter_values, Bound, CounterKind, CounterValues};
use crate::effects::{EffectsCertificate, Machine, NonterminalEffects, SatOutcome, Saturation};
use serde::Serialize;
use std::ops::ControlFlow;

/// Limits of one inclusion check. Time limits and cancellation are the host's business:
/// it sees every [`Progress`] report and may answer `ControlFlow::Break`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InclusionOptions {
    /// Maximum saturation steps (items and nodes processed) before `Unknown`.
    pub max_steps: u64,
    /// Largest stack bound K tried by iterative deepening before `Unknown`.
    pub max_bound: u32,
    /// Report progress every this many steps.
    pub progress_every: u64,
    /// Steps layer 3 may spend on the shortest counterexample once layer 2 has refuted
    /// inclusion exactly; past them a counter witness (a rejecting word, not necessarily
    /// shortest) is searched with the rest of the budget.
    pub shortest_after_refutation: u64,
}

impl Default for InclusionOptions {
    fn default() -> Self {
        InclusionOptions {
            max_steps: 5_000_000,
            max_bound: 64,
            progress_every: 10_000,
            shortest_after_refutation: 1_000_000,
        }
    }
}

/// The answer of an inclusion check.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "result", rename_all = "kebab-case")]
pub enum InclusionResult {
    /// L(G) ⊆ L(S), with a certificate of why.
    Included(Certificate),
    /// A word of L(G) that is not in L(S).
    NotIncluded(Counterexample),
    /// Neither could be established within the budget.
    Unknown(UnknownReason),
}

/// A word in L(G) \ L(S).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Counterexample {
    /// The word, as terminals of G.
    pub word: Vec<TermId>,
    /// The word, spelled as in the spec syntax (`$1.lock()`).
    pub word_names: Vec<String>,
    /// A derivation of the word over G's own productions (rooted at G's start symbol).
    pub derivation: Derivation,
}

/// What was proved, in a form [`recheck_certificate`] can verify without trusting the
/// engine that produced it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Certificate {
    /// Which layer proved it and its evidence.
    pub proof: Proof,
}

/// The evidence of an inclusion proof.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Proof {
    /// L(G) is empty (after cleaning, the start symbol is unproductive).
    EmptyLanguage,
    /// Layer 2: L(G) ⊆ C by G's counter bounds and C ⊆ L(S) by a layer-3 certificate.
    Counter(CounterCertificate),
    /// Layer 3: an inductive invariant of effect relations on the spec's machine.
    Effects(EffectsCertificate),
}

/// Evidence of a layer-2 proof (ARCHITECTURE.md, layer 2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CounterCertificate {
    /// The opening terminal (weight +1), by name.
    pub open: String,
    /// The closing terminal (weight −1), by name; every other terminal has no weight.
    pub close: String,
    /// The counter language C.
    pub language: CounterKind,
    /// Claimed bounds per live nonterminal of G: a post-fixpoint of the counter equations
    /// (`min_bal`, `min_prefix` lower bounds, `max_bal` upper bound).
    pub values: Vec<NonterminalCounter>,
    /// C ⊆ L(S): a layer-3 certificate with C's canonical grammar
    /// ([`CounterKind::canonical`]) as the left side.
    pub spec_covers: EffectsCertificate,
}

/// The counter bounds of one nonterminal of G.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NonterminalCounter {
    /// The nonterminal.
    pub nonterminal: NontermId,
    /// Its bounds.
    pub values: CounterValues,
}

/// Why a certificate does not verify.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CertificateError {
    /// The certificate does not prove what it claims; the message says where it fails.
    #[error("certificate does not verify: {0}")]
    Invalid(String),
}

/// Live productions of G (original ids) from a cleaning.
pub(crate) fn live_productions(g: &Grammar, cleaned: &crate::clean::Cleaned) -> Vec<bool> {
    let mut live = vec![false; g.productions.len()];
    if !cleaned.empty {
        for p in &cleaned.prod_map {
            if let Some(x) = live.get_mut(p.index()) {
                *x = true;
            }
        }
    }
    live
}

/// Terminal names occurring in live productions.
fn live_terminals(g: &Grammar, live: &[bool]) -> Vec<bool> {
    let mut used = vec![false; g.terminals.len()];
    for (p, l) in g.productions.iter().zip(live) {
        if *l {
            for s in &p.rhs {
                if let Sym::T(t) = s {
                    if let Some(u) = used.get_mut(t.index()) {
                        *u = true;
                    }
                }
            }
        }
    }
    used
}

/// Build a counterexample from a derivation over G after checking it: it must be a
/// derivation of G from the start symbol, and its word must not be in L(S) (exact Earley
/// parse of S; terminals mapped by name).
fn confirm(g: &Grammar, s: &Grammar, d: Derivation) -> Result<Option<Counterexample>, String> {
    if !crate::earley::is_derivation_of(g, &d, g.start) {
        return Err("the counterexample's tree is not a derivation of G".into());
    }
    let word = d.word();
    let word_names: Vec<String> = word
        .iter()
        .map(|t| g.terminal_name(*t).to_string())
        .collect();
    let refs: Vec<&str> = word_names.iter().map(String::as_str).collect();
    if crate::earley::word_in(s, &refs) {
        return Ok(None);
    }
    Ok(Some(Counterexample {
        word,
        word_names,
        derivation: d,
    }))
}

/// Layer 2's recognition of the spec: `(open, close, C, certificate of C ⊆ L(S))` when
/// L(S) = C is established (L(S) ⊆ C by the counter test on S, C ⊆ L(S) by layer 3).
fn counter_shape(
    s: &Grammar,
    s_live: &[bool],
    machine: &Machine,
    budget: &mut Budget<'_>,
) -> Result<Option<(String, String, CounterKind, EffectsCertificate)>, UnknownReason> {
    let used = live_terminals(s, s_live);
    let terms: Vec<usize> = (0..s.terminals.len()).filter(|&t| used[t]).collect();
    let [a, b] = terms[..] else {
        return Ok(None);
    };
    for (o, c) in [(a, b), (b, a)] {
        let mut w = vec![None; s.terminals.len()];
        w[o] = Some(1);
        w[c] = Some(-1);
        let Some((vals, work)) = counter_values(s, s_live, &w) else {
            continue;
        };
        budget.tick(work)?;
        let Some(v) = vals.get(s.start.index()) else {
            continue;
        };
        let kind = if CounterKind::Dyck.holds(v) {
            CounterKind::Dyck
        } else if CounterKind::Prefix.holds(v) {
            CounterKind::Prefix
        } else {
            continue;
        };
        let (open, close) = (s.terminals[o].clone(), s.terminals[c].clone());
        let canon = kind.canonical(&open, &close);
        let live = vec![true; canon.productions.len()];
        // A small sub-budget: failing to prove C ⊆ L(S) only loses the fast path.
        let saved_cap = budget.cap;
        budget.cap = budget.steps.saturating_add(200_000);
        let mut result = None;
        for k in [4usize, 8, 16] {
            let mut sat = Saturation::new(&canon, &live, machine, k);
            match sat.run(budget) {
                SatOutcome::Proved(anti) => {
                    result = Some(effects_certificate(&canon, &live, machine, k, anti));
                    break;
                }
                SatOutcome::Rejected(_) => continue,
                SatOutcome::Stopped(UnknownReason::StepBudget { .. })
                    if budget.steps <= budget.max_steps =>
                {
                    break
                }
                SatOutcome::Stopped(r) => {
                    budget.cap = saved_cap;
                    return Err(r);
                }
            }
        }
        budget.cap = saved_cap;
        if let Some(cert) = result {
            return Ok(Some((open, close, kind, cert)));
        }
    }
    Ok(None)
}

/// Package the antichains of a saturation as a certificate (live nonterminals only).
fn effects_certificate(
    g: &Grammar,
    live: &[bool],
    machine: &Machine,
    k: usize,
    anti: Vec<Vec<crate::effects::Relation>>,
) -> EffectsCertificate {
    let mut live_nt = vec![false; g.nonterminals.len()];
    for (p, l) in g.productions.iter().zip(live) {
        if *l {
            if let Some(x) = live_nt.get_mut(p.lhs.index()) {
                *x = true;
            }
        }
    }
    let effects = anti
        .into_iter()
        .enumerate()
        .filter(|(i, _)| live_nt[*i])
        .map(|(i, relations)| NonterminalEffects {
            nonterminal: NontermId(i as u32),
            relations,
        })
        .collect();
    EffectsCertificate {
        bound: k as u32,
        machine: machine.clone(),
        effects,
    }
}

/// Decide L(G) ⊆ L(S) within `opts`, reporting progress to `progress` (ARCHITECTURE.md).
///
/// `Included` only with a certificate that [`recheck_certificate`] accepts; `NotIncluded`
/// only with a word whose derivation over G was checked and which an exact Earley parse of
/// S rejects; the counterexample is a shortest one (layer 0: shortest through a foreign
/// terminal; layer 3: shortest rejecting word). Deterministic: same input, same answer.
pub fn check_inclusion(
    g: &Grammar,
    s: &Grammar,
    opts: &InclusionOptions,
    progress: &mut dyn FnMut(&Progress) -> ControlFlow<()>,
) -> InclusionResult {
    let mut budget = Budget::new(opts.max_steps, opts.progress_every, progress);
    let result = match run(g, s, opts, &mut budget, true) {
        Ok(r) => r,
        Err(reason) => InclusionResult::Unknown(reason),
    };
    // A last report with the final count, so hosts can account every check's steps
    // (its answer is ignored: the check is over).
    let last = Progress {
        phase: "done",
        steps: budget.steps,
        bound: budget.bound,
    };
    let _ = (budget.callback)(&last);
    result
}

/// A shortest word of L(G) with its derivation over G's productions (a witness that L(G)
/// is not empty), or `None` when L(G) is empty.
pub fn shortest_word(g: &Grammar) -> Option<Counterexample> {
    let derivation = crate::shortest::shortest_word(g)?;
    let word = derivation.word();
    let word_names = word
        .iter()
        .map(|t| g.terminal_name(*t).to_string())
        .collect();
    Some(Counterexample {
        word,
        word_names,
        derivation,
    })
}

fn run(
    g: &Grammar,
    s: &Grammar,
    opts: &InclusionOptions,
    budget: &mut Budget<'_>,
    use_counter: bool,
) -> Result<InclusionResult, UnknownReason> {
    // Layer 0.
    budget.phase = "clean";
    let cg = crate::clean::clean(g);
    budget.tick(g.productions.len() as u64 + 1)?;
    if cg.empty {
        return Ok(InclusionResult::Included(Certificate {
            proof: Proof::EmptyLanguage,
        }));
    }
    let live = live_productions(g, &cg);
    let cs = crate::clean::clean(s);
    let s_live = live_productions(s, &cs);
    let s_used = live_terminals(s, &s_live);
    let g_used = live_terminals(g, &live);
    let foreign: Vec<bool> = g
        .terminals
        .iter()
        .enumerate()
        .map(|(t, name)| {
            g_used[t]
                && !s
                    .find_terminal(name)
                    .is_some_and(|u| s_used.get(u.index()).copied().unwrap_or(false))
        })
        .collect();
    // A live terminal that S lacks refutes inclusion: the shortest word through one is a
    // counterexample. Shorter counterexamples may exist (ε, or words over S's alphabet), so
    // layer 3 below still looks for the overall shortest, with this word as the fallback.
    let mut fallback: Option<Counterexample> = None;
    if foreign.iter().any(|&f| f) {
        match crate::shortest::shortest_through(g, &live, &foreign, opts.max_steps) {
            Ok(Some(d)) => match confirm(g, s, d) {
                Ok(Some(cex)) => fallback = Some(cex),
                Ok(None) => {
                    return Err(UnknownReason::Internal {
                        detail: "a word through a foreign terminal was accepted by S".into(),
                    })
                }
                Err(e) => return Err(UnknownReason::Internal { detail: e }),
            },
            Ok(None) => {
                return Err(UnknownReason::Internal {
                    detail: "a live foreign terminal has no word through it".into(),
                })
            }
            Err(length) => return Err(UnknownReason::CounterexampleTooLong { length }),
        }
    }
    match layers_2_3(
        g,
        s,
        opts,
        budget,
        use_counter && fallback.is_none(),
        &live,
        &s_live,
    ) {
        Ok(InclusionResult::NotIncluded(c)) => Ok(InclusionResult::NotIncluded(c)),
        Ok(InclusionResult::Included(_)) if fallback.is_some() => Err(UnknownReason::Internal {
            detail: "layer 3 proved inclusion despite a foreign terminal".into(),
        }),
        other => match fallback {
            Some(c) => Ok(InclusionResult::NotIncluded(c)),
            None => other,
        },
    }
}

/// Layers 2 and 3 on the cleaned program grammar (`live`) and spec (`s_live`).
fn layers_2_3(
    g: &Grammar,
    s: &Grammar,
    opts: &InclusionOptions,
    budget: &mut Budget<'_>,
    use_counter: bool,
    live: &[bool],
    s_live: &[bool],
) -> Result<InclusionResult, UnknownReason> {
    // The spec's machine (layers 2 and 3 both need it).
    budget.phase = "normal-form";
    let machine = Machine::of_spec(s).map_err(|detail| UnknownReason::SpecNormalForm { detail })?;
    budget.tick(machine.grammar.productions.len() as u64 + 1)?;

    // Layer 2.
    budget.phase = "counter";
    let mut k0 = 4usize;
    // Layer 2's exact refutation: the weights and the counter language it failed.
    let mut refuted_exactly: Option<(Vec<Option<i64>>, CounterKind)> = None;
    let shape = if use_counter {
        counter_shape(s, s_live, &machine, budget)?
    } else {
        None
    };
    if let Some((open, close, kind, spec_covers)) = shape {
        let weight: Vec<Option<i64>> = g
            .terminals
            .iter()
            .map(|n| {
                if *n == open {
                    Some(1)
                } else if *n == close {
                    Some(-1)
                } else {
                    None
                }
            })
            .collect();
        if let Some((vals, work)) = counter_values(g, live, &weight) {
            budget.tick(work)?;
            let start = vals[g.start.index()];
            if kind.holds(&start) {
                let mut live_nt = vec![false; g.nonterminals.len()];
                for (p, l) in g.productions.iter().zip(live) {
                    if *l {
                        live_nt[p.lhs.index()] = true;
                    }
                }
                let values = vals
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| live_nt[*i])
                    .map(|(i, v)| NonterminalCounter {
                        nonterminal: NontermId(i as u32),
                        values: *v,
                    })
                    .collect();
                let certificate = Certificate {
                    proof: Proof::Counter(CounterCertificate {
                        open,
                        close,
                        language: kind,
                        values,
                        spec_covers,
                    }),
                };
                // A proof is re-checked before it is given (one pass over G): the
                // verifier's "verified" must not rest on the solver's reasoning alone.
                budget.tick(g.productions.len() as u64)?;
                if let Err(e) = recheck_certificate(g, s, &certificate) {
                    return Err(UnknownReason::Internal {
                        detail: format!("the counter proof does not recheck: {e}"),
                    });
                }
                return Ok(InclusionResult::Included(certificate));
            }
            refuted_exactly = Some((weight.clone(), kind));
            let mag = |b: Bound| match b {
                Bound::Fin(x) => Some(x.unsigned_abs()),
                _ => None,
            };
            if let (Some(a), Some(b)) = (mag(start.min_prefix), mag(start.max_bal)) {
                k0 = usize::try_from(a.max(b).saturating_add(2)).unwrap_or(usize::MAX);
            }
        }
    }

    // Layer 3 with iterative deepening. After an exact refutation it looks for the
    // shortest word within a share of the budget, then the counter witness is tried, and
    // when it finds none layer 3 goes on with the rest of the budget.
    budget.phase = "effects";
    let saved_cap = budget.cap;
    let mut witness_pending = refuted_exactly.is_some();
    if witness_pending {
        budget.cap = budget.steps.saturating_add(opts.shortest_after_refutation);
    }
    let max_k = (opts.max_bound as usize).max(1);
    let mut k = k0.clamp(1, max_k);
    loop {
        budget.bound = k as u32;
        let mut sat = Saturation::new(g, live, &machine, k);
        let outcome = sat.run(budget);
        if let (SatOutcome::Stopped(UnknownReason::StepBudget { .. }), Some((weight, kind))) =
            (&outcome, &refuted_exactly)
        {
            if witness_pending && budget.steps <= budget.max_steps {
                witness_pending = false;
                budget.cap = saved_cap;
                if let Some(r) = refutation_witness(g, s, live, weight, *kind, budget)? {
                    return Ok(r);
                }
                budget.phase = "effects";
                continue;
            }
        }
        match outcome {
            SatOutcome::Proved(anti) => {
                if refuted_exactly.is_some() {
                    return Err(UnknownReason::Internal {
                        detail: "layer 2 refuted inclusion exactly but layer 3 proved it".into(),
                    });
                }
                return Ok(InclusionResult::Included(Certificate {
                    proof: Proof::Effects(effects_certificate(g, live, &machine, k, anti)),
                }));
            }
            SatOutcome::Rejected(d) => {
                budget.phase = "confirm";
                let word_len = d.word().len();
                match confirm(g, s, d) {
                    Ok(Some(cex)) => return Ok(InclusionResult::NotIncluded(cex)),
                    Ok(None) => {
                        if k >= max_k {
                            return Err(UnknownReason::BoundExhausted {
                                bound: k as u32,
                                detail: format!(
                                    "a word of length {word_len} of L(G) is in L(S) but its \
                                     effect bounded by {k} rejects"
                                ),
                            });
                        }
                        k = k.saturating_mul(2).min(max_k);
                        budget.phase = "effects";
                    }
                    Err(e) => return Err(UnknownReason::Internal { detail: e }),
                }
            }
            SatOutcome::Stopped(r) => return Err(r),
        }
    }
}

/// A counterexample from layer 2's exact refutation ([`crate::counter::counter_witness`]),
/// confirmed like every other; `None` when the search found no word it could confirm
/// (outside its window, or too long).
fn refutation_witness(
    g: &Grammar,
    s: &Grammar,
    live: &[bool],
    weight: &[Option<i64>],
    kind: CounterKind,
    budget: &mut Budget<'_>,
) -> Result<Option<InclusionResult>, UnknownReason> {
    budget.phase = "counter-witness";
    let Some(d) = crate::counter::counter_witness(g, live, weight, kind, budget)? else {
        return Ok(None);
    };
    // The confirmation parses the word with Earley: words of program grammars' witnesses
    // are short; a long one is not worth its parse.
    if d.word().len() > crate::counter::MAX_WITNESS_WORD {
        return Ok(None);
    }
    budget.phase = "confirm";
    match confirm(g, s, d) {
        Ok(Some(cex)) => Ok(Some(InclusionResult::NotIncluded(cex))),
        Ok(None) => Err(UnknownReason::Internal {
            detail: "the counter witness is a word of the spec".into(),
        }),
        Err(e) => Err(UnknownReason::Internal { detail: e }),
    }
}

/// Verify a certificate for L(G) ⊆ L(S) independently of the engine: recompute nothing
/// the engine searched for, only check the certificate's invariants (post-fixpoint of the
/// counter equations; inductive invariant of effect relations; the machine is the GNF of
/// S as built by [`crate::normal::greibach`]).
pub fn recheck_certificate(
    g: &Grammar,
    s: &Grammar,
    cert: &Certificate,
) -> Result<(), CertificateError> {
    let bad = CertificateError::Invalid;
    match &cert.proof {
        Proof::EmptyLanguage => {
            if crate::clean::productive(g)
                .get(g.start.index())
                .copied()
                .unwrap_or(false)
            {
                return Err(bad("L(G) is not empty".into()));
            }
            Ok(())
        }
        Proof::Effects(ec) => {
            check_machine(s, &ec.machine)?;
            crate::effects::check_invariant(g, ec).map_err(bad)
        }
        Proof::Counter(cc) => {
            if cc.open == cc.close {
                return Err(bad("open and close are the same terminal".into()));
            }
            // C ⊆ L(S).
            check_machine(s, &cc.spec_covers.machine)?;
            let canon = cc.language.canonical(&cc.open, &cc.close);
            crate::effects::check_invariant(&canon, &cc.spec_covers)
                .map_err(|e| bad(format!("C ⊆ L(S): {e}")))?;
            // L(G) ⊆ C.
            let weight: Vec<Option<i64>> = g
                .terminals
                .iter()
                .map(|n| {
                    if *n == cc.open {
                        Some(1)
                    } else if *n == cc.close {
                        Some(-1)
                    } else {
                        None
                    }
                })
                .collect();
            let mut claims: Vec<Option<CounterValues>> = vec![None; g.nonterminals.len()];
            for nc in &cc.values {
                match claims.get_mut(nc.nonterminal.index()) {
                    Some(slot @ None) => *slot = Some(nc.values),
                    _ => return Err(bad("bad or duplicate nonterminal claim".into())),
                }
            }
            crate::counter::check_post_fixpoint(g, &weight, &claims).map_err(bad)?;
            let productive = crate::clean::productive(g);
            if !productive.get(g.start.index()).copied().unwrap_or(false) {
                return Ok(());
            }
            match claims.get(g.start.index()).copied().flatten() {
                Some(v) if cc.language.holds(&v) => Ok(()),
                Some(_) => Err(bad("the start symbol's bounds fail the counter test".into())),
                None => Err(bad("no claim for the start symbol".into())),
            }
        }
    }
}

/// The certificate's machine must be exactly the GNF of S.
fn check_machine(s: &Grammar, m: &Machine) -> Result<(), CertificateError> {
    let fresh = Machine::of_spec(s).map_err(CertificateError::Invalid)?;
    if &fresh != m {
        return Err(CertificateError::Invalid(
            "the machine is not the Greibach form of S".into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
