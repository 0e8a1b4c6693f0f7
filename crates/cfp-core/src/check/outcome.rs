//! How an iteration ends the run: what a feasible counterexample becomes (a violation,
//! or a possible violation when its concrete run goes through what the model
//! approximates), and what an inclusion proof becomes (`verified` when some execution
//! completes, else `unknown` vacuous).

use super::*;

impl<S: Solver> Checker<S> {
    /// The verdict of a feasible counterexample (with its `feasibility` event): a
    /// violation when its concrete run (`concrete`) confirms it and goes through nothing
    /// the model approximates; otherwise a possible violation (`unknown`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn violation(
        &mut self,
        it: u32,
        word: Vec<String>,
        derivation: DerivationNode,
        trace: Vec<TraceLine>,
        values: &Values,
        replay: Vec<ReplayEdge>,
        concrete: Result<crate::interp::Run, String>,
        found_by: Engine,
    ) -> Stop {
        let vmap = self.values_map(values);
        self.pending.push_back(Event::Feasibility {
            iteration: it,
            feasible: FeasibilityOutcome::Feasible,
            values: vmap.clone(),
        });
        // Looking for a completed execution: this is one.
        if let Some(certificate) = self.witness.take() {
            return Stop::Verdict(Box::new(Verdict::Verified {
                iterations: it,
                certificate,
            }));
        }
        let base = alloc_base(values);
        let replay_globals = self
            .program
            .globals
            .iter()
            .map(|g| {
                values
                    .wildcards
                    .iter()
                    .find(|w| w.name == g.name)
                    .and_then(|w| {
                        i64::try_from(crate::interp::interpreter_address(w.address, base)).ok()
                    })
            })
            .collect();
        let summary = summary::summarize(&word, &trace, &self.spec, self.sources.as_ref());
        let counterexample = Violation {
            summary,
            word,
            derivation,
            trace,
            values: vmap,
            replay_edges: replay,
            replay_globals,
            found_by,
            story: Vec::new(),
        };
        let approximations = self.approximations_of(&concrete);
        if approximations.is_empty() {
            return Stop::Verdict(Box::new(Verdict::Violation {
                iterations: it,
                counterexample,
            }));
        }
        Stop::Verdict(Box::new(Verdict::Unknown {
            iterations: it,
            reason: UnknownReason::PossibleViolation {
                summary: counterexample.summary.text.clone(),
                approximations,
            },
            report: ExecutionReport {
                ruled_out: self.ruled_out.clone(),
                frontier: format!("the counterexample [{}]", counterexample.word.join(" ")),
                possible_violation: Some(Box::new(counterexample)),
                recurring: Vec::new(),
            },
        }))
    }

    /// Tells `counterexample`'s run in the program's words, from its replay edges on
    /// `program` (the program its edges name): where it leaves the protocol unfinished
    /// (its summary's ending and exit line) and its story. Nothing changes when the edges
    /// do not fit.
    pub(crate) fn explain(&self, counterexample: &mut Violation, program: &Program) {
        let Some(sources) = self.sources.as_ref() else {
            return;
        };
        if let Some((opened, missing)) = summary::unfinished(&counterexample.word, &self.spec) {
            summary::name_exit(
                &mut counterexample.summary,
                program,
                &counterexample.replay_edges,
                opened,
                &missing,
                sources,
            );
        }
        let s = &counterexample.summary;
        let exit_file = s.exit_file.as_deref().or(s.call_file.as_deref());
        let story = story::story(
            program,
            sources,
            &story::Inputs {
                replay: &counterexample.replay_edges,
                trace: &counterexample.trace,
                values: &counterexample.values,
                blamed_event: summary::blamed_event(&counterexample.word, &self.spec),
                exit: (s.exit_line > 0).then_some((s.exit_line, exit_file)),
            },
        );
        counterexample.story = story;
    }

    /// What a counterexample's concrete run goes through that the model approximates:
    /// approximated constructs, and decisions on values the analysis does not track (or
    /// why there is no concrete run).
    fn approximations_of(&self, concrete: &Result<crate::interp::Run, String>) -> Vec<String> {
        let run = match concrete {
            Ok(run) => run,
            Err(why) => {
                return vec![format!(
                    "the counterexample could not be confirmed by a concrete run ({why})"
                )]
            }
        };
        let mut out: Vec<String> = Vec::new();
        let line_of = |span| self.line_of(span);
        for k in &run.approximations {
            if let Some(d) = self.program.approx_sites.get(*k as usize) {
                let text = format!("{} ({})", d.message, line_of(d.span));
                if !out.contains(&text) {
                    out.push(text);
                }
            }
        }
        for span in &run.opaque_decisions {
            let text = format!(
                "the path turns at {} on a value the analysis does not track (a string, a \
                 floating-point number, an array element or a type test)",
                line_of(*span)
            );
            if !out.contains(&text) {
                out.push(text);
            }
        }
        out
    }

    /// Where `span` is, as "line N" (or "File.java:N" when there are several files).
    pub(super) fn line_of(&self, span: cfp_syntax::Span) -> String {
        match self
            .sources
            .as_ref()
            .and_then(|src| Some((src, src.locate(span.start as usize)?)))
        {
            Some((src, (i, lc))) => match src.files().get(i).map(|f| f.name.as_str()) {
                Some(name) if !name.is_empty() && src.files().len() > 1 => {
                    format!("{name}:{}", lc.line)
                }
                _ => format!("line {}", lc.line),
            },
            None => "a line".to_owned(),
        }
    }

    /// The abstraction's shortest word, while looking for a completed execution: a path
    /// to check; none when no execution completes.
    fn witness_word(&mut self, pg: &ProgramGrammar) -> Result<cfp_grammar::Counterexample, Stop> {
        match cfp_grammar::shortest_word(&pg.grammar) {
            Some(c) => {
                self.pending.push_back(Event::Inclusion {
                    iteration: self.iteration,
                    result: InclusionOutcome::NotIncluded,
                    word: Some(c.word_names.clone()),
                });
                Ok(c)
            }
            None => Err(self.vacuous()),
        }
    }

    /// The verdict when the abstraction has no word: no execution of the entry completes
    /// (`unknown`, vacuous), with where the executions stop.
    fn vacuous(&mut self) -> Stop {
        let e = self
            .exploration
            .take()
            .unwrap_or_else(|| vacuity::explore(&self.program));
        let certificate = self.witness.take();
        if e.completed {
            // A concrete run completed although the abstraction has no word: trust the
            // proof of inclusion, not the emptiness.
            if let Some(certificate) = certificate {
                return Stop::Verdict(Box::new(Verdict::Verified {
                    iterations: self.iteration,
                    certificate,
                }));
            }
        }
        let detail = match e.main_stop() {
            Some(stop) => stop.describe(&self.program, &|span| self.line_of(span)),
            None => "no execution of the entry reaches its end".to_owned(),
        };
        Stop::Verdict(Box::new(Verdict::Unknown {
            iterations: self.iteration,
            reason: UnknownReason::Vacuous { detail },
            report: ExecutionReport {
                ruled_out: self.ruled_out.clone(),
                frontier: "every execution of the entry stops before it returns".to_owned(),
                possible_violation: None,
                recurring: Vec::new(),
            },
        }))
    }

    /// The inclusion check of this iteration: its counterexample, or the end of the run.
    /// After inclusion is proved, the abstraction's words instead ([`Self::witness_word`]).
    pub(super) fn inclusion(
        &mut self,
        pg: &ProgramGrammar,
    ) -> Result<cfp_grammar::Counterexample, Stop> {
        if self.witness.is_some() {
            return self.witness_word(pg);
        }
        let it = self.iteration;
        let result = self.counted_inclusion(&pg.grammar);
        match result {
            InclusionResult::Included(proof) => {
                self.pending.push_back(Event::Inclusion {
                    iteration: it,
                    result: InclusionOutcome::Included,
                    word: None,
                });
                if !self.program.approximations.is_empty() {
                    let items = self
                        .program
                        .approximations
                        .iter()
                        .map(|d| d.message.clone())
                        .collect();
                    return Err(Stop::unknown(
                        UnknownReason::Approximations { items },
                        "the abstraction is included in the spec, but the program model \
                         over-approximates the source"
                            .into(),
                    ));
                }
                let certificate = VerifiedCertificate {
                    grammar: pg.grammar.to_string(),
                    predicates: self.predicates(),
                };
                // Is the proof vacuous (no execution completes)? The abstraction has no
                // word; or no random run completes and the search for a completed path
                // through the abstraction ends without one.
                self.witness = Some(certificate);
                if matches!(proof.proof, cfp_grammar::Proof::EmptyLanguage) {
                    return Err(self.vacuous());
                }
                let exploration = vacuity::explore(&self.program);
                if exploration.completed {
                    if let Some(certificate) = self.witness.take() {
                        return Err(Stop::Verdict(Box::new(Verdict::Verified {
                            iterations: it,
                            certificate,
                        })));
                    }
                }
                self.exploration = Some(exploration);
                self.witness_word(pg)
            }
            InclusionResult::Unknown(r) => {
                self.pending.push_back(Event::Inclusion {
                    iteration: it,
                    result: InclusionOutcome::Unknown,
                    word: None,
                });
                let reason = match r {
                    cfp_grammar::UnknownReason::Stopped { .. } => UnknownReason::Stopped {
                        cause: self.stop.unwrap_or(StopCause::Cancelled),
                    },
                    cfp_grammar::UnknownReason::StepBudget { steps } => {
                        UnknownReason::InclusionBudget { steps }
                    }
                    other => UnknownReason::Inclusion {
                        detail: other.to_string(),
                    },
                };
                Err(Stop::unknown(
                    reason,
                    format!("inclusion of the iteration-{it} grammar in the spec"),
                ))
            }
            InclusionResult::NotIncluded(c) => {
                self.pending.push_back(Event::Inclusion {
                    iteration: it,
                    result: InclusionOutcome::NotIncluded,
                    word: Some(c.word_names.clone()),
                });
                Ok(c)
            }
        }
    }
}

