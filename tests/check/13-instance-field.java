// spec: lock.cfg
// expect: verified
// why: each Resource owns a fresh lock (field initialiser); use() locks and unlocks its
// own lock. Two resources => two distinct locks, each with the word lock unlock
// (r1's once or twice).
class Resource {
    ReentrantLock lock = new ReentrantLock();

    void use() {
        lock.lock();
        lock.unlock();
    }
}

class Main {
    public static void main(String[] args) {
        Resource r1 = new Resource();
        Resource r2 = new Resource();
        r1.use();
        r2.use();
        if (*) {
            r1.use();
        }
    }
}
