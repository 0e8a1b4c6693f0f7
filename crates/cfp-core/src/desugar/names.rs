//! The names a piece of code uses and declares: what a closure may capture from the
//! scope it is written in.

use cfp_syntax::ast::{
    Block, ClosureCode, Expr, ExprKind, LambdaBody, Member, MethodRefTarget, Resource, Stmt,
    StmtKind,
};
use std::collections::BTreeSet;

/// Simple names read or written (`ExprKind::Name`) and names declared (parameters,
/// locals, catch and pattern variables, fields of nested classes) in some code.
#[derive(Debug, Default)]
pub(super) struct Names {
    /// Used as a bare name.
    pub used: BTreeSet<String>,
    /// Declared inside.
    pub declared: BTreeSet<String>,
}

impl Names {
    /// The names the code uses without declaring them.
    pub fn free(&self) -> impl Iterator<Item = &String> {
        self.used.iter().filter(|n| !self.declared.contains(*n))
    }

    pub fn members(&mut self, members: &[Member]) {
        for m in members {
            match m {
                Member::Field(f) => {
                    for d in &f.declarators {
                        self.declared.insert(d.name.name.clone());
                        if let Some(e) = &d.init {
                            self.expr(e);
                        }
                    }
                }
                Member::Method(md) => {
                    for p in &md.params {
                        self.declared.insert(p.name.name.clone());
                    }
                    if let Some(b) = &md.body {
                        self.block(b);
                    }
                }
                Member::Constructor(c) => {
                    for p in &c.params {
                        self.declared.insert(p.name.name.clone());
                    }
                    self.block(&c.body);
                }
                Member::Initializer(i) => self.block(&i.body),
                Member::Class(c) => self.members(&c.members),
            }
        }
    }

    pub fn block(&mut self, b: &Block) {
        for s in &b.stmts {
            self.stmt(s);
        }
    }

    pub fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Block(b) => self.block(b),
            StmtKind::LocalVar { declarators, .. } => {
                for d in declarators {
                    self.declared.insert(d.name.name.clone());
                    if let Some(e) = &d.init {
                        self.expr(e);
                    }
                }
            }
            StmtKind::Expr(e) | StmtKind::Throw(e) | StmtKind::Yield(e) => self.expr(e),
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                self.expr(cond);
                self.stmt(then_branch);
                if let Some(e) = else_branch {
                    self.stmt(e);
                }
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                self.expr(cond);
                self.stmt(body);
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                for i in init {
                    self.stmt(i);
                }
                if let Some(c) = cond {
                    self.expr(c);
                }
                for u in update {
                    self.expr(u);
                }
                self.stmt(body);
            }
            StmtKind::ForEach {
                name,
                iterable,
                body,
                ..
            } => {
                self.declared.insert(name.name.clone());
                self.expr(iterable);
                self.stmt(body);
            }
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    self.expr(e);
                }
            }
            StmtKind::Synchronized { lock, body } => {
                self.expr(lock);
                self.block(body);
            }
            StmtKind::Assert { cond, message } => {
                self.expr(cond);
                if let Some(m) = message {
                    self.expr(m);
                }
            }
            StmtKind::Try {
                resources,
                body,
                catches,
                finally,
            } => {
                for r in resources {
                    match r {
                        Resource::Decl { name, init, .. } => {
                            self.declared.insert(name.name.clone());
                            self.expr(init);
                        }
                        Resource::Expr(e) => self.expr(e),
                    }
                }
                self.block(body);
                for c in catches {
                    self.declared.insert(c.name.name.clone());
                    self.block(&c.body);
                }
                if let Some(f) = finally {
                    self.block(f);
                }
            }
            StmtKind::Labeled { body, .. } => self.stmt(body),
            StmtKind::Switch { scrutinee, cases } => self.switch(scrutinee, cases),
            StmtKind::LocalClass(c) => {
                self.declared.insert(c.name.name.clone());
                self.members(&c.members);
            }
            StmtKind::Break(_) | StmtKind::Continue(_) | StmtKind::Empty | StmtKind::Error => {}
        }
    }

    fn switch(&mut self, scrutinee: &Expr, cases: &[cfp_syntax::ast::SwitchCase]) {
        self.expr(scrutinee);
        for c in cases {
            for l in &c.labels {
                self.expr(l);
            }
            for s in &c.body {
                self.stmt(s);
            }
        }
    }

    pub fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Switch(sw) => self.switch(&sw.scrutinee, &sw.cases),
            ExprKind::Name(id) => {
                self.used.insert(id.name.clone());
            }
            ExprKind::Closure(c) => {
                for a in &c.args {
                    self.expr(a);
                }
                match &c.code {
                    ClosureCode::Lambda { params, body } => {
                        for p in params {
                            self.declared.insert(p.name.name.clone());
                        }
                        match body {
                            LambdaBody::Expr(e) => self.expr(e),
                            LambdaBody::Block(b) => self.block(b),
                        }
                    }
                    ClosureCode::MethodRef { target, .. } => {
                        if let MethodRefTarget::Expr(t) = target {
                            self.expr(t);
                        }
                    }
                    ClosureCode::Anonymous { members } => self.members(members),
                }
            }
            ExprKind::Field { target, .. } => self.expr(target),
            ExprKind::Call { target, args, .. } => {
                if let Some(t) = target {
                    self.expr(t);
                }
                for a in args {
                    self.expr(a);
                }
            }
            ExprKind::New { args, .. } => {
                for a in args {
                    self.expr(a);
                }
            }
            ExprKind::NewArray { dims, init, .. } => {
                for d in dims {
                    self.expr(d);
                }
                for i in init.iter().flatten() {
                    self.expr(i);
                }
            }
            ExprKind::ArrayLiteral(items) => {
                for i in items {
                    self.expr(i);
                }
            }
            ExprKind::Index { array, index } => {
                self.expr(array);
                self.expr(index);
            }
            ExprKind::Unary { operand, .. } | ExprKind::Cast { operand, .. } => self.expr(operand),
            ExprKind::IncDec { target, .. } => self.expr(target),
            ExprKind::Binary { lhs, rhs, .. } => {
                self.expr(lhs);
                self.expr(rhs);
            }
            ExprKind::Assign { target, value, .. } => {
                self.expr(target);
                self.expr(value);
            }
            ExprKind::Conditional {
                cond,
                then_expr,
                else_expr,
            } => {
                self.expr(cond);
                self.expr(then_expr);
                self.expr(else_expr);
            }
            ExprKind::InstanceOf {
                operand, binding, ..
            } => {
                self.expr(operand);
                if let Some(b) = binding {
                    self.declared.insert(b.name.clone());
                }
            }
            ExprKind::Int { .. }
            | ExprKind::Float(_)
            | ExprKind::Bool(_)
            | ExprKind::Null
            | ExprKind::String(_)
            | ExprKind::Char(_)
            | ExprKind::Nondet
            | ExprKind::ClassLiteral(_)
            | ExprKind::This
            | ExprKind::OuterThis(_)
            | ExprKind::Super
            | ExprKind::QualifiedSuper(_)
            | ExprKind::Error => {}
        }
    }
}
