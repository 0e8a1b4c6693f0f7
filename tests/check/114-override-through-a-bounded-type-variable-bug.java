// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: `LockSink.put(T)` overrides `Sink.put(T)` although `T` erases to `Frame` in one and
// to `Object` in the other (javac adds a bridge method): the call runs `LockSink.put`,
// which takes the lock and keeps it.
import java.util.concurrent.locks.ReentrantLock;
class Frame { }
class Sink<T> { void put(T t) { } }
class LockSink<T extends Frame> extends Sink<T> {
    ReentrantLock l;
    LockSink(ReentrantLock l) { this.l = l; }
    @Override void put(T t) { l.lock(); }
}
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        Sink<Frame> s = new LockSink<>(l);
        s.put(new Frame());
    }
}
