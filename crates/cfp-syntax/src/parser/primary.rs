//! Primary expressions (literals, names, `this`/`super`, parentheses, lambdas), member
//! access and the other postfix forms, method references, and object and array creation.

use super::exprs::*;
use super::types::primitive;
use super::{Parser, ERROR_NAME};
use crate::ast::{
    Closure, ClosureCode, ClosureKind, Expr, ExprKind, Ident, IncDecOp, MethodRefTarget, TypeKind,
    TypeRef,
};
use crate::lexer::{Keyword, TokenKind};
use crate::span::Span;

impl<'a> Parser<'a> {
    /// Primary expressions.
    pub(super) fn primary(&mut self) -> Expr {
        match self.kind() {
            TokenKind::LParen => self.paren_expr(),
            TokenKind::Ident => self.ident_expr(),
            TokenKind::Keyword(Keyword::New) => self.new_expr(),
            TokenKind::Keyword(Keyword::This | Keyword::Super) => self.this_or_super(),
            _ => self.other_primary(),
        }
    }

    /// `( e )` (or a lambda).
    pub(super) fn paren_expr(&mut self) -> Expr {
        if self.at_paren_lambda() {
            return self.lambda();
        }
        let t = self.bump();
        let inner = self.expr();
        self.expect_close_paren();
        // Keep the inner node; widen its span over the parentheses.
        Expr {
            kind: inner.kind,
            span: self.span_from(t.span),
        }
    }

    /// `x`, `m(args)` (or a lambda `x -> …`, or a method reference on a type that is no
    /// expression: `List<T>::m`, `String[]::new`).
    pub(super) fn ident_expr(&mut self) -> Expr {
        let t = self.peek();
        if self.nth_kind(1) == TokenKind::Arrow && !self.in_case_label {
            return self.lambda();
        }
        if matches!(
            self.nth_kind(1),
            TokenKind::Lt | TokenKind::LBracket | TokenKind::Dot
        ) && self.at_type_method_ref()
        {
            return self.type_method_ref();
        }
        self.bump();
        let name = Ident {
            name: self.tok_text(t).to_string(),
            span: t.span,
        };
        if self.at(TokenKind::LParen) {
            let args = self.args();
            return mk(
                ExprKind::Call {
                    target: None,
                    name,
                    args,
                },
                self.span_from(t.span),
            );
        }
        mk(ExprKind::Name(name), t.span)
    }

    /// `this`, `super`, `this(args)`, `super(args)`.
    pub(super) fn this_or_super(&mut self) -> Expr {
        let t = self.bump();
        let is_this = t.kind == TokenKind::Keyword(Keyword::This);
        if self.at(TokenKind::LParen) {
            let name = Ident {
                name: self.tok_text(t).to_string(),
                span: t.span,
            };
            let args = self.args();
            return mk(
                ExprKind::Call {
                    target: None,
                    name,
                    args,
                },
                self.span_from(t.span),
            );
        }
        if is_this {
            mk(ExprKind::This, t.span)
        } else {
            if !matches!(self.kind(), TokenKind::Dot | TokenKind::ColonColon) {
                self.error_expected("`.` or `(` after `super`");
            }
            mk(ExprKind::Super, t.span)
        }
    }

