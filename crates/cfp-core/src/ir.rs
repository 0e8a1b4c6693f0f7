//! The intermediate representation consumed by the later stages (SMT encoding, PCFAs,
//! ConstructCFG): one control-flow automaton (CFA) per method, over simple statements at
//! basic-block granularity — the CFAs of the paper's §5.1 (Definition 5.1 before any
//! predicate is attached) built from the language of its Fig. 9.
//!
//! # Shape
//! * A [`Program`] holds the class table ([`ClassDef`]), instance fields ([`FieldDef`],
//!   each one an SMT array `Int → T` indexed by object addresses), globals ([`GlobalDef`]:
//!   static fields of in-file classes and one global `$k` per spec wildcard), the
//!   terminal table (`TerminalId` indexes [`Program::terminals`]), the methods
//!   ([`MethodCfa`]) and the synthetic root method.
//! * A [`MethodCfa`] is a petgraph `DiGraph<Node, Edge>` with one entry and one exit node.
//!   Nodes are numbered deterministically (breadth-first from the entry, exit last); edges
//!   are ordered by source node, then by creation.
//! * Edges are basic blocks of simple statements ([`Edge::Block`]), calls of in-file
//!   methods ([`Edge::Call`]), API calls before instrumentation ([`Edge::ApiCall`]) and
//!   terminals after it ([`Edge::Api`], paper §4, Fig. 10).
//!
//! # Semantics of the statements (ARCHITECTURE.md, "Semantics for SMT")
//! * Sorts: [`Sort::Int`], [`Sort::Bool`], [`Sort::Ref`]. References are SMT `Int`s and
//!   `null` is `0`; an [`Stmt::Alloc`] yields a fresh positive address never seen before.
//! * [`Expr`] is pure and total. `&&`/`||` inside an [`Expr`] are *logical* (both sides are
//!   side-effect free; short-circuiting that matters was turned into edges by the
//!   lowering). `&`, `|`, `^` on booleans were rewritten to `&&`, `||`, `!=`; on ints they
//!   are bitwise, as are `~`, `<<`, `>>`, `>>>`. `*`, `/`, `%` keep Java's meaning (`/`
//!   and `%` truncate toward zero); the SMT layer decides how to treat non-linear ones.
//! * A field read `o.f` is `select(f, o)`; an assignment to `o.f` is `f := store(f, o, v)`.
//!   Null checks are explicit `assume o != null` statements placed by the lowering.
//! * [`Edge::Call`] binds the callee's parameters to `args` (the receiver first for
//!   instance methods) and, on return, assigns the callee's return variable to `result`
//!   (always a [`Place::Var`]). Globals and field arrays flow through the call.
//! * On entry to the root method every global and every field array is arbitrary; the
//!   root itself assigns the static fields their defaults.

use cfp_syntax::ast::{BinaryOp, UnaryOp};
use cfp_syntax::spec_ast::Terminal;
use cfp_syntax::{Diagnostic, Span};
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use serde::Serialize;
use std::collections::VecDeque;

mod cfa_builder;
pub(crate) use cfa_builder::{CfaBuilder, Finished};

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
        pub struct $name(pub u32);

        impl $name {
            /// The index into the table this id refers to.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(
    /// Index into [`Program::methods`].
    MethodId
);
id_type!(
    /// Index into [`MethodCfa::vars`] of the method that owns the variable.
    VarId
);
id_type!(
    /// Index into [`Program::globals`].
    GlobalId
);
id_type!(
    /// Index into [`Program::fields`].
    FieldId
);
id_type!(
    /// Index into [`Program::classes`].
    ClassId
);
id_type!(
    /// Index into [`Program::terminals`].
    TerminalId
);

/// SMT sorts of program values. `Ref` values are SMT `Int`s (null = 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Sort {
    /// Java integers (`int`, `long`, `char`, …; also opaque floats).
    Int,
    /// `boolean`
    Bool,
    /// Object references (and arrays, strings): an SMT `Int`, `null` = 0.
    Ref,
}

impl Sort {
    /// The default value of a field of this sort (`0`, `false`, `null`).
    pub fn default_value(self) -> Expr {
        match self {
            Sort::Int => Expr::Int(0),
            Sort::Bool => Expr::Bool(false),
            Sort::Ref => Expr::Null,
        }
    }

    /// Lower-case name used in renderings.
    pub fn as_str(self) -> &'static str {
        match self {
            Sort::Int => "int",
            Sort::Bool => "bool",
            Sort::Ref => "ref",
        }
    }
}

