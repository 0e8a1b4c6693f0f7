//! State symbols and transition formulas of CFA edges (ARCHITECTURE.md, "Semantics for SMT").
//!
//! # State symbols (shared with the PCFA predicates)
//! The state of a method `m` is described by these SMT constants ([`Symbols::scope`]):
//! * every variable of `m` (parameters, locals, temporaries, `%ret`) by its
//!   [`VarDef::name`](crate::VarDef) — except when that name equals a global's or an
//!   instance field's symbol (possible: `$1` is a legal Java identifier), then the local
//!   is called `<name>#local` (no lowering name ends like that: the lowering only appends
//!   `#<digits>`); and when the (possibly renamed) name has sort `Bool` here but `Int` in
//!   another method (temps `%tN` are numbered per method; `boolean x` / `int x`), the
//!   `Bool` one is `<name>#bool`, so every symbol has one sort program-wide (queries mix
//!   methods: Refine's batches, a call's caller and callee);
//! * every global by its [`GlobalDef::name`](crate::GlobalDef) (`$1`, `Main.count`);
//! * every instance field by its qualified name `Class.field`, of sort `(Array Int T)`
//!   (when two fields share that name — nested classes with equal simple names — the later
//!   ones get a `#f<id>` suffix);
//! * the allocation counter [`ALLOC`] (`%alloc`);
//! * the entry copies `<param>@entry` of every parameter and `<global>@entry` of every
//!   global (paper §6's symbolic constants), and `Class.f@entry`, `%alloc@entry` of every
//!   field array and the allocation counter (so a summary can say "every other cell is
//!   unchanged").
//!
//! SSA versions used by trace encodings are `<symbol>@<k>` (and `<param>@entry@<k>`).
//! Program names never contain `@` (Java identifiers cannot, the lowering's synthetic names
//! are `%tN`, `%ret`, `x#n`, `Class.f`, `$k`), so versions never clash with symbols.
//!
//! # Semantics
//! * Refs and ints are `Int`, `null` is `0`, booleans are `Bool`.
//! * **Allocation** `x := new`: `x' = %alloc + 1 ∧ %alloc' = %alloc + 1`. A trace starts
//!   with `%alloc ≥ 0` arbitrary (objects `1..=%alloc` are those that exist before the
//!   program's first statement) and wildcards `$k` are arbitrary (the root assumes
//!   `$k != null`). *Why this is sound:* take any real execution and any choice of the
//!   object `$k` denotes. Number the objects the program allocates `a+1, a+2, …` in
//!   allocation order and the pre-existing objects `1..=a`; if `$k` is pre-existing or
//!   allocated later, it is some number in either range and the initial `%alloc = a` with
//!   `$k` equal to that number is a model. So no execution is excluded, in particular not
//!   one where `$k` is an object allocated *after* the instrumentation first compares
//!   with it (the choice "`0 < $k ≤ %alloc` at the root" would exclude exactly those and
//!   hide violations). It stays precise: every `new` differs from every object that existed
//!   before it (`new` returns a strictly increasing address above all existing ones).
//! * **Havoc** of a `Ref` place (an external call's result, an opaque value) may be null,
//!   any existing object or an object the external code allocated:
//!   `%alloc' ≥ %alloc ∧ 0 ≤ x' ≤ %alloc'`. Havoc of an `Int`/`Bool` place is unconstrained.
//! * Field write `o.f := v` is `f' = store(f, o, v)`; a read is `select(f, o)`.
//! * Arithmetic is over mathematical integers (Java's overflow is not modelled).
//!   `*` with a constant side is linear; `/` and `%` by a non-zero constant are encoded
//!   exactly with Java's truncation toward zero; `~x` is `-x - 1`; `x << c` is
//!   `x * 2^c` and `x >> c` is `div(x, 2^c)` (floor, exact for arithmetic shift) for
//!   constants `0 ≤ c < 63`. Everything else — `*`, `/`, `%` with non-constant sides,
//!   division by the constant 0, `&`, `|`, `^` on ints, `>>>`, shifts by non-constants — is
//!   an application of an uninterpreted function (see [`UF_PREFIX`]). That over-approximates
//!   the transition relation: an UNSAT answer is still a proof of infeasibility, but a SAT
//!   answer may be spurious, so [`uses_uninterpreted`] marks such formulas and feasibility
//!   must then answer `unknown`, never "real bug".

