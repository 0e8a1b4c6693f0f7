// spec: lock.cfg
// expect: verified
// why: a local class capturing the lock and a method reference to a program method both
// run when called, and each releases what was taken.
class Main {
    static ReentrantLock L = new ReentrantLock();
    static void rel() { L.unlock(); }
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        class Releaser { void release() { l.unlock(); } }
        l.lock();
        new Releaser().release();
        L.lock();
        Runnable r = Main::rel;
        r.run();
    }
}
