//! Which objects the wildcards should name when a scout run is run again.
//!
//! A scout runs with the wildcards naming no object, so it emits nothing, but the
//! instrumentation's guards (`x == $1`) still compare every receiver with the wildcard's
//! global ([`interp::Run::wildcard_targets`]). With one wildcard, the word the run would
//! emit if `$1` named object `a` follows from those comparisons alone: at each call site
//! the first guard comparing `a` emits its terminal (the one on the guard's other
//! branch). So every object of the scout is checked against the spec at once, and only
//! the objects whose word the spec rejects are run again (the run, not the prediction, is
//! what counts). With several wildcards, objects called in a way no earlier run tried
//! come first.

use super::*;
use crate::ir::TerminalId;
use petgraph::graph::NodeIndex;
use petgraph::visit::EdgeRef;

/// How a run called one object: the API call sites, each with how often (counted up to
/// 3).
pub(crate) type Profile = Vec<(cfp_syntax::Span, u8)>;

/// A binding of the wildcards' globals for a run.
type Binding = Vec<(GlobalId, Value)>;

impl Hunter {
    /// The bindings to run `scout` again with: up to [`RETARGETS`].
    pub(super) fn bindings(
        &mut self,
        program: &Program,
        spec: &cfp_grammar::Grammar,
        scout: &interp::Run,
        wildcards: &[(GlobalId, u32)],
        random: &mut interp::RandomOracle,
    ) -> Vec<Binding> {
        match wildcards {
            [(g, w)] => predicted_violations(program, spec, &mut self.words, scout, *w)
                .into_iter()
                .take(RETARGETS)
                .map(|a| vec![(*g, Value::Int(a))])
                .collect(),
            _ => self.novel_bindings(scout, wildcards, random),
        }
    }

    /// Bindings to objects called in a way no earlier run tried (random among those).
    fn novel_bindings(
        &mut self,
        scout: &interp::Run,
        wildcards: &[(GlobalId, u32)],
        random: &mut interp::RandomOracle,
    ) -> Vec<Binding> {
        let profiles: Vec<Vec<(i64, Profile)>> =
            wildcards.iter().map(|(_, w)| profiles(scout, *w)).collect();
        let mut out: Vec<Binding> = Vec::new();
        for _ in 0..RETARGETS {
            let mut named = Vec::with_capacity(wildcards.len());
            for ((g, w), objects) in wildcards.iter().zip(&profiles) {
                let novel: Vec<&(i64, Profile)> = objects
                    .iter()
                    .filter(|(_, p)| !self.seen.contains(&(*w, p.clone())))
                    .collect();
                let pool: Vec<&(i64, Profile)> = if novel.is_empty() {
                    objects.iter().collect()
                } else {
                    novel
                };
                let pick = random.below(pool.len().max(1) as u64) as usize;
                let a = match pool.get(pick) {
                    Some((a, p)) => {
                        self.seen.insert((*w, p.clone()));
                        *a
                    }
                    None => NOWHERE,
                };
                named.push((*g, Value::Int(a)));
            }
            if named.iter().any(|(_, v)| *v != Value::Int(NOWHERE)) && !out.contains(&named) {
                out.push(named);
            }
        }
        out
    }
}

/// The objects a run compared with wildcard `w`, in the order first met, with their
/// profiles.
fn profiles(run: &interp::Run, w: u32) -> Vec<(i64, Profile)> {
    let mut order: Vec<i64> = Vec::new();
    let mut counts: BTreeMap<i64, BTreeMap<cfp_syntax::Span, u8>> = BTreeMap::new();
    for t in run.wildcard_targets.iter().filter(|t| t.wildcard == w) {
        let c = counts.entry(t.address).or_insert_with(|| {
            order.push(t.address);
            BTreeMap::new()
        });
        let n = c.entry(t.span).or_default();
        *n = (*n + 1).min(3);
    }
    order
        .into_iter()
        .map(|a| {
            let p = counts.remove(&a).unwrap_or_default().into_iter().collect();
            (a, p)
        })
        .collect()
}

/// What one object would make the run emit.
#[derive(Default)]
struct Prediction {
    /// The word; `None` when a guard's terminal could not be told.
    word: Option<Vec<TerminalId>>,
    /// The call site (span) and step of the last guard that emitted: the guards right
    /// after it at the same site are not reached.
    hit: Option<(cfp_syntax::Span, usize)>,
}

/// The objects of `scout` whose predicted word (wildcard `w` naming them) is outside the
/// spec, shortest word first; then those whose word could not be predicted.
fn predicted_violations(
    program: &Program,
    spec: &cfp_grammar::Grammar,
    words: &mut WordMemo,
    scout: &interp::Run,
    w: u32,
) -> Vec<i64> {
    let mut order: Vec<i64> = Vec::new();
    let mut predictions: BTreeMap<i64, Prediction> = BTreeMap::new();
    let targets = &scout.wildcard_targets;
    let mut i = 0;
    while i < targets.len() {
        // One guard: the comparisons of one `assume`.
        let step = targets[i].step;
        let mut j = i;
        while j < targets.len() && targets[j].step == step {
            j += 1;
        }
        let guard = &targets[i..j];
        i = j;
        let a = guard[0].address;
        if guard.iter().any(|t| t.wildcard != w || t.address != a) {
            // No binding of `$w` alone makes this guard true.
            continue;
        }
        let p = predictions.entry(a).or_insert_with(|| {
            order.push(a);
            Prediction {
                word: Some(Vec::new()),
                hit: None,
            }
        });
        let span = guard[0].span;
        if let Some((s, last)) = p.hit {
            if s == span && last + 1 == step {
                p.hit = Some((span, step));
                continue;
            }
        }
        p.hit = Some((span, step));
        match (guarded_terminal(program, scout, step), p.word.as_mut()) {
            (Some(t), Some(word)) => word.push(t),
            _ => p.word = None,
        }
    }
    let name = |t: &TerminalId| {
        program
            .terminals
            .get(t.index())
            .map_or_else(String::new, |t| t.to_string())
    };
    let mut rejected: Vec<(usize, i64)> = Vec::new();
    let mut unknown: Vec<i64> = Vec::new();
    for a in order {
        match predictions.get(&a).and_then(|p| p.word.as_ref()) {
            Some(word) => {
                if word.len() > MAX_WORD {
                    continue;
                }
                let names: Vec<String> = word.iter().map(name).collect();
                if !words.word_in(spec, &names) {
                    rejected.push((word.len(), a));
                }
            }
            None => unknown.push(a),
        }
    }
    rejected.sort_by_key(|(n, _)| *n);
    rejected
        .into_iter()
        .map(|(_, a)| a)
        .chain(unknown)
        .collect()
}

/// The terminal the guard at `step` of `run` would emit when true: the executed edge is
/// the guard's negation; its sibling (the guard) leads to the API edge of the same call.
fn guarded_terminal(program: &Program, run: &interp::Run, step: usize) -> Option<TerminalId> {
    let st = run.steps.get(step)?;
    let cfa = program.method(st.method)?;
    let mut found: Option<TerminalId> = None;
    for e in cfa.graph.edges(NodeIndex::new(st.from)) {
        if e.id().index() == st.edge {
            continue;
        }
        for next in cfa.graph.edges(e.target()) {
            if let Edge::Api { terminal, span } = next.weight() {
                if *span == st.span {
                    if found.is_some_and(|f| f != *terminal) {
                        return None;
                    }
                    found = Some(*terminal);
                }
            }
        }
    }
    found
}
