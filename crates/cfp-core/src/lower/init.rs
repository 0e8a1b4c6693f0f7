//! Constructors (`C.<init>`: field defaults, `super(…)`/`this(…)`, initialisers, the
//! body) and static initialisation (`C.<clinit>`).

use super::*;

impl<'c, 'a> MethodLowerer<'c, 'a> {
    pub(super) fn ctor_body(&mut self, body: Option<&'a Block>) {
        let Some(c) = self.class else { return };
        let stmts: &'a [ast::Stmt] = body.map_or(&[], |b| b.stmts.as_slice());
        let (explicit, rest) = match stmts.split_first() {
            Some((first, rest)) => match &first.kind {
                StmtKind::Expr(ast::Expr {
                    kind:
                        ExprKind::Call {
                            target: None,
                            name,
                            args,
                        },
                    span,
                }) if name.name == "this" || name.name == "super" => {
                    (Some((name.name == "this", args, *span)), rest)
                }
                _ => (None, stmts),
            },
            None => (None, stmts),
        };
        let this = self.this.map_or(Expr::Null, Expr::Var);
        if let Some((true, args, span)) = explicit {
            let (vals, tys) = self.eval_args(args);
            self.note_arg_jtypes(args, &tys);
            let chosen = self.choose_ctor(c, &tys);
            self.construct(c, this, chosen, vals, tys.len(), span);
        } else {
            // Defaults for the class's own fields (not the enclosing instance, which `new`
            // has set).
            let own: Vec<_> = self.cx.table.classes[c.index()]
                .fields
                .clone()
                .into_iter()
                .filter(|(n, _)| n != crate::classes::OUTER_FIELD && !self.is_capture(c, n))
                .collect();
            for (_, f) in own {
                let fd = &self.cx.table.fields[f.index()];
                let (sort, span) = (fd.sort, fd.span);
                self.emit(
                    Stmt::Assign {
                        place: Place::Field {
                            obj: this.clone(),
                            field: f,
                        },
                        expr: sort.default_value(),
                    },
                    span,
                );
            }
            // super(…)
            let (args, span): (&'a [ast::Expr], Span) = match explicit {
                Some((_, args, span)) => (args.as_slice(), span),
                None => (&[], self.cx.table.classes[c.index()].decl.name.span),
            };
            let (vals, tys) = self.eval_args(args);
            self.note_arg_jtypes(args, &tys);
            if let Some(sup) = self.cx.table.classes[c.index()].superclass {
                match self.choose_ctor(sup, &tys) {
                    Some((k, phase)) => {
                        let vals = self.pack_varargs(k, phase, vals, span);
                        let args = self.coerce_args(k, vals, span);
                        let mut all = vec![this.clone()];
                        all.extend(args);
                        self.call_edge(k, all, None, span);
                    }
                    None => self.error(
                        "no-matching-constructor",
                        span,
                        format!(
                            "superclass `{}` has no constructor with {} argument(s)",
                            self.cx.table.class_name(sup),
                            tys.len()
                        ),
                    ),
                }
            } else if let Some(n) = self.outside_superclass(c) {
                // The constructor of a superclass outside the program: library code that
                // receives the new object and the arguments.
                // (The JDK's exceptions are made without throwing.)
                let exception = crate::classes::jdk::ancestors(&n)
                    .is_some_and(|chain| chain.contains(&"Throwable"));
                self.call_site = Some(super::handoff::CallSite {
                    name: format!("super {n}"),
                    class: Some(n),
                });
                let (all, all_tys) =
                    super::call::with_receiver(&this, &Type::Class(c), &vals, &tys);
                self.library_effects(&all, &all_tys, 1, span);
                if !exception {
                    self.library_may_throw(span);
                }
            }
            // Instance initialisers in order.
            let decl = self.cx.table.classes[c.index()].decl;
            for m in &decl.members {
                match m {
                    Member::Field(fd) if !fd.modifiers.is_static && !decl.is_interface => {
                        for d in &fd.declarators {
                            let Some(init) = &d.init else { continue };
                            let Some(f) = self.cx.table.lookup_field(c, &d.name.name) else {
                                continue;
                            };
                            let ty = self.cx.table.field_types[f.index()].clone();
                            let (v, _) = self.init_expr(init, &ty, Some(ty.sort()));
                            let v = self.coerce(v, ty.sort(), &ty, init.span);
                            self.emit(
                                Stmt::Assign {
                                    place: Place::Field {
                                        obj: this.clone(),
                                        field: f,
                                    },
                                    expr: v,
                                },
                                d.span,
                            );
                        }
                    }
                    Member::Initializer(i) if !i.is_static => self.block(&i.body),
                    _ => {}
                }
            }
        }
        let mark = self.scope.len();
        self.stmts(rest);
        self.scope.truncate(mark);
    }

    /// The superclass outside the program that class `c` extends directly, if any.
    fn outside_superclass(&self, c: ClassId) -> Option<String> {
        let info = &self.cx.table.classes[c.index()];
        if info.superclass.is_some() || info.decl.is_interface {
            return None;
        }
        match &info.decl.extends.as_ref()?.kind {
            ast::TypeKind::Named { name, .. }
                if name != "Object" && name != crate::models::MODEL_BASE =>
            {
                Some(name.clone())
            }
            _ => None,
        }
    }

