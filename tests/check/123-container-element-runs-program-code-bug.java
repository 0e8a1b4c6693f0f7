// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: `jobs.get(0)` on a `List<Job>` is a `Job` (javac casts the result to it), so
// `finish()` on it runs `Job.finish`, which takes the lock and keeps it; so does
// `it.next().finish()` on an `Iterator<Job>`. Before, the result of a library call had no
// type and a call on it ran none of the program's methods: this program was verified.
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
public class Main {
    static final ReentrantLock lock = new ReentrantLock();
    static class Job {
        void finish() {
            lock.lock();
        }
    }
    public static void main(String[] args) {
        List<Job> jobs = new ArrayList<>();
        jobs.add(new Job());
        if (args.length > 0) {
            Iterator<Job> it = jobs.iterator();
            it.next().finish();
        } else {
            jobs.get(0).finish();
        }
    }
}
