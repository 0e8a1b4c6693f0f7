// spec: lock.cfg
// expect: unknown vacuous
// runs: none
// why: `open` always throws an exception that the catch clause (of another type) does
// not catch, so no execution of main completes: every completed execution follows the
// protocol only because there is none. The answer names the throw.
class Main {
    static void open(ReentrantLock l) {
        l.lock();
        throw new IllegalStateException("closed");
    }
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        try {
            open(l);
        } catch (IllegalArgumentException e) {
            l.unlock();
        }
    }
}
