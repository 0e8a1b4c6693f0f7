//! The part of the JDK's (and Android's, and Jackson's) class hierarchy that decides how
//! exceptions are caught: each well-known throwable class with its superclass, by simple
//! name. A catch clause or an `instanceof` that names one of these is decided exactly
//! for an exception of a known class; a class outside this table and outside the
//! program has an unknown place in the hierarchy (its tests are arbitrary, and a verdict
//! that depends on one is not `violation`).

/// Well-known JDK classes and interfaces other than throwables, with all their JDK
/// supertypes (but `Object`): a class of the program that extends one is also one of
/// those.
pub const SUPERTYPES: &[(&str, &[&str])] = &[
    ("Thread", &["Runnable"]),
    ("TimerTask", &["Runnable"]),
    ("Closeable", &["AutoCloseable"]),
    ("OutputStream", &["Closeable", "AutoCloseable", "Flushable"]),
    (
        "FilterOutputStream",
        &["OutputStream", "Closeable", "AutoCloseable", "Flushable"],
    ),
    ("InputStream", &["Closeable", "AutoCloseable"]),
    (
        "FilterInputStream",
        &["InputStream", "Closeable", "AutoCloseable"],
    ),
    (
        "Writer",
        &["Appendable", "Closeable", "AutoCloseable", "Flushable"],
    ),
    ("Reader", &["Readable", "Closeable", "AutoCloseable"]),
    ("UnaryOperator", &["Function"]),
    ("BinaryOperator", &["BiFunction"]),
];

/// The JDK supertypes of the well-known class or interface `name` ([`SUPERTYPES`]; for a
/// throwable, its superclasses up to `Throwable`).
pub fn supertypes(name: &str) -> Vec<&'static str> {
    if let Some((_, s)) = SUPERTYPES.iter().find(|(n, _)| *n == name) {
        return s.to_vec();
    }
    ancestors(name)
        .map(|chain| {
            chain
                .into_iter()
                .skip(1)
                .filter(|n| *n != "Object")
                .collect()
        })
        .unwrap_or_default()
}