/// A class or interface defined in the program file (nested classes included).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClassDef {
    /// Its id.
    pub id: ClassId,
    /// Simple name.
    pub name: String,
    /// True for interfaces.
    pub is_interface: bool,
    /// True for abstract classes.
    pub is_abstract: bool,
    /// Superclass defined in the file.
    pub superclass: Option<ClassId>,
    /// Names of all supertypes, transitively, including the class itself and external
    /// ones (opaque) — what API-call detection compares with wildcard types.
    pub supertypes: Vec<String>,
    /// Where the class is declared.
    pub span: Span,
}

/// An instance field: an SMT array from object addresses to values.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FieldDef {
    /// Its id.
    pub id: FieldId,
    /// Declaring class.
    pub class: ClassId,
    /// Simple name.
    pub name: String,
    /// Value sort.
    pub sort: Sort,
    /// Where it is declared.
    pub span: Span,
}

impl FieldDef {
    /// `Class.field`, or the name alone for a field of every object (`%type`).
    pub fn qualified_name(&self, classes: &[ClassDef]) -> String {
        if self.name.starts_with('%') {
            return self.name.clone();
        }
        let c = classes
            .get(self.class.index())
            .map_or("?", |c| c.name.as_str());
        format!("{c}.{}", self.name)
    }
}

/// What a global stands for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum GlobalKind {
    /// A static field of an in-file class.
    Static {
        /// Declaring class.
        class: ClassId,
    },
    /// The instrumentation global of spec wildcard `$k` (paper §4, rule Class).
    Wildcard(u32),
    /// `%exc`: the exception being thrown (`null` while none is): a `throw` sets it and
    /// jumps to the innermost handler; after a call of a method that may throw, a
    /// non-null `%exc` continues at the caller's handler.
    Exception,
    /// `%escapes`: how many objects the program handed to library code (which may call
    /// them back later); `0` at the start.
    EscapeCount,
    /// `%inherited`: how many times library code that may assign the fields objects
    /// inherit from outside the program has run; `0` at the start. A read of such a
    /// field made since the last change keeps its value; otherwise it is arbitrary.
    InheritedEpoch,
    /// `%init:C`: whether the initialisation of class `C` has started (JLS §12.4.2: a
    /// class is initialised once, on its first active use).
    InitState {
        /// The class.
        class: ClassId,
    },
}

/// A global variable.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GlobalDef {
    /// Its id.
    pub id: GlobalId,
    /// `Class.field` for statics, `$k` for wildcards.
    pub name: String,
    /// Value sort.
    pub sort: Sort,
    /// Static field or wildcard.
    pub kind: GlobalKind,
    /// Declaration (the spec's span for wildcards is not in the program text: empty).
    pub span: Span,
}

/// What a method variable is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum VarKind {
    /// Formal parameter (`this` included).
    Param,
    /// Declared local variable.
    Local,
    /// Temporary introduced by the lowering.
    Temp,
    /// The return-value variable.
    Return,
}

/// A variable of one method. Names are unique within the method (shadowed or repeated
/// declarations get a `#n` suffix; temporaries are `%tN`; the return variable is `%ret`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VarDef {
    /// Its id.
    pub id: VarId,
    /// Unique display name.
    pub name: String,
    /// Value sort.
    pub sort: Sort,
    /// Parameter, local, temporary or return variable.
    pub kind: VarKind,
}

/// A storage location that can be assigned.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Place {
    /// A variable of the current method.
    Var(VarId),
    /// A global.
    Global(GlobalId),
    /// `obj.field` (array update `field := store(field, obj, v)`).
    Field {
        /// The object (pure).
        obj: Expr,
        /// The field.
        field: FieldId,
    },
}

/// Pure, total expressions.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Expr {
    /// A variable of the current method.
    Var(VarId),
    /// A global.
    Global(GlobalId),
    /// Field read `select(field, obj)`.
    Field {
        /// The object.
        obj: Box<Expr>,
        /// The field.
        field: FieldId,
    },
    /// Integer constant (char literals are their code point).
    Int(i64),
    /// Boolean constant.
    Bool(bool),
    /// `null` (the address 0).
    Null,
    /// `-e`, `+e`, `!e`, `~e`.
    Unary {
        /// Operator.
        op: UnaryOp,
        /// Operand.
        arg: Box<Expr>,
    },
    /// Binary operation (see the module doc for the meaning of each operator).
    Binary {
        /// Operator.
        op: BinaryOp,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// `c ? a : b` over pure operands.
    Ite {
        /// Condition.
        cond: Box<Expr>,
        /// Value when true.
        then_expr: Box<Expr>,
        /// Value when false.
        else_expr: Box<Expr>,
    },
}

