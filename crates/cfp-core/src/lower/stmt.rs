//! Statements: blocks and scopes, `if`/loops/`switch`, jumps through `finally`,
//! local declarations, and conditions split into `assume` edges.

use super::*;

impl<'c, 'a> MethodLowerer<'c, 'a> {
    // ------------------------------------------------------------------ statements

    pub(super) fn block(&mut self, b: &'a Block) {
        let mark = self.scope.len();
        for s in &b.stmts {
            self.stmt(s);
        }
        self.scope.truncate(mark);
    }

    pub(super) fn stmts(&mut self, ss: &'a [ast::Stmt]) {
        for s in ss {
            self.stmt(s);
        }
    }

    pub(super) fn stmt(&mut self, s: &'a ast::Stmt) {
        let label = self.pending_label.take();
        match &s.kind {
            StmtKind::Block(b) => self.block(b),
            StmtKind::LocalVar { declarators, .. } => {
                for d in declarators {
                    self.local_decl(d);
                }
            }
            StmtKind::Expr(e) => self.expr_stmt(e),
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                let (t, f, after) = (self.fresh(), self.fresh(), self.fresh());
                self.cond(cond, t, f);
                self.set(t);
                self.scoped_stmt(then_branch);
                self.goto(after);
                self.set(f);
                if let Some(e) = else_branch {
                    self.scoped_stmt(e);
                }
                self.goto(after);
                self.set(after);
            }
            StmtKind::While { cond, body } => {
                let head = self.fresh();
                self.goto(head);
                self.set(head);
                let (body_n, after) = (self.fresh(), self.fresh());
                self.cond(cond, body_n, after);
                self.set(body_n);
                self.loop_body(label, after, head, body);
                self.goto(head);
                self.set(after);
            }
            StmtKind::DoWhile { body, cond } => {
                let (body_n, cont, after) = (self.fresh(), self.fresh(), self.fresh());
                self.goto(body_n);
                self.set(body_n);
                self.loop_body(label, after, cont, body);
                self.goto(cont);
                self.set(cont);
                self.cond(cond, body_n, after);
                self.set(after);
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                let mark = self.scope.len();
                for i in init {
                    self.stmt(i);
                }
                let head = self.fresh();
                self.goto(head);
                self.set(head);
                let (body_n, upd, after) = (self.fresh(), self.fresh(), self.fresh());
                match cond {
                    Some(c) => self.cond(c, body_n, after),
                    None => self.goto(body_n),
                }
                self.set(body_n);
                self.loop_body(label, after, upd, body);
                self.goto(upd);
                self.set(upd);
                for u in update {
                    self.expr_stmt(u);
                }
                self.goto(head);
                self.set(after);
                self.scope.truncate(mark);
            }
            StmtKind::ForEach {
                ty,
                name,
                iterable,
                body,
            } => {
                let (it, _) = self.expr(iterable, Some(Sort::Ref));
                self.assume_nonnull(&it, iterable.span);
                let head = self.fresh();
                self.goto(head);
                self.set(head);
                let (body_n, after) = (self.fresh(), self.fresh());
                self.skip_to(after);
                self.goto(body_n);
                self.set(body_n);
                let mark = self.scope.len();
                self.check_not_redeclared(name);
                let vty = self.cx.table.resolve(ty);
                let v = self.new_var(&name.name, vty, VarKind::Local);
                self.declared_as(v, ty);
                self.emit(Stmt::Havoc(Place::Var(v)), name.span);
                self.loop_body(label, after, head, body);
                self.scope.truncate(mark);
                self.goto(head);
                self.set(after);
            }
            StmtKind::Break(l) => self.jump(l.as_ref(), false, s.span),
            StmtKind::Continue(l) => self.jump(l.as_ref(), true, s.span),
            StmtKind::Return(e) => {
                match (e, self.ret) {
                    (Some(e), Some(r)) => {
                        let rt = self.ret_type.clone();
                        let (v, _) = self.expr(e, Some(rt.sort()));
                        let v = self.coerce(v, rt.sort(), &rt, e.span);
                        self.emit(
                            Stmt::Assign {
                                place: Place::Var(r),
                                expr: v,
                            },
                            s.span,
                        );
                    }
                    (Some(e), None) => {
                        self.expr(e, None);
                        self.error(
                            "unexpected-return-value",
                            e.span,
                            "a void method or constructor cannot return a value",
                        );
                    }
                    (None, Some(_)) => self.error(
                        "missing-return-value",
                        s.span,
                        "this method must return a value",
                    ),
                    (None, None) => {}
                }
                self.emit(Stmt::Leave, s.span);
                let exit = self.exit;
                self.jump_to(exit, 0);
            }
            StmtKind::Synchronized { lock, body } => {
                // The monitor is no protocol event: evaluate `lock` (a call in it runs;
                // a null monitor throws), then the block.
                let (m, _) = self.expr(lock, Some(Sort::Ref));
                self.assume_nonnull(&m, lock.span);
                self.block(body);
            }
            StmtKind::Assert { cond, message } => {
                // Enabled or not (`-ea`), unknown here: either nothing happens, or `cond` is
                // evaluated and, when false, the message is and the execution ends with an
                // AssertionError (as a `throw`).
                let (check, after) = (self.fresh(), self.fresh());
                self.skip_to(after);
                self.goto(check);
                self.set(check);
                let fails = self.fresh();
                self.cond(cond, after, fails);
                self.set(fails);
                if let Some(m) = message {
                    self.expr(m, None);
                }
                self.throw_new("AssertionError", s.span);
                self.set(after);
            }
            StmtKind::Throw(e) => {
                let (v, _) = self.expr(e, Some(Sort::Ref));
                // `throw null` throws a NullPointerException.
                self.assume_nonnull(&v, e.span);
                self.throw_value(v, s.span);
            }
            StmtKind::Try {
                resources,
                body,
                catches,
                finally,
            } => self.try_stmt(resources, body, catches, finally.as_ref()),
            StmtKind::Labeled { label: l, body } => match body.kind {
                StmtKind::While { .. }
                | StmtKind::DoWhile { .. }
                | StmtKind::For { .. }
                | StmtKind::ForEach { .. }
                | StmtKind::Switch { .. } => {
                    self.pending_label = Some(l.name.clone());
                    self.stmt(body);
                }
                _ => {
                    let after = self.fresh();
                    self.jumps.push(JumpCtx {
                        label: Some(l.name.clone()),
                        brk: after,
                        cont: None,
                        breakable: false,
                        finally_depth: self.finallys.len(),
                    });
                    self.scoped_stmt(body);
                    self.jumps.pop();
                    self.goto(after);
                    self.set(after);
                }
            },
            StmtKind::Switch { scrutinee, cases } => self.switch(label, scrutinee, cases),
            StmtKind::Yield(e) => self.yield_value(e, s.span),
            StmtKind::LocalClass(c) => self.error(
                "unsupported",
                Span::new(
                    s.span.start as usize,
                    c.name.span.end.max(s.span.start) as usize,
                ),
                "local classes are not supported",
            ),
            StmtKind::Empty | StmtKind::Error => {}
        }
    }

    pub(super) fn scoped_stmt(&mut self, s: &'a ast::Stmt) {
        let mark = self.scope.len();
        self.stmt(s);
        self.scope.truncate(mark);
    }

    pub(super) fn loop_body(
        &mut self,
        label: Option<String>,
        brk: usize,
        cont: usize,
        body: &'a ast::Stmt,
    ) {
        self.jumps.push(JumpCtx {
            label,
            brk,
            cont: Some(cont),
            breakable: true,
            finally_depth: self.finallys.len(),
        });
        self.scoped_stmt(body);
        self.jumps.pop();
    }

    pub(super) fn switch(
        &mut self,
        label: Option<String>,
        scrutinee: &'a ast::Expr,
        cases: &'a [ast::SwitchCase],
    ) {
        let (s, st) = self.expr(scrutinee, None);
        let labels_have_effects = cases.iter().flat_map(|c| &c.labels).any(has_effects);
        let s = if labels_have_effects {
            self.snapshot(s, &st, scrutinee.span)
        } else {
            s
        };
        // A switch over an enum of the program sees one of its constants (a null one
        // throws at the switch, and the execution ends).
        if let Type::Class(e) = &st {
            let constants = self.enum_constants(*e);
            if !constants.is_empty() {
                self.init_class(*e, scrutinee.span);
            }
            if let Some(first) = constants.first() {
                let is = |g: &GlobalId| Expr::binary(BinaryOp::Eq, s.clone(), Expr::Global(*g));
                let any = constants[1..]
                    .iter()
                    .fold(is(first), |a, g| Expr::binary(BinaryOp::Or, a, is(g)));
                self.emit(Stmt::Assume(any), scrutinee.span);
            }
        }
        let after = self.fresh();
        let entries: Vec<usize> = cases.iter().map(|_| self.fresh()).collect();
        for (i, c) in cases.iter().enumerate() {
            if c.labels.is_empty() {
                continue;
            }
            let mut tests = Vec::new();
            for l in &c.labels {
                let (lv, lt) = self.case_label(l, &st);
                let (eq, _) = self.binop(BinaryOp::Eq, s.clone(), &st, lv, &lt, l.span);
                tests.push(eq);
            }
            let mut it = tests.into_iter();
            let Some(first) = it.next() else { continue };
            let test = it.fold(first, |a, b| Expr::binary(BinaryOp::Or, a, b));
            let next = self.fresh();
            let here = self.cur;
            self.emit(Stmt::Assume(test.clone()), c.span);
            self.goto(entries[i]);
            self.set(here);
            self.emit(Stmt::Assume(test.negate()), c.span);
            self.goto(next);
            self.set(next);
        }
        match cases.iter().position(|c| c.is_default) {
            Some(d) => self.goto(entries[d]),
            None => self.goto(after),
        }
        self.jumps.push(JumpCtx {
            label,
            brk: after,
            cont: None,
            breakable: true,
            finally_depth: self.finallys.len(),
        });
        let mark = self.scope.len();
        for (i, c) in cases.iter().enumerate() {
            self.set(entries[i]);
            self.stmts(&c.body);
            // An arrow rule never falls through.
            let next = if c.is_arrow() {
                after
            } else {
                entries.get(i + 1).copied().unwrap_or(after)
            };
            self.goto(next);
        }
        self.scope.truncate(mark);
        self.jumps.pop();
        self.set(after);
    }

    pub(super) fn jump(&mut self, label: Option<&Ident>, is_continue: bool, span: Span) {
        let found = self.jumps.iter().rposition(|j| match label {
            Some(l) => j.label.as_deref() == Some(l.name.as_str()),
            None => {
                if is_continue {
                    j.cont.is_some()
                } else {
                    j.breakable
                }
            }
        });
        let target = found.and_then(|i| {
            let j = &self.jumps[i];
            let t = if is_continue { j.cont } else { Some(j.brk) };
            t.map(|t| (t, j.finally_depth))
        });
        match target {
            Some((t, depth)) => self.jump_to(t, depth),
            None => {
                let what = if is_continue { "continue" } else { "break" };
                match label {
                    Some(l) => self.error(
                        "undefined-label",
                        l.span,
                        format!("no enclosing statement labelled `{}` for `{what}`", l.name),
                    ),
                    None => self.error(
                        "jump-outside-loop",
                        span,
                        format!("`{what}` outside of a loop or switch"),
                    ),
                }
                self.cur = self.fresh();
            }
        }
    }

    /// Leave to `target`, running the finally blocks between here and `depth`.
    pub(super) fn jump_to(&mut self, target: usize, depth: usize) {
        let saved = self.finallys.clone();
        let saved_handlers = self.handlers.clone();
        while self.finallys.len() > depth {
            let Some(f) = self.finallys.pop() else { break };
            // An exception in the finally block goes to the handlers around its `try`.
            let len = self.finallys.len();
            self.handlers.retain(|h| h.depth <= len);
            let saved_jumps = std::mem::take(&mut self.jumps);
            // Jumps inside the finally block see the enclosing targets only.
            self.jumps = saved_jumps
                .iter()
                .filter(|j| j.finally_depth <= self.finallys.len())
                .map(|j| JumpCtx {
                    label: j.label.clone(),
                    brk: j.brk,
                    cont: j.cont,
                    breakable: j.breakable,
                    finally_depth: j.finally_depth,
                })
                .collect();
            self.run_finally(&f);
            self.jumps = saved_jumps;
        }
        self.finallys = saved;
        self.handlers = saved_handlers;
        self.goto(target);
    }

    pub(super) fn local_decl(&mut self, d: &'a ast::VarDeclarator) {
        self.check_not_redeclared(&d.name);
        let declared = self.cx.table.resolve(&d.ty);
        match &d.init {
            None => {
                let v = self.new_var(&d.name.name, declared, VarKind::Local);
                self.declared_as(v, &d.ty);
            }
            Some(init) => {
                let want = if declared == Type::Unknown {
                    None
                } else {
                    Some(declared.sort())
                };
                // `T x = call(…)` assigns the call's result directly.
                if let (ExprKind::Call { target, name, args }, true) =
                    (&init.kind, declared != Type::Unknown)
                {
                    let v = self.new_var_deferred(&d.name.name, declared.clone());
                    self.declared_as(v, &d.ty);
                    self.call(
                        init.span,
                        target.as_deref(),
                        name,
                        args,
                        true,
                        want,
                        Some(v),
                    );
                    self.scope.push((d.name.name.clone(), v));
                    return;
                }
                let (e, ty) = self.init_expr(init, &declared, want);
                let ty = if declared == Type::Unknown {
                    ty
                } else {
                    declared
                };
                let v = self.new_var_deferred(&d.name.name, ty.clone());
                self.declared_as(v, &d.ty);
                let e = self.coerce(e, ty.sort(), &ty, init.span);
                self.emit(
                    Stmt::Assign {
                        place: Place::Var(v),
                        expr: e,
                    },
                    d.span,
                );
                self.scope.push((d.name.name.clone(), v));
            }
        }
    }

    /// A local whose name enters the scope later (after its initialiser).
    pub(super) fn new_var_deferred(&mut self, name: &str, ty: Type) -> VarId {
        let v = self.new_var(name, ty, VarKind::Local);
        self.scope.pop();
        v
    }

    pub(super) fn init_expr(
        &mut self,
        init: &'a ast::Expr,
        declared: &Type,
        want: Option<Sort>,
    ) -> (Expr, Type) {
        if let ExprKind::ArrayLiteral(items) = &init.kind {
            for i in items {
                self.expr(i, None);
            }
            let t = self.new_array(
                declared.clone(),
                Some(Expr::Int(items.len() as i64)),
                init.span,
            );
            return (Expr::Var(t), declared.clone());
        }
        self.expr(init, want)
    }

    pub(super) fn expr_stmt(&mut self, e: &'a ast::Expr) {
        match &e.kind {
            ExprKind::Call { target, name, args } if self.in_untargeted_lambda() => {
                // The lambda's interface is unknown: it may return this value to the
                // library code that calls it (what a method of the program of that name
                // returns; library code's own results are its already).
                self.note_handed_results_of(&name.name, args.len());
                self.call(e.span, target.as_deref(), name, args, false, None, None);
            }
            ExprKind::New { .. } if self.in_untargeted_lambda() => {
                let (_, ty) = self.expr(e, None);
                self.note_handed(&[ty]);
            }
            ExprKind::Call { target, name, args } => {
                self.call(e.span, target.as_deref(), name, args, false, None, None);
            }
            ExprKind::Assign { op, target, value } => {
                self.assign(*op, target, value, e.span);
            }
            ExprKind::IncDec { op, target } => {
                self.incdec(*op, target, false, e.span);
            }
            _ => {
                self.expr(e, None);
            }
        }
    }

    // ----------------------------------------------------------------- conditions

    /// Branch on `e`: to `t` when true, to `f` when false. Leaves `cur` unreachable.
    pub(super) fn cond(&mut self, e: &'a ast::Expr, t: usize, f: usize) {
        match &e.kind {
            ExprKind::Binary {
                op: BinaryOp::And,
                lhs,
                rhs,
            } => {
                let mid = self.fresh();
                self.cond(lhs, mid, f);
                self.set(mid);
                self.cond(rhs, t, f);
            }
            ExprKind::Binary {
                op: BinaryOp::Or,
                lhs,
                rhs,
            } => {
                let mid = self.fresh();
                self.cond(lhs, t, mid);
                self.set(mid);
                self.cond(rhs, t, f);
            }
            ExprKind::Unary {
                op: UnaryOp::Not,
                operand,
            } => self.cond(operand, f, t),
            ExprKind::Bool(true) => self.goto(t),
            ExprKind::Bool(false) => self.goto(f),
            ExprKind::Nondet => {
                self.skip_to(t);
                self.goto(f);
            }
            ExprKind::Conditional {
                cond,
                then_expr,
                else_expr,
            } => {
                let (a, b) = (self.fresh(), self.fresh());
                self.cond(cond, a, b);
                self.set(a);
                self.cond(then_expr, t, f);
                self.set(b);
                self.cond(else_expr, t, f);
            }
            _ => {
                let (p, _) = self.expr(e, Some(Sort::Bool));
                let p = self.coerce(p, Sort::Bool, &Type::Bool, e.span);
                let here = self.cur;
                self.emit(Stmt::Assume(p.clone()), e.span);
                self.goto(t);
                self.set(here);
                self.emit(Stmt::Assume(p.negate()), e.span);
                self.goto(f);
            }
        }
    }

    /// A boolean value computed by branching (for `&&`, `||`, `?:` with complex parts).
    pub(super) fn cond_value(&mut self, e: &'a ast::Expr) -> Expr {
        let v = self.temp(Type::Bool);
        let (t, f, join) = (self.fresh(), self.fresh(), self.fresh());
        self.cond(e, t, f);
        for (n, b) in [(t, true), (f, false)] {
            self.set(n);
            self.emit(
                Stmt::Assign {
                    place: Place::Var(v),
                    expr: Expr::Bool(b),
                },
                e.span,
            );
            self.goto(join);
        }
        self.set(join);
        Expr::Var(v)
    }

    /// The constants of `e` when it is an enum (a class extending `Enum`, as the parser
    /// writes enums): its static fields of its own type.
    fn enum_constants(&self, e: ClassId) -> Vec<GlobalId> {
        let t = &self.cx.table;
        let info = &t.classes[e.index()];
        let is_enum = matches!(
            info.decl.extends.as_ref().map(|x| &x.kind),
            Some(ast::TypeKind::Named { name, qualifier, .. }) if name == "Enum" && qualifier.is_empty()
        ) && info.external_supers.iter().any(|s| s == "Enum");
        if !is_enum {
            return Vec::new();
        }
        info.statics
            .iter()
            .map(|(_, g)| *g)
            .filter(|g| self.cx.global_types[g.index()] == Type::Class(e))
            .collect()
    }

    /// A `case` label's value: `case A:` over an enum of the program is its constant
    /// `E.A`; over a type outside the program, an arbitrary value (the case may or may
    /// not be taken); otherwise the label as an expression.
    fn case_label(&mut self, l: &'a ast::Expr, st: &Type) -> (Expr, Type) {
        if let ExprKind::Name(id) = &l.kind {
            if matches!(self.resolve_name(&id.name), NameRes::Unknown) {
                match st {
                    Type::Class(e) => {
                        if let Some(g) = self.cx.table.lookup_static(*e, &id.name) {
                            return (Expr::Global(g), self.cx.global_types[g.index()].clone());
                        }
                    }
                    Type::External(_) | Type::Unknown => {
                        return self.unknown_value(Some(st.sort()), l.span);
                    }
                    _ => {}
                }
            }
        }
        self.expr(l, Some(st.sort()))
    }
}
