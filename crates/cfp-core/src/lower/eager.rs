//! Which classes may be initialised at the start of the execution instead of on their
//! first active use (JLS §12.4.1) without any observable difference.
//!
//! The JVM initialises a class once, when it is first used, superclass first. Running
//! an initialiser earlier is invisible when it cannot fail, cannot loop, emits no event,
//! calls no code of the program (but simple constructors of classes that are themselves
//! eager) — neither directly, nor through a method of an object of the program, nor through
//! library code handed such an object (which may call it back) — writes only the class's
//! own static fields and the fields of objects it has just created, and reads only
//! literals, its own static fields, the static fields of other eager classes (initialised
//! before it) and values from outside the program. Such a
//! class is initialised by the root, before the entry, in an order where every class
//! comes after its superclass and after the eager classes it reads or instantiates; any
//! other class is initialised lazily, where the JVM would.
//!
//! The test is syntactic and conservative: anything it does not recognise makes the
//! class lazy, which is always exact, only slower to check.

use crate::classes::{ClassTable, Type};
use crate::ir::ClassId;
use cfp_syntax::ast::{self, BinaryOp, ExprKind, Member, StmtKind};

/// Per class: `Some(position)` in the eager initialisation order, `None` for lazy.
pub(super) fn eager_order(table: &ClassTable<'_>) -> Vec<Option<usize>> {
    let n = table.classes.len();
    // Candidates and their dependencies (eager classes that must come first).
    let mut deps: Vec<Option<Vec<ClassId>>> = (0..n)
        .map(|i| {
            let c = ClassId(i as u32);
            let mut check = Check {
                table,
                class: c,
                deps: Vec::new(),
                locals: Vec::new(),
                fresh_statics: Vec::new(),
                program_names: Vec::new(),
                branches: 0,
            };
            check.class_ok().then_some(check.deps)
        })
        .collect();
    // A dependency on a lazy class makes the class lazy; repeat to a fixpoint.
    loop {
        let mut changed = false;
        for i in 0..n {
            let lazy_dep = deps[i]
                .as_ref()
                .is_some_and(|ds| ds.iter().any(|d| deps[d.index()].is_none()));
            if lazy_dep {
                deps[i] = None;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // Topological order (source order among independent classes); cycles are lazy.
    let mut order: Vec<Option<usize>> = vec![None; n];
    let mut next = 0usize;
    loop {
        let mut progressed = false;
        for i in 0..n {
            if order[i].is_some() {
                continue;
            }
            let Some(ds) = &deps[i] else { continue };
            if ds
                .iter()
                .all(|d| d.index() == i || order[d.index()].is_some())
            {
                order[i] = Some(next);
                next += 1;
                progressed = true;
            }
        }
        if !progressed {
            break;
        }
    }
    order
}

struct Check<'t, 'a> {
    table: &'t ClassTable<'a>,
    class: ClassId,
    deps: Vec<ClassId>,
    /// Locals declared in a static block so far.
    locals: Vec<String>,
    /// Own static fields assigned a freshly created object so far (non-null receivers).
    fresh_statics: Vec<String>,
    /// Own static fields and locals assigned something that may be an object of the
    /// program: a call on it, or library code handed it (which may call it back), would
    /// run code of the program.
    program_names: Vec<String>,
    /// How many conditional branches (`if`, `?:`, `&&`, `||`) enclose the code checked.
    branches: usize,
}

impl Check<'_, '_> {
    fn class_ok(&mut self) -> bool {
        let info = &self.table.classes[self.class.index()];
        if let Some(s) = info.superclass {
            self.deps.push(s);
        }
        let decl = info.decl;
        for m in &decl.members {
            match m {
                Member::Field(f) if f.modifiers.is_static || decl.is_interface => {
                    for d in &f.declarators {
                        if let Some(init) = &d.init {
                            if !self.expr(init) {
                                return false;
                            }
                            if is_fresh(init) {
                                self.fresh_statics.push(d.name.name.clone());
                            }
                            if self.maybe_program(init) {
                                self.program_names.push(d.name.name.clone());
                            }
                        }
                    }
                }
                Member::Initializer(i) if i.is_static => {
                    self.locals.clear();
                    if !i.body.stmts.iter().all(|s| self.stmt(s)) {
                        return false;
                    }
                }
                _ => {}
            }
        }
        true
    }

    fn stmt(&mut self, s: &ast::Stmt) -> bool {
        match &s.kind {
            StmtKind::Empty => true,
            StmtKind::Block(b) => b.stmts.iter().all(|s| self.stmt(s)),
            StmtKind::LocalVar { declarators, .. } => declarators.iter().all(|d| {
                let ok = d.init.as_ref().is_none_or(|e| self.expr(e));
                if d.init.as_ref().is_some_and(|e| self.maybe_program(e)) {
                    self.program_names.push(d.name.name.clone());
                }
                self.locals.push(d.name.name.clone());
                ok
            }),
            StmtKind::Expr(e) => self.expr(e),
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                if !self.expr(cond) {
                    return false;
                }
                self.branches += 1;
                let ok =
                    self.stmt(then_branch) && else_branch.as_ref().is_none_or(|e| self.stmt(e));
                self.branches -= 1;
                ok
            }
            _ => false,
        }
    }

    /// Is `name` one of this class's (or a superclass's) static fields?
    fn own_static(&self, name: &str) -> bool {
        self.table.lookup_static(self.class, name).is_some()
            && !self.locals.iter().any(|l| l == name)
    }

    /// The class (or interface) that declares the static field `name` seen from `c`.
    fn declarer(&self, c: ClassId, name: &str) -> Option<ClassId> {
        self.table.ancestors(c).into_iter().find(|a| {
            self.table.classes[a.index()]
                .statics
                .iter()
                .any(|(n, _)| n == name)
        })
    }

    /// Is `name` a static field this class declares (not a local)?
    fn declared_here(&self, name: &str) -> bool {
        !self.locals.iter().any(|l| l == name)
            && self.declarer(self.class, name) == Some(self.class)
    }

    /// May the static field `name` seen from `c` be read early? This class's own fields
    /// (no other code runs before its initialiser); another class's only when `final`
    /// (code that runs before the first use could assign any other), and that class is
    /// initialised first.
    fn readable_static(&mut self, c: ClassId, name: &str) -> bool {
        let Some(d) = self.declarer(c, name) else {
            return false;
        };
        if d == self.class {
            return true;
        }
        self.deps.push(d);
        let decl = self.table.classes[d.index()].decl;
        decl.members.iter().any(|m| {
            matches!(m, Member::Field(f)
                if (f.modifiers.is_final || decl.is_interface)
                    && f.declarators.iter().any(|v| v.name.name == name))
        })
    }

    /// Can `e` be evaluated early, without failing, looping, or touching other state?
    fn expr(&mut self, e: &ast::Expr) -> bool {
        match &e.kind {
            _ if is_literal(e) => true,
            ExprKind::Name(id) => {
                self.locals.contains(&id.name)
                    || (self.own_static(&id.name) && self.readable_static(self.class, &id.name))
            }
            ExprKind::Field { target, name } => match self.class_named(target) {
                Some(Some(c)) => {
                    if c != self.class {
                        self.deps.push(c);
                    }
                    self.readable_static(c, &name.name)
                }
                // A static field of a class outside the program: an arbitrary value.
                Some(None) => true,
                None => false,
            },
            ExprKind::New { class, args } => {
                if !args.iter().all(|a| self.expr(a) && !is_closure(a)) {
                    return false;
                }
                match self.table.resolve(class) {
                    Type::Class(p) => {
                        if p != self.class {
                            self.deps.push(p);
                        }
                        simple_construction(self.table, p, args.len(), 0)
                    }
                    // A library constructor: it may call back what it is handed.
                    _ => !args.iter().any(|a| self.maybe_program(a)),
                }
            }
            ExprKind::NewArray { dims, init, .. } => {
                dims.iter()
                    .all(|d| matches!(d.kind, ExprKind::Int { value, .. } if value >= 0))
                    && init.iter().flatten().all(|i| self.expr(i))
            }
            ExprKind::ArrayLiteral(items) => items.iter().all(|i| self.expr(i)),
            ExprKind::Call { target, args, .. } => {
                // Only library code is called here (below): it may call back an object of
                // the program it is handed.
                if !args
                    .iter()
                    .all(|a| self.expr(a) && !is_closure(a) && !self.maybe_program(a))
                {
                    return false;
                }
                match target.as_deref() {
                    // `Outside.m(…)`: a library call, with an arbitrary result.
                    Some(t) if matches!(self.class_named(t), Some(None)) => true,
                    // A call on a value: the value must possibly be non-null (a literal,
                    // a fresh object, a library result), or the call would always fail.
                    Some(t) => self.receiver(t),
                    None => false,
                }
            }
            ExprKind::Unary { operand, .. } | ExprKind::Cast { operand, .. } => self.expr(operand),
            ExprKind::InstanceOf { operand, .. } => self.expr(operand),
            ExprKind::Binary { op, lhs, rhs } => {
                if matches!(op, BinaryOp::Div | BinaryOp::Rem) || !self.expr(lhs) {
                    return false;
                }
                let conditional = matches!(op, BinaryOp::And | BinaryOp::Or);
                self.branches += usize::from(conditional);
                let ok = self.expr(rhs);
                self.branches -= usize::from(conditional);
                ok
            }
            ExprKind::Conditional {
                cond,
                then_expr,
                else_expr,
            } => {
                if !self.expr(cond) {
                    return false;
                }
                self.branches += 1;
                let ok = self.expr(then_expr) && self.expr(else_expr);
                self.branches -= 1;
                ok
            }
            ExprKind::Assign { op, target, value } => {
                let ok = self.assignable(target) && self.expr(value);
                let name = match &target.kind {
                    ExprKind::Name(id) => Some(&id.name),
                    ExprKind::Field { name, .. } => Some(&name.name),
                    _ => None,
                };
                if let Some(name) = name {
                    // Non-null from here on only when certainly assigned a new object.
                    self.fresh_statics.retain(|f| f != name);
                    if ok && op.is_none() && is_fresh(value) && self.branches == 0 {
                        self.fresh_statics.push(name.clone());
                    }
                    if self.maybe_program(value) {
                        self.program_names.push(name.clone());
                    }
                }
                ok
            }
            ExprKind::IncDec { target, .. } => self.assignable(target),
            // Lambdas and method references only create an object here.
            ExprKind::Closure(c) => {
                c.kind != ast::ClosureKind::Anonymous || (c.args.is_empty() && c.ty.is_none())
            }
            _ => false,
        }
    }

    /// A local, or a static field this class declares (a superclass's is another class's
    /// state).
    fn assignable(&mut self, target: &ast::Expr) -> bool {
        match &target.kind {
            ExprKind::Name(id) => self.locals.contains(&id.name) || self.declared_here(&id.name),
            ExprKind::Field { target: t, name } => {
                matches!(self.class_named(t), Some(Some(c)) if c == self.class)
                    && self.declared_here(&name.name)
            }
            _ => false,
        }
    }

    /// A receiver that is not certainly null and is not an object of the program (whose
    /// methods are code of the program).
    fn receiver(&mut self, t: &ast::Expr) -> bool {
        match &t.kind {
            ExprKind::Name(id) => {
                self.fresh_statics.contains(&id.name)
                    && self.own_static(&id.name)
                    && !self.program_names.contains(&id.name)
            }
            ExprKind::String(_) | ExprKind::ClassLiteral(_) | ExprKind::New { .. } => {
                self.expr(t) && !self.maybe_program(t)
            }
            ExprKind::Call { .. } => self.expr(t),
            _ => false,
        }
    }

    /// May `e` evaluate to an object of the program? Conservative: `true` for anything
    /// not recognised.
    fn maybe_program(&self, e: &ast::Expr) -> bool {
        match &e.kind {
            _ if is_literal(e) => false,
            ExprKind::Unary { .. }
            | ExprKind::Binary { .. }
            | ExprKind::InstanceOf { .. }
            | ExprKind::IncDec { .. } => false,
            // Library calls (the only calls `expr` admits): a value from outside.
            ExprKind::Call { .. } => false,
            ExprKind::New { class, .. } => !matches!(self.table.resolve(class), Type::External(_)),
            ExprKind::Name(id) => self.static_or_local_maybe_program(self.class, &id.name),
            ExprKind::Field { target, name } => match self.class_named(target) {
                Some(Some(c)) => self.static_or_local_maybe_program(c, &name.name),
                Some(None) => false,
                None => true,
            },
            ExprKind::Cast { operand, .. } => self.maybe_program(operand),
            ExprKind::Assign { value, .. } => self.maybe_program(value),
            ExprKind::Conditional {
                then_expr,
                else_expr,
                ..
            } => self.maybe_program(then_expr) || self.maybe_program(else_expr),
            ExprKind::ArrayLiteral(items) => items.iter().any(|i| self.maybe_program(i)),
            ExprKind::NewArray { init, .. } => init.iter().flatten().any(|i| self.maybe_program(i)),
            _ => true,
        }
    }

    /// May the local or static field `name` (seen from class `c`) hold an object of the
    /// program? This class's own statics and locals are known by what was assigned to them
    /// so far (statics start null); another class's static by its declared type.
    fn static_or_local_maybe_program(&self, c: ClassId, name: &str) -> bool {
        let own = c == self.class
            && (self.locals.iter().any(|l| l == name) || self.declarer(c, name) == Some(c));
        if own {
            return self.program_names.iter().any(|n| n == name);
        }
        match self.table.lookup_static(c, name) {
            Some(g) => self
                .table
                .global_types
                .get(g.index())
                .is_none_or(may_hold_program_object),
            None => true,
        }
    }

    /// `Some(Some(c))` for a name of a program class, `Some(None)` for a name that can
    /// only be a class outside the program (capitalised, not a variable or field), `None`
    /// for anything else.
    fn class_named(&self, e: &ast::Expr) -> Option<Option<ClassId>> {
        match &e.kind {
            ExprKind::Name(id) => {
                if self.locals.contains(&id.name) || self.own_static(&id.name) {
                    return None;
                }
                match self.table.class_by_name(&id.name) {
                    Some(c) => Some(Some(c)),
                    None if id.name.starts_with(char::is_uppercase) => Some(None),
                    None => None,
                }
            }
            ExprKind::Field { target, name } if name.name.starts_with(char::is_uppercase) => {
                // `java.util.Collections`, `Outer.Inner`.
                // `android.os.Build.VERSION`: a class nested in a class outside the program.
                match self.table.class_by_name(&name.name) {
                    Some(c) => Some(Some(c)),
                    None if is_package_path(target)
                        || matches!(self.class_named(target), Some(None)) =>
                    {
                        Some(None)
                    }
                    None => None,
                }
            }
            _ => None,
        }
    }
}

fn is_package_path(e: &ast::Expr) -> bool {
    match &e.kind {
        ExprKind::Name(id) => id.name.starts_with(char::is_lowercase),
        ExprKind::Field { target, name } => {
            name.name.starts_with(char::is_lowercase) && is_package_path(target)
        }
        _ => false,
    }
}

/// May a variable of declared type `ty` hold an object of the program?
fn may_hold_program_object(ty: &Type) -> bool {
    match ty {
        Type::Int | Type::Bool | Type::Float | Type::Void | Type::Null => false,
        Type::External(n) => !matches!(
            n.as_str(),
            "String"
                | "Integer"
                | "Long"
                | "Short"
                | "Byte"
                | "Character"
                | "Boolean"
                | "Double"
                | "Float"
                | "Class"
        ),
        Type::Array(t) => may_hold_program_object(t),
        Type::Class(_) | Type::Unknown => true,
    }
}

/// A literal: a number, character, boolean, string, `null` or class literal.
fn is_literal(e: &ast::Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Int { .. }
            | ExprKind::Char(_)
            | ExprKind::Bool(_)
            | ExprKind::Null
            | ExprKind::Float(_)
            | ExprKind::String(_)
            | ExprKind::ClassLiteral(_)
    )
}

fn is_closure(e: &ast::Expr) -> bool {
    matches!(e.kind, ExprKind::Closure(_))
}

fn is_fresh(e: &ast::Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::New { .. } | ExprKind::NewArray { .. } | ExprKind::ArrayLiteral(_)
    )
}

