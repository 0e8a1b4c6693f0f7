// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: `firstOr` binds `T` through `List<T>` as well as through `d`, so its result is the
// list's `LockFrame`, not a `PlainFrame`: its `release()` takes the lock and keeps it. A
// value of a type variable's type may be an object of any class of the program.
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
class Frame { void release() { } }
class PlainFrame extends Frame { }
class LockFrame extends Frame {
    ReentrantLock l;
    LockFrame(ReentrantLock l) { this.l = l; }
    @Override void release() { l.lock(); }
}
class Main {
    static <T> T firstOr(List<T> xs, T d) { return xs.isEmpty() ? d : xs.get(0); }
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        List<Frame> frames = new ArrayList<>();
        frames.add(new LockFrame(l));
        firstOr(frames, new PlainFrame()).release();
    }
}
