// spec: lock.cfg
// expect: verified
// why: what library code returns is an object of the library or one the program handed
// to it: `Objects.requireNonNull(job)` returns the `Job`, never the `Leaky`, which no code
// hands to library code (nor does `Leaky` extend a library class, nor is it named by a
// class literal). So `finish()` on the result runs `Job.finish`, which balances its
// calls, and not `Leaky.finish`, which would keep the lock.
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
public class Main {
    static final ReentrantLock lock = new ReentrantLock();
    static class Job {
        void finish() {
            lock.lock();
            lock.unlock();
        }
    }
    static class Leaky {
        int uses;
        void finish() {
            lock.lock();
        }
    }
    public static void main(String[] args) {
        Leaky leaky = new Leaky();
        leaky.uses++;
        Job job = new Job();
        Objects.requireNonNull(job).finish();
    }
}
