//! Progress of a refinement (ARCHITECTURE.md, "A refinement must provably remove the path it
//! refuted"): is a refuted nested path still a path of the refined abstraction?
//!
//! The path is replayed through the PCFAs: from the root's entry states, each intra or API
//! step follows the PCFA edges that copy its CFA edge; a call step enters every entry state
//! of the callee, replays the callee's steps up to the matching return from each of them,
//! and continues in the caller's state after the call when ConstructCFG's rule (3) admits
//! the combination (caller edge, callee entry, callee exit) — the same question
//! ConstructCFG asks ([`crate::call_check::call_formulas`]). The path is still in `L(G_P)`
//! (as a derivation over the new grammar) iff some replay reaches a root exit state.
//!
//! The replay is exact with respect to the grammar the next iteration builds: a path it
//! rejects cannot come back as a counterexample. It needs only the call questions that the
//! path meets, asked in batches (one per replay).

use crate::call_check::call_formulas;
use crate::construct_cfg::CallQuery;
use crate::encode::Encoder;
use crate::ir::MethodId;
use crate::nested_path::{NestedTrace, StepKind};
use crate::pcfa::{PcfaEdgeId, Pcfas, StateId};
use cfp_smt::{CheckSat, Session, Solver, SolverError};
use std::collections::{BTreeMap, BTreeSet};

/// The key of a rule-(3) question.
type CallKey = (MethodId, PcfaEdgeId, MethodId, StateId, StateId);

fn key(q: &CallQuery) -> CallKey {
    (q.caller, q.edge.id, q.callee, q.callee_entry, q.callee_exit)
}

/// One replay of a path through fixed PCFAs with fixed answers to the call questions.
struct Replay<'a> {
    pcfas: &'a Pcfas,
    trace: &'a NestedTrace,
    /// Known answers; a question without an answer is taken as admitted and recorded.
    answers: &'a BTreeMap<CallKey, bool>,
    asked: BTreeMap<CallKey, CallQuery>,
    /// (method, start state, first step) → end states of the segment.
    memo: BTreeMap<(MethodId, StateId, usize), BTreeSet<StateId>>,
}

impl Replay<'_> {
    /// The states of `method` reachable from `start` by steps `from..end` (one frame:
    /// calls inside are replayed as a whole).
    fn reach(
        &mut self,
        method: MethodId,
        start: StateId,
        from: usize,
        end: usize,
    ) -> BTreeSet<StateId> {
        if let Some(done) = self.memo.get(&(method, start, from)) {
            return done.clone();
        }
        let Some(pcfa) = self.pcfas.method(method) else {
            return BTreeSet::new();
        };
        let mut cur: BTreeSet<StateId> = BTreeSet::from([start]);
        let mut k = from;
        while k < end && !cur.is_empty() {
            let Some(step) = self.trace.steps.get(k) else {
                return BTreeSet::new();
            };
            match step.kind {
                StepKind::Intra { edge, .. } | StepKind::Api { edge, .. } => {
                    cur = cur
                        .iter()
                        .flat_map(|s| pcfa.out_edges(*s).iter())
                        .filter_map(|e| pcfa.edge(*e))
                        .filter(|e| e.cfa_edge == edge)
                        .map(|e| e.to)
                        .collect();
                    k += 1;
                }
                StepKind::Call { edge, callee, .. } => {
                    let Some(ret) = self.trace.return_of(k) else {
                        return BTreeSet::new();
                    };
                    let entries: Vec<StateId> = self
                        .pcfas
                        .method(callee)
                        .map(|p| p.entry_states().to_vec())
                        .unwrap_or_default();
                    let exits: Vec<(StateId, BTreeSet<StateId>)> = entries
                        .iter()
                        .map(|e0| (*e0, self.reach(callee, *e0, k + 1, ret)))
                        .collect();
                    let mut next = BTreeSet::new();
                    for s in &cur {
                        for pe in pcfa.out_edges(*s).iter().filter_map(|e| pcfa.edge(*e)) {
                            if pe.cfa_edge != edge || next.contains(&pe.to) {
                                continue;
                            }
                            let admitted = exits.iter().any(|(e0, ends)| {
                                ends.iter().any(|x| {
                                    let q = CallQuery {
                                        caller: method,
                                        edge: *pe,
                                        callee,
                                        callee_entry: *e0,
                                        callee_exit: *x,
                                    };
                                    match self.answers.get(&key(&q)) {
                                        Some(a) => *a,
                                        None => {
                                            self.asked.insert(key(&q), q);
                                            true
                                        }
                                    }
                                })
                            });
                            if admitted {
                                next.insert(pe.to);
                            }
                        }
                    }
                    cur = next;
                    k = ret + 1;
                }
                // A return is consumed with its call; one here is a malformed frame.
                StepKind::Return { .. } => return BTreeSet::new(),
            }
        }

        self.memo.insert((method, start, from), cur.clone());
        cur
    }

    /// Whether some replay from a root entry state ends in a root exit state.
    fn admitted(&mut self) -> bool {
        let root = self.trace.start.method;

        let Some(pcfa) = self.pcfas.method(root) else {
            return false;
        };
        let n = self.trace.steps.len();
        pcfa.entry_states().to_vec().into_iter().any(|s0| {
            self.reach(root, s0, 0, n)
                .iter()
                .any(|s| pcfa.state(*s).is_some_and(|st| st.loc == pcfa.exit_loc))
        })
    }
}

/// Whether the nested path `trace` is still a path of the abstraction `pcfas` (see the
/// module doc). Call questions are asked in one batch; a solver `unknown` admits the call
/// (as ConstructCFG does), so `true` never hides a path the grammar has.
pub async fn still_admitted<S: Solver>(
    session: &mut Session<S>,
    enc: &Encoder<'_>,
    pcfas: &Pcfas,
    trace: &NestedTrace,
) -> Result<bool, SolverError> {
    let mut answers: BTreeMap<CallKey, bool> = BTreeMap::new();
    // A replay takes an unanswered question as admitted and records it; the questions it
    // records are answered in one batch and the path is replayed again, until a replay
    // meets no unanswered question (answers only accumulate, so this ends; a false answer
    // can uncover questions an earlier replay did not reach).
    for _ in 0..MAX_REPLAYS {
        let mut replay = Replay {
            pcfas,
            trace,
            answers: &answers,
            asked: BTreeMap::new(),
            memo: BTreeMap::new(),
        };
        let admitted = replay.admitted();
        if replay.asked.is_empty() {
            return Ok(admitted);
        }
        let mut keys = Vec::new();
        let mut terms = Vec::new();
        for (k, q) in replay.asked {
            match call_formulas(enc, pcfas, &q) {
                Ok(f) => {
                    keys.push(k);
                    terms.push(f.full);
                }
                // An encoding failure admits the call (sound, as in ConstructCFG).
                Err(_) => {
                    answers.insert(k, true);
                }
            }
        }
        let results = session.check_batch(&terms).await?;
        for (k, r) in keys.into_iter().zip(results) {
            answers.insert(k, !matches!(r, CheckSat::Unsat));
        }
    }
    // Not settled within the bound: the path may still be there.
    Ok(true)
}

/// Replays of one path before [`still_admitted`] gives up and answers "admitted".
const MAX_REPLAYS: usize = 32;
