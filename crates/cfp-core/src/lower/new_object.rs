//! `new`: an object of a program class (its class initialised first, its constructor
//! chosen as javac chooses it), of a library class (its constructor may call back and
//! throw), or a boxed value (`new Integer(x)`).

use super::*;

impl<'c, 'a> MethodLowerer<'c, 'a> {
    pub(super) fn new_object(
        &mut self,
        class: &'a ast::TypeRef,
        args: &'a [ast::Expr],
        span: Span,
    ) -> (Expr, Type) {
        let ty = self.cx.table.resolve(class);
        // The JVM initialises the class before it evaluates the arguments.
        if let Type::Class(c) = ty {
            self.init_class(c, span);
        }
        let (vals, tys) = self.eval_args(args);
        self.note_arg_jtypes(args, &tys);
        match ty {
            Type::Class(c) => {
                let t = self.temp(ty.clone());
                self.fresh_objects.push(t);
                let ctor = self.choose_ctor(c, &tys);
                let info = &self.cx.table.classes[c.index()];
                if info.decl.is_interface || info.decl.modifiers.is_abstract {
                    self.error(
                        "abstract-instantiation",
                        class.span,
                        format!("cannot instantiate abstract `{}`", info.decl.name.name),
                    );
                }
                self.emit(
                    Stmt::Alloc {
                        var: t,
                        kind: AllocKind::Class(c),
                    },
                    span,
                );
                let code = self.class_code(c);
                self.tag_type(t, code, span);
                // An inner class's object holds the enclosing instance it is created in.
                let holder = self.cx.table.classes[c.index()]
                    .fields
                    .iter()
                    .find(|(n, _)| n == crate::classes::OUTER_FIELD)
                    .map(|(_, f)| *f);
                if let (Some(f), Some(o)) = (holder, self.cx.table.classes[c.index()].outer) {
                    let outer = self.outer_instance(o, span);
                    self.emit(
                        Stmt::Assign {
                            place: Place::Field {
                                obj: Expr::Var(t),
                                field: f,
                            },
                            expr: outer,
                        },
                        span,
                    );
                }
                self.copy_captures(t, c, span);
                if let Some((k, _)) = ctor {
                    self.note_closure_targets(k, args);
                }
                self.construct(c, Expr::Var(t), ctor, vals, tys.len(), span);
                (Expr::Var(t), ty)
            }
            Type::External(n) => {
                let ty = Type::External(n.clone());
                let t = self.temp(ty.clone());
                self.fresh_objects.push(t);
                self.cx.survey.outside.insert(n.clone());
                let code = self.external_code(&n);
                self.emit(
                    Stmt::Alloc {
                        var: t,
                        kind: AllocKind::External(n.clone()),
                    },
                    span,
                );
                self.tag_type(t, code, span);
                // The library's constructor may use and call back what it receives, and
                // throw.
                self.call_site = Some(super::handoff::CallSite {
                    name: format!("new {n}"),
                    class: Some(n.clone()),
                });
                self.note_handed(&tys);
                self.protocol_handoff(&vals, &tys, span);
                self.forget_inherited(span);
                self.library_callbacks(&vals, &tys, span);
                // (The JDK's exceptions are made without throwing.)
                let exception = crate::classes::jdk::ancestors(&n)
                    .is_some_and(|chain| chain.contains(&"Throwable"));
                if !exception {
                    self.library_may_throw(span);
                }
                (Expr::Var(t), ty)
            }
            // `new Integer(x)`, `new Boolean(b)`, `new Double(d)`: a boxed value, whose
            // identity no protocol follows: the value itself when it is one of the type (or
            // a library result used as one), else (`new Integer("12")`, like
            // `Integer.valueOf("12")`) what a library call returns: any value of the type.
            boxed @ (Type::Int | Type::Bool | Type::Float) => {
                match (vals.into_iter().next(), tys.first()) {
                    (Some(v), Some(t))
                        if args.len() == 1 && (*t == Type::Unknown || t.sort() == boxed.sort()) =>
                    {
                        (self.coerce(v, boxed.sort(), &boxed, span), boxed)
                    }
                    _ => self.unknown_value(Some(boxed.sort()), span),
                }
            }
            other => {
                self.error("invalid-new", class.span, "`new` needs a class type");
                let t = self.temp(other.clone());
                (Expr::Var(t), other)
            }
        }
    }
}

impl<'c, 'a> MethodLowerer<'c, 'a> {
    /// Call constructor `chosen` of class `c` on `receiver` with the arguments `vals`
    /// (`arity` of them as written), or report that `c` has none that takes them.
    pub(super) fn construct(
        &mut self,
        c: ClassId,
        receiver: Expr,
        chosen: Option<(MethodId, crate::classes::jtypes::Phase)>,
        vals: Vec<Expr>,
        arity: usize,
        span: Span,
    ) {
        match chosen {
            Some((k, phase)) => {
                let vals = self.pack_varargs(k, phase, vals, span);
                let args = self.coerce_args(k, vals, span);
                let mut all = vec![receiver];
                all.extend(args);
                self.call_edge(k, all, None, span);
            }
            None => self.error(
                "no-matching-constructor",
                span,
                format!(
                    "`{}` has no constructor with {arity} argument(s)",
                    self.cx.table.class_name(c),
                ),
            ),
        }
    }
}
