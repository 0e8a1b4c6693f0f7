//! Closures as classes (JLS §15.27, §15.13, §15.9.5, §14.3): before the class table is
//! built, every lambda, method reference, anonymous class and local class becomes a
//! nested class of the class whose code creates it, so that its code runs as the
//! JVM runs it — when it is called, through dynamic dispatch on the object.
//!
//! * A lambda becomes a class with one method, named after the functional interface it
//!   is converted to (its *target*: the declared type of the variable, field or
//!   parameter it is assigned to, the method's return type, a cast; for an argument of
//!   a method of the program, found by the first lowering and handed back as a
//!   [`TargetHints`]). Its class implements that interface; with no known target the
//!   method is called `lambda$` and only library code calls it. `this` in its body
//!   is the enclosing instance (`Outer.this`).
//! * A method reference `C::m`, `x::m`, `C::new` becomes the lambda that calls it (`x`
//!   evaluated once, when the reference is). A reference to a method outside the
//!   program stays an opaque object: its code cannot touch the program's state.
//! * An anonymous class `new T(args) { … }` becomes a class extending (or
//!   implementing) `T` whose constructor passes `args` to `T`'s.
//! * A local class becomes a nested class of the enclosing class.
//!
//! Captured local variables (effectively final, JLS §4.12.4) are copied into fields
//! of the same name when the object is created ([`ClosureClass::captures`]; the lowering
//! assigns them right after the allocation, as javac does); a name in the closure's code
//! then resolves to that field. The enclosing instance is the inner class's `this$0`.
//! A closure created in static code is a static nested class.

mod classes;
mod functional;
mod names;

use cfp_syntax::ast::{
    Block, ClassDecl, ClosureCode, ClosureKind, CompilationUnit, ConstructorDecl, Expr, ExprKind,
    FieldDecl, Ident, LambdaBody, Member, MethodDecl, MethodRefTarget, Modifiers, Param, Stmt,
    StmtKind, TypeKind, TypeRef, VarDeclarator,
};
use cfp_syntax::Span;
use functional::functional_method;
use names::Names;
use std::collections::{BTreeMap, BTreeSet};

/// What a closure class stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClosureClass {
    /// Its number, in source order (the index in [`Desugared::closures`]).
    pub index: usize,
    /// The class's name (`Main$1`).
    pub name: String,
    /// What it was written as.
    pub kind: ClosureKind,
    /// For a local class: `true` (its name is the one written).
    pub is_local_class: bool,
    /// The local variables it captures: fields of the same names, assigned when the
    /// object is created.
    pub captures: Vec<String>,
    /// For a lambda or method reference: the method implementing the functional
    /// interface.
    pub method: Option<String>,
    /// The functional interface it was converted to, when known.
    pub target: Option<String>,
    /// The closure expression (or the local class declaration).
    pub span: Span,
}

/// Targets of closures found by a lowering, by closure number: a lambda passed to a
/// method of the program takes the parameter's type.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TargetHints {
    /// Closure number → its target type.
    pub targets: BTreeMap<usize, TypeRef>,
}

/// A compilation unit whose closures are classes.
#[derive(Clone, Debug)]
pub struct Desugared<'u> {
    /// The rewritten unit (the unit itself when it has no closure: no copy of a tree
    /// that may be deep).
    pub unit: std::borrow::Cow<'u, CompilationUnit>,
    /// The closure classes, by number.
    pub closures: Vec<ClosureClass>,
}

impl Desugared<'_> {
    /// The rewritten unit.
    pub fn unit(&self) -> &CompilationUnit {
        &self.unit
    }
}

