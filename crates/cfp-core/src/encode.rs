//! State symbols and transition formulas of CFA edges (DESIGN.md §3, "Semantics for SMT").
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
            let class = program
                .classes
                .get(f.class.index())
                .map_or("?", |c| c.name.as_str());
            let mut name = format!("{class}.{}", f.name);
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
        Symbols {
            globals,
            fields,
            locals,
            params,
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
    pub fn shared(&self) -> Vec<(String, Sort)> {
        let mut out = self.globals.clone();
        out.extend(self.fields.iter().cloned());
        out.push((ALLOC.to_string(), Sort::Int));
        out
    }

    /// The state symbols in scope in method `m`, in a fixed order: its variables (by id),
    /// globals, field arrays, `%alloc`, the parameters' entry copies, the globals' entry
    /// copies, the field arrays' and `%alloc`'s entry copies.
    pub fn scope(&self, m: MethodId) -> Result<Vec<(String, Sort)>, EncodeError> {
        let vars = self.vars(m)?;
        let mut out: Vec<(String, Sort)> = vars.to_vec();
        out.extend(self.shared());
        for p in self.params(m)? {
            let (n, s) = self.local(m, *p)?;
            out.push((entry_copy(n), s.clone()));
        }
        for (n, s) in &self.globals {
            out.push((entry_copy(n), s.clone()));
        }
        for (n, s) in self.framed() {
            out.push((entry_copy(&n), s));
        }
        Ok(out)
    }

    /// The shared symbols that are not globals: the field arrays and `%alloc` (in that
    /// order). Their entry copies `Class.f@entry`, `%alloc@entry` are in every scope.
    pub fn framed(&self) -> Vec<(String, Sort)> {
        let mut out = self.fields.clone();
        out.push((ALLOC.to_string(), Sort::Int));
        out
    }
}

/// Current SSA term of each state symbol, and the version counters that make fresh
/// versions unique. For Refine's checks, [`Names::identity`] maps every symbol to itself;
/// after [`edge_formula`] the post map sends written symbols to `<symbol>@<k>`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    cur: BTreeMap<String, Term>,
    versions: BTreeMap<String, u32>,
}

impl Names {
    /// Every symbol mapped to its own constant.
    pub fn identity(symbols: &[(String, Sort)]) -> Names {
        Names {
            cur: symbols
                .iter()
                .map(|(n, s)| (n.clone(), Term::var(n.clone(), s.clone())))
                .collect(),
            versions: BTreeMap::new(),
        }
    }

    /// An empty map (no symbol bound) with no version used.
    pub fn new() -> Names {
        Names::default()
    }

    /// The current term of `symbol`.
    pub fn get(&self, symbol: &str) -> Result<&Term, EncodeError> {
        self.cur
            .get(symbol)
            .ok_or_else(|| EncodeError::Unbound(symbol.to_string()))
    }

    /// Bind `symbol` to `term`.
    pub fn set(&mut self, symbol: &str, term: Term) {
        self.cur.insert(symbol.to_string(), term);
    }

    /// Remove every binding, keeping the version counters.
    pub fn clear_bindings(&mut self) {
        self.cur.clear();
    }

    /// The bound symbols and their terms, in name order.
    pub fn bindings(&self) -> impl Iterator<Item = (&str, &Term)> {
        self.cur.iter().map(|(n, t)| (n.as_str(), t))
    }

    /// A fresh version `<symbol>@<k>` (not bound).
    pub fn fresh_term(&mut self, symbol: &str, sort: Sort) -> Term {
        let k = self.versions.entry(symbol.to_string()).or_insert(0);
        let t = Term::var(format!("{symbol}@{k}"), sort);
        *k += 1;
        t
    }

    /// A fresh version of `symbol`, bound as its current term.
    pub fn fresh(&mut self, symbol: &str, sort: Sort) -> Term {
        let t = self.fresh_term(symbol, sort);
        self.set(symbol, t.clone());
        t
    }

