//! What a call may change: the symbols a method modifies (transitively, through its
//! callees) and where it may write each field array ([`WriteSites`]) — the frame of
//! the call check and of the call edges in UpdateTransitions.

use super::*;

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
    pub fn field_writes(&self, m: MethodId) -> Option<&BTreeMap<String, WriteSites>> {
        self.tables
            .field_writes
            .get_or_init(|| self.compute_field_writes())
            .get(m.index())
    }

    pub(super) fn compute_field_writes(&self) -> Vec<BTreeMap<String, WriteSites>> {
        let program = self.program;
        // The parameter index of `e` when it is a parameter `m` never assigns.
        let param_of = |cfa: &MethodCfa, assigned: &BTreeSet<VarId>, e: &Expr| match e {
            Expr::Var(v) if !assigned.contains(v) => cfa.params.iter().position(|p| p == v),
            _ => None,
        };
        let mut out: Vec<BTreeMap<String, WriteSites>> = Vec::with_capacity(program.methods.len());
        let assigned: Vec<BTreeSet<VarId>> = program
            .methods
            .iter()
            .map(crate::call_check::written_vars)
            .collect();
        for (cfa, assigned) in program.methods.iter().zip(&assigned) {
            let mut w: BTreeMap<String, WriteSites> = BTreeMap::new();
            let note = |w: &mut BTreeMap<String, WriteSites>, f: &str, site: WriteSites| match w
                .get_mut(f)
            {
                Some(old) => {
                    old.join(site);
                }
                None => {
                    w.insert(f.to_string(), site);
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
                                    note(&mut w, f, site);
                                }
                            }
                        }
                    }
                    Edge::Call {
                        result: Some(Place::Field { field, .. }),
                        ..
                    } => {
                        if let Ok((f, _)) = self.tables.symbols.field(*field) {
                            note(&mut w, f, WriteSites::Anywhere);
                        }
                    }
                    _ => {}
                }
            }
            out.push(w);
        }
        // Through calls: a callee's write at its parameter j is a write at the caller's
        // actual j — at the caller's parameter k when the actual is that parameter.
        loop {
            let mut changed = false;
            for (mi, cfa) in program.methods.iter().enumerate() {
                for e in cfa.graph.edge_weights() {
                    let Edge::Call { callee, args, .. } = e else {
                        continue;
                    };
                    let Some(theirs) = out.get(callee.index()).cloned() else {
                        continue;
                    };
                    for (f, sites) in theirs {
                        let mapped = match sites {
                            WriteSites::Anywhere => WriteSites::Anywhere,
                            WriteSites::Params(js) => {
                                let mut ks = BTreeSet::new();
                                let mut anywhere = false;
                                for j in js {
                                    match args.get(j).and_then(|a| param_of(cfa, &assigned[mi], a))
                                    {
                                        Some(k) => {
                                            ks.insert(k);
                                        }
                                        None => anywhere = true,
                                    }
                                }
                                if anywhere {
                                    WriteSites::Anywhere
                                } else {
                                    WriteSites::Params(ks)
                                }
                            }
                        };
                        match out[mi].get_mut(&f) {
                            Some(old) => changed |= old.join(mapped),
                            None => {
                                out[mi].insert(f, mapped);
                                changed = true;
                            }
                        }
                    }
                }
            }
            if !changed {
                return out;
            }
        }
    }

    /// The shared symbols (globals, field arrays, `%alloc`) that a call of `m` may change:
    /// those some edge of `m`, or of a method it calls directly or transitively, writes
    /// (an assignment, a havoc, an allocation, a call result). Every other shared symbol
    /// has the same value after the call as before it — the frame of the call, which a
    /// callee's summary then need not state.
    pub fn modified_by(&self, m: MethodId) -> Option<&BTreeSet<String>> {
        self.tables
            .modified
            .get_or_init(|| self.compute_modified())
            .get(m.index())
    }

    pub(super) fn compute_modified(&self) -> Vec<BTreeSet<String>> {
        let shared = self.tables.symbols.shared();
        let shared_names: BTreeSet<&str> = shared.iter().map(|(n, _)| n.as_str()).collect();
        let mut out: Vec<BTreeSet<String>> = Vec::with_capacity(self.program.methods.len());
        let mut calls: Vec<Vec<MethodId>> = Vec::with_capacity(self.program.methods.len());
        for cfa in &self.program.methods {
            let mut written = BTreeSet::new();
            let mut callees = Vec::new();
            let pre = self.identity(cfa.id).unwrap_or_default();
            for e in cfa.graph.edge_weights() {
                match e {
                    Edge::Call { callee, result, .. } => {
                        callees.push(*callee);
                        match result {
                            Some(Place::Global(g)) => {
                                if let Ok((n, _)) = self.tables.symbols.global(*g) {
                                    written.insert(n.clone());
                                }
                            }
                            Some(Place::Field { field, .. }) => {
                                if let Ok((n, _)) = self.tables.symbols.field(*field) {
                                    written.insert(n.clone());
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
                                        written.insert((*n).to_string());
                                    }
                                }
                            }
                            // Cannot tell: everything may change (sound).
                            Err(_) => written.extend(shared.iter().map(|(n, _)| n.clone())),
                        }
                    }
                }
            }
            out.push(written);
            calls.push(callees);
        }
        // Transitively through calls, to a fixpoint.
        loop {
            let mut changed = false;
            for m in 0..out.len() {
                for c in calls[m].clone() {
                    let add: Vec<String> = out
                        .get(c.index())
                        .map(|s| s.difference(&out[m]).cloned().collect())
                        .unwrap_or_default();
                    if !add.is_empty() {
                        out[m].extend(add);
                        changed = true;
                    }
                }
            }
            if !changed {
                return out;
            }
        }
    }
}
