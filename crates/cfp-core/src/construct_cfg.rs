//! ConstructCFG (paper §5.4, Fig. 13 and the rules of Fig. 14; ARCHITECTURE.md): the
//! context-free grammar `G_P` that over-approximates the API-call sequences of the
//! program's PCFAs.
//!
//! For every method `m` and every exit state `c` of its PCFA ("exit clone", the paper's
//! summary `φ = Pred(c)`), one sub-grammar over the states that lie on an entry→`c` path:
//!
//! | rule (Fig. 14) | PCFA edge / state        | production                         |
//! |----------------|--------------------------|------------------------------------|
//! | (1) Stmt       | `(s, σ, s')`, σ a block  | `N_s → N_s'`                       |
//! | (2) API        | `(s, t, s')`, t terminal | `N_s → t N_s'`                     |
//! | (3) Call       | `(s, call m', s')`       | `N_s → M'_{e0',c'} N_s'` per entry `e0'` and exit `c'` of `m'` with `feasible` |
//! | (4) Entry      | entry state `e0`         | `M_{e0,c} → N_{e0}`                |
//! | (5) Exit       | the exit state `c`       | `N_c → ε`                          |
//!
//! The method nonterminal depends on the entry clone as well as the exit clone: a call
//! site enters only the entry clones whose predicates are consistent with its context
//! (`Pred(s) ∧ formals = actuals ∧ Pred(e0')`, checked together with the exit clone), so
//! the call context reaches the callee even when the callee's exit carries no summary of
//! it. Still sound: every concrete call enters some entry clone (the cubes of a location
//! cover all states), and only an unsatisfiable combination is dropped. The state
//! nonterminals `N_s` stay per `(state, exit clone)`: the sub-grammar of `(m, c)` is
//! shared by all its entry clones.
//!
//! The paper keeps the states backward-reachable from `c`; we also drop those not
//! forward-reachable from an entry state (their nonterminals are unreachable from
//! `M_c`, so the language is the same and the grammar smaller). Only `(method, exit)`
//! pairs reachable from the root method through call productions get a sub-grammar.
//! The start symbol is the root method's nonterminal (a `<start>` nonterminal choosing
//! among them when the root has several exit clones).
//!
//! `feasible(e, e0', φ')` of rule (3) is a caller-supplied closure over a [`CallQuery`].
//! With a closure that always answers `true` the grammar is still a sound
//! over-approximation (every call may enter every entry clone and return through every
//! exit clone); answering `false` must only happen when
//! `Pred(s) ∧ Pred(e0') ∧ Pred(c') ∧ Pred(s')` (bound across the call) is unsatisfiable.
//! Answers are memoised per `(caller, PCFA edge, callee entry, callee exit)`.
//!
//! # Names (deterministic, readable in the UI)
//! * method nonterminal: the method's name, `Main.foo` (the paper's `Foo`); when the
//!   method has several entry states, a suffix `@<entry state>`; for an exit clone with
//!   ordinal `k ≠ 0` a suffix `@e<k>` (`>e<k>` after an entry suffix):
//!   `Main.acquire@e1` (the paper's `Acquire_φ1`), `Main.release@n0#2>e1`;
//! * state nonterminal: `<method>:<state>` with the state named as in
//!   [`Pcfa::state_name`] (`n3`, `n3#2` for its second clone), plus the same `@e<k>`
//!   suffix: `Main.foo:n3`, `Main.acquire:n3#1@e1` (the paper's `F3`, `A'_{3,φ1}`);
//! * terminals: the spec terminal's canonical spelling, `$1.lock()`.
//!
//! Method names never contain `:` or `@`, so names are unique. Every nonterminal and
//! production keeps its origin ([`NtInfo`], [`ProdOrigin`]) so that a derivation maps
//! back to a nested path without guessing ([`crate::nested_path`]).

use crate::ir::{Edge, MethodId, Program, TerminalId};
use crate::pcfa::{Pcfa, PcfaEdge, PcfaEdgeId, Pcfas, StateId};
use cfp_grammar::{Grammar, NontermId, ProdId, Production, Sym, TermId};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

mod live;
mod renumber;
use live::live_states;
use renumber::renumber;