    /// Take over the larger version counters of `other` (so fresh versions stay unique).
    pub fn merge_versions(&mut self, other: &Names) {
        for (n, k) in &other.versions {
            let e = self.versions.entry(n.clone()).or_insert(0);
            *e = (*e).max(*k);
        }
    }

    /// Replace the state symbols of `t` by their current terms (unbound names stay).
    pub fn rename(&self, t: &Term) -> Term {
        t.substitute(&|n| self.cur.get(n).cloned())
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
#[derive(Clone, Debug)]
pub struct Encoder<'p> {
    program: &'p Program,
    symbols: Symbols,
    /// Per method, the shared symbols it may change (computed on first use).
    modified: std::cell::OnceCell<Vec<BTreeSet<String>>>,
    /// Per method, where it may write each field array (computed on first use).
    field_writes: std::cell::OnceCell<Vec<BTreeMap<String, WriteSites>>>,
}

/// Where a call of a method may write one field array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteSites {
    /// Only at the objects its parameters with these indices denote on entry (`this.f = …`
    /// in a constructor or a setter: index 0).
    Params(BTreeSet<usize>),
    /// Possibly at any object.
    Anywhere,
}

impl WriteSites {
    fn join(&mut self, other: WriteSites) -> bool {
        match (&mut *self, other) {
            (WriteSites::Anywhere, _) => false,
            (_, WriteSites::Anywhere) => {
                *self = WriteSites::Anywhere;
                true
            }
            (WriteSites::Params(a), WriteSites::Params(b)) => {
                let before = a.len();
                a.extend(b);
                a.len() != before
            }
        }
    }
}

