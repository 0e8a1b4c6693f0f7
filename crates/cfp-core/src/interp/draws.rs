//! Where a run's values come from besides the oracle's plain answers: values drawn again
//! while the next `assume` rejects them, the initial contents a guard reads, and which
//! edges raise an exception (hints a random oracle uses to keep runs going).

use super::*;

/// Draws of a havocked value [`Machine::draw_until`] makes at most.
const REDRAWS: usize = 8;

/// Whether `next` is `assume x != null` for the variable or global `current` draws
/// (`havoc x` or an opaque value into `x`).
pub(super) fn assumes_non_null(next: &Stmt, current: &Stmt) -> bool {
    let drawn = match current {
        Stmt::Havoc(Place::Var(v)) | Stmt::Opaque { var: v, .. } => Expr::Var(*v),
        Stmt::Havoc(Place::Global(g)) => Expr::Global(*g),
        _ => return false,
    };
    match next {
        Stmt::Assume(Expr::Binary {
            op: BinaryOp::Ne,
            lhs,
            rhs,
        }) => {
            (**lhs == drawn && matches!(**rhs, Expr::Null))
                || (**rhs == drawn && matches!(**lhs, Expr::Null))
        }
        _ => false,
    }
}

impl Machine<'_, '_> {
    /// Whether `edge` raises an exception: its block sets `%exc` to something else than
    /// `null`.
    pub(super) fn raises(&self, edge: &Edge) -> bool {
        let (Some(exc), Edge::Block(stmts)) = (self.exc_global, edge) else {
            return false;
        };
        stmts.iter().any(|s| {
            matches!(&s.node, Stmt::Assign { place: Place::Global(g), expr }
                if g.index() == exc && *expr != Expr::Null)
        })
    }

    /// `havoc` followed by `assume guard`: the value is drawn again (up to
    /// [`REDRAWS`] times, the earlier draws forgotten) while the guard is false, so that a
    /// random run does not block on a bound the next statement puts on the value (an
    /// escaped object's number, a non-null library result).
    pub(super) fn draw_until(
        &mut self,
        mid: MethodId,
        havoc: &Stmt,
        span: Span,
        guard: &Expr,
    ) -> R<()> {
        let decisions = self.run.decisions.len();
        let allocated = self.heap.allocated;
        for attempt in 0..REDRAWS {
            self.exec(mid, havoc, span)?;
            let holds = !matches!(
                self.peek_eval(mid, guard, &mut None),
                Ok(Value::Bool(false))
            );
            if holds || attempt + 1 == REDRAWS {
                return Ok(());
            }
            self.run.decisions.truncate(decisions);
            self.heap.allocated = allocated;
        }
        Ok(())
    }

    /// [`Self::peek_eval`], noting the missing value that made the result unknown.
    pub(super) fn peek_eval_noting(
        &self,
        mid: MethodId,
        e: &Expr,
        sc: &mut Option<Scratch>,
        missing: &mut Option<(ValueSource, Sort)>,
    ) -> R<Value> {
        eval_with(self, mid, e, sc, &mut |src, sort| {
            *missing = Some((src, sort));
            Err(Fail::Unknown)
        })
    }

    /// Ask the oracle for the missing initial value `src` and store it.
    pub(super) fn fill(&mut self, src: ValueSource, sort: Sort) -> R<()> {
        let v = self.ask_value(src.clone(), sort)?;
        match src {
            ValueSource::FieldInit { field, obj } => {
                if let Some(arr) = self.heap.fields.get_mut(field.index()) {
                    arr.insert(obj, v);
                }
            }
            ValueSource::VarInit { var, .. } => {
                if let Some(slot) = self
                    .stack
                    .last_mut()
                    .and_then(|f| f.vars.get_mut(var.index()))
                {
                    *slot = Some(v);
                }
            }
            _ => return bad("unexpected unknown value"),
        }
        Ok(())
    }
}
