//! Which values of a run are opaque: held by a variable the lowering marked
//! [`crate::ir::VarKind::Opaque`] (a value the analysis does not track — a string, a
//! float, an array element, an undecided type test) or computed from one. An `assume`
//! that reads one decided the run's path on a value the JVM would have computed
//! ([`Run::opaque_decisions`]).

use super::*;
use std::collections::BTreeSet;

/// The opaque globals and field cells (variables: per frame, [`Frame`]), and the arrays
/// the run allocated (their elements are the program's, hence determined).
#[derive(Clone, Debug, Default)]
pub(super) struct Taint {
    globals: BTreeSet<usize>,
    cells: BTreeSet<(usize, i64)>,
    arrays: BTreeSet<i64>,
}

impl Taint {
    /// The run allocated the array at `a`.
    pub fn program_array(&mut self, a: i64) {
        self.arrays.insert(a);
    }
}

impl Machine<'_, '_> {
    /// Whether the opaque value computed from `source` is determined by the program (a
    /// constant, an operation on determined values, an element of an array the run
    /// allocated) — rather than arbitrary because its inputs are.
    pub(super) fn determined(&self, mid: MethodId, source: &crate::ir::OpaqueSource) -> R<bool> {
        use crate::ir::OpaqueSource;
        Ok(match source {
            OpaqueSource::Constant => true,
            OpaqueSource::Of(es) => {
                let mut all = true;
                for e in es {
                    all &= e.is_constant() || self.tainted(mid, e)?;
                }
                all
            }
            OpaqueSource::Element(a) => match self.peek_eval(mid, a, &mut None) {
                Ok(Value::Int(o)) => self.taint.arrays.contains(&o),
                _ => false,
            },
        })
    }

    /// Whether `e` reads an opaque value.
    pub(super) fn tainted(&self, mid: MethodId, e: &Expr) -> R<bool> {
        Ok(match e {
            Expr::Var(x) => self
                .stack
                .last()
                .is_some_and(|f| f.method == mid && f.taint.contains(&x.index())),
            Expr::Global(g) => self.taint.globals.contains(&g.index()),
            Expr::Field { obj, field } => {
                if self.tainted(mid, obj)? {
                    return Ok(true);
                }
                if self.taint.cells.is_empty() {
                    return Ok(false);
                }
                match self.peek_eval(mid, obj, &mut None) {
                    Ok(Value::Int(o)) => self.taint.cells.contains(&(field.index(), o)),
                    _ => false,
                }
            }
            Expr::Int(_) | Expr::Bool(_) | Expr::Null => false,
            Expr::Unary { arg, .. } => self.tainted(mid, arg)?,
            Expr::Binary { lhs, rhs, .. } => self.tainted(mid, lhs)? || self.tainted(mid, rhs)?,
            Expr::Ite {
                cond,
                then_expr,
                else_expr,
            } => {
                self.tainted(mid, cond)?
                    || self.tainted(mid, then_expr)?
                    || self.tainted(mid, else_expr)?
            }
        })
    }

    /// Mark `place` as holding an opaque value (`t`) or not.
    pub(super) fn taint_place(&mut self, mid: MethodId, place: &Place, t: bool) -> R<()> {
        match place {
            Place::Var(x) => {
                if let Some(f) = self.stack.last_mut() {
                    if f.method == mid {
                        if t {
                            f.taint.insert(x.index());
                        } else {
                            f.taint.remove(&x.index());
                        }
                    }
                }
            }
            Place::Global(g) => {
                if t {
                    self.taint.globals.insert(g.index());
                } else {
                    self.taint.globals.remove(&g.index());
                }
            }
            Place::Field { obj, field } => {
                let key = match self.peek_eval(mid, obj, &mut None) {
                    Ok(Value::Int(o)) => Some((field.index(), o)),
                    _ => None,
                };
                if let Some(k) = key {
                    if t {
                        self.taint.cells.insert(k);
                    } else {
                        self.taint.cells.remove(&k);
                    }
                }
            }
        }
        Ok(())
    }
}