/// What a nonterminal stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum NtInfo {
    /// `<start>`: chooses among the root method's exit clones (only when it has several).
    Start,
    /// `M_{e0,c}`: method `method` entered through entry state `entry` and returning
    /// through exit state `exit`.
    Method {
        /// The method.
        method: MethodId,
        /// Its entry state (the clone the call enters).
        entry: StateId,
        /// Its exit state (the clone).
        exit: StateId,
    },
    /// `N_s` of the sub-grammar of `(method, exit)`.
    State {
        /// The method.
        method: MethodId,
        /// The PCFA state.
        state: StateId,
        /// The exit state of the sub-grammar.
        exit: StateId,
    },
}

/// Where a production comes from. `method`/`exit` name the sub-grammar it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ProdOrigin {
    /// `<start> → M_{root, entry, exit}`.
    Start {
        /// The root's entry state.
        entry: StateId,
        /// The root's exit state.
        exit: StateId,
    },
    /// Rule (4): `M_{entry,c} → N_entry`.
    Entry {
        /// The method.
        method: MethodId,
        /// The sub-grammar's exit state.
        exit: StateId,
        /// The entry state.
        entry: StateId,
    },
    /// Rule (1): `N_s → N_s'` for a non-call, non-API PCFA edge.
    Intra {
        /// The method.
        method: MethodId,
        /// The sub-grammar's exit state.
        exit: StateId,
        /// The PCFA edge.
        edge: PcfaEdgeId,
    },
    /// Rule (2): `N_s → t N_s'` for an API PCFA edge.
    Api {
        /// The method.
        method: MethodId,
        /// The sub-grammar's exit state.
        exit: StateId,
        /// The PCFA edge.
        edge: PcfaEdgeId,
        /// The program terminal emitted.
        terminal: TerminalId,
    },
    /// Rule (3): `N_s → M'_{e0',c'} N_s'` for a call PCFA edge entering the callee through
    /// `callee_entry` and returning through `callee_exit`.
    Call {
        /// The caller.
        method: MethodId,
        /// The sub-grammar's exit state.
        exit: StateId,
        /// The PCFA edge of the call.
        edge: PcfaEdgeId,
        /// The callee.
        callee: MethodId,
        /// The callee's entry state (clone) the call enters.
        callee_entry: StateId,
        /// The callee's exit state (clone) the call returns through.
        callee_exit: StateId,
    },
    /// Rule (5): `N_c → ε`.
    Exit {
        /// The method.
        method: MethodId,
        /// The exit state.
        exit: StateId,
    },
}

/// The question rule (3) asks: may the call on PCFA edge `edge` of `caller` enter the
/// callee through its entry state `callee_entry` and return through its exit state
/// `callee_exit`?
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallQuery {
    /// The calling method.
    pub caller: MethodId,
    /// The call edge (`from`, `to` are the caller's states around the call).
    pub edge: PcfaEdge,
    /// The called method.
    pub callee: MethodId,
    /// The callee's entry state.
    pub callee_entry: StateId,
    /// The callee's exit state.
    pub callee_exit: StateId,
}

/// `G_P` with the origin of each of its symbols and productions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProgramGrammar {
    /// The grammar.
    pub grammar: Grammar,
    /// Per nonterminal id, what it stands for.
    pub nonterminals: Vec<NtInfo>,
    /// Per production id, where it comes from.
    pub productions: Vec<ProdOrigin>,
    /// Per grammar terminal id, the program terminal.
    pub terminals: Vec<TerminalId>,
    #[serde(skip)]
    index: HashMap<NtInfo, NontermId>,
}

impl ProgramGrammar {
    fn empty() -> Self {
        ProgramGrammar {
            grammar: Grammar {
                terminals: Vec::new(),
                nonterminals: Vec::new(),
                productions: Vec::new(),
                start: NontermId(0),
            },
            nonterminals: Vec::new(),
            productions: Vec::new(),
            terminals: Vec::new(),
            index: HashMap::new(),
        }
    }

    /// What nonterminal `n` stands for.
    pub fn nt_info(&self, n: NontermId) -> Option<NtInfo> {
        self.nonterminals.get(n.index()).copied()
    }

