//! Program language → program language without `*`: each nondeterministic value `*`
//! becomes a library call, `Input.anyBool()` where the context wants a boolean (a
//! condition, an operand of `!`, `&&`, `||`, a `boolean` variable, field, parameter or
//! return value…) and `Input.anyInt()` elsewhere. The result is still a program of cfp's
//! language (the call is an external call with an arbitrary result) and, with the stubs,
//! valid Java; cfp and the JVM are given exactly this text.
//!
//! Replacements stay on the line of the `*` they replace, so every line number of the
//! translated text is the original's.

use cfp_syntax::ast::{
    BinaryOp, Block, ClassDecl, CompilationUnit, Expr, ExprKind, Member, Stmt, StmtKind, TypeKind,
    TypeRef, UnaryOp,
};
use cfp_syntax::lexer::{lex, Keyword, TokenKind};
use cfp_syntax::{SourceSet, Span};
use std::collections::{BTreeMap, BTreeSet};

/// A span's first byte offset.
fn lo(s: cfp_syntax::Span) -> usize {
    s.start as usize
}

/// A span's end byte offset.
fn hi(s: cfp_syntax::Span) -> usize {
    s.end as usize
}

/// The call standing for a boolean `*`.
pub const ANY_BOOL: &str = "Input.anyBool()";
/// The call standing for an int `*`.
pub const ANY_INT: &str = "Input.anyInt()";

/// What a context wants of a `*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    Bool,
    Int,
    /// Nothing known (an int is used).
    Any,
}

fn want_of(ty: &TypeRef) -> Want {
    match &ty.kind {
        TypeKind::Boolean => Want::Bool,
        TypeKind::Int | TypeKind::Long => Want::Int,
        TypeKind::Named { name, .. } if name == "Boolean" => Want::Bool,
        TypeKind::Named { name, .. } if name == "Integer" || name == "Long" => Want::Int,
        _ => Want::Any,
    }
}

fn is_boolean_type(ty: &TypeRef) -> bool {
    want_of(ty) == Want::Bool
}

/// The program's declarations the contexts need: field types, method parameter and
/// return types (by name, over every class).
#[derive(Default)]
struct Decls {
    /// Field name → is it boolean (per class, then any class).
    fields: BTreeMap<(String, String), bool>,
    any_field: BTreeMap<String, bool>,
    /// Method name → (parameter wants, returns boolean) of every declaration.
    methods: BTreeMap<String, Vec<(Vec<Want>, bool)>>,
    /// Class name → parameter wants of each constructor.
    ctors: BTreeMap<String, Vec<Vec<Want>>>,
}

impl Decls {
    fn collect(unit: &CompilationUnit) -> Decls {
        let mut d = Decls::default();
        for c in &unit.classes {
            d.class(c);
        }
        d
    }

    fn class(&mut self, c: &ClassDecl) {
        for m in &c.members {
            match m {
                Member::Field(f) => {
                    for v in &f.declarators {
                        let b = is_boolean_type(&v.ty);
                        self.fields
                            .insert((c.name.name.clone(), v.name.name.clone()), b);
                        self.any_field.entry(v.name.name.clone()).or_insert(b);
                    }
                }
                Member::Method(m) => {
                    self.methods.entry(m.name.name.clone()).or_default().push((
                        m.params.iter().map(|p| want_of(&p.ty)).collect(),
                        is_boolean_type(&m.ret),
                    ));
                }
                Member::Constructor(k) => {
                    self.ctors
                        .entry(c.name.name.clone())
                        .or_default()
                        .push(k.params.iter().map(|p| want_of(&p.ty)).collect());
                }
                Member::Class(inner) => self.class(inner),
                Member::Initializer(_) => {}
            }
        }
    }

    /// What argument `i` of a call of `name` with `arity` arguments wants: the same for
    /// every declaration of that name and arity, or nothing known.
    fn arg_want(&self, decls: Option<&Vec<Vec<Want>>>, i: usize, arity: usize) -> Want {
        let mut wants = decls
            .into_iter()
            .flatten()
            .filter(|p| p.len() == arity)
            .map(|p| p[i]);
        match wants.next() {
            Some(w) if wants.all(|x| x == w) => w,
            _ => Want::Any,
        }
    }
}

