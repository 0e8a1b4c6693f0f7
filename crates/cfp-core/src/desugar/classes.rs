//! The classes closures become: a lambda's, an anonymous class's, a local class's and a
//! method reference's, with the fields holding what they capture (see the parent module).

use super::*;

impl Desugarer<'_, '_> {
    /// The `new` replacing closure `c` (`None`: it stays an opaque object).
    pub(super) fn closure(
        &mut self,
        c: &mut cfp_syntax::ast::Closure,
        span: Span,
        target: Option<&TypeRef>,
    ) -> Option<Expr> {
        let index = self.closures.len();
        let target = target
            .cloned()
            .or_else(|| self.hints.targets.get(&index).cloned());
        match &mut c.code {
            ClosureCode::Lambda { params, body } => {
                let params = params.clone();
                let body = std::mem::replace(
                    body,
                    LambdaBody::Block(Block {
                        stmts: Vec::new(),
                        span,
                    }),
                );
                Some(self.lambda(index, span, target, params, body))
            }
            ClosureCode::Anonymous { members } => {
                let members = std::mem::take(members);
                let args = std::mem::take(&mut c.args);
                Some(self.anonymous(index, span, c.ty.clone(), args, members))
            }
            ClosureCode::MethodRef { target: t, name } => {
                let (t, name) = (t.clone(), name.clone());
                self.method_ref(index, span, target, t, name)
            }
        }
    }

    pub(super) fn enclosing_name(&self) -> String {
        self.enclosing
            .last()
            .map_or_else(|| "Closure".to_owned(), |e| e.name.clone())
    }

    pub(super) fn lambda(
        &mut self,
        index: usize,
        span: Span,
        target: Option<TypeRef>,
        params: Vec<cfp_syntax::ast::LambdaParam>,
        body: LambdaBody,
    ) -> Expr {
        let fm = target
            .as_ref()
            .and_then(|t| functional_method(t, &self.classes));
        let params: Vec<Param> = params
            .iter()
            .enumerate()
            .map(|(i, p)| Param {
                ty: p
                    .ty
                    .clone()
                    .filter(|t| t.kind != TypeKind::Inferred)
                    .or_else(|| fm.as_ref().and_then(|f| f.params.get(i).cloned().flatten()))
                    .unwrap_or(TypeRef {
                        kind: TypeKind::Inferred,
                        span: p.span,
                    }),
                name: p.name.clone(),
                is_varargs: p.is_varargs,
                span: p.span,
            })
            .collect();
        let void = TypeRef {
            kind: TypeKind::Void,
            span,
        };
        let ret_known = fm.as_ref().and_then(|f| f.ret.clone());
        let mut block = match body {
            LambdaBody::Block(b) => b,
            LambdaBody::Expr(e) => {
                let as_statement = match &ret_known {
                    Some(t) => t.kind == TypeKind::Void,
                    None => is_statement_expr(&e),
                };
                let s = if as_statement {
                    stmt(StmtKind::Expr(*e), span)
                } else {
                    stmt(StmtKind::Return(Some(*e)), span)
                };
                Block {
                    stmts: vec![s],
                    span,
                }
            }
        };
        let ret = ret_known.unwrap_or_else(|| {
            if returns_value(&block) {
                named("Object", span)
            } else {
                void.clone()
            }
        });
        let mut names = Names::default();
        for p in &params {
            names.declare(&p.name.name);
        }
        names.block(&block);
        let captures = self.captures(&names);
        let base = self.enclosing_name();
        let name = self.fresh_name(&base);
        let method = fm
            .as_ref()
            .map_or_else(|| "lambda$".to_owned(), |f| f.name.clone());
        // The body, as code of the new class (closures in it become its nested classes).
        let in_static = self.cx.is_static;
        let saved = std::mem::take(&mut self.cx);
        self.cx = Context {
            scopes: vec![params
                .iter()
                .map(|p| (p.name.name.clone(), p.ty.clone()))
                .collect()],
            is_static: false,
            this_class: saved.this_class.clone(),
            in_lambda: !in_static,
            ret: Some(ret.clone()),
        };
        self.enclosing.push(Enclosing {
            name: name.clone(),
            fields: captures.clone(),
            added: Vec::new(),
        });
        self.block(&mut block);
        let nested = self.enclosing.pop().map(|e| e.added).unwrap_or_default();
        self.cx = saved;
        let mut members = capture_fields(&captures, span);
        members.push(Member::Method(MethodDecl {
            type_params: Vec::new(),
            type_bounds: Vec::new(),
            modifiers: Modifiers {
                is_public: true,
                ..Modifiers::default()
            },
            ret,
            name: ident(&method, span),
            params,
            throws: Vec::new(),
            body: Some(block),
            span,
        }));
        members.extend(nested);
        self.add_class(ClassDecl {
            type_params: Vec::new(),
            type_bounds: Vec::new(),
            modifiers: Modifiers {
                is_static: in_static,
                ..Modifiers::default()
            },
            is_interface: false,
            name: ident(&name, span),
            extends: None,
            implements: target.iter().cloned().collect(),
            members,
            span,
        });
        self.closures.push(ClosureClass {
            index,
            name: name.clone(),
            kind: ClosureKind::Lambda,
            is_local_class: false,
            captures: captures.into_iter().map(|(n, _)| n).collect(),
            method: Some(method),
            target: target.as_ref().and_then(type_name).map(str::to_owned),
            span,
        });
        expr(
            ExprKind::New {
                class: named(&name, span),
                args: Vec::new(),
            },
            span,
        )
    }

