// spec: lock.cfg
// expect: violation
// word: $1.lock()
// exit: 25
// why: the lock is a static field of a nested class, reached as `Locks.Holder.LOCK`, and
// released through `Locks.Holder.release()`; `new Integer(…)` boxes the input. When it
// is above 3, main returns at line 25 with the lock held.
import java.util.concurrent.locks.ReentrantLock;

class Locks {
    static class Holder {
        static final ReentrantLock LOCK = new ReentrantLock();

        static void release() {
            LOCK.unlock();
        }
    }
}

class Main {
    public static void main(String[] args) {
        Integer n = new Integer(Input.readInt());
        Locks.Holder.LOCK.lock();
        if (n > 3) {
            return;
        }
        Locks.Holder.release();
    }
}
