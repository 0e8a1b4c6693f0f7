//! The generator's features: each a Java template (placeholders of [`super::fill`]) of
//! classes, `Main` members and `main` statements, in a correct version and with a bug
//! (a missing, extra or misplaced opening or closing call). A feature's names end in its
//! number, so features combine without clashes.

use super::{fill, Feature, Proto, Rng};

/// A feature maker: (rng, number, protocol, with a bug?).
pub type Maker = fn(&mut Rng, usize, &Proto, bool) -> Feature;

/// Every feature, by name.
pub const CATALOGUE: &[(&str, Maker)] = &[
    ("static-late", static_late),
    ("static-never", static_never),
    ("static-super-sub", static_super_sub),
    ("static-inherited-field", static_inherited_field),
    ("static-nested-enum", static_nested_enum),
    ("static-field-of-other", static_field_of_other),
    ("instance-init-dispatch", instance_init_dispatch),
    ("dispatch-abstract", dispatch_abstract),
    ("dispatch-interface", dispatch_interface),
    ("dispatch-super-call", dispatch_super_call),
    ("enum-switch", enum_switch),
    ("enum-constructor", enum_constructor),
    ("overload-int-long", overload_int_long),
    ("overload-boxing", overload_boxing),
    ("overload-varargs", overload_varargs),
    ("overload-classes", overload_classes),
    ("overload-widening", overload_widening),
    ("overload-char", overload_char),
    ("exception-callee", exception_callee),
    ("exception-checked-supertype", exception_checked_supertype),
    ("exception-multi-catch", exception_multi_catch),
    ("exception-nested-rethrow", exception_nested_rethrow),
    ("exception-finally-return", exception_finally_return),
    ("exception-finally-break", exception_finally_break),
    ("exception-lib-io", exception_lib_io),
    ("exception-lib-risky", exception_lib_risky),
    ("exception-throws-io", exception_throws_io),
    ("exception-try-with-resources", exception_try_with_resources),
    ("exception-lock-in-catch", exception_lock_in_catch),
    ("exception-uncaught", exception_uncaught),
    ("closure-lambda-argument", closure_lambda_argument),
    ("closure-anonymous-capture", closure_anonymous_capture),
    ("closure-local-class", closure_local_class),
    ("closure-stored-field", closure_stored_field),
    ("closure-captures-this", closure_captures_this),
    ("closure-lib-run", closure_lib_run),
    ("closure-lib-later", closure_lib_later),
    ("recursion", recursion),
    ("loop-for-continue", loop_for_continue),
    ("loop-while-count", loop_while_count),
    ("loop-do-while", loop_do_while),
    ("loop-counted-pair", loop_counted_pair),
    ("native-unreached", native_unreached),
    ("native-uncalled", native_uncalled),
    ("two-objects", two_objects),
    ("guard-helper", guard_helper),
];

fn make(k: usize, p: &Proto, classes: &[&str], members: &[&str], stmts: &str) -> Feature {
    Feature {
        classes: classes.iter().map(|c| fill(c, k, p)).collect(),
        members: members.iter().map(|m| fill(m, k, p)).collect(),
        stmts: fill(stmts, k, p),
    }
}

/// Pick the correct or the buggy text.
fn pick<'a>(bug: bool, ok: &'a str, bad: &'a str) -> &'a str {
    if bug {
        bad
    } else {
        ok
    }
}

const FAIL: &str = "class Fail$K extends RuntimeException {\n}\n";
const CHECK: &str =
    "static void check$K(int n) {\n    if (n > 2) {\n        throw new Fail$K();\n    }\n}";
const JOB: &str = "interface Job$K {\n    void run();\n}\n";

fn static_late(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let class = format!(
        "class Late$K {{\n    static {{\n        $L.$O();\n    }}\n\n    static void use() {{\n        {}\n    }}\n}}\n",
        pick(bug, "$L.$C();", "Lib.work();")
    );
    make(
        k,
        p,
        &[&class],
        &[],
        "if (Input.readBool()) {\n    Late$K.use();\n}",
    )
}

