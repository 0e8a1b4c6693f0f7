//! The building blocks of a method's lowering: variables and temporaries, nodes and
//! edges of the CFA under construction, sorts and coercions.

use super::*;

impl<'c, 'a> MethodLowerer<'c, 'a> {
    // ---------------------------------------------------------------- building blocks

    pub(super) fn finish(self, sig: &MethodSig<'_>, nparams: usize) -> MethodCfa {
        let throw = (!matches!(sig.source, MethodSource::Root)).then_some(self.throw_exit);
        let crate::ir::Finished {
            graph,
            entry,
            exit,
            throw_exit,
            ..
        } = self.b.finish(self.entry, self.exit, throw);
        MethodCfa {
            id: sig.id,
            name: sig.display.clone(),
            class: sig.class,
            is_static: sig.is_static,
            params: (0..nparams).map(|i| VarId(i as u32)).collect(),
            vars: self.vars,
            ret: self.ret,
            graph,
            entry,
            exit,
            throw_exit,
            span: sig.span,
            is_abstract: sig.is_abstract,
        }
    }

    pub(super) fn new_var(&mut self, name: &str, ty: Type, kind: VarKind) -> VarId {
        let id = VarId(self.vars.len() as u32);
        let mut unique = name.to_string();
        let mut k = 2;
        while self.vars.iter().any(|v| v.name == unique) {
            unique = format!("{name}#{k}");
            k += 1;
        }
        self.vars.push(VarDef {
            id,
            name: unique,
            sort: ty.sort(),
            kind,
        });
        self.var_jtypes
            .push(crate::classes::jtypes::JType::of_type(&ty));
        self.var_types.push(ty);
        if matches!(kind, VarKind::Param | VarKind::Local) {
            self.scope.push((name.to_string(), id));
        }
        id
    }

    /// Java forbids a local variable that shadows a local or parameter in scope.
    pub(super) fn check_not_redeclared(&mut self, name: &ast::Ident) {
        if self.scope.iter().any(|(n, _)| *n == name.name) {
            self.error(
                "duplicate-variable",
                name.span,
                format!("variable `{}` is already defined in this method", name.name),
            );
        }
    }

    /// The variable `v` was declared with the written type `t`.
    pub(super) fn declared_as(&mut self, v: VarId, t: &ast::TypeRef) {
        if t.kind == ast::TypeKind::Inferred {
            return;
        }
        self.note_generic_local(v, t);
        let j = crate::classes::jtypes::JType::of_typeref(&self.cx.table, t);
        if let Some(slot) = self.var_jtypes.get_mut(v.index()) {
            *slot = j;
        }
    }

    pub(super) fn temp(&mut self, ty: Type) -> VarId {
        self.temps += 1;
        let name = format!("%t{}", self.temps);
        self.new_var(&name, ty, VarKind::Temp)
    }

    pub(super) fn fresh(&mut self) -> usize {
        self.b.node()
    }

    pub(super) fn set(&mut self, n: usize) {
        self.cur = n;
    }

    pub(super) fn emit(&mut self, s: Stmt, span: Span) {
        let span = self.span_at.unwrap_or(span);
        if let Stmt::Assume(e) = &s {
            if let Some((n, last)) = &self.last_assume {
                if *n == self.cur && last == e {
                    return;
                }
            }
        }
        let n = self.fresh();
        let remember = match &s {
            Stmt::Assume(e) => Some(e.clone()),
            _ => None,
        };
        self.b
            .edge(self.cur, n, Edge::Block(vec![Located { node: s, span }]));
        self.cur = n;
        self.last_assume = remember.map(|e| (n, e));
    }

    /// Edge to `target`; the current position becomes unreachable.
    pub(super) fn goto(&mut self, target: usize) {
        self.b.edge(self.cur, target, Edge::Block(Vec::new()));
        self.cur = self.fresh();
    }

    pub(super) fn skip_to(&mut self, target: usize) {
        self.b.edge(self.cur, target, Edge::Block(Vec::new()));
    }

    pub(super) fn call_edge(
        &mut self,
        callee: MethodId,
        args: Vec<Expr>,
        result: Option<Place>,
        span: Span,
    ) {
        let n = self.fresh();
        let from = self.cur;
        self.b.edge(
            from,
            n,
            Edge::Call {
                callee,
                args: args.clone(),
                result,
                span,
                unwind: false,
            },
        );
        self.calls_emitted += 1;
        self.note_call(callee);
        self.unwind_edges(from, &[(callee, args)], span);
        self.cur = n;
    }

    /// A temporary holding a value the JVM computes from `source` but the analysis does
    /// not track ([`Stmt::Opaque`]).
    pub(super) fn opaque(&mut self, ty: Type, source: crate::ir::OpaqueSource, span: Span) -> Expr {
        let t = self.temp(ty);
        self.emit(Stmt::Opaque { var: t, source }, span);
        Expr::Var(t)
    }

