//! Closures at run time ([`crate::desugar`] made them classes):
//! * creating one copies the captured local variables into its fields;
//! * a call through an interface or class outside the program (`Runnable r; r.run()`)
//!   runs the program's implementation the receiver's runtime class has — a closure,
//!   or a class of the program implementing that type — and, for an object of no such
//!   class, library code (an arbitrary result, no effect);
//! * a closure handed to library code may be called back by it: during that call, any
//!   number of times, and after the entry returns (an event loop, an executor, a
//!   listener), any number of times, in any order.

use super::jdk_callbacks::{is_object_method, jdk_callbacks, CALLS_ONLY_DURING};
use super::*;
use cfp_syntax::ast::ClosureKind;

/// How library code got an object of a named class of the program, which decides what
/// of it library code may call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seen {
    /// As the receiver of a method the class inherits from outside the program: that
    /// method calls back what the well-known JDK supertypes list, and nothing when one
    /// of the supertypes outside the program is not well known.
    Receiver,
    /// As an object of a type outside the program that is not well known: any method that
    /// may override one of such a type.
    OutsideType,
    /// As an object of the program's own type (or of a well-known JDK type): the methods
    /// of its well-known JDK supertypes.
    KnownTypes,
}

/// How a later call-back picks its receiver.
#[derive(Clone, Copy)]
struct Pick {
    /// The receiver variable.
    var: VarId,
    /// The registry of escaped objects.
    escapes: super::Escapes,
    /// The first allocation of the run: objects below it existed before.
    base: VarId,
    /// No object of the program existed before the run.
    closed: bool,
}

impl<'c, 'a> MethodLowerer<'c, 'a> {
    /// The program's implementations of `name`/`arity` for a receiver of the outside
    /// type `ty` (every class is below `Object`): for each concrete class of the program
    /// below `ty` that has (or
    /// inherits from a class of the program) such a method, that method with the class.
    pub(super) fn outside_type_implementations(
        &self,
        ty: &str,
        name: &str,
        arity: usize,
    ) -> Vec<(MethodId, ClassId)> {
        if OBJECT_METHODS.contains(&name) {
            return Vec::new();
        }
        let t = &self.cx.table;
        let mut out = Vec::new();
        for (i, info) in t.classes.iter().enumerate() {
            let c = ClassId(i as u32);
            if info.decl.is_interface || info.decl.modifiers.is_abstract {
                continue;
            }
            if ty != super::generics::OBJECT && !t.supertypes_of(c).iter().any(|n| n == ty) {
                continue;
            }
            let mut cur = Some(c);
            let mut steps = 0;
            while let Some(k) = cur {
                let hit = t.classes[k.index()].methods.iter().copied().find(|m| {
                    let s = &t.methods[m.index()];
                    !s.is_abstract && !s.is_static && s.name == name && s.params.len() == arity
                });
                if let Some(m) = hit {
                    out.push((m, c));
                    break;
                }
                steps += 1;
                if steps > t.classes.len() {
                    break;
                }
                cur = t.classes[k.index()].superclass;
            }
        }
        out
    }

