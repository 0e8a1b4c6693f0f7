//! What the root reaches: closures and errors in code no execution runs do not matter to
//! the check.

use crate::ir::{Edge, MethodCfa};
use cfp_syntax::{Diagnostic, Severity};

/// Which methods the root reaches through calls.
pub(crate) fn reachable_methods(methods: &[MethodCfa]) -> Vec<bool> {
    let mut reachable = vec![false; methods.len()];
    let mut stack = vec![0usize]; // the root
    while let Some(m) = stack.pop() {
        if m >= methods.len() || reachable[m] {
            continue;
        }
        reachable[m] = true;
        for (_, _, e) in methods[m].edges() {
            if let Edge::Call { callee, .. } = e {
                stack.push(callee.index());
            }
        }
    }
    reachable
}

/// True when `d` lies inside methods of `methods` and the root reaches none of them.
fn only_in_unreached(d: &Diagnostic, methods: &[MethodCfa], reachable: &[bool]) -> bool {
    let inside = |m: &MethodCfa| {
        !m.span.is_empty() && m.span.start <= d.span.start && d.span.end <= m.span.end
    };
    let mut holders = methods.iter().filter(|m| inside(m)).peekable();
    holders.peek().is_some() && !holders.any(|m| reachable[m.id.index()])
}

/// The diagnostics (or approximations) without those of closures (`closure-not-run`)
/// inside methods no execution calls: code that never runs cannot matter. A closure
/// outside every method (a field initialiser) is kept, and so is every other kind.
pub(super) fn reachable_closures_only(
    approx: Vec<Diagnostic>,
    methods: &[MethodCfa],
    reachable: &[bool],
) -> Vec<Diagnostic> {
    approx
        .into_iter()
        .filter(|d| d.code != "closure-not-run" || !only_in_unreached(d, methods, reachable))
        .collect()
}

/// An error inside methods the root never reaches does not matter to the check (a
/// whole project's code it does not need): it becomes a warning that says so.
pub(super) fn unreached_errors_as_warnings(
    diags: Vec<Diagnostic>,
    methods: &[MethodCfa],
    reachable: &[bool],
) -> Vec<Diagnostic> {
    diags
        .into_iter()
        .map(|d| {
            if d.severity != Severity::Error || !only_in_unreached(&d, methods, reachable) {
                return d;
            }
            Diagnostic::warning(
                "not-reached",
                d.span,
                format!(
                    "{} (in code the check does not reach from its entry, so it is not \
                     checked)",
                    d.message
                ),
            )
        })
        .collect()
}
