//! Terms as readable infix text (`l == $1 && !(n < 3)`), for people: named predicates in
//! events, reports and the playground. Display only — never parsed back; SMT-LIB2 stays
//! the exchange format. Operators whose SMT meaning differs from Java's keep their SMT
//! names (`div`, `mod`: Euclidean, not truncating), so the text never claims something
//! the formula does not say.

use crate::term::{Op, Quantifier, Term, TermKind};
use std::fmt;

/// A term printed as infix text: `format!("{}", term.infix())`.
pub struct Infix<'a>(&'a Term);

impl Term {
    /// This term as readable infix text.
    pub fn infix(&self) -> Infix<'_> {
        Infix(self)
    }
}

/// Binding strengths, loosest first. Operands of `==` / `!=` bind at least like `+`: a
/// comparison inside an equality is parenthesised (`b == (n > 0)`), although Java would
/// not need it, because that is how people read it.
const QUANT: u8 = 0;
const ITE: u8 = 1;
const IMPLIES: u8 = 2;
const OR: u8 = 3;
const AND: u8 = 4;
const EQUALITY: u8 = 5;
const COMPARE: u8 = 6;
const ADD: u8 = 7;
const MUL: u8 = 8;
const UNARY: u8 = 9;
const ATOM: u8 = 10;
/// Operands of `==` and `!=`.
const OPERAND: u8 = ADD;

impl fmt::Display for Infix<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_term(f, self.0, QUANT)
    }
}

/// How tightly `t` binds at its top.
fn strength(t: &Term) -> u8 {
    match t.kind() {
        TermKind::Bool(_) | TermKind::Var(..) | TermKind::Uf(..) => ATOM,
        TermKind::Int(i) if *i < 0 => UNARY,
        TermKind::Int(_) => ATOM,
        TermKind::Quant(..) => QUANT,
        TermKind::App(op, args) => match op {
            Op::Not | Op::Neg => UNARY,
            Op::And => AND,
            Op::Or => OR,
            Op::Implies => IMPLIES,
            Op::Eq if args.len() > 2 => AND,
            Op::Eq | Op::Distinct => EQUALITY,
            Op::Lt | Op::Le | Op::Gt | Op::Ge => COMPARE,
            Op::Add | Op::Sub => ADD,
            Op::Mul | Op::Div | Op::Mod => MUL,
            Op::Select | Op::Store => ATOM,
            Op::Ite => ITE,
        },
    }
}

/// Writes `t`, in parentheses when it binds more loosely than `min`.
fn write_term(f: &mut fmt::Formatter<'_>, t: &Term, min: u8) -> fmt::Result {
    let parens = strength(t) < min;
    if parens {
        f.write_str("(")?;
    }
    write_bare(f, t)?;
    if parens {
        f.write_str(")")?;
    }
    Ok(())
}

/// Writes `args` separated by `sep`: the first at `first`, the rest at `rest`.
fn write_sep(
    f: &mut fmt::Formatter<'_>,
    args: &[Term],
    sep: &str,
    first: u8,
    rest: u8,
) -> fmt::Result {
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            f.write_str(sep)?;
        }
        write_term(f, a, if i == 0 { first } else { rest })?;
    }
    Ok(())
}

/// Writes `name(a, b, …)`.
fn write_call(f: &mut fmt::Formatter<'_>, name: &str, args: &[Term]) -> fmt::Result {
    write!(f, "{name}(")?;
    write_sep(f, args, ", ", QUANT, QUANT)?;
    f.write_str(")")
}

fn write_bare(f: &mut fmt::Formatter<'_>, t: &Term) -> fmt::Result {
    match t.kind() {
        TermKind::Bool(b) => write!(f, "{b}"),
        TermKind::Int(i) => write!(f, "{i}"),
        TermKind::Var(n, _) => f.write_str(n),
        TermKind::Uf(n, args, _) if args.is_empty() => f.write_str(n),
        TermKind::Uf(n, args, _) => write_call(f, n, args),
        TermKind::Quant(q, vars, body) => {
            f.write_str(match q {
                Quantifier::Forall => "forall ",
                Quantifier::Exists => "exists ",
            })?;
            for (i, (n, s)) in vars.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{n}: {s}")?;
            }
            f.write_str(". ")?;
            write_term(f, body, QUANT)
        }
        TermKind::App(op, args) => write_app(f, *op, args),
    }
}

