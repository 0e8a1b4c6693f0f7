// spec: lock.cfg
// expect: unknown solver
// why: `-1 >>> 28` is 15 for an `int` but 2^36 - 1 for a `long`; the encoding leaves `>>>`
// uninterpreted and the program model has one integer type, so running the path with the
// solver's values cannot tell which Java would compute. The early return never happens in
// Java; the answer must not be a violation.
import java.util.concurrent.locks.ReentrantLock;
public class Main {
    static ReentrantLock l = new ReentrantLock();
    public static void main(String[] args) {
        int x = -1;
        l.lock();
        if ((x >>> 28) >= 16) {
            return;
        }
        l.unlock();
    }
}
