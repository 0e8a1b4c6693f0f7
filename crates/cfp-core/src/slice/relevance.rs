//! Which parts of a program can matter to its words: the relevance analysis behind
//! [`super::slice`].
//!
//! A *place* (a method's variable, a global, a field array) is relevant when a kept
//! `assume` reads it, or a kept statement that writes a relevant place reads it. A method
//! is kept when the root reaches it through calls that are kept (so is an assignment that
//! may divide by zero, [`may_block`]); a call is kept when its
//! callee can emit an API event, its result is relevant, it may write a relevant global or
//! field, or (in [`SliceMode::Summarise`]) it may not return — or always, in
//! [`SliceMode::Exact`]. Everything starts from the wildcard globals
//! (the instrumentation's guards read them) and grows to a least fixpoint: sweeps over the
//! kept methods until nothing changes.

use super::SliceMode;
use crate::ir::{Edge, Expr, MethodId, Place, Program, Stmt, VarId};

/// A fixed-size set of small indices.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Bits(Vec<u64>);

impl Bits {
    pub fn new(n: usize) -> Self {
        Bits(vec![0; n.div_ceil(64)])
    }

    pub fn get(&self, i: usize) -> bool {
        self.0.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
    }

    /// Set bit `i`; true when it was not set.
    pub fn set(&mut self, i: usize) -> bool {
        match self.0.get_mut(i / 64) {
            Some(w) if *w >> (i % 64) & 1 == 0 => {
                *w |= 1 << (i % 64);
                true
            }
            _ => false,
        }
    }

    /// Add every bit of `other`; true when something was new.
    pub fn union(&mut self, other: &Bits) -> bool {
        let mut changed = false;
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            let n = *a | *b;
            changed |= n != *a;
            *a = n;
        }
        changed
    }

    pub fn intersects(&self, other: &Bits) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }
}

/// What a method may do, transitively through its calls.
#[derive(Clone, Debug)]
pub(super) struct Effects {
    /// It (or a callee) has an API edge.
    pub emits: Vec<bool>,
    /// Globals it (or a callee) may write.
    pub globals: Vec<Bits>,
    /// Field arrays it (or a callee) may write.
    pub fields: Vec<Bits>,
}

impl Effects {
    pub fn of(p: &Program) -> Self {
        let n = p.methods.len();
        let mut fx = Effects {
            emits: vec![false; n],
            globals: vec![Bits::new(p.globals.len()); n],
            fields: vec![Bits::new(p.fields.len()); n],
        };
        let mut callees: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, m) in p.methods.iter().enumerate() {
            for (_, _, e) in m.edges() {
                match e {
                    Edge::Api { .. } | Edge::ApiCall { .. } => fx.emits[i] = true,
                    Edge::Call { callee, .. } => callees[i].push(callee.index()),
                    Edge::Block(stmts) => {
                        for s in stmts {
                            match &s.node {
                                Stmt::Assign { place, .. } | Stmt::Havoc(place) => match place {
                                    Place::Global(g) => {
                                        fx.globals[i].set(g.index());
                                    }
                                    Place::Field { field, .. } => {
                                        fx.fields[i].set(field.index());
                                    }
                                    Place::Var(_) => {}
                                },
                                Stmt::Assume(_)
                                | Stmt::Alloc { .. }
                                | Stmt::Opaque { .. }
                                | Stmt::Leave => {}
                                // A path through an approximation is reported as such:
                                // its method stays, as one with an event would.
                                Stmt::Approx(_) => fx.emits[i] = true,
                            }
                        }
                    }
                }
            }
        }
        // Propagate along calls until nothing changes (each sweep is linear; the number of
        // sweeps is bounded by the longest call chain without repetition).
        let mut changed = true;
        while changed {
            changed = false;
            for (i, cs) in callees.iter().enumerate().take(n) {
                for &c in cs {
                    if c == i || c >= n {
                        continue;
                    }
                    if fx.emits[c] && !fx.emits[i] {
                        fx.emits[i] = true;
                        changed = true;
                    }
                    let g = fx.globals[c].clone();
                    changed |= fx.globals[i].union(&g);
                    let f = fx.fields[c].clone();
                    changed |= fx.fields[i].union(&f);
                }
            }
        }
        fx
    }
}

