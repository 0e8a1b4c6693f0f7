// spec: lock.cfg
// expect: verified
// why: end() unlocks only when the `busy` field is set and clears it; begin() locks and
// sets it. begin end end gives lock unlock (the second end sees busy == false). Needs a
// predicate on the field busy.
class Worker {
    ReentrantLock lock = new ReentrantLock();
    boolean busy = false;

    void begin() {
        lock.lock();
        busy = true;
    }

    void end() {
        if (busy) {
            lock.unlock();
            busy = false;
        }
    }
}

class Main {
    public static void main(String[] args) {
        Worker w = new Worker();
        w.begin();
        w.end();
        w.end();
    }
}
