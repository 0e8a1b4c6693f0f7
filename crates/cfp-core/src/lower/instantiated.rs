//! Which classes of the program can have objects at all (rapid type analysis): a
//! runtime-type test for a class no reached code instantiates is false, and the virtual
//! calls, catch clauses and call-backs it guards leave the program.
//!
//! In a closed world (a static entry without objects of the program among its
//! parameters, no harness that makes up objects) an object of a program class exists only
//! once a `new` of that class has run (its `%type := code`), or when library code creates
//! it: a class that extends a class outside the program (an activity, a view, a thread,
//! an exception), a serialisable class, and a class named by a class literal (and its
//! subclasses: an injector or a service loader given `Foo.class`) count as instantiated
//! from the start. Every class outside the program counts as instantiated too (its code
//! is never removed). In an open world nothing is removed, and once reached code loads a
//! class by a name that is not a constant (`Class.forName(name)`, `loadClass`), every
//! class counts as instantiated.
//!
//! The instantiated classes and the reached code grow together to a least fixpoint: the
//! root's code is reached; an edge is reached when its source is and none of its type
//! tests is false for the classes instantiated so far; a call on a reached edge reaches
//! its callee; a `%type := code` on a reached edge instantiates. Then every type test
//! of the program is rewritten under the final set — a class that is not instantiated
//! has no object, so `x.%type == code` is false and `x.%type != code` true — and an edge
//! whose `assume` became `false` is removed with everything only it led to.
//!
//! Outside this model: objects a dependency injector creates for a constructor's
//! parameter of a class no class literal names (its just-in-time bindings).

use crate::ir::{CfaBuilder, Edge, Expr, FieldId, Located, MethodCfa, MethodId, Place, Stmt};
use cfp_syntax::ast::{BinaryOp, UnaryOp};
use petgraph::visit::EdgeRef;
use std::collections::BTreeSet;

/// The classes that may have objects, by `%type` code.
pub(super) struct Instantiated {
    /// The `%type` field.
    field: FieldId,
    /// The program's class codes (`1..=n`): only these can be dead.
    program_codes: usize,
    /// Instantiated program codes (index `code - 1`).
    live: Vec<bool>,
    /// Methods that, once reached, may create objects of every class (they load classes
    /// by names that are not constants).
    reflective: BTreeSet<MethodId>,
}

impl Instantiated {
    /// Start from the codes the platform may create (`seeds`) among the `program_codes`
    /// codes of the program's classes.
    pub(super) fn new(
        field: FieldId,
        program_codes: usize,
        seeds: impl IntoIterator<Item = i64>,
        reflective: BTreeSet<MethodId>,
    ) -> Self {
        let mut me = Instantiated {
            field,
            program_codes,
            live: vec![false; program_codes],
            reflective,
        };
        for s in seeds {
            me.instantiate(s);
        }
        me
    }

    /// Mark `code` instantiated; true when it was not.
    fn instantiate(&mut self, code: i64) -> bool {
        match self.slot(code) {
            Some(i) if !self.live[i] => {
                self.live[i] = true;
                true
            }
            _ => false,
        }
    }

    fn slot(&self, code: i64) -> Option<usize> {
        let i = usize::try_from(code).ok()?.checked_sub(1)?;
        (i < self.program_codes).then_some(i)
    }

    /// True when `code` is a program class no reached code instantiates.
    fn dead(&self, code: i64) -> bool {
        self.slot(code).is_some_and(|i| !self.live[i])
    }

    fn is_type(&self, e: &Expr) -> bool {
        matches!(e, Expr::Field { field, .. } if *field == self.field)
    }

    /// `e` with its type tests decided for the dead codes, constants folded; `None`
    /// when nothing changes.
    fn rewrite(&self, e: &Expr) -> Option<Expr> {
        match e {
            Expr::Binary { op, lhs, rhs } => {
                if let Some(r) = self.type_test(*op, lhs, rhs) {
                    return r;
                }
                let (l, r) = (self.rewrite(lhs), self.rewrite(rhs));
                if l.is_none() && r.is_none() {
                    return None;
                }
                let l = l.unwrap_or_else(|| (**lhs).clone());
                let r = r.unwrap_or_else(|| (**rhs).clone());
                Some(fold(*op, l, r))
            }
            Expr::Unary {
                op: UnaryOp::Not,
                arg,
            } => match self.rewrite(arg)? {
                Expr::Bool(b) => Some(Expr::Bool(!b)),
                a => Some(Expr::Unary {
                    op: UnaryOp::Not,
                    arg: Box::new(a),
                }),
            },
            Expr::Ite {
                cond,
                then_expr,
                else_expr,
            } => {
                let c = self.rewrite(cond)?;
                Some(match c {
                    Expr::Bool(true) => (**then_expr).clone(),
                    Expr::Bool(false) => (**else_expr).clone(),
                    c => Expr::Ite {
                        cond: Box::new(c),
                        then_expr: then_expr.clone(),
                        else_expr: else_expr.clone(),
                    },
                })
            }
            _ => None,
        }
    }

