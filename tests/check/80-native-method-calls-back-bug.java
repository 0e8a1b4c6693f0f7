// spec: lock.cfg
// expect: violation
// word: $1.lock()
// jvm: `later` is a native method with no library to link
// why: `later` is `native`: its code is outside the program and may call the closure it
// receives, whose lock is never released.
import java.util.concurrent.locks.ReentrantLock;

class Main {
    static final ReentrantLock LOCK = new ReentrantLock();

    static native void later(Runnable r);

    public static void main(String[] args) {
        later(() -> LOCK.lock());
    }
}
