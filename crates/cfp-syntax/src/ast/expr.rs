//! Expressions: their kinds, operators and closures (lambdas, method references,
//! anonymous classes).

use super::*;

/// An expression with its location.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Expr {
    /// What expression.
    pub kind: ExprKind,
    /// Where.
    pub span: Span,
}

/// Expressions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum ExprKind {
    /// Integer literal (`int` or `long` with `L` suffix), decimal/hex/octal/binary,
    /// underscores allowed.
    Int {
        /// The value (out-of-range literals are diagnosed).
        value: i64,
        /// True for an `L`/`l` suffix.
        is_long: bool,
    },
    /// `1.5`, `2e3f` — an opaque number.
    Float(String),
    /// `true` / `false`
    Bool(bool),
    /// `null`
    Null,
    /// `"…"` with escapes decoded (an opaque value for the semantics).
    String(String),
    /// `'c'` — its code point.
    Char(u32),
    /// `*`: an arbitrary boolean or int (non-determinism).
    Nondet,
    /// `T.class` (`java.util.List.class`): the class object of `T`, an opaque non-null
    /// value; the type's name as written.
    ClassLiteral(String),
    /// A lambda `(x) -> …`, a method reference `e::m`, or an anonymous class
    /// `new T(args) { … }`: an object with code ([`Closure::code`]); what its code calls
    /// and assigns is also summarised ([`Closure::calls`], [`Closure::writes`]).
    Closure(Box<Closure>),
    /// A bare name: local, parameter, field, or class (for `C.m()`, `C.f`).
    Name(Ident),
    /// `this`
    This,
    /// `Outer.this` (`a.b.Outer.this`): the enclosing instance of class `Outer` (its
    /// simple name).
    OuterThis(String),
    /// `super` (only as the target of a field access or call)
    Super,
    /// `X.super` (only as the target of a call): with `X` an enclosing class (or the class
    /// itself), `X.this` seen as an instance of `X`'s superclass; with `X` a
    /// superinterface, `this` seen as an `X` (its default method). `X`'s simple name.
    QualifiedSuper(String),
    /// `e.f` (a qualified name `a.b.c` parses as nested field accesses)
    Field {
        /// The object (or class name).
        target: Box<Expr>,
        /// The field.
        name: Ident,
    },
    /// `m(a)`, `e.m(a)`, `C.m(a)`, `this(a)`, `super(a)`; generic method arguments are
    /// dropped.
    Call {
        /// Receiver or class; `None` for an unqualified call.
        target: Option<Box<Expr>>,
        /// Method name (`this`/`super` for explicit constructor calls).
        name: Ident,
        /// Arguments.
        args: Vec<Expr>,
    },
    /// `new C(args)` (with a class body, `new C(args) { … }` is an anonymous class:
    /// [`ExprKind::Closure`]).
    New {
        /// The instantiated class.
        class: TypeRef,
        /// Constructor arguments.
        args: Vec<Expr>,
    },
    /// `new T[n][m][]` or `new T[] {…}`
    NewArray {
        /// Element type of the outermost array's innermost level (e.g. `int` in `int[][]`).
        elem: TypeRef,
        /// Dimension expressions written (`[n]`).
        dims: Vec<Expr>,
        /// Total number of dimensions, including empty `[]`.
        rank: u32,
        /// Initialiser `{…}`, if given.
        init: Option<Vec<Expr>>,
    },
    /// `{a, b}` in an initialiser position.
    ArrayLiteral(Vec<Expr>),
    /// `a[i]`
    Index {
        /// The array.
        array: Box<Expr>,
        /// The index.
        index: Box<Expr>,
    },
    /// `-e`, `+e`, `!e`, `~e`
    Unary {
        /// Operator.
        op: UnaryOp,
        /// Operand.
        operand: Box<Expr>,
    },
    /// `++x`, `x--`, …
    IncDec {
        /// Which of the four forms.
        op: IncDecOp,
        /// The variable, field or element changed.
        target: Box<Expr>,
    },
    /// `a op b` (including `&&`/`||`, which short-circuit).
    Binary {
        /// Operator.
        op: BinaryOp,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// `x = e` or `x op= e`
    Assign {
        /// `None` for `=`, `Some(op)` for `op=`.
        op: Option<BinaryOp>,
        /// The variable, field or element assigned.
        target: Box<Expr>,
        /// The assigned value.
        value: Box<Expr>,
    },
    /// `c ? a : b`
    Conditional {
        /// Condition.
        cond: Box<Expr>,
        /// Value when true.
        then_expr: Box<Expr>,
        /// Value when false.
        else_expr: Box<Expr>,
    },
    /// `(T) e` — ignored by the semantics (except numeric narrowing, also ignored).
    Cast {
        /// Target type.
        ty: TypeRef,
        /// Operand.
        operand: Box<Expr>,
    },
    /// `switch (e) { case L -> v; … }` as an expression: its value is the one its rule
    /// or group yields ([`StmtKind::Yield`]). Without a `default`, one that throws
    /// (`IncompatibleClassChangeError`, as javac compiles it) is added.
    Switch(Box<SwitchExpr>),
    /// `e instanceof T` — an arbitrary boolean for the semantics unless decidable.
    InstanceOf {
        /// Operand.
        operand: Box<Expr>,
        /// Tested type.
        ty: TypeRef,
        /// The pattern variable of `e instanceof T t` (boxed: this node is in every
        /// expression's recursive frame).
        binding: Option<Box<Ident>>,
    },
    /// An expression that could not be parsed (a diagnostic was reported).
    Error,
}

