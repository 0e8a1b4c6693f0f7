//! Expressions, by Java precedence: assignment (right-associative), `?:`, binary
//! operators by precedence climbing (`||` … `*`, with `instanceof` at the relational
//! level), prefix operators and casts, postfix operators, primaries.

use super::types::primitive;
use super::{Parser, ERROR_NAME};
use crate::ast::{BinaryOp, Expr, ExprKind, Ident, IncDecOp, UnaryOp};
use crate::lexer::{Keyword, TokenKind};
use crate::span::Span;

/// Binary operator of a token with its precedence (higher binds tighter).
fn binary_op(k: TokenKind) -> Option<(BinaryOp, u8)> {
    use BinaryOp::*;
    Some(match k {
        TokenKind::OrOr => (Or, 1),
        TokenKind::AndAnd => (And, 2),
        TokenKind::Pipe => (BitOr, 3),
        TokenKind::Caret => (BitXor, 4),
        TokenKind::Amp => (BitAnd, 5),
        TokenKind::EqEq => (Eq, 6),
        TokenKind::Ne => (Ne, 6),
        TokenKind::Lt => (Lt, 7),
        TokenKind::Gt => (Gt, 7),
        TokenKind::Le => (Le, 7),
        TokenKind::Ge => (Ge, 7),
        TokenKind::Shl => (Shl, 8),
        TokenKind::Shr => (Shr, 8),
        TokenKind::UShr => (UShr, 8),
        TokenKind::Plus => (Add, 9),
        TokenKind::Minus => (Sub, 9),
        TokenKind::Star => (Mul, 10),
        TokenKind::Slash => (Div, 10),
        TokenKind::Percent => (Rem, 10),
        _ => return None,
    })
}

/// Precedence of `instanceof` (relational).
const INSTANCEOF_PREC: u8 = 7;

/// `=` (None) or a compound assignment operator.
fn assign_op(k: TokenKind) -> Option<Option<BinaryOp>> {
    use BinaryOp::*;
    Some(match k {
        TokenKind::Assign => None,
        TokenKind::PlusEq => Some(Add),
        TokenKind::MinusEq => Some(Sub),
        TokenKind::StarEq => Some(Mul),
        TokenKind::SlashEq => Some(Div),
        TokenKind::PercentEq => Some(Rem),
        TokenKind::AmpEq => Some(BitAnd),
        TokenKind::PipeEq => Some(BitOr),
        TokenKind::CaretEq => Some(BitXor),
        TokenKind::ShlEq => Some(Shl),
        TokenKind::ShrEq => Some(Shr),
        TokenKind::UShrEq => Some(UShr),
        _ => return None,
    })
}

/// True for expressions that denote a variable (may be assigned or incremented).
fn is_assignable(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Name(_) | ExprKind::Field { .. } | ExprKind::Index { .. } | ExprKind::Error
    )
}

/// True for tokens after `(Name)` that make it a cast rather than a parenthesised
/// expression (Java's rule: a reference cast is followed by a unary expression not
/// starting with `+`/`-`).
fn starts_cast_operand(k: TokenKind) -> bool {
    matches!(
        k,
        TokenKind::Ident
            | TokenKind::Int { .. }
            | TokenKind::Float
            | TokenKind::Str(_)
            | TokenKind::Char(_)
            | TokenKind::LParen
            | TokenKind::Bang
            | TokenKind::Tilde
            | TokenKind::Keyword(
                Keyword::This
                    | Keyword::Super
                    | Keyword::New
                    | Keyword::True
                    | Keyword::False
                    | Keyword::Null
                    | Keyword::Switch
            )
    )
}

