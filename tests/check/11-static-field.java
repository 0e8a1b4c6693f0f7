// spec: lock.cfg
// expect: verified
// why: the static initialiser stores one fresh lock in LOCK, never reassigned; enter()
// and exit() lock and unlock it, and main calls them in pairs (optionally twice, nested).
class Main {
    static ReentrantLock LOCK = new ReentrantLock();

    static void enter() {
        LOCK.lock();
    }

    static void exit() {
        LOCK.unlock();
    }

    public static void main(String[] args) {
        enter();
        if (*) {
            enter();
            exit();
        }
        exit();
    }
}
