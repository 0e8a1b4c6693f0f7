//! Slicing (paper §6): before refinement, drop what cannot matter to the program's words.
//!
//! [`slice`] keeps the methods the root reaches through kept calls, and in them every
//! `assume`, every API event, every kept call and the statements that compute what those
//! read (see [`relevance`]); variables, globals and field arrays nothing kept reads leave
//! the program, so every scope the SMT encoding builds is smaller. Two modes:
//!
//! * [`SliceMode::Exact`] keeps every call. What is dropped only writes places no kept
//!   statement reads, and every dropped statement can always run (assignments, havocs,
//!   allocations), so each path of the slice is feasible exactly when the same path of the
//!   program is, and emits the same word: **both verdicts carry over**.
//! * [`SliceMode::Summarise`] (the default) also drops calls of methods that emit no API
//!   event, whose result is not relevant, that write no relevant global or field, and
//!   that always return (an acyclic CFA without `assume`, calling only such methods):
//!   constructors, setters, logging. Each such call can always run and changes nothing
//!   kept, so both verdicts still carry over.
//! * [`SliceMode::SummariseAll`] drops such calls even when the callee may not return (a
//!   loop, recursion, a guard). The slice then has *more* behaviours than the program,
//!   so `verified` carries over and a violation whose path runs through such a call must
//!   be confirmed on the exact slice ([`Sliced::is_exact`] says whether that can happen;
//!   [`crate::Run`] does it).
//!
//! Method, field and global ids are renumbered (kept ones in their original order);
//! spans, names and the class table stay, so traces and reports read as before.

mod origin;
mod relevance;

pub use origin::Origin;

use crate::ir::{
    CfaBuilder, Edge, Expr, FieldId, GlobalId, Located, MethodCfa, MethodId, Place, Program, Stmt,
    VarDef, VarId,
};
use relevance::Relevance;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// How much a slice may drop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SliceMode {
    /// Keep every call: the slice has exactly the program's feasible words.
    Exact,
    /// Also drop calls that emit nothing, change nothing relevant and always return
    /// (acyclic, no `assume`: constructors, setters, logging): still exactly the
    /// program's words.
    #[default]
    Summarise,
    /// Also drop such calls that may not return (loops, recursion, guards): more
    /// behaviours, so a violation through one needs confirming on the exact slice.
    SummariseAll,
}

/// What a slice kept, against what the program had.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SliceStats {
    /// Classes with a kept method or field / classes in the program.
    pub classes: (usize, usize),
    /// Methods kept / methods (the synthetic root included in both).
    pub methods: (usize, usize),
    /// Statements kept / statements (simple statements, calls and API events).
    pub statements: (usize, usize),
    /// Variables kept over all kept methods / variables over all methods.
    pub variables: (usize, usize),
    /// Field arrays kept / fields.
    pub fields: (usize, usize),
    /// Globals kept / globals.
    pub globals: (usize, usize),
    /// Calls dropped because the callee cannot matter (summarised away).
    pub calls_dropped: usize,
}

impl SliceStats {
    /// One line: `kept 3/12 classes, 9/40 methods, 120/600 statements`.
    pub fn summary(&self) -> String {
        format!(
            "kept {}/{} classes, {}/{} methods, {}/{} statements, {}/{} fields{}",
            self.classes.0,
            self.classes.1,
            self.methods.0,
            self.methods.1,
            self.statements.0,
            self.statements.1,
            self.fields.0,
            self.fields.1,
            if self.calls_dropped > 0 {
                format!(", {} call(s) summarised", self.calls_dropped)
            } else {
                String::new()
            }
        )
    }
}

/// A sliced program with what was kept.
#[derive(Clone, Debug)]
pub struct Sliced {
    /// The slice (an ordinary program: lowered and, when the input was, instrumented).
    pub program: Program,
    /// Kept against total.
    pub stats: SliceStats,
    /// The program's ids of the slice's methods, edges and globals.
    pub origin: Origin,
}

impl Sliced {
    /// True when the slice's violations are the program's: no call of a method that may
    /// not return was summarised away.
    pub fn is_exact(&self) -> bool {
        !self
            .origin
            .dropped
            .iter()
            .any(|&(m, e)| !self.origin.callee_total(m, e))
    }
}

