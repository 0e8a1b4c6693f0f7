//! The statements and methods the rewrite writes (at the loops' source positions).

use crate::desugar::ident;
use cfp_syntax::ast::{
    BinaryOp, Block, Expr, ExprKind, MethodDecl, Modifiers, Param, Stmt, StmtKind, TypeKind,
    TypeRef,
};
use cfp_syntax::Span;

pub(super) fn int_type(span: Span) -> TypeRef {
    TypeRef {
        kind: TypeKind::Int,
        span,
    }
}

pub(super) fn name_expr(n: &str, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Name(ident(n, span)),
        span,
    }
}

pub(super) fn int_expr(v: i64, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Int {
            value: v,
            is_long: false,
        },
        span,
    }
}

pub(super) fn binary(op: BinaryOp, lhs: Expr, rhs: Expr, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Binary {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
        span,
    }
}

pub(super) fn call_stmt(name: &str, args: Vec<Expr>, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Expr(Expr {
            kind: ExprKind::Call {
                target: None,
                name: ident(name, span),
                args,
            },
            span,
        }),
        span,
    }
}

pub(super) fn param(name: &str, ty: TypeRef, span: Span) -> Param {
    Param {
        ty,
        name: ident(name, span),
        is_varargs: false,
        span,
    }
}

/// A private method; `(is_static, throws)` as the method it comes from.
pub(super) fn method(
    name: &str,
    (is_static, throws): (bool, &[TypeRef]),
    params: Vec<Param>,
    stmts: Vec<Stmt>,
    span: Span,
) -> MethodDecl {
    MethodDecl {
        type_params: Vec::new(),
        type_bounds: Vec::new(),
        modifiers: Modifiers {
            is_static,
            is_private: true,
            ..Modifiers::default()
        },
        ret: TypeRef {
            kind: TypeKind::Void,
            span,
        },
        name: ident(name, span),
        params,
        throws: throws.to_vec(),
        body: Some(Block { stmts, span }),
        span,
    }
}
