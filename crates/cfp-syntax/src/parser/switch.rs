//! Switch statements and switch expressions (with `yield`).

use super::Parser;
use crate::ast::*;
use crate::lexer::{Keyword, TokenKind};
use crate::span::Span;

impl Parser<'_> {
    /// `switch (e) { case a, b: … default: … }`; consecutive labels form one group.
    /// Or with arrow rules: `switch (e) { case a, b -> s; default -> { … } }`.
    pub(super) fn switch_stmt(&mut self) -> StmtKind {
        self.bump();
        let scrutinee = self.paren_cond();
        let cases = self.switch_cases(false);
        StmtKind::Switch { scrutinee, cases }
    }

    /// `switch (e) { case a -> v; default -> { …; yield w; } }` as an expression, at
    /// `switch`: a rule's expression is a `yield` of it; without a `default`, one that
    /// throws is added (what javac compiles for an exhaustive switch).
    pub(super) fn switch_expr(&mut self) -> ExprKind {
        let start = self.bump().span;
        let scrutinee = self.paren_cond();
        self.switch_exprs += 1;
        let mut cases = self.switch_cases(true);
        self.switch_exprs -= 1;
        if !cases.iter().any(|c| c.is_default) {
            let at = Span::new(start.start as usize, start.end as usize);
            let error = Expr {
                kind: ExprKind::New {
                    class: TypeRef {
                        kind: TypeKind::Named {
                            name: "IncompatibleClassChangeError".to_owned(),
                            qualifier: Vec::new(),
                            args: Vec::new(),
                        },
                        span: at,
                    },
                    args: Vec::new(),
                },
                span: at,
            };
            cases.push(SwitchCase {
                labels: Vec::new(),
                is_default: true,
                arrow: Some(at),
                body: vec![Stmt {
                    kind: StmtKind::Throw(error),
                    span: at,
                }],
                span: at,
            });
        }
        ExprKind::Switch(Box::new(SwitchExpr { scrutinee, cases }))
    }

    /// True at `yield e;` inside a switch expression (`yield` is a name elsewhere, and
    /// `yield = …`, `yield.f`, `yield[i]`, `yield++` use a variable of that name).
    pub(super) fn at_yield(&self) -> bool {
        self.switch_exprs > 0
            && self.at(TokenKind::Ident)
            && self.tok_text(self.peek()) == "yield"
            && !matches!(
                self.nth_kind(1),
                TokenKind::Assign
                    | TokenKind::Dot
                    | TokenKind::LBracket
                    | TokenKind::PlusPlus
                    | TokenKind::MinusMinus
                    | TokenKind::Semi
            )
    }

    /// `yield e;` ([`Parser::at_yield`]).
    pub(super) fn yield_stmt(&mut self) -> StmtKind {
        self.bump();
        let e = self.expr();
        self.expect_semi();
        StmtKind::Yield(e)
    }

    /// The `{ cases }` of a switch; in a switch expression (`is_expr`) an arrow rule's
    /// expression yields its value.
    fn switch_cases(&mut self, is_expr: bool) -> Vec<SwitchCase> {
        let mut cases: Vec<SwitchCase> = Vec::new();
        // Whether the first case was an arrow rule: the others must be alike.
        let mut arrows: Option<bool> = None;
        if !self.expect(TokenKind::LBrace) {
            return cases;
        }
        loop {
            if self.eat(TokenKind::RBrace) {
                break;
            }
            if self.at_eof() {
                self.error_expected("`}`");
                break;
            }
            if !matches!(
                self.kind(),
                TokenKind::Keyword(Keyword::Case | Keyword::Default)
            ) {
                self.error_expected("`case` or `default`");
                let before = self.pos;
                self.stmt();
                if self.pos == before && !self.at(TokenKind::RBrace) {
                    self.bump();
                }
                continue;
            }
            let start = self.peek().span;
            let mut labels = Vec::new();
            let mut is_default = false;
            let mut body = Vec::new();
            let mut arrow = None;
            let mut colon = None;
            while let TokenKind::Keyword(kw @ (Keyword::Case | Keyword::Default)) = self.kind() {
                self.bump();
                if kw == Keyword::Default {
                    is_default = true;
                } else {
                    self.in_case_label = true;
                    loop {
                        labels.push(self.expr());
                        if !self.eat(TokenKind::Comma) {
                            break;
                        }
                    }
                    self.in_case_label = false;
                }
                if self.at(TokenKind::Colon) {
                    let at = self.bump().span;
                    colon.get_or_insert(at);
                    continue;
                }
                if self.at(TokenKind::Arrow) {
                    arrow = Some(self.bump().span);
                    break;
                }
                self.error_expected(if arrows == Some(true) { "`->`" } else { "`:`" });
                break;
            }
            // Arrow rules and colon groups do not mix (nor do they within one group).
            let this_arrow = arrow.is_some();
            let first = *arrows.get_or_insert(this_arrow);
            let mixed_at = match (colon, arrow) {
                (Some(_), Some(at)) => Some(at),
                _ if first != this_arrow => arrow.or(colon),
                _ => None,
            };
            if let Some(at) = mixed_at {
                self.error_always(
                    "mixed-switch-labels",
                    at,
                    "a switch cannot mix `case …:` groups and `case … ->` rules",
                );
            }
            if arrow.is_some()
                && is_expr
                && !self.at(TokenKind::LBrace)
                && !self.at_kw(Keyword::Throw)
            {
                let from = self.peek().span;
                let e = self.expr();
                self.expect_semi();
                body.push(Stmt {
                    kind: StmtKind::Yield(e),
                    span: self.span_from(from),
                });
            } else if arrow.is_some() {
                // One statement (block, throw or expression) is the rule's body.
                let s = self.stmt();
                if !matches!(
                    s.kind,
                    StmtKind::Expr(_) | StmtKind::Block(_) | StmtKind::Throw(_) | StmtKind::Error
                ) {
                    self.error_always(
                        "expected-statement",
                        s.span,
                        "expected an expression, a block or `throw` after `->`",
                    );
                }
                body.push(s);
            } else {
                while !matches!(
                    self.kind(),
                    TokenKind::Keyword(Keyword::Case | Keyword::Default)
                        | TokenKind::RBrace
                        | TokenKind::Eof
                ) {
                    let before = self.pos;
                    body.push(self.stmt());
                    if self.pos == before && !self.at(TokenKind::RBrace) {
                        self.bump();
                    }
                }
            }
            cases.push(SwitchCase {
                labels,
                is_default,
                arrow,
                body,
                span: self.span_from(start),
            });
        }
        cases
    }
}
