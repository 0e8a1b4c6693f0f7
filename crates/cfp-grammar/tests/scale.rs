//! Scale test: the program-shaped grammar of 400 mutually calling methods (about 3,200
//! productions, [`cfp_grammar::bench_grammars`]) is proved included in the lock protocol,
//! and its buggy variant is refuted with a checked counterexample. No timing assertion:
//! timings are reported by `cargo xtask bench-inclusion`.

use cfp_grammar::bench_grammars::{buggy_program_grammar, lock_spec, program_grammar};
use cfp_grammar::{
    check_inclusion, earley, recheck_certificate, InclusionOptions, InclusionResult,
};
use std::ops::ControlFlow;

#[test]
fn program_grammar_of_400_methods_is_proved_included() {
    let g = program_grammar(400, 1);
    assert!(g.productions.len() >= 3_000);
    let s = lock_spec();
    let r = check_inclusion(&g, &s, &InclusionOptions::default(), &mut |_| {
        ControlFlow::Continue(())
    });
    let InclusionResult::Included(cert) = r else {
        panic!("expected Included, got {r:?}");
    };
    recheck_certificate(&g, &s, &cert).expect("certificate verifies");
}

#[test]
fn buggy_program_grammar_of_400_methods_is_refuted() {
    let g = buggy_program_grammar(400, 1);
    let s = lock_spec();
    let r = check_inclusion(&g, &s, &InclusionOptions::default(), &mut |_| {
        ControlFlow::Continue(())
    });
    let InclusionResult::NotIncluded(cex) = r else {
        panic!("expected NotIncluded, got {r:?}");
    };
    let names: Vec<&str> = cex.word_names.iter().map(String::as_str).collect();
    assert!(earley::recognizes(&g, &cex.word));
    assert!(!earley::word_in(&s, &names), "{names:?} is in L(S)");
    assert!(earley::is_derivation_of(&g, &cex.derivation, g.start));
    assert_eq!(cex.derivation.word(), cex.word);
}
