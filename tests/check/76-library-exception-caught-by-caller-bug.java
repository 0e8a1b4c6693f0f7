// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: `Integer.parseInt` throws a NumberFormatException that `step` does not catch but
// its caller does: the lock taken in `step` is then never released.
import java.util.concurrent.locks.ReentrantLock;

class Main {
    static final ReentrantLock LOCK = new ReentrantLock();

    static int step(String s) {
        LOCK.lock();
        int n = Integer.parseInt(s);
        LOCK.unlock();
        return n;
    }

    public static void main(String[] args) {
        try {
            step(args.length > 0 ? args[0] : "x");
        } catch (NumberFormatException e) {
            System.out.println("not a number");
        }
    }
}
