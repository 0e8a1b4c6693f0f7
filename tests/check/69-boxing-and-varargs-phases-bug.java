// spec: lock.cfg
// expect: violation
// word: $1.unlock() $1.lock()
// why: `v("x")` matches `v(Object)` in the first phase; `v(1, 2)` only the
// variable-arity `v(int...)`: the order is unlock, then lock — an unlock before any lock.
class Main {
    static ReentrantLock L = new ReentrantLock();
    static void v(Object o) { L.unlock(); }
    static void v(int... xs) { L.lock(); }
    public static void main(String[] args) { v("x"); v(1, 2); }
}