    pub(super) fn add_class(&mut self, c: ClassDecl) {
        if let Some(e) = self.enclosing.last_mut() {
            e.added.push(Member::Class(c));
        }
    }

    pub(super) fn anonymous(
        &mut self,
        index: usize,
        span: Span,
        ty: Option<TypeRef>,
        mut args: Vec<Expr>,
        mut members: Vec<Member>,
    ) -> Expr {
        for a in &mut args {
            self.expr(a, None);
        }
        let mut names = Names::default();
        for f in self.inherited_fields(&ty.iter().collect::<Vec<_>>()) {
            names.declare(&f);
        }
        names.members(&members);
        let captures = self.captures(&names);
        let base = self.enclosing_name();
        let name = self.fresh_name(&base);
        let super_decl = ty
            .as_ref()
            .and_then(type_name)
            .and_then(|n| self.class_decl(n))
            .map(|d| (d.is_interface, d.members.clone()));
        let (extends, implements) = match (&ty, &super_decl) {
            (Some(t), Some((true, _))) => (None, vec![t.clone()]),
            (Some(t), _) => (Some(t.clone()), Vec::new()),
            (None, _) => (None, Vec::new()),
        };
        // A constructor passing the arguments to the superclass's.
        if !args.is_empty() {
            let super_params: Option<Vec<TypeRef>> = super_decl.as_ref().and_then(|(_, ms)| {
                ms.iter().find_map(|m| match m {
                    Member::Constructor(c) if c.params.len() == args.len() => {
                        Some(c.params.iter().map(|p| p.ty.clone()).collect())
                    }
                    _ => None,
                })
            });
            let params: Vec<Param> = (0..args.len())
                .map(|i| Param {
                    ty: super_params
                        .as_ref()
                        .and_then(|ps| ps.get(i).cloned())
                        .unwrap_or_else(|| named("Object", span)),
                    name: ident(&format!("arg${i}"), span),
                    is_varargs: false,
                    span,
                })
                .collect();
            let call_args = (0..args.len())
                .map(|i| expr(ExprKind::Name(ident(&format!("arg${i}"), span)), span))
                .collect();
            members.insert(
                0,
                Member::Constructor(ConstructorDecl {
                    modifiers: Modifiers::default(),
                    name: ident(&name, span),
                    params,
                    throws: Vec::new(),
                    body: Block {
                        stmts: vec![stmt(
                            StmtKind::Expr(expr(
                                ExprKind::Call {
                                    target: None,
                                    name: ident("super", span),
                                    args: call_args,
                                },
                                span,
                            )),
                            span,
                        )],
                        span,
                    },
                    span,
                }),
            );
        }
        let in_static = self.cx.is_static;
        let mut decl = ClassDecl {
            type_params: Vec::new(),
            type_bounds: Vec::new(),
            modifiers: Modifiers {
                is_static: in_static,
                ..Modifiers::default()
            },
            is_interface: false,
            name: ident(&name, span),
            extends,
            implements,
            members: capture_fields(&captures, span),
            span,
        };
        decl.members.extend(members);
        let saved = std::mem::take(&mut self.cx);
        self.class(&mut decl, in_static);
        self.cx = saved;
        self.add_class(decl);
        self.closures.push(ClosureClass {
            index,
            name: name.clone(),
            kind: ClosureKind::Anonymous,
            is_local_class: false,
            captures: captures.into_iter().map(|(n, _)| n).collect(),
            method: None,
            target: ty.as_ref().and_then(type_name).map(str::to_owned),
            span,
        });
        expr(
            ExprKind::New {
                class: named(&name, span),
                args,
            },
            span,
        )
    }

