//! Protocol objects handed to code the program does not contain. A call of library code
//! (or of a helper class of the project that is not among the files) that receives an
//! object of a protocol class may call the protocol's methods on it there: the model
//! does not know. Such a call is an approximated construct ([`Stmt::Approx`]): a
//! counterexample through it is a *possible* violation that names the call, so that
//! `wl.acquire(); try { … } finally { Helper.release(wl); }` with `Helper` in another
//! file does not end as a violation.
//!
//! Well-known JDK classes that only store, compare or print what they receive
//! (collections, `Objects`, `String`, `System.out`, …) are not such code.

use super::MethodLowerer;
use crate::classes::Type;
use crate::ir::{Expr, Stmt};
use cfp_syntax::ast;
use cfp_syntax::Diagnostic;
use cfp_syntax::Span;

/// JDK (and Android) classes whose methods never call methods of the objects they receive
/// other than `equals`, `hashCode`, `toString` and `compareTo`.
pub(super) const INERT_CLASSES: &[&str] = &[
    "ArrayDeque",
    "ArrayList",
    "Arrays",
    "AtomicReference",
    "Collection",
    "Collections",
    "ConcurrentHashMap",
    "ConcurrentLinkedQueue",
    "CopyOnWriteArrayList",
    "Deque",
    "EnumMap",
    "HashMap",
    "HashSet",
    "Hashtable",
    "IdentityHashMap",
    "Iterator",
    "LinkedHashMap",
    "LinkedHashSet",
    "LinkedList",
    "List",
    "ListIterator",
    "Log",
    "Map",
    "Math",
    "Objects",
    "Optional",
    "PrintStream",
    "PrintWriter",
    "Queue",
    "Set",
    "SoftReference",
    "SparseArray",
    "Stack",
    "String",
    "StringBuffer",
    "StringBuilder",
    "System",
    "ThreadLocal",
    "TreeMap",
    "TreeSet",
    "Vector",
    "WeakHashMap",
    "WeakReference",
];

/// The call being lowered, as [`MethodLowerer::protocol_handoff`] names it.
#[derive(Clone, Debug, Default)]
pub(super) struct CallSite {
    /// `Helper.release`, `helper.release`, `….release`, `new Helper`.
    pub name: String,
    /// The simple name of the receiver's class (or the class of a static call), when known.
    pub class: Option<String>,
}

impl CallSite {
    /// The call `target.name(…)` as written.
    pub(super) fn of(target: Option<&ast::Expr>, name: &str) -> CallSite {
        let prefix = target.map(|t| path_text(t).unwrap_or_else(|| "…".to_owned()));
        CallSite {
            name: match prefix {
                Some(p) => format!("{p}.{name}"),
                None => name.to_owned(),
            },
            class: None,
        }
    }
}

/// `a.b.c` for a chain of names, `this.f`, …
fn path_text(e: &ast::Expr) -> Option<String> {
    match &e.kind {
        ast::ExprKind::Name(id) => Some(id.name.clone()),
        ast::ExprKind::This => Some("this".to_owned()),
        ast::ExprKind::Field { target, name } => {
            Some(format!("{}.{}", path_text(target)?, name.name))
        }
        _ => None,
    }
}

impl MethodLowerer<'_, '_> {
    /// Before a call of code outside the program with the arguments `args` (of static
    /// types `tys`): when one of them is an object of a protocol class, the call is an
    /// approximated construct ([`Stmt::Approx`]), unless the code is known not to use it.
    pub(super) fn protocol_handoff(&mut self, _args: &[Expr], tys: &[Type], span: Span) {
        let site = self.call_site.clone().unwrap_or_default();
        if site
            .class
            .as_deref()
            .is_some_and(|c| INERT_CLASSES.contains(&c))
        {
            return;
        }
        let Some(protocol) = tys.iter().find_map(|t| self.protocol_class(t)) else {
            return;
        };
        let callee = if site.name.is_empty() {
            "a call of code outside the program".to_owned()
        } else {
            format!("`{}`", site.name)
        };
        let owner = site
            .class
            .clone()
            .or_else(|| site.name.rsplit_once('.').map(|(c, _)| c.to_owned()))
            .filter(|c| c != "…");
        let settle = match owner {
            Some(c) => format!("`{c}`'s source file, or a model of it (`--models`)"),
            None => "the callee's source file, or a model of it (`--models`)".to_owned(),
        };
        let message = format!(
            "{callee} receives a {protocol} and its code is not in the program, so it may \
             call the protocol's methods on it; {settle} would settle this"
        );
        let k = self.cx.approx_site(Diagnostic::warning(
            "protocol-object-escapes",
            span,
            message,
        ));
        self.emit(Stmt::Approx(k), span);
    }

    /// The protocol class `t` names, if it names one (a spec wildcard's class).
    fn protocol_class(&self, t: &Type) -> Option<String> {
        let name = match t {
            Type::External(n) => n.clone(),
            Type::Class(c) => self.cx.table.class_name(*c).to_owned(),
            _ => return None,
        };
        self.cx
            .api
            .wildcard_types
            .values()
            .any(|w| w.rsplit('.').next() == Some(name.as_str()) || *w == name)
            .then_some(name)
    }
}
