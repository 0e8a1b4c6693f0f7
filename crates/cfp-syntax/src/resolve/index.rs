//! The classes of a tree and what each file sees: packages, imports, member types,
//! fields and methods, and the javac order in which a simple type name is looked up.

use crate::ast::{ClassDecl, CompilationUnit, Member, TypeKind, TypeRef};
use crate::span::Span;
use std::collections::{BTreeMap, BTreeSet};

/// One class declared at the top level of a file or as a member of another class (local
/// and anonymous classes are left to the desugaring, which names them by scope).
#[derive(Clone, Debug)]
pub(super) struct ClassEntry {
    /// The name as written.
    pub simple: String,
    /// The package's segments (empty: the default package).
    pub package: Vec<String>,
    /// The enclosing classes' simple names, outermost first, then its own.
    pub path: Vec<String>,
    /// The file (index into the files resolved together).
    pub file: usize,
    /// The class it is a member of.
    pub outer: Option<usize>,
    /// Its member classes by simple name.
    pub members: BTreeMap<String, usize>,
    /// `extends` and `implements` as written.
    pub supers: Vec<TypeRef>,
    /// Those of [`ClassEntry::supers`] that are program classes.
    pub super_ids: Vec<usize>,
    /// Its fields' names (enum constants included).
    pub fields: BTreeSet<String>,
    /// Its methods' names.
    pub methods: BTreeSet<String>,
    /// Its type parameters.
    pub type_params: Vec<String>,
    /// The name the program knows it by (see the module docs of `resolve`).
    pub program: String,
    /// Where its name is written.
    pub span: Span,
}

impl ClassEntry {
    /// Package and path: the segments of its qualified name.
    pub fn segments(&self) -> Vec<String> {
        self.package.iter().chain(&self.path).cloned().collect()
    }

    /// The qualified name, `a.b.Outer.Inner`.
    pub fn qualified(&self) -> String {
        self.segments().join(".")
    }
}

/// One file's view: its package and imports.
#[derive(Clone, Debug, Default)]
pub(super) struct FileScope {
    /// The package's segments.
    pub package: Vec<String>,
    /// `import a.b.C;`: simple name, then all segments.
    pub single: Vec<(String, Vec<String>)>,
    /// `import a.b.*;`: the segments before `*`.
    pub on_demand: Vec<Vec<String>>,
    /// `import static a.b.C.m;`: member name, then the class's segments.
    pub static_single: Vec<(String, Vec<String>)>,
    /// `import static a.b.C.*;`: the class's segments.
    pub static_on_demand: Vec<Vec<String>>,
    /// Its top-level classes by simple name.
    pub top: BTreeMap<String, usize>,
    /// True for a file the tool wrote (a library model, a harness): its names are the
    /// program's names already.
    pub generated: bool,
}

/// Where a type name leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Resolved {
    /// A program class.
    Class(usize),
    /// A class outside the program (the JDK, Android, a library).
    Library,
    /// A name this pass does not decide: a type variable or a local class.
    Keep,
}

/// The class index of a tree.
#[derive(Clone, Debug, Default)]
pub(super) struct Index {
    pub classes: Vec<ClassEntry>,
    pub files: Vec<FileScope>,
    /// Every class by qualified name.
    pub by_qualified: BTreeMap<String, usize>,
    /// Top-level classes by package (dotted) and simple name.
    pub by_package: BTreeMap<String, BTreeMap<String, usize>>,
    /// Class by the span start of its name.
    pub by_span: BTreeMap<u32, usize>,
    /// Program classes by program name (for generated files).
    pub by_program: BTreeMap<String, usize>,
    /// Program classes by simple name.
    pub by_simple: BTreeMap<String, Vec<usize>>,
    /// Classes of the default package by path (`PowerManager.WakeLock`): a library class
    /// whose qualified name ends with that path stands for them (a model of it).
    pub stand_ins: BTreeMap<Vec<String>, usize>,
    /// Simple names of library classes some reference resolved to.
    pub library_names: BTreeSet<String>,
}

