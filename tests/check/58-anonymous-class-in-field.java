// spec: lock.cfg
// expect: verified
// why: the anonymous subclass stored in a static field captures the lock; calling it
// after lock() dispatches to its body, which unlocks.
abstract class Task { abstract void run(); }
class Main {
    static Task t;
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        t = new Task() { void run() { l.unlock(); } };
        l.lock();
        t.run();
    }
}