fn write_app(f: &mut fmt::Formatter<'_>, op: Op, args: &[Term]) -> fmt::Result {
    match (op, args) {
        (Op::Not, [a]) => {
            f.write_str("!")?;
            write_term(f, a, UNARY)
        }
        (Op::Neg, [a]) => {
            f.write_str("-")?;
            write_term(f, a, UNARY)
        }
        (Op::And, _) if !args.is_empty() => write_sep(f, args, " && ", AND, AND),
        (Op::Or, _) if !args.is_empty() => write_sep(f, args, " || ", OR, OR),
        (Op::Implies, [a, b]) => {
            write_term(f, a, IMPLIES + 1)?;
            f.write_str(" ==> ")?;
            write_term(f, b, IMPLIES)
        }
        (Op::Eq, [a, b]) => {
            write_term(f, a, OPERAND)?;
            f.write_str(" == ")?;
            write_term(f, b, OPERAND)
        }
        // a == b == c means a == b && b == c.
        (Op::Eq, _) if args.len() > 2 => {
            for (i, pair) in args.windows(2).enumerate() {
                if i > 0 {
                    f.write_str(" && ")?;
                }
                write_term(f, &pair[0], OPERAND)?;
                f.write_str(" == ")?;
                write_term(f, &pair[1], OPERAND)?;
            }
            Ok(())
        }
        (Op::Distinct, [a, b]) => {
            write_term(f, a, OPERAND)?;
            f.write_str(" != ")?;
            write_term(f, b, OPERAND)
        }
        (Op::Lt | Op::Le | Op::Gt | Op::Ge, [a, b]) => {
            let sym = match op {
                Op::Lt => " < ",
                Op::Le => " <= ",
                Op::Gt => " > ",
                _ => " >= ",
            };
            write_term(f, a, COMPARE + 1)?;
            f.write_str(sym)?;
            write_term(f, b, COMPARE + 1)
        }
        (Op::Add, _) if !args.is_empty() => write_sep(f, args, " + ", ADD, ADD),
        (Op::Sub, _) if !args.is_empty() => write_sep(f, args, " - ", ADD, ADD + 1),
        (Op::Mul, _) if !args.is_empty() => write_sep(f, args, " * ", MUL, MUL),
        (Op::Div, [a, b]) => {
            write_term(f, a, MUL)?;
            f.write_str(" div ")?;
            write_term(f, b, MUL + 1)
        }
        (Op::Mod, [a, b]) => {
            write_term(f, a, MUL)?;
            f.write_str(" mod ")?;
            write_term(f, b, MUL + 1)
        }
        (Op::Select, [a, i]) => {
            write_term(f, a, ATOM)?;
            f.write_str("[")?;
            write_term(f, i, QUANT)?;
            f.write_str("]")
        }
        (Op::Store, [a, i, v]) => {
            write_term(f, a, ATOM)?;
            f.write_str("[")?;
            write_term(f, i, QUANT)?;
            f.write_str(" := ")?;
            write_term(f, v, QUANT)?;
            f.write_str("]")
        }
        (Op::Ite, [c, a, b]) => {
            write_term(f, c, ITE + 1)?;
            f.write_str(" ? ")?;
            write_term(f, a, ITE + 1)?;
            f.write_str(" : ")?;
            write_term(f, b, ITE)
        }
        // Any other arity: the operator as a function (never a wrong reading).
        _ => write_call(f, op.name(), args),
    }
}

#[cfg(test)]
mod tests {
    use crate::term::{Op, Sort, Term, TermKind};

