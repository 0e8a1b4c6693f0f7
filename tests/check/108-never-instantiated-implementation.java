// spec: lock.cfg
// expect: verified
// why: `Leaky` implements `Task` and keeps the lock, but no code ever creates a `Leaky`:
// the virtual call `t.run(l)` can only run `Balanced.run` (and `Worker` creates only
// balanced tasks), so every execution releases the lock. The check knows which classes
// are instantiated (rapid type analysis) and does not follow calls into the others.
import java.util.concurrent.locks.ReentrantLock;
interface Task {
    void run(ReentrantLock l);
}
class Balanced implements Task {
    public void run(ReentrantLock l) {
        l.lock();
        l.unlock();
    }
}
class Leaky implements Task {
    public void run(ReentrantLock l) {
        l.lock();
    }
}
class Worker {
    Task next(int n) {
        return new Balanced();
    }
}
class Main {
    static void go(Task t, ReentrantLock l) {
        t.run(l);
        if (t instanceof Leaky) {
            l.lock();
        }
    }
    public static void main(String[] a) {
        ReentrantLock l = new ReentrantLock();
        Worker w = new Worker();
        for (int i = 0; i < a.length; i++) {
            go(w.next(i), l);
        }
        go(new Balanced(), l);
    }
}
