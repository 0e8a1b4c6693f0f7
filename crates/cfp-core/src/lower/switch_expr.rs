//! Switch expressions: the statement switch's tests and cases, with each `yield` (an
//! arrow rule's expression is one) assigning the value and leaving the switch through a
//! jump target of its own, so that `finally` blocks between run.

use super::{JumpCtx, MethodLowerer};
use crate::classes::Type;
use crate::ir::{Expr, Place, Sort, Stmt, VarId};
use cfp_syntax::ast::{self, Ident};
use cfp_syntax::Span;

/// The switch expression whose cases are being lowered.
#[derive(Clone, Debug)]
pub(super) struct YieldTarget {
    /// The variable holding the value, made at the first `yield` (from its type).
    var: Option<(VarId, Type)>,
    /// The sort the expression's user wants.
    want: Option<Sort>,
}

fn label(depth: usize) -> String {
    format!("%yield{depth}")
}

impl<'c, 'a> MethodLowerer<'c, 'a> {
    /// `switch (e) { … }` as an expression: its value is the one a case yields.
    pub(super) fn switch_expr(
        &mut self,
        sw: &'a ast::SwitchExpr,
        want: Option<Sort>,
        span: Span,
    ) -> (Expr, Type) {
        let join = self.fresh();
        self.jumps.push(JumpCtx {
            label: Some(label(self.yields.len())),
            brk: join,
            cont: None,
            breakable: false,
            finally_depth: self.finallys.len(),
        });
        self.yields.push(YieldTarget { var: None, want });
        self.switch(None, &sw.scrutinee, &sw.cases);
        // Every case yields or throws (the parser adds a `default` that throws): the
        // end of the switch is never reached.
        self.emit(Stmt::Assume(Expr::Bool(false)), span);
        self.goto(join);
        self.jumps.pop();
        let target = self.yields.pop();
        self.set(join);
        match target.and_then(|t| t.var) {
            Some((v, ty)) => (Expr::Var(v), ty),
            None => self.unknown_value(want, span),
        }
    }

    /// `yield e;`: assign the value of the innermost switch expression and leave it.
    pub(super) fn yield_value(&mut self, e: &'a ast::Expr, span: Span) {
        let Some(depth) = self.yields.len().checked_sub(1) else {
            self.error(
                "yield-outside-switch",
                span,
                "`yield` outside of a switch expression",
            );
            return;
        };
        let target = self.yields[depth].clone();
        let want = match &target.var {
            Some((v, _)) => Some(self.vars[v.index()].sort),
            None => target.want,
        };
        let (value, ty) = self.expr(e, want);
        let var = match target.var {
            Some((v, vty)) => {
                let sort = self.vars[v.index()].sort;
                let value = self.coerce(value, sort, &ty, e.span);
                self.emit(
                    Stmt::Assign {
                        place: Place::Var(v),
                        expr: value,
                    },
                    span,
                );
                let joined = self.cx.table.join(&vty, &ty);
                self.var_types[v.index()] = joined.clone();
                (v, joined)
            }
            None => {
                let sort = self.sort_of(&value);
                let v = self.temp(ty.clone());
                self.vars[v.index()].sort = sort;
                self.emit(
                    Stmt::Assign {
                        place: Place::Var(v),
                        expr: value,
                    },
                    span,
                );
                (v, ty)
            }
        };
        self.yields[depth].var = Some(var);
        let name = Ident {
            name: label(depth),
            span,
        };
        self.jump(Some(&name), false, span);
    }
}