    /// A test of a `%type` against constants (`t == k`, `t != k`, `lo <= t && t <= hi`
    /// as `types::in_codes` writes them): `Some(rewritten)` when `op lhs rhs` is one (the
    /// inner `None` when it stays as it is), `None` when it is not a type test.
    fn type_test(&self, op: BinaryOp, lhs: &Expr, rhs: &Expr) -> Option<Option<Expr>> {
        let constant = |a: &Expr, b: &Expr| match (a, b) {
            (t, Expr::Int(k)) | (Expr::Int(k), t) if self.is_type(t) => Some(*k),
            _ => None,
        };
        match op {
            BinaryOp::Eq | BinaryOp::Ne => {
                let k = constant(lhs, rhs)?;
                Some(self.dead(k).then_some(Expr::Bool(op == BinaryOp::Ne)))
            }
            BinaryOp::And => {
                let (
                    Expr::Binary {
                        op: BinaryOp::Le,
                        lhs: lo,
                        rhs: t1,
                    },
                    Expr::Binary {
                        op: BinaryOp::Le,
                        lhs: t2,
                        rhs: hi,
                    },
                ) = (lhs, rhs)
                else {
                    return None;
                };
                let (Expr::Int(lo), Expr::Int(hi)) = (&**lo, &**hi) else {
                    return None;
                };
                if t1 != t2 || !self.is_type(t1) {
                    return None;
                }
                // A range with a live code stays whole: cut into the live codes it could
                // become a long disjunction, and its dead codes have no object anyway.
                let all_dead = (*lo..=*hi).all(|k| self.dead(k));
                Some(all_dead.then_some(Expr::Bool(false)))
            }
            _ => None,
        }
    }

    /// Walk the code reached under the current set, instantiating what it allocates;
    /// true when something new was instantiated on the way.
    fn sweep(&mut self, methods: &[MethodCfa]) -> bool {
        let mut reached = vec![false; methods.len()];
        let mut grew = false;
        let mut stack = vec![0usize]; // the root
        while let Some(mi) = stack.pop() {
            let Some(m) = methods.get(mi) else { continue };
            if std::mem::replace(&mut reached[mi], true) {
                continue;
            }
            if self.reflective.contains(&m.id) && self.live.iter().any(|b| !b) {
                self.live.iter_mut().for_each(|b| *b = true);
                grew = true;
            }
            let mut seen = vec![false; m.graph.node_count()];
            let mut nodes = vec![m.entry];
            while let Some(n) = nodes.pop() {
                if std::mem::replace(&mut seen[n.index()], true) {
                    continue;
                }
                for e in m.graph.edges(n) {
                    match e.weight() {
                        Edge::Block(stmts) => {
                            // What the block allocates counts before its tests (an
                            // over-approximation when a test before it fails).
                            for s in stmts {
                                if let Some(k) = self.tag(&s.node) {
                                    grew |= self.instantiate(k);
                                }
                            }
                            if self.blocks(stmts) {
                                continue;
                            }
                        }
                        Edge::Call { callee, .. } => stack.push(callee.index()),
                        Edge::ApiCall { .. } | Edge::Api { .. } => {}
                    }
                    nodes.push(e.target());
                }
            }
        }
        grew
    }

    /// The code a statement gives a new object (`v.%type := code`).
    fn tag(&self, s: &Stmt) -> Option<i64> {
        match s {
            Stmt::Assign {
                place: Place::Field { field, .. },
                expr: Expr::Int(k),
            } if *field == self.field => Some(*k),
            _ => None,
        }
    }

    /// True when an `assume` of the block is false under the current set.
    fn blocks(&self, stmts: &[Located<Stmt>]) -> bool {
        stmts.iter().any(|s| match &s.node {
            Stmt::Assume(e) => matches!(self.rewrite(e), Some(Expr::Bool(false))),
            _ => false,
        })
    }