/// `new P(args)` (with `args.len()` arguments) runs only simple code: every constructor of
/// that arity and every instance initialiser only assigns the new object's fields from
/// literals and parameters, and the superclass's construction is simple too.
fn simple_construction(table: &ClassTable<'_>, p: ClassId, arity: usize, depth: usize) -> bool {
    if depth > 8 {
        return false;
    }
    let info = &table.classes[p.index()];
    let decl = info.decl;
    if decl.is_interface || decl.modifiers.is_abstract {
        return false;
    }
    for m in &decl.members {
        match m {
            Member::Field(f)
                if !f.modifiers.is_static
                    && !f
                        .declarators
                        .iter()
                        .all(|d| d.init.as_ref().is_none_or(|e| simple_value(e, &[]))) =>
            {
                return false;
            }
            Member::Initializer(i) if !i.is_static => return false,
            _ => {}
        }
    }
    let ctors: Vec<&ast::ConstructorDecl> = decl
        .members
        .iter()
        .filter_map(|m| match m {
            Member::Constructor(c) => Some(c),
            _ => None,
        })
        .collect();
    let super_simple = |n: usize| match info.superclass {
        Some(s) => simple_construction(table, s, n, depth + 1),
        None => true,
    };
    if ctors.is_empty() {
        return arity == 0 && super_simple(0);
    }
    let mut any = false;
    for c in ctors.iter().filter(|c| c.params.len() == arity) {
        any = true;
        let params: Vec<&str> = c.params.iter().map(|p| p.name.name.as_str()).collect();
        for (k, s) in c.body.stmts.iter().enumerate() {
            let ok = match &s.kind {
                StmtKind::Expr(ast::Expr {
                    kind:
                        ExprKind::Call {
                            target: None,
                            name,
                            args,
                        },
                    ..
                }) if k == 0 && (name.name == "super" || name.name == "this") => {
                    args.iter().all(|a| simple_value(a, &params))
                        && if name.name == "super" {
                            super_simple(args.len())
                        } else {
                            simple_construction(table, p, args.len(), depth + 1)
                        }
                }
                StmtKind::Expr(ast::Expr {
                    kind:
                        ExprKind::Assign {
                            op: None,
                            target,
                            value,
                        },
                    ..
                }) => {
                    let field = match &target.kind {
                        ExprKind::Field { target: t, name } if matches!(t.kind, ExprKind::This) => {
                            Some(&name.name)
                        }
                        ExprKind::Name(id) if !params.contains(&id.name.as_str()) => Some(&id.name),
                        _ => None,
                    };
                    field.is_some_and(|f| table.lookup_field(p, f).is_some())
                        && simple_value(value, &params)
                }
                StmtKind::Empty => true,
                _ => false,
            };
            if !ok {
                return false;
            }
        }
        let explicit = c.body.stmts.first().is_some_and(|s| {
            matches!(&s.kind, StmtKind::Expr(ast::Expr { kind: ExprKind::Call { target: None, name, .. }, .. })
                if name.name == "super" || name.name == "this")
        });
        if !explicit && !super_simple(0) {
            return false;
        }
    }
    any
}