impl<'p> Encoder<'p> {
    /// An encoder for `program`.
    pub fn new(program: &'p Program) -> Encoder<'p> {
        Encoder {
            program,
            symbols: Symbols::new(program),
            modified: std::cell::OnceCell::new(),
            field_writes: std::cell::OnceCell::new(),
        }
    }

    /// Where a call of `m` may write each field array (by symbol name), directly or
    /// through its callees: only at objects its own, never reassigned parameters denote
    /// ([`WriteSites::Params`]), or anywhere. A field array missing from the map is not
    /// written (see [`Encoder::modified_by`]). After a call, the cells of a
    /// `Params`-written array at every other object keep their values.
    pub fn field_writes(&self, m: MethodId) -> Option<&BTreeMap<String, WriteSites>> {
        self.field_writes
            .get_or_init(|| self.compute_field_writes())
            .get(m.index())
    }

    fn compute_field_writes(&self) -> Vec<BTreeMap<String, WriteSites>> {
        let program = self.program;
        // The parameter index of `e` when it is a parameter `m` never assigns.
        let param_of = |cfa: &MethodCfa, assigned: &BTreeSet<VarId>, e: &Expr| match e {
            Expr::Var(v) if !assigned.contains(v) => cfa.params.iter().position(|p| p == v),
            _ => None,
        };
        let mut out: Vec<BTreeMap<String, WriteSites>> = Vec::with_capacity(program.methods.len());
        let assigned: Vec<BTreeSet<VarId>> = program
            .methods
            .iter()
            .map(crate::call_check::written_vars)
            .collect();
        for (cfa, assigned) in program.methods.iter().zip(&assigned) {
            let mut w: BTreeMap<String, WriteSites> = BTreeMap::new();
            let note = |w: &mut BTreeMap<String, WriteSites>, f: &str, site: WriteSites| match w
                .get_mut(f)
            {
                Some(old) => {
                    old.join(site);
                }
                None => {
                    w.insert(f.to_string(), site);
                }
            };
            for e in cfa.graph.edge_weights() {
                match e {
                    Edge::Block(stmts) => {
                        for st in stmts {
                            if let Stmt::Assign {
                                place: Place::Field { obj, field },
                                ..
                            }
                            | Stmt::Havoc(Place::Field { obj, field }) = &st.node
                            {
                                if let Ok((f, _)) = self.symbols.field(*field) {
                                    let site = match param_of(cfa, assigned, obj) {
                                        Some(k) => WriteSites::Params(BTreeSet::from([k])),
                                        None => WriteSites::Anywhere,
                                    };
                                    note(&mut w, f, site);
                                }
                            }
                        }
                    }
                    Edge::Call {
                        result: Some(Place::Field { field, .. }),
                        ..
                    } => {
                        if let Ok((f, _)) = self.symbols.field(*field) {
                            note(&mut w, f, WriteSites::Anywhere);
                        }
                    }
                    _ => {}
                }
            }
            out.push(w);
        }
        // Through calls: a callee's write at its parameter j is a write at the caller's
        // actual j — at the caller's parameter k when the actual is that parameter.
        loop {
            let mut changed = false;
            for (mi, cfa) in program.methods.iter().enumerate() {
                for e in cfa.graph.edge_weights() {
                    let Edge::Call { callee, args, .. } = e else {
                        continue;
                    };
                    let Some(theirs) = out.get(callee.index()).cloned() else {
                        continue;
                    };
                    for (f, sites) in theirs {
                        let mapped = match sites {
                            WriteSites::Anywhere => WriteSites::Anywhere,
                            WriteSites::Params(js) => {
                                let mut ks = BTreeSet::new();
                                let mut anywhere = false;
                                for j in js {
                                    match args.get(j).and_then(|a| param_of(cfa, &assigned[mi], a))
                                    {
                                        Some(k) => {
                                            ks.insert(k);
                                        }
                                        None => anywhere = true,
                                    }
                                }
                                if anywhere {
                                    WriteSites::Anywhere
                                } else {
                                    WriteSites::Params(ks)
                                }
                            }
                        };
                        match out[mi].get_mut(&f) {
                            Some(old) => changed |= old.join(mapped),
                            None => {
                                out[mi].insert(f, mapped);
                                changed = true;
                            }
                        }
                    }
                }
            }
            if !changed {
                return out;
            }
        }
    }

    /// The shared symbols (globals, field arrays, `%alloc`) that a call of `m` may change:
    /// those some edge of `m`, or of a method it calls directly or transitively, writes
    /// (an assignment, a havoc, an allocation, a call result). Every other shared symbol
    /// has the same value after the call as before it — the frame of the call, which a
    /// callee's summary then need not state.
    pub fn modified_by(&self, m: MethodId) -> Option<&BTreeSet<String>> {
        self.modified
            .get_or_init(|| self.compute_modified())
            .get(m.index())
    }

    fn compute_modified(&self) -> Vec<BTreeSet<String>> {
        let shared = self.symbols.shared();
        let mut out: Vec<BTreeSet<String>> = Vec::with_capacity(self.program.methods.len());
        let mut calls: Vec<Vec<MethodId>> = Vec::with_capacity(self.program.methods.len());
        for cfa in &self.program.methods {
            let mut written = BTreeSet::new();
            let mut callees = Vec::new();
            let scope = self.symbols.scope(cfa.id).unwrap_or_default();
            let pre = Names::identity(&scope);
            for e in cfa.graph.edge_weights() {
                match e {
                    Edge::Call { callee, result, .. } => {
                        callees.push(*callee);
                        match result {
                            Some(Place::Global(g)) => {
                                if let Ok((n, _)) = self.symbols.global(*g) {
                                    written.insert(n.clone());
                                }
                            }
                            Some(Place::Field { field, .. }) => {
                                if let Ok((n, _)) = self.symbols.field(*field) {
                                    written.insert(n.clone());
                                }
                            }
                            _ => {}
                        }
                    }
                    other => {
                        let mut post = Names::new();
                        match self.edge_formula(cfa.id, other, &pre, &mut post) {
                            Ok(_) => {
                                for (n, s) in &shared {
                                    if post.get(n).ok() != Some(&Term::var(n.clone(), s.clone())) {
                                        written.insert(n.clone());
                                    }
                                }
                            }
                            // Cannot tell: everything may change (sound).
                            Err(_) => written.extend(shared.iter().map(|(n, _)| n.clone())),
                        }
                    }
                }
            }
            out.push(written);
            calls.push(callees);
        }
        // Transitively through calls, to a fixpoint.
        loop {
            let mut changed = false;
            for m in 0..out.len() {
                for c in calls[m].clone() {
                    let add: Vec<String> = out
                        .get(c.index())
                        .map(|s| s.difference(&out[m]).cloned().collect())
                        .unwrap_or_default();
                    if !add.is_empty() {
                        out[m].extend(add);
                        changed = true;
                    }
                }
            }
            if !changed {
                return out;
            }
        }
    }

    /// The program.
    pub fn program(&self) -> &'p Program {
        self.program
    }

