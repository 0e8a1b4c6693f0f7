use super::*;
use crate::block_on;

/// A scripted backend: returns canned outputs and records the scripts.
struct Canned {
    outputs: Vec<String>,
    scripts: Vec<String>,
}

impl Solver for Canned {
    async fn eval(&mut self, script: &str) -> Result<String, SolverError> {
        self.scripts.push(script.to_string());
        if self.outputs.is_empty() {
            return Err(SolverError::Crashed("no more canned outputs".into()));
        }
        Ok(self.outputs.remove(0))
    }
}

fn canned(outputs: &[&str]) -> Session<Canned> {
    Session::with_options(
        Canned {
            outputs: outputs.iter().map(|s| s.to_string()).collect(),
            scripts: Vec::new(),
        },
        SessionOptions {
            timeout_ms: Some(1000),
        },
    )
}

fn core_query() -> Vec<(Option<String>, Term)> {
    let x = Term::var("x", Sort::Int);
    let a = Term::var("a", Sort::array_of(Sort::Int));
    let f = Term::uf("f", vec![x.clone()], Sort::Int);
    vec![
        (
            Some("s1".to_string()),
            Term::eq(Term::select(a, Term::int(1)), f),
        ),
        (None, Term::app(crate::Op::Lt, vec![x, Term::int(-3)])),
    ]
}

const WANT_BOTH: Want = Want {
    model: true,
    core: true,
};

#[test]
fn a_satisfiable_check_is_sent_once_without_names() {
    let asserts = core_query();
    let out = "sat\n@cfp:sep\n(:reason-unknown \"unknown\")\n@cfp:sep\n(\n  (define-fun x () Int\n    (- 4))\n  (define-fun a () (Array Int Int)\n    ((as const (Array Int Int)) 0))\n  (define-fun f ((x!0 Int)) Int\n    0)\n)\n";
    let mut s = canned(&[out]);
    let r = block_on(s.check(&asserts, WANT_BOTH)).unwrap();
    assert_eq!(r.result, CheckSat::Sat);
    assert_eq!(r.core, None);
    let m = r.model.unwrap();
    assert_eq!(m.get("x"), Some(&crate::Value::Int(-4)));
    assert!(m.get("s1").is_none());
    assert_eq!(
        s.solver_mut().scripts,
        vec!["(set-option :produce-models true)\n(set-option :timeout 1000)\n(declare-const a (Array Int Int))\n(declare-fun f (Int) Int)\n(declare-const x Int)\n(assert (= (select a 1) (f x)))\n(assert (< x (- 3)))\n(check-sat)\n(echo \"@cfp:sep\")\n(get-info :reason-unknown)\n(echo \"@cfp:sep\")\n(get-model)\n".to_string()]
    );
    assert_eq!(s.stats().queries, 1);
}

#[test]
fn an_unsatisfiable_check_is_sent_again_with_names_for_its_core() {
    let asserts = core_query();
    let first = "unsat\n@cfp:sep\n(:reason-unknown \"unknown\")\n@cfp:sep\n(error \"line 9 column 10: model is not available\")\n";
    let second = "unsat\n@cfp:sep\n(:reason-unknown \"unknown\")\n@cfp:sep\n(error \"line 12 column 10: model is not available\")\n@cfp:sep\n(s1)\n";
    let mut s = canned(&[first, second]);
    let r = block_on(s.check(&asserts, WANT_BOTH)).unwrap();
    assert_eq!(r.result, CheckSat::Unsat);
    assert_eq!(r.core, Some(vec!["s1".to_string()]));
    assert_eq!(s.solver_mut().scripts.len(), 2);
    assert_eq!(
        s.solver_mut().scripts[1],
        "(set-option :produce-models true)\n(set-option :produce-unsat-cores true)\n(set-option :timeout 1000)\n(declare-const a (Array Int Int))\n(declare-fun f (Int) Int)\n(declare-const x Int)\n(assert (! (= (select a 1) (f x)) :named s1))\n(assert (< x (- 3)))\n(check-sat)\n(echo \"@cfp:sep\")\n(get-info :reason-unknown)\n(echo \"@cfp:sep\")\n(get-model)\n(echo \"@cfp:sep\")\n(get-unsat-core)\n"
    );
    let script = s.check_script(&asserts, WANT_BOTH).unwrap();
    assert_eq!(s.solver_mut().scripts[1], script);
}

#[test]
fn inconsistent_sorts_are_refused() {
    let mut s = canned(&[]);
    let t = Term::eq(
        Term::var("x", Sort::Int),
        Term::uf("x", vec![Term::int(1)], Sort::Int),
    );
    assert!(matches!(
        block_on(s.check(&[(None, t)], Want::default())),
        Err(SolverError::Rejected(_))
    ));
    assert_eq!(s.stats().scripts, 0);
}