    pub(super) fn local_class(&mut self, decl: &mut ClassDecl) {
        let index = self.closures.len();
        let mut names = Names::default();
        let supers: Vec<&TypeRef> = decl.extends.iter().chain(&decl.implements).collect();
        for f in self.inherited_fields(&supers) {
            names.declare(&f);
        }
        names.members(&decl.members);
        let captures = self.captures(&names);
        let mut c = std::mem::replace(
            decl,
            ClassDecl {
                type_params: Vec::new(),
                type_bounds: Vec::new(),
                modifiers: Modifiers::default(),
                is_interface: false,
                name: decl.name.clone(),
                extends: None,
                implements: Vec::new(),
                members: Vec::new(),
                span: decl.span,
            },
        );
        c.modifiers.is_static = self.cx.is_static;
        let mut members = capture_fields(&captures, c.span);
        members.append(&mut c.members);
        c.members = members;
        let saved = std::mem::take(&mut self.cx);
        let st = c.modifiers.is_static;
        self.class(&mut c, st);
        self.cx = saved;
        self.closures.push(ClosureClass {
            index,
            name: c.name.name.clone(),
            kind: ClosureKind::Anonymous,
            is_local_class: true,
            captures: captures.into_iter().map(|(n, _)| n).collect(),
            method: None,
            target: None,
            span: c.span,
        });
        self.add_class(c);
    }

    /// A method reference to a method or constructor of the program, as the lambda that
    /// calls it; `None` for one outside the program.
    pub(super) fn method_ref(
        &mut self,
        index: usize,
        span: Span,
        target: Option<TypeRef>,
        t: MethodRefTarget,
        name: Ident,
    ) -> Option<Expr> {
        let MethodRefTarget::Expr(mut x) = t else {
            return None;
        };
        let fm = target
            .as_ref()
            .and_then(|t| functional_method(t, &self.classes));
        let arity = fm.as_ref().map(|f| f.params.len());
        // `C::m` / `C::new` with `C` a class of the program (not a variable).
        let class_target = match &x.kind {
            ExprKind::Name(id)
                if self.lookup_local(&id.name).is_none()
                    && self.lookup_field(&id.name).is_none() =>
            {
                self.class_decl(&id.name).map(|d| d.name.name.clone())
            }
            _ => None,
        };
        let p = |i: usize| expr(ExprKind::Name(ident(&format!("p${i}"), span)), span);
        let (n_params, first_type, call, void, bound): (
            usize,
            Option<TypeRef>,
            Expr,
            bool,
            Option<(Expr, TypeRef)>,
        ) = if let Some(cname) = class_target {
            let decl = self.class_decl(&cname)?;
            if name.name == "new" {
                let ctors: Vec<&ConstructorDecl> = decl
                    .members
                    .iter()
                    .filter_map(|m| match m {
                        Member::Constructor(c) => Some(c),
                        _ => None,
                    })
                    .collect();
                let n = arity
                    .or_else(|| ctors.first().map(|c| c.params.len()))
                    .unwrap_or(0);
                let args = (0..n).map(p).collect();
                let call = expr(
                    ExprKind::New {
                        class: named(&cname, span),
                        args,
                    },
                    span,
                );
                (n, None, call, false, None)
            } else {
                let methods: Vec<&MethodDecl> = decl
                    .members
                    .iter()
                    .filter_map(|m| match m {
                        Member::Method(md) if md.name.name == name.name => Some(md),
                        _ => None,
                    })
                    .collect();
                let pick = methods
                    .iter()
                    .find(|m| {
                        arity.is_none_or(|a| {
                            if m.modifiers.is_static {
                                m.params.len() == a
                            } else {
                                m.params.len() + 1 == a
                            }
                        })
                    })
                    .or(methods.first())?;
                let void = pick.ret.kind == TypeKind::Void;
                if pick.modifiers.is_static {
                    let n = pick.params.len();
                    let call = expr(
                        ExprKind::Call {
                            target: Some(Box::new(expr(ExprKind::Name(ident(&cname, span)), span))),
                            name: name.clone(),
                            args: (0..n).map(p).collect(),
                        },
                        span,
                    );
                    (n, None, call, void, None)
                } else {
                    // Unbound receiver: the first parameter.
                    let n = pick.params.len() + 1;
                    let call = expr(
                        ExprKind::Call {
                            target: Some(Box::new(p(0))),
                            name: name.clone(),
                            args: (1..n).map(p).collect(),
                        },
                        span,
                    );
                    (n, Some(named(&cname, span)), call, void, None)
                }
            }
        } else {
            // A bound receiver, evaluated now: `this::m`, `x::m`.
            let recv_ty = match &x.kind {
                ExprKind::This => Some(named(&self.cx.this_class, span)),
                ExprKind::Name(id) => self
                    .lookup_local(&id.name)
                    .or_else(|| self.lookup_field(&id.name))
                    .cloned(),
                _ => None,
            }?;
            let decl = type_name(&recv_ty).and_then(|n| self.class_decl(n))?;
            let methods: Vec<&MethodDecl> = decl
                .members
                .iter()
                .filter_map(|m| match m {
                    Member::Method(md) if md.name.name == name.name && !md.modifiers.is_static => {
                        Some(md)
                    }
                    _ => None,
                })
                .collect();
            let pick = methods
                .iter()
                .find(|m| arity.is_none_or(|a| m.params.len() == a))
                .or(methods.first())?;
            let n = pick.params.len();
            let void = pick.ret.kind == TypeKind::Void;
            let recv = expr(ExprKind::Name(ident("recv$", span)), span);
            let call = expr(
                ExprKind::Call {
                    target: Some(Box::new(recv)),
                    name: name.clone(),
                    args: (0..n).map(p).collect(),
                },
                span,
            );
            self.expr(&mut x, None);
            (n, None, call, void, Some((*x, recv_ty)))
        };
        let params = (0..n_params)
            .map(|i| cfp_syntax::ast::LambdaParam {
                ty: if i == 0 { first_type.clone() } else { None },
                name: ident(&format!("p${i}"), span),
                is_varargs: false,
                span,
            })
            .collect();
        let body_stmt = if void {
            stmt(StmtKind::Expr(call), span)
        } else {
            stmt(StmtKind::Return(Some(call)), span)
        };
        let body = LambdaBody::Block(Block {
            stmts: vec![body_stmt],
            span,
        });
        let mut new = self.lambda(index, span, target, params, body);
        if let Some((recv, recv_ty)) = bound {
            // The receiver is a constructor argument stored in `recv$`.
            if let (Some(c), ExprKind::New { args, .. }) = (self.closures.last_mut(), &mut new.kind)
            {
                c.kind = ClosureKind::MethodRef;
                args.push(recv);
                let cname = c.name.clone();
                self.bind_receiver(&cname, recv_ty, span);
            }
        } else if let Some(c) = self.closures.last_mut() {
            c.kind = ClosureKind::MethodRef;
        }
        Some(new)
    }