/// Slice `program` (see the module doc). Never fails: when the program has a shape the
/// slicer does not expect, the slice is the program itself (all kept).
pub fn slice(program: &Program, mode: SliceMode) -> Sliced {
    let rel = Relevance::of(program, mode);
    match rebuild(program, &rel) {
        Some(s) => s,
        None => Sliced {
            program: program.clone(),
            stats: unsliced_stats(program),
            origin: Origin {
                methods: (0..program.methods.len()).collect(),
                globals: (0..program.globals.len()).collect(),
                edges: program
                    .methods
                    .iter()
                    .map(|m| (0..m.graph.edge_count()).map(|e| vec![e]).collect())
                    .collect(),
                ..Origin::default()
            },
        },
    }
}

fn statement_count(m: &MethodCfa) -> usize {
    m.edges()
        .map(|(_, _, e)| match e {
            Edge::Block(s) => s.len(),
            Edge::Call { .. } | Edge::ApiCall { .. } | Edge::Api { .. } => 1,
        })
        .sum()
}

fn unsliced_stats(p: &Program) -> SliceStats {
    let statements: usize = p.methods.iter().map(statement_count).sum();
    let variables: usize = p.methods.iter().map(|m| m.vars.len()).sum();
    SliceStats {
        classes: (p.classes.len(), p.classes.len()),
        methods: (p.methods.len(), p.methods.len()),
        statements: (statements, statements),
        variables: (variables, variables),
        fields: (p.fields.len(), p.fields.len()),
        globals: (p.globals.len(), p.globals.len()),
        calls_dropped: 0,
    }
}

/// New ids for the kept entries of a table.
struct Renumber(Vec<Option<u32>>);

impl Renumber {
    fn new(keep: impl Iterator<Item = bool>) -> Self {
        let mut next = 0u32;
        Renumber(
            keep.map(|k| {
                k.then(|| {
                    next += 1;
                    next - 1
                })
            })
            .collect(),
        )
    }

    fn get(&self, i: usize) -> Option<u32> {
        self.0.get(i).copied().flatten()
    }
}

/// The renumberings of one rebuild.
struct Maps {
    methods: Renumber,
    fields: Renumber,
    globals: Renumber,
    /// Per original method, its variables.
    vars: Vec<Renumber>,
}

impl Maps {
    fn expr(&self, m: usize, e: &Expr) -> Option<Expr> {
        Some(match e {
            Expr::Var(v) => Expr::Var(VarId(self.vars.get(m)?.get(v.index())?)),
            Expr::Global(g) => Expr::Global(GlobalId(self.globals.get(g.index())?)),
            Expr::Field { obj, field } => Expr::Field {
                obj: Box::new(self.expr(m, obj)?),
                field: FieldId(self.fields.get(field.index())?),
            },
            Expr::Int(_) | Expr::Bool(_) | Expr::Null => e.clone(),
            Expr::Unary { op, arg } => Expr::Unary {
                op: *op,
                arg: Box::new(self.expr(m, arg)?),
            },
            Expr::Binary { op, lhs, rhs } => Expr::Binary {
                op: *op,
                lhs: Box::new(self.expr(m, lhs)?),
                rhs: Box::new(self.expr(m, rhs)?),
            },
            Expr::Ite {
                cond,
                then_expr,
                else_expr,
            } => Expr::Ite {
                cond: Box::new(self.expr(m, cond)?),
                then_expr: Box::new(self.expr(m, then_expr)?),
                else_expr: Box::new(self.expr(m, else_expr)?),
            },
        })
    }

    fn place(&self, m: usize, p: &Place) -> Option<Place> {
        Some(match p {
            Place::Var(v) => Place::Var(VarId(self.vars.get(m)?.get(v.index())?)),
            Place::Global(g) => Place::Global(GlobalId(self.globals.get(g.index())?)),
            Place::Field { obj, field } => Place::Field {
                obj: self.expr(m, obj)?,
                field: FieldId(self.fields.get(field.index())?),
            },
        })
    }
}