/// A literal, a parameter, or simple arithmetic over them.
fn simple_value(e: &ast::Expr, params: &[&str]) -> bool {
    match &e.kind {
        ExprKind::Int { .. }
        | ExprKind::Char(_)
        | ExprKind::Bool(_)
        | ExprKind::Null
        | ExprKind::Float(_)
        | ExprKind::String(_) => true,
        ExprKind::Name(id) => params.contains(&id.name.as_str()),
        ExprKind::Unary { operand, .. } | ExprKind::Cast { operand, .. } => {
            simple_value(operand, params)
        }
        ExprKind::Binary { op, lhs, rhs } => {
            !matches!(op, BinaryOp::Div | BinaryOp::Rem)
                && simple_value(lhs, params)
                && simple_value(rhs, params)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(src: &str) -> Vec<(String, Option<usize>)> {
        let p = cfp_syntax::parse_program(src);
        assert!(!p.has_errors(), "{:?}", p.diagnostics);
        let t = ClassTable::new(&p.tree);
        let o = eager_order(&t);
        t.defs.iter().map(|d| d.name.clone()).zip(o).collect()
    }

    fn lazy(src: &str) -> Vec<String> {
        order(src)
            .into_iter()
            .filter(|(_, o)| o.is_none())
            .map(|(n, _)| n)
            .collect()
    }

    #[test]
    fn simple_initialisers_are_eager_and_the_rest_lazy() {
        assert!(lazy(
            "class A { static ReentrantLock l = new ReentrantLock(); static int n = 3 + 4; \
             static final Logger LOG = Logger.getLogger(A.class.getName()); }"
        )
        .is_empty());
        // A null dereference, a call of the program, a read of a lazy class.
        assert_eq!(
            lazy(
                "class U { static String s = ((Object) null).toString(); } \
                 class V { static int x = f(); static int f() { return 1; } } \
                 class W { static int y = V.x; }"
            ),
            ["U", "V", "W"]
        );
        // Enum constants with simple constructors; a class reading another eager class.
        let o = order(
            "class Main { static Mode m = Mode.A; } \
             class Mode { static final Mode A = new Mode(1); static final Mode B = new Mode(2); \
             int k; Mode(int k) { this.k = k; } }",
        );
        let (main, mode) = (o[0].1, o[1].1);
        assert!(mode.is_some() && main.is_some() && mode < main, "{o:?}");
        // A subclass after its superclass; a superclass that is lazy makes it lazy.
        let o =
            order("class Sub extends Base { static int y = 2; } class Base { static int x = 1; }");
        assert!(o[1].1 < o[0].1, "{o:?}");
        assert_eq!(
            lazy("class Sub extends Base { static int y = 2; } class Base { static { g(); } static void g() {} }"),
            ["Sub", "Base"]
        );
        // A static block calling a method on a field that is still null.
        assert_eq!(
            lazy("class L { static java.util.List<String> l; static { l.add(\"a\"); } }"),
            ["L"]
        );
        assert!(lazy("class L { static java.util.List<String> l = new java.util.ArrayList<>(); static { l.add(\"a\"); } }").is_empty());
    }

    #[test]
    fn state_code_may_change_before_the_first_use_makes_the_class_lazy() {
        // Another class's static that is not final; a superclass's; an interface's (its
        // interface is a dependency).
        assert_eq!(
            lazy(
                "class Cfg { static boolean on; static final boolean OFF = false; } \
                 class Snap { static boolean was = Cfg.on; } \
                 class Snap2 { static boolean was = Cfg.OFF; } \
                 class Sub extends Cfg { static boolean mine = on; }"
            ),
            ["Snap", "Sub"]
        );
        assert_eq!(
            lazy(
                "class S { static boolean armed; } class A extends S { static { armed = true; } }"
            ),
            ["A"]
        );
        assert_eq!(
            lazy(
                "interface I { boolean F = Main.mark(); } class A implements I { static boolean f = F; } \
                 class Main { static boolean mark() { return true; } }"
            ),
            ["I", "A"]
        );
        // A static that may be null again, or is a new object on one branch only, is no
        // receiver that cannot fail.
        assert_eq!(
            lazy(
                "class A { static String s = new String(\"x\"); static int n; \
                   static { s = null; n = s.length(); } } \
                 class B { static StringBuilder sb; static int n; \
                   static { if (n == 0) sb = new StringBuilder(); sb.append(1); } }"
            ),
            ["A", "B"]
        );
    }

    #[test]
    fn code_of_the_program_run_through_an_object_or_a_library_call_makes_the_class_lazy() {
        let setter = "class B { int run() { Main.ready = true; return 1; } } \
                      class Main { static boolean ready; }";
        // A method of a fresh object of the program.
        assert_eq!(
            lazy(&format!(
                "class A {{ static int x = new B().run(); }} {setter}"
            )),
            ["A"]
        );
        // A method of an object of the program held in a static field.
        assert_eq!(
            lazy(&format!(
                "class A {{ static B b = new B(); static int x; static {{ x = b.run(); }} }} {setter}"
            )),
            ["A"]
        );
        // Library code handed an object of the program (it may call `toString` back), held
        // in a static, in a local, or created in place.
        assert_eq!(
            lazy(&format!(
                "class A {{ static Object o = new B(); static String s = String.valueOf(o); }} \
                 class C {{ static String s; static {{ Object o = new B(); s = String.valueOf(o); }} }} \
                 class D {{ static java.util.List<Object> l = new java.util.ArrayList<>(); \
                            static {{ l.add(new B()); }} }} \
                 class E {{ static Thread t = new Thread(new B()); }} {setter}"
            )),
            ["A", "C", "D", "E"]
        );
        // Values from outside, strings and numbers handed to library code stay eager, also
        // through a class nested in a library class.
        assert!(lazy(
            "class U { static final int SDK = android.os.Build.VERSION.SDK_INT; \
             static final int V = Build.VERSION.SDK_INT; \
             static final String D = Build.DEVICE + \", \" + SDK; \
             static final java.util.regex.Pattern P = java.util.regex.Pattern.compile(\"a+\"); \
             static final Object O = String.valueOf(SDK); }"
        )
        .is_empty());
    }
}
