//! Program instrumentation, the paper's §4 and Fig. 10 (rule API).
//!
//! Every [`Edge::ApiCall`] `x.m(a1, …, an)` with candidate terminals `t1 … tk` becomes
//!
//! ```text
//! if (g1) t1 else if (g2) t2 … else if (gk) tk else skip
//! ```
//!
//! where `gi` is the conjunction of `x == $r` for the receiver wildcard `$r` of `ti` and
//! `aj == $l` for each argument position `j` of `ti` that is a wildcard `$l` (`_` adds
//! nothing). As CFA edges: `assume gi` followed by an [`Edge::Api`] edge into the original
//! target, and `assume !gi` towards the next test; the last `assume !gk` goes to the target
//! directly. The wildcard globals themselves (rule Class) were created by the lowering,
//! unconstrained at the root's entry and assumed non-null there. A boolean argument can
//! never equal an object, so its conjunct is `false`.

use crate::ir::{CfaBuilder, Edge, Expr, Located, MethodCfa, Program, Sort, Stmt};
use cfp_syntax::ast::BinaryOp;
use cfp_syntax::spec_ast::TermArg;
use cfp_syntax::Span;

/// The instrumented copy of `program` (API calls replaced by guarded terminals).
pub fn instrument(program: &Program) -> Program {
    let mut out = program.clone();
    out.methods = program
        .methods
        .iter()
        .map(|m| instrument_method(program, m))
        .collect();
    out.instrumented = true;
    out
}

fn assume(e: Expr, span: Span) -> Edge {
    Edge::Block(vec![Located {
        node: Stmt::Assume(e),
        span,
    }])
}

fn instrument_method(program: &Program, m: &MethodCfa) -> MethodCfa {
    let mut b = CfaBuilder {
        nodes: m.graph.node_count(),
        ..CfaBuilder::default()
    };
    for (from, to, edge) in m.edges() {
        let (from, to) = (from.index(), to.index());
        let Edge::ApiCall {
            receiver,
            args,
            terminals,
            span,
            ..
        } = edge
        else {
            b.edge(from, to, edge.clone());
            continue;
        };
        let mut cur = from;
        for (i, &t) in terminals.iter().enumerate() {
            let Some(term) = program.terminals.get(t.index()) else {
                continue;
            };
            let guard = guard(program, m, receiver, args, term.receiver, &term.args);
            let hit = b.node();
            b.edge(cur, hit, assume(guard.clone(), *span));
            b.edge(
                hit,
                to,
                Edge::Api {
                    terminal: t,
                    span: *span,
                },
            );
            let next = if i + 1 == terminals.len() {
                to
            } else {
                b.node()
            };
            b.edge(cur, next, assume(guard.negate(), *span));
            cur = next;
        }
        if cur != to {
            b.edge(cur, to, Edge::Block(Vec::new()));
        }
    }
    let f = b.finish(
        m.entry.index(),
        m.exit.index(),
        m.throw_exit.map(|t| t.index()),
    );
    MethodCfa {
        graph: f.graph,
        entry: f.entry,
        exit: f.exit,
        throw_exit: f.throw_exit,
        ..m.clone()
    }
}

fn guard(
    program: &Program,
    m: &MethodCfa,
    receiver: &Expr,
    args: &[Expr],
    recv_wildcard: u32,
    targs: &[TermArg],
) -> Expr {
    let mut parts = Vec::new();
    let eq = |e: &Expr, k: u32| match program.wildcard_global(k) {
        Some(g) if program.expr_sort(m, e) != Sort::Bool => {
            Expr::binary(BinaryOp::Eq, e.clone(), Expr::Global(g))
        }
        _ => Expr::Bool(false),
    };
    parts.push(eq(receiver, recv_wildcard));
    for (a, ta) in args.iter().zip(targs) {
        if let TermArg::Wildcard(k) = ta {
            parts.push(eq(a, *k));
        }
    }
    Expr::and_all(parts)
}

#[cfg(test)]
mod tests {
    use super::instrument;
    use crate::ir::Edge;
    use crate::render_text;
    use crate::testutil::lower_ok;

    const MAP_SPEC: &str = "wildcard $1 : Map;\nwildcard $2 : Key;\n\
        S -> $1.put($2, _) S | $1.put(_, $2) S | $1.get($2) S | $1.clear() S | ε;\n";
    const MAP_PROGRAM: &str = r#"import java.util.*;
class Main {
  public static void main(String[] a) {
    Map m = new HashMap();
    Key k = new Key();
    m.put(k, k);
    m.get(k);
    m.put(k, true);
    m.clear();
    m.size();
  }
}
"#;

    #[test]
    fn each_api_call_becomes_an_else_if_chain_over_its_terminals() {
        let lowered = lower_ok(MAP_PROGRAM, MAP_SPEC);
        let p = instrument(&lowered);
        assert!(p.instrumented);
        let main = &p.methods[p.entry.index()];
        let api_calls_before: usize = lowered.methods[p.entry.index()]
            .edges()
            .map(|(_, _, e)| match e {
                Edge::ApiCall { terminals, .. } => terminals.len(),
                _ => 0,
            })
            .sum();
        // put: 2 terminals (twice), get: 1, clear: 1; size() is no API call.
        assert_eq!(api_calls_before, 6);
        let emits: Vec<String> = main
            .edges()
            .filter_map(|(_, _, e)| match e {
                Edge::Api { terminal, .. } => Some(p.terminals[terminal.index()].to_string()),
                Edge::ApiCall { .. } => panic!("ApiCall left after instrumentation"),
                _ => None,
            })
            .collect();
        assert_eq!(emits.len(), 6, "{emits:?}");
        let text = render_text(&p, MAP_PROGRAM);
        // Guards of the paper's Fig. 10: receiver and wildcard arguments, `_` adds nothing.
        assert!(text.contains("assume m == $1 && k == $2"), "{text}");
        assert!(text.contains("assume !(m == $1 && k == $2)"), "{text}");
        // A boolean can never be the object `$2`.
        assert!(text.contains("assume m == $1 && false"), "{text}");
        assert!(text.contains("assume m == $1\n"), "{text}");
        insta::assert_snapshot!(text);
    }

    #[test]
    fn instrumentation_without_api_calls_changes_nothing_but_the_flag() {
        let src = "class Main {\n  public static void main(String[] a) {\n    int x = 1;\n    while (x < 3) x++;\n  }\n}\n";
        let spec = "wildcard $1 : Lock;\nS -> $1.lock() S | ε;\n";
        let p = lower_ok(src, spec);
        let i = instrument(&p);
        let before = render_text(&p, src).replacen("program (lowered)", "", 1);
        let after = render_text(&i, src).replacen("program (instrumented)", "", 1);
        assert_eq!(before, after);
    }
}
