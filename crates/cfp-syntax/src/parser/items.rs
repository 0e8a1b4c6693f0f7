//! Compilation unit, type declarations and class members.

use super::types::{array_of, error_type};
use super::Parser;
use crate::ast::{
    ClassDecl, CompilationUnit, ConstructorDecl, FieldDecl, Ident, InitializerDecl, Member,
    MethodDecl, Modifiers, Param, TypeKind, TypeRef,
};
use crate::lexer::{Keyword, TokenKind};
use crate::span::Span;

impl<'a> Parser<'a> {
    /// The whole file.
    pub(super) fn compilation_unit(&mut self) -> CompilationUnit {
        let mut classes = Vec::new();
        let mut imports = Vec::new();
        // `package a.b;` and `import [static] a.b.*;` are recorded (for the messages
        // about source trees) and otherwise ignored.
        let mut package = None;
        // An annotated package (`package-info.java`): the annotations are ignored.
        if self.at(TokenKind::At) && self.nth_kind(1) == TokenKind::Ident {
            let before = self.pos;
            self.skip_annotations();
            if !self.at_kw(Keyword::Package) {
                self.pos = before;
            }
        }
        if self.at_kw(Keyword::Package) {
            self.bump();
            package = Some(self.qualified_name(false));
            self.expect_semi();
        }
        loop {
            if self.at_eof() {
                break;
            }
            if self.at_kw(Keyword::Import) {
                self.bump();
                let is_static = self.eat_kw(Keyword::Static);
                let name = self.qualified_name(true);
                imports.push(if is_static {
                    format!("static {name}")
                } else {
                    name
                });
                self.expect_semi();
                continue;
            }
            if self.eat(TokenKind::Semi) {
                continue;
            }
            let before = self.pos;
            let depth = self.brace_depth;
            let levels = self.levels();
            if let Some(c) = self.type_decl() {
                classes.push(c);
            }
            self.bail_recover(depth, levels);
            if self.pos == before {
                // Nothing could be parsed here: report, then skip to a plausible start.
                let t = self.peek();
                let msg = format!(
                    "expected `class` or `interface`, found {}",
                    self.describe(t)
                );
                self.error("expected-item", t.span, msg);
                self.bump();
                while !self.at_eof()
                    && !super::is_member_start(self.kind())
                    && !self.at_kw(Keyword::Import)
                {
                    if self.at(TokenKind::LBrace) {
                        self.skip_balanced();
                    } else {
                        self.bump();
                    }
                }
            }
        }
        CompilationUnit {
            package,
            imports,
            classes,
            span: Span::new(self.start, self.text.len()),
            closures: self.closures,
            unsupported: Vec::new(),
        }
    }

    /// `a.b.c` (with a trailing `.*` when `star_ok`), as written without spaces.
    fn qualified_name(&mut self, star_ok: bool) -> String {
        let mut name = self.expect_ident().name;
        while self.eat(TokenKind::Dot) {
            name.push('.');
            if star_ok && self.eat(TokenKind::Star) {
                name.push('*');
                break;
            }
            name.push_str(&self.expect_ident().name);
        }
        name
    }

