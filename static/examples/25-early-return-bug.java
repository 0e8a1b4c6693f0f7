// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: process() returns early without unlocking when `skip` is true (an arbitrary
// boolean from Input.readBool()); main calls it once: `lock` is the violating word.
class Main {
    static void process(ReentrantLock l, boolean skip) {
        l.lock();
        if (skip) {
            return;
        }
        l.unlock();
    }

    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        boolean skip = Input.readBool();
        process(l, skip);
    }
}
