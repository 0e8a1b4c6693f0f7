//! A compact, deterministic, indented S-expression dump of a program's AST, for golden
//! snapshot tests and debugging.
//!
//! Members and statements are printed one per line with their `@line:col`; expressions
//! are printed inline:
//!
//! ```text
//! (class @1:1 Main
//!   (method @2:3 static void main ((param String[] args))
//!     (block
//!       (local @3:5 Lock l (new Lock))
//!       (expr @4:5 (call (name l) lock)))))
//! ```
//!
//! Forms: `(name x)`, `(field E f)`, `(call E|_ m ARGS…)`, `(new T ARGS…)`,
//! `(new-array T[][] (dims E…) (init E…))`, `(array E…)`, `(index E E)`, `(OP E)` for
//! prefix operators, `(pre++ E)`/`(post-- E)`, `(OP E E)` for binary operators,
//! `(= E E)`/`(+= E E)`, `(? E E E)`, `(cast T E)`, `(instanceof E T)`, `*` for
//! non-determinism, `<error>` for an unparsable expression. A local or field with one
//! declarator prints `NAME [INIT]`; with several, each declarator is `(NAME [INIT])`; a
//! declarator whose type differs from the declaration's (`int a[]`) prints `NAME:TYPE`.
//!
//! Closures print what their code calls and writes (`calls: a b writes: x`) after their
//! head, then their code: `(lambda (x (int y)) calls: f -> BODY)` (an expression inline,
//! a block on the next lines), `(method-ref (name x) m calls: m)` (the target is
//! `(type T)` for a type, `super`, or an expression), `(anonymous T ARGS… calls: …)`
//! with its members on the next lines. A local class prints as a class among the
//! statements; a try-with-resources as `(try @l:c (resources (T r INIT) E…)`; an arrow
//! rule as `(case @l:c LABELS… -> STMT)`; a varargs parameter as `(param T... xs)`; a
//! `throws` clause as `(throws T…)` after the parameters; modifiers as `static`,
//! `abstract`, `final`, `native`, `default`.

use crate::ast::*;
use crate::span::{LineIndex, Span};
use std::fmt::Write as _;

mod exprs;

/// Dump `unit` (parsed from `text`, used for line:column positions) as indented
/// S-expressions; the output ends with a newline.
pub fn dump_program(unit: &CompilationUnit, text: &str) -> String {
    let mut d = Dumper {
        text,
        index: LineIndex::new(text),
        out: String::new(),
        indent: 0,
    };
    for c in &unit.classes {
        d.class(c, 0);
        d.out.push('\n');
    }
    d.out
}

/// Dump one expression inline (no positions are printed for expressions).
pub fn dump_expr(e: &Expr) -> String {
    let mut d = Dumper {
        text: "",
        index: LineIndex::new(""),
        out: String::new(),
        indent: 0,
    };
    d.expr(e);
    d.out
}

/// A type as written in the dump: `int`, `java.util.List<String>`, `int[][]`, `var`.
pub fn type_to_string(ty: &TypeRef) -> String {
    let mut s = String::new();
    write_type(&mut s, ty);
    s
}

fn write_type(s: &mut String, ty: &TypeRef) {
    match &ty.kind {
        TypeKind::Void => s.push_str("void"),
        TypeKind::Int => s.push_str("int"),
        TypeKind::Long => s.push_str("long"),
        TypeKind::Short => s.push_str("short"),
        TypeKind::Byte => s.push_str("byte"),
        TypeKind::Char => s.push_str("char"),
        TypeKind::Boolean => s.push_str("boolean"),
        TypeKind::Float => s.push_str("float"),
        TypeKind::Double => s.push_str("double"),
        TypeKind::Inferred => s.push_str("var"),
        TypeKind::Named {
            name,
            qualifier,
            args,
        } => {
            for q in qualifier {
                s.push_str(q);
                s.push('.');
            }
            s.push_str(name);
            if !args.is_empty() {
                s.push('<');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    write_type(s, a);
                }
                s.push('>');
            }
        }
        TypeKind::Array(inner) => {
            write_type(s, inner);
            s.push_str("[]");
        }
    }
}