/// The public types of `java.lang`, imported into every file.
const JAVA_LANG: &[&str] = &[
    "AbstractMethodError",
    "Appendable",
    "ArithmeticException",
    "ArrayIndexOutOfBoundsException",
    "ArrayStoreException",
    "AssertionError",
    "AutoCloseable",
    "Boolean",
    "BootstrapMethodError",
    "Byte",
    "Character",
    "CharSequence",
    "Class",
    "ClassCastException",
    "ClassCircularityError",
    "ClassFormatError",
    "ClassLoader",
    "ClassNotFoundException",
    "ClassValue",
    "CloneNotSupportedException",
    "Cloneable",
    "Comparable",
    "Deprecated",
    "Double",
    "Enum",
    "EnumConstantNotPresentException",
    "Error",
    "Exception",
    "ExceptionInInitializerError",
    "Float",
    "FunctionalInterface",
    "IllegalAccessError",
    "IllegalAccessException",
    "IllegalArgumentException",
    "IllegalCallerException",
    "IllegalMonitorStateException",
    "IllegalStateException",
    "IllegalThreadStateException",
    "IncompatibleClassChangeError",
    "IndexOutOfBoundsException",
    "InheritableThreadLocal",
    "InstantiationError",
    "InstantiationException",
    "Integer",
    "InternalError",
    "InterruptedException",
    "Iterable",
    "LayerInstantiationException",
    "LinkageError",
    "Long",
    "Math",
    "Module",
    "ModuleLayer",
    "NegativeArraySizeException",
    "NoClassDefFoundError",
    "NoSuchFieldError",
    "NoSuchFieldException",
    "NoSuchMethodError",
    "NoSuchMethodException",
    "NullPointerException",
    "Number",
    "NumberFormatException",
    "Object",
    "OutOfMemoryError",
    "Override",
    "Package",
    "Process",
    "ProcessBuilder",
    "ProcessHandle",
    "Readable",
    "Record",
    "ReflectiveOperationException",
    "Runnable",
    "Runtime",
    "RuntimeException",
    "RuntimePermission",
    "SafeVarargs",
    "SecurityException",
    "SecurityManager",
    "Short",
    "StackOverflowError",
    "StackTraceElement",
    "StackWalker",
    "StrictMath",
    "String",
    "StringBuffer",
    "StringBuilder",
    "StringIndexOutOfBoundsException",
    "SuppressWarnings",
    "System",
    "Thread",
    "ThreadDeath",
    "ThreadGroup",
    "ThreadLocal",
    "Throwable",
    "TypeNotPresentException",
    "UnknownError",
    "UnsatisfiedLinkError",
    "UnsupportedClassVersionError",
    "UnsupportedOperationException",
    "VerifyError",
    "VirtualMachineError",
    "Void",
];

/// The segments of a dotted name.
pub(super) fn split(name: &str) -> Vec<String> {
    name.split('.').map(str::to_owned).collect()
}

impl Index {
    /// Index the classes of `units` (one per file; `generated[i]` for files the tool
    /// wrote), in file order and, within a file, in source order (outer before inner).
    pub fn build(units: &[CompilationUnit], generated: &[bool]) -> Index {
        let mut ix = Index::default();
        for (f, unit) in units.iter().enumerate() {
            let package = unit.package.as_deref().map(split).unwrap_or_default();
            let mut scope = FileScope {
                package: package.clone(),
                generated: generated.get(f).copied().unwrap_or(false),
                ..FileScope::default()
            };
            for imp in &unit.imports {
                let (is_static, name) = match imp.strip_prefix("static ") {
                    Some(rest) => (true, rest),
                    None => (false, imp.as_str()),
                };
                let mut segs = split(name);
                let last = segs.pop().unwrap_or_default();
                match (is_static, last == "*") {
                    (false, true) => scope.on_demand.push(segs),
                    (true, true) => scope.static_on_demand.push(segs),
                    (false, false) => {
                        segs.push(last.clone());
                        scope.single.push((last, segs));
                    }
                    (true, false) => scope.static_single.push((last, segs)),
                }
            }
            for c in &unit.classes {
                let id = ix.add(c, f, &package, &[], None);
                scope.top.insert(c.name.name.clone(), id);
                ix.by_package
                    .entry(package.join("."))
                    .or_default()
                    .entry(c.name.name.clone())
                    .or_insert(id);
            }
            ix.files.push(scope);
        }
        for (id, c) in ix.classes.iter().enumerate() {
            ix.by_qualified.entry(c.qualified()).or_insert(id);
            ix.by_simple.entry(c.simple.clone()).or_default().push(id);
            if c.package.is_empty() {
                ix.stand_ins.entry(c.path.clone()).or_insert(id);
            }
        }
        ix
    }

    fn add(
        &mut self,
        c: &ClassDecl,
        file: usize,
        package: &[String],
        outer_path: &[String],
        outer: Option<usize>,
    ) -> usize {
        let id = self.classes.len();
        let mut path = outer_path.to_vec();
        path.push(c.name.name.clone());
        let mut fields = BTreeSet::new();
        let mut methods = BTreeSet::new();
        for m in &c.members {
            match m {
                Member::Field(f) => {
                    fields.extend(f.declarators.iter().map(|d| d.name.name.clone()))
                }
                Member::Method(m) => {
                    methods.insert(m.name.name.clone());
                }
                _ => {}
            }
        }
        self.classes.push(ClassEntry {
            simple: c.name.name.clone(),
            package: package.to_vec(),
            path: path.clone(),
            file,
            outer,
            members: BTreeMap::new(),
            supers: c.extends.iter().chain(&c.implements).cloned().collect(),
            super_ids: Vec::new(),
            fields,
            methods,
            type_params: c.type_params.clone(),
            program: c.name.name.clone(),
            span: c.name.span,
        });
        self.by_span.insert(c.name.span.start, id);
        for m in &c.members {
            if let Member::Class(inner) = m {
                let k = self.add(inner, file, package, &path, Some(id));
                self.classes[id]
                    .members
                    .entry(inner.name.name.clone())
                    .or_insert(k);
            }
        }
        id
    }

