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
//! # Semantic conventions (DESIGN.md §3; they decide verdicts)
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
//!   an approximation. A call on a receiver of unknown type matching by name and arity is
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

/// Options of the lowering.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LowerOptions {
    /// Entry method (`name` or `Class.name`); `main` when `None`.
    pub entry: Option<String>,
}

/// Lower `unit` against the API of `spec`. Returns the program unless an error
/// diagnostic was produced; diagnostics (errors and warnings) are in source order.
pub fn lower_program(
    unit: &CompilationUnit,
    spec: &Spec,
    opts: &LowerOptions,
) -> (Option<Program>, Vec<Diagnostic>) {
    let table = ClassTable::new(unit);
    let api = ApiTable::from_spec(spec);
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
            match table.class_by_name(n) {
                Some(c) => Type::Class(c),
                None => Type::External(n.clone()),
            }
        }));
        wildcard_globals.push(id);
    }
    let mut cx = Cx {
        diags: table.diagnostics.clone(),
        table,
        api,
        globals,
        global_types,
        wildcard_globals,
        approx: Vec::new(),
        first_throw: None,
        first_catch: None,
    };
    let entry = cx.find_entry(opts);
    let mut methods: Vec<MethodCfa> = Vec::new();
    let sigs: Vec<MethodSig<'_>> = cx.table.methods.clone();
    for sig in &sigs {
        let cfa = match sig.source {
            MethodSource::Root => lower_root(&mut cx, sig, entry),
            _ => lower_method(&mut cx, sig),
        };
        methods.push(cfa);
    }
    if let (Some(t), Some(c)) = (cx.first_throw, cx.first_catch) {
        cx.approx.push(Diagnostic::warning(
            "exceptions-not-modelled",
            t,
            "the program throws and catches exceptions, which are not modelled: executions \
             that continue in a catch block are not checked",
        ));
        let _ = c;
    }
    let mut diags = dedup(cx.diags);
    diags.sort_by_key(|d| (d.span.start, d.span.end));
    let approximations = dedup(cx.approx);
    let Some(entry) = entry else {
        return (None, diags);
    };
    if diags.iter().any(|d| d.severity == Severity::Error) {
        return (None, diags);
    }
    let program = Program {
        classes: cx.table.defs.clone(),
        fields: cx.table.fields.clone(),
        globals: cx.globals,
        terminals: cx.api.terminals.clone(),
        methods,
        root: MethodId(0),
        entry,
        approximations,
        instrumented: false,
    };
    (Some(program), diags)
}

fn dedup(ds: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = Vec::new();
    for d in ds {
        if !out.contains(&d) {
            out.push(d);
        }
    }
    out
}

/// Program-wide lowering state.
struct Cx<'a> {
    table: ClassTable<'a>,
    api: ApiTable,
    globals: Vec<GlobalDef>,
    global_types: Vec<Type>,
    wildcard_globals: Vec<GlobalId>,
    diags: Vec<Diagnostic>,
    approx: Vec<Diagnostic>,
    first_throw: Option<Span>,
    first_catch: Option<Span>,
}

impl Cx<'_> {
    fn error(&mut self, code: &'static str, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(code, span, msg));
    }

    fn find_entry(&mut self, opts: &LowerOptions) -> Option<MethodId> {
        let wanted = opts.entry.clone().unwrap_or_else(|| "main".to_string());
        let (class, name) = match wanted.rsplit_once('.') {
            Some((c, n)) => (Some(c.to_string()), n.to_string()),
            None => (None, wanted.clone()),
        };
        let mut cands: Vec<&MethodSig> = self
            .table
            .methods
            .iter()
            .filter(|m| matches!(m.source, MethodSource::Method(_)) && !m.is_abstract)
            .filter(|m| m.name == name)
            .filter(|m| match (&class, m.class) {
                (Some(c), Some(k)) => self.table.class_name(k) == c,
                _ => true,
            })
            .collect();
        if cands.len() > 1 && cands.iter().any(|m| m.is_static) {
            cands.retain(|m| m.is_static);
        }
        if cands.len() > 1 && name == "main" {
            let std_main: Vec<&MethodSig> = cands
                .iter()
                .copied()
                .filter(|m| m.params.len() == 1 && matches!(m.params[0].1, Type::Array(_)))
                .collect();
            if !std_main.is_empty() {
                cands = std_main;
            }
        }
        match cands.as_slice() {
            [one] => Some(one.id),
            [] => {
                let span = self
                    .table
                    .classes
                    .first()
                    .map_or(Span::default(), |c| c.decl.name.span);
                self.error(
                    "entry-not-found",
                    span,
                    format!("entry method `{wanted}` not found (a method with a body is needed)"),
                );
                None
            }
            many => {
                let names: Vec<String> = many.iter().map(|m| m.display.clone()).collect();
                let span = many[1].span;
                self.error(
                    "ambiguous-entry",
                    span,
                    format!(
                        "entry method `{wanted}` is ambiguous: {} (choose one with `Class.method`)",
                        names.join(", ")
                    ),
                );
                None
            }
        }
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
    Super,
    Value(Expr, Type),
}

/// Resolution of a simple name.
enum NameRes {
    Var(VarId, Type),
    Field(FieldRes),
    Global(GlobalId, Type),
    Class(ClassId),
    InstanceInStatic,
    Unknown,
}

struct FieldRes(crate::ir::FieldId, Type);

/// An assignable location during lowering.
enum LPlace {
    Place(Place, Type),
    /// Array element or external object field: writes are dropped.
    Dropped(Type),
}

/// Per-method lowering state.
struct Fb<'c, 'a> {
    cx: &'c mut Cx<'a>,
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
    finallys: Vec<&'a Block>,
    pending_label: Option<String>,
    temps: u32,
    calls_emitted: usize,
    last_assume: Option<(usize, Expr)>,
    /// Temporaries holding freshly allocated objects (known non-null).
    fresh_objects: Vec<VarId>,
}

fn new_fb<'c, 'a>(cx: &'c mut Cx<'a>, class: Option<ClassId>, is_static: bool) -> Fb<'c, 'a> {
    let mut b = CfaBuilder::default();
    let entry = b.node();
    let exit = b.node();
    let mut fb = Fb {
        cx,
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
        finallys: Vec::new(),
        pending_label: None,
        temps: 0,
        calls_emitted: 0,
        last_assume: None,
        fresh_objects: Vec::new(),
    };
    if let (Some(c), false) = (class, is_static) {
        let v = fb.new_var("this", Type::Class(c), VarKind::Param);
        fb.this = Some(v);
    }
    fb
}

fn lower_method<'a>(cx: &mut Cx<'a>, sig: &MethodSig<'a>) -> MethodCfa {
    let mut fb = new_fb(cx, sig.class, sig.is_static);
    for (name, ty, _) in &sig.params {
        fb.new_var(name, ty.clone(), VarKind::Param);
    }
    let nparams = fb.vars.len();
    if sig.ret != Type::Void {
        let v = fb.new_var("%ret", sig.ret.clone(), VarKind::Return);
        fb.ret = Some(v);
        fb.ret_type = sig.ret.clone();
    }
    match sig.source {
        MethodSource::Method(md) => {
            if let Some(body) = &md.body {
                fb.block(body);
            }
        }
        MethodSource::Ctor(cd) => fb.ctor_body(Some(&cd.body)),
        MethodSource::DefaultCtor => fb.ctor_body(None),
        MethodSource::Clinit => fb.clinit(),
        MethodSource::Root => {}
    }
    if !sig.is_abstract {
        let exit = fb.exit;
        fb.goto(exit);
    }
    fb.finish(sig, nparams)
}

fn lower_root(cx: &mut Cx<'_>, sig: &MethodSig<'_>, entry: Option<MethodId>) -> MethodCfa {
    let mut fb = new_fb(cx, None, true);
    let span = Span::default();
    for g in 0..fb.cx.globals.len() {
        let gd = &fb.cx.globals[g];
        if matches!(gd.kind, GlobalKind::Static { .. }) {
            let (id, sort, gspan) = (gd.id, gd.sort, gd.span);
            fb.emit(
                Stmt::Assign {
                    place: Place::Global(id),
                    expr: sort.default_value(),
                },
                gspan,
            );
        }
    }
    let clinits: Vec<MethodId> = fb
        .cx
        .table
        .classes
        .iter()
        .filter_map(|c| c.clinit)
        .collect();
    for m in clinits {
        fb.call_edge(m, Vec::new(), None, span);
    }
    for g in fb.cx.wildcard_globals.clone() {
        fb.emit(
            Stmt::Assume(Expr::binary(BinaryOp::Ne, Expr::Global(g), Expr::Null)),
            span,
        );
    }
    if let Some(e) = entry {
        let esig = fb.cx.table.methods[e.index()].clone();
        let mut args = Vec::new();
        if !esig.is_static {
            let ty = esig.class.map_or(Type::Unknown, Type::Class);
            let v = fb.new_var("%recv", ty, VarKind::Local);
            fb.emit(Stmt::Havoc(Place::Var(v)), esig.span);
            fb.emit(
                Stmt::Assume(Expr::binary(BinaryOp::Ne, Expr::Var(v), Expr::Null)),
                esig.span,
            );
            args.push(Expr::Var(v));
        }
        for (name, ty, pspan) in &esig.params {
            let v = fb.new_var(name, ty.clone(), VarKind::Local);
            fb.emit(Stmt::Havoc(Place::Var(v)), *pspan);
            args.push(Expr::Var(v));
        }
        let call_span = match esig.source {
            MethodSource::Method(md) => md.name.span,
            _ => Span::default(),
        };
        fb.call_edge(e, args, None, call_span);
    }
    let exit = fb.exit;
    fb.goto(exit);
    fb.finish(sig, 0)
}

fn has_effects(e: &ast::Expr) -> bool {
    use ExprKind::*;
    match &e.kind {
        Call { .. } | New { .. } | Assign { .. } | IncDec { .. } => true,
        Int { .. }
        | Float(_)
        | Bool(_)
        | Null
        | String(_)
        | Char(_)
        | Nondet
        | Name(_)
        | This
        | Super
        | Error => false,
        Field { target, .. } => has_effects(target),
        NewArray { dims, init, .. } => {
            dims.iter().any(has_effects) || init.iter().flatten().any(has_effects)
        }
        ArrayLiteral(items) => items.iter().any(has_effects),
        Index { array, index } => has_effects(array) || has_effects(index),
        Unary { operand, .. } | Cast { operand, .. } | InstanceOf { operand, .. } => {
            has_effects(operand)
        }
        Binary { lhs, rhs, .. } => has_effects(lhs) || has_effects(rhs),
        Conditional {
            cond,
            then_expr,
            else_expr,
        } => has_effects(cond) || has_effects(then_expr) || has_effects(else_expr),
    }
}

/// Simple: lowering it has no observable effect — no call, allocation, assignment or null
/// check; at most havocs of fresh temporaries (opaque literals). Such an operand of `&&`,
/// `||` or `?:` may be evaluated unconditionally.
fn is_simple(e: &ast::Expr) -> bool {
    use ExprKind::*;
    match &e.kind {
        Int { .. } | Float(_) | String(_) | Bool(_) | Null | Char(_) | Nondet | Name(_) | This => {
            true
        }
        Unary { operand, .. } | Cast { operand, .. } | InstanceOf { operand, .. } => {
            is_simple(operand)
        }
        Binary { lhs, rhs, .. } => is_simple(lhs) && is_simple(rhs),
        Conditional {
            cond,
            then_expr,
            else_expr,
        } => is_simple(cond) && is_simple(then_expr) && is_simple(else_expr),
        _ => false,
    }
}

fn is_class_like(name: &str) -> bool {
    name.chars().next().is_some_and(char::is_uppercase)
}

impl<'c, 'a> Fb<'c, 'a> {
    // ---------------------------------------------------------------- building blocks

    fn finish(self, sig: &MethodSig<'_>, nparams: usize) -> MethodCfa {
        let (graph, entry, exit) = self.b.finish(self.entry, self.exit);
        MethodCfa {
            id: sig.id,
            name: sig.display.clone(),
            class: sig.class,
            is_static: sig.is_static,
            params: (0..nparams).map(|i| VarId(i as u32)).collect(),
            vars: self.vars,
            ret: self.ret,
            graph,
            entry,
            exit,
            span: sig.span,
            is_abstract: sig.is_abstract,
        }
    }

