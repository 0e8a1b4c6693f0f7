// spec: lock.cfg
// expect: verified
// why: the finally block unlocks on the normal path and after the caught exception; a
// catch of the wrong type elsewhere lets the exception end the execution (not a
// completed one).
class Main {
    static void work() {
        if (*) { throw new IllegalStateException(); }
    }
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        l.lock();
        try {
            work();
        } catch (RuntimeException e) {
            System.out.println("x");
        } finally {
            l.unlock();
        }
        l.lock();
        try {
            work();
        } catch (IllegalArgumentException e) {
            return;
        }
        l.unlock();
    }
}
