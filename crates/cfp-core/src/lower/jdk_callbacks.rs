//! What library code of the JDK calls on the objects it receives: the methods of the
//! well-known JDK types a program class may override (those, and `Object`'s, are all a
//! JDK method can call on an object it holds as such a type), and the JDK methods that
//! call a function they receive only while they run ([`super::callbacks`] uses both).

/// Methods of the JDK that call a function they receive only while they run (iteration,
/// in-place updates of collections, `Optional`): a closure handed to one is not kept by
/// the library, so it is not called back after the entry returns.
pub(super) const CALLS_ONLY_DURING: &[&str] = &[
    "forEach",
    "forEachRemaining",
    "removeIf",
    "replaceAll",
    "computeIfAbsent",
    "computeIfPresent",
    "compute",
    "merge",
    "sort",
    "ifPresent",
    "ifPresentOrElse",
    "orElseGet",
    "orElseThrow",
];

/// `InputStream`'s methods a subclass may override.
const INPUT_STREAM: &[&str] = &[
    "read",
    "skip",
    "available",
    "close",
    "mark",
    "reset",
    "markSupported",
];

/// `Throwable`'s methods a subclass may override.
const THROWABLE: &[&str] = &[
    "getMessage",
    "getLocalizedMessage",
    "getCause",
    "fillInStackTrace",
    "printStackTrace",
];

/// Well-known JDK supertypes and the methods of theirs that a program class may
/// override: library code that holds an object of such a type calls only those (and
/// `Object`'s). A supertype outside the program that is not listed may have any method.
pub(super) const JDK_CALLBACKS: &[(&str, &[&str])] = &[
    ("Object", &[]),
    ("Enum", &[]),
    ("Record", &[]),
    ("Serializable", &[]),
    ("Cloneable", &[]),
    ("Runnable", &["run"]),
    ("Thread", &["run"]),
    ("TimerTask", &["run", "cancel"]),
    ("Callable", &["call"]),
    ("Comparator", &["compare"]),
    ("Comparable", &["compareTo"]),
    ("AutoCloseable", &["close"]),
    ("Closeable", &["close"]),
    ("Iterable", &["iterator", "forEach", "spliterator"]),
    (
        "Iterator",
        &["hasNext", "next", "remove", "forEachRemaining"],
    ),
    ("Consumer", &["accept", "andThen"]),
    ("BiConsumer", &["accept", "andThen"]),
    ("Supplier", &["get"]),
    ("Function", &["apply", "andThen", "compose"]),
    ("BiFunction", &["apply", "andThen"]),
    ("UnaryOperator", &["apply", "andThen", "compose"]),
    ("Predicate", &["test", "and", "or", "negate"]),
    // The protocols' own classes: their methods call no method of the object back (what
    // library code does with a protocol object it receives is a hand-off).
    ("Lock", &[]),
    ("ReentrantLock", &[]),
    ("ReadWriteLock", &[]),
    ("ReentrantReadWriteLock", &[]),
    ("OutputStream", &["write", "flush", "close"]),
    ("FilterOutputStream", &["write", "flush", "close"]),
    ("InputStream", INPUT_STREAM),
    ("FilterInputStream", INPUT_STREAM),
    ("Writer", &["write", "append", "flush", "close"]),
    (
        "Reader",
        &[
            "read",
            "skip",
            "ready",
            "close",
            "mark",
            "reset",
            "markSupported",
        ],
    ),
    ("Exception", THROWABLE),
    ("RuntimeException", THROWABLE),
    ("IOException", THROWABLE),
    ("IllegalStateException", THROWABLE),
    ("IllegalArgumentException", THROWABLE),
];

/// The methods of the well-known JDK type `name` a program class may override.
pub(super) fn jdk_callbacks(name: &str) -> Option<&'static [&'static str]> {
    JDK_CALLBACKS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, ms)| *ms)
}

/// `toString()`, `hashCode()` or `equals(o)`: `Object`'s methods a class may override.
pub(super) fn is_object_method(name: &str, arity: usize) -> bool {
    matches!((name, arity), ("toString" | "hashCode", 0) | ("equals", 1))
}