/// Why an iteration ended the run.
pub(super) enum Stop {
    /// A verdict.
    Verdict(Box<Verdict>),
    /// `unknown`, with what was still open.
    Unknown {
        reason: UnknownReason,
        frontier: String,
    },
}

impl Stop {
    pub(super) fn unknown(reason: UnknownReason, frontier: String) -> Stop {
        Stop::Unknown { reason, frontier }
    }

    /// A solver failure: a cancelled call is the host stopping the run.
    pub(super) fn solver(e: cfp_smt::SolverError, frontier: &str) -> Stop {
        let reason = match e {
            // The cause is filled in from the stop hook when the run ends.
            cfp_smt::SolverError::Cancelled => UnknownReason::Stopped {
                cause: StopCause::Cancelled,
            },
            // The iteration is filled in when the run ends.
            cfp_smt::SolverError::OutOfMemory(_) => UnknownReason::OutOfMemory { iteration: 0 },
            other => UnknownReason::Solver {
                detail: other.to_string(),
            },
        };
        Stop::unknown(reason, frontier.to_string())
    }
}

/// `%alloc` after the root's first step (the havoc of the initial state): the model's
/// `k`-th allocation of the trace has address `base + k`, the interpreter's has `k`.
fn alloc_base(values: &crate::feasibility::Values) -> i128 {
    values
        .steps
        .iter()
        .find(|sv| sv.step == 0)
        .and_then(|sv| sv.values.iter().find(|(n, _)| n == crate::encode::ALLOC))
        .and_then(|(_, v)| match v {
            cfp_smt::Value::Int(i) => Some(*i),
            _ => None,
        })
        .or(values.initial_alloc)
        .unwrap_or(0)
}