    /// Where production `p` comes from.
    pub fn origin(&self, p: ProdId) -> Option<ProdOrigin> {
        self.productions.get(p.index()).copied()
    }

    /// The nonterminal standing for `info`, if the grammar has it.
    pub fn nonterminal(&self, info: &NtInfo) -> Option<NontermId> {
        self.index.get(info).copied()
    }

    /// The program terminal of grammar terminal `t`.
    pub fn program_terminal(&self, t: TermId) -> Option<TerminalId> {
        self.terminals.get(t.index()).copied()
    }
}

/// ConstructCFG with the call-feasibility check `feasible` (paper Fig. 13/14).
pub fn construct_cfg(
    program: &Program,
    pcfas: &Pcfas,
    feasible: &mut dyn FnMut(&CallQuery) -> bool,
) -> ProgramGrammar {
    construct_cfg_until(program, pcfas, feasible, &|| false).unwrap_or_else(ProgramGrammar::empty)
}

/// [`construct_cfg`], polling `stop` before each sub-grammar: `None` once it says stop
/// (a grammar of a thousand methods with many predicates per state takes long to build).
pub fn construct_cfg_until(
    program: &Program,
    pcfas: &Pcfas,
    feasible: &mut dyn FnMut(&CallQuery) -> bool,
    stop: &dyn Fn() -> bool,
) -> Option<ProgramGrammar> {
    let mut b = Builder::new(program, pcfas, false);
    b.start();
    b.walk(feasible, stop)
}

/// The walk of [`construct_cfg`] without the grammar, in rounds: which rule (3)
/// questions the grammar reaches, given the answers known so far.
///
/// A round walks the sub-grammars that became reachable since the last round and returns
/// the questions it met that have no answer yet (an unanswered call is not followed).
/// Once every returned question has an answer, the next round follows the calls answered
/// feasible. When a round returns nothing, every question [`construct_cfg`] asks with
/// the same answers has been returned by some round; sub-grammars no feasible call
/// reaches are never walked.
pub struct CallWalk<'a> {
    builder: Builder<'a>,
    /// The questions the last round returned.
    pending: Vec<CallQuery>,
    started: bool,
}

impl<'a> CallWalk<'a> {
    /// A walk of the grammar of `pcfas` from the root.
    pub fn new(program: &'a Program, pcfas: &'a Pcfas) -> Self {
        CallWalk {
            builder: Builder::new(program, pcfas, true),
            pending: Vec::new(),
            started: false,
        }
    }

    /// The next round: the unanswered questions of the newly reachable sub-grammars
    /// (`answer` gives the answers known, `None` for none yet), in the order met. A
    /// question the last round returned and `answer` still leaves open is not followed
    /// (nor returned again). `stop` is polled before each sub-grammar: `None` once it
    /// says stop (the walk cannot go on after that).
    pub fn round(
        &mut self,
        answer: &dyn Fn(&CallQuery) -> Option<bool>,
        stop: &dyn Fn() -> bool,
    ) -> Option<Vec<CallQuery>> {
        let mut fresh: Vec<CallQuery> = Vec::new();
        let mut ask = |q: &CallQuery| match answer(q) {
            Some(b) => b,
            None => {
                fresh.push(*q);
                false
            }
        };
        if !self.started {
            self.started = true;
            self.builder.start();
        }
        for q in std::mem::take(&mut self.pending) {
            if answer(&q) == Some(true) {
                self.builder
                    .method_nt(q.callee, q.callee_entry, q.callee_exit);
            }
        }
        self.builder.walk(&mut ask, stop)?;
        self.pending = fresh.clone();
        Some(fresh)
    }
}

/// ConstructCFG where every callee exit clone is feasible at every call site: a sound
/// over-approximation (the grammar of the initial PCFAs, paper Fig. 4).
pub fn construct_cfg_unchecked(program: &Program, pcfas: &Pcfas) -> ProgramGrammar {
    construct_cfg(program, pcfas, &mut |_| true)
}

