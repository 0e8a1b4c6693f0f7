//! Expressions: literals, operators, conditionals, casts, `instanceof` and the rest of
//! [`MethodLowerer::expr`]; names are in `names.rs`, reads and assignments in `places.rs`.

use super::*;
use crate::ir::OpaqueSource;

impl<'c, 'a> MethodLowerer<'c, 'a> {
    // ---------------------------------------------------------------- expressions
    pub(super) fn unknown_value(&mut self, want: Option<Sort>, span: Span) -> (Expr, Type) {
        let ty = match want {
            Some(Sort::Bool) => Type::Bool,
            Some(Sort::Ref) => Type::Unknown,
            _ => Type::Unknown,
        };
        let t = self.temp(ty.clone());
        if want == Some(Sort::Ref) {
            self.vars[t.index()].sort = Sort::Ref;
        }
        self.emit(Stmt::Havoc(Place::Var(t)), span);
        (Expr::Var(t), ty)
    }

    /// Lower `e` to a pure expression, emitting the statements its evaluation needs.
    pub(super) fn expr(&mut self, e: &'a ast::Expr, want: Option<Sort>) -> (Expr, Type) {
        let span = e.span;
        match &e.kind {
            ExprKind::Int { value, .. } => (Expr::Int(*value), Type::Int),
            ExprKind::Char(c) => (Expr::Int(i64::from(*c)), Type::Int),
            ExprKind::Bool(b) => (Expr::Bool(*b), Type::Bool),
            ExprKind::Null => (Expr::Null, Type::Null),
            ExprKind::Switch(sw) => self.switch_expr(sw, want, span),
            ExprKind::Float(_) => (
                self.opaque(Type::Float, OpaqueSource::Constant, span),
                Type::Float,
            ),
            ExprKind::String(_) => {
                let ty = Type::External("String".into());
                (self.some_object(ty.clone(), span), ty)
            }
            ExprKind::Closure(c) => self.closure(c, span),
            ExprKind::ClassLiteral(name) => {
                self.cx.survey.class_literals.insert(name.clone());
                // An opaque, non-null object (its identity matters to no protocol).
                let ty = Type::External("Class".into());
                (self.some_object(ty.clone(), span), ty)
            }
            ExprKind::Nondet => {
                let ty = if want == Some(Sort::Bool) {
                    Type::Bool
                } else {
                    Type::Int
                };
                (self.havoc_temp(ty.clone(), span), ty)
            }
            ExprKind::Name(id) => match self.resolve_name(&id.name) {
                NameRes::Var(v, t) => (Expr::Var(v), t),
                NameRes::Field(FieldRes(f, t)) => match self.this {
                    Some(this) => (
                        Expr::Field {
                            obj: Box::new(Expr::Var(this)),
                            field: f,
                        },
                        t,
                    ),
                    None => {
                        self.error(
                            "instance-field-in-static-context",
                            id.span,
                            format!("instance field `{}` used in a static context", id.name),
                        );
                        self.unknown_value(want, span)
                    }
                },
                NameRes::Global(g, t) => {
                    if let Some(init) = self.constant_of(g) {
                        return self.constant_read(init, t, span);
                    }
                    self.init_static(g, span);
                    (Expr::Global(g), t)
                }
                NameRes::OuterField(c, FieldRes(f, t)) => {
                    let obj = self.outer_instance(c, span);
                    (
                        Expr::Field {
                            obj: Box::new(obj),
                            field: f,
                        },
                        t,
                    )
                }
                NameRes::InstanceInStatic => {
                    self.error(
                        "instance-field-in-static-context",
                        id.span,
                        format!(
                            "instance field `{}` used in a static context (or of an enclosing \
                             instance, which is not supported)",
                            id.name
                        ),
                    );
                    self.unknown_value(want, span)
                }
                NameRes::Class(_) => {
                    self.error(
                        "expected-value",
                        id.span,
                        format!("`{}` is a class, not a value", id.name),
                    );
                    self.unknown_value(want, span)
                }
                NameRes::Unknown => {
                    if let Some(from) = self.outside_source() {
                        if !self.cx.outside_names.contains(&id.name) {
                            self.cx.outside_names.push(id.name.clone());
                            self.cx.diags.push(Diagnostic::warning(
                                "outside-name",
                                id.span,
                                format!(
                                    "`{}` is not declared in the program: taken as a field or \
                                     constant {from}, outside the program, with an arbitrary value",
                                    id.name
                                ),
                            ));
                        }
                        if let Some(read) = self.inherited_field(&id.name, &from, want, span) {
                            return read;
                        }
                        return self.unknown_value(want, span);
                    }
                    self.error(
                        "undefined-variable",
                        id.span,
                        format!("cannot find variable `{}`", id.name),
                    );
                    self.unknown_value(want, span)
                }
            },
            ExprKind::This => match self.this_expr(span) {
                Some(t) => (t, self.class.map_or(Type::Unknown, Type::Class)),
                None => self.unknown_value(want, span),
            },
            ExprKind::OuterThis(name) => self.outer_this(name, want, span),
            ExprKind::Super | ExprKind::QualifiedSuper(_) => {
                self.error(
                    "invalid-super",
                    span,
                    "`super` can only be used to access a field or call a method",
                );
                self.unknown_value(want, span)
            }
            ExprKind::Field { target, name } => self.field_read(target, name, want, span),
            ExprKind::Call { target, name, args } => {
                self.call(span, target.as_deref(), name, args, true, want, None)
            }
            ExprKind::New { class, args } => self.new_object(class, args, span),
            ExprKind::NewArray {
                elem,
                dims,
                rank,
                init,
            } => {
                let mut lengths = Vec::new();
                for d in dims {
                    let (v, _) = self.expr(d, Some(Sort::Int));
                    lengths.push(v);
                }
                for i in init.iter().flatten() {
                    self.expr(i, None);
                }
                // A negative size throws.
                for l in &lengths {
                    if !matches!(l, Expr::Int(k) if *k >= 0) {
                        self.check_implicit(
                            Expr::binary(BinaryOp::Lt, l.clone(), Expr::Int(0)),
                            "NegativeArraySizeException",
                            span,
                        );
                    }
                }
                let mut ty = self.cx.table.resolve(elem);
                for _ in 0..(*rank).max(1) {
                    ty = Type::Array(Box::new(ty));
                }
                let len = match (lengths.first(), init) {
                    (Some(l), _) => Some(l.clone()),
                    (None, Some(items)) => Some(Expr::Int(items.len() as i64)),
                    (None, None) => None,
                };
                let t = self.new_array(ty.clone(), len, span);
                (Expr::Var(t), ty)
            }
            ExprKind::ArrayLiteral(_) => {
                let ty = Type::Array(Box::new(Type::Unknown));
                self.init_expr(e, &ty, None)
            }
            ExprKind::Index { array, index } => {
                let (a, at) = self.expr(array, Some(Sort::Ref));
                let a = if has_effects(index) {
                    self.snapshot(a, &at, array.span)
                } else {
                    a
                };
                self.expr(index, Some(Sort::Int));
                self.assume_nonnull(&a, span);
                let elem = match at {
                    Type::Array(t) => *t,
                    _ => Type::Unknown,
                };
                if elem == Type::Unknown {
                    let ty = if want == Some(Sort::Bool) {
                        Type::Bool
                    } else {
                        Type::Unknown
                    };
                    let v = self.opaque(ty.clone(), OpaqueSource::Element(a), span);
                    if let (Some(s), Expr::Var(x)) = (want, &v) {
                        self.vars[x.index()].sort = s;
                    }
                    return (v, ty);
                }
                (
                    self.opaque(elem.clone(), OpaqueSource::Element(a), span),
                    elem,
                )
            }
            ExprKind::Unary { op, operand } => match op {
                UnaryOp::Not => {
                    if is_simple(operand) {
                        let (v, _) = self.expr(operand, Some(Sort::Bool));
                        let v = self.coerce(v, Sort::Bool, &Type::Bool, span);
                        (v.negate(), Type::Bool)
                    } else {
                        (self.cond_value(e), Type::Bool)
                    }
                }
                _ => {
                    let (v, t) = self.expr(operand, Some(Sort::Int));
                    if t == Type::Float {
                        (
                            self.opaque(Type::Float, OpaqueSource::Of(vec![v]), span),
                            Type::Float,
                        )
                    } else if *op == UnaryOp::Plus {
                        (v, Type::Int)
                    } else {
                        (
                            Expr::Unary {
                                op: *op,
                                arg: Box::new(v),
                            },
                            Type::Int,
                        )
                    }
                }
            },
            ExprKind::IncDec { op, target } => self.incdec(*op, target, true, span),
            ExprKind::Binary { op, lhs, rhs } => match op {
                BinaryOp::And | BinaryOp::Or => {
                    if is_simple(rhs) {
                        let (l, _) = self.expr(lhs, Some(Sort::Bool));
                        let l = self.coerce(l, Sort::Bool, &Type::Bool, lhs.span);
                        let (r, _) = self.expr(rhs, Some(Sort::Bool));
                        let r = self.coerce(r, Sort::Bool, &Type::Bool, rhs.span);
                        (Expr::binary(*op, l, r), Type::Bool)
                    } else {
                        (self.cond_value(e), Type::Bool)
                    }
                }
                _ => {
                    let operand_want = match op {
                        BinaryOp::Eq | BinaryOp::Ne => None,
                        BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor => want,
                        _ => Some(Sort::Int),
                    };
                    let (l, lt) = self.expr(lhs, operand_want);
                    let l = if has_effects(rhs) {
                        self.snapshot(l, &lt, lhs.span)
                    } else {
                        l
                    };
                    let rwant = match op {
                        BinaryOp::Eq | BinaryOp::Ne => Some(self.sort_of(&l)),
                        _ => operand_want,
                    };
                    let (r, rt) = self.expr(rhs, rwant);
                    self.binop(*op, l, &lt, r, &rt, span)
                }
            },
            ExprKind::Assign { op, target, value } => self.assign(*op, target, value, span),
            ExprKind::Conditional {
                cond,
                then_expr,
                else_expr,
            } => {
                if is_simple(cond) && is_simple(then_expr) && is_simple(else_expr) {
                    let (c, _) = self.expr(cond, Some(Sort::Bool));
                    let c = self.coerce(c, Sort::Bool, &Type::Bool, cond.span);
                    let (a, at) = self.expr(then_expr, want);
                    let (b, bt) = self.expr(else_expr, want);
                    let ty = self.cx.table.join(&at, &bt);
                    let b = self.coerce(b, self.sort_of(&a), &ty, else_expr.span);
                    (
                        Expr::Ite {
                            cond: Box::new(c),
                            then_expr: Box::new(a),
                            else_expr: Box::new(b),
                        },
                        ty,
                    )
                } else {
                    let (tn, fnode, join) = (self.fresh(), self.fresh(), self.fresh());
                    self.cond(cond, tn, fnode);
                    self.set(tn);
                    let (a, at) = self.expr(then_expr, want);
                    let sort = self.sort_of(&a);
                    let v = self.temp(at.clone());
                    self.vars[v.index()].sort = sort;
                    self.emit(
                        Stmt::Assign {
                            place: Place::Var(v),
                            expr: a,
                        },
                        then_expr.span,
                    );
                    self.goto(join);
                    self.set(fnode);
                    let (b, bt) = self.expr(else_expr, Some(sort));
                    let b = self.coerce(b, sort, &bt, else_expr.span);
                    self.emit(
                        Stmt::Assign {
                            place: Place::Var(v),
                            expr: b,
                        },
                        else_expr.span,
                    );
                    self.goto(join);
                    self.set(join);
                    let ty = self.cx.table.join(&at, &bt);
                    (Expr::Var(v), ty)
                }
            }
            ExprKind::Cast { ty, operand } => {
                let cty = self.cx.table.resolve(ty);
                let (v, vt) = self.expr(operand, Some(cty.sort()));
                if vt == Type::Float && cty == Type::Int {
                    return (
                        self.opaque(Type::Int, OpaqueSource::Of(vec![v]), span),
                        Type::Int,
                    );
                }
                let v = self.coerce(v, cty.sort(), &cty, span);
                (v, cty)
            }
            ExprKind::InstanceOf {
                operand,
                ty,
                binding,
            } => {
                let (v, _) = self.expr(operand, Some(Sort::Ref));
                let target = self.cx.table.resolve(ty);
                if let Some(b) = binding {
                    // `e instanceof T t`: `t` is `e` (used where the test held).
                    let x = self.new_var(&b.name, target.clone(), VarKind::Local);
                    self.emit(
                        Stmt::Assign {
                            place: Place::Var(x),
                            expr: v.clone(),
                        },
                        span,
                    );
                }
                self.instance_of(v, &target, span)
            }
            ExprKind::Error => self.unknown_value(want, span),
        }
    }