    /// The member class `name` of `c` or of one of its program supertypes.
    pub fn member_type(&self, c: usize, name: &str) -> Option<usize> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![c];
        while let Some(k) = todo.pop() {
            if !seen.insert(k) {
                continue;
            }
            if let Some(&m) = self.classes[k].members.get(name) {
                return Some(m);
            }
            todo.extend(self.classes[k].super_ids.iter().rev());
        }
        None
    }

    /// True when `c` or a program supertype of it has `pick(class)` containing `name`.
    pub fn has_member(
        &self,
        c: usize,
        name: &str,
        pick: fn(&ClassEntry) -> &BTreeSet<String>,
    ) -> bool {
        let mut seen = BTreeSet::new();
        let mut todo = vec![c];
        while let Some(k) = todo.pop() {
            if !seen.insert(k) {
                continue;
            }
            if pick(&self.classes[k]).contains(name) {
                return true;
            }
            todo.extend(self.classes[k].super_ids.iter());
        }
        false
    }

    /// The class that `segments` name, a package-qualified class followed by member
    /// classes (`a.b.Outer.Inner`).
    pub fn by_segments(&self, segments: &[String]) -> Option<usize> {
        for i in (1..=segments.len()).rev() {
            if let Some(&c) = self.by_qualified.get(&segments[..i].join(".")) {
                return self.members_along(c, &segments[i..]);
            }
        }
        None
    }

    /// From class `c`, the member classes named by `rest` in turn.
    pub fn members_along(&self, c: usize, rest: &[String]) -> Option<usize> {
        rest.iter()
            .try_fold(c, |at, name| self.member_type(at, name))
    }

    /// A library class named `segments` (qualified or not): the default-package class
    /// that stands for it, if there is one, else [`Resolved::Library`] (and its simple
    /// name is remembered, so that no program class is known by it).
    pub fn library(&mut self, segments: &[String]) -> Resolved {
        if let Some(c) = self.stand_in(segments) {
            return Resolved::Class(c);
        }
        if let Some(last) = segments.last() {
            self.library_names.insert(last.clone());
        }
        Resolved::Library
    }

    /// A simple type name `name` seen from file `file` inside the classes `chain`
    /// (outermost first) with type variables and local classes `hidden`, in javac's
    /// order: enclosing classes and their member classes (inherited ones too), the
    /// file's classes and single-type imports, its package, on-demand imports and
    /// `java.lang`.
    pub fn simple(
        &mut self,
        name: &str,
        file: usize,
        chain: &[usize],
        hidden: &dyn Fn(&str) -> bool,
    ) -> Resolved {
        if hidden(name) {
            return Resolved::Keep;
        }
        if self.files[file].generated {
            if let Some(&c) = self.by_program.get(name) {
                return Resolved::Class(c);
            }
        }
        for &c in chain.iter().rev() {
            if self.classes[c].simple == name {
                return Resolved::Class(c);
            }
            if let Some(m) = self.member_type(c, name) {
                return Resolved::Class(m);
            }
        }
        let scope = &self.files[file];
        if let Some(&c) = scope.top.get(name) {
            return Resolved::Class(c);
        }
        if let Some((_, full)) = scope.single.iter().find(|(s, _)| s == name) {
            let full = full.clone();
            return match self.by_segments(&full) {
                Some(c) => Resolved::Class(c),
                None => self.library(&full),
            };
        }
        for (member, class) in &scope.static_single {
            if member == name {
                if let Some(m) = self
                    .by_segments(class)
                    .and_then(|c| self.member_type(c, name))
                {
                    return Resolved::Class(m);
                }
            }
        }
        if let Some(&c) = self
            .by_package
            .get(&scope.package.join("."))
            .and_then(|m| m.get(name))
        {
            return Resolved::Class(c);
        }
        let mut library_package = false;
        for p in scope.on_demand.iter().chain(&scope.static_on_demand) {
            if let Some(&c) = self.by_package.get(&p.join(".")).and_then(|m| m.get(name)) {
                return Resolved::Class(c);
            }
            match self.by_segments(p) {
                Some(owner) => {
                    if let Some(m) = self.member_type(owner, name) {
                        return Resolved::Class(m);
                    }
                }
                None => library_package |= !self.by_package.contains_key(&p.join(".")),
            }
        }
        if JAVA_LANG.contains(&name) || library_package {
            return self.library(&[name.to_owned()]);
        }
        // Not visible by Java's rules (code that relies on a flat namespace, or a
        // member inherited from outside the program): the one class of that name.
        match self.by_simple.get(name).map(Vec::as_slice) {
            Some([c]) => Resolved::Class(*c),
            _ => self.library(&[name.to_owned()]),
        }
    }

    /// The default-package class that stands for the library class `segments`: the one
    /// whose path is the class part of the name (from its first capitalised segment, by
    /// Java's naming convention: `PowerManager.WakeLock` of
    /// `android.os.PowerManager.WakeLock`).
    pub fn stand_in(&self, segments: &[String]) -> Option<usize> {
        let class_part = segments
            .iter()
            .position(|s| s.starts_with(|c: char| c.is_ascii_uppercase()))
            .unwrap_or(segments.len().saturating_sub(1));
        self.stand_ins.get(&segments[class_part..]).copied()
    }

    /// A possibly qualified type name: the first segment as a simple name (a class in
    /// scope), else the segments as a package-qualified name.
    pub fn qualified(
        &mut self,
        segments: &[String],
        file: usize,
        chain: &[usize],
        hidden: &dyn Fn(&str) -> bool,
    ) -> Resolved {
        let Some((first, rest)) = segments.split_first() else {
            return Resolved::Keep;
        };
        if rest.is_empty() {
            return self.simple(first, file, chain, hidden);
        }
        if hidden(first) {
            return Resolved::Keep;
        }
        let scoped = self.in_scope(first, file, chain);
        if let Some(c) = scoped {
            return match self.members_along(c, rest) {
                Some(m) => Resolved::Class(m),
                None => self.library(segments),
            };
        }
        match self.by_segments(segments) {
            Some(c) => Resolved::Class(c),
            None => self.library(segments),
        }
    }

    /// The program class a simple name denotes by Java's scoping rules alone (no
    /// fallback to a class elsewhere, no library).
    pub fn in_scope(&self, name: &str, file: usize, chain: &[usize]) -> Option<usize> {
        for &c in chain.iter().rev() {
            if self.classes[c].simple == name {
                return Some(c);
            }
            if let Some(m) = self.member_type(c, name) {
                return Some(m);
            }
        }
        let scope = &self.files[file];
        if scope.generated {
            if let Some(&c) = self.by_program.get(name) {
                return Some(c);
            }
        }
        if let Some(&c) = scope.top.get(name) {
            return Some(c);
        }
        if let Some((_, full)) = scope.single.iter().find(|(s, _)| s == name) {
            return self.by_segments(full).or_else(|| self.stand_in(full));
        }
        if let Some(&c) = self
            .by_package
            .get(&scope.package.join("."))
            .and_then(|m| m.get(name))
        {
            return Some(c);
        }
        scope.on_demand.iter().find_map(|p| {
            self.by_package
                .get(&p.join("."))
                .and_then(|m| m.get(name))
                .copied()
                .or_else(|| self.by_segments(p).and_then(|o| self.member_type(o, name)))
        })
    }

    /// Resolve every class's supertypes (outer classes first, so that a supertype named
    /// through an outer class's inherited member is found).
    pub fn resolve_supers(&mut self) {
        // A supertype named through another class's inherited member class is found once
        // that class's supertypes are: repeat until nothing changes.
        for _ in 0..8 {
            let before: Vec<Vec<usize>> =
                self.classes.iter().map(|c| c.super_ids.clone()).collect();
            self.resolve_supers_once();
            if self.classes.iter().map(|c| &c.super_ids).eq(before.iter()) {
                break;
            }
        }
    }

    fn resolve_supers_once(&mut self) {
        for id in 0..self.classes.len() {
            let chain = self.outer_chain(id);
            let file = self.classes[id].file;
            let tvars = self.classes[id].type_params.clone();
            let supers = self.classes[id].supers.clone();
            let mut ids = Vec::new();
            for s in &supers {
                if let TypeKind::Named {
                    name, qualifier, ..
                } = &s.kind
                {
                    let mut segs = qualifier.clone();
                    segs.push(name.clone());
                    let hidden = |n: &str| tvars.iter().any(|t| t == n);
                    if let Resolved::Class(c) = self.qualified(&segs, file, &chain, &hidden) {
                        if c != id {
                            ids.push(c);
                        }
                    }
                }
            }
            self.classes[id].super_ids = ids;
        }
    }

    /// The classes enclosing `id`, outermost first (not `id` itself).
    pub fn outer_chain(&self, id: usize) -> Vec<usize> {
        let mut chain = Vec::new();
        let mut at = self.classes[id].outer;
        while let Some(c) = at {
            chain.push(c);
            at = self.classes[c].outer;
        }
        chain.reverse();
        chain
    }
}
