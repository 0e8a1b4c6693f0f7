//! The structures events carry so that a host can draw them without parsing text
//! (ARCHITECTURE.md): the program grammar's productions, every method's PCFA with what the
//! last refinement did to it, and counterexample derivations as trees.
//!
//! Ids are the core's own: a PCFA state or edge id is [`crate::pcfa::StateId`] /
//! [`crate::pcfa::PcfaEdgeId`] (per method, never reused), so the states a refinement
//! cloned and the edges it removed are named exactly, across iterations.

use crate::ir::{MethodId, Program};
use crate::pcfa::{Pcfa, PcfaEdge, Pcfas, Truth};
use crate::render::Printer;
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// One production `lhs -> rhs` of a grammar (an empty `rhs` is `ε`).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Production {
    /// The nonterminal.
    pub lhs: String,
    /// Terminals and nonterminals, in order.
    pub rhs: Vec<String>,
}

impl Production {
    /// `A -> b C` (`A -> ε` for an empty right-hand side).
    pub fn text(&self) -> String {
        if self.rhs.is_empty() {
            format!("{} -> ε", self.lhs)
        } else {
            format!("{} -> {}", self.lhs, self.rhs.join(" "))
        }
    }

    /// The production `p` of `g`.
    pub fn of(g: &cfp_grammar::Grammar, p: &cfp_grammar::Production) -> Production {
        Production {
            lhs: g.nonterminal_name(p.lhs).to_string(),
            rhs: p
                .rhs
                .iter()
                .map(|s| match s {
                    cfp_grammar::Sym::T(t) => g.terminal_name(*t).to_string(),
                    cfp_grammar::Sym::N(n) => g.nonterminal_name(*n).to_string(),
                })
                .collect(),
        }
    }

    /// Parses [`Production::text`]'s rendering (`None` without ` -> `).
    pub fn parse(text: &str) -> Option<Production> {
        let (lhs, rhs) = text.trim().split_once(" -> ")?;
        let rhs = rhs.trim();
        Some(Production {
            lhs: lhs.trim().to_string(),
            rhs: if rhs == "ε" || rhs.is_empty() {
                Vec::new()
            } else {
                rhs.split_whitespace().map(str::to_string).collect()
            },
        })
    }
}

/// A derivation: the production applied at the root and the derivations of its
/// right-hand side's nonterminals, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DerivationNode {
    /// The production applied here.
    pub production: Production,
    /// One subtree per nonterminal of the right-hand side, left to right.
    pub children: Vec<DerivationNode>,
}

impl DerivationNode {
    /// Builds the tree of a derivation over `g`.
    pub fn of(g: &cfp_grammar::Grammar, d: &cfp_grammar::Derivation) -> DerivationNode {
        DerivationNode {
            production: Production::of(g, g.production(d.production)),
            children: d
                .children
                .iter()
                .filter_map(|c| match c {
                    cfp_grammar::DerivationChild::Node(sub) => Some(DerivationNode::of(g, sub)),
                    _ => None,
                })
                .collect(),
        }
    }

    /// The derivation as text: one production per line, two spaces of indentation per
    /// level (what `cfp check --json` prints as `derivation`).
    pub fn text(&self) -> String {
        let mut out = String::new();
        let mut stack = vec![(self, 0usize)];
        while let Some((n, depth)) = stack.pop() {
            out.push_str(&"  ".repeat(depth));
            out.push_str(&n.production.text());
            out.push('\n');
            for c in n.children.iter().rev() {
                stack.push((c, depth + 1));
            }
        }
        out
    }

    /// Reads [`DerivationNode::text`]'s rendering back (recordings made before events
    /// carried trees hold the text). Lines that are not productions are skipped; a text
    /// without any gives an empty node.
    pub fn from_text(text: &str) -> DerivationNode {
        fn insert(nodes: &mut Vec<DerivationNode>, depth: usize, node: DerivationNode) {
            match nodes.last_mut() {
                Some(last) if depth > 0 => insert(&mut last.children, depth - 1, node),
                _ => nodes.push(node),
            }
        }
        let mut roots = Vec::new();
        for line in text.lines() {
            let Some(production) = Production::parse(line) else {
                continue;
            };
            let indent = line.len() - line.trim_start().len();
            let node = DerivationNode {
                production,
                children: Vec::new(),
            };
            insert(&mut roots, indent / 2, node);
        }
        roots.into_iter().next().unwrap_or_default()
    }

