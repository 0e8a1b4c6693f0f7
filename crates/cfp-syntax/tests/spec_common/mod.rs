//! Protocols shared by the spec-language integration tests (shapes of the paper's Table 1).
#![allow(dead_code)]

/// Reentrant lock: each `lock()` is matched by a later `unlock()`.
pub const LOCK: &str = "\
// Reentrant lock: each lock() on an object is matched by a later unlock() on it.
wildcard $1 : ReentrantLock;
S -> $1.lock() S $1.unlock() S
   | ε;
";

/// Canvas: in every prefix, #restore() ≤ #save() (pending saves are allowed).
/// `B` is the balanced (Dyck) words; `S` is a sequence of balanced blocks and unmatched
/// saves: a nonempty valid word starts with `save()`, which is either matched
/// (`save() B restore()` then a valid rest) or never matched (then the rest is valid
/// relative to the raised height).
pub const CANVAS: &str = "\
wildcard $1 : Canvas;
S -> ε
   | $1.save() S                      # a save that is never restored
   | $1.save() B $1.restore() S;      # a matched save/restore block
B -> ε | $1.save() B $1.restore() B;  # balanced
";

/// Jackson's JsonGenerator: one well-formed JSON value.
pub const JSON: &str = "\
wildcard $1 : JsonGenerator;
S -> $1.writeStartObject() M $1.writeEndObject()
   | $1.writeStartArray() E $1.writeEndArray()
   | $1.writeString(_) | $1.writeNumber(_) | $1.writeBoolean(_) | $1.writeNull();
M -> $1.writeFieldName(_) S M | ε;   // members
E -> S E | eps;                      // elements
";

/// Android WakeLock, two modes. Reference-counted (the default): every `release()` matches
/// an earlier `acquire()` (pending acquires allowed). After `setReferenceCounted(_)` (the
/// boolean cannot be told apart in a terminal; the spec treats the call as switching the
/// count off): the lock is simply held or not, and `release()` is allowed only while held.
pub const WAKELOCK: &str = "\
wildcard $1 : WakeLock;
S -> C | $1.setReferenceCounted(_) U;
// reference-counted
C -> ε | $1.acquire() C | $1.acquire() B $1.release() C;
B -> ε | $1.acquire() B $1.release() B;
// not reference-counted: U = not held, H = held
U -> ε | $1.acquire() H;
H -> ε | $1.acquire() H | $1.release() U;
";

/// Android SQLiteDatabase nested transactions: each `beginTransaction()` is closed by
/// `endTransaction()`, optionally just after one `setTransactionSuccessful()`.
pub const SQLITE: &str = "\
wildcard $1 : SQLiteDatabase;
S -> T S | $1.execSQL(_) S | ε;
T -> $1.beginTransaction() B $1.endTransaction()
   | $1.beginTransaction() B $1.setTransactionSuccessful() $1.endTransaction();
B -> T B | $1.execSQL(_) B | ε;
";

/// A map with a key wildcard: every `put` of a key is later followed by its `remove`.
pub const MAP: &str = "\
wildcard $1 : Map; wildcard $2 : Key;
S -> $1.put($2, _) S $1.remove($2) S | $1.get(_) S | ε;
";

/// All of the above, with names.
pub const ALL: [(&str, &str); 6] = [
    ("lock", LOCK),
    ("canvas", CANVAS),
    ("json", JSON),
    ("wakelock", WAKELOCK),
    ("sqlite", SQLITE),
    ("map", MAP),
];
