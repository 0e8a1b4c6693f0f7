//! Choosing among overloads as javac does (JLS §15.12.2), from the arguments' static
//! Java types ([`JType`]), and collecting the trailing arguments of a variable-arity call
//! into an array.

use super::*;
use crate::classes::jtypes::{JType, Phase, Prim};

impl<'c, 'a> MethodLowerer<'c, 'a> {
    /// The Java static type of `e` (its type in the verifier's terms: `coarse`).
    pub(super) fn jtype_of(&self, e: &ast::Expr, coarse: &Type) -> JType {
        let fallback = || JType::of_type(coarse);
        match &e.kind {
            ExprKind::Int { is_long, .. } => {
                JType::Prim(if *is_long { Prim::Long } else { Prim::Int })
            }
            ExprKind::Char(_) => JType::Prim(Prim::Char),
            ExprKind::Float(text) => JType::Prim(if text.ends_with(['f', 'F']) {
                Prim::Float
            } else {
                Prim::Double
            }),
            ExprKind::Bool(_) => JType::Prim(Prim::Boolean),
            ExprKind::String(_) => JType::Ref("String".to_owned()),
            ExprKind::Null => JType::Null,
            ExprKind::Name(id) => match self.resolve_name(&id.name) {
                NameRes::Var(v, _) => self
                    .var_jtypes
                    .get(v.index())
                    .cloned()
                    .unwrap_or_else(fallback),
                NameRes::Field(FieldRes(f, _)) | NameRes::OuterField(_, FieldRes(f, _)) => self
                    .cx
                    .table
                    .field_jtypes
                    .get(f.index())
                    .cloned()
                    .unwrap_or_else(fallback),
                NameRes::Global(g, _) => self
                    .cx
                    .table
                    .global_jtypes
                    .get(g.index())
                    .cloned()
                    .unwrap_or_else(fallback),
                _ => fallback(),
            },
            ExprKind::Cast { ty, .. } => JType::of_typeref(&self.cx.table, ty),
            ExprKind::Call { target, name, args } => self
                .call_jtype(target.as_deref(), &name.name, args.len())
                .unwrap_or_else(fallback),
            ExprKind::New { class, .. } => JType::of_typeref(&self.cx.table, class),
            ExprKind::Binary { op, lhs, rhs } => {
                use cfp_syntax::ast::BinaryOp::*;
                match op {
                    Add | Sub | Mul | Div | Rem | BitAnd | BitOr | BitXor => {
                        match (
                            self.jtype_of(lhs, &Type::Unknown),
                            self.jtype_of(rhs, &Type::Unknown),
                        ) {
                            (JType::Prim(a), JType::Prim(b))
                                if a != Prim::Boolean && b != Prim::Boolean =>
                            {
                                JType::Prim(Prim::promote(a, b))
                            }
                            _ => fallback(),
                        }
                    }
                    Shl | Shr | UShr => match self.jtype_of(lhs, &Type::Unknown) {
                        JType::Prim(a) if a != Prim::Boolean => {
                            JType::Prim(Prim::promote(a, Prim::Int))
                        }
                        _ => fallback(),
                    },
                    _ => fallback(),
                }
            }
            ExprKind::Unary { op, operand } if *op != UnaryOp::Not => {
                match self.jtype_of(operand, &Type::Unknown) {
                    JType::Prim(a) if a != Prim::Boolean => {
                        JType::Prim(Prim::promote(a, Prim::Int))
                    }
                    _ => fallback(),
                }
            }
            _ => fallback(),
        }
    }

    /// The return type of a call, when it is known without resolving it: a method of
    /// the program whose overloads of that name all return the same type, or a
    /// well-known method of the JDK.
    fn call_jtype(&self, target: Option<&ast::Expr>, name: &str, arity: usize) -> Option<JType> {
        let class = match target {
            None => self.class,
            Some(ast::Expr {
                kind: ExprKind::Name(id),
                ..
            }) => match self.resolve_name(&id.name) {
                NameRes::Class(c) => Some(c),
                NameRes::Unknown => return jdk_static_return(&id.name, name),
                NameRes::Var(v, _) => match self.var_jtypes.get(v.index()) {
                    Some(JType::Class(c)) => Some(*c),
                    _ => None,
                },
                _ => None,
            },
            Some(ast::Expr {
                kind: ExprKind::This,
                ..
            }) => self.class,
            _ => None,
        };
        if let Some(c) = class {
            let rets: Vec<JType> = self
                .cx
                .table
                .method_candidates(c, name)
                .into_iter()
                .filter(|m| self.cx.table.methods[m.index()].params.len() == arity)
                .filter_map(|m| match self.cx.table.methods[m.index()].source {
                    MethodSource::Method(md) => Some(JType::of_typeref(&self.cx.table, &md.ret)),
                    _ => None,
                })
                .collect();
            if let Some(first) = rets.first() {
                if rets.iter().all(|r| r == first) {
                    return Some(first.clone());
                }
            }
            return None;
        }
        jdk_instance_return(name)
    }

    /// The Java static types of the current call's arguments (`tys` in the verifier's
    /// terms).
    fn arg_jtypes(&mut self, tys: &[Type]) -> Vec<JType> {
        match self.call_jtypes.take() {
            Some(j) if j.len() == tys.len() => j,
            _ => tys.iter().map(JType::of_type).collect(),
        }
    }

    /// Record the Java static types of the arguments `args` of the call being lowered.
    pub(super) fn note_arg_jtypes(&mut self, args: &[ast::Expr], tys: &[Type]) {
        let j = args
            .iter()
            .zip(tys)
            .map(|(a, t)| self.jtype_of(a, t))
            .collect();
        self.call_jtypes = Some(j);
    }

