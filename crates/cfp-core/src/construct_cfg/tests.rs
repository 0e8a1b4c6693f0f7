use super::*;
use crate::pcfa::Truth;
use crate::LowerOptions;
use cfp_smt::Term;

pub(crate) const FIG2: &str = include_str!("../../../../tests/frontend/01-paper-figure2.java");
pub(crate) const LOCK: &str = include_str!("../../../../tests/specs/lock-paper.cfg");

/// The instrumented program of the paper's Figure 2.
pub(crate) fn fig2() -> Program {
    let unit = cfp_syntax::parse_program(FIG2);
    assert!(!unit.has_errors(), "{:?}", unit.diagnostics);
    let spec = cfp_syntax::parse_spec(LOCK);
    assert!(!spec.has_errors(), "{:?}", spec.diagnostics);
    match crate::front_end(&unit.tree, &spec.tree, &LowerOptions::default()) {
        Ok((p, _)) => p,
        Err(e) => panic!("{e}"),
    }
}

pub(crate) fn method_id(p: &Program, name: &str) -> MethodId {
    p.methods
        .iter()
        .find(|m| m.name == name)
        .map(|m| m.id)
        .expect("method")
}

#[test]
fn figure4_initial_grammar() {
    let p = fig2();
    let pcfas = Pcfas::initial(&p);
    let g = construct_cfg_unchecked(&p, &pcfas);
    insta::assert_snapshot!(g.grammar.to_string());
    assert_eq!(g.grammar.nonterminal_name(g.grammar.start), "<root>");
    assert_eq!(g.nonterminals.len(), g.grammar.nonterminals.len());
    assert_eq!(g.productions.len(), g.grammar.productions.len());
    // Origins agree with the grammar: every nonterminal maps back to itself.
    for (i, info) in g.nonterminals.iter().enumerate() {
        assert_eq!(g.nonterminal(info), Some(NontermId(i as u32)));
    }
    // Figure 4: F3 -> Acquire F4 is our `Main.foo:n0 -> Main.acquire Main.foo:n1`.
    let foo = method_id(&p, "Main.foo");
    let acquire = method_id(&p, "Main.acquire");
    let calls: Vec<_> = g
        .productions
        .iter()
        .filter(|o| matches!(o, ProdOrigin::Call { method, callee, .. } if *method == foo && *callee == acquire))
        .collect();
    assert_eq!(calls.len(), 1);
    // Deterministic.
    assert_eq!(construct_cfg_unchecked(&p, &pcfas), g);
}

/// Refine acquire's exit by `l1 = $1` as in the paper's Fig. 6(b): two exit clones,
/// the lock edge only into the `l1 = $1` clone, the skip only into the other one.
pub(crate) fn fig6_acquire(p: &Program, pcfas: &mut Pcfas) -> (StateId, StateId) {
    let acquire = method_id(p, "Main.acquire");
    let pcfa = pcfas.method_mut(acquire).expect("pcfa");
    let exit = pcfa.exit_states()[0];
    let eq = Term::eq(
        Term::var("l1", cfp_smt::Sort::Int),
        Term::var("$1", cfp_smt::Sort::Int),
    );
    let i = pcfa.add_predicate(pcfa.exit_loc, eq);
    let pos = pcfa.clone_state(exit).expect("clone");
    pcfa.set_truth(exit, i, Truth::False);
    pcfa.set_truth(pos, i, Truth::True);
    let cfa = &p.methods[acquire.index()];
    let drop: Vec<PcfaEdgeId> = pcfa
        .edges()
        .filter(|e| {
            let lock = matches!(cfa.graph.edge_weight(e.cfa_edge), Some(Edge::Api { .. }));
            (e.to == exit && lock) || (e.to == pos && !lock)
        })
        .map(|e| e.id)
        .collect();
    for e in drop {
        pcfa.remove_edge(e);
    }
    (exit, pos)
}

