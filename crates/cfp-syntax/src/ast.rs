//! Abstract syntax tree of the program language: the Java subset of ARCHITECTURE.md.
//!
//! Every node carries its [`Span`]. The tree is produced by [`crate::parse_program`],
//! which never fails: syntax errors become diagnostics and the tree keeps every part it
//! could recover (an unparsable expression becomes [`ExprKind::Error`], an unparsable
//! statement [`StmtKind::Error`]).

use crate::span::Span;
use serde::Serialize;

mod expr;

pub use expr::*;

/// An identifier with its location.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ident {
    /// The name as written.
    pub name: String,
    /// Where it was written.
    pub span: Span,
}

/// A whole source file (or the classes of several, merged by
/// [`crate::sources::parse_sources`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CompilationUnit {
    /// `package a.b;` as written (`None` for the default package or a merged unit).
    pub package: Option<String>,
    /// The imports as written (`java.util.List`, `a.b.*`, `static a.B.m`).
    pub imports: Vec<String>,
    /// Top-level classes and interfaces, in source order.
    pub classes: Vec<ClassDecl>,
    /// The whole file.
    pub span: Span,
    /// How many lambdas, method references, anonymous and local classes it has (none:
    /// nothing to desugar).
    pub closures: usize,
    /// The errors about constructs the checker does not support (`unsupported`), also
    /// among the parser's diagnostics. A check defers them to the lowering, which
    /// reports each as an error where the check reaches it and as a warning elsewhere.
    #[serde(skip)]
    pub unsupported: Vec<crate::diagnostic::Diagnostic>,
}

/// Modifiers that matter to the semantics; the rest (annotations, `protected`,
/// `synchronized`, …) are accepted and ignored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Modifiers {
    /// `static`
    pub is_static: bool,
    /// `abstract` (or a method without body in an interface)
    pub is_abstract: bool,
    /// `public` (the `public-methods` harness calls these)
    pub is_public: bool,
    /// `private`
    pub is_private: bool,
    /// `final`
    pub is_final: bool,
    /// `native`: a method without body whose code is outside the program (not abstract).
    pub is_native: bool,
    /// `default`: an interface method with a body.
    pub is_default: bool,
    /// `@Override`: the method overrides (or implements) one of a supertype.
    pub is_override: bool,
}

/// `class C extends B implements I, J { … }` or `interface I { … }`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClassDecl {
    /// Class modifiers.
    pub modifiers: Modifiers,
    /// True for `interface`.
    pub is_interface: bool,
    /// Class name.
    pub name: Ident,
    /// The names of its type parameters (`T`, `U` of `class C<T, U extends B>`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub type_params: Vec<String>,
    /// The first bound of each bounded type parameter (`("U", B)`), as written.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub type_bounds: Vec<(String, TypeRef)>,
    /// Superclass (`extends`); for an interface, the first extended interface is here
    /// and the others in `implements`.
    pub extends: Option<TypeRef>,
    /// Implemented interfaces.
    pub implements: Vec<TypeRef>,
    /// Members in source order.
    pub members: Vec<Member>,
    /// From the first modifier to the closing brace.
    pub span: Span,
}

/// A class member.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Member {
    /// `int x = 1, y;`
    Field(FieldDecl),
    /// A method with or without body.
    Method(MethodDecl),
    /// `C(params) { … }`
    Constructor(ConstructorDecl),
    /// `static { … }` or `{ … }` (instance initialiser).
    Initializer(InitializerDecl),
    /// A nested class (`static class Inner { … }`); treated as a top-level class.
    Class(ClassDecl),
}

/// A field declaration; one declaration may introduce several variables.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldDecl {
    /// Field modifiers (`static` matters).
    pub modifiers: Modifiers,
    /// Declared type (before any per-variable `[]`).
    pub ty: TypeRef,
    /// The declared variables.
    pub declarators: Vec<VarDeclarator>,
    /// Whole declaration including `;`.
    pub span: Span,
}

/// `name [= init]` in a field or local declaration; `int a[] = …` folds the extra
/// dimensions into `ty`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VarDeclarator {
    /// Variable name.
    pub name: Ident,
    /// The variable's full type (the declaration's type plus `[]` written after the name).
    pub ty: TypeRef,
    /// Initialiser, if any (`{1, 2}` array initialisers are [`ExprKind::ArrayLiteral`]).
    pub init: Option<Expr>,
    /// From the name to the end of the initialiser.
    pub span: Span,
}