    /// The method `name` of class `c` javac chooses for the current call's arguments.
    pub(super) fn choose_method(
        &mut self,
        c: ClassId,
        name: &str,
        tys: &[Type],
    ) -> Option<(MethodId, Phase)> {
        let jts = self.arg_jtypes(tys);
        let cands = self.cx.table.method_candidates(c, name);
        self.cx.table.choose_overload(&cands, &jts).or_else(|| {
            let t = &self.cx.table;
            let Some(m) = t.lookup_method(c, name, tys) else {
                return if t.has_external_ancestor(c) {
                    None
                } else {
                    t.sole_varargs(&cands, tys.len())
                };
            };
            // No method of the program applies to arguments of known types: with a
            // superclass outside the program, an overload of it (library code) does.
            let misfit = t.methods[m.index()]
                .params
                .iter()
                .zip(tys)
                .any(|((_, p, _), a)| surely_not_assignable(t, p, a));
            if misfit && t.has_external_ancestor(c) {
                return None;
            }
            Some((m, Phase::Strict))
        })
    }

    /// The constructor of `c` javac chooses for the current call's arguments.
    pub(super) fn choose_ctor(&mut self, c: ClassId, tys: &[Type]) -> Option<(MethodId, Phase)> {
        let jts = self.arg_jtypes(tys);
        let cands = self.cx.table.classes.get(c.index())?.ctors.clone();
        self.cx.table.choose_overload(&cands, &jts).or_else(|| {
            let t = &self.cx.table;
            t.lookup_ctor(c, tys)
                .map(|m| (m, Phase::Strict))
                .or_else(|| t.sole_varargs(&cands, tys.len()))
        })
    }

    /// The arguments of a call of `m` chosen in `phase`: for a variable-arity call,
    /// the trailing ones collected into a new array (its contents are not tracked).
    pub(super) fn pack_varargs(
        &mut self,
        m: MethodId,
        phase: Phase,
        mut vals: Vec<Expr>,
        span: Span,
    ) -> Vec<Expr> {
        if phase != Phase::Varargs {
            return vals;
        }
        let k = self.cx.table.methods[m.index()].params.len();
        if k == 0 || vals.len() + 1 < k {
            return vals;
        }
        let ty = self.cx.table.methods[m.index()]
            .params
            .last()
            .map_or(Type::Unknown, |p| p.1.clone());
        let n = vals.len() + 1 - k;
        vals.truncate(k - 1);
        let t = self.new_array(ty, Some(Expr::Int(n as i64)), span);
        vals.push(Expr::Var(t));
        vals
    }
}

/// The return type of a well-known static method of the JDK (`Integer.valueOf`).
fn jdk_static_return(class: &str, method: &str) -> Option<JType> {
    let boxed = Prim::unboxed(class);
    match (class, method) {
        (_, "valueOf") if boxed.is_some() => boxed.map(JType::Boxed),
        ("Integer", "parseInt") => Some(JType::Prim(Prim::Int)),
        ("Long", "parseLong") => Some(JType::Prim(Prim::Long)),
        ("Boolean", "parseBoolean") => Some(JType::Prim(Prim::Boolean)),
        ("Double", "parseDouble") => Some(JType::Prim(Prim::Double)),
        ("Float", "parseFloat") => Some(JType::Prim(Prim::Float)),
        ("Short", "parseShort") => Some(JType::Prim(Prim::Short)),
        ("Byte", "parseByte") => Some(JType::Prim(Prim::Byte)),
        ("String", "valueOf" | "format" | "join") | (_, "toString") => {
            Some(JType::Ref("String".to_owned()))
        }
        ("System", "currentTimeMillis" | "nanoTime") => Some(JType::Prim(Prim::Long)),
        ("Objects", "hash" | "hashCode") => Some(JType::Prim(Prim::Int)),
        ("Objects", "equals" | "isNull" | "nonNull") => Some(JType::Prim(Prim::Boolean)),
        _ => None,
    }
}

/// The return type of a well-known instance method of the JDK, by name alone.
fn jdk_instance_return(method: &str) -> Option<JType> {
    Some(match method {
        "intValue" | "hashCode" | "length" | "size" | "ordinal" | "compareTo" => {
            JType::Prim(Prim::Int)
        }
        "longValue" => JType::Prim(Prim::Long),
        "doubleValue" => JType::Prim(Prim::Double),
        "floatValue" => JType::Prim(Prim::Float),
        "booleanValue" | "equals" | "isEmpty" | "contains" | "startsWith" | "endsWith" => {
            JType::Prim(Prim::Boolean)
        }
        "charAt" | "charValue" => JType::Prim(Prim::Char),
        "toString" | "name" | "trim" | "substring" | "toUpperCase" | "toLowerCase" => {
            JType::Ref("String".to_owned())
        }
        _ => return None,
    })
}

/// An argument of type `a` can certainly not be passed for a parameter of type `p`: a
/// primitive for an array or a class of the program, an array for a primitive or a
/// class of the program, an object of a class of the program for an unrelated one of
/// the program or a primitive. (Types outside the program relate in ways the table does
/// not know: never certain.)
fn surely_not_assignable(t: &crate::classes::ClassTable<'_>, p: &Type, a: &Type) -> bool {
    let primitive = |x: &Type| matches!(x, Type::Int | Type::Bool | Type::Float);
    match (p, a) {
        (Type::Array(_) | Type::Class(_), x) if primitive(x) => true,
        (x, Type::Array(_)) if primitive(x) => true,
        (Type::Class(_), Type::Array(_)) => true,
        (Type::Array(_), Type::Class(_)) => true,
        (x, Type::Class(_)) if primitive(x) => true,
        (Type::Class(pc), Type::Class(ac)) => !t.is_subclass(*ac, *pc),
        _ => false,
    }
}
