use super::*;
use crate::check::UnknownReason;
use crate::testutil::lower_ok;
use crate::{instrument, prepare, render_text, CheckOptions, LowerOptions, Verdict};

const SPEC: &str = "wildcard $1 : ReentrantLock;\nS -> $1.lock() S $1.unlock() S | ε;\n";

/// A lock-using service with a helper that computes a counter nothing branches on (its
/// loop may not end), and a flag set by an event-free method that a guard reads.
const PROGRAM: &str = include_str!("../../../../tests/check/45-growing-loop-helper.java");

fn instrumented(src: &str) -> Program {
    instrument(&lower_ok(src, SPEC))
}

fn method<'p>(p: &'p Program, name: &str) -> Option<&'p MethodCfa> {
    p.methods.iter().find(|m| m.name == name)
}

#[test]
fn summarise_keeps_a_helper_that_may_not_return_and_drops_one_that_always_does() {
    // `sum` loops: it stays, with `count`. A logging call that always returns goes.
    let logged = PROGRAM
        .replace(
            "        count = MathUtil.sum(count, n);",
            "        count = MathUtil.sum(count, n);\n        log(n);",
        )
        .replace(
            "    void take()",
            "    int last = 0;\n    void log(int v) { last = v; }\n    void take()",
        );
    let p = instrumented(&logged);
    let s = slice(&p, SliceMode::Summarise);
    assert!(
        method(&s.program, "MathUtil.sum").is_some(),
        "{}",
        s.stats.summary()
    );
    assert!(s.program.fields.iter().any(|f| f.name == "count"));
    assert!(
        method(&s.program, "Service.log").is_none(),
        "{}",
        s.stats.summary()
    );
    assert!(!s.program.fields.iter().any(|f| f.name == "last"));
    assert!(s.stats.calls_dropped >= 1);
    assert!(s.is_exact(), "only calls that always return were dropped");
}

#[test]
fn a_helper_nothing_reads_is_summarised_and_its_field_leaves() {
    let p = instrumented(PROGRAM);
    let s = slice(&p, SliceMode::SummariseAll);
    assert!(
        method(&s.program, "MathUtil.sum").is_none(),
        "{}",
        s.stats.summary()
    );
    assert!(!s.program.fields.iter().any(|f| f.name == "count"));
    // The flag a guard reads stays, and so does the event-free method that sets it.
    assert!(s.program.fields.iter().any(|f| f.name == "held"));
    assert!(method(&s.program, "Service.take").is_some());
    assert!(!s.is_exact());
    assert_eq!(s.stats.calls_dropped, 1);
    assert!(s.stats.statements.0 < s.stats.statements.1);
    assert_eq!(s.stats.methods.1, p.methods.len());
}

#[test]
fn the_exact_slice_keeps_every_call_but_drops_what_nothing_reads() {
    let p = instrumented(PROGRAM);
    let s = slice(&p, SliceMode::Exact);
    assert!(s.is_exact());
    assert!(method(&s.program, "MathUtil.sum").is_some());
    // Whether `sum` returns depends on its loop guard, which reads the argument `count`:
    // the exact slice keeps the field, and the call's result, which goes back to it.
    assert!(s.program.fields.iter().any(|f| f.name == "count"));
    let op = method(&s.program, "Service.op").expect("op kept");
    let calls_with_result = op
        .edges()
        .filter(|(_, _, e)| {
            matches!(
                e,
                Edge::Call {
                    result: Some(_),
                    ..
                }
            )
        })
        .count();
    assert_eq!(calls_with_result, 1, "{}", render_text(&s.program, PROGRAM));
    // A value nothing reads goes: the log counter below.
    let logged = PROGRAM.replace(
        "void take() { held = true; }",
        "int log = 0;\n    void take() { held = true; log = log + 1; }",
    );
    let q = instrumented(&logged);
    let t = slice(&q, SliceMode::Exact);
    assert!(t.is_exact());
    assert!(q.fields.iter().any(|f| f.name == "log"));
    assert!(
        !t.program.fields.iter().any(|f| f.name == "log"),
        "{}",
        t.stats.summary()
    );
    assert!(method(&t.program, "Service.take").is_some());
}

#[test]
fn ids_are_renumbered_consistently() {
    let p = instrumented(PROGRAM);
    let s = slice(&p, SliceMode::SummariseAll);
    let q = &s.program;
    for (i, m) in q.methods.iter().enumerate() {
        assert_eq!(m.id.index(), i);
        for (j, v) in m.vars.iter().enumerate() {
            assert_eq!(v.id.index(), j, "{}", m.name);
        }
        for (_, _, e) in m.edges() {
            if let Edge::Call { callee, args, .. } = e {
                let c = q.method(*callee).expect("callee exists");
                assert_eq!(c.params.len(), args.len(), "{} -> {}", m.name, c.name);
            }
        }
    }
    for (i, f) in q.fields.iter().enumerate() {
        assert_eq!(f.id.index(), i);
    }
    assert_eq!(
        q.method(q.entry).map(|m| m.name.as_str()),
        Some("Main.main")
    );
    assert_eq!(q.method(q.root).map(|m| m.name.as_str()), Some("<root>"));
}

