//! Which objects of the program library code may hold, and so hand back: the classes of
//! the values the program passes to library code (arguments, receivers of inherited
//! methods, results of the methods library code calls back, arguments of the protocol's
//! calls), of the classes library code creates (named by a class literal or loaded by
//! name) and of the classes that extend one of the library (library code holds `this`).
//!
//! What library code returns has a type the checker cannot see; in a closed world it is
//! an object of the library or one of these (every object of the program is created by
//! the run, and reaches library code only through these ways). A call on it dispatches
//! to the program's methods of these classes only ([`Handed::classes`]).

use super::*;
use std::collections::BTreeSet;

/// What the survey records of the values handed to library code.
#[derive(Clone, Debug, Default)]
pub(super) struct HandedSurvey {
    /// Classes of the program whose objects are handed over (with their subclasses).
    pub classes: BTreeSet<ClassId>,
    /// A value of a type that may hold an object of any class (`Object`, a type
    /// variable) is handed over, or a reference is stored into a field declared outside
    /// the program.
    pub any: bool,
    /// The world is open: objects of the program may exist before the run.
    pub open_world: bool,
}

/// The classes of the program whose objects library code may hand back.
#[derive(Debug, Clone)]
pub(super) struct Handed {
    /// `None`: any class.
    pub classes: Option<BTreeSet<ClassId>>,
}

impl Handed {
    /// Settle what the survey saw into the classes (closed under subclasses).
    pub fn settle(table: &ClassTable<'_>, survey: &super::facts::Survey) -> Handed {
        let h = &survey.handed;
        if h.any
            || h.open_world
            || !survey.reflective.is_empty()
            || !survey.inherited_writes.is_empty()
        {
            return Handed { classes: None };
        }
        let mut roots: Vec<ClassId> = h.classes.iter().copied().collect();
        for (i, info) in table.classes.iter().enumerate() {
            let c = ClassId(i as u32);
            let named = survey
                .class_literals
                .iter()
                .any(|n| cfp_syntax::resolve::names_class(n, &info.decl.name.name));
            if named || table.has_external_ancestor(c) {
                roots.push(c);
            }
        }
        let classes = (0..table.classes.len() as u32)
            .map(ClassId)
            .filter(|k| roots.iter().any(|r| table.is_subclass(*k, *r)))
            .collect();
        Handed {
            classes: Some(classes),
        }
    }
}

impl<'c, 'a> MethodLowerer<'c, 'a> {
    /// Library code receives values of static types `tys`.
    pub(super) fn note_handed(&mut self, tys: &[Type]) {
        for t in tys {
            self.note_handed_type(t);
        }
    }

    /// Library code receives what a method of the program named `name` with `arity`
    /// parameters returns.
    pub(super) fn note_handed_results_of(&mut self, name: &str, arity: usize) {
        let rets: Vec<Type> = self
            .cx
            .table
            .methods
            .iter()
            .filter(|m| m.name == name && m.params.len() == arity)
            .map(|m| m.ret.clone())
            .collect();
        self.note_handed(&rets);
    }

    fn note_handed_type(&mut self, t: &Type) {
        match t {
            Type::Class(c) => {
                self.cx.survey.handed.classes.insert(*c);
            }
            Type::External(n) if n == super::generics::OBJECT || self.cx.type_vars.contains(n) => {
                self.cx.survey.handed.any = true;
            }
            Type::External(n) => {
                let table = &self.cx.table;
                let below: Vec<ClassId> = (0..table.classes.len() as u32)
                    .map(ClassId)
                    .filter(|c| table.supertypes_of(*c).iter().any(|s| s == n))
                    .collect();
                self.cx.survey.handed.classes.extend(below);
            }
            Type::Array(e) => self.note_handed_type(e),
            // A value of unknown type came from library code, or is no object of the
            // program; primitives are no objects.
            Type::Unknown | Type::Null | Type::Int | Type::Bool | Type::Float | Type::Void => {}
        }
    }

    /// The code being lowered is the body of a lambda whose functional interface is
    /// unknown (an expression body is then a statement, whose value the lambda may
    /// return).
    pub(super) fn in_untargeted_lambda(&self) -> bool {
        self.class
            .and_then(|c| self.cx.closure(c))
            .is_some_and(|k| k.kind == cfp_syntax::ast::ClosureKind::Lambda && k.target.is_none())
    }

    /// The classes whose methods a call on a value returned by library code may run:
    /// `None` for any (in the survey, or when the program may hand any object over).
    pub(super) fn handed_classes(&self) -> Option<&BTreeSet<ClassId>> {
        self.cx.facts().and_then(|f| f.handed.classes.as_ref())
    }
}
