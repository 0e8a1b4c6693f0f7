//! Evaluating expressions over a frame and the heap (with the oracle supplying what is
//! unknown), and the binary operators' semantics.

use super::*;

pub(super) type MissingFn<'a> = dyn FnMut(ValueSource, Sort) -> R<Value> + 'a;

pub(super) fn eval_with(
    m: &Machine<'_, '_>,
    mid: MethodId,
    e: &Expr,
    sc: &mut Option<Scratch>,
    missing: &mut MissingFn<'_>,
) -> R<Value> {
    let Some(frame) = m.stack.last() else {
        return bad("no frame");
    };
    let Some(cfa) = m.program.method(mid) else {
        return bad(format!("method {}", mid.0));
    };
    Ok(match e {
        Expr::Var(x) => {
            if let Some(v) = sc.as_ref().and_then(|s| s.vars.get(&x.index())) {
                return Ok(*v);
            }
            match frame.vars.get(x.index()) {
                Some(Some(v)) => *v,
                Some(None) => {
                    let sort = cfa.var(*x).map_or(Sort::Int, |d| d.sort);
                    return missing(
                        ValueSource::VarInit {
                            method: mid,
                            var: *x,
                        },
                        sort,
                    );
                }
                None => return bad(format!("variable {} of {}", x.0, cfa.name)),
            }
        }
        Expr::Global(g) => {
            if let Some(v) = sc.as_ref().and_then(|s| s.globals.get(&g.index())) {
                return Ok(*v);
            }
            match m.globals.get(g.index()) {
                Some(Some(v)) => *v,
                _ => return bad(format!("global {}", g.0)),
            }
        }
        Expr::Field { obj, field } => {
            let Value::Int(o) = eval_with(m, mid, obj, sc, missing)? else {
                return bad("field of a boolean");
            };
            if let Some(v) = sc.as_ref().and_then(|s| s.fields.get(&(field.index(), o))) {
                return Ok(*v);
            }
            let Some(arr) = m.heap.fields.get(field.index()) else {
                return bad(format!("field {}", field.0));
            };
            match arr.get(&o) {
                Some(v) => *v,
                None => {
                    let sort = m
                        .program
                        .fields
                        .get(field.index())
                        .map_or(Sort::Int, |d| d.sort);
                    return missing(
                        ValueSource::FieldInit {
                            field: *field,
                            obj: o,
                        },
                        sort,
                    );
                }
            }
        }
        Expr::Int(i) => Value::Int(*i),
        Expr::Bool(b) => Value::Bool(*b),
        Expr::Null => Value::Int(0),
        Expr::Unary { op, arg } => {
            let a = eval_with(m, mid, arg, sc, missing)?;
            match (op, a) {
                (UnaryOp::Not, Value::Bool(b)) => Value::Bool(!b),
                (UnaryOp::Neg, Value::Int(i)) => match i.checked_neg() {
                    Some(v) => Value::Int(v),
                    None => return blocked(Span::default(), "overflow"),
                },
                (UnaryOp::Plus, Value::Int(i)) => Value::Int(i),
                (UnaryOp::BitNot, Value::Int(i)) => Value::Int(!i),
                _ => return bad(format!("ill-sorted unary {op:?}")),
            }
        }
        Expr::Binary { op, lhs, rhs } => {
            let a = eval_with(m, mid, lhs, sc, missing)?;
            let b = eval_with(m, mid, rhs, sc, missing)?;
            let v = binary(*op, a, b)?;
            if width_dependent(*op, a, v, b) {
                m.width_dependent.set(true);
            }
            v
        }
        Expr::Ite {
            cond,
            then_expr,
            else_expr,
        } => match eval_with(m, mid, cond, sc, missing)? {
            Value::Bool(true) => eval_with(m, mid, then_expr, sc, missing)?,
            Value::Bool(false) => eval_with(m, mid, else_expr, sc, missing)?,
            Value::Int(_) => return bad("ill-sorted condition"),
        },
    })
}

/// Whether `a op b = v` (the interpreter's 64-bit result) differs from what Java's 32-bit
/// `int` arithmetic gives for operands that fit an `int` (they may be `int`s).
fn width_dependent(op: BinaryOp, a: Value, v: Value, b: Value) -> bool {
    use BinaryOp::*;
    let (Value::Int(x), Value::Int(y), Value::Int(r)) = (a, b, v) else {
        return false;
    };
    let (Ok(x32), Ok(y32)) = (i32::try_from(x), i32::try_from(y)) else {
        return false;
    };
    let java = match op {
        Add => x32.wrapping_add(y32),
        Sub => x32.wrapping_sub(y32),
        Mul => x32.wrapping_mul(y32),
        Div if y32 != 0 => x32.wrapping_div(y32),
        Rem if y32 != 0 => x32.wrapping_rem(y32),
        Shl => x32.wrapping_shl(y32 as u32 & 31),
        Shr => x32.wrapping_shr(y32 as u32 & 31),
        UShr => ((x32 as u32) >> (y32 as u32 & 31)) as i32,
        _ => return false,
    };
    i64::from(java) != r
}

pub(super) fn binary(op: BinaryOp, a: Value, b: Value) -> R<Value> {
    use BinaryOp::*;
    let ov = || blocked(Span::default(), "overflow");
    Ok(match (a, b) {
        (Value::Int(x), Value::Int(y)) => match op {
            Add => match x.checked_add(y) {
                Some(v) => Value::Int(v),
                None => return ov(),
            },
            Sub => match x.checked_sub(y) {
                Some(v) => Value::Int(v),
                None => return ov(),
            },
            Mul => match x.checked_mul(y) {
                Some(v) => Value::Int(v),
                None => return ov(),
            },
            Div | Rem => {
                if y == 0 {
                    return blocked(Span::default(), "division by zero");
                }
                let r = if op == Div {
                    x.checked_div(y)
                } else {
                    x.checked_rem(y)
                };
                match r {
                    Some(v) => Value::Int(v),
                    None => return ov(),
                }
            }
            Lt => Value::Bool(x < y),
            Le => Value::Bool(x <= y),
            Gt => Value::Bool(x > y),
            Ge => Value::Bool(x >= y),
            Eq => Value::Bool(x == y),
            Ne => Value::Bool(x != y),
            BitAnd => Value::Int(x & y),
            BitOr => Value::Int(x | y),
            BitXor => Value::Int(x ^ y),
            Shl => Value::Int(x.wrapping_shl((y & 63) as u32)),
            Shr => Value::Int(x.wrapping_shr((y & 63) as u32)),
            UShr => Value::Int(((x as u64) >> ((y & 63) as u32)) as i64),
            And | Or => return bad(format!("ill-sorted {op:?}")),
        },
        (Value::Bool(x), Value::Bool(y)) => match op {
            And | BitAnd => Value::Bool(x && y),
            Or | BitOr => Value::Bool(x || y),
            Eq => Value::Bool(x == y),
            Ne | BitXor => Value::Bool(x != y),
            _ => return bad(format!("ill-sorted {op:?}")),
        },
        _ => match op {
            // Mixed sorts come from havocked mismatches; never equal.
            Eq => Value::Bool(false),
            Ne => Value::Bool(true),
            _ => return bad(format!("ill-sorted {op:?}")),
        },
    })
}
