// spec: lock.cfg
// expect: violation
// word: $1.lock() $1.unlock() $1.unlock()
// why: each level with n > 0 emits lock <inner> unlock unlock. n <= 0 gives the empty
// word (fine); n = 1 gives lock unlock unlock, an unlock with no open lock. Every n >= 1
// violates; n = 1 is the shortest (length 3).
class Main {
    static void rec(ReentrantLock l, int n) {
        if (n > 0) {
            l.lock();
            rec(l, n - 1);
            l.unlock();
            l.unlock();
        }
    }

    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        rec(l, Input.readInt());
    }
}