fn rebuild(p: &Program, rel: &Relevance) -> Option<Sliced> {
    let maps = Maps {
        methods: Renumber::new(rel.kept.iter().copied()),
        fields: Renumber::new((0..p.fields.len()).map(|i| rel.fields.get(i))),
        globals: Renumber::new((0..p.globals.len()).map(|i| rel.globals.get(i))),
        vars: p
            .methods
            .iter()
            .map(|m| Renumber::new(m.vars.iter().map(|v| rel.var(m.id, v.id))))
            .collect(),
    };
    let mut calls_dropped = 0usize;
    let mut methods = Vec::new();
    let mut origin = Origin::default();
    for m in &p.methods {
        if !rel.kept.get(m.id.index()).copied().unwrap_or(false) {
            continue;
        }
        let (cfa, dropped, edges) = rebuild_method(p, rel, &maps, m)?;
        calls_dropped += dropped.len();
        for (edge, callee) in dropped {
            origin.dropped.insert((m.id.index(), edge));
            origin.dropped_callees.insert((m.id.index(), edge), callee);
        }
        methods.push(cfa);
        origin.methods.push(m.id.index());
        origin.edges.push(edges);
    }
    origin.total = rel.total.clone();
    origin.globals = (0..p.globals.len())
        .filter(|&g| maps.globals.get(g).is_some())
        .collect();
    let fields = p
        .fields
        .iter()
        .filter_map(|f| {
            let mut f = f.clone();
            f.id = FieldId(maps.fields.get(f.id.index())?);
            Some(f)
        })
        .collect::<Vec<_>>();
    let globals = p
        .globals
        .iter()
        .filter_map(|g| {
            let mut g = g.clone();
            g.id = GlobalId(maps.globals.get(g.id.index())?);
            Some(g)
        })
        .collect::<Vec<_>>();
    let mut classes_kept: BTreeSet<usize> = BTreeSet::new();
    for m in &methods {
        if let Some(c) = m.class {
            classes_kept.insert(c.index());
        }
    }
    for f in fields.iter().filter(|f| !f.name.starts_with('%')) {
        classes_kept.insert(f.class.index());
    }
    let before = unsliced_stats(p);
    let stats = SliceStats {
        classes: (classes_kept.len(), p.classes.len()),
        methods: (methods.len(), p.methods.len()),
        statements: (
            methods.iter().map(statement_count).sum(),
            before.statements.1,
        ),
        variables: (
            methods.iter().map(|m| m.vars.len()).sum(),
            before.variables.1,
        ),
        fields: (fields.len(), p.fields.len()),
        globals: (globals.len(), p.globals.len()),
        calls_dropped,
    };
    let program = Program {
        classes: p.classes.clone(),
        fields,
        globals,
        terminals: p.terminals.clone(),
        methods,
        root: MethodId(maps.methods.get(p.root.index())?),
        entry: MethodId(maps.methods.get(p.entry.index())?),
        approximations: p.approximations.clone(),
        approx_sites: p.approx_sites.clone(),
        type_field: p
            .type_field
            .and_then(|f| maps.fields.get(f.index()).map(crate::ir::FieldId)),
        type_names: p.type_names.clone(),
        instrumented: p.instrumented,
    };
    Some(Sliced {
        program,
        stats,
        origin,
    })
}

/// One method's slice: the kept CFA, its dropped calls (edge index, callee) and the
/// origins of its edges ([`Origin::edges`]).
type MethodSlice = (MethodCfa, Vec<(usize, usize)>, Vec<Vec<usize>>);

