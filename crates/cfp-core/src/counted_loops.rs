//! Counted loop pairs as recursion: two loops that run the same number of times, the
//! second undoing what the first did (n `lock()`s, then n `unlock()`s), become one
//! recursive method before the lowering.
//!
//! The abstraction keeps a finite state per method: a method's own words form a regular
//! language, and `lock^k unlock^k` for every `k` is not one. Only calls give the program
//! grammar the power to count. So
//!
//! ```text
//! for (int i = 0; i < n; i++) B1
//! for (int j = 0; j < n; j++) B2
//! ```
//!
//! becomes `m$loops1(0, n, …)` with
//!
//! ```text
//! private void m$loops1(int i, int n, …) {
//!     if (i < n) { B1  m$loops1(i + 1, n, …);  m$loops1$back(n - 1 - i, …); }
//! }
//! private void m$loops1$back(int j, …) { B2 }
//! ```
//!
//! which runs exactly the same statements in exactly the same order: `B1` for
//! `i = 0 … k-1`, then, as the calls return innermost first, `B2` for `j = 0 … k-1`
//! (`k = max(n, 0)`). An exception leaves both forms at the same statement, skipping the
//! same rest. The rewrite applies only where that equivalence is plain to see:
//!
//! * the two `for` statements follow each other in one block, each declares an `int`
//!   counter from `0`, tests `counter < bound` and only increments it by one; the bounds
//!   are the same `int` local variable or parameter (or the same literal);
//! * neither body assigns a local variable declared outside it (the bound, its counter
//!   and the method's other locals are only read — they are passed by value), nor
//!   contains `break`, `continue`, `return`, a label, a closure or a local class;
//! * the method has no pattern variable (`instanceof T t`), lambda, method reference,
//!   anonymous or local class (their scopes are not followed here), and both bodies
//!   call a method named like one of the spec's calls or a method or class of the
//!   program (loops that print or append are left alone); a literal bound is at most
//!   [`MAX_LITERAL_BOUND`].
//!
//! The new methods are private, with names no class of the unit has, and keep the loops'
//! source positions, so traces point at the loops. (On a real JVM the recursion could
//! overflow the stack for a huge `n`; the model has no stack limit, and the JVM oracle runs
//! the original program.)

use build::{binary, call_stmt, int_expr, int_type, method, name_expr, param};
use cfp_syntax::ast::{
    BinaryOp, Block, CatchClause, ClassDecl, CompilationUnit, Expr, ExprKind, IncDecOp, Member,
    MethodDecl, Resource, Stmt, StmtKind, TypeKind, TypeRef, VarDeclarator,
};
use cfp_syntax::Span;
use std::collections::{BTreeMap, BTreeSet};
use uses::Uses;

/// The largest literal bound a pair may have: each pass is a call frame, and the concrete
/// runs (the bug hunter's, the vacuity check's) have a bounded call depth.
const MAX_LITERAL_BOUND: i64 = 32;

/// `unit` with its counted loop pairs rewritten (see the module doc), or `None` when it
/// has none. `events` are the method names of the spec's calls: each body must call one
/// of them or a method or class of the program.
pub fn rewrite(unit: &CompilationUnit, events: &BTreeSet<String>) -> Option<CompilationUnit> {
    // Most programs have no candidate pair: they are not copied.
    if !unit.classes.iter().any(class_has_candidate) {
        return None;
    }
    let mut names = Names::default();
    for c in &unit.classes {
        names.note(c);
    }
    names.relevant.extend(events.iter().cloned());
    let mut out = unit.clone();
    let mut changed = false;
    for c in &mut out.classes {
        changed |= class(c, &mut names);
    }
    changed.then_some(out)
}

/// The unit's method and class names: new methods get names no class has (a private
/// method of one class must not look like an override of another's), and a body is worth
/// rewriting when it calls one of `relevant`.
#[derive(Debug, Default)]
struct Names {
    taken: BTreeSet<String>,
    relevant: BTreeSet<String>,
}

impl Names {
    fn note(&mut self, c: &ClassDecl) {
        self.relevant.insert(c.name.name.clone());
        for m in &c.members {
            match m {
                Member::Method(d) => {
                    self.taken.insert(d.name.name.clone());
                    self.relevant.insert(d.name.name.clone());
                }
                Member::Class(inner) => self.note(inner),
                _ => {}
            }
        }
    }

    /// A fresh name `{base}$loops{k}` (and its `$back`), taken from now on.
    fn fresh(&mut self, base: &str) -> String {
        let name = (1..)
            .map(|k| format!("{base}$loops{k}"))
            .find(|n| !self.taken.contains(n) && !self.taken.contains(&format!("{n}$back")))
            .unwrap_or_else(|| format!("{base}$loops"));
        self.taken.insert(name.clone());
        self.taken.insert(format!("{name}$back"));
        name
    }
}

