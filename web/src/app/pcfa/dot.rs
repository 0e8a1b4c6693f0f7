//! DOT text of one method's PCFA (paper §4, Fig. 7/9), laid out by Graphviz in the page
//! (`web/js/graph.js`).
//!
//! A pure function of the structured view the core sent ([`PcfaView`]) and of the
//! previous iteration's view of the same method (where the ends of removed edges were):
//!
//! * every state is a node named and identified `pcfa-s<state id>`, with `class`es that
//!   Graphviz copies into the SVG: `pcfa-state`, and `pcfa-cloned` (made by the refinement
//!   before this iteration), `pcfa-clone` (not its location's first state), `pcfa-entry`,
//!   `pcfa-exit` (drawn with a double circle), `pcfa-dead` (gone now, the end of a removed
//!   edge);
//! * every edge has the id `pcfa-e<edge id>` and the class `pcfa-edge`, `pcfa-removed`
//!   (dashed) for the edges the refinement removed;
//! * edge labels are the statements, wrapped at [`LABEL_WIDTH`] characters on at most
//!   [`LABEL_LINES`] lines (cut with `…`); the tooltip holds the whole statement and its
//!   source line.
//!
//! Ids are stable across iterations (the core never reuses one in a method), so the page
//! can animate from one iteration's graph to the next by id.

use super::super::messages::{PcfaEdgeView, PcfaStateView, PcfaView};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// Characters per line of an edge label.
pub const LABEL_WIDTH: usize = 24;

/// Lines of an edge label at most (the rest is cut, the tooltip has it all).
pub const LABEL_LINES: usize = 3;

/// Removed edges drawn at most: a refinement of a large PCFA can remove hundreds, which
/// would bury the live graph (and take Graphviz seconds to lay out). Above this, none is
/// drawn and the view says how many were removed.
pub const MAX_REMOVED_DRAWN: usize = 60;

/// Point size of labels in the DOT (the page shows 1 pt as 4/3 px at scale 1: 14.7 px).
pub const FONT_SIZE_PT: f64 = 11.0;

/// One PCFA as DOT, and what of the refinement it draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PcfaDot {
    /// The DOT text.
    pub text: String,
    /// Ids of the removed edges drawn (dashed).
    pub removed_drawn: Vec<u32>,
    /// How many removed edges are not drawn (more than [`MAX_REMOVED_DRAWN`], or an end
    /// is known neither now nor in the previous iteration).
    pub removed_hidden: usize,
    /// How many states are collapsed into runs ([`super::collapse`]).
    pub collapsed: usize,
}

/// The DOT node id of state `id`.
pub fn state_id(id: u32) -> String {
    format!("pcfa-s{id}")
}

/// The DOT id of edge `id`.
pub fn edge_id(id: u32) -> String {
    format!("pcfa-e{id}")
}

/// `s` as a DOT double-quoted string: `"` and `\` escaped, line breaks as DOT's `\n`
/// (centred line), other control characters as spaces, and `&` as `&amp;` (Graphviz reads
/// `&name;` in labels as an HTML entity). `<` and `>` need nothing inside quotes (only
/// `<…>` strings are HTML labels).
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    push_escaped(&mut out, s);
    out.push('"');
    out
}

fn push_escaped(out: &mut String, s: &str) {
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '&' => out.push_str("&amp;"),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' | '\r' => out.push_str("\\n"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
}

/// `lines` as one DOT quoted string, each line centred (`\n` between them).
fn quote_lines(lines: &[String]) -> String {
    let mut out = String::from("\"");
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            out.push_str("\\n");
        }
        push_escaped(&mut out, line);
    }
    out.push('"');
    out
}

