//! Exceptions as the JVM runs them.
//!
//! The exception being thrown is the global `%exc` (`null` while none is). A `throw`
//! sets it and jumps to the innermost handler of the method: the catch clauses of the
//! enclosing `try` (tested in order against the exception's runtime class), else its
//! `finally` block (run with `%exc` saved, then the exception goes on), else the
//! method's exit. A call of a method that may throw is followed by a test of `%exc`: a
//! non-null one continues at the caller's handler. An exception that reaches the root
//! is uncaught: the execution does not complete, so it produces no word.
//!
//! The JVM's own exceptions — a null dereference, a division by zero, a bad array
//! index — are thrown where they could be caught (inside a `try` of the method whose
//! catch clauses may catch them, or in a method called from one); elsewhere they could
//! only end the execution, and the operation is assumed to succeed instead, which keeps
//! the same completed executions. Library calls may throw according to
//! [`super::LibraryThrows`].

use super::types::{in_codes, uncoded, Tri};
use super::*;
use cfp_syntax::ast::{CatchClause, Resource};

/// What runs when control leaves a `try` block: its `finally` block, or the closing of a
/// resource of a try-with-resources statement.
#[derive(Clone, Debug)]
pub(super) enum Finally<'a> {
    /// A `finally` block, and how many local variables were in scope at its `try` (it
    /// sees none declared after, such as a catch clause's parameter).
    Block(&'a Block, usize),
    /// `if (r != null) r.close();` for the resource in `var`, of static type `ty`.
    Close {
        /// The variable holding the resource.
        var: VarId,
        /// Its static type.
        ty: Type,
        /// The resource's declaration.
        span: Span,
    },
}

/// The handler of an enclosing `try`.
#[derive(Clone, Debug)]
pub(super) struct Handler {
    /// Where an exception thrown inside continues: the catch clauses' tests, or the
    /// exceptional run of the `finally` block.
    pub node: usize,
    /// The number of enclosing `finally` blocks when the handler is active: lowering one
    /// of those hides the handler (an exception there goes further out).
    pub depth: usize,
    /// The types its catch clauses name.
    pub catches: Vec<Type>,
    /// Its catch clauses may catch one of the JVM's own exceptions.
    pub catches_implicit: bool,
}

/// A runtime type question split three ways: conditions on the object's `%type`.
pub(super) struct TypeTest {
    /// Certainly an instance.
    pub yes: Option<Expr>,
    /// Certainly not.
    pub no: Option<Expr>,
    /// Not known.
    pub unknown: Option<Expr>,
}

impl<'c, 'a> MethodLowerer<'c, 'a> {
    fn survey(&mut self) -> Option<&mut facts::MethodSurvey> {
        match self.cx.stage {
            Stage::Survey => self.cx.survey.methods.get_mut(self.id.index()),
            Stage::Final(_) => None,
        }
    }

    /// This method throws by itself somewhere.
    pub(super) fn note_raise(&mut self) {
        self.cx.survey.needs_exceptions = true;
        if let Some(s) = self.survey() {
            s.raises = true;
        }
    }

    /// A call of `callee` from here (for the survey's call graph).
    pub(super) fn note_call(&mut self, callee: MethodId) {
        let inside = self.handlers.iter().any(|h| h.catches_implicit);
        let caught: std::collections::BTreeSet<String> = self
            .handlers
            .iter()
            .flat_map(|h| &h.catches)
            .filter_map(|t| match t {
                Type::External(n) => Some(n.clone()),
                _ => None,
            })
            .collect();
        if let Some(s) = self.survey() {
            s.calls.push((callee, inside));
            if !caught.is_empty() {
                s.call_catches.push((callee, caught));
            }
        }
    }

    /// Continue at the innermost handler (`%exc` holds the exception).
    pub(super) fn raise(&mut self) {
        let h = self.handlers.last().map_or(self.exc_exit, |h| h.node);
        self.goto(h);
    }

