use super::*;

/// The `cfp check --json` counterexample of `run`: its path and word, no values.
fn cex_of(run: &interp::Run) -> serde_json::Value {
    let edges: Vec<serde_json::Value> = run
        .steps
        .iter()
        .map(|s| serde_json::json!([s.method.0, s.edge]))
        .collect();
    serde_json::json!({
        "word": run.word,
        "replay": {"edges": edges, "globals": [null]},
        "values": {}
    })
}

/// Answers every value query by its sort; edges are never asked (all determined).
struct BySort;

impl Oracle for BySort {
    fn value(&mut self, q: &ValueQuery) -> Option<Value> {
        Some(match (q.sort, &q.source) {
            (Sort::Bool, _) => Value::Bool(true),
            (Sort::Int, _) => Value::Int(3),
            // The wildcard is the first object (the lock); other references null.
            (Sort::Ref, ValueSource::GlobalInit(_)) => Value::Int(1),
            (Sort::Ref, _) => Value::Int(0),
        })
    }

    fn edge(&mut self, _: &EdgeQuery) -> Option<usize> {
        None
    }
}

#[test]
fn the_inputs_of_a_path_are_its_input_calls_in_order() {
    let program = "class Main {\n    public static void main(String[] a) {\n        ReentrantLock l = new ReentrantLock();\n        int n = Input.readInt();\n        boolean b = Input.readBool();\n        if (n > 2 && b && Sensor.ready()) {\n            l.lock();\n        }\n    }\n}\n";
    let spec = "wildcard $1 : ReentrantLock;\nS -> $1.lock() S $1.unlock() S | ε;\n";
    let prepared = cfp_core::prepare(program, spec, &LowerOptions::default()).expect("prepares");
    let run = interp::run(prepared.program(), &mut BySort, Limits::default()).expect("runs");
    assert_eq!(run.word, ["$1.lock()"]);
    let cex = cex_of(&run);
    let inputs = replay_inputs(program, spec, None, &cex).expect("replays");
    let shown: Vec<(InputKind, u32, ReplayValue, &str)> = inputs
        .iter()
        .map(|i| (i.kind, i.line, i.value.clone(), i.text.as_str()))
        .collect();
    assert_eq!(
        shown,
        [
            (InputKind::Input, 4, ReplayValue::Int(3), "Input.readInt()"),
            (
                InputKind::Input,
                5,
                ReplayValue::Bool(true),
                "Input.readBool()"
            ),
            (InputKind::Ext, 6, ReplayValue::Bool(true), "Sensor.ready()"),
        ]
    );
    let tokens: Vec<String> = inputs.iter().map(ReplayInput::job_token).collect();
    assert_eq!(tokens, ["input:4::i3", "input:5::b1", "ext:6:ready:b1"]);
}

/// Takes a library call's throw edge when it can, calls back each callback loop's
/// closures `times` times, picks the most recent object for a reference and the
/// first registered object after the entry.
struct Library<'p> {
    cfas: Cfas<'p>,
    times: usize,
    visits: std::collections::BTreeMap<(MethodId, usize), usize>,
}

impl Oracle for Library<'_> {
    fn value(&mut self, q: &ValueQuery) -> Option<Value> {
        Some(match (q.sort, &q.source) {
            (Sort::Bool, _) => Value::Bool(true),
            // The first registered object, for a pick from the escape registry.
            (Sort::Int, _) => Value::Int(1),
            // The wildcard: the first object (the lock).
            (Sort::Ref, ValueSource::GlobalInit(_)) => Value::Int(1),
            (Sort::Ref, _) => Value::Int(q.allocated),
        })
    }

    fn edge(&mut self, q: &EdgeQuery) -> Option<usize> {
        let throws = q.enabled.iter().copied().find(|&e| {
            self.cfas
                .edge(q.method, e)
                .is_some_and(|(_, _, edge)| library_throw(self.cfas.program, edge).is_some())
        });
        if throws.is_some() {
            return throws;
        }
        // A callback loop's head: its body leads to a call back.
        let edges = &self.cfas.edges[q.method.index()];
        let leads_back = |e: usize| {
            let mut frontier = vec![e];
            for _ in 0..4 {
                if frontier
                    .iter()
                    .any(|&i| callback_span(&self.cfas, q.method, i).is_some())
                {
                    return true;
                }
                frontier = edges
                    .iter()
                    .enumerate()
                    .filter(|(_, (a, _, _))| frontier.iter().any(|&f| edges[f].1 == *a))
                    .filter(|(i, (_, _, edge))| {
                        matches!(edge, Edge::Block(_))
                            || callback_span(&self.cfas, q.method, *i).is_some()
                    })
                    .map(|(i, _)| i)
                    .collect();
            }
            false
        };
        let body = q.enabled.iter().copied().find(|&e| leads_back(e));
        // An object is registered in the escape registry when a library call first
        // receives it.
        let registry = escaped_field(self.cfas.program);
        let registers = q.enabled.iter().copied().find(|&e| {
            matches!(self.cfas.edge(q.method, e), Some((_, _, Edge::Block(stmts)))
                if stmts.iter().any(|s| matches!(&s.node,
                    Stmt::Assign { place: Place::Field { field, .. }, .. }
                        if Some(*field) == registry)))
        });
        if registers.is_some() {
            return registers;
        }
        let seen = self.visits.entry((q.method, q.node)).or_insert(0);
        *seen += 1;
        match body {
            Some(b) if *seen <= self.times => Some(b),
            Some(b) => q.enabled.iter().copied().find(|&e| e != b),
            None => q.enabled.first().copied(),
        }
    }
}

