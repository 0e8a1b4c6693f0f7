//! The class table: classes of the file (nested ones flattened, treated as top level),
//! superclass chains inside the file (an external superclass is opaque), instance fields
//! and static fields (inherited ones included), methods and constructors with overloads,
//! and the static [`Type`]s the lowering computes for every expression.
//!
//! This is the typing oracle `Γ` of the paper (§3.2, §4): API-call detection compares
//! the static type of a receiver with the types of the spec's wildcards.
//!
//! Conventions:
//! * A class with no constructor gets a default one (`C.<init>(this)`).
//! * Overloads are told apart by arity, then by the static types of the arguments (the
//!   first declaration whose parameter types accept the arguments wins; Java's "most
//!   specific" rule is not implemented).
//! * Every class implicitly extends the external `Object`: calling `equals`, `hashCode`,
//!   `toString`, … on an in-file class without an in-file definition is an external call.
//! * Unknown names are error diagnostics with spans, never panics.

pub mod jdk;
pub mod jtypes;

use crate::ir::{
    ClassDef, ClassId, FieldDef, FieldId, GlobalDef, GlobalId, GlobalKind, MethodId, Sort,
};
use cfp_syntax::ast::{
    ClassDecl, CompilationUnit, ConstructorDecl, Member, MethodDecl, TypeKind, TypeRef,
};
use cfp_syntax::{Diagnostic, Span};

/// The field of an inner class that holds its enclosing instance (set by `new`).
pub const OUTER_FIELD: &str = "this$0";

/// Static types of expressions.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    /// `int`, `long`, `short`, `byte`, `char`
    Int,
    /// `boolean`
    Bool,
    /// `float`, `double` (opaque numbers; `Int` sort)
    Float,
    /// `void`
    Void,
    /// The type of `null`.
    Null,
    /// An in-file class or interface.
    Class(ClassId),
    /// A class not defined in the file (simple name), e.g. `String`, `Random`.
    External(String),
    /// An array.
    Array(Box<Type>),
    /// Not known (e.g. the result of an external call used without context).
    Unknown,
}

impl Type {
    /// The SMT sort of values of this type.
    pub fn sort(&self) -> Sort {
        match self {
            Type::Int | Type::Float | Type::Void | Type::Unknown => Sort::Int,
            Type::Bool => Sort::Bool,
            Type::Null | Type::Class(_) | Type::External(_) | Type::Array(_) => Sort::Ref,
        }
    }

    /// True for reference types (and `null`).
    pub fn is_ref(&self) -> bool {
        self.sort() == Sort::Ref
    }

    /// True for `String`.
    pub fn is_string(&self) -> bool {
        matches!(self, Type::External(n) if n == "String")
    }
}

/// Where a method's code comes from.
#[derive(Clone, Copy, Debug)]
pub enum MethodSource<'a> {
    /// A declared method (possibly without body).
    Method(&'a MethodDecl),
    /// A declared constructor.
    Ctor(&'a ConstructorDecl),
    /// The default constructor of a class without constructors.
    DefaultCtor,
    /// Static initialisation of a class (`C.<clinit>`).
    Clinit,
    /// The synthetic root.
    Root,
}

/// A method's signature and origin.
#[derive(Clone, Debug)]
pub struct MethodSig<'a> {
    /// Its id.
    pub id: MethodId,
    /// Declaring class (`None` for the root).
    pub class: Option<ClassId>,
    /// Simple name (`<init>`, `<clinit>`, `<root>` for synthetic ones).
    pub name: String,
    /// Unique display name (`Class.name`, with `/arity` for overloads).
    pub display: String,
    /// Origin.
    pub source: MethodSource<'a>,
    /// Static (no `this`).
    pub is_static: bool,
    /// True when there is no body to run (abstract or interface method).
    pub is_abstract: bool,
    /// Declared parameters (without `this`): name, type, span.
    pub params: Vec<(String, Type, Span)>,
    /// Return type (`Void` for constructors).
    pub ret: Type,
    /// Declaration span.
    pub span: Span,
}

