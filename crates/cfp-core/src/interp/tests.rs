use super::*;
use crate::instrument;
use crate::testutil::lower_ok;

const LOCK: &str = "wildcard $1 : ReentrantLock;\nS -> $1.lock() S $1.unlock() S | ε;\n";
const WAKELOCK: &str = "wildcard $1 : WakeLock;\nS  -> RC | $1.setReferenceCounted(_) NC;\n\
NC -> ε | NA $1.release();\nNA -> $1.acquire() NA $1.release() NA | $1.acquire() NA | $1.acquire();\n\
RC -> $1.acquire() RC $1.release() RC | ε;\n";

fn prog(src: &str, spec: &str) -> Program {
    instrument(&lower_ok(src, spec))
}

fn replay(p: &Program, d: Vec<Decision>) -> Result<Run, InterpError> {
    run(p, &mut ReplayOracle::new(d), Limits::default())
}

fn int(i: i64) -> Decision {
    Decision::Value(Value::Int(i))
}

fn word(r: &Run) -> String {
    r.word.join(" ")
}

/// Answers every value with `value` and every edge with the first enabled one.
struct Constant(Value);

impl Oracle for Constant {
    fn value(&mut self, q: &ValueQuery) -> Option<Value> {
        Some(match q.sort {
            Sort::Bool => Value::Bool(self.0 != Value::Int(0)),
            _ => self.0,
        })
    }
    fn edge(&mut self, q: &EdgeQuery) -> Option<usize> {
        q.enabled.first().copied()
    }
}

const BRANCH: &str = "class Main {\n  public static void main(String[] args) {\n\
    ReentrantLock l = new ReentrantLock();\n    int x = Input.readInt();\n\
    if (x > 0) { l.lock(); } else { l.lock(); l.unlock(); }\n  }\n}\n";

#[test]
fn branching_follows_data() {
    let p = prog(BRANCH, LOCK);
    // $1 = 1 (the lock), args = null, x = 5 / x = 0.
    let r = replay(&p, vec![int(1), int(0), int(5)]).expect("completes");
    assert!(r.completed);
    assert_eq!(word(&r), "$1.lock()");
    assert_eq!(r.heap.allocated, 1);
    let r = replay(&p, vec![int(1), int(0), int(0)]).expect("completes");
    assert_eq!(word(&r), "$1.lock() $1.unlock()");
    // No branch needed an oracle choice: the data decided.
    assert_eq!(r.decisions.len(), 3);
    // $1 names another object: nothing is emitted.
    let r = replay(&p, vec![int(7), int(0), int(0)]).expect("completes");
    assert_eq!(word(&r), "");
    // Steps record depth and spans; the root is depth 0, main depth 1.
    assert_eq!(r.steps.first().map(|s| s.depth), Some(0));
    assert!(r.steps.iter().any(|s| s.depth == 1 && !s.span.is_empty()));
}

#[test]
fn wildcards_are_non_null_and_nondet_branches_ask_the_oracle() {
    let p = prog(BRANCH, LOCK);
    // $1 = null blocks at the root's `assume $1 != null`.
    let e = replay(&p, vec![int(0), int(0), int(0)]).unwrap_err();
    assert!(e.is_blocked(), "{e}");
    let src = "class Main {\n  public static void main(String[] args) {\n\
        ReentrantLock l = new ReentrantLock();\n    if (*) { l.lock(); l.unlock(); }\n  }\n}\n";
    let p = prog(src, LOCK);
    let mut o = RandomOracle::new(3);
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..40 {
        o = RandomOracle::new(seed ^ o.next_u64());
        if let Ok(r) = run(&p, &mut o, Limits::default()) {
            if r.decisions.iter().any(|d| matches!(d, Decision::Edge(_))) {
                seen.insert(word(&r));
            }
        }
    }
    assert!(seen.len() >= 2, "{seen:?}");
}

#[test]
fn calls_bind_parameters_and_results() {
    let src = "class Main {\n  static int inc(int a) { return a + 1; }\n\
        public static void main(String[] args) {\n    ReentrantLock l = new ReentrantLock();\n\
        int y = inc(inc(1));\n    if (y == 3) { l.lock(); l.unlock(); } else { l.unlock(); }\n  }\n}\n";
    let p = prog(src, LOCK);
    let r = replay(&p, vec![int(1), int(0)]).expect("completes");
    assert_eq!(word(&r), "$1.lock() $1.unlock()");
    assert!(r.steps.iter().any(|s| s.depth == 2));
}

