// spec: lock.cfg
// expect: verified
// why: reduced from a message broker's pool class: the lock is a field, and between
// lock() and unlock() an int is computed as a product with a call's result. The product
// is non-linear (an uninterpreted function), which must not keep the lock's facts from
// being learned (issue 12: unknown, repeated counterexample).
class Pool {
    ReentrantLock lock = new ReentrantLock();
    int size = 0;

    int four() {
        return 4;
    }

    void grow(int k) {
        lock.lock();
        int x = four() * k;
        size = size + x;
        lock.unlock();
    }
}

class Main {
    public static void main(String[] args) {
        Pool p = new Pool();
        p.grow(Input.readInt());
        p.grow(3);
    }
}
