//! What a call may change: the symbols a method modifies (transitively, through its
//! callees) and where it may write each field array ([`WriteSites`]) — the frame of
//! the call check and of the call edges in UpdateTransitions.

use super::*;
use std::collections::VecDeque;

/// Where a call of a method may write one field array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteSites {
    /// Only at the objects its parameters with these indices denote on entry (`this.f = …`
    /// in a constructor or a setter: index 0).
    Params(BTreeSet<usize>),
    /// Possibly at any object.
    Anywhere,
}

impl WriteSites {
    pub(super) fn join(&mut self, other: WriteSites) -> bool {
        match (&mut *self, other) {
            (WriteSites::Anywhere, _) => false,
            (_, WriteSites::Anywhere) => {
                *self = WriteSites::Anywhere;
                true
            }
            (WriteSites::Params(a), WriteSites::Params(b)) => {
                let before = a.len();
                a.extend(b);
                a.len() != before
            }
        }
    }
}

impl<'p> Encoder<'p> {
    /// Where a call of `m` may write each field array (by symbol name), directly or
    /// through its callees: only at objects its own, never reassigned parameters denote
    /// ([`WriteSites::Params`]), or anywhere. A field array missing from the map is not
    /// written (see [`Encoder::modified_by`]). After a call, the cells of a
    /// `Params`-written array at every other object keep their values.
    pub fn field_writes(&self, m: MethodId) -> Option<FieldWrites<'_>> {
        let t = self
            .tables
            .field_writes
            .get_or_init(|| self.compute_field_writes());
        t.per_method.get(m.index()).map(|map| FieldWrites {
            numbers: &t.numbers,
            map,
        })
    }

    pub(super) fn compute_field_writes(&self) -> Numbered<BTreeMap<u32, WriteSites>> {
        let program = self.program;
        // The parameter index of `e` when it is a parameter `m` never assigns.
        let param_of = |cfa: &MethodCfa, assigned: &BTreeSet<VarId>, e: &Expr| match e {
            Expr::Var(v) if !assigned.contains(v) => cfa.params.iter().position(|p| p == v),
            _ => None,
        };
        let assigned: Vec<BTreeSet<VarId>> = program
            .methods
            .iter()
            .map(crate::call_check::written_vars)
            .collect();
        // Field arrays by symbol name, numbered as first met.
        let mut numbers: BTreeMap<String, u32> = BTreeMap::new();
        let mut out: Vec<BTreeMap<u32, WriteSites>> = Vec::with_capacity(program.methods.len());
        for (cfa, assigned) in program.methods.iter().zip(&assigned) {
            let mut w: BTreeMap<u32, WriteSites> = BTreeMap::new();
            let mut note = |f: &str, site: WriteSites| {
                let k = number(&mut numbers, f);
                match w.get_mut(&k) {
                    Some(old) => {
                        old.join(site);
                    }
                    None => {
                        w.insert(k, site);
                    }
                }
            };
            for e in cfa.graph.edge_weights() {
                match e {
                    Edge::Block(stmts) => {
                        for st in stmts {
                            if let Stmt::Assign {
                                place: Place::Field { obj, field },
                                ..
                            }
                            | Stmt::Havoc(Place::Field { obj, field }) = &st.node
                            {
                                if let Ok((f, _)) = self.tables.symbols.field(*field) {
                                    let site = match param_of(cfa, assigned, obj) {
                                        Some(k) => WriteSites::Params(BTreeSet::from([k])),
                                        None => WriteSites::Anywhere,
                                    };
                                    note(f, site);
                                }
                            }
                        }
                    }
                    Edge::Call {
                        result: Some(Place::Field { field, .. }),
                        ..
                    } => {
                        if let Ok((f, _)) = self.tables.symbols.field(*field) {
                            note(f, WriteSites::Anywhere);
                        }
                    }
                    _ => {}
                }
            }
            out.push(w);
        }
        // Through calls, callees first: a callee's write at its parameter j is a write
        // at the caller's actual j — at the caller's parameter k when the actual is that
        // parameter. Calls out of a strongly connected component of the call graph read
        // final summaries (one pass); inside a recursive one, a worklist re-reads a
        // callee's summary into its callers only when it grew.
        let propagate = |out: &mut Vec<BTreeMap<u32, WriteSites>>,
                         mi: usize,
                         c: usize,
                         args: &[Expr]|
         -> bool {
            if c >= out.len() {
                return false;
            }
            let cfa = &program.methods[mi];
            let theirs = if c == mi {
                out[c].clone()
            } else {
                std::mem::take(&mut out[c])
            };
            let mut changed = false;
            for (f, sites) in &theirs {
                let mapped = match sites {
                    WriteSites::Anywhere => WriteSites::Anywhere,
                    WriteSites::Params(js) => {
                        let ks: Option<BTreeSet<usize>> = js
                            .iter()
                            .map(|j| args.get(*j).and_then(|a| param_of(cfa, &assigned[mi], a)))
                            .collect();
                        ks.map_or(WriteSites::Anywhere, WriteSites::Params)
                    }
                };
                match out[mi].get_mut(f) {
                    Some(old) => changed |= old.join(mapped),
                    None => {
                        out[mi].insert(*f, mapped);
                        changed = true;
                    }
                }
            }
            if c != mi {
                out[c] = theirs;
            }
            changed
        };
        let mut component = vec![usize::MAX; program.methods.len()];
        for (k, scc) in callee_first_components(program).into_iter().enumerate() {
            for &mi in &scc {
                component[mi] = k;
            }
            // Calls into earlier components: their summaries are final.
            let mut inner: Vec<(usize, usize, &[Expr])> = Vec::new();
            for &mi in &scc {
                for (callee, args) in calls_of(&program.methods[mi]) {
                    let c = callee.index();
                    if component.get(c) == Some(&k) {
                        inner.push((mi, c, args));
                    } else {
                        propagate(&mut out, mi, c, args);
                    }
                }
            }
            if inner.is_empty() {
                continue;
            }
            // Inside the component: every summary is read once, then again by the
            // callers of a summary that grew.
            let mut callers: BTreeMap<usize, Vec<(usize, &[Expr])>> = BTreeMap::new();
            for &(mi, c, args) in &inner {
                callers.entry(c).or_default().push((mi, args));
            }
            let mut queued: BTreeSet<usize> = scc.iter().copied().collect();
            let mut work: VecDeque<usize> = scc.iter().copied().collect();
            while let Some(c) = work.pop_front() {
                queued.remove(&c);
                for &(mi, args) in callers.get(&c).map_or(&[][..], |v| v.as_slice()) {
                    if propagate(&mut out, mi, c, args) && queued.insert(mi) {
                        work.push_back(mi);
                    }
                }
            }
        }
        Numbered {
            numbers,
            per_method: out,
        }
    }

    /// The shared symbols (globals, field arrays, `%alloc`) that a call of `m` may change:
    /// those some edge of `m`, or of a method it calls directly or transitively, writes
    /// (an assignment, a havoc, an allocation, a call result). Every other shared symbol
    /// has the same value after the call as before it — the frame of the call, which a
    /// callee's summary then need not state.
    pub fn modified_by(&self, m: MethodId) -> Option<Modified<'_>> {
        let t = self.tables.modified.get_or_init(|| self.compute_modified());
        t.per_method.get(m.index()).map(|set| Modified {
            numbers: &t.numbers,
            set,
        })
    }

    pub(super) fn compute_modified(&self) -> Numbered<BTreeSet<u32>> {
        let shared = self.tables.symbols.shared();
        let shared_names: BTreeSet<&str> = shared.iter().map(|(n, _)| n.as_str()).collect();
        let mut numbers: BTreeMap<String, u32> = BTreeMap::new();
        let mut out: Vec<BTreeSet<u32>> = Vec::with_capacity(self.program.methods.len());
        let mut calls: Vec<Vec<MethodId>> = Vec::with_capacity(self.program.methods.len());
        for cfa in &self.program.methods {
            let mut written: BTreeSet<u32> = BTreeSet::new();
            let mut callees = Vec::new();
            let pre = self.identity(cfa.id).unwrap_or_default();
            for e in cfa.graph.edge_weights() {
                match e {
                    Edge::Call { callee, result, .. } => {
                        callees.push(*callee);
                        match result {
                            Some(Place::Global(g)) => {
                                if let Ok((n, _)) = self.tables.symbols.global(*g) {
                                    written.insert(number(&mut numbers, n));
                                }
                            }
                            Some(Place::Field { field, .. }) => {
                                if let Ok((n, _)) = self.tables.symbols.field(*field) {
                                    written.insert(number(&mut numbers, n));
                                }
                            }
                            _ => {}
                        }
                    }
                    other => {
                        let mut post = Names::new();
                        match self.edge_formula(cfa.id, other, &pre, &mut post) {
                            Ok(_) => {
                                // `post` is `pre` (the identity) with the writes.
                                for (n, _) in pre.changed_bindings(&post) {
                                    if let Some(n) = shared_names.get(n) {
                                        written.insert(number(&mut numbers, n));
                                    }
                                }
                            }
                            // Cannot tell: everything may change (sound).
                            Err(_) => {
                                for (n, _) in shared.iter() {
                                    written.insert(number(&mut numbers, n));
                                }
                            }
                        }
                    }
                }
            }
            out.push(written);
            calls.push(callees);
        }
        // Transitively through calls, callees first. Inside a recursive strongly
        // connected component every member calls every member: all of them modify the
        // union of what the members and their callees outside it modify.
        let mut component = vec![usize::MAX; out.len()];
        for (k, scc) in callee_first_components(self.program)
            .into_iter()
            .enumerate()
        {
            for &m in &scc {
                component[m] = k;
            }
            let recursive =
                scc.len() > 1 || scc.iter().any(|&m| calls[m].iter().any(|c| c.index() == m));
            let mut union: BTreeSet<u32> = BTreeSet::new();
            for &m in &scc {
                if recursive {
                    union.extend(out[m].iter().copied());
                }
                for c in &calls[m] {
                    let c = c.index();
                    if c >= out.len() || component[c] == k {
                        continue;
                    }
                    let theirs = std::mem::take(&mut out[c]);
                    if recursive {
                        union.extend(theirs.iter().copied());
                    } else {
                        out[m].extend(theirs.iter().copied());
                    }
                    out[c] = theirs;
                }
            }
            if recursive {
                for &m in &scc {
                    out[m].clone_from(&union);
                }
            }
        }
        Numbered {
            numbers,
            per_method: out,
        }
    }
}