    fn new_var(&mut self, name: &str, ty: Type, kind: VarKind) -> VarId {
        let id = VarId(self.vars.len() as u32);
        let mut unique = name.to_string();
        let mut k = 2;
        while self.vars.iter().any(|v| v.name == unique) {
            unique = format!("{name}#{k}");
            k += 1;
        }
        self.vars.push(VarDef {
            id,
            name: unique,
            sort: ty.sort(),
            kind,
        });
        self.var_types.push(ty);
        if matches!(kind, VarKind::Param | VarKind::Local) {
            self.scope.push((name.to_string(), id));
        }
        id
    }

    /// Java forbids a local variable that shadows a local or parameter in scope.
    fn check_not_redeclared(&mut self, name: &ast::Ident) {
        if self.scope.iter().any(|(n, _)| *n == name.name) {
            self.error(
                "duplicate-variable",
                name.span,
                format!("variable `{}` is already defined in this method", name.name),
            );
        }
    }

    fn temp(&mut self, ty: Type) -> VarId {
        self.temps += 1;
        let name = format!("%t{}", self.temps);
        self.new_var(&name, ty, VarKind::Temp)
    }

    fn fresh(&mut self) -> usize {
        self.b.node()
    }

    fn set(&mut self, n: usize) {
        self.cur = n;
    }

    fn emit(&mut self, s: Stmt, span: Span) {
        if let Stmt::Assume(e) = &s {
            if let Some((n, last)) = &self.last_assume {
                if *n == self.cur && last == e {
                    return;
                }
            }
        }
        let n = self.fresh();
        let remember = match &s {
            Stmt::Assume(e) => Some(e.clone()),
            _ => None,
        };
        self.b
            .edge(self.cur, n, Edge::Block(vec![Located { node: s, span }]));
        self.cur = n;
        self.last_assume = remember.map(|e| (n, e));
    }

    /// Edge to `target`; the current position becomes unreachable.
    fn goto(&mut self, target: usize) {
        self.b.edge(self.cur, target, Edge::Block(Vec::new()));
        self.cur = self.fresh();
    }

    fn skip_to(&mut self, target: usize) {
        self.b.edge(self.cur, target, Edge::Block(Vec::new()));
    }

    fn call_edge(&mut self, callee: MethodId, args: Vec<Expr>, result: Option<Place>, span: Span) {
        let n = self.fresh();
        self.b.edge(
            self.cur,
            n,
            Edge::Call {
                callee,
                args,
                result,
                span,
            },
        );
        self.calls_emitted += 1;
        self.cur = n;
    }

    fn havoc_temp(&mut self, ty: Type, span: Span) -> Expr {
        let t = self.temp(ty);
        self.emit(Stmt::Havoc(Place::Var(t)), span);
        Expr::Var(t)
    }

    fn assume_nonnull(&mut self, e: &Expr, span: Span) {
        if let Expr::Var(v) = e {
            if Some(*v) == self.this || self.fresh_objects.contains(v) {
                return;
            }
        }
        self.emit(
            Stmt::Assume(Expr::binary(BinaryOp::Ne, e.clone(), Expr::Null)),
            span,
        );
    }

    fn error(&mut self, code: &'static str, span: Span, msg: impl Into<String>) {
        self.cx.error(code, span, msg);
    }

    fn sort_of(&self, e: &Expr) -> Sort {
        match e {
            Expr::Var(v) => self.vars.get(v.index()).map_or(Sort::Int, |d| d.sort),
            Expr::Global(g) => self.cx.globals.get(g.index()).map_or(Sort::Int, |d| d.sort),
            Expr::Field { field, .. } => self
                .cx
                .table
                .fields
                .get(field.index())
                .map_or(Sort::Int, |d| d.sort),
            Expr::Int(_) => Sort::Int,
            Expr::Bool(_) => Sort::Bool,
            Expr::Null => Sort::Ref,
            Expr::Unary { op, .. } => {
                if *op == UnaryOp::Not {
                    Sort::Bool
                } else {
                    Sort::Int
                }
            }
            Expr::Binary { op, lhs, .. } => match op {
                BinaryOp::Lt
                | BinaryOp::Le
                | BinaryOp::Gt
                | BinaryOp::Ge
                | BinaryOp::Eq
                | BinaryOp::Ne
                | BinaryOp::And
                | BinaryOp::Or => Sort::Bool,
                BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor => self.sort_of(lhs),
                _ => Sort::Int,
            },
            Expr::Ite { then_expr, .. } => self.sort_of(then_expr),
        }
    }

    /// Make `e` fit a place of sort `to`: ints and references share the SMT sort `Int`;
    /// a boolean/non-boolean mismatch (boxing) becomes an arbitrary value.
    fn coerce(&mut self, e: Expr, to: Sort, ty: &Type, span: Span) -> Expr {
        let from = self.sort_of(&e);
        if (from == Sort::Bool) == (to == Sort::Bool) {
            return e;
        }
        let t = match to {
            Sort::Bool => Type::Bool,
            Sort::Int => Type::Int,
            Sort::Ref => {
                if ty.is_ref() {
                    ty.clone()
                } else {
                    Type::External("Object".into())
                }
            }
        };
        self.havoc_temp(t, span)
    }

    /// Save `e` in a temporary unless it is a constant or a temporary already.
    fn snapshot(&mut self, e: Expr, ty: &Type, span: Span) -> Expr {
        if e.is_constant() {
            return e;
        }
        if let Expr::Var(v) = &e {
            if self
                .vars
                .get(v.index())
                .is_some_and(|d| d.kind == VarKind::Temp)
                || Some(*v) == self.this
            {
                return e;
            }
        }
        let t = self.temp(ty.clone());
        self.emit(
            Stmt::Assign {
                place: Place::Var(t),
                expr: e,
            },
            span,
        );
        Expr::Var(t)
    }

    // ------------------------------------------------------------------ statements

    fn block(&mut self, b: &'a Block) {
        let mark = self.scope.len();
        for s in &b.stmts {
            self.stmt(s);
        }
        self.scope.truncate(mark);
    }

    fn stmts(&mut self, ss: &'a [ast::Stmt]) {
        for s in ss {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &'a ast::Stmt) {
        let label = self.pending_label.take();
        match &s.kind {
            StmtKind::Block(b) => self.block(b),
            StmtKind::LocalVar { declarators, .. } => {
                for d in declarators {
                    self.local_decl(d);
                }
            }
            StmtKind::Expr(e) => self.expr_stmt(e),
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                let (t, f, after) = (self.fresh(), self.fresh(), self.fresh());
                self.cond(cond, t, f);
                self.set(t);
                self.scoped_stmt(then_branch);
                self.goto(after);
                self.set(f);
                if let Some(e) = else_branch {
                    self.scoped_stmt(e);
                }
                self.goto(after);
                self.set(after);
            }
            StmtKind::While { cond, body } => {
                let head = self.fresh();
                self.goto(head);
                self.set(head);
                let (body_n, after) = (self.fresh(), self.fresh());
                self.cond(cond, body_n, after);
                self.set(body_n);
                self.loop_body(label, after, head, body);
                self.goto(head);
                self.set(after);
            }
            StmtKind::DoWhile { body, cond } => {
                let (body_n, cont, after) = (self.fresh(), self.fresh(), self.fresh());
                self.goto(body_n);
                self.set(body_n);
                self.loop_body(label, after, cont, body);
                self.goto(cont);
                self.set(cont);
                self.cond(cond, body_n, after);
                self.set(after);
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                let mark = self.scope.len();
                for i in init {
                    self.stmt(i);
                }
                let head = self.fresh();
                self.goto(head);
                self.set(head);
                let (body_n, upd, after) = (self.fresh(), self.fresh(), self.fresh());
                match cond {
                    Some(c) => self.cond(c, body_n, after),
                    None => self.goto(body_n),
                }
                self.set(body_n);
                self.loop_body(label, after, upd, body);
                self.goto(upd);
                self.set(upd);
                for u in update {
                    self.expr_stmt(u);
                }
                self.goto(head);
                self.set(after);
                self.scope.truncate(mark);
            }
            StmtKind::ForEach {
                ty,
                name,
                iterable,
                body,
            } => {
                let (it, _) = self.expr(iterable, Some(Sort::Ref));
                self.assume_nonnull(&it, iterable.span);
                let head = self.fresh();
                self.goto(head);
                self.set(head);
                let (body_n, after) = (self.fresh(), self.fresh());
                self.skip_to(after);
                self.goto(body_n);
                self.set(body_n);
                let mark = self.scope.len();
                self.check_not_redeclared(name);
                let vty = self.cx.table.resolve(ty);
                let v = self.new_var(&name.name, vty, VarKind::Local);
                self.emit(Stmt::Havoc(Place::Var(v)), name.span);
                self.loop_body(label, after, head, body);
                self.scope.truncate(mark);
                self.goto(head);
                self.set(after);
            }
            StmtKind::Break(l) => self.jump(l.as_ref(), false, s.span),
            StmtKind::Continue(l) => self.jump(l.as_ref(), true, s.span),
            StmtKind::Return(e) => {
                match (e, self.ret) {
                    (Some(e), Some(r)) => {
                        let rt = self.ret_type.clone();
                        let (v, _) = self.expr(e, Some(rt.sort()));
                        let v = self.coerce(v, rt.sort(), &rt, e.span);
                        self.emit(
                            Stmt::Assign {
                                place: Place::Var(r),
                                expr: v,
                            },
                            s.span,
                        );
                    }
                    (Some(e), None) => {
                        self.expr(e, None);
                        self.error(
                            "unexpected-return-value",
                            e.span,
                            "a void method or constructor cannot return a value",
                        );
                    }
                    (None, Some(_)) => self.error(
                        "missing-return-value",
                        s.span,
                        "this method must return a value",
                    ),
                    (None, None) => {}
                }
                let exit = self.exit;
                self.jump_to(exit, 0);
            }
            StmtKind::Throw(e) => {
                self.expr(e, Some(Sort::Ref));
                if self.cx.first_throw.is_none() {
                    self.cx.first_throw = Some(s.span);
                }
                // The path ends: executions that throw do not complete.
                self.cur = self.fresh();
            }
            StmtKind::Try {
                body,
                catches,
                finally,
            } => {
                if let Some(f) = finally {
                    self.finallys.push(f);
                }
                self.block(body);
                if finally.is_some() {
                    self.finallys.pop();
                }
                if let Some(f) = finally {
                    self.block(f);
                }
                let after = self.fresh();
                self.goto(after);
                for c in catches {
                    if self.cx.first_catch.is_none() {
                        self.cx.first_catch = Some(c.span);
                    }
                    // Catch blocks are never executed; lower them unreachable for their
                    // diagnostics, and report them when they call code that matters.
                    let before = self.calls_emitted;
                    self.cur = self.fresh();
                    let mark = self.scope.len();
                    let ty = c
                        .types
                        .first()
                        .map_or(Type::Unknown, |t| self.cx.table.resolve(t));
                    self.check_not_redeclared(&c.name);
                    self.new_var(&c.name.name, ty, VarKind::Local);
                    self.block(&c.body);
                    self.scope.truncate(mark);
                    if self.calls_emitted > before {
                        self.cx.approx.push(Diagnostic::warning(
                            "catch-not-modelled",
                            c.span,
                            "this catch block calls methods or the API but is never executed: \
                             exceptions are not modelled",
                        ));
                    }
                }
                self.set(after);
            }
            StmtKind::Labeled { label: l, body } => match body.kind {
                StmtKind::While { .. }
                | StmtKind::DoWhile { .. }
                | StmtKind::For { .. }
                | StmtKind::ForEach { .. }
                | StmtKind::Switch { .. } => {
                    self.pending_label = Some(l.name.clone());
                    self.stmt(body);
                }
                _ => {
                    let after = self.fresh();
                    self.jumps.push(JumpCtx {
                        label: Some(l.name.clone()),
                        brk: after,
                        cont: None,
                        breakable: false,
                        finally_depth: self.finallys.len(),
                    });
                    self.scoped_stmt(body);
                    self.jumps.pop();
                    self.goto(after);
                    self.set(after);
                }
            },
            StmtKind::Switch { scrutinee, cases } => self.switch(label, scrutinee, cases),
            StmtKind::Empty | StmtKind::Error => {}
        }
    }