/// The least fixpoint of relevance and kept methods.
#[derive(Clone, Debug)]
pub(super) struct Relevance {
    /// Per method, its relevant variables.
    pub vars: Vec<Bits>,
    /// Relevant globals.
    pub globals: Bits,
    /// Relevant field arrays.
    pub fields: Bits,
    /// Kept methods.
    pub kept: Vec<bool>,
    /// Transitive effects of every method.
    pub effects: Effects,
    /// Methods every run of which returns ([`super::origin::total_methods`]).
    pub total: Vec<bool>,
    mode: SliceMode,
}

impl Relevance {
    pub fn of(p: &Program, mode: SliceMode) -> Self {
        let mut r = Relevance {
            vars: p.methods.iter().map(|m| Bits::new(m.vars.len())).collect(),
            globals: Bits::new(p.globals.len()),
            fields: Bits::new(p.fields.len()),
            kept: vec![false; p.methods.len()],
            effects: Effects::of(p),
            total: super::origin::total_methods(p),
            mode,
        };
        for g in &p.globals {
            if matches!(g.kind, crate::ir::GlobalKind::Wildcard(_)) {
                r.globals.set(g.id.index());
            }
        }
        for id in [p.root, p.entry] {
            if let Some(k) = r.kept.get_mut(id.index()) {
                *k = true;
            }
        }
        let mut changed = true;
        while changed {
            changed = false;
            for (i, m) in p.methods.iter().enumerate() {
                if !r.kept[i] {
                    continue;
                }
                for (_, _, e) in m.edges() {
                    changed |= r.edge(p, m.id, e);
                }
            }
        }
        r
    }

    /// Whether `place`, written in `method`, is relevant.
    pub fn place(&self, method: MethodId, place: &Place) -> bool {
        match place {
            Place::Var(v) => self.var(method, *v),
            Place::Global(g) => self.globals.get(g.index()),
            Place::Field { field, .. } => self.fields.get(field.index()),
        }
    }

    /// Whether variable `v` of `method` is relevant.
    pub fn var(&self, method: MethodId, v: VarId) -> bool {
        self.vars
            .get(method.index())
            .is_some_and(|b| b.get(v.index()))
    }

    /// Whether a call of `callee` with `args` whose result goes to `result` (in `caller`)
    /// stays.
    pub fn call_kept(
        &self,
        p: &Program,
        caller: MethodId,
        callee: MethodId,
        args: &[Expr],
        result: Option<&Place>,
    ) -> bool {
        let c = callee.index();
        self.mode == SliceMode::Exact
            || args.iter().any(may_block)
            || (caller == p.root && callee == p.entry)
            || (self.mode == SliceMode::Summarise && !self.total.get(c).copied().unwrap_or(false))
            || self.effects.emits.get(c).copied().unwrap_or(true)
            || result.is_some_and(|r| self.place(caller, r))
            || self
                .effects
                .globals
                .get(c)
                .is_none_or(|g| g.intersects(&self.globals))
            || self
                .effects
                .fields
                .get(c)
                .is_none_or(|f| f.intersects(&self.fields))
    }

