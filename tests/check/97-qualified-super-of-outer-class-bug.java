// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: `Inner.run()` locks and calls `Outer.super.close()`: `Base.close()` on the
// enclosing `Outer`, which does nothing — not `Outer.close()`, which would unlock. The
// run ends with the lock held.
import java.util.concurrent.locks.ReentrantLock;

class Base {
    final ReentrantLock lock = new ReentrantLock();

    void close() {
    }
}

class Outer extends Base {
    @Override
    void close() {
        lock.unlock();
    }

    class Inner {
        void run() {
            lock.lock();
            Outer.super.close();
        }
    }

    void go() {
        new Inner().run();
    }

    public static void main(String[] args) {
        new Outer().go();
    }
}
