//! Predicated control-flow automata (paper §5.1, Definition 5.1).
//!
//! A PCFA of a method is a graph of *states* `s = (Loc(s), Pred(s))`: a CFA location and a
//! formula over program state. We keep `Pred(s)` as a **cube** over the predicates tracked
//! at the location: for each predicate `p_i` of `Loc(s)` the state says `p_i`, `¬p_i` or
//! nothing ([`Truth::Unknown`], predicates added after the state was created). This is
//! exactly the shape `CompleteCubes`/`CloneStates` of §5.3 (Fig. 12) produce: cloning a
//! state per complete cube of `Ψ(l)` and conjoining the cube to the state's own formula.
//!
//! Edges copy CFA edges: a PCFA edge `(s, σ, s')` keeps the [`EdgeIndex`] of the CFA edge
//! whose statement `σ` it carries, so nothing of the statement is duplicated.
//!
//! [`Pcfas::initial`] is the paper's initial abstraction (Fig. 3): one state per CFA
//! location with no predicate (`Pred = true`), one PCFA edge per CFA edge.
//!
//! # Ids
//! State and edge ids are per method, dense at creation and **never reused**: removing a
//! state or an edge leaves a hole. Every iterator yields live items in id order, so all
//! output built from a [`Pcfa`] is deterministic. Each state also has a *clone ordinal*
//! at its location (0 for the initial state, then 1, 2, … in creation order, never
//! reused): it names the state in grammars and the UI (`n3`, `n3#1`, see
//! [`Pcfa::state_name`]).
//!
//! # Predicate symbols (the convention shared with the trace encoding)
//! Predicates are [`cfp_smt::Term`]s whose free constants name the program state of the
//! location's method, exactly as the SSA encoding names it (`crate::encode::Symbols`,
//! the single source of truth, which also resolves name clashes):
//! * a parameter or local: its `VarDef::name` (`l1`, `%t1`, `%ret`);
//! * a global: its `GlobalDef::name` (`$1`, `Main.count`);
//! * an instance field: its qualified name `Class.field`, an array `Int → T`;
//! * the value a parameter or global had on entry to the method: `<name>@entry`.
//!
//! References and ints have SMT sort `Int`, booleans `Bool`.

use crate::ir::{MethodCfa, MethodId, Program};
use cfp_smt::Term;
use petgraph::graph::{EdgeIndex, NodeIndex};
use serde::Serialize;

/// Serialise petgraph indices as plain numbers (petgraph's serde feature is off).
pub(crate) mod serde_ix {
    use petgraph::graph::{EdgeIndex, NodeIndex};

    pub fn node<S: serde::Serializer>(n: &NodeIndex, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(n.index() as u64)
    }

    pub fn edge<S: serde::Serializer>(e: &EdgeIndex, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(e.index() as u64)
    }
}

macro_rules! pcfa_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
        pub struct $name(pub u32);

        impl $name {
            /// The index into the owning table.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

pcfa_id!(
    /// A state of one method's PCFA (index into [`Pcfa`]'s state table; never reused).
    StateId
);
pcfa_id!(
    /// An edge of one method's PCFA (index into [`Pcfa`]'s edge table; never reused).
    PcfaEdgeId
);

/// The value a state gives one predicate of its location.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Truth {
    /// The predicate holds in the state.
    True,
    /// Its negation holds.
    False,
    /// Not decided (the state was created before the predicate was tracked).
    Unknown,
}

/// A cube over the predicates of one location: entry `i` is the state's value of
/// predicate `i` of [`Pcfa::predicates`] at that location.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Cube(pub Vec<Truth>);

impl Cube {
    /// The value of predicate `i` (`Unknown` past the end).
    pub fn get(&self, i: usize) -> Truth {
        self.0.get(i).copied().unwrap_or(Truth::Unknown)
    }

