//! Calls: argument evaluation in Java's order, in-file calls with dynamic
//! dispatch, external calls, and API calls (with model bodies).

use super::*;

/// Methods of the boxed types (`Integer`, `Boolean`, …), whose values are primitive here.
const BOXED_METHODS: &[&str] = &[
    "intValue",
    "longValue",
    "shortValue",
    "byteValue",
    "charValue",
    "booleanValue",
    "doubleValue",
    "floatValue",
    "compareTo",
    "equals",
    "hashCode",
    "toString",
];

/// What the caller does with a call's value: the local it goes to, whether it is read,
/// and the sort the context expects.
#[derive(Clone, Copy, Debug)]
pub(super) struct ResultUse {
    pub(super) dest: Option<VarId>,
    pub(super) want_result: bool,
    pub(super) want: Option<Sort>,
}

impl ResultUse {
    pub(super) fn of(dest: Option<VarId>, want_result: bool, want: Option<Sort>) -> Self {
        ResultUse {
            dest,
            want_result,
            want,
        }
    }
}

impl<'c, 'a> MethodLowerer<'c, 'a> {
    /// Evaluate arguments left to right; an argument followed by one with side effects is
    /// saved first.
    pub(super) fn eval_args(&mut self, args: &'a [ast::Expr]) -> (Vec<Expr>, Vec<Type>) {
        let mut vals = Vec::new();
        let mut tys = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let (v, t) = self.expr(a, None);
            let later_effects = args[i + 1..].iter().any(has_effects);
            let v = if later_effects {
                self.snapshot(v, &t, a.span)
            } else {
                v
            };
            vals.push(v);
            tys.push(t);
        }
        (vals, tys)
    }

    pub(super) fn coerce_args(
        &mut self,
        callee: MethodId,
        vals: Vec<Expr>,
        span: Span,
    ) -> Vec<Expr> {
        let params: Vec<Type> = self.cx.table.methods[callee.index()]
            .params
            .iter()
            .map(|p| p.1.clone())
            .collect();
        vals.into_iter()
            .enumerate()
            .map(|(i, v)| match params.get(i) {
                Some(p) => self.coerce(v, p.sort(), p, span),
                None => v,
            })
            .collect()
    }

    /// Where a call's result goes: the destination local, or a fresh temporary.
    pub(super) fn result_var(
        &mut self,
        dest: Option<VarId>,
        want_result: bool,
        ty: &Type,
        want: Option<Sort>,
    ) -> Option<VarId> {
        if let Some(d) = dest {
            if (self.vars[d.index()].sort == Sort::Bool) == (ty.sort() == Sort::Bool)
                || *ty == Type::Unknown
            {
                return Some(d);
            }
        }
        if !want_result && dest.is_none() {
            return None;
        }
        if *ty == Type::Void {
            return None;
        }
        let t = self.temp(ty.clone());
        if *ty == Type::Unknown {
            if let Some(s) = want {
                self.vars[t.index()].sort = s;
            }
        }
        Some(t)
    }

    /// Finish a call whose value is in `res` (if any), moving it to `dest` if needed.
    pub(super) fn call_value(
        &mut self,
        res: Option<VarId>,
        dest: Option<VarId>,
        ty: Type,
        span: Span,
    ) -> (Expr, Type) {
        match (res, dest) {
            (Some(r), Some(d)) if r != d => {
                let dt = self.var_types[d.index()].clone();
                let v = self.coerce(Expr::Var(r), dt.sort(), &dt, span);
                self.emit(
                    Stmt::Assign {
                        place: Place::Var(d),
                        expr: v,
                    },
                    span,
                );
                (Expr::Var(d), dt)
            }
            (Some(r), _) => (Expr::Var(r), ty),
            (None, Some(d)) => {
                self.emit(Stmt::Havoc(Place::Var(d)), span);
                (Expr::Var(d), self.var_types[d.index()].clone())
            }
            (None, None) => (Expr::Int(0), Type::Void),
        }
    }

    /// The arbitrary result of a call whose code is outside the program (without the
    /// exceptions a library call may throw).
    pub(super) fn unknown_result(&mut self, out: ResultUse, span: Span) -> (Expr, Type) {
        self.arbitrary_result(out, span, false)
    }

    /// The arbitrary result of a call outside the program; with `may_throw`, the
    /// exceptions a library call may throw are raised after the result is havocked and
    /// before it is read.
    pub(super) fn arbitrary_result(
        &mut self,
        out: ResultUse,
        span: Span,
        may_throw: bool,
    ) -> (Expr, Type) {
        let ResultUse {
            dest,
            want_result,
            want,
        } = out;
        let ty = match want {
            Some(Sort::Bool) => Type::Bool,
            _ => Type::Unknown,
        };
        let res = self.result_var(dest, want_result, &ty, want);
        if let Some(r) = res {
            self.emit(Stmt::Havoc(Place::Var(r)), span);
        }
        if may_throw {
            self.library_may_throw(span);
        }
        self.call_value(res, dest, ty, span)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn call(
        &mut self,
        span: Span,
        target: Option<&'a ast::Expr>,
        name: &'a Ident,
        args: &'a [ast::Expr],
        want_result: bool,
        want: Option<Sort>,
        dest: Option<VarId>,
    ) -> (Expr, Type) {
        if super::facts::loads_a_class(target, &name.name) {
            self.note_class_by_name(args);
        }
        if target.is_none() && (name.name == "this" || name.name == "super") {
            self.eval_args(args);
            self.error(
                "misplaced-constructor-call",
                span,
                format!(
                    "`{}(…)` must be the first statement of a constructor",
                    name.name
                ),
            );
            return self.unknown_value(want, span);
        }
        // Receiver first, then arguments (Java's order).
        let tgt = match target {
            None => None,
            Some(t) => {
                let tg = self.target(t);
                match tg {
                    Some(Target::Value(v, ty)) if args.iter().any(has_effects) => {
                        let v = self.snapshot(v, &ty, t.span);
                        Some(Some(Target::Value(v, ty)))
                    }
                    other => Some(other),
                }
            }
        };
        let (vals, tys) = self.eval_args(args);
        self.call_args = Some(args);
        self.note_arg_jtypes(args, &tys);
        let mut site = super::handoff::CallSite::of(target, &name.name);
        site.class = match &tgt {
            Some(Some(Target::Value(_, Type::External(n)))) => Some(n.clone()),
            Some(Some(Target::Value(_, Type::Class(c)))) | Some(Some(Target::Class(c))) => {
                Some(self.cx.table.class_name(*c).to_owned())
            }
            Some(Some(Target::External)) => site
                .name
                .rsplit_once('.')
                .and_then(|(p, _)| p.rsplit('.').next().map(str::to_owned)),
            _ => None,
        };
        self.call_site = Some(site);
        let cur_class = self.class;
        match tgt {
            // Unresolvable target: already diagnosed.
            Some(None) => self.unknown_value(want, span),
            None => {
                // Unqualified: own class chain, then enclosing classes (static methods).
                let mut cls = cur_class;
                let mut first = true;
                while let Some(c) = cls {
                    if let Some((m, phase)) = self.choose_method(c, &name.name, &tys) {
                        let vals = self.pack_varargs(m, phase, vals, span);
                        let sig = &self.cx.table.methods[m.index()];
                        if sig.is_static {
                            return self.static_call(m, vals, &tys, dest, want_result, span);
                        }
                        if self.is_static || self.this.is_none() {
                            self.error(
                                "instance-method-in-static-context",
                                name.span,
                                format!(
                                    "instance method `{}` called from a static context",
                                    name.name
                                ),
                            );
                            return self.unknown_value(want, span);
                        }
                        // `this`, or the enclosing instance of an outer class's method.
                        let this = if first {
                            self.this.map_or(Expr::Null, Expr::Var)
                        } else {
                            self.outer_instance(c, span)
                        };
                        return self.instance_call(
                            this,
                            Type::Class(c),
                            name,
                            vals,
                            tys,
                            want_result,
                            want,
                            dest,
                            span,
                        );
                    }
                    first = false;
                    cls = self.cx.table.classes[c.index()].outer;
                }
                match (cur_class, self.this) {
                    (Some(c), Some(this))
                        if self.cx.table.has_external_ancestor(c)
                            || OBJECT_METHODS.contains(&name.name.as_str()) =>
                    {
                        self.instance_call(
                            Expr::Var(this),
                            Type::Class(c),
                            name,
                            vals,
                            tys,
                            want_result,
                            want,
                            dest,
                            span,
                        )
                    }
                    (Some(c), None) if self.cx.table.has_external_ancestor(c) => {
                        self.library_call(&vals, &tys, ResultUse::of(dest, want_result, want), span)
                    }
                    _ if self.outside_source().is_some() => {
                        self.library_call(&vals, &tys, ResultUse::of(dest, want_result, want), span)
                    }
                    _ => {
                        self.error(
                            "undefined-method",
                            name.span,
                            format!(
                                "cannot find method `{}` with {} argument(s)",
                                name.name,
                                tys.len()
                            ),
                        );
                        self.unknown_value(want, span)
                    }
                }
            }
            Some(Some(Target::Class(c))) => match self.choose_method(c, &name.name, &tys) {
                Some((m, phase)) if self.cx.table.methods[m.index()].is_static => {
                    let vals = self.pack_varargs(m, phase, vals, span);
                    self.static_call(m, vals, &tys, dest, want_result, span)
                }
                Some(_) => {
                    self.error(
                        "instance-method-in-static-context",
                        name.span,
                        format!("instance method `{}` called on a class", name.name),
                    );
                    self.unknown_value(want, span)
                }
                None if self.cx.table.has_external_ancestor(c) => {
                    self.library_call(&vals, &tys, ResultUse::of(dest, want_result, want), span)
                }
                None => {
                    self.error(
                        "undefined-method",
                        name.span,
                        format!(
                            "class `{}` has no static method `{}` with {} argument(s)",
                            self.cx.table.class_name(c),
                            name.name,
                            tys.len()
                        ),
                    );
                    self.unknown_value(want, span)
                }
            },
            Some(Some(Target::External)) => {
                self.library_call(&vals, &tys, ResultUse::of(dest, want_result, want), span)
            }
            Some(Some(Target::Super {
                receiver: this,
                lookup,
                rty,
            })) => {
                let m = lookup.and_then(|s| self.choose_method(s, &name.name, &tys));
                let vals = match m {
                    Some((m, phase)) => self.pack_varargs(m, phase, vals, span),
                    None => vals,
                };
                match m.map(|(m, _)| m) {
                    Some(m) if !self.cx.table.methods[m.index()].is_abstract => {
                        if self.cx.table.methods[m.index()].is_static {
                            return self.static_call(m, vals, &tys, dest, want_result, span);
                        }
                        let mut all = vec![this];
                        all.extend(self.coerce_args(m, vals, span));
                        let ret = self.result_type(m, &tys);
                        let res = self.result_var(dest, want_result, &ret, want);
                        self.call_edge(m, all, res.map(Place::Var), span);
                        self.call_value(res, dest, ret, span)
                    }
                    Some(_) => {
                        self.error(
                            "abstract-super-call",
                            name.span,
                            format!("`super.{}` is abstract", name.name),
                        );
                        self.unknown_value(want, span)
                    }
                    None => self.library_call_on(
                        &this,
                        &rty,
                        &vals,
                        &tys,
                        ResultUse::of(dest, want_result, want),
                        span,
                    ),
                }
            }
            Some(Some(Target::Value(recv, rty))) => {
                // What a generic container of the library returns has its type argument.
                let typed = match (&rty, target, want) {
                    (Type::External(_), Some(t), None | Some(Sort::Ref)) if want_result => {
                        self.container_result(t, &name.name, tys.len())
                    }
                    _ => None,
                };
                let want = if typed.is_some() {
                    Some(Sort::Ref)
                } else {
                    want
                };
                let (e, ty) =
                    self.instance_call(recv, rty, name, vals, tys, want_result, want, dest, span);
                match typed {
                    Some(t) if ty == Type::Unknown => (e, t),
                    _ => (e, ty),
                }
            }
        }
    }

    pub(super) fn static_call(
        &mut self,
        m: MethodId,
        vals: Vec<Expr>,
        tys: &[Type],
        dest: Option<VarId>,
        want_result: bool,
        span: Span,
    ) -> (Expr, Type) {
        // Invoking a static method initialises its class (JLS 12.4.1).
        if let Some(c) = self.cx.table.methods[m.index()].class {
            self.init_class(c, span);
        }
        if let Some(a) = self.call_args.take() {
            self.note_closure_targets(m, a);
        }
        // A method without body (`native`) is library code.
        if self.cx.table.methods[m.index()].is_abstract {
            let sig = &self.cx.table.methods[m.index()];
            let want = Some(sig.ret.sort());
            let tys: Vec<Type> = sig.params.iter().map(|(_, t, _)| t.clone()).collect();
            if let Some(site) = self.call_site.as_mut() {
                site.class = None;
            }
            return self.library_call(&vals, &tys, ResultUse::of(dest, want_result, want), span);
        }
        let args = self.coerce_args(m, vals, span);
        let ret = self.result_type(m, tys);
        let res = self.result_var(dest, want_result, &ret, None);
        self.call_edge(m, args, res.map(Place::Var), span);
        self.call_value(res, dest, ret, span)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn instance_call(
        &mut self,
        recv: Expr,
        rty: Type,
        name: &Ident,
        vals: Vec<Expr>,
        tys: Vec<Type>,
        want_result: bool,
        want: Option<Sort>,
        dest: Option<VarId>,
        span: Span,
    ) -> (Expr, Type) {
        let out = ResultUse::of(dest, want_result, want);
        let arity = vals.len();
        // API detection.
        let (terminals, untyped) = match &rty {
            Type::Class(c) => {
                let names = self.cx.table.supertype_names(*c);
                (self.cx.api.matching(&names, &name.name, arity), false)
            }
            Type::External(n) => (
                self.cx
                    .api
                    .matching(std::slice::from_ref(n), &name.name, arity),
                false,
            ),
            Type::Unknown | Type::Null => (self.cx.api.matching_untyped(&name.name, arity), true),
            Type::Array(_) => (Vec::new(), false),
            Type::Int | Type::Bool | Type::Float if BOXED_METHODS.contains(&name.name.as_str()) => {
                // A boxed value (`Integer n; n.intValue()`): its value, or an arbitrary one.
                return match (name.name.as_str(), &rty, arity) {
                    (
                        "intValue" | "longValue" | "shortValue" | "byteValue" | "charValue",
                        Type::Int,
                        0,
                    )
                    | ("booleanValue", Type::Bool, 0)
                    | ("doubleValue" | "floatValue", Type::Float, 0) => (recv, rty),
                    _ => self.unknown_value(want, span),
                };
            }
            Type::Int | Type::Bool | Type::Float | Type::Void => {
                self.error(
                    "not-an-object",
                    span,
                    format!("cannot call `{}` on a primitive value", name.name),
                );
                return self.unknown_value(want, span);
            }
        };
        // A call through a supertype of a wildcard's class (`Lock` for `ReentrantLock`).
        let terminals = match &rty {
            Type::Class(_) | Type::External(_) if terminals.is_empty() => {
                let ty = match &rty {
                    Type::Class(c) => self.cx.table.class_name(*c).to_owned(),
                    Type::External(n) => n.clone(),
                    _ => String::new(),
                };
                let table = &self.cx.table;
                let supers = |w: &str| {
                    // Every class the spec's name may denote (`Lock` of two packages).
                    let mut names: Vec<String> = Vec::new();
                    for (i, k) in table.classes.iter().enumerate() {
                        if cfp_syntax::resolve::names_class(w, &k.decl.name.name) {
                            for n in table.supertype_names(crate::ir::ClassId(i as u32)) {
                                if !names.contains(&n) {
                                    names.push(n);
                                }
                            }
                        }
                    }
                    names
                };
                self.cx
                    .api
                    .matching_through_super(&ty, &name.name, arity, &supers)
            }
            _ => terminals,
        };
        // A call of an API method with an arity the spec does not list is no event: say so
        // at the call (`gen.writeStartObject(value, 0)` against `$1.writeStartObject()`).
        let receiver_types = match &rty {
            Type::Class(c) => self.cx.table.supertype_names(*c),
            Type::External(n) => vec![n.clone()],
            _ => Vec::new(),
        };
        if terminals.is_empty() {
            let others = self.cx.api.same_name(&receiver_types, &name.name);
            if let Some(first) = others.first() {
                let mut arities: Vec<usize> = others.iter().map(|t| t.args.len()).collect();
                arities.sort_unstable();
                arities.dedup();
                let listed: Vec<String> = arities.iter().map(usize::to_string).collect();
                self.cx.diags.push(Diagnostic::warning(
                    "api-arity",
                    span,
                    format!(
                        "`{}` is called with {arity} argument(s) here; the spec has {} ({first}): \
                         this call is not an event of the protocol",
                        name.name,
                        listed.join(" or "),
                    ),
                ));
            }
        }
        if untyped && !terminals.is_empty() {
            self.cx.diags.push(Diagnostic::warning(
                "untyped-api-call",
                span,
                format!(
                    "the receiver's type is unknown; `{}` with {arity} argument(s) is treated as an API call",
                    name.name
                ),
            ));
        }
        if let Type::External(n) = &rty {
            let untyped = self.cx.api.matching_untyped(&name.name, arity);
            if terminals.is_empty() && !untyped.is_empty() && !self.unrelated_to_api(n, &untyped) {
                let msg = format!(
                    "`{}` on `{n}` has the name and arity of an API method, but `{n}` is not a \
                     wildcard type: it is not treated as an API call",
                    name.name
                );
                self.cx
                    .diags
                    .push(Diagnostic::warning("possible-api-call", span, msg.clone()));
                self.cx
                    .approx
                    .push(Diagnostic::warning("possible-api-call", span, msg));
            }
        }
        self.assume_nonnull(&recv, span);
        let is_event = !terminals.is_empty();
        if !is_event && crate::classes::is_final_object_method(&name.name, arity) {
            // `Object`'s own native code: no dispatch, no call-back, no hand-off.
            return self.external_call(out, span);
        }
        if !terminals.is_empty() {
            self.note_handed(&tys);
            let n = self.fresh();
            self.b.edge(
                self.cur,
                n,
                Edge::ApiCall {
                    receiver: recv.clone(),
                    method: name.name.clone(),
                    args: vals.clone(),
                    terminals,
                    span,
                },
            );
            self.calls_emitted += 1;
            self.cur = n;
        }
        // In-file implementations. (A protocol event does not throw: the call happened.)
        let Type::Class(c) = rty else {
            if is_event {
                return self.unknown_result(out, span);
            }
            // A class of the program below an outside type, or a closure, may run it; a
            // value of a type variable's type, or of a type this cannot see (what library
            // code returns: `list.get(0).finish()`), may be of any class.
            let outside = match &rty {
                Type::External(n) if self.cx.type_vars.contains(n) => Some(super::generics::OBJECT),
                Type::External(n) => Some(n.as_str()),
                Type::Unknown => Some(super::generics::OBJECT),
                _ => None,
            };
            if let Some(n) = outside {
                if let Some(r) = self.outside_type_dispatch(
                    &recv,
                    n,
                    &name.name,
                    &vals,
                    &tys,
                    want_result,
                    want,
                    dest,
                    span,
                    rty == Type::Unknown,
                ) {
                    return r;
                }
            }
            return self.library_call_on(&recv, &rty, &vals, &tys, out, span);
        };
        let Some((decl, phase)) = self.choose_method(c, &name.name, &tys) else {
            let known = self.cx.table.has_external_ancestor(c)
                || OBJECT_METHODS.contains(&name.name.as_str())
                || self.cur_is_api_call();
            if !known {
                self.error(
                    "undefined-method",
                    name.span,
                    format!(
                        "class `{}` has no method `{}` with {arity} argument(s)",
                        self.cx.table.class_name(c),
                        name.name
                    ),
                );
            }
            return self.library_call_on(&recv, &rty, &vals, &tys, out, span);
        };
        let vals = self.pack_varargs(decl, phase, vals, span);
        let dsig = self.cx.table.methods[decl.index()].clone();
        if dsig.is_static {
            return self.static_call(decl, vals, &tys, dest, want_result, span);
        }
        if let Some(a) = self.call_args.take() {
            self.note_closure_targets(decl, a);
        }
        let impls = self.cx.table.implementation_classes(c, decl);
        let api_below = !is_event
            && impls.iter().flat_map(|(_, cs)| cs).any(|k| {
                let names = self.cx.table.supertype_names(*k);
                !self.cx.api.matching(&names, &name.name, arity).is_empty()
            });
        if !api_below && impls.iter().all(|(m, _)| m.is_none()) {
            return self.library_call_on(&recv, &rty, &vals, &tys, out, span);
        }
        let ret = self.result_type(decl, &tys);
        let res = self.result_var(dest, want_result, &ret, want);
        let mut all = vec![recv.clone()];
        all.extend(self.coerce_args(decl, vals, span));
        let join = self.fresh();
        let start = self.cur;
        // Several implementations: the receiver's runtime class chooses.
        let dispatch = impls.len() > 1;
        if dispatch {
            self.cx.survey.needs_types = true;
        }
        let mut unwinds = Vec::new();
        for (alt, classes) in impls {
            self.set(start);
            if dispatch {
                if let Some(f) = self.cx.type_field {
                    let codes: Vec<i64> =
                        classes.iter().filter_map(|k| self.class_code(*k)).collect();
                    let ty = Expr::Field {
                        obj: Box::new(recv.clone()),
                        field: f,
                    };
                    self.emit(Stmt::Assume(types::in_codes(ty, &codes)), span);
                }
            }
            let from = self.cur;
            match alt {
                Some(m) => {
                    self.b.edge(
                        from,
                        join,
                        Edge::Call {
                            callee: m,
                            args: all.clone(),
                            result: res.map(Place::Var),
                            span,
                            unwind: false,
                        },
                    );
                    self.calls_emitted += 1;
                    self.note_call(m);
                    unwinds.push((from, m));
                }
                // A class whose method is outside the program: library code on the
                // receiver.
                None => {
                    // A class below a wildcard's class (`MyLock extends ReentrantLock`,
                    // called through a program interface it implements): the API's method.
                    if !is_event {
                        let api =
                            self.inherited_api_call(&recv, &name.name, &all[1..], &classes, span);
                        if let Some(api) = api {
                            let others = self.cur;
                            self.set(api);
                            if let Some(r) = res {
                                self.emit(Stmt::Havoc(Place::Var(r)), span);
                            }
                            self.goto(join);
                            self.set(others);
                        }
                    }
                    let (_, all_tys) = with_receiver(&recv, &rty, &[], &tys);
                    self.library_effects(&all, &all_tys, 1, span);
                    if let Some(r) = res {
                        self.emit(Stmt::Havoc(Place::Var(r)), span);
                    }
                    self.library_may_throw(span);
                    self.goto(join);
                }
            }
        }
        for (from, m) in unwinds {
            self.unwind_edges(from, &[(m, all.clone())], span);
        }
        self.set(join);
        self.call_value(res, dest, ret, span)
    }

    /// A class loaded by its name: a constant name counts as a class literal of that
    /// class (nothing when it is not the program's), any other name as every class.
    fn note_class_by_name(&mut self, args: &[ast::Expr]) {
        match args.first().map(|a| &a.kind) {
            Some(ast::ExprKind::String(binary)) => {
                let simple = binary.rsplit(['.', '$']).next().unwrap_or(binary);
                self.cx.survey.class_literals.insert(simple.to_owned());
            }
            _ => {
                self.cx.survey.reflective.insert(self.id);
            }
        }
    }

    /// True when the edge into the current node is an API call (the method is the API's).
    pub(super) fn cur_is_api_call(&self) -> bool {
        self.b
            .edges
            .iter()
            .flatten()
            .any(|(_, b, e)| *b == self.cur && matches!(e, Edge::ApiCall { .. }))
    }
}

/// The receiver `recv` (of static type `rty`) before the arguments `vals` (of types
/// `tys`): what library code called on the receiver receives.
pub(super) fn with_receiver(
    recv: &Expr,
    rty: &Type,
    vals: &[Expr],
    tys: &[Type],
) -> (Vec<Expr>, Vec<Type>) {
    let all = std::iter::once(recv.clone())
        .chain(vals.iter().cloned())
        .collect();
    let all_tys = std::iter::once(rty.clone())
        .chain(tys.iter().cloned())
        .collect();
    (all, all_tys)
}