    /// Modifiers and annotations; those of [`Modifiers`] are recorded.
    pub(super) fn modifiers(&mut self) -> Modifiers {
        let mut m = Modifiers::default();
        loop {
            match self.kind() {
                TokenKind::Keyword(Keyword::Static) => m.is_static = true,
                TokenKind::Keyword(Keyword::Abstract) => m.is_abstract = true,
                TokenKind::Keyword(Keyword::Public) => m.is_public = true,
                TokenKind::Keyword(Keyword::Private) => m.is_private = true,
                TokenKind::Keyword(Keyword::Final) => m.is_final = true,
                TokenKind::Keyword(Keyword::Native) => m.is_native = true,
                TokenKind::Keyword(
                    Keyword::Protected
                    | Keyword::Synchronized
                    | Keyword::Transient
                    | Keyword::Volatile
                    | Keyword::Strictfp,
                ) => {}
                // `default` methods of interfaces.
                TokenKind::Keyword(Keyword::Default) if self.nth_kind(1) != TokenKind::Colon => {
                    m.is_default = true;
                }
                TokenKind::At if self.nth_kind(1) == TokenKind::Ident => {
                    let name = self.tok_text(self.tok(self.pos + 1));
                    let qualified = name == "java"
                        && self.tok_text(self.tok(self.pos + 5)) == "Override"
                        && self.tok_text(self.tok(self.pos + 3)) == "lang";
                    if name == "Override" || qualified {
                        m.is_override = true;
                    }
                    self.skip_annotations();
                    continue;
                }
                TokenKind::Ident
                    if matches!(self.tok_text(self.peek()), "sealed")
                        && matches!(
                            self.nth_kind(1),
                            TokenKind::Keyword(
                                Keyword::Class
                                    | Keyword::Interface
                                    | Keyword::Abstract
                                    | Keyword::Public
                                    | Keyword::Static
                            )
                        ) => {}
                TokenKind::Ident
                    if self.tok_text(self.peek()) == "non"
                        && self.nth_kind(1) == TokenKind::Minus
                        && self.tok_text(self.tok(self.pos + 2)) == "sealed" =>
                {
                    self.bump();
                    self.bump();
                }
                _ => return m,
            }
            self.bump();
        }
    }

    /// A class, interface, or (unsupported, skipped) enum/record/annotation type.
    fn type_decl(&mut self) -> Option<ClassDecl> {
        let start = self.peek().span;
        let before = self.pos;
        let mods = self.modifiers();
        let report = self.pos != before;
        self.type_decl_after_modifiers(start, mods, report)
    }

    /// The declaration after its modifiers; `report` when a missing `class` must be
    /// reported here (otherwise the caller does).
    pub(super) fn type_decl_after_modifiers(
        &mut self,
        start: Span,
        mods: Modifiers,
        report: bool,
    ) -> Option<ClassDecl> {
        let t = self.peek();
        match t.kind {
            TokenKind::Keyword(Keyword::Class) => Some(self.class_decl(start, mods, false)),
            TokenKind::Keyword(Keyword::Interface) => Some(self.class_decl(start, mods, true)),
            TokenKind::Keyword(Keyword::Enum) => Some(self.enum_decl(start, mods)),
            TokenKind::Ident
                if self.tok_text(t) == "record" && self.nth_kind(1) == TokenKind::Ident =>
            {
                Some(self.record_decl(start, mods))
            }
            // An annotation type (`@interface A { … }`): an interface whose elements are
            // abstract methods (their defaults are not read); its nested types and
            // constants are members as in any interface.
            TokenKind::At if self.nth_kind(1) == TokenKind::Keyword(Keyword::Interface) => {
                self.bump(); // `@`
                self.bump(); // `interface`
                let name = self.expect_ident();
                let members = self.class_body(&name.name, true);
                Some(ClassDecl {
                    modifiers: mods,
                    is_interface: true,
                    name,
                    type_params: Vec::new(),
                    type_bounds: Vec::new(),
                    extends: None,
                    implements: Vec::new(),
                    members,
                    span: self.span_from(start),
                })
            }
            _ => {
                if report {
                    let msg = format!(
                        "expected `class` or `interface`, found {}",
                        self.describe(t)
                    );
                    self.error("expected-item", t.span, msg);
                }
                None
            }
        }
    }

    /// `class C<T> extends B implements I { … }` / `interface I extends J, K { … }`.
    fn class_decl(&mut self, start: Span, modifiers: Modifiers, is_interface: bool) -> ClassDecl {
        self.bump(); // `class` / `interface`
        let name = self.expect_ident();
        let (type_params, type_bounds) = self.type_params();
        let mut extends = None;
        let mut implements = Vec::new();
        if self.eat_kw(Keyword::Extends) {
            extends = Some(self.parse_type());
            if is_interface {
                while self.eat(TokenKind::Comma) {
                    implements.push(self.parse_type());
                }
            }
        }
        if self.eat_kw(Keyword::Implements) {
            if is_interface {
                let t = self.prev_span();
                self.error_always(
                    "expected-token",
                    t,
                    "an interface cannot `implement`; use `extends`",
                );
            }
            loop {
                implements.push(self.parse_type());
                if !self.eat(TokenKind::Comma) {
                    break;
                }
            }
        }
        if self.at_contextual("permits") {
            self.bump();
            loop {
                self.parse_type();
                if !self.eat(TokenKind::Comma) {
                    break;
                }
            }
        }
        let members = self.class_body(&name.name, is_interface);
        ClassDecl {
            modifiers,
            is_interface,
            name,
            type_params,
            type_bounds,
            extends,
            implements,
            members,
            span: self.span_from(start),
        }
    }

