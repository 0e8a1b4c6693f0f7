//! Java's static types as javac sees them, for choosing among overloads (JLS §15.12.2):
//! the primitive kinds (`int`, `long`, `char`, …) and boxed types that the verifier's
//! own [`Type`] folds together, and the three phases of applicability — strict
//! (identity and widening), loose (boxing and unboxing too), variable arity — then the
//! most specific method.

use super::{ClassTable, MethodSource, Type};
use crate::ir::{ClassId, MethodId};
use cfp_syntax::ast::{TypeKind, TypeRef};

/// A primitive type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Prim {
    /// `boolean`
    Boolean,
    /// `byte`
    Byte,
    /// `short`
    Short,
    /// `char`
    Char,
    /// `int`
    Int,
    /// `long`
    Long,
    /// `float`
    Float,
    /// `double`
    Double,
}

impl Prim {
    /// Widening primitive conversion (JLS §5.1.2), identity included.
    pub fn widens_to(self, to: Prim) -> bool {
        use Prim::*;
        self == to
            || matches!(
                (self, to),
                (Byte, Short | Int | Long | Float | Double)
                    | (Short, Int | Long | Float | Double)
                    | (Char, Int | Long | Float | Double)
                    | (Int, Long | Float | Double)
                    | (Long, Float | Double)
                    | (Float, Double)
            )
    }

    /// The primitive a boxed class stands for.
    pub fn unboxed(name: &str) -> Option<Prim> {
        Some(match name {
            "Boolean" => Prim::Boolean,
            "Byte" => Prim::Byte,
            "Short" => Prim::Short,
            "Character" => Prim::Char,
            "Integer" => Prim::Int,
            "Long" => Prim::Long,
            "Float" => Prim::Float,
            "Double" => Prim::Double,
            _ => return None,
        })
    }

    /// Binary numeric promotion (JLS §5.6.2) of two operands.
    pub fn promote(a: Prim, b: Prim) -> Prim {
        use Prim::*;
        if a == Double || b == Double {
            Double
        } else if a == Float || b == Float {
            Float
        } else if a == Long || b == Long {
            Long
        } else {
            Int
        }
    }
}

/// A static type as javac computes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JType {
    /// A primitive type.
    Prim(Prim),
    /// A boxed primitive (`Integer`, …).
    Boxed(Prim),
    /// A class of the program.
    Class(ClassId),
    /// A class outside the program, by simple name.
    Ref(String),
    /// An array.
    Array(Box<JType>),
    /// The type of `null`.
    Null,
    /// Not known: compatible with anything.
    Unknown,
}

impl JType {
    /// The type a written type denotes.
    pub fn of_typeref(table: &ClassTable<'_>, t: &TypeRef) -> JType {
        match &t.kind {
            TypeKind::Int => JType::Prim(Prim::Int),
            TypeKind::Long => JType::Prim(Prim::Long),
            TypeKind::Short => JType::Prim(Prim::Short),
            TypeKind::Byte => JType::Prim(Prim::Byte),
            TypeKind::Char => JType::Prim(Prim::Char),
            TypeKind::Boolean => JType::Prim(Prim::Boolean),
            TypeKind::Float => JType::Prim(Prim::Float),
            TypeKind::Double => JType::Prim(Prim::Double),
            TypeKind::Named { name, .. } => match table.class_by_name(name) {
                Some(c) => JType::Class(c),
                None => match Prim::unboxed(name) {
                    Some(p) => JType::Boxed(p),
                    None => JType::Ref(name.clone()),
                },
            },
            TypeKind::Array(e) => JType::Array(Box::new(JType::of_typeref(table, e))),
            TypeKind::Void | TypeKind::Inferred => JType::Unknown,
        }
    }

    /// The closest type to the verifier's [`Type`] (which folds the integral kinds).
    pub fn of_type(t: &Type) -> JType {
        match t {
            Type::Int => JType::Prim(Prim::Int),
            Type::Bool => JType::Prim(Prim::Boolean),
            Type::Float => JType::Prim(Prim::Double),
            Type::Class(c) => JType::Class(*c),
            Type::External(n) => JType::Ref(n.clone()),
            Type::Array(e) => JType::Array(Box::new(JType::of_type(e))),
            Type::Null => JType::Null,
            Type::Void | Type::Unknown => JType::Unknown,
        }
    }

