// spec: lock-once.cfg
// expect: verified
// why: every iteration allocates a fresh lock and locks and unlocks it once, so each
// object sees `lock unlock` or nothing, which is all the spec allows. Unrolling gives
// `%alloc = $1 + 1`, `%alloc = $1 + 2`, …; the inductive fact is that an object
// allocated in an earlier iteration is never allocated again (`$1 < %alloc` after it).
class Main {
    public static void main(String[] args) {
        while (*) {
            ReentrantLock l = new ReentrantLock();
            l.lock();
            l.unlock();
        }
    }
}
