// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: the early return depends on a bit of a computed mask, which the encoding leaves
// uninterpreted (`<<`, `|`, `&`); the solver's model is confirmed by running the program
// with its values, which follows the path: the violation is certain, not `unknown`.
import java.util.concurrent.locks.ReentrantLock;
public class Main {
    static ReentrantLock l = new ReentrantLock();
    static int mask(int n) {
        return (n << 2) | 1;
    }
    public static void main(String[] args) {
        int flags = mask(args.length + 1);
        l.lock();
        if ((flags & 4) != 0) {
            return;
        }
        l.unlock();
    }
}
