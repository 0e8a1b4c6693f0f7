//! Expressions: names, `this`, operators, field and member reads, assignment targets
//! ([`AssignTarget`]), assignments and `++`/`--`.

use super::*;
use crate::ir::OpaqueSource;

impl<'c, 'a> MethodLowerer<'c, 'a> {
    // ---------------------------------------------------------------- expressions

    pub(super) fn resolve_name(&self, name: &str) -> NameRes {
        if let Some((_, v)) = self.scope.iter().rev().find(|(n, _)| n == name) {
            return NameRes::Var(*v, self.var_types[v.index()].clone());
        }
        let t = &self.cx.table;
        let mut cls = self.class;
        let mut first = true;
        while let Some(c) = cls {
            if let Some(f) = t.lookup_field(c, name) {
                if !first && !self.is_static && self.this.is_some() {
                    return NameRes::OuterField(c, FieldRes(f, t.field_types[f.index()].clone()));
                }
                if !first || self.is_static {
                    return NameRes::InstanceInStatic;
                }
                return NameRes::Field(FieldRes(f, t.field_types[f.index()].clone()));
            }
            if let Some(g) = t.lookup_static(c, name) {
                return NameRes::Global(g, self.cx.global_types[g.index()].clone());
            }
            first = false;
            cls = t.classes[c.index()].outer;
        }
        match t.class_by_name(name) {
            Some(c) => NameRes::Class(c),
            None => NameRes::Unknown,
        }
    }

    /// Where an unknown bare name or method may come from outside the program: a
    /// supertype outside the program of this class or an enclosing one (`inherited from
    /// `View``), or a static import.
    pub(super) fn outside_source(&self) -> Option<String> {
        let t = &self.cx.table;
        let mut cls = self.class;
        while let Some(c) = cls {
            for a in t.ancestors(c) {
                if let Some(e) = t.classes[a.index()].external_supers.first() {
                    return Some(format!("inherited from `{e}`"));
                }
            }
            cls = t.classes[c.index()].outer;
        }
        self.cx
            .static_imports
            .then(|| "of a static import".to_owned())
    }

    /// A bare name of instance code that is a field inherited from a superclass outside
    /// the program (`from`: "inherited from …"): recorded by the survey; in the final
    /// lowering, when the program reads it as a reference and never assigns it, a read
    /// of `o.%inherited.name` of the enclosing instance `o` whose class inherits it: the
    /// same value at every read until library code runs, arbitrary after
    /// ([`super::InheritedField`]). `None`: an arbitrary value at each read.
    fn inherited_field(
        &mut self,
        name: &str,
        from: &str,
        want: Option<Sort>,
        span: Span,
    ) -> Option<(Expr, Type)> {
        self.this.filter(|_| !self.is_static)?;
        if !from.starts_with("inherited") {
            return None;
        }
        if self.assigning {
            self.cx.survey.inherited_writes.insert(name.to_owned());
            return None;
        }
        if !matches!(want, None | Some(Sort::Ref)) {
            return None;
        }
        self.cx.survey.inherited_reads.insert(name.to_owned());
        let f = self
            .cx
            .inherited_fields
            .iter()
            .find(|f| f.name == name)?
            .clone();
        let epoch = self.cx.inherited_epoch?;
        // The innermost enclosing class with a superclass outside the program.
        let t = &self.cx.table;
        let mut cls = self.class;
        let mut owner = None;
        while let Some(c) = cls {
            if t.has_external_superclass(c) {
                owner = Some(c);
                break;
            }
            cls = t.classes[c.index()].outer;
        }
        let obj = self.outer_instance(owner?, span);
        // `if (o.at != %inherited) { o.value := *; o.at := %inherited }`
        let at = Expr::Field {
            obj: Box::new(obj.clone()),
            field: f.at,
        };
        let current = Expr::binary(BinaryOp::Eq, at, Expr::Global(epoch));
        let start = self.cur;
        let done = self.fresh();
        self.emit(Stmt::Assume(current.clone()), span);
        self.goto(done);
        self.set(start);
        self.emit(Stmt::Assume(current.negate()), span);
        self.emit(
            Stmt::Havoc(Place::Field {
                obj: obj.clone(),
                field: f.value,
            }),
            span,
        );
        self.emit(
            Stmt::Assign {
                place: Place::Field {
                    obj: obj.clone(),
                    field: f.at,
                },
                expr: Expr::Global(epoch),
            },
            span,
        );
        self.goto(done);
        self.set(done);
        Some((
            Expr::Field {
                obj: Box::new(obj),
                field: f.value,
            },
            Type::Unknown,
        ))
    }