    /// `t := new T[len]` (its contents are not tracked; its length is, when read).
    pub(super) fn new_array(&mut self, ty: Type, len: Option<Expr>, span: Span) -> VarId {
        let t = self.temp(ty);
        self.fresh_objects.push(t);
        self.emit(
            Stmt::Alloc {
                var: t,
                kind: AllocKind::Array,
            },
            span,
        );
        if let (Some(f), Some(len)) = (self.cx.length_field, len) {
            self.emit(
                Stmt::Assign {
                    place: Place::Field {
                        obj: Expr::Var(t),
                        field: f,
                    },
                    expr: len,
                },
                span,
            );
        }
        t
    }

    /// A non-null object the analysis does not track (a string): arbitrary.
    pub(super) fn some_object(&mut self, ty: Type, span: Span) -> Expr {
        let v = self.havoc_temp(ty, span);
        self.assume_exists(&v, span);
        v
    }

    pub(super) fn havoc_temp(&mut self, ty: Type, span: Span) -> Expr {
        let t = self.temp(ty);
        self.emit(Stmt::Havoc(Place::Var(t)), span);
        Expr::Var(t)
    }

    /// A dereference of `e` (a call on it, a field or array access): a null `e` throws a
    /// `NullPointerException` ([`MethodLowerer::check_implicit`]).
    pub(super) fn assume_nonnull(&mut self, e: &Expr, span: Span) {
        if let Expr::Var(v) = e {
            if Some(*v) == self.this || self.fresh_objects.contains(v) {
                return;
            }
        }
        self.check_implicit(
            Expr::binary(BinaryOp::Eq, e.clone(), Expr::Null),
            "NullPointerException",
            span,
        );
    }

    /// `e` is not null by what it is (an arbitrary object standing for one that exists).
    pub(super) fn assume_exists(&mut self, e: &Expr, span: Span) {
        self.emit(
            Stmt::Assume(Expr::binary(BinaryOp::Ne, e.clone(), Expr::Null)),
            span,
        );
    }

    pub(super) fn error(&mut self, code: &'static str, span: Span, msg: impl Into<String>) {
        self.cx.error(code, span, msg);
    }

    pub(super) fn sort_of(&self, e: &Expr) -> Sort {
        match e {
            Expr::Var(v) => self.vars.get(v.index()).map_or(Sort::Int, |d| d.sort),
            Expr::Global(g) => self.cx.globals.get(g.index()).map_or(Sort::Int, |d| d.sort),
            Expr::Field { field, .. } => self
                .cx
                .table
                .fields
                .get(field.index())
                .map_or(Sort::Int, |d| d.sort),
            Expr::Int(_) => Sort::Int,
            Expr::Bool(_) => Sort::Bool,
            Expr::Null => Sort::Ref,
            Expr::Unary { op, .. } => {
                if *op == UnaryOp::Not {
                    Sort::Bool
                } else {
                    Sort::Int
                }
            }
            Expr::Binary { op, lhs, .. } => match op {
                BinaryOp::Lt
                | BinaryOp::Le
                | BinaryOp::Gt
                | BinaryOp::Ge
                | BinaryOp::Eq
                | BinaryOp::Ne
                | BinaryOp::And
                | BinaryOp::Or => Sort::Bool,
                BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor => self.sort_of(lhs),
                _ => Sort::Int,
            },
            Expr::Ite { then_expr, .. } => self.sort_of(then_expr),
        }
    }

    /// Make `e` fit a place of sort `to`: ints and references share the SMT sort `Int`;
    /// a boolean/non-boolean mismatch (boxing) becomes an arbitrary value.
    pub(super) fn coerce(&mut self, e: Expr, to: Sort, ty: &Type, span: Span) -> Expr {
        let from = self.sort_of(&e);
        if (from == Sort::Bool) == (to == Sort::Bool) {
            return e;
        }
        let t = match to {
            Sort::Bool => Type::Bool,
            Sort::Int => Type::Int,
            Sort::Ref => {
                if ty.is_ref() {
                    ty.clone()
                } else {
                    Type::External("Object".into())
                }
            }
        };
        self.opaque(t, crate::ir::OpaqueSource::Of(vec![e]), span)
    }

    /// Save `e` in a temporary unless it is a constant or a temporary already.
    pub(super) fn snapshot(&mut self, e: Expr, ty: &Type, span: Span) -> Expr {
        if e.is_constant() {
            return e;
        }
        if let Expr::Var(v) = &e {
            if self
                .vars
                .get(v.index())
                .is_some_and(|d| d.kind == VarKind::Temp)
                || Some(*v) == self.this
            {
                return e;
            }
        }
        let t = self.temp(ty.clone());
        self.emit(
            Stmt::Assign {
                place: Place::Var(t),
                expr: e,
            },
            span,
        );
        Expr::Var(t)
    }
}