    /// `l op r` over pure operands (`&&`/`||` here are logical, both sides evaluated).
    pub(super) fn binop(
        &mut self,
        op: BinaryOp,
        l: Expr,
        lt: &Type,
        r: Expr,
        rt: &Type,
        span: Span,
    ) -> (Expr, Type) {
        use BinaryOp::*;
        let float = *lt == Type::Float || *rt == Type::Float;
        match op {
            Add if lt.is_string() || rt.is_string() => {
                let ty = Type::External("String".into());
                (self.some_object(ty.clone(), span), ty)
            }
            Lt | Le | Gt | Ge if float => (
                self.opaque(Type::Bool, OpaqueSource::Of(vec![l, r]), span),
                Type::Bool,
            ),
            Lt | Le | Gt | Ge => (Expr::binary(op, l, r), Type::Bool),
            Eq | Ne => {
                let (ls, rs) = (self.sort_of(&l), self.sort_of(&r));
                // `count == null` on a boxed value (`Integer`, `Boolean`, …: a primitive
                // here): whether it is null is not tracked, so the answer is arbitrary.
                let primitive = |t: &Type| matches!(t, Type::Int | Type::Bool | Type::Float);
                let boxed_null =
                    (*lt == Type::Null && primitive(rt)) || (*rt == Type::Null && primitive(lt));
                if boxed_null {
                    (self.havoc_temp(Type::Bool, span), Type::Bool)
                } else if float || (ls == Sort::Bool) != (rs == Sort::Bool) {
                    (
                        self.opaque(Type::Bool, OpaqueSource::Of(vec![l, r]), span),
                        Type::Bool,
                    )
                } else {
                    (Expr::binary(op, l, r), Type::Bool)
                }
            }
            And | Or => (Expr::binary(op, l, r), Type::Bool),
            BitAnd | BitOr | BitXor if self.sort_of(&l) == Sort::Bool => {
                let op = match op {
                    BitAnd => And,
                    BitOr => Or,
                    _ => Ne,
                };
                let r = self.coerce(r, Sort::Bool, &Type::Bool, span);
                (Expr::binary(op, l, r), Type::Bool)
            }
            _ if float => (
                self.opaque(Type::Float, OpaqueSource::Of(vec![l, r]), span),
                Type::Float,
            ),
            _ => {
                let l = self.coerce(l, Sort::Int, &Type::Int, span);
                let r = self.coerce(r, Sort::Int, &Type::Int, span);
                // An integer division by zero throws.
                if matches!(op, Div | Rem) && !matches!(r, Expr::Int(k) if k != 0) {
                    self.check_implicit(
                        Expr::binary(Eq, r.clone(), Expr::Int(0)),
                        "ArithmeticException",
                        span,
                    );
                }
                (Expr::binary(op, l, r), Type::Int)
            }
        }
    }

