// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: `Leaky` is created only inside `Factory.make`, which only a virtual call on a
// `Factory` reaches; the set of instantiated classes grows with the code that runs, so
// the call `t.run(l)` may run `Leaky.run`, which keeps the lock.
import java.util.concurrent.locks.ReentrantLock;
interface Task {
    void run(ReentrantLock l);
}
interface Source {
    Task make();
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
class Factory implements Source {
    public Task make() {
        return new Leaky();
    }
}
class Plain implements Source {
    public Task make() {
        return new Balanced();
    }
}
class Main {
    public static void main(String[] a) {
        ReentrantLock l = new ReentrantLock();
        Source s = a.length > 0 ? new Plain() : new Factory();
        s.make().run(l);
    }
}
