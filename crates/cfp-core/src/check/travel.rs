//! Predicates that travel, as the driver applies them (the proposals are
//! [`crate::refinement::travel`]'s): after a refinement, the learned predicates are tried
//! in the other methods that use their symbols; the abstraction from before them is kept,
//! and while it is, a spurious path gets only the first strategy — a path that stays is the
//! sign to take them back ([`Checker::take_back_travel`]), and travel stops for the run.
//! A heuristic must never cost a decided program its verdict.

use super::*;
use crate::refinement::{PathRefinement, RefinementOptions};

impl<S: Solver> Checker<S> {
    /// The refinement options of this round: only the first strategy while travelled
    /// predicates may be taken back (the others would spend their time on the abstraction
    /// those predicates made).
    pub(super) fn refinement_options(&self) -> RefinementOptions {
        let mut ropts = self.opts.refinement.clone();
        if self.travel_undo.is_some() {
            ropts.strategies.truncate(1);
        }
        ropts
    }

    /// The predicates `refined` learned, tried in the methods that use the same symbols
    /// (its outcome absorbs what they changed); the abstraction from before them is kept.
    pub(super) async fn travel(
        &mut self,
        refined: &mut PathRefinement,
        frontier: &str,
    ) -> Result<(), Stop> {
        if !self.opts.refinement.travel || self.travel_off || refined.kept.is_none() {
            return Ok(());
        }
        let enc = Encoder::with_tables(&self.program, self.tables.clone());
        let travel = self
            .travel
            .get_or_insert_with(|| crate::refinement::travel::Travel::new(&enc));
        let proposed = travel.propose(&enc, &refined.psi);
        if proposed.is_empty() {
            return Ok(());
        }
        let before = self.pcfas.clone();
        let o = crate::refine::refine(
            &mut self.session,
            &enc,
            &mut self.pcfas,
            &proposed,
            crate::refine::MAX_NEW_PREDICATES,
        )
        .await
        .map_err(|e| Stop::solver(e, frontier))?;
        // A proposal that would grow the abstraction past the limit is left out (`o` is
        // then empty).
        self.stats.travelled += o.predicates_added as u64;
        if o.predicates_added > 0 {
            self.travel_undo = Some((before, o.predicates_added as u64));
        }
        refined.outcome.absorb(o);
        Ok(())
    }

    /// Travel is taken back: the abstraction `before` the last `added` travelled
    /// predicates comes back (the refinements since, this round's included, are dropped
    /// with them and will be learned again where needed), travel stops for the run, and
    /// the paths seen so far may come again.
    pub(super) fn take_back_travel(
        &mut self,
        it: u32,
        before: Pcfas,
        added: u64,
        attempts: Vec<crate::refinement::Attempt>,
    ) {
        self.pcfas = before;
        self.travel_off = true;
        self.stats.travelled = self.stats.travelled.saturating_sub(added);
        self.stats.travel_rollbacks += 1;
        self.stalled.clear();
        self.seen.clear();
        self.pending.push_back(Event::Interpolants {
            iteration: it,
            per_location: Vec::new(),
            predicates: Vec::new(),
            strategy: None,
            attempts,
        });
        self.pending.push_back(Event::Refined {
            iteration: it,
            clones_added: Vec::new(),
            edges_removed: Vec::new(),
            predicates_added: 0,
            also_refuted: Vec::new(),
        });
    }
}
