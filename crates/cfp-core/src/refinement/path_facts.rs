//! The "path facts" strategy, the last resort of the portfolio: the atoms of the core
//! formulas themselves, projected to each position by equality reasoning — constants
//! related by a core equality `v = w` of a parameter or result binding form classes, and a
//! constant out of scope is replaced by a member of its class that is in scope at the
//! position (its current SSA term there); atoms that still mention an out-of-scope constant
//! are dropped. These are the path's own facts at its positions: the strongest predicates
//! the sliced trace offers, used when the others make no progress.

use super::atoms::{atoms_of, conjuncts};
use super::slicing::Sliced;
use crate::encode::Symbols;
use crate::trace::EncodedTrace;
use cfp_smt::{Op, Term, TermKind};
use std::collections::BTreeMap;

/// The path facts (see the module doc): atoms of the core formulas projected to each
/// position through the core's variable equalities.
pub fn path_facts(trace: &EncodedTrace, sliced: &Sliced, symbols: &Symbols) -> Vec<Vec<Term>> {
    // Union-find over SSA constants related by `v = w` in the core.
    let mut parent: BTreeMap<String, String> = BTreeMap::new();
    fn find(p: &mut BTreeMap<String, String>, x: &str) -> String {
        let mut cur = x.to_string();
        while let Some(next) = p.get(&cur) {
            if *next == cur {
                break;
            }
            cur = next.clone();
        }
        cur
    }
    let mut core_atoms: Vec<Term> = Vec::new();
    for (k, t) in std::iter::once(&sliced.init)
        .chain(sliced.steps.iter())
        .enumerate()
    {
        // Only parameter and result bindings (calls and returns) link frames.
        let binding = k > 0
            && (trace.call_of.get(k - 1).is_some_and(Option::is_some)
                || trace.positions.get(k).map(|p| p.depth)
                    > trace.positions.get(k - 1).map(|p| p.depth));
        let mut conj = Vec::new();
        conjuncts(t, &mut conj);
        for c in conj {
            if !binding {
                atoms_of(&c, &mut core_atoms);
                continue;
            }
            if let TermKind::App(Op::Eq, args) = c.kind() {
                if let (Some(TermKind::Var(a, _)), Some(TermKind::Var(b, _))) =
                    (args.first().map(Term::kind), args.get(1).map(Term::kind))
                {
                    let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
                    if ra != rb {
                        let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
                        parent.insert(hi, lo);
                    }
                    continue;
                }
            }
            atoms_of(&c, &mut core_atoms);
        }
    }
    let mut out = Vec::with_capacity(trace.positions.len());
    for (i, pos) in trace.positions.iter().enumerate() {
        // SSA constant class → state symbol in scope here.
        let mut here: BTreeMap<String, Term> = BTreeMap::new();
        let scope = symbols.scope(pos.method).unwrap_or_default();
        for (n, s) in scope {
            if let Ok(t) = pos.names.get(n) {
                if let TermKind::Var(v, _) = t.kind() {
                    let r = find(&mut parent, v);
                    // Prefer the plain symbol over an entry copy.
                    here.entry(r)
                        .or_insert_with(|| Term::var(n.clone(), s.clone()));
                }
            }
        }
        let mut atoms: Vec<Term> = Vec::new();
        let _ = i;
        for a in &core_atoms {
            let vars = a.free_vars();
            let mut ok = true;
            let mut map: BTreeMap<String, Term> = BTreeMap::new();
            for (v, _) in &vars {
                match here.get(&find(&mut parent, v)) {
                    Some(t) => {
                        map.insert(v.clone(), t.clone());
                    }
                    None => ok = false,
                }
            }
            if ok && !vars.is_empty() {
                let renamed = a.substitute(&|n| map.get(n).cloned());
                let trivial = matches!(renamed.kind(), TermKind::App(Op::Eq, xs) if xs.len() == 2 && xs[0] == xs[1]);
                if !trivial {
                    atoms_of(&renamed, &mut atoms);
                }
            }
        }
        // Equalities between in-scope members of one class are predicates too.
        let mut classes: BTreeMap<String, Vec<Term>> = BTreeMap::new();
        for (n, s) in scope {
            if let Ok(t) = pos.names.get(n) {
                if let TermKind::Var(v, _) = t.kind() {
                    if parent.contains_key(v) {
                        classes
                            .entry(find(&mut parent, v))
                            .or_default()
                            .push(Term::var(n.clone(), s.clone()));
                    }
                }
            }
        }
        for members in classes.values() {
            for w in members.windows(2) {
                atoms_of(&Term::eq(w[0].clone(), w[1].clone()), &mut atoms);
            }
        }
        out.push(atoms);
    }
    out
}