/// One class of the table.
#[derive(Clone, Debug)]
pub struct ClassInfo<'a> {
    /// The declaration.
    pub decl: &'a ClassDecl,
    /// Lexically enclosing class.
    pub outer: Option<ClassId>,
    /// In-file superclass.
    pub superclass: Option<ClassId>,
    /// Direct in-file interfaces (for an interface: the interfaces it extends).
    pub interfaces: Vec<ClassId>,
    /// Direct external supertypes (simple names).
    pub external_supers: Vec<String>,
    /// Own instance fields.
    pub fields: Vec<(String, FieldId)>,
    /// Own static fields.
    pub statics: Vec<(String, GlobalId)>,
    /// Own methods (not constructors), in source order.
    pub methods: Vec<MethodId>,
    /// Constructors (the default one when none is declared; none for interfaces).
    pub ctors: Vec<MethodId>,
    /// Static initialisation procedure (`C.<clinit>`), when the class or a superclass has
    /// static initialisers.
    pub clinit: Option<MethodId>,
    /// The class has static initialisers of its own (not only a superclass's).
    pub own_static_init: bool,
}

/// The class table of a compilation unit.
#[derive(Clone, Debug)]
pub struct ClassTable<'a> {
    /// Classes in source order (outer before nested).
    pub classes: Vec<ClassInfo<'a>>,
    /// IR view of the classes.
    pub defs: Vec<ClassDef>,
    /// Instance fields.
    pub fields: Vec<FieldDef>,
    /// Static type of each field.
    pub field_types: Vec<Type>,
    /// Java static type of each field (for overload resolution).
    pub field_jtypes: Vec<jtypes::JType>,
    /// Static fields as globals.
    pub globals: Vec<GlobalDef>,
    /// Static type of each global.
    pub global_types: Vec<Type>,
    /// Java static type of each global (for overload resolution).
    pub global_jtypes: Vec<jtypes::JType>,
    /// Per global: the initialiser of a *constant variable* (JLS 4.12.4: a `final` static
    /// field of a primitive type or `String` initialised with a constant expression, here
    /// one of literals only). javac inlines its value where it is read, so a read does not
    /// initialise the class (JLS 12.4.1).
    pub global_constants: Vec<Option<&'a cfp_syntax::ast::Expr>>,
    /// Methods; index 0 is the root.
    pub methods: Vec<MethodSig<'a>>,
    /// Problems found (duplicate classes, cyclic inheritance, …).
    pub diagnostics: Vec<Diagnostic>,
}

/// Names of `java.lang.Object`'s methods: external on every class.
pub const OBJECT_METHODS: &[&str] = &[
    "equals",
    "hashCode",
    "toString",
    "getClass",
    "notify",
    "notifyAll",
    "wait",
    "clone",
    "finalize",
];

fn flatten<'a>(
    decl: &'a ClassDecl,
    outer: Option<usize>,
    out: &mut Vec<(&'a ClassDecl, Option<usize>)>,
) {
    let me = out.len();
    out.push((decl, outer));
    for m in &decl.members {
        if let Member::Class(c) = m {
            flatten(c, Some(me), out);
        }
    }
}

