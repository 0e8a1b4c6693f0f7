// spec: lock.cfg
class Main {
    static void check(int x) {
        if (x < 0) {
            throw new IllegalArgumentException("negative");
        }
    }

    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        l.lock();
        check(Input.readInt());
        l.unlock();
    }
}
