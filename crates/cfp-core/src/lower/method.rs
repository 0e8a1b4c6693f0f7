//! Lowering one method, and the synthetic root method `<root>` that initialises the
//! statics and wildcards and calls the entry method.

use super::*;

pub(super) fn lower_method<'a>(cx: &mut ProgramLowerer<'a>, sig: &MethodSig<'a>) -> MethodCfa {
    let mut fb = new_method_lowerer(cx, sig.class, sig.is_static);
    for (name, ty, _) in &sig.params {
        fb.new_var(name, ty.clone(), VarKind::Param);
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
    }
    fb.finish(sig, nparams)
}

pub(super) fn lower_root(
    cx: &mut ProgramLowerer<'_>,
    sig: &MethodSig<'_>,
    entry: Option<MethodId>,
) -> MethodCfa {
    let mut fb = new_method_lowerer(cx, None, true);
    let span = Span::default();
    for g in 0..fb.cx.globals.len() {
        let gd = &fb.cx.globals[g];
        if matches!(gd.kind, GlobalKind::Static { .. }) {
            let (id, sort, gspan) = (gd.id, gd.sort, gd.span);
            fb.emit(
                Stmt::Assign {
                    place: Place::Global(id),
                    expr: sort.default_value(),
                },
                gspan,
            );
        }
    }
    let clinits: Vec<MethodId> = fb
        .cx
        .table
        .classes
        .iter()
        .filter_map(|c| c.clinit)
        .collect();
    for m in clinits {
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
    }
    let exit = fb.exit;
    fb.goto(exit);
    fb.finish(sig, 0)
}