impl Expr {
    /// The sub-expressions it evaluates itself, in Java's order: operands, targets,
    /// arguments (a closure's captured arguments, not its body); none for leaves.
    pub fn children(&self) -> Vec<&Expr> {
        match &self.kind {
            ExprKind::Int { .. }
            | ExprKind::Float(_)
            | ExprKind::Bool(_)
            | ExprKind::Null
            | ExprKind::String(_)
            | ExprKind::Char(_)
            | ExprKind::Nondet
            | ExprKind::ClassLiteral(_)
            | ExprKind::Name(_)
            | ExprKind::This
            | ExprKind::OuterThis(_)
            | ExprKind::Super
            | ExprKind::QualifiedSuper(_)
            | ExprKind::Error => Vec::new(),
            ExprKind::Closure(c) => c.args.iter().collect(),
            ExprKind::Switch(sw) => vec![&sw.scrutinee],
            ExprKind::Field { target, .. } => vec![target],
            ExprKind::Call { target, args, .. } => {
                target.iter().map(|t| &**t).chain(args).collect()
            }
            ExprKind::New { args, .. } | ExprKind::ArrayLiteral(args) => args.iter().collect(),
            ExprKind::NewArray { dims, init, .. } => {
                dims.iter().chain(init.iter().flatten()).collect()
            }
            ExprKind::Index { array, index } => vec![array, index],
            ExprKind::Unary { operand, .. }
            | ExprKind::Cast { operand, .. }
            | ExprKind::InstanceOf { operand, .. } => vec![operand],
            ExprKind::IncDec { target, .. } => vec![target],
            ExprKind::Binary { lhs, rhs, .. } => vec![lhs, rhs],
            ExprKind::Assign { target, value, .. } => vec![target, value],
            ExprKind::Conditional {
                cond,
                then_expr,
                else_expr,
            } => vec![cond, then_expr, else_expr],
        }
    }
}

/// Prefix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum UnaryOp {
    /// `-`
    Neg,
    /// `+`
    Plus,
    /// `!`
    Not,
    /// `~`
    BitNot,
}

/// Increment and decrement forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum IncDecOp {
    /// `++x`
    PreInc,
    /// `--x`
    PreDec,
    /// `x++`
    PostInc,
    /// `x--`
    PostDec,
}

/// Binary operators, in Java's meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum BinaryOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `&&` (short-circuit)
    And,
    /// `||` (short-circuit)
    Or,
    /// `&` (boolean: both sides evaluated; int: bitwise)
    BitAnd,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `>>>`
    UShr,
}

