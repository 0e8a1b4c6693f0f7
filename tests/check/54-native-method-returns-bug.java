// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: a native method has no body in the program but returns like any library call
// (with some value); the initialiser that calls it completes, and so does main, with
// the lock held.
class Main {
    static native int nativeInit();
    static int w = nativeInit();
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        l.lock();
    }
}
