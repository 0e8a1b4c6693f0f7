//! Building the class table: classes flattened with their outer classes, supertypes
//! resolved (cycles broken), members declared, initialisers linked, methods named and the
//! program's class definitions made.

use super::*;

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
            supertype_cache: Vec::new(),
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
        t.supertype_cache = t.classes.iter().map(|_| Default::default()).collect();
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
}

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
