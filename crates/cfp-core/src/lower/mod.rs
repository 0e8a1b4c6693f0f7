//! Lowering: each method of the program becomes a CFA over simple statements at
//! basic-block granularity (paper §3.1 Fig. 9 language, §5.1 CFAs, §6 "one node per basic
//! block"); plus a synthetic root method.
//!
//! # Control flow
//! * Conditions are split into `assume` edges; `&&`, `||`, `!` and `?:` in conditions
//!   short-circuit by edges. In value position they stay pure expressions when their
//!   later operands are simple (no call, field access, allocation or side effect), and
//!   otherwise become edges that assign a temporary.
//! * `if (*)` is two unconstrained edges; `*` as a value is a havocked temporary.
//! * Calls inside expressions are hoisted to temporaries in Java's evaluation order
//!   (left to right); an operand evaluated before a later operand with side effects is
//!   saved in a temporary first.
//! * `while`, `do`/`while`, `for`, for-each (an unknown number of iterations over unknown
//!   elements), labelled `break`/`continue`, `switch` with fall-through, early `return`.
//! * `try`/`finally`: the finally block is lowered again (duplicated) on every exit path
//!   of the try block: normal completion, `return`, `break`, `continue`.
//! * After building, skip edges are contracted, straight-line chains of blocks merged,
//!   nodes off every entry→exit path dropped and nodes renumbered
//!   ([`crate::ir::CfaBuilder::finish`]).
//!
//! # Objects and calls
//! * `new C(args)` of an in-file class: the arguments, then `t := new C` ([`Stmt::Alloc`])
//!   and a call of the constructor `C.<init>(t, args)`. Of an external class: the
//!   arguments, then `t := new C` only (a fresh non-null object).
//! * Constructors `C.<init>(this, params…)`: without a leading `this(…)`: default values
//!   for `C`'s own instance fields, the explicit or implicit `super(…)` call when the
//!   superclass is in the file (an external superclass only gets its arguments
//!   evaluated), instance field initialisers and instance initialiser blocks in source
//!   order, then the body. With a leading `this(…)`: that call, then the body. A class
//!   without constructor gets the default one.
//! * Static initialisation: `C.<clinit>` runs the static field initialisers and static
//!   blocks of `C` in source order.
//! * The root method `<root>`: static fields get their defaults, every `C.<clinit>` runs
//!   in source order, every wildcard global is assumed non-null, the entry method's
//!   parameters (and receiver, for an instance entry) are havocked, then the entry
//!   method (`main`, or [`LowerOptions::entry`]) is called.
//!
//! # Semantic conventions (ARCHITECTURE.md; they decide verdicts)
//! * A call on a receiver, an API call, a field access and an array access assume the
//!   object is non-null (`assume o != null`; Java would throw otherwise). `this` needs no
//!   assumption.
//! * A call of a method not defined in the file returns an arbitrary value (its result
//!   is havocked) and has no effect on the state; its arguments are evaluated.
//! * String and float literals, string concatenation and float arithmetic are opaque
//!   (havocked temporaries); char literals are their code point.
//! * Arrays: contents unknown — reads are havocked, writes dropped, `length` is an
//!   arbitrary value `>= 0`. Fields of external objects likewise.
//! * Casts are ignored (the cast type becomes the static type); `instanceof` is an
//!   arbitrary boolean.
//! * An instance call on an in-file type whose method is overridden by in-file subclasses
//!   is a nondeterministic choice among the implementations (parallel call edges); a
//!   subclass inheriting the method from an external superclass adds a havoc alternative.
//! * `super.m(…)` calls the superclass implementation directly and never emits an API
//!   terminal (it continues a call that already emitted it).
//! * `throw`: the path ends — executions that do not complete produce no word. Catch
//!   blocks are never executed (exceptions are not modelled). When the program has both
//!   a `throw` and a `catch`, or a catch block calls an in-file method or the API, a
//!   diagnostic goes to [`Program::approximations`] (a `verified` becomes `unknown`).
//! * API calls ([`crate::api`]): the [`Edge::ApiCall`] is emitted after the receiver and
//!   arguments are evaluated and the receiver assumed non-null; when the receiver's class
//!   is defined in the file (a model), the body is called right after it. A call whose
//!   receiver has an external type different from every wildcard type but whose name and
//!   arity match a terminal may be an API call through an unknown subtype: a warning and
//!   an approximation — unless the type is a library class of known superclasses that
//!   cannot be the wildcard's class ([`crate::classes::library`]). A call on a receiver of unknown type matching by name and arity is
//!   an API call, with a warning.
//! * Values of mismatched sorts (a boolean stored into an `Object`, …) are havocked.

