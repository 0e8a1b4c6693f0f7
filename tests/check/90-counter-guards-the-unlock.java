// spec: lock.cfg
// expect: verified
// why: close() unlocks only while the counter says the lock is held, so the second close()
// does nothing: lock unlock. (The predicates learned in close() tried in open() and main
// make the next path irremovable; they are taken back, and the run goes on without them.)
class ReentrantLock {
    void lock() {}
    void unlock() {}
}

class Guard {
    ReentrantLock l = new ReentrantLock();
    int held = 0;

    void open() {
        l.lock();
        held++;
    }

    void close() {
        if (held > 0) {
            held--;
            l.unlock();
        }
    }

    public static void main(String[] args) {
        Guard g = new Guard();
        g.open();
        g.close();
        g.close();
    }
}
