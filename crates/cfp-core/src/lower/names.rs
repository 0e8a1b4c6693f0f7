//! Names: what a bare or qualified name denotes (local, field, class, a supertype's
//! member outside the program), `this` and enclosing instances, and call targets.

use super::*;

impl<'c, 'a> MethodLowerer<'c, 'a> {
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
    pub(super) fn inherited_field(
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
    pub(super) fn qualified_super(&mut self, x: &str, span: Span) -> Option<Target> {
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
    pub(super) fn class_named(&self, e: &ast::Expr) -> Option<ClassId> {
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
}