use crate::ir::{Edge, Expr, MethodCfa, MethodId, Place, Program, Stmt, VarId, VarKind};
use cfp_smt::{Op, Sort, Term, TermKind};
use cfp_syntax::ast::{BinaryOp, UnaryOp};
use petgraph::graph::EdgeIndex;
use std::collections::{BTreeMap, BTreeSet};

mod arith;
mod mod_sets;
mod names;
use arith::{add, binary, neg, sub};
pub use mod_sets::WriteSites;
pub use names::Names;

/// The allocation counter: every live reference is `≤ %alloc`.
pub const ALLOC: &str = "%alloc";
/// Suffix of entry copies: `<param>@entry`, `<global>@entry`.
pub const ENTRY_SUFFIX: &str = "@entry";
/// Prefix of the uninterpreted functions standing for non-linear / bitwise operators
/// (`%mul`, `%div`, `%rem`, `%band`, `%bor`, `%bxor`, `%shl`, `%shr`, `%ushr`). The
/// prefix keeps them apart from SMT-LIB's built-in `div`/`mod`.
pub const UF_PREFIX: &str = "%";
/// Suffix of a `Bool` local whose name another method uses for an `Int` variable.
pub const BOOL_SUFFIX: &str = "#bool";
/// Symbol of the fresh value a havocked field cell receives (`%havoc@k`).
pub const HAVOC: &str = "%havoc";

/// Why an edge or expression could not be encoded (an inconsistent program or a caller
/// bug, never a property of the input program).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// A method id outside the program.
    #[error("no method {0:?}")]
    NoMethod(MethodId),
    /// An edge index outside the method's CFA.
    #[error("method {0:?} has no edge {1:?}")]
    NoEdge(MethodId, EdgeIndex),
    /// A variable, global or field id outside its table.
    #[error("unknown {0}")]
    NoSymbol(String),
    /// The name map has no current term for a state symbol.
    #[error("no current value for state symbol `{0}`")]
    Unbound(String),
    /// A call edge was given where an intra-procedural edge was expected.
    #[error("a call edge has no intra-procedural transition formula")]
    CallEdge,
    /// A call's result place is not assignable from the callee's return value.
    #[error("call result mismatch: {0}")]
    BadCall(String),
}

/// SMT sort of a program sort (`Ref` and `Int` are `Int`).
pub fn smt_sort(s: crate::ir::Sort) -> Sort {
    match s {
        crate::ir::Sort::Bool => Sort::Bool,
        crate::ir::Sort::Int | crate::ir::Sort::Ref => Sort::Int,
    }
}

/// The entry copy of a symbol: `<name>@entry`.
pub fn entry_copy(name: &str) -> String {
    format!("{name}{ENTRY_SUFFIX}")
}

/// The state symbols of a program: the names of globals, fields and every method's
/// variables (disambiguated as in the module doc).
#[derive(Clone, Debug)]
pub struct Symbols {
    globals: Vec<(String, Sort)>,
    fields: Vec<(String, Sort)>,
    locals: Vec<Vec<(String, Sort)>>,
    params: Vec<Vec<VarId>>,
    /// Globals, field arrays and `%alloc`, in that order ([`Symbols::shared`]).
    shared: Vec<(String, Sort)>,
    /// The entry copy of each symbol of `shared`, in the same order.
    shared_entry: Vec<(String, Sort)>,
    /// Position in `shared` of each shared symbol and entry copy (`true`: the copy).
    shared_slots: std::collections::HashMap<String, (usize, bool)>,
    /// Per method, its scope ([`Symbols::scope`]), built on first use.
    scopes: Vec<std::sync::OnceLock<Vec<(String, Sort)>>>,
}