    /// `enum E implements I { A, B(args), C { … }; members }`: a class `E` extending
    /// `Enum` (outside the program) whose constants are static fields, each a new `E`
    /// (a constant with a body is an anonymous subclass).
    fn enum_decl(&mut self, start: Span, mut modifiers: Modifiers) -> ClassDecl {
        self.bump(); // `enum`
        let name = self.expect_ident();
        let mut implements = Vec::new();
        if self.eat_kw(Keyword::Implements) {
            loop {
                implements.push(self.parse_type());
                if !self.eat(TokenKind::Comma) {
                    break;
                }
            }
        }
        let own_type = || TypeRef {
            kind: TypeKind::Named {
                name: name.name.clone(),
                qualifier: Vec::new(),
                args: Vec::new(),
            },
            span: name.span,
        };
        let mut members = Vec::new();
        if !self.expect(TokenKind::LBrace) {
            return ClassDecl {
                modifiers,
                is_interface: false,
                name: name.clone(),
                type_params: Vec::new(),
                type_bounds: Vec::new(),
                extends: None,
                implements,
                members,
                span: self.span_from(start),
            };
        }
        // The constants.
        while self.at(TokenKind::Ident) || self.at(TokenKind::At) {
            let c_start = self.peek().span;
            self.modifiers(); // annotations on a constant
            let c_name = self.expect_ident();
            let args = if self.at(TokenKind::LParen) {
                self.args()
            } else {
                Vec::new()
            };
            let init_kind = if self.at(TokenKind::LBrace) {
                let (members, calls, writes) = self.anonymous_body();
                crate::ast::ExprKind::Closure(Box::new(crate::ast::Closure {
                    kind: crate::ast::ClosureKind::Anonymous,
                    ty: Some(own_type()),
                    args,
                    calls,
                    writes,
                    code: {
                        self.closures += 1;
                        crate::ast::ClosureCode::Anonymous { members }
                    },
                }))
            } else {
                crate::ast::ExprKind::New {
                    class: own_type(),
                    args,
                }
            };
            let span = self.span_from(c_start);
            let init = crate::ast::Expr {
                kind: init_kind,
                span,
            };
            members.push(Member::Field(FieldDecl {
                modifiers: Modifiers {
                    is_static: true,
                    is_public: true,
                    is_final: true,
                    ..Modifiers::default()
                },
                ty: own_type(),
                declarators: vec![crate::ast::VarDeclarator {
                    name: c_name,
                    ty: own_type(),
                    init: Some(init),
                    span,
                }],
                span,
            }));
            if !self.eat(TokenKind::Comma) {
                break;
            }
        }
        if self.eat(TokenKind::Semi) {
            members.extend(self.class_members(Some(&name.name), false));
        } else {
            self.expect(TokenKind::RBrace);
        }
        // A nested enum is implicitly static.
        modifiers.is_static = true;
        ClassDecl {
            modifiers,
            is_interface: false,
            type_params: Vec::new(),
            type_bounds: Vec::new(),
            extends: Some(TypeRef {
                kind: TypeKind::Named {
                    name: "Enum".to_owned(),
                    qualifier: Vec::new(),
                    args: Vec::new(),
                },
                span: name.span,
            }),
            name,
            implements,
            members,
            span: self.span_from(start),
        }
    }

    /// `{ members }`.
    pub(super) fn class_body(&mut self, class_name: &str, is_interface: bool) -> Vec<Member> {
        if !self.expect(TokenKind::LBrace) {
            // Skip to the body if it comes later on (e.g. after a malformed header).
            while !matches!(
                self.kind(),
                TokenKind::LBrace | TokenKind::Eof | TokenKind::RBrace
            ) {
                self.bump();
            }
            if !self.eat(TokenKind::LBrace) {
                return Vec::new();
            }
        }
        self.class_members(Some(class_name), is_interface)
    }