struct Walker<'a> {
    decls: &'a Decls,
    class: Vec<String>,
    ret: Want,
    scopes: Vec<BTreeMap<String, bool>>,
    /// What the switch expressions around the code want of the values they yield.
    yields: Vec<Want>,
    /// `*` spans and their replacement.
    edits: BTreeMap<usize, (Span, &'static str)>,
}

impl Walker<'_> {
    fn local_is_bool(&self, name: &str) -> Option<bool> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    fn field_is_bool(&self, name: &str) -> bool {
        self.class
            .last()
            .and_then(|c| self.decls.fields.get(&(c.clone(), name.to_string())))
            .or_else(|| self.decls.any_field.get(name))
            .copied()
            .unwrap_or(false)
    }

    fn declare(&mut self, name: &str, ty: &TypeRef) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), is_boolean_type(ty));
        }
    }

    /// Whether `e` is known to be a boolean.
    fn is_bool(&self, e: &Expr) -> bool {
        use BinaryOp::*;
        match &e.kind {
            ExprKind::Bool(_) | ExprKind::InstanceOf { .. } => true,
            ExprKind::Unary {
                op: UnaryOp::Not, ..
            } => true,
            ExprKind::Binary { op, lhs, rhs } => match op {
                And | Or | Lt | Le | Gt | Ge | Eq | Ne => true,
                BitAnd | BitOr | BitXor => self.is_bool(lhs) || self.is_bool(rhs),
                _ => false,
            },
            ExprKind::Name(id) => self
                .local_is_bool(&id.name)
                .unwrap_or_else(|| self.field_is_bool(&id.name)),
            ExprKind::Field { name, .. } => self.field_is_bool(&name.name),
            ExprKind::Call { name, .. } => self
                .decls
                .methods
                .get(&name.name)
                .is_some_and(|ms| !ms.is_empty() && ms.iter().all(|(_, b)| *b)),
            ExprKind::Assign { target, .. } => self.is_bool(target),
            ExprKind::Conditional { then_expr, .. } => self.is_bool(then_expr),
            ExprKind::Cast { ty, .. } => is_boolean_type(ty),
            _ => false,
        }
    }

    fn target_want(&self, target: &Expr) -> Want {
        if self.is_bool(target) {
            Want::Bool
        } else {
            Want::Int
        }
    }

    fn block(&mut self, b: &Block) {
        self.scopes.push(BTreeMap::new());
        for s in &b.stmts {
            self.stmt(s);
        }
        self.scopes.pop();
    }

    fn switch(&mut self, scrutinee: &Expr, cases: &[cfp_syntax::ast::SwitchCase]) {
        self.expr(scrutinee, Want::Int);
        self.scopes.push(BTreeMap::new());
        for c in cases {
            for l in &c.labels {
                self.expr(l, Want::Int);
            }
            for s in &c.body {
                self.stmt(s);
            }
        }
        self.scopes.pop();
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Block(b) => self.block(b),
            StmtKind::LocalVar { declarators, .. } => {
                for d in declarators {
                    if let Some(init) = &d.init {
                        self.expr(init, want_of(&d.ty));
                    }
                    self.declare(&d.name.name, &d.ty);
                }
            }
            StmtKind::Expr(e) | StmtKind::Throw(e) => self.expr(e, Want::Any),
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                self.expr(cond, Want::Bool);
                self.scoped(then_branch);
                if let Some(e) = else_branch {
                    self.scoped(e);
                }
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                self.expr(cond, Want::Bool);
                self.scoped(body);
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                self.scopes.push(BTreeMap::new());
                for s in init {
                    self.stmt(s);
                }
                if let Some(c) = cond {
                    self.expr(c, Want::Bool);
                }
                for u in update {
                    self.expr(u, Want::Any);
                }
                self.scoped(body);
                self.scopes.pop();
            }
            StmtKind::ForEach {
                ty,
                name,
                iterable,
                body,
            } => {
                self.expr(iterable, Want::Any);
                self.scopes.push(BTreeMap::new());
                self.declare(&name.name, ty);
                self.scoped(body);
                self.scopes.pop();
            }
            StmtKind::Return(Some(e)) => {
                let w = self.ret;
                self.expr(e, w);
            }
            StmtKind::Synchronized { lock, body } => {
                self.expr(lock, Want::Any);
                self.block(body);
            }
            StmtKind::Assert { cond, message } => {
                self.expr(cond, Want::Bool);
                if let Some(m) = message {
                    self.expr(m, Want::Any);
                }
            }
            StmtKind::Try {
                resources,
                body,
                catches,
                finally,
            } => {
                for r in resources {
                    match r {
                        cfp_syntax::ast::Resource::Decl { init, .. } => self.expr(init, Want::Any),
                        cfp_syntax::ast::Resource::Expr(e) => self.expr(e, Want::Any),
                    }
                }
                self.block(body);
                for c in catches {
                    self.scopes.push(BTreeMap::new());
                    if let Some(t) = c.types.first() {
                        self.declare(&c.name.name, t);
                    }
                    self.block(&c.body);
                    self.scopes.pop();
                }
                if let Some(f) = finally {
                    self.block(f);
                }
            }
            StmtKind::Labeled { body, .. } => self.stmt(body),
            StmtKind::Switch { scrutinee, cases } => self.switch(scrutinee, cases),
            StmtKind::Yield(e) => {
                let want = self.yields.last().copied().unwrap_or(Want::Any);
                self.expr(e, want);
            }
            StmtKind::LocalClass(c) => {
                let (ret, scopes) = (self.ret, std::mem::take(&mut self.scopes));
                self.class_decl(c);
                self.ret = ret;
                self.scopes = scopes;
            }
            StmtKind::Return(None)
            | StmtKind::Break(_)
            | StmtKind::Continue(_)
            | StmtKind::Empty
            | StmtKind::Error => {}
        }
    }

    fn scoped(&mut self, s: &Stmt) {
        self.scopes.push(BTreeMap::new());
        self.stmt(s);
        self.scopes.pop();
    }

    fn args(&mut self, args: &[Expr], decls: Option<&Vec<Vec<Want>>>) {
        for (i, a) in args.iter().enumerate() {
            let w = self.decls.arg_want(decls, i, args.len());
            self.expr(a, w);
        }
    }

    fn expr(&mut self, e: &Expr, want: Want) {
        use BinaryOp::*;
        match &e.kind {
            ExprKind::Nondet => {
                let call = if want == Want::Bool {
                    ANY_BOOL
                } else {
                    ANY_INT
                };
                self.edits.insert(lo(e.span), (e.span, call));
            }
            ExprKind::Unary { op, operand } => {
                let w = if *op == UnaryOp::Not {
                    Want::Bool
                } else {
                    Want::Int
                };
                self.expr(operand, w);
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let w = match op {
                    And | Or => Want::Bool,
                    Eq | Ne | BitAnd | BitOr | BitXor => {
                        if self.is_bool(lhs) || self.is_bool(rhs) {
                            Want::Bool
                        } else {
                            Want::Int
                        }
                    }
                    _ => Want::Int,
                };
                self.expr(lhs, w);
                self.expr(rhs, w);
            }
            ExprKind::Assign { op, target, value } => {
                self.expr(target, Want::Any);
                let w = match op {
                    None | Some(BitAnd | BitOr | BitXor) => self.target_want(target),
                    Some(_) => Want::Int,
                };
                self.expr(value, w);
            }
            ExprKind::Switch(sw) => {
                self.yields.push(want);
                self.switch(&sw.scrutinee, &sw.cases);
                self.yields.pop();
            }
            ExprKind::Conditional {
                cond,
                then_expr,
                else_expr,
            } => {
                self.expr(cond, Want::Bool);
                self.expr(then_expr, want);
                self.expr(else_expr, want);
            }
            ExprKind::Cast { ty, operand } => self.expr(operand, want_of(ty)),
            ExprKind::Call { target, name, args } => {
                if let Some(t) = target {
                    self.expr(t, Want::Any);
                }
                let decls: Option<Vec<Vec<Want>>> = self
                    .decls
                    .methods
                    .get(&name.name)
                    .map(|ms| ms.iter().map(|(p, _)| p.clone()).collect());
                self.args(args, decls.as_ref());
            }
            ExprKind::New { class, args } => {
                let name = match &class.kind {
                    TypeKind::Named { name, .. } => name.clone(),
                    _ => String::new(),
                };
                let decls = self.decls.ctors.get(&name).cloned();
                self.args(args, decls.as_ref());
            }
            ExprKind::Closure(c) => {
                for a in &c.args {
                    self.expr(a, Want::Any);
                }
            }
            ExprKind::Field { target, .. } => self.expr(target, Want::Any),
            ExprKind::NewArray {
                elem, dims, init, ..
            } => {
                for d in dims {
                    self.expr(d, Want::Int);
                }
                for i in init.iter().flatten() {
                    self.expr(i, want_of(elem));
                }
            }
            ExprKind::ArrayLiteral(items) => {
                for i in items {
                    self.expr(i, want);
                }
            }
            ExprKind::Index { array, index } => {
                self.expr(array, Want::Any);
                self.expr(index, Want::Int);
            }
            ExprKind::IncDec { target, .. } => self.expr(target, Want::Any),
            ExprKind::InstanceOf { operand, .. } => self.expr(operand, Want::Any),
            ExprKind::Int { .. }
            | ExprKind::Float(_)
            | ExprKind::Bool(_)
            | ExprKind::Null
            | ExprKind::String(_)
            | ExprKind::Char(_)
            | ExprKind::ClassLiteral(_)
            | ExprKind::Name(_)
            | ExprKind::This
            | ExprKind::OuterThis(_)
            | ExprKind::Super
            | ExprKind::QualifiedSuper(_)
            | ExprKind::Error => {}
        }
    }

    fn class_decl(&mut self, c: &ClassDecl) {
        self.class.push(c.name.name.clone());
        for m in &c.members {
            match m {
                Member::Field(f) => {
                    for v in &f.declarators {
                        if let Some(init) = &v.init {
                            self.expr(init, want_of(&v.ty));
                        }
                    }
                }
                Member::Method(m) => {
                    self.ret = want_of(&m.ret);
                    self.scopes.push(BTreeMap::new());
                    for p in &m.params {
                        self.declare(&p.name.name, &p.ty);
                    }
                    if let Some(b) = &m.body {
                        self.block(b);
                    }
                    self.scopes.pop();
                }
                Member::Constructor(k) => {
                    self.ret = Want::Any;
                    self.scopes.push(BTreeMap::new());
                    for p in &k.params {
                        self.declare(&p.name.name, &p.ty);
                    }
                    self.block(&k.body);
                    self.scopes.pop();
                }
                Member::Initializer(i) => {
                    self.ret = Want::Any;
                    self.block(&i.body);
                }
                Member::Class(inner) => self.class_decl(inner),
            }
        }
        self.class.pop();
    }
}

