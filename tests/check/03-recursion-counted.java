// spec: lock.cfg
// expect: verified
// why: rec(l, n) emits lock rec(l, n-1) unlock when n > 0 and nothing otherwise, so the
// word on the single lock is lock^k unlock^k with k = max(n, 0) for the arbitrary n.
class Main {
    static void rec(ReentrantLock l, int n) {
        if (n > 0) {
            l.lock();
            rec(l, n - 1);
            l.unlock();
        }
    }

    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        int n = Input.readInt();
        rec(l, n);
    }
}