    /// The body `{ members }` of an anonymous class or of an enum constant, at its `{`:
    /// its members, and the names its code calls and writes
    /// ([`crate::ast::Closure`]; scanned as written, before it is parsed).
    pub(super) fn anonymous_body(&mut self) -> (Vec<Member>, Vec<Ident>, Vec<Ident>) {
        let from = self.pos;
        let end = self.balanced_end(from);
        let (calls, writes) = self.scan_effects(from, end);
        if !self.expect(TokenKind::LBrace) {
            return (Vec::new(), calls, writes);
        }
        let in_case_label = std::mem::replace(&mut self.in_case_label, false);
        self.scanned_depth += 1;
        let members = self.class_members(None, false);
        self.scanned_depth -= 1;
        self.in_case_label = in_case_label;
        (members, calls, writes)
    }

    /// Members up to and including the closing `}` of the body of class `class_name`
    /// (`None` for an anonymous class). A class body is one nesting level.
    fn class_members(&mut self, class_name: Option<&str>, is_interface: bool) -> Vec<Member> {
        let mut members = Vec::new();
        if !self.enter() {
            return members;
        }
        loop {
            if self.eat(TokenKind::RBrace) {
                break;
            }
            if self.at_eof() {
                self.error_expected("`}`");
                break;
            }
            let before = self.pos;
            let depth = self.brace_depth;
            let levels = self.levels();
            if let Some(m) = self.member(class_name, is_interface) {
                members.push(m);
            }
            self.bail_recover(depth, levels);
            if self.pos == before {
                self.sync_member();
                if self.pos == before && !self.at(TokenKind::RBrace) {
                    self.bump();
                }
            }
        }
        self.leave();
        members
    }

    /// One member of class `class_name` (`None`: anonymous); `None` after an error or
    /// for skipped constructs.
    fn member(&mut self, class_name: Option<&str>, is_interface: bool) -> Option<Member> {
        let start = self.peek().span;
        if self.eat(TokenKind::Semi) {
            return None;
        }
        if self.at(TokenKind::LBrace) {
            let body = self.block();
            return Some(Member::Initializer(InitializerDecl {
                is_static: false,
                body,
                span: self.span_from(start),
            }));
        }
        if self.at_kw(Keyword::Static) && self.nth_kind(1) == TokenKind::LBrace {
            self.bump();
            let body = self.block();
            return Some(Member::Initializer(InitializerDecl {
                is_static: true,
                body,
                span: self.span_from(start),
            }));
        }
        let modifiers = self.modifiers();
        match self.kind() {
            TokenKind::Keyword(Keyword::Class | Keyword::Interface | Keyword::Enum)
            | TokenKind::At => {
                return self
                    .type_decl_after_modifiers(start, modifiers, true)
                    .map(Member::Class);
            }
            TokenKind::Ident
                if self.at_contextual("record") && self.nth_kind(1) == TokenKind::Ident =>
            {
                return self
                    .type_decl_after_modifiers(start, modifiers, true)
                    .map(Member::Class);
            }
            _ => {}
        }
        self.method_or_field(start, modifiers, class_name, is_interface)
    }

