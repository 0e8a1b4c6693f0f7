// spec: lock.cfg
// expect: verified
// why: the finally block runs on every exit of the try block, including both early
// returns, so each call of work() emits lock unlock on the lock.
class Main {
    static int work(ReentrantLock l, int x) {
        l.lock();
        try {
            if (x > 0) {
                return 1;
            }
            if (x < 0) {
                return -1;
            }
            return 0;
        } finally {
            l.unlock();
        }
    }

    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        int r = work(l, Input.readInt());
        work(l, r);
    }
}