#[test]
fn fields_and_allocation_freshness() {
    let src = "class Box {\n  int v;\n  ReentrantLock l = new ReentrantLock();\n}\n\
        class Main {\n  public static void main(String[] args) {\n    Box a = new Box();\n\
        Box b = new Box();\n    a.v = 5;\n    b.v = 7;\n\
        if (a.v == 5 && b.v == 7 && a.l != b.l) { a.l.lock(); b.l.unlock(); }\n  }\n}\n";
    let p = prog(src, LOCK);
    // Addresses: a = 1, a.l = 2, b = 3, b.l = 4.
    let r = replay(&p, vec![int(2), int(0)]).expect("completes");
    assert_eq!(word(&r), "$1.lock()");
    let r = replay(&p, vec![int(4), int(0)]).expect("completes");
    assert_eq!(word(&r), "$1.unlock()");
    assert_eq!(r.heap.allocated, 4);
    let v = p
        .fields
        .iter()
        .find(|f| f.name == "v")
        .map(|f| f.id)
        .unwrap();
    assert_eq!(r.heap.fields[v.index()].get(&1), Some(&Value::Int(5)));
    assert_eq!(r.heap.fields[v.index()].get(&3), Some(&Value::Int(7)));
}

#[test]
fn model_class_counter() {
    let src = "class WakeLock {\n  int count = 0;\n  boolean refCounted = true;\n\
        void setReferenceCounted(boolean v) { refCounted = v; }\n  void acquire() { count++; }\n\
        void release() { if (refCounted) count--; else count = 0; }\n\
        boolean isHeld() { return count > 0; }\n}\n\
        class Main {\n  static void stop(WakeLock w) { if (w.isHeld()) w.release(); }\n\
        public static void main(String[] args) {\n    WakeLock w = new WakeLock();\n\
        w.acquire();\n    w.acquire();\n    stop(w);\n    stop(w);\n    stop(w);\n  }\n}\n";
    let p = prog(src, WAKELOCK);
    let r = replay(&p, vec![int(1), int(0)]).expect("completes");
    assert_eq!(
        word(&r),
        "$1.acquire() $1.acquire() $1.release() $1.release()"
    );
    let count = p.fields.iter().find(|f| f.name == "count").unwrap().id;
    assert_eq!(r.heap.fields[count.index()].get(&1), Some(&Value::Int(0)));
}

#[test]
fn null_receivers_block_and_limits_stop() {
    let src = "class Main {\n  public static void main(String[] args) {\n\
        ReentrantLock l = Pool.get();\n    l.lock();\n    l.unlock();\n  }\n}\n";
    let p = prog(src, LOCK);
    let e = replay(&p, vec![int(1), int(0), int(0)]).unwrap_err();
    assert!(e.is_blocked(), "{e}");
    assert!(e.partial().is_some_and(|r| !r.completed));
    // The external result is arbitrary: it may be the wildcard's object.
    let r = replay(&p, vec![int(1), int(0), int(1)]).expect("completes");
    assert_eq!(word(&r), "$1.lock() $1.unlock()");
    // Step limit.
    let e = run(
        &p,
        &mut Constant(Value::Int(1)),
        Limits {
            max_steps: 2,
            max_depth: 10,
        },
    )
    .unwrap_err();
    assert!(matches!(e, InterpError::StepLimit(2, _)), "{e}");
    // Exhausted replay.
    let e = replay(&p, vec![int(1)]).unwrap_err();
    assert!(matches!(e, InterpError::OracleExhausted(_)), "{e}");
    // Ill-sorted answer.
    let e = replay(&p, vec![Decision::Value(Value::Bool(true))]).unwrap_err();
    assert!(matches!(e, InterpError::OracleExhausted(_)), "{e}");
}

#[test]
fn recursion_depth_limit_and_determinism() {
    let src = "class Main {\n  static void rec(ReentrantLock l) { if (*) { l.lock(); rec(l); l.unlock(); } }\n\
        public static void main(String[] args) {\n    rec(new ReentrantLock());\n  }\n}\n";
    let p = prog(src, LOCK);
    // Always the first enabled edge: either recursion forever or immediate return.
    match run(
        &p,
        &mut Constant(Value::Int(1)),
        Limits {
            max_steps: 100_000,
            max_depth: 5,
        },
    ) {
        Ok(r) => assert!(r.completed),
        Err(e) => assert!(matches!(e, InterpError::DepthLimit(5, _)), "{e}"),
    }
    for seed in 0..20 {
        let a = run(&p, &mut RandomOracle::new(seed), Limits::default());
        let b = run(&p, &mut RandomOracle::new(seed), Limits::default());
        match (a, b) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, b);
                let c = replay(&p, a.decisions.clone()).expect("replay");
                assert_eq!(a, c);
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            _ => panic!("nondeterministic"),
        }
    }
}

#[test]
fn bad_ids_are_errors() {
    let mut p = prog(BRANCH, LOCK);
    p.root = MethodId(999);
    assert!(matches!(
        run(&p, &mut RandomOracle::new(1), Limits::default()),
        Err(InterpError::BadId(_))
    ));
}