    /// The number of nodes.
    pub fn size(&self) -> usize {
        1 + self
            .children
            .iter()
            .map(DerivationNode::size)
            .sum::<usize>()
    }
}

impl<'de> Deserialize<'de> for DerivationNode {
    /// A tree, or (recordings made before trees) the text rendering.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Tree {
            production: Production,
            #[serde(default)]
            children: Vec<DerivationNode>,
        }
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Either {
            Tree(Tree),
            Text(String),
        }
        Ok(match Either::deserialize(d)? {
            Either::Tree(t) => DerivationNode {
                production: t.production,
                children: t.children,
            },
            Either::Text(s) => DerivationNode::from_text(&s),
        })
    }
}

/// A state of a method's PCFA.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PcfaStateView {
    /// Its id (never reused in the method).
    pub id: u32,
    /// The CFA location.
    pub location: usize,
    /// Clone ordinal at the location (0: the first state there).
    pub clone: u32,
    /// The name in the grammar (`n3`, `n3#1`).
    pub name: String,
    /// The state's predicate literals (`(= l $1)`, `(not (= l $1))`), one per predicate of
    /// its location the state decides.
    pub predicates: Vec<String>,
}

/// An edge of a method's PCFA.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PcfaEdgeView {
    /// Its id (never reused in the method).
    pub id: u32,
    /// Source state id.
    pub from: u32,
    /// Target state id.
    pub to: u32,
    /// The statement it carries (`l1.lock()`, `assume l1 == $1`, `call Main.acquire`).
    pub statement: String,
    /// 1-based source line of the statement (0: none).
    pub line: u32,
}

/// One method's PCFA as ConstructCFG used it, and what the refinement before it changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PcfaView {
    /// The method (`Main.foo`).
    pub method: String,
    /// Live states, by id.
    pub states: Vec<PcfaStateView>,
    /// Live edges, by id.
    pub edges: Vec<PcfaEdgeView>,
    /// Entry state ids.
    pub entry: Vec<u32>,
    /// Exit state ids.
    pub exits: Vec<u32>,
    /// States created by the refinement before this iteration.
    #[serde(default)]
    pub cloned: Vec<u32>,
    /// Edges the refinement before this iteration removed (as they were; an edge can be
    /// created by cloning and removed by UpdateTransitions in the same refinement).
    #[serde(default)]
    pub removed: Vec<PcfaEdgeView>,
}

/// Builds [`PcfaView`]s: remembers what the last refinement cloned and removed, so that
/// the next views say so by id.
#[derive(Debug, Default)]
pub(crate) struct PcfaViews {
    /// States created by the last refinement, per method index.
    cloned: BTreeMap<usize, Vec<u32>>,
    /// Edges removed by the last refinement (as they were), per method index.
    removed: BTreeMap<usize, Vec<PcfaEdge>>,
}

impl PcfaViews {
    /// Note what a refinement did (CloneStates, UpdateTransitions, dead edges).
    pub fn refined(
        &mut self,
        clones: &[(MethodId, crate::pcfa::StateId)],
        removed: &[(MethodId, PcfaEdge)],
    ) {
        for (m, s) in clones {
            self.cloned.entry(m.index()).or_default().push(s.0);
        }
        for (m, e) in removed {
            self.removed.entry(m.index()).or_default().push(*e);
        }
    }