impl Symbols {
    /// Name every state symbol of `program`.
    pub fn new(program: &Program) -> Symbols {
        let globals: Vec<(String, Sort)> = program
            .globals
            .iter()
            .map(|g| (g.name.clone(), smt_sort(g.sort)))
            .collect();
        let mut taken: BTreeSet<String> = globals.iter().map(|(n, _)| n.clone()).collect();
        taken.insert(ALLOC.to_string());
        let mut fields = Vec::with_capacity(program.fields.len());
        for f in &program.fields {
            let mut name = f.qualified_name(&program.classes);
            if taken.contains(&name) {
                name = format!("{name}#f{}", f.id.0);
            }
            taken.insert(name.clone());
            fields.push((name, Sort::array_of(smt_sort(f.sort))));
        }
        let mut locals: Vec<Vec<(String, Sort)>> = program
            .methods
            .iter()
            .map(|m| {
                m.vars
                    .iter()
                    .map(|v| {
                        let name = if taken.contains(&v.name) {
                            format!("{}#local", v.name)
                        } else {
                            v.name.clone()
                        };
                        (name, smt_sort(v.sort))
                    })
                    .collect()
            })
            .collect();
        // Variable names are per method, SMT symbols are per query: a query may mention
        // symbols of several methods (a batch of Refine checks, a call's caller and
        // callee), so one name must have one sort program-wide. A name used with both
        // sorts (a temp `%t1` holding a `boolean` call result in one method and a
        // reference in another, or `boolean x` / `int x`) keeps it for `Int` and gets
        // `#bool` for `Bool`.
        let mut sorts: BTreeMap<&str, BTreeSet<&Sort>> = BTreeMap::new();
        for (n, s) in locals.iter().flatten() {
            sorts.entry(n.as_str()).or_default().insert(s);
        }
        let clashing: BTreeSet<String> = sorts
            .into_iter()
            .filter(|(_, ss)| ss.len() > 1)
            .map(|(n, _)| n.to_string())
            .collect();
        for (n, s) in locals.iter_mut().flatten() {
            if *s == Sort::Bool && clashing.contains(n.as_str()) {
                n.push_str(BOOL_SUFFIX);
            }
        }
        let params = program.methods.iter().map(|m| m.params.clone()).collect();
        let scopes = program
            .methods
            .iter()
            .map(|_| std::sync::OnceLock::new())
            .collect();
        let mut shared = globals.clone();
        shared.extend(fields.iter().cloned());
        shared.push((ALLOC.to_string(), Sort::Int));
        let shared_entry: Vec<(String, Sort)> = shared
            .iter()
            .map(|(n, s)| (entry_copy(n), s.clone()))
            .collect();
        let shared_slots = shared
            .iter()
            .enumerate()
            .map(|(k, (n, _))| (n.clone(), (k, false)))
            .chain(
                shared_entry
                    .iter()
                    .enumerate()
                    .map(|(k, (n, _))| (n.clone(), (k, true))),
            )
            .collect();
        Symbols {
            globals,
            fields,
            locals,
            params,
            shared,
            shared_entry,
            shared_slots,
            scopes,
        }
    }

    /// Symbol of variable `v` of method `m`.
    pub fn local(&self, m: MethodId, v: VarId) -> Result<&(String, Sort), EncodeError> {
        self.locals
            .get(m.index())
            .and_then(|vs| vs.get(v.index()))
            .ok_or_else(|| EncodeError::NoSymbol(format!("variable {v:?} of {m:?}")))
    }

    /// Symbol of a global.
    pub fn global(&self, g: crate::ir::GlobalId) -> Result<&(String, Sort), EncodeError> {
        self.globals
            .get(g.index())
            .ok_or_else(|| EncodeError::NoSymbol(format!("global {g:?}")))
    }

    /// Symbol of an instance field (an array).
    pub fn field(&self, f: crate::ir::FieldId) -> Result<&(String, Sort), EncodeError> {
        self.fields
            .get(f.index())
            .ok_or_else(|| EncodeError::NoSymbol(format!("field {f:?}")))
    }

    /// All globals (name, sort), by id.
    pub fn globals(&self) -> &[(String, Sort)] {
        &self.globals
    }

    /// All field arrays (name, sort), by id.
    pub fn fields(&self) -> &[(String, Sort)] {
        &self.fields
    }