#[test]
fn path_oracle_follows_a_recorded_path() {
    let src = "class Main {\n  static void rec(ReentrantLock l) { if (*) { l.lock(); rec(l); l.unlock(); } }\n\
        public static void main(String[] args) {\n    rec(new ReentrantLock());\n  }\n}\n";
    let p = prog(src, LOCK);
    for seed in 0..30 {
        let Ok(r) = run(&p, &mut RandomOracle::new(seed), Limits::default()) else {
            continue;
        };
        let edges = r.steps.iter().map(|s| (s.method, s.edge)).collect();
        let values = r
            .decisions
            .iter()
            .filter_map(|d| match d {
                Decision::Value(v) => Some(*v),
                Decision::Edge(_) => None,
            })
            .collect();
        let mut o = PathOracle::new(edges, values);
        let again = run(&p, &mut o, Limits::default()).expect("path replays");
        assert_eq!(again, r);
        assert!(o.exhausted() && !o.path.diverged);
    }
}

/// Answers every value from `draws` in turn (then `0`), every edge with the last (or the
/// first) enabled one, and redraws when asked.
struct Draws(Vec<i64>, usize, bool);

impl Oracle for Draws {
    fn value(&mut self, q: &ValueQuery) -> Option<Value> {
        let v = self.0.get(self.1).copied().unwrap_or(0);
        self.1 += 1;
        Some(match q.sort {
            Sort::Bool => Value::Bool(v != 0),
            _ => Value::Int(v),
        })
    }
    fn edge(&mut self, q: &EdgeQuery) -> Option<usize> {
        if self.2 {
            q.enabled.last().copied()
        } else {
            q.enabled.first().copied()
        }
    }
    fn redraws(&self) -> bool {
        true
    }
}

#[test]
fn a_havoc_the_next_assume_rejects_is_drawn_again_and_forgotten() {
    // A string literal is a havocked reference assumed non-null.
    let src = "class Main {\n  public static void main(String[] args) {\n\
        ReentrantLock l = new ReentrantLock();\n    String s = \"x\";\n\
        l.lock();\n    if (s.length() > 0) { l.unlock(); }\n  }\n}\n";
    let p = prog(src, LOCK);
    // $1 = 1, args = 0, then `null` twice for the literal before an object.
    let mut oracle = Draws(vec![1, 0, 0, 0, 2, 3], 0, true);
    let r = run(&p, &mut oracle, Limits::default()).expect("completes");
    assert!(r.completed);
    // The rejected draws are not decisions of the run: a replay of its decisions is the
    // same run.
    let again = replay(&p, r.decisions.clone()).expect("replays");
    assert_eq!(again.steps, r.steps);
    assert_eq!(r.decisions.get(..3), Some(&[int(1), int(0), int(2)][..]));
}

#[test]
fn a_branch_on_an_unset_field_sees_its_value_before_choosing() {
    // Handing `t` to library code tests its escape mark `t.%escaped`, which nothing set:
    // the value is fixed before the choice, so a run that takes the first enabled edge
    // takes the one the value enables (it used to take the first edge and block).
    let src = "class Task implements Runnable { public void run() {} }\nclass Main {\n\
        public static void main(String[] args) {\n    ReentrantLock l = new ReentrantLock();\n\
        Task t = new Task();\n    Thread th = new Thread(t);\n    l.lock();\n    l.unlock();\n\
        }\n}\n";
    let p = prog(src, LOCK);
    let mut oracle = Draws(vec![1], 0, false);
    // (The first edge at the call-back loop calls `run` again and again: a step limit.)
    let limits = Limits {
        max_steps: 200,
        max_depth: 10,
    };
    let r = run(&p, &mut oracle, limits);
    assert!(
        matches!(r, Err(InterpError::StepLimit(..))),
        "blocked at the escape test: {:?}",
        r.err().map(|e| e.to_string())
    );
}

#[test]
fn arithmetic_that_depends_on_the_integer_width_is_noted() {
    let run_of = |expr: &str| {
        let src = format!(
            "class Main {{\n  public static void main(String[] args) {{\n\
             ReentrantLock l = new ReentrantLock();\n    int x = -1;\n    int y = 5;\n\
             l.lock();\n    if (({expr}) > 3) {{ l.unlock(); }}\n  }}\n}}\n"
        );
        let p = prog(&src, LOCK);
        run(&p, &mut Constant(Value::Int(1)), Limits::default()).expect("completes")
    };
    // `-1 >>> 28` is 15 as an `int`, 2^36 - 1 as a `long`; `y << 40` shifts by 8 as an
    // `int`; `y * y`, `y >>> 1` and `x & y` are the same either way.
    assert!(run_of("x >>> 28").width_dependent);
    assert!(run_of("y << 40").width_dependent);
    assert!(!run_of("y * y").width_dependent);
    assert!(!run_of("y >>> 1").width_dependent);
    assert!(!run_of("x & y").width_dependent);
}
