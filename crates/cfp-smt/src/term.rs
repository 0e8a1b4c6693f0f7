//! SMT terms: a small, immutable, cheaply clonable term language (ints, booleans, arrays
//! `Int → Int`/`Int → Bool`, uninterpreted functions, quantifiers for reading Horn
//! solutions), with smart constructors that fold constants and flatten connectives.
//!
//! Terms are ordered and hashable, so they can be deduplicated and used as map keys
//! deterministically; their `Display` is SMT-LIB2.

use serde::Serialize;
use std::fmt;
use std::sync::Arc;

/// Sorts.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Sort {
    /// `Bool`
    Bool,
    /// `Int`
    Int,
    /// `(Array index element)`
    Array(Box<Sort>, Box<Sort>),
}

impl Sort {
    /// `(Array Int elem)`.
    pub fn array_of(elem: Sort) -> Sort {
        Sort::Array(Box::new(Sort::Int), Box::new(elem))
    }
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Bool => f.write_str("Bool"),
            Sort::Int => f.write_str("Int"),
            Sort::Array(i, e) => write!(f, "(Array {i} {e})"),
        }
    }
}

/// Built-in operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Op {
    /// `not`
    Not,
    /// `and` (n-ary)
    And,
    /// `or` (n-ary)
    Or,
    /// `=>`
    Implies,
    /// `=` (any sort)
    Eq,
    /// `distinct`
    Distinct,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `+` (n-ary)
    Add,
    /// `-` (binary)
    Sub,
    /// unary `-`
    Neg,
    /// `*`
    Mul,
    /// `div` (SMT-LIB integer division: floor for positive divisors)
    Div,
    /// `mod`
    Mod,
    /// `select`
    Select,
    /// `store`
    Store,
    /// `ite`
    Ite,
}

impl Op {
    /// The SMT-LIB2 name.
    pub fn name(self) -> &'static str {
        match self {
            Op::Not => "not",
            Op::And => "and",
            Op::Or => "or",
            Op::Implies => "=>",
            Op::Eq => "=",
            Op::Distinct => "distinct",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Add => "+",
            Op::Sub => "-",
            Op::Neg => "-",
            Op::Mul => "*",
            Op::Div => "div",
            Op::Mod => "mod",
            Op::Select => "select",
            Op::Store => "store",
            Op::Ite => "ite",
        }
    }
}

/// Quantifiers (appear in solver answers, e.g. Horn solutions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Quantifier {
    /// `forall`
    Forall,
    /// `exists`
    Exists,
}

/// The shape of a term.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum TermKind {
    /// `true` / `false`
    Bool(bool),
    /// An integer literal.
    Int(i128),
    /// A constant (free variable) with its sort.
    Var(String, Sort),
    /// A built-in operator application.
    App(Op, Vec<Term>),
    /// An uninterpreted function (or predicate) application with its result sort.
    Uf(String, Vec<Term>, Sort),
    /// A quantified formula.
    Quant(Quantifier, Vec<(String, Sort)>, Term),
}

/// An immutable term; clones share structure. Serialises as its SMT-LIB2 text.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Term(Arc<TermKind>);

impl Serialize for Term {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl fmt::Debug for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Term {
    /// Wrap a kind (no simplification).
    pub fn new(kind: TermKind) -> Term {
        Term(Arc::new(kind))
    }

    /// The shape of this term.
    pub fn kind(&self) -> &TermKind {
        &self.0
    }

    /// `true`
    pub fn tt() -> Term {
        Term::new(TermKind::Bool(true))
    }

    /// `false`
    pub fn ff() -> Term {
        Term::new(TermKind::Bool(false))
    }

    /// A boolean literal.
    pub fn bool(b: bool) -> Term {
        Term::new(TermKind::Bool(b))
    }

    /// An integer literal.
    pub fn int(i: i128) -> Term {
        Term::new(TermKind::Int(i))
    }

    /// A constant of sort `sort`.
    pub fn var(name: impl Into<String>, sort: Sort) -> Term {
        Term::new(TermKind::Var(name.into(), sort))
    }

