//! What the lowering of one method needs to know about the whole program, found by a
//! first, survey lowering of every method ([`Survey`]) and settled before the final one
//! ([`Facts`]):
//! * which methods may end by throwing (a call of one is followed by a test of `%exc`);
//! * which methods run where an exception the JVM throws by itself (a null dereference,
//!   a division by zero, a bad index, a failed cast) could be caught — there, those
//!   operations throw; elsewhere such an exception could only end the execution, which
//!   then produces no word, so the operation is simply assumed to succeed;
//! * the codes of the runtime types ([`TypeUniverse`]), when anything tests a type;
//! * which classes can be initialised eagerly, at the start, without any observable
//!   difference from the JVM's lazy initialisation ([`super::eager`]).

use super::types::TypeUniverse;
use crate::classes::ClassTable;
use crate::ir::MethodId;
use std::collections::BTreeSet;

/// What the survey lowering of one method found.
#[derive(Clone, Debug, Default)]
pub(super) struct MethodSurvey {
    /// It throws by itself: a `throw`, a failing `assert`, a library call that may throw.
    pub raises: bool,
    /// It has operations that throw by themselves when their exception could be caught.
    pub implicit: bool,
    /// Its calls: callee, and whether the call is inside a `try` of this method whose
    /// catch clauses may catch the JVM's own exceptions.
    pub calls: Vec<(MethodId, bool)>,
    /// The types outside the program that the catch clauses around each call of it
    /// (in this method) name, by callee.
    pub call_catches: Vec<(MethodId, BTreeSet<String>)>,
    /// It calls library code that may throw (`--library-throws` is not `none`).
    pub library_calls: bool,
}

/// What the survey lowering of the program found.
#[derive(Clone, Debug, Default)]
pub(super) struct Survey {
    /// Per method id.
    pub methods: Vec<MethodSurvey>,
    /// Classes outside the program that are allocated or named by a type test.
    pub outside: BTreeSet<String>,
    /// Something tests a runtime type (dispatch among several implementations, a catch
    /// clause, `instanceof`, a cast to a class of the program).
    pub needs_types: bool,
    /// Something throws or catches.
    pub needs_exceptions: bool,
    /// Targets found for closures passed to methods of the program (by closure number).
    pub closure_targets: std::collections::BTreeMap<usize, cfp_syntax::ast::TypeRef>,
    /// A closure is handed to library code somewhere (it may call it back later).
    pub escapes: bool,
    /// The classes of the program whose objects may be handed to library code.
    pub escaping: BTreeSet<crate::ir::ClassId>,
    /// Some code reads the length of an array.
    pub needs_lengths: bool,
    /// The methods that may create objects of any class of the program reflectively:
    /// they call a JDK loader of classes by name ([`loads_a_class`]) with a name that is
    /// not a constant.
    pub reflective: BTreeSet<crate::ir::MethodId>,
    /// Classes of the program named by a class literal (`Foo.class`) or a constant
    /// class name: library code given one may create its objects (an injector, a service
    /// loader, `newInstance`).
    pub class_literals: BTreeSet<String>,
    /// Names of instance code that are fields inherited from a superclass outside the
    /// program, read as references.
    pub inherited_reads: BTreeSet<String>,
    /// Such names that some code assigns.
    pub inherited_writes: BTreeSet<String>,
    /// The values handed to library code.
    pub handed: super::handed::HandedSurvey,
}

/// Whether a call `target.name(…)` may load a class by its name, whose objects library
/// code may then create: `Class.forName`, and `loadClass`/`findClass` of a class loader.
pub(super) fn loads_a_class(target: Option<&cfp_syntax::ast::Expr>, name: &str) -> bool {
    use cfp_syntax::ast::ExprKind;
    match name {
        "loadClass" | "findClass" => true,
        "forName" => match target.map(|t| &t.kind) {
            Some(ExprKind::Name(n)) => n.name == "Class",
            Some(ExprKind::Field { name: n, .. }) => n.name == "Class",
            _ => false,
        },
        _ => false,
    }
}

