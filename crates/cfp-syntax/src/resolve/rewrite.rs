//! The walk that resolves every class name of a file and, when applying, writes the
//! program's name for it: type references, class-qualified names in expressions
//! (`a.b.C.m()`, `Outer.Inner.CONST`), class literals, `Outer.this`, `X.super`, and the
//! members of static imports.

use super::index::{split, Index, Resolved};
use crate::ast::{
    Block, ClassDecl, Closure, ClosureCode, Expr, ExprKind, Ident, LambdaBody, Member,
    MethodRefTarget, Resource, Stmt, StmtKind, SwitchCase, TypeKind, TypeRef, VarDeclarator,
};

/// The walk over one file (see the module docs).
pub(super) struct Rewriter<'a> {
    /// The tree's classes.
    pub ix: &'a mut Index,
    /// False for the survey pass (resolve only, to learn the library names), true to
    /// write the program's names.
    pub apply: bool,
    /// The file walked.
    pub file: usize,
    /// The indexed classes around the code walked, outermost first.
    chain: Vec<usize>,
    /// Type variables and local classes in scope: names this pass leaves alone.
    hidden: Vec<String>,
    /// The type variables in scope, innermost last, each with its erasure when it has a
    /// bound (already resolved).
    tvars: Vec<(String, Option<TypeRef>)>,
    /// False while a parameter's type is walked: parameters keep their type variables,
    /// which is how overriding methods are matched (javac's bridge methods make
    /// `put(T t)` of `Sink<T extends Frame>` override `put(T t)` of `Base<T>`).
    erase: bool,
    /// Variables in scope (locals, parameters, fields of local and anonymous classes).
    vars: Vec<String>,
    /// Methods of the local and anonymous classes around the code.
    local_methods: Vec<String>,
}

