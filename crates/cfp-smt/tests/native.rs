//! Integration tests against a real `z3 -in` (the PyPI z3-solver 5.4.1 binary).
//!
//! The solver is `$CFP_Z3` (set by `cargo xtask test`), else the copy `cargo xtask setup-z3`
//! installs in `target/tools/z3/bin/z3`; when there is none these tests FAIL with that hint.

use cfp_smt::answer::{check_errors, parse_check_sat};
use cfp_smt::{
    block_on, CheckSat, HornAnswer, HornClause, HornSystem, NativeZ3, Op, QueryLimits, Session,
    SessionOptions, SolverError, Sort, Term, Value, Want,
};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn z3_path() -> PathBuf {
    std::env::var_os("CFP_Z3")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/tools/z3/bin/z3")
        })
}

fn z3() -> NativeZ3 {
    let path = z3_path();
    match NativeZ3::new(&path) {
        Ok(mut z) => {
            z.set_deadline(Some(Duration::from_secs(60)));
            z
        }
        Err(e) => panic!(
            "z3 is needed for these tests (run `cargo xtask setup-z3` or set CFP_Z3): {} {e}",
            path.display()
        ),
    }
}

fn session() -> Session<NativeZ3> {
    Session::with_options(
        z3(),
        SessionOptions {
            timeout_ms: Some(10_000),
        },
    )
}

fn int(n: &str) -> Term {
    Term::var(n, Sort::Int)
}

fn app(op: Op, args: Vec<Term>) -> Term {
    Term::app(op, args)
}

#[test]
fn sat_with_model_of_ints_bools_and_arrays() {
    let mut s = session();
    let a = Term::var("a", Sort::array_of(Sort::Int));
    let c = Term::var("c", Sort::array_of(Sort::Bool));
    let b = Term::var("b", Sort::Bool);
    let asserts = vec![
        (None, Term::eq(int("x"), Term::int(-3))),
        (None, b.clone()),
        (
            None,
            Term::eq(Term::select(a.clone(), Term::int(1)), Term::int(5)),
        ),
        (
            None,
            Term::eq(Term::select(a.clone(), Term::int(2)), Term::int(7)),
        ),
        (
            None,
            Term::eq(Term::select(a, Term::int(3)), Term::int(-11)),
        ),
        (None, Term::negate(Term::select(c, Term::int(4)))),
        (
            None,
            Term::eq(
                Term::uf("f", vec![int("x")], Sort::Int),
                Term::int(12345678901234567890),
            ),
        ),
    ];
    let r = block_on(s.check(
        &asserts,
        Want {
            model: true,
            core: false,
        },
    ))
    .unwrap();
    assert_eq!(r.result, CheckSat::Sat);
    let m = r.model.expect("a model");
    assert_eq!(m.get("x"), Some(&Value::Int(-3)));
    assert_eq!(m.get("b"), Some(&Value::Bool(true)));
    let Some(Value::Array { default, entries }) = m.get("a") else {
        panic!("array value expected: {m:?}")
    };
    let at = |i: i128| entries.get(&i).unwrap_or(default);
    assert_eq!(
        (at(1), at(2), at(3)),
        (&Value::Int(5), &Value::Int(7), &Value::Int(-11))
    );
    let Some(Value::Array { default, entries }) = m.get("c") else {
        panic!("array value expected: {m:?}")
    };
    assert_eq!(entries.get(&4).unwrap_or(default), &Value::Bool(false));
    assert!(matches!(m.get("f"), Some(Value::Other(t)) if t.contains("12345678901234567890")));
}

#[test]
fn unsat_with_core() {
    let mut s = session();
    let asserts = vec![
        (
            Some("pos".to_string()),
            app(Op::Gt, vec![int("x"), Term::int(0)]),
        ),
        (
            Some("y big".to_string()),
            app(Op::Gt, vec![int("y"), Term::int(10)]),
        ),
        (
            Some("neg".to_string()),
            app(Op::Lt, vec![int("x"), Term::int(0)]),
        ),
        (None, app(Op::Lt, vec![int("y"), Term::int(100)])),
    ];
    let want = Want {
        model: true,
        core: true,
    };
    let r = block_on(s.check(&asserts, want)).unwrap();
    assert_eq!(r.result, CheckSat::Unsat);
    assert_eq!(r.model, None);
    let mut core = r.core.expect("a core");
    core.sort();
    assert_eq!(core, vec!["neg", "pos"]);
    // The same session goes on with a satisfiable query (names left out of the model).
    let r = block_on(s.check(&asserts[..2], want)).unwrap();
    assert_eq!(r.result, CheckSat::Sat);
    let m = r.model.unwrap();
    assert!(m.get("pos").is_none() && m.get("y big").is_none());
    assert!(matches!(m.get("y"), Some(Value::Int(y)) if *y > 10));
    // The unsat query took two scripts (without names, then with them for the core).
    assert_eq!(s.stats().scripts, 3);
}

