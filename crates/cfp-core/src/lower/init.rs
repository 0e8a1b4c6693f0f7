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
            match self.cx.table.lookup_ctor(c, &tys) {
                Some(k) => {
                    let args = self.coerce_args(k, vals, span);
                    let mut all = vec![this];
                    all.extend(args);
                    self.call_edge(k, all, None, span);
                }
                None => self.error(
                    "no-matching-constructor",
                    span,
                    format!(
                        "`{}` has no constructor with {} argument(s)",
                        self.cx.table.class_name(c),
                        tys.len()
                    ),
                ),
            }
        } else {
            // Defaults for the class's own fields (not the enclosing instance, which `new`
            // has set).
            let own: Vec<_> = self.cx.table.classes[c.index()].fields.clone();
            for (_, f) in own
                .into_iter()
                .filter(|(n, _)| n != crate::classes::OUTER_FIELD)
            {
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
            if let Some(sup) = self.cx.table.classes[c.index()].superclass {
                match self.cx.table.lookup_ctor(sup, &tys) {
                    Some(k) => {
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

    pub(super) fn clinit(&mut self) {
        let Some(c) = self.class else { return };
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
}