    /// A call of `name` on a receiver of the outside type `ty` (`opaque`: of a type this
    /// cannot see, `ty` being `Object`): the program's
    /// implementations by the receiver's runtime class, else library code. `None` when
    /// the program has none (an ordinary library call).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn outside_type_dispatch(
        &mut self,
        recv: &Expr,
        ty: &str,
        name: &str,
        vals: &[Expr],
        tys: &[Type],
        want_result: bool,
        want: Option<Sort>,
        dest: Option<VarId>,
        span: Span,
        opaque: bool,
    ) -> Option<(Expr, Type)> {
        let mut impls = self.outside_type_implementations(ty, name, vals.len());
        if opaque {
            // What library code returns is an object of the library or one it was handed.
            if let Some(handed) = self.handed_classes() {
                impls.retain(|(_, c)| handed.contains(c));
            }
        }
        if impls.is_empty() {
            return None;
        }
        self.cx.survey.needs_types = true;
        let ret = self.cx.table.methods[impls[0].0.index()].ret.clone();
        let agree = impls
            .iter()
            .all(|(m, _)| self.cx.table.methods[m.index()].ret.sort() == ret.sort());
        let (ret, want) = match (opaque, agree) {
            // The receiver may be an object of the library too, whose method returns a
            // value of a type this cannot see: the value is of the sort the context
            // wants (or the one the program's methods agree on).
            (true, _) => (
                Type::Unknown,
                want.or((agree && ret != Type::Void).then(|| ret.sort())),
            ),
            (false, true) => (ret, want),
            (false, false) => (Type::Unknown, want),
        };
        let res = self.result_var(dest, want_result, &ret, want);
        let join = self.fresh();
        let start = self.cur;
        let mut codes = Vec::new();
        let mut unwinds = Vec::new();
        let dispatched: Vec<ClassId> = impls.iter().map(|(_, c)| *c).collect();
        // Group the classes by the method they run.
        let mut groups: Vec<(MethodId, Vec<ClassId>)> = Vec::new();
        for (m, c) in impls {
            match groups.iter_mut().find(|(g, _)| *g == m) {
                Some((_, cs)) => cs.push(c),
                None => groups.push((m, vec![c])),
            }
        }
        for (m, classes) in groups {
            self.set(start);
            let cs: Vec<i64> = classes.iter().filter_map(|k| self.class_code(*k)).collect();
            codes.extend(cs.iter().copied());
            if let Some(f) = self.cx.type_field {
                let t = Expr::Field {
                    obj: Box::new(recv.clone()),
                    field: f,
                };
                self.emit(Stmt::Assume(types::in_codes(t, &cs)), span);
            }
            let mut args = vec![recv.clone()];
            args.extend(self.coerce_args(m, vals.to_vec(), span));
            let from = self.cur;
            // A method whose result is of another sort than the variable's (a `String`
            // where the context reads an `int`, nothing): it runs, and the value is
            // arbitrary.
            let mret = &self.cx.table.methods[m.index()].ret;
            let fits =
                res.filter(|r| *mret != Type::Void && mret.sort() == self.vars[r.index()].sort);
            let to = if fits.is_some() || res.is_none() {
                join
            } else {
                self.fresh()
            };
            self.b.edge(
                from,
                to,
                Edge::Call {
                    callee: m,
                    args: args.clone(),
                    result: fits.map(Place::Var),
                    span,
                    unwind: false,
                },
            );
            if to != join {
                self.set(to);
                if let Some(r) = res {
                    self.emit(Stmt::Havoc(Place::Var(r)), span);
                }
                self.goto(join);
            }
            self.calls_emitted += 1;
            self.note_call(m);
            unwinds.push((from, m, args));
        }
        // An object of no class of the program: library code, which receives the
        // arguments.
        self.set(start);
        if let Some(f) = self.cx.type_field {
            let t = Expr::Field {
                obj: Box::new(recv.clone()),
                field: f,
            };
            self.emit(Stmt::Assume(types::in_codes(t, &codes).negate()), span);
        }
        // The receiver is handed over too when a class of the program other than those
        // dispatched above may be it (its method inherited from outside).
        let outside_ty = Type::External(ty.to_owned());
        let others = self
            .callback_candidates(&outside_ty, true)
            .iter()
            .any(|(c, _)| !dispatched.contains(c));
        if others {
            let (all, all_tys) = super::call::with_receiver(recv, &outside_ty, vals, tys);
            self.library_effects(&all, &all_tys, 1, span);
        } else {
            self.library_effects(vals, tys, 0, span);
        }
        if let Some(r) = res {
            self.emit(Stmt::Havoc(Place::Var(r)), span);
        }
        self.library_may_throw(span);
        self.goto(join);
        for (from, m, args) in unwinds {
            self.unwind_edges(from, &[(m, args)], span);
        }
        self.set(join);
        Some(self.call_value(res, dest, ret, span))
    }

    /// The classes of the program an object of static type `ty` may be, with the methods
    /// library code may call on it: a closure's function (every method of an anonymous
    /// class but the private ones); for another class, the methods that may override one
    /// of a supertype outside the program ([`Self::library_may_call`]).
    ///
    /// `receiver`: the object is the receiver of a method it inherits from outside the
    /// program (or the object a superclass outside it constructs): that method, of a
    /// well-known JDK class, calls back only what the class's entry lists; of any other
    /// class, it is taken to call back none of the object's methods.
    fn callback_candidates(&self, ty: &Type, receiver: bool) -> Vec<(ClassId, Vec<MethodId>)> {
        let key = (ty.clone(), receiver);
        if let Some(hit) = self.cx.callback_cache.borrow().get(&key) {
            return hit.clone();
        }
        let out = self.compute_callback_candidates(ty, receiver);
        self.cx.callback_cache.borrow_mut().insert(key, out.clone());
        out
    }

    /// [`Self::callback_candidates`], computed.
    fn compute_callback_candidates(
        &self,
        ty: &Type,
        receiver: bool,
    ) -> Vec<(ClassId, Vec<MethodId>)> {
        let t = &self.cx.table;
        let mut out = Vec::new();
        for (i, info) in t.classes.iter().enumerate() {
            let c = ClassId(i as u32);
            let closure = self.cx.closure(c);
            // (A model's class stands for library code: it is no call-back.)
            if closure.is_none()
                && (info.decl.is_interface
                    || info.decl.modifiers.is_abstract
                    || t.supertypes_of(c)
                        .iter()
                        .any(|n| n == crate::models::MODEL_BASE))
            {
                continue;
            }
            let fits = match ty {
                Type::Class(s) => t.is_subclass(c, *s),
                Type::External(n) => n == "Object" || t.supertypes_of(c).iter().any(|x| x == n),
                Type::Unknown => true,
                _ => false,
            };
            if !fits {
                continue;
            }
            let methods: Vec<MethodId> = match closure {
                Some(_) if receiver => self.library_may_call(c, Seen::Receiver),
                Some(k) => info
                    .methods
                    .iter()
                    .copied()
                    .filter(|m| {
                        let s = &t.methods[m.index()];
                        let callable = !s.is_abstract && !s.is_static;
                        match (&k.kind, &k.method) {
                            (ClosureKind::Lambda | ClosureKind::MethodRef, Some(f)) => {
                                callable && s.name == *f
                            }
                            _ => {
                                callable
                                    && !matches!(s.source, MethodSource::Method(md) if md.modifiers.is_private)
                            }
                        }
                    })
                    .collect(),
                None => {
                    // Library code sees the object as `ty`: a well-known JDK type's methods.
                    let via = match ty {
                        Type::External(n) => jdk_callbacks(n),
                        _ => None,
                    };
                    match via {
                        Some(names) => self
                            .library_may_call(c, Seen::KnownTypes)
                            .into_iter()
                            .filter(|m| {
                                let s = &t.methods[m.index()];
                                is_object_method(&s.name, s.params.len())
                                    || names.contains(&s.name.as_str())
                            })
                            .collect(),
                        None if receiver => self.library_may_call(c, Seen::Receiver),
                        None if matches!(ty, Type::External(_)) => {
                            self.library_may_call(c, Seen::OutsideType)
                        }
                        None => self.library_may_call(c, Seen::KnownTypes),
                    }
                }
            };
            if !methods.is_empty() {
                out.push((c, methods));
            }
        }
        out
    }

    /// The methods of an object of class `c` (not a closure) that library code may call:
    /// those of `c` and its superclasses in the program (the most derived of each name
    /// and arity), not private, not static, that override a method of `Object`
    /// (`toString`, `equals`, `hashCode`) or may override one of a supertype outside the
    /// program — of a well-known JDK type, a method it has
    /// ([`super::jdk_callbacks::JDK_CALLBACKS`]); of any other, a method marked
    /// `@Override`, or any method when none of these classes marks its overrides.
    ///
    /// `seen`: how library code got the object ([`Seen`]).
    fn library_may_call(&self, c: ClassId, seen: Seen) -> Vec<MethodId> {
        let t = &self.cx.table;
        let mut outside: Vec<&str> = Vec::new();
        for a in t.ancestors(c) {
            for e in &t.classes[a.index()].external_supers {
                if !outside.contains(&e.as_str()) {
                    outside.push(e);
                }
            }
        }
        let all_known = outside.iter().all(|e| jdk_callbacks(e).is_some());
        let known: Vec<&str> = outside
            .iter()
            .filter_map(|e| jdk_callbacks(e))
            .flat_map(|ms| ms.iter().copied())
            .collect();
        // The receiver: the method is inherited from the superclass outside the program,
        // which must be well known.
        let superclass_known = t.superclass_chain(c).iter().all(|k| {
            let info = &t.classes[k.index()];
            match (
                &info.superclass,
                info.decl.extends.as_ref().map(|e| &e.kind),
            ) {
                (None, Some(ast::TypeKind::Named { name, .. })) if !info.decl.is_interface => {
                    jdk_callbacks(name).is_some()
                }
                _ => true,
            }
        });
        if seen == Seen::Receiver && !superclass_known {
            return Vec::new();
        }
        let chain = t.superclass_chain(c);
        let marks = chain.iter().any(|k| {
            t.classes[k.index()].methods.iter().any(|m| {
                matches!(t.methods[m.index()].source, MethodSource::Method(md) if md.modifiers.is_override)
            })
        });
        let mut out: Vec<MethodId> = Vec::new();
        let mut done: Vec<(String, Vec<crate::classes::jtypes::JType>)> = Vec::new();
        for k in chain {
            for m in &t.classes[k.index()].methods {
                let s = &t.methods[m.index()];
                let MethodSource::Method(md) = s.source else {
                    continue;
                };
                let key = (s.name.clone(), t.param_jtypes(*m).0);
                if done.contains(&key) {
                    continue;
                }
                done.push(key);
                if s.is_static || s.is_abstract || md.modifiers.is_private {
                    continue;
                }
                let object = is_object_method(&s.name, s.params.len());
                let overrides = known.contains(&s.name.as_str())
                    || (seen == Seen::OutsideType
                        && !all_known
                        && (md.modifiers.is_override || !marks));
                if object || overrides {
                    out.push(*m);
                }
            }
        }
        out
    }

    /// Library code receives the objects `args` (of static types `tys`): those that may be
    /// closures may be called back, now, any number of times, and after the entry
    /// returns.
    pub(super) fn library_callbacks(&mut self, args: &[Expr], tys: &[Type], span: Span) {
        self.library_callbacks_from(args, tys, 0, span);
    }

    /// [`Self::library_callbacks`] where the objects before `kept_from` (the receiver of
    /// a method inherited from outside the program, or the object a superclass outside
    /// it constructs) are called back only during the call: library code already has
    /// them, and keeps for later only what it receives as an argument.
    pub(super) fn library_callbacks_from(
        &mut self,
        args: &[Expr],
        tys: &[Type],
        kept_from: usize,
        span: Span,
    ) -> bool {
        // A well-known JDK method that calls its argument only while it runs, or a
        // well-known JDK class that only stores, compares or prints what it receives,
        // keeps nothing to call later.
        let keeps = !self.call_site.take().is_some_and(|site| {
            let method = site.name.rsplit('.').next().unwrap_or_default();
            CALLS_ONLY_DURING.contains(&method)
                || site
                    .class
                    .as_deref()
                    .is_some_and(|c| super::handoff::INERT_CLASSES.contains(&c))
        });
        let mut calls: Vec<(Expr, ClassId, MethodId, bool)> = Vec::new();
        for (i, (a, ty)) in args.iter().zip(tys).enumerate() {
            if !ty.is_ref() {
                continue;
            }
            let cands = self.callback_candidates(ty, i < kept_from);
            if cands.iter().any(|(c, _)| self.cx.closure(*c).is_none()) {
                self.cx.survey.needs_types = true;
            }
            let exact = matches!(ty, Type::Class(c) if self.cx.closure(*c).is_some());
            for (c, ms) in cands {
                for m in ms {
                    calls.push((a.clone(), c, m, !exact));
                }
            }
        }
        if calls.is_empty() {
            return false;
        }
        let kept_args = &args[kept_from.min(args.len())..];
        if !keeps || !calls.iter().any(|(a, ..)| kept_args.contains(a)) {
            self.callback_loop(calls, None, span);
            return true;
        }
        self.cx.survey.escapes = true;
        self.cx.survey.escaping.extend(
            calls
                .iter()
                .filter(|(a, ..)| kept_args.contains(a))
                .map(|(_, c, ..)| *c),
        );
        // Register what escaped, for the calls after the entry returns.
        if let Some(e) = self.cx.escapes {
            let mut seen: Vec<Expr> = Vec::new();
            for (a, ..) in &calls {
                if !seen.contains(a) && kept_args.contains(a) {
                    seen.push(a.clone());
                    self.register_escape(a, e, span);
                }
            }
        }
        self.callback_loop(calls, None, span);
        true
    }

    /// `if (a != null && a is not registered) { %escapes += 1; a.%escaped := %escapes;
    /// %escapes.%escapes := a }`.
    fn register_escape(&mut self, a: &Expr, e: super::Escapes, span: Span) {
        let count = Expr::Global(e.count);
        let index = Expr::Field {
            obj: Box::new(a.clone()),
            field: e.index,
        };
        let registered = Expr::binary(
            BinaryOp::And,
            Expr::binary(
                BinaryOp::And,
                Expr::binary(BinaryOp::Le, Expr::Int(1), index.clone()),
                Expr::binary(BinaryOp::Le, index.clone(), count.clone()),
            ),
            Expr::binary(
                BinaryOp::Eq,
                Expr::Field {
                    obj: Box::new(index),
                    field: e.list,
                },
                a.clone(),
            ),
        );
        let skip = Expr::binary(
            BinaryOp::Or,
            Expr::binary(BinaryOp::Eq, a.clone(), Expr::Null),
            registered,
        );
        let here = self.cur;
        let done = self.fresh();
        self.emit(Stmt::Assume(skip.clone()), span);
        self.goto(done);
        self.set(here);
        self.emit(Stmt::Assume(skip.negate()), span);
        let next = Expr::binary(BinaryOp::Add, count.clone(), Expr::Int(1));
        self.emit(
            Stmt::Assign {
                place: Place::Global(e.count),
                expr: next,
            },
            span,
        );
        self.emit(
            Stmt::Assign {
                place: Place::Field {
                    obj: a.clone(),
                    field: e.index,
                },
                expr: count.clone(),
            },
            span,
        );
        self.emit(
            Stmt::Assign {
                place: Place::Field {
                    obj: count,
                    field: e.list,
                },
                expr: a.clone(),
            },
            span,
        );
        self.goto(done);
        self.set(done);
    }

    /// `while (*) { one of calls }`; an exception of a callback goes on from here. With
    /// `pick`, each round first picks the receiver: `o := *; assume o.%escaped` (and
    /// `o > base`, with a base).
    fn callback_loop(
        &mut self,
        calls: Vec<(Expr, ClassId, MethodId, bool)>,
        pick: Option<Pick>,
        span: Span,
    ) {
        // What the methods called back return goes to library code.
        let rets: Vec<Type> = calls
            .iter()
            .map(|(_, _, m, _)| self.cx.table.methods[m.index()].ret.clone())
            .collect();
        self.note_handed(&rets);
        let head = self.fresh();
        let after = self.fresh();
        self.goto(head);
        self.set(head);
        self.skip_to(after);
        if let Some(Pick {
            var: o,
            escapes: e,
            base,
            closed,
        }) = pick
        {
            let here = self.cur;
            let picked = self.fresh();
            // A registered object: `i := *; assume 1 <= i <= %escapes; o := i.%escapes`.
            let i = self.temp(Type::Int);
            self.emit(Stmt::Havoc(Place::Var(i)), span);
            self.emit(
                Stmt::Assume(Expr::binary(
                    BinaryOp::And,
                    Expr::binary(BinaryOp::Le, Expr::Int(1), Expr::Var(i)),
                    Expr::binary(BinaryOp::Le, Expr::Var(i), Expr::Global(e.count)),
                )),
                span,
            );
            self.emit(
                Stmt::Assign {
                    place: Place::Var(o),
                    expr: Expr::Field {
                        obj: Box::new(Expr::Var(i)),
                        field: e.list,
                    },
                },
                span,
            );
            self.goto(picked);
            // An open world: also any object that existed before the run — but not a
            // closure: one is created only where its code is, and the run starts with
            // no history (its protocol objects have made no call yet).
            if !closed {
                self.set(here);
                self.emit(Stmt::Havoc(Place::Var(o)), span);
                self.emit(
                    Stmt::Assume(Expr::binary(BinaryOp::Lt, Expr::Var(o), Expr::Var(base))),
                    span,
                );
                if let Some(f) = self.cx.type_field {
                    let closures: Vec<ClassId> = self
                        .cx
                        .closures
                        .iter()
                        .filter_map(|k| self.cx.table.class_by_name(&k.name))
                        .collect();
                    for c in closures {
                        if let Some(code) = self.class_code(c) {
                            self.emit(
                                Stmt::Assume(Expr::binary(
                                    BinaryOp::Ne,
                                    Expr::Field {
                                        obj: Box::new(Expr::Var(o)),
                                        field: f,
                                    },
                                    Expr::Int(code),
                                )),
                                span,
                            );
                        }
                    }
                }
                self.goto(picked);
            }
            self.set(picked);
        }
        // Library code runs between two call-backs.
        self.forget_inherited(span);
        let body = self.cur;
        for (recv, c, m, test) in calls {
            self.set(body);
            self.assume_exists(&recv, span);
            if test {
                if let (Some(f), Some(code)) = (self.cx.type_field, self.class_code(c)) {
                    self.emit(
                        Stmt::Assume(Expr::binary(
                            BinaryOp::Eq,
                            Expr::Field {
                                obj: Box::new(recv.clone()),
                                field: f,
                            },
                            Expr::Int(code),
                        )),
                        span,
                    );
                }
            }
            let params: Vec<Type> = self.cx.table.methods[m.index()]
                .params
                .iter()
                .map(|p| p.1.clone())
                .collect();
            let mut args = vec![recv];
            for p in params {
                let v = self.havoc_temp(p, span);
                args.push(v);
            }
            self.call_edge(m, args, None, span);
            self.goto(head);
        }
        self.set(after);
    }

    /// After the entry returns: library code may call back any closure it received (in
    /// an open world, `closed` false, also one that existed before the run, below `base`).
    pub(super) fn later_callbacks(&mut self, base: VarId, closed: bool, span: Span) {
        let Some(escapes) = self.cx.escapes else {
            return;
        };
        let o = self.temp(Type::External("Object".to_owned()));
        let mut calls = Vec::new();
        // In a closed world, only objects of the classes that some code of the program
        // hands to library code.
        let escaping = match (closed, self.cx.facts()) {
            (true, Some(f)) => Some(f.escaping.clone()),
            _ => None,
        };
        for (c, ms) in self.callback_candidates(&Type::Unknown, false) {
            if escaping.as_ref().is_some_and(|e| !e.contains(&c)) {
                continue;
            }
            for m in ms {
                calls.push((Expr::Var(o), c, m, true));
            }
        }
        if !calls.is_empty() {
            let pick = Pick {
                var: o,
                escapes,
                base,
                closed,
            };
            self.callback_loop(calls, Some(pick), span);
        }
    }

    /// A closure passed to method `callee` of the program takes the parameter's type as
    /// its target (found by the survey, used by the next desugaring).
    pub(super) fn note_closure_targets(&mut self, callee: MethodId, args: &[ast::Expr]) {
        if !matches!(self.cx.stage, Stage::Survey) {
            return;
        }
        let params: Vec<ast::TypeRef> = match self.cx.table.methods[callee.index()].source {
            MethodSource::Method(md) => md.params.iter().map(|p| p.ty.clone()).collect(),
            MethodSource::Ctor(cd) => cd.params.iter().map(|p| p.ty.clone()).collect(),
            _ => return,
        };
        for (a, p) in args.iter().zip(params) {
            let ExprKind::New { class, .. } = &a.kind else {
                continue;
            };
            let ast::TypeKind::Named { name, .. } = &class.kind else {
                continue;
            };
            let Some(k) = self.cx.closures.iter().find(|k| {
                k.name == *name && k.target.is_none() && k.kind != ClosureKind::Anonymous
            }) else {
                continue;
            };
            let index = k.index;
            self.cx.survey.closure_targets.entry(index).or_insert(p);
        }
    }
}
