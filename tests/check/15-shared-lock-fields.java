// spec: lock.cfg
// expect: violation
// word: $1.lock() $1.lock() $1.unlock()
// why: both workers hold the SAME lock (constructor argument). w1.begin, w2.begin,
// w1.end emit lock lock unlock on it (w1's busy flag is its own): one lock stays open.
// The only execution; other objects see the empty word.
class Worker {
    ReentrantLock lock;
    boolean busy;

    Worker(ReentrantLock l) {
        lock = l;
        busy = false;
    }

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
        ReentrantLock l = new ReentrantLock();
        Worker w1 = new Worker(l);
        Worker w2 = new Worker(l);
        w1.begin();
        w2.begin();
        w1.end();
    }
}
