// spec: lock.cfg
// expect: violation
// word: $1.lock()
// exit: 16
// why: each iteration locks and unlocks, but an iteration that finds what it looks for
// returns in between: the lock stays held.
import java.util.concurrent.locks.ReentrantLock;

class Finder {
    final ReentrantLock lock = new ReentrantLock();

    int find(int n, int wanted) {
        for (int i = 0; i < n; i++) {
            lock.lock();
            if (i * 3 == wanted) {
                return i;
            }
            lock.unlock();
        }
        return -1;
    }
}

class Main {
    public static void main(String[] args) {
        Finder f = new Finder();
        f.find(Input.readInt(), Input.readInt());
    }
}