fn verdict(src: &str, slice: Option<SliceMode>) -> (String, u32) {
    let prepared = prepare(src, SPEC, &LowerOptions::default()).expect("prepared");
    let opts = CheckOptions {
        slice,
        ..CheckOptions::default()
    };
    let mut run = prepared.run(crate::testutil::z3(), opts, None);
    let v = cfp_smt::block_on(run.finish(&mut |_| {}));
    let name = match &v {
        Verdict::Unknown {
            reason: UnknownReason::Vacuous { .. },
            ..
        } => "vacuous".to_string(),
        _ => v.name().to_string(),
    };
    (name, run.stats().summarised_iterations)
}

#[test]
fn slicing_keeps_the_verdicts() {
    // Correct, and buggy through the flag the summarised method must not lose.
    let buggy = PROGRAM.replace(
        "void take() { held = true; }",
        "void take() { held = false; }",
    );
    for mode in [
        None,
        Some(SliceMode::Exact),
        Some(SliceMode::Summarise),
        Some(SliceMode::SummariseAll),
    ] {
        assert_eq!(verdict(PROGRAM, mode).0, "verified", "{mode:?}");
        assert_eq!(verdict(&buggy, mode).0, "violation", "{mode:?}");
    }
}

#[test]
fn a_violation_of_the_summarised_slice_is_confirmed_on_the_exact_one() {
    // The helper never returns: no execution completes, so there is nothing to violate
    // (vacuous). Summarised away, the slice has an execution that locks and never unlocks.
    let src = "
class Spin {
    static void forever() { while (true) { } }
}
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        l.lock();
        Spin.forever();
    }
}
";
    let (v, summarised) = verdict(src, Some(SliceMode::SummariseAll));
    assert_eq!(v, "vacuous");
    assert_eq!(
        verdict(src, Some(SliceMode::Summarise)),
        ("vacuous".to_string(), 0)
    );
    assert!(
        summarised > 0,
        "the summarised slice's violation went to the exact slice"
    );
    assert_eq!(verdict(src, Some(SliceMode::Exact)).0, "vacuous");
}

#[test]
fn every_call_and_event_of_the_program_has_one_slice_edge_in_the_exact_slice() {
    let p = instrumented(PROGRAM);
    let s = slice(&p, SliceMode::Exact);
    for (k, m) in s.program.methods.iter().enumerate() {
        let om = s.origin.methods[k];
        let original = &p.methods[om];
        let mut seen: Vec<usize> = s.origin.edges[k].iter().flatten().copied().collect();
        seen.sort_unstable();
        let before = seen.len();
        seen.dedup();
        assert_eq!(
            seen.len(),
            before,
            "{}: an edge stands for a program edge twice",
            m.name
        );
        for (i, e) in original.graph.edge_references().enumerate() {
            if matches!(
                e.weight(),
                Edge::Call { .. } | Edge::ApiCall { .. } | Edge::Api { .. }
            ) {
                assert!(seen.contains(&i), "{}: program edge {i} lost", m.name);
            }
        }
    }
}

#[test]
fn only_methods_that_always_return_are_total() {
    let src = "
class H {
    static void forever() { while (true) { } }
    static int loops(int n) { int s = 0; while (s < n) { s = s + 1; } return s; }
    static void check(int n) { if (n > 0) { } }
    static int plain(int n) { int t = n + 1; return t; }
    static int calls(int n) { return plain(n) + plain(n); }
    static int rec(int n) { return rec(n); }
    void init() { }
}
class Main {
    public static void main(String[] args) {
        H.forever(); H.loops(3); H.check(1); H.calls(2); H.rec(1); new H().init();
    }
}
";
    let p = instrumented(src);
    let total = origin::total_methods(&p);
    let is_total = |name: &str| {
        let m = method(&p, name).unwrap_or_else(|| panic!("{name}"));
        total[m.id.index()]
    };
    assert!(!is_total("H.forever"));
    assert!(!is_total("H.loops"));
    assert!(!is_total("H.check"), "an if is a pair of assumes");
    assert!(is_total("H.plain"));
    assert!(is_total("H.calls"));
    assert!(!is_total("H.rec"));
    assert!(is_total("H.init"));
}

#[test]
fn a_division_that_may_be_by_zero_stays() {
    // `div(1, z)` throws in Java (the interpreter blocks): the run never locks. Dropping
    // the division, or the call as always returning, would invent an execution.
    let src = "
class Main {
    static int div(int a, int b) { return a / b; }
    static int half(int a) { return a / 2; }
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        int z = 0;
        div(1, z);
        half(z);
        int q = 7 % z;
        l.lock();
    }
}
";
    let p = instrumented(src);
    let total = origin::total_methods(&p);
    let is_total = |name: &str| method(&p, name).is_some_and(|m| total[m.id.index()]);
    assert!(!is_total("Main.div"));
    assert!(
        is_total("Main.half"),
        "a division by a non-zero constant cannot fail"
    );
    for mode in [SliceMode::Exact, SliceMode::Summarise] {
        let s = slice(&p, mode);
        assert!(
            method(&s.program, "Main.div").is_some(),
            "{mode:?}: {}",
            s.stats.summary()
        );
        assert!(s.is_exact());
        let text = render_text(&s.program, src);
        assert!(text.contains("7 % z"), "{mode:?}:\n{text}");
        assert!(text.contains("a / b"), "{mode:?}:\n{text}");
    }
    assert!(method(&slice(&p, SliceMode::Summarise).program, "Main.half").is_none());
}