/// Turn the closures of `unit` into classes (see the module doc).
pub fn desugar<'u>(unit: &'u CompilationUnit, hints: &TargetHints) -> Desugared<'u> {
    if unit.closures == 0 {
        return Desugared {
            unit: std::borrow::Cow::Borrowed(unit),
            closures: Vec::new(),
        };
    }
    let mut all: Vec<&ClassDecl> = Vec::new();
    for c in &unit.classes {
        collect(c, &mut all);
    }
    let taken: BTreeSet<String> = all.iter().map(|c| c.name.name.clone()).collect();
    let mut d = Desugarer {
        classes: all,
        hints,
        closures: Vec::new(),
        taken,
        cx: Context::default(),
        enclosing: Vec::new(),
    };
    let mut out = unit.clone();
    for c in &mut out.classes {
        d.class(c, false);
    }
    Desugared {
        unit: std::borrow::Cow::Owned(out),
        closures: d.closures,
    }
}

fn collect<'u>(c: &'u ClassDecl, out: &mut Vec<&'u ClassDecl>) {
    out.push(c);
    for m in &c.members {
        if let Member::Class(n) = m {
            collect(n, out);
        }
    }
}

/// Where the code being rewritten is.
#[derive(Clone, Debug, Default)]
struct Context {
    /// Local variables in scope, innermost block last.
    scopes: Vec<Vec<(String, TypeRef)>>,
    /// Static code (no `this`).
    is_static: bool,
    /// The class whose instance `this` denotes.
    this_class: String,
    /// Inside a lambda: `this` is rewritten to `this_class.this`.
    in_lambda: bool,
    /// The return type of the method (for `return` of a closure).
    ret: Option<TypeRef>,
}

/// A class being rewritten: its name, fields, and the closure classes to add to it.
struct Enclosing {
    name: String,
    fields: Vec<(String, TypeRef)>,
    added: Vec<Member>,
}

struct Desugarer<'u, 'h> {
    classes: Vec<&'u ClassDecl>,
    hints: &'h TargetHints,
    closures: Vec<ClosureClass>,
    taken: BTreeSet<String>,
    cx: Context,
    enclosing: Vec<Enclosing>,
}

fn named(name: &str, span: Span) -> TypeRef {
    TypeRef {
        kind: TypeKind::Named {
            name: name.to_owned(),
            qualifier: Vec::new(),
            args: Vec::new(),
        },
        span,
    }
}

/// An identifier written at `span` (for code the front end adds).
pub(crate) fn ident(name: &str, span: Span) -> Ident {
    Ident {
        name: name.to_owned(),
        span,
    }
}

fn expr(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

fn stmt(kind: StmtKind, span: Span) -> Stmt {
    Stmt { kind, span }
}

fn type_name(t: &TypeRef) -> Option<&str> {
    match &t.kind {
        TypeKind::Named { name, .. } => Some(name),
        _ => None,
    }
}

/// Whether a block returns a value somewhere (a lambda body of unknown target).
fn returns_value(b: &Block) -> bool {
    fn walk(s: &Stmt) -> bool {
        match &s.kind {
            StmtKind::Return(Some(_)) => true,
            StmtKind::Block(b) => b.stmts.iter().any(walk),
            StmtKind::If {
                then_branch,
                else_branch,
                ..
            } => walk(then_branch) || else_branch.as_ref().is_some_and(|e| walk(e)),
            StmtKind::While { body, .. }
            | StmtKind::DoWhile { body, .. }
            | StmtKind::For { body, .. }
            | StmtKind::ForEach { body, .. }
            | StmtKind::Labeled { body, .. } => walk(body),
            StmtKind::Synchronized { body, .. } => body.stmts.iter().any(walk),
            StmtKind::Try {
                body,
                catches,
                finally,
                ..
            } => {
                body.stmts.iter().any(walk)
                    || catches.iter().any(|c| c.body.stmts.iter().any(walk))
                    || finally.as_ref().is_some_and(|f| f.stmts.iter().any(walk))
            }
            StmtKind::Switch { cases, .. } => cases.iter().any(|c| c.body.iter().any(walk)),
            _ => false,
        }
    }
    b.stmts.iter().any(walk)
}

/// An expression that can stand as a statement (a call, an assignment, `new`, `++`).
fn is_statement_expr(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Call { .. }
            | ExprKind::Assign { .. }
            | ExprKind::New { .. }
            | ExprKind::IncDec { .. }
    )
}