    /// `%exc := v`, then continue at the innermost handler.
    pub(super) fn throw_value(&mut self, v: Expr, span: Span) {
        self.note_raise();
        let Some(exc) = self.cx.exc else {
            // Nothing is thrown in this program (only the survey gets here): the path ends.
            self.cur = self.fresh();
            return;
        };
        self.emit(
            Stmt::Assign {
                place: Place::Global(exc),
                expr: v,
            },
            span,
        );
        self.raise();
    }

    /// Throw a new exception of the JVM's class `name`.
    pub(super) fn throw_new(&mut self, name: &str, span: Span) {
        let e = self.new_exception(name, span);
        self.throw_value(e, span);
    }

    /// A new object of the class `name` outside the program (an exception the JVM or a
    /// library throws), with its runtime type.
    pub(super) fn new_exception(&mut self, name: &str, span: Span) -> Expr {
        self.cx.survey.outside.insert(name.to_owned());
        let ty = Type::External(name.to_owned());
        let t = self.temp(ty);
        self.fresh_objects.push(t);
        self.emit(
            Stmt::Alloc {
                var: t,
                kind: AllocKind::External(name.to_owned()),
            },
            span,
        );
        let code = self.external_code(name);
        self.tag_type(t, code, span);
        Expr::Var(t)
    }

    /// The code of the class `name` outside the program.
    pub(super) fn external_code(&self, name: &str) -> Option<i64> {
        self.cx
            .facts()
            .and_then(|f| f.types.as_ref())
            .and_then(|u| u.external_code(name))
    }

    /// The code of the program class `c`.
    pub(super) fn class_code(&self, c: ClassId) -> Option<i64> {
        self.cx
            .facts()
            .and_then(|f| f.types.as_ref())
            .and_then(|u| u.class_code(c))
    }

    /// `v.%type := code` for a new object, when runtime types are tracked.
    pub(super) fn tag_type(&mut self, v: VarId, code: Option<i64>, span: Span) {
        if let (Some(f), Some(code)) = (self.cx.type_field, code) {
            self.emit(
                Stmt::Assign {
                    place: Place::Field {
                        obj: Expr::Var(v),
                        field: f,
                    },
                    expr: Expr::Int(code),
                },
                span,
            );
        }
    }

    /// The unwinding edges of a call from `from`: for each callee that may throw, a call
    /// edge taken when it ends by throwing, which continues at the handler.
    pub(super) fn unwind_edges(
        &mut self,
        from: usize,
        calls: &[(MethodId, Vec<Expr>)],
        span: Span,
    ) {
        let Some(facts) = self.cx.facts() else {
            return;
        };
        let throwing: Vec<(MethodId, Vec<Expr>)> = calls
            .iter()
            .filter(|(c, _)| facts.may_throw.get(c.index()).copied().unwrap_or(false))
            .cloned()
            .collect();
        if throwing.is_empty() || self.cx.exc.is_none() {
            return;
        }
        let saved = self.cur;
        let thrown = self.fresh();
        for (callee, args) in throwing {
            self.b.edge(
                from,
                thrown,
                Edge::Call {
                    callee,
                    args,
                    result: None,
                    span,
                    unwind: true,
                },
            );
        }
        self.set(thrown);
        self.raise();
        self.cur = saved;
    }

    /// Whether one of the JVM's own exceptions thrown here could be caught.
    pub(super) fn may_catch_implicit(&self) -> bool {
        self.handlers.iter().any(|h| h.catches_implicit)
            || self
                .cx
                .facts()
                .is_some_and(|f| f.guarded.get(self.id.index()).copied().unwrap_or(false))
    }

    /// An operation that throws the JVM's exception `exc` when `fails` holds: where it
    /// could be caught, a branch that throws it; elsewhere, `assume !fails` (an execution
    /// where it fails ends uncaught and produces no word).
    pub(super) fn check_implicit(&mut self, fails: Expr, exc: &str, span: Span) {
        if let Some(s) = self.survey() {
            s.implicit = true;
        }
        if !self.may_catch_implicit() || self.cx.exc.is_none() {
            self.emit(Stmt::Assume(fails.negate()), span);
            return;
        }
        let ok = self.fresh();
        let here = self.cur;
        self.emit(Stmt::Assume(fails.clone()), span);
        self.throw_new(exc, span);
        self.set(here);
        self.emit(Stmt::Assume(fails.negate()), span);
        self.goto(ok);
        self.set(ok);
    }