/// A method declaration.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MethodDecl {
    /// Method modifiers.
    pub modifiers: Modifiers,
    /// The names of its type parameters (`T` of `<T> T first(List<T> xs)`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub type_params: Vec<String>,
    /// The first bound of each bounded type parameter (`("T", B)` of `<T extends B>`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub type_bounds: Vec<(String, TypeRef)>,
    /// Return type (`void` is [`TypeKind::Void`]).
    pub ret: TypeRef,
    /// Method name.
    pub name: Ident,
    /// Formal parameters.
    pub params: Vec<Param>,
    /// The exception types of its `throws` clause, as written (empty without one).
    pub throws: Vec<TypeRef>,
    /// Body; `None` for abstract/interface methods and for `native` ones
    /// ([`Modifiers::is_native`] tells them apart).
    pub body: Option<Block>,
    /// Whole declaration.
    pub span: Span,
}

/// A constructor declaration.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConstructorDecl {
    /// Constructor modifiers.
    pub modifiers: Modifiers,
    /// The class name as written.
    pub name: Ident,
    /// Formal parameters.
    pub params: Vec<Param>,
    /// The exception types of its `throws` clause, as written (empty without one).
    pub throws: Vec<TypeRef>,
    /// Body. A leading `this(…)`/`super(…)` call is an ordinary
    /// [`ExprKind::Call`] statement whose name is `this` or `super`.
    pub body: Block,
    /// Whole declaration.
    pub span: Span,
}

/// `static { … }` or `{ … }` inside a class.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InitializerDecl {
    /// True for `static { … }`.
    pub is_static: bool,
    /// The block.
    pub body: Block,
    /// Whole initialiser.
    pub span: Span,
}

/// A formal parameter (`final` and annotations ignored; a variable-arity parameter
/// `T... xs` has type `T[]` and [`Param::is_varargs`] set).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Param {
    /// Parameter type (`T[]` for `T...`).
    pub ty: TypeRef,
    /// Parameter name.
    pub name: Ident,
    /// True for a variable-arity parameter `T...` (the last one of its method).
    pub is_varargs: bool,
    /// Whole parameter.
    pub span: Span,
}

/// A type as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TypeRef {
    /// What type.
    pub kind: TypeKind,
    /// Where it was written.
    pub span: Span,
}

/// The types of the language. Generic arguments are parsed and kept but carry no
/// meaning; `char`, `byte`, `short` are integers; `float`/`double` are opaque numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum TypeKind {
    /// `void` (return types only)
    Void,
    /// `int`
    Int,
    /// `long`
    Long,
    /// `short`
    Short,
    /// `byte`
    Byte,
    /// `char`
    Char,
    /// `boolean`
    Boolean,
    /// `float`
    Float,
    /// `double`
    Double,
    /// A class or interface name, possibly qualified (`java.util.Random` keeps only the
    /// last segment in `name`; `qualifier` holds the rest) with generic arguments.
    Named {
        /// Simple name, e.g. `Random`.
        name: String,
        /// Qualifying segments, e.g. `["java", "util"]`; empty when unqualified.
        qualifier: Vec<String>,
        /// Generic arguments (ignored by the semantics; `?` wildcards become `Object`).
        args: Vec<TypeRef>,
    },
    /// `T[]`
    Array(Box<TypeRef>),
    /// `var` in a local declaration: the type is the initialiser's.
    Inferred,
}

/// A `{ … }` block.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Block {
    /// Statements in order.
    pub stmts: Vec<Stmt>,
    /// From `{` to `}`.
    pub span: Span,
}

/// A statement with its location.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stmt {
    /// What statement.
    pub kind: StmtKind,
    /// Where, including the terminating `;`.
    pub span: Span,
}