    /// The program's state symbols.
    pub fn symbols(&self) -> &Symbols {
        &self.symbols
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
                        let (fname, fsort) = self.symbols.field(*field)?.clone();
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
                let next = add(a, Term::int(1));
                let (name, sort) = self.symbols.local(m, *var)?.clone();
                let x = names.fresh(&name, sort);
                let a2 = names.fresh(ALLOC, Sort::Int);
                Ok(Term::and([Term::eq(x, next.clone()), Term::eq(a2, next)]))
            }
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
            Place::Var(v) => self.symbols.local(m, *v).cloned(),
            Place::Global(g) => self.symbols.global(*g).cloned(),
            Place::Field { field, .. } => self.symbols.field(*field).cloned(),
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
                let (fname, fsort) = self.symbols.field(*field)?.clone();
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
            Expr::Var(v) => names.get(&self.symbols.local(m, *v)?.0)?.clone(),
            Expr::Global(g) => names.get(&self.symbols.global(*g)?.0)?.clone(),
            Expr::Field { obj, field } => {
                let o = self.expr(m, obj, names)?;
                let arr = names.get(&self.symbols.field(*field)?.0)?.clone();
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

/// `a + b`, folding literals.
fn add(a: Term, b: Term) -> Term {
    match (a.as_int(), b.as_int()) {
        (Some(x), Some(y)) => x
            .checked_add(y)
            .map_or_else(|| arith(Op::Add, a, b), Term::int),
        (_, Some(0)) => a,
        (Some(0), _) => b,
        _ => arith(Op::Add, a, b),
    }
}

/// `a - b`, folding literals.
fn sub(a: Term, b: Term) -> Term {
    match (a.as_int(), b.as_int()) {
        (Some(x), Some(y)) => x
            .checked_sub(y)
            .map_or_else(|| arith(Op::Sub, a, b), Term::int),
        (_, Some(0)) => a,
        _ => arith(Op::Sub, a, b),
    }
}

/// `-a`, folding literals.
fn neg(a: Term) -> Term {
    match a.as_int().and_then(i128::checked_neg) {
        Some(x) => Term::int(x),
        None => Term::app(Op::Neg, vec![a]),
    }
}

fn arith(op: Op, a: Term, b: Term) -> Term {
    Term::app(op, vec![a, b])
}

fn uf(name: &str, a: Term, b: Term) -> Term {
    Term::uf(format!("{UF_PREFIX}{name}"), vec![a, b], Sort::Int)
}

/// `a * b`: linear when a side is a literal, else the UF `%mul`.
fn mul(a: Term, b: Term) -> Term {
    match (a.as_int(), b.as_int()) {
        (Some(x), Some(y)) => x.checked_mul(y).map_or_else(|| uf("mul", a, b), Term::int),
        (Some(0), _) | (_, Some(0)) => Term::int(0),
        (Some(1), _) => b,
        (_, Some(1)) => a,
        (Some(_), _) | (_, Some(_)) => arith(Op::Mul, a, b),
        _ => uf("mul", a, b),
    }
}

/// Java's `a / c` (truncation toward zero) for a non-zero literal `c`:
/// `sign(c) · (a ≥ 0 ? div(a, |c|) : -div(-a, |c|))`.
fn java_div_const(a: Term, c: i128) -> Term {
    let abs = Term::int(c.abs());
    let q = Term::ite(
        Term::app(Op::Ge, vec![a.clone(), Term::int(0)]),
        Term::app(Op::Div, vec![a.clone(), abs.clone()]),
        neg(Term::app(Op::Div, vec![neg(a), abs])),
    );
    if c < 0 {
        neg(q)
    } else {
        q
    }
}

/// Java's `a % c` (sign of the dividend) for a non-zero literal `c`:
/// `a ≥ 0 ? mod(a, |c|) : -mod(-a, |c|)`.
fn java_rem_const(a: Term, c: i128) -> Term {
    let abs = Term::int(c.abs());
    Term::ite(
        Term::app(Op::Ge, vec![a.clone(), Term::int(0)]),
        Term::app(Op::Mod, vec![a.clone(), abs.clone()]),
        neg(Term::app(Op::Mod, vec![neg(a), abs])),
    )
}

/// Truncating division / remainder of two literals (Java semantics), `None` for `/0`.
fn fold_div(x: i128, y: i128, rem: bool) -> Option<i128> {
    if rem {
        x.checked_rem(y)
    } else {
        x.checked_div(y)
    }
}

fn binary(op: BinaryOp, a: Term, b: Term, bool_args: bool) -> Term {
    use BinaryOp::*;
    let cmp = |o: Op, a: Term, b: Term| Term::app(o, vec![a, b]);
    match op {
        Add => add(a, b),
        Sub => sub(a, b),
        Mul => mul(a, b),
        Div | Rem => {
            let rem = op == Rem;
            match (a.as_int(), b.as_int()) {
                (Some(x), Some(y)) => match fold_div(x, y, rem) {
                    Some(v) => Term::int(v),
                    None => uf(if rem { "rem" } else { "div" }, a, b),
                },
                (_, Some(c)) if c != 0 => {
                    if rem {
                        java_rem_const(a, c)
                    } else {
                        java_div_const(a, c)
                    }
                }
                _ => uf(if rem { "rem" } else { "div" }, a, b),
            }
        }
        Lt => cmp(Op::Lt, a, b),
        Le => cmp(Op::Le, a, b),
        Gt => cmp(Op::Gt, a, b),
        Ge => cmp(Op::Ge, a, b),
        Eq => Term::eq(a, b),
        Ne => Term::negate(Term::eq(a, b)),
        And => Term::and([a, b]),
        Or => Term::or([a, b]),
        BitAnd if bool_args => Term::and([a, b]),
        BitOr if bool_args => Term::or([a, b]),
        BitXor if bool_args => Term::negate(Term::eq(a, b)),
        BitAnd => uf("band", a, b),
        BitOr => uf("bor", a, b),
        BitXor => uf("bxor", a, b),
        Shl | Shr => match b.as_int() {
            Some(c) if (0..63).contains(&c) => {
                let p = Term::int(1i128 << c);
                if op == Shl {
                    mul(a, p)
                } else {
                    Term::app(Op::Div, vec![a, p])
                }
            }
            _ => uf(if op == Shl { "shl" } else { "shr" }, a, b),
        },
        UShr => uf("ushr", a, b),
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
mod tests {
    use super::*;
    use crate::testutil::lower_ok;

    /// A call changes only what the callee (or its callees) writes, and a field written
    /// only through `this` changes only at the receiver.
    #[test]
    fn calls_change_only_what_callees_write() {
        let src = "class Box {\n  int v;\n  Box other;\n  Box(int x) { v = x; }\n  void set(int x) { this.v = x; }\n  void poke(Box b) { b = other; b.v = 1; }\n  int get() { return v; }\n  void viaSet() { set(3); }\n  static void fresh() { Box b = new Box(2); }\n}\nclass Main {\n  public static void main(String[] a) { Box b = new Box(1); b.get(); b.viaSet(); b.poke(b); Box.fresh(); }\n}\n";
        let p = lower_ok(src, "wildcard $1 : Box;\nS -> ε;\n");
        let enc = Encoder::new(&p);
        let m = |n: &str| crate::trace::tests::method(&p, n);
        let v = "Box.v".to_string();
        // `get` writes nothing; `set` and `viaSet` write `v` at their receiver only.
        assert!(enc.modified_by(m("Box.get")).expect("get").is_empty());
        let at_this = Some(&WriteSites::Params(BTreeSet::from([0])));
        assert_eq!(
            enc.field_writes(m("Box.set")).expect("set").get(&v),
            at_this
        );
        assert_eq!(
            enc.field_writes(m("Box.viaSet")).expect("viaSet").get(&v),
            at_this
        );
        assert!(enc
            .modified_by(m("Box.viaSet"))
            .expect("viaSet")
            .contains(&v));
        // `poke` writes through a reassigned parameter: anywhere.
        assert_eq!(
            enc.field_writes(m("Box.poke")).expect("poke").get(&v),
            Some(&WriteSites::Anywhere)
        );
        // `fresh` allocates (and its constructor writes the new object): `%alloc` and `v`.
        let fresh = enc.modified_by(m("Box.fresh")).expect("fresh");
        assert!(fresh.contains(ALLOC) && fresh.contains(&v), "{fresh:?}");
        assert!(!enc.modified_by(m("Box.set")).expect("set").contains(ALLOC));
    }

    const PROG: &str = "class A {\n  int f;\n  A g;\n  static int count;\n  void m(int x, int y) {\n    A a = new A();\n    a.f = x / 3 + x % -2 + x * y + (x << 2);\n    if (a.f > 0 && y != 0) { count = count + 1; }\n    a.g = a;\n  }\n  public static void main(String[] args) { new A().m(1, 2); }\n}\n";
    const SPEC: &str = "wildcard $1 : A;\nS -> ε;\n";

    fn method(p: &Program, name: &str) -> MethodId {
        p.methods
            .iter()
            .find(|m| m.name == name)
            .map(|m| m.id)
            .unwrap_or_else(|| panic!("no method {name}"))
    }

    fn render(p: &Program, m: MethodId) -> String {
        let enc = Encoder::new(p);
        let scope = enc.symbols().scope(m).expect("scope");
        let mut out = String::new();
        for (i, (_, _, e)) in p.methods[m.index()].edges().enumerate() {
            let pre = Names::identity(&scope);
            let mut post = Names::new();
            match enc.edge_formula(m, e, &pre, &mut post) {
                Ok(t) => out.push_str(&format!("e{i}: {t}\n")),
                Err(err) => out.push_str(&format!("e{i}: error {err}\n")),
            }
        }
        out
    }

    #[test]
    fn scope_names_and_versions() {
        let p = lower_ok(PROG, SPEC);
        let enc = Encoder::new(&p);
        let m = method(&p, "A.m");
        let scope: Vec<String> = enc
            .symbols()
            .scope(m)
            .expect("scope")
            .into_iter()
            .map(|(n, s)| format!("{n}:{s}"))
            .collect();
        assert_eq!(
            scope.join(" "),
            "this:Int x:Int y:Int %t1:Int a:Int A.count:Int $1:Int A.f:(Array Int Int) \
             A.g:(Array Int Int) %alloc:Int this@entry:Int x@entry:Int y@entry:Int \
             A.count@entry:Int $1@entry:Int A.f@entry:(Array Int Int) \
             A.g@entry:(Array Int Int) %alloc@entry:Int"
        );
        assert_eq!(unversion("l@entry@12"), Some("l@entry"));
        assert_eq!(unversion("l@3"), Some("l"));
        assert_eq!(unversion("l@entry"), None);
        assert_eq!(unversion("l"), None);
    }

    #[test]
    fn block_formulas_print() {
        let p = lower_ok(PROG, SPEC);
        let text = render(&p, method(&p, "A.m"));
        insta::assert_snapshot!(text);
        assert!(text.contains("(div x 3)"), "{text}");
        assert!(text.contains("(%mul x y)"), "{text}");
    }

    #[test]
    fn allocation_and_havoc() {
        let p = lower_ok(PROG, SPEC);
        let text = render(&p, method(&p, "<root>"));
        assert!(text.contains("(>= %alloc@0 %alloc)"), "{text}");
        let text = render(&p, method(&p, "A.main"));
        assert!(
            text.contains("(= %t1@0 (+ %alloc 1)) (= %alloc@0 (+ %alloc 1))"),
            "{text}"
        );
    }

    #[test]
    fn local_named_like_a_global_is_renamed() {
        let p = lower_ok(
            "class A {\n  public static void main(String[] args) { int $1 = 3; }\n}\n",
            SPEC,
        );
        let enc = Encoder::new(&p);
        let m = method(&p, "A.main");
        let names: Vec<String> = enc
            .symbols()
            .vars(m)
            .expect("vars")
            .iter()
            .map(|(n, _)| n.clone())
            .collect();
        assert!(names.contains(&"$1#local".to_string()), "{names:?}");
    }

    /// Regression (tests/check/26): `%t1` is a `boolean` call result in `stop` and a
    /// `WakeLock` in `main`; a Refine batch mixing both methods' formulas was rejected
    /// ("`%t1` is used with two different sorts"). Every symbol has one sort now.
    #[test]
    fn one_sort_per_symbol_program_wide() {
        let src = include_str!("../../../tests/check/26-wakelock-refcounted-ok.java");
        let spec = include_str!("../../../tests/specs/wakelock.cfg");
        let p = crate::instrument(&lower_ok(src, spec));
        let enc = Encoder::new(&p);
        let mut sorts: BTreeMap<String, BTreeSet<Sort>> = BTreeMap::new();
        let mut queries = Vec::new();
        for m in &p.methods {
            let scope = enc.symbols().scope(m.id).expect("scope");
            for (n, s) in &scope {
                sorts.entry(n.clone()).or_default().insert(s.clone());
            }
            // Every edge's formula over the identity names, as Refine batches them.
            for (_, _, e) in m.edges() {
                let pre = Names::identity(&scope);
                let mut post = Names::new();
                if let Ok(t) = enc.edge_formula(m.id, e, &pre, &mut post) {
                    queries.push(t);
                }
            }
        }
        let clashes: Vec<_> = sorts.iter().filter(|(_, s)| s.len() > 1).collect();
        assert!(clashes.is_empty(), "{clashes:?}");
        let stop = method(&p, "Main.stop");
        let main = method(&p, "Main.main");
        let var = |m: MethodId, n: &str| {
            enc.symbols()
                .vars(m)
                .expect("vars")
                .iter()
                .find(|(v, _)| v.starts_with(n))
                .cloned()
        };
        assert_eq!(var(stop, "%t1"), Some(("%t1#bool".to_string(), Sort::Bool)));
        assert_eq!(var(main, "%t1"), Some(("%t1".to_string(), Sort::Int)));
        // A batch over all methods declares each constant once.
        let session = cfp_smt::Session::new(NoSolver);
        let refs: Vec<&Term> = queries.iter().collect();
        session.batch_script(&refs).expect("one sort per constant");
    }

    struct NoSolver;
    impl cfp_smt::Solver for NoSolver {
        async fn eval(&mut self, _: &str) -> Result<String, cfp_smt::SolverError> {
            Err(cfp_smt::SolverError::Rejected("not run".to_string()))
        }
    }

    #[test]
    fn uninterpreted_is_detected() {
        let x = Term::var("x", Sort::Int);
        assert!(uses_uninterpreted(&binary(
            BinaryOp::Mul,
            x.clone(),
            x.clone(),
            false
        )));
        assert!(!uses_uninterpreted(&binary(
            BinaryOp::Div,
            x.clone(),
            Term::int(-4),
            false
        )));
        assert_eq!(
            binary(BinaryOp::Rem, Term::int(-7), Term::int(2), false),
            Term::int(-1)
        );
        assert_eq!(
            binary(BinaryOp::Div, Term::int(-7), Term::int(2), false),
            Term::int(-3)
        );
    }
}