/// Per method, sets of symbols by number ([`number`]): one copy of each name however
/// many methods name it.
#[derive(Debug, Default)]
pub struct Numbered<T> {
    numbers: BTreeMap<String, u32>,
    per_method: Vec<T>,
}

/// The number of symbol `name` in `numbers`, given the next one when it is new.
fn number(numbers: &mut BTreeMap<String, u32>, name: &str) -> u32 {
    if let Some(&k) = numbers.get(name) {
        return k;
    }
    let k = u32::try_from(numbers.len()).unwrap_or(u32::MAX);
    numbers.insert(name.to_owned(), k);
    k
}

/// The shared symbols a call of one method may change ([`Encoder::modified_by`]).
#[derive(Clone, Copy)]
pub struct Modified<'a> {
    numbers: &'a BTreeMap<String, u32>,
    set: &'a BTreeSet<u32>,
}

impl Modified<'_> {
    /// Whether the symbol called `name` may change.
    pub fn contains(&self, name: &str) -> bool {
        self.numbers.get(name).is_some_and(|k| self.set.contains(k))
    }

    /// Whether nothing shared changes.
    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }
}

impl std::fmt::Debug for Modified<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set()
            .entries(
                self.numbers
                    .iter()
                    .filter(|(_, k)| self.set.contains(k))
                    .map(|(n, _)| n),
            )
            .finish()
    }
}

