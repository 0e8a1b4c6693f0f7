// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: `m` is a second, fresh lock, so `m == null` never holds and the method goes on to
// unlock `m`, not `l`: the first lock stays locked.
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        l.lock();
        ReentrantLock m = new ReentrantLock();
        if (m == null) {
            return;
        }
        m.unlock();
        m.lock();
    }
}