/// The replay inputs of the path `oracle` makes through `program`.
fn path_inputs(program: &str, spec: &str, times: usize) -> Result<Vec<ReplayInput>, ReplayError> {
    let prepared = cfp_core::prepare(program, spec, &LowerOptions::default()).expect("prepares");
    let mut oracle = Library {
        cfas: Cfas::new(prepared.program()),
        times,
        visits: std::collections::BTreeMap::new(),
    };
    let run = interp::run(prepared.program(), &mut oracle, Limits::default()).expect("runs");
    let cex = cex_of(&run);
    replay_inputs(program, spec, None, &cex)
}

const LOCK: &str = "wildcard $1 : ReentrantLock;\nS -> $1.lock() S $1.unlock() S | ε;\n";

#[test]
fn a_library_call_that_throws_on_the_path_is_an_input() {
    let program = "class Main {\n    public static void main(String[] a) {\n        ReentrantLock l = new ReentrantLock();\n        try {\n            l.lock();\n            Lib.io();\n            l.unlock();\n        } catch (java.io.IOException e) {\n        }\n    }\n}\n";
    let inputs = path_inputs(program, LOCK, 0).expect("replays");
    let tokens: Vec<String> = inputs.iter().map(ReplayInput::job_token).collect();
    assert_eq!(tokens, ["throw:6:io:cIOException"], "{inputs:?}");
}

#[test]
fn call_backs_during_a_call_and_after_the_entry_are_inputs() {
    let program = "class Main {\n    public static void main(String[] a) {\n        ReentrantLock l = new ReentrantLock();\n        Lib.run(() -> l.lock());\n        Lib.later(() -> l.unlock());\n    }\n}\n";
    let inputs = path_inputs(program, LOCK, 2).expect("replays");
    let tokens: Vec<String> = inputs.iter().map(ReplayInput::job_token).collect();
    assert_eq!(
        tokens,
        // The first object registered is the first closure (`Lib.run` may keep it).
        [
            "calls:4:run:i2",
            "calls:5:later:i2",
            "later:4:run:i0",
            "later:4:run:i0"
        ],
        "{inputs:?}"
    );
}

#[test]
fn only_objects_a_library_call_received_are_called_back_later() {
    let program = "class Main {\n    public static void main(String[] a) {\n        ReentrantLock l = new ReentrantLock();\n        Lib.later(() -> l.lock());\n        Runnable r = () -> l.unlock();\n    }\n}\n";
    let inputs = path_inputs(program, LOCK, 1).expect("replays");
    let tokens: Vec<String> = inputs.iter().map(ReplayInput::job_token).collect();
    assert_eq!(
        tokens,
        ["calls:4:later:i1", "later:4:later:i0"],
        "{inputs:?}"
    );
}

#[test]
fn the_model_values_of_a_havoc_are_by_variable_line_and_run() {
    let cex = serde_json::json!({
        "values": {
            "%alloc": "100",
            "step   3: x": "7",
            "step   4: x": "3",
            "step   9: x": "8",
            "step   9: o": "102",
            "step  10: p": "100",
            "step  11: %t1#bool": "true"
        },
        "trace": [
            {"line": 1, "text": "skip"}, {"line": 1, "text": "skip"},
            {"line": 1, "text": "skip"},
            {"line": 5, "text": "havoc x"},
            {"line": 6, "text": "assume x > 3; x := 3"},
            {"line": 1, "text": "skip"}, {"line": 1, "text": "skip"},
            {"line": 1, "text": "skip"}, {"line": 1, "text": "skip"},
            {"line": 5, "text": "havoc x; havoc o"},
            {"line": 7, "text": "havoc p; assume p.%escaped"},
            {"line": 8, "text": "havoc %t1"}
        ]
    });
    let m = ModelValues::new(&cex);
    assert_eq!(m.get("x", 5, 0, Sort::Int), Some(Value::Int(7)));
    assert_eq!(m.get("x", 5, 1, Sort::Int), Some(Value::Int(8)));
    assert_eq!(m.get("x", 5, 2, Sort::Int), None);
    assert_eq!(m.get("x", 6, 0, Sort::Int), None);
    assert_eq!(m.get("o", 5, 0, Sort::Ref), Some(Value::Int(2)));
    assert_eq!(m.get("p", 7, 0, Sort::Ref), Some(Value::Int(-1)));
    assert_eq!(m.get("%t1", 8, 0, Sort::Bool), Some(Value::Bool(true)));
}

