// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: only `Object`'s `getClass()`, `notify()`, `notifyAll()` and `wait()` without
// arguments are sure to run no code of the program. A class may overload `wait` with
// parameters of other types (`wait(String)`, an interface's default `wait(int)`), and a
// call with arguments may be one of those: here both take the lock and keep it.
import java.util.concurrent.locks.ReentrantLock;
public class Main {
    static final ReentrantLock lock = new ReentrantLock();
    interface Waiter {
        default void wait(int rounds) {
            if (rounds > 0) {
                lock.lock();
            }
        }
    }
    static class Holder implements Waiter {
        void wait(String why) {
            lock.lock();
        }
    }
    public static void main(String[] args) {
        Holder h = new Holder();
        if (Input.readInt() > 0) {
            h.wait("reason");
        } else {
            Waiter w = h;
            w.wait(1);
        }
    }
}