#[test]
fn batch_memo_and_misaligned_output() {
    let x = Term::var("x", Sort::Int);
    let q1 = Term::app(crate::Op::Gt, vec![x.clone(), Term::int(0)]);
    let q2 = Term::and([q1.clone(), Term::app(crate::Op::Lt, vec![x, Term::int(0)])]);
    let mut s = canned(&[
        "sat\n@cfp:sep\n(:reason-unknown \"\")\n@cfp:sep\nunsat\n@cfp:sep\n(:reason-unknown \"\")\n@cfp:sep\n",
        "sat\n",
    ]);
    let r = block_on(s.check_batch(&[q1.clone(), q2.clone(), q1.clone()])).unwrap();
    assert_eq!(r, vec![CheckSat::Sat, CheckSat::Unsat, CheckSat::Sat]);
    assert_eq!(s.stats().cache_misses, 2);
    assert_eq!(s.stats().cache_hits, 1);
    let r = block_on(s.check_batch(&[q2.clone(), q1.clone()])).unwrap();
    assert_eq!(r, vec![CheckSat::Unsat, CheckSat::Sat]);
    assert_eq!(s.stats().cache_hits, 3);
    assert_eq!(s.stats().scripts, 1);
    let q3 = Term::app(crate::Op::Ge, vec![Term::var("y", Sort::Int), Term::int(0)]);
    assert!(matches!(
        block_on(s.check_batch(&[q3])),
        Err(SolverError::Unreadable(_))
    ));
}

#[test]
fn contradictory_conjunctions_are_decided_without_the_solver() {
    let x = Term::var("x", Sort::Int);
    let p = Term::app(crate::Op::Gt, vec![x.clone(), Term::int(0)]);
    let q = Term::app(crate::Op::Lt, vec![x, Term::int(5)]);
    // Nested: (and p (and q (not p))).
    let nested = Term::new(TermKind::App(
        crate::Op::And,
        vec![
            p.clone(),
            Term::new(TermKind::App(
                crate::Op::And,
                vec![q.clone(), Term::negate(p.clone())],
            )),
        ],
    ));
    assert!(contradicts_itself(&nested));
    assert!(contradicts_itself(&Term::ff()));
    assert!(!contradicts_itself(&Term::and([p.clone(), q.clone()])));
    assert!(!contradicts_itself(&Term::and([
        p.clone(),
        Term::negate(q.clone())
    ])));
    // `(not (not p))` is not `p`'s negation; `(or p (not p))` is no conjunction.
    let double = Term::new(TermKind::App(crate::Op::Not, vec![Term::negate(p.clone())]));
    assert!(!contradicts_itself(&Term::and([p.clone(), double])));
    assert!(!contradicts_itself(&Term::or([
        p.clone(),
        Term::negate(p.clone())
    ])));
    // The one undecided query goes to the solver; the decided one does not.
    let mut s = canned(&["sat\n@cfp:sep\n(:reason-unknown \"\")\n@cfp:sep\n"]);
    let r = block_on(s.check_batch(&[nested, Term::and([p, q])])).unwrap();
    assert_eq!(r, vec![CheckSat::Unsat, CheckSat::Sat]);
    assert_eq!(
        (s.stats().decided, s.stats().queries, s.stats().scripts),
        (1, 1, 1)
    );
    assert!(!s.solver_mut().scripts[0].contains("(not"));
}

#[test]
fn horn_script_shape() {
    let l = Term::var("l", Sort::Int);
    let p = Term::var("p", Sort::Int);
    let i0 = Term::uf("I0", vec![l.clone(), p.clone()], Sort::Bool);
    let sys = HornSystem {
        preds: vec![("I0".into(), vec![Sort::Int, Sort::Int])],
        clauses: vec![
            HornClause {
                vars: vec![("l".into(), Sort::Int), ("p".into(), Sort::Int)],
                body: vec![Term::eq(l.clone(), p.clone())],
                head: Some(i0.clone()),
            },
            HornClause {
                vars: vec![],
                body: vec![],
                head: None,
            },
        ],
    };
    let s = canned(&[]);
    assert_eq!(
        s.horn_script(&sys),
        "(set-logic HORN)\n(set-option :timeout 1000)\n(declare-fun I0 (Int Int) Bool)\n(assert (forall ((l Int) (p Int)) (=> (= l p) (I0 l p))))\n(assert (=> true false))\n(check-sat)\n(echo \"@cfp:sep\")\n(get-info :reason-unknown)\n(echo \"@cfp:sep\")\n(get-model)\n"
    );
    let light = s.horn_script_within(
        &sys,
        QueryLimits {
            rlimit: Some(7),
            wall_ms: None,
            no_eager_inlining: true,
        },
    );
    assert!(
        light.starts_with("(set-logic HORN)\n(set-option :timeout 1000)\n(set-option :rlimit 7)\n(set-option :fp.xform.inline_eager false)\n(declare-fun I0"),
        "{light}"
    );
    assert!(
        light.ends_with(
            "(get-model)\n(set-option :rlimit 0)\n(set-option :fp.xform.inline_eager true)\n"
        ),
        "{light}"
    );
}
