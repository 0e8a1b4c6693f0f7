//! Closure classes: the captured variables they copy at creation.
//!
//! Closures that stay opaque objects after [`crate::desugar`] made the others classes:
//! a method reference to a method outside the program (`System.out::println`), whose
//! code runs outside the program. Exact when that code cannot matter to the protocol — it
//! calls no method of the program or of the spec's API and assigns no field of the
//! program — and the object cannot stand for a class of the program (a lambda for a
//! program interface would break the closed world of dynamic dispatch). Otherwise the
//! object is still built and an approximation is recorded at the expression, so the
//! verdict cannot be `verified`.

use super::*;
use cfp_syntax::ast::{Closure, ClosureKind};

impl<'c, 'a> MethodLowerer<'c, 'a> {
    pub(super) fn closure(&mut self, c: &'a Closure, span: Span) -> (Expr, Type) {
        let _ = self.eval_args(&c.args);
        let name = match (&c.kind, &c.ty) {
            (ClosureKind::Anonymous, Some(t)) => match &t.kind {
                ast::TypeKind::Named { name, .. } => name.clone(),
                _ => "<anonymous>".to_owned(),
            },
            (ClosureKind::Anonymous, None) => "<anonymous>".to_owned(),
            (ClosureKind::Lambda, _) => "<lambda>".to_owned(),
            (ClosureKind::MethodRef, _) => "<method-ref>".to_owned(),
        };
        if let Some(why) = self.closure_matters(c) {
            let what = match c.kind {
                ClosureKind::Lambda => "lambda",
                ClosureKind::MethodRef => "method reference",
                ClosureKind::Anonymous => "anonymous class",
            };
            let msg = format!(
                "the code of this {what} is not run by the analysis, and it may matter ({why}): \
                 the verdict can be `violation` or `unknown`, not `verified`"
            );
            self.cx
                .diags
                .push(Diagnostic::warning("closure-not-run", span, msg.clone()));
            self.cx
                .approx
                .push(Diagnostic::warning("closure-not-run", span, msg));
        }
        let ty = Type::External(name.clone());
        let t = self.temp(ty.clone());
        self.fresh_objects.push(t);
        self.emit(
            Stmt::Alloc {
                var: t,
                kind: AllocKind::External(name),
            },
            span,
        );
        (Expr::Var(t), ty)
    }

    /// Why the code of `c` may matter, if it may.
    fn closure_matters(&self, c: &Closure) -> Option<String> {
        let table = &self.cx.table;
        if let Some(t) = &c.ty {
            if let Type::Class(k) = table.resolve(t) {
                return Some(format!(
                    "it is a subclass of `{}`, a class of the program",
                    table.class_name(k)
                ));
            }
        }
        if c.kind != ClosureKind::Anonymous {
            let functional = table.classes.iter().find(|k| {
                k.decl.is_interface
                    && k.methods
                        .iter()
                        .filter(|m| table.methods[m.index()].is_abstract)
                        .count()
                        == 1
            });
            if let Some(i) = functional {
                return Some(format!(
                    "it may implement `{}`, an interface of the program",
                    i.decl.name.name
                ));
            }
        }
        for call in &c.calls {
            let n = call.name.as_str();
            if self.cx.api.terminals.iter().any(|t| t.method == n) {
                return Some(format!("it calls `{n}`, a method of the protocol"));
            }
            if table.methods.iter().any(|m| m.name == n) || table.class_by_name(n).is_some() {
                return Some(format!("it calls `{n}`, a method of the program"));
            }
        }
        for w in &c.writes {
            let n = w.name.as_str();
            let field = table.classes.iter().any(|k| {
                k.fields.iter().any(|(f, _)| f == n) || k.statics.iter().any(|(f, _)| f == n)
            });
            if field {
                return Some(format!("it assigns `{n}`, a field of the program"));
            }
        }
        None
    }
}

impl<'c, 'a> MethodLowerer<'c, 'a> {
    /// `Outer.this`: `this` in class `Outer`; in an inner class of `Outer`, its enclosing
    /// instance ([`MethodLowerer::outer_instance`]).
    pub(super) fn outer_this(
        &mut self,
        name: &str,
        want: Option<Sort>,
        span: Span,
    ) -> (Expr, Type) {
        let mut cls = self.class;
        let mut first = true;
        while let Some(c) = cls {
            if self.cx.table.class_name(c) == name {
                match (first, self.this) {
                    (true, Some(this)) => return (Expr::Var(this), Type::Class(c)),
                    (false, Some(_)) if !self.is_static => {
                        return (self.outer_instance(c, span), Type::Class(c));
                    }
                    _ => break,
                }
            }
            first = false;
            cls = self.cx.table.classes[c.index()].outer;
        }
        self.error(
            "invalid-outer-this",
            span,
            format!("`{name}.this` needs an instance of `{name}`: this code is not inside one"),
        );
        self.unknown_value(want, span)
    }
}

impl<'c, 'a> MethodLowerer<'c, 'a> {
    /// After `t := new C`: the captured variables of closure class `c`, read here.
    pub(super) fn copy_captures(&mut self, t: VarId, c: ClassId, span: Span) {
        let Some(captures) = self.cx.closure(c).map(|k| k.captures.clone()) else {
            return;
        };
        for name in captures {
            let Some(f) = self.cx.table.lookup_field(c, &name) else {
                continue;
            };
            let value = match self.resolve_name(&name) {
                NameRes::Var(v, _) => Expr::Var(v),
                NameRes::Global(g, _) => Expr::Global(g),
                NameRes::Field(FieldRes(fid, _)) => match self.this {
                    Some(this) => Expr::Field {
                        obj: Box::new(Expr::Var(this)),
                        field: fid,
                    },
                    None => continue,
                },
                _ => continue,
            };
            let sort = self.cx.table.fields[f.index()].sort;
            let ty = self.cx.table.field_types[f.index()].clone();
            let value = self.coerce(value, sort, &ty, span);
            self.emit(
                Stmt::Assign {
                    place: Place::Field {
                        obj: Expr::Var(t),
                        field: f,
                    },
                    expr: value,
                },
                span,
            );
        }
    }

    /// Whether field `name` of class `c` holds a captured variable (the constructor does
    /// not reset it: `new` set it).
    pub(super) fn is_capture(&self, c: ClassId, name: &str) -> bool {
        self.cx
            .closure(c)
            .is_some_and(|k| k.captures.iter().any(|n| n == name))
            || (name == "recv$" && self.cx.closure(c).is_some())
    }
}