    /// Library code runs (a call, a constructor, a `native` method): it may assign the
    /// fields any object inherits from outside the program — those it received now or
    /// before, or reaches otherwise — unless it is a well-known JDK class that does not
    /// (collections, `String`, `Math`, …): a new epoch of `%inherited`.
    pub(super) fn forget_inherited(&mut self, span: Span) {
        let Some(epoch) = self.cx.inherited_epoch else {
            return;
        };
        let inert = self.call_site.as_ref().is_some_and(|site| {
            site.class
                .as_deref()
                .is_some_and(|c| super::handoff::INERT_CLASSES.contains(&c))
                || ["System.out.", "System.err."]
                    .iter()
                    .any(|p| site.name.starts_with(p))
        });
        if inert {
            return;
        }
        self.emit(
            Stmt::Assign {
                place: Place::Global(epoch),
                expr: Expr::binary(BinaryOp::Add, Expr::Global(epoch), Expr::Int(1)),
            },
            span,
        );
    }

    /// The instance of class `c` (or of a subclass) that encloses the code: `this`, or
    /// the enclosing instance an inner class holds (`this.this$0`, `this.this$0.this$0`,
    /// …, set by `new`). Where there is none (static code), an arbitrary non-null object
    /// of that class.
    pub(super) fn outer_instance(&mut self, c: ClassId, span: Span) -> Expr {
        let t = &self.cx.table;
        if let (Some(this), Some(cur)) = (self.this, self.class) {
            let mut obj = Expr::Var(this);
            let mut k = cur;
            loop {
                if t.is_subclass(k, c) {
                    return obj;
                }
                let field = t.classes[k.index()]
                    .fields
                    .iter()
                    .find(|(n, _)| n == crate::classes::OUTER_FIELD)
                    .map(|(_, f)| *f);
                match (t.classes[k.index()].outer, field) {
                    (Some(o), Some(f)) => {
                        obj = Expr::Field {
                            obj: Box::new(obj),
                            field: f,
                        };
                        k = o;
                    }
                    _ => break,
                }
            }
        }
        let v = self.havoc_temp(Type::Class(c), span);
        self.assume_exists(&v, span);
        v
    }

    pub(super) fn this_expr(&mut self, span: Span) -> Option<Expr> {
        match self.this {
            Some(v) => Some(Expr::Var(v)),
            None => {
                self.error(
                    "this-in-static-context",
                    span,
                    "`this` cannot be used in a static context",
                );
                None
            }
        }
    }

    /// `X.super`: with `X` this class or an enclosing one, its instance seen as its
    /// superclass; with `X` an interface, `this` seen as an `X` (a default method); with
    /// `X` a library interface, a library call on `this`.
    fn qualified_super(&mut self, x: &str, span: Span) -> Option<Target> {
        let mut cls = self.class;
        while let Some(c) = cls {
            if self.cx.table.class_name(c) == x {
                let (receiver, _) = self.outer_this(x, Some(Sort::Ref), span);
                return Some(Target::Super {
                    receiver,
                    lookup: self.cx.table.classes[c.index()].superclass,
                    rty: Type::Class(c),
                });
            }
            cls = self.cx.table.classes[c.index()].outer;
        }
        let receiver = self.this_expr(span)?;
        let lookup = self
            .cx
            .table
            .class_by_name(x)
            .filter(|c| self.cx.table.classes[c.index()].decl.is_interface);
        let rty = self.class.map_or(Type::Unknown, Type::Class);
        Some(Target::Super {
            receiver,
            lookup,
            rty,
        })
    }

