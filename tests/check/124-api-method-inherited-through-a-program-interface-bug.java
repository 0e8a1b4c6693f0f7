// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: `Guard` is an interface of the program; `GuardLock` extends `ReentrantLock` and
// implements it, inheriting `lock()` and `unlock()` from the library. A call through
// `Guard` on a `GuardLock` is the protocol's `lock()`: the lock is taken and, on the path
// without `release`, never released. Before, a call on a program interface was an event
// only when the interface itself extended the wildcard's class.
import java.util.concurrent.locks.ReentrantLock;
public class Main {
    interface Guard {
        void lock();
        void unlock();
    }
    static class GuardLock extends ReentrantLock implements Guard {
    }
    static class NoGuard implements Guard {
        public void lock() { }
        public void unlock() { }
    }
    static void use(Guard g, boolean release) {
        g.lock();
        if (release) {
            g.unlock();
        }
    }
    public static void main(String[] args) {
        use(new NoGuard(), false);
        use(new GuardLock(), true);
        use(new GuardLock(), args.length > 3);
    }
}