fn class(c: &mut ClassDecl, names: &mut Names) -> bool {
    let mut changed = false;
    for m in &mut c.members {
        if let Member::Class(inner) = m {
            changed |= class(inner, names);
        }
    }
    if c.is_interface {
        return changed;
    }
    let mut added: Vec<MethodDecl> = Vec::new();
    for m in &mut c.members {
        let (name, is_static, params, throws, body) = match m {
            Member::Method(d) => match &mut d.body {
                Some(b) => (
                    d.name.name.clone(),
                    d.modifiers.is_static,
                    &d.params,
                    &d.throws,
                    b,
                ),
                None => continue,
            },
            Member::Constructor(d) => ("init".to_owned(), false, &d.params, &d.throws, &mut d.body),
            _ => continue,
        };
        if !block_is_plain(body) {
            continue;
        }
        // A variable-arity parameter's type is already its array type.
        let mut scopes: Vec<BTreeMap<String, TypeRef>> = vec![params
            .iter()
            .map(|p| (p.name.name.clone(), p.ty.clone()))
            .collect()];
        let mut rw = Rewriter {
            method: name,
            is_static,
            throws,
            names,
            added: &mut added,
        };
        rw.block(body, &mut scopes);
    }
    changed |= !added.is_empty();
    c.members.extend(added.into_iter().map(Member::Method));
    changed
}

struct Rewriter<'a> {
    method: String,
    is_static: bool,
    /// The method's `throws` clause, which the new methods repeat (what a library call
    /// in them may throw depends on it).
    throws: &'a [TypeRef],
    names: &'a mut Names,
    added: &'a mut Vec<MethodDecl>,
}

