// spec: lock.cfg
// expect: verified
// why: the compact constructor clamps the weight into 0..3 before the field is set, so
// `heavy()` is never true and every lock is released. Without the clamp (the parameter
// assigned after the field, or the field read before it is set) main could return
// with the lock held.
import java.util.concurrent.locks.ReentrantLock;

record Task(ReentrantLock lock, int weight) {
    Task {
        if (weight < 0 || weight > 3) {
            weight = 0;
        }
    }

    boolean heavy() {
        return weight > 3;
    }
}

class Main {
    public static void main(String[] args) {
        Task t = new Task(new ReentrantLock(), Input.readInt());
        t.lock().lock();
        if (t.heavy()) {
            return;
        }
        t.lock().unlock();
    }
}
