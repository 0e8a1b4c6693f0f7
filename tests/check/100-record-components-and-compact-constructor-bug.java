// spec: lock.cfg
// expect: violation
// word: $1.lock()
// exit: 31
// why: a record's accessor returns the lock it was built with, and its compact
// constructor clamps a negative weight to 0 before the field is set. A weight above 3
// makes `heavy()` true, and main returns at line 31 with the lock held.
import java.util.concurrent.locks.ReentrantLock;

record Task(ReentrantLock lock, int weight) {
    Task {
        if (weight < 0) {
            weight = 0;
        }
    }

    boolean heavy() {
        return weight > 3;
    }

    static Task of(int weight) {
        return new Task(new ReentrantLock(), weight);
    }
}

class Main {
    public static void main(String[] args) {
        Task t = Task.of(Input.readInt());
        t.lock().lock();
        if (t.heavy()) {
            return;
        }
        t.lock().unlock();
    }
}
