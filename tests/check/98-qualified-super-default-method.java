// spec: lock.cfg
// expect: verified
// why: `Res.done()` calls `Closer.super.close(l)`: the interface's default method, which
// unlocks — not `Res.close(l)`, which would forget to. Every run locks once and unlocks
// once.
import java.util.concurrent.locks.ReentrantLock;

interface Closer {
    default void close(ReentrantLock l) {
        l.unlock();
    }
}

class Res implements Closer {
    @Override
    public void close(ReentrantLock l) {
    }

    void done(ReentrantLock l) {
        Closer.super.close(l);
    }

    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        l.lock();
        new Res().done(l);
    }
}
