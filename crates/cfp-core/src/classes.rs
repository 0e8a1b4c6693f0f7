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
//! * [`ClassTable::lookup_method`] tells overloads apart by arity, then by the static
//!   types of the arguments (the first declaration whose parameter types accept them);
//!   the lowering chooses among them as javac does (`lower/overloads.rs`).
//! * Every class implicitly extends the external `Object`: calling `equals`, `hashCode`,
//!   `toString`, … on an in-file class without an in-file definition is an external call.
//! * Unknown names are error diagnostics with spans, never panics.

mod build;
pub mod jdk;
pub mod jtypes;
pub mod library;

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
    /// Per class, [`Self::supertype_names`] once asked (the table does not change after
    /// it is built; lowering asks for every class at every call of library code).
    supertype_cache: Vec<std::sync::OnceLock<Vec<String>>>,
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

/// Whether `name`/`arity` can only be one of `java.lang.Object`'s final methods
/// (`getClass()`, `notify()`, `notifyAll()`, `wait()`): no class can declare a method of
/// that signature, and the JVM runs them natively, so a call of one runs no code of the
/// program and hands nothing to library code. (`wait(long)` and `wait(long, int)` are
/// final too, but a class may overload `wait` with one or two parameters of other types,
/// `wait(String)`, and a call with arguments may be one of those.)
pub fn is_final_object_method(name: &str, arity: usize) -> bool {
    matches!(
        (name, arity),
        ("getClass" | "notify" | "notifyAll" | "wait", 0)
    )
}

impl<'a> ClassTable<'a> {
    /// The in-file class named `name` (first one if duplicated).
    pub fn class_by_name(&self, name: &str) -> Option<ClassId> {
        self.classes
            .iter()
            .position(|c| c.decl.name.name == name)
            .map(|i| ClassId(i as u32))
    }

    /// The class a spec or an option names `written` (a program name, a simple name, or a
    /// qualified name: [`cfp_syntax::resolve::names_class`]): an exact match, else the one
    /// class it can denote (none when several can).
    pub fn class_written(&self, written: &str) -> Option<ClassId> {
        if let Some(c) = self.class_by_name(written) {
            return Some(c);
        }
        let mut found = self
            .classes
            .iter()
            .enumerate()
            .filter(|(_, c)| cfp_syntax::resolve::names_class(written, &c.decl.name.name));
        match (found.next(), found.next()) {
            (Some((i, _)), None) => Some(ClassId(i as u32)),
            _ => None,
        }
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

    /// The type of a value that is of type `a` or of type `b` (the two arms of `?:`, the
    /// yields of a switch expression): the nearest program class both are below, else an
    /// outside supertype both have, else `Object`. Calls on it reach every program class
    /// either could be.
    pub fn join(&self, a: &Type, b: &Type) -> Type {
        match (a, b) {
            _ if a == b => a.clone(),
            (Type::Null, t) | (t, Type::Null) => t.clone(),
            (Type::Unknown, _) | (_, Type::Unknown) => Type::Unknown,
            (Type::Class(x), Type::Class(y)) => {
                if let Some(c) = self
                    .ancestors(*x)
                    .into_iter()
                    .find(|c| self.is_subclass(*y, *c))
                {
                    return Type::Class(c);
                }
                let ys = self.supertype_names(*y);
                self.supertype_names(*x)
                    .into_iter()
                    .find(|n| ys.contains(n) && self.class_by_name(n).is_none())
                    .map_or_else(|| Type::External("Object".into()), Type::External)
            }
            (Type::Class(x), Type::External(n)) | (Type::External(n), Type::Class(x)) => {
                if self.supertypes_of(*x).contains(n) {
                    Type::External(n.clone())
                } else {
                    Type::External("Object".into())
                }
            }
            (Type::External(_), Type::External(_)) => Type::External("Object".into()),
            _ => a.clone(),
        }
    }

    /// Names of all supertypes of `c`, itself included, in-file and external.
    pub fn supertype_names(&self, c: ClassId) -> Vec<String> {
        self.supertypes_of(c).into_owned()
    }

    /// [`Self::supertype_names`], borrowed from the table's cache.
    pub fn supertypes_of(&self, c: ClassId) -> std::borrow::Cow<'_, [String]> {
        match self.supertype_cache.get(c.index()) {
            Some(cell) => {
                std::borrow::Cow::Borrowed(cell.get_or_init(|| self.compute_supertype_names(c)))
            }
            None => std::borrow::Cow::Owned(self.compute_supertype_names(c)),
        }
    }

    fn compute_supertype_names(&self, c: ClassId) -> Vec<String> {
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
                for j in jdk::supertypes(e) {
                    if !names.iter().any(|n| n == j) {
                        names.push(j.to_owned());
                    }
                }
            }
        }
        names
    }

    /// `c` or one of its superclasses extends a class outside the program (whose
    /// instance fields its objects then have).
    pub fn has_external_superclass(&self, c: ClassId) -> bool {
        self.superclass_chain(c).iter().any(|k| {
            let info = &self.classes[k.index()];
            info.superclass.is_none() && !info.decl.is_interface && info.decl.extends.is_some()
        })
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
                p == "Object" || self.supertypes_of(*a).contains(p)
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
        // A private method is never overridden (JLS 8.4.8): it runs whatever the
        // receiver's class, and a subclass's private method overrides nothing.
        let private = |m: MethodId| matches!(&self.methods[m.index()].source, MethodSource::Method(d) if d.modifiers.is_private);
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
                    if private(decl) || private(*m) {
                        return *m == decl;
                    }
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

    /// `c` and its superclasses in the program, `c` first.
    pub fn superclass_chain(&self, c: ClassId) -> Vec<ClassId> {
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
    }

    /// All instance fields of objects of class `c` (inherited first).
    pub fn all_fields(&self, c: ClassId) -> Vec<FieldId> {
        self.superclass_chain(c)
            .iter()
            .rev()
            .flat_map(|k| self.classes[k.index()].fields.iter().map(|(_, f)| *f))
            .collect()
    }
}

#[cfg(test)]
mod tests;
