// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: the first lock is locked, then `l` is overwritten with a second, fresh lock; the
// null test is always true after `new`, so the second lock is unlocked and the first one
// never is. Refuting the path that takes `l == null` needs `l != null` right after `new`
// in main itself (issue 12: no progress when that fact was only learned in <root>).
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        l.lock();
        l = new ReentrantLock();
        if (l != null) {
            l.unlock();
        }
    }
}
