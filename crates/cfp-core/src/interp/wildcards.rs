//! What a run learns about the spec's wildcards: the addresses the instrumentation's
//! guards compare with a wildcard's global ([`Run::wildcard_targets`]).

use super::*;

/// An address an `assume` compared with a spec wildcard's global ([`Run::wildcard_targets`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct WildcardTarget {
    /// The wildcard's number (`$k`).
    pub wildcard: u32,
    /// The address compared with it.
    pub address: i64,
    /// The `assume`'s span (the API call's).
    pub span: Span,
    /// The index in [`Run::steps`] of the edge whose `assume` it is.
    pub step: usize,
}

impl Machine<'_, '_> {
    /// Records the addresses `e` compares with a wildcard's global (`x == $k`, `x != $k`,
    /// inside negations and conjunctions too), without asking the oracle for anything.
    pub(super) fn note_wildcard_targets(&mut self, mid: MethodId, e: &Expr, span: Span) {
        const MAX_TARGETS: usize = 100_000;
        let mut todo = vec![e];
        while let Some(e) = todo.pop() {
            match e {
                Expr::Unary { arg, .. } => todo.push(arg),
                Expr::Binary {
                    op: BinaryOp::Eq | BinaryOp::Ne,
                    lhs,
                    rhs,
                } => {
                    let wildcard = |x: &Expr| match x {
                        Expr::Global(g) => {
                            match self.program.globals.get(g.index()).map(|g| &g.kind) {
                                Some(crate::ir::GlobalKind::Wildcard(k)) => Some(*k),
                                _ => None,
                            }
                        }
                        _ => None,
                    };
                    let (k, other) = match (wildcard(lhs), wildcard(rhs)) {
                        (Some(k), None) => (k, rhs),
                        (None, Some(k)) => (k, lhs),
                        _ => continue,
                    };
                    let mut sc = Some(Scratch {
                        vars: BTreeMap::new(),
                        globals: BTreeMap::new(),
                        fields: BTreeMap::new(),
                    });
                    if let Ok(Value::Int(a)) = self.peek_eval(mid, other, &mut sc) {
                        if a != 0 && self.run.wildcard_targets.len() < MAX_TARGETS {
                            self.run.wildcard_targets.push(WildcardTarget {
                                wildcard: k,
                                address: a,
                                span,
                                step: self.run.steps.len().saturating_sub(1),
                            });
                        }
                    }
                }
                Expr::Binary { lhs, rhs, .. } => {
                    todo.push(rhs);
                    todo.push(lhs);
                }
                _ => {}
            }
        }
    }
}
