//! Functional interfaces: which method a lambda or method reference implements, with
//! which parameter and return types, given the type it is converted to (its target).
//! An interface of the program with one abstract method is one; so are the JDK's and
//! Android's well-known ones (the parameter types come from the target's generic
//! arguments: `Consumer<ReentrantLock>` takes a `ReentrantLock`).

use cfp_syntax::ast::{ClassDecl, Member, TypeKind, TypeRef};
use cfp_syntax::Span;

/// The method a closure implements.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct FunctionalMethod {
    /// Its name.
    pub name: String,
    /// Its parameter types (`None`: not known).
    pub params: Vec<Option<TypeRef>>,
    /// Its return type (`None`: not known; `void` is [`TypeKind::Void`]).
    pub ret: Option<TypeRef>,
}

/// A parameter or return type of a well-known interface: a fixed type, or the
/// interface's `k`-th generic argument.
#[derive(Clone, Copy)]
enum Slot {
    Void,
    Int,
    Long,
    Bool,
    Generic(usize),
    Named(&'static str),
}

/// `(interface, method, parameters, return)`.
const WELL_KNOWN: &[(&str, &str, &[Slot], Slot)] = &[
    ("Runnable", "run", &[], Slot::Void),
    ("Callable", "call", &[], Slot::Generic(0)),
    ("Supplier", "get", &[], Slot::Generic(0)),
    ("Consumer", "accept", &[Slot::Generic(0)], Slot::Void),
    (
        "BiConsumer",
        "accept",
        &[Slot::Generic(0), Slot::Generic(1)],
        Slot::Void,
    ),
    ("Function", "apply", &[Slot::Generic(0)], Slot::Generic(1)),
    (
        "BiFunction",
        "apply",
        &[Slot::Generic(0), Slot::Generic(1)],
        Slot::Generic(2),
    ),
    (
        "UnaryOperator",
        "apply",
        &[Slot::Generic(0)],
        Slot::Generic(0),
    ),
    (
        "BinaryOperator",
        "apply",
        &[Slot::Generic(0), Slot::Generic(0)],
        Slot::Generic(0),
    ),
    ("Predicate", "test", &[Slot::Generic(0)], Slot::Bool),
    (
        "BiPredicate",
        "test",
        &[Slot::Generic(0), Slot::Generic(1)],
        Slot::Bool,
    ),
    (
        "Comparator",
        "compare",
        &[Slot::Generic(0), Slot::Generic(0)],
        Slot::Int,
    ),
    ("IntConsumer", "accept", &[Slot::Int], Slot::Void),
    ("IntFunction", "apply", &[Slot::Int], Slot::Generic(0)),
    ("IntPredicate", "test", &[Slot::Int], Slot::Bool),
    ("IntSupplier", "getAsInt", &[], Slot::Int),
    ("IntUnaryOperator", "applyAsInt", &[Slot::Int], Slot::Int),
    (
        "IntBinaryOperator",
        "applyAsInt",
        &[Slot::Int, Slot::Int],
        Slot::Int,
    ),
    (
        "ToIntFunction",
        "applyAsInt",
        &[Slot::Generic(0)],
        Slot::Int,
    ),
    (
        "ToLongFunction",
        "applyAsLong",
        &[Slot::Generic(0)],
        Slot::Long,
    ),
    ("LongSupplier", "getAsLong", &[], Slot::Long),
    ("BooleanSupplier", "getAsBoolean", &[], Slot::Bool),
    (
        "ThreadFactory",
        "newThread",
        &[Slot::Named("Runnable")],
        Slot::Named("Thread"),
    ),
    (
        "Executor",
        "execute",
        &[Slot::Named("Runnable")],
        Slot::Void,
    ),
    ("AutoCloseable", "close", &[], Slot::Void),
    ("Closeable", "close", &[], Slot::Void),
    (
        "UncaughtExceptionHandler",
        "uncaughtException",
        &[Slot::Named("Thread"), Slot::Named("Throwable")],
        Slot::Void,
    ),
    ("FileFilter", "accept", &[Slot::Named("File")], Slot::Bool),
    (
        "FilenameFilter",
        "accept",
        &[Slot::Named("File"), Slot::Named("String")],
        Slot::Bool,
    ),
    (
        "ActionListener",
        "actionPerformed",
        &[Slot::Named("ActionEvent")],
        Slot::Void,
    ),
    (
        "PropertyChangeListener",
        "propertyChange",
        &[Slot::Named("PropertyChangeEvent")],
        Slot::Void,
    ),
    (
        "OnClickListener",
        "onClick",
        &[Slot::Named("View")],
        Slot::Void,
    ),
    (
        "OnLongClickListener",
        "onLongClick",
        &[Slot::Named("View")],
        Slot::Bool,
    ),
    (
        "OnTouchListener",
        "onTouch",
        &[Slot::Named("View"), Slot::Named("MotionEvent")],
        Slot::Bool,
    ),
    (
        "OnCompletionListener",
        "onCompletion",
        &[Slot::Named("MediaPlayer")],
        Slot::Void,
    ),
    (
        "OnPreparedListener",
        "onPrepared",
        &[Slot::Named("MediaPlayer")],
        Slot::Void,
    ),
    (
        "OnErrorListener",
        "onError",
        &[Slot::Named("MediaPlayer"), Slot::Int, Slot::Int],
        Slot::Bool,
    ),
];

fn slot_type(slot: Slot, args: &[TypeRef], span: Span) -> Option<TypeRef> {
    let kind = match slot {
        Slot::Void => TypeKind::Void,
        Slot::Int => TypeKind::Int,
        Slot::Long => TypeKind::Long,
        Slot::Bool => TypeKind::Boolean,
        Slot::Generic(k) => return args.get(k).cloned(),
        Slot::Named(n) => TypeKind::Named {
            name: n.to_owned(),
            qualifier: Vec::new(),
            args: Vec::new(),
        },
    };
    Some(TypeRef { kind, span })
}

/// The functional method of the target type `target`: of an interface of the program
/// (`classes`) with one abstract method, or of a well-known one.
pub(super) fn functional_method(
    target: &TypeRef,
    classes: &[&ClassDecl],
) -> Option<FunctionalMethod> {
    let TypeKind::Named { name, args, .. } = &target.kind else {
        return None;
    };
    if let Some(decl) = classes.iter().find(|c| c.name.name == *name) {
        if !decl.is_interface {
            return None;
        }
        let mut abstracts = decl.members.iter().filter_map(|m| match m {
            Member::Method(md) if md.body.is_none() && !md.modifiers.is_static => Some(md),
            _ => None,
        });
        let md = abstracts.next()?;
        if abstracts.next().is_some() {
            return None;
        }
        return Some(FunctionalMethod {
            name: md.name.name.clone(),
            params: md.params.iter().map(|p| Some(p.ty.clone())).collect(),
            ret: Some(md.ret.clone()),
        });
    }
    let (_, method, params, ret) = WELL_KNOWN.iter().find(|(n, ..)| n == name)?;
    Some(FunctionalMethod {
        name: (*method).to_owned(),
        params: params
            .iter()
            .map(|s| slot_type(*s, args, target.span))
            .collect(),
        ret: match ret {
            Slot::Generic(k) => args.get(*k).cloned(),
            other => slot_type(*other, args, target.span),
        },
    })
}
