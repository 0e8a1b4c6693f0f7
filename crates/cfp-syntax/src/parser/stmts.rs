//! Statements and blocks.

use super::exprs::mk;
use super::types::array_of;
use super::Parser;
use crate::ast::{
    Block, CatchClause, ClosureKind, Expr, ExprKind, Resource, Stmt, StmtKind, TypeKind, TypeRef,
    VarDeclarator,
};
use crate::lexer::{Keyword, TokenKind};
use crate::span::Span;

/// Expressions allowed as statements (`x = 1;`, `i++;`, `f();`, `new C();`,
/// `new C() { … };`).
fn is_statement_expr(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Assign { .. }
        | ExprKind::IncDec { .. }
        | ExprKind::Call { .. }
        | ExprKind::New { .. }
        | ExprKind::Error => true,
        ExprKind::Closure(c) => c.kind == ClosureKind::Anonymous,
        _ => false,
    }
}

fn stmt(kind: StmtKind, span: Span) -> Stmt {
    Stmt { kind, span }
}

/// The parenthesised header of a `for` statement.
enum ForHeader {
    Each {
        ty: TypeRef,
        name: crate::ast::Ident,
        iterable: Expr,
    },
    Classic {
        init: Vec<Stmt>,
        cond: Option<Expr>,
        update: Vec<Expr>,
    },
}

/// Build nested `If` statements from an `if … else if … else …` chain.
fn fold_if_chain(mut arms: Vec<(Span, Expr, Stmt)>, else_branch: Option<Stmt>) -> StmtKind {
    let mut acc = else_branch;
    while let Some((start, cond, then)) = arms.pop() {
        let end = acc.as_ref().map_or(then.span, |s| s.span);
        let kind = StmtKind::If {
            cond,
            then_branch: Box::new(then),
            else_branch: acc.take().map(Box::new),
        };
        if arms.is_empty() {
            return kind;
        }
        acc = Some(stmt(kind, start.to(end)));
    }
    StmtKind::Error
}

impl<'a> Parser<'a> {
    /// `{ stmts }` at the current token (reports when it is not `{`).
    pub(super) fn block(&mut self) -> Block {
        let start = self.peek().span;
        if !self.expect(TokenKind::LBrace) {
            return Block {
                stmts: Vec::new(),
                span: start.end_point(),
            };
        }
        let stmts = self.block_stmts();
        Block {
            stmts,
            span: self.span_from(start),
        }
    }

    /// Statements up to and including the closing `}` (after `{` was consumed).
    fn block_stmts(&mut self) -> Vec<Stmt> {
        let mut stmts = Vec::new();
        loop {
            if self.eat(TokenKind::RBrace) {
                break;
            }
            if self.at_eof() {
                self.error_expected("`}`");
                break;
            }
            let before = self.pos;
            stmts.push(self.stmt());
            if self.pos == before && !self.at(TokenKind::RBrace) {
                self.bump();
            }
        }
        stmts
    }

    /// One statement.
    pub(super) fn stmt(&mut self) -> Stmt {
        let start = self.peek().span;
        if !self.enter() {
            return stmt(StmtKind::Error, self.span_from(start));
        }
        let kind = self.stmt_kind();
        self.leave();
        stmt(kind, self.span_from(start))
    }

