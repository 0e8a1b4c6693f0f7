//! Several spurious counterexamples per iteration.
//!
//! One ConstructCFG and one inclusion check per refined path made the iterations of a
//! program grow with its methods: every method with a lock of its own needs its own
//! refinement, and each came from a new grammar. After the first counterexample of an
//! iteration is refined, the **batch** asks the same grammar for more: the call
//! productions into the methods that refinement changed are cut (their right-hand side
//! becomes an unproductive nonterminal), and the inclusion check of the cut grammar
//! yields a counterexample through *other* methods; it is refined in the same round, its
//! methods are cut in turn, and so on, up to
//! [`CheckOptions::counterexamples_per_iteration`] paths.
//!
//! Soundness does not depend on the batch: the cut grammar's language is a subset of the
//! iteration's, so every word it yields is a counterexample of the current abstraction
//! (its path is checked for feasibility like any other; a feasible one is a real
//! violation), and only the inclusion check of a whole, uncut grammar ever answers
//! `verified`. The batch ends early when the cut grammar is included in the spec, when a
//! path was already seen or is already gone from the refined abstraction, when its
//! feasibility is unknown, or when its refinement changed no method that was not cut
//! (the root method is never cut: that would cut everything).

use super::{Checker, RuledOut};
use crate::construct_cfg::{NtInfo, ProgramGrammar};
use crate::encode::Encoder;
use crate::feasibility::{check_feasibility, Feasibility, Values};
use crate::ir::MethodId;
use crate::nested_path::derivation_to_path;
use crate::pcfa::Pcfas;
use crate::refinement::{progress, refine_path, PathRefinement};
use cfp_grammar::{Grammar, InclusionResult, Sym};
use cfp_smt::Solver;
use std::collections::BTreeSet;
use std::ops::ControlFlow;

/// Inclusion steps allowed per production of the program grammar, when that is more than
/// the configured budget.
const INCLUSION_STEPS_PER_PRODUCTION: u64 = 50;

/// A feasible path met by the batch: a real violation.
pub(super) struct FoundViolation {
    pub word: Vec<String>,
    pub derivation: super::DerivationNode,
    pub trace: Vec<super::TraceLine>,
    pub values: Values,
    pub replay: Vec<super::ReplayEdge>,
    /// Its concrete run.
    pub concrete: Result<crate::interp::Run, String>,
}

/// What the batch did after the iteration's first counterexample.
#[derive(Default)]
pub(super) struct BatchOutcome {
    /// The further paths refined away, each with its refinement.
    pub refuted: Vec<(RuledOut, PathRefinement)>,
    /// A feasible path (the run ends with a violation).
    pub violation: Option<FoundViolation>,
}

/// The methods a refinement changed (predicates, clones, removed edges).
pub(super) fn touched_methods(r: &PathRefinement) -> BTreeSet<MethodId> {
    let mut out: BTreeSet<MethodId> = r.psi.keys().map(|(m, _)| *m).collect();
    out.extend(r.outcome.clones_added.iter().map(|(m, _)| *m));
    out.extend(r.outcome.edges_removed.iter().map(|(m, _)| *m));
    out.extend(r.outcome.states_removed.iter().map(|(m, _)| *m));
    out
}

/// Cut every production that calls one of `methods`: its right-hand side becomes `dead`.
fn cut_calls(g: &mut Grammar, pg: &ProgramGrammar, methods: &BTreeSet<MethodId>, dead: Sym) {
    for p in &mut g.productions {
        let calls_cut = p.rhs.iter().any(|s| match s {
            Sym::N(n) => matches!(
                pg.nt_info(*n),
                Some(NtInfo::Method { method, .. }) if methods.contains(&method)
            ),
            Sym::T(_) => false,
        });
        if calls_cut {
            p.rhs = vec![dead];
        }
    }
}