    /// After a call into library code: it may throw what the program prepared for (see
    /// [`LibraryThrows`]).
    pub(super) fn library_may_throw(&mut self, span: Span) {
        let mode = self.cx.library_throws;
        if mode == LibraryThrows::None {
            return;
        }
        let mut types: Vec<String> = Vec::new();
        for h in self.handlers.iter().rev() {
            for t in &h.catches {
                if let Type::External(n) = t {
                    if !types.contains(n) {
                        types.push(n.clone());
                    }
                }
            }
        }
        for t in &self.throws {
            if let Type::External(n) = t {
                if !types.contains(n) {
                    types.push(n.clone());
                }
            }
        }
        if let Some(s) = self.survey() {
            s.library_calls = true;
        }
        // What a caller catches (the exception propagates to it).
        let by_callers: Vec<String> = self
            .cx
            .facts()
            .and_then(|f| f.caught_by_callers.get(self.id.index()))
            .map(|c| c.iter().cloned().collect())
            .unwrap_or_default();
        for n in by_callers {
            if !types.contains(&n) {
                types.push(n);
            }
        }
        if mode == LibraryThrows::Any && !types.iter().any(|t| t == "RuntimeException") {
            types.push("RuntimeException".to_owned());
        }
        types.retain(|t| t != "Object");
        if types.is_empty() {
            return;
        }
        self.note_raise();
        if self.cx.exc.is_none() {
            return;
        }
        let cont = self.fresh();
        let here = self.cur;
        self.goto(cont);
        for t in types {
            self.set(here);
            self.throw_new(&t, span);
        }
        self.set(cont);
    }

    /// Whether an object `obj` (not null) is an instance of `ty`, from its `%type`
    /// (`thrown`: `obj` is an exception being thrown).
    pub(super) fn type_test(&mut self, obj: Expr, ty: &Type, thrown: bool) -> TypeTest {
        self.cx.survey.needs_types = true;
        if let Type::External(n) = ty {
            self.cx.survey.outside.insert(n.clone());
        }
        let (Some(f), Some(universe)) = (
            self.cx.type_field,
            self.cx.facts().and_then(|f| f.types.as_ref()),
        ) else {
            return TypeTest {
                yes: None,
                no: None,
                unknown: Some(Expr::Bool(true)),
            };
        };
        let p = universe.partition(&self.cx.table, ty, thrown);
        let n = universe.len();
        // An object the program did not allocate: no class of the program; a throwable
        // (it was thrown); of an unknown class otherwise.
        let outside = match ty {
            Type::Class(_) => Tri::No,
            Type::External(t) if t == "Throwable" || t == "Object" => Tri::Yes,
            _ => Tri::Unknown,
        };
        let t = Expr::Field {
            obj: Box::new(obj),
            field: f,
        };
        let part = |codes: &[i64], tri: Tri| -> Option<Expr> {
            let mut e = (!codes.is_empty()).then(|| in_codes(t.clone(), codes));
            if outside == tri {
                let u = uncoded(t.clone(), n);
                e = Some(match e {
                    Some(e) => Expr::binary(BinaryOp::Or, e, u),
                    None => u,
                });
            }
            e
        };
        TypeTest {
            yes: part(&p.yes, Tri::Yes),
            no: part(&p.no, Tri::No),
            unknown: part(&p.unknown, Tri::Unknown),
        }
    }