    fn stmt_kind(&mut self) -> StmtKind {
        let t = self.peek();
        match t.kind {
            TokenKind::LBrace => self.block_stmt(),
            TokenKind::Semi => {
                self.bump();
                StmtKind::Empty
            }
            TokenKind::Keyword(Keyword::If) => self.if_stmt(),
            TokenKind::Keyword(Keyword::While) => self.while_stmt(),
            TokenKind::Keyword(Keyword::Do) => self.do_stmt(),
            TokenKind::Keyword(Keyword::For) => self.for_stmt(),
            TokenKind::Keyword(Keyword::Break | Keyword::Continue) => self.jump_stmt(),
            TokenKind::Keyword(Keyword::Return) => self.return_stmt(),
            TokenKind::Keyword(Keyword::Throw) => self.throw_stmt(),
            TokenKind::Keyword(Keyword::Try) => self.try_stmt(),
            TokenKind::Keyword(Keyword::Switch) => self.switch_stmt(),
            TokenKind::Keyword(Keyword::Synchronized) => self.synchronized_stmt(),
            TokenKind::Keyword(Keyword::Assert) => self.assert_stmt(),
            TokenKind::Keyword(
                Keyword::Class
                | Keyword::Interface
                | Keyword::Enum
                | Keyword::Abstract
                | Keyword::Static
                | Keyword::Final
                | Keyword::Strictfp,
            )
            | TokenKind::At
                if self.at_local_class() =>
            {
                self.local_class()
            }
            TokenKind::Keyword(
                Keyword::Class
                | Keyword::Interface
                | Keyword::Enum
                | Keyword::Abstract
                | Keyword::Static,
            ) => self.local_class_stmt("local classes are not supported"),
            TokenKind::Ident
                if self.tok_text(t) == "record"
                    && self.nth_kind(1) == TokenKind::Ident
                    && self.nth_kind(2) == TokenKind::LParen =>
            {
                self.local_class()
            }
            TokenKind::Keyword(
                Keyword::Else
                | Keyword::Case
                | Keyword::Default
                | Keyword::Catch
                | Keyword::Finally,
            ) => self.unexpected_stmt(),
            TokenKind::Ident if self.at_yield() => self.yield_stmt(),
            TokenKind::Ident if self.nth_kind(1) == TokenKind::Colon => self.labeled_stmt(),
            TokenKind::RBrace | TokenKind::Eof => {
                let msg = format!("expected a statement, found {}", self.describe(t));
                self.error("expected-statement", t.span, msg);
                StmtKind::Error
            }
            _ => self.decl_or_expr_stmt(),
        }
    }

    fn block_stmt(&mut self) -> StmtKind {
        let t = self.bump();
        let stmts = self.block_stmts();
        StmtKind::Block(Block {
            stmts,
            span: self.span_from(t.span),
        })
    }

    fn while_stmt(&mut self) -> StmtKind {
        self.bump();
        let cond = self.paren_cond();
        let body = Box::new(self.stmt());
        StmtKind::While { cond, body }
    }

    fn do_stmt(&mut self) -> StmtKind {
        self.bump();
        let body = Box::new(self.stmt());
        let cond = if self.expect(TokenKind::Keyword(Keyword::While)) {
            let c = self.paren_cond();
            self.expect_semi();
            c
        } else {
            mk(ExprKind::Error, self.prev_span().end_point())
        };
        StmtKind::DoWhile { body, cond }
    }

    fn jump_stmt(&mut self) -> StmtKind {
        let t = self.bump();
        let label = if self.at(TokenKind::Ident) {
            Some(self.expect_ident())
        } else {
            None
        };
        self.expect_semi();
        if t.kind == TokenKind::Keyword(Keyword::Break) {
            StmtKind::Break(label)
        } else {
            StmtKind::Continue(label)
        }
    }

    fn return_stmt(&mut self) -> StmtKind {
        self.bump();
        let value = if self.at(TokenKind::Semi) || self.at(TokenKind::RBrace) {
            None
        } else {
            Some(self.expr())
        };
        self.expect_semi();
        StmtKind::Return(value)
    }

    fn throw_stmt(&mut self) -> StmtKind {
        self.bump();
        let e = self.expr();
        self.expect_semi();
        StmtKind::Throw(e)
    }

    /// `synchronized (e) { … }`
    fn synchronized_stmt(&mut self) -> StmtKind {
        self.bump();
        let lock = self.paren_cond();
        let body = self.block();
        StmtKind::Synchronized { lock, body }
    }

    /// `assert c;` or `assert c : m;`
    fn assert_stmt(&mut self) -> StmtKind {
        self.bump();
        let cond = self.expr();
        let message = self.eat(TokenKind::Colon).then(|| Box::new(self.expr()));
        self.expect_semi();
        StmtKind::Assert { cond, message }
    }

