// spec: lock.cfg
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        int n = Input.readInt();
        do {
            l.lock();
            n = n - 1;
            if (n < 0) { l.unlock(); continue; }
            l.unlock();
        } while (n > 0);
    }
}