    /// Whether `obj` is an instance of any of `types`.
    pub(super) fn type_test_any(&mut self, obj: Expr, types: &[Type], thrown: bool) -> TypeTest {
        let tests: Vec<TypeTest> = types
            .iter()
            .map(|t| self.type_test(obj.clone(), t, thrown))
            .collect();
        let or = |a: Option<Expr>, b: Option<Expr>| match (a, b) {
            (Some(a), Some(b)) => Some(Expr::binary(BinaryOp::Or, a, b)),
            (a, b) => a.or(b),
        };
        let and = |a: Option<Expr>, b: Option<Expr>| match (a, b) {
            (Some(a), Some(b)) => Some(Expr::binary(BinaryOp::And, a, b)),
            _ => None,
        };
        let mut it = tests.into_iter();
        let Some(first) = it.next() else {
            return TypeTest {
                yes: None,
                no: Some(Expr::Bool(true)),
                unknown: None,
            };
        };
        it.fold(first, |acc, t| {
            let yes = or(acc.yes.clone(), t.yes.clone());
            let no = and(acc.no.clone(), t.no.clone());
            // Unknown: neither certainly yes for one nor certainly no for all.
            let unknown = match (&yes, &no) {
                (None, None) => Some(Expr::Bool(true)),
                _ => {
                    let not_yes = yes.clone().map(Expr::negate);
                    let not_no = no.clone().map(Expr::negate);
                    and(not_yes.clone(), not_no.clone()).or(not_yes).or(not_no)
                }
            };
            TypeTest { yes, no, unknown }
        })
    }

    /// Branch on a type test: to `yes` or `no`; an unknown answer goes both ways through
    /// an approximation (`message` says what is not known). Leaves `cur` unreachable.
    pub(super) fn branch_on_test(
        &mut self,
        test: TypeTest,
        yes: usize,
        no: usize,
        span: Span,
        message: impl Fn(&Self) -> String,
    ) {
        let here = self.cur;
        for (cond, target) in [(test.yes, yes), (test.no, no)] {
            if let Some(c) = cond {
                self.set(here);
                self.emit(Stmt::Assume(c), span);
                self.goto(target);
            }
        }
        if let Some(c) = test.unknown {
            let site =
                self.cx
                    .approx_site(Diagnostic::warning("unknown-type", span, message(self)));
            for target in [yes, no] {
                self.set(here);
                self.emit(Stmt::Assume(c.clone()), span);
                self.emit(Stmt::Approx(site), span);
                self.goto(target);
            }
        }
        self.cur = self.fresh();
    }

    /// Run what leaves a `try` on a normal way out (completion, `return`, `break`,
    /// `continue`).
    pub(super) fn run_finally(&mut self, f: &Finally<'a>) {
        match f {
            Finally::Block(b, mark) => {
                let inner = self.scope.split_off((*mark).min(self.scope.len()));
                self.block(b);
                self.scope.truncate(*mark);
                self.scope.extend(inner);
            }
            Finally::Close { var, ty, span } => self.close_resource(*var, ty.clone(), *span),
        }
    }

    /// `if (r != null) r.close();` (an exception from `close()` goes to the handlers).
    fn close_resource(&mut self, var: VarId, ty: Type, span: Span) {
        let (call, after) = (self.fresh(), self.fresh());
        let here = self.cur;
        self.emit(
            Stmt::Assume(Expr::binary(BinaryOp::Eq, Expr::Var(var), Expr::Null)),
            span,
        );
        self.goto(after);
        self.set(here);
        self.emit(
            Stmt::Assume(Expr::binary(BinaryOp::Ne, Expr::Var(var), Expr::Null)),
            span,
        );
        self.goto(call);
        self.set(call);
        let close = ast::Ident {
            name: "close".to_owned(),
            span,
        };
        self.instance_call(
            Expr::Var(var),
            ty,
            &close,
            Vec::new(),
            Vec::new(),
            false,
            None,
            None,
            span,
        );
        self.goto(after);
        self.set(after);
    }

