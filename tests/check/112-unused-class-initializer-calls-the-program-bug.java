// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: `A` is never used, so the JVM never runs its initialiser (JLS 12.4.1), which
// calls a method of the program that would set `ready`; `ready` stays false and main
// completes with the lock held. Initialising `A` before main would hide the bug.
import java.util.concurrent.locks.ReentrantLock;
class Main {
    static boolean ready;
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        l.lock();
        if (ready) l.unlock();
    }
}
class A {
    static int x = new B().run();
}
class B {
    int run() {
        Main.ready = true;
        return 1;
    }
}