/// Where a call of one method may write each field array ([`Encoder::field_writes`]).
#[derive(Clone, Copy)]
pub struct FieldWrites<'a> {
    numbers: &'a BTreeMap<String, u32>,
    map: &'a BTreeMap<u32, WriteSites>,
}

impl<'a> FieldWrites<'a> {
    /// Where the field array called `name` may be written (`None`: it is not).
    pub fn get(&self, name: &str) -> Option<&'a WriteSites> {
        self.numbers.get(name).and_then(|k| self.map.get(k))
    }
}

/// The calls of `cfa`: callee and arguments.
fn calls_of(cfa: &MethodCfa) -> impl Iterator<Item = (MethodId, &[Expr])> {
    cfa.graph.edge_weights().filter_map(|e| match e {
        Edge::Call { callee, args, .. } => Some((*callee, args.as_slice())),
        _ => None,
    })
}

/// The strongly connected components of the call graph (method indices), each after
/// every component it calls into: a callee's summary is final before its callers read it.
fn callee_first_components(program: &Program) -> Vec<Vec<usize>> {
    let mut g: petgraph::graph::DiGraph<(), ()> = petgraph::graph::DiGraph::new();
    let nodes: Vec<_> = program.methods.iter().map(|_| g.add_node(())).collect();
    for (i, cfa) in program.methods.iter().enumerate() {
        for (c, _) in calls_of(cfa) {
            if let Some(&to) = nodes.get(c.index()) {
                g.add_edge(nodes[i], to, ());
            }
        }
    }
    // Tarjan's algorithm yields the components in reverse topological order: callees
    // first.
    petgraph::algo::tarjan_scc(&g)
        .into_iter()
        .map(|scc| scc.into_iter().map(|n| n.index()).collect())
        .collect()
}
