// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: A.run calls A's private step(), whatever the object's class (JLS 8.4.8: a private
// method is not inherited, so B.step overrides nothing): the lock is never released.
class A {
    void run(ReentrantLock l) {
        step(l);
    }

    private void step(ReentrantLock l) {
        l.lock();
    }
}

class B extends A {
    private void step(ReentrantLock l) {
        l.lock();
        l.unlock();
    }
}

class Main {
    public static void main(String[] args) {
        new B().run(new ReentrantLock());
    }
}
