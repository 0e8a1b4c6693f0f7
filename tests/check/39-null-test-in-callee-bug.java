// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: the null test is in a callee: release(m) unlocks the second, fresh lock (never
// null), so the first lock is never unlocked.
class Main {
    static void release(ReentrantLock x) {
        if (x != null) {
            x.unlock();
        }
    }

    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        l.lock();
        ReentrantLock m = new ReentrantLock();
        m.lock();
        release(m);
    }
}