    /// Does a local class, interface or enum declaration start here (after modifiers and
    /// annotations)? Speculative.
    fn at_local_class(&self) -> bool {
        let mut i = self.pos;
        loop {
            match self.tok(i).kind {
                TokenKind::Keyword(
                    Keyword::Abstract | Keyword::Static | Keyword::Final | Keyword::Strictfp,
                ) => i += 1,
                TokenKind::At if self.tok(i + 1).kind == TokenKind::Ident => {
                    match self.scan_annotations(i) {
                        Some(j) if j > i => i = j,
                        _ => return false,
                    }
                }
                TokenKind::Keyword(Keyword::Class | Keyword::Interface | Keyword::Enum) => {
                    return true
                }
                _ => return false,
            }
        }
    }

    /// A local class, interface or enum declaration ([`Parser::at_local_class`]).
    fn local_class(&mut self) -> StmtKind {
        let start = self.peek().span;
        let modifiers = self.modifiers();
        match self.type_decl_after_modifiers(start, modifiers, true) {
            Some(c) => {
                self.closures += 1;
                StmtKind::LocalClass(Box::new(c))
            }
            None => StmtKind::Error,
        }
    }

    /// Report an unsupported local declaration and skip it.
    fn local_class_stmt(&mut self, msg: &str) -> StmtKind {
        let t = self.peek();
        self.error_always(super::UNSUPPORTED, t.span, msg);
        self.skip_local_class();
        StmtKind::Error
    }

    fn unexpected_stmt(&mut self) -> StmtKind {
        let t = self.peek();
        let msg = format!("unexpected {}", self.describe(t));
        self.error("unexpected-token", t.span, msg);
        self.bump();
        StmtKind::Error
    }

    fn labeled_stmt(&mut self) -> StmtKind {
        let label = self.expect_ident();
        self.bump();
        let body = Box::new(self.stmt());
        StmtKind::Labeled { label, body }
    }

    fn decl_or_expr_stmt(&mut self) -> StmtKind {
        if self.at_local_decl() {
            let k = self.local_var_decl();
            self.expect_semi();
            k
        } else {
            let e = self.expr();
            self.check_statement_expr(&e);
            self.expect_semi();
            StmtKind::Expr(e)
        }
    }

    /// Skip a local class declaration (after reporting it): up to and including its body.
    fn skip_local_class(&mut self) {
        while !matches!(
            self.kind(),
            TokenKind::LBrace | TokenKind::Semi | TokenKind::RBrace | TokenKind::Eof
        ) {
            self.bump();
        }
        if self.at(TokenKind::LBrace) {
            self.skip_balanced();
        } else {
            self.eat(TokenKind::Semi);
        }
    }

    fn check_statement_expr(&mut self, e: &Expr) {
        if !is_statement_expr(e) {
            self.error_always("not-a-statement", e.span, "not a statement");
        }
    }

    /// `( e )` of `if`/`while`/`switch`; a missing `(` is reported once.
    pub(super) fn paren_cond(&mut self) -> Expr {
        let had_paren = self.expect(TokenKind::LParen);
        let e = self.expr();
        if had_paren {
            self.expect_close_paren();
        }
        e
    }

    /// `if (c) s [else if (c) s]* [else s]`, parsed iteratively so long `else if`
    /// chains do not count as nesting.
    fn if_stmt(&mut self) -> StmtKind {
        let mut arms: Vec<(Span, Expr, Stmt)> = Vec::new();
        let mut else_branch: Option<Stmt> = None;
        loop {
            let start = self.bump().span; // `if`
            let cond = self.paren_cond();
            let then = self.stmt();
            arms.push((start, cond, then));
            if self.eat_kw(Keyword::Else) {
                if self.at_kw(Keyword::If) {
                    continue;
                }
                else_branch = Some(self.stmt());
            }
            break;
        }
        fold_if_chain(arms, else_branch)
    }

