//! Calls of library code: what it receives and may call back, its arbitrary result and
//! exceptions; and the protocol's methods a class of the program inherits from a
//! wildcard's class.

use super::*;

impl<'c, 'a> MethodLowerer<'c, 'a> {
    /// A call of library code with the arguments `vals` (of static types `tys`): it may
    /// call back the closures it receives; its result is arbitrary.
    pub(super) fn library_call(
        &mut self,
        vals: &[Expr],
        tys: &[Type],
        out: ResultUse,
        span: Span,
    ) -> (Expr, Type) {
        self.library_code(vals, tys, 0, out, span)
    }

    /// Library code that receives `vals` (of static types `tys`); those before
    /// `kept_from` are the receiver: no hand-off, called back during the call only.
    fn library_code(
        &mut self,
        vals: &[Expr],
        tys: &[Type],
        kept_from: usize,
        out: ResultUse,
        span: Span,
    ) -> (Expr, Type) {
        self.library_effects(vals, tys, kept_from, span);
        self.external_call(out, span)
    }

    /// What library code that receives `vals` does before it returns: it may call the
    /// protocol's methods on what it receives (a hand-off), assign inherited fields, and
    /// call back what it receives; those before `kept_from` are the receiver.
    pub(super) fn library_effects(
        &mut self,
        vals: &[Expr],
        tys: &[Type],
        kept_from: usize,
        span: Span,
    ) {
        self.note_handed(tys);
        let from = kept_from.min(vals.len());
        self.protocol_handoff(&vals[from..], &tys[from.min(tys.len())..], span);
        self.forget_inherited(span);
        if self.library_callbacks_from(vals, tys, kept_from, span) {
            // What the call-backs read of inherited fields may change again.
            self.forget_inherited(span);
        }
    }

    /// A call of library code on `recv` (of static type `rty`), a method the receiver's
    /// class inherits from outside the program: the library receives the receiver too,
    /// and may call back the methods of it that override its own.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn library_call_on(
        &mut self,
        recv: &Expr,
        rty: &Type,
        vals: &[Expr],
        tys: &[Type],
        out: ResultUse,
        span: Span,
    ) -> (Expr, Type) {
        let (all, all_tys) = super::call::with_receiver(recv, rty, vals, tys);
        // (A method of a protocol object's own class is no hand-off of it.)
        self.library_code(&all, &all_tys, 1, out, span)
    }

    /// An external call: arguments already evaluated; the result is arbitrary.
    pub(super) fn external_call(&mut self, out: ResultUse, span: Span) -> (Expr, Type) {
        self.arbitrary_result(out, span, true)
    }

    /// Of `classes`, those below a class of the spec's wildcards that inherit the API
    /// method `name` from it: from the current node, a branch where the receiver is of
    /// one of them and the call is the protocol's (returned: the node after the event),
    /// while the current node goes on where it is of one of the others. `None` when none
    /// is.
    pub(super) fn inherited_api_call(
        &mut self,
        recv: &Expr,
        name: &str,
        args: &[Expr],
        classes: &[ClassId],
        span: Span,
    ) -> Option<usize> {
        let arity = args.len();
        let mut terminals = Vec::new();
        let mut hit = Vec::new();
        for k in classes {
            let names = self.cx.table.supertype_names(*k);
            let t = self.cx.api.matching(&names, name, arity);
            if !t.is_empty() {
                hit.push(*k);
                for x in t {
                    if !terminals.contains(&x) {
                        terminals.push(x);
                    }
                }
            }
        }
        if hit.is_empty() {
            return None;
        }
        self.cx.survey.needs_types = true;
        let start = self.cur;
        let ty = |f| Expr::Field {
            obj: Box::new(recv.clone()),
            field: f,
        };
        let codes: Vec<i64> = hit.iter().filter_map(|k| self.class_code(*k)).collect();
        let event = self.fresh();
        self.goto(event);
        self.set(event);
        if let Some(f) = self.cx.type_field {
            self.emit(Stmt::Assume(types::in_codes(ty(f), &codes)), span);
        }
        let after = self.fresh();
        self.b.edge(
            self.cur,
            after,
            Edge::ApiCall {
                receiver: recv.clone(),
                method: name.to_owned(),
                args: args.to_vec(),
                terminals,
                span,
            },
        );
        self.calls_emitted += 1;
        self.set(start);
        if let Some(f) = self.cx.type_field {
            self.emit(Stmt::Assume(types::in_codes(ty(f), &codes).negate()), span);
        }
        Some(after)
    }
}
