// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: `new S(0)`: an int is not a `Bucket[]`, so javac picks the variable-arity
// constructor (JLS 15.12.2, phase 3), which makes a lock; main locks it and completes
// without unlocking.
class Bucket { }
class S {
    ReentrantLock l;
    S(Bucket[] b) { l = null; l.lock(); }
    S(int... v) { l = new ReentrantLock(); }
}
class Main {
    public static void main(String[] args) {
        S s = new S(0);
        s.l.lock();
    }
}
