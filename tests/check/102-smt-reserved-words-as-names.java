// spec: lock.cfg
// expect: verified
// why: variables and fields may be called `as`, `match`, `par` or `let` in Java, which
// are reserved words of the solver's language (the predicate over `as` that proves this
// program made z3 reject the query). After the loop `match` is 1 or 3, never above 4,
// so the lock is always released.
import java.util.concurrent.locks.ReentrantLock;

class Main {
    static int match = 1;
    int par = 2;

    public static void main(String[] args) {
        ReentrantLock let = new ReentrantLock();
        int as;
        int n = Input.readInt();
        Main m = new Main();
        let.lock();
        while (n > 0) {
            as = n;
            match = as + m.par;
            n--;
        }
        if (match > 4) {
            return;
        }
        let.unlock();
    }
}
