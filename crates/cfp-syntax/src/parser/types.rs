//! Types: primitives, (qualified, generic) class types, arrays; annotations; type
//! parameters.

use super::{Parser, ERROR_NAME};
use crate::ast::{TypeKind, TypeRef};
use crate::lexer::{Keyword, TokenKind};
use crate::span::Span;

/// The type a primitive-type keyword denotes (`void` excluded).
pub(super) fn primitive(k: Keyword) -> Option<TypeKind> {
    Some(match k {
        Keyword::Int => TypeKind::Int,
        Keyword::Short => TypeKind::Short,
        Keyword::Byte => TypeKind::Byte,
        Keyword::Char => TypeKind::Char,
        Keyword::Long => TypeKind::Long,
        Keyword::Boolean => TypeKind::Boolean,
        Keyword::Float => TypeKind::Float,
        Keyword::Double => TypeKind::Double,
        _ => return None,
    })
}

/// A type with an error placeholder name (an error was reported).
pub(super) fn error_type(span: Span) -> TypeRef {
    TypeRef {
        kind: TypeKind::Named {
            name: ERROR_NAME.to_string(),
            qualifier: Vec::new(),
            args: Vec::new(),
        },
        span,
    }
}

/// Wrap `ty` in one array dimension ending at `end`.
pub(super) fn array_of(ty: TypeRef, end: Span) -> TypeRef {
    let span = ty.span.to(end);
    TypeRef {
        kind: TypeKind::Array(Box::new(ty)),
        span,
    }
}

impl<'a> Parser<'a> {
    /// True when the current token can start a type.
    pub(super) fn at_type_start(&self) -> bool {
        match self.kind() {
            TokenKind::Ident | TokenKind::At => true,
            TokenKind::Keyword(k) => primitive(k).is_some(),
            _ => false,
        }
    }

    /// A type with its array dimensions (`int[][]`, `List<String>[]`).
    pub(super) fn parse_type(&mut self) -> TypeRef {
        let ty = self.parse_type_no_dims();
        self.parse_dims(ty)
    }

    /// `[]`* after a type, each possibly annotated (`T @A []`, annotations ignored).
    pub(super) fn parse_dims(&mut self, mut ty: TypeRef) -> TypeRef {
        loop {
            let before = self.pos;
            self.skip_annotations();
            if self.at(TokenKind::LBracket) && self.nth_kind(1) == TokenKind::RBracket {
                self.bump();
                let close = self.bump();
                ty = array_of(ty, close.span);
            } else {
                self.pos = before;
                return ty;
            }
        }
    }

    /// A primitive or class type without trailing `[]`.
    pub(super) fn parse_type_no_dims(&mut self) -> TypeRef {
        self.skip_annotations();
        let t = self.peek();
        match t.kind {
            TokenKind::Keyword(k) => {
                if let Some(kind) = primitive(k) {
                    self.bump();
                    return TypeRef { kind, span: t.span };
                }
            }
            TokenKind::Ident => return self.parse_class_type(),
            _ => {}
        }
        let msg = format!("expected a type, found {}", self.describe(t));
        self.error("expected-type", t.span, msg);
        error_type(Span::new(t.span.start as usize, t.span.start as usize))
    }

    /// `a.b.C<T, U>`; arguments on qualifying segments (`Outer<T>.Inner`) are dropped.
    fn parse_class_type(&mut self) -> TypeRef {
        let first = self.bump();
        let mut segments = vec![self.tok_text(first).to_string()];
        let mut args = Vec::new();
        loop {
            if self.at(TokenKind::Lt) {
                args = self.parse_type_args();
            }
            // `Outer.Inner`, and `Outer.@A Inner` (a type annotation, ignored).
            let annotated = self.at(TokenKind::Dot)
                && self.nth_kind(1) == TokenKind::At
                && self.nth_kind(2) == TokenKind::Ident;
            if self.at(TokenKind::Dot) && (self.nth_kind(1) == TokenKind::Ident || annotated) {
                self.bump();
                self.skip_annotations();
                if !self.at(TokenKind::Ident) {
                    break;
                }
                let seg = self.bump();
                segments.push(self.tok_text(seg).to_string());
                args = Vec::new();
            } else {
                break;
            }
        }
        let name = segments.pop().unwrap_or_default();
        TypeRef {
            kind: TypeKind::Named {
                name,
                qualifier: segments,
                args,
            },
            span: self.span_from(first.span),
        }
    }