impl BinaryOp {
    /// The operator as written in Java.
    pub fn as_str(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            And => "&&",
            Or => "||",
            BitAnd => "&",
            BitOr => "|",
            BitXor => "^",
            Shl => "<<",
            Shr => ">>",
            UShr => ">>>",
        }
    }
}

impl UnaryOp {
    /// The operator as written in Java.
    pub fn as_str(self) -> &'static str {
        match self {
            UnaryOp::Neg => "-",
            UnaryOp::Plus => "+",
            UnaryOp::Not => "!",
            UnaryOp::BitNot => "~",
        }
    }
}

/// Which kind of [`ExprKind::Closure`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ClosureKind {
    /// `(x, y) -> body`
    Lambda,
    /// `e::m`, `T::new`
    MethodRef,
    /// `new T(args) { members }`
    Anonymous,
}

/// A lambda, method reference or anonymous class (see [`ExprKind::Closure`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Closure {
    /// Which kind (always the kind of [`Closure::code`]).
    pub kind: ClosureKind,
    /// The named type of an anonymous class (`T` of `new T() { … }`; an enum's own type
    /// for the body of one of its constants).
    pub ty: Option<TypeRef>,
    /// The arguments of an anonymous class's constructor call (evaluated where written).
    pub args: Vec<Expr>,
    /// The names its code calls (`m` of `m(…)`, `x.m(…)`, `new m(…)`; of a method
    /// reference, the method, or the class for `T::new`), found by a scan of its
    /// tokens.
    pub calls: Vec<Ident>,
    /// The names its code assigns or increments (`x = …`, `this.x += …`, `x++`), found by
    /// a scan of its tokens.
    pub writes: Vec<Ident>,
    /// The code itself.
    pub code: ClosureCode,
}

/// The code of a [`Closure`], one variant per [`ClosureKind`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum ClosureCode {
    /// `(params) -> body`
    Lambda {
        /// The parameters in order (`x ->` has one).
        params: Vec<LambdaParam>,
        /// The body.
        body: LambdaBody,
    },
    /// `target::name` (`name` is `new` for a constructor or array creation reference).
    MethodRef {
        /// What is left of `::`.
        target: MethodRefTarget,
        /// The method, or `new` (explicit type arguments `::<T>m` are dropped).
        name: Ident,
    },
    /// The body `{ members }` of `new T(args) { members }` or of an enum constant,
    /// parsed as a class body (a constructor there is reported as an error).
    Anonymous {
        /// Members in source order.
        members: Vec<Member>,
    },
}

/// A lambda parameter: `x`, `int x`, `var x`, `final String... xs`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LambdaParam {
    /// The declared type; `None` when only the name is written (`x ->`, `(x, y) ->`);
    /// `var x` is [`TypeKind::Inferred`] (also implicitly typed). `T... xs` is `T[]`.
    pub ty: Option<TypeRef>,
    /// The parameter's name.
    pub name: Ident,
    /// True for a variable-arity parameter `T... xs`.
    pub is_varargs: bool,
    /// Whole parameter.
    pub span: Span,
}

/// The body of a lambda.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum LambdaBody {
    /// `-> e` (an [`ExprKind::Error`] when missing; a diagnostic was reported).
    Expr(Box<Expr>),
    /// `-> { … }`
    Block(Block),
}

/// The left side of a method reference `target::m`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum MethodRefTarget {
    /// An expression (`f()::m`, `this::m`, `a[i]::m`), or a possibly qualified name that
    /// may denote a variable or a type (`x::m`, `String::valueOf`, `Outer.Inner::m`, as
    /// [`ExprKind::Name`]/[`ExprKind::Field`] chains): which one is for the name
    /// resolution to decide.
    Expr(Box<Expr>),
    /// Syntactically a type: with generic arguments (`List<String>::size`), an array
    /// type (`int[]::new`, `String[]::clone`) or a primitive type.
    Type(TypeRef),
    /// `super::m`: the superclass's method on `this`.
    Super,
}