    /// The initialiser of `g` when `g` is a constant variable (javac inlines its value at
    /// every read, in its own class too).
    pub(super) fn constant_of(&self, g: GlobalId) -> Option<&'a ast::Expr> {
        self.cx
            .table
            .global_constants
            .get(g.index())
            .copied()
            .flatten()
    }

    /// A read of a constant variable: its value, as javac inlines it (no initialisation).
    pub(super) fn constant_read(
        &mut self,
        init: &'a ast::Expr,
        t: Type,
        span: Span,
    ) -> (Expr, Type) {
        // The initialiser is evaluated here, where the constant is read.
        let outer = self.span_at.replace(span);
        let (v, _) = self.expr(init, Some(t.sort()));
        self.span_at = outer;
        (self.coerce(v, t.sort(), &t, span), t)
    }

    /// A static field of its class is used: the class is initialised first.
    pub(super) fn init_static(&mut self, g: GlobalId, span: Span) {
        if let Some(GlobalKind::Static { class }) =
            self.cx.globals.get(g.index()).map(|d| d.kind.clone())
        {
            self.init_class(class, span);
        }
    }

    /// `v instanceof T`: not null, and of a class below `T` by its runtime type (where
    /// that is not known, an arbitrary answer).
    pub(super) fn instance_of(&mut self, v: Expr, target: &Type, span: Span) -> (Expr, Type) {
        self.cx.survey.needs_types = true;
        if let Type::External(n) = target {
            self.cx.survey.outside.insert(n.clone());
        }
        let (Some(f), Some(universe)) = (
            self.cx.type_field,
            self.cx.facts().and_then(|f| f.types.as_ref()),
        ) else {
            return (self.havoc_temp(Type::Bool, span), Type::Bool);
        };
        let p = universe.partition(&self.cx.table, target, false);
        let n = universe.len();
        let t = Expr::Field {
            obj: Box::new(v.clone()),
            field: f,
        };
        let mut holds = types::in_codes(t.clone(), &p.yes);
        // An object of a known class whose place below `T` is not known: determined by
        // the program, but not here.
        if !p.unknown.is_empty() {
            let h = self.opaque(Type::Bool, OpaqueSource::Constant, span);
            let u = types::in_codes(t.clone(), &p.unknown);
            holds = Expr::binary(BinaryOp::Or, holds, Expr::binary(BinaryOp::And, u, h));
        }
        // An object the program did not allocate: of no class of the program, of any
        // class outside it.
        if !matches!(target, Type::Class(_)) {
            let h = self.havoc_temp(Type::Bool, span);
            let u = types::uncoded(t, n);
            holds = Expr::binary(BinaryOp::Or, holds, Expr::binary(BinaryOp::And, u, h));
        }
        (
            Expr::binary(
                BinaryOp::And,
                Expr::binary(BinaryOp::Ne, v, Expr::Null),
                holds,
            ),
            Type::Bool,
        )
    }
}

