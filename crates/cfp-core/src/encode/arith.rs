//! Integer and boolean operators as terms: literals folded, `*` `/` `%` by constants
//! exact (Java truncates toward zero), everything else an uninterpreted function
//! ([`super::UF_PREFIX`]).

use super::*;

/// `a + b`, folding literals.
pub(super) fn add(a: Term, b: Term) -> Term {
    match (a.as_int(), b.as_int()) {
        (Some(x), Some(y)) => x
            .checked_add(y)
            .map_or_else(|| arith(Op::Add, a, b), Term::int),
        (_, Some(0)) => a,
        (Some(0), _) => b,
        _ => arith(Op::Add, a, b),
    }
}

/// `a - b`, folding literals.
pub(super) fn sub(a: Term, b: Term) -> Term {
    match (a.as_int(), b.as_int()) {
        (Some(x), Some(y)) => x
            .checked_sub(y)
            .map_or_else(|| arith(Op::Sub, a, b), Term::int),
        (_, Some(0)) => a,
        _ => arith(Op::Sub, a, b),
    }
}

/// `-a`, folding literals.
pub(super) fn neg(a: Term) -> Term {
    match a.as_int().and_then(i128::checked_neg) {
        Some(x) => Term::int(x),
        None => Term::app(Op::Neg, vec![a]),
    }
}

pub(super) fn arith(op: Op, a: Term, b: Term) -> Term {
    Term::app(op, vec![a, b])
}

pub(super) fn uf(name: &str, a: Term, b: Term) -> Term {
    Term::uf(format!("{UF_PREFIX}{name}"), vec![a, b], Sort::Int)
}

/// `a * b`: linear when a side is a literal, else the UF `%mul`.
pub(super) fn mul(a: Term, b: Term) -> Term {
    match (a.as_int(), b.as_int()) {
        (Some(x), Some(y)) => x.checked_mul(y).map_or_else(|| uf("mul", a, b), Term::int),
        (Some(0), _) | (_, Some(0)) => Term::int(0),
        (Some(1), _) => b,
        (_, Some(1)) => a,
        (Some(_), _) | (_, Some(_)) => arith(Op::Mul, a, b),
        _ => uf("mul", a, b),
    }
}

/// Java's `a / c` (truncation toward zero) for a non-zero literal `c`:
/// `sign(c) · (a ≥ 0 ? div(a, |c|) : -div(-a, |c|))`.
pub(super) fn java_div_const(a: Term, c: i128) -> Term {
    let abs = Term::int(c.abs());
    let q = Term::ite(
        Term::app(Op::Ge, vec![a.clone(), Term::int(0)]),
        Term::app(Op::Div, vec![a.clone(), abs.clone()]),
        neg(Term::app(Op::Div, vec![neg(a), abs])),
    );
    if c < 0 {
        neg(q)
    } else {
        q
    }
}

/// Java's `a % c` (sign of the dividend) for a non-zero literal `c`:
/// `a ≥ 0 ? mod(a, |c|) : -mod(-a, |c|)`.
pub(super) fn java_rem_const(a: Term, c: i128) -> Term {
    let abs = Term::int(c.abs());
    Term::ite(
        Term::app(Op::Ge, vec![a.clone(), Term::int(0)]),
        Term::app(Op::Mod, vec![a.clone(), abs.clone()]),
        neg(Term::app(Op::Mod, vec![neg(a), abs])),
    )
}

/// Truncating division / remainder of two literals (Java semantics), `None` for `/0`.
pub(super) fn fold_div(x: i128, y: i128, rem: bool) -> Option<i128> {
    if rem {
        x.checked_rem(y)
    } else {
        x.checked_div(y)
    }
}

pub(super) fn binary(op: BinaryOp, a: Term, b: Term, bool_args: bool) -> Term {
    use BinaryOp::*;
    let cmp = |o: Op, a: Term, b: Term| Term::app(o, vec![a, b]);
    match op {
        Add => add(a, b),
        Sub => sub(a, b),
        Mul => mul(a, b),
        Div | Rem => {
            let rem = op == Rem;
            match (a.as_int(), b.as_int()) {
                (Some(x), Some(y)) => match fold_div(x, y, rem) {
                    Some(v) => Term::int(v),
                    None => uf(if rem { "rem" } else { "div" }, a, b),
                },
                (_, Some(c)) if c != 0 => {
                    if rem {
                        java_rem_const(a, c)
                    } else {
                        java_div_const(a, c)
                    }
                }
                _ => uf(if rem { "rem" } else { "div" }, a, b),
            }
        }
        Lt => cmp(Op::Lt, a, b),
        Le => cmp(Op::Le, a, b),
        Gt => cmp(Op::Gt, a, b),
        Ge => cmp(Op::Ge, a, b),
        Eq => Term::eq(a, b),
        Ne => Term::negate(Term::eq(a, b)),
        And => Term::and([a, b]),
        Or => Term::or([a, b]),
        BitAnd if bool_args => Term::and([a, b]),
        BitOr if bool_args => Term::or([a, b]),
        BitXor if bool_args => Term::negate(Term::eq(a, b)),
        BitAnd => uf("band", a, b),
        BitOr => uf("bor", a, b),
        BitXor => uf("bxor", a, b),
        Shl | Shr => match b.as_int() {
            Some(c) if (0..63).contains(&c) => {
                let p = Term::int(1i128 << c);
                if op == Shl {
                    mul(a, p)
                } else {
                    Term::app(Op::Div, vec![a, p])
                }
            }
            _ => uf(if op == Shl { "shl" } else { "shr" }, a, b),
        },
        UShr => uf("ushr", a, b),
    }
}