impl Desugarer<'_, '_> {
    fn class_decl(&self, name: &str) -> Option<&ClassDecl> {
        self.classes.iter().copied().find(|c| c.name.name == name)
    }

    /// The names of the fields the program's classes named by `supers` declare, and
    /// their supertypes': inherited by a class that extends or implements them, they hide
    /// the enclosing method's locals of the same names in its body.
    fn inherited_fields(&self, supers: &[&TypeRef]) -> Vec<String> {
        let mut todo: Vec<&str> = supers.iter().filter_map(|t| type_name(t)).collect();
        let mut seen: Vec<&str> = Vec::new();
        let mut out = Vec::new();
        while let Some(n) = todo.pop() {
            if seen.contains(&n) || seen.len() > 256 {
                continue;
            }
            seen.push(n);
            let Some(d) = self.class_decl(n) else {
                continue;
            };
            for m in &d.members {
                match m {
                    // (A private field is not inherited.)
                    Member::Field(f) if !f.modifiers.is_private => {
                        out.extend(f.declarators.iter().map(|v| v.name.name.clone()));
                    }
                    _ => {}
                }
            }
            todo.extend(d.extends.iter().chain(&d.implements).filter_map(type_name));
        }
        out
    }

    fn fresh_name(&mut self, base: &str) -> String {
        let mut k = self.closures.len() + 1;
        loop {
            let n = format!("{base}${k}");
            if self.taken.insert(n.clone()) {
                return n;
            }
            k += 1;
        }
    }