use crate::api::ApiTable;
use crate::classes::{ClassTable, MethodSig, MethodSource, Type, OBJECT_METHODS};
use crate::ir::{
    AllocKind, CfaBuilder, ClassId, Edge, Expr, GlobalDef, GlobalId, GlobalKind, Located,
    MethodCfa, MethodId, Place, Program, Sort, Stmt, VarDef, VarId, VarKind,
};
use cfp_syntax::ast::{
    self, BinaryOp, Block, CompilationUnit, ExprKind, Ident, IncDecOp, Member, StmtKind, UnaryOp,
};
use cfp_syntax::spec_ast::Spec;
use cfp_syntax::{Diagnostic, Severity, Span};

mod call;
use call::ResultUse;
mod callbacks;
mod cfa_builder;
mod closure;
mod containers;
mod eager;
mod entry;
mod exceptions;
mod expr;
use expr::has_effects;
mod facts;
mod generics;
mod handed;
mod handoff;
mod init;
mod instantiated;
mod jdk_callbacks;
mod library_calls;
mod method;
mod names;
mod new_object;
mod overloads;
mod places;
mod reach;
mod stmt;
mod switch_expr;
#[cfg(test)]
mod tests;
mod types;

use facts::{Facts, Survey};
use method::{lower_method, lower_root};
pub(crate) use reach::reachable_methods;
use reach::{reachable_closures_only, unreached_errors_as_warnings};

/// Which library calls may throw an exception (the code behind them is not the
/// program's; its documentation decides what it throws).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LibraryThrows {
    /// Library calls never throw.
    None,
    /// A library call may throw what a catch clause around it in the same method catches
    /// (an unchecked exception, or a checked one some call in the `try` declares), and
    /// what the method declares it throws: the exceptions the program prepared for.
    #[default]
    Caught,
    /// As `Caught`, and every library call may also throw a `RuntimeException`.
    Any,
}

impl LibraryThrows {
    /// The option's name (`none`, `caught`, `any`).
    pub fn name(self) -> &'static str {
        match self {
            LibraryThrows::None => "none",
            LibraryThrows::Caught => "caught",
            LibraryThrows::Any => "any",
        }
    }

    /// The option named `name`.
    pub fn from_name(name: &str) -> Option<LibraryThrows> {
        match name {
            "none" => Some(LibraryThrows::None),
            "caught" => Some(LibraryThrows::Caught),
            "any" => Some(LibraryThrows::Any),
            _ => None,
        }
    }
}

/// Options of the lowering.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LowerOptions {
    /// Entry method (`name` or `Class.name`); `main` when `None`.
    pub entry: Option<String>,
    /// A generated driver to start from instead ([`crate::harness`]; applied by
    /// [`crate::prepare::parse_with_harness`], which sets `entry` to it).
    pub harness: Option<crate::harness::HarnessRequest>,
    /// Leave the built-in library models out ([`crate::models`]; applied by
    /// [`crate::prepare::parse_with_harness`]).
    pub no_models: bool,
    /// Which library calls may throw.
    pub library_throws: LibraryThrows,
    /// The entry's inputs may be objects of the program that no code created (a
    /// generated driver makes up its arguments; set by
    /// [`crate::prepare::parse_with_harness`]).
    pub made_up_objects: bool,
}

/// Which lowering of the program this is.
enum Stage {
    /// The first lowering, which only collects the facts of the second.
    Survey,
    /// The lowering whose methods make the program.
    Final(Box<Facts>),
}

