//! The names a piece of code uses and declares: what a closure may capture from the
//! scope it is written in.

use cfp_syntax::ast::{
    Block, ClosureCode, Expr, ExprKind, LambdaBody, Member, MethodRefTarget, Resource, Stmt,
    StmtKind,
};
use std::collections::BTreeSet;

/// The simple names (`ExprKind::Name`) some code uses where no declaration inside it
/// (parameter, local, catch or pattern variable, field of a nested class) is in scope.
///
/// Scopes are lexical, as javac's: a name declared in one nested method or block does not
/// hide the same name used elsewhere in the code (a lambda that reads the enclosing
/// method's `item` and passes an anonymous class whose method has a parameter `item`
/// captures `item`).
#[derive(Debug, Default)]
pub(super) struct Names {
    /// Used where no inner declaration is in scope.
    free: BTreeSet<String>,
    /// The declarations in scope, innermost last.
    scopes: Vec<BTreeSet<String>>,
}

impl Names {
    /// The names the code uses without declaring them.
    pub fn free(&self) -> impl Iterator<Item = &String> {
        self.free.iter()
    }

    /// Declare `name` in the innermost scope (the code's outermost one if none is open).
    pub fn declare(&mut self, name: &str) {
        if self.scopes.is_empty() {
            self.scopes.push(BTreeSet::new());
        }
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_owned());
        }
    }

    fn use_name(&mut self, name: &str) {
        if !self.scopes.iter().any(|s| s.contains(name)) {
            self.free.insert(name.to_owned());
        }
    }

    /// Walk `f` in a new innermost scope.
    fn scoped(&mut self, f: impl FnOnce(&mut Self)) {
        self.scopes.push(BTreeSet::new());
        f(self);
        self.scopes.pop();
    }

    /// A class body: its fields are in scope in all of it, each method's parameters in
    /// that method.
    pub fn members(&mut self, members: &[Member]) {
        self.scoped(|n| {
            for m in members {
                if let Member::Field(f) = m {
                    for d in &f.declarators {
                        n.declare(&d.name.name);
                    }
                }
            }
            for m in members {
                match m {
                    Member::Field(f) => {
                        for e in f.declarators.iter().filter_map(|d| d.init.as_ref()) {
                            n.expr(e);
                        }
                    }
                    Member::Method(md) => n.scoped(|n| {
                        for p in &md.params {
                            n.declare(&p.name.name);
                        }
                        if let Some(b) = &md.body {
                            n.block(b);
                        }
                    }),
                    Member::Constructor(c) => n.scoped(|n| {
                        for p in &c.params {
                            n.declare(&p.name.name);
                        }
                        n.block(&c.body);
                    }),
                    Member::Initializer(i) => n.block(&i.body),
                    Member::Class(c) => n.members(&c.members),
                }
            }
        });
    }

    /// A block, in its own scope.
    pub fn block(&mut self, b: &Block) {
        self.scoped(|n| {
            for s in &b.stmts {
                n.stmt(s);
            }
        });
    }

    pub fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Block(b) => self.block(b),
            StmtKind::LocalVar { declarators, .. } => {
                for d in declarators {
                    // In scope in its own initializer (javac rejects a read there).
                    self.declare(&d.name.name);
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
                // A pattern variable of the condition may stay in scope after the `if`
                // (`if (!(o instanceof T t)) return;`): the condition is in this scope.
                self.expr(cond);
                self.scoped(|n| n.stmt(then_branch));
                if let Some(e) = else_branch {
                    self.scoped(|n| n.stmt(e));
                }
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                self.expr(cond);
                self.scoped(|n| n.stmt(body));
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => self.scoped(|n| {
                for i in init {
                    n.stmt(i);
                }
                if let Some(c) = cond {
                    n.expr(c);
                }
                for u in update {
                    n.expr(u);
                }
                n.scoped(|n| n.stmt(body));
            }),
            StmtKind::ForEach {
                name,
                iterable,
                body,
                ..
            } => {
                self.expr(iterable);
                self.scoped(|n| {
                    n.declare(&name.name);
                    n.stmt(body);
                });
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
                self.scoped(|n| {
                    for r in resources {
                        match r {
                            Resource::Decl { name, init, .. } => {
                                n.expr(init);
                                n.declare(&name.name);
                            }
                            Resource::Expr(e) => n.expr(e),
                        }
                    }
                    n.block(body);
                });
                for c in catches {
                    self.scoped(|n| {
                        n.declare(&c.name.name);
                        n.block(&c.body);
                    });
                }
                if let Some(f) = finally {
                    self.block(f);
                }
            }
            StmtKind::Labeled { body, .. } => self.stmt(body),
            StmtKind::Switch { scrutinee, cases } => self.switch(scrutinee, cases),
            StmtKind::LocalClass(c) => {
                self.declare(&c.name.name);
                self.members(&c.members);
            }
            StmtKind::Break(_) | StmtKind::Continue(_) | StmtKind::Empty | StmtKind::Error => {}
        }
    }

    /// A switch: its body is one scope (a local of one case is in scope in the next).
    fn switch(&mut self, scrutinee: &Expr, cases: &[cfp_syntax::ast::SwitchCase]) {
        self.expr(scrutinee);
        self.scoped(|n| {
            for c in cases {
                for l in &c.labels {
                    n.expr(l);
                }
                for s in &c.body {
                    n.stmt(s);
                }
            }
        });
    }

    pub fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Switch(sw) => self.switch(&sw.scrutinee, &sw.cases),
            ExprKind::Name(id) => self.use_name(&id.name),
            ExprKind::Closure(c) => {
                for a in &c.args {
                    self.expr(a);
                }
                match &c.code {
                    ClosureCode::Lambda { params, body } => self.scoped(|n| {
                        for p in params {
                            n.declare(&p.name.name);
                        }
                        match body {
                            LambdaBody::Expr(e) => n.expr(e),
                            LambdaBody::Block(b) => n.block(b),
                        }
                    }),
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
                    self.declare(&b.name);
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
