// spec: lock.cfg
// expect: verified
// why: each iteration of the nondeterministic loop emits lock [lock unlock] unlock on the
// same object: a concatenation of balanced blocks.
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        while (*) {
            l.lock();
            if (*) {
                l.lock();
                l.unlock();
            }
            l.unlock();
        }
    }
}
