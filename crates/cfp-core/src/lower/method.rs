//! Lowering one method, and the synthetic root method `<root>` that initialises the
//! statics and wildcards and calls the entry method.

use super::*;

pub(super) fn lower_method<'a>(cx: &mut ProgramLowerer<'a>, sig: &MethodSig<'a>) -> MethodCfa {
    let mut fb = new_method_lowerer(cx, sig.id, sig.class, sig.is_static);
    fb.throws = match sig.source {
        MethodSource::Method(md) => md.throws.iter().map(|t| fb.cx.table.resolve(t)).collect(),
        MethodSource::Ctor(cd) => cd.throws.iter().map(|t| fb.cx.table.resolve(t)).collect(),
        _ => Vec::new(),
    };
    let written: Vec<&cfp_syntax::ast::TypeRef> = match sig.source {
        MethodSource::Method(md) => md.params.iter().map(|p| &p.ty).collect(),
        MethodSource::Ctor(cd) => cd.params.iter().map(|p| &p.ty).collect(),
        _ => Vec::new(),
    };
    for (i, (name, ty, _)) in sig.params.iter().enumerate() {
        let v = fb.new_var(name, ty.clone(), VarKind::Param);
        if let Some(t) = written.get(i) {
            fb.declared_as(v, t);
        }
    }
    let nparams = fb.vars.len();
    if sig.ret != Type::Void {
        let v = fb.new_var("%ret", sig.ret.clone(), VarKind::Return);
        fb.ret = Some(v);
        fb.ret_type = sig.ret.clone();
    }
    match sig.source {
        MethodSource::Method(md) => {
            if let Some(body) = &md.body {
                fb.block(body);
            }
        }
        MethodSource::Ctor(cd) => fb.ctor_body(Some(&cd.body)),
        MethodSource::DefaultCtor => fb.ctor_body(None),
        MethodSource::Clinit => fb.clinit(),
        MethodSource::Root => {}
    }
    if !sig.is_abstract {
        let exit = fb.exit;
        fb.goto(exit);
        // An exception leaves the method through its throw exit, `%exc` set (a class's
        // initialisation first wraps it and marks the class erroneous).
        fb.set(fb.exc_exit);
        if matches!(sig.source, MethodSource::Clinit) {
            fb.clinit_failed(sig.span);
        }
        let throw_exit = fb.throw_exit;
        fb.goto(throw_exit);
    }
    fb.finish(sig, nparams)
}

pub(super) fn lower_root(
    cx: &mut ProgramLowerer<'_>,
    sig: &MethodSig<'_>,
    entry: Option<MethodId>,
) -> MethodCfa {
    let mut fb = new_method_lowerer(cx, sig.id, None, true);
    let span = Span::default();
    // A closed world (a static entry such as `main` without objects of the program among
    // its parameters): no object of the program exists before the run. Objects below
    // `%base`, an allocation made first, existed before the run.
    let closed = entry.is_some_and(|e| {
        let esig = &fb.cx.table.methods[e.index()];
        esig.is_static
            && esig
                .params
                .iter()
                .all(|(_, t, _)| !matches!(t, Type::Class(_)))
    });
    fb.cx.survey.handed.open_world = !closed;
    let base = fb.cx.escapes.is_some().then(|| {
        let b = fb.new_var("%base", Type::External("Object".to_owned()), VarKind::Local);
        fb.emit(
            Stmt::Alloc {
                var: b,
                kind: AllocKind::External("Object".to_owned()),
            },
            span,
        );
        b
    });
    for g in 0..fb.cx.globals.len() {
        let gd = &fb.cx.globals[g];
        let init = match gd.kind {
            GlobalKind::Static { .. } | GlobalKind::Exception => Some(gd.sort.default_value()),
            GlobalKind::InitState { .. } | GlobalKind::EscapeCount | GlobalKind::InheritedEpoch => {
                Some(Expr::Int(0))
            }
            GlobalKind::Wildcard(_) => None,
        };
        if let Some(value) = init {
            let (id, gspan) = (gd.id, gd.span);
            fb.emit(
                Stmt::Assign {
                    place: Place::Global(id),
                    expr: value,
                },
                gspan,
            );
        }
    }
    // The classes whose initialisation cannot be told from the JVM's lazy one run theirs
    // now, in dependency order; the others are initialised on first use.
    let mut eager: Vec<(usize, MethodId)> = fb
        .cx
        .table
        .classes
        .iter()
        .enumerate()
        .filter(|(_, c)| c.own_static_init)
        .filter_map(|(i, c)| Some((fb.cx.eager[i]?, c.clinit?)))
        .collect();
    eager.sort_unstable();
    for (_, m) in eager {
        fb.call_edge(m, Vec::new(), None, span);
    }
    for g in fb.cx.wildcard_globals.clone() {
        fb.emit(
            Stmt::Assume(Expr::binary(BinaryOp::Ne, Expr::Global(g), Expr::Null)),
            span,
        );
    }
    if let Some(e) = entry {
        let esig = fb.cx.table.methods[e.index()].clone();
        // The JVM initialises the entry's class before running it.
        if let Some(c) = esig.class {
            fb.init_class(c, span);
        }
        let mut args = Vec::new();
        if !esig.is_static {
            let ty = esig.class.map_or(Type::Unknown, Type::Class);
            let v = fb.new_var("%recv", ty, VarKind::Local);
            fb.emit(Stmt::Havoc(Place::Var(v)), esig.span);
            fb.emit(
                Stmt::Assume(Expr::binary(BinaryOp::Ne, Expr::Var(v), Expr::Null)),
                esig.span,
            );
            args.push(Expr::Var(v));
        }
        for (name, ty, pspan) in &esig.params {
            let v = fb.new_var(name, ty.clone(), VarKind::Local);
            fb.emit(Stmt::Havoc(Place::Var(v)), *pspan);
            args.push(Expr::Var(v));
        }
        let call_span = match esig.source {
            MethodSource::Method(md) => md.name.span,
            _ => Span::default(),
        };
        fb.call_edge(e, args, None, call_span);
        if let Some(base) = base {
            fb.later_callbacks(base, closed, call_span);
        }
    }
    let exit = fb.exit;
    fb.goto(exit);
    // An exception that reaches the root is uncaught: the execution does not complete
    // (the root's exception exit leads nowhere).
    fb.finish(sig, 0)
}