    /// The literal value, if this is `true`/`false`.
    pub fn as_bool(&self) -> Option<bool> {
        match self.kind() {
            TermKind::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The literal value, if this is an integer literal.
    pub fn as_int(&self) -> Option<i128> {
        match self.kind() {
            TermKind::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// `(not a)`, folding literals and double negation.
    pub fn negate(a: Term) -> Term {
        match a.kind() {
            TermKind::Bool(b) => Term::bool(!b),
            TermKind::App(Op::Not, args) if args.len() == 1 => args[0].clone(),
            _ => Term::new(TermKind::App(Op::Not, vec![a])),
        }
    }

    /// n-ary `and`: flattens, drops `true`, folds to `false`; `true` when empty.
    pub fn and(args: impl IntoIterator<Item = Term>) -> Term {
        Term::junction(Op::And, args)
    }

    /// n-ary `or`: flattens, drops `false`, folds to `true`; `false` when empty.
    pub fn or(args: impl IntoIterator<Item = Term>) -> Term {
        Term::junction(Op::Or, args)
    }

    fn junction(op: Op, args: impl IntoIterator<Item = Term>) -> Term {
        /// Past this many conjuncts, duplicates are found by hashing, not by scanning.
        const SCAN: usize = 16;
        let unit = op == Op::And; // `true` is the unit of `and`, `false` of `or`
        let mut out: Vec<Term> = Vec::new();
        let mut seen: Option<std::collections::HashSet<Term>> = None;
        let mut push = |out: &mut Vec<Term>, x: Term| match &mut seen {
            Some(set) => {
                if set.insert(x.clone()) {
                    out.push(x);
                }
            }
            None => {
                if !out.contains(&x) {
                    out.push(x);
                    if out.len() > SCAN {
                        seen = Some(out.iter().cloned().collect());
                    }
                }
            }
        };
        for a in args {
            match a.kind() {
                TermKind::Bool(b) if *b == unit => {}
                TermKind::Bool(_) => return Term::bool(!unit),
                TermKind::App(o, inner) if *o == op => {
                    for x in inner {
                        push(&mut out, x.clone());
                    }
                }
                _ => push(&mut out, a),
            }
        }
        match out.len() {
            0 => Term::bool(unit),
            1 => out.pop().unwrap_or_else(|| Term::bool(unit)),
            _ => Term::new(TermKind::App(op, out)),
        }
    }

    /// `(=> a b)`
    pub fn implies(a: Term, b: Term) -> Term {
        match (a.as_bool(), b.as_bool()) {
            (Some(false), _) | (_, Some(true)) => Term::tt(),
            (Some(true), _) => b,
            (_, Some(false)) => Term::negate(a),
            _ => Term::new(TermKind::App(Op::Implies, vec![a, b])),
        }
    }

    /// `(= a b)`, folding syntactically equal sides and literals.
    pub fn eq(a: Term, b: Term) -> Term {
        if a == b {
            return Term::tt();
        }
        match (a.kind(), b.kind()) {
            (TermKind::Int(x), TermKind::Int(y)) => Term::bool(x == y),
            (TermKind::Bool(x), TermKind::Bool(y)) => Term::bool(x == y),
            _ => Term::new(TermKind::App(Op::Eq, vec![a, b])),
        }
    }

    /// A binary or n-ary built-in application without simplification.
    pub fn app(op: Op, args: Vec<Term>) -> Term {
        Term::new(TermKind::App(op, args))
    }

    /// An uninterpreted function application.
    pub fn uf(name: impl Into<String>, args: Vec<Term>, sort: Sort) -> Term {
        Term::new(TermKind::Uf(name.into(), args, sort))
    }

    /// `(ite c a b)`, folding a literal condition.
    pub fn ite(c: Term, a: Term, b: Term) -> Term {
        match c.as_bool() {
            Some(true) => a,
            Some(false) => b,
            None if a == b => a,
            None => Term::new(TermKind::App(Op::Ite, vec![c, a, b])),
        }
    }

    /// `(select arr idx)`
    pub fn select(arr: Term, idx: Term) -> Term {
        Term::new(TermKind::App(Op::Select, vec![arr, idx]))
    }

    /// `(store arr idx val)`
    pub fn store(arr: Term, idx: Term, val: Term) -> Term {
        Term::new(TermKind::App(Op::Store, vec![arr, idx, val]))
    }

    /// The sort of this term, read off its shape (no type checking: an ill-sorted
    /// term gets the sort its operator would produce).
    pub fn sort(&self) -> Sort {
        let mut t = self;
        loop {
            match t.kind() {
                TermKind::Bool(_) | TermKind::Quant(..) => return Sort::Bool,
                TermKind::Int(_) => return Sort::Int,
                TermKind::Var(_, s) | TermKind::Uf(_, _, s) => return s.clone(),
                TermKind::App(op, args) => match op {
                    Op::Not
                    | Op::And
                    | Op::Or
                    | Op::Implies
                    | Op::Eq
                    | Op::Distinct
                    | Op::Lt
                    | Op::Le
                    | Op::Gt
                    | Op::Ge => return Sort::Bool,
                    Op::Add | Op::Sub | Op::Neg | Op::Mul | Op::Div | Op::Mod => return Sort::Int,
                    Op::Select => match args.first() {
                        Some(a) => match a.sort() {
                            Sort::Array(_, e) => return *e,
                            _ => return Sort::Int,
                        },
                        None => return Sort::Int,
                    },
                    Op::Store => match args.first() {
                        Some(a) => t = a,
                        None => return Sort::array_of(Sort::Int),
                    },
                    Op::Ite => match args.get(1) {
                        Some(a) => t = a,
                        None => return Sort::Bool,
                    },
                },
            }
        }
    }

    /// Free constants (name, sort) in first-occurrence order, without duplicates.
    pub fn free_vars(&self) -> Vec<(String, Sort)> {
        let mut out: Vec<(String, Sort)> = Vec::new();
        let mut stack: Vec<(&Term, Vec<&str>)> = vec![(self, Vec::new())];
        while let Some((t, bound)) = stack.pop() {
            match t.kind() {
                TermKind::Var(n, s) => {
                    if !bound.contains(&n.as_str()) && !out.iter().any(|(m, _)| m == n) {
                        out.push((n.clone(), s.clone()));
                    }
                }
                TermKind::App(_, args) | TermKind::Uf(_, args, _) => {
                    for a in args.iter().rev() {
                        stack.push((a, bound.clone()));
                    }
                }
                TermKind::Quant(_, vars, body) => {
                    let mut b = bound.clone();
                    b.extend(vars.iter().map(|(n, _)| n.as_str()));
                    stack.push((body, b));
                }
                TermKind::Bool(_) | TermKind::Int(_) => {}
            }
        }
        out
    }

    /// Replace free constants by terms (`map` gives the replacement of a name, if any).
    /// Bound variables of quantifiers are never replaced.
    pub fn substitute(&self, map: &dyn Fn(&str) -> Option<Term>) -> Term {
        self.subst_bound(map, &[])
    }

    fn subst_bound(&self, map: &dyn Fn(&str) -> Option<Term>, bound: &[&str]) -> Term {
        match self.kind() {
            TermKind::Var(n, _) if !bound.contains(&n.as_str()) => {
                map(n).unwrap_or_else(|| self.clone())
            }
            TermKind::Var(..) | TermKind::Bool(_) | TermKind::Int(_) => self.clone(),
            TermKind::App(op, args) => Term::new(TermKind::App(
                *op,
                args.iter().map(|a| a.subst_bound(map, bound)).collect(),
            )),
            TermKind::Uf(f, args, s) => Term::new(TermKind::Uf(
                f.clone(),
                args.iter().map(|a| a.subst_bound(map, bound)).collect(),
                s.clone(),
            )),
            TermKind::Quant(q, vars, body) => {
                let mut b: Vec<&str> = bound.to_vec();
                b.extend(vars.iter().map(|(n, _)| n.as_str()));
                Term::new(TermKind::Quant(*q, vars.clone(), body.subst_bound(map, &b)))
            }
        }
    }
}

/// The reserved words of SMT-LIB2 that are simple symbols by their characters (a Java
/// variable may be called `as`). Quoting does not make them symbols for every solver
/// (`|as|` is rejected), so such a name is written with a `!` appended, which no Java
/// identifier has; [`unescape_symbol`] takes it off again when an answer is read.
const RESERVED: &[&str] = &[
    "!",
    "_",
    "as",
    "BINARY",
    "DECIMAL",
    "exists",
    "forall",
    "HEXADECIMAL",
    "let",
    "match",
    "NUMERAL",
    "par",
    "STRING",
];

/// Write a name as an SMT-LIB2 symbol: as is when it is a simple symbol, `|…|` when it is
/// not, with a `!` appended when it is a reserved word.
pub fn quote_symbol(name: &str) -> String {
    if RESERVED.contains(&name) {
        return format!("{name}!");
    }
    let simple = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c));
    if simple {
        name.to_string()
    } else {
        format!("|{}|", name.replace(['|', '\\'], "_"))
    }
}

/// True for a reserved word of SMT-LIB2 (`as`, `_`, `let`, …).
pub fn is_reserved(word: &str) -> bool {
    RESERVED.contains(&word)
}

/// The name a symbol read from the solver stands for: the inverse of [`quote_symbol`]
/// for reserved words (`as!` is the name `as`).
pub fn unescape_symbol(symbol: String) -> String {
    match symbol.strip_suffix('!') {
        Some(stem) if RESERVED.contains(&stem) => stem.to_owned(),
        _ => symbol,
    }
}

/// SMT-LIB2 concrete syntax.
impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            TermKind::Bool(b) => write!(f, "{b}"),
            TermKind::Int(i) if *i < 0 => write!(f, "(- {})", i.unsigned_abs()),
            TermKind::Int(i) => write!(f, "{i}"),
            TermKind::Var(n, _) => f.write_str(&quote_symbol(n)),
            TermKind::App(op, args) => {
                write!(f, "({}", op.name())?;
                for a in args {
                    write!(f, " {a}")?;
                }
                f.write_str(")")
            }
            TermKind::Uf(name, args, _) if args.is_empty() => f.write_str(&quote_symbol(name)),
            TermKind::Uf(name, args, _) => {
                write!(f, "({}", quote_symbol(name))?;
                for a in args {
                    write!(f, " {a}")?;
                }
                f.write_str(")")
            }
            TermKind::Quant(q, vars, body) => {
                let q = match q {
                    Quantifier::Forall => "forall",
                    Quantifier::Exists => "exists",
                };
                write!(f, "({q} (")?;
                for (i, (n, s)) in vars.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "({} {s})", quote_symbol(n))?;
                }
                write!(f, ") {body})")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smart_constructors_fold_and_print() {
        let x = Term::var("x", Sort::Int);
        let p = Term::var("$1", Sort::Int);
        let e = Term::eq(x.clone(), p.clone());
        assert_eq!(e.to_string(), "(= x $1)");
        assert_eq!(
            Term::and([Term::tt(), e.clone(), Term::and([e.clone()])]),
            e
        );
        assert_eq!(Term::or([e.clone(), Term::tt()]), Term::tt());
        assert_eq!(Term::negate(Term::negate(e.clone())), e);
        assert_eq!(Term::int(-3).to_string(), "(- 3)");
        assert_eq!(quote_symbol("a b"), "|a b|");
        assert_eq!(quote_symbol("l1@2"), "l1@2");
        assert_eq!(quote_symbol("as"), "as!");
        assert_eq!(unescape_symbol("as!".into()), "as");
        assert_eq!(unescape_symbol("x!".into()), "x!");
        assert_eq!(quote_symbol("match"), "match!");
        assert_eq!(quote_symbol("as@1"), "as@1");
        let arr = Term::var("Lock.f", Sort::array_of(Sort::Int));
        let t = Term::store(arr, x.clone(), Term::int(0));
        assert_eq!(t.to_string(), "(store Lock.f x 0)");
        assert_eq!(
            t.free_vars(),
            vec![
                ("Lock.f".to_string(), Sort::array_of(Sort::Int)),
                ("x".to_string(), Sort::Int)
            ]
        );
        let renamed = e.substitute(&|n| (n == "x").then(|| Term::var("x@1", Sort::Int)));
        assert_eq!(renamed.to_string(), "(= x@1 $1)");
    }
}