fn static_never(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let class = format!(
        "class Never$K {{\n    static {{\n        {}\n    }}\n\n    static int unused() {{\n        return 1;\n    }}\n}}\n",
        pick(bug, "$L.$C();", "$L.$O();")
    );
    make(k, p, &[&class], &[], "$L.$O();\n$L.$C();")
}

fn super_sub(rng: &mut Rng, bug: bool) -> Vec<String> {
    let (a, b) = if bug { ("$C", "$O") } else { ("$O", "$C") };
    let base = format!(
        "class Base$K {{\n    static int count = 1;\n\n    static {{\n        $L.{a}();\n    }}\n}}\n"
    );
    let sub = format!(
        "class Sub$K extends Base$K {{\n    static {{\n        $L.{b}();\n    }}\n\n    static void touch() {{\n        count++;\n    }}\n}}\n"
    );
    if rng.chance(50) {
        vec![base, sub]
    } else {
        vec![sub, base]
    }
}

fn static_super_sub(rng: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let classes = super_sub(rng, bug);
    let refs: Vec<&str> = classes.iter().map(String::as_str).collect();
    make(k, p, &refs, &[], "Sub$K.touch();")
}

/// `Sub.count` names a field declared in `Base`: only `Base` is initialised.
fn static_inherited_field(rng: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let classes = super_sub(rng, bug);
    let refs: Vec<&str> = classes.iter().map(String::as_str).collect();
    make(
        k,
        p,
        &refs,
        &[],
        "int c$K = Sub$K.count;\nif (c$K > 0) {\n    $L.$C();\n}",
    )
}

fn static_nested_enum(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let close = "    static {\n        $L.$C();\n    }\n";
    let field = "    static Mode current = Mode.ON;\n";
    let body = if bug {
        format!("{close}\n{field}")
    } else {
        format!("{field}\n{close}")
    };
    let class = format!(
        "class Holder$K {{\n    enum Mode {{\n        ON, OFF;\n\n        static {{\n            $L.$O();\n        }}\n    }}\n\n{body}\n    static void touch() {{\n    }}\n}}\n"
    );
    make(
        k,
        p,
        &[&class],
        &[],
        "if (Input.readBool()) {\n    Holder$K.touch();\n}",
    )
}

fn static_field_of_other(rng: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let cfg = "class Cfg$K {\n    static int n = Input.readInt();\n\n    static {\n        if (n > 0) {\n            $L.$O();\n        }\n    }\n}\n";
    let user = format!(
        "class User$K {{\n    static int m = Cfg$K.n;\n\n    static {{\n        if ({}) {{\n            $L.$C();\n        }}\n    }}\n\n    static void touch() {{\n    }}\n}}\n",
        pick(bug, "m > 0", "m > 1")
    );
    let classes: Vec<&str> = if rng.chance(50) {
        vec![cfg, &user]
    } else {
        vec![&user, cfg]
    };
    make(k, p, &classes, &[], "User$K.touch();")
}

/// A constructor calls an overridden method before the subclass's fields are set.
fn instance_init_dispatch(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let parent = "class Parent$K {\n    Parent$K() {\n        $L.$O();\n        init();\n    }\n\n    void init() {\n    }\n}\n";
    let child = "class Child$K extends Parent$K {\n    boolean ready = true;\n\n    @Override\n    void init() {\n        if (ready) {\n            $L.$C();\n        }\n    }\n}\n";
    make(
        k,
        p,
        &[parent, child],
        &[],
        pick(
            bug,
            "new Child$K();\n$L.$C();",
            "new Child$K();\nLib.work();",
        ),
    )
}

fn dispatch_abstract(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let shape = "abstract class Shape$K {\n    abstract void draw();\n\n    void frame() {\n        $L.$O();\n        draw();\n    }\n}\n";
    let square =
        "class Square$K extends Shape$K {\n    void draw() {\n        $L.$C();\n    }\n}\n";
    let circle = format!(
        "class Circle$K extends Shape$K {{\n    void draw() {{\n        {}\n    }}\n}}\n",
        pick(bug, "$L.$C();", "Lib.work();")
    );
    make(
        k,
        p,
        &[shape, square, &circle],
        &[],
        "Shape$K s$K = Input.readBool() ? new Square$K() : new Circle$K();\ns$K.frame();",
    )
}

