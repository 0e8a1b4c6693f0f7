// spec: lock.cfg
// expect: verified
// why: a `yield` inside `try … finally` leaves the switch expression through the
// finally block, which unlocks. Were the finally block skipped, input 0 would leave the
// lock held.
import java.util.concurrent.locks.ReentrantLock;

class Main {
    static ReentrantLock lock = new ReentrantLock();

    static int weigh(int n) {
        return switch (n) {
            case 0 -> {
                lock.lock();
                try {
                    yield 1;
                } finally {
                    lock.unlock();
                }
            }
            default -> 2;
        };
    }

    public static void main(String[] args) {
        int w = weigh(Input.readInt());
        if (w > 1) {
            lock.lock();
            lock.unlock();
        }
    }
}