/// The kept part of one method, its calls that were dropped (edge index, callee), and the
/// origins of its edges ([`Origin::edges`]).
fn rebuild_method(p: &Program, rel: &Relevance, maps: &Maps, m: &MethodCfa) -> Option<MethodSlice> {
    let mi = m.id.index();
    let vmap = maps.vars.get(mi)?;
    let mut dropped = Vec::new();
    let mut b = CfaBuilder {
        nodes: m.graph.node_count(),
        ..CfaBuilder::default()
    };
    for (index, (from, to, e)) in m.edges().enumerate() {
        let edge = match e {
            Edge::Block(stmts) => {
                let mut kept = Vec::new();
                for s in stmts {
                    let node = match &s.node {
                        Stmt::Assume(e) => Stmt::Assume(maps.expr(mi, e)?),
                        Stmt::Assign { place, expr } => {
                            if !rel.place(m.id, place) {
                                continue;
                            }
                            Stmt::Assign {
                                place: maps.place(mi, place)?,
                                expr: maps.expr(mi, expr)?,
                            }
                        }
                        Stmt::Havoc(place) => {
                            if !rel.place(m.id, place) {
                                continue;
                            }
                            Stmt::Havoc(maps.place(mi, place)?)
                        }
                        Stmt::Alloc { var, kind } => {
                            if !rel.var(m.id, *var) {
                                continue;
                            }
                            Stmt::Alloc {
                                var: VarId(vmap.get(var.index())?),
                                kind: kind.clone(),
                            }
                        }
                        Stmt::Approx(k) => Stmt::Approx(*k),
                        // Only reports use it (on the program, not the slice).
                        Stmt::Leave => continue,
                        Stmt::Opaque { var, source } => {
                            if !rel.var(m.id, *var) {
                                continue;
                            }
                            let source = match source {
                                crate::ir::OpaqueSource::Constant => {
                                    crate::ir::OpaqueSource::Constant
                                }
                                crate::ir::OpaqueSource::Of(es) => crate::ir::OpaqueSource::Of(
                                    es.iter()
                                        .map(|e| maps.expr(mi, e))
                                        .collect::<Option<Vec<_>>>()?,
                                ),
                                crate::ir::OpaqueSource::Element(a) => {
                                    crate::ir::OpaqueSource::Element(maps.expr(mi, a)?)
                                }
                            };
                            Stmt::Opaque {
                                var: VarId(vmap.get(var.index())?),
                                source,
                            }
                        }
                    };
                    kept.push(Located { node, span: s.span });
                }
                Edge::Block(kept)
            }
            Edge::Call {
                callee,
                args,
                result,
                span,
                unwind,
            } => {
                if !rel.call_kept(p, m.id, *callee, args, result.as_ref()) {
                    dropped.push((index, callee.index()));
                    Edge::Block(Vec::new())
                } else {
                    let cm = p.methods.get(callee.index())?;
                    // A parameter the callee never reads leaves, with its argument.
                    let mut new_args = Vec::with_capacity(args.len());
                    for (param, a) in cm.params.iter().zip(args) {
                        if rel.var(cm.id, *param) {
                            new_args.push(maps.expr(mi, a)?);
                        }
                    }
                    let result = match result {
                        Some(r) if rel.place(m.id, r) => Some(maps.place(mi, r)?),
                        _ => None,
                    };
                    Edge::Call {
                        callee: MethodId(maps.methods.get(callee.index())?),
                        args: new_args,
                        result,
                        span: *span,
                        unwind: *unwind,
                    }
                }
            }
            Edge::ApiCall {
                receiver,
                method,
                args,
                terminals,
                span,
            } => Edge::ApiCall {
                receiver: maps.expr(mi, receiver)?,
                method: method.clone(),
                args: args
                    .iter()
                    .map(|a| maps.expr(mi, a))
                    .collect::<Option<Vec<_>>>()?,
                terminals: terminals.clone(),
                span: *span,
            },
            Edge::Api { .. } => e.clone(),
        };
        b.edge(from.index(), to.index(), edge);
    }
    // Edges were added in the program's edge order: origins are its edge indices.
    let crate::ir::Finished {
        graph,
        entry,
        exit,
        throw_exit,
        origins,
    } = b.finish_traced(
        m.entry.index(),
        m.exit.index(),
        m.throw_exit.map(|t| t.index()),
    );
    let vars: Vec<VarDef> = m
        .vars
        .iter()
        .filter_map(|v| {
            let mut v = v.clone();
            v.id = VarId(vmap.get(v.id.index())?);
            Some(v)
        })
        .collect();
    let params = m
        .params
        .iter()
        .filter_map(|v| vmap.get(v.index()).map(VarId))
        .collect::<Vec<_>>();
    let ret = m
        .ret
        .filter(|r| rel.var(m.id, *r))
        .and_then(|r| vmap.get(r.index()).map(VarId));
    let cfa = MethodCfa {
        id: MethodId(maps.methods.get(mi)?),
        name: m.name.clone(),
        class: m.class,
        is_static: m.is_static,
        params,
        vars,
        ret,
        graph,
        entry,
        exit,
        throw_exit,
        span: m.span,
        is_abstract: m.is_abstract,
    };
    Some((cfa, dropped, origins))
}

#[cfg(test)]
mod tests;