    /// Literals, `*`, and the unsupported or erroneous primaries.
    pub(super) fn other_primary(&mut self) -> Expr {
        let t = self.peek();
        match t.kind {
            TokenKind::Int { .. } => self.int_literal(),
            TokenKind::Float => {
                self.bump();
                mk(ExprKind::Float(self.tok_text(t).to_string()), t.span)
            }
            TokenKind::Str(i) => {
                self.bump();
                let s = self.strings.get(i as usize).cloned().unwrap_or_default();
                mk(ExprKind::String(s), t.span)
            }
            TokenKind::Char(c) => {
                self.bump();
                mk(ExprKind::Char(c), t.span)
            }
            TokenKind::Keyword(Keyword::True) => {
                self.bump();
                mk(ExprKind::Bool(true), t.span)
            }
            TokenKind::Keyword(Keyword::False) => {
                self.bump();
                mk(ExprKind::Bool(false), t.span)
            }
            TokenKind::Keyword(Keyword::Null) => {
                self.bump();
                mk(ExprKind::Null, t.span)
            }
            TokenKind::Star => {
                self.bump();
                mk(ExprKind::Nondet, t.span)
            }
            TokenKind::Keyword(Keyword::Switch) => {
                let kind = self.switch_expr();
                mk(kind, self.span_from(t.span))
            }
            TokenKind::Keyword(k) if primitive(k).is_some() && self.at_type_method_ref() => {
                // `int[]::new`
                self.type_method_ref()
            }
            TokenKind::Keyword(k) if primitive(k).is_some() || k == Keyword::Void => {
                // `int.class`, `int[].class`
                self.bump();
                while self.at(TokenKind::LBracket) && self.nth_kind(1) == TokenKind::RBracket {
                    self.bump();
                    self.bump();
                }
                if self.at(TokenKind::Dot) && self.nth_kind(1) == TokenKind::Keyword(Keyword::Class)
                {
                    let name = self.tok_text(t).to_owned();
                    self.bump();
                    self.bump();
                    return mk(ExprKind::ClassLiteral(name), self.span_from(t.span));
                } else {
                    let msg = format!("expected an expression, found {}", self.describe(t));
                    self.error_always("expected-expression", t.span, msg);
                }
                mk(ExprKind::Error, self.span_from(t.span))
            }
            _ => {
                let msg = format!("expected an expression, found {}", self.describe(t));
                self.error("expected-expression", t.span, msg);
                mk(
                    ExprKind::Error,
                    Span::new(t.span.start as usize, t.span.start as usize),
                )
            }
        }
    }

    /// Postfix operators: `.f`, `.m(…)`, `[i]`, `++`, `--` (and unsupported `::`).
    pub(super) fn postfix(&mut self, mut e: Expr) -> Expr {
        let mut levels = 0;
        loop {
            if !matches!(
                self.kind(),
                TokenKind::Dot
                    | TokenKind::LBracket
                    | TokenKind::PlusPlus
                    | TokenKind::MinusMinus
                    | TokenKind::ColonColon
            ) || !self.enter_chain()
            {
                break;
            }
            levels += 1;
            e = match self.kind() {
                TokenKind::Dot => self.member_access(e),
                // `String[].class`, `a.B[][].class`
                TokenKind::LBracket
                    if self.nth_kind(1) == TokenKind::RBracket && qualified_name(&e).is_some() =>
                {
                    self.array_class_literal(e)
                }
                TokenKind::LBracket => self.index(e),
                TokenKind::PlusPlus | TokenKind::MinusMinus => self.post_inc_dec(e),
                _ => self.method_ref(e),
            }
        }
        self.leave_chain(levels);
        e
    }