    /// The resources of a try-with-resources statement, then its block (JLS §14.20.3):
    /// each resource is closed, in reverse order, on every way out; when the block
    /// throws, an exception of `close()` is suppressed and the block's goes on.
    fn resources(&mut self, rs: &'a [Resource], body: &'a Block) {
        let Some((r, rest)) = rs.split_first() else {
            self.block(body);
            return;
        };
        let mark = self.scope.len();
        let span = r.span();
        let (var, ty) = match r {
            Resource::Decl { ty, name, init, .. } => {
                self.check_not_redeclared(name);
                let declared = self.cx.table.resolve(ty);
                let want = (declared != Type::Unknown).then(|| declared.sort());
                let (e, ety) = self.expr(init, want);
                let ty = if declared == Type::Unknown {
                    ety
                } else {
                    declared
                };
                let v = self.new_var(&name.name, ty.clone(), VarKind::Local);
                if let Resource::Decl { ty: written, .. } = r {
                    self.declared_as(v, written);
                }
                let e = self.coerce(e, ty.sort(), &ty, init.span);
                self.emit(
                    Stmt::Assign {
                        place: Place::Var(v),
                        expr: e,
                    },
                    span,
                );
                (v, ty)
            }
            Resource::Expr(e) => {
                let (v, ty) = self.expr(e, Some(Sort::Ref));
                let t = self.temp(ty.clone());
                self.emit(
                    Stmt::Assign {
                        place: Place::Var(t),
                        expr: v,
                    },
                    span,
                );
                (t, ty)
            }
        };
        let close = Finally::Close {
            var,
            ty: ty.clone(),
            span,
        };
        let landing = self.cx.exc.map(|_| self.fresh());
        self.finallys.push(close.clone());
        if let Some(node) = landing {
            self.handlers.push(Handler {
                node,
                depth: self.finallys.len(),
                catches: Vec::new(),
                catches_implicit: false,
            });
        }
        self.resources(rest, body);
        if landing.is_some() {
            self.handlers.pop();
        }
        self.finallys.pop();
        self.run_finally(&close);
        let after = self.fresh();
        self.goto(after);
        if let (Some(node), Some(exc)) = (landing, self.cx.exc) {
            // The block threw: close, suppressing what `close()` throws, and rethrow.
            self.set(node);
            let saved = self.temp(Type::External("Throwable".to_owned()));
            self.emit(
                Stmt::Assign {
                    place: Place::Var(saved),
                    expr: Expr::Global(exc),
                },
                span,
            );
            self.emit(
                Stmt::Assign {
                    place: Place::Global(exc),
                    expr: Expr::Null,
                },
                span,
            );
            let (suppress, done) = (self.fresh(), self.fresh());
            self.handlers.push(Handler {
                node: suppress,
                depth: self.finallys.len(),
                catches: Vec::new(),
                catches_implicit: false,
            });
            self.close_resource(var, ty, span);
            self.handlers.pop();
            self.goto(done);
            self.set(suppress);
            self.emit(
                Stmt::Assign {
                    place: Place::Global(exc),
                    expr: Expr::Null,
                },
                span,
            );
            self.goto(done);
            self.set(done);
            self.emit(
                Stmt::Assign {
                    place: Place::Global(exc),
                    expr: Expr::Var(saved),
                },
                span,
            );
            self.raise();
        }
        self.set(after);
        self.scope.truncate(mark);
    }