#[test]
fn a_model_call_back_of_an_object_there_before_the_run_is_found() {
    let trace = serde_json::json!([
        {"line": 12, "text": "%t1 := new Main$1; %t1.%type := 3", "depth": 1},
        {"line": 12, "text": "assume !(%t1 == null); %escapes := %escapes + 1; %t1.%escaped := %escapes; %escapes.%escapes := %t1", "depth": 1},
        {"line": 11, "text": "return from Main.main", "depth": 0},
        {"line": 11, "text": "havoc %t2; assume %t2 < %base", "depth": 0},
        {"line": 11, "text": "call Main$2.run(%t2)", "depth": 0}
    ]);
    let cex = |picked: &str| {
        serde_json::json!({
            "trace": trace,
            "values": {"step   0: %t1": "5856", "step   3: %t2": picked}
        })
    };
    let (why, made) = phantom_call_back(&cex("17")).expect("a phantom");
    assert!(!made);
    assert!(why.contains("`call Main$2.run(%t2)` on object 17"), "{why}");
    assert!(why.contains("[5856]"), "{why}");
    assert_eq!(phantom_call_back(&cex("5856")), None);
    // A pick from the registry is an object a call received.
    let registry = serde_json::json!({
        "trace": [
            {"line": 11, "text": "havoc %t3; assume 1 <= %t3 && %t3 <= %escapes; %t2 := %t3.%escapes", "depth": 0},
            {"line": 11, "text": "call Main$2.run(%t2)", "depth": 0}
        ],
        "values": {"step   0: %t2": "17"}
    });
    assert_eq!(phantom_call_back(&registry), None);
}

#[test]
fn a_picked_object_is_tried_as_the_recent_objects_first() {
    let q = ValueQuery {
        source: ValueSource::GlobalInit(cfp_core::GlobalId(0)),
        sort: Sort::Ref,
        allocated: 3,
        non_null: false,
        zeroed: false,
    };
    let values = |c: Vec<Value>| -> Vec<i64> { c.into_iter().filter_map(Value::as_int).collect() };
    assert_eq!(
        values(candidates(&q, &[], None, true)),
        [3, 2, 1, 4, 5, 6, 0]
    );
    assert_eq!(
        values(candidates(&q, &[], None, false)),
        [1, 0, 2, 3, 4, 5, 6]
    );
    assert_eq!(
        values(candidates(&q, &[9], Some(Value::Int(2)), true)),
        [2, 3, 1, 4, 5, 6, 0, 9]
    );
}

#[test]
fn a_path_that_is_not_the_programs_is_reported() {
    let program = "class Main {\n    public static void main(String[] a) {\n    }\n}\n";
    let spec = "wildcard $1 : ReentrantLock;\nS -> $1.lock() S $1.unlock() S | ε;\n";
    let cex = serde_json::json!({
        "word": ["$1.lock()"],
        "replay": {"edges": [[0, 0], [7, 3]], "globals": [null]},
        "values": {}
    });
    assert!(replay_inputs(program, spec, None, &cex).is_err());
    let no_path = serde_json::json!({"word": []});
    assert_eq!(
        replay_inputs(program, spec, None, &no_path),
        Err(ReplayError::NoPath)
    );
}

#[test]
fn the_callee_of_a_call_text() {
    assert_eq!(callee_name("ReminderStore.get(context).find(id)"), "find");
    assert_eq!(callee_name("getWidth()"), "getWidth");
    assert_eq!(callee_name("a.f(g(x), (y))"), "f");
    assert_eq!(callee_name("x + 1"), "");
}

#[test]
fn job_tokens_name_kind_line_method_and_value() {
    let i = ReplayInput {
        kind: InputKind::Ref,
        line: 27,
        value: ReplayValue::Bool(false),
        text: "ReminderStore.get(context).find(id)".into(),
    };
    assert_eq!(i.job_token(), "ref:27:find:b0");
    let i = ReplayInput {
        kind: InputKind::Input,
        line: 3,
        value: ReplayValue::Int(-2),
        text: "Input.readInt()".into(),
    };
    assert_eq!(i.job_token(), "input:3::i-2");
}