/// The settled program-wide facts of the final lowering.
#[derive(Clone, Debug)]
pub(super) struct Facts {
    /// Per method id: it may end by throwing.
    pub may_throw: Vec<bool>,
    /// Per method id: an exception the JVM throws by itself in it could be caught.
    pub guarded: Vec<bool>,
    /// Per method id: the types outside the program that a catch clause of one of its
    /// callers (transitively) names — what library code it calls may throw to them.
    pub caught_by_callers: Vec<BTreeSet<String>>,
    /// The runtime type codes, when something tests a type.
    pub types: Option<TypeUniverse>,
    /// `%exc` exists.
    pub exceptions: bool,
    /// `%escaped` exists: closures handed to library code are called back at the end.
    pub escapes: bool,
    /// The classes of the program whose objects may be handed to library code.
    pub escaping: BTreeSet<crate::ir::ClassId>,
    /// `%length` exists: arrays' lengths are tracked.
    pub lengths: bool,
    /// Fields inherited from a superclass outside the program that the program reads
    /// (as references) and never assigns: each is a field of its own, so that two reads
    /// of one object's field agree.
    pub inherited_fields: Vec<String>,
    /// The classes of the program whose objects library code may hand back.
    pub handed: super::handed::Handed,
}

impl Facts {
    /// Settle the facts of `survey`.
    pub fn settle(table: &ClassTable<'_>, survey: &Survey) -> Facts {
        let n = survey.methods.len();
        // Guarded: called (transitively) from a call site inside a try that may catch
        // the JVM's own exceptions.
        let mut guarded = vec![false; n];
        let mut stack: Vec<usize> = Vec::new();
        for m in &survey.methods {
            for (callee, inside) in &m.calls {
                if *inside && callee.index() < n && !guarded[callee.index()] {
                    guarded[callee.index()] = true;
                    stack.push(callee.index());
                }
            }
        }
        while let Some(m) = stack.pop() {
            for (callee, _) in &survey.methods[m].calls {
                if callee.index() < n && !guarded[callee.index()] {
                    guarded[callee.index()] = true;
                    stack.push(callee.index());
                }
            }
        }
        let caught_by_callers = caught_by_callers(survey);
        // May throw: raises by itself, throws implicitly where guarded, calls library code
        // whose exception a caller catches, or calls a method that may throw (a fixpoint
        // over the callers).
        let mut may_throw: Vec<bool> = survey
            .methods
            .iter()
            .enumerate()
            .map(|(i, m)| {
                m.raises
                    || (m.implicit && guarded[i])
                    || (m.library_calls && !caught_by_callers[i].is_empty())
            })
            .collect();
        let mut changed = true;
        while changed {
            changed = false;
            for i in 0..n {
                if may_throw[i] {
                    continue;
                }
                if survey.methods[i]
                    .calls
                    .iter()
                    .any(|(c, _)| may_throw.get(c.index()).copied().unwrap_or(false))
                {
                    may_throw[i] = true;
                    changed = true;
                }
            }
        }
        let exceptions = survey.needs_exceptions || may_throw.iter().any(|b| *b);
        let types = (survey.needs_types || exceptions || survey.escapes)
            .then(|| TypeUniverse::new(table, &survey.outside));
        Facts {
            may_throw,
            guarded,
            caught_by_callers,
            types,
            exceptions,
            escapes: survey.escapes,
            escaping: survey.escaping.clone(),
            lengths: survey.needs_lengths,
            inherited_fields: survey
                .inherited_reads
                .difference(&survey.inherited_writes)
                .cloned()
                .collect(),
            handed: super::handed::Handed::settle(table, survey),
        }
    }
}

/// Per method: the outside types named by the catch clauses around its calls in its
/// callers, and transitively in theirs (a fixpoint over the call graph).
fn caught_by_callers(survey: &Survey) -> Vec<BTreeSet<String>> {
    let n = survey.methods.len();
    let mut out: Vec<BTreeSet<String>> = vec![BTreeSet::new(); n];
    let mut changed = true;
    while changed {
        changed = false;
        for (caller, m) in survey.methods.iter().enumerate() {
            // What the caller's callers catch reaches every method it calls; what a
            // `try` around one call catches, that callee.
            let around = m.calls.iter().map(|(callee, _)| (callee, None));
            let local = m.call_catches.iter().map(|(callee, t)| (callee, Some(t)));
            for (callee, types) in around.chain(local) {
                let c = callee.index();
                if c >= n {
                    continue;
                }
                let inherited: Vec<String> = out[caller]
                    .iter()
                    .chain(types.into_iter().flatten())
                    .filter(|t| !out[c].contains(*t))
                    .cloned()
                    .collect();
                if !inherited.is_empty() {
                    out[c].extend(inherited);
                    changed = true;
                }
            }
        }
    }
    out
}
