// spec: lock.cfg
// expect: violation
// word: $1.lock() $1.lock() $1.unlock()
// why: inside the locked region, next to helpers with arithmetic loops, a second `lock()`
// runs when an input says so; the region's one `unlock()` then leaves the lock held. The
// loops' iteration counts do not matter: a run with the input true is the bug.
import java.util.concurrent.locks.ReentrantLock;

class MathUtil {
    static int mix(int a, int b) {
        int acc = a;
        for (int i = 0; i < b % 4; i++) {
            acc = acc * 2 + i - 3;
        }
        return acc;
    }

    static int sum(int x, int y) {
        int s = 0;
        while (s < y && s < 40) {
            s = s + x % 3 + 1;
        }
        return s;
    }
}

class Ledger {
    final ReentrantLock lock = new ReentrantLock();
    int total = 0;

    int post(int amount) {
        lock.lock();
        int r = MathUtil.mix(amount, 3);
        if (Input.readBool()) {
            lock.lock();
        }
        total = MathUtil.sum(total, r);
        lock.unlock();
        return total;
    }

    int audit(int n) {
        lock.lock();
        try {
            return MathUtil.mix(total, n);
        } finally {
            lock.unlock();
        }
    }
}

class Main {
    public static void main(String[] args) {
        Ledger l = new Ledger();
        while (Input.readBool()) {
            if (Input.readBool()) {
                l.audit(Input.readInt());
            } else {
                l.post(Input.readInt());
            }
        }
    }
}