/// Whether lowering `e` may have an effect: a call, allocation, assignment, closure or
/// switch anywhere in it.
pub(super) fn has_effects(e: &ast::Expr) -> bool {
    use ExprKind::*;
    match &e.kind {
        Call { .. } | New { .. } | Assign { .. } | IncDec { .. } | Closure(_) | Switch(_) => true,
        _ => e.children().into_iter().any(has_effects),
    }
}

/// Simple: lowering it has no observable effect — no call, allocation, assignment or null
/// check; at most havocs of fresh temporaries (opaque literals). Such an operand of `&&`,
/// `||` or `?:` may be evaluated unconditionally.
pub(super) fn is_simple(e: &ast::Expr) -> bool {
    use ExprKind::*;
    match &e.kind {
        Int { .. } | Float(_) | String(_) | Bool(_) | Null | Char(_) | Nondet | Name(_) | This => {
            true
        }
        Unary { operand, .. } | Cast { operand, .. } | InstanceOf { operand, .. } => {
            is_simple(operand)
        }
        Binary { lhs, rhs, .. } => is_simple(lhs) && is_simple(rhs),
        Conditional {
            cond,
            then_expr,
            else_expr,
        } => is_simple(cond) && is_simple(then_expr) && is_simple(else_expr),
        _ => false,
    }
}
