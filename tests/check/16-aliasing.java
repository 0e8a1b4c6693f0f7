// spec: lock.cfg
// expect: verified
// why: b is an alias of a (same object), so the object sees lock unlock; also through a
// field of a holder object set to the same reference.
class Holder {
    ReentrantLock l;

    Holder(ReentrantLock x) {
        l = x;
    }
}

class Main {
    public static void main(String[] args) {
        ReentrantLock a = new ReentrantLock();
        ReentrantLock b = a;
        a.lock();
        b.unlock();
        Holder h1 = new Holder(a);
        Holder h2 = new Holder(b);
        h1.l.lock();
        h2.l.unlock();
    }
}
