//! Generic types and library types in calls: what a type variable stands for (the result
//! of a generic method, a value that may be of any class) and which library classes can
//! never be the class of an API's wildcard.

use super::*;

/// The name of `java.lang.Object`, above every class: a value of a type variable's type is
/// dispatched as one of `Object`.
pub(super) const OBJECT: &str = "Object";

impl<'c, 'a> MethodLowerer<'c, 'a> {
    /// Whether a receiver of the library type `ty` is never an object of the class of any
    /// of `terminals`' receivers: `ty` is a library class of known superclasses
    /// ([`crate::classes::library`]), each receiver's class is a class (not an interface)
    /// of the program's models whose superclasses are all known, or of that table, and it
    /// is neither `ty` nor among `ty`'s
    /// superclasses. (That `ty` is not among its superclasses is what made the call no
    /// API call in the first place.)
    pub(super) fn unrelated_to_api(&self, ty: &str, terminals: &[crate::ir::TerminalId]) -> bool {
        // A type variable named like a library class (`Box<Camera extends Canvas>`) is not
        // that class.
        if self.cx.type_vars.contains(ty) {
            return false;
        }
        let Some((_, supers)) = self.cx.library_classes.iter().find(|(c, _)| *c == ty) else {
            return false;
        };
        terminals.iter().all(|t| {
            let Some(w) = self
                .cx
                .api
                .terminals
                .get(t.index())
                .and_then(|term| self.cx.api.receiver_type(term))
            else {
                return false;
            };
            // A class of the program or its models whose superclasses are all known (a
            // library superclass could be a subclass of `ty`), or a class of the table.
            let is_class = match self.cx.table.class_written(w) {
                Some(c) => {
                    let chain = self.cx.table.superclass_chain(c);
                    !self.cx.table.classes[c.index()].decl.is_interface
                        && chain.last().is_some_and(|top| {
                            // A model's base stands for no superclass: a model declares
                            // the library class's superclasses it has.
                            self.cx.table.classes[top.index()]
                                .decl
                                .extends
                                .as_ref()
                                .is_none_or(|t| {
                                    matches!(&t.kind, cfp_syntax::ast::TypeKind::Named { name, .. }
                                        if name == crate::models::MODEL_BASE)
                                })
                        })
                }
                None => crate::classes::library::is_listed_class(w),
            };
            is_class
                && !cfp_syntax::resolve::names_class(w, ty)
                && !supers
                    .iter()
                    .any(|s| cfp_syntax::resolve::names_class(w, s))
                && !crate::classes::library::listed_superclasses(w)
                    .iter()
                    .any(|s| cfp_syntax::resolve::names_class(s, ty))
        })
    }

    /// The type of the result of a call of `m` with arguments of types `tys`: the declared
    /// return type, but for a type parameter of the method itself (`<T> T
    /// checkNotNull(T x)`) the type the arguments bind it to — the join of the arguments
    /// passed where a parameter's type is that type parameter. The compiler casts the
    /// result to that type at the call, so a completed execution has a value of it.
    pub(super) fn result_type(&self, m: MethodId, tys: &[Type]) -> Type {
        let sig = &self.cx.table.methods[m.index()];
        let ret = sig.ret.clone();
        let (Type::External(var), MethodSource::Method(md)) = (&ret, &sig.source) else {
            return ret;
        };
        if !md.type_params.iter().any(|p| p == var) {
            return ret;
        }
        // Bound only by parameters of type exactly `T`: a `List<T>` or `T...` also binds
        // it, to a type this cannot see.
        let exactly = |t: &cfp_syntax::ast::TypeRef| {
            matches!(&t.kind, cfp_syntax::ast::TypeKind::Named { name, qualifier, args }
                if name == var && qualifier.is_empty() && args.is_empty())
        };
        if md
            .params
            .iter()
            .any(|p| mentions(&p.ty, var) && !exactly(&p.ty))
        {
            return ret;
        }
        let mut bound: Option<Type> = None;
        for ((_, declared, _), actual) in sig.params.iter().zip(tys) {
            if !matches!(declared, Type::External(n) if n == var) {
                continue;
            }
            if !matches!(
                actual,
                Type::Class(_) | Type::External(_) | Type::Array(_) | Type::Null
            ) {
                return ret;
            }
            bound = Some(match bound {
                None => actual.clone(),
                Some(b) => self.cx.table.join(&b, actual),
            });
        }
        match bound {
            Some(t @ (Type::Class(_) | Type::External(_) | Type::Array(_))) => t,
            _ => ret,
        }
    }
}

/// The names of the type variables the program's classes and methods declare.
pub(super) fn type_variables(table: &ClassTable<'_>) -> std::collections::BTreeSet<String> {
    let classes = table.classes.iter().flat_map(|c| c.decl.type_params.iter());
    let methods = table.methods.iter().flat_map(|m| match &m.source {
        MethodSource::Method(md) => md.type_params.as_slice(),
        _ => &[],
    });
    classes.chain(methods).cloned().collect()
}

/// Whether type `t` as written mentions the type variable `var` (itself, in an array, or in
/// a generic argument).
fn mentions(t: &cfp_syntax::ast::TypeRef, var: &str) -> bool {
    match &t.kind {
        cfp_syntax::ast::TypeKind::Named {
            name,
            qualifier,
            args,
        } => (name == var && qualifier.is_empty()) || args.iter().any(|a| mentions(a, var)),
        cfp_syntax::ast::TypeKind::Array(inner) => mentions(inner, var),
        _ => false,
    }
}
