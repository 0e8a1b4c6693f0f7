// spec: lock.cfg
// expect: violation
// word: $1.lock() $1.lock() $1.lock() $1.unlock()
// why: A's constructor locks 2n times and unlocks never; B's balances its own n. Each
// constructor's loop pair becomes a private method of its class, and a private method is
// never overridden: with n = 1, lock lock (A) then lock unlock (B) leaves two locks held.
class A {
    A(ReentrantLock l, int n) {
        for (int i = 0; i < n; i++) {
            l.lock();
        }
        for (int j = 0; j < n; j++) {
            l.lock();
        }
    }
}

class B extends A {
    B(ReentrantLock l, int n) {
        super(l, n);
        for (int i = 0; i < n; i++) {
            l.lock();
        }
        for (int j = 0; j < n; j++) {
            l.unlock();
        }
    }
}

class Main {
    public static void main(String[] args) {
        new B(new ReentrantLock(), Input.readInt());
    }
}
