// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: two calls of the external Pool.get() may return different objects (results are
// arbitrary and independent). Then a sees `lock` and b sees `unlock`.
class Main {
    public static void main(String[] args) {
        ReentrantLock a = Pool.get();
        ReentrantLock b = Pool.get();
        a.lock();
        b.unlock();
    }
}