/// `(class, superclass)` for the well-known throwables outside the program.
pub const THROWABLES: &[(&str, &str)] = &[
    ("Throwable", "Object"),
    ("Exception", "Throwable"),
    ("Error", "Throwable"),
    ("RuntimeException", "Exception"),
    // Unchecked exceptions.
    ("NullPointerException", "RuntimeException"),
    ("IllegalArgumentException", "RuntimeException"),
    ("IllegalStateException", "RuntimeException"),
    ("ArithmeticException", "RuntimeException"),
    ("ClassCastException", "RuntimeException"),
    ("IndexOutOfBoundsException", "RuntimeException"),
    (
        "ArrayIndexOutOfBoundsException",
        "IndexOutOfBoundsException",
    ),
    (
        "StringIndexOutOfBoundsException",
        "IndexOutOfBoundsException",
    ),
    ("NegativeArraySizeException", "RuntimeException"),
    ("ArrayStoreException", "RuntimeException"),
    ("UnsupportedOperationException", "RuntimeException"),
    ("ConcurrentModificationException", "RuntimeException"),
    ("NoSuchElementException", "RuntimeException"),
    ("InputMismatchException", "NoSuchElementException"),
    ("NumberFormatException", "IllegalArgumentException"),
    ("IllegalThreadStateException", "IllegalArgumentException"),
    ("PatternSyntaxException", "IllegalArgumentException"),
    ("UnsupportedCharsetException", "IllegalArgumentException"),
    ("IllegalCharsetNameException", "IllegalArgumentException"),
    ("IllegalMonitorStateException", "RuntimeException"),
    ("SecurityException", "RuntimeException"),
    ("UncheckedIOException", "RuntimeException"),
    ("DateTimeException", "RuntimeException"),
    ("DateTimeParseException", "DateTimeException"),
    ("EmptyStackException", "RuntimeException"),
    ("MissingResourceException", "RuntimeException"),
    ("RejectedExecutionException", "RuntimeException"),
    ("CompletionException", "RuntimeException"),
    ("CancellationException", "IllegalStateException"),
    ("BufferOverflowException", "RuntimeException"),
    ("BufferUnderflowException", "RuntimeException"),
    ("NotFoundException", "RuntimeException"),
    ("ActivityNotFoundException", "RuntimeException"),
    ("WindowManager.BadTokenException", "RuntimeException"),
    ("BadTokenException", "RuntimeException"),
    ("SQLiteException", "RuntimeException"),
    ("AndroidRuntimeException", "RuntimeException"),
    ("ParcelFormatException", "RuntimeException"),
    // Checked exceptions.
    ("IOException", "Exception"),
    ("FileNotFoundException", "IOException"),
    ("EOFException", "IOException"),
    ("UnsupportedEncodingException", "IOException"),
    ("MalformedURLException", "IOException"),
    ("UnknownHostException", "IOException"),
    ("SocketException", "IOException"),
    ("ConnectException", "SocketException"),
    ("InterruptedIOException", "IOException"),
    ("SocketTimeoutException", "InterruptedIOException"),
    ("ProtocolException", "IOException"),
    ("ZipException", "IOException"),
    ("CharacterCodingException", "IOException"),
    ("JsonProcessingException", "IOException"),
    ("JsonGenerationException", "JsonProcessingException"),
    ("JsonParseException", "JsonProcessingException"),
    ("JsonMappingException", "JsonProcessingException"),
    ("InterruptedException", "Exception"),
    ("TimeoutException", "Exception"),
    ("ExecutionException", "Exception"),
    ("BrokenBarrierException", "Exception"),
    ("CloneNotSupportedException", "Exception"),
    ("ReflectiveOperationException", "Exception"),
    ("ClassNotFoundException", "ReflectiveOperationException"),
    ("NoSuchMethodException", "ReflectiveOperationException"),
    ("NoSuchFieldException", "ReflectiveOperationException"),
    ("InstantiationException", "ReflectiveOperationException"),
    ("IllegalAccessException", "ReflectiveOperationException"),
    ("InvocationTargetException", "ReflectiveOperationException"),
    ("URISyntaxException", "Exception"),
    ("ParseException", "Exception"),
    ("GeneralSecurityException", "Exception"),
    ("NoSuchAlgorithmException", "GeneralSecurityException"),
    ("InvalidKeyException", "GeneralSecurityException"),
    ("SQLException", "Exception"),
    ("RemoteException", "AndroidException"),
    ("AndroidException", "Exception"),
    // Errors.
    ("AssertionError", "Error"),
    ("LinkageError", "Error"),
    ("ExceptionInInitializerError", "LinkageError"),
    ("NoClassDefFoundError", "LinkageError"),
    ("UnsatisfiedLinkError", "LinkageError"),
    ("VirtualMachineError", "Error"),
    ("OutOfMemoryError", "VirtualMachineError"),
    ("StackOverflowError", "VirtualMachineError"),
    ("InternalError", "VirtualMachineError"),
];

/// The superclass of a well-known throwable (`Object` for `Throwable`).
pub fn superclass(name: &str) -> Option<&'static str> {
    THROWABLES.iter().find(|(c, _)| *c == name).map(|(_, s)| *s)
}

/// True for a class of [`THROWABLES`].
pub fn is_known(name: &str) -> bool {
    superclass(name).is_some()
}

/// The chain of superclasses of a well-known class, itself first, up to `Object`
/// (`None` when `name` is not in the table).
pub fn ancestors(name: &str) -> Option<Vec<&'static str>> {
    let (first, _) = THROWABLES.iter().find(|(c, _)| *c == name)?;
    let mut out = vec![*first];
    let mut cur = *first;
    while let Some(s) = superclass(cur) {
        out.push(s);
        if s == "Object" {
            break;
        }
        cur = s;
    }
    Some(out)
}

/// The unchecked exceptions the JVM itself throws at a null dereference, a division by
/// zero, a bad array index or a failed cast: a catch clause that may catch one of them
/// makes those operations throw where they could be caught.
pub const IMPLICIT: &[&str] = &[
    "NullPointerException",
    "ArithmeticException",
    "ArrayIndexOutOfBoundsException",
    "ClassCastException",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_superclass_is_in_the_table_or_object() {
        for (c, s) in THROWABLES {
            assert!(*s == "Object" || is_known(s), "{c}: {s}");
            let chain = ancestors(c).unwrap_or_default();
            assert_eq!(chain.last(), Some(&"Object"), "{c}");
            assert!(chain.contains(&"Throwable"), "{c}");
        }
        assert_eq!(
            ancestors("FileNotFoundException").unwrap_or_default(),
            [
                "FileNotFoundException",
                "IOException",
                "Exception",
                "Throwable",
                "Object"
            ]
        );
        assert!(ancestors("MyException").is_none());
    }
}