/// Lower `unit` against the API of `spec`. Returns the program unless an error
/// diagnostic was produced; diagnostics (errors and warnings) are in source order.
///
/// The program is lowered twice: a survey finds what the lowering of each method needs
/// to know about the others (which may throw, where the JVM's own exceptions could be
/// caught, which runtime types are tested: [`facts`]); the second lowering is the
/// program.
pub fn lower_program(
    unit: &CompilationUnit,
    spec: &Spec,
    opts: &LowerOptions,
) -> (Option<Program>, Vec<Diagnostic>) {
    let api = ApiTable::from_spec(spec);
    // Counted loop pairs become recursion (the abstraction counts only through calls).
    let events: std::collections::BTreeSet<String> =
        api.terminals.iter().map(|t| t.method.clone()).collect();
    let paired = crate::counted_loops::rewrite(unit, &events);
    let unit = paired.as_ref().unwrap_or(unit);
    // Closures become classes; a survey finds the targets of those passed to methods of
    // the program, and they are desugared again with them (until nothing new is found).
    let mut hints = crate::desugar::TargetHints::default();
    let mut desugared = crate::desugar::desugar(unit, &hints);
    let mut rounds = 0;
    let survey = loop {
        let table = ClassTable::new(desugared.unit());
        let eager = eager::eager_order(&table);
        let mut cx = ProgramLowerer::new(
            table,
            api.clone(),
            unit,
            opts,
            eager,
            Stage::Survey,
            &desugared.closures,
        );
        let entry = cx.find_entry(opts);
        cx.lower_methods(entry);
        let survey = std::mem::take(&mut cx.survey);
        let mut more = false;
        for (k, t) in &survey.closure_targets {
            if !hints.targets.contains_key(k) {
                hints.targets.insert(*k, t.clone());
                more = true;
            }
        }
        rounds += 1;
        if !more || rounds > 4 {
            break survey;
        }
        desugared = crate::desugar::desugar(unit, &hints);
    };
    let table = ClassTable::new(desugared.unit());
    let eager = eager::eager_order(&table);
    let facts = Facts::settle(&table, &survey);
    let mut cx = ProgramLowerer::new(
        table,
        api,
        unit,
        opts,
        eager,
        Stage::Final(Box::new(facts)),
        &desugared.closures,
    );
    let entry = cx.find_entry(opts);
    let mut methods = cx.lower_methods(entry);
    if let Some(set) = cx.instantiable(entry, opts) {
        instantiated::prune(&mut methods, set);
    }
    let type_names = cx
        .facts()
        .and_then(|f| f.types.as_ref())
        .map(|u| u.names.clone())
        .unwrap_or_default();
    let reachable = reachable_methods(&methods);
    cx.diags.extend(unit.unsupported.iter().cloned());
    let mut diags = reachable_closures_only(dedup(cx.diags), &methods, &reachable);
    if entry.is_some() {
        diags = unreached_errors_as_warnings(diags, &methods, &reachable);
    }
    diags.sort_by_key(|d| (d.span.start, d.span.end));
    let approximations = reachable_closures_only(dedup(cx.approx), &methods, &reachable);
    let Some(entry) = entry else {
        return (None, diags);
    };
    if diags.iter().any(|d| d.severity == Severity::Error) {
        return (None, diags);
    }
    let mut fields = cx.table.fields.clone();
    if let Some(f) = cx.type_field {
        fields.push(crate::ir::FieldDef {
            id: f,
            class: ClassId(u32::MAX),
            name: TYPE_FIELD.to_owned(),
            sort: Sort::Int,
            span: Span::default(),
        });
    }
    if let Some(e) = cx.escapes {
        for (id, name, sort) in [
            (e.index, "%escaped", Sort::Int),
            (e.list, "%escapes", Sort::Ref),
        ] {
            fields.push(crate::ir::FieldDef {
                id,
                class: ClassId(u32::MAX),
                name: name.to_owned(),
                sort,
                span: Span::default(),
            });
        }
    }
    if let Some(f) = cx.length_field {
        fields.push(crate::ir::FieldDef {
            id: f,
            class: ClassId(u32::MAX),
            name: "%length".to_owned(),
            sort: Sort::Int,
            span: Span::default(),
        });
    }
    for f in &cx.inherited_fields {
        for (id, name, sort) in [
            (f.value, format!("%inherited.{}", f.name), Sort::Ref),
            (f.at, format!("%inherited.{}.at", f.name), Sort::Int),
        ] {
            fields.push(crate::ir::FieldDef {
                id,
                class: ClassId(u32::MAX),
                name,
                sort,
                span: Span::default(),
            });
        }
    }
    let program = Program {
        classes: cx.table.defs.clone(),
        fields,
        globals: cx.globals,
        terminals: cx.api.terminals.clone(),
        type_field: cx.type_field,
        type_names,
        methods,
        root: MethodId(0),
        entry,
        approximations,
        approx_sites: cx.approx_sites,
        instrumented: false,
    };
    (Some(program), diags)
}