impl Expr {
    /// `lhs op rhs`.
    pub fn binary(op: BinaryOp, lhs: Expr, rhs: Expr) -> Expr {
        Expr::Binary {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        }
    }

    /// The logical negation, pushed through comparisons and `!` where exact
    /// (`a < b` becomes `a >= b`, `!e` becomes `e`).
    pub fn negate(self) -> Expr {
        match self {
            Expr::Bool(b) => Expr::Bool(!b),
            Expr::Unary {
                op: UnaryOp::Not,
                arg,
            } => *arg,
            Expr::Binary { op, lhs, rhs } => {
                let flipped = match op {
                    BinaryOp::Eq => Some(BinaryOp::Ne),
                    BinaryOp::Ne => Some(BinaryOp::Eq),
                    BinaryOp::Lt => Some(BinaryOp::Ge),
                    BinaryOp::Ge => Some(BinaryOp::Lt),
                    BinaryOp::Gt => Some(BinaryOp::Le),
                    BinaryOp::Le => Some(BinaryOp::Gt),
                    _ => None,
                };
                match flipped {
                    Some(op) => Expr::Binary { op, lhs, rhs },
                    None => Expr::Unary {
                        op: UnaryOp::Not,
                        arg: Box::new(Expr::Binary { op, lhs, rhs }),
                    },
                }
            }
            e => Expr::Unary {
                op: UnaryOp::Not,
                arg: Box::new(e),
            },
        }
    }

    /// The conjunction of `parts` (`true` when empty).
    pub fn and_all(parts: Vec<Expr>) -> Expr {
        let mut it = parts.into_iter();
        match it.next() {
            None => Expr::Bool(true),
            Some(first) => it.fold(first, |acc, e| Expr::binary(BinaryOp::And, acc, e)),
        }
    }

    /// True for constants (no variable, global or field inside).
    pub fn is_constant(&self) -> bool {
        match self {
            Expr::Int(_) | Expr::Bool(_) | Expr::Null => true,
            Expr::Var(_) | Expr::Global(_) | Expr::Field { .. } => false,
            Expr::Unary { arg, .. } => arg.is_constant(),
            Expr::Binary { lhs, rhs, .. } => lhs.is_constant() && rhs.is_constant(),
            Expr::Ite {
                cond,
                then_expr,
                else_expr,
            } => cond.is_constant() && then_expr.is_constant() && else_expr.is_constant(),
        }
    }
}

/// What an allocation creates.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum AllocKind {
    /// An object of an in-file class (its constructor is called next).
    Class(ClassId),
    /// An object of a class not defined in the file.
    External(String),
    /// An array (contents unknown).
    Array,
}

/// Simple statements inside a basic block.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Stmt {
    /// `place := expr`
    Assign {
        /// Target.
        place: Place,
        /// Value.
        expr: Expr,
    },
    /// `place := *` (an arbitrary value of the place's sort).
    Havoc(Place),
    /// `assume(expr)`: paths where `expr` is false are dropped.
    Assume(Expr),
    /// `var := new`: a fresh non-null address never seen before.
    Alloc {
        /// The variable receiving the address.
        var: VarId,
        /// What is allocated.
        kind: AllocKind,
    },
    /// The method is left here (a `return` statement): no effect on the state. It keeps
    /// the statement's line for reports (where a run leaves a method with the protocol
    /// unfinished); slicing drops it.
    Leave,
    /// The execution goes through an approximated construct, number `k` of
    /// [`Program::approx_sites`]: no effect on the state, but a violation whose path
    /// runs through one is only a possible one.
    Approx(u32),
    /// `var := *` for a value the JVM computes but the analysis does not track (a
    /// floating-point number, an array element, a type test it cannot decide): arbitrary
    /// here, like a `havoc`. Where the value is determined by the program (`source`), a
    /// violation whose path turns on it is only a possible one.
    Opaque {
        /// The variable receiving the value.
        var: VarId,
        /// What the JVM computes it from.
        source: OpaqueSource,
    },
}

/// What an opaque value ([`Stmt::Opaque`]) is computed from.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum OpaqueSource {
    /// A constant of the program the model does not represent (a floating-point literal;
    /// a type test on an object of a known class whose place in the hierarchy is not).
    Constant,
    /// An operation on these values (floating-point arithmetic and comparisons,
    /// conversions): determined when they all are.
    Of(Vec<Expr>),
    /// An element of this array: determined when the program allocated the array.
    Element(Expr),
}