    fn lookup_local(&self, name: &str) -> Option<&TypeRef> {
        self.cx
            .scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|(n, _)| n == name)
            .map(|(_, t)| t)
    }

    fn lookup_field(&self, name: &str) -> Option<&TypeRef> {
        self.enclosing
            .iter()
            .rev()
            .flat_map(|e| e.fields.iter())
            .find(|(n, _)| n == name)
            .map(|(_, t)| t)
    }

    fn declare(&mut self, name: &str, ty: TypeRef) {
        if self.cx.scopes.is_empty() {
            self.cx.scopes.push(Vec::new());
        }
        if let Some(s) = self.cx.scopes.last_mut() {
            s.push((name.to_owned(), ty));
        }
    }

    /// The captures of code whose names are `names`: its free names that are local
    /// variables here, with their types.
    fn captures(&self, names: &Names) -> Vec<(String, TypeRef)> {
        names
            .free()
            .filter_map(|n| self.lookup_local(n).map(|t| (n.clone(), t.clone())))
            .collect()
    }

    // ---------------------------------------------------------------- classes

    fn class(&mut self, c: &mut ClassDecl, outer_static: bool) {
        let fields: Vec<(String, TypeRef)> = c
            .members
            .iter()
            .filter_map(|m| match m {
                Member::Field(f) => Some(
                    f.declarators
                        .iter()
                        .map(|d| (d.name.name.clone(), d.ty.clone())),
                ),
                _ => None,
            })
            .flatten()
            .collect();
        self.enclosing.push(Enclosing {
            name: c.name.name.clone(),
            fields,
            added: Vec::new(),
        });
        let saved = std::mem::take(&mut self.cx);
        let is_interface = c.is_interface;
        let _ = outer_static;
        for m in &mut c.members {
            self.cx = Context {
                this_class: c.name.name.clone(),
                ..Context::default()
            };
            match m {
                Member::Field(f) => {
                    self.cx.is_static = f.modifiers.is_static || is_interface;
                    for d in &mut f.declarators {
                        let target = d.ty.clone();
                        if let Some(init) = &mut d.init {
                            self.expr(init, Some(&target));
                        }
                    }
                }
                Member::Method(md) => {
                    self.cx.is_static = md.modifiers.is_static;
                    self.cx.ret = Some(md.ret.clone());
                    self.cx.scopes.push(
                        md.params
                            .iter()
                            .map(|p| (p.name.name.clone(), p.ty.clone()))
                            .collect(),
                    );
                    if let Some(b) = &mut md.body {
                        self.block(b);
                    }
                }
                Member::Constructor(cd) => {
                    self.cx.scopes.push(
                        cd.params
                            .iter()
                            .map(|p| (p.name.name.clone(), p.ty.clone()))
                            .collect(),
                    );
                    self.block(&mut cd.body);
                }
                Member::Initializer(i) => {
                    self.cx.is_static = i.is_static;
                    self.block(&mut i.body);
                }
                Member::Class(n) => {
                    let st = n.modifiers.is_static;
                    self.class(n, st);
                }
            }
        }
        self.cx = saved;
        if let Some(e) = self.enclosing.pop() {
            c.members.extend(e.added);
        }
    }

    // ---------------------------------------------------------------- statements

    fn block(&mut self, b: &mut Block) {
        self.cx.scopes.push(Vec::new());
        for s in &mut b.stmts {
            self.stmt(s);
        }
        self.cx.scopes.pop();
    }

    fn scoped(&mut self, s: &mut Stmt) {
        self.cx.scopes.push(Vec::new());
        self.stmt(s);
        self.cx.scopes.pop();
    }

    fn stmt(&mut self, s: &mut Stmt) {
        match &mut s.kind {
            StmtKind::Block(b) => self.block(b),
            StmtKind::LocalVar { declarators, .. } => {
                for d in declarators {
                    let target = d.ty.clone();
                    if let Some(init) = &mut d.init {
                        let t = (target.kind != TypeKind::Inferred).then_some(&target);
                        self.expr(init, t);
                    }
                    let ty = match (&d.ty.kind, &d.init) {
                        (
                            TypeKind::Inferred,
                            Some(Expr {
                                kind: ExprKind::New { class, .. },
                                ..
                            }),
                        ) => class.clone(),
                        _ => d.ty.clone(),
                    };
                    self.declare(&d.name.name, ty);
                }
            }
            StmtKind::Expr(e) | StmtKind::Throw(e) | StmtKind::Yield(e) => self.expr(e, None),
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                self.expr(cond, None);
                self.scoped(then_branch);
                if let Some(e) = else_branch {
                    self.scoped(e);
                }
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                self.expr(cond, None);
                self.scoped(body);
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                self.cx.scopes.push(Vec::new());
                for i in init {
                    self.stmt(i);
                }
                if let Some(c) = cond {
                    self.expr(c, None);
                }
                for u in update {
                    self.expr(u, None);
                }
                self.scoped(body);
                self.cx.scopes.pop();
            }
            StmtKind::ForEach {
                ty,
                name,
                iterable,
                body,
            } => {
                self.expr(iterable, None);
                self.cx.scopes.push(vec![(name.name.clone(), ty.clone())]);
                self.scoped(body);
                self.cx.scopes.pop();
            }
            StmtKind::Return(e) => {
                let ret = self.cx.ret.clone();
                if let Some(e) = e {
                    self.expr(e, ret.as_ref());
                }
            }
            StmtKind::Synchronized { lock, body } => {
                self.expr(lock, None);
                self.block(body);
            }
            StmtKind::Assert { cond, message } => {
                self.expr(cond, None);
                if let Some(m) = message {
                    self.expr(m, None);
                }
            }
            StmtKind::Try {
                resources,
                body,
                catches,
                finally,
            } => {
                self.cx.scopes.push(Vec::new());
                for r in resources {
                    match r {
                        cfp_syntax::ast::Resource::Decl { ty, name, init, .. } => {
                            let t = ty.clone();
                            self.expr(init, (t.kind != TypeKind::Inferred).then_some(&t));
                            self.declare(&name.name, t);
                        }
                        cfp_syntax::ast::Resource::Expr(e) => self.expr(e, None),
                    }
                }
                self.block(body);
                self.cx.scopes.pop();
                for c in catches {
                    let ty = c
                        .types
                        .first()
                        .cloned()
                        .unwrap_or_else(|| named("Throwable", c.span));
                    self.cx.scopes.push(vec![(c.name.name.clone(), ty)]);
                    self.block(&mut c.body);
                    self.cx.scopes.pop();
                }
                if let Some(f) = finally {
                    self.block(f);
                }
            }
            StmtKind::Labeled { body, .. } => self.stmt(body),
            StmtKind::Switch { scrutinee, cases } => self.switch(scrutinee, cases),
            StmtKind::LocalClass(decl) => {
                self.local_class(decl);
                s.kind = StmtKind::Empty;
            }
            StmtKind::Break(_) | StmtKind::Continue(_) | StmtKind::Empty | StmtKind::Error => {}
        }
    }

    /// A switch statement or expression: its cases share one scope.
    fn switch(&mut self, scrutinee: &mut Expr, cases: &mut [cfp_syntax::ast::SwitchCase]) {
        self.expr(scrutinee, None);
        self.cx.scopes.push(Vec::new());
        for c in cases {
            for l in &mut c.labels {
                self.expr(l, None);
            }
            for s in &mut c.body {
                self.stmt(s);
            }
        }
        self.cx.scopes.pop();
    }

    // ---------------------------------------------------------------- expressions

    fn expr(&mut self, e: &mut Expr, target: Option<&TypeRef>) {
        match &mut e.kind {
            ExprKind::Closure(c) => {
                if let Some(new) = self.closure(c, e.span, target) {
                    *e = new;
                }
            }
            ExprKind::This if self.cx.in_lambda => {
                e.kind = ExprKind::OuterThis(self.cx.this_class.clone());
            }
            ExprKind::Assign {
                target: t, value, ..
            } => {
                let ty = match &t.kind {
                    ExprKind::Name(id) => self
                        .lookup_local(&id.name)
                        .or_else(|| self.lookup_field(&id.name))
                        .cloned(),
                    ExprKind::Field { target: o, name } if matches!(o.kind, ExprKind::This) => {
                        self.lookup_field(&name.name).cloned()
                    }
                    _ => None,
                };
                self.expr(t, None);
                self.expr(value, ty.as_ref());
            }
            ExprKind::Conditional {
                cond,
                then_expr,
                else_expr,
            } => {
                self.expr(cond, None);
                self.expr(then_expr, target);
                self.expr(else_expr, target);
            }
            ExprKind::Cast { ty, operand } => {
                let t = ty.clone();
                self.expr(operand, Some(&t));
            }
            ExprKind::Field { target: t, .. } => self.expr(t, None),
            ExprKind::Switch(sw) => {
                let sw = &mut **sw;
                self.switch(&mut sw.scrutinee, &mut sw.cases);
            }
            ExprKind::Call {
                target: t, args, ..
            } => {
                if let Some(t) = t {
                    self.expr(t, None);
                }
                for a in args {
                    self.expr(a, None);
                }
            }
            ExprKind::New { args, .. } => {
                for a in args {
                    self.expr(a, None);
                }
            }
            ExprKind::NewArray { dims, init, .. } => {
                for d in dims {
                    self.expr(d, None);
                }
                for i in init.iter_mut().flatten() {
                    self.expr(i, None);
                }
            }
            ExprKind::ArrayLiteral(items) => {
                for i in items {
                    self.expr(i, None);
                }
            }
            ExprKind::Index { array, index } => {
                self.expr(array, None);
                self.expr(index, None);
            }
            ExprKind::Unary { operand, .. } | ExprKind::InstanceOf { operand, .. } => {
                self.expr(operand, None)
            }
            ExprKind::IncDec { target: t, .. } => self.expr(t, None),
            ExprKind::Binary { lhs, rhs, .. } => {
                self.expr(lhs, None);
                self.expr(rhs, None);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
