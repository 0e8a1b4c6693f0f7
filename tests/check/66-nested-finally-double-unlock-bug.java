// spec: lock.cfg
// expect: violation
// word: $1.lock() $1.unlock() $1.unlock()
// why: the inner finally unlocks before the exception reaches the outer catch, which
// unlocks again.
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        l.lock();
        try {
            try {
                if (*) throw new IllegalStateException("x");
            } finally {
                l.unlock();
            }
        } catch (IllegalStateException e) {
            l.unlock();
        }
    }
}