/// The `*` tokens of `text` that stand for a value (not a product, not an import's `*`),
/// with the replacement their neighbours suggest (for a `*` the syntax tree does not
/// show, e.g. inside a lambda's body).
fn lexical_nondets(text: &str) -> Vec<(Span, &'static str)> {
    let tokens = lex(text).tokens;
    let mut out = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        if t.kind != TokenKind::Star {
            continue;
        }
        let prev = i.checked_sub(1).map(|j| tokens[j].kind);
        let operand_before = matches!(
            prev,
            Some(
                TokenKind::Ident
                    | TokenKind::Int { .. }
                    | TokenKind::Float
                    | TokenKind::Str(_)
                    | TokenKind::Char(_)
                    | TokenKind::RParen
                    | TokenKind::RBracket
                    | TokenKind::PlusPlus
                    | TokenKind::MinusMinus
                    | TokenKind::Dot
                    | TokenKind::Keyword(
                        Keyword::This | Keyword::True | Keyword::False | Keyword::Null
                    )
            )
        );
        if operand_before {
            continue;
        }
        let prev2 = i.checked_sub(2).map(|j| tokens[j].kind);
        let boolean = matches!(
            prev,
            Some(TokenKind::Bang | TokenKind::AndAnd | TokenKind::OrOr | TokenKind::Question)
        ) || (prev == Some(TokenKind::LParen)
            && matches!(
                prev2,
                Some(TokenKind::Keyword(Keyword::If | Keyword::While))
            ));
        out.push((t.span, if boolean { ANY_BOOL } else { ANY_INT }));
    }
    out
}