#[test]
fn exit_clones_give_one_sub_grammar_each() {
    let p = fig2();
    let mut pcfas = Pcfas::initial(&p);
    let (neg, pos) = fig6_acquire(&p, &mut pcfas);
    let acquire = method_id(&p, "Main.acquire");
    let mut asked = Vec::new();
    let g = construct_cfg(&p, &pcfas, &mut |q| {
        asked.push((q.callee, q.callee_exit));
        true
    });
    let text = g.grammar.to_string();
    let acq: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("Main.acquire"))
        .collect();
    assert_eq!(
        acq,
        [
            "Main.acquire -> Main.acquire:n0;",
            "Main.acquire:n0 -> Main.acquire:n1;",
            "Main.acquire:n1 -> Main.acquire:n3;",
            "Main.acquire:n3 -> ε;",
            "Main.acquire@e1 -> Main.acquire:n0@e1;",
            "Main.acquire:n0@e1 -> Main.acquire:n1@e1;",
            "Main.acquire:n1@e1 -> Main.acquire:n2@e1;",
            "Main.acquire:n2@e1 -> $1.lock() Main.acquire:n3#1@e1;",
            "Main.acquire:n3#1@e1 -> ε;",
        ]
    );
    // Each (call edge, callee exit) was asked once.
    assert_eq!(
        asked.iter().filter(|(m, _)| *m == acquire).count(),
        2,
        "{asked:?}"
    );
    assert!(asked.contains(&(acquire, neg)) && asked.contains(&(acquire, pos)));
    // An infeasible clone gives no call production and no sub-grammar.
    let g2 = construct_cfg(&p, &pcfas, &mut |q| q.callee_exit != pos);
    let entry = pcfas.method(acquire).expect("pcfa").entry_states()[0];
    assert!(g2
        .nonterminal(&NtInfo::Method {
            method: acquire,
            entry,
            exit: pos
        })
        .is_none());
    assert!(!g2.grammar.to_string().contains("@e1"));
}