/// The name of the field holding each object's runtime class ([`Program::type_field`]).
pub const TYPE_FIELD: &str = "%type";

fn dedup(ds: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = Vec::new();
    for d in ds {
        if !out.contains(&d) {
            out.push(d);
        }
    }
    out
}

/// The registry of objects handed to library code (what it may call back after the
/// entry returns): `%escapes` counts them, the `k`-th is `k.%escapes` (a field used as
/// an array indexed by `1..=%escapes`), and an object's own `%escaped` is its index.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Escapes {
    /// `o.%escaped`: the index of `o` in the registry (valid when `k.%escapes == o`).
    pub index: crate::ir::FieldId,
    /// `k.%escapes`: the `k`-th registered object.
    pub list: crate::ir::FieldId,
    /// `%escapes`: how many objects are registered.
    pub count: GlobalId,
}

/// A field the program's objects inherit from a superclass outside it, read as a
/// reference and never assigned by the program ([`Facts::inherited_fields`]):
/// `o.%inherited.NAME` is its value as last read, `o.%inherited.NAME.at` the value of
/// `%inherited` (the epoch) then. Library code that runs starts a new epoch; a read in
/// a later epoch than the last one takes an arbitrary value.
#[derive(Clone, Debug)]
pub(crate) struct InheritedField {
    /// The field's name.
    pub name: String,
    /// `o.%inherited.NAME`.
    pub value: crate::ir::FieldId,
    /// `o.%inherited.NAME.at`.
    pub at: crate::ir::FieldId,
}