    fn scoped_stmt(&mut self, s: &'a ast::Stmt) {
        let mark = self.scope.len();
        self.stmt(s);
        self.scope.truncate(mark);
    }

    fn loop_body(&mut self, label: Option<String>, brk: usize, cont: usize, body: &'a ast::Stmt) {
        self.jumps.push(JumpCtx {
            label,
            brk,
            cont: Some(cont),
            breakable: true,
            finally_depth: self.finallys.len(),
        });
        self.scoped_stmt(body);
        self.jumps.pop();
    }

    fn switch(
        &mut self,
        label: Option<String>,
        scrutinee: &'a ast::Expr,
        cases: &'a [ast::SwitchCase],
    ) {
        let (s, st) = self.expr(scrutinee, None);
        let labels_have_effects = cases.iter().flat_map(|c| &c.labels).any(has_effects);
        let s = if labels_have_effects {
            self.snapshot(s, &st, scrutinee.span)
        } else {
            s
        };
        let after = self.fresh();
        let entries: Vec<usize> = cases.iter().map(|_| self.fresh()).collect();
        for (i, c) in cases.iter().enumerate() {
            if c.labels.is_empty() {
                continue;
            }
            let mut tests = Vec::new();
            for l in &c.labels {
                let (lv, lt) = self.expr(l, Some(st.sort()));
                let (eq, _) = self.binop(BinaryOp::Eq, s.clone(), &st, lv, &lt, l.span);
                tests.push(eq);
            }
            let mut it = tests.into_iter();
            let Some(first) = it.next() else { continue };
            let test = it.fold(first, |a, b| Expr::binary(BinaryOp::Or, a, b));
            let next = self.fresh();
            let here = self.cur;
            self.emit(Stmt::Assume(test.clone()), c.span);
            self.goto(entries[i]);
            self.set(here);
            self.emit(Stmt::Assume(test.negate()), c.span);
            self.goto(next);
            self.set(next);
        }
        match cases.iter().position(|c| c.is_default) {
            Some(d) => self.goto(entries[d]),
            None => self.goto(after),
        }
        self.jumps.push(JumpCtx {
            label,
            brk: after,
            cont: None,
            breakable: true,
            finally_depth: self.finallys.len(),
        });
        let mark = self.scope.len();
        for (i, c) in cases.iter().enumerate() {
            self.set(entries[i]);
            self.stmts(&c.body);
            let next = entries.get(i + 1).copied().unwrap_or(after);
            self.goto(next);
        }
        self.scope.truncate(mark);
        self.jumps.pop();
        self.set(after);
    }

    fn jump(&mut self, label: Option<&Ident>, is_continue: bool, span: Span) {
        let found = self.jumps.iter().rposition(|j| match label {
            Some(l) => j.label.as_deref() == Some(l.name.as_str()),
            None => {
                if is_continue {
                    j.cont.is_some()
                } else {
                    j.breakable
                }
            }
        });
        let target = found.and_then(|i| {
            let j = &self.jumps[i];
            let t = if is_continue { j.cont } else { Some(j.brk) };
            t.map(|t| (t, j.finally_depth))
        });
        match target {
            Some((t, depth)) => self.jump_to(t, depth),
            None => {
                let what = if is_continue { "continue" } else { "break" };
                match label {
                    Some(l) => self.error(
                        "undefined-label",
                        l.span,
                        format!("no enclosing statement labelled `{}` for `{what}`", l.name),
                    ),
                    None => self.error(
                        "jump-outside-loop",
                        span,
                        format!("`{what}` outside of a loop or switch"),
                    ),
                }
                self.cur = self.fresh();
            }
        }
    }

    /// Leave to `target`, running the finally blocks between here and `depth`.
    fn jump_to(&mut self, target: usize, depth: usize) {
        let saved = self.finallys.clone();
        while self.finallys.len() > depth {
            let Some(f) = self.finallys.pop() else { break };
            let saved_jumps = std::mem::take(&mut self.jumps);
            // Jumps inside the finally block see the enclosing targets only.
            self.jumps = saved_jumps
                .iter()
                .filter(|j| j.finally_depth <= self.finallys.len())
                .map(|j| JumpCtx {
                    label: j.label.clone(),
                    brk: j.brk,
                    cont: j.cont,
                    breakable: j.breakable,
                    finally_depth: j.finally_depth,
                })
                .collect();
            self.block(f);
            self.jumps = saved_jumps;
        }
        self.finallys = saved;
        self.goto(target);
    }

    fn local_decl(&mut self, d: &'a ast::VarDeclarator) {
        self.check_not_redeclared(&d.name);
        let declared = self.cx.table.resolve(&d.ty);
        match &d.init {
            None => {
                self.new_var(&d.name.name, declared, VarKind::Local);
            }
            Some(init) => {
                let want = if declared == Type::Unknown {
                    None
                } else {
                    Some(declared.sort())
                };
                // `T x = call(…)` assigns the call's result directly.
                if let (ExprKind::Call { target, name, args }, true) =
                    (&init.kind, declared != Type::Unknown)
                {
                    let v = self.new_var_deferred(&d.name.name, declared.clone());
                    self.call(
                        init.span,
                        target.as_deref(),
                        name,
                        args,
                        true,
                        want,
                        Some(v),
                    );
                    self.scope.push((d.name.name.clone(), v));
                    return;
                }
                let (e, ty) = self.init_expr(init, &declared, want);
                let ty = if declared == Type::Unknown {
                    ty
                } else {
                    declared
                };
                let v = self.new_var_deferred(&d.name.name, ty.clone());
                let e = self.coerce(e, ty.sort(), &ty, init.span);
                self.emit(
                    Stmt::Assign {
                        place: Place::Var(v),
                        expr: e,
                    },
                    d.span,
                );
                self.scope.push((d.name.name.clone(), v));
            }
        }
    }

    /// A local whose name enters the scope later (after its initialiser).
    fn new_var_deferred(&mut self, name: &str, ty: Type) -> VarId {
        let v = self.new_var(name, ty, VarKind::Local);
        self.scope.pop();
        v
    }

    fn init_expr(
        &mut self,
        init: &'a ast::Expr,
        declared: &Type,
        want: Option<Sort>,
    ) -> (Expr, Type) {
        if let ExprKind::ArrayLiteral(items) = &init.kind {
            for i in items {
                self.expr(i, None);
            }
            let t = self.temp(declared.clone());
            self.emit(
                Stmt::Alloc {
                    var: t,
                    kind: AllocKind::Array,
                },
                init.span,
            );
            return (Expr::Var(t), declared.clone());
        }
        self.expr(init, want)
    }

    fn expr_stmt(&mut self, e: &'a ast::Expr) {
        match &e.kind {
            ExprKind::Call { target, name, args } => {
                self.call(e.span, target.as_deref(), name, args, false, None, None);
            }
            ExprKind::Assign { op, target, value } => {
                self.assign(*op, target, value, e.span);
            }
            ExprKind::IncDec { op, target } => {
                self.incdec(*op, target, false, e.span);
            }
            _ => {
                self.expr(e, None);
            }
        }
    }

    fn ctor_body(&mut self, body: Option<&'a Block>) {
        let Some(c) = self.class else { return };
        let stmts: &'a [ast::Stmt] = body.map_or(&[], |b| b.stmts.as_slice());
        let (explicit, rest) = match stmts.split_first() {
            Some((first, rest)) => match &first.kind {
                StmtKind::Expr(ast::Expr {
                    kind:
                        ExprKind::Call {
                            target: None,
                            name,
                            args,
                        },
                    span,
                }) if name.name == "this" || name.name == "super" => {
                    (Some((name.name == "this", args, *span)), rest)
                }
                _ => (None, stmts),
            },
            None => (None, stmts),
        };
        let this = self.this.map_or(Expr::Null, Expr::Var);
        if let Some((true, args, span)) = explicit {
            let (vals, tys) = self.eval_args(args);
            match self.cx.table.lookup_ctor(c, &tys) {
                Some(k) => {
                    let args = self.coerce_args(k, vals, span);
                    let mut all = vec![this];
                    all.extend(args);
                    self.call_edge(k, all, None, span);
                }
                None => self.error(
                    "no-matching-constructor",
                    span,
                    format!(
                        "`{}` has no constructor with {} argument(s)",
                        self.cx.table.class_name(c),
                        tys.len()
                    ),
                ),
            }
        } else {
            // Defaults for the class's own fields.
            let own: Vec<_> = self.cx.table.classes[c.index()].fields.clone();
            for (_, f) in own {
                let fd = &self.cx.table.fields[f.index()];
                let (sort, span) = (fd.sort, fd.span);
                self.emit(
                    Stmt::Assign {
                        place: Place::Field {
                            obj: this.clone(),
                            field: f,
                        },
                        expr: sort.default_value(),
                    },
                    span,
                );
            }
            // super(…)
            let (args, span): (&'a [ast::Expr], Span) = match explicit {
                Some((_, args, span)) => (args.as_slice(), span),
                None => (&[], self.cx.table.classes[c.index()].decl.name.span),
            };
            let (vals, tys) = self.eval_args(args);
            if let Some(sup) = self.cx.table.classes[c.index()].superclass {
                match self.cx.table.lookup_ctor(sup, &tys) {
                    Some(k) => {
                        let args = self.coerce_args(k, vals, span);
                        let mut all = vec![this.clone()];
                        all.extend(args);
                        self.call_edge(k, all, None, span);
                    }
                    None => self.error(
                        "no-matching-constructor",
                        span,
                        format!(
                            "superclass `{}` has no constructor with {} argument(s)",
                            self.cx.table.class_name(sup),
                            tys.len()
                        ),
                    ),
                }
            }
            // Instance initialisers in order.
            let decl = self.cx.table.classes[c.index()].decl;
            for m in &decl.members {
                match m {
                    Member::Field(fd) if !fd.modifiers.is_static && !decl.is_interface => {
                        for d in &fd.declarators {
                            let Some(init) = &d.init else { continue };
                            let Some(f) = self.cx.table.lookup_field(c, &d.name.name) else {
                                continue;
                            };
                            let ty = self.cx.table.field_types[f.index()].clone();
                            let (v, _) = self.init_expr(init, &ty, Some(ty.sort()));
                            let v = self.coerce(v, ty.sort(), &ty, init.span);
                            self.emit(
                                Stmt::Assign {
                                    place: Place::Field {
                                        obj: this.clone(),
                                        field: f,
                                    },
                                    expr: v,
                                },
                                d.span,
                            );
                        }
                    }
                    Member::Initializer(i) if !i.is_static => self.block(&i.body),
                    _ => {}
                }
            }
        }
        let mark = self.scope.len();
        self.stmts(rest);
        self.scope.truncate(mark);
    }

    fn clinit(&mut self) {
        let Some(c) = self.class else { return };
        let decl = self.cx.table.classes[c.index()].decl;
        for m in &decl.members {
            match m {
                Member::Field(fd) if fd.modifiers.is_static || decl.is_interface => {
                    for d in &fd.declarators {
                        let Some(init) = &d.init else { continue };
                        let Some(g) = self.cx.table.lookup_static(c, &d.name.name) else {
                            continue;
                        };
                        let ty = self.cx.global_types[g.index()].clone();
                        let (v, _) = self.init_expr(init, &ty, Some(ty.sort()));
                        let v = self.coerce(v, ty.sort(), &ty, init.span);
                        self.emit(
                            Stmt::Assign {
                                place: Place::Global(g),
                                expr: v,
                            },
                            d.span,
                        );
                    }
                }
                Member::Initializer(i) if i.is_static => self.block(&i.body),
                _ => {}
            }
        }
    }

    // ----------------------------------------------------------------- conditions