    fn v(n: &str) -> Term {
        Term::var(n, Sort::Int)
    }

    fn app(op: Op, args: Vec<Term>) -> Term {
        Term::new(TermKind::App(op, args))
    }

    fn int(i: i128) -> Term {
        Term::new(TermKind::Int(i))
    }

    #[test]
    fn predicates_read_like_java() {
        let eq = app(Op::Eq, vec![v("l"), v("$1")]);
        assert_eq!(eq.infix().to_string(), "l == $1");
        let lt = app(Op::Lt, vec![v("n"), int(3)]);
        let not = app(Op::Not, vec![lt.clone()]);
        assert_eq!(not.infix().to_string(), "!(n < 3)");
        let and = app(Op::And, vec![eq.clone(), not]);
        assert_eq!(and.infix().to_string(), "l == $1 && !(n < 3)");
        let or = app(Op::Or, vec![and.clone(), lt.clone()]);
        assert_eq!(or.infix().to_string(), "l == $1 && !(n < 3) || n < 3");
        let and_of_or = app(Op::And, vec![or, eq.clone()]);
        assert_eq!(
            and_of_or.infix().to_string(),
            "(l == $1 && !(n < 3) || n < 3) && l == $1"
        );
    }

    #[test]
    fn arithmetic_keeps_its_grouping() {
        let sub = app(Op::Sub, vec![v("a"), app(Op::Sub, vec![v("b"), v("c")])]);
        assert_eq!(sub.infix().to_string(), "a - (b - c)");
        let sub2 = app(Op::Sub, vec![app(Op::Sub, vec![v("a"), v("b")]), v("c")]);
        assert_eq!(sub2.infix().to_string(), "a - b - c");
        let mul = app(Op::Mul, vec![app(Op::Add, vec![v("a"), int(1)]), int(-2)]);
        assert_eq!(mul.infix().to_string(), "(a + 1) * -2");
        let m = app(Op::Mod, vec![v("x"), int(2)]);
        assert_eq!(
            app(Op::Eq, vec![m, int(0)]).infix().to_string(),
            "x mod 2 == 0"
        );
        let arr = Term::var("next", Sort::array_of(Sort::Int));
        let sel = app(
            Op::Select,
            vec![arr.clone(), app(Op::Add, vec![v("p"), int(1)])],
        );
        assert_eq!(sel.infix().to_string(), "next[p + 1]");
        let st = app(Op::Store, vec![arr, v("p"), int(0)]);
        assert_eq!(st.infix().to_string(), "next[p := 0]");
    }

    #[test]
    fn conditionals_implications_and_odd_arities() {
        let c = app(Op::Gt, vec![v("x"), int(0)]);
        let ite = app(Op::Ite, vec![c.clone(), v("x"), app(Op::Neg, vec![v("x")])]);
        assert_eq!(
            app(Op::Eq, vec![v("y"), ite]).infix().to_string(),
            "y == (x > 0 ? x : -x)"
        );
        let imp = app(
            Op::Implies,
            vec![c.clone(), app(Op::Eq, vec![v("y"), v("x")])],
        );
        assert_eq!(imp.infix().to_string(), "x > 0 ==> y == x");
        let b = Term::var("b", Sort::Bool);
        let flag = app(Op::Eq, vec![b, app(Op::Gt, vec![v("n"), int(0)])]);
        assert_eq!(flag.infix().to_string(), "b == (n > 0)");
        let chain = app(Op::Eq, vec![v("a"), v("b"), v("c")]);
        assert_eq!(chain.infix().to_string(), "a == b && b == c");
        let d3 = app(Op::Distinct, vec![v("a"), v("b"), v("c")]);
        assert_eq!(d3.infix().to_string(), "distinct(a, b, c)");
        let q = Term::new(TermKind::Quant(
            crate::term::Quantifier::Forall,
            vec![("i".into(), Sort::Int)],
            c,
        ));
        assert_eq!(q.infix().to_string(), "forall i: Int. x > 0");
    }
}
