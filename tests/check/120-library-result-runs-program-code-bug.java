// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: `Objects.requireNonNull(job)` is library code: its result has a type the checker
// does not see, yet it is the program's `Job`, and calling `finish()` on it runs
// `Job.finish`, which takes the lock and keeps it. A call on a receiver of unknown type
// runs any method of the program's classes of that name and arity (or library code).
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
public class Main {
    static final ReentrantLock lock = new ReentrantLock();
    static class Job {
        void finish() {
            lock.lock();
        }
    }
    public static void main(String[] args) {
        Job job = new Job();
        Objects.requireNonNull(job).finish();
    }
}
