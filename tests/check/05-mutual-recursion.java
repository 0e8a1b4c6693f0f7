// spec: lock.cfg
// expect: verified
// why: a(n) = if n > 0 { lock; b(n) } and b(n) = a(n-1); unlock, and b is only called
// from a with n > 0. So a(n) = lock a(n-1) unlock for n > 0, empty otherwise: the word is
// lock^k unlock^k on the single lock.
class Main {
    static void a(ReentrantLock l, int n) {
        if (n > 0) {
            l.lock();
            b(l, n);
        }
    }

    static void b(ReentrantLock l, int n) {
        a(l, n - 1);
        l.unlock();
    }

    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        a(l, Input.readInt());
    }
}