    /// `e.f`, `e.m(args)`, `e.<T>m(args)` at the current `.`.
    pub(super) fn member_access(&mut self, e: Expr) -> Expr {
        self.bump();
        if self.at(TokenKind::Lt) {
            self.parse_type_args(); // explicit generic method arguments
        }
        let t = self.peek();
        match t.kind {
            TokenKind::Ident => {
                self.bump();
                let name = Ident {
                    name: self.tok_text(t).to_string(),
                    span: t.span,
                };
                if self.at(TokenKind::LParen) {
                    let args = self.args();
                    let span = self.span_from(e.span);
                    mk(
                        ExprKind::Call {
                            target: Some(Box::new(e)),
                            name,
                            args,
                        },
                        span,
                    )
                } else {
                    let span = e.span.to(t.span);
                    mk(
                        ExprKind::Field {
                            target: Box::new(e),
                            name,
                        },
                        span,
                    )
                }
            }
            TokenKind::Keyword(Keyword::This) if qualified_name(&e).is_some() => self.outer_this(e),
            TokenKind::Keyword(Keyword::Super) if qualified_name(&e).is_some() => {
                self.bump();
                let name = qualified_name(&e).unwrap_or_default();
                let simple = name.rsplit('.').next().unwrap_or_default().to_owned();
                let span = self.span_from(e.span);
                mk(ExprKind::QualifiedSuper(simple), span)
            }
            TokenKind::Keyword(Keyword::Class) if qualified_name(&e).is_some() => {
                self.bump();
                let name = qualified_name(&e).unwrap_or_default();
                let span = self.span_from(e.span);
                mk(ExprKind::ClassLiteral(name), span)
            }
            TokenKind::Keyword(
                kw @ (Keyword::Class | Keyword::This | Keyword::New | Keyword::Super),
            ) => {
                let what = match kw {
                    Keyword::Class => "class literals are",
                    Keyword::This => "qualified `this` is",
                    Keyword::Super => "qualified `super` is",
                    _ => "qualified `new` (inner class creation) is",
                };
                if kw == Keyword::New {
                    self.new_expr();
                } else {
                    self.bump();
                }
                let span = self.span_from(e.span);
                self.error_always(super::UNSUPPORTED, span, format!("{what} not supported"));
                mk(ExprKind::Error, span)
            }
            _ => {
                let msg = format!(
                    "expected an identifier after `.`, found {}",
                    self.describe(t)
                );
                self.error("expected-identifier", t.span, msg);
                let span = self.span_from(e.span);
                mk(
                    ExprKind::Field {
                        target: Box::new(e),
                        name: Ident {
                            name: ERROR_NAME.to_string(),
                            span: t.span.end_point(),
                        },
                    },
                    span,
                )
            }
        }
    }

    /// `e[i]` at the current `[`.
    pub(super) fn index(&mut self, e: Expr) -> Expr {
        self.bump();
        let index = self.expr();
        if !self.eat(TokenKind::RBracket) {
            self.error_expected("`]`");
            self.skip_to_close(TokenKind::LBracket, TokenKind::RBracket);
        }
        let span = self.span_from(e.span);
        mk(
            ExprKind::Index {
                array: Box::new(e),
                index: Box::new(index),
            },
            span,
        )
    }

    /// `e++` / `e--`.
    pub(super) fn post_inc_dec(&mut self, e: Expr) -> Expr {
        let t = self.bump();
        if !is_assignable(&e) {
            self.error_always(
                "invalid-assignment-target",
                e.span,
                "invalid operand of increment/decrement",
            );
        }
        let op = if t.kind == TokenKind::PlusPlus {
            IncDecOp::PostInc
        } else {
            IncDecOp::PostDec
        };
        let span = e.span.to(t.span);
        mk(
            ExprKind::IncDec {
                op,
                target: Box::new(e),
            },
            span,
        )
    }

    /// `e::m`, `T::new` at `::`: an object whose method calls `m` (or `T`'s
    /// constructor).
    #[inline(never)] // keeps the frames of the recursive expression parsers small
    pub(super) fn method_ref(&mut self, e: Expr) -> Expr {
        let start = e.span;
        // The class whose constructor `::new` calls.
        let class = match &e.kind {
            ExprKind::Name(n) => Some(n.name.clone()),
            ExprKind::Field { name, .. } => Some(name.name.clone()),
            _ => None,
        };
        let target = if matches!(e.kind, ExprKind::Super) {
            MethodRefTarget::Super
        } else {
            MethodRefTarget::Expr(Box::new(e))
        };
        self.method_ref_rest(start, target, class)
    }

    /// At a type followed by `::` (`List<String>::size`, `int[]::new`): is it one that is
    /// no expression (with type arguments, array dimensions, or primitive)?
    /// Speculative.
    pub(super) fn at_type_method_ref(&self) -> bool {
        let Some(j) = self.scan_type(self.pos) else {
            return false;
        };
        if self.tok(j).kind != TokenKind::ColonColon {
            return false;
        }
        matches!(self.kind(), TokenKind::Keyword(_))
            || (self.pos..j)
                .any(|i| matches!(self.tok(i).kind, TokenKind::Lt | TokenKind::LBracket))
    }