    /// The formula of the cube over `preds` (`true` when every entry is unknown).
    pub fn formula(&self, preds: &[Term]) -> Term {
        Term::and(
            preds
                .iter()
                .enumerate()
                .filter_map(|(i, p)| match self.get(i) {
                    Truth::True => Some(p.clone()),
                    Truth::False => Some(Term::negate(p.clone())),
                    Truth::Unknown => None,
                }),
        )
    }
}

/// A PCFA state `(Loc(s), Pred(s))`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PcfaState {
    /// Its id.
    pub id: StateId,
    /// The CFA location.
    #[serde(serialize_with = "serde_ix::node")]
    pub loc: NodeIndex,
    /// Clone ordinal at the location (0 for the initial state; never reused).
    pub clone: u32,
    /// The predicate valuation.
    pub cube: Cube,
}

/// A PCFA edge `(from, σ, to)` where `σ` is the label of CFA edge `cfa_edge`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PcfaEdge {
    /// Its id.
    pub id: PcfaEdgeId,
    /// Source state.
    pub from: StateId,
    /// Target state.
    pub to: StateId,
    /// The CFA edge whose statement this edge carries.
    #[serde(serialize_with = "serde_ix::edge")]
    pub cfa_edge: EdgeIndex,
}

/// The PCFA of one method.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pcfa {
    /// The method.
    pub method: MethodId,
    /// The method's entry location.
    #[serde(serialize_with = "serde_ix::node")]
    pub entry_loc: NodeIndex,
    /// The method's exit location.
    #[serde(serialize_with = "serde_ix::node")]
    pub exit_loc: NodeIndex,
    /// The method's throw exit location, when it has one.
    #[serde(skip)]
    pub throw_loc: Option<NodeIndex>,
    states: Vec<Option<PcfaState>>,
    edges: Vec<Option<PcfaEdge>>,
    /// Live outgoing / incoming edges per state id, in id order.
    out: Vec<Vec<PcfaEdgeId>>,
    inc: Vec<Vec<PcfaEdgeId>>,
    /// Live states per location index, in id order.
    at_loc: Vec<Vec<StateId>>,
    /// Next clone ordinal per location index.
    next_clone: Vec<u32>,
    /// Predicates tracked per location index.
    predicates: Vec<Vec<Term>>,
}

impl Pcfa {
    /// The initial PCFA of `cfa` (paper Fig. 3): state `i` is location `i`, edge `j` is
    /// CFA edge `j`, no predicates.
    pub fn initial(cfa: &MethodCfa) -> Pcfa {
        let n = cfa.graph.node_count();
        let mut p = Pcfa {
            method: cfa.id,
            entry_loc: cfa.entry,
            exit_loc: cfa.exit,
            throw_loc: cfa.throw_exit,
            states: Vec::with_capacity(n),
            edges: Vec::new(),
            out: Vec::with_capacity(n),
            inc: Vec::with_capacity(n),
            at_loc: vec![Vec::new(); n],
            next_clone: vec![0; n],
            predicates: vec![Vec::new(); n],
        };
        for loc in cfa.graph.node_indices() {
            p.add_state(loc, Cube::default());
        }
        for e in cfa.graph.edge_indices() {
            if let Some((a, b)) = cfa.graph.edge_endpoints(e) {
                // State i is location i in the initial PCFA.
                p.add_edge(StateId(a.index() as u32), StateId(b.index() as u32), e);
            }
        }
        p
    }

    fn ensure_loc(&mut self, loc: NodeIndex) {
        let need = loc.index() + 1;
        if self.at_loc.len() < need {
            self.at_loc.resize(need, Vec::new());
            self.next_clone.resize(need, 0);
            self.predicates.resize(need, Vec::new());
        }
    }

    /// Add a fresh state at `loc` with valuation `cube` (no edges). Its clone ordinal is
    /// the next one of the location.
    pub fn add_state(&mut self, loc: NodeIndex, cube: Cube) -> StateId {
        self.ensure_loc(loc);
        let id = StateId(self.states.len() as u32);
        let clone = self.next_clone[loc.index()];
        self.next_clone[loc.index()] += 1;
        self.states.push(Some(PcfaState {
            id,
            loc,
            clone,
            cube,
        }));
        self.out.push(Vec::new());
        self.inc.push(Vec::new());
        self.at_loc[loc.index()].push(id);
        id
    }