    /// Resolve the target of a field access or call.
    pub(super) fn target(&mut self, e: &'a ast::Expr) -> Option<Target> {
        match &e.kind {
            ExprKind::Name(id) => match self.resolve_name(&id.name) {
                NameRes::Class(c) => Some(Target::Class(c)),
                NameRes::Unknown if is_class_like(&id.name) => Some(Target::External),
                _ => {
                    let (v, t) = self.expr(e, Some(Sort::Ref));
                    Some(Target::Value(v, t))
                }
            },
            ExprKind::Super => {
                let receiver = self.this_expr(e.span)?;
                let lookup = self
                    .class
                    .and_then(|c| self.cx.table.classes[c.index()].superclass);
                let rty = self.class.map_or(Type::Unknown, Type::Class);
                Some(Target::Super {
                    receiver,
                    lookup,
                    rty,
                })
            }
            ExprKind::QualifiedSuper(x) => self.qualified_super(x, e.span),
            // `Outer.Inner` (in `Outer.Inner.m()`, `Outer.Inner.CONST`): a nested class.
            ExprKind::Field { name, .. }
                if is_class_like(&name.name) && self.class_named(e).is_some() =>
            {
                self.class_named(e).map(Target::Class)
            }
            ExprKind::Field { target, name } if self.is_package_path(target) => {
                if is_class_like(&name.name) {
                    Some(match self.cx.table.class_by_name(&name.name) {
                        Some(c) => Target::Class(c),
                        None => Target::External,
                    })
                } else {
                    self.expr(e, Some(Sort::Ref));
                    None
                }
            }
            _ => {
                let (v, t) = self.expr(e, Some(Sort::Ref));
                Some(Target::Value(v, t))
            }
        }
    }

    /// The program class `e` names, if it names one: `Outer`, or a nested `Outer.Inner`
    /// (`pkg.Outer.Inner`), without evaluating anything.
    fn class_named(&self, e: &ast::Expr) -> Option<ClassId> {
        match &e.kind {
            ExprKind::Name(id) => match self.resolve_name(&id.name) {
                NameRes::Class(c) => Some(c),
                _ => None,
            },
            ExprKind::Field { target, name } if is_class_like(&name.name) => {
                let c = self.cx.table.class_by_name(&name.name)?;
                if self.is_package_path(target) {
                    return Some(c);
                }
                let outer = self.class_named(target)?;
                (self.cx.table.classes[c.index()].outer == Some(outer)).then_some(c)
            }
            _ => None,
        }
    }

    /// `java.util` in `java.util.Random`: a chain of lower-case names that are not
    /// variables, fields or classes.
    pub(super) fn is_package_path(&self, e: &ast::Expr) -> bool {
        match &e.kind {
            ExprKind::Name(id) => {
                !is_class_like(&id.name) && matches!(self.resolve_name(&id.name), NameRes::Unknown)
            }
            ExprKind::Field { target, name } => {
                !is_class_like(&name.name) && self.is_package_path(target)
            }
            _ => false,
        }
    }

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
            ExprKind::ClassLiteral(_) => {
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

    /// The initialiser of `g` when `g` is a constant variable (javac inlines its value at
    /// every read, in its own class too).
    fn constant_of(&self, g: GlobalId) -> Option<&'a ast::Expr> {
        self.cx
            .table
            .global_constants
            .get(g.index())
            .copied()
            .flatten()
    }

    /// A read of a constant variable: its value, as javac inlines it (no initialisation).
    fn constant_read(&mut self, init: &'a ast::Expr, t: Type, span: Span) -> (Expr, Type) {
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