struct Builder<'a> {
    program: &'a Program,
    pcfas: &'a Pcfas,
    /// Only walk: no names, no productions (see [`visit_calls`]).
    dry: bool,
    memo: HashMap<(MethodId, PcfaEdgeId, StateId, StateId), bool>,
    /// The call edges walked (dry walks only): a call's questions and the sub-grammars
    /// it reaches do not depend on the caller's sub-grammar, so one visit is enough.
    calls_walked: HashSet<(MethodId, PcfaEdgeId)>,
    /// The live entry states of `(method, exit)`.
    entries: HashMap<(MethodId, StateId), std::sync::Arc<[StateId]>>,
    live: HashMap<(MethodId, StateId), Vec<bool>>,
    out: ProgramGrammar,
    term_index: BTreeMap<String, TermId>,
    term_of: Vec<Option<TermId>>,
    queued: HashSet<(MethodId, StateId)>,
    queue: VecDeque<(MethodId, StateId)>,
    /// The discovery order of the sub-grammars walked.
    order: HashMap<(MethodId, StateId), usize>,
}

impl<'a> Builder<'a> {
    fn new(program: &'a Program, pcfas: &'a Pcfas, dry: bool) -> Self {
        let mut b = Builder {
            program,
            pcfas,
            dry,
            memo: HashMap::new(),
            calls_walked: HashSet::new(),
            entries: HashMap::new(),
            live: HashMap::new(),
            out: ProgramGrammar::empty(),
            term_index: BTreeMap::new(),
            term_of: Vec::new(),
            queued: HashSet::new(),
            queue: VecDeque::new(),
            order: HashMap::new(),
        };
        // Every program terminal, in order (unused ones are harmless: the inclusion
        // engine cleans the grammar first).
        for (i, t) in program.terminals.iter().enumerate() {
            let name = t.to_string();
            let id = match b.term_index.get(&name) {
                Some(id) => *id,
                None => {
                    let id = TermId(b.out.grammar.terminals.len() as u32);
                    b.out.grammar.terminals.push(name.clone());
                    b.out.terminals.push(TerminalId(i as u32));
                    b.term_index.insert(name, id);
                    id
                }
            };
            b.term_of.push(Some(id));
        }
        b
    }