    /// Add the edge `(from, σ(cfa_edge), to)`; `None` when a state is not live.
    pub fn add_edge(
        &mut self,
        from: StateId,
        to: StateId,
        cfa_edge: EdgeIndex,
    ) -> Option<PcfaEdgeId> {
        self.state(from)?;
        self.state(to)?;
        let id = PcfaEdgeId(self.edges.len() as u32);
        self.edges.push(Some(PcfaEdge {
            id,
            from,
            to,
            cfa_edge,
        }));
        self.out[from.index()].push(id);
        self.inc[to.index()].push(id);
        Some(id)
    }

    /// Remove an edge; false when it was not live.
    pub fn remove_edge(&mut self, e: PcfaEdgeId) -> bool {
        let Some(edge) = self.edges.get_mut(e.index()).and_then(Option::take) else {
            return false;
        };
        if let Some(o) = self.out.get_mut(edge.from.index()) {
            o.retain(|x| *x != e);
        }
        if let Some(i) = self.inc.get_mut(edge.to.index()) {
            i.retain(|x| *x != e);
        }
        true
    }

    /// Remove a state and all its edges (`CloneStates` drops the states it splits);
    /// false when it was not live.
    pub fn remove_state(&mut self, s: StateId) -> bool {
        let Some(state) = self.states.get(s.index()).and_then(Option::as_ref) else {
            return false;
        };
        let loc = state.loc;
        let mut touching: Vec<PcfaEdgeId> = self.out[s.index()].clone();
        touching.extend(self.inc[s.index()].iter().copied());
        touching.sort();
        touching.dedup();
        for e in touching {
            self.remove_edge(e);
        }
        self.states[s.index()] = None;
        if let Some(v) = self.at_loc.get_mut(loc.index()) {
            v.retain(|x| *x != s);
        }
        true
    }

    /// Clone state `s` (same location and valuation, next clone ordinal) with copies of
    /// its edges: `x → s` gives `x → c`, `s → y` gives `c → y`, and a self-loop `s → s`
    /// gives `s → c`, `c → s` and `c → c` — the clone is indistinguishable from `s` until
    /// its valuation changes and refinement removes infeasible edges. New edges are
    /// added in the order of the copied edges' ids. `None` when `s` is not live.
    pub fn clone_state(&mut self, s: StateId) -> Option<StateId> {
        let state = self.state(s)?.clone();
        let c = self.add_state(state.loc, state.cube);
        let mut copied: Vec<PcfaEdgeId> = self.inc[s.index()].clone();
        copied.extend(self.out[s.index()].iter().copied());
        copied.sort();
        copied.dedup();
        for e in copied {
            let Some(edge) = self.edge(e).copied() else {
                continue;
            };
            let from = if edge.from == s { c } else { edge.from };
            let to = if edge.to == s { c } else { edge.to };
            if edge.from == s && edge.to == s {
                self.add_edge(s, c, edge.cfa_edge);
                self.add_edge(c, s, edge.cfa_edge);
            }
            self.add_edge(from, to, edge.cfa_edge);
        }
        Some(c)
    }

    /// The live state `s`.
    pub fn state(&self, s: StateId) -> Option<&PcfaState> {
        self.states.get(s.index()).and_then(Option::as_ref)
    }

    /// The live edge `e`.
    pub fn edge(&self, e: PcfaEdgeId) -> Option<&PcfaEdge> {
        self.edges.get(e.index()).and_then(Option::as_ref)
    }

    /// Live states in id order.
    pub fn states(&self) -> impl Iterator<Item = &PcfaState> {
        self.states.iter().flatten()
    }

    /// Live edges in id order.
    pub fn edges(&self) -> impl Iterator<Item = &PcfaEdge> {
        self.edges.iter().flatten()
    }

    /// Number of state ids ever allocated (live or removed): a bound for id-indexed tables.
    pub fn state_capacity(&self) -> usize {
        self.states.len()
    }

