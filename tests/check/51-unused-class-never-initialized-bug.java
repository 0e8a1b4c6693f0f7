// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: the JVM initialises a class on its first active use (JLS 12.4.1): `Unused` is
// never used, so its initialiser, which dereferences null, never runs, and main
// completes with the lock held.
class Unused {
    static String s = ((Object) null).toString();
}
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        l.lock();
    }
}
