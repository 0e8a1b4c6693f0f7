// spec: lock-paper.cfg
// expect: violation
// word: $1.lock() $1.lock() $1.unlock()
// why: like Fig. 2, but each level acquires twice and releases once. Depth 0 gives the
// empty word; one level gives lock lock unlock (one lock left open) on the only Lock
// object; every deeper level adds more open locks. Shortest violating word: length 3.
class Main {
    void foo(Lock l) {
        if (*) {
            acquire(l);
            acquire(l);
            foo(l);
            release(l);
        }
    }

    void acquire(Lock l1) {
        l1.lock();
    }

    void release(Lock l2) {
        l2.unlock();
    }

    public static void main(String[] args) {
        new Main().foo(new Lock());
    }
}