impl<'a> Rewriter<'a> {
    /// A walk of file `file`.
    pub fn new(ix: &'a mut Index, file: usize, apply: bool) -> Rewriter<'a> {
        Rewriter {
            ix,
            apply,
            file,
            chain: Vec::new(),
            hidden: Vec::new(),
            tvars: Vec::new(),
            erase: true,
            vars: Vec::new(),
            local_methods: Vec::new(),
        }
    }

    fn resolve(&mut self, segments: &[String]) -> Resolved {
        let hidden = &self.hidden;
        let is_hidden = |n: &str| hidden.iter().any(|h| h == n);
        self.ix
            .qualified(segments, self.file, &self.chain, &is_hidden)
    }

    /// The program's name for class `c`.
    fn program(&self, c: usize) -> String {
        self.ix.classes[c].program.clone()
    }

    fn is_var(&self, name: &str) -> bool {
        self.vars.iter().any(|v| v == name)
            || self
                .chain
                .iter()
                .any(|&c| self.ix.has_member(c, name, |k| &k.fields))
    }

    /// A top-level or member class.
    pub fn class(&mut self, c: &mut ClassDecl) {
        let Some(&id) = self.ix.by_span.get(&c.name.span.start) else {
            return self.local_class(c);
        };
        let (hidden, vars, tvars) = (self.hidden.len(), self.vars.len(), self.tvars.len());
        self.hidden.extend(c.type_params.iter().cloned());
        self.bind_type_vars(&c.type_params, &c.type_bounds);
        for t in c.extends.iter_mut().chain(c.implements.iter_mut()) {
            self.type_ref(t);
        }
        self.chain.push(id);
        let name = self.program(id);
        if self.apply {
            c.name.name.clone_from(&name);
        }
        self.members(&mut c.members, Some(&name));
        self.chain.pop();
        self.hidden.truncate(hidden);
        self.vars.truncate(vars);
        self.tvars.truncate(tvars);
    }

    /// A local class: its name is the desugaring's to resolve; its fields and methods
    /// are in scope in its body.
    fn local_class(&mut self, c: &mut ClassDecl) {
        self.hidden.push(c.name.name.clone());
        // It shadows a type variable of that name.
        self.tvars.push((c.name.name.clone(), None));
        let (hidden, vars, methods, tvars) = (
            self.hidden.len(),
            self.vars.len(),
            self.local_methods.len(),
            self.tvars.len(),
        );
        self.hidden.extend(c.type_params.iter().cloned());
        self.bind_type_vars(&c.type_params, &c.type_bounds);
        let supers: Vec<usize> = c
            .extends
            .iter()
            .chain(&c.implements)
            .filter_map(|t| self.class_of(t))
            .collect();
        for t in c.extends.iter_mut().chain(c.implements.iter_mut()) {
            self.type_ref(t);
        }
        self.scope_members(&c.members);
        let chain = self.chain.len();
        self.chain.extend(supers);
        self.members(&mut c.members, None);
        self.chain.truncate(chain);
        self.hidden.truncate(hidden);
        self.vars.truncate(vars);
        self.local_methods.truncate(methods);
        self.tvars.truncate(tvars);
    }

    /// The program class a supertype as written names, if any (before it is rewritten).
    /// The body of a local or anonymous class sees its program supertypes' member
    /// classes, fields and methods: they go on the chain while it is walked.
    fn class_of(&mut self, t: &TypeRef) -> Option<usize> {
        let TypeKind::Named {
            name, qualifier, ..
        } = &t.kind
        else {
            return None;
        };
        let mut segments = qualifier.clone();
        segments.push(name.clone());
        match self.resolve(&segments) {
            Resolved::Class(c) => Some(c),
            _ => None,
        }
    }

    /// Put the fields and methods of a local or anonymous class's `members` in scope.
    fn scope_members(&mut self, members: &[Member]) {
        for m in members {
            match m {
                Member::Field(f) => self
                    .vars
                    .extend(f.declarators.iter().map(|d| d.name.name.clone())),
                Member::Method(m) => self.local_methods.push(m.name.name.clone()),
                _ => {}
            }
        }
    }

    /// Members; constructors are renamed to `ctor` (the class's program name).
    fn members(&mut self, members: &mut [Member], ctor: Option<&str>) {
        for m in members {
            match m {
                Member::Field(f) => {
                    self.type_ref(&mut f.ty);
                    self.declarators(&mut f.declarators);
                }
                Member::Method(m) => {
                    let (hidden, vars, tvars) =
                        (self.hidden.len(), self.vars.len(), self.tvars.len());
                    self.hidden.extend(m.type_params.iter().cloned());
                    self.bind_type_vars(&m.type_params, &m.type_bounds);
                    self.type_ref(&mut m.ret);
                    for p in &mut m.params {
                        self.param_type(&mut p.ty);
                        self.vars.push(p.name.name.clone());
                    }
                    for t in &mut m.throws {
                        self.type_ref(t);
                    }
                    if let Some(b) = &mut m.body {
                        self.block(b);
                    }
                    self.hidden.truncate(hidden);
                    self.vars.truncate(vars);
                    self.tvars.truncate(tvars);
                }
                Member::Constructor(k) => {
                    if let (true, Some(name)) = (self.apply, ctor) {
                        k.name.name = name.to_owned();
                    }
                    let vars = self.vars.len();
                    for p in &mut k.params {
                        self.param_type(&mut p.ty);
                        self.vars.push(p.name.name.clone());
                    }
                    for t in &mut k.throws {
                        self.type_ref(t);
                    }
                    self.block(&mut k.body);
                    self.vars.truncate(vars);
                }
                Member::Initializer(i) => self.block(&mut i.body),
                Member::Class(c) => self.class(c),
            }
        }
    }

    fn declarators(&mut self, ds: &mut [VarDeclarator]) {
        for d in ds {
            self.type_ref(&mut d.ty);
            if let Some(e) = &mut d.init {
                self.expr(e);
            }
        }
    }

    /// Put type variables `names` in scope; those with a bound in `bounds` get their
    /// erasure: the first bound, resolved, without its generic arguments (JLS 4.6).
    fn bind_type_vars(&mut self, names: &[String], bounds: &[(String, TypeRef)]) {
        let first = self.tvars.len();
        self.tvars.extend(names.iter().map(|n| (n.clone(), None)));
        for (name, bound) in bounds {
            let mut erased = bound.clone();
            self.type_ref(&mut erased);
            if let TypeKind::Named { args, .. } = &mut erased.kind {
                args.clear();
            }
            if let Some(slot) = self.tvars[first..].iter_mut().find(|(n, _)| n == name) {
                slot.1 = Some(erased);
            }
        }
    }

    /// A parameter's type: resolved, its type variables kept.
    fn param_type(&mut self, t: &mut TypeRef) {
        self.erase = false;
        self.type_ref(t);
        self.erase = true;
    }

    /// A type as written. A bounded type variable is written as its erasure when applying
    /// (but in a parameter's type): the type the JVM's casts use for it.
    pub fn type_ref(&mut self, t: &mut TypeRef) {
        if let TypeKind::Named {
            name,
            qualifier,
            args,
        } = &t.kind
        {
            if qualifier.is_empty() && args.is_empty() {
                let bound = self.tvars.iter().rev().find(|(n, _)| n == name);
                if let Some((_, erased)) = bound {
                    if let (true, true, Some(erased)) = (self.apply, self.erase, erased) {
                        t.kind = erased.kind.clone();
                    }
                    return;
                }
            }
        }
        match &mut t.kind {
            TypeKind::Array(inner) => self.type_ref(inner),
            TypeKind::Named {
                name,
                qualifier,
                args,
            } => {
                for a in args.iter_mut() {
                    self.type_ref(a);
                }
                let mut segments = qualifier.clone();
                segments.push(name.clone());
                if let Resolved::Class(c) = self.resolve(&segments) {
                    if self.apply {
                        *name = self.program(c);
                        qualifier.clear();
                    }
                }
            }
            _ => {}
        }
    }

    fn block(&mut self, b: &mut Block) {
        let (hidden, vars, tvars) = (self.hidden.len(), self.vars.len(), self.tvars.len());
        for s in &mut b.stmts {
            self.stmt(s);
        }
        self.hidden.truncate(hidden);
        self.vars.truncate(vars);
        self.tvars.truncate(tvars);
    }

    fn scoped(&mut self, s: &mut Stmt) {
        let (hidden, vars, tvars) = (self.hidden.len(), self.vars.len(), self.tvars.len());
        self.stmt(s);
        self.hidden.truncate(hidden);
        self.vars.truncate(vars);
        self.tvars.truncate(tvars);
    }

    fn stmt(&mut self, s: &mut Stmt) {
        match &mut s.kind {
            StmtKind::Block(b) => self.block(b),
            StmtKind::LocalVar { ty, declarators } => {
                self.type_ref(ty);
                for d in declarators {
                    self.type_ref(&mut d.ty);
                    if let Some(e) = &mut d.init {
                        self.expr(e);
                    }
                    self.vars.push(d.name.name.clone());
                }
            }
            StmtKind::Expr(e) | StmtKind::Throw(e) | StmtKind::Yield(e) => self.expr(e),
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    self.expr(e);
                }
            }
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                self.expr(cond);
                self.scoped(then_branch);
                if let Some(e) = else_branch {
                    self.scoped(e);
                }
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                self.expr(cond);
                self.scoped(body);
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                let vars = self.vars.len();
                for s in init {
                    self.stmt(s);
                }
                if let Some(c) = cond {
                    self.expr(c);
                }
                for u in update {
                    self.expr(u);
                }
                self.scoped(body);
                self.vars.truncate(vars);
            }
            StmtKind::ForEach {
                ty,
                name,
                iterable,
                body,
            } => {
                self.type_ref(ty);
                self.expr(iterable);
                let vars = self.vars.len();
                self.vars.push(name.name.clone());
                self.scoped(body);
                self.vars.truncate(vars);
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
                let vars = self.vars.len();
                for r in resources {
                    match r {
                        Resource::Decl { ty, name, init, .. } => {
                            self.type_ref(ty);
                            self.expr(init);
                            self.vars.push(name.name.clone());
                        }
                        Resource::Expr(e) => self.expr(e),
                    }
                }
                self.block(body);
                self.vars.truncate(vars);
                for c in catches {
                    for t in &mut c.types {
                        self.type_ref(t);
                    }
                    self.vars.push(c.name.name.clone());
                    self.block(&mut c.body);
                    self.vars.truncate(vars);
                }
                if let Some(f) = finally {
                    self.block(f);
                }
            }
            StmtKind::Labeled { body, .. } => self.scoped(body),
            StmtKind::Switch { scrutinee, cases } => {
                self.expr(scrutinee);
                self.cases(cases);
            }
            StmtKind::LocalClass(c) => self.local_class(c),
            StmtKind::Break(_) | StmtKind::Continue(_) | StmtKind::Empty | StmtKind::Error => {}
        }
    }

    fn cases(&mut self, cases: &mut [SwitchCase]) {
        let vars = self.vars.len();
        for c in cases {
            // A bare label names a constant of the scrutinee's type and is left as
            // written; a qualified one (`Outer.Kind.A`, `Limits.MAX`) names its class.
            for l in &mut c.labels {
                if matches!(l.kind, ExprKind::Field { .. }) {
                    self.expr(l);
                }
            }
            for s in &mut c.body {
                self.stmt(s);
            }
        }
        self.vars.truncate(vars);
    }

    fn expr(&mut self, e: &mut Expr) {
        match &mut e.kind {
            ExprKind::Name(id) => {
                if let Some(owner) = self.static_import(&id.name, false) {
                    if self.apply {
                        let field = id.clone();
                        e.kind = ExprKind::Field {
                            target: Box::new(name_expr(owner, field.span)),
                            name: field,
                        };
                    }
                }
            }
            ExprKind::Field { target, .. } => self.target(target),
            ExprKind::Call { target, name, args } => {
                match target {
                    Some(t) => self.target(t),
                    None => {
                        if let Some(owner) = self.static_import(&name.name, true) {
                            if self.apply {
                                *target = Some(Box::new(name_expr(owner, name.span)));
                            }
                        }
                    }
                }
                for a in args {
                    self.expr(a);
                }
            }
            ExprKind::New { class, args } => {
                self.type_ref(class);
                for a in args {
                    self.expr(a);
                }
            }
            ExprKind::NewArray {
                elem, dims, init, ..
            } => {
                self.type_ref(elem);
                for d in dims.iter_mut().chain(init.iter_mut().flatten()) {
                    self.expr(d);
                }
            }
            ExprKind::Cast { ty, operand } => {
                self.type_ref(ty);
                self.expr(operand);
            }
            ExprKind::InstanceOf {
                operand,
                ty,
                binding,
            } => {
                self.expr(operand);
                self.type_ref(ty);
                if let Some(b) = binding {
                    self.vars.push(b.name.clone());
                }
            }
            ExprKind::ClassLiteral(name) => {
                if let Resolved::Class(c) = self.resolve(&split(name)) {
                    if self.apply {
                        *name = self.program(c);
                    }
                }
            }
            ExprKind::OuterThis(name) | ExprKind::QualifiedSuper(name) => {
                let c = match self
                    .chain
                    .iter()
                    .rev()
                    .find(|&&c| self.ix.classes[c].simple == *name)
                {
                    Some(&c) => Some(c),
                    None => match self.resolve(&split(name)) {
                        Resolved::Class(c) => Some(c),
                        _ => None,
                    },
                };
                if let (true, Some(c)) = (self.apply, c) {
                    *name = self.program(c);
                }
            }
            ExprKind::Closure(c) => self.closure(c),
            ExprKind::Switch(sw) => {
                self.expr(&mut sw.scrutinee);
                self.cases(&mut sw.cases);
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
            ExprKind::Unary { operand, .. } => self.expr(operand),
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
            ExprKind::Int { .. }
            | ExprKind::Float(_)
            | ExprKind::Bool(_)
            | ExprKind::Null
            | ExprKind::String(_)
            | ExprKind::Char(_)
            | ExprKind::Nondet
            | ExprKind::This
            | ExprKind::Super
            | ExprKind::Error => {}
        }
    }

    /// The program class that a static import gives the unqualified member `name` (a
    /// method when `method`, else a field), when no enclosing class has one of that name.
    fn static_import(&self, name: &str, method: bool) -> Option<String> {
        if method {
            if self.local_methods.iter().any(|m| m == name)
                || self
                    .chain
                    .iter()
                    .any(|&c| self.ix.has_member(c, name, |k| &k.methods))
            {
                return None;
            }
        } else if self.is_var(name) {
            return None;
        }
        let scope = &self.ix.files[self.file];
        let has = |c: usize| {
            if method {
                self.ix.has_member(c, name, |k| &k.methods)
            } else {
                self.ix.has_member(c, name, |k| &k.fields)
            }
        };
        let single = scope
            .static_single
            .iter()
            .filter(|(m, _)| m == name)
            .filter_map(|(_, class)| self.ix.by_segments(class))
            .find(|&c| has(c));
        let found = single.or_else(|| {
            scope
                .static_on_demand
                .iter()
                .filter_map(|class| self.ix.by_segments(class))
                .find(|&c| has(c))
        })?;
        Some(self.program(found))
    }

    /// The target of a field access, call or method reference: a name chain whose
    /// leading segments name a class (`a.b.C`, `Outer.Inner`, `C`) becomes that class's
    /// program name; anything else is an expression.
    fn target(&mut self, t: &mut Expr) {
        let Some(segments) = name_chain(t) else {
            return self.expr(t);
        };
        let first = &segments[0];
        if self.is_var(first) {
            return self.expr(t);
        }
        let found = match self.resolve(&segments[..1]) {
            Resolved::Class(c) => Some((c, 1)),
            Resolved::Keep => None,
            Resolved::Library => (2..=segments.len())
                .find_map(|i| {
                    self.ix
                        .by_qualified
                        .get(&segments[..i].join("."))
                        .map(|&c| (c, i))
                })
                .or_else(|| self.qualified_library(&segments)),
        };
        let Some((mut class, mut len)) = found else {
            return self.expr(t);
        };
        while let Some(m) = segments
            .get(len)
            .and_then(|next| self.ix.member_type(class, next))
        {
            class = m;
            len += 1;
        }
        if !self.apply || (len == 1 && segments[0] == self.ix.classes[class].program) {
            return;
        }
        let name = self.program(class);
        let mut node = t;
        for _ in len..segments.len() {
            let ExprKind::Field { target, .. } = &mut node.kind else {
                return;
            };
            node = target;
        }
        node.kind = ExprKind::Name(Ident {
            name,
            span: node.span,
        });
    }

    /// `a.b.C.m()` with no program class `a.b.C`: a library class (remembered, so that
    /// no program class is known by its simple name), or the model that stands for it.
    fn qualified_library(&mut self, segments: &[String]) -> Option<(usize, usize)> {
        let class_at = segments
            .iter()
            .position(|s| s.starts_with(|c: char| c.is_ascii_uppercase()))
            .filter(|&j| j > 0)?;
        match self.ix.library(&segments[..=class_at]) {
            Resolved::Class(c) => Some((c, class_at + 1)),
            _ => None,
        }
    }

    fn closure(&mut self, c: &mut Closure) {
        for a in &mut c.args {
            self.expr(a);
        }
        let supers: Vec<usize> = c.ty.iter().filter_map(|t| self.class_of(t)).collect();
        if let Some(t) = &mut c.ty {
            self.type_ref(t);
        }
        if self.apply {
            self.rename_calls(c);
        }
        let (hidden, vars, methods) =
            (self.hidden.len(), self.vars.len(), self.local_methods.len());
        match &mut c.code {
            ClosureCode::Lambda { params, body } => {
                for p in params {
                    if let Some(t) = &mut p.ty {
                        self.param_type(t);
                    }
                    self.vars.push(p.name.name.clone());
                }
                match body {
                    LambdaBody::Expr(e) => self.expr(e),
                    LambdaBody::Block(b) => self.block(b),
                }
            }
            ClosureCode::MethodRef { target, .. } => match target {
                MethodRefTarget::Expr(e) => self.target(e),
                MethodRefTarget::Type(t) => self.type_ref(t),
                MethodRefTarget::Super => {}
            },
            ClosureCode::Anonymous { members } => {
                self.scope_members(members);
                let chain = self.chain.len();
                self.chain.extend(supers);
                self.members(members, None);
                self.chain.truncate(chain);
            }
        }
        self.hidden.truncate(hidden);
        self.vars.truncate(vars);
        self.local_methods.truncate(methods);
    }

    /// A closure's summary of what it calls names classes by their simple names: add
    /// the program names of the classes that go by another name.
    fn rename_calls(&self, c: &mut Closure) {
        let mut extra = Vec::new();
        for call in &c.calls {
            for &k in self.ix.by_simple.get(&call.name).into_iter().flatten() {
                let program = &self.ix.classes[k].program;
                if *program != call.name {
                    extra.push(Ident {
                        name: program.clone(),
                        span: call.span,
                    });
                }
            }
        }
        c.calls.extend(extra);
    }
}

/// `a`, `a.b`, `a.b.c`: the names, or `None` for any other expression.
fn name_chain(e: &Expr) -> Option<Vec<String>> {
    match &e.kind {
        ExprKind::Name(id) => Some(vec![id.name.clone()]),
        ExprKind::Field { target, name } => {
            let mut v = name_chain(target)?;
            v.push(name.name.clone());
            Some(v)
        }
        _ => None,
    }
}

fn name_expr(name: String, span: crate::span::Span) -> Expr {
    Expr {
        kind: ExprKind::Name(Ident { name, span }),
        span,
    }
}
