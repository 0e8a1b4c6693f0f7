//! What the driver shows of an iteration: the `grammar-built` event (with its diff, the
//! productions and the PCFA views), a nested path as trace lines and replay edges, the
//! model's values, a path's summary for execution reports, and the final predicates.

use super::*;

impl<S: Solver> Checker<S> {
    pub(super) fn grammar_event(&mut self, pg: &ProgramGrammar) -> Event {
        let g = &pg.grammar;
        if !self.opts.views {
            return Event::GrammarBuilt {
                iteration: self.iteration,
                grammar: String::new(),
                nonterminals: g.nonterminals.len(),
                productions: g.productions.len(),
                diff: GrammarDiff::default(),
                rules: Vec::new(),
                pcfas: Vec::new(),
            };
        }
        let nts: BTreeSet<String> = g.nonterminals.iter().cloned().collect();
        let prods: BTreeSet<String> = g
            .productions
            .iter()
            .map(|p| {
                format!(
                    "{} -> {}",
                    g.nonterminal_name(p.lhs),
                    g.rhs_to_string(&p.rhs)
                )
            })
            .collect();
        let diff = match &self.prev_grammar {
            None => GrammarDiff::default(),
            Some((pn, pp)) => GrammarDiff {
                added_nonterminals: nts.difference(pn).cloned().collect(),
                removed_productions: pp.difference(&prods).cloned().collect(),
                added_productions: prods.difference(pp).cloned().collect(),
            },
        };
        self.prev_grammar = Some((nts, prods));
        let macros = self.session.macros();
        let pcfas = self.pcfa_views.next(
            &self.program,
            &self.pcfas,
            self.sources.as_ref().map(|s| s.text()),
            &|t| macros.expand(t).to_string(),
        );
        Event::GrammarBuilt {
            iteration: self.iteration,
            grammar: g.to_string(),
            nonterminals: g.nonterminals.len(),
            productions: g.productions.len(),
            diff,
            rules: g.productions.iter().map(|p| Production::of(g, p)).collect(),
            pcfas,
        }
    }

    pub(super) fn trace_lines(&self, steps: &[PathStep]) -> Vec<TraceLine> {
        let sources = self.sources.as_ref();
        let mut depth = 0usize;
        let mut out = Vec::new();
        for s in steps {
            let (m, e, text_prefix) = match s.kind {
                StepKind::Intra { method, edge } => (method, edge, ""),
                StepKind::Api { method, edge, .. } => (method, edge, ""),
                StepKind::Call { caller, edge, .. } => (caller, edge, ""),
                StepKind::Return { caller, edge, .. } => {
                    depth = depth.saturating_sub(1);
                    (caller, edge, "return to ")
                }
            };
            let text = match (
                self.program.method(m),
                self.program.method(m).and_then(|c| c.graph.edge_weight(e)),
            ) {
                (Some(cfa), Some(edge)) => {
                    let p = crate::render::Printer::new(&self.program, cfa);
                    format!("{text_prefix}{}", p.edge(edge, "; "))
                }
                _ => String::new(),
            };
            let (file, line) = match sources {
                Some(set) if !(s.span.start == 0 && s.span.end == 0) => {
                    match set.locate(s.span.start as usize) {
                        Some((i, lc)) => {
                            (set.is_multi().then(|| set.files()[i].name.clone()), lc.line)
                        }
                        None => (None, 0),
                    }
                }
                _ => (None, 0),
            };
            let text = if matches!(s.kind, StepKind::Return { .. }) {
                format!("return from {}", self.method_name(s.method))
            } else {
                text
            };
            out.push(TraceLine {
                file,
                line,
                text,
                depth,
                method: self.method_name(s.method),
            });
            if matches!(s.kind, StepKind::Call { .. }) {
                depth += 1;
            }
        }
        out
    }

    /// Queues the `counterexample` event of a path (its word, derivation and trace lines)
    /// and returns the trace lines and replay edges the verdict will carry.
    pub(super) fn announce_counterexample(
        &mut self,
        iteration: u32,
        word: &[String],
        derivation: &DerivationNode,
        steps: &[PathStep],
    ) -> (Vec<TraceLine>, Vec<ReplayEdge>) {
        let trace = self.trace_lines(steps);
        self.pending.push_back(Event::Counterexample {
            iteration,
            word: word.to_vec(),
            derivation: derivation.clone(),
            trace: trace.clone(),
        });
        (trace, Self::replay_edges(steps))
    }

    pub(super) fn replay_edges(steps: &[PathStep]) -> Vec<ReplayEdge> {
        steps
            .iter()
            .filter_map(|s| match s.kind {
                StepKind::Intra { method, edge } | StepKind::Api { method, edge, .. } => {
                    Some(ReplayEdge {
                        method: method.index(),
                        edge: edge.index(),
                    })
                }
                StepKind::Call { caller, edge, .. } => Some(ReplayEdge {
                    method: caller.index(),
                    edge: edge.index(),
                }),
                StepKind::Return { .. } => None,
            })
            .collect()
    }

    pub(super) fn values_map(&self, v: &Values) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        for w in &v.wildcards {
            out.insert(w.name.clone(), w.address.to_string());
        }
        if let Some(a) = v.initial_alloc {
            out.insert("%alloc".to_string(), a.to_string());
        }
        for s in &v.steps {
            for (n, val) in &s.values {
                out.insert(format!("step {:>3}: {n}", s.step), val.to_string());
            }
        }
        out
    }

    pub(super) fn path_summary(&self, steps: &[PathStep]) -> String {
        let lines = self.trace_lines(steps);
        let mut parts: Vec<String> = Vec::new();
        for l in lines {
            let p = if l.line > 0 {
                format!("{}:{}", l.method, l.line)
            } else {
                l.method.clone()
            };
            if parts.last() != Some(&p) {
                parts.push(p);
            }
        }
        parts.join(" -> ")
    }

    /// The final abstraction's predicates per location, named (a formula no
    /// `interpolants` event named gets the next name here).
    pub(super) fn predicates(&mut self) -> Vec<LocationPredicates> {
        let mut out = Vec::new();
        let mut unannounced = Vec::new();
        for p in &self.pcfas.methods {
            if let Some(cfa) = self.program.method(p.method) {
                for n in cfa.graph.node_indices() {
                    let preds = p.predicates(n);
                    if !preds.is_empty() {
                        let formulas: Vec<Term> = preds
                            .iter()
                            .map(|t| self.session.macros().expand(t))
                            .collect();
                        out.push(LocationPredicates {
                            method: cfa.name.clone(),
                            location: n.index(),
                            predicates: formulas.iter().map(Term::to_string).collect(),
                            names: formulas
                                .iter()
                                .map(|t| self.predicate_names.name(t, &mut unannounced))
                                .collect(),
                        });
                    }
                }
            }
        }
        out
    }
}
