//! Which edges a run can take: a guard is evaluated without side effects, and a run that
//! can take none says why.

use super::*;

impl<'p> Machine<'p, '_> {
    /// Whether `edge` can be taken now (see the module doc).
    pub(super) fn enabled(&self, cfa: &MethodCfa, edge: &Edge) -> R<bool> {
        Ok(self.disabled_at(cfa, edge)?.is_none())
    }

    /// The position of the `assume` that disables `edge`, or `None` when it is enabled.
    pub(super) fn disabled_at(&self, cfa: &MethodCfa, edge: &Edge) -> R<Option<usize>> {
        self.disabled_at_noting(cfa, edge, &mut None)
    }

    /// Before a choice among the edges of a branching location: the initial contents of
    /// fields and variables their guards read and no run has fixed yet are asked of the
    /// oracle now, so that the choice sees them (a run would otherwise take an edge whose
    /// guard the value then falsifies, and block).
    pub(super) fn fix_guard_inputs(&mut self, cfa: &MethodCfa, node: NodeIndex) -> R<()> {
        for e in cfa.graph.edges(node) {
            // Each round fixes one value; a guard reads few.
            for _ in 0..16 {
                let mut missing = None;
                self.disabled_at_noting(cfa, e.weight(), &mut missing)?;
                match missing {
                    Some((
                        src @ (ValueSource::FieldInit { .. } | ValueSource::VarInit { .. }),
                        sort,
                    )) => {
                        self.fill(src, sort)?;
                    }
                    _ => break,
                }
            }
        }
        Ok(())
    }

    /// [`Self::disabled_at`], noting in `missing` the value whose absence stopped the
    /// evaluation (then the edge counts as enabled).
    fn disabled_at_noting(
        &self,
        cfa: &MethodCfa,
        edge: &Edge,
        missing: &mut Option<(ValueSource, Sort)>,
    ) -> R<Option<usize>> {
        let Edge::Block(stmts) = edge else {
            return Ok(None);
        };
        let mut sc = Some(Scratch {
            vars: BTreeMap::new(),
            globals: BTreeMap::new(),
            fields: BTreeMap::new(),
        });
        for (i, s) in stmts.iter().enumerate() {
            let r = match &s.node {
                Stmt::Havoc(_) | Stmt::Alloc { .. } | Stmt::Opaque { .. } => return Ok(None),
                Stmt::Assume(e) => match self.peek_eval_noting(cfa.id, e, &mut sc, missing) {
                    Ok(Value::Bool(false)) => return Ok(Some(i)),
                    Ok(_) => Ok(()),
                    Err(e) => Err(e),
                },
                Stmt::Assign { place, expr } => {
                    match self.peek_eval_noting(cfa.id, expr, &mut sc, missing) {
                        Ok(v) => self.scratch_assign(cfa.id, place, v, &mut sc),
                        Err(e) => Err(e),
                    }
                }
                Stmt::Approx(_) | Stmt::Leave => Ok(()),
            };
            match r {
                Ok(()) => {}
                Err(Fail::Unknown) | Err(Fail::Stop(Stop::Blocked(..))) => return Ok(None),
                Err(e) => return Err(e),
            }
        }
        Ok(None)
    }

    /// Why no edge leaves `node`: the `assume` that stops the edge that gets furthest
    /// (its span and what it requires), or the end of the path when no edge leaves.
    pub(super) fn why_stuck(&self, cfa: &MethodCfa, node: NodeIndex) -> R<(Span, String)> {
        let mut best: Option<(usize, Span, String)> = None;
        for e in cfa.graph.edges(node) {
            let Edge::Block(stmts) = e.weight() else {
                continue;
            };
            let Some(i) = self.disabled_at(cfa, e.weight())? else {
                continue;
            };
            let Some(stmt) = stmts.get(i) else { continue };
            if best.as_ref().is_none_or(|(j, _, _)| i > *j) {
                let span = if stmt.span == Span::default() {
                    e.weight().span()
                } else {
                    stmt.span
                };
                let why = match &stmt.node {
                    Stmt::Assume(x) => assume_reason(x),
                    _ => "the condition is false",
                };
                best = Some((i, span, why.to_owned()));
            }
        }
        if let Some((_, span, why)) = best {
            return Ok((span, why));
        }
        // No edge at all: the method's code from here on does not reach its end.
        let span = self
            .run
            .steps
            .iter()
            .rev()
            .find(|s| s.method == cfa.id && s.span != Span::default())
            .map_or(cfa.span, |s| s.span);
        Ok((
            span,
            "no path from here reaches the end of the method (a loop without exit, or a \
             call that does not return)"
                .to_owned(),
        ))
    }
}