#[test]
fn batch_with_memo_hits() {
    let mut s = session();
    let x = int("x");
    let arr = Term::var("Lock.f", Sort::array_of(Sort::Int));
    let q_sat = app(Op::Gt, vec![x.clone(), Term::int(0)]);
    let q_unsat = Term::and([q_sat.clone(), app(Op::Lt, vec![x.clone(), Term::int(0)])]);
    let q_arr = Term::eq(
        Term::select(Term::store(arr.clone(), x.clone(), Term::int(1)), x.clone()),
        Term::int(2),
    );
    let queries = vec![q_sat.clone(), q_unsat.clone(), q_arr.clone(), q_sat.clone()];
    let r = block_on(s.check_batch(&queries)).unwrap();
    assert_eq!(
        r,
        vec![
            CheckSat::Sat,
            CheckSat::Unsat,
            CheckSat::Unsat,
            CheckSat::Sat
        ]
    );
    assert_eq!(
        (
            s.stats().scripts,
            s.stats().cache_misses,
            s.stats().cache_hits
        ),
        (1, 3, 1)
    );
    let r = block_on(s.check_batch(&[q_arr, q_unsat, q_sat])).unwrap();
    assert_eq!(r, vec![CheckSat::Unsat, CheckSat::Unsat, CheckSat::Sat]);
    assert_eq!((s.stats().scripts, s.stats().cache_hits), (1, 4));
    // 200 fresh queries in one script.
    let many: Vec<Term> = (0..200)
        .map(|i| app(Op::Ge, vec![x.clone(), Term::int(i)]))
        .chain([Term::eq(x.clone(), Term::int(1))])
        .collect();
    let r = block_on(s.check_batch(&many)).unwrap();
    assert!(r.iter().all(|a| *a == CheckSat::Sat));
    assert_eq!(s.stats().scripts, 2);
    assert_eq!(block_on(s.check_batch(&[])).unwrap(), vec![]);
}

/// A block that allocates many arrays: `len_k = store(len_{k-1}, a + k, 3)`. Each query of a
/// batch is checked by the tactic that solves such definitions away (`check-sat` inside a
/// `push` would not, and took over 40 s on a thousand of them); the answers are the same.
#[test]
fn batch_queries_with_store_chains_use_the_preprocessing_tactic() {
    let mut s = session();
    let arr = |k: usize| Term::var(format!("len@{k}"), Sort::array_of(Sort::Int));
    let a = int("a");
    let mut cs = vec![app(Op::Ge, vec![a.clone(), Term::int(0)])];
    for k in 1..=300 {
        let addr = app(Op::Add, vec![a.clone(), Term::int(k as i128)]);
        cs.push(Term::eq(
            arr(k),
            Term::store(arr(k - 1), addr, Term::int(3)),
        ));
    }
    let chain = Term::and(cs.clone());
    let first = app(Op::Add, vec![a.clone(), Term::int(1)]);
    let wrong = Term::and(
        cs.into_iter()
            .chain([Term::eq(Term::select(arr(300), first), Term::int(4))]),
    );
    let script = s.batch_script(&[&chain]).unwrap();
    assert!(script.contains(cfp_smt::session::BATCH_CHECK), "{script}");
    assert!(!script.contains("(check-sat)"));
    let r = block_on(s.check_batch(&[chain, wrong])).unwrap();
    assert_eq!(r, vec![CheckSat::Sat, CheckSat::Unsat]);
}