    /// `for (init; cond; update) s` or `for (T x : e) s`.
    fn for_stmt(&mut self) -> StmtKind {
        self.bump();
        let header = self.for_header();
        let body = Box::new(self.stmt());
        match header {
            ForHeader::Each { ty, name, iterable } => StmtKind::ForEach {
                ty,
                name,
                iterable,
                body,
            },
            ForHeader::Classic { init, cond, update } => StmtKind::For {
                init,
                cond,
                update,
                body,
            },
        }
    }

    /// `( … )` of a `for` statement.
    fn for_header(&mut self) -> ForHeader {
        let had_paren = self.expect(TokenKind::LParen);
        if self.at_foreach() {
            self.skip_modifiers_local();
            let ty = self.local_type();
            let name = self.expect_ident();
            let ty = self.name_dims(ty);
            self.expect(TokenKind::Colon);
            let iterable = self.expr();
            if had_paren {
                self.expect_close_paren();
            }
            return ForHeader::Each { ty, name, iterable };
        }
        let mut init = Vec::new();
        if !self.at(TokenKind::Semi) {
            let start = self.peek().span;
            if self.at_local_decl() {
                let k = self.local_var_decl();
                init.push(stmt(k, self.span_from(start)));
            } else {
                for e in self.stmt_expr_list() {
                    let span = e.span;
                    init.push(stmt(StmtKind::Expr(e), span));
                }
            }
        }
        let mut cond = None;
        let mut update = Vec::new();
        if self.expect(TokenKind::Semi) {
            if !self.at(TokenKind::Semi) {
                cond = Some(self.expr());
            }
            if self.expect(TokenKind::Semi) && !self.at(TokenKind::RParen) {
                update = self.stmt_expr_list();
            }
        }
        if had_paren {
            self.expect_close_paren();
        }
        ForHeader::Classic { init, cond, update }
    }

    /// `e1, e2, …` of statement expressions (for-init/update).
    fn stmt_expr_list(&mut self) -> Vec<Expr> {
        let mut list = Vec::new();
        loop {
            let e = self.expr();
            self.check_statement_expr(&e);
            list.push(e);
            if !self.eat(TokenKind::Comma) {
                return list;
            }
        }
    }

    /// After `for (`: is this a for-each header `[final] T x :`?
    fn at_foreach(&self) -> bool {
        let mut i = self.pos;
        loop {
            match self.tok(i).kind {
                TokenKind::Keyword(Keyword::Final) => i += 1,
                TokenKind::At => match self.scan_annotations(i) {
                    Some(j) if j > i => i = j,
                    _ => return false,
                },
                _ => break,
            }
        }
        let Some(mut j) = self.scan_type(i) else {
            return false;
        };
        if self.tok(j).kind != TokenKind::Ident {
            return false;
        }
        j += 1;
        while self.tok(j).kind == TokenKind::LBracket && self.tok(j + 1).kind == TokenKind::RBracket
        {
            j += 2;
        }
        self.tok(j).kind == TokenKind::Colon
    }

    /// `final` and annotations before a local declaration or parameter.
    pub(super) fn skip_modifiers_local(&mut self) {
        loop {
            if self.eat_kw(Keyword::Final) {
                continue;
            }
            if self.at(TokenKind::At) && self.nth_kind(1) == TokenKind::Ident {
                self.skip_annotations();
                continue;
            }
            break;
        }
    }

    /// The type of a local declaration: `var` (when followed by a name) or a type.
    fn local_type(&mut self) -> TypeRef {
        if self.at_contextual("var") && self.nth_kind(1) == TokenKind::Ident {
            let t = self.bump();
            return TypeRef {
                kind: TypeKind::Inferred,
                span: t.span,
            };
        }
        self.parse_type()
    }

    /// `[]` written after a variable name, folded into its type.
    pub(super) fn name_dims(&mut self, mut ty: TypeRef) -> TypeRef {
        while self.at(TokenKind::LBracket) && self.nth_kind(1) == TokenKind::RBracket {
            self.bump();
            let close = self.bump();
            ty = array_of(ty, close.span);
        }
        ty
    }

