// spec: lock.cfg
class Holder {
    ReentrantLock lock;
    Holder next;
}

class Main {
    public static void main(String[] args) {
        Holder h1 = new Holder();
        Holder h2 = new Holder();
        h1.lock = new ReentrantLock();
        h2.lock = h1.lock;
        h1.next = h2;
        h1.lock.lock();
        h1.next.lock.unlock();
        Holder h3 = h1;
        h3.lock = null;
    }
}