    /// The variables of method `m` (name, sort), by [`VarId`].
    pub fn vars(&self, m: MethodId) -> Result<&[(String, Sort)], EncodeError> {
        self.locals
            .get(m.index())
            .map(Vec::as_slice)
            .ok_or(EncodeError::NoMethod(m))
    }

    /// The parameters of `m` in order.
    pub fn params(&self, m: MethodId) -> Result<&[VarId], EncodeError> {
        self.params
            .get(m.index())
            .map(Vec::as_slice)
            .ok_or(EncodeError::NoMethod(m))
    }

    /// The symbols that carry over a call unchanged in scope: globals, field arrays and
    /// `%alloc` (in that order).
    pub fn shared(&self) -> &[(String, Sort)] {
        &self.shared
    }

    /// The entry copies of [`Symbols::shared`] (`g@entry`, `Class.f@entry`,
    /// `%alloc@entry`), in the same order.
    pub fn shared_entry(&self) -> &[(String, Sort)] {
        &self.shared_entry
    }

    /// Where `name` is among the shared symbols: its position in [`Symbols::shared`], and
    /// whether it is the entry copy (in [`Symbols::shared_entry`]).
    pub fn shared_slot(&self, name: &str) -> Option<(usize, bool)> {
        self.shared_slots.get(name).copied()
    }

    /// The entry copies of [`Symbols::globals`], in order.
    pub fn globals_entry(&self) -> &[(String, Sort)] {
        &self.shared_entry[..self.globals.len()]
    }

    /// The entry copies of [`Symbols::framed`], in order.
    pub fn framed_entry(&self) -> &[(String, Sort)] {
        &self.shared_entry[self.globals.len()..]
    }

    /// The state symbols in scope in method `m`, in a fixed order: its variables (by id),
    /// globals, field arrays, `%alloc`, the parameters' entry copies, the globals' entry
    /// copies, the field arrays' and `%alloc`'s entry copies. Built once per method.
    pub fn scope(&self, m: MethodId) -> Result<&[(String, Sort)], EncodeError> {
        let cell = self.scopes.get(m.index()).ok_or(EncodeError::NoMethod(m))?;
        if let Some(s) = cell.get() {
            return Ok(s);
        }
        let s = self.build_scope(m)?;
        Ok(cell.get_or_init(|| s))
    }

    fn build_scope(&self, m: MethodId) -> Result<Vec<(String, Sort)>, EncodeError> {
        let vars = self.vars(m)?;
        let mut out: Vec<(String, Sort)> = vars.to_vec();
        out.extend(self.shared().iter().cloned());
        for p in self.params(m)? {
            let (n, s) = self.local(m, *p)?;
            out.push((entry_copy(n), s.clone()));
        }
        out.extend(self.shared_entry().iter().cloned());
        Ok(out)
    }

    /// The shared symbols that are not globals: the field arrays and `%alloc` (in that
    /// order). Their entry copies `Class.f@entry`, `%alloc@entry` are in every scope.
    pub fn framed(&self) -> &[(String, Sort)] {
        &self.shared[self.globals.len()..]
    }
}

/// The SSA version base of a versioned name: `l@3` → `l`, `l@entry@2` → `l@entry`;
/// `None` for a name without a version.
pub fn unversion(name: &str) -> Option<&str> {
    let (base, k) = name.rsplit_once('@')?;
    (!k.is_empty() && k.bytes().all(|b| b.is_ascii_digit())).then_some(base)
}

/// True when `t` applies one of the uninterpreted functions of the encoding (its
/// satisfiability over-approximates the program's semantics).
pub fn uses_uninterpreted(t: &Term) -> bool {
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        match t.kind() {
            TermKind::Uf(n, args, _) => {
                if n.starts_with(UF_PREFIX) && !args.is_empty() {
                    return true;
                }
                stack.extend(args.iter());
            }
            TermKind::App(_, args) => stack.extend(args.iter()),
            TermKind::Quant(_, _, body) => stack.push(body),
            TermKind::Bool(_) | TermKind::Int(_) | TermKind::Var(..) => {}
        }
    }
    false
}