    /// `T::m` / `T::new` where `T` is syntactically a type ([`Parser::at_type_method_ref`]).
    #[inline(never)]
    fn type_method_ref(&mut self) -> Expr {
        let ty = self.parse_type();
        let class = match &ty.kind {
            TypeKind::Named { name, .. } => Some(name.clone()),
            _ => None,
        };
        self.method_ref_rest(ty.span, MethodRefTarget::Type(ty), class)
    }

    /// The rest of a method reference at `::`; `class` is the class a `::new` creates.
    fn method_ref_rest(
        &mut self,
        start: Span,
        target: MethodRefTarget,
        class: Option<String>,
    ) -> Expr {
        self.bump(); // `::`
        if self.at(TokenKind::Lt) {
            self.parse_type_args(); // explicit generic method arguments
        }
        let mut calls = Vec::new();
        let t = self.peek();
        let name = match t.kind {
            TokenKind::Ident => {
                let name = self.expect_ident();
                calls.push(name.clone());
                name
            }
            TokenKind::Keyword(Keyword::New) => {
                self.bump();
                if let Some(name) = class {
                    calls.push(Ident { name, span: t.span });
                }
                Ident {
                    name: "new".to_owned(),
                    span: t.span,
                }
            }
            _ => {
                self.error_expected("a method name or `new` after `::`");
                Ident {
                    name: ERROR_NAME.to_string(),
                    span: self.prev_span().end_point(),
                }
            }
        };
        let span = self.span_from(start);
        let closure = Closure {
            kind: ClosureKind::MethodRef,
            ty: None,
            args: Vec::new(),
            calls,
            writes: Vec::new(),
            code: {
                self.closures += 1;
                ClosureCode::MethodRef { target, name }
            },
        };
        mk(ExprKind::Closure(Box::new(closure)), span)
    }

    /// `Outer.this` at `this` (after the `.`).
    #[inline(never)]
    /// `T[]….class` at the first `[` after the name `T`.
    fn array_class_literal(&mut self, e: Expr) -> Expr {
        let mut name = qualified_name(&e).unwrap_or_default();
        while self.at(TokenKind::LBracket) && self.nth_kind(1) == TokenKind::RBracket {
            self.bump();
            self.bump();
            name.push_str("[]");
        }
        if self.at(TokenKind::Dot) && self.nth_kind(1) == TokenKind::Keyword(Keyword::Class) {
            self.bump();
            self.bump();
        } else {
            let t = self.peek();
            let msg = format!(
                "expected `.class` after `{name}`, found {}",
                self.describe(t)
            );
            self.error("expected-class-literal", t.span, msg);
        }
        let span = self.span_from(e.span);
        mk(ExprKind::ClassLiteral(name), span)
    }

    fn outer_this(&mut self, e: Expr) -> Expr {
        self.bump();
        let name = qualified_name(&e).unwrap_or_default();
        let simple = name.rsplit('.').next().unwrap_or_default().to_owned();
        let span = self.span_from(e.span);
        mk(ExprKind::OuterThis(simple), span)
    }

    /// The body `{ … }` of `new T(args) { … }` at its `{`.
    #[inline(never)]
    fn anonymous_class(&mut self, start: Span, ty: TypeRef, args: Vec<Expr>) -> Expr {
        let (members, calls, writes) = self.anonymous_body();
        let closure = Closure {
            kind: ClosureKind::Anonymous,
            ty: Some(ty),
            args,
            calls,
            writes,
            code: {
                self.closures += 1;
                ClosureCode::Anonymous { members }
            },
        };
        mk(ExprKind::Closure(Box::new(closure)), self.span_from(start))
    }

    /// `( [e {, e}] )` at the current `(`.
    pub(super) fn args(&mut self) -> Vec<Expr> {
        let mut args = Vec::new();
        if !self.expect(TokenKind::LParen) {
            return args;
        }
        if self.eat(TokenKind::RParen) {
            return args;
        }
        loop {
            args.push(self.expr());
            if self.eat(TokenKind::Comma) {
                continue;
            }
            if self.eat(TokenKind::RParen) {
                break;
            }
            self.error_expected("`,` or `)`");
            self.skip_to_close(TokenKind::LParen, TokenKind::RParen);
            break;
        }
        args
    }