/// The result of [`translate`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Translated {
    /// The program with every `*` replaced.
    pub text: String,
    /// How many `*` were replaced by `Input.anyBool()` and by `Input.anyInt()`.
    pub bools: usize,
    /// See `bools`.
    pub ints: usize,
}

/// Replace every `*` value of the program `text` by `Input.anyBool()` or
/// `Input.anyInt()` (see the module docs). Text that does not parse is translated by
/// its tokens alone.
pub fn translate(text: &str) -> Translated {
    let parsed = cfp_syntax::parse_sources(&SourceSet::from_marked("", text));
    let decls = Decls::collect(&parsed.tree);
    let mut w = Walker {
        decls: &decls,
        class: Vec::new(),
        ret: Want::Any,
        scopes: Vec::new(),
        yields: Vec::new(),
        edits: BTreeMap::new(),
    };
    for c in &parsed.tree.classes {
        w.class_decl(c);
    }
    let mut edits = w.edits;
    for (span, call) in lexical_nondets(text) {
        edits.entry(lo(span)).or_insert((span, call));
    }
    let mut out = String::with_capacity(text.len() + edits.len() * 16);
    let mut at = 0;
    let (mut bools, mut ints) = (0, 0);
    let mut done: BTreeSet<usize> = BTreeSet::new();
    for (start, (span, call)) in edits {
        if start < at || !done.insert(start) {
            continue;
        }
        out.push_str(&text[at..start]);
        out.push_str(call);
        if call == ANY_BOOL {
            bools += 1;
        } else {
            ints += 1;
        }
        at = hi(span);
    }
    out.push_str(&text[at..]);
    Translated {
        text: out,
        bools,
        ints,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tr(body: &str) -> String {
        let text = format!(
            "class Main {{\n  boolean flag;\n  int count;\n  static void take(boolean b, int n) {{ }}\n  static boolean yes() {{ return *; }}\n  public static void main(String[] args) {{\n{body}\n  }}\n}}\n"
        );
        let t = translate(&text);
        let start = text.find("main(").unwrap_or(0);
        t.text[start..].to_string()
    }

    #[test]
    fn conditions_and_boolean_operators_want_booleans() {
        let t = tr("if (*) { } while (!*) { } boolean b = * && x > 0 || *; int k = *;");
        assert!(t.contains("if (Input.anyBool())"), "{t}");
        assert!(t.contains("while (!Input.anyBool())"), "{t}");
        assert!(
            t.contains("boolean b = Input.anyBool() && x > 0 || Input.anyBool();"),
            "{t}"
        );
        assert!(t.contains("int k = Input.anyInt();"), "{t}");
    }

    #[test]
    fn variables_fields_parameters_and_returns_decide() {
        let t = tr("boolean b; b = *; int n; n = *; flag = *; count = *; take(*, *); b = * == true; n = * + 1; x = c ? * : 2;");
        assert!(t.contains("b = Input.anyBool();"), "{t}");
        assert!(t.contains("n = Input.anyInt();"), "{t}");
        assert!(t.contains("flag = Input.anyBool();"), "{t}");
        assert!(t.contains("count = Input.anyInt();"), "{t}");
        assert!(t.contains("take(Input.anyBool(), Input.anyInt());"), "{t}");
        assert!(t.contains("b = Input.anyBool() == true;"), "{t}");
        assert!(t.contains("n = Input.anyInt() + 1;"), "{t}");
        assert!(t.contains("x = c ? Input.anyInt() : 2;"), "{t}");
        let whole = translate("class A { static boolean yes() { return *; } }");
        assert!(
            whole.text.contains("return Input.anyBool();"),
            "{}",
            whole.text
        );
        assert_eq!((whole.bools, whole.ints), (1, 0));
    }

    #[test]
    fn products_imports_and_lines_are_kept() {
        let text = "import java.util.*;\nclass A {\n  int f(int a) {\n    return a * 2 * (a) * f(1);\n  }\n  void g() {\n    if (*) {\n      f(*);\n    }\n  }\n}\n";
        let t = translate(text);
        assert!(t.text.contains("import java.util.*;"), "{}", t.text);
        assert!(t.text.contains("a * 2 * (a) * f(1)"), "{}", t.text);
        assert!(t.text.contains("if (Input.anyBool())"), "{}", t.text);
        assert!(t.text.contains("f(Input.anyInt());"), "{}", t.text);
        assert_eq!(t.text.lines().count(), text.lines().count());
    }

    #[test]
    fn a_star_the_tree_does_not_show_is_found_by_its_neighbours() {
        let found = lexical_nondets("Runnable r = () -> { if (*) { g(*); } };");
        let calls: Vec<&str> = found.iter().map(|(_, c)| *c).collect();
        assert_eq!(calls, [ANY_BOOL, ANY_INT]);
    }
}
