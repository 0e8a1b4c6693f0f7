//! Expressions, by Java precedence: assignment (right-associative), `?:`, binary
//! operators by precedence climbing (`||` … `*`, with `instanceof` at the relational
//! level), prefix operators and casts (primaries and postfix forms are in `primary`).

use super::types::{array_of, primitive};
use super::Parser;
use crate::ast::{
    BinaryOp, Closure, ClosureCode, ClosureKind, Expr, ExprKind, IncDecOp, LambdaBody, LambdaParam,
    TypeKind, TypeRef, UnaryOp,
};
use crate::lexer::{Keyword, TokenKind};
use crate::span::Span;

/// Binary operator of a token with its precedence (higher binds tighter).
pub(super) fn binary_op(k: TokenKind) -> Option<(BinaryOp, u8)> {
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
pub(super) fn assign_op(k: TokenKind) -> Option<Option<BinaryOp>> {
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
pub(super) fn is_assignable(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Name(_) | ExprKind::Field { .. } | ExprKind::Index { .. } | ExprKind::Error
    )
}

/// True for tokens after `(Name)` that make it a cast rather than a parenthesised
/// expression (Java's rule: a reference cast is followed by a unary expression not
/// starting with `+`/`-`).
pub(super) fn starts_cast_operand(k: TokenKind) -> bool {
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

pub(super) fn binary(op: BinaryOp, lhs: Expr, rhs: Expr) -> Expr {
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
    pub(super) fn error_expr_here(&self) -> Expr {
        mk(ExprKind::Error, self.prev_span().end_point())
    }

    /// `lhs op= value` with the current token an assignment operator.
    pub(super) fn finish_assign(&mut self, lhs: Expr) -> Expr {
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
    pub(super) fn conditional(&mut self) -> Expr {
        let cond = self.binary(1);
        if self.at(TokenKind::Question) {
            self.finish_conditional(cond)
        } else {
            cond
        }
    }

    pub(super) fn finish_conditional(&mut self, cond: Expr) -> Expr {
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
    pub(super) fn binary(&mut self, min_prec: u8) -> Expr {
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

    #[inline(never)]
    pub(super) fn finish_instanceof(&mut self, lhs: Expr) -> Expr {
        self.bump();
        self.eat_kw(Keyword::Final);
        let ty = self.parse_type();
        let binding = if self.at(TokenKind::Ident) {
            let t = self.bump();
            Some(Box::new(crate::ast::Ident {
                name: self.tok_text(t).to_string(),
                span: t.span,
            }))
        } else {
            None
        };
        let span = lhs.span.to(binding.as_ref().map_or(ty.span, |b| b.span));
        mk(
            ExprKind::InstanceOf {
                operand: Box::new(lhs),
                ty,
                binding,
            },
            span,
        )
    }

    /// Prefix operators, casts, then postfix expressions.
    pub(super) fn unary(&mut self) -> Expr {
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
    pub(super) fn nested_unary(&mut self) -> Expr {
        if self.enter() {
            let e = self.unary();
            self.leave();
            e
        } else {
            self.error_expr_here()
        }
    }

    pub(super) fn prefix_op(&mut self) -> Expr {
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

    pub(super) fn pre_inc_dec(&mut self) -> Expr {
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

    pub(super) fn cast(&mut self) -> Expr {
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
    pub(super) fn at_cast(&self) -> bool {
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
    pub(super) fn at_paren_lambda(&self) -> bool {
        let i = self.pos + 1;
        match (self.tok(i).kind, self.tok(i + 1).kind) {
            (TokenKind::RParen, _) => self.tok(i + 1).kind == TokenKind::Arrow,
            (TokenKind::Ident, TokenKind::RParen) => self.tok(i + 2).kind == TokenKind::Arrow,
            (TokenKind::Ident, TokenKind::Comma) => true,
            (TokenKind::Keyword(Keyword::Final), _) => true,
            _ => match self.scan_type(i) {
                Some(mut j) => {
                    // `T... xs`, `T x[]`
                    if self.tok(j).kind == TokenKind::Ellipsis {
                        j += 1;
                    }
                    if self.tok(j).kind != TokenKind::Ident {
                        return false;
                    }
                    j += 1;
                    while self.tok(j).kind == TokenKind::LBracket
                        && self.tok(j + 1).kind == TokenKind::RBracket
                    {
                        j += 2;
                    }
                    matches!(self.tok(j).kind, TokenKind::Comma | TokenKind::RParen)
                }
                None => false,
            },
        }
    }

    /// A lambda `(params) -> body` / `x -> body`; what its body calls and assigns is
    /// scanned from its tokens ([`crate::ast::Closure`]).
    #[inline(never)] // keeps the frames of the recursive expression parsers small
    pub(super) fn lambda(&mut self) -> Expr {
        let start = self.peek().span;
        let params = if self.at(TokenKind::LParen) {
            self.lambda_params()
        } else {
            let name = self.expect_ident();
            vec![LambdaParam {
                ty: None,
                span: name.span,
                name,
                is_varargs: false,
            }]
        };
        let body_from = self.pos;
        let in_case_label = std::mem::replace(&mut self.in_case_label, false);
        let (body, calls, writes) = if !self.expect(TokenKind::Arrow) {
            let (calls, writes) = self.scan_effects(body_from, self.pos);
            let missing = self.error_expr_here();
            (LambdaBody::Expr(Box::new(missing)), calls, writes)
        } else if self.at(TokenKind::LBrace) {
            // Scanned as written, before the block is parsed.
            let end = self.balanced_end(self.pos);
            let (calls, writes) = self.scan_effects(body_from, end);
            self.scanned_depth += 1;
            let block = self.block();
            self.scanned_depth -= 1;
            (LambdaBody::Block(block), calls, writes)
        } else {
            let e = self.expr();
            let (calls, writes) = self.scan_effects(body_from, self.pos);
            (LambdaBody::Expr(Box::new(e)), calls, writes)
        };
        self.in_case_label = in_case_label;
        let closure = Closure {
            kind: ClosureKind::Lambda,
            ty: None,
            args: Vec::new(),
            calls,
            writes,
            code: {
                self.closures += 1;
                ClosureCode::Lambda { params, body }
            },
        };
        mk(ExprKind::Closure(Box::new(closure)), self.span_from(start))
    }

    /// `(x, y)`, `(int x, final String... ys)`, `(var x)`, `()` of a lambda, at `(`.
    #[inline(never)]
    fn lambda_params(&mut self) -> Vec<LambdaParam> {
        let mut params = Vec::new();
        self.bump(); // `(`
        if self.eat(TokenKind::RParen) {
            return params;
        }
        loop {
            let start = self.peek().span;
            self.skip_modifiers_local();
            let implicit = self.at(TokenKind::Ident)
                && matches!(
                    self.nth_kind(1),
                    TokenKind::Comma | TokenKind::RParen | TokenKind::Arrow
                );
            let mut ty = if implicit {
                None
            } else if self.at_contextual("var") && self.nth_kind(1) == TokenKind::Ident {
                let t = self.bump();
                Some(TypeRef {
                    kind: TypeKind::Inferred,
                    span: t.span,
                })
            } else if self.at_type_start() {
                Some(self.parse_type())
            } else {
                let t = self.peek();
                let msg = format!("expected a lambda parameter, found {}", self.describe(t));
                self.error("expected-identifier", t.span, msg);
                None
            };
            let is_varargs = ty.is_some() && self.at(TokenKind::Ellipsis);
            if is_varargs {
                let dots = self.bump();
                ty = ty.map(|t| array_of(t, dots.span));
            }
            let name = self.expect_ident();
            let ty = ty.map(|t| self.name_dims(t));
            params.push(LambdaParam {
                ty,
                name,
                is_varargs,
                span: self.span_from(start),
            });
            if self.eat(TokenKind::Comma) {
                continue;
            }
            if self.eat(TokenKind::RParen) {
                break;
            }
            self.error_expected("`,` or `)`");
            if !self.at(TokenKind::Arrow) {
                self.skip_to_close(TokenKind::LParen, TokenKind::RParen);
            }
            break;
        }
        params
    }

    /// The kind of token `i` as lexed when it lies in a closure body scanned before it
    /// was parsed (a `>>` split there by [`Parser::eat_gt`] is still `>>`), else its
    /// current kind: the effect scan sees what it saw when such bodies were skipped
    /// unparsed.
    fn scan_kind(&self, i: usize) -> TokenKind {
        match self.unsplit.binary_search_by_key(&i, |&(j, _)| j) {
            Ok(k) => self
                .unsplit
                .get(k)
                .map_or(TokenKind::Eof, |&(_, kind)| kind),
            Err(_) => self.tok(i).kind,
        }
    }

    /// The names called and the names assigned by the tokens `from..to` (see
    /// [`crate::ast::Closure`]).
    #[inline(never)]
    pub(super) fn scan_effects(
        &self,
        from: usize,
        to: usize,
    ) -> (Vec<crate::ast::Ident>, Vec<crate::ast::Ident>) {
        let mut calls = Vec::new();
        let mut writes = Vec::new();
        for i in from..to {
            let t = self.tok(i);
            if t.kind != TokenKind::Ident {
                continue;
            }
            let id = || crate::ast::Ident {
                name: self.tok_text(t).to_string(),
                span: t.span,
            };
            let next = self.scan_kind(i + 1);
            let prev = if i > 0 {
                self.scan_kind(i - 1)
            } else {
                TokenKind::Eof
            };
            // `void run(`, `String name(`, `List<T> all(`, `int[] of(`: a declaration.
            let declared = matches!(
                prev,
                TokenKind::Ident | TokenKind::Gt | TokenKind::RBracket | TokenKind::Keyword(_)
            ) && !matches!(
                prev,
                TokenKind::Keyword(
                    Keyword::New | Keyword::Return | Keyword::Throw | Keyword::Case | Keyword::Else
                )
            );
            if next == TokenKind::LParen {
                if !declared {
                    calls.push(id());
                }
            } else if matches!(
                next,
                TokenKind::Assign
                    | TokenKind::PlusEq
                    | TokenKind::MinusEq
                    | TokenKind::StarEq
                    | TokenKind::SlashEq
                    | TokenKind::AmpEq
                    | TokenKind::PipeEq
                    | TokenKind::CaretEq
                    | TokenKind::PercentEq
                    | TokenKind::ShlEq
                    | TokenKind::ShrEq
                    | TokenKind::UShrEq
                    | TokenKind::PlusPlus
                    | TokenKind::MinusMinus
            ) || matches!(prev, TokenKind::PlusPlus | TokenKind::MinusMinus)
            {
                writes.push(id());
            }
        }
        (calls, writes)
    }

    /// An integer literal at the current token.
    pub(super) fn int_literal(&mut self) -> Expr {
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
}