    /// Branch on `e`: to `t` when true, to `f` when false. Leaves `cur` unreachable.
    fn cond(&mut self, e: &'a ast::Expr, t: usize, f: usize) {
        match &e.kind {
            ExprKind::Binary {
                op: BinaryOp::And,
                lhs,
                rhs,
            } => {
                let mid = self.fresh();
                self.cond(lhs, mid, f);
                self.set(mid);
                self.cond(rhs, t, f);
            }
            ExprKind::Binary {
                op: BinaryOp::Or,
                lhs,
                rhs,
            } => {
                let mid = self.fresh();
                self.cond(lhs, t, mid);
                self.set(mid);
                self.cond(rhs, t, f);
            }
            ExprKind::Unary {
                op: UnaryOp::Not,
                operand,
            } => self.cond(operand, f, t),
            ExprKind::Bool(true) => self.goto(t),
            ExprKind::Bool(false) => self.goto(f),
            ExprKind::Nondet => {
                self.skip_to(t);
                self.goto(f);
            }
            ExprKind::Conditional {
                cond,
                then_expr,
                else_expr,
            } => {
                let (a, b) = (self.fresh(), self.fresh());
                self.cond(cond, a, b);
                self.set(a);
                self.cond(then_expr, t, f);
                self.set(b);
                self.cond(else_expr, t, f);
            }
            _ => {
                let (p, _) = self.expr(e, Some(Sort::Bool));
                let p = self.coerce(p, Sort::Bool, &Type::Bool, e.span);
                let here = self.cur;
                self.emit(Stmt::Assume(p.clone()), e.span);
                self.goto(t);
                self.set(here);
                self.emit(Stmt::Assume(p.negate()), e.span);
                self.goto(f);
            }
        }
    }

    /// A boolean value computed by branching (for `&&`, `||`, `?:` with complex parts).
    fn cond_value(&mut self, e: &'a ast::Expr) -> Expr {
        let v = self.temp(Type::Bool);
        let (t, f, join) = (self.fresh(), self.fresh(), self.fresh());
        self.cond(e, t, f);
        for (n, b) in [(t, true), (f, false)] {
            self.set(n);
            self.emit(
                Stmt::Assign {
                    place: Place::Var(v),
                    expr: Expr::Bool(b),
                },
                e.span,
            );
            self.goto(join);
        }
        self.set(join);
        Expr::Var(v)
    }

    // ---------------------------------------------------------------- expressions

    fn resolve_name(&self, name: &str) -> NameRes {
        if let Some((_, v)) = self.scope.iter().rev().find(|(n, _)| n == name) {
            return NameRes::Var(*v, self.var_types[v.index()].clone());
        }
        let t = &self.cx.table;
        let mut cls = self.class;
        let mut first = true;
        while let Some(c) = cls {
            if let Some(f) = t.lookup_field(c, name) {
                if !first || self.is_static {
                    return NameRes::InstanceInStatic;
                }
                return NameRes::Field(FieldRes(f, t.field_types[f.index()].clone()));
            }
            if let Some(g) = t.lookup_static(c, name) {
                return NameRes::Global(g, self.cx.global_types[g.index()].clone());
            }
            first = false;
            cls = t.classes[c.index()].outer;
        }
        match t.class_by_name(name) {
            Some(c) => NameRes::Class(c),
            None => NameRes::Unknown,
        }
    }

    fn this_expr(&mut self, span: Span) -> Option<Expr> {
        match self.this {
            Some(v) => Some(Expr::Var(v)),
            None => {
                self.error(
                    "this-in-static-context",
                    span,
                    "`this` cannot be used in a static context",
                );
                None
            }
        }
    }

    /// Resolve the target of a field access or call.
    fn target(&mut self, e: &'a ast::Expr) -> Option<Target> {
        match &e.kind {
            ExprKind::Name(id) => match self.resolve_name(&id.name) {
                NameRes::Class(c) => Some(Target::Class(c)),
                NameRes::Unknown if is_class_like(&id.name) => Some(Target::External),
                _ => {
                    let (v, t) = self.expr(e, Some(Sort::Ref));
                    Some(Target::Value(v, t))
                }
            },
            ExprKind::Super => Some(Target::Super),
            ExprKind::Field { target, name } if self.is_package_path(target) => {
                if is_class_like(&name.name) {
                    Some(match self.cx.table.class_by_name(&name.name) {
                        Some(c) => Target::Class(c),
                        None => Target::External,
                    })
                } else {
                    self.expr(e, Some(Sort::Ref));
                    None
                }
            }
            _ => {
                let (v, t) = self.expr(e, Some(Sort::Ref));
                Some(Target::Value(v, t))
            }
        }
    }

    /// `java.util` in `java.util.Random`: a chain of lower-case names that are not
    /// variables, fields or classes.
    fn is_package_path(&self, e: &ast::Expr) -> bool {
        match &e.kind {
            ExprKind::Name(id) => {
                !is_class_like(&id.name) && matches!(self.resolve_name(&id.name), NameRes::Unknown)
            }
            ExprKind::Field { target, name } => {
                !is_class_like(&name.name) && self.is_package_path(target)
            }
            _ => false,
        }
    }

    fn unknown_value(&mut self, want: Option<Sort>, span: Span) -> (Expr, Type) {
        let ty = match want {
            Some(Sort::Bool) => Type::Bool,
            Some(Sort::Ref) => Type::Unknown,
            _ => Type::Unknown,
        };
        let t = self.temp(ty.clone());
        if want == Some(Sort::Ref) {
            self.vars[t.index()].sort = Sort::Ref;
        }
        self.emit(Stmt::Havoc(Place::Var(t)), span);
        (Expr::Var(t), ty)
    }

    /// Lower `e` to a pure expression, emitting the statements its evaluation needs.
    fn expr(&mut self, e: &'a ast::Expr, want: Option<Sort>) -> (Expr, Type) {
        let span = e.span;
        match &e.kind {
            ExprKind::Int { value, .. } => (Expr::Int(*value), Type::Int),
            ExprKind::Char(c) => (Expr::Int(i64::from(*c)), Type::Int),
            ExprKind::Bool(b) => (Expr::Bool(*b), Type::Bool),
            ExprKind::Null => (Expr::Null, Type::Null),
            ExprKind::Float(_) => (self.havoc_temp(Type::Float, span), Type::Float),
            ExprKind::String(_) => {
                let ty = Type::External("String".into());
                (self.havoc_temp(ty.clone(), span), ty)
            }
            ExprKind::Nondet => {
                let ty = if want == Some(Sort::Bool) {
                    Type::Bool
                } else {
                    Type::Int
                };
                (self.havoc_temp(ty.clone(), span), ty)
            }
            ExprKind::Name(id) => match self.resolve_name(&id.name) {
                NameRes::Var(v, t) => (Expr::Var(v), t),
                NameRes::Field(FieldRes(f, t)) => match self.this {
                    Some(this) => (
                        Expr::Field {
                            obj: Box::new(Expr::Var(this)),
                            field: f,
                        },
                        t,
                    ),
                    None => {
                        self.error(
                            "instance-field-in-static-context",
                            id.span,
                            format!("instance field `{}` used in a static context", id.name),
                        );
                        self.unknown_value(want, span)
                    }
                },
                NameRes::Global(g, t) => (Expr::Global(g), t),
                NameRes::InstanceInStatic => {
                    self.error(
                        "instance-field-in-static-context",
                        id.span,
                        format!(
                            "instance field `{}` used in a static context (or of an enclosing \
                             instance, which is not supported)",
                            id.name
                        ),
                    );
                    self.unknown_value(want, span)
                }
                NameRes::Class(_) => {
                    self.error(
                        "expected-value",
                        id.span,
                        format!("`{}` is a class, not a value", id.name),
                    );
                    self.unknown_value(want, span)
                }
                NameRes::Unknown => {
                    self.error(
                        "undefined-variable",
                        id.span,
                        format!("cannot find variable `{}`", id.name),
                    );
                    self.unknown_value(want, span)
                }
            },
            ExprKind::This => match self.this_expr(span) {
                Some(t) => (t, self.class.map_or(Type::Unknown, Type::Class)),
                None => self.unknown_value(want, span),
            },
            ExprKind::Super => {
                self.error(
                    "invalid-super",
                    span,
                    "`super` can only be used to access a field or call a method",
                );
                self.unknown_value(want, span)
            }
            ExprKind::Field { target, name } => self.field_read(target, name, want, span),
            ExprKind::Call { target, name, args } => {
                self.call(span, target.as_deref(), name, args, true, want, None)
            }
            ExprKind::New { class, args } => self.new_object(class, args, span),
            ExprKind::NewArray {
                elem,
                dims,
                rank,
                init,
            } => {
                for d in dims {
                    self.expr(d, Some(Sort::Int));
                }
                for i in init.iter().flatten() {
                    self.expr(i, None);
                }
                let mut ty = self.cx.table.resolve(elem);
                for _ in 0..(*rank).max(1) {
                    ty = Type::Array(Box::new(ty));
                }
                let t = self.temp(ty.clone());
                self.emit(
                    Stmt::Alloc {
                        var: t,
                        kind: AllocKind::Array,
                    },
                    span,
                );
                (Expr::Var(t), ty)
            }
            ExprKind::ArrayLiteral(_) => {
                let ty = Type::Array(Box::new(Type::Unknown));
                self.init_expr(e, &ty, None)
            }
            ExprKind::Index { array, index } => {
                let (a, at) = self.expr(array, Some(Sort::Ref));
                let a = if has_effects(index) {
                    self.snapshot(a, &at, array.span)
                } else {
                    a
                };
                self.expr(index, Some(Sort::Int));
                self.assume_nonnull(&a, span);
                let elem = match at {
                    Type::Array(t) => *t,
                    _ => Type::Unknown,
                };
                if elem == Type::Unknown {
                    return self.unknown_value(want, span);
                }
                (self.havoc_temp(elem.clone(), span), elem)
            }
            ExprKind::Unary { op, operand } => match op {
                UnaryOp::Not => {
                    if is_simple(operand) {
                        let (v, _) = self.expr(operand, Some(Sort::Bool));
                        let v = self.coerce(v, Sort::Bool, &Type::Bool, span);
                        (v.negate(), Type::Bool)
                    } else {
                        (self.cond_value(e), Type::Bool)
                    }
                }
                _ => {
                    let (v, t) = self.expr(operand, Some(Sort::Int));
                    if t == Type::Float {
                        (self.havoc_temp(Type::Float, span), Type::Float)
                    } else if *op == UnaryOp::Plus {
                        (v, Type::Int)
                    } else {
                        (
                            Expr::Unary {
                                op: *op,
                                arg: Box::new(v),
                            },
                            Type::Int,
                        )
                    }
                }
            },
            ExprKind::IncDec { op, target } => self.incdec(*op, target, true, span),
            ExprKind::Binary { op, lhs, rhs } => match op {
                BinaryOp::And | BinaryOp::Or => {
                    if is_simple(rhs) {
                        let (l, _) = self.expr(lhs, Some(Sort::Bool));
                        let l = self.coerce(l, Sort::Bool, &Type::Bool, lhs.span);
                        let (r, _) = self.expr(rhs, Some(Sort::Bool));
                        let r = self.coerce(r, Sort::Bool, &Type::Bool, rhs.span);
                        (Expr::binary(*op, l, r), Type::Bool)
                    } else {
                        (self.cond_value(e), Type::Bool)
                    }
                }
                _ => {
                    let operand_want = match op {
                        BinaryOp::Eq | BinaryOp::Ne => None,
                        BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor => want,
                        _ => Some(Sort::Int),
                    };
                    let (l, lt) = self.expr(lhs, operand_want);
                    let l = if has_effects(rhs) {
                        self.snapshot(l, &lt, lhs.span)
                    } else {
                        l
                    };
                    let rwant = match op {
                        BinaryOp::Eq | BinaryOp::Ne => Some(self.sort_of(&l)),
                        _ => operand_want,
                    };
                    let (r, rt) = self.expr(rhs, rwant);
                    self.binop(*op, l, &lt, r, &rt, span)
                }
            },
            ExprKind::Assign { op, target, value } => self.assign(*op, target, value, span),
            ExprKind::Conditional {
                cond,
                then_expr,
                else_expr,
            } => {
                if is_simple(cond) && is_simple(then_expr) && is_simple(else_expr) {
                    let (c, _) = self.expr(cond, Some(Sort::Bool));
                    let c = self.coerce(c, Sort::Bool, &Type::Bool, cond.span);
                    let (a, at) = self.expr(then_expr, want);
                    let (b, bt) = self.expr(else_expr, want);
                    let ty = if at == Type::Null { bt } else { at };
                    let b = self.coerce(b, self.sort_of(&a), &ty, else_expr.span);
                    (
                        Expr::Ite {
                            cond: Box::new(c),
                            then_expr: Box::new(a),
                            else_expr: Box::new(b),
                        },
                        ty,
                    )
                } else {
                    let (tn, fnode, join) = (self.fresh(), self.fresh(), self.fresh());
                    self.cond(cond, tn, fnode);
                    self.set(tn);
                    let (a, at) = self.expr(then_expr, want);
                    let sort = self.sort_of(&a);
                    let v = self.temp(at.clone());
                    self.vars[v.index()].sort = sort;
                    self.emit(
                        Stmt::Assign {
                            place: Place::Var(v),
                            expr: a,
                        },
                        then_expr.span,
                    );
                    self.goto(join);
                    self.set(fnode);
                    let (b, bt) = self.expr(else_expr, Some(sort));
                    let b = self.coerce(b, sort, &bt, else_expr.span);
                    self.emit(
                        Stmt::Assign {
                            place: Place::Var(v),
                            expr: b,
                        },
                        else_expr.span,
                    );
                    self.goto(join);
                    self.set(join);
                    let ty = if at == Type::Null { bt } else { at };
                    (Expr::Var(v), ty)
                }
            }
            ExprKind::Cast { ty, operand } => {
                let cty = self.cx.table.resolve(ty);
                let (v, vt) = self.expr(operand, Some(cty.sort()));
                if vt == Type::Float && cty == Type::Int {
                    return (self.havoc_temp(Type::Int, span), Type::Int);
                }
                let v = self.coerce(v, cty.sort(), &cty, span);
                (v, cty)
            }
            ExprKind::InstanceOf { operand, .. } => {
                self.expr(operand, Some(Sort::Ref));
                (self.havoc_temp(Type::Bool, span), Type::Bool)
            }
            ExprKind::Error => self.unknown_value(want, span),
        }
    }