pub(super) fn mk(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

fn binary(op: BinaryOp, lhs: Expr, rhs: Expr) -> Expr {
    let span = lhs.span.to(rhs.span);
    mk(
        ExprKind::Binary {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
        span,
    )
}

impl<'a> Parser<'a> {
    /// A full expression (assignment level).
    pub(super) fn expr(&mut self) -> Expr {
        if !self.enter() {
            return self.error_expr_here();
        }
        let lhs = self.conditional();
        let e = if assign_op(self.kind()).is_some() {
            self.finish_assign(lhs)
        } else {
            lhs
        };
        self.leave();
        e
    }

    /// An error expression at the end of the previous token.
    fn error_expr_here(&self) -> Expr {
        mk(ExprKind::Error, self.prev_span().end_point())
    }

    /// `lhs op= value` with the current token an assignment operator.
    fn finish_assign(&mut self, lhs: Expr) -> Expr {
        let op_tok = self.bump();
        let op = assign_op(op_tok.kind).unwrap_or(None);
        if !is_assignable(&lhs) {
            self.error_always(
                "invalid-assignment-target",
                lhs.span,
                "invalid left-hand side of assignment",
            );
        }
        let value = self.expr();
        let span = lhs.span.to(value.span).to(op_tok.span);
        mk(
            ExprKind::Assign {
                op,
                target: Box::new(lhs),
                value: Box::new(value),
            },
            span,
        )
    }

    /// `c ? a : b` (right-associative) or a binary expression.
    fn conditional(&mut self) -> Expr {
        let cond = self.binary(1);
        if self.at(TokenKind::Question) {
            self.finish_conditional(cond)
        } else {
            cond
        }
    }

    fn finish_conditional(&mut self, cond: Expr) -> Expr {
        self.bump();
        let then_expr = self.expr();
        self.expect(TokenKind::Colon);
        let else_expr = if self.enter() {
            let e = self.conditional();
            self.leave();
            e
        } else {
            self.error_expr_here()
        };
        let span = cond.span.to(else_expr.span).to(self.prev_span());
        mk(
            ExprKind::Conditional {
                cond: Box::new(cond),
                then_expr: Box::new(then_expr),
                else_expr: Box::new(else_expr),
            },
            span,
        )
    }

    /// Precedence climbing over binary operators of precedence ≥ `min_prec`.
    fn binary(&mut self, min_prec: u8) -> Expr {
        let mut lhs = self.unary();
        let mut levels = 0;
        loop {
            if self.at_kw(Keyword::Instanceof) && INSTANCEOF_PREC >= min_prec {
                if !self.enter_chain() {
                    break;
                }
                levels += 1;
                lhs = self.finish_instanceof(lhs);
                continue;
            }
            let Some((op, prec)) = binary_op(self.kind()) else {
                break;
            };
            if prec < min_prec || !self.enter_chain() {
                break;
            }
            levels += 1;
            self.bump();
            let rhs = self.binary(prec + 1);
            lhs = binary(op, lhs, rhs);
        }
        self.leave_chain(levels);
        lhs
    }

    fn finish_instanceof(&mut self, lhs: Expr) -> Expr {
        self.bump();
        self.eat_kw(Keyword::Final);
        let ty = self.parse_type();
        if self.at(TokenKind::Ident) {
            let t = self.bump();
            self.error_always(
                "unsupported",
                t.span,
                "pattern matching in `instanceof` is not supported",
            );
        }
        let span = lhs.span.to(ty.span);
        mk(
            ExprKind::InstanceOf {
                operand: Box::new(lhs),
                ty,
            },
            span,
        )
    }

    /// Prefix operators, casts, then postfix expressions.
    fn unary(&mut self) -> Expr {
        match self.kind() {
            TokenKind::Minus | TokenKind::Plus | TokenKind::Bang | TokenKind::Tilde => {
                self.prefix_op()
            }
            TokenKind::PlusPlus | TokenKind::MinusMinus => self.pre_inc_dec(),
            TokenKind::LParen if self.at_cast() => self.cast(),
            _ => {
                let p = self.primary();
                self.postfix(p)
            }
        }
    }

    /// The operand of a prefix operator or cast (one nesting level deeper).
    fn nested_unary(&mut self) -> Expr {
        if self.enter() {
            let e = self.unary();
            self.leave();
            e
        } else {
            self.error_expr_here()
        }
    }

    fn prefix_op(&mut self) -> Expr {
        let t = self.bump();
        let op = match t.kind {
            TokenKind::Minus => UnaryOp::Neg,
            TokenKind::Plus => UnaryOp::Plus,
            TokenKind::Bang => UnaryOp::Not,
            _ => UnaryOp::BitNot,
        };
        // `-2147483648` and `-9223372036854775808L` have no positive form: they become
        // one negative literal.
        if let TokenKind::Int {
            value,
            is_long,
            decimal: true,
        } = self.kind()
        {
            let min = if is_long { 1u64 << 63 } else { 1u64 << 31 };
            if op == UnaryOp::Neg && value == min {
                let lit = self.bump();
                let value = if is_long {
                    i64::MIN
                } else {
                    i64::from(i32::MIN)
                };
                let e = mk(ExprKind::Int { value, is_long }, t.span.to(lit.span));
                return self.postfix(e);
            }
        }
        let operand = self.nested_unary();
        let span = t.span.to(operand.span);
        mk(
            ExprKind::Unary {
                op,
                operand: Box::new(operand),
            },
            span,
        )
    }

    fn pre_inc_dec(&mut self) -> Expr {
        let t = self.bump();
        let target = self.nested_unary();
        if !is_assignable(&target) {
            self.error_always(
                "invalid-assignment-target",
                target.span,
                "invalid operand of increment/decrement",
            );
        }
        let op = if t.kind == TokenKind::PlusPlus {
            IncDecOp::PreInc
        } else {
            IncDecOp::PreDec
        };
        let span = t.span.to(target.span);
        mk(
            ExprKind::IncDec {
                op,
                target: Box::new(target),
            },
            span,
        )
    }

    fn cast(&mut self) -> Expr {
        let t = self.bump();
        let ty = self.parse_type();
        self.expect(TokenKind::RParen);
        let operand = self.nested_unary();
        let span = t.span.to(operand.span).to(self.prev_span());
        mk(
            ExprKind::Cast {
                ty,
                operand: Box::new(operand),
            },
            span,
        )
    }

    /// At `(`: is this a cast `(T) e`?
    fn at_cast(&self) -> bool {
        let i = self.pos + 1;
        let first = self.tok(i).kind;
        let Some(j) = self.scan_type(i) else {
            return false;
        };
        if self.tok(j).kind != TokenKind::RParen {
            return false;
        }
        if let TokenKind::Keyword(k) = first {
            if primitive(k).is_some() {
                return true;
            }
        }
        starts_cast_operand(self.tok(j + 1).kind)
    }

    /// At `(`: does a lambda `(…) ->` start here? (cheap syntactic check)
    fn at_paren_lambda(&self) -> bool {
        let i = self.pos + 1;
        match (self.tok(i).kind, self.tok(i + 1).kind) {
            (TokenKind::RParen, _) => self.tok(i + 1).kind == TokenKind::Arrow,
            (TokenKind::Ident, TokenKind::RParen) => self.tok(i + 2).kind == TokenKind::Arrow,
            (TokenKind::Ident, TokenKind::Comma) => true,
            (TokenKind::Keyword(Keyword::Final), _) => true,
            _ => match self.scan_type(i) {
                Some(j) => {
                    self.tok(j).kind == TokenKind::Ident
                        && matches!(self.tok(j + 1).kind, TokenKind::Comma | TokenKind::RParen)
                }
                None => false,
            },
        }
    }

    /// Parse and drop a lambda (unsupported), reporting it; returns an error expression.
    fn lambda(&mut self) -> Expr {
        let start = self.peek().span;
        if self.at(TokenKind::LParen) {
            self.bump();
            self.skip_to_close(TokenKind::LParen, TokenKind::RParen);
        } else {
            self.bump();
        }
        let head = self.span_from(start);
        self.error_always("unsupported", head, "lambda expressions are not supported");
        if self.expect(TokenKind::Arrow) {
            if self.at(TokenKind::LBrace) {
                self.skip_balanced();
            } else {
                self.expr();
            }
        }
        mk(ExprKind::Error, self.span_from(start))
    }

    /// An integer literal at the current token.
    fn int_literal(&mut self) -> Expr {
        let t = self.bump();
        let TokenKind::Int {
            value,
            is_long,
            decimal,
        } = t.kind
        else {
            return mk(ExprKind::Error, t.span);
        };
        let v = if decimal {
            let limit: u64 = if is_long { 1 << 63 } else { 1 << 31 };
            if value >= limit {
                let ty = if is_long { "long" } else { "int" };
                let text = self.tok_text(t);
                self.error_always(
                    "number-too-large",
                    t.span,
                    format!("integer literal `{text}` is too large for type `{ty}`"),
                );
                0
            } else {
                value as i64
            }
        } else if is_long {
            value as i64
        } else {
            i64::from(value as u32 as i32)
        };
        mk(ExprKind::Int { value: v, is_long }, t.span)
    }

    /// Primary expressions.
    fn primary(&mut self) -> Expr {
        match self.kind() {
            TokenKind::LParen => self.paren_expr(),
            TokenKind::Ident => self.ident_expr(),
            TokenKind::Keyword(Keyword::New) => self.new_expr(),
            TokenKind::Keyword(Keyword::This | Keyword::Super) => self.this_or_super(),
            _ => self.other_primary(),
        }
    }

    /// `( e )` (or a lambda).
    fn paren_expr(&mut self) -> Expr {
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

    /// `x`, `m(args)` (or a lambda `x -> …`).
    fn ident_expr(&mut self) -> Expr {
        let t = self.peek();
        if self.nth_kind(1) == TokenKind::Arrow && !self.in_case_label {
            return self.lambda();
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
    fn this_or_super(&mut self) -> Expr {
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
    fn other_primary(&mut self) -> Expr {
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
                self.bump();
                self.error_always(
                    "unsupported",
                    t.span,
                    "switch expressions are not supported",
                );
                if self.at(TokenKind::LParen) {
                    self.skip_balanced();
                }
                self.skip_braces();
                mk(ExprKind::Error, self.span_from(t.span))
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
                    self.bump();
                    self.bump();
                    self.error_always(
                        "unsupported",
                        self.span_from(t.span),
                        "class literals are not supported",
                    );
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
    fn postfix(&mut self, mut e: Expr) -> Expr {
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
                TokenKind::LBracket => self.index(e),
                TokenKind::PlusPlus | TokenKind::MinusMinus => self.post_inc_dec(e),
                _ => self.method_ref(e),
            }
        }
        self.leave_chain(levels);
        e
    }

    /// `e.f`, `e.m(args)`, `e.<T>m(args)` at the current `.`.
    fn member_access(&mut self, e: Expr) -> Expr {
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
                self.error_always("unsupported", span, format!("{what} not supported"));
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
    fn index(&mut self, e: Expr) -> Expr {
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
    fn post_inc_dec(&mut self, e: Expr) -> Expr {
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

    /// `e::m` (unsupported).
    fn method_ref(&mut self, e: Expr) -> Expr {
        self.bump();
        if matches!(
            self.kind(),
            TokenKind::Ident | TokenKind::Keyword(Keyword::New)
        ) {
            self.bump();
        }
        let span = self.span_from(e.span);
        self.error_always("unsupported", span, "method references are not supported");
        mk(ExprKind::Error, span)
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
    fn new_expr(&mut self) -> Expr {
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
            let body_start = self.peek().span;
            self.skip_balanced();
            let span = self.span_from(body_start);
            self.error_always("unsupported", span, "anonymous classes are not supported");
        }
        mk(ExprKind::New { class: ty, args }, self.span_from(start))
    }

    /// The rest of `new T[n][]…` / `new T[] {…}` at the first `[`.
    fn new_array(&mut self, start: Span, ty: crate::ast::TypeRef) -> Expr {
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