impl Rewriter<'_> {
    /// Rewrite the pairs of `b` and of the blocks inside it; `scopes` holds the local
    /// variables in scope (innermost last).
    fn block(&mut self, b: &mut Block, scopes: &mut Vec<BTreeMap<String, TypeRef>>) {
        scopes.push(BTreeMap::new());
        let mut k = 0;
        while k < b.stmts.len() {
            if k + 1 < b.stmts.len() {
                if let Some(call) = self.pair(&b.stmts[k], &b.stmts[k + 1], scopes) {
                    b.stmts.splice(k..k + 2, std::iter::once(call));
                    k += 1;
                    continue;
                }
            }
            self.stmt(&mut b.stmts[k], scopes);
            if let StmtKind::LocalVar { declarators, .. } = &b.stmts[k].kind {
                if let Some(top) = scopes.last_mut() {
                    for d in declarators {
                        top.insert(d.name.name.clone(), d.ty.clone());
                    }
                }
            }
            k += 1;
        }
        scopes.pop();
    }

    /// Descend into the blocks of `s` (its own declarations are the caller's business).
    fn stmt(&mut self, s: &mut Stmt, scopes: &mut Vec<BTreeMap<String, TypeRef>>) {
        match &mut s.kind {
            StmtKind::Block(b) => self.block(b, scopes),
            StmtKind::If {
                then_branch,
                else_branch,
                ..
            } => {
                self.nested(then_branch, scopes);
                if let Some(e) = else_branch {
                    self.nested(e, scopes);
                }
            }
            StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => {
                self.nested(body, scopes)
            }
            StmtKind::For { init, body, .. } => {
                let mut scope = BTreeMap::new();
                for i in init.iter() {
                    if let StmtKind::LocalVar { declarators, .. } = &i.kind {
                        for d in declarators {
                            scope.insert(d.name.name.clone(), d.ty.clone());
                        }
                    }
                }
                scopes.push(scope);
                self.nested(body, scopes);
                scopes.pop();
            }
            StmtKind::ForEach { ty, name, body, .. } => {
                scopes.push(BTreeMap::from([(name.name.clone(), ty.clone())]));
                self.nested(body, scopes);
                scopes.pop();
            }
            StmtKind::Synchronized { body, .. } => self.block(body, scopes),
            StmtKind::Labeled { body, .. } => self.nested(body, scopes),
            StmtKind::Try {
                resources,
                body,
                catches,
                finally,
            } => {
                let mut scope = BTreeMap::new();
                for r in resources.iter() {
                    if let Resource::Decl { ty, name, .. } = r {
                        scope.insert(name.name.clone(), ty.clone());
                    }
                }
                scopes.push(scope);
                self.block(body, scopes);
                scopes.pop();
                for CatchClause {
                    types, name, body, ..
                } in catches
                {
                    let ty = types.first().cloned().unwrap_or(TypeRef {
                        kind: TypeKind::Inferred,
                        span: name.span,
                    });
                    scopes.push(BTreeMap::from([(name.name.clone(), ty)]));
                    self.block(body, scopes);
                    scopes.pop();
                }
                if let Some(f) = finally {
                    self.block(f, scopes);
                }
            }
            // A switch block is one scope shared by its cases: left alone.
            _ => {}
        }
    }

    /// A statement in a position of its own (a branch or a loop body): a block, or one
    /// statement that cannot declare.
    fn nested(&mut self, s: &mut Stmt, scopes: &mut Vec<BTreeMap<String, TypeRef>>) {
        self.stmt(s, scopes);
    }

    /// The call replacing the pair `first`, `second`, with its methods added, when they
    /// are a counted loop pair.
    fn pair(
        &mut self,
        first: &Stmt,
        second: &Stmt,
        scopes: &[BTreeMap<String, TypeRef>],
    ) -> Option<Stmt> {
        let (i, bound1, b1) = counted(first)?;
        let (j, bound2, b2) = counted(second)?;
        if bound1 != bound2 {
            return None;
        }
        let in_scope = |n: &str| scopes.iter().rev().find_map(|s| s.get(n));
        // The bound: an int local or parameter (or a literal).
        let bound_local = match &bound1 {
            Bound::Local(n) => match in_scope(n) {
                Some(t) if t.kind == TypeKind::Int => Some(n.clone()),
                _ => return None,
            },
            Bound::Literal(v) if *v <= MAX_LITERAL_BOUND => None,
            Bound::Literal(_) => return None,
        };
        let mut u1 = Uses::default();
        let mut u2 = Uses::default();
        if !u1.stmt(b1) || !u2.stmt(b2) {
            return None;
        }
        let relevant = |u: &Uses| u.called.iter().any(|n| self.names.relevant.contains(n));
        if !relevant(&u1) || !relevant(&u2) {
            return None;
        }
        // Nothing declared outside a body is assigned in it (the counter included).
        let outer = |n: &String| in_scope(n).is_some() || *n == i || *n == j;
        if u1
            .assigned
            .iter()
            .any(|n| outer(n) && !u1.declared.contains(n))
            || u2
                .assigned
                .iter()
                .any(|n| outer(n) && !u2.declared.contains(n))
            || u1.assigned.contains(&i)
            || u2.assigned.contains(&j)
        {
            return None;
        }
        // The method's locals each body reads, by name, with their declared types.
        let captured = |u: &Uses, counter: &str| -> Option<Vec<(String, TypeRef)>> {
            let mut out = Vec::new();
            for n in &u.read {
                if n == counter || u.declared.contains(n) {
                    continue;
                }
                if let Some(t) = in_scope(n) {
                    if t.kind == TypeKind::Inferred {
                        return None;
                    }
                    out.push((n.clone(), t.clone()));
                }
            }
            Some(out)
        };
        let caps2 = captured(&u2, &j)?;
        let mut caps1 = captured(&u1, &i)?;
        for c in &caps2 {
            if !caps1.iter().any(|(n, _)| *n == c.0) {
                caps1.push(c.clone());
            }
        }
        if let Some(n) = &bound_local {
            if !caps1.iter().any(|(m, _)| m == n) {
                caps1.push((n.clone(), int_type(first.span)));
            }
        }
        let span = Span::new(first.span.start as usize, second.span.end as usize);
        let forth = self.names.fresh(&self.method);
        let back = format!("{forth}$back");
        let bound_expr = |at: Span| match &bound1 {
            Bound::Local(n) => name_expr(n, at),
            Bound::Literal(v) => int_expr(*v, at),
        };
        let args = |caps: &[(String, TypeRef)], at: Span| -> Vec<Expr> {
            caps.iter().map(|(n, _)| name_expr(n, at)).collect()
        };
        // back(j, caps2) { B2 }
        let mut back_params = vec![param(&j, int_type(second.span), second.span)];
        back_params.extend(caps2.iter().map(|(n, t)| param(n, t.clone(), second.span)));
        self.added.push(method(
            &back,
            (self.is_static, self.throws),
            back_params,
            vec![b2.clone()],
            second.span,
        ));
        // forth(i, caps1) { if (i < n) { B1; forth(i + 1, caps1); back(n - 1 - i, caps2); } }
        let at1 = first.span;
        let at2 = second.span;
        let mut recurse = vec![binary(
            BinaryOp::Add,
            name_expr(&i, at1),
            int_expr(1, at1),
            at1,
        )];
        recurse.extend(args(&caps1, at1));
        let mut unwind = vec![binary(
            BinaryOp::Sub,
            binary(BinaryOp::Sub, bound_expr(at2), int_expr(1, at2), at2),
            name_expr(&i, at2),
            at2,
        )];
        unwind.extend(args(&caps2, at2));
        let body = Stmt {
            kind: StmtKind::If {
                cond: binary(BinaryOp::Lt, name_expr(&i, at1), bound_expr(at1), at1),
                then_branch: Box::new(Stmt {
                    kind: StmtKind::Block(Block {
                        stmts: vec![
                            b1.clone(),
                            call_stmt(&forth, recurse, at1),
                            call_stmt(&back, unwind, at2),
                        ],
                        span,
                    }),
                    span,
                }),
                else_branch: None,
            },
            span,
        };
        let mut forth_params = vec![param(&i, int_type(at1), at1)];
        forth_params.extend(caps1.iter().map(|(n, t)| param(n, t.clone(), at1)));
        self.added.push(method(
            &forth,
            (self.is_static, self.throws),
            forth_params,
            vec![body],
            span,
        ));
        let mut start = vec![int_expr(0, at1)];
        start.extend(args(&caps1, at1));
        Some(call_stmt(&forth, start, span))
    }
}