#[test]
fn entry_clones_give_one_method_nonterminal_each() {
    let p = fig2();
    let mut pcfas = Pcfas::initial(&p);
    let (_, pos) = fig6_acquire(&p, &mut pcfas);
    let acquire = method_id(&p, "Main.acquire");
    let pcfa = pcfas.method_mut(acquire).expect("pcfa");
    let e0 = pcfa.entry_states()[0];
    let e1 = pcfa.clone_state(e0).expect("clone");
    let mut asked = Vec::new();
    let g = construct_cfg(&p, &pcfas, &mut |q| {
        if q.callee == acquire {
            asked.push((q.callee_entry, q.callee_exit));
        }
        true
    });
    // One question per (entry clone, exit clone).
    asked.sort();
    assert_eq!(asked.len(), 4, "{asked:?}");
    let text = g.grammar.to_string();
    for line in [
        "Main.acquire@n0 -> Main.acquire:n0;",
        "Main.acquire@n0#1 -> Main.acquire:n0#1;",
        "Main.acquire@n0>e1 -> Main.acquire:n0@e1;",
        "Main.acquire@n0#1>e1 -> Main.acquire:n0#1@e1;",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    // Dropping an entry clone at the call site keeps the other one (and the
    // sub-grammars it needs).
    let g2 = construct_cfg(&p, &pcfas, &mut |q| q.callee_entry != e1);
    for x in [pcfa_exit(&pcfas, acquire), pos] {
        assert!(g2
            .nonterminal(&NtInfo::Method {
                method: acquire,
                entry: e1,
                exit: x
            })
            .is_none());
        assert!(g2
            .nonterminal(&NtInfo::Method {
                method: acquire,
                entry: e0,
                exit: x
            })
            .is_some());
    }
    // Call productions name the entry clone they enter, and the derivation's entry
    // production agrees.
    for (i, o) in g2.productions.iter().enumerate() {
        if let ProdOrigin::Call {
            callee_entry,
            callee,
            callee_exit,
            ..
        } = *o
        {
            let rhs = &g2.grammar.productions[i].rhs;
            let Some(Sym::N(n)) = rhs.first() else {
                panic!("call production without a callee");
            };
            assert_eq!(
                g2.nt_info(*n),
                Some(NtInfo::Method {
                    method: callee,
                    entry: callee_entry,
                    exit: callee_exit
                })
            );
        }
    }
}

fn pcfa_exit(pcfas: &Pcfas, m: MethodId) -> StateId {
    pcfas.method(m).expect("pcfa").exit_states()[0]
}

#[test]
fn several_root_exits_get_a_start_symbol() {
    let p = fig2();
    let mut pcfas = Pcfas::initial(&p);
    let root = pcfas.method_mut(p.root).expect("root");
    let exit = root.exit_states()[0];
    root.clone_state(exit);
    let g = construct_cfg_unchecked(&p, &pcfas);
    assert_eq!(g.grammar.nonterminal_name(g.grammar.start), "<start>");
    assert!(g
        .grammar
        .to_string()
        .starts_with("<start> -> <root> | <root>@e1;\n"));
    // Mismatched PCFAs (none at all) give an empty grammar, not a panic.
    let empty = construct_cfg_unchecked(&p, &Pcfas { methods: vec![] });
    assert!(empty.grammar.productions.is_empty());
}

/// The rounds of a [`CallWalk`] return exactly the questions ConstructCFG asks with the
/// same answers, each once, and stop at what an infeasible call hides.
#[test]
fn call_walk_rounds_return_what_construct_cfg_asks() {
    let p = fig2();
    let mut pcfas = Pcfas::initial(&p);
    let (_, pos) = fig6_acquire(&p, &mut pcfas);
    let acquire = method_id(&p, "Main.acquire");
    for infeasible in [None, Some((acquire, pos))] {
        let answer = |q: &CallQuery| Some(Some((q.callee, q.callee_exit)) != infeasible);
        let mut asked = Vec::new();
        let _ = construct_cfg(&p, &pcfas, &mut |q| {
            asked.push(*q);
            answer(q).unwrap_or(true)
        });
        let mut known: Vec<CallQuery> = Vec::new();
        let mut walk = CallWalk::new(&p, &pcfas);
        let mut rounds = 0;
        loop {
            let round = walk
                .round(
                    &|q| known.contains(q).then(|| answer(q).unwrap_or(true)),
                    &|| false,
                )
                .expect("never stopped");
            if round.is_empty() {
                break;
            }
            rounds += 1;
            for q in round {
                assert!(!known.contains(&q), "asked twice: {q:?}");
                known.push(q);
            }
        }
        assert!(
            rounds >= 2,
            "the calls inside a callee come in a later round"
        );
        let key = |q: &CallQuery| (q.caller, q.edge.id, q.callee, q.callee_entry, q.callee_exit);
        let mut a: Vec<_> = asked.iter().map(key).collect();
        let mut b: Vec<_> = known.iter().map(key).collect();
        a.sort();
        a.dedup();
        b.sort();
        assert_eq!(a, b, "with {infeasible:?} infeasible");
    }
}

/// A stop hook ends both walks before their next sub-grammar, and a walk that was never
/// stopped builds the grammar ConstructCFG builds.
#[test]
fn a_stop_hook_ends_the_walks() {
    let p = fig2();
    let mut pcfas = Pcfas::initial(&p);
    let _ = fig6_acquire(&p, &mut pcfas);
    let stopped = construct_cfg_until(&p, &pcfas, &mut |_| true, &|| true);
    assert!(stopped.is_none());
    let whole = construct_cfg_until(&p, &pcfas, &mut |_| true, &|| false).expect("not stopped");
    assert_eq!(
        whole.grammar.to_string(),
        construct_cfg(&p, &pcfas, &mut |_| true).grammar.to_string()
    );
    let mut walk = CallWalk::new(&p, &pcfas);
    assert!(walk.round(&|_| None, &|| true).is_none());
}
