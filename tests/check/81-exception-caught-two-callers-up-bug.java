// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: `Integer.parseInt` throws a NumberFormatException that neither `step` nor `middle`
// catches but `main` does, two calls up: the lock taken in `step` is never released.
import java.util.concurrent.locks.ReentrantLock;

class Main {
    static final ReentrantLock LOCK = new ReentrantLock();

    static void step(String s) {
        LOCK.lock();
        Integer.parseInt(s);
        LOCK.unlock();
    }

    static void middle(String s) {
        step(s);
    }

    public static void main(String[] args) {
        try {
            middle(args.length > 0 ? args[0] : "x");
        } catch (NumberFormatException e) {
            System.out.println("not a number");
        }
    }
}