struct Dumper<'a> {
    text: &'a str,
    index: LineIndex,
    out: String,
    /// Indentation of the member or statement whose expressions are being printed (for
    /// the blocks and members of closures inside them).
    indent: usize,
}

impl Dumper<'_> {
    fn at(&mut self, span: Span) {
        let lc = self.index.line_col(self.text, span.start as usize);
        let _ = write!(self.out, " @{}:{}", lc.line, lc.column);
    }

    fn newline(&mut self, indent: usize) {
        self.out.push('\n');
        for _ in 0..indent {
            self.out.push_str("  ");
        }
    }

    fn mods(&mut self, m: &Modifiers) {
        if m.is_static {
            self.out.push_str(" static");
        }
        if m.is_abstract {
            self.out.push_str(" abstract");
        }
        if m.is_final {
            self.out.push_str(" final");
        }
        if m.is_native {
            self.out.push_str(" native");
        }
        if m.is_default {
            self.out.push_str(" default");
        }
    }

    fn ty(&mut self, ty: &TypeRef) {
        write_type(&mut self.out, ty);
    }

    fn class(&mut self, c: &ClassDecl, indent: usize) {
        let saved = std::mem::replace(&mut self.indent, indent);
        self.out.push_str(if c.is_interface {
            "(interface"
        } else {
            "(class"
        });
        self.at(c.span);
        self.mods(&c.modifiers);
        let _ = write!(self.out, " {}", c.name.name);
        if let Some(e) = &c.extends {
            self.out.push_str(" (extends ");
            self.ty(e);
            self.out.push(')');
        }
        if !c.implements.is_empty() {
            self.out.push_str(" (implements");
            for t in &c.implements {
                self.out.push(' ');
                self.ty(t);
            }
            self.out.push(')');
        }
        for m in &c.members {
            self.newline(indent + 1);
            self.member(m, indent + 1);
        }
        self.out.push(')');
        self.indent = saved;
    }

    fn member(&mut self, m: &Member, indent: usize) {
        let saved = std::mem::replace(&mut self.indent, indent);
        self.member_inner(m, indent);
        self.indent = saved;
    }

    fn member_inner(&mut self, m: &Member, indent: usize) {
        match m {
            Member::Field(f) => {
                self.out.push_str("(field");
                self.at(f.span);
                self.mods(&f.modifiers);
                self.out.push(' ');
                self.ty(&f.ty);
                self.declarators(&f.ty, &f.declarators);
                self.out.push(')');
            }
            Member::Method(md) => {
                self.out.push_str("(method");
                self.at(md.span);
                self.mods(&md.modifiers);
                self.out.push(' ');
                self.ty(&md.ret);
                let _ = write!(self.out, " {} ", md.name.name);
                self.params(&md.params);
                self.throws(&md.throws);
                match &md.body {
                    Some(b) => {
                        self.newline(indent + 1);
                        self.block(b, indent + 1);
                    }
                    None => self.out.push_str(" no-body"),
                }
                self.out.push(')');
            }
            Member::Constructor(c) => {
                self.out.push_str("(constructor");
                self.at(c.span);
                self.mods(&c.modifiers);
                let _ = write!(self.out, " {} ", c.name.name);
                self.params(&c.params);
                self.throws(&c.throws);
                self.newline(indent + 1);
                self.block(&c.body, indent + 1);
                self.out.push(')');
            }
            Member::Initializer(i) => {
                self.out.push_str("(initializer");
                self.at(i.span);
                if i.is_static {
                    self.out.push_str(" static");
                }
                self.newline(indent + 1);
                self.block(&i.body, indent + 1);
                self.out.push(')');
            }
            Member::Class(c) => self.class(c, indent),
        }
    }

    fn params(&mut self, params: &[Param]) {
        self.out.push('(');
        for (i, p) in params.iter().enumerate() {
            if i > 0 {
                self.out.push(' ');
            }
            self.out.push_str("(param ");
            self.param_type(&p.ty, p.is_varargs);
            let _ = write!(self.out, " {})", p.name.name);
        }
        self.out.push(')');
    }

    /// A parameter's type: `T...` for a varargs parameter (whose type is `T[]`).
    fn param_type(&mut self, ty: &TypeRef, is_varargs: bool) {
        match &ty.kind {
            TypeKind::Array(elem) if is_varargs => {
                self.ty(elem);
                self.out.push_str("...");
            }
            _ => self.ty(ty),
        }
    }

    /// ` (throws T…)` unless empty.
    fn throws(&mut self, types: &[TypeRef]) {
        if types.is_empty() {
            return;
        }
        self.out.push_str(" (throws");
        for t in types {
            self.out.push(' ');
            self.ty(t);
        }
        self.out.push(')');
    }

    fn declarators(&mut self, ty: &TypeRef, ds: &[VarDeclarator]) {
        let wrap = ds.len() != 1;
        for d in ds {
            self.out.push(' ');
            if wrap {
                self.out.push('(');
            }
            self.out.push_str(&d.name.name);
            if d.ty.kind != ty.kind {
                self.out.push(':');
                self.ty(&d.ty);
            }
            if let Some(init) = &d.init {
                self.out.push(' ');
                self.expr(init);
            }
            if wrap {
                self.out.push(')');
            }
        }
    }

    fn block(&mut self, b: &Block, indent: usize) {
        self.out.push_str("(block");
        for s in &b.stmts {
            self.newline(indent + 1);
            self.stmt(s, indent + 1);
        }
        self.out.push(')');
    }

    /// A nested statement on its own line.
    fn child(&mut self, s: &Stmt, indent: usize) {
        self.newline(indent + 1);
        self.stmt(s, indent + 1);
    }

    fn stmt(&mut self, s: &Stmt, indent: usize) {
        let saved = std::mem::replace(&mut self.indent, indent);
        self.stmt_inner(s, indent);
        self.indent = saved;
    }

    fn stmt_inner(&mut self, s: &Stmt, indent: usize) {
        if let StmtKind::LocalClass(c) = &s.kind {
            self.class(c, indent);
            return;
        }
        let head = match &s.kind {
            StmtKind::Block(_) => "block",
            StmtKind::LocalVar { .. } => "local",
            StmtKind::Expr(_) => "expr",
            StmtKind::If { .. } => "if",
            StmtKind::While { .. } => "while",
            StmtKind::DoWhile { .. } => "do-while",
            StmtKind::For { .. } => "for",
            StmtKind::ForEach { .. } => "for-each",
            StmtKind::Break(_) => "break",
            StmtKind::Continue(_) => "continue",
            StmtKind::Return(_) => "return",
            StmtKind::Throw(_) => "throw",
            StmtKind::Synchronized { .. } => "synchronized",
            StmtKind::Assert { .. } => "assert",
            StmtKind::Try { .. } => "try",
            StmtKind::Labeled { .. } => "labeled",
            StmtKind::Switch { .. } => "switch",
            StmtKind::Yield(_) => "yield",
            StmtKind::LocalClass(_) => "class",
            StmtKind::Empty => "empty",
            StmtKind::Error => "error",
        };
        let _ = write!(self.out, "({head}");
        self.at(s.span);
        match &s.kind {
            StmtKind::Block(b) => {
                for st in &b.stmts {
                    self.child(st, indent);
                }
            }
            StmtKind::LocalVar { ty, declarators } => {
                self.out.push(' ');
                self.ty(ty);
                self.declarators(ty, declarators);
            }
            StmtKind::Expr(e) | StmtKind::Throw(e) => {
                self.out.push(' ');
                self.expr(e);
            }
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                self.out.push(' ');
                self.expr(cond);
                self.child(then_branch, indent);
                if let Some(e) = else_branch {
                    self.newline(indent + 1);
                    self.out.push_str("(else ");
                    self.stmt(e, indent + 1);
                    self.out.push(')');
                }
            }
            StmtKind::While { cond, body } => {
                self.out.push(' ');
                self.expr(cond);
                self.child(body, indent);
            }
            StmtKind::DoWhile { body, cond } => {
                self.out.push(' ');
                self.expr(cond);
                self.child(body, indent);
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                self.out.push_str(" (init");
                for i in init {
                    self.out.push(' ');
                    self.stmt(i, indent + 1);
                }
                self.out.push_str(") ");
                match cond {
                    Some(c) => self.expr(c),
                    None => self.out.push('_'),
                }
                self.out.push_str(" (update");
                for u in update {
                    self.out.push(' ');
                    self.expr(u);
                }
                self.out.push(')');
                self.child(body, indent);
            }
            StmtKind::ForEach {
                ty,
                name,
                iterable,
                body,
            } => {
                self.out.push(' ');
                self.ty(ty);
                let _ = write!(self.out, " {} ", name.name);
                self.expr(iterable);
                self.child(body, indent);
            }
            StmtKind::Break(l) | StmtKind::Continue(l) => {
                if let Some(l) = l {
                    let _ = write!(self.out, " {}", l.name);
                }
            }
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    self.out.push(' ');
                    self.expr(e);
                }
            }
            StmtKind::Try {
                resources,
                body,
                catches,
                finally,
            } => {
                self.resources(resources);
                self.newline(indent + 1);
                self.block(body, indent + 1);
                for c in catches {
                    self.newline(indent + 1);
                    self.out.push_str("(catch");
                    self.at(c.span);
                    self.out.push_str(" (");
                    for (i, t) in c.types.iter().enumerate() {
                        if i > 0 {
                            self.out.push_str(" | ");
                        }
                        self.ty(t);
                    }
                    let _ = write!(self.out, ") {}", c.name.name);
                    self.newline(indent + 2);
                    self.block(&c.body, indent + 2);
                    self.out.push(')');
                }
                if let Some(f) = finally {
                    self.newline(indent + 1);
                    self.out.push_str("(finally");
                    self.newline(indent + 2);
                    self.block(f, indent + 2);
                    self.out.push(')');
                }
            }
            StmtKind::Labeled { label, body } => {
                let _ = write!(self.out, " {}", label.name);
                self.child(body, indent);
            }
            StmtKind::Switch { scrutinee, cases } => {
                self.out.push(' ');
                self.expr(scrutinee);
                self.cases(cases, indent);
            }
            StmtKind::Yield(e) => {
                self.out.push(' ');
                self.expr(e);
            }
            StmtKind::Synchronized { lock, body } => {
                self.out.push(' ');
                self.expr(lock);
                for st in &body.stmts {
                    self.child(st, indent);
                }
            }
            StmtKind::Assert { cond, message } => {
                self.out.push(' ');
                self.expr(cond);
                if let Some(m) = message {
                    self.out.push_str(" : ");
                    self.expr(m);
                }
            }
            StmtKind::Empty | StmtKind::Error | StmtKind::LocalClass(_) => {}
        }
        self.out.push(')');
    }

    /// ` (resources (T r INIT) E…)` unless empty.
    fn resources(&mut self, resources: &[Resource]) {
        if resources.is_empty() {
            return;
        }
        self.out.push_str(" (resources");
        for r in resources {
            self.out.push(' ');
            match r {
                Resource::Decl { ty, name, init, .. } => {
                    self.out.push('(');
                    self.ty(ty);
                    self.out.push(' ');
                    self.out.push_str(&name.name);
                    self.out.push(' ');
                    self.expr(init);
                    self.out.push(')');
                }
                Resource::Expr(e) => self.expr(e),
            }
        }
        self.out.push(')');
    }
}