    /// `try (resources) { body } catch (…) { … } finally { … }`.
    pub(super) fn try_stmt(
        &mut self,
        resources: &'a [Resource],
        body: &'a Block,
        catches: &'a [CatchClause],
        finally: Option<&'a Block>,
    ) {
        let catch_types: Vec<Vec<Type>> = catches
            .iter()
            .map(|c| c.types.iter().map(|t| self.cx.table.resolve(t)).collect())
            .collect();
        if !catches.is_empty() {
            self.cx.survey.needs_exceptions = true;
            self.cx.survey.needs_types = true;
            for t in catch_types.iter().flatten() {
                if let Type::External(n) = t {
                    self.cx.survey.outside.insert(n.clone());
                }
            }
        }
        let modelled = self.cx.exc.is_some();
        let dispatch = (!catches.is_empty()).then(|| self.fresh());
        let fin_exc = finally.filter(|_| modelled).map(|_| self.fresh());
        let after = self.fresh();
        if let Some(f) = finally {
            self.finallys.push(Finally::Block(f, self.scope.len()));
        }
        let handler = dispatch.or(fin_exc);
        if let Some(node) = handler {
            let flat: Vec<Type> = catch_types.iter().flatten().cloned().collect();
            let catches_implicit = flat.iter().any(|t| self.catches_implicit(t));
            self.handlers.push(Handler {
                node,
                depth: self.finallys.len(),
                catches: flat,
                catches_implicit,
            });
        }
        self.resources(resources, body);
        if handler.is_some() {
            self.handlers.pop();
        }
        if finally.is_some() {
            self.finallys.pop();
        }
        if let Some(f) = finally {
            self.block(f);
        }
        self.goto(after);
        if let Some(d) = dispatch {
            self.set(d);
            for (c, types) in catches.iter().zip(&catch_types) {
                let (hit, next) = (self.fresh(), self.fresh());
                if let Some(exc) = self.cx.exc {
                    let test = self.type_test_any(Expr::Global(exc), types, true);
                    let names: Vec<String> = c.types.iter().map(type_name).collect();
                    self.branch_on_test(test, hit, next, c.span, |_| {
                        format!(
                            "whether the exception thrown is a `{}` is not known here (its \
                             class is outside the program and its hierarchy): this catch \
                             clause may or may not catch it",
                            names.join(" | ")
                        )
                    });
                }
                self.set(hit);
                let mark = self.scope.len();
                let ty = types.first().cloned().unwrap_or(Type::Unknown);
                self.check_not_redeclared(&c.name);
                let v = self.new_var(&c.name.name, ty, VarKind::Local);
                if let (Some(t), 1) = (c.types.first(), c.types.len()) {
                    self.declared_as(v, t);
                }
                if let Some(exc) = self.cx.exc {
                    self.emit(
                        Stmt::Assign {
                            place: Place::Var(v),
                            expr: Expr::Global(exc),
                        },
                        c.name.span,
                    );
                    self.emit(
                        Stmt::Assign {
                            place: Place::Global(exc),
                            expr: Expr::Null,
                        },
                        c.name.span,
                    );
                }
                if let Some(f) = finally {
                    self.finallys.push(Finally::Block(f, mark));
                }
                if let Some(node) = fin_exc {
                    self.handlers.push(Handler {
                        node,
                        depth: self.finallys.len(),
                        catches: Vec::new(),
                        catches_implicit: false,
                    });
                }
                self.block(&c.body);
                if fin_exc.is_some() {
                    self.handlers.pop();
                }
                if finally.is_some() {
                    self.finallys.pop();
                }
                self.scope.truncate(mark);
                if let Some(f) = finally {
                    self.block(f);
                }
                self.goto(after);
                self.set(next);
            }
            // No clause catches it: the finally block runs, and the exception goes on.
            match fin_exc {
                Some(node) => self.goto(node),
                None => self.raise(),
            }
        }
        if let (Some(node), Some(f), Some(exc)) = (fin_exc, finally, self.cx.exc) {
            self.set(node);
            let saved = self.temp(Type::External("Throwable".to_owned()));
            self.emit(
                Stmt::Assign {
                    place: Place::Var(saved),
                    expr: Expr::Global(exc),
                },
                f.span,
            );
            self.emit(
                Stmt::Assign {
                    place: Place::Global(exc),
                    expr: Expr::Null,
                },
                f.span,
            );
            self.block(f);
            self.emit(
                Stmt::Assign {
                    place: Place::Global(exc),
                    expr: Expr::Var(saved),
                },
                f.span,
            );
            self.raise();
        }
        self.set(after);
    }

    /// Whether a catch clause of type `t` may catch one of the JVM's own exceptions.
    fn catches_implicit(&self, t: &Type) -> bool {
        // Only a superclass of one of them catches it: those are all well known.
        let _ = self;
        match t {
            Type::External(n) => crate::classes::jdk::IMPLICIT.iter().any(|i| {
                crate::classes::jdk::ancestors(i).is_some_and(|chain| chain.contains(&n.as_str()))
            }),
            _ => false,
        }
    }
}

/// A written type's simple name.
fn type_name(t: &ast::TypeRef) -> String {
    match &t.kind {
        ast::TypeKind::Named { name, .. } => name.clone(),
        _ => "?".to_owned(),
    }
}