/// A value with the source span it comes from.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Located<T> {
    /// The value.
    pub node: T,
    /// Where in the program text it comes from.
    pub span: Span,
}

/// CFA edge labels.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Edge {
    /// A basic block: simple statements executed in order. Empty = `skip`.
    Block(Vec<Located<Stmt>>),
    /// Call of an in-file method: binds `callee.params[i] := args[i]` (receiver first),
    /// runs the callee, then `result := callee.ret`. With `unwind`, the edge is taken when
    /// the callee ends by throwing (at its [`MethodCfa::throw_exit`], `%exc` set): no
    /// result is assigned, and the caller continues at its exception handler.
    Call {
        /// The callee.
        callee: MethodId,
        /// Actual arguments (pure), receiver first for instance methods.
        args: Vec<Expr>,
        /// Where the result goes (a [`Place::Var`]), if used.
        result: Option<Place>,
        /// The call expression.
        span: Span,
        /// The callee returns by throwing (through its throw exit).
        unwind: bool,
    },
    /// An API call `receiver.method(args)` before instrumentation (paper Fig. 9
    /// `api_call`). It has no effect on the state; a result is havocked (or computed by
    /// an in-file model method) by the edges that follow.
    ApiCall {
        /// Receiver (pure, known non-null).
        receiver: Expr,
        /// Method name.
        method: String,
        /// Arguments (pure).
        args: Vec<Expr>,
        /// Terminals this call may emit (same method and arity, receiver type matching).
        terminals: Vec<TerminalId>,
        /// The call expression.
        span: Span,
    },
    /// Emission of a terminal after instrumentation (paper §4): no effect on the state.
    Api {
        /// The terminal.
        terminal: TerminalId,
        /// The original API call.
        span: Span,
    },
}

impl Edge {
    /// The span of the edge (the union of its statements' spans for a block; empty for
    /// an empty block).
    pub fn span(&self) -> Span {
        match self {
            Edge::Block(stmts) => {
                let mut it = stmts
                    .iter()
                    .map(|s| s.span)
                    .filter(|s| *s != Span::default());
                match it.next() {
                    Some(first) => it.fold(first, Span::to),
                    None => Span::default(),
                }
            }
            Edge::Call { span, .. } | Edge::ApiCall { span, .. } | Edge::Api { span, .. } => *span,
        }
    }

    /// True for an empty block (`skip`).
    pub fn is_skip(&self) -> bool {
        matches!(self, Edge::Block(s) if s.is_empty())
    }
}

/// A CFA location.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Node {
    /// The method's entry.
    Entry,
    /// The method's (normal) exit.
    Exit,
    /// Where the method ends by throwing an exception.
    Throw,
    /// Any other location.
    Inner,
}

/// The CFA of one method (paper §5.1).
#[derive(Clone, Debug)]
pub struct MethodCfa {
    /// Its id.
    pub id: MethodId,
    /// `Class.method`, `Class.<init>`, `Class.<clinit>` or `<root>`; overloads get an
    /// `/arity` suffix (and `#n` when still ambiguous).
    pub name: String,
    /// Declaring class (`None` for the root).
    pub class: Option<ClassId>,
    /// True for static methods (no `this`).
    pub is_static: bool,
    /// Parameters in order (`this` first for instance methods and constructors).
    pub params: Vec<VarId>,
    /// All variables of the method: parameters, locals, temporaries, return variable.
    pub vars: Vec<VarDef>,
    /// The return variable, for non-void methods.
    pub ret: Option<VarId>,
    /// The automaton.
    pub graph: DiGraph<Node, Edge>,
    /// Entry node.
    pub entry: NodeIndex,
    /// Exit node (normal completion).
    pub exit: NodeIndex,
    /// Where the method ends by throwing (`%exc` set), when it may.
    pub throw_exit: Option<NodeIndex>,
    /// Declaration span (empty for synthetic methods).
    pub span: Span,
    /// True for a method without body (abstract or interface method): its CFA has no
    /// edge (it is never called: dispatch only targets bodies).
    pub is_abstract: bool,
}

impl MethodCfa {
    /// The exit a call edge returns through: the throw exit for an unwinding call.
    pub fn return_node(&self, unwind: bool) -> Option<NodeIndex> {
        if unwind {
            self.throw_exit
        } else {
            Some(self.exit)
        }
    }

    /// True for the normal exit and the throw exit.
    pub fn is_exit(&self, n: NodeIndex) -> bool {
        n == self.exit || Some(n) == self.throw_exit
    }

