//! Records (`record Point(int x, int y) implements I { … }`), read as the final class
//! Java makes of them: a private final field per component, the canonical constructor
//! (written, compact, or implicit) that sets them, and an accessor per component the
//! record does not write itself. `equals`, `hashCode` and `toString` are `Record`'s,
//! outside the program.

use super::Parser;
use crate::ast::*;
use crate::ast_dump::type_to_string;
use crate::lexer::{Keyword, TokenKind};
use crate::span::Span;

impl Parser<'_> {
    /// At `record` (a contextual keyword followed by the record's name).
    pub(super) fn record_decl(&mut self, start: Span, mut modifiers: Modifiers) -> ClassDecl {
        self.bump(); // `record`
        let name = self.expect_ident();
        let (type_params, type_bounds) = self.type_params();
        let components = self.params();
        let mut implements = Vec::new();
        if self.eat_kw(Keyword::Implements) {
            loop {
                implements.push(self.parse_type());
                if !self.eat(TokenKind::Comma) {
                    break;
                }
            }
        }
        let outer = self.record.replace(name.name.clone());
        let mut members = self.class_body(&name.name, false);
        self.record = outer;
        let compact = std::mem::take(&mut self.compact_ctors);
        complete_record(&name, &components, &mut members, &compact);
        // A record is final, and implicitly static when nested.
        modifiers.is_final = true;
        modifiers.is_static = true;
        ClassDecl {
            modifiers,
            is_interface: false,
            extends: Some(TypeRef {
                kind: TypeKind::Named {
                    name: "Record".to_owned(),
                    qualifier: Vec::new(),
                    args: Vec::new(),
                },
                span: name.span,
            }),
            name,
            type_params,
            type_bounds,
            implements,
            members,
            span: self.span_from(start),
        }
    }

    /// A compact canonical constructor `Name { … }` of the record being parsed (its
    /// parameters are the components: [`complete_record`] adds them).
    pub(super) fn compact_constructor(&mut self, start: Span, modifiers: Modifiers) -> Member {
        let name = self.expect_ident();
        self.compact_ctors.push(name.span.start);
        let body = self.block();
        Member::Constructor(ConstructorDecl {
            modifiers,
            name,
            params: Vec::new(),
            throws: Vec::new(),
            body,
            span: self.span_from(start),
        })
    }

    /// True at `Name {` where `Name` is the record whose body is being parsed.
    pub(super) fn at_compact_constructor(&self, class_name: Option<&str>) -> bool {
        self.at(TokenKind::Ident)
            && self.nth_kind(1) == TokenKind::LBrace
            && class_name.is_some()
            && self.record.as_deref() == class_name
            && Some(self.tok_text(self.peek())) == class_name
    }
}

/// Add the fields, the canonical constructor's parameters and assignments, and the
/// accessors of record `name` with `components` to its `members` (`compact`: the name
/// spans of compact constructors).
fn complete_record(name: &Ident, components: &[Param], members: &mut Vec<Member>, compact: &[u32]) {
    let assignments = |span: Span| -> Vec<Stmt> {
        components
            .iter()
            .map(|c| {
                let this_field = expr(
                    ExprKind::Field {
                        target: Box::new(expr(ExprKind::This, span)),
                        name: c.name.clone(),
                    },
                    span,
                );
                let value = expr(ExprKind::Name(c.name.clone()), span);
                Stmt {
                    kind: StmtKind::Expr(expr(
                        ExprKind::Assign {
                            op: None,
                            target: Box::new(this_field),
                            value: Box::new(value),
                        },
                        span,
                    )),
                    span,
                }
            })
            .collect()
    };
    let key = |ps: &[Param]| ps.iter().map(|p| type_to_string(&p.ty)).collect::<Vec<_>>();
    let mut canonical = false;
    for m in members.iter_mut() {
        let Member::Constructor(k) = m else { continue };
        if compact.contains(&k.name.span.start) {
            k.params = components.to_vec();
            let end = Span::new(k.body.span.end as usize, k.body.span.end as usize);
            k.body.stmts.extend(assignments(end));
            canonical = true;
        } else if key(&k.params) == key(components) {
            canonical = true;
        }
    }
    let mut added: Vec<Member> = components
        .iter()
        .map(|c| {
            Member::Field(FieldDecl {
                modifiers: Modifiers {
                    is_private: true,
                    is_final: true,
                    ..Modifiers::default()
                },
                ty: c.ty.clone(),
                declarators: vec![VarDeclarator {
                    name: c.name.clone(),
                    ty: c.ty.clone(),
                    init: None,
                    span: c.span,
                }],
                span: c.span,
            })
        })
        .collect();
    if !canonical {
        added.push(Member::Constructor(ConstructorDecl {
            modifiers: Modifiers {
                is_public: true,
                ..Modifiers::default()
            },
            name: name.clone(),
            params: components.to_vec(),
            throws: Vec::new(),
            body: Block {
                stmts: assignments(name.span),
                span: name.span,
            },
            span: name.span,
        }));
    }
    for c in components {
        let written = members.iter().any(
            |m| matches!(m, Member::Method(d) if d.name.name == c.name.name && d.params.is_empty()),
        );
        if written {
            continue;
        }
        let read = expr(
            ExprKind::Field {
                target: Box::new(expr(ExprKind::This, c.span)),
                name: c.name.clone(),
            },
            c.span,
        );
        added.push(Member::Method(MethodDecl {
            modifiers: Modifiers {
                is_public: true,
                ..Modifiers::default()
            },
            type_params: Vec::new(),
            type_bounds: Vec::new(),
            ret: c.ty.clone(),
            name: c.name.clone(),
            params: Vec::new(),
            throws: Vec::new(),
            body: Some(Block {
                stmts: vec![Stmt {
                    kind: StmtKind::Return(Some(read)),
                    span: c.span,
                }],
                span: c.span,
            }),
            span: c.span,
        }));
    }
    members.splice(0..0, added);
}

fn expr(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}