    /// Apply the rules to one edge of a kept method; true when something became relevant.
    fn edge(&mut self, p: &Program, m: MethodId, e: &Edge) -> bool {
        let mut changed = false;
        match e {
            Edge::Block(stmts) => {
                for s in stmts {
                    match &s.node {
                        Stmt::Assume(e) => changed |= self.reads(m, e),
                        Stmt::Assign { place, expr } => {
                            // A division that may be by zero blocks the interpreter (and
                            // Java): it stays, as an `assume` would.
                            if may_block(expr) {
                                changed |= self.mark_place(m, place);
                            }
                            if self.place(m, place) {
                                changed |= self.reads(m, expr);
                                changed |= self.place_reads(m, place);
                            }
                        }
                        Stmt::Havoc(place) => {
                            if self.place(m, place) {
                                changed |= self.place_reads(m, place);
                            }
                        }
                        Stmt::Alloc { .. } | Stmt::Approx(_) | Stmt::Leave => {}
                        // What an opaque value is computed from tells whether a path
                        // that turns on it is certain: it stays with the value.
                        Stmt::Opaque { var, source } => {
                            if self.var(m, *var) {
                                match source {
                                    crate::ir::OpaqueSource::Constant => {}
                                    crate::ir::OpaqueSource::Of(es) => {
                                        for e in es {
                                            changed |= self.reads(m, e);
                                        }
                                    }
                                    crate::ir::OpaqueSource::Element(a) => {
                                        changed |= self.reads(m, a);
                                    }
                                }
                            }
                        }
                    }
                }
            }
            Edge::Call {
                callee,
                args,
                result,
                ..
            } => {
                if self.call_kept(p, m, *callee, args, result.as_ref()) {
                    let c = callee.index();
                    if let Some(k) = self.kept.get_mut(c) {
                        changed |= !*k;
                        *k = true;
                    }
                    if let Some(cm) = p.methods.get(c) {
                        for (param, arg) in cm.params.iter().zip(args) {
                            // An argument that may divide by zero is evaluated: it stays.
                            if may_block(arg) {
                                changed |= self.mark_place(cm.id, &Place::Var(*param));
                            }
                            if self.var(cm.id, *param) {
                                changed |= self.reads(m, arg);
                            }
                        }
                        if let (Some(r), Some(ret)) = (result, cm.ret) {
                            if self.place(m, r) {
                                changed |= self.vars[c].set(ret.index());
                                changed |= self.place_reads(m, r);
                            }
                        }
                    }
                }
            }
            Edge::ApiCall { receiver, args, .. } => {
                changed |= self.reads(m, receiver);
                for a in args {
                    changed |= self.reads(m, a);
                }
            }
            Edge::Api { .. } => {}
        }
        changed
    }

    /// Mark what the object expression of a field place reads.
    fn place_reads(&mut self, m: MethodId, place: &Place) -> bool {
        match place {
            Place::Field { obj, .. } => self.reads(m, obj),
            Place::Var(_) | Place::Global(_) => false,
        }
    }

    /// Mark the place itself relevant (a variable, a global, a field array).
    fn mark_place(&mut self, m: MethodId, place: &Place) -> bool {
        match place {
            Place::Var(v) => self
                .vars
                .get_mut(m.index())
                .is_some_and(|b| b.set(v.index())),
            Place::Global(g) => self.globals.set(g.index()),
            Place::Field { field, .. } => self.fields.set(field.index()),
        }
    }

    /// Mark everything `e` reads (in method `m`) relevant.
    fn reads(&mut self, m: MethodId, e: &Expr) -> bool {
        match e {
            Expr::Var(v) => self
                .vars
                .get_mut(m.index())
                .is_some_and(|b| b.set(v.index())),
            Expr::Global(g) => self.globals.set(g.index()),
            Expr::Field { obj, field } => {
                let a = self.fields.set(field.index());
                self.reads(m, obj) | a
            }
            Expr::Int(_) | Expr::Bool(_) | Expr::Null => false,
            Expr::Unary { arg, .. } => self.reads(m, arg),
            Expr::Binary { lhs, rhs, .. } => {
                let a = self.reads(m, lhs);
                self.reads(m, rhs) | a
            }
            Expr::Ite {
                cond,
                then_expr,
                else_expr,
            } => {
                let a = self.reads(m, cond);
                let b = self.reads(m, then_expr);
                self.reads(m, else_expr) | a | b
            }
        }
    }
}

/// True when evaluating `e` may fail: a `/` or `%` whose divisor is not a non-zero
/// constant (the concrete interpreter blocks there, as Java throws; the SMT encoding
/// leaves the quotient free). The slicer keeps such statements, and a method with one is
/// not total ([`super::origin::total_methods`]).
pub(super) fn may_block(e: &Expr) -> bool {
    use cfp_syntax::ast::BinaryOp;
    match e {
        Expr::Var(_) | Expr::Global(_) | Expr::Int(_) | Expr::Bool(_) | Expr::Null => false,
        Expr::Field { obj, .. } => may_block(obj),
        Expr::Unary { arg, .. } => may_block(arg),
        Expr::Binary { op, lhs, rhs } => {
            let partial = matches!(op, BinaryOp::Div | BinaryOp::Rem)
                && !matches!(**rhs, Expr::Int(n) if n != 0);
            partial || may_block(lhs) || may_block(rhs)
        }
        Expr::Ite {
            cond,
            then_expr,
            else_expr,
        } => may_block(cond) || may_block(then_expr) || may_block(else_expr),
    }
}
