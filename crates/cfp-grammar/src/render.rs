//! Deterministic renderings of grammars and derivation trees: Graphviz DOT and an
//! indented text form (`S -> $1.lock() S $1.unlock() S`, one line per node). Trees are
//! walked with explicit stacks, so deep derivations are fine. Ids that are out of range
//! for the grammar render as `?p17`, `?N3`, `?t2` instead of panicking.

use crate::cfg::{Derivation, DerivationChild, Grammar, NontermId, ProdId, Sym, TermId};
use std::fmt::Write;

fn nt_name(g: &Grammar, n: NontermId) -> String {
    g.nonterminals
        .get(n.index())
        .cloned()
        .unwrap_or_else(|| format!("?N{}", n.0))
}

fn t_name(g: &Grammar, t: TermId) -> String {
    g.terminals
        .get(t.index())
        .cloned()
        .unwrap_or_else(|| format!("?t{}", t.0))
}

fn sym_name(g: &Grammar, s: &Sym) -> String {
    match s {
        Sym::T(t) => t_name(g, *t),
        Sym::N(n) => nt_name(g, *n),
    }
}

/// `A -> x y` (or `A -> ε`) for a production id.
pub fn production_text(g: &Grammar, p: ProdId) -> String {
    match g.productions.get(p.index()) {
        None => format!("?p{}", p.0),
        Some(prod) => {
            let rhs: Vec<String> = prod.rhs.iter().map(|s| sym_name(g, s)).collect();
            let rhs = if rhs.is_empty() {
                "ε".to_string()
            } else {
                rhs.join(" ")
            };
            format!("{} -> {}", nt_name(g, prod.lhs), rhs)
        }
    }
}

/// Escape a string for a double-quoted DOT identifier.
fn dot_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            _ => out.push(c),
        }
    }
    out
}

/// An indented text rendering of a derivation: one line per node, the production it
/// applies, two spaces of indentation per level, children in order (pre-order).
pub fn derivation_text(g: &Grammar, d: &Derivation) -> String {
    let mut out = String::new();
    let mut stack: Vec<(&Derivation, usize)> = vec![(d, 0)];
    while let Some((node, depth)) = stack.pop() {
        let _ = writeln!(
            out,
            "{}{}",
            "  ".repeat(depth),
            production_text(g, node.production)
        );
        for c in node.children.iter().rev() {
            if let DerivationChild::Node(sub) = c {
                stack.push((sub, depth + 1));
            }
        }
    }
    out
}

/// A derivation as a DOT tree: nonterminal nodes (boxes, numbered in pre-order), terminal
/// leaves (plain text), and an `ε` leaf under empty productions.
pub fn derivation_dot(g: &Grammar, d: &Derivation) -> String {
    let mut out = String::from("digraph derivation {\n  node [fontname=\"monospace\"];\n");
    let mut next = 0usize;
    // (node, id of its DOT node)
    let mut stack: Vec<(&Derivation, usize)> = vec![(d, 0)];
    next += 1;
    while let Some((node, id)) = stack.pop() {
        let label = match g.productions.get(node.production.index()) {
            Some(p) => nt_name(g, p.lhs),
            None => format!("?p{}", node.production.0),
        };
        let _ = writeln!(
            out,
            "  n{id} [shape=box, label=\"{}\"];",
            dot_escape(&label)
        );
        if node.children.is_empty() {
            let leaf = next;
            next += 1;
            let _ = writeln!(out, "  n{leaf} [shape=plaintext, label=\"ε\"];");
            let _ = writeln!(out, "  n{id} -> n{leaf};");
        }
        let mut subs = Vec::new();
        for c in &node.children {
            let child = next;
            next += 1;
            match c {
                DerivationChild::Terminal(t) => {
                    let _ = writeln!(
                        out,
                        "  n{child} [shape=plaintext, label=\"{}\"];",
                        dot_escape(&t_name(g, *t))
                    );
                }
                DerivationChild::Node(sub) => subs.push((sub, child)),
            }
            let _ = writeln!(out, "  n{id} -> n{child};");
        }
        for s in subs.into_iter().rev() {
            stack.push(s);
        }
    }
    out.push_str("}\n");
    out
}

/// A grammar as a DOT graph: one node per nonterminal (the start drawn double), one edge
/// per nonterminal occurrence on a right-hand side, labelled `p<production index>`.
pub fn grammar_dot(g: &Grammar) -> String {
    let mut out = String::from("digraph grammar {\n  node [fontname=\"monospace\"];\n");
    for (i, name) in g.nonterminals.iter().enumerate() {
        let shape = if i == g.start.index() {
            "doublecircle"
        } else {
            "circle"
        };
        let _ = writeln!(
            out,
            "  N{i} [shape={shape}, label=\"{}\"];",
            dot_escape(name)
        );
    }
    for (i, p) in g.productions.iter().enumerate() {
        for s in &p.rhs {
            if let Sym::N(b) = s {
                let _ = writeln!(
                    out,
                    "  N{} -> N{} [label=\"p{i}\", tooltip=\"{}\"];",
                    p.lhs.0,
                    b.0,
                    dot_escape(&production_text(g, ProdId(i as u32)))
                );
            }
        }
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean::tests::g;
    use crate::earley::{parse, word_of_names};

    #[test]
    fn dyck_derivation_renderings() {
        let gr = g("S -> $1.lock() S $1.unlock() S | ε;");
        let (l, u) = ("$1.lock()", "$1.unlock()");
        let word = word_of_names(&gr, &[l, l, u, u, l, u]).expect("names");
        let d = parse(&gr, &word).expect("in Dyck");
        insta::assert_snapshot!("dyck_derivation_text", derivation_text(&gr, &d));
        insta::assert_snapshot!("dyck_derivation_dot", derivation_dot(&gr, &d));
        insta::assert_snapshot!("dyck_grammar_dot", grammar_dot(&gr));
    }

    #[test]
    fn bad_ids_do_not_panic() {
        let gr = g("S -> $1.a();");
        let d = Derivation {
            production: ProdId(9),
            children: vec![DerivationChild::Terminal(TermId(5))],
        };
        assert_eq!(derivation_text(&gr, &d), "?p9\n");
        assert!(derivation_dot(&gr, &d).contains("?t5"));
    }
}