    /// Number of edge ids ever allocated.
    pub fn edge_capacity(&self) -> usize {
        self.edges.len()
    }

    /// Live outgoing edges of `s` in id order (empty when `s` is not live).
    pub fn out_edges(&self, s: StateId) -> &[PcfaEdgeId] {
        self.out.get(s.index()).map_or(&[], Vec::as_slice)
    }

    /// Live incoming edges of `s` in id order.
    pub fn in_edges(&self, s: StateId) -> &[PcfaEdgeId] {
        self.inc.get(s.index()).map_or(&[], Vec::as_slice)
    }

    /// The live states (clones) of location `loc`, in id order (`S↓l` of the paper).
    pub fn states_at(&self, loc: NodeIndex) -> &[StateId] {
        self.at_loc.get(loc.index()).map_or(&[], Vec::as_slice)
    }

    /// Live edges copying CFA edge `cfa_edge`, in id order.
    pub fn edges_of(&self, cfa_edge: EdgeIndex) -> impl Iterator<Item = &PcfaEdge> {
        self.edges().filter(move |e| e.cfa_edge == cfa_edge)
    }

    /// Entry states (`Entry(A)`): the live states at the entry location.
    pub fn entry_states(&self) -> &[StateId] {
        self.states_at(self.entry_loc)
    }

    /// Exit states (`Exit(A)`): the live states at the exit location.
    pub fn exit_states(&self) -> &[StateId] {
        self.states_at(self.exit_loc)
    }

    /// The states a call returns through: the exit states, or, for a call that unwinds,
    /// the states at the throw exit.
    pub fn return_states(&self, unwind: bool) -> &[StateId] {
        match (unwind, self.throw_loc) {
            (false, _) => self.exit_states(),
            (true, Some(t)) => self.states_at(t),
            (true, None) => &[],
        }
    }

    /// The predicates tracked at `loc` (index `i` is entry `i` of its states' cubes).
    pub fn predicates(&self, loc: NodeIndex) -> &[Term] {
        self.predicates.get(loc.index()).map_or(&[], Vec::as_slice)
    }

    /// Track `p` at `loc`; returns its index. An already tracked predicate keeps its
    /// index; a new one is `Unknown` in every existing state of the location.
    pub fn add_predicate(&mut self, loc: NodeIndex, p: Term) -> usize {
        self.ensure_loc(loc);
        let preds = &mut self.predicates[loc.index()];
        if let Some(i) = preds.iter().position(|q| *q == p) {
            return i;
        }
        preds.push(p);
        preds.len() - 1
    }

    /// Stop tracking the predicates of `loc` from index `len` on (those a refinement added
    /// and then did not apply). No state may have a value for them yet: states' cubes
    /// are cut to `len` as well.
    pub fn truncate_predicates(&mut self, loc: NodeIndex, len: usize) {
        if let Some(preds) = self.predicates.get_mut(loc.index()) {
            preds.truncate(len);
        }
        for st in self.states.iter_mut().flatten() {
            if st.loc == loc {
                st.cube.0.truncate(len);
            }
        }
    }

    /// Set state `s`'s value of predicate `i` of its location; false when `s` is not live
    /// or the location has no predicate `i`.
    pub fn set_truth(&mut self, s: StateId, i: usize, t: Truth) -> bool {
        let npreds = match self.state(s) {
            Some(st) => self.predicates(st.loc).len(),
            None => return false,
        };
        if i >= npreds {
            return false;
        }
        let Some(Some(st)) = self.states.get_mut(s.index()) else {
            return false;
        };
        if st.cube.0.len() <= i {
            st.cube.0.resize(i + 1, Truth::Unknown);
        }
        st.cube.0[i] = t;
        true
    }

    /// `Pred(s)`: the conjunction of the state's literals (`true` for a state without
    /// decided predicates, or a dead state).
    pub fn state_formula(&self, s: StateId) -> Term {
        match self.state(s) {
            Some(st) => st.cube.formula(self.predicates(st.loc)),
            None => Term::tt(),
        }
    }