    /// A constructor, method or field after its modifiers. Kept out of
    /// [`Parser::member`], whose frame is on the stack once per nested class.
    #[inline(never)]
    fn method_or_field(
        &mut self,
        start: Span,
        mut modifiers: Modifiers,
        class_name: Option<&str>,
        is_interface: bool,
    ) -> Option<Member> {
        if self.at_compact_constructor(class_name) {
            return Some(self.compact_constructor(start, modifiers));
        }
        let (type_params, type_bounds) = self.type_params();
        // Constructor: `Name(`.
        if self.at(TokenKind::Ident) && self.nth_kind(1) == TokenKind::LParen {
            let name = self.expect_ident();
            if class_name != Some(name.name.as_str()) || is_interface {
                let why = match class_name {
                    Some(c) => format!("constructors must be named `{c}`"),
                    None => "an anonymous class has no constructors".to_owned(),
                };
                self.error_always(
                    "missing-return-type",
                    name.span,
                    format!("method `{}` needs a return type ({why})", name.name),
                );
            }
            let params = self.params();
            let throws = self.throws_clause();
            let body = self.block();
            return Some(Member::Constructor(ConstructorDecl {
                modifiers,
                name,
                params,
                throws,
                body,
                span: self.span_from(start),
            }));
        }
        let ret = if self.at_kw(Keyword::Void) {
            let t = self.bump();
            TypeRef {
                kind: TypeKind::Void,
                span: t.span,
            }
        } else if self.at_type_start() {
            self.parse_type()
        } else {
            let t = self.peek();
            let msg = format!(
                "expected a field, method or constructor, found {}",
                self.describe(t)
            );
            self.error("expected-item", t.span, msg);
            return None;
        };
        let name = self.expect_ident();
        if name.name == super::ERROR_NAME {
            self.sync_member();
            return None;
        }
        if self.at(TokenKind::LParen) {
            let params = self.params();
            let mut ret = ret;
            while self.at(TokenKind::LBracket) && self.nth_kind(1) == TokenKind::RBracket {
                self.bump();
                let close = self.bump();
                ret = array_of(ret, close.span);
            }
            let throws = self.throws_clause();
            // An annotation type's element: `String value() default "";` (the default
            // value is not read).
            if is_interface && self.at_kw(Keyword::Default) {
                while !matches!(
                    self.kind(),
                    TokenKind::Semi | TokenKind::RBrace | TokenKind::Eof
                ) {
                    if matches!(self.kind(), TokenKind::LParen | TokenKind::LBrace) {
                        self.skip_balanced();
                    } else {
                        self.bump();
                    }
                }
            }
            let body = if self.at(TokenKind::LBrace) {
                Some(self.block())
            } else {
                if !self.eat(TokenKind::Semi) {
                    self.error_expected("`{` or `;`");
                    self.sync_member();
                }
                if is_interface {
                    modifiers.is_abstract = true;
                }
                None
            };
            return Some(Member::Method(MethodDecl {
                modifiers,
                type_params,
                type_bounds,
                ret,
                name,
                params,
                throws,
                body,
                span: self.span_from(start),
            }));
        }
        if matches!(ret.kind, TypeKind::Void) {
            self.error_always(
                "expected-token",
                ret.span,
                "a field cannot have type `void`",
            );
        }
        if is_interface {
            modifiers.is_static = true; // interface fields are implicitly static
        }
        let declarators = self.declarators(&ret, Some(name));
        self.expect_semi();
        Some(Member::Field(FieldDecl {
            modifiers,
            ty: ret,
            declarators,
            span: self.span_from(start),
        }))
    }

    /// `throws A, B`: the types (empty without a clause).
    fn throws_clause(&mut self) -> Vec<TypeRef> {
        let mut types = Vec::new();
        if self.eat_kw(Keyword::Throws) {
            loop {
                types.push(self.parse_type());
                if !self.eat(TokenKind::Comma) {
                    break;
                }
            }
        }
        types
    }

    /// `(T a, final U... b)`.
    pub(super) fn params(&mut self) -> Vec<Param> {
        let mut params = Vec::new();
        if !self.expect(TokenKind::LParen) {
            return params;
        }
        if self.eat(TokenKind::RParen) {
            return params;
        }
        loop {
            let start = self.peek().span;
            self.skip_modifiers_local();
            let mut ty = if self.at_type_start() {
                self.parse_type()
            } else {
                let t = self.peek();
                let msg = format!("expected a parameter type, found {}", self.describe(t));
                self.error("expected-type", t.span, msg);
                error_type(t.span.end_point())
            };
            let is_varargs = self.at(TokenKind::Ellipsis);
            if is_varargs {
                let t = self.bump();
                ty = array_of(ty, t.span);
            }
            let name = if self.at(TokenKind::Ident) {
                self.expect_ident()
            } else if self.at_kw(Keyword::This) {
                // Receiver parameter `C this`: accepted, named `this`.
                let t = self.bump();
                Ident {
                    name: "this".to_string(),
                    span: t.span,
                }
            } else {
                self.expect_ident()
            };
            let ty = self.name_dims(ty);
            params.push(Param {
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
            self.skip_to_close(TokenKind::LParen, TokenKind::RParen);
            break;
        }
        params
    }
}