    /// `new C(args)`, `new T[n][]`, `new T[] {…}` at the current `new`.
    pub(super) fn new_expr(&mut self) -> Expr {
        let start = self.bump().span;
        if self.at(TokenKind::Lt) {
            self.parse_type_args();
        }
        let ty = self.parse_type_no_dims();
        if self.at(TokenKind::LBracket) {
            return self.new_array(start, ty);
        }
        let args = if self.at(TokenKind::LParen) {
            self.args()
        } else {
            self.error_expected("`(` or `[`");
            Vec::new()
        };
        if self.at(TokenKind::LBrace) {
            return self.anonymous_class(start, ty, args);
        }
        mk(ExprKind::New { class: ty, args }, self.span_from(start))
    }

    /// The rest of `new T[n][]…` / `new T[] {…}` at the first `[`.
    pub(super) fn new_array(&mut self, start: Span, ty: crate::ast::TypeRef) -> Expr {
        let mut dims = Vec::new();
        let mut rank = 0u32;
        let mut saw_empty = false;
        while self.at(TokenKind::LBracket) {
            if self.nth_kind(1) == TokenKind::RBracket {
                self.bump();
                self.bump();
                saw_empty = true;
            } else {
                if saw_empty {
                    let t = self.peek();
                    self.error(
                        "expected-token",
                        t.span,
                        "array dimension sizes must come before empty `[]`",
                    );
                }
                self.bump();
                dims.push(self.expr());
                if !self.eat(TokenKind::RBracket) {
                    self.error_expected("`]`");
                    self.skip_to_close(TokenKind::LBracket, TokenKind::RBracket);
                }
            }
            rank = rank.saturating_add(1);
        }
        let init = if self.at(TokenKind::LBrace) {
            let lit = self.array_init();
            if !dims.is_empty() {
                self.error_always(
                    "expected-token",
                    lit.span,
                    "an array initialiser cannot be combined with dimension sizes",
                );
            }
            match lit.kind {
                ExprKind::ArrayLiteral(items) => Some(items),
                _ => Some(Vec::new()),
            }
        } else {
            if dims.is_empty() {
                self.error_expected("an array dimension or initialiser `{`");
            }
            None
        };
        mk(
            ExprKind::NewArray {
                elem: ty,
                dims,
                rank,
                init,
            },
            self.span_from(start),
        )
    }

    /// `{a, b, {c}, }` at the current `{` (an [`ExprKind::ArrayLiteral`]).
    pub(super) fn array_init(&mut self) -> Expr {
        let start = self.bump().span;
        let mut items = Vec::new();
        if !self.enter() {
            return mk(ExprKind::Error, self.span_from(start));
        }
        loop {
            if self.eat(TokenKind::RBrace) {
                break;
            }
            if self.at(TokenKind::LBrace) {
                items.push(self.array_init());
            } else {
                items.push(self.expr());
            }
            if self.eat(TokenKind::Comma) {
                continue;
            }
            if self.eat(TokenKind::RBrace) {
                break;
            }
            self.error_expected("`,` or `}`");
            self.skip_to_close(TokenKind::LBrace, TokenKind::RBrace);
            break;
        }
        self.leave();
        mk(ExprKind::ArrayLiteral(items), self.span_from(start))
    }

    /// A variable initialiser: an array literal or an expression.
    pub(super) fn var_init(&mut self) -> Expr {
        if self.at(TokenKind::LBrace) {
            self.array_init()
        } else {
            self.expr()
        }
    }
}

/// The dotted name `a.b.C` that `e` spells (a name or a chain of field accesses on one),
/// if it is one: the type of a class literal `a.b.C.class`.
fn qualified_name(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Name(n) => Some(n.name.clone()),
        ExprKind::Field { target, name } => {
            qualified_name(target).map(|t| format!("{t}.{}", name.name))
        }
        _ => None,
    }
}