/// Program-wide lowering state.
struct ProgramLowerer<'a> {
    table: ClassTable<'a>,
    api: ApiTable,
    globals: Vec<GlobalDef>,
    global_types: Vec<Type>,
    wildcard_globals: Vec<GlobalId>,
    diags: Vec<Diagnostic>,
    approx: Vec<Diagnostic>,
    /// Approximated constructs an execution may go through ([`Stmt::Approx`]).
    approx_sites: Vec<Diagnostic>,
    /// The program has `import static …` lines: an unknown bare name or method may be
    /// one of them.
    static_imports: bool,
    /// Unknown names already reported as values from outside the program.
    outside_names: Vec<String>,
    /// Survey or final lowering.
    stage: Stage,
    /// What this lowering found (used after the survey).
    survey: Survey,
    /// Per class, its place in the eager initialisation order ([`eager`]).
    eager: Vec<Option<usize>>,
    /// `%exc`, when something throws.
    exc: Option<GlobalId>,
    /// Per class, `%init:C` of a class initialised lazily.
    init_state: Vec<Option<GlobalId>>,
    /// `%type`, when something tests a runtime type.
    type_field: Option<crate::ir::FieldId>,
    /// Which library calls may throw.
    library_throws: LibraryThrows,
    /// The closure classes ([`crate::desugar`]).
    closures: Vec<crate::desugar::ClosureClass>,
    /// Per class, its closure number when it is a closure class.
    closure_of: Vec<Option<usize>>,
    /// `%escaped`, when closures are handed to library code.
    escapes: Option<Escapes>,
    /// `%length`, when some code reads an array's length.
    length_field: Option<crate::ir::FieldId>,
    /// The fields inherited from outside the program ([`Facts::inherited_fields`]).
    inherited_fields: Vec<InheritedField>,
    /// `%inherited`, when there are such fields.
    inherited_epoch: Option<GlobalId>,
    /// The library classes of known superclasses the program names
    /// ([`crate::classes::library`]).
    library_classes: Vec<(&'static str, &'static [&'static str])>,
    /// The names of the program's type variables: a value of such a type (`T` unbounded, or
    /// a parameter's) may be an object of any class.
    type_vars: std::collections::BTreeSet<String>,
    /// What library code may call back on an object of a static type, per type and
    /// whether it is the receiver ([`MethodLowerer::callback_candidates`]): it depends on
    /// the class table and the closures only, and every call of library code asks.
    callback_cache: std::cell::RefCell<CallbackCache>,
}

/// [`ProgramLowerer::callback_cache`].
type CallbackCache = std::collections::BTreeMap<(Type, bool), Vec<(ClassId, Vec<MethodId>)>>;

impl<'a> ProgramLowerer<'a> {
    fn new(
        table: ClassTable<'a>,
        api: ApiTable,
        unit: &CompilationUnit,
        opts: &LowerOptions,
        eager: Vec<Option<usize>>,
        stage: Stage,
        closures: &[crate::desugar::ClosureClass],
    ) -> Self {
        let mut globals: Vec<GlobalDef> = table.globals.clone();
        let mut global_types = table.global_types.clone();
        let mut wildcard_globals = Vec::new();
        for &k in &api.wildcards {
            let id = GlobalId(globals.len() as u32);
            globals.push(GlobalDef {
                id,
                name: format!("${k}"),
                sort: Sort::Ref,
                kind: GlobalKind::Wildcard(k),
                span: Span::default(),
            });
            global_types.push(api.wildcard_types.get(&k).map_or(Type::Unknown, |n| {
                match table.class_written(n) {
                    Some(c) => Type::Class(c),
                    None => Type::External(n.clone()),
                }
            }));
            wildcard_globals.push(id);
        }
        let (exceptions, types) = match &stage {
            Stage::Survey => (true, true),
            Stage::Final(f) => (f.exceptions, f.types.is_some()),
        };
        let mut exc = None;
        if exceptions {
            let id = GlobalId(globals.len() as u32);
            globals.push(GlobalDef {
                id,
                name: "%exc".to_owned(),
                sort: Sort::Ref,
                kind: GlobalKind::Exception,
                span: Span::default(),
            });
            global_types.push(Type::External("Throwable".to_owned()));
            exc = Some(id);
        }
        let mut init_state = vec![None; table.classes.len()];
        for (i, info) in table.classes.iter().enumerate() {
            if info.clinit.is_some() && eager[i].is_none() {
                let id = GlobalId(globals.len() as u32);
                globals.push(GlobalDef {
                    id,
                    name: format!("%init:{}", info.decl.name.name),
                    sort: Sort::Int,
                    kind: GlobalKind::InitState {
                        class: ClassId(i as u32),
                    },
                    span: info.decl.name.span,
                });
                global_types.push(Type::Int);
                init_state[i] = Some(id);
            }
        }
        let type_field = types.then_some(crate::ir::FieldId(table.fields.len() as u32));
        let escapes = match &stage {
            Stage::Survey => true,
            Stage::Final(f) => f.escapes,
        };
        let escaped_base = table.fields.len() as u32 + u32::from(types);
        let escapes = escapes.then(|| {
            let count = GlobalId(globals.len() as u32);
            globals.push(GlobalDef {
                id: count,
                name: "%escapes".to_owned(),
                sort: Sort::Int,
                kind: GlobalKind::EscapeCount,
                span: Span::default(),
            });
            global_types.push(Type::Int);
            Escapes {
                index: crate::ir::FieldId(escaped_base),
                list: crate::ir::FieldId(escaped_base + 1),
                count,
            }
        });
        let lengths = match &stage {
            Stage::Survey => true,
            Stage::Final(f) => f.lengths,
        };
        let length_field = lengths
            .then(|| crate::ir::FieldId(escaped_base + if escapes.is_some() { 2 } else { 0 }));
        let mut next_field = escaped_base
            + if escapes.is_some() { 2 } else { 0 }
            + u32::from(length_field.is_some());
        let inherited_fields = match &stage {
            Stage::Survey => Vec::new(),
            Stage::Final(f) => f
                .inherited_fields
                .iter()
                .map(|n| {
                    let value = crate::ir::FieldId(next_field);
                    let at = crate::ir::FieldId(next_field + 1);
                    next_field += 2;
                    InheritedField {
                        name: n.clone(),
                        value,
                        at,
                    }
                })
                .collect(),
        };
        let inherited_epoch = (!inherited_fields.is_empty()).then(|| {
            let id = GlobalId(globals.len() as u32);
            globals.push(GlobalDef {
                id,
                name: "%inherited".to_owned(),
                sort: Sort::Int,
                kind: GlobalKind::InheritedEpoch,
                span: Span::default(),
            });
            global_types.push(Type::Int);
            id
        });
        let closure_of = table
            .classes
            .iter()
            .map(|c| closures.iter().position(|k| k.name == c.decl.name.name))
            .collect();
        let survey = Survey {
            methods: vec![Default::default(); table.methods.len()],
            ..Survey::default()
        };
        let type_vars = generics::type_variables(&table);
        ProgramLowerer {
            diags: table.diagnostics.clone(),
            table,
            api,
            globals,
            global_types,
            wildcard_globals,
            approx: Vec::new(),
            approx_sites: Vec::new(),
            static_imports: unit.imports.iter().any(|i| i.starts_with("static ")),
            library_classes: crate::classes::library::named_by(&unit.imports),
            type_vars,
            callback_cache: Default::default(),
            outside_names: Vec::new(),
            stage,
            survey,
            eager,
            exc,
            init_state,
            type_field,
            library_throws: opts.library_throws,
            closures: closures.to_vec(),
            closure_of,
            escapes,
            length_field,
            inherited_fields,
            inherited_epoch,
        }
    }

    /// The closure class `c` stands for, if it is one.
    fn closure(&self, c: ClassId) -> Option<&crate::desugar::ClosureClass> {
        self.closure_of
            .get(c.index())
            .copied()
            .flatten()
            .and_then(|k| self.closures.get(k))
    }

    /// Lower every method (the root from `entry`).
    fn lower_methods(&mut self, entry: Option<MethodId>) -> Vec<MethodCfa> {
        let sigs: Vec<MethodSig<'a>> = self.table.methods.clone();
        sigs.iter()
            .map(|sig| match sig.source {
                MethodSource::Root => lower_root(self, sig, entry),
                _ => lower_method(self, sig),
            })
            .collect()
    }

    /// The settled facts (the final lowering only).
    fn facts(&self) -> Option<&Facts> {
        match &self.stage {
            Stage::Final(f) => Some(f),
            Stage::Survey => None,
        }
    }

    /// Record an approximated construct an execution may go through: its number for
    /// [`Stmt::Approx`].
    fn approx_site(&mut self, d: Diagnostic) -> u32 {
        if let Some(k) = self.approx_sites.iter().position(|x| *x == d) {
            return k as u32;
        }
        self.approx_sites.push(d);
        (self.approx_sites.len() - 1) as u32
    }

    fn error(&mut self, code: &'static str, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(code, span, msg));
    }
}

/// A target of `break`/`continue`.
struct JumpCtx {
    label: Option<String>,
    brk: usize,
    cont: Option<usize>,
    /// Loops and switches are targets of an unlabelled `break`.
    breakable: bool,
    finally_depth: usize,
}

/// What a name or call target denotes.
enum Target {
    Class(ClassId),
    External,
    /// `super` or `X.super`: the receiver, the class whose methods are looked up first
    /// (none: a library class), and the receiver's type for a library call.
    Super {
        receiver: Expr,
        lookup: Option<ClassId>,
        rty: Type,
    },
    Value(Expr, Type),
}

/// Resolution of a simple name.
enum NameRes {
    Var(VarId, Type),
    Field(FieldRes),
    Global(GlobalId, Type),
    Class(ClassId),
    InstanceInStatic,
    /// An instance field of an enclosing class, used in an inner class.
    OuterField(ClassId, FieldRes),
    Unknown,
}

struct FieldRes(crate::ir::FieldId, Type);

/// An assignable location during lowering.
enum AssignTarget {
    Place(Place, Type),
    /// Array element or external object field: writes are dropped.
    Dropped(Type),
}

/// Per-method lowering state.
struct MethodLowerer<'c, 'a> {
    cx: &'c mut ProgramLowerer<'a>,
    /// The method being lowered.
    id: MethodId,
    class: Option<ClassId>,
    is_static: bool,
    b: CfaBuilder,
    cur: usize,
    entry: usize,
    exit: usize,
    vars: Vec<VarDef>,
    var_types: Vec<Type>,
    scope: Vec<(String, VarId)>,
    this: Option<VarId>,
    ret: Option<VarId>,
    ret_type: Type,
    jumps: Vec<JumpCtx>,
    /// The switch expressions around the code being lowered, innermost last.
    yields: Vec<switch_expr::YieldTarget>,
    finallys: Vec<exceptions::Finally<'a>>,
    pending_label: Option<String>,
    temps: u32,
    calls_emitted: usize,
    last_assume: Option<(usize, Expr)>,
    /// Temporaries holding freshly allocated objects (known non-null).
    fresh_objects: Vec<VarId>,
    /// The enclosing `try` statements' exception handlers, innermost last.
    handlers: Vec<exceptions::Handler>,
    /// Where an exception no handler of the method catches goes (then to `throw_exit`).
    exc_exit: usize,
    /// Where the method ends by throwing ([`MethodCfa::throw_exit`]).
    throw_exit: usize,
    /// The method's declared `throws` types.
    throws: Vec<Type>,
    /// The arguments (as written) of the call being lowered.
    call_args: Option<&'a [ast::Expr]>,
    /// The call being lowered, by name (for [`MethodLowerer::protocol_handoff`]).
    call_site: Option<handoff::CallSite>,
    /// The span every statement emitted gets, while set (an inlined constant's
    /// initialiser is lowered at the place that reads it).
    span_at: Option<Span>,
    /// An assignment's target is being lowered.
    assigning: bool,
    /// Their Java static types (for overload resolution).
    call_jtypes: Option<Vec<crate::classes::jtypes::JType>>,
    /// The Java static type of each variable (for overload resolution).
    var_jtypes: Vec<crate::classes::jtypes::JType>,
    /// The written types of the locals and parameters declared with generic arguments
    /// (what a library container returns: [`containers`]).
    generic_locals: Vec<(VarId, ast::TypeRef)>,
}

fn new_method_lowerer<'c, 'a>(
    cx: &'c mut ProgramLowerer<'a>,
    id: MethodId,
    class: Option<ClassId>,
    is_static: bool,
) -> MethodLowerer<'c, 'a> {
    let mut b = CfaBuilder::default();
    let entry = b.node();
    let exit = b.node();
    let exc_exit = b.node();
    let throw_exit = b.node();
    let mut fb = MethodLowerer {
        cx,
        id,
        class,
        is_static,
        b,
        cur: entry,
        entry,
        exit,
        vars: Vec::new(),
        var_types: Vec::new(),
        scope: Vec::new(),
        this: None,
        ret: None,
        ret_type: Type::Void,
        jumps: Vec::new(),
        yields: Vec::new(),
        finallys: Vec::new(),
        pending_label: None,
        temps: 0,
        calls_emitted: 0,
        last_assume: None,
        fresh_objects: Vec::new(),
        handlers: Vec::new(),
        exc_exit,
        throw_exit,
        throws: Vec::new(),
        call_args: None,
        call_site: None,
        span_at: None,
        assigning: false,
        call_jtypes: None,
        var_jtypes: Vec::new(),
        generic_locals: Vec::new(),
    };
    if let (Some(c), false) = (class, is_static) {
        let v = fb.new_var("this", Type::Class(c), VarKind::Param);
        fb.this = Some(v);
    }
    fb
}

fn is_class_like(name: &str) -> bool {
    name.chars().next().is_some_and(char::is_uppercase)
}