    /// `<T, ? extends U, Map<K, V>>` or the diamond `<>`; wildcards become `Object`.
    pub(super) fn parse_type_args(&mut self) -> Vec<TypeRef> {
        let mut args = Vec::new();
        if !self.eat(TokenKind::Lt) {
            return args;
        }
        if self.eat_gt() {
            return args; // diamond
        }
        if !self.enter() {
            return args;
        }
        loop {
            let start = self.peek().span;
            self.skip_annotations();
            if self.eat(TokenKind::Question) {
                if self.eat_kw(Keyword::Extends) || self.eat_kw(Keyword::Super) {
                    self.parse_type();
                }
                args.push(TypeRef {
                    kind: TypeKind::Named {
                        name: "Object".to_string(),
                        qualifier: Vec::new(),
                        args: Vec::new(),
                    },
                    span: self.span_from(start),
                });
            } else if self.at_type_start() {
                args.push(self.parse_type());
            } else {
                self.error_expected("a type argument");
                break;
            }
            if self.eat(TokenKind::Comma) {
                continue;
            }
            if !self.eat_gt() {
                self.error_expected("`>`");
            }
            break;
        }
        self.leave();
        args
    }

    /// Consume one `>`, splitting `>>`, `>>>`, `>=`, `>>=`, `>>>=` tokens in place.
    pub(super) fn eat_gt(&mut self) -> bool {
        let rest = match self.kind() {
            TokenKind::Gt => None,
            TokenKind::Shr => Some(TokenKind::Gt),
            TokenKind::UShr => Some(TokenKind::Shr),
            TokenKind::Ge => Some(TokenKind::Assign),
            TokenKind::ShrEq => Some(TokenKind::Ge),
            TokenKind::UShrEq => Some(TokenKind::ShrEq),
            _ => return false,
        };
        match rest {
            None => {
                self.bump();
            }
            Some(rest) => {
                if self.scanned_depth > 0 && self.unsplit.last().map(|&(i, _)| i) != Some(self.pos)
                {
                    let lexed = self.kind();
                    self.unsplit.push((self.pos, lexed));
                }
                if let Some(t) = self.toks.get_mut(self.pos) {
                    t.kind = rest;
                    t.span.start += 1;
                }
            }
        }
        true
    }

    /// Type parameters of a generic class or method (`<T extends A & B, U>`): their
    /// names, and the first bound of each bounded one (the others are parsed and dropped).
    pub(super) fn type_params(&mut self) -> (Vec<String>, Vec<(String, TypeRef)>) {
        let mut names = Vec::new();
        let mut bounds = Vec::new();
        if !self.eat(TokenKind::Lt) {
            return (names, bounds);
        }
        loop {
            self.skip_annotations();
            let name = self.expect_ident().name;
            names.push(name.clone());
            if self.eat_kw(Keyword::Extends) {
                bounds.push((name, self.parse_type()));
                while self.eat(TokenKind::Amp) {
                    self.parse_type();
                }
            }
            if self.eat(TokenKind::Comma) {
                continue;
            }
            if !self.eat_gt() {
                self.error_expected("`>`");
                // Skip to the end of the parameter list on this header.
                while !matches!(
                    self.kind(),
                    TokenKind::Eof
                        | TokenKind::LBrace
                        | TokenKind::Semi
                        | TokenKind::LParen
                        | TokenKind::RBrace
                ) {
                    if self.eat_gt() {
                        break;
                    }
                    self.bump();
                }
            }
            break;
        }
        (names, bounds)
    }

    /// Skip annotations `@Name`, `@a.b.Name(…)` (not `@interface`).
    pub(super) fn skip_annotations(&mut self) {
        while self.at(TokenKind::At) && self.nth_kind(1) == TokenKind::Ident {
            self.bump();
            self.bump();
            while self.at(TokenKind::Dot) && self.nth_kind(1) == TokenKind::Ident {
                self.bump();
                self.bump();
            }
            if self.at(TokenKind::LParen) {
                self.skip_balanced();
            }
        }
    }
}
