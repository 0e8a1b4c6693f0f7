// spec: lock.cfg
class Pair {
    ReentrantLock first = new ReentrantLock();
    ReentrantLock second = new ReentrantLock();

    void both() {
        first.lock();
        second.lock();
        second.unlock();
        first.unlock();
    }

    public static void main(String[] args) {
        Pair p = new Pair();
        p.both();
        p.both();
    }
}