fn dispatch_interface(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let act = "interface Act$K {\n    void act();\n}\n";
    let opener =
        "class Opener$K implements Act$K {\n    public void act() {\n        $L.$O();\n    }\n}\n";
    let closer =
        "class Closer$K implements Act$K {\n    public void act() {\n        $L.$C();\n    }\n}\n";
    let stmts = format!(
        "Act$K first$K = new Opener$K();\nAct$K second$K = new Closer$K();\nfirst$K.act();\nif (Input.readBool()) {{\n    second$K.act();\n    first$K.act();\n}}\n{}",
        pick(bug, "second$K.act();", "Lib.work();")
    );
    make(k, p, &[act, opener, closer], &[], &stmts)
}

fn dispatch_super_call(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let step = "class Step$K {\n    void step() {\n        $L.$O();\n    }\n}\n";
    let twice = format!(
        "class Twice$K extends Step$K {{\n    @Override\n    void step() {{\n        {}\n        $L.$C();\n    }}\n}}\n",
        pick(bug, "super.step();", "Lib.work();")
    );
    make(
        k,
        p,
        &[step, &twice],
        &[],
        "Step$K st$K = Input.readBool() ? new Twice$K() : new Step$K();\nst$K.step();\nif (!(st$K instanceof Twice$K)) {\n    $L.$C();\n}",
    )
}

fn enum_switch(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let e = format!(
        "enum Op$K {{\n    {};\n\n    final boolean holds;\n\n    Op$K(boolean holds) {{\n        this.holds = holds;\n    }}\n}}\n",
        pick(bug, "TAKE(true), PASS(false)", "TAKE(false), PASS(true)")
    );
    make(
        k,
        p,
        &[&e],
        &[],
        "Op$K op$K = Input.readBool() ? Op$K.TAKE : Op$K.PASS;\nswitch (op$K) {\n    case TAKE:\n        $L.$O();\n        break;\n    default:\n        break;\n}\nif (op$K.holds) {\n    $L.$C();\n}",
    )
}

fn enum_constructor(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let e = "enum Level$K {\n    LOW(1), HIGH(2);\n\n    final int weight;\n\n    Level$K(int w) {\n        weight = w;\n        $L.$O();\n    }\n}\n";
    let stmts = format!(
        "Level$K lv$K = Input.readBool() ? Level$K.LOW : Level$K.HIGH;\n$L.$C();\n{}",
        pick(bug, "$L.$C();", "Lib.work();")
    );
    make(k, p, &[e], &[], &stmts)
}

fn overload_int_long(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    make(
        k,
        p,
        &[],
        &[
            "static void put$K(int x) {\n    $L.$O();\n}",
            "static void put$K(long x) {\n    $L.$C();\n}",
        ],
        pick(bug, "put$K(1);\nput$K(2L);", "put$K(1);\nput$K(2);"),
    )
}

fn overload_boxing(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    make(
        k,
        p,
        &[],
        &[
            "static void box$K(Integer x) {\n    $L.$O();\n}",
            "static void box$K(Object x) {\n    $L.$C();\n}",
        ],
        pick(bug, "box$K(3);\nbox$K(\"s\");", "box$K(3);\nbox$K(4);"),
    )
}

fn overload_varargs(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    make(
        k,
        p,
        &[],
        &[
            "static void va$K(int... v) {\n    $L.$C();\n}",
            "static void va$K(Object o) {\n    $L.$O();\n}",
        ],
        pick(bug, "va$K(1);\nva$K(1, 2);", "va$K(1, 2);\nva$K(1);"),
    )
}

fn overload_classes(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    make(
        k,
        p,
        &[
            "class Animal$K {\n}\n",
            "class Dog$K extends Animal$K {\n}\n",
        ],
        &[
            "static void feed$K(Animal$K a) {\n    $L.$C();\n}",
            "static void feed$K(Dog$K d) {\n    $L.$O();\n}",
        ],
        pick(
            bug,
            "Animal$K pet$K = new Dog$K();\nfeed$K(new Dog$K());\nfeed$K(pet$K);",
            "Animal$K pet$K = new Dog$K();\nfeed$K(pet$K);\nfeed$K(new Dog$K());",
        ),
    )
}

