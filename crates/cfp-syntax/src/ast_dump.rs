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

    /// `(instanceof e T)`, `(instanceof e T t)` (out of line: see [`Dumper::closure`]).
    #[inline(never)]
    fn instance_of(&mut self, operand: &Expr, ty: &TypeRef, binding: Option<&crate::ast::Ident>) {
        self.out.push_str("(instanceof ");
        self.expr(operand);
        self.out.push(' ');
        self.ty(ty);
        if let Some(b) = binding {
            self.out.push(' ');
            self.out.push_str(&b.name);
        }
        self.out.push(')');
    }

    /// A leaf written with `format_args!` (out of line: the formatting machinery's
    /// temporaries stay out of [`Dumper::expr`]'s frame).
    #[inline(never)]
    fn leaf(&mut self, args: std::fmt::Arguments<'_>) {
        let _ = self.out.write_fmt(args);
    }

    /// A string literal, escaped as Rust's `{:?}`.
    #[inline(never)]
    fn string(&mut self, s: &str) {
        let _ = write!(self.out, "{s:?}");
    }

    /// A character literal (`'a'`, or `'\u{…}'`).
    #[inline(never)]
    fn char(&mut self, c: u32) {
        let _ = match char::from_u32(c) {
            Some(ch) if !ch.is_control() && ch != '\'' && ch != '\\' => write!(self.out, "'{ch}'"),
            _ => write!(self.out, "'\\u{{{c:x}}}'"),
        };
    }

    /// `(outer-this C)`.
    #[inline(never)]
    fn outer_this(&mut self, class: &str) {
        self.out.push_str("(outer-this ");
        self.out.push_str(class);
        self.out.push(')');
    }

    /// The cases of a switch, one per line below `indent`.
    fn cases(&mut self, cases: &[SwitchCase], indent: usize) {
        for c in cases {
            self.newline(indent + 1);
            self.out.push_str("(case");
            self.at(c.span);
            for l in &c.labels {
                self.out.push(' ');
                self.expr(l);
            }
            if c.is_default {
                self.out.push_str(" default");
            }
            if c.is_arrow() {
                self.out.push_str(" ->");
            }
            for st in &c.body {
                self.child(st, indent + 1);
            }
            self.out.push(')');
        }
    }

    /// `(switch-expr E CASES…)`, its cases on the next lines (out of line, as closures).
    #[inline(never)]
    fn switch_expr(&mut self, sw: &SwitchExpr) {
        self.out.push_str("(switch-expr ");
        self.expr(&sw.scrutinee);
        let indent = self.indent;
        self.cases(&sw.cases, indent);
        self.out.push(')');
    }

    /// `(lambda (x) calls: a b writes: x -> BODY)`, `(method-ref E m calls: m)`,
    /// `(anonymous T args… calls: … MEMBERS)` (out of line, as the other rare forms:
    /// every arm's temporaries grow the frame of the recursive [`Dumper::expr`], and a
    /// 1,500-deep expression is dumped on a 2 MiB stack).
    #[inline(never)]
    fn closure(&mut self, c: &crate::ast::Closure) {
        self.out.push_str(match c.kind {
            crate::ast::ClosureKind::Lambda => "(lambda",
            crate::ast::ClosureKind::MethodRef => "(method-ref",
            crate::ast::ClosureKind::Anonymous => "(anonymous",
        });
        if let Some(t) = &c.ty {
            self.out.push(' ');
            self.ty(t);
        }
        self.exprs(&c.args);
        match &c.code {
            ClosureCode::Lambda { params, .. } => {
                self.out.push_str(" (");
                for (i, p) in params.iter().enumerate() {
                    if i > 0 {
                        self.out.push(' ');
                    }
                    match &p.ty {
                        Some(t) => {
                            self.out.push('(');
                            self.param_type(t, p.is_varargs);
                            self.out.push(' ');
                            self.out.push_str(&p.name.name);
                            self.out.push(')');
                        }
                        None => self.out.push_str(&p.name.name),
                    }
                }
                self.out.push(')');
            }
            ClosureCode::MethodRef { target, name } => {
                self.out.push(' ');
                match target {
                    MethodRefTarget::Expr(e) => self.expr(e),
                    MethodRefTarget::Type(t) => {
                        self.out.push_str("(type ");
                        self.ty(t);
                        self.out.push(')');
                    }
                    MethodRefTarget::Super => self.out.push_str("super"),
                }
                self.out.push(' ');
                self.out.push_str(&name.name);
            }
            ClosureCode::Anonymous { .. } => {}
        }
        for (label, names) in [(" calls:", &c.calls), (" writes:", &c.writes)] {
            if !names.is_empty() {
                self.out.push_str(label);
                for n in names {
                    self.out.push(' ');
                    self.out.push_str(&n.name);
                }
            }
        }
        let indent = self.indent;
        match &c.code {
            ClosureCode::Lambda { body, .. } => match body {
                LambdaBody::Expr(e) => {
                    self.out.push_str(" -> ");
                    self.expr(e);
                }
                LambdaBody::Block(b) => {
                    self.out.push_str(" ->");
                    self.newline(indent + 1);
                    self.block(b, indent + 1);
                }
            },
            ClosureCode::Anonymous { members } => {
                for m in members {
                    self.newline(indent + 1);
                    self.member(m, indent + 1);
                }
            }
            ClosureCode::MethodRef { .. } => {}
        }
        self.out.push(')');
    }

    fn exprs(&mut self, es: &[Expr]) {
        for e in es {
            self.out.push(' ');
            self.expr(e);
        }
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Int { value, is_long } => {
                self.leaf(format_args!("{value}{}", if *is_long { "L" } else { "" }))
            }
            ExprKind::Float(f) => self.out.push_str(f),
            ExprKind::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            ExprKind::Null => self.out.push_str("null"),
            ExprKind::String(s) => self.string(s),
            ExprKind::Char(c) => self.char(*c),
            ExprKind::Nondet => self.out.push('*'),
            ExprKind::Closure(c) => self.closure(c),
            ExprKind::ClassLiteral(t) => {
                // (No `write!`: its temporaries would grow this recursive frame, and a
                // 1,500-deep expression is dumped on a 2 MiB stack.)
                self.out.push_str("(class-literal ");
                self.out.push_str(t);
                self.out.push(')');
            }
            ExprKind::Name(n) => {
                self.out.push_str("(name ");
                self.out.push_str(&n.name);
                self.out.push(')');
            }
            ExprKind::This => self.out.push_str("this"),
            ExprKind::OuterThis(c) => self.outer_this(c),
            ExprKind::Super => self.out.push_str("super"),
            ExprKind::QualifiedSuper(c) => {
                self.out.push_str("(qualified-super ");
                self.out.push_str(c);
                self.out.push(')');
            }
            ExprKind::Field { target, name } => {
                self.out.push_str("(field ");
                self.expr(target);
                self.out.push(' ');
                self.out.push_str(&name.name);
                self.out.push(')');
            }
            ExprKind::Call { target, name, args } => {
                self.out.push_str("(call ");
                match target {
                    Some(t) => self.expr(t),
                    None => self.out.push('_'),
                }
                self.out.push(' ');
                self.out.push_str(&name.name);
                self.exprs(args);
                self.out.push(')');
            }
            ExprKind::New { class, args } => {
                self.out.push_str("(new ");
                self.ty(class);
                self.exprs(args);
                self.out.push(')');
            }
            ExprKind::NewArray {
                elem,
                dims,
                rank,
                init,
            } => {
                self.out.push_str("(new-array ");
                self.ty(elem);
                for _ in 0..*rank {
                    self.out.push_str("[]");
                }
                if !dims.is_empty() {
                    self.out.push_str(" (dims");
                    self.exprs(dims);
                    self.out.push(')');
                }
                if let Some(init) = init {
                    self.out.push_str(" (init");
                    self.exprs(init);
                    self.out.push(')');
                }
                self.out.push(')');
            }
            ExprKind::ArrayLiteral(items) => {
                self.out.push_str("(array");
                self.exprs(items);
                self.out.push(')');
            }
            ExprKind::Index { array, index } => {
                self.out.push_str("(index ");
                self.expr(array);
                self.out.push(' ');
                self.expr(index);
                self.out.push(')');
            }
            ExprKind::Unary { op, operand } => {
                self.out.push('(');
                self.out.push_str(op.as_str());
                self.out.push(' ');
                self.expr(operand);
                self.out.push(')');
            }
            ExprKind::IncDec { op, target } => {
                let head = match op {
                    IncDecOp::PreInc => "pre++",
                    IncDecOp::PreDec => "pre--",
                    IncDecOp::PostInc => "post++",
                    IncDecOp::PostDec => "post--",
                };
                self.out.push('(');
                self.out.push_str(head);
                self.out.push(' ');
                self.expr(target);
                self.out.push(')');
            }
            ExprKind::Binary { op, lhs, rhs } => {
                self.out.push('(');
                self.out.push_str(op.as_str());
                self.out.push(' ');
                self.expr(lhs);
                self.out.push(' ');
                self.expr(rhs);
                self.out.push(')');
            }
            ExprKind::Assign { op, target, value } => {
                self.out.push('(');
                self.out.push_str(op.map_or("", |o| o.as_str()));
                self.out.push_str("= ");
                self.expr(target);
                self.out.push(' ');
                self.expr(value);
                self.out.push(')');
            }
            ExprKind::Conditional {
                cond,
                then_expr,
                else_expr,
            } => {
                self.out.push_str("(? ");
                self.expr(cond);
                self.out.push(' ');
                self.expr(then_expr);
                self.out.push(' ');
                self.expr(else_expr);
                self.out.push(')');
            }
            ExprKind::Cast { ty, operand } => {
                self.out.push_str("(cast ");
                self.ty(ty);
                self.out.push(' ');
                self.expr(operand);
                self.out.push(')');
            }
            ExprKind::InstanceOf {
                operand,
                ty,
                binding,
            } => self.instance_of(operand, ty, binding.as_deref()),
            ExprKind::Switch(sw) => self.switch_expr(sw),
            ExprKind::Error => self.out.push_str("<error>"),
        }
    }
}