    /// `[final] T a = 1, b[] = {…}` (without the `;`).
    fn local_var_decl(&mut self) -> StmtKind {
        self.skip_modifiers_local();
        let ty = self.local_type();
        let declarators = self.declarators(&ty, None);
        StmtKind::LocalVar { ty, declarators }
    }

    /// Declarators `a [= e], b[] [= e], …` of a field or local of type `ty`; `first`
    /// is an already consumed first name.
    pub(super) fn declarators(
        &mut self,
        ty: &TypeRef,
        first: Option<crate::ast::Ident>,
    ) -> Vec<VarDeclarator> {
        let mut out = Vec::new();
        let mut first = first;
        loop {
            let name = match first.take() {
                Some(n) => n,
                None => {
                    if !self.at(TokenKind::Ident) {
                        self.expect_ident();
                        break;
                    }
                    self.expect_ident()
                }
            };
            let vty = self.name_dims(ty.clone());
            let init = if self.eat(TokenKind::Assign) {
                Some(self.var_init())
            } else {
                None
            };
            let span = self.span_from(name.span);
            out.push(VarDeclarator {
                name,
                ty: vty,
                init,
                span,
            });
            if !self.eat(TokenKind::Comma) {
                break;
            }
        }
        out
    }

    /// `try [(resources)] { } catch (T | U e) { } … [finally { }]`.
    fn try_stmt(&mut self) -> StmtKind {
        let t = self.bump();
        let has_resources = self.at(TokenKind::LParen);
        let resources = if has_resources {
            self.resources()
        } else {
            Vec::new()
        };
        let body = self.block();
        let mut catches = Vec::new();
        while self.at_kw(Keyword::Catch) {
            let start = self.bump().span;
            let had_paren = self.expect(TokenKind::LParen);
            self.skip_modifiers_local();
            let mut types = vec![self.parse_type()];
            while self.eat(TokenKind::Pipe) {
                types.push(self.parse_type());
            }
            let name = self.expect_ident();
            if had_paren {
                self.expect_close_paren();
            }
            let body = self.block();
            catches.push(CatchClause {
                types,
                name,
                body,
                span: self.span_from(start),
            });
        }
        let finally = if self.eat_kw(Keyword::Finally) {
            Some(self.block())
        } else {
            None
        };
        if catches.is_empty() && finally.is_none() && !has_resources {
            let msg = format!(
                "expected `catch` or `finally` after `try` block, found {}",
                self.describe(self.peek())
            );
            let span = self.peek().span;
            let _ = t;
            self.error("expected-token", span, msg);
        }
        StmtKind::Try {
            resources,
            body,
            catches,
            finally,
        }
    }

    /// `(R r = e; S s = f; r2; this.r3;)` at `(`.
    fn resources(&mut self) -> Vec<Resource> {
        let mut resources = Vec::new();
        self.bump(); // `(`
        loop {
            if self.at(TokenKind::RParen) {
                if resources.is_empty() {
                    self.error_expected("a resource");
                }
                self.bump();
                break;
            }
            let start = self.peek().span;
            if self.at_local_decl() {
                self.skip_modifiers_local();
                let ty = self.local_type();
                let name = self.expect_ident();
                let ty = self.name_dims(ty);
                let init = if self.expect(TokenKind::Assign) {
                    self.expr()
                } else {
                    self.error_expr_here()
                };
                resources.push(Resource::Decl {
                    ty,
                    name,
                    init,
                    span: self.span_from(start),
                });
            } else {
                let e = self.expr();
                if !matches!(
                    e.kind,
                    ExprKind::Name(_) | ExprKind::Field { .. } | ExprKind::Error
                ) {
                    self.error_always(
                        "invalid-resource",
                        e.span,
                        "a resource must be a declaration `T r = e`, a variable or a field",
                    );
                }
                resources.push(Resource::Expr(e));
            }
            if self.eat(TokenKind::Semi) {
                continue;
            }
            if self.eat(TokenKind::RParen) {
                break;
            }
            self.error_expected("`;` or `)`");
            self.skip_to_close(TokenKind::LParen, TokenKind::RParen);
            break;
        }
        resources
    }
}