    /// Rewrite the type tests of `m`; `None` when nothing changes.
    fn prune_method(&self, m: &MethodCfa) -> Option<MethodCfa> {
        let mut changed = false;
        let mut b = CfaBuilder {
            nodes: m.graph.node_count(),
            ..CfaBuilder::default()
        };
        for (from, to, e) in m.edges() {
            let edge = match e {
                Edge::Block(stmts) => {
                    let mut out = Vec::with_capacity(stmts.len());
                    let mut dead = false;
                    for s in stmts {
                        match &s.node {
                            Stmt::Assume(x) => match self.rewrite(x) {
                                Some(Expr::Bool(true)) => changed = true,
                                Some(Expr::Bool(false)) => {
                                    dead = true;
                                    break;
                                }
                                Some(x) => {
                                    changed = true;
                                    out.push(Located {
                                        node: Stmt::Assume(x),
                                        span: s.span,
                                    });
                                }
                                None => out.push(s.clone()),
                            },
                            _ => out.push(s.clone()),
                        }
                    }
                    if dead {
                        changed = true;
                        continue;
                    }
                    Edge::Block(out)
                }
                other => other.clone(),
            };
            b.edge(from.index(), to.index(), edge);
        }
        if !changed {
            return None;
        }
        let f = b.finish_traced(
            m.entry.index(),
            m.exit.index(),
            m.throw_exit.map(|t| t.index()),
        );
        let mut out = m.clone();
        out.graph = f.graph;
        out.entry = f.entry;
        out.exit = f.exit;
        out.throw_exit = f.throw_exit;
        Some(out)
    }
}

impl super::ProgramLowerer<'_> {
    /// The starting set of [`prune`], when the analysis applies: runtime types are
    /// tracked and the world is closed (a static entry without objects of the program
    /// among its parameters, driven by no harness or the activity lifecycle: no object of
    /// the program exists that no `new` made).
    ///
    /// The classes library code may create count from the start: those extending a class
    /// outside the program (the platform creates activities, views, threads), those
    /// serialisable (a deserialiser creates them), and those named by a class literal
    /// with their subclasses (an injector, a service loader, `newInstance`).
    pub(super) fn instantiable(
        &self,
        entry: Option<crate::ir::MethodId>,
        opts: &super::LowerOptions,
    ) -> Option<Instantiated> {
        let field = self.type_field?;
        let universe = self.facts()?.types.as_ref()?;
        let esig = self.table.methods.get(entry?.index())?;
        let closed = esig.is_static
            && esig
                .params
                .iter()
                .all(|(_, t, _)| !matches!(t, crate::classes::Type::Class(_)));
        if !closed || opts.made_up_objects {
            return None;
        }
        let n = self.table.classes.len();
        let named: Vec<crate::ir::ClassId> = self
            .survey
            .class_literals
            .iter()
            .filter_map(|name| self.table.class_by_name(name))
            .collect();
        let created_outside = |c: crate::ir::ClassId| {
            self.table.has_external_superclass(c)
                || self.table.ancestors(c).iter().any(|a| {
                    self.table.classes[a.index()]
                        .external_supers
                        .iter()
                        .any(|e| e == "Serializable" || e == "Externalizable")
                })
                || named.iter().any(|k| self.table.is_subclass(c, *k))
        };
        let seeds: Vec<i64> = (0..n)
            .map(|i| crate::ir::ClassId(i as u32))
            .filter(|c| created_outside(*c))
            .filter_map(|c| universe.class_code(c))
            .collect();
        // The program's classes have the codes 1..=n (and outside classes the next).
        let codes: BTreeSet<i64> = (0..n)
            .filter_map(|i| universe.class_code(crate::ir::ClassId(i as u32)))
            .collect();
        let contiguous = codes.len() == n
            && codes.first().is_none_or(|k| *k == 1)
            && codes.last().is_none_or(|k| *k == n as i64);
        let reflective = self.survey.reflective.clone();
        contiguous.then(|| Instantiated::new(field, n, seeds, reflective))
    }
}

/// `lhs op rhs` with boolean constants folded.
fn fold(op: BinaryOp, l: Expr, r: Expr) -> Expr {
    match (op, &l, &r) {
        (BinaryOp::And, Expr::Bool(false), _) | (BinaryOp::And, _, Expr::Bool(false)) => {
            Expr::Bool(false)
        }
        (BinaryOp::Or, Expr::Bool(true), _) | (BinaryOp::Or, _, Expr::Bool(true)) => {
            Expr::Bool(true)
        }
        (BinaryOp::And, Expr::Bool(true), _) | (BinaryOp::Or, Expr::Bool(false), _) => r,
        (BinaryOp::And, _, Expr::Bool(true)) | (BinaryOp::Or, _, Expr::Bool(false)) => l,
        _ => Expr::binary(op, l, r),
    }
}

/// Remove from `methods` what only objects of classes nothing instantiates could run
/// (the module doc): the least fixpoint of reached code and instantiated classes, then
/// every type test rewritten under it. Returns how many program classes are
/// instantiated.
pub(super) fn prune(methods: &mut [MethodCfa], mut set: Instantiated) -> usize {
    loop {
        if !set.sweep(methods) {
            break;
        }
    }
    for m in methods.iter_mut() {
        if let Some(p) = set.prune_method(m) {
            *m = p;
        }
    }
    set.live.iter().filter(|b| **b).count()
}

#[cfg(test)]
mod tests;