/// Encodes statements and expressions of one program.
///
/// What depends only on the program (symbols, scopes, the identity map of each scope,
/// modified sets, field write sites) lives in [`EncoderTables`], shared through an
/// [`Arc`](std::sync::Arc): the CEGAR loop builds it once per run
/// ([`Encoder::with_tables`]), not once per iteration.
#[derive(Clone, Debug)]
pub struct Encoder<'p> {
    program: &'p Program,
    tables: std::sync::Arc<EncoderTables>,
}

/// The program-wide tables of an [`Encoder`] (see there); the lazily built ones are
/// computed on first use.
#[derive(Debug)]
pub struct EncoderTables {
    symbols: Symbols,
    /// Per method, the shared symbols it may change.
    modified: std::sync::OnceLock<mod_sets::Numbered<BTreeSet<u32>>>,
    /// Per method, where it may write each field array.
    field_writes: std::sync::OnceLock<mod_sets::Numbered<BTreeMap<u32, WriteSites>>>,
    /// Per method, every symbol of its scope mapped to itself.
    identity: Vec<std::sync::OnceLock<Names>>,
    /// The shared symbols and their entry copies mapped to themselves.
    shared_identity: std::sync::OnceLock<Names>,
}

impl EncoderTables {
    /// The tables of `program` (only the symbols are built now).
    pub fn new(program: &Program) -> EncoderTables {
        EncoderTables {
            symbols: Symbols::new(program),
            modified: std::sync::OnceLock::new(),
            field_writes: std::sync::OnceLock::new(),
            shared_identity: std::sync::OnceLock::new(),
            identity: program
                .methods
                .iter()
                .map(|_| std::sync::OnceLock::new())
                .collect(),
        }
    }
}

impl<'p> Encoder<'p> {
    /// An encoder for `program`.
    pub fn new(program: &'p Program) -> Encoder<'p> {
        Encoder {
            program,
            tables: std::sync::Arc::new(EncoderTables::new(program)),
        }
    }

    /// An encoder for `program` with tables built for the same program before (by
    /// [`Encoder::tables`] or [`EncoderTables::new`]).
    pub fn with_tables(program: &'p Program, tables: std::sync::Arc<EncoderTables>) -> Encoder<'p> {
        Encoder { program, tables }
    }

    /// The shared tables (to build the next encoder of the same program with).
    pub fn tables(&self) -> std::sync::Arc<EncoderTables> {
        self.tables.clone()
    }

    /// Every symbol in scope in `m` mapped to itself ([`Names::identity`] of
    /// [`Symbols::scope`]); built once per method, cloned in O(1).
    pub fn identity(&self, m: MethodId) -> Result<Names, EncodeError> {
        let cell = self
            .tables
            .identity
            .get(m.index())
            .ok_or(EncodeError::NoMethod(m))?;
        if let Some(n) = cell.get() {
            return Ok(n.clone());
        }
        // The shared symbols' part, built once and shared by every method's map (the
        // maps are persistent): the same bindings as `Names::identity` of the method's
        // scope, in which a shared symbol wins over a local of the same name.
        let syms = &self.tables.symbols;
        let base = self.tables.shared_identity.get_or_init(|| {
            let mut all = syms.shared().to_vec();
            all.extend(syms.shared_entry().iter().cloned());
            Names::identity(&all)
        });
        let mut n = base.clone();
        for (v, sort) in syms.vars(m)? {
            if base.get(v).is_err() {
                n.set(v, Term::var(v.clone(), sort.clone()));
            }
        }
        for p in syms.params(m)? {
            let (v, sort) = syms.local(m, *p)?;
            let e = entry_copy(v);
            // Only a shared symbol's entry copy can have this name (no shared symbol
            // has the entry suffix).
            if base.get(&e).is_err() {
                n.set(&e, Term::var(e.clone(), sort.clone()));
            }
        }
        Ok(cell.get_or_init(|| n).clone())
    }

    /// The program.
    pub fn program(&self) -> &'p Program {
        self.program
    }

    /// The program's state symbols.
    pub fn symbols(&self) -> &Symbols {
        &self.tables.symbols
    }

    /// The method `m`.
    pub fn method(&self, m: MethodId) -> Result<&'p MethodCfa, EncodeError> {
        self.program.method(m).ok_or(EncodeError::NoMethod(m))
    }