    /// `l op r` over pure operands (`&&`/`||` here are logical, both sides evaluated).
    fn binop(
        &mut self,
        op: BinaryOp,
        l: Expr,
        lt: &Type,
        r: Expr,
        rt: &Type,
        span: Span,
    ) -> (Expr, Type) {
        use BinaryOp::*;
        let float = *lt == Type::Float || *rt == Type::Float;
        match op {
            Add if lt.is_string() || rt.is_string() => {
                let ty = Type::External("String".into());
                (self.havoc_temp(ty.clone(), span), ty)
            }
            Lt | Le | Gt | Ge if float => (self.havoc_temp(Type::Bool, span), Type::Bool),
            Lt | Le | Gt | Ge => (Expr::binary(op, l, r), Type::Bool),
            Eq | Ne => {
                let (ls, rs) = (self.sort_of(&l), self.sort_of(&r));
                if float || (ls == Sort::Bool) != (rs == Sort::Bool) {
                    (self.havoc_temp(Type::Bool, span), Type::Bool)
                } else {
                    (Expr::binary(op, l, r), Type::Bool)
                }
            }
            And | Or => (Expr::binary(op, l, r), Type::Bool),
            BitAnd | BitOr | BitXor if self.sort_of(&l) == Sort::Bool => {
                let op = match op {
                    BitAnd => And,
                    BitOr => Or,
                    _ => Ne,
                };
                let r = self.coerce(r, Sort::Bool, &Type::Bool, span);
                (Expr::binary(op, l, r), Type::Bool)
            }
            _ if float => (self.havoc_temp(Type::Float, span), Type::Float),
            _ => {
                let l = self.coerce(l, Sort::Int, &Type::Int, span);
                let r = self.coerce(r, Sort::Int, &Type::Int, span);
                (Expr::binary(op, l, r), Type::Int)
            }
        }
    }

    fn field_read(
        &mut self,
        target: &'a ast::Expr,
        name: &'a Ident,
        want: Option<Sort>,
        span: Span,
    ) -> (Expr, Type) {
        match self.target(target) {
            None => self.unknown_value(want, span),
            Some(Target::Class(c)) => match self.cx.table.lookup_static(c, &name.name) {
                Some(g) => (Expr::Global(g), self.cx.global_types[g.index()].clone()),
                None if self.cx.table.has_external_ancestor(c) => self.unknown_value(want, span),
                None => {
                    self.error(
                        "undefined-field",
                        name.span,
                        format!(
                            "class `{}` has no static field `{}`",
                            self.cx.table.class_name(c),
                            name.name
                        ),
                    );
                    self.unknown_value(want, span)
                }
            },
            Some(Target::External) => self.unknown_value(want, span),
            Some(Target::Super) => {
                let sup = self
                    .class
                    .and_then(|c| self.cx.table.classes[c.index()].superclass);
                match (sup, self.this) {
                    (Some(s), Some(this)) => {
                        self.member_read(Expr::Var(this), Type::Class(s), name, want, span)
                    }
                    (None, Some(_)) => self.unknown_value(want, span),
                    _ => {
                        self.this_expr(span);
                        self.unknown_value(want, span)
                    }
                }
            }
            Some(Target::Value(o, ot)) => self.member_read(o, ot, name, want, span),
        }
    }

    fn member_read(
        &mut self,
        o: Expr,
        ot: Type,
        name: &'a Ident,
        want: Option<Sort>,
        span: Span,
    ) -> (Expr, Type) {
        match &ot {
            Type::Array(_) if name.name == "length" => {
                self.assume_nonnull(&o, span);
                let t = self.temp(Type::Int);
                self.emit(Stmt::Havoc(Place::Var(t)), span);
                self.emit(
                    Stmt::Assume(Expr::binary(BinaryOp::Ge, Expr::Var(t), Expr::Int(0))),
                    span,
                );
                (Expr::Var(t), Type::Int)
            }
            Type::Class(c) => {
                let c = *c;
                if let Some(f) = self.cx.table.lookup_field(c, &name.name) {
                    self.assume_nonnull(&o, span);
                    let ty = self.cx.table.field_types[f.index()].clone();
                    return (
                        Expr::Field {
                            obj: Box::new(o),
                            field: f,
                        },
                        ty,
                    );
                }
                if let Some(g) = self.cx.table.lookup_static(c, &name.name) {
                    return (Expr::Global(g), self.cx.global_types[g.index()].clone());
                }
                if self.cx.table.has_external_ancestor(c) {
                    self.assume_nonnull(&o, span);
                    return self.unknown_value(want, span);
                }
                self.error(
                    "undefined-field",
                    name.span,
                    format!(
                        "class `{}` has no field `{}`",
                        self.cx.table.class_name(c),
                        name.name
                    ),
                );
                self.unknown_value(want, span)
            }
            Type::External(_) | Type::Unknown | Type::Null | Type::Array(_) => {
                self.assume_nonnull(&o, span);
                self.unknown_value(want, span)
            }
            Type::Int | Type::Bool | Type::Float | Type::Void => {
                self.error(
                    "not-an-object",
                    span,
                    format!("cannot access field `{}` of a primitive value", name.name),
                );
                self.unknown_value(want, span)
            }
        }
    }

    /// Lower an assignment target.
    fn place(&mut self, e: &'a ast::Expr, value_has_effects: bool) -> Option<LPlace> {
        match &e.kind {
            ExprKind::Name(_) => {
                let (v, t) = self.expr(e, None);
                match v {
                    Expr::Var(x) => Some(LPlace::Place(Place::Var(x), t)),
                    Expr::Global(g) => Some(LPlace::Place(Place::Global(g), t)),
                    Expr::Field { obj, field } => {
                        Some(LPlace::Place(Place::Field { obj: *obj, field }, t))
                    }
                    _ => None,
                }
            }
            ExprKind::Field { target, name } => {
                let (v, t) = self.field_read(target, name, None, e.span);
                match v {
                    Expr::Global(g) => Some(LPlace::Place(Place::Global(g), t)),
                    Expr::Field { obj, field } => {
                        let obj = if value_has_effects {
                            let ot = Type::Unknown;
                            self.snapshot(*obj, &ot, target.span)
                        } else {
                            *obj
                        };
                        Some(LPlace::Place(Place::Field { obj, field }, t))
                    }
                    _ => Some(LPlace::Dropped(t)),
                }
            }
            ExprKind::Index { array, index } => {
                let (a, at) = self.expr(array, Some(Sort::Ref));
                let a = if has_effects(index) {
                    self.snapshot(a, &at, array.span)
                } else {
                    a
                };
                self.expr(index, Some(Sort::Int));
                self.assume_nonnull(&a, e.span);
                let elem = match at {
                    Type::Array(t) => *t,
                    _ => Type::Unknown,
                };
                Some(LPlace::Dropped(elem))
            }
            _ => {
                self.error(
                    "invalid-assignment-target",
                    e.span,
                    "this expression cannot be assigned",
                );
                self.expr(e, None);
                None
            }
        }
    }

    fn read(p: &Place) -> Expr {
        match p {
            Place::Var(v) => Expr::Var(*v),
            Place::Global(g) => Expr::Global(*g),
            Place::Field { obj, field } => Expr::Field {
                obj: Box::new(obj.clone()),
                field: *field,
            },
        }
    }

    fn assign(
        &mut self,
        op: Option<BinaryOp>,
        target: &'a ast::Expr,
        value: &'a ast::Expr,
        span: Span,
    ) -> (Expr, Type) {
        // `x = call(…)` for a local `x`: the call's result goes to `x` directly.
        if let (
            None,
            ExprKind::Name(id),
            ExprKind::Call {
                target: ct,
                name,
                args,
            },
        ) = (op, &target.kind, &value.kind)
        {
            if let NameRes::Var(v, t) = self.resolve_name(&id.name) {
                self.call(
                    value.span,
                    ct.as_deref(),
                    name,
                    args,
                    true,
                    Some(t.sort()),
                    Some(v),
                );
                return (Expr::Var(v), t);
            }
        }
        let effects = has_effects(value);
        let place = self.place(target, effects);
        match place {
            Some(LPlace::Place(p, pt)) => {
                let old = match op {
                    Some(_) if effects => {
                        let cur = Self::read(&p);
                        Some(self.snapshot(cur, &pt, target.span))
                    }
                    Some(_) => Some(Self::read(&p)),
                    None => None,
                };
                let (v, vt) = self.init_expr(value, &pt, Some(pt.sort()));
                let (v, _) = match (op, old) {
                    (Some(o), Some(old)) => self.binop(o, old, &pt, v, &vt, span),
                    _ => (v, vt),
                };
                let v = self.coerce(v, pt.sort(), &pt, span);
                self.emit(
                    Stmt::Assign {
                        place: p.clone(),
                        expr: v,
                    },
                    span,
                );
                (Self::read(&p), pt)
            }
            Some(LPlace::Dropped(t)) => {
                let (v, vt) = self.expr(value, Some(t.sort()));
                if op.is_none() {
                    (v, vt)
                } else {
                    self.unknown_value(Some(t.sort()), span)
                }
            }
            None => {
                self.expr(value, None);
                self.unknown_value(None, span)
            }
        }
    }

    fn incdec(
        &mut self,
        op: IncDecOp,
        target: &'a ast::Expr,
        want_value: bool,
        span: Span,
    ) -> (Expr, Type) {
        let delta = match op {
            IncDecOp::PreInc | IncDecOp::PostInc => BinaryOp::Add,
            IncDecOp::PreDec | IncDecOp::PostDec => BinaryOp::Sub,
        };
        let post = matches!(op, IncDecOp::PostInc | IncDecOp::PostDec);
        match self.place(target, false) {
            Some(LPlace::Place(p, pt)) => {
                if pt == Type::Float {
                    self.emit(Stmt::Havoc(p.clone()), span);
                    return (Self::read(&p), pt);
                }
                let old = Self::read(&p);
                let saved = if post && want_value {
                    Some(self.snapshot(old.clone(), &pt, span))
                } else {
                    None
                };
                let base = saved.clone().unwrap_or(old);
                self.emit(
                    Stmt::Assign {
                        place: p.clone(),
                        expr: Expr::binary(delta, base, Expr::Int(1)),
                    },
                    span,
                );
                (saved.unwrap_or_else(|| Self::read(&p)), pt)
            }
            Some(LPlace::Dropped(t)) => self.unknown_value(Some(t.sort()), span),
            None => self.unknown_value(Some(Sort::Int), span),
        }
    }