fn overload_widening(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    make(
        k,
        p,
        &[],
        &[
            "static void wide$K(long x) {\n    $L.$O();\n}",
            "static void wide$K(Integer x) {\n    $L.$C();\n}",
        ],
        pick(
            bug,
            "wide$K(1);\nwide$K(Integer.valueOf(2));",
            "wide$K(Integer.valueOf(1));\nwide$K(2);",
        ),
    )
}

fn overload_char(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    make(
        k,
        p,
        &[],
        &[
            "static void ch$K(int x) {\n    $L.$O();\n}",
            "static void ch$K(char c) {\n    $L.$C();\n}",
        ],
        pick(bug, "ch$K(97);\nch$K('a');", "ch$K('a');\nch$K(97);"),
    )
}

fn exception_callee(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let stmts = format!(
        "$L.$O();\ntry {{\n    check$K(Input.readInt());\n    $L.$C();\n}} catch (Fail$K e$K) {{\n    {}\n}}",
        pick(bug, "$L.$C();", "Lib.work();")
    );
    make(k, p, &[FAIL], &[CHECK], &stmts)
}

fn exception_checked_supertype(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let stmts = format!(
        "try {{\n    $L.$O();\n    risky$K(Input.readBool());\n    $L.$C();\n}} catch (Exception e$K) {{\n    {}\n}}",
        pick(bug, "$L.$C();", "$L.$O();")
    );
    make(
        k,
        p,
        &["class Bad$K extends Exception {\n}\n"],
        &["static void risky$K(boolean b) throws Bad$K {\n    if (b) {\n        throw new Bad$K();\n    }\n}"],
        &stmts,
    )
}

fn exception_multi_catch(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let stmts = format!(
        "$L.$O();\ntry {{\n    pick$K(Input.readInt());\n}} catch (FailA$K | FailB$K e$K) {{\n    $L.$C();\n    {}\n}}\n$L.$C();",
        pick(bug, "$L.$O();", "Lib.work();")
    );
    make(
        k,
        p,
        &[
            "class FailA$K extends RuntimeException {\n}\n",
            "class FailB$K extends RuntimeException {\n}\n",
        ],
        &["static void pick$K(int n) {\n    if (n == 1) {\n        throw new FailA$K();\n    }\n    if (n == 2) {\n        throw new FailB$K();\n    }\n}"],
        &stmts,
    )
}

fn exception_nested_rethrow(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let stmts = format!(
        "try {{\n    try {{\n        $L.$O();\n        check$K(Input.readInt());\n    }} catch (Fail$K e$K) {{\n        $L.$C();\n        throw e$K;\n    }}\n    $L.$C();\n}} catch (RuntimeException r$K) {{\n    {}\n}}",
        pick(bug, "Lib.work();", "$L.$C();")
    );
    make(k, p, &[FAIL], &[CHECK], &stmts)
}

fn exception_finally_return(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let member = format!(
        "static int guarded$K(int n) {{\n    $L.$O();\n    try {{\n        if (n > 1) {{\n            throw new Fail$K();\n        }}\n        return n;\n    }} finally {{\n        {}\n        if (n > 2) {{\n            return 0;\n        }}\n    }}\n}}",
        pick(bug, "$L.$C();", "if (n > 0) {\n            $L.$C();\n        }")
    );
    make(
        k,
        p,
        &[FAIL],
        &[&member],
        "try {\n    int g$K = guarded$K(Input.readInt());\n} catch (Fail$K f$K) {\n    Lib.work();\n}",
    )
}

fn exception_finally_break(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let stmts = format!(
        "for (int i$K = 0; i$K < 3; i$K++) {{\n    try {{\n        $L.$O();\n        if (Input.readBool()) {{\n            throw new Fail$K();\n        }}\n    }} finally {{\n        {}\n        break;\n    }}\n}}",
        pick(bug, "$L.$C();", "if (i$K > 0) {\n            $L.$C();\n        }")
    );
    make(k, p, &[FAIL], &[], &stmts)
}

fn exception_lib_io(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let stmts = format!(
        "$L.$O();\ntry {{\n    Lib.io();\n    $L.$C();\n}} catch (java.io.IOException e$K) {{\n    {}\n}}",
        pick(bug, "$L.$C();", "Lib.work();")
    );
    make(k, p, &[], &[], &stmts)
}