impl<'a> ClassTable<'a> {
    /// Build the table of `unit`.
    pub fn new(unit: &'a CompilationUnit) -> ClassTable<'a> {
        let mut flat = Vec::new();
        for c in &unit.classes {
            flatten(c, None, &mut flat);
        }
        let mut t = ClassTable {
            classes: Vec::new(),
            defs: Vec::new(),
            fields: Vec::new(),
            field_types: Vec::new(),
            field_jtypes: Vec::new(),
            globals: Vec::new(),
            global_types: Vec::new(),
            global_jtypes: Vec::new(),
            global_constants: Vec::new(),
            methods: Vec::new(),
            diagnostics: Vec::new(),
        };
        t.methods.push(MethodSig {
            id: MethodId(0),
            class: None,
            name: "<root>".into(),
            display: "<root>".into(),
            source: MethodSource::Root,
            is_static: true,
            is_abstract: false,
            params: Vec::new(),
            ret: Type::Void,
            span: Span::default(),
        });
        t.declare_classes(&flat);
        t.resolve_supertypes();
        t.break_superclass_cycles();
        t.declare_members();
        t.link_initializers();
        t.name_methods();
        t.class_defs();
        t
    }

    /// Phase 1: one [`ClassInfo`] per class declaration (nested ones flattened), with
    /// duplicate names diagnosed.
    fn declare_classes(&mut self, flat: &[(&'a ClassDecl, Option<usize>)]) {
        let mut seen: Vec<&str> = Vec::new();
        for (decl, outer) in flat {
            if seen.contains(&decl.name.name.as_str()) {
                self.diagnostics.push(Diagnostic::error(
                    "duplicate-class",
                    decl.name.span,
                    format!("class `{}` is defined more than once", decl.name.name),
                ));
            }
            seen.push(&decl.name.name);
            self.classes.push(ClassInfo {
                decl,
                outer: outer.map(|o| ClassId(o as u32)),
                superclass: None,
                interfaces: Vec::new(),
                external_supers: Vec::new(),
                fields: Vec::new(),
                statics: Vec::new(),
                methods: Vec::new(),
                ctors: Vec::new(),
                clinit: None,
                own_static_init: false,
            });
        }
    }

    /// Phase 2: each class's superclass and interfaces among the in-file classes; the
    /// others are external supertypes (by name).
    fn resolve_supertypes(&mut self) {
        for i in 0..self.classes.len() {
            let decl = self.classes[i].decl;
            let mut supers: Vec<&TypeRef> = decl.extends.iter().collect();
            supers.extend(decl.implements.iter());
            for (k, s) in supers.into_iter().enumerate() {
                let TypeKind::Named {
                    name, qualifier, ..
                } = &s.kind
                else {
                    continue;
                };
                // `class Listener implements Storage.Listener`: a qualified supertype of
                // the class's own name is another class, outside the program.
                let own_qualified = !qualifier.is_empty() && *name == decl.name.name;
                match self.class_by_name(name).filter(|_| !own_qualified) {
                    Some(c) if c.index() == i => {
                        self.diagnostics.push(Diagnostic::error(
                            "cyclic-inheritance",
                            s.span,
                            format!("class `{name}` cannot extend itself"),
                        ));
                    }
                    Some(c) => {
                        let is_super = k == 0 && decl.extends.is_some() && !decl.is_interface;
                        if is_super {
                            if self.classes[c.index()].decl.is_interface {
                                self.classes[i].interfaces.push(c);
                            } else {
                                self.classes[i].superclass = Some(c);
                            }
                        } else {
                            self.classes[i].interfaces.push(c);
                        }
                    }
                    None => self.classes[i].external_supers.push(name.clone()),
                }
            }
        }
    }

    /// Phase 3: a superclass chain that comes back to a class is cut (and diagnosed).
    fn break_superclass_cycles(&mut self) {
        for i in 0..self.classes.len() {
            let mut seen = vec![ClassId(i as u32)];
            let mut cur = ClassId(i as u32);
            while let Some(s) = self.classes[cur.index()].superclass {
                if seen.contains(&s) {
                    self.diagnostics.push(Diagnostic::error(
                        "cyclic-inheritance",
                        self.classes[cur.index()].decl.name.span,
                        format!(
                            "cyclic inheritance involving `{}`",
                            self.classes[cur.index()].decl.name.name
                        ),
                    ));
                    self.classes[cur.index()].superclass = None;
                    break;
                }
                seen.push(s);
                cur = s;
            }
        }
    }

    /// Phase 4: fields (instance fields and statics), methods, constructors (the default
    /// one when none is written) and static initialisers of every class.
    fn declare_members(&mut self) {
        for i in 0..self.classes.len() {
            let cid = ClassId(i as u32);
            let decl = self.classes[i].decl;
            let cname = decl.name.name.clone();
            let mut has_static_init = false;
            let mut has_ctor = false;
            // An inner class (nested, not static) holds its enclosing instance.
            if let Some(outer) = self.classes[i].outer {
                let outer_decl = self.classes[outer.index()].decl;
                if !decl.modifiers.is_static && !decl.is_interface && !outer_decl.is_interface {
                    let id = FieldId(self.fields.len() as u32);
                    self.fields.push(FieldDef {
                        id,
                        class: cid,
                        name: OUTER_FIELD.to_owned(),
                        sort: Sort::Ref,
                        span: decl.name.span,
                    });
                    self.field_types.push(Type::Class(outer));
                    self.field_jtypes.push(jtypes::JType::Class(outer));
                    self.classes[i].fields.push((OUTER_FIELD.to_owned(), id));
                }
            }
            for m in &decl.members {
                match m {
                    Member::Field(f) => {
                        // Interface fields are implicitly static.
                        let is_static = f.modifiers.is_static || decl.is_interface;
                        for d in &f.declarators {
                            let ty = self.resolve(&d.ty);
                            let name = d.name.name.clone();
                            let dup = self.classes[i].fields.iter().any(|(n, _)| *n == name)
                                || self.classes[i].statics.iter().any(|(n, _)| *n == name);
                            if dup {
                                self.diagnostics.push(Diagnostic::error(
                                    "duplicate-field",
                                    d.name.span,
                                    format!("field `{name}` is already defined in `{cname}`"),
                                ));
                                continue;
                            }
                            if is_static {
                                has_static_init |= d.init.is_some();
                                let id = GlobalId(self.globals.len() as u32);
                                self.globals.push(GlobalDef {
                                    id,
                                    name: format!("{cname}.{name}"),
                                    sort: ty.sort(),
                                    kind: GlobalKind::Static { class: cid },
                                    span: d.span,
                                });
                                let constant_type =
                                    matches!(&ty, Type::Int | Type::Bool | Type::Float)
                                        || matches!(&ty, Type::External(n) if n == "String");
                                let constant = (f.modifiers.is_final || decl.is_interface)
                                    && constant_type
                                    && d.init.as_ref().is_some_and(literal_constant);
                                self.global_constants.push(if constant {
                                    d.init.as_ref()
                                } else {
                                    None
                                });
                                self.global_types.push(ty);
                                let jt = jtypes::JType::of_typeref(self, &d.ty);
                                self.global_jtypes.push(jt);
                                self.classes[i].statics.push((name, id));
                            } else {
                                let id = FieldId(self.fields.len() as u32);
                                self.fields.push(FieldDef {
                                    id,
                                    class: cid,
                                    name: name.clone(),
                                    sort: ty.sort(),
                                    span: d.span,
                                });
                                self.field_types.push(ty);
                                let jt = jtypes::JType::of_typeref(self, &d.ty);
                                self.field_jtypes.push(jt);
                                self.classes[i].fields.push((name, id));
                            }
                        }
                    }
                    Member::Initializer(init) if init.is_static => has_static_init = true,
                    Member::Method(md) => {
                        let params = md
                            .params
                            .iter()
                            .map(|p| (p.name.name.clone(), self.resolve(&p.ty), p.span))
                            .collect();
                        let id = MethodId(self.methods.len() as u32);
                        self.methods.push(MethodSig {
                            id,
                            class: Some(cid),
                            name: md.name.name.clone(),
                            display: String::new(),
                            source: MethodSource::Method(md),
                            is_static: md.modifiers.is_static,
                            is_abstract: md.body.is_none(),
                            params,
                            ret: self.resolve(&md.ret),
                            span: md.span,
                        });
                        self.classes[i].methods.push(id);
                    }
                    Member::Constructor(cd) => {
                        has_ctor = true;
                        if cd.name.name != cname {
                            self.diagnostics.push(Diagnostic::error(
                                "invalid-constructor",
                                cd.name.span,
                                format!(
                                    "constructor `{}` does not match its class `{cname}`",
                                    cd.name.name
                                ),
                            ));
                        }
                        if decl.is_interface {
                            continue;
                        }
                        let params = cd
                            .params
                            .iter()
                            .map(|p| (p.name.name.clone(), self.resolve(&p.ty), p.span))
                            .collect();
                        let id = MethodId(self.methods.len() as u32);
                        self.methods.push(MethodSig {
                            id,
                            class: Some(cid),
                            name: "<init>".into(),
                            display: String::new(),
                            source: MethodSource::Ctor(cd),
                            is_static: false,
                            is_abstract: false,
                            params,
                            ret: Type::Void,
                            span: cd.span,
                        });
                        self.classes[i].ctors.push(id);
                    }
                    _ => {}
                }
            }
            if !has_ctor && !decl.is_interface {
                let id = MethodId(self.methods.len() as u32);
                self.methods.push(MethodSig {
                    id,
                    class: Some(cid),
                    name: "<init>".into(),
                    display: String::new(),
                    source: MethodSource::DefaultCtor,
                    is_static: false,
                    is_abstract: false,
                    params: Vec::new(),
                    ret: Type::Void,
                    span: decl.name.span,
                });
                self.classes[i].ctors.push(id);
            }
            if has_static_init {
                let id = MethodId(self.methods.len() as u32);
                self.methods.push(MethodSig {
                    id,
                    class: Some(cid),
                    name: "<clinit>".into(),
                    display: String::new(),
                    source: MethodSource::Clinit,
                    is_static: true,
                    is_abstract: false,
                    params: Vec::new(),
                    ret: Type::Void,
                    span: decl.name.span,
                });
                self.classes[i].clinit = Some(id);
                self.classes[i].own_static_init = true;
            }
        }
    }

    /// Phase 4b: a class without static initialisers of its own whose superclass chain
    /// has some still gets an initialisation procedure (`C.<clinit>`): initialising `C`
    /// initialises its superclass first (JLS §12.4.2).
    fn link_initializers(&mut self) {
        let own: Vec<bool> = self.classes.iter().map(|c| c.clinit.is_some()).collect();
        for i in 0..self.classes.len() {
            if own[i] || self.classes[i].decl.is_interface {
                continue;
            }
            let mut seen = vec![i];
            let mut cur = self.classes[i].superclass;
            let mut inherited = false;
            while let Some(s) = cur {
                if seen.contains(&s.index()) {
                    break;
                }
                seen.push(s.index());
                inherited |= own[s.index()];
                cur = self.classes[s.index()].superclass;
            }
            if inherited {
                let id = MethodId(self.methods.len() as u32);
                self.methods.push(MethodSig {
                    id,
                    class: Some(ClassId(i as u32)),
                    name: "<clinit>".into(),
                    display: String::new(),
                    source: MethodSource::Clinit,
                    is_static: true,
                    is_abstract: false,
                    params: Vec::new(),
                    ret: Type::Void,
                    span: self.classes[i].decl.name.span,
                });
                self.classes[i].clinit = Some(id);
            }
        }
    }

    /// Phase 5: display names — `C.m`, `C.m/arity` for overloads, `#n` when still
    /// ambiguous.
    fn name_methods(&mut self) {
        for i in 1..self.methods.len() {
            let m = &self.methods[i];
            let cname = m
                .class
                .and_then(|c| self.classes.get(c.index()))
                .map_or("", |c| c.decl.name.name.as_str());
            let same_name: Vec<usize> = (1..self.methods.len())
                .filter(|&j| self.methods[j].class == m.class && self.methods[j].name == m.name)
                .collect();
            let mut display = format!("{cname}.{}", m.name);
            if same_name.len() > 1 {
                display = format!("{display}/{}", m.params.len());
                let same_arity: Vec<usize> = same_name
                    .iter()
                    .copied()
                    .filter(|&j| self.methods[j].params.len() == m.params.len())
                    .collect();
                if same_arity.len() > 1 {
                    let k = same_arity.iter().position(|&j| j == i).unwrap_or(0) + 1;
                    display = format!("{display}#{k}");
                }
            }
            self.methods[i].display = display;
        }
    }

    /// The IR's class definitions.
    fn class_defs(&mut self) {
        for i in 0..self.classes.len() {
            let cid = ClassId(i as u32);
            let decl = self.classes[i].decl;
            let def = ClassDef {
                id: cid,
                name: decl.name.name.clone(),
                is_interface: decl.is_interface,
                is_abstract: decl.modifiers.is_abstract,
                superclass: self.classes[i].superclass,
                supertypes: self.supertype_names(cid),
                span: decl.span,
            };
            self.defs.push(def);
        }
    }

    /// The in-file class named `name` (first one if duplicated).
    pub fn class_by_name(&self, name: &str) -> Option<ClassId> {
        self.classes
            .iter()
            .position(|c| c.decl.name.name == name)
            .map(|i| ClassId(i as u32))
    }

    /// Class name.
    pub fn class_name(&self, c: ClassId) -> &str {
        self.classes
            .get(c.index())
            .map_or("?", |c| c.decl.name.name.as_str())
    }

    /// The static type a written type denotes.
    pub fn resolve(&self, t: &TypeRef) -> Type {
        match &t.kind {
            TypeKind::Void => Type::Void,
            TypeKind::Int | TypeKind::Long | TypeKind::Short | TypeKind::Byte | TypeKind::Char => {
                Type::Int
            }
            TypeKind::Boolean => Type::Bool,
            TypeKind::Float | TypeKind::Double => Type::Float,
            TypeKind::Named { name, .. } => match self.class_by_name(name) {
                Some(c) => Type::Class(c),
                None => match name.as_str() {
                    "Integer" | "Long" | "Short" | "Byte" | "Character" => Type::Int,
                    "Float" | "Double" => Type::Float,
                    "Boolean" => Type::Bool,
                    _ => Type::External(name.clone()),
                },
            },
            TypeKind::Array(elem) => Type::Array(Box::new(self.resolve(elem))),
            TypeKind::Inferred => Type::Unknown,
        }
    }

    /// All in-file supertypes of `c` (itself first), superclass chain before
    /// interfaces, each once.
    pub fn ancestors(&self, c: ClassId) -> Vec<ClassId> {
        let mut out = vec![c];
        let mut i = 0;
        while i < out.len() {
            let Some(info) = self.classes.get(out[i].index()) else {
                break;
            };
            for s in info.superclass.iter().chain(info.interfaces.iter()) {
                if !out.contains(s) {
                    out.push(*s);
                }
            }
            i += 1;
        }
        out
    }

    /// Names of all supertypes of `c`, itself included, in-file and external.
    pub fn supertype_names(&self, c: ClassId) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for a in self.ancestors(c) {
            let info = &self.classes[a.index()];
            let n = info.decl.name.name.clone();
            if !names.contains(&n) {
                names.push(n);
            }
            for e in &info.external_supers {
                if !names.contains(e) {
                    names.push(e.clone());
                }
            }
        }
        names
    }

    /// True when some ancestor of `c` is external (so unknown members may be inherited).
    pub fn has_external_ancestor(&self, c: ClassId) -> bool {
        self.ancestors(c)
            .iter()
            .any(|a| !self.classes[a.index()].external_supers.is_empty())
    }

    /// `sub` is `sup` or a subtype of it.
    pub fn is_subclass(&self, sub: ClassId, sup: ClassId) -> bool {
        self.ancestors(sub).contains(&sup)
    }

    /// Whether a value of type `arg` may be passed for a parameter of type `param`.
    pub fn assignable(&self, param: &Type, arg: &Type) -> bool {
        match (param, arg) {
            (_, Type::Unknown) | (Type::Unknown, _) => true,
            (Type::Int, Type::Int) | (Type::Float, Type::Int | Type::Float) => true,
            (Type::Bool, Type::Bool) => true,
            (p, Type::Null) => p.is_ref(),
            (Type::Class(p), Type::Class(a)) => self.is_subclass(*a, *p),
            (Type::External(p), Type::Class(a)) => {
                p == "Object" || self.supertype_names(*a).contains(p)
            }
            (Type::External(p), Type::External(a)) => p == a || p == "Object",
            (Type::External(p), Type::Array(_)) => p == "Object",
            (Type::External(_), Type::Int | Type::Bool) => true, // boxing
            (Type::Array(p), Type::Array(a)) => self.assignable(p, a),
            (Type::Class(_), Type::External(_)) => false,
            _ => false,
        }
    }

    /// Pick among same-arity overloads by argument types.
    fn pick(&self, cands: &[MethodId], args: &[Type]) -> Option<MethodId> {
        cands
            .iter()
            .copied()
            .find(|m| {
                let sig = &self.methods[m.index()];
                sig.params
                    .iter()
                    .zip(args)
                    .all(|((_, p, _), a)| self.assignable(p, a))
            })
            .or_else(|| cands.first().copied())
    }

    /// The method `name` with `args` visible in `c` (own, inherited, or declared by an
    /// in-file interface), most derived first.
    pub fn lookup_method(&self, c: ClassId, name: &str, args: &[Type]) -> Option<MethodId> {
        for a in self.ancestors(c) {
            let cands: Vec<MethodId> = self.classes[a.index()]
                .methods
                .iter()
                .copied()
                .filter(|m| {
                    let s = &self.methods[m.index()];
                    s.name == name && s.params.len() == args.len()
                })
                .collect();
            if !cands.is_empty() {
                return self.pick(&cands, args);
            }
        }
        None
    }

    /// A constructor of `c` accepting `args`.
    pub fn lookup_ctor(&self, c: ClassId, args: &[Type]) -> Option<MethodId> {
        let cands: Vec<MethodId> = self
            .classes
            .get(c.index())?
            .ctors
            .iter()
            .copied()
            .filter(|m| self.methods[m.index()].params.len() == args.len())
            .collect();
        self.pick(&cands, args)
    }

    /// Implementations an instance call of `decl` on a receiver of static type
    /// `static_class` may run: for every concrete in-file subtype, the body it
    /// inherits or overrides (`None` when it comes from an external superclass).
    pub fn implementations(&self, static_class: ClassId, decl: MethodId) -> Vec<Option<MethodId>> {
        self.implementation_classes(static_class, decl)
            .into_iter()
            .map(|(m, _)| m)
            .collect()
    }

    /// [`ClassTable::implementations`] with, for each, the concrete classes whose objects
    /// run it (dynamic dispatch by the receiver's runtime class).
    pub fn implementation_classes(
        &self,
        static_class: ClassId,
        decl: MethodId,
    ) -> Vec<(Option<MethodId>, Vec<ClassId>)> {
        let sig = &self.methods[decl.index()];
        let mut out: Vec<(Option<MethodId>, Vec<ClassId>)> = Vec::new();
        for (i, info) in self.classes.iter().enumerate() {
            let s = ClassId(i as u32);
            if info.decl.is_interface || info.decl.modifiers.is_abstract {
                continue;
            }
            if !self.is_subclass(s, static_class) {
                continue;
            }
            let mut found = None;
            let mut cur = Some(s);
            while let Some(c) = cur {
                let hit = self.classes[c.index()].methods.iter().copied().find(|m| {
                    let o = &self.methods[m.index()];
                    !o.is_abstract
                        && !o.is_static
                        && o.name == sig.name
                        && o.params.len() == sig.params.len()
                        && self.param_jtypes(*m).0 == self.param_jtypes(decl).0
                });
                if hit.is_some() {
                    found = hit;
                    break;
                }
                cur = self.classes[c.index()].superclass;
            }
            match out.iter_mut().find(|(m, _)| *m == found) {
                Some((_, classes)) => classes.push(s),
                None => out.push((found, vec![s])),
            }
        }
        out
    }

    /// Instance field `name` visible in `c` (own or inherited).
    pub fn lookup_field(&self, c: ClassId, name: &str) -> Option<FieldId> {
        let mut cur = Some(c);
        while let Some(k) = cur {
            let info = self.classes.get(k.index())?;
            if let Some((_, f)) = info.fields.iter().find(|(n, _)| n == name) {
                return Some(*f);
            }
            cur = info.superclass;
        }
        None
    }

    /// Static field `name` visible in `c` (own, inherited, or from an in-file interface).
    pub fn lookup_static(&self, c: ClassId, name: &str) -> Option<GlobalId> {
        for a in self.ancestors(c) {
            if let Some((_, g)) = self.classes[a.index()]
                .statics
                .iter()
                .find(|(n, _)| n == name)
            {
                return Some(*g);
            }
        }
        None
    }

    /// All instance fields of objects of class `c` (inherited first).
    pub fn all_fields(&self, c: ClassId) -> Vec<FieldId> {
        let mut chain = Vec::new();
        let mut cur = Some(c);
        while let Some(k) = cur {
            if chain.contains(&k) {
                break;
            }
            chain.push(k);
            cur = self.classes.get(k.index()).and_then(|i| i.superclass);
        }
        chain
            .iter()
            .rev()
            .flat_map(|k| self.classes[k.index()].fields.iter().map(|(_, f)| *f))
            .collect()
    }
}

#[cfg(test)]
mod tests;

/// A constant expression built from literals only (JLS 15.29 without names).
fn literal_constant(e: &cfp_syntax::ast::Expr) -> bool {
    use cfp_syntax::ast::ExprKind as K;
    match &e.kind {
        K::Int { .. } | K::Float(_) | K::Bool(_) | K::Char(_) | K::String(_) => true,
        K::Unary { operand, .. } => literal_constant(operand),
        K::Binary { lhs, rhs, .. } => literal_constant(lhs) && literal_constant(rhs),
        K::Conditional {
            cond,
            then_expr,
            else_expr,
        } => literal_constant(cond) && literal_constant(then_expr) && literal_constant(else_expr),
        K::Cast { operand, .. } => literal_constant(operand),
        _ => false,
    }
}
