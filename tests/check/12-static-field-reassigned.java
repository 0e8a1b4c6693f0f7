// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: LOCK is replaced by a fresh lock between enter() and exit(): the first object
// sees only `lock`, the second only `unlock`. Both are violating words of length 1 (the
// checker may report `$1.unlock()` instead).
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
        LOCK = new ReentrantLock();
        exit();
    }
}
