//! Places: field and member reads, assignment targets ([`AssignTarget`]),
//! assignments and `++`/`--`.

use super::*;

impl<'c, 'a> MethodLowerer<'c, 'a> {
    pub(super) fn field_read(
        &mut self,
        target: &'a ast::Expr,
        name: &'a Ident,
        want: Option<Sort>,
        span: Span,
    ) -> (Expr, Type) {
        match self.target(target) {
            None => self.unknown_value(want, span),
            Some(Target::Class(c)) => match self.cx.table.lookup_static(c, &name.name) {
                Some(g) => {
                    let t = self.cx.global_types[g.index()].clone();
                    if let Some(init) = self.constant_of(g) {
                        return self.constant_read(init, t, span);
                    }
                    self.init_static(g, span);
                    (Expr::Global(g), t)
                }
                None if self.cx.table.has_external_ancestor(c) => self.unknown_value(want, span),
                None => {
                    self.error(
                        "undefined-field",
                        name.span,
                        format!(
                            "class `{}` has no static field `{}`",
                            self.cx.table.class_name(c),
                            name.name
                        ),
                    );
                    self.unknown_value(want, span)
                }
            },
            Some(Target::External) => self.unknown_value(want, span),
            Some(Target::Super {
                receiver,
                lookup: Some(s),
                ..
            }) => self.member_read(receiver, Type::Class(s), name, want, span),
            Some(Target::Super { lookup: None, .. }) => self.unknown_value(want, span),
            Some(Target::Value(o, ot)) => self.member_read(o, ot, name, want, span),
        }
    }

    pub(super) fn member_read(
        &mut self,
        o: Expr,
        ot: Type,
        name: &'a Ident,
        want: Option<Sort>,
        span: Span,
    ) -> (Expr, Type) {
        match &ot {
            Type::Array(_) if name.name == "length" => {
                self.assume_nonnull(&o, span);
                self.cx.survey.needs_lengths = true;
                let len = match self.cx.length_field {
                    Some(f) => Expr::Field {
                        obj: Box::new(o),
                        field: f,
                    },
                    None => self.havoc_temp(Type::Int, span),
                };
                // An array from outside the program has some length.
                self.emit(
                    Stmt::Assume(Expr::binary(BinaryOp::Ge, len.clone(), Expr::Int(0))),
                    span,
                );
                (len, Type::Int)
            }
            Type::Class(c) => {
                let c = *c;
                if let Some(f) = self.cx.table.lookup_field(c, &name.name) {
                    self.assume_nonnull(&o, span);
                    let ty = self.cx.table.field_types[f.index()].clone();
                    return (
                        Expr::Field {
                            obj: Box::new(o),
                            field: f,
                        },
                        ty,
                    );
                }
                if let Some(g) = self.cx.table.lookup_static(c, &name.name) {
                    let t = self.cx.global_types[g.index()].clone();
                    if let Some(init) = self.constant_of(g) {
                        return self.constant_read(init, t, span);
                    }
                    self.init_static(g, span);
                    return (Expr::Global(g), t);
                }
                if self.cx.table.has_external_ancestor(c) {
                    self.assume_nonnull(&o, span);
                    return self.unknown_value(want, span);
                }
                self.error(
                    "undefined-field",
                    name.span,
                    format!(
                        "class `{}` has no field `{}`",
                        self.cx.table.class_name(c),
                        name.name
                    ),
                );
                self.unknown_value(want, span)
            }
            Type::External(_) | Type::Unknown | Type::Null | Type::Array(_) => {
                self.assume_nonnull(&o, span);
                self.unknown_value(want, span)
            }
            Type::Int | Type::Bool | Type::Float | Type::Void => {
                self.error(
                    "not-an-object",
                    span,
                    format!("cannot access field `{}` of a primitive value", name.name),
                );
                self.unknown_value(want, span)
            }
        }
    }