/// The paper's running example shape: `foo` sets `l = $1`, calls `acquire(l)`, whose
/// formal `l1` is bound to `l`; after the return, `l` must still be `$1`.
#[test]
fn tree_shaped_horn_system_has_readable_solution() {
    let mut s = session();
    let (l, p, l1) = (int("l"), int("p"), int("l1"));
    let pred = |n: &str, args: Vec<Term>| Term::uf(n, args, Sort::Bool);
    let two = vec![Sort::Int, Sort::Int];
    let vars = vec![
        ("l".to_string(), Sort::Int),
        ("p".to_string(), Sort::Int),
        ("l1".to_string(), Sort::Int),
    ];
    let sys = HornSystem {
        preds: vec![
            ("I0".into(), two.clone()),
            ("I1".into(), two.clone()),
            ("I2".into(), two.clone()),
            ("I3".into(), two.clone()),
        ],
        clauses: vec![
            // I0(l, $1) ⇐ l = $1
            HornClause {
                vars: vars[..2].to_vec(),
                body: vec![Term::eq(l.clone(), p.clone())],
                head: Some(pred("I0", vec![l.clone(), p.clone()])),
            },
            // callee entry: I1(l1, $1) ⇐ I0(l, $1) ∧ l1 = l
            HornClause {
                vars: vars.clone(),
                body: vec![
                    pred("I0", vec![l.clone(), p.clone()]),
                    Term::eq(l1.clone(), l.clone()),
                ],
                head: Some(pred("I1", vec![l1.clone(), p.clone()])),
            },
            // callee body: I2(l1, $1) ⇐ I1(l1, $1)
            HornClause {
                vars: vec![vars[1].clone(), vars[2].clone()],
                body: vec![pred("I1", vec![l1.clone(), p.clone()])],
                head: Some(pred("I2", vec![l1.clone(), p.clone()])),
            },
            // return: I3(l, $1) ⇐ I0(l, $1) ∧ I2(l1, $1)
            HornClause {
                vars: vars.clone(),
                body: vec![
                    pred("I0", vec![l.clone(), p.clone()]),
                    pred("I2", vec![l1.clone(), p.clone()]),
                ],
                head: Some(pred("I3", vec![l.clone(), p.clone()])),
            },
            // false ⇐ I3(l, $1) ∧ l ≠ $1
            HornClause {
                vars: vars[..2].to_vec(),
                body: vec![
                    pred("I3", vec![l.clone(), p.clone()]),
                    Term::negate(Term::eq(l.clone(), p.clone())),
                ],
                head: None,
            },
        ],
    };
    let HornAnswer::Sat(sol) = block_on(s.solve_horn(&sys)).unwrap() else {
        panic!("expected sat (interpolants exist)")
    };
    assert_eq!(
        sol.preds.keys().collect::<Vec<_>>(),
        vec!["I0", "I1", "I2", "I3"]
    );
    for name in ["I0", "I1", "I2", "I3"] {
        let body = sol.instantiate(name, &[l.clone(), p.clone()]).unwrap();
        assert!(body.to_string().len() < 80, "{name}: {body}");
        // Each interpolant implies l = $1 (checked by the solver).
        let r = block_on(s.check(
            &[
                (None, body),
                (None, Term::negate(Term::eq(l.clone(), p.clone()))),
            ],
            Want::default(),
        ))
        .unwrap();
        assert_eq!(r.result, CheckSat::Unsat, "{name}");
    }
    assert_eq!(s.stats().horn_queries, 1);
}

#[test]
fn horn_system_without_solution_is_unsat() {
    let mut s = session();
    let x = int("x");
    let i0 = Term::uf("I0", vec![x.clone()], Sort::Bool);
    let v = vec![("x".to_string(), Sort::Int)];
    let sys = HornSystem {
        preds: vec![("I0".into(), vec![Sort::Int])],
        clauses: vec![
            HornClause {
                vars: v.clone(),
                body: vec![Term::eq(x.clone(), Term::int(0))],
                head: Some(i0.clone()),
            },
            HornClause {
                vars: v,
                body: vec![i0, app(Op::Gt, vec![x, Term::int(-1)])],
                head: None,
            },
        ],
    };
    assert_eq!(block_on(s.solve_horn(&sys)).unwrap(), HornAnswer::Unsat);
}