/// Whether some block of `c` (or of a class nested in it) has two consecutive counted
/// loops with the same bound: the only place a rewrite may apply.
fn class_has_candidate(c: &ClassDecl) -> bool {
    c.members.iter().any(|m| match m {
        Member::Method(d) => d
            .body
            .as_ref()
            .is_some_and(|b| stmts_have_candidate(&b.stmts)),
        Member::Constructor(d) => stmts_have_candidate(&d.body.stmts),
        Member::Class(inner) => class_has_candidate(inner),
        _ => false,
    })
}

fn stmts_have_candidate(stmts: &[Stmt]) -> bool {
    let pair = stmts
        .windows(2)
        .any(|w| match (counted(&w[0]), counted(&w[1])) {
            (Some((_, b1, _)), Some((_, b2, _))) => b1 == b2,
            _ => false,
        });
    pair || stmts.iter().any(|s| match &s.kind {
        StmtKind::Block(b) | StmtKind::Synchronized { body: b, .. } => {
            stmts_have_candidate(&b.stmts)
        }
        StmtKind::If {
            then_branch,
            else_branch,
            ..
        } => {
            stmts_have_candidate(std::slice::from_ref(then_branch))
                || else_branch
                    .as_ref()
                    .is_some_and(|e| stmts_have_candidate(std::slice::from_ref(e)))
        }
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::For { body, .. }
        | StmtKind::ForEach { body, .. }
        | StmtKind::Labeled { body, .. } => stmts_have_candidate(std::slice::from_ref(body)),
        StmtKind::Try {
            body,
            catches,
            finally,
            ..
        } => {
            stmts_have_candidate(&body.stmts)
                || catches.iter().any(|c| stmts_have_candidate(&c.body.stmts))
                || finally
                    .as_ref()
                    .is_some_and(|f| stmts_have_candidate(&f.stmts))
        }
        _ => false,
    })
}

/// A loop bound.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Bound {
    Local(String),
    Literal(i64),
}

/// `for (int c = 0; c < bound; c++) body`: the counter, the bound and the body.
fn counted(s: &Stmt) -> Option<(String, Bound, &Stmt)> {
    let StmtKind::For {
        init,
        cond: Some(cond),
        update,
        body,
    } = &s.kind
    else {
        return None;
    };
    let [Stmt {
        kind: StmtKind::LocalVar { ty, declarators },
        ..
    }] = init.as_slice()
    else {
        return None;
    };
    let [VarDeclarator {
        name,
        init:
            Some(Expr {
                kind: ExprKind::Int { value: 0, .. },
                ..
            }),
        ..
    }] = declarators.as_slice()
    else {
        return None;
    };
    if ty.kind != TypeKind::Int {
        return None;
    }
    let c = name.name.clone();
    let ExprKind::Binary {
        op: BinaryOp::Lt,
        lhs,
        rhs,
    } = &cond.kind
    else {
        return None;
    };
    if !matches!(&lhs.kind, ExprKind::Name(n) if n.name == c) {
        return None;
    }
    let bound = match &rhs.kind {
        ExprKind::Name(n) if n.name != c => Bound::Local(n.name.clone()),
        ExprKind::Int {
            value,
            is_long: false,
        } => Bound::Literal(*value),
        _ => return None,
    };
    let [Expr {
        kind:
            ExprKind::IncDec {
                op: IncDecOp::PostInc | IncDecOp::PreInc,
                target,
            },
        ..
    }] = update.as_slice()
    else {
        return None;
    };
    if !matches!(&target.kind, ExprKind::Name(n) if n.name == c) {
        return None;
    }
    Some((c, bound, body))
}

/// Whether a method body has none of what the rewrite does not follow: closures, local
/// classes, pattern variables (jumps are fine there).
fn block_is_plain(b: &Block) -> bool {
    let mut u = Uses {
        jumps: true,
        ..Uses::default()
    };
    b.stmts.iter().all(|s| u.stmt(s))
}

mod build;
mod uses;

#[cfg(test)]
mod tests;