    /// The variable `id`.
    pub fn var(&self, id: VarId) -> Option<&VarDef> {
        self.vars.get(id.index())
    }

    /// Variables that are not parameters (locals, temporaries, return variable).
    pub fn locals(&self) -> impl Iterator<Item = &VarDef> {
        self.vars.iter().filter(|v| v.kind != VarKind::Param)
    }

    /// Edges in their deterministic order: `(source, target, label)`.
    pub fn edges(&self) -> impl Iterator<Item = (NodeIndex, NodeIndex, &Edge)> {
        self.graph
            .edge_references()
            .map(|e| (e.source(), e.target(), e.weight()))
    }
}

/// A lowered program.
#[derive(Clone, Debug)]
pub struct Program {
    /// Classes defined in the file (nested ones included), in source order.
    pub classes: Vec<ClassDef>,
    /// Instance fields (each an SMT array `Ref → sort`).
    pub fields: Vec<FieldDef>,
    /// Static fields of in-file classes, then one global per spec wildcard.
    pub globals: Vec<GlobalDef>,
    /// The spec's terminals, in order of first appearance in the spec.
    pub terminals: Vec<Terminal>,
    /// `%type`, the field holding every object's class as a code (written at each
    /// allocation; read by dynamic dispatch, catch clauses, `instanceof` and casts), when
    /// the program needs it.
    pub type_field: Option<FieldId>,
    /// The class named by each code of `%type`: code `k` is `type_names[k - 1]`
    /// (program classes first, then classes outside the program).
    pub type_names: Vec<String>,
    /// All methods; [`Program::root`] is one of them.
    pub methods: Vec<MethodCfa>,
    /// The synthetic root method: static initialisation, then the entry method.
    pub root: MethodId,
    /// The entry method called by the root (`main` or the chosen one).
    pub entry: MethodId,
    /// Approximations that could hide a violation: a `verified` verdict becomes
    /// `unknown` when this is not empty.
    pub approximations: Vec<Diagnostic>,
    /// Approximated constructs an execution may go through ([`Stmt::Approx`]): they add
    /// executions the JVM may not have, so a violation whose path runs through one is
    /// reported as a possible violation (`unknown`), never as a violation.
    pub approx_sites: Vec<Diagnostic>,
    /// True once [`crate::instrument()`] has replaced the API calls by terminals.
    pub instrumented: bool,
}

impl Program {
    /// The method `id`.
    pub fn method(&self, id: MethodId) -> Option<&MethodCfa> {
        self.methods.get(id.index())
    }

    /// The global of wildcard `$k`, if the spec has it.
    pub fn wildcard_global(&self, k: u32) -> Option<GlobalId> {
        self.globals
            .iter()
            .find(|g| g.kind == GlobalKind::Wildcard(k))
            .map(|g| g.id)
    }

    /// The sort of a pure expression evaluated in `method`.
    pub fn expr_sort(&self, method: &MethodCfa, e: &Expr) -> Sort {
        match e {
            Expr::Var(v) => method.var(*v).map_or(Sort::Int, |d| d.sort),
            Expr::Global(g) => self.globals.get(g.index()).map_or(Sort::Int, |d| d.sort),
            Expr::Field { field, .. } => {
                self.fields.get(field.index()).map_or(Sort::Int, |d| d.sort)
            }
            Expr::Int(_) => Sort::Int,
            Expr::Bool(_) => Sort::Bool,
            Expr::Null => Sort::Ref,
            Expr::Unary { op, arg } => match op {
                UnaryOp::Not => Sort::Bool,
                _ => {
                    let _ = arg;
                    Sort::Int
                }
            },
            Expr::Binary { op, lhs, .. } => {
                use BinaryOp::*;
                match op {
                    Lt | Le | Gt | Ge | Eq | Ne | And | Or => Sort::Bool,
                    BitAnd | BitOr | BitXor => self.expr_sort(method, lhs),
                    _ => Sort::Int,
                }
            }
            Expr::Ite { then_expr, .. } => self.expr_sort(method, then_expr),
        }
    }

    /// The sort of a place in `method`.
    pub fn place_sort(&self, method: &MethodCfa, p: &Place) -> Sort {
        match p {
            Place::Var(v) => method.var(*v).map_or(Sort::Int, |d| d.sort),
            Place::Global(g) => self.globals.get(g.index()).map_or(Sort::Int, |d| d.sort),
            Place::Field { field, .. } => {
                self.fields.get(field.index()).map_or(Sort::Int, |d| d.sort)
            }
        }
    }
}