#[test]
fn rejected_scripts() {
    let mut z = z3();
    let out = z.eval_sync("(assert (> y 0))\n(check-sat)").unwrap();
    assert!(
        matches!(parse_check_sat(&out), Err(SolverError::Rejected(m)) if m.contains("y")),
        "{out}"
    );
    assert!(matches!(
        check_errors(&z.eval_sync("(get-interpolant)").unwrap()),
        Err(SolverError::Rejected(_))
    ));
    // Unbalanced input is refused before it reaches (and stalls) the process.
    assert!(matches!(
        z.eval_sync("(assert (and true"),
        Err(SolverError::Rejected(_))
    ));
    // Through a session: a sort clash the solver reports.
    let mut s = Session::new(z);
    // Ill-sorted on purpose: `select` on an Int.
    let bad = Term::eq(
        Term::select(Term::var("x", Sort::Int), Term::int(1)),
        Term::int(2),
    );
    assert!(matches!(
        block_on(s.check(&[(None, bad)], Want::default())),
        Err(SolverError::Rejected(_))
    ));
    // The process still answers.
    let r = block_on(s.check(&[(None, Term::tt())], Want::default())).unwrap();
    assert_eq!(r.result, CheckSat::Sat);
}

#[test]
fn timeout_gives_unknown() {
    let mut s = Session::with_options(
        z3(),
        SessionOptions {
            timeout_ms: Some(50),
        },
    );
    let (x, y, z) = (int("x"), int("y"), int("z"));
    let cube = |t: &Term| app(Op::Mul, vec![t.clone(), t.clone(), t.clone()]);
    let fermat = Term::and([
        app(Op::Gt, vec![x.clone(), Term::int(1)]),
        app(Op::Gt, vec![y.clone(), Term::int(1)]),
        app(Op::Gt, vec![z.clone(), Term::int(1)]),
        Term::eq(app(Op::Add, vec![cube(&x), cube(&y)]), cube(&z)),
    ]);
    let r = block_on(s.check(
        &[(None, fermat.clone())],
        Want {
            model: true,
            core: false,
        },
    ))
    .unwrap();
    assert!(
        matches!(&r.result, CheckSat::Unknown(reason) if reason.contains("timeout")),
        "{r:?}"
    );
    assert_eq!(r.model, None);
    // Unknown answers are not memoised.
    let b = block_on(s.check_batch(&[fermat.clone(), fermat])).unwrap();
    assert!(matches!(&b[0], CheckSat::Unknown(_)) && b[0] == b[1]);
    assert_eq!(s.stats().cache_hits, 1);
}

#[test]
fn thousand_sequential_evals_on_one_process() {
    let mut z = z3();
    for i in 0..1000u32 {
        let script = format!(
            "(declare-const x Int)\n(assert (= x (+ {i} 1)))\n(check-sat)\n(get-value (x))"
        );
        let out = z.eval_sync(&script).unwrap();
        assert_eq!(out, format!("sat\n((x {}))\n", i + 1), "eval {i}");
    }
    assert_eq!(z.starts(), 1);
}

#[test]
fn dead_process_is_restarted() {
    let mut z = z3();
    assert!(matches!(
        z.eval_sync("(exit)"),
        Err(SolverError::Crashed(_))
    ));
    assert_eq!(z.eval_sync("(check-sat)").unwrap(), "sat\n");
    assert_eq!(z.starts(), 2);
}

#[test]
fn a_missing_executable_is_unavailable() {
    let err = NativeZ3::new("/nonexistent/z3").err().expect("no such z3");
    let SolverError::Unavailable(msg) = err else {
        panic!("{err:?}")
    };
    assert!(msg.contains("/nonexistent/z3"), "{msg}");
}

/// The kill instant ends a call z3 cannot finish (`x³ + y³ = z³`, no per-call deadline),
/// across a batch on several processes too; a call made after it is refused without
/// starting a process; clearing it lets calls run again.
#[test]
fn calls_stop_at_the_kill_instant() {
    let fermat = "(declare-const x Int)(declare-const y Int)(declare-const z Int)\
                  (assert (> x 1))(assert (> y 1))(assert (> z 1))\
                  (assert (= (+ (* x x x) (* y y y)) (* z z z)))(check-sat)";
    let mut z = z3();
    z.set_deadline(None);
    z.set_kill_at(Some(std::time::Instant::now() + Duration::from_millis(300)));
    let one = z.eval_sync(fermat);
    assert!(matches!(one, Err(SolverError::TimedOut(_))), "{one:?}");
    assert_eq!(z.starts(), 1);
    let refused = z.eval_sync("(check-sat)");
    assert!(
        matches!(refused, Err(SolverError::TimedOut(_))),
        "{refused:?}"
    );
    assert_eq!(z.starts(), 1, "a refused call starts no process");
    z.set_parallelism(2);
    z.set_kill_at(Some(std::time::Instant::now() + Duration::from_millis(300)));
    let batch = block_on(cfp_smt::Solver::eval_all(
        &mut z,
        &vec![fermat.to_string(); 4],
    ));
    assert!(matches!(batch, Err(SolverError::TimedOut(_))), "{batch:?}");
    z.set_kill_at(None);
    let again = block_on(cfp_smt::Solver::eval_all(
        &mut z,
        &vec!["(check-sat)".to_string(); 4],
    ));
    assert_eq!(again.unwrap(), vec!["sat\n".to_string(); 4]);
}

