//! The inline half of the dump: expressions, closures, switch expressions and literals.

use super::Dumper;
use crate::ast::*;
use std::fmt::Write as _;

impl Dumper<'_> {
    /// `(instanceof e T)`, `(instanceof e T t)` (out of line: see [`Dumper::closure`]).
    #[inline(never)]
    pub(super) fn instance_of(
        &mut self,
        operand: &Expr,
        ty: &TypeRef,
        binding: Option<&crate::ast::Ident>,
    ) {
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
    pub(super) fn leaf(&mut self, args: std::fmt::Arguments<'_>) {
        let _ = self.out.write_fmt(args);
    }

    /// A string literal, escaped as Rust's `{:?}`.
    #[inline(never)]
    pub(super) fn string(&mut self, s: &str) {
        let _ = write!(self.out, "{s:?}");
    }

    /// A character literal (`'a'`, or `'\u{…}'`).
    #[inline(never)]
    pub(super) fn char(&mut self, c: u32) {
        let _ = match char::from_u32(c) {
            Some(ch) if !ch.is_control() && ch != '\'' && ch != '\\' => write!(self.out, "'{ch}'"),
            _ => write!(self.out, "'\\u{{{c:x}}}'"),
        };
    }

    /// `(outer-this C)`.
    #[inline(never)]
    pub(super) fn outer_this(&mut self, class: &str) {
        self.out.push_str("(outer-this ");
        self.out.push_str(class);
        self.out.push(')');
    }

    /// The cases of a switch, one per line below `indent`.
    pub(super) fn cases(&mut self, cases: &[SwitchCase], indent: usize) {
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
    pub(super) fn switch_expr(&mut self, sw: &SwitchExpr) {
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
    pub(super) fn closure(&mut self, c: &crate::ast::Closure) {
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

    pub(super) fn exprs(&mut self, es: &[Expr]) {
        for e in es {
            self.out.push(' ');
            self.expr(e);
        }
    }

    pub(super) fn expr(&mut self, e: &Expr) {
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