    /// The views of every method's PCFA, with what the refinements since the previous
    /// call did. `show` prints a predicate (with the solver's macros expanded).
    pub fn next(
        &mut self,
        program: &Program,
        pcfas: &Pcfas,
        source: Option<&str>,
        show: &dyn Fn(&cfp_smt::Term) -> String,
    ) -> Vec<PcfaView> {
        let index = source.map(|s| (s, cfp_syntax::span::LineIndex::new(s)));
        let cloned = std::mem::take(&mut self.cloned);
        let removed = std::mem::take(&mut self.removed);
        let mut out = Vec::new();
        for (i, pcfa) in pcfas.methods.iter().enumerate() {
            let Some(cfa) = program.methods.get(i) else {
                continue;
            };
            let printer = Printer::new(program, cfa);
            let mut view = view_of(cfa, pcfa, &|e| edge_view(&printer, cfa, &index, e), show);
            let live: BTreeSet<u32> = view.states.iter().map(|s| s.id).collect();
            view.cloned = cloned
                .get(&i)
                .into_iter()
                .flatten()
                .copied()
                .filter(|id| live.contains(id))
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            view.removed = removed
                .get(&i)
                .into_iter()
                .flatten()
                .map(|e| edge_view(&printer, cfa, &index, e))
                .collect();
            view.removed.sort_by_key(|e| e.id);
            view.removed.dedup_by_key(|e| e.id);
            out.push(view);
        }
        out
    }
}

fn edge_view(
    printer: &Printer<'_>,
    cfa: &crate::ir::MethodCfa,
    index: &Option<(&str, cfp_syntax::span::LineIndex)>,
    e: &PcfaEdge,
) -> PcfaEdgeView {
    let (statement, line) = match cfa.graph.edge_weight(e.cfa_edge) {
        Some(edge) => {
            let span = edge.span();
            let line = match index {
                Some((src, ix)) if span != cfp_syntax::Span::default() => {
                    ix.line_col(src, span.start as usize).line
                }
                _ => 0,
            };
            (printer.edge(edge, "; "), line)
        }
        None => (String::new(), 0),
    };
    PcfaEdgeView {
        id: e.id.0,
        from: e.from.0,
        to: e.to.0,
        statement,
        line,
    }
}

fn view_of(
    cfa: &crate::ir::MethodCfa,
    pcfa: &Pcfa,
    edge: &dyn Fn(&PcfaEdge) -> PcfaEdgeView,
    show: &dyn Fn(&cfp_smt::Term) -> String,
) -> PcfaView {
    let states = pcfa
        .states()
        .map(|s| {
            let preds = pcfa.predicates(s.loc);
            PcfaStateView {
                id: s.id.0,
                location: s.loc.index(),
                clone: s.clone,
                name: pcfa.state_name(s.id),
                predicates: preds
                    .iter()
                    .enumerate()
                    .filter_map(|(i, p)| match s.cube.get(i) {
                        Truth::True => Some(show(p)),
                        Truth::False => Some(format!("(not {})", show(p))),
                        Truth::Unknown => None,
                    })
                    .collect(),
            }
        })
        .collect();
    PcfaView {
        method: cfa.name.clone(),
        states,
        edges: pcfa.edges().map(edge).collect(),
        entry: pcfa.entry_states().iter().map(|s| s.0).collect(),
        exits: pcfa.exit_states().iter().map(|s| s.0).collect(),
        cloned: Vec::new(),
        removed: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derivation_text_round_trips() {
        let text = "A -> B c\n  B -> ε\n";
        let t = DerivationNode::from_text(text);
        assert_eq!(t.production.text(), "A -> B c");
        assert_eq!(t.children.len(), 1);
        assert_eq!(t.children[0].production.rhs, Vec::<String>::new());
        assert_eq!(t.text(), text);
    }

    #[test]
    fn old_recordings_hold_the_derivation_as_text() {
        let from_text: DerivationNode =
            serde_json::from_str(r#""A -> B\n  B -> b C\n    C -> ε\n""#).expect("text");
        let tree = serde_json::to_string(&from_text).expect("json");
        let back: DerivationNode = serde_json::from_str(&tree).expect("tree");
        assert_eq!(back, from_text);
        assert_eq!(back.size(), 3);
    }
}