fn exception_lib_risky(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let stmts = format!(
        "try {{\n    $L.$O();\n    Lib.risky();\n}} catch (RuntimeException e$K) {{\n    $L.$C();\n    {}\n}} finally {{\n    $L.$C();\n}}",
        pick(bug, "$L.$O();", "Lib.work();")
    );
    make(k, p, &[], &[], &stmts)
}

fn exception_throws_io(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let stmts = format!(
        "try {{\n    load$K();\n}} catch (java.io.IOException e$K) {{\n    {}\n}}",
        pick(bug, "$L.$C();", "Lib.work();")
    );
    make(
        k,
        p,
        &[],
        &["static void load$K() throws java.io.IOException {\n    $L.$O();\n    Lib.io();\n    $L.$C();\n}"],
        &stmts,
    )
}

fn exception_try_with_resources(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let class = format!(
        "class Res$K implements AutoCloseable {{\n    Res$K() {{\n        $L.$O();\n    }}\n\n    public void close() {{\n        {}\n    }}\n}}\n",
        pick(bug, "$L.$C();", "Lib.work();")
    );
    make(
        k,
        p,
        &[&class],
        &[],
        "try (Res$K r$K = new Res$K()) {\n    Lib.work();\n}",
    )
}

fn exception_lock_in_catch(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let stmts = format!(
        "try {{\n    check$K(Input.readInt());\n}} catch (Fail$K e$K) {{\n    $L.$O();\n    {}\n}}",
        pick(bug, "$L.$C();", "Lib.work();")
    );
    make(k, p, &[FAIL], &[CHECK], &stmts)
}

fn exception_uncaught(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let stmts = format!(
        "$L.$O();\ncheck$K(Input.readInt());\n{}",
        pick(bug, "$L.$C();", "Lib.work();")
    );
    make(k, p, &[FAIL], &[CHECK], &stmts)
}

fn closure_lambda_argument(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    make(
        k,
        p,
        &[JOB],
        &["static void twice$K(Job$K j) {\n    j.run();\n    j.run();\n}"],
        pick(
            bug,
            "twice$K(() -> {\n    $L.$O();\n    $L.$C();\n});",
            "twice$K(() -> $L.$O());\n$L.$C();",
        ),
    )
}

fn closure_anonymous_capture(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let stmts = format!(
        "final $T h$K = $M;\nJob$K j$K = new Job$K() {{\n    public void run() {{\n        h$K.$O();\n    }}\n}};\nj$K.run();\n{}",
        pick(bug, "h$K.$C();", "Lib.work();")
    );
    make(k, p, &[JOB], &[], &stmts)
}

fn closure_local_class(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let stmts = format!(
        "class Local$K implements Job$K {{\n    public void run() {{\n        $L.$C();\n    }}\n}}\n$L.$O();\n{}",
        pick(bug, "new Local$K().run();", "new Local$K().run();\nnew Local$K().run();")
    );
    make(k, p, &[JOB], &[], &stmts)
}

fn closure_stored_field(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let stmts = format!(
        "saved$K = () -> $L.$C();\n$L.$O();\nif (Input.readBool()) {{\n    saved$K.run();\n}} else {{\n    {}\n}}",
        pick(bug, "saved$K.run();", "Lib.work();")
    );
    make(k, p, &[JOB], &["static Job$K saved$K;"], &stmts)
}

fn closure_captures_this(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let class = format!(
        "class Counter$K {{\n    int held = 0;\n\n    Job$K opener() {{\n        return () -> {{\n            held++;\n            $L.$O();\n        }};\n    }}\n\n    void closeAll() {{\n        while ({}) {{\n            held--;\n            $L.$C();\n        }}\n    }}\n}}\n",
        pick(bug, "held > 0", "held > 1")
    );
    make(
        k,
        p,
        &[JOB, &class],
        &[],
        "Counter$K c$K = new Counter$K();\nc$K.opener().run();\nif (Input.readBool()) {\n    c$K.opener().run();\n}\nc$K.closeAll();",
    )
}

fn closure_lib_run(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    make(
        k,
        p,
        &[],
        &[],
        pick(
            bug,
            "Lib.run(() -> {\n    $L.$O();\n    $L.$C();\n});",
            "$L.$O();\nLib.run(() -> $L.$C());",
        ),
    )
}

