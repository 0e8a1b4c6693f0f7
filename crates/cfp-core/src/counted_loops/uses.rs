//! What a loop body reads, assigns, declares and calls, and whether it has what the
//! rewrite does not take.

use cfp_syntax::ast::{Expr, ExprKind, Resource, Stmt, StmtKind, TypeKind};
use std::collections::BTreeSet;

/// What a loop body reads, assigns, declares and calls (methods and classes made), by
/// name.
#[derive(Debug, Default)]
pub(super) struct Uses {
    pub read: BTreeSet<String>,
    pub assigned: BTreeSet<String>,
    pub declared: BTreeSet<String>,
    pub called: BTreeSet<String>,
    /// `break`, `continue`, `return`, labels and switches are taken (a whole method
    /// body's check), not refused (a loop body's).
    pub jumps: bool,
}

impl Uses {
    /// Record `s`; `false` when it has what the rewrite does not take (see the module
    /// doc).
    pub fn stmt(&mut self, s: &Stmt) -> bool {
        match &s.kind {
            StmtKind::Block(b) | StmtKind::Synchronized { body: b, .. } => {
                if let StmtKind::Synchronized { lock, .. } = &s.kind {
                    if !self.expr(lock) {
                        return false;
                    }
                }
                b.stmts.iter().all(|s| self.stmt(s))
            }
            StmtKind::LocalVar { declarators, .. } => declarators.iter().all(|d| {
                self.declared.insert(d.name.name.clone());
                d.init.as_ref().is_none_or(|e| self.expr(e))
            }),
            StmtKind::Expr(e) | StmtKind::Throw(e) => self.expr(e),
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                self.expr(cond)
                    && self.stmt(then_branch)
                    && else_branch.as_ref().is_none_or(|e| self.stmt(e))
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                self.expr(cond) && self.stmt(body)
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                init.iter().all(|s| self.stmt(s))
                    && cond.as_ref().is_none_or(|c| self.expr(c))
                    && update.iter().all(|e| self.expr(e))
                    && self.stmt(body)
            }
            StmtKind::ForEach {
                name,
                iterable,
                body,
                ..
            } => {
                self.declared.insert(name.name.clone());
                self.expr(iterable) && self.stmt(body)
            }
            StmtKind::Assert { cond, message } => {
                self.expr(cond) && message.as_ref().is_none_or(|m| self.expr(m))
            }
            StmtKind::Try {
                resources,
                body,
                catches,
                finally,
            } => {
                resources.iter().all(|r| match r {
                    Resource::Decl { name, init, .. } => {
                        self.declared.insert(name.name.clone());
                        self.expr(init)
                    }
                    Resource::Expr(e) => self.expr(e),
                }) && body.stmts.iter().all(|s| self.stmt(s))
                    && catches.iter().all(|c| {
                        self.declared.insert(c.name.name.clone());
                        c.body.stmts.iter().all(|s| self.stmt(s))
                    })
                    && finally
                        .as_ref()
                        .is_none_or(|f| f.stmts.iter().all(|s| self.stmt(s)))
            }
            StmtKind::Empty => true,
            StmtKind::Break(_) | StmtKind::Continue(_) | StmtKind::Return(None) => self.jumps,
            StmtKind::Return(Some(e)) => self.jumps && self.expr(e),
            StmtKind::Labeled { body, .. } => self.jumps && self.stmt(body),
            StmtKind::Switch { scrutinee, cases } => {
                self.jumps
                    && self.expr(scrutinee)
                    && cases.iter().all(|c| {
                        c.labels.iter().all(|l| self.expr(l)) && c.body.iter().all(|s| self.stmt(s))
                    })
            }
            StmtKind::LocalClass(_) | StmtKind::Yield(_) | StmtKind::Error => false,
        }
    }

    fn expr(&mut self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Name(n) => {
                self.read.insert(n.name.clone());
            }
            ExprKind::Closure(_) | ExprKind::Switch(_) | ExprKind::Error => return false,
            ExprKind::InstanceOf {
                binding: Some(_), ..
            } => return false,
            ExprKind::Call { name, .. } => {
                self.called.insert(name.name.clone());
            }
            ExprKind::New { class, .. } => {
                if let TypeKind::Named { name, .. } = &class.kind {
                    self.called.insert(name.clone());
                }
            }
            ExprKind::IncDec { target, .. } | ExprKind::Assign { target, .. } => {
                if let ExprKind::Name(n) = &target.kind {
                    self.assigned.insert(n.name.clone());
                }
            }
            _ => {}
        }
        e.children().into_iter().all(|c| self.expr(c))
    }
}