    /// The label of `edge` in `m`.
    pub fn edge(&self, m: MethodId, edge: EdgeIndex) -> Result<&'p Edge, EncodeError> {
        self.method(m)?
            .graph
            .edge_weight(edge)
            .ok_or(EncodeError::NoEdge(m, edge))
    }

    /// Transition formula of an intra-procedural edge of `m` (a block, an API edge — no
    /// effect — or an uninstrumented API call — no effect). `pre` gives the terms before
    /// the edge; `post` receives the terms after it (its version counters are used, and
    /// merged with `pre`'s, for the written symbols).
    pub fn edge_formula(
        &self,
        m: MethodId,
        edge: &Edge,
        pre: &Names,
        post: &mut Names,
    ) -> Result<Term, EncodeError> {
        let mut names = pre.clone();
        names.merge_versions(post);
        let out = match edge {
            Edge::Block(stmts) => {
                let mut parts = Vec::with_capacity(stmts.len());
                for s in stmts {
                    parts.push(self.stmt(m, &s.node, &mut names)?);
                }
                Term::and(parts)
            }
            Edge::Api { .. } | Edge::ApiCall { .. } => Term::tt(),
            Edge::Call { .. } => return Err(EncodeError::CallEdge),
        };
        *post = names;
        Ok(out)
    }

    /// Formula of one statement; updates `names` to the post-state.
    pub fn stmt(&self, m: MethodId, s: &Stmt, names: &mut Names) -> Result<Term, EncodeError> {
        match s {
            Stmt::Assume(e) => self.expr(m, e, names),
            Stmt::Assign { place, expr } => {
                let v = self.expr(m, expr, names)?;
                self.assign(m, place, v, names)
            }
            Stmt::Havoc(place) => {
                let method = self.method(m)?;
                let sort = self.program.place_sort(method, place);
                match place {
                    Place::Field { obj, field } => {
                        let o = self.expr(m, obj, names)?;
                        let h = names.fresh_term(HAVOC, smt_sort(sort));
                        let bound = self.ref_bound(sort, &h, names)?;
                        let (fname, fsort) = self.tables.symbols.field(*field)?.clone();
                        let arr = names.get(&fname)?.clone();
                        let new = names.fresh(&fname, fsort);
                        Ok(Term::and([bound, Term::eq(new, Term::store(arr, o, h))]))
                    }
                    _ => {
                        let (name, ssort) = self.place_symbol(m, place)?;
                        let x = names.fresh(&name, ssort);
                        self.ref_bound(sort, &x, names)
                    }
                }
            }
            Stmt::Alloc { var, .. } => {
                let a = names.get(ALLOC)?.clone();
                let next = add(a.clone(), Term::int(1));
                let (name, sort) = self.tables.symbols.local(m, *var)?.clone();
                let x = names.fresh(&name, sort);
                let a2 = names.fresh(ALLOC, Sort::Int);
                // `%alloc` is never negative (it starts so and only grows): said here,
                // a new object is known non-null without a predicate on `%alloc`.
                let bound = Term::app(cfp_smt::Op::Ge, vec![a, Term::int(0)]);
                Ok(Term::and([
                    bound,
                    Term::eq(x, next.clone()),
                    Term::eq(a2, next),
                ]))
            }
            Stmt::Approx(_) | Stmt::Leave => Ok(Term::tt()),
            // As arbitrary as a havoc of the variable.
            Stmt::Opaque { var, .. } => self.stmt(m, &Stmt::Havoc(Place::Var(*var)), names),
        }
    }

    /// `%alloc' ≥ %alloc ∧ 0 ≤ x ≤ %alloc'` for a havocked reference `x` (see the module
    /// doc); `true` for other sorts.
    fn ref_bound(
        &self,
        sort: crate::ir::Sort,
        x: &Term,
        names: &mut Names,
    ) -> Result<Term, EncodeError> {
        if sort != crate::ir::Sort::Ref {
            return Ok(Term::tt());
        }
        let a = names.get(ALLOC)?.clone();
        let a2 = names.fresh(ALLOC, Sort::Int);
        Ok(Term::and([
            Term::app(Op::Ge, vec![a2.clone(), a]),
            Term::app(Op::Le, vec![Term::int(0), x.clone()]),
            Term::app(Op::Le, vec![x.clone(), a2]),
        ]))
    }

    fn place_symbol(&self, m: MethodId, place: &Place) -> Result<(String, Sort), EncodeError> {
        match place {
            Place::Var(v) => self.tables.symbols.local(m, *v).cloned(),
            Place::Global(g) => self.tables.symbols.global(*g).cloned(),
            Place::Field { field, .. } => self.tables.symbols.field(*field).cloned(),
        }
    }

    /// `place := value`; updates `names`.
    pub fn assign(
        &self,
        m: MethodId,
        place: &Place,
        value: Term,
        names: &mut Names,
    ) -> Result<Term, EncodeError> {
        match place {
            Place::Field { obj, field } => {
                let o = self.expr(m, obj, names)?;
                let (fname, fsort) = self.tables.symbols.field(*field)?.clone();
                let arr = names.get(&fname)?.clone();
                let new = names.fresh(&fname, fsort);
                Ok(Term::eq(new, Term::store(arr, o, value)))
            }
            _ => {
                let (name, sort) = self.place_symbol(m, place)?;
                let x = names.fresh(&name, sort);
                Ok(Term::eq(x, value))
            }
        }
    }

    /// The term of a pure expression of method `m` under `names`.
    pub fn expr(&self, m: MethodId, e: &Expr, names: &Names) -> Result<Term, EncodeError> {
        Ok(match e {
            Expr::Var(v) => names.get(&self.tables.symbols.local(m, *v)?.0)?.clone(),
            Expr::Global(g) => names.get(&self.tables.symbols.global(*g)?.0)?.clone(),
            Expr::Field { obj, field } => {
                let o = self.expr(m, obj, names)?;
                let arr = names.get(&self.tables.symbols.field(*field)?.0)?.clone();
                Term::select(arr, o)
            }
            Expr::Int(i) => Term::int(i128::from(*i)),
            Expr::Bool(b) => Term::bool(*b),
            Expr::Null => Term::int(0),
            Expr::Unary { op, arg } => {
                let a = self.expr(m, arg, names)?;
                match op {
                    UnaryOp::Not => Term::negate(a),
                    UnaryOp::Plus => a,
                    UnaryOp::Neg => neg(a),
                    UnaryOp::BitNot => sub(neg(a), Term::int(1)),
                }
            }
            Expr::Ite {
                cond,
                then_expr,
                else_expr,
            } => Term::ite(
                self.expr(m, cond, names)?,
                self.expr(m, then_expr, names)?,
                self.expr(m, else_expr, names)?,
            ),
            Expr::Binary { op, lhs, rhs } => {
                let method = self.method(m)?;
                let bool_args = self.program.expr_sort(method, lhs) == crate::ir::Sort::Bool;
                let a = self.expr(m, lhs, names)?;
                let b = self.expr(m, rhs, names)?;
                binary(*op, a, b, bool_args)
            }
        })
    }
}

/// Transition formula of the intra-procedural edge `edge` of `method` (see
/// [`Encoder::edge_formula`]); builds the symbol table each time — keep an [`Encoder`]
/// for repeated use.
pub fn edge_formula(
    program: &Program,
    method: MethodId,
    edge: EdgeIndex,
    pre: &Names,
    post: &mut Names,
) -> Result<Term, EncodeError> {
    let enc = Encoder::new(program);
    let e = enc.edge(method, edge)?;
    enc.edge_formula(method, e, pre, post)
}

/// The kinds of variables whose values a trace explanation shows (parameters and declared
/// locals; temporaries only when nothing else is known).
pub fn is_user_var(kind: VarKind) -> bool {
    matches!(kind, VarKind::Param | VarKind::Local)
}

#[cfg(test)]
mod tests;