    /// Lower an assignment target.
    pub(super) fn place(
        &mut self,
        e: &'a ast::Expr,
        value_has_effects: bool,
    ) -> Option<AssignTarget> {
        match &e.kind {
            ExprKind::Name(_) => {
                self.assigning = true;
                let (v, t) = self.expr(e, None);
                self.assigning = false;
                match v {
                    Expr::Var(x) => Some(AssignTarget::Place(Place::Var(x), t)),
                    Expr::Global(g) => Some(AssignTarget::Place(Place::Global(g), t)),
                    Expr::Field { obj, field } => {
                        Some(AssignTarget::Place(Place::Field { obj: *obj, field }, t))
                    }
                    _ => None,
                }
            }
            ExprKind::Field { target, name } => {
                let (v, t) = self.field_read(target, name, None, e.span);
                match v {
                    Expr::Global(g) => Some(AssignTarget::Place(Place::Global(g), t)),
                    Expr::Field { obj, field } => {
                        let obj = if value_has_effects {
                            let ot = Type::Unknown;
                            self.snapshot(*obj, &ot, target.span)
                        } else {
                            *obj
                        };
                        Some(AssignTarget::Place(Place::Field { obj, field }, t))
                    }
                    _ => {
                        // Perhaps a field inherited from outside the program: no longer
                        // one value per object.
                        self.cx.survey.inherited_writes.insert(name.name.clone());
                        Some(AssignTarget::Dropped(t))
                    }
                }
            }
            ExprKind::Index { array, index } => {
                let (a, at) = self.expr(array, Some(Sort::Ref));
                let a = if has_effects(index) {
                    self.snapshot(a, &at, array.span)
                } else {
                    a
                };
                self.expr(index, Some(Sort::Int));
                self.assume_nonnull(&a, e.span);
                let elem = match at {
                    Type::Array(t) => *t,
                    _ => Type::Unknown,
                };
                Some(AssignTarget::Dropped(elem))
            }
            _ => {
                self.error(
                    "invalid-assignment-target",
                    e.span,
                    "this expression cannot be assigned",
                );
                self.expr(e, None);
                None
            }
        }
    }

    pub(super) fn read(p: &Place) -> Expr {
        match p {
            Place::Var(v) => Expr::Var(*v),
            Place::Global(g) => Expr::Global(*g),
            Place::Field { obj, field } => Expr::Field {
                obj: Box::new(obj.clone()),
                field: *field,
            },
        }
    }

    pub(super) fn assign(
        &mut self,
        op: Option<BinaryOp>,
        target: &'a ast::Expr,
        value: &'a ast::Expr,
        span: Span,
    ) -> (Expr, Type) {
        // `x = call(…)` for a local `x`: the call's result goes to `x` directly.
        if let (
            None,
            ExprKind::Name(id),
            ExprKind::Call {
                target: ct,
                name,
                args,
            },
        ) = (op, &target.kind, &value.kind)
        {
            if let NameRes::Var(v, t) = self.resolve_name(&id.name) {
                self.call(
                    value.span,
                    ct.as_deref(),
                    name,
                    args,
                    true,
                    Some(t.sort()),
                    Some(v),
                );
                return (Expr::Var(v), t);
            }
        }
        let effects = has_effects(value);
        let place = self.place(target, effects);
        match place {
            Some(AssignTarget::Place(p, pt)) => {
                let old = match op {
                    Some(_) if effects => {
                        let cur = Self::read(&p);
                        Some(self.snapshot(cur, &pt, target.span))
                    }
                    Some(_) => Some(Self::read(&p)),
                    None => None,
                };
                let (v, vt) = self.init_expr(value, &pt, Some(pt.sort()));
                let (v, _) = match (op, old) {
                    (Some(o), Some(old)) => self.binop(o, old, &pt, v, &vt, span),
                    _ => (v, vt),
                };
                let v = self.coerce(v, pt.sort(), &pt, span);
                self.emit(
                    Stmt::Assign {
                        place: p.clone(),
                        expr: v,
                    },
                    span,
                );
                (Self::read(&p), pt)
            }
            Some(AssignTarget::Dropped(t)) => {
                let (v, vt) = self.expr(value, Some(t.sort()));
                if op.is_none() {
                    (v, vt)
                } else {
                    self.unknown_value(Some(t.sort()), span)
                }
            }
            None => {
                self.expr(value, None);
                self.unknown_value(None, span)
            }
        }
    }

    pub(super) fn incdec(
        &mut self,
        op: IncDecOp,
        target: &'a ast::Expr,
        want_value: bool,
        span: Span,
    ) -> (Expr, Type) {
        let delta = match op {
            IncDecOp::PreInc | IncDecOp::PostInc => BinaryOp::Add,
            IncDecOp::PreDec | IncDecOp::PostDec => BinaryOp::Sub,
        };
        let post = matches!(op, IncDecOp::PostInc | IncDecOp::PostDec);
        match self.place(target, false) {
            Some(AssignTarget::Place(p, pt)) => {
                if pt == Type::Float {
                    self.emit(Stmt::Havoc(p.clone()), span);
                    return (Self::read(&p), pt);
                }
                let old = Self::read(&p);
                let saved = if post && want_value {
                    Some(self.snapshot(old.clone(), &pt, span))
                } else {
                    None
                };
                let base = saved.clone().unwrap_or(old);
                self.emit(
                    Stmt::Assign {
                        place: p.clone(),
                        expr: Expr::binary(delta, base, Expr::Int(1)),
                    },
                    span,
                );
                (saved.unwrap_or_else(|| Self::read(&p)), pt)
            }
            Some(AssignTarget::Dropped(t)) => self.unknown_value(Some(t.sort()), span),
            None => self.unknown_value(Some(Sort::Int), span),
        }
    }
}