fn closure_lib_later(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    make(
        k,
        p,
        &[],
        &[],
        pick(
            bug,
            "Lib.later(() -> {\n    $L.$O();\n    $L.$C();\n});",
            "$L.$O();\nLib.later(() -> $L.$C());",
        ),
    )
}

fn recursion(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let member = format!(
        "static void rec$K(int n) {{\n    if (n > 0) {{\n        $L.$O();\n        rec$K(n - 1);\n        $L.$C();{}\n    }}\n}}",
        pick(bug, "", "\n        if (n == 2) {\n            $L.$C();\n        }")
    );
    make(
        k,
        p,
        &[],
        &[&member],
        "int n$K = Input.readInt();\nif (n$K > 4) {\n    n$K = 4;\n}\nrec$K(n$K);",
    )
}

fn loop_for_continue(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let stmts = format!(
        "int c$K = Input.readInt();\nif (c$K > 3) {{\n    c$K = 3;\n}}\nfor (int i$K = 0; i$K < c$K; i$K++) {{\n    $L.$O();\n    if (Input.readBool()) {{\n        {}\n    }}\n    $L.$C();\n}}",
        pick(bug, "$L.$C();\n        continue;", "break;")
    );
    make(k, p, &[], &[], &stmts)
}

fn loop_while_count(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let stmts = format!(
        "int w$K = 0;\nwhile (w$K < 3 && Input.readBool()) {{\n    $L.$O();\n    w$K++;\n}}\nwhile ({}) {{\n    $L.$C();\n    w$K--;\n}}",
        pick(bug, "w$K > 0", "w$K > 1")
    );
    make(k, p, &[], &[], &stmts)
}

fn loop_counted_pair(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let stmts = format!(
        "int c$K = Input.readInt();\nif (c$K > 3) {{\n    c$K = 3;\n}}\nfor (int i$K = 0; i$K < c$K; i$K++) {{\n    $L.$O();\n}}\nfor (int j$K = 0; j$K < c$K; j$K++) {{\n    {}\n}}",
        pick(bug, "$L.$C();", "if (j$K != 1) {\n        $L.$C();\n    }")
    );
    make(k, p, &[], &[], &stmts)
}

fn loop_do_while(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let stmts = format!(
        "int d$K = Input.readInt();\ndo {{\n    $M.$O();\n    {}\n    d$K--;\n}} while (d$K > 0 && d$K < 4);",
        pick(bug, "$M.$C();", "if (d$K != 2) {\n        $M.$C();\n    }")
    );
    make(k, p, &[], &[], &stmts)
}

fn native_unreached(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let stmts = format!(
        "int z$K = Input.readInt();\nif (z$K > 100) {{\n    z$K = nat$K();\n    {}\n}}",
        pick(bug, "Lib.work();", "$L.$O();")
    );
    make(k, p, &[], &["static native int nat$K();"], &stmts)
}

fn native_uncalled(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    let member = format!(
        "static void neverCalled$K() {{\n    hook$K();\n    {}\n}}",
        pick(bug, "Lib.work();", "$L.$O();")
    );
    make(
        k,
        p,
        &[],
        &["static native void hook$K();", &member],
        "$L.$O();\n$L.$C();",
    )
}

fn two_objects(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    make(
        k,
        p,
        &[],
        &[],
        pick(
            bug,
            "$L.$O();\nif (Input.readBool()) {\n    $M.$O();\n    $M.$C();\n}\n$L.$C();",
            "$L.$O();\nif (Input.readBool()) {\n    $M.$O();\n    $M.$C();\n    $L.$C();\n}",
        ),
    )
}

fn guard_helper(_: &mut Rng, k: usize, p: &Proto, bug: bool) -> Feature {
    make(
        k,
        p,
        &[],
        &["static boolean enter$K(int n) {\n    if (n < 0) {\n        return false;\n    }\n    $L.$O();\n    return true;\n}"],
        pick(
            bug,
            "if (enter$K(Input.readInt())) {\n    $L.$C();\n}",
            "enter$K(Input.readInt());\n$L.$C();",
        ),
    )
}
