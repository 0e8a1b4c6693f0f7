//! The grammar's final numbering: each sub-grammar's nonterminals contiguous.

use super::{NtInfo, ProgramGrammar};
use crate::ir::MethodId;
use crate::pcfa::StateId;
use cfp_grammar::{NontermId, Sym};
use std::collections::HashMap;

/// Renumber the nonterminals so that each sub-grammar's symbols are contiguous: the
/// start symbol, then per sub-grammar (in the order they were discovered from the root)
/// its method nonterminal and its state nonterminals by state id.
pub(super) fn renumber(out: &mut ProgramGrammar, order: &HashMap<(MethodId, StateId), usize>) {
    let rank = |info: &NtInfo| -> (usize, usize, u32) {
        match *info {
            NtInfo::Start => (0, 0, 0),
            NtInfo::Method {
                method,
                entry,
                exit,
            } => (
                order.get(&(method, exit)).map_or(usize::MAX, |k| k + 1),
                0,
                entry.0,
            ),
            NtInfo::State {
                method,
                state,
                exit,
            } => (
                order.get(&(method, exit)).map_or(usize::MAX, |k| k + 1),
                1,
                state.0,
            ),
        }
    };
    // Ranks once per symbol; the index breaks ties, so the order is total.
    let mut keyed: Vec<((usize, usize, u32), usize)> = out
        .nonterminals
        .iter()
        .enumerate()
        .map(|(i, info)| (rank(info), i))
        .collect();
    keyed.sort_unstable();
    let perm: Vec<usize> = keyed.into_iter().map(|(_, i)| i).collect();
    // new_id[old] = new
    let mut new_id = vec![NontermId(0); perm.len()];
    for (new, &old) in perm.iter().enumerate() {
        new_id[old] = NontermId(new as u32);
    }
    let map = |n: NontermId| new_id.get(n.index()).copied().unwrap_or(n);
    out.grammar.nonterminals = perm
        .iter()
        .map(|&i| std::mem::take(&mut out.grammar.nonterminals[i]))
        .collect();
    out.nonterminals = perm.iter().map(|&i| out.nonterminals[i]).collect();
    for p in &mut out.grammar.productions {
        p.lhs = map(p.lhs);
        for s in &mut p.rhs {
            if let Sym::N(n) = s {
                *n = map(*n);
            }
        }
    }
    out.grammar.start = map(out.grammar.start);
    for v in out.index.values_mut() {
        *v = map(*v);
    }
}