    /// Evaluate arguments left to right; an argument followed by one with side effects is
    /// saved first.
    fn eval_args(&mut self, args: &'a [ast::Expr]) -> (Vec<Expr>, Vec<Type>) {
        let mut vals = Vec::new();
        let mut tys = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let (v, t) = self.expr(a, None);
            let later_effects = args[i + 1..].iter().any(has_effects);
            let v = if later_effects {
                self.snapshot(v, &t, a.span)
            } else {
                v
            };
            vals.push(v);
            tys.push(t);
        }
        (vals, tys)
    }

    fn coerce_args(&mut self, callee: MethodId, vals: Vec<Expr>, span: Span) -> Vec<Expr> {
        let params: Vec<Type> = self.cx.table.methods[callee.index()]
            .params
            .iter()
            .map(|p| p.1.clone())
            .collect();
        vals.into_iter()
            .enumerate()
            .map(|(i, v)| match params.get(i) {
                Some(p) => self.coerce(v, p.sort(), p, span),
                None => v,
            })
            .collect()
    }

    fn new_object(
        &mut self,
        class: &'a ast::TypeRef,
        args: &'a [ast::Expr],
        span: Span,
    ) -> (Expr, Type) {
        let ty = self.cx.table.resolve(class);
        let (vals, tys) = self.eval_args(args);
        match ty {
            Type::Class(c) => {
                let t = self.temp(ty.clone());
                self.fresh_objects.push(t);
                let ctor = self.cx.table.lookup_ctor(c, &tys);
                let info = &self.cx.table.classes[c.index()];
                if info.decl.is_interface || info.decl.modifiers.is_abstract {
                    self.error(
                        "abstract-instantiation",
                        class.span,
                        format!("cannot instantiate abstract `{}`", info.decl.name.name),
                    );
                }
                self.emit(
                    Stmt::Alloc {
                        var: t,
                        kind: AllocKind::Class(c),
                    },
                    span,
                );
                match ctor {
                    Some(k) => {
                        let args = self.coerce_args(k, vals, span);
                        let mut all = vec![Expr::Var(t)];
                        all.extend(args);
                        self.call_edge(k, all, None, span);
                    }
                    None => self.error(
                        "no-matching-constructor",
                        span,
                        format!(
                            "`{}` has no constructor with {} argument(s)",
                            self.cx.table.class_name(c),
                            tys.len()
                        ),
                    ),
                }
                (Expr::Var(t), ty)
            }
            Type::External(n) => {
                let ty = Type::External(n.clone());
                let t = self.temp(ty.clone());
                self.fresh_objects.push(t);
                self.emit(
                    Stmt::Alloc {
                        var: t,
                        kind: AllocKind::External(n),
                    },
                    span,
                );
                (Expr::Var(t), ty)
            }
            other => {
                self.error("invalid-new", class.span, "`new` needs a class type");
                let t = self.temp(other.clone());
                (Expr::Var(t), other)
            }
        }
    }

    /// Where a call's result goes: the destination local, or a fresh temporary.
    fn result_var(
        &mut self,
        dest: Option<VarId>,
        want_result: bool,
        ty: &Type,
        want: Option<Sort>,
    ) -> Option<VarId> {
        if let Some(d) = dest {
            if (self.vars[d.index()].sort == Sort::Bool) == (ty.sort() == Sort::Bool)
                || *ty == Type::Unknown
            {
                return Some(d);
            }
        }
        if !want_result && dest.is_none() {
            return None;
        }
        if *ty == Type::Void {
            return None;
        }
        let t = self.temp(ty.clone());
        if *ty == Type::Unknown {
            if let Some(s) = want {
                self.vars[t.index()].sort = s;
            }
        }
        Some(t)
    }

    /// Finish a call whose value is in `res` (if any), moving it to `dest` if needed.
    fn call_value(
        &mut self,
        res: Option<VarId>,
        dest: Option<VarId>,
        ty: Type,
        span: Span,
    ) -> (Expr, Type) {
        match (res, dest) {
            (Some(r), Some(d)) if r != d => {
                let dt = self.var_types[d.index()].clone();
                let v = self.coerce(Expr::Var(r), dt.sort(), &dt, span);
                self.emit(
                    Stmt::Assign {
                        place: Place::Var(d),
                        expr: v,
                    },
                    span,
                );
                (Expr::Var(d), dt)
            }
            (Some(r), _) => (Expr::Var(r), ty),
            (None, Some(d)) => {
                self.emit(Stmt::Havoc(Place::Var(d)), span);
                (Expr::Var(d), self.var_types[d.index()].clone())
            }
            (None, None) => (Expr::Int(0), Type::Void),
        }
    }

    /// An external call: arguments already evaluated; the result is arbitrary.
    fn external_call(
        &mut self,
        dest: Option<VarId>,
        want_result: bool,
        want: Option<Sort>,
        span: Span,
    ) -> (Expr, Type) {
        let ty = match want {
            Some(Sort::Bool) => Type::Bool,
            _ => Type::Unknown,
        };
        let res = self.result_var(dest, want_result, &ty, want);
        if let Some(r) = res {
            self.emit(Stmt::Havoc(Place::Var(r)), span);
        }
        self.call_value(res, dest, ty, span)
    }

    #[allow(clippy::too_many_arguments)]
    fn call(
        &mut self,
        span: Span,
        target: Option<&'a ast::Expr>,
        name: &'a Ident,
        args: &'a [ast::Expr],
        want_result: bool,
        want: Option<Sort>,
        dest: Option<VarId>,
    ) -> (Expr, Type) {
        if target.is_none() && (name.name == "this" || name.name == "super") {
            self.eval_args(args);
            self.error(
                "misplaced-constructor-call",
                span,
                format!(
                    "`{}(…)` must be the first statement of a constructor",
                    name.name
                ),
            );
            return self.unknown_value(want, span);
        }
        // Receiver first, then arguments (Java's order).
        let tgt = match target {
            None => None,
            Some(t) => {
                let tg = self.target(t);
                match tg {
                    Some(Target::Value(v, ty)) if args.iter().any(has_effects) => {
                        let v = self.snapshot(v, &ty, t.span);
                        Some(Some(Target::Value(v, ty)))
                    }
                    other => Some(other),
                }
            }
        };
        let (vals, tys) = self.eval_args(args);
        let cur_class = self.class;
        match tgt {
            // Unresolvable target: already diagnosed.
            Some(None) => self.unknown_value(want, span),
            None => {
                // Unqualified: own class chain, then enclosing classes (static methods).
                let mut cls = cur_class;
                let mut first = true;
                while let Some(c) = cls {
                    if let Some(m) = self.cx.table.lookup_method(c, &name.name, &tys) {
                        let sig = &self.cx.table.methods[m.index()];
                        if sig.is_static {
                            return self.static_call(m, vals, dest, want_result, span);
                        }
                        if !first || self.is_static {
                            self.error(
                                "instance-method-in-static-context",
                                name.span,
                                format!(
                                    "instance method `{}` called from a static context",
                                    name.name
                                ),
                            );
                            return self.unknown_value(want, span);
                        }
                        let this = self.this.map_or(Expr::Null, Expr::Var);
                        return self.instance_call(
                            this,
                            Type::Class(c),
                            name,
                            vals,
                            tys,
                            want_result,
                            want,
                            dest,
                            span,
                        );
                    }
                    first = false;
                    cls = self.cx.table.classes[c.index()].outer;
                }
                match (cur_class, self.this) {
                    (Some(c), Some(this))
                        if self.cx.table.has_external_ancestor(c)
                            || OBJECT_METHODS.contains(&name.name.as_str()) =>
                    {
                        self.instance_call(
                            Expr::Var(this),
                            Type::Class(c),
                            name,
                            vals,
                            tys,
                            want_result,
                            want,
                            dest,
                            span,
                        )
                    }
                    (Some(c), None) if self.cx.table.has_external_ancestor(c) => {
                        self.external_call(dest, want_result, want, span)
                    }
                    _ => {
                        self.error(
                            "undefined-method",
                            name.span,
                            format!(
                                "cannot find method `{}` with {} argument(s)",
                                name.name,
                                tys.len()
                            ),
                        );
                        self.unknown_value(want, span)
                    }
                }
            }
            Some(Some(Target::Class(c))) => {
                match self.cx.table.lookup_method(c, &name.name, &tys) {
                    Some(m) if self.cx.table.methods[m.index()].is_static => {
                        self.static_call(m, vals, dest, want_result, span)
                    }
                    Some(_) => {
                        self.error(
                            "instance-method-in-static-context",
                            name.span,
                            format!("instance method `{}` called on a class", name.name),
                        );
                        self.unknown_value(want, span)
                    }
                    None if self.cx.table.has_external_ancestor(c) => {
                        self.external_call(dest, want_result, want, span)
                    }
                    None => {
                        self.error(
                            "undefined-method",
                            name.span,
                            format!(
                                "class `{}` has no static method `{}` with {} argument(s)",
                                self.cx.table.class_name(c),
                                name.name,
                                tys.len()
                            ),
                        );
                        self.unknown_value(want, span)
                    }
                }
            }
            Some(Some(Target::External)) => self.external_call(dest, want_result, want, span),
            Some(Some(Target::Super)) => {
                let Some(this) = self.this_expr(span) else {
                    return self.unknown_value(want, span);
                };
                let sup = cur_class.and_then(|c| self.cx.table.classes[c.index()].superclass);
                let m = sup.and_then(|s| self.cx.table.lookup_method(s, &name.name, &tys));
                match m {
                    Some(m) if !self.cx.table.methods[m.index()].is_abstract => {
                        if self.cx.table.methods[m.index()].is_static {
                            return self.static_call(m, vals, dest, want_result, span);
                        }
                        let mut all = vec![this];
                        all.extend(self.coerce_args(m, vals, span));
                        let ret = self.cx.table.methods[m.index()].ret.clone();
                        let res = self.result_var(dest, want_result, &ret, want);
                        self.call_edge(m, all, res.map(Place::Var), span);
                        self.call_value(res, dest, ret, span)
                    }
                    Some(_) => {
                        self.error(
                            "abstract-super-call",
                            name.span,
                            format!("`super.{}` is abstract", name.name),
                        );
                        self.unknown_value(want, span)
                    }
                    None => self.external_call(dest, want_result, want, span),
                }
            }
            Some(Some(Target::Value(recv, rty))) => {
                self.instance_call(recv, rty, name, vals, tys, want_result, want, dest, span)
            }
        }
    }

    fn static_call(
        &mut self,
        m: MethodId,
        vals: Vec<Expr>,
        dest: Option<VarId>,
        want_result: bool,
        span: Span,
    ) -> (Expr, Type) {
        let args = self.coerce_args(m, vals, span);
        let ret = self.cx.table.methods[m.index()].ret.clone();
        let res = self.result_var(dest, want_result, &ret, None);
        self.call_edge(m, args, res.map(Place::Var), span);
        self.call_value(res, dest, ret, span)
    }

    #[allow(clippy::too_many_arguments)]
    fn instance_call(
        &mut self,
        recv: Expr,
        rty: Type,
        name: &'a Ident,
        vals: Vec<Expr>,
        tys: Vec<Type>,
        want_result: bool,
        want: Option<Sort>,
        dest: Option<VarId>,
        span: Span,
    ) -> (Expr, Type) {
        let arity = vals.len();
        // API detection.
        let (terminals, untyped) = match &rty {
            Type::Class(c) => {
                let names = self.cx.table.supertype_names(*c);
                (self.cx.api.matching(&names, &name.name, arity), false)
            }
            Type::External(n) => (
                self.cx
                    .api
                    .matching(std::slice::from_ref(n), &name.name, arity),
                false,
            ),
            Type::Unknown | Type::Null => (self.cx.api.matching_untyped(&name.name, arity), true),
            Type::Array(_) => (Vec::new(), false),
            Type::Int | Type::Bool | Type::Float | Type::Void => {
                self.error(
                    "not-an-object",
                    span,
                    format!("cannot call `{}` on a primitive value", name.name),
                );
                return self.unknown_value(want, span);
            }
        };
        if untyped && !terminals.is_empty() {
            self.cx.diags.push(Diagnostic::warning(
                "untyped-api-call",
                span,
                format!(
                    "the receiver's type is unknown; `{}` with {arity} argument(s) is treated as an API call",
                    name.name
                ),
            ));
        }
        if let Type::External(n) = &rty {
            if terminals.is_empty() && !self.cx.api.matching_untyped(&name.name, arity).is_empty() {
                let msg = format!(
                    "`{}` on `{n}` has the name and arity of an API method, but `{n}` is not a \
                     wildcard type: it is not treated as an API call",
                    name.name
                );
                self.cx
                    .diags
                    .push(Diagnostic::warning("possible-api-call", span, msg.clone()));
                self.cx
                    .approx
                    .push(Diagnostic::warning("possible-api-call", span, msg));
            }
        }
        self.assume_nonnull(&recv, span);
        if !terminals.is_empty() {
            let n = self.fresh();
            self.b.edge(
                self.cur,
                n,
                Edge::ApiCall {
                    receiver: recv.clone(),
                    method: name.name.clone(),
                    args: vals.clone(),
                    terminals,
                    span,
                },
            );
            self.calls_emitted += 1;
            self.cur = n;
        }
        // In-file implementations.
        let Type::Class(c) = rty else {
            return self.external_call(dest, want_result, want, span);
        };
        let Some(decl) = self.cx.table.lookup_method(c, &name.name, &tys) else {
            let known = self.cx.table.has_external_ancestor(c)
                || OBJECT_METHODS.contains(&name.name.as_str())
                || self.cur_is_api_call();
            if !known {
                self.error(
                    "undefined-method",
                    name.span,
                    format!(
                        "class `{}` has no method `{}` with {arity} argument(s)",
                        self.cx.table.class_name(c),
                        name.name
                    ),
                );
            }
            return self.external_call(dest, want_result, want, span);
        };
        let dsig = self.cx.table.methods[decl.index()].clone();
        if dsig.is_static {
            return self.static_call(decl, vals, dest, want_result, span);
        }
        let impls = self.cx.table.implementations(c, decl);
        if impls.iter().all(Option::is_none) {
            return self.external_call(dest, want_result, want, span);
        }
        let ret = dsig.ret.clone();
        let res = self.result_var(dest, want_result, &ret, want);
        let mut all = vec![recv];
        all.extend(self.coerce_args(decl, vals, span));
        let join = self.fresh();
        let start = self.cur;
        for alt in impls {
            self.set(start);
            match alt {
                Some(m) => {
                    self.b.edge(
                        start,
                        join,
                        Edge::Call {
                            callee: m,
                            args: all.clone(),
                            result: res.map(Place::Var),
                            span,
                        },
                    );
                    self.calls_emitted += 1;
                }
                None => match res {
                    Some(r) => self.b.edge(
                        start,
                        join,
                        Edge::Block(vec![Located {
                            node: Stmt::Havoc(Place::Var(r)),
                            span,
                        }]),
                    ),
                    None => self.b.edge(start, join, Edge::Block(Vec::new())),
                },
            }
        }
        self.set(join);
        self.call_value(res, dest, ret, span)
    }

    /// True when the edge into the current node is an API call (the method is the API's).
    fn cur_is_api_call(&self) -> bool {
        self.b
            .edges
            .iter()
            .flatten()
            .any(|(_, b, e)| *b == self.cur && matches!(e, Edge::ApiCall { .. }))
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::{Edge, Program, Stmt};
    use crate::testutil::{both, lower_ok, lower_src};
    use crate::{instrument, render_text};
    use cfp_syntax::Severity;

    const LOCK_SPEC: &str = "wildcard $1 : ReentrantLock;\nS -> $1.lock() S $1.unlock() S | ε;\n";

    /// The paper's Fig. 2(a), as a Java program.
    pub(crate) const FIG2: &str = r#"import java.util.concurrent.locks.ReentrantLock;
class Main {
  void foo(ReentrantLock l) {
    if (*) {
      acquire(l);
      foo(l);
      release(l);
    }
  }
  void acquire(ReentrantLock l1) { l1.lock(); }
  void release(ReentrantLock l2) { l2.unlock(); }
  public static void main(String[] args) {
    new Main().foo(new ReentrantLock());
  }
}
"#;

    fn method<'p>(p: &'p Program, name: &str) -> &'p crate::ir::MethodCfa {
        p.methods
            .iter()
            .find(|m| m.name == name)
            .unwrap_or_else(|| panic!("no method {name}"))
    }

    fn codes(diags: &[cfp_syntax::Diagnostic]) -> Vec<&'static str> {
        diags.iter().map(|d| d.code).collect()
    }

    #[test]
    fn fig2_lock() {
        insta::assert_snapshot!(both(FIG2, LOCK_SPEC));
    }

    #[test]
    fn fig2_structure_matches_fig3() {
        let p = instrument(&lower_ok(FIG2, LOCK_SPEC));
        // foo: branch at the entry, calls acquire, foo, release in sequence.
        let foo = method(&p, "Main.foo");
        let calls: Vec<String> = foo
            .edges()
            .filter_map(|(_, _, e)| match e {
                Edge::Call { callee, .. } => Some(p.methods[callee.index()].name.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(calls, ["Main.acquire", "Main.foo", "Main.release"]);
        assert_eq!(foo.graph.edges(foo.entry).count(), 2);
        // acquire: `if (l1 == $1) $1.lock()` — one Api edge guarded by `l1 == $1`.
        let acq = method(&p, "Main.acquire");
        let api: Vec<_> = acq
            .edges()
            .filter(|(_, _, e)| matches!(e, Edge::Api { .. }))
            .collect();
        assert_eq!(api.len(), 1);
        assert_eq!(api[0].1, acq.exit);
        let text = render_text(&p, FIG2);
        assert!(text.contains("assume l1 == $1"), "{text}");
        assert!(text.contains("assume l1 != $1"), "{text}");
        assert!(text.contains("emit $1.unlock()"), "{text}");
        assert!(!p
            .methods
            .iter()
            .any(|m| m.edges().any(|(_, _, e)| matches!(e, Edge::ApiCall { .. }))));
    }

    #[test]
    fn try_finally_with_return_break_continue() {
        let src = r#"class Res { void open() {} void close() {} }
class Main {
  static int f(Res r, int x) {
    r.open();
    try {
      while (x > 0) {
        if (x == 5) return 1;
        if (x == 7) break;
        if (x == 9) { x -= 2; continue; }
        x--;
      }
    } finally {
      r.close();
    }
    return 0;
  }
  public static void main(String[] args) { f(new Res(), Input.readInt()); }
}
"#;
        let spec = "wildcard $1 : Res;\nS -> $1.open() S $1.close() S | ε;\n";
        let p = lower_ok(src, spec);
        let f = method(&p, "Main.f");
        // close() runs on the return path and on the normal path (break and loop exit
        // share the normal completion): two API calls of close.
        let closes = f
            .edges()
            .filter(|(_, _, e)| matches!(e, Edge::ApiCall { method, .. } if method == "close"))
            .count();
        assert_eq!(closes, 2);
        // Every path from the entry to the exit goes through a close().
        insta::assert_snapshot!(both(src, spec));
    }

    #[test]
    fn finally_runs_on_continue_inside_loop() {
        let src = r#"class Res { void open() {} void close() {} }
class Main {
  public static void main(String[] args) {
    Res r = new Res();
    for (int i = 0; i < 3; i++) {
      r.open();
      try { if (*) continue; if (*) break; } finally { r.close(); }
    }
  }
}
"#;
        let spec = "wildcard $1 : Res;\nS -> $1.open() S $1.close() S | ε;\n";
        let p = lower_ok(src, spec);
        let m = method(&p, "Main.main");
        let closes = m
            .edges()
            .filter(|(_, _, e)| matches!(e, Edge::ApiCall { method, .. } if method == "close"))
            .count();
        assert_eq!(closes, 3, "{}", render_text(&p, src));
    }

    #[test]
    fn constructors_and_field_initialisers() {
        let src = r#"class Base {
  int count = 1;
  boolean on;
  static int made = 10;
  static { made = made + 1; }
  Base(int c) { count = c; made++; }
}
class Derived extends Base {
  Base peer = null;
  int extra;
  { extra = 4; }
  Derived() { super(2); extra += 1; }
  Derived(int x) { this(); extra = x; }
}
class Plain { int z = 7; }
class Main {
  public static void main(String[] args) {
    Base b = new Derived(5);
    Plain p = new Plain();
    int s = p.z + b.count;
  }
}
"#;
        insta::assert_snapshot!(both(src, LOCK_SPEC));
    }

    #[test]
    fn inheritance_and_override_dispatch() {
        let src = r#"abstract class Shape {
  abstract int area();
  int twice() { return 2 * area(); }
}
class Square extends Shape {
  int side;
  int area() { return side * side; }
}
class Rect extends Square {
  int w;
  int area() { return side * w; }
}
class Circle extends Shape {
  int area() { return 3; }
  public String toString() { return "c"; }
}
class Main {
  public static void main(String[] args) {
    Shape s = new Rect();
    int a = s.area();
    Square q = new Square();
    int b = q.area() + s.twice();
    Circle c = new Circle();
    int h = c.hashCode();
  }
}
"#;
        let p = lower_ok(src, LOCK_SPEC);
        let m = method(&p, "Main.main");
        let callees: Vec<String> = m
            .edges()
            .filter_map(|(_, _, e)| match e {
                Edge::Call { callee, .. } => Some(p.methods[callee.index()].name.clone()),
                _ => None,
            })
            .collect();
        // s.area(): Square, Rect, Circle implementations; q.area(): Square, Rect.
        for want in ["Square.area", "Rect.area", "Circle.area", "Shape.twice"] {
            assert!(callees.iter().any(|c| c == want), "{callees:?}");
        }
        assert_eq!(callees.iter().filter(|c| *c == "Circle.area").count(), 1);
        assert_eq!(callees.iter().filter(|c| *c == "Rect.area").count(), 2);
        insta::assert_snapshot!(both(src, LOCK_SPEC));
    }

    #[test]
    fn loops_with_break_and_continue() {
        let src = r#"class Main {
  static int g;
  public static void main(String[] args) {
    int y = Input.readInt();
    while (y > 0) { if (y == 3) break; if (y == 4) { y = y - 2; continue; } y--; }
    do { y++; if (y == 10) continue; } while (y < 20);
    for (int i = 0, j = 1; i < y; i++, j *= 2) { if (i == 2) continue; if (j > 100) break; g += i; }
    outer:
    for (int k : args) {
      for (;;) { if (*) break outer; else if (*) continue outer; else break; }
      g = k;
    }
    block: { if (y == 0) break block; g = 1; }
  }
}
"#;
        insta::assert_snapshot!(both(src, LOCK_SPEC));
    }

    #[test]
    fn switch_with_fall_through() {
        let src = r#"class Main {
  static int g;
  public static void main(String[] args) {
    int y = Input.readInt();
    switch (y) {
      case 1: g = 1;
      case 2: case 3: g = 2; break;
      default: g = 0;
      case 4: g = 4;
    }
  }
}
"#;
        insta::assert_snapshot!(both(src, LOCK_SPEC));
    }

    #[test]
    fn short_circuit_conditions() {
        let src = r#"class Node { Node next; int v; }
class Main {
  static boolean check(int x) { return x > 0; }
  public static void main(String[] args) {
    Node n = null;
    int y = Input.readInt();
    if (n != null && n.v > 0) y = 1;
    if (y < 0 || check(y) && !(y == 2)) y = 2;
    boolean b = y > 0 && check(y);
    boolean c = y > 1 && y < 5;
    int z = b ? y : -y;
    int w = n == null ? 0 : n.v;
    while (c || *) { c = !c; }
  }
}
"#;
        insta::assert_snapshot!(both(src, LOCK_SPEC));
    }

    #[test]
    fn external_calls_and_opaque_values() {
        let src = r#"import java.util.Random;
class Main {
  static int f;
  public static void main(String[] args) {
    Random r = new Random(42);
    int x = r.nextInt(10);
    String s = "a" + x;
    System.out.println(s);
    int[] arr = new int[x];
    arr[0] = 5;
    int k = arr[1] + arr.length;
    double d = 1.5 * x;
    char c = 'A';
    if (s instanceof String) f = c;
    long big = java.lang.Math.max(x, 3);
  }
}
"#;
        let p = lower_ok(src, LOCK_SPEC);
        let m = method(&p, "Main.main");
        assert!(m.edges().all(|(_, _, e)| !matches!(e, Edge::Call { .. })));
        insta::assert_snapshot!(both(src, LOCK_SPEC));
    }

    pub(crate) const WAKELOCK: &str = r#"class WakeLock {
  int count;
  void acquire() { count++; }
  void release() { count--; }
  boolean isHeld() { return count > 0; }
}
class Main {
  static void work(WakeLock wl) {
    wl.acquire();
    if (Input.readBool()) { wl.release(); return; }
    if (wl.isHeld()) wl.release();
  }
  public static void main(String[] a) {
    WakeLock wl = new WakeLock();
    work(wl);
  }
}
"#;
    pub(crate) const WAKELOCK_SPEC: &str =
        "wildcard $1 : WakeLock;\nS -> $1.acquire() S $1.release() S | ε;\n";

    #[test]
    fn wakelock_model_class_emits_and_runs_the_body() {
        let p = lower_ok(WAKELOCK, WAKELOCK_SPEC);
        let work = method(&p, "Main.work");
        // Every ApiCall edge is immediately followed by the call of the model's body.
        for (_, b, e) in work.edges() {
            if let Edge::ApiCall { method: name, .. } = e {
                let next: Vec<_> = work.graph.edges(b).collect();
                assert_eq!(next.len(), 1);
                match next[0].weight() {
                    Edge::Call { callee, .. } => {
                        assert_eq!(p.methods[callee.index()].name, format!("WakeLock.{name}"))
                    }
                    other => panic!("expected the model call, got {other:?}"),
                }
            }
        }
        // isHeld is not a terminal: a plain call.
        let text = render_text(&p, WAKELOCK);
        assert!(text.contains(":= call WakeLock.isHeld(wl)"), "{text}");
        insta::assert_snapshot!(both(WAKELOCK, WAKELOCK_SPEC));
    }

    #[test]
    fn api_calls_through_subclasses_and_unknown_receivers() {
        let src = r#"import java.util.concurrent.locks.ReentrantLock;
class MyLock extends ReentrantLock {
  int n;
  void lock() { super.lock(); n++; }
}
class Main {
  public static void main(String[] args) {
    MyLock m = new MyLock();
    m.lock();
    m.unlock();
    var u = Factory.make();
    u.lock();
    java.util.concurrent.locks.Lock l = m;
    l.unlock();
  }
}
"#;
        let (p, diags) = lower_src(src, LOCK_SPEC, None);
        let p = p.expect("lowers");
        assert!(codes(&diags).contains(&"untyped-api-call"), "{diags:?}");
        assert!(codes(&diags).contains(&"possible-api-call"), "{diags:?}");
        assert_eq!(
            p.approximations.iter().map(|d| d.code).collect::<Vec<_>>(),
            ["possible-api-call"]
        );
        let m = method(&p, "Main.main");
        let apis: Vec<&str> = m
            .edges()
            .filter_map(|(_, _, e)| match e {
                Edge::ApiCall { method, .. } => Some(method.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(apis, ["lock", "unlock", "lock"]);
        // super.lock() inside the override emits nothing more.
        let ml = method(&p, "MyLock.lock");
        assert!(ml
            .edges()
            .all(|(_, _, e)| !matches!(e, Edge::ApiCall { .. })));
        insta::assert_snapshot!(both(src, LOCK_SPEC));
    }

    #[test]
    fn hoisted_calls_keep_java_evaluation_order() {
        let src = r#"class Main {
  static int x;
  static int bump() { x = x + 1; return x; }
  public static void main(String[] args) {
    int a = x + bump();
    int b = bump() + x;
  }
}
"#;
        let p = lower_ok(src, LOCK_SPEC);
        let text = render_text(&p, src);
        // `x` is read before bump() runs: it is saved first.
        assert!(text.contains("%t1 := Main.x"), "{text}");
        assert!(text.contains("a := %t1 + %t2"), "{text}");
        assert!(text.contains("b := %t3 + Main.x"), "{text}");
    }

    #[test]
    fn undefined_names_are_errors_with_spans() {
        let src = "class Main {\n  public static void main(String[] a) {\n    int x = yy + 1;\n    zz(x);\n    Main m = null;\n    m.nope = 3;\n    m.missing();\n  }\n}\n";
        let (p, diags) = lower_src(src, LOCK_SPEC, None);
        assert!(p.is_none());
        let errs: Vec<(&str, &str)> = diags
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| (d.code, &src[d.span.start as usize..d.span.end as usize]))
            .collect();
        assert_eq!(
            errs,
            [
                ("undefined-variable", "yy"),
                ("undefined-method", "zz"),
                ("undefined-field", "nope"),
                ("undefined-method", "missing"),
            ]
        );
    }

    #[test]
    fn redeclared_locals_are_errors_but_sibling_scopes_are_not() {
        let src = "class Main {\n  static void f(int p) {\n    int p = 1;\n    { int a = 1; } { int a = 2; }\n    for (int i = 0; i < 2; i++) { }\n    for (int i = 0; i < 2; i++) { int a; for (int a : new int[1]) { } }\n    try { } catch (RuntimeException p) { }\n  }\n  public static void main(String[] a) { f(1); }\n}\n";
        let (p, diags) = lower_src(src, LOCK_SPEC, None);
        assert!(p.is_none());
        let errs: Vec<(&str, u32)> = diags
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| (d.code, d.span.start))
            .collect();
        let at = |needle: &str| src.find(needle).unwrap() as u32;
        assert_eq!(
            errs,
            [
                ("duplicate-variable", at("p = 1")),
                ("duplicate-variable", at("a : new")),
                ("duplicate-variable", at("RuntimeException p") + 17),
            ]
        );
    }

    #[test]
    fn static_context_errors() {
        let src = "class Main {\n  int f;\n  void g() {}\n  public static void main(String[] a) {\n    f = 1;\n    g();\n    this.g();\n  }\n}\n";
        let (p, diags) = lower_src(src, LOCK_SPEC, None);
        assert!(p.is_none());
        assert_eq!(
            codes(&diags),
            [
                "instance-field-in-static-context",
                "instance-method-in-static-context",
                "this-in-static-context"
            ]
        );
    }

    #[test]
    fn entry_selection() {
        let src = "class A { static void run() {} }\nclass B { static void run() {} void go(int n) {} }\n";
        let (p, diags) = lower_src(src, LOCK_SPEC, None);
        assert!(p.is_none());
        assert_eq!(codes(&diags), ["entry-not-found"]);
        let (p, diags) = lower_src(src, LOCK_SPEC, Some("run"));
        assert!(p.is_none());
        assert_eq!(codes(&diags), ["ambiguous-entry"]);
        assert!(
            diags[0].message.contains("A.run, B.run"),
            "{}",
            diags[0].message
        );
        let p = lower_src(src, LOCK_SPEC, Some("B.run")).0.expect("B.run");
        assert_eq!(p.methods[p.entry.index()].name, "B.run");
        // An instance entry gets an arbitrary non-null receiver and arbitrary arguments.
        let p = lower_src(src, LOCK_SPEC, Some("go")).0.expect("go");
        let text = render_text(&p, src);
        assert!(
            text.contains("havoc %recv; assume %recv != null; havoc n"),
            "{text}"
        );
        assert!(text.contains("call B.go(%recv, n)"), "{text}");
    }

    #[test]
    fn throw_and_catch_are_approximations() {
        let src = r#"class Res { void open() {} void close() {} }
class Main {
  public static void main(String[] a) {
    Res r = new Res();
    try {
      r.open();
      if (*) throw new RuntimeException();
      r.close();
    } catch (RuntimeException e) {
      r.close();
    }
  }
}
"#;
        let spec = "wildcard $1 : Res;\nS -> $1.open() S $1.close() S | ε;\n";
        let p = lower_ok(src, spec);
        let mut got: Vec<&str> = p.approximations.iter().map(|d| d.code).collect();
        got.sort_unstable();
        assert_eq!(got, ["catch-not-modelled", "exceptions-not-modelled"]);
        // The throwing path ends: the only way to the exit closes the resource.
        let m = method(&p, "Main.main");
        let closes = m
            .edges()
            .filter(|(_, _, e)| matches!(e, Edge::ApiCall { method, .. } if method == "close"))
            .count();
        assert_eq!(closes, 1);
        // A throw without any catch is exact: no approximation.
        let src2 = "class Main {\n  public static void main(String[] a) {\n    if (*) throw new IllegalStateException();\n  }\n}\n";
        assert!(lower_ok(src2, spec).approximations.is_empty());
    }

    #[test]
    fn alloc_is_fresh_and_receivers_are_assumed_non_null() {
        let src = "class C { int f; void m() {} }\nclass Main {\n  public static void main(String[] a) {\n    C c = new C();\n    C d = c;\n    d.m();\n    d.f = 1;\n    c.f = d.f + 1;\n  }\n}\n";
        let p = lower_ok(src, LOCK_SPEC);
        let m = method(&p, "Main.main");
        let stmts: Vec<&Stmt> = m
            .edges()
            .flat_map(|(_, _, e)| match e {
                Edge::Block(b) => b.iter().map(|s| &s.node).collect(),
                _ => Vec::new(),
            })
            .collect();
        assert!(stmts.iter().any(|s| matches!(s, Stmt::Alloc { .. })));
        let text = render_text(&p, src);
        assert!(text.contains("assume d != null"), "{text}");
        assert!(
            text.contains("d.f := 1; assume c != null; c.f := d.f + 1"),
            "{text}"
        );
    }

    #[test]
    fn lowering_is_deterministic() {
        let a = both(FIG2, LOCK_SPEC);
        let b = both(FIG2, LOCK_SPEC);
        assert_eq!(a, b);
    }

    /// Truncated and garbled inputs never panic the lowering, the instrumentation or the
    /// renderers.
    #[test]
    fn no_panic_on_truncated_programs() {
        let spec = cfp_syntax::parse_spec(WAKELOCK_SPEC).tree;
        for src in [FIG2, WAKELOCK] {
            for cut in (0..src.len()).step_by(7) {
                if !src.is_char_boundary(cut) {
                    continue;
                }
                let text = &src[..cut];
                let unit = cfp_syntax::parse_program(text).tree;
                for entry in [None, Some("work".to_string())] {
                    let (p, _) = crate::lower_program(&unit, &spec, &crate::LowerOptions { entry });
                    if let Some(p) = p {
                        let i = instrument(&p);
                        let _ = render_text(&i, text);
                        let _ = crate::render_dot(&i, text);
                    }
                }
            }
        }
    }

    /// A long method of branches and loops lowers to exactly six edges per `if`/`while`
    /// pair (the time of a 1,500-pair method is measured by `cargo xtask bench-parse`; the
    /// first, quadratic simplification took 27 s on it).
    #[test]
    fn long_methods_lower_to_six_edges_per_pair() {
        let mut body = String::new();
        for i in 0..300 {
            body.push_str(&format!(
                "    if (x > {i}) {{ x = x + 1; }} else {{ y = y - 1; }}\n    while (y < {i}) {{ y++; if (*) break; }}\n"
            ));
        }
        let src = format!(
            "class Main {{\n  public static void main(String[] a) {{\n    int x = 0; int y = 0;\n{body}  }}\n}}\n"
        );
        let p = lower_ok(&src, LOCK_SPEC);
        // Six edges per `if`/`while` pair, plus the first block.
        assert_eq!(p.methods[p.entry.index()].graph.edge_count(), 300 * 6 + 1);
    }
}