    /// The state's display name: `n<loc>` for clone 0, `n<loc>#<k>` for clone `k`
    /// (the paper's `f4`, `f4'`). Empty for a dead state.
    pub fn state_name(&self, s: StateId) -> String {
        match self.state(s) {
            Some(st) if st.clone == 0 => format!("n{}", st.loc.index()),
            Some(st) => format!("n{}#{}", st.loc.index(), st.clone),
            None => String::new(),
        }
    }
}

/// The PCFAs of a whole program, indexed by [`MethodId`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pcfas {
    /// One PCFA per method, in method-id order.
    pub methods: Vec<Pcfa>,
}

impl Pcfas {
    /// The initial PCFAs (paper Fig. 3): each method's CFA with `Pred = true` everywhere.
    pub fn initial(program: &Program) -> Pcfas {
        Pcfas {
            methods: program.methods.iter().map(Pcfa::initial).collect(),
        }
    }

    /// The PCFA of method `m`.
    pub fn method(&self, m: MethodId) -> Option<&Pcfa> {
        self.methods.get(m.index())
    }

    /// The PCFA of method `m`, mutably.
    pub fn method_mut(&mut self, m: MethodId) -> Option<&mut Pcfa> {
        self.methods.get_mut(m.index())
    }

    /// Total number of live states.
    pub fn state_count(&self) -> usize {
        self.methods.iter().map(|p| p.states().count()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::lower_ok;

    const PROG: &str = "class Main {\n  void f(int x) {\n    while (x > 0) { x = x - 1; }\n  }\n  public static void main(String[] a) {\n    new Main().f(3);\n  }\n}\n";
    const SPEC: &str = "wildcard $1 : Lock;\nS -> $1.lock() | ε;\n";

    fn f_pcfa() -> (Program, Pcfa) {
        let p = lower_ok(PROG, SPEC);
        let m = p
            .methods
            .iter()
            .find(|m| m.name == "Main.f")
            .expect("Main.f");
        let pcfa = Pcfa::initial(m);
        (p.clone(), pcfa)
    }

    #[test]
    fn initial_pcfa_copies_the_cfa() {
        let (p, pcfa) = f_pcfa();
        let cfa = p.methods.iter().find(|m| m.name == "Main.f").unwrap();
        assert_eq!(pcfa.states().count(), cfa.graph.node_count());
        assert_eq!(pcfa.edges().count(), cfa.graph.edge_count());
        for st in pcfa.states() {
            assert_eq!(st.id.index(), st.loc.index());
            assert_eq!(st.clone, 0);
            assert_eq!(pcfa.states_at(st.loc), [st.id]);
        }
        for e in pcfa.edges() {
            let (a, b) = cfa.graph.edge_endpoints(e.cfa_edge).unwrap();
            assert_eq!((e.from.index(), e.to.index()), (a.index(), b.index()));
        }
        assert_eq!(pcfa.entry_states(), [StateId(cfa.entry.index() as u32)]);
        assert_eq!(pcfa.exit_states(), [StateId(cfa.exit.index() as u32)]);
        let all = Pcfas::initial(&p);
        assert_eq!(all.methods.len(), p.methods.len());
        assert_eq!(
            all.state_count(),
            p.methods
                .iter()
                .map(|m| m.graph.node_count())
                .sum::<usize>()
        );
    }

    #[test]
    fn clone_copies_edges_including_self_loops() {
        let mut pcfa = Pcfa::initial(&{
            // A hand-made CFA: 0 -> 1, 1 -> 1 (loop), 1 -> 2.
            let mut g = petgraph::graph::DiGraph::new();
            let n0 = g.add_node(crate::ir::Node::Entry);
            let n1 = g.add_node(crate::ir::Node::Inner);
            let n2 = g.add_node(crate::ir::Node::Exit);
            g.add_edge(n0, n1, crate::ir::Edge::Block(vec![]));
            g.add_edge(n1, n1, crate::ir::Edge::Block(vec![]));
            g.add_edge(n1, n2, crate::ir::Edge::Block(vec![]));
            MethodCfa {
                id: MethodId(0),
                name: "M.m".into(),
                class: None,
                is_static: true,
                params: vec![],
                vars: vec![],
                ret: None,
                graph: g,
                entry: n0,
                exit: n2,
                throw_exit: None,
                span: Default::default(),
                is_abstract: false,
            }
        });
        let s1 = StateId(1);
        let c = pcfa.clone_state(s1).unwrap();
        assert_eq!(c, StateId(3));
        assert_eq!(pcfa.state(c).unwrap().clone, 1);
        assert_eq!(pcfa.state_name(c), "n1#1");
        assert_eq!(pcfa.states_at(NodeIndex::new(1)), [s1, c]);
        let pairs: Vec<(u32, u32, usize)> = pcfa
            .edges()
            .map(|e| (e.from.0, e.to.0, e.cfa_edge.index()))
            .collect();
        assert_eq!(
            pairs,
            [
                (0, 1, 0),
                (1, 1, 1),
                (1, 2, 2),
                (0, 3, 0),
                (1, 3, 1),
                (3, 1, 1),
                (3, 3, 1),
                (3, 2, 2)
            ]
        );
        assert_eq!(pcfa.out_edges(c).len(), 3);
        assert_eq!(pcfa.in_edges(c).len(), 3);
        // Remove an edge: gone from adjacency, id never reused.
        let e = pcfa.out_edges(c)[0];
        assert!(pcfa.remove_edge(e));
        assert!(!pcfa.remove_edge(e));
        assert!(!pcfa.out_edges(c).contains(&e));
        let c2 = pcfa.clone_state(c).unwrap();
        assert_eq!(c2, StateId(4));
        assert_eq!(pcfa.state_name(c2), "n1#2");
        assert!(pcfa.edges().all(|x| x.id.index() != e.index()));
        // Remove the original state: its edges go, ids and ordinals are not reused.
        let before = pcfa.edge_capacity();
        assert!(pcfa.remove_state(s1));
        assert!(pcfa.state(s1).is_none());
        assert!(pcfa.edges().all(|x| x.from != s1 && x.to != s1));
        assert_eq!(pcfa.states_at(NodeIndex::new(1)), [c, c2]);
        let c3 = pcfa.clone_state(c).unwrap();
        assert_eq!((c3, pcfa.state(c3).unwrap().clone), (StateId(5), 3));
        assert!(pcfa.edge_capacity() > before);
        assert!(pcfa.clone_state(s1).is_none());
        assert!(!pcfa.remove_state(s1));
    }

    #[test]
    fn cubes_and_predicates() {
        let (_, mut pcfa) = f_pcfa();
        let loc = pcfa.exit_loc;
        let x = Term::var("x", cfp_smt::Sort::Int);
        let p = Term::app(cfp_smt::Op::Gt, vec![x.clone(), Term::int(0)]);
        let q = Term::eq(x, Term::int(5));
        assert_eq!(pcfa.add_predicate(loc, p.clone()), 0);
        assert_eq!(pcfa.add_predicate(loc, q.clone()), 1);
        assert_eq!(pcfa.add_predicate(loc, p.clone()), 0);
        let s = pcfa.exit_states()[0];
        assert_eq!(pcfa.state_formula(s), Term::tt());
        let c = pcfa.clone_state(s).unwrap();
        assert!(pcfa.set_truth(s, 0, Truth::True));
        assert!(pcfa.set_truth(c, 0, Truth::False));
        assert!(pcfa.set_truth(c, 1, Truth::True));
        assert!(!pcfa.set_truth(c, 2, Truth::True));
        assert_eq!(pcfa.state_formula(s), p);
        assert_eq!(
            pcfa.state_formula(c),
            Term::and([Term::negate(p.clone()), q.clone()])
        );
        assert_eq!(pcfa.state(s).unwrap().cube.get(1), Truth::Unknown);
        assert_eq!(pcfa.exit_states(), [s, c]);
    }
}