/// Pieces of `s` a line may break after: after a space, `,` or `(`, and before `.`.
fn pieces(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in s.chars() {
        if c == '.' && !cur.is_empty() && !cur.ends_with('.') {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(c);
        if matches!(c, ' ' | ',' | '(') {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// `s` on lines of at most `width` characters (breaking between [`pieces`], inside a piece
/// only when it alone is too long), at most `max_lines` of them: the last line shown ends
/// with `…` when anything was cut. Whitespace runs (and line breaks) count as one space.
pub fn wrap(s: &str, width: usize, max_lines: usize) -> Vec<String> {
    let width = width.max(2);
    let flat = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    let len = |s: &str| s.chars().count();
    for piece in pieces(&flat) {
        if len(&cur) + len(piece.trim_end()) > width && !cur.is_empty() {
            lines.push(cur.trim_end().to_owned());
            cur = String::new();
        }
        let mut piece = piece.as_str();
        while len(piece.trim_end()) > width {
            let (head, tail) = piece.split_at(
                piece
                    .char_indices()
                    .nth(width)
                    .map_or(piece.len(), |(i, _)| i),
            );
            lines.push(head.to_owned());
            piece = tail;
        }
        cur.push_str(piece);
    }
    if !cur.trim_end().is_empty() {
        lines.push(cur.trim_end().to_owned());
    }
    if lines.len() > max_lines {
        lines.truncate(max_lines.max(1));
        if let Some(last) = lines.last_mut() {
            let keep: String = last.chars().take(width - 1).collect();
            *last = format!("{}…", keep.trim_end());
        }
    }
    lines
}

/// The tooltip of a state: its name, location and predicate literals.
fn state_tooltip(s: &PcfaStateView) -> String {
    let predicates = if s.predicates.is_empty() {
        "true".to_owned()
    } else {
        s.predicates.join(" ∧ ")
    };
    format!("{} (location {}): {predicates}", s.name, s.location)
}

/// The tooltip of an edge: the whole statement and its source line.
fn edge_tooltip(e: &PcfaEdgeView) -> String {
    if e.line > 0 {
        format!("line {}: {}", e.line, e.statement)
    } else {
        e.statement.clone()
    }
}

/// How a PCFA is drawn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DotOptions {
    /// Draw the edges the refinement removed (dashed), with their ends.
    pub removed: bool,
    /// Names of the states the shown counterexample's path goes through (drawn bold,
    /// never collapsed).
    pub path: BTreeSet<String>,
}

/// The layout direction of a graph: left to right when it is wider than deep (its
/// largest layer of states, by distance from the entry, has more states than there are
/// layers), top to bottom otherwise.
fn rank_dir(graph: &PcfaView) -> &'static str {
    let mut depth: BTreeMap<u32, usize> = graph.entry.iter().map(|e| (*e, 0)).collect();
    let mut frontier: Vec<u32> = graph.entry.clone();
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for from in frontier {
            let d = depth.get(&from).copied().unwrap_or(0) + 1;
            for e in graph.edges.iter().filter(|e| e.from == from) {
                if let std::collections::btree_map::Entry::Vacant(v) = depth.entry(e.to) {
                    v.insert(d);
                    next.push(e.to);
                }
            }
        }
        frontier = next;
    }
    let mut width: BTreeMap<usize, usize> = BTreeMap::new();
    for d in depth.values() {
        *width.entry(*d).or_default() += 1;
    }
    let widest = width.values().copied().max().unwrap_or(0);
    if widest > 4 && widest > width.len() {
        "LR"
    } else {
        "TB"
    }
}

/// One method's PCFA as DOT: the live states and edges of `graph`, and, with
/// `opts.removed`, the edges the refinement removed (dashed) with their ends — live, or as
/// they were in `previous` — when there are at most [`MAX_REMOVED_DRAWN`].
pub fn pcfa_dot(graph: &PcfaView, previous: Option<&PcfaView>, opts: &DotOptions) -> PcfaDot {
    let live: BTreeMap<u32, &PcfaStateView> = graph.states.iter().map(|s| (s.id, s)).collect();
    let before: BTreeMap<u32, &PcfaStateView> = previous
        .map(|p| p.states.iter().map(|s| (s.id, s)).collect())
        .unwrap_or_default();
    let mut dead: BTreeMap<u32, &PcfaStateView> = BTreeMap::new();
    let mut removed: Vec<&PcfaEdgeView> = Vec::new();
    if opts.removed && graph.removed.len() <= MAX_REMOVED_DRAWN {
        for e in &graph.removed {
            let ends = [e.from, e.to].map(|id| live.get(&id).or_else(|| before.get(&id)));
            if let [Some(a), Some(b)] = ends {
                for s in [a, b] {
                    if !live.contains_key(&s.id) {
                        dead.insert(s.id, s);
                    }
                }
                removed.push(e);
            }
        }
    }
    removed.sort_by_key(|e| e.id);
    let cloned: BTreeSet<u32> = graph.cloned.iter().copied().collect();
    let entry: BTreeSet<u32> = graph.entry.iter().copied().collect();
    let exits: BTreeSet<u32> = graph.exits.iter().copied().collect();
    let on_path: BTreeSet<u32> = graph
        .states
        .iter()
        .filter(|s| opts.path.contains(&s.name))
        .map(|s| s.id)
        .collect();
    let keep: BTreeSet<u32> = on_path
        .iter()
        .copied()
        .chain(removed.iter().flat_map(|e| [e.from, e.to]))
        .collect();
    let collapsed = super::collapse::collapse(graph, &keep);
    let chained: BTreeSet<u32> = collapsed
        .chains
        .iter()
        .flat_map(|c| c.edges.iter().copied())
        .collect();

    let mut out = String::new();
    // Writing to a String cannot fail.
    let mut line = |s: String| {
        out.push_str(&s);
        out.push('\n');
    };
    line(format!("digraph {} {{", quote(&graph.method)));
    line(format!(
        "  graph [rankdir={}, bgcolor=\"transparent\", nodesep=0.3, ranksep=0.35, pad=0.15];",
        rank_dir(graph)
    ));
    line(format!(
        "  node [shape=circle, fontname=\"Courier\", fontsize={FONT_SIZE_PT}, width=0.45, margin=0.02];"
    ));
    line(format!(
        "  edge [fontname=\"Courier\", fontsize={FONT_SIZE_PT}, arrowsize=0.7];"
    ));
    let states = live
        .values()
        .map(|s| (*s, false))
        .chain(dead.values().map(|s| (*s, true)));
    for (s, is_dead) in states {
        if collapsed.hidden.contains(&s.id) {
            continue;
        }
        let mut class = vec!["pcfa-state"];
        let mut attrs = String::new();
        if on_path.contains(&s.id) {
            class.push("pcfa-on-path");
            attrs.push_str(", penwidth=2.5");
        }
        if cloned.contains(&s.id) {
            class.push("pcfa-cloned");
        }
        if s.clone > 0 {
            class.push("pcfa-clone");
        }
        if entry.contains(&s.id) {
            class.push("pcfa-entry");
        }
        if exits.contains(&s.id) {
            class.push("pcfa-exit");
            attrs.push_str(", peripheries=2");
        }
        if is_dead {
            class.push("pcfa-dead");
            attrs.push_str(", style=dashed");
        }
        let id = state_id(s.id);
        line(format!(
            "  {} [id={}, class={}, label={}, tooltip={}{attrs}];",
            quote(&id),
            quote(&id),
            quote(&class.join(" ")),
            quote(&s.name),
            quote(&state_tooltip(s)),
        ));
    }
    let edges = graph
        .edges
        .iter()
        .map(|e| (e, false))
        .chain(removed.iter().map(|e| (*e, true)));
    for (e, gone) in edges {
        if !gone && chained.contains(&e.id) {
            continue;
        }
        let mut attrs = String::new();
        if !e.statement.is_empty() && e.statement != "skip" {
            let _ = write!(
                attrs,
                ", label={}",
                quote_lines(&wrap(&e.statement, LABEL_WIDTH, LABEL_LINES))
            );
        }
        let class = if gone {
            attrs.push_str(", style=dashed");
            "pcfa-edge pcfa-removed"
        } else {
            "pcfa-edge"
        };
        let id = edge_id(e.id);
        line(format!(
            "  {} -> {} [id={}, class={}, tooltip={}{attrs}];",
            quote(&state_id(e.from)),
            quote(&state_id(e.to)),
            quote(&id),
            quote(class),
            quote(&edge_tooltip(e)),
        ));
    }
    let name_of = |id: u32| {
        live.get(&id)
            .map_or_else(|| format!("#{id}"), |s| s.name.clone())
    };
    for c in &collapsed.chains {
        let id = format!("pcfa-chain-{}", c.first_edge);
        let through: Vec<String> = c.states.iter().map(|s| name_of(*s)).collect();
        line(format!(
            "  {} -> {} [id={}, class=\"pcfa-edge pcfa-collapsed\", style=dotted, label={}, tooltip={}];",
            quote(&state_id(c.from)),
            quote(&state_id(c.to)),
            quote(&id),
            quote(&format!("⋯ {} states", c.states.len())),
            quote(&format!(
                "{} states with nothing new, collapsed: {}",
                c.states.len(),
                through.join(" → ")
            )),
        ));
    }
    line("}".to_owned());
    PcfaDot {
        collapsed: collapsed.hidden.len(),
        removed_drawn: removed.iter().map(|e| e.id).collect(),
        removed_hidden: if opts.removed {
            graph.removed.len() - removed.len()
        } else {
            0
        },
        text: out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHOWN: DotOptions = DotOptions {
        removed: true,
        path: BTreeSet::new(),
    };

    fn state(id: u32, location: usize, clone: u32) -> PcfaStateView {
        PcfaStateView {
            id,
            location,
            clone,
            name: if clone == 0 {
                format!("n{location}")
            } else {
                format!("n{location}#{clone}")
            },
            predicates: Vec::new(),
        }
    }

    fn edge(id: u32, from: u32, to: u32, statement: &str, line: u32) -> PcfaEdgeView {
        PcfaEdgeView {
            id,
            from,
            to,
            statement: statement.to_owned(),
            line,
        }
    }

    /// A method after one refinement: state 1 (`n1`) was cloned into 5 (`n1#1`), the
    /// edge 2 from the entry to `n1` was removed, and `n3` (id 3, before) is gone.
    fn small() -> (PcfaView, PcfaView) {
        let mut s5 = state(5, 1, 1);
        s5.predicates = vec!["(= l $1)".to_owned()];
        let before = PcfaView {
            method: "Main.foo".to_owned(),
            states: vec![
                state(0, 0, 0),
                state(1, 1, 0),
                state(2, 2, 0),
                state(3, 3, 0),
            ],
            edges: vec![
                edge(1, 0, 1, "l.lock()", 4),
                edge(2, 1, 3, "assume x < \"a\\b\"", 5),
            ],
            entry: vec![0],
            exits: vec![2],
            cloned: vec![],
            removed: vec![],
        };
        let after = PcfaView {
            method: "Main.foo".to_owned(),
            states: vec![state(0, 0, 0), state(1, 1, 0), s5, state(2, 2, 0)],
            edges: vec![
                edge(1, 0, 1, "l.lock()", 4),
                edge(6, 0, 5, "l.lock()", 4),
                edge(
                    7,
                    5,
                    2,
                    "%t3 := call WakeLock.setReferenceCounted(false)",
                    9,
                ),
                edge(8, 1, 2, "skip", 0),
            ],
            entry: vec![0],
            exits: vec![2],
            cloned: vec![5],
            removed: vec![edge(2, 1, 3, "assume x < \"a\\b\" && y", 5)],
        };
        (before, after)
    }

    #[test]
    fn dot_of_a_small_pcfa() {
        let (before, after) = small();
        let dot = pcfa_dot(&after, Some(&before), &SHOWN);
        assert_eq!(dot.removed_drawn, vec![2]);
        assert_eq!(dot.removed_hidden, 0);
        insta::assert_snapshot!(dot.text);
    }

    #[test]
    fn removed_edges_without_known_ends_are_not_drawn() {
        let (_, after) = small();
        let dot = pcfa_dot(&after, None, &SHOWN);
        assert_eq!(dot.removed_drawn, Vec::<u32>::new());
        assert_eq!(dot.removed_hidden, 1);
        assert!(!dot.text.contains("pcfa-removed"));
        assert!(!dot.text.contains("pcfa-dead"));
    }

    #[test]
    fn too_many_removed_edges_are_counted_not_drawn() {
        let (before, mut after) = small();
        after.removed = (100..100 + MAX_REMOVED_DRAWN as u32 + 1)
            .map(|id| edge(id, 1, 3, "x = 1", 2))
            .collect();
        let dot = pcfa_dot(&after, Some(&before), &SHOWN);
        assert!(dot.removed_drawn.is_empty());
        assert_eq!(dot.removed_hidden, MAX_REMOVED_DRAWN + 1);
        after.removed.pop();
        assert_eq!(
            pcfa_dot(&after, Some(&before), &SHOWN).removed_drawn.len(),
            MAX_REMOVED_DRAWN
        );
    }

    #[test]
    fn quote_escapes_what_dot_reads() {
        assert_eq!(quote(r#"a "b" \n"#), r#""a \"b\" \\n""#);
        assert_eq!(quote("x < y && z"), r#""x < y &amp;&amp; z""#);
        assert_eq!(
            quote("one\ntwo\r\nthree\tfour"),
            r#""one\ntwo\nthree four""#
        );
    }

    #[test]
    fn wrap_breaks_between_pieces_and_cuts_with_an_ellipsis() {
        assert_eq!(wrap("l.lock()", 24, 3), vec!["l.lock()"]);
        assert_eq!(
            wrap("%t3 := call WakeLock.setReferenceCounted(false)", 24, 3),
            vec!["%t3 := call WakeLock", ".setReferenceCounted(", "false)"]
        );
        assert_eq!(
            wrap("aaaaaaaaaa bbbbbbbbbb cccccccccc dddddddddd", 10, 2),
            vec!["aaaaaaaaaa", "bbbbbbbbb…"]
        );
        assert_eq!(wrap("0123456789abc", 5, 3), vec!["01234", "56789", "abc"]);
        assert_eq!(wrap("  a\n  b  ", 10, 3), vec!["a b"]);
        assert!(wrap("", 10, 3).is_empty());
        for w in [2, 5, 24] {
            for l in wrap("assume this.count == $1 && referenceCounted", w, 9) {
                assert!(l.chars().count() <= w, "{l:?} is longer than {w}");
            }
        }
    }
}

#[cfg(test)]
mod layout_tests {
    use super::*;

    fn view(edges: &[(u32, u32)]) -> PcfaView {
        let mut ids: Vec<u32> = edges.iter().flat_map(|(a, b)| [*a, *b]).collect();
        ids.sort_unstable();
        ids.dedup();
        PcfaView {
            method: "M.m".to_owned(),
            states: ids
                .iter()
                .map(|&id| PcfaStateView {
                    id,
                    location: id as usize,
                    clone: 0,
                    name: format!("n{id}"),
                    predicates: Vec::new(),
                })
                .collect(),
            edges: edges
                .iter()
                .enumerate()
                .map(|(i, (from, to))| PcfaEdgeView {
                    id: i as u32,
                    from: *from,
                    to: *to,
                    statement: "skip".to_owned(),
                    line: 0,
                })
                .collect(),
            entry: vec![0],
            exits: vec![],
            cloned: vec![],
            removed: vec![],
        }
    }

    #[test]
    fn wide_graphs_go_left_to_right_and_chains_top_down() {
        let fan: Vec<(u32, u32)> = (1..=8).flat_map(|i| [(0, i), (i, 9)]).collect();
        assert_eq!(rank_dir(&view(&fan)), "LR");
        let chain: Vec<(u32, u32)> = (0..8).map(|i| (i, i + 1)).collect();
        assert_eq!(rank_dir(&view(&chain)), "TB");
    }

    #[test]
    fn removed_edges_are_drawn_only_when_asked() {
        let mut g = view(&[(0, 1), (1, 2)]);
        g.removed = vec![PcfaEdgeView {
            id: 9,
            from: 0,
            to: 2,
            statement: "assume x".to_owned(),
            line: 3,
        }];
        let hidden = pcfa_dot(&g, None, &DotOptions::default());
        assert!(hidden.removed_drawn.is_empty() && hidden.removed_hidden == 0);
        assert!(!hidden.text.contains("pcfa-removed"));
        let shown = pcfa_dot(
            &g,
            None,
            &DotOptions {
                removed: true,
                ..DotOptions::default()
            },
        );
        assert_eq!(shown.removed_drawn, vec![9]);
    }
}