/// Statements.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum StmtKind {
    /// `{ … }`
    Block(Block),
    /// `T a = 1, b;`
    LocalVar {
        /// The declaration's type.
        ty: TypeRef,
        /// The declared variables.
        declarators: Vec<VarDeclarator>,
    },
    /// `e;`
    Expr(Expr),
    /// `if (c) s [else s]`
    If {
        /// Condition.
        cond: Expr,
        /// Then branch.
        then_branch: Box<Stmt>,
        /// Else branch (an `else if` is an `If` statement here).
        else_branch: Option<Box<Stmt>>,
    },
    /// `while (c) s`
    While {
        /// Condition.
        cond: Expr,
        /// Body.
        body: Box<Stmt>,
    },
    /// `do s while (c);`
    DoWhile {
        /// Body.
        body: Box<Stmt>,
        /// Condition.
        cond: Expr,
    },
    /// `for (init; cond; update) s`
    For {
        /// Init: local declarations or expression statements.
        init: Vec<Stmt>,
        /// Condition; `None` means `true`.
        cond: Option<Expr>,
        /// Update expressions.
        update: Vec<Expr>,
        /// Body.
        body: Box<Stmt>,
    },
    /// `for (T x : e) s` — iterates an unknown number of times over unknown elements.
    ForEach {
        /// Element type.
        ty: TypeRef,
        /// Loop variable.
        name: Ident,
        /// The iterated expression.
        iterable: Expr,
        /// Body.
        body: Box<Stmt>,
    },
    /// `break [label];`
    Break(Option<Ident>),
    /// `continue [label];`
    Continue(Option<Ident>),
    /// `return [e];`
    Return(Option<Expr>),
    /// `throw e;` — exceptions are not modelled (see the lowering for what it means).
    Throw(Expr),
    /// `synchronized (e) { … }` — the monitor is not part of any protocol: `e` is
    /// evaluated, then the block runs.
    Synchronized {
        /// The monitor expression.
        lock: Expr,
        /// The block.
        body: Block,
    },
    /// `assert c [: m];` — assertions may be enabled or not: when enabled and `c` is
    /// false, the execution ends (an `AssertionError`).
    Assert {
        /// The condition.
        cond: Expr,
        /// The message, evaluated only when the assertion fails (boxed: statements stay
        /// small, and the parser's recursion with them).
        message: Option<Box<Expr>>,
    },
    /// `try { } catch (T e) { } finally { }`, or with resources
    /// `try (R r = e; existing) { } …`.
    Try {
        /// The resources of a try-with-resources statement, in order (empty for a plain
        /// `try`).
        resources: Vec<Resource>,
        /// The protected block.
        body: Block,
        /// Catch clauses (parsed; exceptions are not modelled).
        catches: Vec<CatchClause>,
        /// `finally` block.
        finally: Option<Block>,
    },
    /// `label: s`
    Labeled {
        /// The label.
        label: Ident,
        /// The labelled statement.
        body: Box<Stmt>,
    },
    /// `switch (e) { case …: … default: … }`
    Switch {
        /// The scrutinee.
        scrutinee: Expr,
        /// Cases in order.
        cases: Vec<SwitchCase>,
    },
    /// A local class, interface or enum declared in a block (`class L { … }`); its
    /// members are parsed as those of any class.
    LocalClass(Box<ClassDecl>),
    /// `yield e;`: the value of the switch expression around it (an arrow rule
    /// `case L -> e;` of a switch expression is one too).
    Yield(Expr),
    /// `;`
    Empty,
    /// A statement that could not be parsed (a diagnostic was reported).
    Error,
}

/// One resource of a try-with-resources statement.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Resource {
    /// `[final] T r = e` (`var r = e` has type [`TypeKind::Inferred`]).
    Decl {
        /// The declared type.
        ty: TypeRef,
        /// The resource variable.
        name: Ident,
        /// Its initialiser (an [`ExprKind::Error`] when missing; a diagnostic was
        /// reported).
        init: Expr,
        /// From the first modifier or the type to the end of the initialiser.
        span: Span,
    },
    /// An effectively final variable or a field used as a resource (`r`, `this.r`).
    Expr(Expr),
}

impl Resource {
    /// Where the resource was written.
    pub fn span(&self) -> Span {
        match self {
            Resource::Decl { span, .. } => *span,
            Resource::Expr(e) => e.span,
        }
    }
}

/// The scrutinee and cases of a switch expression ([`ExprKind::Switch`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SwitchExpr {
    /// The value switched on.
    pub scrutinee: Expr,
    /// Cases in order; every one ends by yielding or throwing.
    pub cases: Vec<SwitchCase>,
}

/// `case e1, e2:` / `default:` followed by statements (fall-through as in Java), or an
/// arrow rule `case e1, e2 -> …` / `default -> …` whose body is one expression
/// statement, block or `throw` and never falls through.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SwitchCase {
    /// Case labels; empty for `default`.
    pub labels: Vec<Expr>,
    /// True when this group includes `default`.
    pub is_default: bool,
    /// The `->` of an arrow rule; `None` for a colon group.
    pub arrow: Option<Span>,
    /// Statements up to the next label (for an arrow rule, its one statement).
    pub body: Vec<Stmt>,
    /// Whole case group.
    pub span: Span,
}

impl SwitchCase {
    /// True for an arrow rule (`case … ->`), which never falls through.
    pub fn is_arrow(&self) -> bool {
        self.arrow.is_some()
    }
}

/// `catch (T1 | T2 e) { … }`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CatchClause {
    /// Caught types.
    pub types: Vec<TypeRef>,
    /// Exception variable.
    pub name: Ident,
    /// Handler.
    pub body: Block,
    /// Whole clause.
    pub span: Span,
}
