// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: the value of a switch expression is a Noop or a Take: its type is their common
// interface `Step`, so `s.run()` may run either. For any input but 0 it is a Take,
// which locks, and the program ends with the lock held.
import java.util.concurrent.locks.ReentrantLock;

interface Step {
    void run();
}

class Noop implements Step {
    public void run() {
    }
}

class Take implements Step {
    final ReentrantLock l;

    Take(ReentrantLock l) {
        this.l = l;
    }

    public void run() {
        l.lock();
    }
}

class Main {
    public static void main(String[] args) {
        ReentrantLock lock = new ReentrantLock();
        int n = Input.readInt();
        var s = switch (n) { case 0 -> new Noop(); default -> new Take(lock); };
        s.run();
    }
}
