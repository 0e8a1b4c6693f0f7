// spec: lock.cfg
// expect: verified
// why: the spec is checked per object (one wildcard): the interleaving lock a, lock b,
// unlock a, unlock b is not nested across objects, but a's projection and b's are both
// `lock unlock` (a and b are two distinct fresh objects).
class Main {
    public static void main(String[] args) {
        ReentrantLock a = new ReentrantLock();
        ReentrantLock b = new ReentrantLock();
        a.lock();
        b.lock();
        a.unlock();
        b.unlock();
    }
}