    fn is_ref(&self) -> bool {
        !matches!(self, JType::Prim(_))
    }
}

/// How a call matched a method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Identity and widening conversions.
    Strict,
    /// Boxing and unboxing too.
    Loose,
    /// A variable-arity method with its trailing arguments collected into an array.
    Varargs,
}

impl ClassTable<'_> {
    /// Widening reference conversion and identity (JLS §5.1.5): `a` is `b` or below it.
    pub fn ref_below(&self, a: &JType, b: &JType) -> bool {
        match (a, b) {
            (_, JType::Unknown) | (JType::Unknown, _) => true,
            (JType::Null, b) => b.is_ref(),
            (_, JType::Ref(o)) if o == "Object" => a.is_ref(),
            (JType::Class(x), JType::Class(y)) => self.is_subclass(*x, *y),
            (JType::Class(x), JType::Ref(n)) => {
                self.supertypes_of(*x).contains(n)
                    || self.ancestors(*x).iter().any(|k| {
                        self.classes[k.index()].external_supers.iter().any(|e| {
                            super::jdk::ancestors(e).is_some_and(|ch| ch.contains(&n.as_str()))
                        })
                    })
            }
            (JType::Ref(x), JType::Ref(y)) => {
                x == y || super::jdk::ancestors(x).is_some_and(|ch| ch.contains(&y.as_str()))
            }
            (JType::Boxed(p), JType::Boxed(q)) => p == q,
            (JType::Boxed(p), JType::Ref(n)) => {
                n == "Number" && !matches!(p, Prim::Boolean | Prim::Char)
                    || n == "Comparable"
                    || n == "Serializable"
            }
            (JType::Array(x), JType::Array(y)) => match (x.as_ref(), y.as_ref()) {
                (JType::Prim(p), JType::Prim(q)) => p == q,
                (x, y) => x.is_ref() && y.is_ref() && self.ref_below(x, y),
            },
            (JType::Array(_), JType::Ref(n)) => n == "Cloneable" || n == "Serializable",
            _ => false,
        }
    }

    /// Whether an argument of type `a` can be passed for a parameter of type `p` in
    /// `phase` (strict: identity and widening; loose: boxing and unboxing too).
    pub fn passes(&self, a: &JType, p: &JType, phase: Phase) -> bool {
        match (a, p) {
            (JType::Unknown, _) | (_, JType::Unknown) => true,
            (JType::Prim(x), JType::Prim(y)) => x.widens_to(*y),
            (JType::Prim(_), _) | (_, JType::Prim(_)) if phase == Phase::Strict => false,
            // Boxing, then widening reference.
            (JType::Prim(x), p) => self.ref_below(&JType::Boxed(*x), p),
            // Unboxing, then widening primitive.
            (JType::Boxed(x), JType::Prim(y)) => x.widens_to(*y),
            (JType::Ref(n), JType::Prim(y)) => Prim::unboxed(n).is_some_and(|x| x.widens_to(*y)),
            (JType::Null, JType::Prim(_)) => false,
            (a, p) => self.ref_below(a, p),
        }
    }

    /// The parameter types of method `m` as written, and whether its last parameter
    /// has variable arity.
    pub fn param_jtypes(&self, m: MethodId) -> (Vec<JType>, bool) {
        let Some(sig) = self.methods.get(m.index()) else {
            return (Vec::new(), false);
        };
        let params = match sig.source {
            MethodSource::Method(md) => &md.params,
            MethodSource::Ctor(cd) => &cd.params,
            _ => {
                return (
                    sig.params.iter().map(|p| JType::of_type(&p.1)).collect(),
                    false,
                )
            }
        };
        let varargs = params.last().is_some_and(|p| p.is_varargs);
        (
            params
                .iter()
                .map(|p| JType::of_typeref(self, &p.ty))
                .collect(),
            varargs,
        )
    }

    /// Whether method `m` accepts `args` in `phase`.
    fn applicable(&self, m: MethodId, args: &[JType], phase: Phase) -> bool {
        let (params, varargs) = self.param_jtypes(m);
        match phase {
            Phase::Strict | Phase::Loose => {
                params.len() == args.len()
                    && args
                        .iter()
                        .zip(&params)
                        .all(|(a, p)| self.passes(a, p, phase))
            }
            Phase::Varargs => {
                if !varargs || args.len() + 1 < params.len() {
                    return false;
                }
                let k = params.len() - 1;
                let elem = match &params[k] {
                    JType::Array(e) => e.as_ref().clone(),
                    _ => JType::Unknown,
                };
                args[..k]
                    .iter()
                    .zip(&params[..k])
                    .all(|(a, p)| self.passes(a, p, Phase::Loose))
                    && args[k..]
                        .iter()
                        .all(|a| self.passes(a, &elem, Phase::Loose))
            }
        }
    }

    /// `m1` is at least as specific as `m2` for a call of `n` arguments (JLS §15.12.2.5).
    fn as_specific(&self, m1: MethodId, m2: MethodId, n: usize, phase: Phase) -> bool {
        let (p1, _) = self.param_jtypes(m1);
        let (p2, _) = self.param_jtypes(m2);
        let at = |ps: &[JType], i: usize| -> JType {
            if phase == Phase::Varargs && i + 1 >= ps.len() {
                match ps.last() {
                    Some(JType::Array(e)) => e.as_ref().clone(),
                    Some(t) => t.clone(),
                    None => JType::Unknown,
                }
            } else {
                ps.get(i).cloned().unwrap_or(JType::Unknown)
            }
        };
        let n = n.max(p1.len()).max(p2.len());
        (0..n).all(|i| {
            let (a, b) = (at(&p1, i), at(&p2, i));
            match (&a, &b) {
                (JType::Prim(x), JType::Prim(y)) => x.widens_to(*y),
                _ => self.ref_below(&a, &b),
            }
        })
    }

    /// The one variable-arity method among `cands` that takes `n` arguments with its
    /// trailing ones collected into an array, when no other candidate takes `n`: the
    /// method of a call whose argument types relate to the parameters' only through
    /// library types this table does not know (`Map.class` for `Type...`).
    pub fn sole_varargs(&self, cands: &[MethodId], n: usize) -> Option<(MethodId, Phase)> {
        let takes = |m: &MethodId| {
            let (params, varargs) = self.param_jtypes(*m);
            params.len() == n || (varargs && params.len() <= n + 1)
        };
        let mut fit = cands.iter().filter(|m| takes(m));
        match (fit.next(), fit.next()) {
            (Some(m), None) if self.param_jtypes(*m).0.len() != n => Some((*m, Phase::Varargs)),
            _ => None,
        }
    }

    /// The method javac chooses among `cands` for arguments of types `args`, with the
    /// phase that chose it (JLS §15.12.2): the first phase with an applicable method,
    /// and among those the most specific (the first when none is).
    pub fn choose_overload(&self, cands: &[MethodId], args: &[JType]) -> Option<(MethodId, Phase)> {
        for phase in [Phase::Strict, Phase::Loose, Phase::Varargs] {
            let ok: Vec<MethodId> = cands
                .iter()
                .copied()
                .filter(|m| self.applicable(*m, args, phase))
                .collect();
            if ok.is_empty() {
                continue;
            }
            let best = ok
                .iter()
                .copied()
                .find(|m| {
                    ok.iter()
                        .all(|o| o == m || self.as_specific(*m, *o, args.len(), phase))
                })
                .unwrap_or(ok[0]);
            return Some((best, phase));
        }
        None
    }

    /// The methods named `name` visible in class `c` (own, inherited from its
    /// superclasses and interfaces of the program), an overridden one left out.
    pub fn method_candidates(&self, c: ClassId, name: &str) -> Vec<MethodId> {
        let mut out: Vec<MethodId> = Vec::new();
        for a in self.ancestors(c) {
            for &m in &self.classes[a.index()].methods {
                let s = &self.methods[m.index()];
                if s.name != name {
                    continue;
                }
                let overridden = out
                    .iter()
                    .any(|o| self.param_jtypes(*o).0 == self.param_jtypes(m).0);
                if !overridden {
                    out.push(m);
                }
            }
        }
        out
    }
}