    fn pcfa(&self, m: MethodId) -> Option<&'a Pcfa> {
        self.pcfas.method(m)
    }

    fn exit_suffix(&self, m: MethodId, exit: StateId) -> String {
        self.exit_suffix_with(m, exit, '@')
    }

    fn exit_suffix_with(&self, m: MethodId, exit: StateId, sep: char) -> String {
        let pcfa = self.pcfa(m);
        match pcfa.and_then(|p| p.state(exit)) {
            // An exit through which the method ends by throwing: `!` (`!1`, … for clones).
            Some(st) if pcfa.and_then(|p| p.throw_loc) == Some(st.loc) => {
                if st.clone != 0 {
                    format!("{sep}!{}", st.clone)
                } else {
                    format!("{sep}!")
                }
            }
            Some(st) if st.clone != 0 => format!("{sep}e{}", st.clone),
            _ => String::new(),
        }
    }

    /// `@<entry state>` when the method has several entry states, else empty.
    fn entry_suffix(&self, m: MethodId, entry: StateId) -> String {
        match self.pcfa(m) {
            Some(p) if p.entry_states().len() > 1 => format!("@{}", p.state_name(entry)),
            _ => String::new(),
        }
    }

    fn name(&self, info: &NtInfo) -> String {
        let mname = |m: MethodId| {
            self.program
                .method(m)
                .map_or_else(|| format!("<method{}>", m.0), |c| c.name.clone())
        };
        match *info {
            NtInfo::Start => "<start>".to_string(),
            NtInfo::Method {
                method,
                entry,
                exit,
            } => {
                let es = self.entry_suffix(method, entry);
                let sep = if es.is_empty() { '@' } else { '>' };
                format!(
                    "{}{}{}",
                    mname(method),
                    es,
                    self.exit_suffix_with(method, exit, sep)
                )
            }
            NtInfo::State {
                method,
                state,
                exit,
            } => {
                let sname = self
                    .pcfa(method)
                    .map_or_else(String::new, |p| p.state_name(state));
                format!(
                    "{}:{}{}",
                    mname(method),
                    sname,
                    self.exit_suffix(method, exit)
                )
            }
        }
    }

    fn nt(&mut self, info: NtInfo) -> NontermId {
        if self.dry {
            return NontermId(0);
        }
        if let Some(n) = self.out.index.get(&info) {
            return *n;
        }
        let name = self.name(&info);
        let id = NontermId(self.out.grammar.nonterminals.len() as u32);
        self.out.grammar.nonterminals.push(name);
        self.out.nonterminals.push(info);
        self.out.index.insert(info, id);
        id
    }

    fn prod(&mut self, lhs: NontermId, rhs: Vec<Sym>, origin: ProdOrigin) {
        if self.dry {
            return;
        }
        self.out.grammar.productions.push(Production { lhs, rhs });
        self.out.productions.push(origin);
    }

    /// States of `m` on some entry→`exit` path (memoised).
    fn live(&mut self, m: MethodId, exit: StateId) -> &[bool] {
        let pcfa = self.pcfa(m);
        self.live
            .entry((m, exit))
            .or_insert_with(|| pcfa.map_or_else(Vec::new, |p| live_states(p, exit)))
    }

    /// The entry states of `m` from which `exit` is reachable.
    fn live_entries(&mut self, m: MethodId, exit: StateId) -> std::sync::Arc<[StateId]> {
        if let Some(e) = self.entries.get(&(m, exit)) {
            return e.clone();
        }
        let pcfa = self.pcfa(m);
        let live = self.live(m, exit);
        let e: std::sync::Arc<[StateId]> = pcfa
            .map_or(&[][..], |p| p.entry_states())
            .iter()
            .copied()
            .filter(|s| live.get(s.index()).copied().unwrap_or(false))
            .collect();
        self.entries.insert((m, exit), e.clone());
        e
    }

    /// The method nonterminal of `(m, entry, exit)` with its rule (4) production
    /// `M_{entry,exit} → N_entry`, queueing the sub-grammar of `(m, exit)`. `entry` must
    /// be live for `exit`.
    fn method_nt(&mut self, m: MethodId, entry: StateId, exit: StateId) -> NontermId {
        if self.queued.insert((m, exit)) {
            self.queue.push_back((m, exit));
        }
        if self.dry {
            return NontermId(0);
        }
        let info = NtInfo::Method {
            method: m,
            entry,
            exit,
        };
        if let Some(n) = self.out.index.get(&info) {
            return *n;
        }
        let mnt = self.nt(info);
        let n = self.nt(NtInfo::State {
            method: m,
            state: entry,
            exit,
        });
        self.prod(
            mnt,
            vec![Sym::N(n)],
            ProdOrigin::Entry {
                method: m,
                exit,
                entry,
            },
        );
        mnt
    }

    /// The start symbol and the root's sub-grammars queued.
    fn start(&mut self) {
        let root = self.program.root;
        let root_exits: Vec<StateId> = self
            .pcfa(root)
            .map_or_else(Vec::new, |p| p.exit_states().to_vec());
        let mut roots: Vec<(StateId, StateId)> = Vec::new();
        for x in root_exits {
            for &e in self.live_entries(root, x).iter() {
                roots.push((e, x));
            }
        }
        let start = match roots.as_slice() {
            [(e, x)] => self.method_nt(root, *e, *x),
            _ => {
                let s = self.nt(NtInfo::Start);
                for (e, x) in roots {
                    let m = self.method_nt(root, e, x);
                    self.prod(s, vec![Sym::N(m)], ProdOrigin::Start { entry: e, exit: x });
                }
                s
            }
        };
        self.out.grammar.start = start;
    }

    /// The queued sub-grammars and those they reach, then the grammar so far.
    /// `None` when `stop` says stop (polled before each sub-grammar).
    fn walk(
        &mut self,
        feasible: &mut dyn FnMut(&CallQuery) -> bool,
        stop: &dyn Fn() -> bool,
    ) -> Option<ProgramGrammar> {
        while let Some((m, exit)) = self.queue.pop_front() {
            if stop() {
                return None;
            }
            let k = self.order.len();
            self.order.insert((m, exit), k);
            self.sub_grammar(m, exit, feasible);
        }
        if self.dry {
            return Some(ProgramGrammar::empty());
        }
        renumber(&mut self.out, &self.order);
        Some(std::mem::replace(&mut self.out, ProgramGrammar::empty()))
    }

    /// GenGrammar(A, c, Θ) for method `m` and exit state `exit`.
    fn sub_grammar(
        &mut self,
        m: MethodId,
        exit: StateId,
        feasible: &mut dyn FnMut(&CallQuery) -> bool,
    ) {
        let (Some(pcfa), Some(cfa)) = (self.pcfa(m), self.program.method(m)) else {
            return;
        };
        let live = self.live(m, exit).to_vec();
        let state_nt = |b: &mut Self, s: StateId| {
            b.nt(NtInfo::State {
                method: m,
                state: s,
                exit,
            })
        };
        for st in pcfa.states() {
            let s = st.id;
            if !live.get(s.index()).copied().unwrap_or(false) {
                continue;
            }
            let lhs = state_nt(self, s);
            if s == exit {
                self.prod(lhs, Vec::new(), ProdOrigin::Exit { method: m, exit });
            }
            for &eid in pcfa.out_edges(s) {
                let Some(edge) = pcfa.edge(eid).copied() else {
                    continue;
                };
                if !live.get(edge.to.index()).copied().unwrap_or(false) {
                    continue;
                }
                let Some(label) = cfa.graph.edge_weight(edge.cfa_edge) else {
                    continue;
                };
                let rhs_nt = state_nt(self, edge.to);
                match label {
                    Edge::Block(_) => self.prod(
                        lhs,
                        vec![Sym::N(rhs_nt)],
                        ProdOrigin::Intra {
                            method: m,
                            exit,
                            edge: eid,
                        },
                    ),
                    Edge::Api { terminal, .. } => {
                        self.api_prod(lhs, rhs_nt, m, exit, eid, *terminal)
                    }
                    Edge::ApiCall { terminals, .. } => {
                        // Not instrumented: any of its terminals, or none (a sound
                        // over-approximation of the guards instrumentation would add).
                        for t in terminals {
                            self.api_prod(lhs, rhs_nt, m, exit, eid, *t);
                        }
                        self.prod(
                            lhs,
                            vec![Sym::N(rhs_nt)],
                            ProdOrigin::Intra {
                                method: m,
                                exit,
                                edge: eid,
                            },
                        );
                    }
                    Edge::Call { callee, unwind, .. } => {
                        if self.dry && !self.calls_walked.insert((m, eid)) {
                            continue;
                        }
                        let callee = *callee;
                        let exits: Vec<StateId> = self
                            .pcfa(callee)
                            .map_or_else(Vec::new, |p| p.return_states(*unwind).to_vec());
                        for ce in exits {
                            for &ci in self.live_entries(callee, ce).iter() {
                                let q = CallQuery {
                                    caller: m,
                                    edge,
                                    callee,
                                    callee_entry: ci,
                                    callee_exit: ce,
                                };
                                let ok = match self.memo.get(&(m, eid, ci, ce)) {
                                    Some(v) => *v,
                                    None => {
                                        let v = feasible(&q);
                                        self.memo.insert((m, eid, ci, ce), v);
                                        v
                                    }
                                };
                                if !ok {
                                    continue;
                                }
                                let callee_nt = self.method_nt(callee, ci, ce);
                                self.prod(
                                    lhs,
                                    vec![Sym::N(callee_nt), Sym::N(rhs_nt)],
                                    ProdOrigin::Call {
                                        method: m,
                                        exit,
                                        edge: eid,
                                        callee,
                                        callee_entry: ci,
                                        callee_exit: ce,
                                    },
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    fn api_prod(
        &mut self,
        lhs: NontermId,
        rhs: NontermId,
        method: MethodId,
        exit: StateId,
        edge: PcfaEdgeId,
        terminal: TerminalId,
    ) {
        let Some(Some(t)) = self.term_of.get(terminal.index()).copied() else {
            return;
        };
        self.prod(
            lhs,
            vec![Sym::T(t), Sym::N(rhs)],
            ProdOrigin::Api {
                method,
                exit,
                edge,
                terminal,
            },
        );
    }
}

#[cfg(test)]
pub(crate) mod tests;