impl<S: Solver> Checker<S> {
    /// The batch of this iteration (see the module doc). `snapshot` is the abstraction
    /// `pg` was built from; `first` the methods the first refinement changed.
    pub(super) async fn batch(
        &mut self,
        pg: &ProgramGrammar,
        snapshot: &Pcfas,
        first: BTreeSet<MethodId>,
    ) -> Result<BatchOutcome, super::Stop> {
        let mut out = BatchOutcome::default();
        let limit = self.opts.counterexamples_per_iteration;
        let root = self.program.root;
        let mut cut: BTreeSet<MethodId> = first;
        cut.remove(&root);
        if limit <= 1 || cut.is_empty() {
            return Ok(out);
        }
        let mut g = pg.grammar.clone();
        let dead = Sym::N(g.nonterminal("<refined in this iteration>"));
        cut_calls(&mut g, pg, &cut, dead);
        let it = self.iteration;
        for _ in 1..limit {
            let Some(cex) = self.quiet_inclusion(&g) else {
                break;
            };
            let Ok(nt) = derivation_to_path(&self.program, snapshot, pg, &cex.derivation) else {
                break;
            };
            let word = cex.word_names.clone();
            let replay = Self::replay_edges(&nt.path_steps());
            if self.seen.contains(&(word.clone(), replay.clone())) {
                break;
            }
            let frontier = format!("counterexample [{}]", word.join(" "));
            let enc = Encoder::with_tables(&self.program, self.tables.clone());
            // Gone already (a refinement of this batch removed it): then it was
            // infeasible, and nothing is left to learn from it here.
            if !progress::still_admitted(&mut self.session, &enc, &self.pcfas, &nt)
                .await
                .map_err(|e| super::Stop::solver(e, &frontier))?
            {
                break;
            }
            let (encoded, feas) =
                match check_feasibility(&mut self.session, &enc, &nt.to_trace()).await {
                    Ok(r) => r,
                    Err(crate::feasibility::FeasibilityError::Solver(e)) => {
                        return Err(super::Stop::solver(e, &frontier))
                    }
                    Err(_) => break,
                };
            let feas = super::concrete::settle(&self.program, &enc, &nt.to_trace(), &encoded, feas);
            let core = match feas {
                Feasibility::Feasible(values) => {
                    let concrete = super::concrete::run_counterexample(
                        &self.program,
                        &enc,
                        &nt.to_trace(),
                        &encoded,
                        &values.model,
                    );
                    out.violation = Some(FoundViolation {
                        derivation: super::DerivationNode::of(&pg.grammar, &cex.derivation),
                        trace: self.trace_lines(&nt.path_steps()),
                        word,
                        values,
                        replay,
                        concrete,
                    });
                    break;
                }
                Feasibility::Unknown(_) | Feasibility::Unconfirmed(..) => break,
                Feasibility::Infeasible(core) => core,
            };
            let refined = refine_path(
                &mut self.session,
                &enc,
                &mut self.pcfas,
                &nt,
                &encoded,
                &core,
                &self.opts.refinement,
                &mut self.stats.strategies,
            )
            .await
            .map_err(|e| super::Stop::solver(e, &frontier))?;
            if refined.kept.is_none() {
                break;
            }
            self.stats.refinements += 1;
            let ruled = RuledOut {
                iteration: it,
                word: word.clone(),
                path: self.path_summary(&nt.path_steps()),
            };
            self.ruled_out.push(ruled.clone());
            self.seen.insert((word.clone(), replay.clone()));
            if refined.path_stays {
                self.stalled
                    .insert((word, replay), "refined in a batch; the path stayed".into());
            }
            let mut new: BTreeSet<MethodId> = touched_methods(&refined);
            new.remove(&root);
            new.retain(|m| !cut.contains(m));
            out.refuted.push((ruled, refined));
            if new.is_empty() {
                break;
            }
            cut_calls(&mut g, pg, &new, dead);
            cut.extend(new);
        }
        Ok(out)
    }

    /// An inclusion check of a cut grammar: its counterexample, or `None` (included,
    /// unknown, or stopped — the next iteration's own check decides).
    fn quiet_inclusion(&mut self, g: &Grammar) -> Option<cfp_grammar::Counterexample> {
        match self.counted_inclusion(g) {
            InclusionResult::NotIncluded(c) => Some(c),
            _ => None,
        }
    }

    /// `L(g) ⊆ L(spec)`, counted in the statistics, stopped when the stop hook says so.
    pub(super) fn counted_inclusion(&mut self, g: &Grammar) -> InclusionResult {
        self.stats.inclusion_queries += 1;
        let mut steps = 0u64;
        // The step budget grows with the grammar: an application's abstraction has
        // hundreds of thousands of productions, and the counter layer alone evaluates each
        // a few times.
        let mut opts = self.opts.inclusion.clone();
        opts.max_steps = opts
            .max_steps
            .max((g.productions.len() as u64).saturating_mul(INCLUSION_STEPS_PER_PRODUCTION));
        let result = {
            let stop = &mut self.stop;
            let hook = &mut self.stop_hook;
            cfp_grammar::check_inclusion(g, &self.spec, &opts, &mut |p| {
                steps = p.steps;
                if stop.is_none() {
                    *stop = hook.as_mut().and_then(|h| h());
                }
                if stop.is_some() {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
        };
        self.stats.inclusion_steps += steps;
        result
    }
}