    /// Give closure class `name` a field `recv$` set by its constructor.
    pub(super) fn bind_receiver(&mut self, name: &str, ty: TypeRef, span: Span) {
        let Some(e) = self.enclosing.last_mut() else {
            return;
        };
        for m in &mut e.added {
            let Member::Class(c) = m else { continue };
            if c.name.name != name {
                continue;
            }
            c.members.push(Member::Field(FieldDecl {
                modifiers: Modifiers::default(),
                ty: ty.clone(),
                declarators: vec![VarDeclarator {
                    name: ident("recv$", span),
                    ty: ty.clone(),
                    init: None,
                    span,
                }],
                span,
            }));
            let assign = expr(
                ExprKind::Assign {
                    op: None,
                    target: Box::new(expr(
                        ExprKind::Field {
                            target: Box::new(expr(ExprKind::This, span)),
                            name: ident("recv$", span),
                        },
                        span,
                    )),
                    value: Box::new(expr(ExprKind::Name(ident("r$", span)), span)),
                },
                span,
            );
            c.members.push(Member::Constructor(ConstructorDecl {
                modifiers: Modifiers::default(),
                name: ident(name, span),
                params: vec![Param {
                    ty,
                    name: ident("r$", span),
                    is_varargs: false,
                    span,
                }],
                throws: Vec::new(),
                body: Block {
                    stmts: vec![stmt(StmtKind::Expr(assign), span)],
                    span,
                },
                span,
            }));
            return;
        }
    }
}

/// The fields holding captured variables.
fn capture_fields(captures: &[(String, TypeRef)], span: Span) -> Vec<Member> {
    captures
        .iter()
        .map(|(n, t)| {
            Member::Field(FieldDecl {
                modifiers: Modifiers {
                    is_final: true,
                    ..Modifiers::default()
                },
                ty: t.clone(),
                declarators: vec![VarDeclarator {
                    name: ident(n, span),
                    ty: t.clone(),
                    init: None,
                    span,
                }],
                span,
            })
        })
        .collect()
}