/// A Horn query that Spacer cannot finish (the invariant `y = x·x` of a non-linear loop)
/// is stopped by its wall-clock safety net, `TimedOut` rather than an answer; a resource
/// limit makes it answer `unknown` instead; and the session goes on with a new process.
#[test]
fn long_queries_are_stopped_and_the_solver_recovers() {
    let (x, y, x1, y1) = (int("x"), int("y"), int("x1"), int("y1"));
    let inv = |a: &Term, b: &Term| Term::uf("inv", vec![a.clone(), b.clone()], Sort::Bool);
    let vars = |names: &[&str]| -> Vec<(String, Sort)> {
        names.iter().map(|n| (n.to_string(), Sort::Int)).collect()
    };
    let system = HornSystem {
        preds: vec![("inv".into(), vec![Sort::Int, Sort::Int])],
        clauses: vec![
            HornClause {
                vars: vars(&["x", "y"]),
                body: vec![
                    Term::eq(x.clone(), Term::int(0)),
                    Term::eq(y.clone(), Term::int(0)),
                ],
                head: Some(inv(&x, &y)),
            },
            HornClause {
                vars: vars(&["x", "y", "x1", "y1"]),
                body: vec![
                    inv(&x, &y),
                    Term::eq(x1.clone(), app(Op::Add, vec![x.clone(), Term::int(1)])),
                    Term::eq(
                        y1.clone(),
                        app(
                            Op::Add,
                            vec![
                                y.clone(),
                                app(Op::Mul, vec![Term::int(2), x.clone()]),
                                Term::int(1),
                            ],
                        ),
                    ),
                ],
                head: Some(inv(&x1, &y1)),
            },
            HornClause {
                vars: vars(&["x", "y"]),
                body: vec![
                    inv(&x, &y),
                    Term::negate(Term::eq(
                        y.clone(),
                        app(Op::Mul, vec![x.clone(), x.clone()]),
                    )),
                ],
                head: None,
            },
        ],
    };
    let mut s = Session::new(z3());
    let stopped = block_on(s.solve_horn_within(
        &system,
        QueryLimits {
            rlimit: None,
            wall_ms: Some(300),
            no_eager_inlining: false,
        },
    ));
    assert!(
        matches!(stopped, Err(SolverError::TimedOut(_))),
        "{stopped:?}"
    );
    let limited = block_on(s.solve_horn_within(
        &system,
        QueryLimits {
            rlimit: Some(50_000),
            wall_ms: Some(60_000),
            no_eager_inlining: false,
        },
    ))
    .expect("an answer");
    assert!(matches!(limited, HornAnswer::Unknown(_)), "{limited:?}");
    assert_eq!(s.stats().limited, 2);
    // The killed process was replaced.
    let after = block_on(s.check_batch(&[Term::eq(x.clone(), Term::int(1))])).expect("check");
    assert_eq!(after, vec![CheckSat::Sat]);
    // A Horn query's resource limit does not outlive it: z3 keeps `:rlimit` past
    // `(reset)`, and a query needing some work came back `unknown` after one of 10 units.
    let tiny = block_on(s.solve_horn_within(
        &system,
        QueryLimits {
            rlimit: Some(10),
            wall_ms: Some(60_000),
            no_eager_inlining: true,
        },
    ))
    .expect("an answer");
    assert!(matches!(tiny, HornAnswer::Unknown(_)), "{tiny:?}");
    let y = int("y");
    let product = Term::and([
        Term::negate(app(
            Op::Le,
            vec![app(Op::Mul, vec![x.clone(), y.clone()]), Term::int(7)],
        )),
        app(Op::Lt, vec![x.clone(), Term::int(3)]),
    ]);
    let after = block_on(s.check_batch(&[product])).expect("check");
    assert_eq!(after, vec![CheckSat::Sat]);
}