    /// `C.<clinit>`, the initialisation procedure of class `C` (JLS §12.4.2): for a class
    /// initialised lazily, return at once when its initialisation has started (or, when
    /// an earlier one failed, throw `NoClassDefFoundError`), else mark it started; then
    /// initialise the superclass (unless it is eager: the root did), then run the static
    /// field initialisers and static blocks in source order.
    pub(super) fn clinit(&mut self) {
        let Some(c) = self.class else { return };
        let span = self.cx.table.classes[c.index()].decl.name.span;
        if let Some(state) = self.cx.init_state[c.index()] {
            let st = Expr::Global(state);
            let (run, done) = (self.fresh(), self.fresh());
            let here = self.cur;
            self.emit(
                Stmt::Assume(Expr::binary(BinaryOp::Eq, st.clone(), Expr::Int(0))),
                span,
            );
            self.goto(run);
            self.set(here);
            self.emit(
                Stmt::Assume(Expr::binary(BinaryOp::Eq, st.clone(), Expr::Int(1))),
                span,
            );
            self.goto(done);
            if self.clinit_may_fail() {
                self.set(here);
                self.emit(
                    Stmt::Assume(Expr::binary(BinaryOp::Eq, st, Expr::Int(2))),
                    span,
                );
                self.throw_new("NoClassDefFoundError", span);
            }
            self.set(done);
            let exit = self.exit;
            self.goto(exit);
            self.set(run);
            self.emit(
                Stmt::Assign {
                    place: Place::Global(state),
                    expr: Expr::Int(1),
                },
                span,
            );
        }
        if let Some(sup) = self.cx.table.classes[c.index()].superclass {
            if self.cx.eager[sup.index()].is_none() {
                if let Some(m) = self.cx.table.classes[sup.index()].clinit {
                    self.call_edge(m, Vec::new(), None, span);
                }
            }
        }
        let decl = self.cx.table.classes[c.index()].decl;
        for m in &decl.members {
            match m {
                Member::Field(fd) if fd.modifiers.is_static || decl.is_interface => {
                    for d in &fd.declarators {
                        let Some(init) = &d.init else { continue };
                        let Some(g) = self.cx.table.lookup_static(c, &d.name.name) else {
                            continue;
                        };
                        let ty = self.cx.global_types[g.index()].clone();
                        let (v, _) = self.init_expr(init, &ty, Some(ty.sort()));
                        let v = self.coerce(v, ty.sort(), &ty, init.span);
                        self.emit(
                            Stmt::Assign {
                                place: Place::Global(g),
                                expr: v,
                            },
                            d.span,
                        );
                    }
                }
                Member::Initializer(i) if i.is_static => self.block(&i.body),
                _ => {}
            }
        }
    }

    /// Whether this initialisation procedure may end by throwing.
    fn clinit_may_fail(&self) -> bool {
        self.cx
            .facts()
            .is_some_and(|f| f.may_throw.get(self.id.index()).copied().unwrap_or(false))
    }

    /// At the exception exit of `C.<clinit>`: the class is erroneous from now on, and an
    /// exception that is not an `Error` becomes an `ExceptionInInitializerError`.
    pub(super) fn clinit_failed(&mut self, span: Span) {
        let Some(c) = self.class else { return };
        if let Some(state) = self.cx.init_state[c.index()] {
            self.emit(
                Stmt::Assign {
                    place: Place::Global(state),
                    expr: Expr::Int(2),
                },
                span,
            );
        }
        let Some(exc) = self.cx.exc else { return };
        let error = Type::External("Error".to_owned());
        let test = self.type_test(Expr::Global(exc), &error, true);
        let (keep, wrap) = (self.fresh(), self.fresh());
        self.branch_on_test(test, keep, wrap, span, |_| {
            "whether the exception that ends this class's initialisation is an `Error` is \
             not known"
                .to_owned()
        });
        self.set(wrap);
        let e = self.new_exception("ExceptionInInitializerError", span);
        self.emit(
            Stmt::Assign {
                place: Place::Global(exc),
                expr: e,
            },
            span,
        );
        self.goto(keep);
        self.set(keep);
    }

    /// The first active use of class `c` here (a `new`, a static method call, a static
    /// field access): initialise it, unless that cannot be needed — it is initialised
    /// eagerly, or this code belongs to `c` or a subclass (which is initialised, or being
    /// initialised, whenever its code runs).
    pub(super) fn init_class(&mut self, c: ClassId, span: Span) {
        let Some(m) = self.cx.table.classes.get(c.index()).and_then(|i| i.clinit) else {
            return;
        };
        // Nothing to run: the class and its superclasses are eager or have no
        // initialisers of their own.
        let mut lazy_work = false;
        let mut k = Some(c);
        let mut steps = 0;
        while let Some(x) = k {
            let info = &self.cx.table.classes[x.index()];
            lazy_work |= info.own_static_init && self.cx.eager[x.index()].is_none();
            steps += 1;
            if steps > self.cx.table.classes.len() {
                break;
            }
            k = info.superclass;
        }
        if !lazy_work {
            return;
        }
        let mut cur = self.class;
        let mut seen = 0;
        while let Some(k) = cur {
            if k == c {
                return;
            }
            seen += 1;
            if seen > self.cx.table.classes.len() {
                break;
            }
            cur = self.cx.table.classes[k.index()].superclass;
        }
        self.call_edge(m, Vec::new(), None, span);
    }
}
